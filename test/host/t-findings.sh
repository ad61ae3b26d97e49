#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-findings.sh - fixture tests of tools/bin/findings: the findings of
# real gcc, clang, sparse and 6.1 kernel-doc outputs (test/fixtures/
# findings, see its README), which of a child's are new to its parent
# (a moved line is not, a new warning is, a removed one is gone), the
# accept file, usage errors, and input that is no tool output at all:
# missing, empty, a directory, CRLF, no trailing newline, 1 MB lines,
# random bytes.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/findings
F=$T_BIN/findings
TAB=$'\t'
DEMO=drivers/misc/demo.c
ADDR=drivers/misc/addr.c
KDOC=drivers/misc/kdoc.c
BROKEN=drivers/misc/broken.c

# row(): its arguments joined by tabs, a line.
row()
{
	local IFS=$TAB
	printf '%s\n' "$*"
}

# parse(): desc, the name of the output in $T_TMP, parse's arguments;
# expects exit 0.
parse()
{
	local desc=$1 out=$2
	shift 2
	t_rc "$desc" 0 "$F" parse "$@"
	cp "$T_OUT" "$T_TMP/$out"
}

# keys(): the file, kind and message of a parse output in $T_TMP.
keys()
{
	cut -f 1-3 "$T_TMP/$1"
}

# new(): desc, expected exit, new's arguments (paths in $T_TMP).
new()
{
	local desc=$1 rc=$2
	shift 2
	t_rc "$desc" "$rc" "$F" new "$@"
}

t_plan 100

# --- gcc: a child moves every line, adds two findings, drops one ---
parse "gcc parent parses" gcc-p.tsv --tool gcc "$FIX/gcc-parent.txt"
t_eq "gcc parent: ../ stripped, option as kind, function folded in" \
	"$(row $DEMO -Wmissing-prototypes "no previous prototype for 'demo_helper'"
	   row $DEMO -Wmissing-prototypes "no previous prototype for 'demo_pick'"
	   row $DEMO -Wunused-but-set-variable "In function 'demo_sum': variable 'last' set but not used"
	   row $DEMO -Wunused-variable "In function 'demo_old': unused variable 'ret'"
	   row $DEMO -Wunused-variable "In function 'demo_sum': unused variable 'ret'")" \
	"$(keys gcc-p.tsv)"
t_eq "gcc parent: raw is the line as printed" \
	"../drivers/misc/demo.c:4:5: warning: no previous prototype for ‘demo_helper’ [-Wmissing-prototypes]" \
	"$(head -n 1 "$T_TMP/gcc-p.tsv" | cut -f 4)"
parse "gcc child parses" gcc-c.tsv --tool gcc "$FIX/gcc-child.txt"
t_eq "gcc child: ./ stripped" \
	"$(row $DEMO -Wmissing-prototypes "no previous prototype for 'demo_extra'"
	   row $DEMO -Wmissing-prototypes "no previous prototype for 'demo_helper'"
	   row $DEMO -Wmissing-prototypes "no previous prototype for 'demo_pick'"
	   row $DEMO -Wunused-but-set-variable "In function 'demo_sum': variable 'last' set but not used"
	   row $DEMO -Wunused-variable "In function 'demo_new': unused variable 'ret'"
	   row $DEMO -Wunused-variable "In function 'demo_sum': unused variable 'ret'")" \
	"$(keys gcc-c.tsv)"
new "gcc: a new warning: exit 1" 1 --parent "$T_TMP/gcc-p.tsv" --child "$T_TMP/gcc-c.tsv"
t_eq "gcc: new are the added ones, raw quoted; gone counted" \
	"$(row new $DEMO -Wmissing-prototypes "no previous prototype for 'demo_extra'" \
		"./drivers/misc/demo.c:45:5: warning: no previous prototype for ‘demo_extra’ [-Wmissing-prototypes]"
	   row new $DEMO -Wunused-variable "In function 'demo_new': unused variable 'ret'" \
		"./drivers/misc/demo.c:31:13: warning: unused variable ‘ret’ [-Wunused-variable]"
	   row summary "2 new, 0 acked, 1 gone")" \
	"$(cat "$T_OUT")"
t_nogrep "gcc: moved lines are not new" "demo_helper|demo_pick|'last'|demo_sum" "$T_OUT"
new "gcc: a child against itself: exit 0" 0 --parent "$T_TMP/gcc-c.tsv" --child "$T_TMP/gcc-c.tsv"
t_eq "gcc: nothing new against itself" "summary${TAB}0 new, 0 acked, 0 gone" "$(cat "$T_OUT")"
new "gcc: backwards, the child as parent: exit 1" 1 --parent "$T_TMP/gcc-c.tsv" --child "$T_TMP/gcc-p.tsv"
t_eq "gcc: backwards, the removed one is new, the added ones gone" \
	"$(row new $DEMO -Wunused-variable "In function 'demo_old': unused variable 'ret'" \
		"../drivers/misc/demo.c:22:13: warning: unused variable ‘ret’ [-Wunused-variable]"
	   row summary "1 new, 0 acked, 2 gone")" "$(cat "$T_OUT")"
parse "gcc in the C locale parses" gcc-pc.tsv --tool gcc "$FIX/gcc-parent-c.txt"
t_eq "gcc: the locale's quotes change no finding" "$(keys gcc-p.tsv)" "$(keys gcc-pc.tsv)"
parse "gcc: two files" gcc-pp.tsv --tool gcc "$FIX/gcc-parent.txt" "$FIX/gcc-parent-c.txt"
t_eq "gcc: a finding read twice is one, the first raw kept" \
	"$(cat "$T_TMP/gcc-p.tsv")" "$(cat "$T_TMP/gcc-pp.tsv")"

# --- gcc and clang: errors, -Werror, headers, inlining ---
parse "gcc misc parses" gcc-m.tsv --tool gcc "$FIX/gcc-misc.txt"
t_eq "gcc misc: -Werror= is the option, errors and warnings without one" \
	"$(row $BROKEN -Wmissing-prototypes "no previous prototype for 'demo_bounds'"
	   row $BROKEN -Wmissing-prototypes "no previous prototype for 'demo_broken'"
	   row $BROKEN -Wreturn-type "In function 'demo_broken': control reaches end of non-void function"
	   row $BROKEN error "In function 'demo_broken': 'nope' undeclared (first use in this function)"
	   row $BROKEN warning "demo pragma"
	   row drivers/misc/inlined.c -Warray-bounds "In function 'demo_get', inlined from 'demo_last': array subscript 4 is above array bounds of 'int[4]'"
	   row include/linux/demo.h -Wunused-variable "In function 'demo_inline': unused variable 'unused'")" \
	"$(keys gcc-m.tsv)"
parse "clang misc parses" clang-m.tsv --tool gcc "$FIX/clang-misc.txt"
t_eq "clang misc: -Werror,-Wx is -Wx; notes ignored" \
	"$(row $BROKEN -W#pragma-messages "demo pragma"
	   row $BROKEN -Wmissing-prototypes "no previous prototype for function 'demo_bounds'"
	   row $BROKEN -Wmissing-prototypes "no previous prototype for function 'demo_broken'"
	   row $BROKEN error "use of undeclared identifier 'nope'"
	   row include/linux/demo.h -Wunused-variable "unused variable 'unused'")" \
	"$(keys clang-m.tsv)"
parse "clang parent parses, --strip" clang-p.tsv --tool gcc --strip /tmp/wt-parent \
	"$FIX/clang-parent.txt"
t_eq "clang parent: the worktree stripped, two 'ret' are one" \
	"$(row $DEMO -Wmissing-prototypes "no previous prototype for function 'demo_helper'"
	   row $DEMO -Wmissing-prototypes "no previous prototype for function 'demo_pick'"
	   row $DEMO -Wsometimes-uninitialized "variable 'y' is used uninitialized whenever 'if' condition is false"
	   row $DEMO -Wunused-but-set-variable "variable 'last' set but not used"
	   row $DEMO -Wunused-variable "unused variable 'ret'")" \
	"$(keys clang-p.tsv)"
parse "clang child parses, --strip with a slash" clang-c.tsv --tool gcc \
	--strip /tmp/wt-parent/ --strip /tmp/wt-child/ "$FIX/clang-child.txt"
new "clang: a new warning: exit 1" 1 --parent "$T_TMP/clang-p.tsv" --child "$T_TMP/clang-c.tsv"
t_eq "clang: only demo_extra is new (no function context to tell the 'ret's)" \
	"$(row new $DEMO -Wmissing-prototypes "no previous prototype for function 'demo_extra'" \
		"/tmp/wt-child/drivers/misc/demo.c:45:5: warning: no previous prototype for function 'demo_extra' [-Wmissing-prototypes]"
	   row summary "1 new, 0 acked, 0 gone")" "$(cat "$T_OUT")"
parse "clang without --strip parses" clang-abs.tsv --tool gcc "$FIX/clang-parent.txt"
t_eq "without --strip an absolute path stays" "/tmp/wt-parent/$DEMO" \
	"$(cut -f 1 "$T_TMP/clang-abs.tsv" | sort -u)"
parse "--strip that is not a whole component" clang-part.tsv --tool gcc --strip /tmp/wt \
	"$FIX/clang-parent.txt"
t_eq "--strip /tmp/wt does not cut /tmp/wt-parent" "/tmp/wt-parent/$DEMO" \
	"$(cut -f 1 "$T_TMP/clang-part.tsv" | sort -u)"

# --- sparse ---
parse "sparse parent parses" sparse-p.tsv --tool sparse "$FIX/sparse-parent.txt"
t_eq "sparse parent: details folded in, not the note's" \
	"$(row $ADDR sparse-error "symbol 'demo_twice' redeclared with different type (different type sizes): | long extern [addressable] [signed] [toplevel] demo_twice( ... )"
	   row $ADDR sparse-warning "incorrect type in assignment (different address spaces) | expected int *p | got int [noderef] <asn:1> *up"
	   row $ADDR sparse-warning "symbol 'demo_counter' was not declared. Should it be static?"
	   row $ADDR sparse-warning "symbol 'demo_read' was not declared. Should it be static?")" \
	"$(keys sparse-p.tsv)"
parse "sparse child parses" sparse-c.tsv --tool sparse "$FIX/sparse-child.txt"
new "sparse: new warnings: exit 1" 1 --parent "$T_TMP/sparse-p.tsv" --child "$T_TMP/sparse-c.tsv"
t_eq "sparse: the second address space mix-up and demo_limit are new" \
	"$(row new $ADDR sparse-warning "incorrect type in assignment (different address spaces) | expected long *q | got long [noderef] <asn:1> *" \
		"drivers/misc/addr.c:19:11: warning: incorrect type in assignment (different address spaces)"
	   row new $ADDR sparse-warning "symbol 'demo_limit' was not declared. Should it be static?" \
		"drivers/misc/addr.c:11:5: warning: symbol 'demo_limit' was not declared. Should it be static?"
	   row summary "2 new, 0 acked, 1 gone")" "$(cat "$T_OUT")"
parse "sparse in a log with gcc's lines" sparse-mix.tsv --tool sparse "$FIX/gcc-parent.txt" \
	"$FIX/sparse-parent.txt"
t_eq "sparse skips gcc's lines" "$(cat "$T_TMP/sparse-p.tsv")" "$(cat "$T_TMP/sparse-mix.tsv")"

# --- kernel-doc ---
parse "kernel-doc parent parses" kdoc-p.tsv --tool kdoc "$FIX/kdoc-parent.txt"
t_eq "kernel-doc parent" \
	"$(row $KDOC kernel-doc "Excess function parameter 'c' description in 'demo_sub'"
	   row $KDOC kernel-doc "Function parameter or member 'b' not described in 'demo_add'"
	   row $KDOC kernel-doc "Function parameter or member 'y' not described in 'demo_pair'"
	   row $KDOC kernel-doc "cannot understand function prototype: 'int demo_zero; '"
	   row $KDOC kernel-doc "expecting prototype for demo_mul(). Prototype was for demo_times() instead")" \
	"$(keys kdoc-p.tsv)"
parse "kernel-doc child parses" kdoc-c.tsv --tool kdoc "$FIX/kdoc-child.txt"
new "kernel-doc: a new warning: exit 1" 1 --parent "$T_TMP/kdoc-p.tsv" --child "$T_TMP/kdoc-c.tsv"
t_eq "kernel-doc: only demo_div's is new, demo_sub's gone" \
	"$(row new $KDOC kernel-doc "Function parameter or member 'b' not described in 'demo_div'" \
		"drivers/misc/kdoc.c:47: warning: Function parameter or member 'b' not described in 'demo_div'"
	   row summary "1 new, 0 acked, 1 gone")" "$(cat "$T_OUT")"
parse "6.1 kernel-doc -Wall (refused) parses" kdoc-wall.tsv --tool kdoc "$FIX/kdoc-wall.txt"
t_eq "its usage message has no finding" "" "$(cat "$T_TMP/kdoc-wall.tsv")"
parse "kdoc reading gcc's output" kdoc-gcc.tsv --tool kdoc "$FIX/gcc-misc.txt" \
	"$FIX/clang-parent.txt"
t_eq "kdoc takes no gcc or clang line" "" "$(cat "$T_TMP/kdoc-gcc.tsv")"
parse "gcc reading kernel-doc's output" gcc-kdoc.tsv --tool gcc "$FIX/kdoc-parent.txt"
t_eq "gcc takes no kernel-doc line" "" "$(cat "$T_TMP/gcc-kdoc.tsv")"

# --- accepting new findings ---
row -Wmissing-prototypes '*' demo_extra "called from assembly" > "$T_TMP/acc-any"
new "accept by file '*': exit 1, another is new" 1 --parent "$T_TMP/gcc-p.tsv" \
	--child "$T_TMP/gcc-c.tsv" --accept "$T_TMP/acc-any"
t_grep "acked line with its reason" \
	"^acked${TAB}$DEMO${TAB}-Wmissing-prototypes${TAB}no previous prototype for 'demo_extra'${TAB}[^$TAB]*${TAB}called from assembly\$" \
	"$T_OUT"
t_grep "acked counted" "^summary${TAB}1 new, 1 acked, 1 gone\$" "$T_OUT"
{
	echo "# accepted for the test"
	echo
	row -Wunused-variable $DEMO "" "an empty substring matches any message"
	row -Wmissing-prototypes '*' demo_extra "called from assembly"
} > "$T_TMP/acc-all"
new "all new ones accepted: exit 0" 0 --parent "$T_TMP/gcc-p.tsv" \
	--child "$T_TMP/gcc-c.tsv" --accept "$T_TMP/acc-all"
t_grep "empty substring accepts" \
	"^acked${TAB}.*'demo_new'.*${TAB}an empty substring matches any message\$" "$T_OUT"
t_grep "all acked" "^summary${TAB}0 new, 2 acked, 1 gone\$" "$T_OUT"
{
	row -Wmissing-prototypes drivers/misc/other.c demo_extra "another file"
	row -Wunused-variable '*' demo_extra "another kind"
	row -Wmissing-prototypes '*' demo_nothing "another message"
} > "$T_TMP/acc-none"
new "accept lines that do not match: exit 1" 1 --parent "$T_TMP/gcc-p.tsv" \
	--child "$T_TMP/gcc-c.tsv" --accept "$T_TMP/acc-none"
t_grep "file, kind and substring must all match" "^summary${TAB}2 new, 0 acked, 1 gone\$" "$T_OUT"
row -Wmissing-prototypes '*' demo_extra "" > "$T_TMP/acc-noreason"
row '*' '*' demo_extra "any kind, any file" > "$T_TMP/acc-star"
new "accept by kind '*' and file '*': exit 1, another is new" 1 --parent "$T_TMP/gcc-p.tsv" \
	--child "$T_TMP/gcc-c.tsv" --accept "$T_TMP/acc-star"
t_grep "kind '*' accepts any kind" \
	"^acked${TAB}$DEMO${TAB}-Wmissing-prototypes${TAB}no previous prototype for 'demo_extra'${TAB}[^$TAB]*${TAB}any kind, any file\$" \
	"$T_OUT"
new "accept line without a reason: exit 2" 2 --parent "$T_TMP/gcc-p.tsv" \
	--child "$T_TMP/gcc-c.tsv" --accept "$T_TMP/acc-noreason"
t_grep "it names FILE:LINE" "^findings: error: $T_TMP/acc-noreason:1: " "$T_OUT"

# --- new: input and usage errors ---
new "missing parent: exit 2" 2 --parent "$T_TMP/nope.tsv" --child "$T_TMP/gcc-c.tsv"
t_grep "the message names the file" \
	"^findings: error: cannot open $T_TMP/nope.tsv: No such file or directory\$" "$T_OUT"
printf 'a.c\t-Wx\tm\tr\nnot a finding\n' > "$T_TMP/bad.tsv"
new "a line of new's input without four fields: exit 2" 2 --parent "$T_TMP/bad.tsv" \
	--child "$T_TMP/gcc-c.tsv"
t_grep "it names FILE:LINE" "^findings: error: $T_TMP/bad.tsv:2: expected file, kind" "$T_OUT"
: > "$T_TMP/empty"
new "empty parent and child: exit 0" 0 --parent "$T_TMP/empty" --child "$T_TMP/empty"
t_eq "nothing at all" "summary${TAB}0 new, 0 acked, 0 gone" "$(cat "$T_OUT")"
new "empty child: exit 0" 0 --parent "$T_TMP/gcc-p.tsv" --child "$T_TMP/empty"
t_eq "all gone" "summary${TAB}0 new, 0 acked, 5 gone" "$(cat "$T_OUT")"
{ cat "$T_TMP/gcc-c.tsv"; echo; tac "$T_TMP/gcc-c.tsv"; } | sed 's/$/\r/' > "$T_TMP/crlf.tsv"
printf '%s' "$(cat "$T_TMP/gcc-p.tsv")" > "$T_TMP/nonl.tsv"
new "CRLF, blank lines, duplicates, no final newline: exit 1" 1 \
	--parent "$T_TMP/nonl.tsv" --child "$T_TMP/crlf.tsv"
t_grep "the same verdict" "^summary${TAB}2 new, 0 acked, 1 gone\$" "$T_OUT"
t_rc "no arguments: exit 2" 2 "$F"
t_rc "unknown command: exit 2" 2 "$F" frobnicate
t_grep "usage is shown" "^usage: findings parse --tool" "$T_OUT"
t_rc "parse without --tool: exit 2" 2 "$F" parse "$FIX/gcc-parent.txt"
t_rc "parse with an unknown tool: exit 2" 2 "$F" parse --tool icc "$FIX/gcc-parent.txt"
t_rc "parse without FILE: exit 2" 2 "$F" parse --tool gcc
t_rc "--strip without a value: exit 2" 2 "$F" parse --tool gcc --strip
t_rc "new without --child: exit 2" 2 "$F" new --parent "$T_TMP/empty"

# --- parse: input that is no tool output ---
t_rc "parse a missing file: exit 2" 2 "$F" parse --tool gcc "$T_TMP/nope.txt"
t_grep "the message names the file" \
	"^findings: error: cannot open $T_TMP/nope.txt: No such file or directory\$" "$T_OUT"
t_rc "parse a directory: exit 2" 2 "$F" parse --tool sparse "$T_TMP"
t_grep "the message names it" "^findings: error: cannot read $T_TMP: " "$T_OUT"
parse "parse an empty file" empty.tsv --tool kdoc "$T_TMP/empty"
t_eq "no findings" "" "$(cat "$T_TMP/empty.tsv")"
sed 's/$/\r/' "$FIX/gcc-child.txt" > "$T_TMP/crlf.txt"
parse "parse CRLF" crlf-c.tsv --tool gcc "$T_TMP/crlf.txt"
t_eq "CRLF: the same findings, raw without CR" "$(cat "$T_TMP/gcc-c.tsv")" \
	"$(cat "$T_TMP/crlf-c.tsv")"
printf '%s' "$(cat "$FIX/kdoc-child.txt")" > "$T_TMP/nonl.txt"
parse "parse without a final newline" nonl-c.tsv --tool kdoc "$T_TMP/nonl.txt"
t_eq "the last line is still read" "$(cat "$T_TMP/kdoc-c.tsv")" "$(cat "$T_TMP/nonl-c.tsv")"
perl -e 'srand(42); print map { chr(int(rand(256))) } 1 .. 65536' > "$T_TMP/random"
{ cat "$T_TMP/random"; echo; cat "$FIX/sparse-child.txt"; } > "$T_TMP/random-sparse.txt"
for tool in gcc sparse kdoc; do
	t_rc "parse random bytes as $tool: exit 0" 0 "$F" parse --tool "$tool" "$T_TMP/random"
done
parse "parse random bytes before sparse's output" random-sparse.tsv --tool sparse \
	"$T_TMP/random-sparse.txt"
t_eq "the findings after the noise are found" "$(cat "$T_TMP/sparse-c.tsv")" \
	"$(cat "$T_TMP/random-sparse.tsv")"
new "random bytes as new's parent: exit 2" 2 --parent "$T_TMP/random" --child "$T_TMP/empty"
t_grep "an error that names the file" "^findings: error: $T_TMP/random:[0-9]+: " "$T_OUT"
big=$(head -c 1048576 /dev/zero | tr '\0' x)
{
	printf '%s\n' "$big"
	printf 'a.c:1:2: warning: %s [-Wbig]\n' "$big"
	printf 'In function %s,\n' "$big"
	head -c 1048576 /dev/zero | tr '\0' ':'
	echo
	printf 'drivers/%s.c:1:2: warning: tail' "$big"
} > "$T_TMP/big.txt"
parse "parse 1 MB lines" big.tsv --tool gcc "$T_TMP/big.txt"
# Lengths, not the lines: a failure would quote them.
t_eq "1 MB lines: the two findings, whole" \
	"3 -Wbig 1048576 1048602|1048586 warning 4 1048605" \
	"$(awk -F "$TAB" '{ printf "%s%d %s %d %d", (NR > 1 ? "|" : ""), length($1), $2,
		length($3), length($4) }' "$T_TMP/big.tsv")"
new "new with 1 MB lines: exit 1" 1 --parent "$T_TMP/empty" --child "$T_TMP/big.tsv"
t_grep "both new" "^summary${TAB}2 new, 0 acked, 0 gone\$" "$T_OUT"

# --- what varies by position, escapes, tabs and kbuild lines ---
{
	printf '\033[01m\033[K/wt/a/b.c:3:4:\033[m\033[K \033[01;35m\033[Kwarning: \033[m\033[K'
	printf 'x\ty redeclared (see /wt/a/b.h:12:3, ./c.c:4) in int:3\033]8;;https://x\033\\ [-Wfoo]\n'
	echo "a/b.c: In function 'f':"
	echo "  CC      a/b.o"
	echo "a/b.c:9:1: warning: after kbuild [-Wbar]"
	echo "make[2]: *** [scripts/Makefile.build:250: a/b.o] Error 1"
	echo "  1 | a/b.c:7:1: warning: a source line"
} > "$T_TMP/syn.txt"
parse "parse escapes, tabs, positions in the text" syn.tsv --tool gcc --strip /wt "$T_TMP/syn.txt"
t_eq "escapes gone, tabs spaces, positions and --strip out of the text, kbuild ends a context" \
	"$(row a/b.c -Wbar "after kbuild" "a/b.c:9:1: warning: after kbuild [-Wbar]"
	   row a/b.c -Wfoo "x y redeclared (see a/b.h, ./c.c) in int:3" \
		"/wt/a/b.c:3:4: warning: x y redeclared (see /wt/a/b.h:12:3, ./c.c:4) in int:3 [-Wfoo]")" \
	"$(cat "$T_TMP/syn.tsv")"

t_done
