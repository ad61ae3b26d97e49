#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-long-series.sh - write a longer series for the staleness check and
# the bench: the series of series.yaml (v2) plus N commits that each add
# one comment line to the end of a different compiled-in file, made with
# git format-patch on the v2 branch of the kernel repo. Every added step
# expects what 3/3 expects.
#
# Usage: test/e2e/make-long-series.sh OUTDIR [N [NONCE]]   (N <= 20,
# default 16). Needs a kernel repo in WORKDIR with the v2 branch (make
# bisect-check). NONCE, a text, goes into every comment: other commits
# than the last time, so that nothing of them is in the cache (the bench
# measures).

# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
# shellcheck source=tools/series.sh
source "$TOP/tools/series.sh"
# shellcheck source=tools/worktree.sh
source "$TOP/tools/worktree.sh"

KREPO=$WORKDIR/kernel.git
BRANCH=bisect/unexport-kallsyms/v2
# Always built in (obj-y) with tools/kconfig/bisect.config.
FILES=(kernel/fork.c kernel/exit.c kernel/sys.c kernel/signal.c kernel/softirq.c
	kernel/resource.c kernel/capability.c kernel/ptrace.c kernel/user.c
	kernel/workqueue.c kernel/pid.c kernel/extable.c kernel/params.c
	kernel/kthread.c kernel/notifier.c kernel/cred.c kernel/reboot.c
	kernel/async.c kernel/groups.c kernel/ucount.c)

main()
{
	local out=${1:-} n=${2:-16} nonce=${3:-}
	local wt i f yaml last id step answer
	local -a tests

	[[ -n "$out" ]] || die "usage: $0 OUTDIR [N [NONCE]]"
	if [[ ! "$n" =~ ^[0-9]+$ ]] || ((n < 1 || n > ${#FILES[@]})); then
		die "N must be 1..${#FILES[@]} (got '$n')"
	fi
	git --git-dir="$KREPO" rev-parse -q --verify "$BRANCH" > /dev/null ||
		die "$KREPO has no $BRANCH: run make bisect-check first"
	mkdir -p "$out" || die "cannot create $out"
	out=$(realpath "$out")
	wt=$(mktemp -d "${TMPDIR:-/tmp}/long-series.XXXXXX")
	defer_init
	defer worktree_drop "$KREPO" "$wt"
	git --git-dir="$KREPO" worktree add -q --detach "$wt" "$BRANCH" ||
		die "cannot check out $BRANCH"
	rm -f "$out"/*.patch
	for ((i = 0; i < n; i++)); do
		f=${FILES[i]}
		printf '\n/* bisect-check long series: comment %d%s */\n' "$((i + 1))" \
			"${nonce:+ ($nonce)}" >> "$wt/$f"
		git -C "$wt" -c user.name='Long Series' -c user.email=long-series@example.org \
			commit -q -a --date="2020-03-05 10:$(printf %02d "$i"):00 +0000" \
			-m "${f%.c}: Add comment $((i + 1))" \
			-m "One comment line at the end of the file, made by make-long-series." \
			-m 'Signed-off-by: Long Series <long-series@example.org>' ||
			die "cannot commit the change to $f"
	done
	git -C "$wt" format-patch -q --zero-commit -o "$out" "-$n" || die "format-patch failed"

	# The series of series.yaml, renamed, with the new patches after 3/3.
	load_series "$TOP/series.yaml"
	series_nsteps step
	last=$((step - 1))
	series_set name long-series
	series_tests tests
	for f in "$out"/0*.patch; do
		series_patch_set "$step" "$f"
		for id in "${tests[@]}"; do
			series_expected answer "$last" "$id"
			series_expected_set "$step" "$id" "$answer"
		done
		step=$((step + 1))
	done
	yaml=$out/long.yaml
	series_write > "$yaml"
	"$TOP/tools/bin/series" "$yaml" > /dev/null || die "the series written is not valid: $yaml"
	echo "$yaml"
}

main "$@"; exit $?
