#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-triage.sh - fixture tests of tools/bin/triage: consoles of a 6.1
# bisect.config guest (clean, panic, hung, kernel BUG in rmmod, WARNING,
# explicit dump_stack) against complete, truncated, erroring and
# differing results of test/guest/runner.c.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/console
TRIAGE=$T_BIN/triage
TAB=$'\t'

# triage(): desc, expected exit, console, results, expect, extra options.
triage()
{
	local desc=$1 rc=$2 console=$3 results=$4 expect=$5
	shift 5
	t_rc "$desc" "$rc" "$TRIAGE" --console "$FIX/$console" \
		--results "$FIX/$results" --expect "$FIX/$expect" "$@"
}

# count(): lines of $T_OUT matching the ERE.
count()
{
	grep -Ec -- "$1" "$T_OUT"
}

# last_detail(): the last boot-detail line of $T_OUT.
last_detail()
{
	grep '^boot-detail' "$T_OUT" | tail -n 1
}

t_plan 103

# --- clean quiet boot, all tests as declared ---
triage "clean boot, complete results: exit 0" 0 \
	clean.console complete.ktap expect.tsv
t_grep "boot ok" "^boot${TAB}ok${TAB}ok\$" "$T_OUT"
t_nogrep "RETBleed: WARNING: is not a splat" '^boot-detail' "$T_OUT"
t_grep "tests ok" "^tests${TAB}ok${TAB}7/7 as declared\$" "$T_OUT"
t_eq "seven tests pass" 7 \
	"$(count "^test${TAB}[^${TAB}]+${TAB}(yes|no)${TAB}(yes|no)${TAB}ok${TAB}")"
t_grep "diagnostics are joined with |" \
	"^test${TAB}hwbp-default-load${TAB}no${TAB}no${TAB}ok${TAB}insmod data_breakpoint\\.ko: -6 ENXIO \\(No such device or address\\) \\| kmsg: failing symbol_get" \
	"$T_OUT"
t_nogrep "runner: diagnostics belong to no test" 'runner: kernel' "$T_OUT"

# --- results the runner could not produce, or that differ ---
triage "ERROR results: exit 1" 1 clean.console error.ktap expect.tsv
t_grep "ERROR is actual error with its reason" \
	"^test${TAB}hwbp-unexported${TAB}yes${TAB}error${TAB}FAIL${TAB}ERROR data_breakpoint\\.ko not found under /lib/modules/6\\.1\\.192-bisect\$" \
	"$T_OUT"
t_grep "an ERROR fails an expected no too" \
	"^test${TAB}hwbp-default-load${TAB}no${TAB}error${TAB}FAIL${TAB}" "$T_OUT"
t_grep "ERRORs fail the tests" "^tests${TAB}FAIL${TAB}5 of 7 differ\$" "$T_OUT"

triage "differing results, typo in expect: exit 1" 1 \
	clean.console differ.ktap expect-typo.tsv
t_grep "mismatch, missing and undeclared are counted" \
	"^tests${TAB}FAIL${TAB}2 of 7 differ, 1 not declared\$" "$T_OUT"
t_grep "a mismatch fails" \
	"^test${TAB}hwbp-read-ignored${TAB}yes${TAB}no${TAB}FAIL${TAB}.*handler fired 1 time during the read" \
	"$T_OUT"
t_grep "a declared id never reported is missing" \
	"^test${TAB}hwbp-writes${TAB}yes${TAB}missing${TAB}FAIL${TAB}\$" "$T_OUT"
t_grep "a reported id not declared fails" \
	"^test${TAB}hwbp-write${TAB}-${TAB}yes${TAB}FAIL${TAB}not declared \\| insmod data_breakpoint\\.ko ksym=panic_timeout" \
	"$T_OUT"

# --- the runner's watchdog fired: no "# runner: done" ---
triage "watchdog expired: exit 1" 1 clean.console watchdog.ktap expect.tsv
t_grep "no runner: done is no result" "^boot${TAB}FAIL${TAB}no result\$" "$T_OUT"
t_eq "no result quotes the console tail (3 lines here)" 3 "$(count '^boot-detail')"
t_grep "ANSI escapes are stripped from quotes" \
	"^boot-detail${TAB}SeaBIOS \\(version 1\\.16\\.2-debian-1\\.16\\.2-1\\)\$" "$T_OUT"
t_nogrep "no CR of the CRLF console reaches the output" $'\r' "$T_OUT"
t_grep "unfinished results are incomplete" \
	"^tests${TAB}FAIL${TAB}incomplete: 4 of 7 reported\$" "$T_OUT"

# --- panic in interrupt context (panic=-1 reboots at once) ---
triage "panic, no results: exit 1" 1 panic.console header-only.ktap expect.tsv
t_grep "boot FAIL panic" "^boot${TAB}FAIL${TAB}panic\$" "$T_OUT"
t_eq "excerpt starts at the first bad line" \
	"boot-detail${TAB}[    2.705879] BUG: kernel NULL pointer dereference, address: 0000000000000008" \
	"$(grep -m 1 '^boot-detail' "$T_OUT")"
t_eq "excerpt ends with the panic line" \
	"boot-detail${TAB}[    2.737648] Kernel panic - not syncing: Fatal exception in interrupt" \
	"$(last_detail)"
t_grep "excerpt quotes the RIP" \
	"^boot-detail${TAB}.* RIP: 0010:sample_hbp_handler\\+0x1d/0x40" "$T_OUT"
t_grep "excerpt quotes the Call Trace" \
	"^boot-detail${TAB}\\[ +[0-9.]+\\] Call Trace:\$" "$T_OUT"
n=$(count '^boot-detail')
t_eq "excerpt has at most 20 lines" 1 "$((n > 0 && n <= 20))"
t_grep "no results after a panic skip the tests" \
	"^tests${TAB}skip${TAB}no results \\(panic\\)\$" "$T_OUT"
t_nogrep "skipped tests have no test lines" "^test${TAB}" "$T_OUT"
t_eq "no NUL from the console reaches the output" "$(wc -c < "$T_OUT")" \
	"$(tr -d '\000' < "$T_OUT" | wc -c)"

triage "panic, some results: exit 1" 1 panic.console panic.ktap expect.tsv
t_grep "partial results are incomplete, not skipped" \
	"^tests${TAB}FAIL${TAB}incomplete: 3 of 7 reported\$" "$T_OUT"
t_grep "the tests after the panic are missing" \
	"^test${TAB}hwbp-default-load${TAB}no${TAB}missing${TAB}FAIL" "$T_OUT"

# --- hung guest killed by the host mid-line ---
triage "hung guest: exit 1" 1 hung.console hung.ktap expect.tsv --timed-out 300
t_grep "boot FAIL timeout, even with an oops on the console" \
	"^boot${TAB}FAIL${TAB}timeout\$" "$T_OUT"
t_eq "timeout says when the host stopped it, then the last 15 lines" 16 "$(count '^boot-detail')"
t_grep "the stop names the timeout" \
	"^boot-detail${TAB}the host stopped the guest after 300 s; its console ends:\$" "$T_OUT"
t_eq "the partial last console line is quoted" \
	"boot-detail${TAB}[    1.771600] jiffies value is cha" "$(last_detail)"
t_nogrep "lines before the tail are not quoted" "^boot-detail${TAB}.*Oops" "$T_OUT"
t_grep "hung results are incomplete, the ERROR counted" \
	"^tests${TAB}FAIL${TAB}incomplete: 3 of 7 reported, 1 differs\$" "$T_OUT"
t_nogrep "a partial last result line is ignored" "${TAB}hwbp-defa${TAB}" "$T_OUT"

# --- kernel BUG in rmmod: the child dies, the runner completes ---
triage "kernel BUG in rmmod: exit 1" 1 \
	bug-rmmod.console bug.ktap expect-unload-no.tsv
t_grep "boot FAIL oops despite tests as declared" \
	"^boot${TAB}FAIL${TAB}oops\$" "$T_OUT"
t_grep "the BUG line is quoted" \
	"^boot-detail${TAB}\\[ +[0-9.]+\\] kernel BUG at kernel/module/main\\.c:784!\$" \
	"$T_OUT"
t_grep "lines after the BUG are quoted" \
	"^boot-detail${TAB}.* RIP: 0010:__symbol_put" "$T_OUT"
t_grep "the tests themselves are as declared" \
	"^tests${TAB}ok${TAB}7/7 as declared\$" "$T_OUT"
n=$(count '^boot-detail')
t_eq "oops excerpt has at most 20 lines" 1 "$((n > 0 && n <= 20))"

triage "kernel BUG, unload declared yes: exit 1" 1 \
	bug-rmmod.console bug.ktap expect.tsv
t_grep "the unload test fails with its diagnostics" \
	"^test${TAB}hwbp-unload${TAB}yes${TAB}no${TAB}FAIL${TAB}rmmod data_breakpoint: killed by signal 11" \
	"$T_OUT"

# --- WARNING splat (boot without quiet) while all tests pass ---
triage "WARNING splat: exit 1" 1 warning.console complete.ktap expect.tsv
t_grep "boot FAIL warning" "^boot${TAB}FAIL${TAB}warning\$" "$T_OUT"
t_grep "the WARNING line is quoted" \
	"^boot-detail${TAB}\\[ +[0-9.]+\\] WARNING: CPU: 0 PID: 92 at arch/x86/kernel/hw_breakpoint\\.c:113" \
	"$T_OUT"
t_grep "tests still ok" "^tests${TAB}ok${TAB}7/7 as declared\$" "$T_OUT"

# --- explicit dump_stack() of the sample's handler (boot without quiet) ---
triage "dump_stack() trace: exit 0" 0 dumpstack.console complete.ktap expect.tsv
t_grep "a dump_stack() Call Trace is not an oops" "^boot${TAB}ok${TAB}ok\$" "$T_OUT"

# --- long diagnostics are cut ---
{
	printf 'KTAP version 1\n1..1\n'
	printf '# hwbp-unload: %s\n' "$(printf 'x%.0s' {1..200})" "$(printf 'y%.0s' {1..200})"
	printf 'ok 1 hwbp-unload\n# runner: done\n'
} > "$T_TMP/long.ktap"
printf 'hwbp-unload\tyes\n' > "$T_TMP/one.tsv"
t_rc "long diagnostics: exit 0" 0 "$TRIAGE" --console "$FIX/clean.console" \
	--results "$T_TMP/long.ktap" --expect "$T_TMP/one.tsv"
diag=$(grep "^test${TAB}hwbp-unload" "$T_OUT" | cut -f 6)
t_eq "diagnostics are cut to 300 characters" 300 "${#diag}"
t_eq "a cut is marked with ..." "..." "${diag: -3}"

# --- usage and I/O errors ---
t_rc "missing --expect is a usage error" 2 "$TRIAGE" \
	--console "$FIX/clean.console" --results "$FIX/complete.ktap"
t_grep "usage is printed" '^usage: triage ' "$T_OUT"
t_rc "unreadable console exits 2" 2 "$TRIAGE" --console "$T_TMP/nonexistent" \
	--results "$FIX/complete.ktap" --expect "$FIX/expect.tsv"
t_grep "the error names the console file" "console file .*/nonexistent" "$T_OUT"
triage "bad expect line exits 2" 2 clean.console complete.ktap expect-bad.tsv
t_grep "the error names the expect file and line" \
	'expect-bad\.tsv:1: expected yes or no, got "maybe"' "$T_OUT"
triage "bad --timed-out exits 2" 2 clean.console complete.ktap expect.tsv \
	--timed-out soon


# --- which kernel booted: the runner's identity against the build's ---
triage "identity as built: exit 0" 0 clean.console identity.ktap expect.tsv \
	--identity "$FIX/identity.tsv"
t_grep "same identity: boot ok" "^boot${TAB}ok${TAB}ok\$" "$T_OUT"
t_grep "identity line names both" \
	"^identity${TAB}ok${TAB}#1a2b3c4d5e6f Thu Jan  1 00:00:00 UTC 2000${TAB}#1a2b3c4d5e6f " "$T_OUT"
t_nogrep "identity lines are no test's diagnostics" 'identity:' "$T_OUT"

triage "another kernel booted: exit 1" 1 clean.console identity.ktap expect.tsv \
	--identity "$FIX/identity-other.tsv"
t_grep "booted X, built Y" \
	"^boot${TAB}FAIL${TAB}booted #1a2b3c4d5e6f, built #99aa88bb77cc\$" "$T_OUT"
t_grep "identity FAIL" "^identity${TAB}FAIL${TAB}" "$T_OUT"
t_grep "detail: what booted" \
	"^boot-detail${TAB}booted: 6\.1\.192-bisect #1a2b3c4d5e6f Thu Jan  1 00:00:00 UTC 2000\$" "$T_OUT"
t_grep "detail: what was built" \
	"^boot-detail${TAB}built: 6\.1\.192-bisect #99aa88bb77cc " "$T_OUT"
t_grep "tests are still judged" "^tests${TAB}ok${TAB}" "$T_OUT"

triage "a module of another build: exit 1" 1 clean.console identity.ktap expect.tsv \
	--identity "$FIX/identity-module.tsv"
t_grep "the module is named with both srcversions" \
	"^boot${TAB}FAIL${TAB}booted module data_breakpoint srcversion 0F3B1C9D2E7A6B5C4D3E2F1, built A{23}\$" "$T_OUT"

triage "no uname -v from a finished runner: exit 1" 1 clean.console \
	identity-none.ktap expect.tsv --identity "$FIX/identity.tsv"
t_grep "unknown kernel" "^boot${TAB}FAIL${TAB}booted an unknown kernel, built #1a2b3c4d5e6f " "$T_OUT"

triage "no identity and no result: the boot failed anyway" 1 hung.console \
	hung.ktap expect.tsv --identity "$FIX/identity.tsv" --timed-out 60
t_grep "a timeout stays a timeout" "^boot${TAB}FAIL${TAB}timeout\$" "$T_OUT"
t_grep "identity unknown" "^identity${TAB}unknown${TAB}-${TAB}" "$T_OUT"

printf 'uname-r\t6.1\n' > "$T_TMP/noversion.tsv"
triage "an identity file without uname-v: exit 2" 2 clean.console identity.ktap \
	expect.tsv --identity "$T_TMP/noversion.tsv"
t_grep "names the file" "noversion\.tsv: no uname-v line" "$T_OUT"

# --- splats by the kernel's formats (splat.h), not by words in a line ---
triage "DEBUG:, BUGS_x, 'WARNING count', 'Oops count' are no splats: exit 0" 0 \
	lookalike.console complete.ktap expect.tsv
for k in warn:warning ubsan:warning opcode:oops arm64:oops gpf:oops null:oops; do
	triage "splat-${k%%:*}: a ${k#*:} (exit 1)" 1 "splat-${k%%:*}.console" \
		complete.ktap expect.tsv
	t_grep "splat-${k%%:*}: boot FAIL ${k#*:}" "^boot${TAB}FAIL${TAB}${k#*:}\$" "$T_OUT"
done

# --- 100k results and expectations: log-time lookups, not minutes ---
awk 'BEGIN { print "KTAP version 1"
	for (i = 0; i < 100000; i++) printf "# t%d: diag %d\nok %d t%d\n", i, i, i + 1, i
	print "# runner: done" }' > "$T_TMP/big.ktap"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "t%d\tyes\n", i }' > "$T_TMP/big.tsv"
t_rc "100k tests judged within 20 s" 0 timeout 20 "$TRIAGE" --console "$FIX/clean.console" \
	--results "$T_TMP/big.ktap" --expect "$T_TMP/big.tsv"
t_grep "100k tests: all as declared" "^tests${TAB}ok${TAB}100000/100000 as declared\$" "$T_OUT"
t_grep "100k tests: each keeps its own diagnostics" "^test${TAB}t99999${TAB}yes${TAB}yes${TAB}ok${TAB}diag 99999\$" "$T_OUT"
printf 't5\tno\n' >> "$T_TMP/big.tsv"
t_rc "a duplicate after 100k ids: exit 2 within 20 s" 2 timeout 20 "$TRIAGE" \
	--console "$FIX/clean.console" --results "$T_TMP/big.ktap" --expect "$T_TMP/big.tsv"

t_done
