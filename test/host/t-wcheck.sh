#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-wcheck.sh - tests of the w1 stage's split of its findings
# (tools/stages/wcheck.sh, wcheck_not_built): a W=1 finding the target's
# build printed too is left to the build cell, every other one stays;
# an empty build warnings file keeps them all; typographic quotes of a
# UTF-8 locale match the findings' plain ones. And when the objects of a
# commit's W=1 compile are known before its build (wcheck_plain,
# wcheck_known_early), on a small real repository.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/target.sh
source "$T_TOP/tools/target.sh"
# shellcheck source=tools/cache.sh
source "$T_TOP/tools/cache.sh"
# shellcheck source=tools/stages/wcheck.sh
source "$T_TOP/tools/stages/wcheck.sh"

D=$T_TMP/wcheck
mkdir -p "$D"
TAB=$'\t'
F=samples/hw_breakpoint/data_breakpoint.c

t_plan 16

# Two findings as tools/bin/findings parse prints them.
{
	printf '%s\t%s\t%s\t%s\n' "$F" -Wunused-variable \
		"In function 'hw_break_module_init': unused variable 'x'" "$F:45:6: warning: unused"
	printf '%s\t%s\t%s\t%s\n' "$F" -Wunused-but-set-variable \
		"In function 'hw_break_module_init': variable 'tries' set but not used" \
		"$F:47:13: warning: set"
} > "$D/child.tsv"

: > "$D/none"
wcheck_not_built "$D/child.tsv" "$D/none" > "$D/out" 3> "$D/built"
t_eq "no build warnings: every finding stays" "$(cat "$D/child.tsv")" "$(cat "$D/out")"
t_eq "no build warnings: none is the build's" "" "$(cat "$D/built")"

# The build's warnings as build_warnings writes them, in a UTF-8 locale.
printf '%s: warning: unused variable \342\200\230x\342\200\231 [-Wunused-variable]\n' "$F" \
	> "$D/build"
wcheck_not_built "$D/child.tsv" "$D/build" > "$D/out" 3> "$D/built"
t_eq "the build's warning is left to the build (quotes of any locale)" \
	"$F:45:6: warning: unused" "$(cat "$D/built")"
t_eq "W=1's own warning stays" "$F${TAB}-Wunused-but-set-variable" "$(cut -f1,2 "$D/out")"

# Same message, another kind or file: not the build's.
printf '%s: warning: unused variable '"'x'"' [-Wunused]\n%s: warning: unused variable '"'x'"' [-Wunused-variable]\n' \
	"$F" other.c > "$D/build2"
wcheck_not_built "$D/child.tsv" "$D/build2" > "$D/out" 3> "$D/built"
t_eq "another kind or file does not match" "" "$(cat "$D/built")"
t_eq "so both findings stay" 2 "$(grep -c . "$D/out")"

# A base, then commits that modify a C file; a Makefile; add a file;
# change scripts/.
KREPO=$D/k.git
git init -q --bare "$KREPO"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@localhost GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@localhost GIT_INDEX_FILE=$D/k.index
mkdir -p "$D/src/kernel" "$D/src/scripts"
echo 'int a;' > "$D/src/kernel/a.c"
echo 'obj-y += a.o' > "$D/src/kernel/Makefile"
echo 'true' > "$D/src/scripts/x.sh"
# commit_of(): commit the tree of $D/src onto $1; print its id.
commit_of()
{
	git --git-dir="$KREPO" --work-tree="$D/src" add -A . &&
		git --git-dir="$KREPO" commit-tree ${1:+-p "$1"} -m c \
		"$(git --git-dir="$KREPO" write-tree)"
}
BASE=$(commit_of "")
echo 'int a2;' > "$D/src/kernel/a.c"
C_MOD=$(commit_of "$BASE")
echo 'obj-y += a.o b.o' > "$D/src/kernel/Makefile"
C_MK=$(commit_of "$C_MOD")
echo 'int b;' > "$D/src/kernel/b.c"
C_ADD=$(commit_of "$C_MK")
echo 'false' > "$D/src/scripts/x.sh"
C_SCR=$(commit_of "$C_ADD")
unset GIT_INDEX_FILE

plain()
{
	if wcheck_plain "$@"; then echo yes; else echo no; fi
}
t_eq "a commit that modifies a C file is plain" yes "$(plain "$BASE" "$C_MOD")"
t_eq "one that changes a Makefile is not" no "$(plain "$C_MOD" "$C_MK")"
t_eq "one that adds a file is not" no "$(plain "$C_MK" "$C_ADD")"
t_eq "one that changes scripts/ is not" no "$(plain "$C_ADD" "$C_SCR")"
t_eq "trees compare as commits do" yes \
	"$(plain "$(git --git-dir="$KREPO" rev-parse "$BASE^{tree}")" "$C_MOD")"

# The build dir last built the base's tree.
out=$D/build-dir
mkdir -p "$out"
early()
{
	if wcheck_known_early "$1" "$out"; then echo yes; else echo no; fi
}
t_eq "no state in the build dir: not known early" no "$(early "$C_MOD")"
git --git-dir="$KREPO" rev-parse "$BASE^{tree}" > "$out/.bisect-trees"
t_eq "built the base alone, the commit plain against it: known early" yes "$(early "$C_MOD")"
git --git-dir="$KREPO" rev-parse "$C_MK^{tree}" >> "$out/.bisect-trees"
t_eq "a build dir holding two trees (a build cut off): not known early" no "$(early "$C_MOD")"
git --git-dir="$KREPO" rev-parse "$BASE^{tree}" > "$out/.bisect-trees"

# The artifact and parent sides of a compile: a compile made without the
# sandbox is no artifact of a run in it, and back; the default's names
# are those of SANDBOX=1.
# art(): "ART SIDE" of wcheck_art for config c1, base to C_MOD, with
# SANDBOX=$1, names relative to WORKDIR.
art()
{
	local a s
	SANDBOX=$1 WCHECK_BASE_OF=()
	wcheck_art a s c1 "$BASE" "$C_MOD"
	echo "${a#"$WORKDIR"/} ${s#"$WORKDIR"/}"
}
WORKDIR=$D/wd
a1=$(art 1) a0=$(art 0)
t_eq "wcheck_art: without the sandbox, another artifact and other parent sides" \
	"different different" \
	"$([[ "${a1% *}" != "${a0% *}" ]] && echo different || echo same) $(
		[[ "${a1#* }" != "${a0#* }" ]] && echo different || echo same)"
t_eq "wcheck_art: with it, as before (SANDBOX=1 and 2 alike)" "$a1" "$(art 2)"

t_done
