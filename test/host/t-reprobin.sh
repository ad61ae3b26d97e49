#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-reprobin.sh - two checkouts of the same code build the same guest
# runner, byte for byte: its sum is in every boot's key (boot_cells), so
# a runner that carried its checkout's path (-g's compile dir) made every
# fresh clone (CI's) boot every step again. Built by the Makefile's own
# rule in two copies at paths of different lengths; and, to show that
# the check can tell, with the Makefile's CFLAGS overridden (no prefix
# map), where they differ. A changed Makefile (how it is compiled) makes
# it again, as a changed source does.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

t_plan 5

# copy(): what the runner's rule needs, into dir $1.
copy()
{
	local d=$1; shift

	mkdir -p "$d/tools/src" "$d/guest" &&
		cp "$T_TOP/Makefile" "$d/" &&
		cp "$T_TOP/tools/lib.sh" "$d/tools/" &&
		cp "$T_TOP"/tools/src/*.h "$d/tools/src/" &&
		cp "$T_TOP/guest/runner.c" "$d/guest/"
}

# runner(): build the runner in dir $1 (make's arguments $2...), print
# its sum.
runner()
{
	local d=$1; shift

	make -s -C "$d" "$@" tools/bin/guest-runner-x86_64 > "$d.log" 2>&1 ||
		{ echo "make failed: $(tail -n 3 "$d.log")"; return 1; }
	sha1sum < "$d/tools/bin/guest-runner-x86_64" | cut -d' ' -f1
}

A=$T_TMP/a
B=$T_TMP/a-much-longer-path/to/another/checkout
if ! copy "$A" || ! copy "$B"; then
	echo "Bail out! cannot copy the sources"
	exit 1
fi
sa=$(runner "$A")
sb=$(runner "$B")
t_eq "the runner of two checkouts: the same bytes" "$sa" "$sb"
t_rc "... a static binary that was built" 0 test -x "$A/tools/bin/guest-runner-x86_64"

rm -rf "$A/tools/bin" "$B/tools/bin"
# The Makefile's CFLAGS without the prefix map: its default alone.
plain_a=$(runner "$A" CFLAGS='-O2 -g')
plain_b=$(runner "$B" CFLAGS='-O2 -g')
t_eq "without the prefix map they differ (the check can tell)" yes \
	"$([[ -n "$plain_a" && "$plain_a" != "$plain_b" ]] && echo yes || echo "no: $plain_a $plain_b")"

# The runner is older than the Makefile: make it again.
R=$A/tools/bin/guest-runner-x86_64
t_rc "a runner newer than the Makefile: up to date" 0 \
	make -q -s -C "$A" CFLAGS='-O2 -g' tools/bin/guest-runner-x86_64
touch -d '@'$(($(stat -c %Y "$R") + 10)) "$A/Makefile"
t_rc "a Makefile newer than the runner: made again" 1 \
	make -q -s -C "$A" CFLAGS='-O2 -g' tools/bin/guest-runner-x86_64

t_done
