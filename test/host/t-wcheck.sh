#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-wcheck.sh - tests of the w1 stage's split of its findings
# (tools/stages/wcheck.sh, wcheck_not_built): a W=1 finding the target's
# build printed too is left to the build cell, every other one stays;
# an empty build warnings file keeps them all; typographic quotes of a
# UTF-8 locale match the findings' plain ones.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/stages/wcheck.sh
source "$T_TOP/tools/stages/wcheck.sh"

D=$T_TMP/wcheck
mkdir -p "$D"
TAB=$'\t'
F=samples/hw_breakpoint/data_breakpoint.c

t_plan 6

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

t_done
