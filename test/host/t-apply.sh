#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-apply.sh - tests of a patch that does not apply (apply_one,
# tools/stages/apply.sh), on a small real repository: the details name
# the patch (file and subject), each failing file and hunk, and say
# whether `git am -3` would apply it: cleanly (the patch was made on an
# older commit the repository holds), with conflicts, or not at all (the
# blobs of its index lines are not in the repository); the summary says
# the same in short. Whatever failed, the worktree is left as it was:
# HEAD, index and files, no git am under way, no scratch file; and the
# next patch applies.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/stages/apply.sh
source "$T_TOP/tools/stages/apply.sh"

D=$T_TMP/apply
KREPO=$D/kernel.git
WT=$D/worktree
WT_DESC="a throwaway worktree at $WT"
SRC=$D/src
P=$D/patches
mkdir -p "$D" "$P"

t_plan 28

export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@localhost \
	GIT_AUTHOR_DATE="2020-02-21 11:00:00 +0000"

# g(): git in the source repository, where the patches are made.
g()
{
	git -C "$SRC" -c core.hooksPath=/dev/null "$@"
}

# lines(): print lines 1..30 of a C file, line $1 (if given) as $2.
lines()
{
	local at=${1:-0}
	local text=${2:-}
	local i

	for ((i = 1; i <= 30; i++)); do
		if ((i == at)); then
			echo "$text"
		else
			echo "int line$i;"
		fi
	done
}

# commit(): commit the source tree with subject $1.
commit()
{
	g add -A . && g commit -q -m "$1"
}

# patch_of(): format the last commit of the source repository as $P/$1.
patch_of()
{
	g format-patch -q -1 --stdout > "$P/$1"
}

# The old commit, then the base the patches are applied on: line 12 of
# a.c and line 22 of b.c changed.
git init -q "$SRC"
lines > "$SRC/a.c"
lines > "$SRC/b.c"
commit old
OLD=$(g rev-parse HEAD)
lines 12 'int base12;' > "$SRC/a.c"
lines 22 'int base22;' > "$SRC/b.c"
commit base
BASE=$(g rev-parse HEAD)

# threeway.patch: made on the old commit, lines 10 of a.c and 20 of
# b.c; the lines the base changed are in the context of its hunks
# (fails), two lines away from the changes (merges cleanly).
g checkout -q --detach "$OLD"
lines 10 'static int line10;' > "$SRC/a.c"
lines 20 'static int line20;' > "$SRC/b.c"
commit "a: Make line10 static"
patch_of threeway.patch
# conflict.patch: made on the old commit, changes line 12 itself.
g checkout -q --detach "$OLD"
lines 12 'long line12;' > "$SRC/a.c"
commit "a: Make line12 long"
patch_of conflict.patch
# noblob.patch: made on a local change the repository never sees.
g checkout -q --detach "$OLD"
lines 25 'int local25;' > "$SRC/a.c"
commit "local change"
lines 25 'int changed25;' > "$SRC/a.c"
commit "a: Change line 25"
patch_of noblob.patch
# good.patch: made on the base.
g checkout -q --detach "$BASE"
echo 'int added;' >> "$SRC/a.c"
commit "a: Add a line"
patch_of good.patch

# The kernel repo holds the old commit and the base only.
git init -q --bare "$KREPO"
g push -q "$KREPO" "$BASE:refs/heads/base"
git --git-dir="$KREPO" worktree add -q --detach "$WT" "$BASE"

# fails(): apply_one of patch $1 fails (exit 1) and leaves the worktree
# as it was (five results); LOG and DETAIL are its log and details.
fails()
{
	local name=$1; shift
	local index rc

	LOG=$D/$name.log
	DETAIL=$D/$name.txt
	APPLY_WHY=
	index=$(wt_index)
	cp "$index" "$D/index.before"
	apply_one "$P/$name" "$LOG" "$DETAIL"
	rc=$?
	t_eq "$name: git am fails" 1 "$rc"
	t_eq "$name: HEAD is the base" "$BASE" "$(git_k rev-parse HEAD)"
	t_eq "$name: no git am under way, nothing changed or left in the worktree" \
		"no|" "$([[ -e "$(git_k rev-parse --git-path rebase-apply)" ]] && echo yes || echo no)|$(
		git_k status --porcelain --ignored)"
	t_eq "$name: the index is the base's" "" \
		"$(git_k diff-index --cached --name-only "$BASE")$(git_k ls-files -u)"
	t_eq "$name: no scratch file next to the log" "$LOG" "$(ls -d "$LOG"*)"
}

fails threeway.patch
t_eq "threeway: the summary names the first failing hunk, and that git am -3 works" \
	" at a.c:7 and 1 more; git am -3 would apply it" "$APPLY_WHY"
t_grep "threeway: details name the patch file and subject" \
	'^actual: "a: Make line10 static" \(threeway\.patch\) does not apply: git am failed$' "$DETAIL"
t_grep "threeway: details name a.c's failing hunk, with its header" \
	'^failing hunk: a\.c:7 @@ -7,7 \+7,7 @@ int line6;$' "$DETAIL"
t_grep "threeway: and b.c's" '^failing hunk: b\.c:17 @@ -17,7 \+17,7 @@ int line16;$' "$DETAIL"
t_grep "threeway: details say git am -3 applies it cleanly" \
	'^three-way: git am -3 would apply it cleanly' "$DETAIL"
t_grep "threeway: the next step says git am -3 does it" \
	"^next: rebase threeway\.patch onto ${BASE:0:12} .*, git am -3 does it, and rerun$" "$DETAIL"
t_grep "threeway: git's own words are quoted" '^  error: patch failed: a\.c:7$' "$DETAIL"

fails conflict.patch
t_eq "conflict: the summary says git am -3 conflicts" \
	" at a.c:9; git am -3 conflicts" "$APPLY_WHY"
t_grep "conflict: details say where" '^three-way: git am -3 would conflict in a\.c$' "$DETAIL"

fails noblob.patch
t_eq "noblob: the summary says git am -3 cannot work" \
	" at a.c:22; git am -3 cannot work: the base lacks its blobs" "$APPLY_WHY"
t_grep "noblob: details name the blob the base lacks" \
	"^three-way: git am -3 cannot work: the base lacks the blob\(s\) $(
	sed -n 's/^index \([0-9a-f]*\)\.\..*/\1/p' "$P/noblob.patch") the patch" "$DETAIL"
t_grep "noblob: details quote what git did not find" '^  error: while searching for:$' "$DETAIL"

apply_one "$P/good.patch" "$D/good.log" "$D/good.txt"
t_eq "after the failures, a patch that applies is applied" "a: Add a line|$BASE" \
	"$(git_k log -1 --format=%s HEAD)|$(git_k rev-parse HEAD~)"

t_done
