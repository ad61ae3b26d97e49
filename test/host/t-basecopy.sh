#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-basecopy.sh - tests of the base copy (tools/stages/apply.sh): the
# first worktree is checked out and kept as the base copy; the next one
# is a hard-link copy of it, clean to git, with the old mtimes; a file
# of the base copy changed in place, a stray file in it, or another
# base commit throws it away and the worktree is checked out again. On
# a small real repository.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/stages/apply.sh
source "$T_TOP/tools/stages/apply.sh"

D=$T_TMP/basecopy
WORKDIR=$D/work
KREPO=$WORKDIR/kernel.git
WT=$D/root/worktree
WT_BASE=$WT-base
LOG=$D/worktree.log
JOBS=2
mkdir -p "$WORKDIR" "$D/src/sub"

t_plan 17

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

# new_worktree(): what a run does: a fresh worktree on commit $1, then
# its removal (the run's end); keeps what the checks need of it (a.c's
# inode and mtime, sub/b.h, whether git finds it clean, its HEAD).
new_worktree()
{
	local base=$1; shift

	: > "$LOG"
	stage_worktree "$base" "$LOG" || return 1
	INO=$(stat -c %i "$WT/a.c")
	MTIME=$(stat -c %Y "$WT/a.c")
	CLEAN=$(git -C "$WT" status --porcelain | wc -l)
	HEAD=$(git -C "$WT" rev-parse HEAD)
	B_H=$(cat "$WT/sub/b.h")
	worktree_remove
}

new_worktree "$BASE"
t_grep "first worktree: checked out, then kept as the base copy" \
	'^kept the worktree.s files as the base copy ' "$LOG"
t_eq "the base copy says which commit it holds" "$BASE" "$(cat "$WT_BASE.commit")"
t_eq "kernel.git does not compare ctimes (a hard link changes them)" false \
	"$(git --git-dir="$KREPO" config --get core.trustctime)"
t_eq "the worktree is gone at the end, registered or on disk" "0 no" \
	"$(git --git-dir="$KREPO" worktree list --porcelain | grep -c "^worktree $WT\$") $([[ -e "$WT" ]] && echo yes || echo no)"

new_worktree "$BASE"
t_grep "second worktree: a hard-link copy of the base copy" \
	'^the worktree is a hard-link copy of the base copy ' "$LOG"
t_eq "its files are the base copy's (same inode)" "$(stat -c %i "$WT_BASE/a.c")" "$INO"
t_eq "they keep the fixed old mtime" "$WT_EPOCH" "$MTIME"
t_eq "git finds it clean, at the base commit" "0 $BASE" "$CLEAN $HEAD"

# Another program wrote into a file of the base copy (a shared inode:
# an editor that writes in place into a kept worktree does that).
echo "int changed;" >> "$WT_BASE/sub/b.h"
new_worktree "$BASE"
t_grep "a file of the base copy changed in place: it is dropped" \
	'^files of the base copy changed \(above\): dropping it' "$LOG"
t_nogrep "and the worktree is not made from it" 'hard-link copy' "$LOG"
t_eq "the worktree checked out again has the commit's file" "int b;" "$B_H"
t_eq "a new base copy holds the commit's files" "int b;" "$(cat "$WT_BASE/sub/b.h")"

echo stray > "$WT_BASE/sub/stray.c"
new_worktree "$BASE"
t_grep "a stray file in the base copy: it is dropped" \
	'^files not of [0-9a-f]+ in the base copy \(sub/stray\.c\): dropping it' "$LOG"
t_eq "no stray file in the new base copy" no "$([[ -e "$WT_BASE/sub/stray.c" ]] && echo yes || echo no)"

new_worktree "$OTHER"
t_grep "another base commit: the base copy is dropped" \
	"^the base copy holds $BASE, not $OTHER: dropping it" "$LOG"
t_eq "and then holds the new one" "$OTHER int other;" \
	"$(cat "$WT_BASE.commit") $(cat "$WT_BASE/a.c")"

# A worktree git changes (a checkout) never writes into the base copy.
stage_worktree "$OTHER" "$LOG"
git -C "$WT" -c advice.detachedHead=false checkout -q --detach "$BASE"
t_eq "a checkout in the worktree leaves the base copy as it was" "int other;" \
	"$(cat "$WT_BASE/a.c")"
worktree_remove

t_done
