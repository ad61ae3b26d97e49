#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-30-bisect-run.sh - end to end: `git bisect run tools/bisect-run` finds
# the commit of the posted series (v1) that breaks "the sample loads with
# its default symbol": 2/3. Runs after t-10-bisect-v1.sh, whose results it
# reuses through the cache. Also checks the exit-code contract.
#
# The tree it bisects sits where bisect-check puts its own worktree: the
# cache keys of a build hold the tree's path (a build dir is not
# relocatable), so there the commits t-10 built are found in the cache
# and the test makes no cold build of a path of its own. It holds the
# WORKDIR lock meanwhile, so that no bisect-check run wants that path.

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

KREPO=$WORKDIR/kernel.git
WT=$(wt_root "$WORKDIR")/worktree
SERIES=$T_TOP/test/series/v1.yaml
export SERIES

# cleanup(): remove the test's worktree from the shared kernel repo.
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup()
{
	git --git-dir="$KREPO" worktree remove --force "$WT" >/dev/null 2>&1
	rm -rf "$WT"
	git --git-dir="$KREPO" worktree prune
}
trap 'cleanup; rm -rf "$T_TMP"' EXIT

t_plan 13

if ! git --git-dir="$KREPO" rev-parse -q --verify bisect/unexport-kallsyms-v1/v1 >/dev/null; then
	e2e_run "$SERIES" LOCK_WAIT=900
fi
exec {LOCK}>> "$WORKDIR/lock"
if ! flock -w 900 "$LOCK"; then
	echo "Bail out! WORKDIR=$WORKDIR is still busy after 900 s"
	exit 1
fi
base=$(git --git-dir="$KREPO" rev-parse bisect/unexport-kallsyms-v1/v1-base)
tip=$(git --git-dir="$KREPO" rev-parse bisect/unexport-kallsyms-v1/v1)
cleanup
git --git-dir="$KREPO" worktree add -q --detach "$WT" "$tip"

t_rc "the tip (3/3) is bad for hwbp-default-load" 1 \
	"$T_TOP/tools/bisect-run" --expect hwbp-default-load=yes "$WT"
t_grep "the verdict quotes the guest" 'ENXIO' "$T_OUT"
t_grep "its build is t-10's artifact: no build of a path of its own" \
	'build: (cached-)?ok \([0-9.]+s\) .*#[0-9a-f]{12}, built earlier' "$T_OUT"
t_grep "the boot names the kernel it proved it ran (3/3 of v1: a BUG on rmmod)" \
	'boot: (cached-)?FAIL \([0-9.]+s\) .*oops, booted #[0-9a-f]{12} ' "$T_OUT"
t_eq "the kernel booted is the one built" \
	"$(grep -o 'build: .*#[0-9a-f]\{12\}' "$T_OUT" | grep -o '#[0-9a-f]\{12\}')" \
	"$(grep -o 'booted #[0-9a-f]\{12\}' "$T_OUT" | cut -d' ' -f2)"
git -C "$WT" checkout -q "$tip~2"
t_rc "1/3 is good for hwbp-default-load" 0 \
	"$T_TOP/tools/bisect-run" --expect hwbp-default-load=yes "$WT"
t_rc "an unknown test id is a setup error (128)" 128 \
	"$T_TOP/tools/bisect-run" --expect no-such-test=yes "$WT"
t_rc "an unknown target is a setup error (128)" 128 \
	"$T_TOP/tools/bisect-run" --target no-such-target --expect hwbp-default-load=yes "$WT"
t_grep "the error names the declared targets" 'declares no such target \(declared: x86_64-gcc arm64-gcc x86_64-clang\)' "$T_OUT"

git -C "$WT" bisect start "$tip" "$base" >/dev/null
git -C "$WT" bisect run "$T_TOP/tools/bisect-run" --expect hwbp-default-load=yes \
	> "$T_TMP/bisect.log" 2>&1
t_grep "git bisect run finishes" 'is the first bad commit' "$T_TMP/bisect.log"
t_eq "the first bad commit is 2/3" "$(git --git-dir="$KREPO" rev-parse "$tip~1")" \
	"$(git -C "$WT" rev-parse refs/bisect/bad)"
git -C "$WT" bisect reset -q >/dev/null 2>&1
t_eq "the kernel tree is left clean" "" "$(git -C "$WT" status --porcelain)"
t_nogrep "no QEMU left running" . <(pgrep -a -f '^qemu-system' || true)

t_done
