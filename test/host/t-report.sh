#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-report.sh - fixture tests of tools/bin/report: golden KTAP and matrix
# for a run with every cell status, exit codes, and errors naming the file.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/report
REPORT=$T_BIN/report
TAB=$'\t'

# fresh(): copy fixture run $1 to a scratch RUNDIR named $2; print its path.
fresh()
{
	rm -rf "${T_TMP:?}/$2"
	cp -r "$FIX/$1" "$T_TMP/$2"
	# What bisect-check puts in every run dir: the stage table.
	cp "$T_TOP/tools/stages.tsv" "$T_TMP/$2/"
	echo "$T_TMP/$2"
}

t_plan 56

# --- a run with every status: ok, FAIL, skip, acked, cached-ok/FAIL/skip ---
run=$(fresh mixed mixed)
t_rc "mixed run exits 1" 1 "$REPORT" "$run"
t_eq "report.ktap is the golden one" "" \
	"$(diff -u "$FIX/golden/mixed.report.ktap" "$run/report.ktap" 2>&1)"
t_eq "matrix.txt is the golden one" "" \
	"$(diff -u "$FIX/golden/mixed.matrix.txt" "$run/matrix.txt" 2>&1)"
{ cat "$FIX/golden/mixed.report.ktap"; echo; cat "$FIX/golden/mixed.matrix.txt"; } \
	> "$T_TMP/want.stdout"
t_eq "stdout is the KTAP, a blank line, the matrix" "" \
	"$(cmp "$T_TMP/want.stdout" "$T_OUT" 2>&1)"
ktap=$run/report.ktap
matrix=$run/matrix.txt
t_grep "meta lines are header comments" '^# accel: tcg: /dev/kvm is missing$' "$ktap"
t_grep "preparation step is tagged [PREP]" \
	'^ok 1 0 a1b2c3d4e5f6 \[PREP\] bisect-check: restore' "$ktap"
t_grep "acked cell passes with its summary" \
	'^    ok 2 checkpatch # 2\.1s acked: 1 warning\(s\) accepted' "$ktap"
t_grep "acked cell quotes its details" \
	'^    # accepted WARNING COMMIT_LOG_LONG_LINE: ' "$ktap"
t_grep "cached-FAIL cell is not ok" \
	'^    not ok 4 boot # 4\.0s cached: from run 20250601-090000-977: panic' "$ktap"
t_grep "cached-skip cell is a skip" \
	'^    ok 5 tests # SKIP cached: from run 20250601-090000-977: no results' "$ktap"
t_grep "missing cell is a skip, not run" '^    ok 3 build # SKIP not run$' "$ktap"
t_nogrep "details of an ok cell are not quoted" 'must not be quoted' "$ktap"
t_grep "totals count the 20 stage results" \
	'^# Totals: pass:11 fail:3 xfail:0 xpass:0 skip:6 error:0$' "$ktap"
t_nogrep "CR of a CRLF details file is dropped" $'\r' "$ktap"
t_grep "matrix marks cached cells" '^1/3 .* ok\* 298\.0s +FAIL\* 4\.0s +skip\*$' \
	"$matrix"
t_grep "matrix has the cached footnote" '^\* cached' "$matrix"
t_grep "matrix truncates long subjects" 'Drop HW_BREAKP\.\.\.  ' "$matrix"
t_grep "matrix lists the failed tests" '^step 2/3 tests: FAIL 1 of 7 differ$' "$matrix"
t_grep "failed cell block quotes its details" \
	'^    hwbp-read-ignored: expected yes, actual no: ' "$matrix"
t_grep "failed cell block gives its log" '^    log: /.*/runs/20250607-101500-4242/logs/3-apply\.log$' "$matrix"
t_eq "last matrix line counts steps" "4 steps, 1 passed, 3 failed, 0 skipped" \
	"$(tail -n 1 "$matrix")"
t_eq "no temporary files are left" "" "$(find "$run" -name '*.tmp')"

# --- no failure: acked, cached-ok and skipped cells only ---
run=$(fresh pass pass)
t_rc "run without failed cells exits 0" 0 "$REPORT" "$run"
t_grep "step without cells is skipped" \
	'^ok 4 3/3 - kallsyms: Unexport .* # SKIP not run$' "$run/report.ktap"
t_eq "skipped step is counted" "4 steps, 3 passed, 0 failed, 1 skipped" \
	"$(tail -n 1 "$run/matrix.txt")"

# --- a cached-FAIL alone fails the run ---
run=$(fresh pass cached-fail)
sed -i "s/^1${TAB}tests${TAB}cached-ok${TAB}/1${TAB}tests${TAB}cached-FAIL${TAB}/" \
	"$run/cells.tsv"
t_rc "a cached-FAIL cell makes exit 1" 1 "$REPORT" "$run"
t_grep "the cached failure is listed" '^step 1/3 tests: FAIL\* from run' "$T_OUT"

# --- usage and I/O errors ---
run=$(fresh mixed nosteps)
rm "$run/steps.tsv"
t_rc "missing steps.tsv exits 2" 2 "$REPORT" "$run"
t_grep "the error names steps.tsv" "cannot open .*/nosteps/steps\\.tsv" "$T_OUT"

run=$(fresh mixed badcell)
printf '2\tboot\tmaybe\t1\t-\t-\n' >> "$run/cells.tsv"
t_rc "unknown status exits 2" 2 "$REPORT" "$run"
t_grep "the error names the file and line" \
	'/badcell/cells\.tsv:18: unknown status "maybe"' "$T_OUT"

run=$(fresh mixed unwritable)
mkdir "$run/report.ktap.tmp"
t_rc "unwritable report.ktap exits 2" 2 "$REPORT" "$run"

t_rc "no RUNDIR is a usage error" 2 "$REPORT"

# --- elapsed_ms past what fmt_time() can round (UBSan in tools/bin/san) ---
run=$(fresh mixed elapsed)
printf '2\tboot\tok\t9223372036854775758\t-\t-\n' >> "$run/cells.tsv"
t_rc "elapsed_ms LONG_MAX-49 exits 2" 2 "$REPORT" "$run"
t_grep "the error names the file, the line and the range" \
	'/elapsed/cells\.tsv:18: elapsed_ms 9223372036854775758 is out of range 0\.\.1000000000000$' \
	"$T_OUT"
run=$(fresh mixed elapsed-long)
printf '2\tboot\tok\t9223372036854775808\t-\t-\n' >> "$run/cells.tsv"
t_rc "elapsed_ms past LONG_MAX exits 2" 2 "$REPORT" "$run"
t_grep "the error says it is not a number of milliseconds" \
	'/elapsed-long/cells\.tsv:18: bad elapsed_ms "9223372036854775808": expected milliseconds or "-"$' \
	"$T_OUT"
run=$(fresh mixed elapsed-max)
printf '2\tboot\tok\t999999999949\t-\t-\n' >> "$run/cells.tsv"
t_rc "the largest elapsed_ms is taken" 1 "$REPORT" "$run"
t_grep "and rounded to tenths of seconds" '^    ok 4 boot # 999999999\.9s$' \
	"$run/report.ktap"

# --- text is cut between UTF-8 characters ---
run=$(fresh mixed utf8)
sed -i "s/^1${TAB}1\/3${TAB}[^$TAB]*$TAB/1${TAB}1\/3${TAB}aéééééé${TAB}/" "$run/steps.tsv"
t_rc "a 13-byte non-ASCII sha is reported" 1 "$REPORT" "$run"
t_grep "the sha is cut to whole characters" '^    # Subtest: 1/3 aééééé samples/' \
	"$run/report.ktap"
t_rc "report.ktap is valid UTF-8" 0 iconv -f UTF-8 -t UTF-8 "$run/report.ktap"
t_rc "matrix.txt is valid UTF-8" 0 iconv -f UTF-8 -t UTF-8 "$run/matrix.txt"
run=$(fresh mixed utf8-status)
printf '2\tboot\ta%s\t1\t-\t-\n' "$(printf 'é%.0s' {1..100})" >> "$run/cells.tsv"
t_rc "a long unknown status exits 2" 2 "$REPORT" "$run"
t_grep "the message quotes the status cut, with an ellipsis" \
	'cells\.tsv:18: unknown status "a(é){31}\.\.\."$' "$T_OUT"
t_rc "the message is valid UTF-8" 0 iconv -f UTF-8 -t UTF-8 "$T_OUT"

# --- 100,000 steps, 500,000 cells: cells are found in n log n ---
big=$T_TMP/big
mkdir -p "$big"
cp "$T_TOP/tools/stages.tsv" "$big/"
printf 'debian\tlinux-source-6.1\n' > "$big/meta.tsv"
awk 'BEGIN { for (i = 99999; i >= 0; i--)
	printf "%d\tL%d\t%012x\tsubject %d\n", i, i, i, i }' > "$big/steps.tsv"
awk -v stages="$(awk -F'\t' '!/^#/ && NF { print $1 }' "$T_TOP/tools/stages.tsv" | xargs)" \
	'BEGIN { n = split(stages, stage, " ")
	for (k = 1; k <= n; k++)
		for (i = 0; i < 100000; i++)
			printf "%d\t%s\t%s\t%d\t-\t-\n", i, stage[k],
				i == 77777 && k == n ? "FAIL" : "ok", i }' > "$big/cells.tsv"
start=$(date +%s%N)
t_rc "100k steps, 500k cells: exit 1 for the one failed cell" 1 "$REPORT" "$big"
ms=$((($(date +%s%N) - start) / 1000000))
t_eq "100k steps: reported within 20 s" yes \
	"$( ((ms < 20000)) && echo yes || echo "no: $ms ms")"
t_grep "100k steps: the failed cell is the one of step 77777" \
	'^step L77777 tests: FAIL$' "$big/matrix.txt"
t_eq "100k steps: all counted" "100000 steps, 99999 passed, 1 failed, 0 skipped" \
	"$(tail -n 1 "$big/matrix.txt")"
# Index i is on line 100000 - i; of the two repeated, 5 sorts first, but
# 90000 is repeated first in the file.
printf '90000\tagain\t-\tas line 10000\n5\tagain\t-\tas line 99995\n' \
	>> "$big/steps.tsv"
t_rc "100k steps, two indexes twice: exit 2" 2 "$REPORT" "$big"
t_grep "the error names the first repeating line" \
	'/big/steps\.tsv:100001: duplicate step index 90000 \(first at line 10000\)$' \
	"$T_OUT"

# --- the columns come from the stage table ---
run=$(fresh pass stages-missing)
rm "$run/stages.tsv"
t_rc "a run dir without stages.tsv: exit 2" 2 "$REPORT" "$run"
t_grep "the error names the stage table" 'stages\.tsv' "$T_OUT"
run=$(fresh pass stages-more)
printf 'sparse\tbuild\tC=2 on the touched files\n' >> "$run/stages.tsv"
t_rc "a stage more in the table: still a report" 0 "$REPORT" "$run"
t_grep "and a column more in the matrix" '^step +commit +subject +apply +checkpatch +build +boot +tests +sparse$' \
	"$run/matrix.txt"

t_done
