#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-keptwt.sh - tests of the kept worktree (tools/worktree.sh): the
# first worktree is checked out, and at the end of the run kept, at the
# commit it was left at; the next run's worktree is that one, moved back,
# its files untouched; a file changed in place, a stray file, a commit
# the repository lacks or a worktree git does not find clean throws it
# away and the worktree is checked out again; what a killed run left is
# kept when clean. On a small real repository.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/worktree.sh
source "$T_TOP/tools/worktree.sh"

D=$T_TMP/keptwt
WORKDIR=$D/work
KREPO=$WORKDIR/kernel.git
WT=$D/root/worktree
wt_kept KEPT_DIR
wt_epoch EPOCH
LOG=$D/worktree.log
JOBS=2
mkdir -p "$WORKDIR" "$D/src/sub"

t_plan 25

# A base commit and a second one.
git init -q --bare "$KREPO"
for f in a.c sub/b.h Makefile; do
	echo "int $(basename "${f%.*}");" > "$D/src/$f"
done
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@localhost GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@localhost
export GIT_INDEX_FILE=$D/src.index
git --git-dir="$KREPO" --work-tree="$D/src" add -A .
BASE=$(git --git-dir="$KREPO" commit-tree -m base "$(git --git-dir="$KREPO" write-tree)")
echo "int other;" > "$D/src/a.c"
git --git-dir="$KREPO" --work-tree="$D/src" add -A .
OTHER=$(git --git-dir="$KREPO" commit-tree -p "$BASE" -m other \
	"$(git --git-dir="$KREPO" write-tree)")
unset GIT_INDEX_FILE

# new_worktree(): what a run does: a worktree (on commit $1 when it is
# checked out), a checkout of commit $2 when given, then the run's end;
# keeps what the checks need (a.c's inode, both files' mtimes, whether
# git finds it clean, its HEAD at the start, both files' text).
new_worktree()
{
	local base=$1; shift
	local to=${1:-}

	: > "$LOG"
	stage_worktree "$base" "$LOG" || return 1
	INO=$(stat -c %i "$WT/a.c")
	MTIME_A=$(stat -c %Y "$WT/a.c")
	MTIME_B=$(stat -c %Y "$WT/sub/b.h")
	CLEAN=$(git -C "$WT" status --porcelain | wc -l)
	HEAD=$(git -C "$WT" rev-parse HEAD)
	B_H=$(cat "$WT/sub/b.h")
	A_C=$(cat "$WT/a.c")
	[[ -z "$to" ]] || git_k checkout -q --detach "$to"
	worktree_remove
}

# registered(): "yes" when $WT is a worktree of $KREPO, on disk or listed.
registered()
{
	local n
	n=$(git --git-dir="$KREPO" worktree list --porcelain | grep -c "^worktree $WT\$")
	if ((n > 0)) || [[ -e "$WT" ]]; then echo yes; else echo no; fi
}

new_worktree "$BASE"
t_grep "first worktree: checked out" '^Preparing worktree' "$LOG"
t_grep "at the end, kept at its commit" "^kept the worktree, at $BASE, as $KEPT_DIR\$" "$LOG"
t_eq "the kept worktree says which commit it holds" "$BASE" "$(cat "$KEPT_DIR.commit")"
t_eq "kernel.git does not compare ctimes" false \
	"$(git --git-dir="$KREPO" config --get core.trustctime)"
t_eq "no worktree left, registered or on disk" no "$(registered)"
ino1=$(stat -c %i "$KEPT_DIR/a.c")

new_worktree "$BASE" "$OTHER"
t_grep "second worktree: the kept one" "^the worktree is the kept worktree, at $BASE\$" "$LOG"
t_eq "its files were moved, not written (same inode)" "$ino1" "$INO"
t_eq "they keep the fixed old mtime" "$EPOCH $EPOCH" "$MTIME_A $MTIME_B"
t_eq "git finds it clean, at the commit" "0 $BASE" "$CLEAN $HEAD"
t_eq "checked out elsewhere, it is kept there" "$OTHER" "$(cat "$KEPT_DIR.commit")"

new_worktree "$BASE"
t_eq "the next run starts where the last one left the worktree" "$OTHER 0" "$HEAD $CLEAN"
t_eq "the file git rewrote has a new mtime, the other its old one" "new $EPOCH" \
	"$( ((MTIME_A > EPOCH)) && echo new || echo "$MTIME_A") $MTIME_B"

# Another program wrote into a file of the kept worktree.
echo "int changed;" >> "$KEPT_DIR/sub/b.h"
new_worktree "$BASE"
t_grep "a file of the kept worktree changed: it is dropped" \
	'^the kept worktree is of no use: dropping it' "$LOG"
t_grep "saying which file" '^sub/b\.h: needs update' "$LOG"
t_eq "the worktree is checked out again, on the base commit" "$BASE int b;" "$HEAD $B_H"

echo stray > "$KEPT_DIR/sub/stray.c"
new_worktree "$BASE"
t_grep "a stray file in the kept worktree: it is dropped" \
	"^files not of $BASE in $KEPT_DIR: sub/stray\\.c" "$LOG"
t_eq "no stray file in the next kept worktree" no \
	"$([[ -e "$KEPT_DIR/sub/stray.c" ]] && echo yes || echo no)"

echo 0123456789012345678901234567890123456789 > "$KEPT_DIR.commit"
new_worktree "$BASE"
t_grep "a commit the repository lacks: it is dropped" \
	'^0123456789012345678901234567890123456789 is not in ' "$LOG"

# A killed run leaves its worktree, registered, at $WT: kept when clean.
: > "$LOG"
stage_worktree "$BASE" "$LOG"
git_k checkout -q --detach "$OTHER"
new_worktree "$BASE"
t_grep "a worktree a killed run left: kept" "^kept the worktree, at $OTHER, as " "$LOG"
t_eq "and used" "$OTHER" "$HEAD"

# ... and dropped when git does not find it clean.
: > "$LOG"
stage_worktree "$BASE" "$LOG"
echo "int edited;" >> "$WT/a.c"
new_worktree "$BASE"
t_grep "a changed worktree a killed run left: not used" \
	'^the kept worktree is of no use: dropping it' "$LOG"
t_eq "the worktree is checked out again, with the commit's file" "$BASE int a;" \
	"$HEAD $A_C"

# KEEP=1: the worktree stays registered, the next run takes it over.
: > "$LOG"
stage_worktree "$BASE" "$LOG"
KEEP=1 worktree_remove 2> /dev/null
t_eq "KEEP=1: the worktree stays" yes "$(registered)"
new_worktree "$BASE"
t_grep "the next run keeps and uses it" "^the worktree is the kept worktree, at $BASE\$" "$LOG"

# At the end, as after every run, nothing is registered.
t_eq "nothing is left registered" no "$(registered)"

t_done
