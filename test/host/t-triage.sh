#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-triage.sh - fixture tests of tools/bin/triage: consoles of a 6.1
# bisect.config guest (clean, panic, hung, kernel BUG in rmmod, WARNING,
# explicit dump_stack; arm64's BUG and NULL dereference, a panic without
# a splat, a hung task) against complete, truncated, erroring and
# differing results of guest/runner.c, and the crash title of every
# splat, on the fixtures, made-up consoles and fuzzed ones.

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

t_plan 178

# --- the runner's dump of the kernel log: kept apart, not diagnostics ---
triage "results with a kernel log dump: exit 0" 0 \
	clean.console dmesg.ktap expect.tsv --dmesg "$T_TMP/kernel.log"
t_eq "--dmesg writes the log as logged, blank and indented lines too" \
	"Linux version 6.1.192-bisect (bisect@bisect-check) #1
  indented: kept as logged

kallsyms_lookup_probe: loading out-of-tree module taints kernel." "$(< "$T_TMP/kernel.log")"
t_nogrep "the dump is no test's diagnostics" 'indented: kept' "$T_OUT"

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

# --- claims a target does not run (series.yaml skip:, arm64 at step 0) ---
triage "skipped as declared: exit 0" 0 arm64-quiet.console skip.ktap expect-skip.tsv
t_grep "skips as declared pass, counted apart" \
	"^tests${TAB}ok${TAB}3/3 as declared, 4 skipped as declared\$" "$T_OUT"
t_grep "a SKIP is actual skip, with the runner's words" \
	"^test${TAB}hwbp-write${TAB}skip${TAB}skip${TAB}ok${TAB}SKIP not run on this target \\(bisect_skip\\) \\| insmod data_breakpoint" \
	"$T_OUT"
t_grep "a claim run beside the skips is judged" \
	"^test${TAB}hwbp-unload${TAB}yes${TAB}yes${TAB}ok${TAB}" "$T_OUT"
triage "a SKIP where yes is declared: exit 1" 1 arm64-quiet.console skip.ktap \
	expect-skip-yes.tsv
t_grep "a SKIP is no yes" \
	"^test${TAB}hwbp-write${TAB}yes${TAB}skip${TAB}FAIL${TAB}SKIP not run" "$T_OUT"
t_grep "it differs" "^tests${TAB}FAIL${TAB}1 of 7 differ, 3 skipped as declared\$" "$T_OUT"
triage "a declared skip that ran: exit 1" 1 clean.console complete.ktap expect-skip.tsv
t_grep "a claim that ran where skip is declared differs" \
	"^test${TAB}hwbp-write${TAB}skip${TAB}yes${TAB}FAIL${TAB}" "$T_OUT"

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
	'expect-bad\.tsv:1: expected yes, no or skip, got "maybe"' "$T_OUT"
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

# --- crash titles: one per distinct splat, as syzbot names them ---
# title_of(): the title records triage prints for console $1, joined by "|".
title_of()
{
	"$TRIAGE" --console "$1" --results "$FIX/complete.ktap" \
		--expect "$FIX/expect.tsv" > "$T_OUT" 2>&1
	grep "^title${TAB}" "$T_OUT" | cut -f 2- | paste -sd '|'
}

while IFS='|' read -r f want; do
	t_eq "title of $f: ${want:-none}" "$want" "$(title_of "$FIX/$f")"
done <<'TITLES'
bug-rmmod.console|kernel BUG in __symbol_put
bug-arm64.console|kernel BUG in __symbol_put
warning.console|WARNING in arch_install_hw_breakpoint
panic.console|BUG: kernel NULL pointer dereference in sample_hbp_handler
null-arm64.console|BUG: kernel NULL pointer dereference in sample_hbp_handler
hung.console|BUG: kernel NULL pointer dereference in kallsyms_on_each_symbol
hungtask.console|INFO: task hung in hw_break_module_exit
sysrq-x86_64.console|INFO: task hung in kernel_init
sysrq-arm64.console|INFO: task hung in kernel_init
panic-init.console|Kernel panic - not syncing: Attempted to kill init!
splat-arm64.console|kernel BUG
splat-gpf.console|general protection fault
splat-null.console|BUG: kernel NULL pointer dereference
splat-opcode.console|invalid opcode
splat-ubsan.console|UBSAN: shift-out-of-bounds in kernel/foo.c
splat-warn.console|WARNING in f
dumpstack.console|
clean.console|
lookalike.console|
TITLES
title_of "$FIX/panic.console" > /dev/null
t_eq "the title record comes after the boot's, before the tests'" \
	"boot boot-detail title tests test" \
	"$(cut -f 1 "$T_OUT" | uniq | xargs)"
triage "arm64 BUG: exit 1" 1 bug-arm64.console complete.ktap expect.tsv
t_grep "arm64 BUG: boot FAIL oops" "^boot${TAB}FAIL${TAB}oops\$" "$T_OUT"
triage "arm64 NULL dereference: exit 1" 1 null-arm64.console complete.ktap expect.tsv
t_grep "arm64 NULL dereference: boot FAIL panic" "^boot${TAB}FAIL${TAB}panic\$" "$T_OUT"
triage "panic without a splat: exit 1" 1 panic-init.console complete.ktap expect.tsv
t_grep "panic without a splat: boot FAIL panic" "^boot${TAB}FAIL${TAB}panic\$" "$T_OUT"
triage "hung task: exit 1" 1 hungtask.console hung.ktap expect.tsv --timed-out 300
t_grep "hung task: a timed-out boot has its title too" \
	"^title${TAB}INFO: task hung in hw_break_module_exit\$" "$T_OUT"
t_eq "hung task: the task's own line is part of the report, one title" 1 "$(count '^title')"
t_eq "hung task: the details quote the report, from its header to its trace's end" \
	"the host stopped the guest after 300 s; a task did not go on:|INFO: task runner:83 blocked for more than 122 seconds.|</TASK>" \
	"$(grep "^boot-detail" "$T_OUT" | sed -n '1p;2p;$p' | cut -f 2 | sed -E 's/^\[ *[0-9.]+\] *//' | paste -sd '|')"
# SysRq w's blocked tasks (tools/qemu-watch.sh asks when every CPU
# idles), as real x86_64 and arm64 guests printed them.
for a in x86_64 arm64; do
	triage "sysrq $a: a timed-out boot: exit 1" 1 sysrq-$a.console header-only.ktap expect.tsv --timed-out 20
	t_grep "sysrq $a: titled as the task that did not go on" \
		"^title${TAB}INFO: task hung in kernel_init\$" "$T_OUT"
	t_grep "sysrq $a: the details say so" \
		"^boot-detail${TAB}the host stopped the guest after 20 s; a task did not go on:\$" "$T_OUT"
	t_grep "sysrq $a: and quote the task first" \
		"^boot-detail${TAB}\[ *[0-9.]+\] task:swapper(/0)? +state:D " <(sed -n 3p "$T_OUT")
	t_grep "sysrq $a: then its stack" "^boot-detail${TAB}\[ *[0-9.]+\] +kernel_init\+0x" "$T_OUT"
	t_eq "sysrq $a: not the SysRq chatter before it" 0 "$(count "^boot-detail.*sysrq: ")"
done

# con(): a console of the message lines given, time-stamped, as $T_TMP/$1.
con()
{
	local name=$1; shift
	local line n=0
	for line in "$@"; do
		printf '[%5d.%06d] %s\r\n' 1 "$((n++))" "$line"
	done > "$T_TMP/$name"
	echo "$T_TMP/$name"
}

t_eq "WARNINGs: each distinct title once, in order of first appearance" \
	"WARNING in b|WARNING in a|kernel BUG in c" \
	"$(title_of "$(con warns.console \
		'WARNING: CPU: 0 PID: 1 at x.c:1 b+0x1/0x2' '---[ end trace 0 ]---' \
		'WARNING: CPU: 0 PID: 1 at x.c:2 a+0x1/0x2 [m]' '---[ end trace 0 ]---' \
		'WARNING: CPU: 0 PID: 1 at x.c:1 b+0x1/0x2' '---[ end trace 0 ]---' \
		'kernel BUG at x.c:9!' 'invalid opcode: 0000 [#1]' 'RIP: 0010:c+0x1/0x2' \
		'---[ end trace 0 ]---' 'WARNING: CPU: 0 PID: 1 at x.c:2 a+0x1/0x2')")"
t_eq "a compiler's clone suffix is dropped, the RIP names the function" \
	"BUG: unable to handle page fault in foo" \
	"$(title_of "$(con clone.console \
		'BUG: unable to handle page fault for address: ffffc90000abc000' \
		'#PF: supervisor read access in kernel mode' 'Oops: 0000 [#1] PREEMPT' \
		'RIP: 0010:foo.isra.0+0x1d/0x40 [m]')")"
t_eq "KASAN: the access and the function of the header" \
	"KASAN: slab-out-of-bounds Read in foo" \
	"$(title_of "$(con kasan.console 'BUG: KASAN: slab-out-of-bounds in foo+0x12/0x30' \
		'Read of size 8 at addr ffff888003d6c400 by task runner/83' 'Call Trace:' \
		' dump_stack_lvl+0x33/0x46' ' kasan_report+0xb9/0xf0' ' bar+0x1/0x2')")"
t_eq "UBSAN: the first frame not of the report" \
	"UBSAN: array-index-out-of-bounds in bar" \
	"$(title_of "$(con ubsan.console 'UBSAN: array-index-out-of-bounds in kernel/foo.c:3:4' \
		'index 9 is out of range for type int [8]' 'Call Trace:' ' <TASK>' \
		' dump_stack_lvl+0x33/0x46' ' ubsan_epilogue+0x5/0x40' \
		' __ubsan_handle_out_of_bounds+0x8a/0xa0' ' bar.cold+0x10/0x20' ' baz+0x1/0x2')")"
t_eq "soft lockup: the RIP" "BUG: soft lockup in spin" \
	"$(title_of "$(con lockup.console \
		'watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [runner:83]' \
		'Modules linked in: m' 'RIP: 0010:spin+0x5/0x10 [m]' 'Call Trace:' ' other+0x1/0x2')")"
t_eq "RCU stall: the stalled CPU's RIP, after the report's own trace" \
	"INFO: rcu detected stall in spin" \
	"$(title_of "$(con stall.console 'rcu: INFO: rcu_preempt self-detected stall on CPU' \
		'NMI backtrace for cpu 0' 'Call Trace:' ' <IRQ>' ' dump_stack_lvl+0x33/0x46' \
		' rcu_dump_cpu_stacks+0xc2/0x100' ' </IRQ>' 'RIP: 0010:spin+0x5/0x10')")"
t_eq "a panic after a splat has no title of its own" "WARNING in w" \
	"$(title_of "$(con panic-on-warn.console 'WARNING: CPU: 0 PID: 1 at x.c:1 w+0x1/0x2' \
		'Kernel panic - not syncing: panic_on_warn set ...')")"
t_eq "a panic's title is its first sentence" \
	"Kernel panic - not syncing: No working init found" \
	"$(title_of "$(con noinit.console \
		'Kernel panic - not syncing: No working init found.  Try passing init= option to kernel. See Linux Documentation/admin-guide/init.rst for guidance.')")"
t_eq "a BUG without a function: its kind" "BUG: scheduling while atomic" \
	"$(title_of "$(con atomic.console 'BUG: scheduling while atomic: runner/83/0x00000002')")"
t_eq "a title is never empty" "+0x1/0x2|BUG|kernel BUG at" \
	"$(title_of "$(con empty.console '+0x1/0x2: 0000 [#1]' '---[ end trace 0 ]---' \
		'BUG: , x' '---[ end trace 0 ]---' 'kernel BUG at :1!')")"

# --- long titles and bytes that are not UTF-8 ---
long=$(printf 'x%.0s' {1..300})
printf '[    1.000000] WARNING: CPU: 0 PID: 1 at x.c:1 %s+0x1/0x2\n' "$long" \
	> "$T_TMP/long.console"
printf '[    1.000001] Kernel panic - not syncing: \xff\xc3 %s\t\x01%s\n' \
	"$(printf 'é%.0s' {1..100})" "tail" > "$T_TMP/odd.console"
t_rc "a long title: exit 1" 1 "$TRIAGE" --console "$T_TMP/long.console" \
	--results "$FIX/complete.ktap" --expect "$FIX/expect.tsv"
grep "^title${TAB}" "$T_OUT" | cut -f 2- > "$T_TMP/long.titles"
t_rc "an odd title: exit 1" 1 "$TRIAGE" --console "$T_TMP/odd.console" \
	--results "$FIX/complete.ktap" --expect "$FIX/expect.tsv"
grep "^title${TAB}" "$T_OUT" | cut -f 2- >> "$T_TMP/long.titles"
t_eq "long, odd titles: one line each, no tab in a title" "1 1" \
	"$(grep -c "^title" "$T_OUT") $(grep -c "^title${TAB}[^${TAB}]*\$" "$T_OUT")"
t_eq "a long function: the title is cut to 120 bytes" \
	"WARNING in ${long:0:109}" "$(sed -n 1p "$T_TMP/long.titles")"
t_grep "bytes that are not UTF-8 are ?, cut between two characters" \
	'^Kernel panic - not syncing: \?\? (é){44}$' "$T_TMP/long.titles"
t_eq "the titles are valid UTF-8, 120 bytes at most" "ok 0" \
	"$(iconv -f UTF-8 -t UTF-8 "$T_TMP/long.titles" > /dev/null && echo ok) $(LC_ALL=C awk 'length($0) > 120' "$T_TMP/long.titles" | wc -l)"

# --- 20,000 splats: the distinct titles in n log n ---
awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "[    1.%06d] WARNING: CPU: 0 PID: 1 at x.c:%d f%d+0x1/0x2\n---[ end trace 0 ]---\n",
		i, i, i % 1000 }' > "$T_TMP/many.console"
t_rc "20k splats judged within 20 s" 1 timeout 20 "$TRIAGE" --console "$T_TMP/many.console" \
	--results "$FIX/complete.ktap" --expect "$FIX/expect.tsv"
t_eq "20k splats: 1000 titles, by first appearance" "1000 WARNING in f0 WARNING in f999" \
	"$(grep -c "^title${TAB}" "$T_OUT") $(grep "^title${TAB}" "$T_OUT" | sed -n '1p;$p' | cut -f 2 | paste -sd ' ')"

# --- fuzzed consoles: splat lines cut, mixed and garbled; never a crash ---
mkdir -p "$T_TMP/fuzz"
LC_ALL=C awk -v dir="$T_TMP/fuzz" -v n=150 '
	BEGIN {
		nw = split("kernel BUG at |WARNING: CPU: 0 PID: 1 at |RIP: 0010:|pc : |" \
			   "Call Trace:|Call trace:|---[ end trace|Kernel panic - not syncing: |" \
			   "BUG: |BUG: KASAN: | in |+0x|/0x|: 0000 [#1]|Internal error: |" \
			   "INFO: task x blocked for more than |UBSAN: |Oops|? |<TASK>|" \
			   "Read of size |watchdog: BUG: soft lockup|rcu: INFO: rcu_x detected stall|" \
			   "Unable to handle kernel |.isra|[    1.000000] ", word, "|")
	}
	{ pool[np++] = $0 }
	END {
		srand(20250609)
		for (f = 0; f < n; f++) {
			out = dir "/" f ".console"
			lines = int(rand() * 400)
			for (l = 0; l < lines; l++) {
				s = pool[int(rand() * np)]
				r = rand()
				if (r < 0.2)
					s = substr(s, 1, int(rand() * length(s)))
				else if (r < 0.4)
					s = s word[1 + int(rand() * nw)] substr(s, int(rand() * length(s)))
				else if (r < 0.5)
					for (b = 0; b < 8; b++)
						s = s sprintf("%c", 1 + int(rand() * 255))
				else if (r < 0.6)
					s = word[1 + int(rand() * nw)] word[1 + int(rand() * nw)] \
					    word[1 + int(rand() * nw)]
				printf "%s%s", s, rand() < 0.9 ? "\n" : "\r" > out
			}
			close(out)
		}
	}' "$FIX"/*.console
bad=
: > "$T_TMP/fuzz.titles"
for f in "$T_TMP"/fuzz/*.console; do
	"$TRIAGE" --console "$f" --results "$FIX/complete.ktap" \
		--expect "$FIX/expect.tsv" > "$T_OUT" 2>&1
	rc=$?
	((rc <= 1)) || bad+=" ${f##*/}: exit $rc;"
	grep "^title${TAB}" "$T_OUT" | cut -f 2- >> "$T_TMP/fuzz.titles"
done
t_eq "150 fuzzed consoles: exit 0 or 1, never a crash" "" "$bad"
t_eq "fuzzed consoles: titles are valid UTF-8, 1 to 120 bytes, no tab" "ok 0" \
	"$(iconv -f UTF-8 -t UTF-8 "$T_TMP/fuzz.titles" > /dev/null && echo ok) $(LC_ALL=C awk -F'\t' 'NF != 1 || length($0) < 1 || length($0) > 120' "$T_TMP/fuzz.titles" | wc -l)"
t_eq "fuzzed consoles: titles were found" yes \
	"$( (($(wc -l < "$T_TMP/fuzz.titles") > 50)) && echo yes || echo no)"

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
