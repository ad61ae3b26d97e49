#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-distlog.sh - fixture tests of tools/bin/distlog: where the compiles of
# a build ran, from distcc's client log, on real logs of distcc 3.4
# (test/fixtures/distcc, see its README): remote compiles, a refused
# connection, a daemon killed mid-compile, a compile error retried here,
# hosts down, a kernel build through two daemons (kbuild's probes of the
# compiler, not counted), a daemon killed in one (its compiles moved to
# the other); and input that is no
# client log: a daemon's log, garbage, CRLF, no trailing newline, a
# missing file, usage errors.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/distcc
D=$T_BIN/distlog
TAB=$'\t'
H2=127.0.0.2:23632
H3=127.0.0.3:23632

# row(): its arguments joined by tabs, a line.
row()
{
	local IFS=$TAB
	printf '%s\n' "$*"
}

# summary(): the summary of distlog's output in $T_OUT.
summary()
{
	sed -n 's/^summary\t//p' "$T_OUT"
}

t_plan 35

t_rc "a remote compile: exit 0" 0 "$D" "$FIX/remote-ok.log"
t_eq "a remote compile: counted on its host, no cpp line counted" \
	"$(row host "$H2" 1 0 0; row total 1 0 0; row summary "1 compile on $H2 100%")" \
	"$(cat "$T_OUT")"

t_rc "the hosts given come first, in their order, also with nothing" 0 \
	"$D" --host "$H3/2" --host "$H2/2,lzo" "$FIX/remote-ok.log"
t_eq "... slots and options are no part of the name" \
	"$(row host "$H3" 0 0 0; row host "$H2" 1 0 0)" "$(grep '^host' "$T_OUT")"
t_eq "... and the summary names the idle host" "1 compile on $H3 0%, $H2 100%" "$(summary)"

t_rc "a refused connection: exit 0" 0 "$D" "$FIX/refused.log"
t_eq "a refused connection: moved from that host, the next one compiles" \
	"$(row host "$H3" 1 0 0; row host 127.0.0.9:23632 0 0 1; row total 1 0 1)" \
	"$(grep -v '^summary' "$T_OUT")"

t_rc "a daemon killed mid-compile: exit 0" 0 "$D" "$FIX/daemon-killed.log"
t_eq "a daemon killed mid-compile: moved from it, compiled here" \
	"$(row host "$H2" 0 0 1; row host localhost 1 0 0; row total 1 0 1)" \
	"$(grep -v '^summary' "$T_OUT")"
t_eq "... the summary says so" "1 compile on localhost 100%; 1 moved from $H2" "$(summary)"

t_rc "a compile error: exit 0 (the log is read, the build judges)" 0 "$D" "$FIX/compile-error.log"
t_eq "a compile error: failed there, retried here (moved), failed here" \
	"$(row host "$H3" 0 1 1; row host localhost 0 1 0; row total 0 2 1)" \
	"$(grep -v '^summary' "$T_OUT")"
t_eq "... the summary names both failures" \
	"0 compiles on; 1 moved from $H3; 1 failed on $H3, 1 failed on localhost" "$(summary)"

t_rc "hosts down: exit 0" 0 "$D" "$FIX/hosts-down.log"
t_eq "hosts down: one moved from the host, one with no host" \
	"$(row host 127.0.0.9:23632 0 0 1; row host localhost 2 0 0; row total 2 0 2)" \
	"$(grep -v '^summary' "$T_OUT")"
t_eq "... the summary" "2 compiles on localhost 100%; 1 moved from 127.0.0.9:23632, 1 ran here, no host free" \
	"$(summary)"

K2=127.0.0.2:36746
K3=127.0.0.3:36746
t_rc "a kernel build through two daemons: exit 0" 0 \
	"$D" --host "$K2/2" --host "$K3/2" "$FIX/kernel-build.log"
t_eq "a kernel build: its compiles per host; kbuild's probes and .S files, (null), not counted" \
	"$(row host "$K2" 3 0 0; row host "$K3" 3 0 0; row total 6 0 0)" \
	"$(grep -v '^summary' "$T_OUT")"
K2=127.0.0.2:36787
K3=127.0.0.3:36787
t_rc "a daemon killed in a kernel build: exit 0" 0 \
	"$D" --host "$K2/2" --host "$K3/2" "$FIX/kernel-kill.log"
t_eq "... a compile lost mid-send and one refused moved to the other host" \
	"$(row host "$K2" 2 0 0; row host "$K3" 0 0 2; row total 2 0 2)" \
	"$(grep -v '^summary' "$T_OUT")"
t_eq "... the summary" "2 compiles on $K2 100%, $K3 0%; 2 moved from $K3" "$(summary)"
t_rc "several logs are added up" 0 "$D" "$FIX/remote-ok.log" "$FIX/refused.log" "$FIX/daemon-killed.log"
t_eq "several logs: the sum, hosts sorted, localhost last" \
	"$(row host "$H2" 1 0 1; row host "$H3" 1 0 0; row host 127.0.0.9:23632 0 0 1
	   row host localhost 1 0 0; row total 3 0 2)" \
	"$(grep -v '^summary' "$T_OUT")"
t_eq "... shares rounded" \
	"3 compiles on $H2 33%, $H3 33%, localhost 33%; 1 moved from $H2, 1 moved from 127.0.0.9:23632" \
	"$(summary)"

t_rc "a daemon's log: exit 0" 0 "$D" "$FIX/distccd.log"
t_eq "a daemon's log holds no client line" "$(row total 0 0 0; row summary 'no compiles')" "$(cat "$T_OUT")"

# Made-up lines around real ones: names with spaces, ssh hosts, CRLF,
# no newline at the end, lines cut short, other programs' lines.
{
	printf 'distcc[1] compile my file.c on build1:3632/8,lzo completed ok\r\n'
	printf 'distcc[2] compile a.c on @build2/4,lzo completed ok\n'
	printf 'distcc[3] compile b.c on user@build2:/opt/distccd/4 completed ok\n'
	printf 'distcc[4] ERROR: compile c.c on build1:3632/8,lzo failed with exit code 1\n'
	printf 'distcc[5] Warning: failed to distribute d on x.c to build1:3632/8, running locally instead\n'
	printf 'distcc[6] cpp e.c on localhost completed ok\n'
	printf 'distccd[7] /usr/bin/gcc f.c on localhost completed ok\n'
	printf 'distcc[x] compile g.c on h completed ok\n'
	printf 'distcc[8] (dcc_f compile h.c on h completed ok\n'
	printf 'distcc[9] compile on completed ok\n'
	printf 'distcc[10] compile i.c on  completed ok\n'
	printf 'distcc[11] compile from j.c to j.o\n'
	printf 'distcc[13] compile (null) on localhost completed ok\n'
	printf 'distcc[14] ERROR: compile (null) on localhost failed\n'
	printf '\0\377 compile k.c on h completed ok\n'
	printf 'distcc[15] compile from m.c to m.o\n'
	printf 'distcc[15] exec on build3/2: gcc -c m.c\n'
	printf 'distcc[16] exec on build3/2: gcc -c n.c\n'
	printf 'distcc[15] exec on build1:3632/8,lzo: gcc -c m.c\n'
	printf 'distcc[15] compile m.c on build1:3632/8,lzo completed ok\n'
	printf 'distcc[16] compile n.c on build3/2 completed ok\n'
	printf 'distcc[17] exec on : gcc\n'
	printf 'distcc[0] exec on build4: gcc\n'
	printf 'distcc[999999999999] exec on build4: gcc\n'
	printf 'distcc[12] compile l.c on localhost completed ok'
} > "$T_TMP/made.log"
t_rc "made-up lines: exit 0" 0 "$D" "$T_TMP/made.log"
t_eq "made-up lines: only the well-formed ones count; a call sent on moves" \
	"$(row host @build2 2 0 0; row host build1:3632 2 1 1; row host build3 1 0 1
	   row host localhost 1 0 0; row total 6 1 2)" \
	"$(grep -v '^summary' "$T_OUT")"

head -c 100000 /dev/urandom > "$T_TMP/random.log"
t_rc "random bytes: exit 0, nothing counted" 0 "$D" "$T_TMP/random.log"
t_rc "an empty log: exit 0" 0 "$D" /dev/null
t_eq "an empty log: no compiles" "$(row total 0 0 0; row summary 'no compiles')" "$(cat "$T_OUT")"
t_rc "a missing log: exit 2" 2 "$D" "$T_TMP/nonexistent.log"
t_grep "... the error names it" 'distlog: error: cannot open distcc log file .*nonexistent\.log' "$T_OUT"
t_rc "no log: a usage error, exit 2" 2 "$D" --host a
t_rc "an unknown option: exit 2" 2 "$D" --bogus "$FIX/remote-ok.log"

t_done
