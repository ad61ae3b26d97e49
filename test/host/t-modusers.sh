#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-modusers.sh - fixture tests of tools/bin/modusers: whether kbuild can
# build a file into a module, on a small tree of Kbuild makefiles and
# Kconfig files (test/fixtures/modusers/tree, see its README; the .c files
# are made empty here): obj-$(CONFIG_X) with X tristate, bool, def_*,
# int, untyped, declared twice or nowhere; obj-y, obj-m, obj-n, lib-y;
# composites (-y, -objs, -$(CONFIG_Y), nested, in a cycle, of a host
# program); parent directories' rules; Kbuild before Makefile; comments,
# continuations, recipes; usage and I/O errors; input that is no
# makefile: CRLF, 1 MB lines, random bytes, a symbolic link loop.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/modusers
M=$T_BIN/modusers
TAB=$'\t'
TREE=$T_TMP/tree
MISC=drivers/misc/Makefile
TRI="MISC_TRI is tristate (drivers/Kconfig:4)"
BOOL="MISC_BOOL is bool (drivers/Kconfig:10)"

# The sources of the fixture tree (README): made empty files.
SOURCES=(
	drivers/misc/tri.c drivers/misc/flag.c drivers/misc/misc_core.c
	drivers/misc/ext.c drivers/misc/ghost.c drivers/misc/deftri.c
	drivers/misc/defbool.c drivers/misc/twice.c drivers/misc/menu.c
	drivers/misc/indented.c drivers/misc/fake.c drivers/misc/count.c
	drivers/misc/notype.c drivers/misc/both.c drivers/misc/never_m.c
	drivers/misc/anyof.c drivers/misc/cannot_tell.c drivers/misc/disabled.c
	drivers/misc/commented.c drivers/misc/trailing.c
	drivers/misc/nomk/deep.c drivers/misc/nomk/top.c
	drivers/misc/nomk/lonely.c drivers/misc/cont1.c drivers/misc/cont2.c
	drivers/misc/varobj.c drivers/misc/cycpart.c drivers/misc/selfcomp.c
	drivers/misc/selfcomp_main.c drivers/misc/included.c
	drivers/misc/recipe.c drivers/scsi/fnic/fnic_trace.c
	drivers/scsi/fnic/vnic_wq.c drivers/net/foo/foo_main.c
	drivers/net/foo/foo_debug.c drivers/kb/kb.c drivers/kb/mkonly.c
	lib/strhelp.c lib/strextra.c scripts/kconfig/conf.c
	scripts/kconfig/confdata.c tools/perf/perf.c
)

# row(): its arguments joined by tabs, a line.
row()
{
	local IFS=$TAB
	printf '%s\n' "$*"
}

# line(): the output line of FILE in the output file $2 (default $T_TMP/all).
line()
{
	awk -F'\t' -v f="$1" '$1 == f' "${2:-$T_TMP/all}"
}

# expect(): desc, FILE, VERDICT, OPTION, WHY: FILE's line is that.
expect()
{
	local desc=$1 file=$2
	shift 2
	t_eq "$desc" "$(row "$file" "$@")" "$(line "$file")"
}

LOOK="no kbuild rule names it: looked for"

# misc_looked(): what none says of the object $1 of drivers/misc.
misc_looked()
{
	echo "$LOOK $1 in $MISC, misc/$1 in drivers/Makefile, drivers/misc/$1 in Makefile"
}

# mktree(): a copy of the fixture tree with its sources at $1.
mktree()
{
	local f
	mkdir -p "$1" && cp -R "$FIX/tree/." "$1/" || return 1
	for f in "${SOURCES[@]}"; do
		mkdir -p "$1/${f%/*}" && : > "$1/$f" || return 1
	done
}

t_plan 84

mktree "$TREE" || echo "# cannot make the tree in $TREE"

t_rc "every verdict: exit 0, also with none and unknown" 0 \
	"$M" --tree "$TREE" "${SOURCES[@]}" drivers/misc/missing.c drivers/misc/x.h \
	../tree/drivers/misc/tri.c /etc/passwd ./drivers//misc/./tri.c ""
cp "$T_OUT" "$T_TMP/all"
t_eq "one line per FILE" "$((${#SOURCES[@]} + 6))" "$(wc -l < "$T_TMP/all")"
t_eq "the lines in the order of the FILEs" "$(printf '%s\n' "${SOURCES[@]:0:3}")" \
	"$(head -n 3 "$T_TMP/all" | cut -f 1)"

# --- obj- lists and Kconfig types ---
OT="obj-\$(CONFIG_MISC_TRI)"
OB="obj-\$(CONFIG_MISC_BOOL)"
KC=drivers/Kconfig
expect "obj-\$(CONFIG_X), X tristate: module" drivers/misc/tri.c module CONFIG_MISC_TRI \
	"$OT += tri.o in $MISC:6; $TRI"
expect "obj-\$(CONFIG_X), X bool (help text that looks like entries skipped): builtin" \
	drivers/misc/flag.c builtin CONFIG_MISC_BOOL "$OB += flag.o in $MISC:7; $BOOL"
expect "obj-y: builtin" drivers/misc/misc_core.c builtin - \
	"obj-y += misc_core.o in $MISC:8: built in"
expect "obj-m: module, no option" drivers/misc/ext.c module - "obj-m += ext.o in $MISC:9"
expect "a CONFIG_ declared in no Kconfig: unknown" drivers/misc/ghost.c unknown \
	CONFIG_MISC_GHOST "obj-\$(CONFIG_MISC_GHOST) += ghost.o in $MISC:10;$(
	) CONFIG_MISC_GHOST declared in no Kconfig"
expect "def_tristate: module" drivers/misc/deftri.c module CONFIG_MISC_DEFTRI \
	"obj-\$(CONFIG_MISC_DEFTRI) += deftri.o in $MISC:11;$(
	) MISC_DEFTRI is def_tristate ($KC:32)"
expect "def_bool: builtin" drivers/misc/defbool.c builtin CONFIG_MISC_DEFBOOL \
	"obj-\$(CONFIG_MISC_DEFBOOL) += defbool.o in $MISC:12;$(
	) MISC_DEFBOOL is def_bool ($KC:35)"
expect "declared bool (Kconfig) and tristate (Kconfig.debug): module" drivers/misc/twice.c \
	module CONFIG_TWICE "obj-\$(CONFIG_TWICE) += twice.o in $MISC:13;$(
	) TWICE is tristate ($KC.debug:2; bool at Kconfig:15)"
expect "menuconfig: module" drivers/misc/menu.c module CONFIG_MISC_MENU \
	"obj-\$(CONFIG_MISC_MENU) += menu.o in $MISC:14; MISC_MENU is tristate ($KC:21)"
expect "an indented config inside if: module" drivers/misc/indented.c module CONFIG_INDENTED \
	"obj-\$(CONFIG_INDENTED) += indented.o in $MISC:15; INDENTED is tristate ($KC:26)"
expect "\"config FAKE\" in a help text declares nothing: unknown" drivers/misc/fake.c \
	unknown CONFIG_FAKE \
	"obj-\$(CONFIG_FAKE) += fake.o in $MISC:16; CONFIG_FAKE declared in no Kconfig"
expect "an int option: unknown" drivers/misc/count.c unknown CONFIG_MISC_COUNT \
	"obj-\$(CONFIG_MISC_COUNT) += count.o in $MISC:17;$(
	) MISC_COUNT is int ($KC:38), not bool or tristate"
expect "an option declared with no type (after a comment line): unknown" \
	drivers/misc/notype.c unknown CONFIG_MISC_NOTYPE \
	"obj-\$(CONFIG_MISC_NOTYPE) += notype.o in $MISC:18;$(
	) MISC_NOTYPE is declared with no type ($KC:61)"
expect "obj-y and obj-\$(CONFIG_TRI): the module wins" drivers/misc/both.c module \
	CONFIG_MISC_TRI "$OT += both.o in $MISC:22; $TRI"
expect "obj-\$(subst m,y,\$(CONFIG_TRI)): never m, builtin" drivers/misc/never_m.c builtin \
	CONFIG_MISC_TRI "obj-\$(subst m,y,\$(CONFIG_MISC_TRI)) += never_m.o in $MISC:24:$(
	) its value is never m, built in"
expect "two options in the expression: any of them, the tristate one" drivers/misc/anyof.c \
	module CONFIG_MISC_TRI \
	"obj-\$(subst y,\$(CONFIG_MISC_TRI),\$(CONFIG_MISC_BOOL)) += anyof.o in $MISC:25;$(
	) read as any of CONFIG_MISC_TRI, CONFIG_MISC_BOOL; $TRI"
expect "no CONFIG_ in obj-\$(...): cannot tell, builtin" drivers/misc/cannot_tell.c \
	builtin - "obj-\$(VDSO_OBJ-y) += cannot_tell.o in $MISC:26:$(
	) cannot tell its option, taken as built in"
expect "obj-n: none, never built" drivers/misc/disabled.c none - \
	"obj-n += disabled.o in $MISC:27: never built"
expect "a commented-out rule names nothing: none" drivers/misc/commented.c none - \
	"$(misc_looked commented.o)"
expect "a trailing comment is dropped: its obj-m does not count" drivers/misc/trailing.c \
	builtin CONFIG_MISC_BOOL "$OB += trailing.o in $MISC:29; $BOOL"
expect "continuation lines: the first word" drivers/misc/cont1.c module CONFIG_MISC_TRI \
	"$OT += cont1.o in $MISC:31; $TRI"
expect "continuation lines: the last word, the line where it starts" drivers/misc/cont2.c \
	module CONFIG_MISC_TRI "$OT += cont2.o in $MISC:31; $TRI"
expect "a plain variable: \$(MISC_VAR_OBJS) in obj-\$(CONFIG_TRI)" drivers/misc/varobj.c \
	module CONFIG_MISC_TRI "varobj.o is in \$(MISC_VAR_OBJS) ($MISC:35);$(
	) $OT += \$(MISC_VAR_OBJS) in $MISC:36; $TRI"
expect "a recipe that echoes obj-m += x.o is no rule: none" drivers/misc/recipe.c none - \
	"$(misc_looked recipe.o)"
expect "a file no rule names (#included): none, what was looked for where" \
	drivers/misc/included.c none - "$(misc_looked included.o)"
expect "lib-y: builtin" lib/strhelp.c builtin - \
	"lib-y := strhelp.o in lib/Makefile:6: into lib.a, built in"
expect "lib-\$(CONFIG_X), X tristate: builtin all the same" lib/strextra.c builtin \
	CONFIG_STRHELP_EXTRA "lib-\$(CONFIG_STRHELP_EXTRA) += strextra.o in lib/Makefile:7:$(
	) into lib.a, built in"

# --- composites ---
FM=drivers/scsi/fnic/Makefile
FNIC="obj-\$(CONFIG_FCOE_FNIC) += fnic.o in $FM:2; FCOE_FNIC is tristate ($KC:43)"
expect "fnic-y := \\ ... with obj-\$(CONFIG_FCOE_FNIC) += fnic.o: module, the composite" \
	drivers/scsi/fnic/fnic_trace.c module CONFIG_FCOE_FNIC \
	"fnic_trace.o is part of fnic.o (fnic-y in $FM:4); $FNIC"
expect "... its last continued word too" drivers/scsi/fnic/vnic_wq.c module CONFIG_FCOE_FNIC \
	"vnic_wq.o is part of fnic.o (fnic-y in $FM:4); $FNIC"
NM=drivers/net/foo/Makefile
FOO="obj-\$(CONFIG_NET_FOO) += foo.o in $NM:6; NET_FOO is tristate ($KC:53)"
expect "foo-objs: module" drivers/net/foo/foo_main.c module CONFIG_NET_FOO \
	"foo_main.o is part of foo.o (foo-objs in $NM:8); $FOO"
expect "foo-\$(CONFIG_BOOL) of a tristate foo.o: module" drivers/net/foo/foo_debug.c module \
	CONFIG_NET_FOO "foo_debug.o is part of foo.o (foo-\$(CONFIG_MISC_BOOL) in $NM:9); $FOO"
expect "a composite's object: its .c is not compiled, none" drivers/misc/selfcomp.c none - \
	"selfcomp.o is linked from selfcomp-y ($MISC:44), not compiled from selfcomp.c"
expect "... its part: module" drivers/misc/selfcomp_main.c module CONFIG_MISC_TRI \
	"selfcomp_main.o is part of selfcomp.o (selfcomp-y in $MISC:44);$(
	) $OT += selfcomp.o in $MISC:43; $TRI"
expect "composites in a cycle: none, and it ends" drivers/misc/cycpart.c none - \
	"cycpart.o is part of cyc_a.o (cyc_a-y in $MISC:39);$(
	) cyc_a.o is part of cyc_b.o (cyc_b-y in $MISC:40);$(
	) cyc_b.o is part of cyc_a.o (cyc_a-y in $MISC:39),$(
	) composites in a cycle, none in an obj- or lib- list"
KM=scripts/kconfig/Makefile
HOSTPROG="part of the program conf (conf-objs in $KM:5; hostprogs += conf in $KM:4), no kernel object"
expect "a host program's -objs: none" scripts/kconfig/confdata.c none - "confdata.o is $HOSTPROG"
expect "... also its NAME.o part" scripts/kconfig/conf.c none - "conf.o is $HOSTPROG"

# --- where the rules are ---
expect "obj-\$(CONFIG_X) += sub/foo.o in the parent's makefile (sub has none)" \
	drivers/misc/nomk/deep.c module CONFIG_MISC_TRI "$OT += nomk/deep.o in $MISC:30; $TRI"
expect "a rule in the top Makefile, after a rule and its recipe" drivers/misc/nomk/top.c \
	builtin CONFIG_MISC_BOOL "$OB += drivers/misc/nomk/top.o in Makefile:16; $BOOL"
expect "a directory without a makefile, no rule above: none" drivers/misc/nomk/lonely.c \
	none - "$LOOK lonely.o in drivers/misc/nomk/ (no Kbuild or Makefile),$(
	) nomk/lonely.o in $MISC, misc/nomk/lonely.o in drivers/Makefile,$(
	) drivers/misc/nomk/lonely.o in Makefile"
expect "Kbuild before Makefile: Kbuild's obj-\$(CONFIG_KB_TRI), not Makefile's obj-y" \
	drivers/kb/kb.c module CONFIG_KB_TRI \
	"obj-\$(CONFIG_KB_TRI) += kb.o in drivers/kb/Kbuild:2; KB_TRI is tristate ($KC:56)"
expect "... and the Makefile's obj-m counts for nothing" drivers/kb/mkonly.c none - \
	"$LOOK mkonly.o in drivers/kb/Kbuild, kb/mkonly.o in drivers/Makefile,$(
	) drivers/kb/mkonly.o in Makefile"
expect "user space under tools/ (a make rule perf: perf.o): none" tools/perf/perf.c none - \
	"$LOOK perf.o in tools/perf/Makefile, perf/perf.o in tools/ (no Kbuild or Makefile),$(
	) tools/perf/perf.o in Makefile"

# --- FILE ---
expect "a missing file: none" drivers/misc/missing.c none - "no such file in the tree"
expect "a header: none" drivers/misc/x.h none - \
	"not a .c or .S file: kbuild builds objects from those"
expect "a path with ..: none" ../tree/drivers/misc/tri.c none - \
	"a path with a .. component: FILE is relative to the tree"
expect "an absolute path: none" /etc/passwd none - \
	"an absolute path: FILE is relative to the tree"
expect "./ and // and /./ dropped, FILE printed as given" ./drivers//misc/./tri.c module \
	CONFIG_MISC_TRI "$OT += tri.o in $MISC:6; $TRI"
expect "an empty FILE: none" "" none - "empty path"

# --- usage and I/O errors ---
t_rc "no --tree: exit 2" 2 "$M" drivers/misc/tri.c
t_grep "... says so, with the usage" '^modusers: error: no --tree$' "$T_OUT"
t_grep "... usage line" '^usage: modusers --tree DIR FILE\.\.\.$' "$T_OUT"
t_rc "a missing DIR: exit 2" 2 "$M" --tree "$T_TMP/nope" drivers/misc/tri.c
t_grep "... the message names it" "^modusers: error: cannot open tree $T_TMP/nope: No such file" \
	"$T_OUT"
t_rc "DIR a file: exit 2" 2 "$M" --tree "$TREE/Makefile" x.c
t_grep "... says so" "^modusers: error: tree $TREE/Makefile: not a directory" "$T_OUT"
t_rc "no FILE: exit 2" 2 "$M" --tree "$TREE"
t_rc "--tree without its DIR: exit 2" 2 "$M" --tree
t_rc "an unknown option: exit 2" 2 "$M" --tree "$TREE" --bogus drivers/misc/tri.c
t_rc "--tree=DIR and --: exit 0" 0 "$M" --tree="$TREE/" -- drivers/misc/ext.c
t_eq "... the verdict" "$(row drivers/misc/ext.c module - "obj-m += ext.o in $MISC:9")" \
	"$(cat "$T_OUT")"

ERR=$T_TMP/err
mktree "$ERR" && rm "$ERR/drivers/misc/Makefile" && mkdir "$ERR/drivers/misc/Makefile"
t_rc "a makefile that cannot be read (a directory): exit 2" 2 \
	"$M" --tree "$ERR" drivers/misc/tri.c
t_grep "... the message names it" \
	"^modusers: error: cannot read makefile $ERR/drivers/misc/Makefile: Is a directory" "$T_OUT"

# --- input that is no makefile, and odd trees ---
ODD=$T_TMP/odd
mktree "$ODD"
sed -i 's/$/\r/' "$ODD/drivers/misc/Makefile" "$ODD/drivers/Kconfig"
printf 'obj-m += nonl.o' > "$ODD/drivers/net/foo/Makefile"
: > "$ODD/drivers/net/foo/nonl.c"
t_rc "CRLF makefile and Kconfig, no trailing newline: exit 0" 0 \
	"$M" --tree "$ODD" drivers/misc/tri.c drivers/misc/cont2.c drivers/net/foo/nonl.c
cp "$T_OUT" "$T_TMP/odd.out"
t_eq "... CRLF: the same verdicts" \
	"$(line drivers/misc/tri.c; line drivers/misc/cont2.c)" \
	"$(head -n 2 "$T_TMP/odd.out")"
t_eq "... no trailing newline" "$(row drivers/net/foo/nonl.c module - \
	"obj-m += nonl.o in drivers/net/foo/Makefile:1")" "$(tail -n 1 "$T_TMP/odd.out")"

# .git is not read, a link loop not followed.
mkdir -p "$ODD/.git/sub"
printf 'config MISC_GHOST\n\ttristate "in .git"\n' > "$ODD/.git/sub/Kconfig"
ln -s .. "$ODD/drivers/loop"
t_rc ".git and a symbolic link loop in the tree: exit 0" 0 \
	"$M" --tree "$ODD" drivers/misc/ghost.c
t_grep "... .git's Kconfig not read" \
	"^drivers/misc/ghost.c${TAB}unknown${TAB}CONFIG_MISC_GHOST${TAB}" "$T_OUT"

# A 1 MB line of words, then the rule.
{
	printf 'obj-y +='
	head -c 1000000 /dev/zero | tr '\0' 'a' | fold -w 100 | sed 's/$/.o/' | tr '\n' ' '
	printf '\n%s += long.o\n' "$OT"
	printf 'config L\n\tbool "%s"\n' "$(head -c 1000000 /dev/zero | tr '\0' 'b')"
} > "$ODD/lib/Makefile"
cp "$ODD/lib/Makefile" "$ODD/lib/Kconfig.long"
: > "$ODD/lib/long.c"
t_rc "a 1 MB line in a makefile and a Kconfig file: exit 0" 0 \
	"$M" --tree "$ODD" lib/long.c
t_eq "... the rule after it" \
	"$(row lib/long.c module CONFIG_MISC_TRI "$OT += long.o in lib/Makefile:2; $TRI")" \
	"$(cat "$T_OUT")"

# Random bytes as a makefile and a Kconfig file.
printf 'obj-m += ok.o\n' > "$ODD/drivers/kb/Kbuild"
head -c 65536 /dev/urandom >> "$ODD/drivers/kb/Kbuild"
head -c 65536 /dev/urandom > "$ODD/drivers/kb/Kconfig"
: > "$ODD/drivers/kb/ok.c"
t_rc "random bytes as a makefile and a Kconfig file: exit 0" 0 \
	"$M" --tree "$ODD" drivers/kb/kb.c drivers/kb/ok.c
t_grep "... the rule before them" \
	"^drivers/kb/ok.c${TAB}module${TAB}-${TAB}obj-m \\+= ok.o in drivers/kb/Kbuild:1$" "$T_OUT"

# A FILE with a tab and a newline: one line, its fields intact.
t_rc "a FILE with a tab and a newline: exit 0" 0 "$M" --tree "$TREE" $'a\tb\nc.c'
t_eq "... one line of 4 fields, control characters as ?" \
	"$(row 'a?b?c.c' none - 'no such file in the tree')" "$(cat "$T_OUT")"

# Composites nested 10 deep, and 20: the second is stopped at 16.
DEEP=$T_TMP/deep
mkdir -p "$DEEP/d"
: > "$DEEP/d/leaf.c"
{
	echo 'c0-y := leaf.o'
	for i in $(seq 1 19); do echo "c$i-y := c$((i - 1)).o"; done
	echo 'obj-m += c9.o'
	echo 'obj-m += c19.o'
} > "$DEEP/d/Makefile"
t_rc "composites nested 20 deep: exit 0" 0 "$M" --tree "$DEEP" d/leaf.c
t_grep "... module through the 10 deep chain" \
	"^d/leaf.c${TAB}module${TAB}-${TAB}leaf.o is part of c0.o .*$(
	)c8.o is part of c9.o \\(c9-y in d/Makefile:10\\); obj-m \\+= c9.o in d/Makefile:21$" \
	"$T_OUT"
sed -i '/obj-m += c9.o/d' "$DEEP/d/Makefile"
t_rc "... only the 20 deep one: exit 0" 0 "$M" --tree "$DEEP" d/leaf.c
t_grep "... stopped, none" \
	"^d/leaf.c${TAB}none${TAB}-${TAB}leaf.o is part of c0.o .*$(
	): stopped, composites nested deeper than 16$" \
	"$T_OUT"

# --- a real kernel tree, when there is one (MODUSERS_KTREE) ---
KT=${MODUSERS_KTREE:-}
if [[ -n "$KT" && -f "$KT/drivers/scsi/fnic/fnic_trace.c" ]]; then
	t_rc "the kernel tree $KT: exit 0" 0 "$M" --tree "$KT" \
		drivers/scsi/fnic/fnic_trace.c kernel/fork.c tools/perf/perf.c
	t_grep "... fnic_trace.c is modular, by FCOE_FNIC" \
		"^drivers/scsi/fnic/fnic_trace.c${TAB}module${TAB}CONFIG_FCOE_FNIC${TAB}" "$T_OUT"
	t_grep "... kernel/fork.c is built in" "^kernel/fork.c${TAB}builtin${TAB}" "$T_OUT"
	t_grep "... tools/perf/perf.c is none" "^tools/perf/perf.c${TAB}none${TAB}" "$T_OUT"
else
	for d in "exit 0" "fnic_trace.c modular" "fork.c built in" "perf.c none"; do
		t_skip "the kernel tree: $d" "no kernel tree (set MODUSERS_KTREE=DIR)"
	done
fi

t_done
