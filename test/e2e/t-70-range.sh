#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-70-range.sh - end to end: a series from a developer's own kernel tree.
# The test makes that tree: a git repository of its own (a clone of the
# imported Debian tree, hard-linked objects, no checkout) with a branch
# of two commits of its own authorship, made without a worktree. Then:
#
#   - tools/bisect-check --range BASE..topic, run in that repository,
#     checks each commit with no series file (the base is the repository
#     at BASE; no claims, so the boots judge splats only) and passes;
#     the applied commits keep their authorship;
#   - the repository is only read: its refs, index, config, HEAD and
#     object store are byte for byte what they were;
#   - --init FILE writes that series (patches beside it) instead, which
#     tools/bin/series accepts and a run of it finds in the cache;
#   - a range with no commit, a range without "..", --init onto a file
#     that exists, and a directory that is no repository are refused
#     with what to do, exit 2.

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

KREPO=$WORKDIR/kernel.git
R=$T_TMP/linux
BC=$T_TOP/tools/bisect-check

# cleanup(): the kernel repo must not keep looking into the test's
# repository once it is gone, nor lose what it borrowed from it: the
# objects of its branches that only the test's repository had (the
# range's commits, which git am found there and did not write again; the
# kept worktree is at one of them) are packed into it first.
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup()
{
	local alt=$KREPO/objects/info/alternates
	if [[ -f "$alt" && -n "${import:-}" ]] && grep -q "^$T_TMP/" "$alt"; then
		git --git-dir="$KREPO" rev-list --objects --branches --not "$import" |
			git --git-dir="$KREPO" pack-objects -q "$KREPO/objects/pack/pack" > /dev/null
		sed -i "\\#^$T_TMP/#d" "$alt"
	fi
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# state(): what a run must not change in repository $1: HEAD, config,
# index, every ref, every file of the object store (path, size, sum).
state()
{
	local gd=$1; shift
	(
		cd "$gd" || exit 1
		cat HEAD config
		[[ -f index ]] && sha1sum index
		git --git-dir=. for-each-ref --format='%(objectname) %(refname)'
		[[ -f packed-refs ]] && cat packed-refs
		find objects -type f -printf '%p %s\n' | sort
		find objects/pack -type f -name '*.pack' -exec sha1sum {} + 2> /dev/null | sort
	) | sha1sum
}

# bail(): the test cannot go on: say why, end with the plan unmet.
bail()
{
	echo "Bail out! $*"
	exit 1
}

t_plan 14

# The imported tree (made by the first bisect-check of this WORKDIR).
if ! git --git-dir="$KREPO" rev-parse -q --verify bisect/unexport-kallsyms/v2 > /dev/null; then
	e2e_run "$T_TOP/series.yaml" LOCK_WAIT=900
fi
import=$(git --git-dir="$KREPO" for-each-ref --count=1 --format='%(refname)' refs/heads/import/)
git clone -q --no-checkout --single-branch -b "${import#refs/heads/}" "$KREPO" "$R" ||
	bail "cannot clone $KREPO"
git -C "$R" branch -q -m base
git -C "$R" remote remove origin

# Two commits of the developer's, on branch topic, made without a
# worktree: each changes one file of the tree and is a clean patch.
commit_edit()
{
	local file=$1; shift
	local msg=$1; shift
	local parent blob tree
	local idx=$T_TMP/index

	parent=$(git -C "$R" rev-parse -q --verify topic || git -C "$R" rev-parse base)
	rm -f "$idx"
	GIT_INDEX_FILE=$idx git -C "$R" read-tree "$parent" || return 1
	blob=$(git -C "$R" show "$parent:$file" | sed '1a /* t-70: an edit of the range test. */' |
		git -C "$R" hash-object -w --stdin) || return 1
	GIT_INDEX_FILE=$idx git -C "$R" update-index --cacheinfo "100644,$blob,$file" || return 1
	tree=$(GIT_INDEX_FILE=$idx git -C "$R" write-tree) || return 1
	git -C "$R" update-ref refs/heads/topic "$(printf '%s\n\n%s\n\nSigned-off-by: Dee Veloper <dee@example.org>\n' \
		"$msg" "An edit that changes nothing the kernel does." |
		GIT_AUTHOR_NAME='Dee Veloper' GIT_AUTHOR_EMAIL=dee@example.org \
		GIT_AUTHOR_DATE='Thu, 5 Mar 2020 09:00:00 +0100' \
		GIT_COMMITTER_NAME='Dee Veloper' GIT_COMMITTER_EMAIL=dee@example.org \
		git -C "$R" commit-tree "$tree" -p "$parent")"
}
commit_edit samples/hw_breakpoint/data_breakpoint.c \
	"samples/hw_breakpoint: Note the range test" || bail "cannot make commit 1"
commit_edit kernel/kallsyms.c "kallsyms: Note the range test" || bail "cannot make commit 2"
before=$(state "$R/.git")

(cd "$R" && LOCK_WAIT=900 "$BC" --range base..topic > "$T_TMP/range.out" 2> "$T_TMP/range.err")
rc=$?
t_eq "--range base..topic in the developer's tree: every step passes" 0 "$rc"
run=$(readlink -f "$WORKDIR/runs/latest")
t_eq "three steps (the base and two commits), each built and booted" \
	"0 ok ok|1 ok ok|2 ok ok" \
	"$(awk -F'\t' '$2 == "'"$E2E_TARGET"'" && ($3 == "build" || $3 == "boot") {
		s[$1] = s[$1] " " $4 } END { for (i = 0; i in s; i++)
		printf "%s%d%s", (i ? "|" : ""), i, s[i] }' "$run/cells.tsv")"
t_grep "the report names the base: the developer's repository at base" \
	"^base	$(git -C "$R" rev-parse base) \\(.* of $R/.git\\)$" "$run/meta.tsv"
t_eq "the applied commits keep the developer's authorship" \
	"Dee Veloper <dee@example.org> Thu, 5 Mar 2020 09:00:00 +0100" \
	"$(git --git-dir="$KREPO" log -1 --date=rfc --format='%an <%ae> %ad' "$(awk -F'\t' '$1 == 2 { print $3 }' "$run/steps.tsv")")"
t_eq "its commits' trees are the developer's" "$(git -C "$R" rev-parse 'topic^{tree}')" \
	"$(git --git-dir="$KREPO" rev-parse "$(awk -F'\t' '$1 == 2 { print $3 }' "$run/steps.tsv")^{tree}")"
t_eq "the developer's repository is unchanged (refs, index, config, objects)" "$before" \
	"$(state "$R/.git")"

mkdir -p "$T_TMP/mine"
t_rc "--init writes the series instead of running it" 0 \
	env -C "$R" "$BC" --range base..topic --init "$T_TMP/mine/series.yaml"
t_eq "--init: the series and its two patches" "2|yes" \
	"$(find "$T_TMP/mine/patches" -name '*.patch' | wc -l)|$("$T_BIN/series" "$T_TMP/mine/series.yaml" > /dev/null && echo yes)"
LOCK_WAIT=900 "$BC" "$T_TMP/mine/series.yaml" > "$T_TMP/init.out" 2> "$T_TMP/init.err"
rc=$?
run=$(readlink -f "$WORKDIR/runs/latest")
t_eq "the written series passes, every build and boot from the cache" "0|0" \
	"$rc|$(awk -F'\t' '($3 == "build" || $3 == "boot") && $8 == "-"' "$run/cells.tsv" | wc -l)"

t_rc "a range with no commit: refused" 2 env -C "$R" "$BC" --range topic..topic
t_grep "and says why" 'no commit in it' "$T_OUT"
t_rc "a range without '..': refused" 2 env -C "$R" "$BC" --range topic
t_rc "--init onto a file that exists: refused, nothing overwritten" 2 \
	env -C "$R" "$BC" --range base..topic --init "$T_TMP/mine/series.yaml"
t_rc "a directory that is no git repository: refused" 2 "$BC" -C "$T_TMP/mine" --range base..topic

t_done
