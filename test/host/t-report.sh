#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-report.sh - fixture tests of tools/bin/report: golden KTAP and matrix
# for a run with every cell status, for a run on two targets and for one
# whose boots crashed (triage's titles grouped across steps and targets),
# exit codes, and errors naming the file and line.
#
# Each fixture is a run dir as bisect-check leaves it, stage table
# (stages.tsv, the 4-column form of tools/stages.tsv) and targets.tsv
# included.

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
	echo "$T_TMP/$2"
}

# t_error(): run the report on RUNDIR $2 and pass when it exits 2 and its
# message matches the ERE $3 (two results, described by $1).
t_error()
{
	local desc=$1; shift
	local run=$1; shift
	local re=$1; shift
	t_rc "$desc: exit 2" 2 "$REPORT" "$run"
	t_grep "$desc: the message names the file and line" "$re" "$T_OUT"
}

# t_golden(): the report of RUNDIR $2 exits $3 and writes the golden
# KTAP and matrix of $4 (test/fixtures/report/golden/$4.*), and stdout is
# the KTAP, a blank line, the matrix (four results, described by $1).
t_golden()
{
	local desc=$1; shift
	local run=$1; shift
	local rc=$1; shift
	local golden=$FIX/golden/$1; shift

	t_rc "$desc: exits $rc" "$rc" "$REPORT" "$run"
	t_eq "$desc: report.ktap is the golden one" "" \
		"$(diff -u "$golden.report.ktap" "$run/report.ktap" 2>&1)"
	t_eq "$desc: matrix.txt is the golden one" "" \
		"$(diff -u "$golden.matrix.txt" "$run/matrix.txt" 2>&1)"
	{ cat "$golden.report.ktap"; echo; cat "$golden.matrix.txt"; } > "$T_TMP/want.stdout"
	t_eq "$desc: stdout is the KTAP, a blank line, the matrix" "" \
		"$(cmp "$T_TMP/want.stdout" "$T_OUT" 2>&1)"
}

t_plan 196

# The line a bad cell appended to the mixed fixture's cells.tsv is on.
BAD_LINE=$(($(grep -c '' "$FIX/mixed/cells.tsv") + 1))

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
	'^        not ok 3 boot # 4\.0s cached: from run 20250601-090000-977: panic' "$ktap"
t_grep "cached-skip cell is a skip" \
	'^        ok 4 tests # SKIP cached: from run 20250601-090000-977: no results' "$ktap"
t_grep "missing cell is a skip, not run" '^        ok 1 build # SKIP not run$' "$ktap"
t_grep "a target's cells are a subtest of the step" '^        # Subtest: x86_64-gcc$' "$ktap"
t_grep "a target with a failed cell is not ok" '^    not ok 9 x86_64-gcc$' "$ktap"
t_grep "a target with skipped cells only is a skip" '^    ok 9 x86_64-gcc # SKIP not run$' "$ktap"
t_nogrep "details of an ok cell are not quoted" 'must not be quoted' "$ktap"
t_grep "totals count the 48 stage results" \
	'^# Totals: pass:25 fail:3 xfail:0 xpass:0 skip:20 error:0$' "$ktap"
t_nogrep "CR of a CRLF details file is dropped" $'\r' "$ktap"
t_grep "matrix marks cached cells" '^1/3 .* ok\* 298\.0s +ok\* 0\.0s +FAIL\* 4\.0s +skip\*$' \
	"$matrix"
t_grep "matrix has the cached footnote" '^\* cached' "$matrix"
t_grep "matrix truncates long subjects" 'Drop HW_BREAKP\.\.\.  ' "$matrix"
t_grep "matrix lists the failed tests, on their target" \
	'^step 2/3 x86_64-gcc tests: FAIL 1 of 7 differ$' "$matrix"
t_grep "a failed step-scope cell names no target" '^step 3/3 apply: FAIL patch does not apply$' \
	"$matrix"
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
cell="1${TAB}x86_64-gcc${TAB}tests${TAB}"
sed -i "s/^${cell}ok${TAB}\(.*${TAB}[^$TAB]*\/[^$TAB]*\)\$/${cell}FAIL${TAB}\1/" "$run/cells.tsv"
t_grep "the fixture's cell is a cached one" "^${cell}FAIL${TAB}.*${TAB}[^$TAB/]*/1-x86_64-gcc-tests\$" \
	"$run/cells.tsv"
t_rc "a cached-FAIL cell makes exit 1" 1 "$REPORT" "$run"
t_grep "the cached failure is listed" '^step 1/3 x86_64-gcc tests: FAIL\* from run' "$T_OUT"

# --- usage and I/O errors ---
run=$(fresh mixed nosteps)
rm "$run/steps.tsv"
t_rc "missing steps.tsv exits 2" 2 "$REPORT" "$run"
t_grep "the error names steps.tsv" "cannot open .*/nosteps/steps\\.tsv" "$T_OUT"

run=$(fresh mixed badcell)
printf '2\tx86_64-gcc\tboot\tmaybe\t1\t-\t-\t-\n' >> "$run/cells.tsv"
t_rc "unknown status exits 2" 2 "$REPORT" "$run"
t_grep "the error names the file and line" \
	"/badcell/cells\\.tsv:$BAD_LINE: unknown status \"maybe\"" "$T_OUT"

run=$(fresh mixed unwritable)
mkdir "$run/report.ktap.tmp"
t_rc "unwritable report.ktap exits 2" 2 "$REPORT" "$run"

t_rc "no RUNDIR is a usage error" 2 "$REPORT"

# --- elapsed_ms past what fmt_time() can round (UBSan in tools/bin/san) ---
run=$(fresh mixed elapsed)
printf '2\tx86_64-gcc\tboot\tok\t9223372036854775758\t-\t-\t-\n' >> "$run/cells.tsv"
t_rc "elapsed_ms LONG_MAX-49 exits 2" 2 "$REPORT" "$run"
t_grep "the error names the file, the line and the range" \
	"/elapsed/cells\\.tsv:$BAD_LINE: elapsed_ms 9223372036854775758 is out of range 0\\.\\.1000000000000\$" \
	"$T_OUT"
run=$(fresh mixed elapsed-long)
printf '2\tx86_64-gcc\tboot\tok\t9223372036854775808\t-\t-\t-\n' >> "$run/cells.tsv"
t_rc "elapsed_ms past LONG_MAX exits 2" 2 "$REPORT" "$run"
t_grep "the error says it is not a number of milliseconds" \
	"/elapsed-long/cells\\.tsv:$BAD_LINE: bad elapsed_ms \"9223372036854775808\": expected milliseconds or \"-\"\$" \
	"$T_OUT"
run=$(fresh mixed elapsed-max)
printf '2\tx86_64-gcc\tboot\tok\t999999999949\t-\t-\t-\n' >> "$run/cells.tsv"
t_rc "the largest elapsed_ms is taken" 1 "$REPORT" "$run"
t_grep "and rounded to tenths of seconds" '^        ok 3 boot # 999999999\.9s$' \
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
printf '2\tx86_64-gcc\tboot\ta%s\t1\t-\t-\t-\n' "$(printf 'é%.0s' {1..100})" >> "$run/cells.tsv"
t_rc "a long unknown status exits 2" 2 "$REPORT" "$run"
t_grep "the message quotes the status cut, with an ellipsis" \
	"cells\\.tsv:$BAD_LINE: unknown status \"a(é){31}\\.\\.\\.\": expected ok, acked, FAIL, skip or flaky\$" "$T_OUT"
t_rc "the message is valid UTF-8" 0 iconv -f UTF-8 -t UTF-8 "$T_OUT"

# --- 100,000 steps, 500,000 cells: cells are found in n log n ---
big=$T_TMP/big
mkdir -p "$big"
cp "$FIX/mixed/stages.tsv" "$FIX/mixed/targets.tsv" "$big/"
printf 'debian\tlinux-source-6.1\n' > "$big/meta.tsv"
awk 'BEGIN { for (i = 99999; i >= 0; i--)
	printf "%d\tL%d\t%012x\tsubject %d\n", i, i, i, i }' > "$big/steps.tsv"
# "name:target" for each stage: "-" for scope step, the target for scope target.
awk -v stages="$(awk -F'\t' '!/^#/ && NF { print $1 ":" ($3 == "step" ? "-" : "x86_64-gcc") }' \
		"$big/stages.tsv" | xargs)" \
	'BEGIN { n = split(stages, stage, " ")
	for (k = 1; k <= n; k++) {
		split(stage[k], f, ":")
		for (i = 0; i < 100000; i++)
			printf "%d\t%s\t%s\t%s\t%d\t-\t-\t-\n", i, f[2], f[1],
				i == 77777 && k == n ? "FAIL" : "ok", i
	} }' > "$big/cells.tsv"
start=$(date +%s%N)
t_rc "100k steps, 500k cells: exit 1 for the one failed cell" 1 "$REPORT" "$big"
ms=$((($(date +%s%N) - start) / 1000000))
t_eq "100k steps: reported within 20 s" yes \
	"$( ((ms < 20000)) && echo yes || echo "no: $ms ms")"
t_grep "100k steps: the failed cell is the one of step 77777" \
	'^step L77777 x86_64-gcc tests: FAIL$' "$big/matrix.txt"
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
printf 'smatch\tbuild\ttarget\tsmatch on the touched files\n' >> "$run/stages.tsv"
t_rc "a stage more in the table: still a report" 0 "$REPORT" "$run"
t_grep "and a column more in the matrix" \
	'^step +commit +subject +apply +checkpatch +tags +kdoc +cc +w1 +sparse +exports +target +build +abi +boot +tests +smatch$' \
	"$run/matrix.txt"
t_grep "and a result more in each target" '^        ok 5 smatch # SKIP not run$' \
	"$run/report.ktap"

# --- two targets: arm64-gcc's build fails at 2/3, x86_64-gcc passes ---
run=$(fresh targets targets)
t_golden "two targets" "$run" 1 targets
ktap=$run/report.ktap
matrix=$run/matrix.txt
t_eq "two targets: a step plans its step-scope stages and its targets" "1..10 1..10 1..10 1..10" \
	"$(grep '^    1\.\.' "$ktap" | xargs)"
t_eq "two targets: a target subtest plans its target-scope stages" 8 \
	"$(grep -c '^        1\.\.4$' "$ktap")"
t_eq "two targets: the targets, in targets.tsv order, after the step's stages" \
	"x86_64-gcc arm64-gcc" \
	"$(awk '/^    # Subtest: 2\/3 /, /^not ok 3 / { if (sub(/^        # Subtest: /, "")) print }' \
		"$ktap" | xargs)"
t_grep "two targets: the failed build is quoted at the target's level" \
	"^        #   samples/hw_breakpoint/data_breakpoint\\.c:44:9: error: " "$ktap"
t_grep "two targets: the failed target is not ok" '^    not ok 10 arm64-gcc$' "$ktap"
t_grep "two targets: and so is its step" '^not ok 3 2/3 9f8e7d6c5b4a ' "$ktap"
t_grep "two targets: a target that passed beside it is ok" \
	'^    ok 9 x86_64-gcc$' "$ktap"
t_grep "two targets: a target not run is a skip" '^    ok 10 arm64-gcc # SKIP not run$' "$ktap"
t_grep "two targets: a step with a skipped target passes" '^ok 4 3/3 7c6b5a4d3e2f ' "$ktap"
t_nogrep "two targets: of a cell given twice the last line wins" 'must be replaced' "$ktap"
t_nogrep "two targets: details of another target or scope are not quoted" \
	'must not be quoted' "$ktap"
t_grep "two targets: totals count the 64 stage results" \
	'^# Totals: pass:47 fail:1 xfail:0 xpass:0 skip:16 error:0$' "$ktap"
t_grep "two targets: a matrix row per step and target" \
	'^0 +a1b2c3d4e5f6 +bisect-check: restore pre-series state +ok 0\.3s( +skip){7} +x86_64-gcc +ok 312\.4s +skip +ok 4\.1s +ok 0\.0s$' \
	"$matrix"
t_grep "two targets: a step's later rows leave its columns blank" \
	'^ {137}arm64-gcc   FAIL 38\.1s  skip      skip      skip$' "$matrix"
t_eq "two targets: the target column is aligned on every row" 1 \
	"$(awk '/^\* cached/ { exit } { print match($0, /(target|x86_64-gcc|arm64-gcc) /) }' \
		"$matrix" | sort -u | wc -l)"
t_grep "two targets: the failure block names the target" \
	'^step 2/3 arm64-gcc build: FAIL 2 errors$' "$matrix"
t_grep "two targets: and gives its log" \
	'^    log: /.*/logs/2-arm64-gcc-build\.log$' "$matrix"
t_eq "two targets: the last line counts steps" "4 steps, 3 passed, 1 failed, 0 skipped" \
	"$(tail -n 1 "$matrix")"
run=$(fresh targets targets-pass)
sed -i "/^2${TAB}arm64-gcc${TAB}build${TAB}FAIL${TAB}/d" "$run/cells.tsv"
t_rc "two targets, the failed cell left out: the earlier line counts, exit 0" 0 "$REPORT" "$run"
t_grep "two targets: a missing cell of one target leaves the other's" \
	'^        ok 1 build # 0\.0s must be replaced by the line below$' "$run/report.ktap"

# --- input errors: exit 2, the message names FILE:LINE ---
# One bad line appended to cells.tsv (its line BAD_LINE) per case: name | the
# line, its fields separated by "," | what | the message after the line.
while IFS='|' read -r name line what re; do
	run=$(fresh mixed "$name")
	printf '%s\n' "${line//,/$'\t'}" >> "$run/cells.tsv"
	t_error "$what" "$run" "/$name/cells\\.tsv:$BAD_LINE: $re\$"
done <<'CASES'
unknown-target|2,arm64-gcc,build,ok,1,-,-,-|a target not in targets.tsv|unknown target "arm64-gcc": not in targets\.tsv
dash-target|2,-,build,ok,1,-,-,-|"-" as the target of a target-scope stage|stage build has scope target: expected a target, not "-"
step-target|2,x86_64-gcc,apply,ok,1,-,-,-|a target on a step-scope stage|stage apply has scope step: expected target "-", not "x86_64-gcc"
old-cell|2,boot,ok,1,-,-,-|a cell without its target column|expected 8 tab-separated fields
no-from|2,x86_64-gcc,boot,ok,1,-,-|a cell without its cached-from column|expected 8 tab-separated fields
old-cached|2,x86_64-gcc,boot,cached-ok,1,-,-,-|a status with the old cached- prefix|unknown status "cached-ok": expected ok, acked, FAIL, skip or flaky
bad-from|2,x86_64-gcc,boot,ok,1,-,-,run1|a cached-from without its cell|bad cached-from "run1": expected RUN/CELL or "-"
empty-from-run|2,x86_64-gcc,boot,ok,1,-,-,/2-x86_64-gcc-boot|a cached-from without its run|bad cached-from "/2-x86_64-gcc-boot": expected RUN/CELL or "-"
unknown-stage|2,x86_64-gcc,smatch,ok,1,-,-,-|an unknown stage|unknown stage "smatch"
CASES
run=$(fresh mixed bad-scope)
sed -i "s/^checkpatch${TAB}apply${TAB}step${TAB}/checkpatch${TAB}apply${TAB}commit${TAB}/" \
	"$run/stages.tsv"
t_error "a scope other than step or target" "$run" \
	'/bad-scope/stages\.tsv:4: stage checkpatch: scope "commit" is neither "step" nor "target"$'
run=$(fresh mixed old-stages)
awk -F'\t' -v OFS='\t' '/^#/ { print; next } { print $1, $2, $4 }' "$FIX/mixed/stages.tsv" \
	> "$run/stages.tsv"
t_error "a stage table without the scope column" "$run" \
	'/old-stages/stages\.tsv:3: expected "stage<TAB>needs<TAB>scope<TAB>what"$'
run=$(fresh mixed no-targets-file)
rm "$run/targets.tsv"
t_error "a run dir without targets.tsv" "$run" \
	'cannot open .*/no-targets-file/targets\.tsv: No such file'
run=$(fresh targets dup-target)
printf 'x86_64-gcc\tx86_64\tclang\tno\n' >> "$run/targets.tsv"
t_error "a target named twice" "$run" \
	'/dup-target/targets\.tsv:4: duplicate target x86_64-gcc \(first at line 2\)$'
run=$(fresh targets no-target)
printf '# name\tarch\tcompiler\tboot\n\n' > "$run/targets.tsv"
t_error "a targets.tsv without a target" "$run" '/no-target/targets\.tsv: no targets$'
run=$(fresh targets bad-target-name)
printf 'x86 64\tx86_64\tgcc\tyes\n' >> "$run/targets.tsv"
t_error "a target name with a space" "$run" \
	'/bad-target-name/targets\.tsv:4: bad target name "x86 64": expected letters, '
run=$(fresh targets dash-target-name)
printf -- '-\tx86_64\tgcc\tyes\n' >> "$run/targets.tsv"
t_error "\"-\" as a target name" "$run" \
	'/dash-target-name/targets\.tsv:4: bad target name "-": '
run=$(fresh targets bad-boot)
sed -i "s/^arm64-gcc${TAB}arm64${TAB}gcc${TAB}yes$/arm64-gcc${TAB}arm64${TAB}gcc${TAB}maybe/" \
	"$run/targets.tsv"
t_error "a boot other than yes or no" "$run" \
	'/bad-boot/targets\.tsv:3: target arm64-gcc: boot is "maybe", expected "yes" or "no"$'
run=$(fresh targets short-target)
printf 'riscv64-gcc\triscv64\tgcc\n' >> "$run/targets.tsv"
t_error "a target line without its boot column" "$run" \
	'/short-target/targets\.tsv:4: expected "name<TAB>arch<TAB>compiler<TAB>boot"$'

# --- a stage table without a target-scope stage: no target column ---
run=$(fresh mixed steps-only)
awk -F'\t' '/^#/ || $3 == "step"' "$FIX/mixed/stages.tsv" > "$run/stages.tsv"
awk -F'\t' '$2 == "-"' "$FIX/mixed/cells.tsv" > "$run/cells.tsv"
t_rc "no target-scope stage: still a report" 1 "$REPORT" "$run"
t_grep "no target-scope stage: no target column" \
	'^step +commit +subject +apply +checkpatch +tags +kdoc +cc +w1 +sparse +exports$' \
	"$run/matrix.txt"
t_nogrep "no target-scope stage: no target subtest" 'Subtest: x86_64-gcc' "$run/report.ktap"
t_eq "no target-scope stage: one row per step" 5 \
	"$(sed '/^$/q' "$run/matrix.txt" | grep -c .)"

# --- any field of a cell line emptied, dashed, made long or another's ---
run=$(fresh targets fields)
bad=
for line in 18 23; do
	for k in 1 2 3 4 5 6 7 8; do
		for v in "" "-" "$(printf 'x%.0s' {1..300})" arm64-gcc build; do
			awk -F'\t' -v OFS='\t' -v n="$line" -v k="$k" -v v="$v" \
				'NR == n { $k = v } { print }' \
				"$FIX/targets/cells.tsv" > "$run/cells.tsv"
			"$REPORT" "$run" > "$T_OUT" 2>&1
			rc=$?
			((rc <= 2)) || bad+=" line $line field $k '${v:0:12}': exit $rc;"
		done
	done
done
t_eq "a cell line with any field changed: exit 0, 1 or 2, never a crash" "" "$bad"

# --- 5000 targets: a target is found in log n ---
big=$T_TMP/many
mkdir -p "$big"
cp "$FIX/mixed/stages.tsv" "$FIX/mixed/meta.tsv" "$big/"
awk 'BEGIN { for (i = 0; i < 20; i++)
	printf "%d\tL%d\t%012x\tsubject %d\n", i, i, i, i }' > "$big/steps.tsv"
awk 'BEGIN { for (t = 4999; t >= 0; t--)
	printf "t%d\tarch%d\tgcc\tyes\n", t, t }' > "$big/targets.tsv"
awk 'BEGIN { for (i = 0; i < 20; i++) {
	printf "%d\t-\tapply\tok\t1\t-\t-\t-\n", i
	for (t = 0; t < 5000; t++)
		printf "%d\tt%d\tbuild\t%s\t%d\t-\t-\t-\n", i, t,
			i == 13 && t == 4321 ? "FAIL" : "ok", t
	} }' > "$big/cells.tsv"
start=$(date +%s%N)
t_rc "5000 targets, 100k target cells: exit 1 for the one failed cell" 1 "$REPORT" "$big"
ms=$((($(date +%s%N) - start) / 1000000))
t_eq "5000 targets: reported within 20 s" yes \
	"$( ((ms < 20000)) && echo yes || echo "no: $ms ms")"
t_grep "5000 targets: the failed cell is the one of step 13 and target t4321" \
	'^step L13 t4321 build: FAIL$' "$big/matrix.txt"
t_eq "5000 targets: a matrix row per step and target" 100001 \
	"$(sed '/^$/q' "$big/matrix.txt" | grep -c .)"
printf 't77\tarch\tclang\tno\n' >> "$big/targets.tsv"
t_error "5000 targets, one twice" "$big" \
	'/many/targets\.tsv:5001: duplicate target t77 \(first at line 4923\)$'

# --- crash titles: boot/<index>-<target>/triage.tsv of the boot cells ---
run=$(fresh crashes crashes)
t_golden "crashes" "$run" 1 crashes
ktap=$run/report.ktap
matrix=$run/matrix.txt
t_eq "crashes: a block between the failure blocks and the last line" \
	"crashes:|  BUG: kernel NULL pointer dereference in sample_hbp_handler: introduced by 0, gone at 2/3 (x86_64-clang)|  WARNING in arch_install_hw_breakpoint: at 1/3 only (x86_64-gcc)|  kernel BUG in __symbol_put: introduced by 2/3, still at 3/3 (x86_64-gcc, x86_64-clang)||4 steps, 0 passed, 4 failed, 0 skipped" \
	"$(sed -n '/^crashes:$/,$p' "$matrix" | paste -sd '|')"
sed '/^crashes:$/q' "$matrix" > "$T_TMP/before"
t_grep "crashes: the block comes after the last failure block" \
	'^step 3/3 x86_64-clang tests: FAIL\* ' "$T_TMP/before"
t_eq "crashes: each crash line right above its boot result" 7 \
	"$(grep -A1 '^        # crash: ' "$ktap" | grep -c '^        not ok 3 boot # ')"
t_eq "crashes: a cached boot cell's titles are reported" \
	"        # crash: kernel BUG in __symbol_put" \
	"$(grep -B1 '^        not ok 3 boot # 4\.4s cached: .*: oops, booted ' "$ktap" | head -n 1)"
t_eq "crashes: the crash line follows the cell's details" \
	"        # crash: kernel BUG in __symbol_put" \
	"$(grep -A1 '^        # console: .*/boot/2-x86_64-gcc/console\.log$' "$ktap" | tail -n 1)"
t_eq "crashes: a malformed title line is ignored" "" \
	"$(grep -h 'must not be read' "$ktap" "$matrix")"
t_eq "crashes: a skipped boot's triage.tsv is not read" 0 \
	"$(grep -c 'boot was skipped' "$matrix")"

run=$(fresh crashes crashes-gone)
rm "$run/boot/3-x86_64-gcc/triage.tsv" "$run/boot/3-x86_64-clang/triage.tsv"
t_rc "crashes gone at 3/3: exit 1" 1 "$REPORT" "$run"
t_grep "crashes: gone at the next step that booted on every target: at one step only" \
	'^  kernel BUG in __symbol_put: at 2/3 only \(x86_64-gcc, x86_64-clang\)$' \
	"$run/matrix.txt"
sed -n '/# Subtest: 3\/3 /,$p' "$run/report.ktap" > "$T_TMP/step3"
t_nogrep "crashes: a boot without titles has no crash line" '# crash: ' "$T_TMP/step3"

run=$(fresh crashes crashes-one-target)
rm "$run/boot/3-x86_64-clang/triage.tsv"
t_rc "a crash gone on one target only: exit 1" 1 "$REPORT" "$run"
t_grep "crashes: still at 3/3 while one target still has it" \
	'^  kernel BUG in __symbol_put: introduced by 2/3, still at 3/3 \(x86_64-gcc, x86_64-clang\)$' \
	"$run/matrix.txt"

run=$(fresh crashes crashes-no-boot)
sed -i "/^3${TAB}x86_64-[a-z]*${TAB}boot${TAB}/s/${TAB}FAIL${TAB}[^${TAB}]*${TAB}/${TAB}skip${TAB}-${TAB}/" \
	"$run/cells.tsv"
t_rc "3/3 booted on no target: exit 1" 1 "$REPORT" "$run"
t_grep "crashes: still at the last step that booted" \
	'^  kernel BUG in __symbol_put: introduced by 2/3, still at 2/3 \(x86_64-gcc, x86_64-clang\)$' \
	"$run/matrix.txt"
t_grep "crashes: at one step only, and no later boot" \
	'^  WARNING in arch_install_hw_breakpoint: at 1/3 only \(x86_64-gcc\)$' "$run/matrix.txt"

run=$(fresh crashes crashes-none)
rm -r "${run:?}/boot"
t_rc "crashes without triage.tsv files: exit 1" 1 "$REPORT" "$run"
t_nogrep "crashes: no block without a title" '^crashes:' "$run/matrix.txt"
t_nogrep "crashes: no crash line without a title" '# crash:' "$run/report.ktap"
t_eq "crashes: otherwise the same report" "" \
	"$(diff <(grep -v '# crash: ' "$FIX/golden/crashes.report.ktap") "$run/report.ktap")"

run=$(fresh crashes crashes-long)
{
	printf 'title\t%s\n' "$(printf 'é%.0s' {1..100})"
	printf 'title\tsecond\r\n'
} >> "$run/boot/2-x86_64-gcc/triage.tsv"
t_rc "a 200-byte title: exit 1" 1 "$REPORT" "$run"
t_grep "crashes: a long title is cut to 120 bytes between characters" \
	'^        # crash: (é){60}$' "$run/report.ktap"
t_grep "crashes: the CR of a CRLF line is dropped" '^        # crash: second$' "$run/report.ktap"
t_eq "crashes: the titles of a cell keep the order of its triage.tsv" \
	"kernel BUG in __symbol_put|$(printf 'é%.0s' {1..60})|second" \
	"$(grep '^        # crash: ' "$run/report.ktap" | sed -n '4,6p' | cut -c 18- | paste -sd '|')"
t_grep "crashes: a title at one cell is at that step only" \
	'^  (é){60}: at 2/3 only \(x86_64-gcc\)$' "$run/matrix.txt"
t_rc "crashes: report.ktap is valid UTF-8" 0 iconv -f UTF-8 -t UTF-8 "$run/report.ktap"

# --- 1000 boots with 101 titles each, 50,001 distinct: grouped in n log n ---
big=$T_TMP/crashes-big
mkdir -p "$big"
cp "$FIX/crashes/stages.tsv" "$FIX/crashes/meta.tsv" "$big/"
printf 'x86_64-gcc\tx86_64\tgcc\tyes\n' > "$big/targets.tsv"
awk 'BEGIN { for (i = 0; i < 1000; i++)
	printf "%d\tL%d\t%012x\tsubject %d\n", i, i, i, i }' > "$big/steps.tsv"
awk 'BEGIN { for (i = 0; i < 1000; i++)
	printf "%d\tx86_64-gcc\tboot\tFAIL\t1\toops\t-\t-\n", i }' > "$big/cells.tsv"
seq 0 999 | sed "s|.*|$big/boot/&-x86_64-gcc|" | xargs mkdir -p
# Step i has f(100i + j mod 50000), j < 100: each WARNING at two steps.
awk -v dir="$big/boot" 'BEGIN { for (i = 0; i < 1000; i++) {
	f = dir "/" i "-x86_64-gcc/triage.tsv"
	printf "title\tkernel BUG in g\n" > f
	for (j = 0; j < 100; j++)
		printf "title\tWARNING in f%d\n", (100 * i + j) % 50000 > f
	close(f) } }'
start=$(date +%s%N)
t_rc "101k titles of 1000 boots: exit 1" 1 "$REPORT" "$big"
ms=$((($(date +%s%N) - start) / 1000000))
t_eq "101k titles: reported within 20 s" yes \
	"$( ((ms < 20000)) && echo yes || echo "no: $ms ms")"
t_eq "101k titles: one line per distinct title, by first appearance" \
	"50002|  kernel BUG in g: introduced by L0, still at L999 (x86_64-gcc)|  WARNING in f0: introduced by L0, gone at L501 (x86_64-gcc)|  WARNING in f49999: introduced by L499, still at L999 (x86_64-gcc)" \
	"$(sed -n '/^crashes:$/,/^$/p' "$big/matrix.txt" | grep -c .)|$(grep -m 2 '^  ' "$big/matrix.txt" | paste -sd '|')|$(grep '^  WARNING in f49999:' "$big/matrix.txt")"

# --- a series received (--mbox, --range): the reply comes first ---
# received(): copy fixture run $1 to scratch RUNDIR $3, with the meta of
# a series received ($2: mbox or range, test/fixtures/report/received/);
# print its path.
received()
{
	local run

	run=$(fresh "$1" "$3")
	cp "$FIX/received/$2.meta.tsv" "$run/meta.tsv"
	echo "$run"
}

run=$(received targets mbox received-targets)
t_rc "received, a build failed: exits 1" 1 "$REPORT" "$run"
t_eq "received: reply.txt is the golden one (failing commit, cell, evidence, base)" "" \
	"$(diff -u "$FIX/golden/received-targets.reply.txt" "$run/reply.txt" 2>&1)"
{ cat "$FIX/golden/received-targets.reply.txt"; echo; cat "$run/report.ktap"; echo
  cat "$run/matrix.txt"; } > "$T_TMP/want.stdout"
t_eq "received: stdout is the reply, a blank line, the KTAP, a blank line, the matrix" "" \
	"$(cmp "$T_TMP/want.stdout" "$T_OUT" 2>&1)"
t_eq "received: the matrix is an own series' one" "" \
	"$(diff -u "$FIX/golden/targets.matrix.txt" "$run/matrix.txt" 2>&1)"
t_eq "received: so is the KTAP, but for its header" "" \
	"$(diff -u <(sed '1,/^1\.\./d' "$FIX/golden/targets.report.ktap") \
		<(sed '1,/^1\.\./d' "$run/report.ktap") 2>&1)"
t_grep "received: the KTAP header says how it was taken in" \
	'^# received: --mbox /home/maint/mail/kallsyms\.mbox$' "$run/report.ktap"
run=$(fresh targets own)
"$REPORT" "$run" > /dev/null
t_eq "an own series: no reply.txt" no "$([[ -e "$run/reply.txt" ]] && echo yes || echo no)"

# 2/3 failed on arm64 at boot too, 3/3 a checkpatch.
run=$(received targets mbox received-also)
printf '%s\n' "2${TAB}arm64-gcc${TAB}boot${TAB}FAIL${TAB}10${TAB}panic${TAB}-${TAB}-" \
	"3${TAB}-${TAB}checkpatch${TAB}FAIL${TAB}10${TAB}1 error(s)${TAB}-${TAB}-" >> "$run/cells.tsv"
t_rc "received, three cells failed: exits 1" 1 "$REPORT" "$run"
t_eq "received: the cell is the first failed one in matrix order, the others are named or counted" \
	"2 of 4 steps failed|cell: step 2/3, target arm64-gcc, stage build: FAIL 2 errors|also failing: 2/3 arm64-gcc boot; 1 cell(s) at later steps" \
	"$(head -n 1 "$run/reply.txt" | sed 's/.*: //')|$(grep '^cell: ' "$run/reply.txt")|$(
	grep '^also failing: ' "$run/reply.txt")"

# A cached failure first, two failures later.
run=$(received mixed mbox received-mixed)
t_rc "received, a cached failure: exits 1" 1 "$REPORT" "$run"
t_eq "received: a cached failure is the first, from its run; later ones are counted" \
	"first failing commit: 1/3 samples/hw_breakpoint: Drop HW_BREAKPOINT_R when reporting writes|cell: step 1/3, target x86_64-gcc, stage boot: FAIL* from run 20250601-090000-977: panic (tcg)|also failing: 2 cell(s) at later steps" \
	"$(sed -n '2,3p' "$run/reply.txt" | paste -sd '|')|$(grep '^also failing: ' "$run/reply.txt")"

# Only 3/3's apply failed: its details have advice and more lines.
run=$(received mixed range received-apply)
sed -i -E "s/^([12]${TAB}x86_64-gcc${TAB}(boot|tests)${TAB})FAIL/\1ok/" "$run/cells.tsv"
t_rc "received, a patch that does not apply: exits 1" 1 "$REPORT" "$run"
t_eq "received: the details' key lines, no advice, then how many more there are" "" \
	"$(diff -u "$FIX/golden/received-apply.reply.txt" "$run/reply.txt" 2>&1)"

# The base itself failed.
run=$(received pass range received-base)
printf '0\tx86_64-gcc\tbuild\tFAIL\t10\t1 error(s)\t-\t-\n' >> "$run/cells.tsv"
t_rc "received, the base failed: exits 1" 1 "$REPORT" "$run"
t_grep "received: a failing base is named as such" \
	'^first failing commit: the base \(step 0: bisect-check: restore pre-series state\), before any patch$' \
	"$run/reply.txt"

# Nothing failed: one line.
run=$(received pass range received-skip)
t_rc "received, nothing failed, 3/3 not run: exits 0" 0 "$REPORT" "$run"
t_eq "received: a step not run is said" \
	"bisect-check of --range v6.1..my-topic of /home/dev/linux: no step failed (3 passed, 1 skipped) on x86_64-gcc; base: 0123abcd4567ef890123abcd4567ef8901234567 (v6.1 of /home/dev/linux/.git)" \
	"$(cat "$run/reply.txt")"
sed -i "/^3${TAB}/d" "$run/steps.tsv"
t_rc "received, all passed: exits 0" 0 "$REPORT" "$run"
t_eq "received, all passed: one line naming the steps, targets and base" \
	"bisect-check of --range v6.1..my-topic of /home/dev/linux: all 3 steps (the base and 2 patch(es)) passed on x86_64-gcc; base: 0123abcd4567ef890123abcd4567ef8901234567 (v6.1 of /home/dev/linux/.git)" \
	"$(cat "$run/reply.txt")"
t_eq "received, all passed: stdout starts with that line, then a blank one, then the KTAP" \
	"$(cat "$run/reply.txt")||KTAP version 1" "$(head -n 3 "$T_OUT" | paste -sd '|')"

# --- the fixtures' stage tables are tools/stages.tsv's ---
stages_of()
{
	awk -F'\t' '!/^#/ && NF { print $1, $2 }' "$1"
}
for f in mixed pass targets crashes; do
	t_eq "fixture $f has the stages of tools/stages.tsv" \
		"$(stages_of "$T_TOP/tools/stages.tsv" | xargs)" \
		"$(stages_of "$FIX/$f/stages.tsv" | xargs)"
done

# --verdict: one target's verdict on the run so far (bisect-check's first
# verdict). An acked cell passes, a failed one of another target counts
# not; a run whose other targets have no cells yet is judged alike.
run=$(fresh targets verdict)
t_rc "--verdict x86_64-gcc: exit 0" 0 "$REPORT" --verdict x86_64-gcc "$run"
t_eq "--verdict x86_64-gcc: its cells and the steps' pass (1/3's checkpatch acked)" \
	"ok 48" "$(< "$T_OUT")"
t_rc "--verdict arm64-gcc: exit 0 with a failure too" 0 "$REPORT" --verdict arm64-gcc "$run"
t_eq "--verdict arm64-gcc: its build of 2 fails: 1 of its cells" "FAIL 1 44" "$(< "$T_OUT")"
grep -v "${TAB}arm64-gcc${TAB}" "$FIX/targets/cells.tsv" > "$run/cells.tsv"
"$REPORT" --verdict x86_64-gcc "$run" > "$T_TMP/partial.out"
t_eq "--verdict: the others' cells not there yet change nothing" "ok 48" \
	"$(< "$T_TMP/partial.out")"
t_rc "--verdict of an unknown target: exit 2" 2 "$REPORT" --verdict no-such "$run"
t_grep "--verdict of an unknown target: says which" "--verdict no-such: not a target" "$T_OUT"
t_done
