#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-runner.sh - tests of the guest runner's kunit operation, on the host:
# the cases a target declares skipped (series.yaml skip cases:, told to
# the runner as bisect_skip_cases=SUITE.CASE,...) judged against the
# hw_breakpoint suite's results as the guests gave them
# (test/fixtures/runner/: arm64.results, 2 of the 9 cases pass;
# x86_64.results, all 9; one-cpu.results, arm64's with the 2 skipped by
# the suite). test/host/runner-kunit.c runs guest/runner.c's own
# code, built here for the host with the sanitizers; nothing is booted.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/runner
JUDGE=$T_TMP/runner-kunit
OUT=$T_TMP/judged

# judge(): the runner's judgement of suite hw_breakpoint's results $2
# with bisect_skip_cases=$1 ("-": not set) into $OUT, exit code in $RC.
judge()
{
	local cases=$1; shift
	local results=$1; shift

	if [[ "$cases" == - ]]; then
		env -u bisect_skip_cases "$JUDGE" hw_breakpoint "$FIX/$results" > "$OUT" 2>&1
	else
		bisect_skip_cases=$cases "$JUDGE" hw_breakpoint "$FIX/$results" > "$OUT" 2>&1
	fi
	RC=$?
}

t_plan 27

t_rc "runner-kunit.c builds: runner.c with the sanitizers" 0 \
	"${CC:-cc}" -O1 -g -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I"$T_TOP/tools/src" \
	-o "$JUDGE" "$T_TOP/test/host/runner-kunit.c"
[[ -x "$JUDGE" ]] || t_done

# The words series.yaml gives arm64-gcc's runner at 3/3.
ARM64=$("$T_BIN/series" "$T_TOP/series.yaml" |
	awk -F'\t' '$1 == "skip-cases" && $2 == "arm64-gcc" && $3 == 3 && $4 == "hwbp-kunit" { print $6 }')
t_eq "series.yaml: arm64-gcc does not count 7 cases of hw_breakpoint" \
	"7 hw_breakpoint.test_one_task_on_all_cpus" \
	"$(tr ',' '\n' <<< "$ARM64" | grep -c '^hw_breakpoint\.test_[a-z_]*$') ${ARM64%%,*}"

judge - arm64.results
t_eq "arm64, nothing declared: 7 cases fail it" \
	"0 # t: kunit hw_breakpoint: 7 of 9 cases failed|verdict: not ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"

judge "$ARM64" arm64.results
t_eq "arm64, series.yaml's 7 declared: the 2 others pass it" \
	"0 # t: kunit hw_breakpoint: 2 of 9 cases passed, 7 skipped (declared for this target)|verdict: ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"
t_grep "a declared case is printed as skipped, with its result" \
	'^# t: kunit hw_breakpoint\.test_one_task_mixed: skip \(declared for this target; result: not ok\)$' "$OUT"
t_eq "every declared case so, the others as they ran, in order" \
	"ok ok skip skip skip skip skip skip skip" \
	"$(sed -n 's/^# t: kunit hw_breakpoint\.test_[a-z_]*: \([a-z]*\).*/\1/p' "$OUT" | tr '\n' ' ' | sed 's/ $//')"
t_nogrep "no diagnostics of a declared case" 'ASSERTION|Expected' "$OUT"
t_nogrep "no stale declaration" 'no such case' "$OUT"

judge "${ARM64%,*}" arm64.results
t_eq "arm64, 6 declared: the 7th fails it, its diagnostics quoted" \
	"0 # t: kunit hw_breakpoint: 1 of 9 cases failed, 6 skipped (declared for this target)|verdict: not ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"
t_grep "the failing case's assertion is quoted" \
	'^# t: kunit hw_breakpoint\.test_task_on_all_and_one_cpu: test_task_on_all_and_one_cpu: ASSERTION FAILED at kernel/events/hw_breakpoint_test\.c:70$' "$OUT"

judge "${ARM64//hw_breakpoint./other_suite.}" arm64.results
t_eq "arm64, another suite's cases declared: no effect here" \
	"0 # t: kunit hw_breakpoint: 7 of 9 cases failed|verdict: not ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"

judge "hw_breakpoint.test_one_cpu,hw_breakpoint.test_many_cpus,$ARM64" arm64.results
t_eq "all 9 declared: no case ran, it fails" \
	"0 # t: kunit hw_breakpoint: no case ran, 9 skipped (declared for this target)|verdict: not ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"

judge "$ARM64" one-cpu.results
t_eq "the 2 others skipped by the suite: no case ran, it fails" \
	"0 # t: kunit hw_breakpoint: no case ran, 7 skipped (declared for this target)|verdict: not ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"
judge - one-cpu.results
t_eq "as before, nothing declared: a case skipped by the suite is no failure" \
	"0 # t: kunit hw_breakpoint: 7 of 9 cases failed|verdict: not ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"

judge "$ARM64" x86_64.results
t_eq "x86_64 results, 7 declared: passes, 2 counted" \
	"0 # t: kunit hw_breakpoint: 2 of 9 cases passed, 7 skipped (declared for this target)|verdict: ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"
t_grep "a declared case that passed says so: the declaration may be stale" \
	'^# t: kunit hw_breakpoint\.test_one_task_on_all_cpus: skip \(declared for this target; result: ok\)$' "$OUT"
judge - x86_64.results
t_eq "x86_64 results, nothing declared: 9 of 9" \
	"0 # t: kunit hw_breakpoint: 9 of 9 cases passed|verdict: ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"
judge "" x86_64.results
t_eq "bisect_skip_cases= empty: as not set" \
	"0 # t: kunit hw_breakpoint: 9 of 9 cases passed|verdict: ok" \
	"$RC $(sed -n 1p "$OUT")|$(tail -n 1 "$OUT")"

judge "$ARM64,hw_breakpoint.test_renamed" arm64.results
t_eq "a declared case the suite does not have: still judged by the others" \
	"0 verdict: ok" "$RC $(tail -n 1 "$OUT")"
t_grep "... and said" \
	'^# t: kunit hw_breakpoint\.test_renamed: declared for this target, but the suite has no such case$' "$OUT"

# Malformed: the runner bails out (the host never writes such a word).
judge "hw_breakpoint" x86_64.results
t_eq "no SUITE.: refused, named" \
	'2 # runner: bisect_skip_cases: "hw_breakpoint" is not SUITE.CASE ([a-z0-9_-]+.[a-z0-9_]+)' \
	"$RC $(< "$OUT")"
judge "hw_breakpoint.test_one_cpu," x86_64.results
t_eq "an empty entry (trailing comma): refused" \
	'2 # runner: bisect_skip_cases: "" is not SUITE.CASE ([a-z0-9_-]+.[a-z0-9_]+)' \
	"$RC $(< "$OUT")"
judge "hw_breakpoint.Test_one_cpu" x86_64.results
t_eq "a case not [a-z0-9_]+: refused" \
	'2 # runner: bisect_skip_cases: "hw_breakpoint.Test_one_cpu" is not SUITE.CASE ([a-z0-9_-]+.[a-z0-9_]+)' \
	"$RC $(< "$OUT")"
judge "hw_breakpoint.test_one_cpu,hw_breakpoint.test_one_cpu,$ARM64" x86_64.results
t_eq "a case declared twice: once skipped, never said missing" \
	"0 # t: kunit hw_breakpoint: 1 of 9 cases passed, 8 skipped (declared for this target)||verdict: ok" \
	"$RC $(sed -n 1p "$OUT")|$(grep 'no such case' "$OUT")|$(tail -n 1 "$OUT")"
judge ".test_one_cpu" x86_64.results
t_eq "no suite: refused" \
	'2 # runner: bisect_skip_cases: ".test_one_cpu" is not SUITE.CASE ([a-z0-9_-]+.[a-z0-9_]+)' \
	"$RC $(< "$OUT")"
long=$(printf 'hw_breakpoint.test_one_cpu,%.0s' {1..40})
judge "${long%,}" x86_64.results
t_eq "longer than the runner takes: refused" \
	"2 # runner: bisect_skip_cases: longer than 1024 characters" "$RC $(< "$OUT")"
judge "${long:0:1023}u" x86_64.results
t_eq "1024 characters: taken" "0 verdict: ok" "$RC $(tail -n 1 "$OUT")"

t_done
