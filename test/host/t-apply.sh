#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-apply.sh - the apply stage program (tools/stages/apply), run as the
# cell runner runs it (its inputs file, a clean environment), on a small
# real repository. A patch that does not apply: the details name the
# patch (file and subject), each failing file and hunk, and say whether
# `git am -3` would apply it: cleanly (the patch was made on an older
# commit the repository holds), with conflicts, or not at all (the blobs
# of its index lines are not in the repository); the summary says the
# same in short. Whatever failed, the worktree is left as it was: HEAD,
# index and files, no git am under way, no scratch file; and the next
# patch applies, as the same commit each time. A worktree not at the
# commit the inputs name is no verdict, nor is a patch that fails on a
# worktree with changes of its own (which is cleaned).

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

D=$T_TMP/apply
KREPO=$D/kernel.git
WT=$D/worktree
SRC=$D/src
P=$D/patches
mkdir -p "$D" "$P"

t_plan 37

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
# newfile.patch: made on the base, adds c.c.
g checkout -q --detach "$BASE"
lines > "$SRC/c.c"
commit "c: Add c.c"
patch_of newfile.patch

# The kernel repo holds the old commit and the base only.
git init -q --bare "$KREPO"
g push -q "$KREPO" "$BASE:refs/heads/base"
git --git-dir="$KREPO" worktree add -q --detach "$WT" "$BASE"

# apply(): run the program on step $1 with onto commit $2 and patch
# files $3... (names in $P), as tools/cell.sh runs it; its record, log
# and details are $D/$1.{rec,log,txt}, REC, LOG and DETAIL.
apply()
{
	local idx=$1; shift
	local onto=$1; shift
	local in=$D/$idx.inputs p

	REC=$D/$idx.rec LOG=$D/$idx.log DETAIL=$D/$idx.txt
	rm -f "$REC" "$LOG" "$DETAIL"
	for p in "$@"; do
		echo "$P/$p"
	done > "$D/$idx.patches"
	printf '%s\t%s\n' kernel-repo-rw "$KREPO" worktree-rw "$WT" onto "$onto" \
		patches "$D/$idx.patches" idx "$idx" git - > "$in"
	# shellcheck disable=SC2094  # the program appends to its log too
	env -i PATH="$PATH" "${APPLY_ENV[@]}" "$T_TOP/tools/stages/apply" "$in" "$REC" "$LOG" "$DETAIL" \
		>> "$LOG" 2>&1
}

# More of the program's environment (apply's, one call): none.
APPLY_ENV=()

# rec(): field $1 of the last record.
rec()
{
	sed -n "s/^$1\t//p" "$REC"
}

# fails(): the program fails patch $1 and leaves the worktree as it was
# (five results).
fails()
{
	local name=$1; shift
	local index

	index=$(git -C "$WT" rev-parse --git-path index)
	cp "$index" "$D/index.before"
	apply 1 "$BASE" "$name"
	t_eq "$name: git am fails, no commit made" "FAIL|" "$(rec status)|$(rec out)"
	t_eq "$name: HEAD is the base" "$BASE" "$(git -C "$WT" rev-parse HEAD)"
	t_eq "$name: no git am under way, nothing changed or left in the worktree" \
		"no|" "$([[ -e "$(git -C "$WT" rev-parse --git-path rebase-apply)" ]] && echo yes || echo no)|$(
		git -C "$WT" status --porcelain --ignored)"
	t_eq "$name: the index is the base's" "" \
		"$(git -C "$WT" diff-index --cached --name-only "$BASE")$(git -C "$WT" ls-files -u)"
	t_eq "$name: no scratch file next to the log" "$LOG" "$(ls -d "$LOG"*)"
}

fails threeway.patch
t_eq "threeway: the summary names the patch, the first failing hunk, and that git am -3 works" \
	"threeway.patch does not apply at a.c:7 and 1 more; git am -3 would apply it" "$(rec summary)"
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

# A system git config (what /etc/gitconfig would say) that makes git am
# three-way: not read, the patch fails as it does without one.
printf '[am]\n\tthreeWay = true\n' > "$D/sysconfig"
APPLY_ENV=(GIT_CONFIG_SYSTEM="$D/sysconfig")
apply 1 "$BASE" threeway.patch
APPLY_ENV=()
t_eq "a system git config's am.threeWay is not read: threeway.patch still does not apply" \
	"FAIL|$BASE" "$(rec status)|$(git -C "$WT" rev-parse HEAD)"

fails conflict.patch
t_eq "conflict: the summary says git am -3 conflicts" \
	"conflict.patch does not apply at a.c:9; git am -3 conflicts" "$(rec summary)"
t_grep "conflict: details say where" '^three-way: git am -3 would conflict in a\.c$' "$DETAIL"

fails noblob.patch
t_eq "noblob: the summary says git am -3 cannot work" \
	"noblob.patch does not apply at a.c:22; git am -3 cannot work: the base lacks its blobs" \
	"$(rec summary)"
t_grep "noblob: details name the blob the base lacks" \
	"^three-way: git am -3 cannot work: the base lacks the blob\(s\) $(
	sed -n 's/^index \([0-9a-f]*\)\.\..*/\1/p' "$P/noblob.patch") the patch" "$DETAIL"
t_grep "noblob: details quote what git did not find" '^  error: while searching for:$' "$DETAIL"

apply 1 "$BASE" good.patch
MADE=$(rec 'out\tsha')
t_eq "after the failures, a patch that applies is applied: its author in the summary, the commit in out sha" \
	"ok|A U Thor <author@example.org> Fri Feb 21 11:00:00 2020 +0000|a: Add a line|$BASE|$MADE" \
	"$(rec status)|$(rec summary)|$(git -C "$WT" log -1 --format=%s HEAD)|$(git -C "$WT" rev-parse HEAD~)|$(git -C "$WT" rev-parse HEAD)"
t_eq "the committer is the program's, at the author's date" \
	"bisect-check <bisect-check@localhost> 1582282800" \
	"$(git -C "$WT" log -1 --format='%cn <%ce> %ct' HEAD)"
git -C "$WT" checkout -q --detach "$BASE"
sleep 1
apply 1 "$BASE" good.patch
t_eq "the same patch on the same commit, a second later: the same commit" "$MADE" "$(rec 'out\tsha')"

apply 1 "$BASE" good.patch
t_eq "a worktree not at the commit onto names: no verdict, not stored, nothing applied" \
	"FAIL|the worktree $WT is at $MADE, not at $BASE (the driver checks it out)|1|$MADE" \
	"$(rec status)|$(rec summary)|$(rec nocache)|$(git -C "$WT" rev-parse HEAD)"

# A worktree with changes of its own (a file changed, a file git does not
# track): a patch that fails on it is no verdict on the patch.
git -C "$WT" checkout -q --detach "$BASE"
echo 'int mine;' >> "$WT/a.c"
apply 1 "$BASE" good.patch
t_eq "a tracked file changed in the worktree: no verdict, not stored, the worktree cleaned" \
	"FAIL|good.patch: no verdict: the worktree $WT was not that of its HEAD (changed: a.c)|1|$BASE|" \
	"$(rec status)|$(rec summary)|$(rec nocache)|$(git -C "$WT" rev-parse HEAD)|$(git -C "$WT" status --porcelain --ignored)"
lines > "$WT/c.c"
apply 1 "$BASE" newfile.patch
t_eq "a file git does not track where the patch adds one: the same" \
	"FAIL|newfile.patch: no verdict: the worktree $WT was not that of its HEAD (not tracked: c.c)|1|" \
	"$(rec status)|$(rec summary)|$(rec nocache)|$(git -C "$WT" status --porcelain --ignored)"
t_grep "the details say what was found and what to do" \
	'^next: no verdict on newfile\.patch; rerun' "$DETAIL"
apply 1 "$BASE" newfile.patch
t_eq "on the cleaned worktree the patch applies" "ok|c: Add c.c" \
	"$(rec status)|$(git -C "$WT" log -1 --format=%s HEAD)"

git -C "$WT" checkout -q --detach "$BASE"
apply 0 "$BASE"
t_eq "the preparation without a patch: ok, its commit the base" "ok|0 patch(es)|$BASE" \
	"$(rec status)|$(rec summary)|$(rec 'out\tsha')"

t_done
