#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-kdeps.sh - tests of tools/bin/kdeps on a build dir of kbuild-like
# records written here: an object's source, headers and -include files;
# a generated header followed to its own record, and from it to a linked
# file and that file's objects; the "savedcmd_" form of newer kernels;
# the .s records --offsets adds (not through a symbolic link); the tree
# by its given path and by its real path; a record missing (exit 1, the
# rest still printed); usage and I/O errors (exit 2).

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

K=$T_BIN/kdeps
SRC=$T_TMP/src
REAL=$T_TMP/real-src
O=$T_TMP/obj
mkdir -p "$REAL" "$O/drivers/a" "$O/include/generated" "$O/arch/x86/kernel" \
	"$O/arch/x86/vdso" "$O/kernel"
# The tree as make is given it: a link; the records name its real path.
ln -sfn "$REAL" "$SRC"

t_plan 16

# An object: its source, a header, a -include file (fixdep leaves those
# out of deps_), a config wildcard, a generated header with a record.
cat > "$O/drivers/a/.user.o.cmd" <<EOF
cmd_drivers/a/user.o := gcc -Wp,-MMD,drivers/a/.user.o.d -nostdinc -I$REAL/include -I./include -include $REAL/include/linux/kconfig.h -I $REAL/. -fmacro-prefix-map=$REAL/= -DKBUILD_MODNAME='"user"' -c -o drivers/a/user.o $REAL/drivers/a/user.c

source_drivers/a/user.o := $REAL/drivers/a/user.c

deps_drivers/a/user.o := \\
  $REAL/include/linux/dep.h \\
    \$(wildcard include/config/FOO) \\
  include/generated/gen.h \\
  include/generated/filechk.h \\

drivers/a/user.o: \$(deps_drivers/a/user.o)

\$(deps_drivers/a/user.o):
EOF
# The generated header, from a script and a table, and from a linked
# file (vDSO-like) whose objects have records of their own.
cat > "$O/include/generated/.gen.h.cmd" <<EOF
cmd_include/generated/gen.h := awk -f $REAL/scripts/gen.awk $REAL/arch/x86/gen.tbl arch/x86/vdso/vdso.so > include/generated/gen.h
EOF
cat > "$O/arch/x86/vdso/.vdso.so.cmd" <<EOF
savedcmd_arch/x86/vdso/vdso.so := ld -T arch/x86/vdso/vdso.lds arch/x86/vdso/vclock.o -o arch/x86/vdso/vdso.so
EOF
cat > "$O/arch/x86/vdso/.vclock.o.cmd" <<EOF
savedcmd_arch/x86/vdso/vclock.o := gcc -c -o arch/x86/vdso/vclock.o $REAL/arch/x86/vdso/vclock.c

source_arch/x86/vdso/vclock.o := $REAL/arch/x86/vdso/vclock.c

deps_arch/x86/vdso/vclock.o := \\
  $REAL/include/vdso/time.h \\

EOF
# What --offsets adds: the .s files filechk makes headers from.
cat > "$O/arch/x86/kernel/.asm-offsets.s.cmd" <<EOF
source_arch/x86/kernel/asm-offsets.s := $REAL/arch/x86/kernel/asm-offsets.c

deps_arch/x86/kernel/asm-offsets.s := \\
  $REAL/include/linux/sched.h \\

EOF
cat > "$O/kernel/.bounds.s.cmd" <<EOF
source_kernel/bounds.s := $REAL/kernel/bounds.c
EOF
# A .s record behind a symbolic link (kbuild's "source" link to the
# tree is one): not entered.
mkdir -p "$T_TMP/outside"
cat > "$T_TMP/outside/.hidden.s.cmd" <<EOF
source_hidden.s := $REAL/hidden.c
EOF
ln -sfn "$T_TMP/outside" "$O/source"

expected=(
	arch/x86/gen.tbl
	arch/x86/vdso/vclock.c
	drivers/a/user.c
	include
	include/linux/dep.h
	include/linux/kconfig.h
	include/vdso/time.h
	scripts/gen.awk
)
t_rc "an object's record: exit 0" 0 "$K" --objtree "$O" --srctree "$SRC" drivers/a/user.o
t_eq "its source, headers, -include file, -I dir; through the generated header to its script, table and the linked file's objects" \
	"$(printf '%s\n' "${expected[@]}")" "$(cat "$T_OUT")"
t_nogrep "the tree itself (-I \$(srctree)/., the prefix map) is no path" '^\.?$|^=' "$T_OUT"
t_nogrep "nothing of the build dir, no config wildcard" '^(\./|include/config|include/generated)' \
	"$T_OUT"

t_rc "with --offsets: exit 0" 0 "$K" --objtree "$O" --srctree "$SRC" --offsets drivers/a/user.o
t_grep "--offsets adds asm-offsets.s's source and headers" '^arch/x86/kernel/asm-offsets\.c$' "$T_OUT"
t_grep "... and its headers" '^include/linux/sched\.h$' "$T_OUT"
t_grep "... and bounds.s's source" '^kernel/bounds\.c$' "$T_OUT"
t_nogrep "... not through a symbolic link" '^hidden\.c$' "$T_OUT"

# The tree named by its given path in the records (no realpath there).
sed "s|$REAL|$SRC|g" "$O/drivers/a/.user.o.cmd" > "$T_TMP/given.cmd"
mkdir -p "$O/g"
sed 's|drivers/a/user|g/user|g' "$T_TMP/given.cmd" > "$O/g/.user.o.cmd"
t_rc "records naming the tree by the path given: exit 0" 0 "$K" --objtree "$O" --srctree "$SRC/" g/user.o
t_grep "... its paths found too" '^include/linux/dep\.h$' "$T_OUT"

# A missing record: exit 1, the others still printed.
t_rc "an object without a record: exit 1" 1 "$K" --objtree "$O" --srctree "$SRC" \
	drivers/a/user.o drivers/a/gone.o
t_grep "... the others' paths still printed" '^drivers/a/user\.c$' "$T_OUT"

t_rc "no --objtree: usage error, exit 2" 2 "$K" --srctree "$SRC" x.o
t_rc "no OBJ: usage error, exit 2" 2 "$K" --objtree "$O" --srctree "$SRC"
# shellcheck disable=SC2016  # the inner shell's arguments
t_rc "output that cannot be written: I/O error, exit 2" 2 bash -c \
	'"$1" --objtree "$2" --srctree "$3" drivers/a/user.o > /dev/full' _ "$K" "$O" "$SRC"

t_done
