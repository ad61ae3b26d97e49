#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-loader.sh - tests of tools/series.sh, the one series loader and
# writer every tool uses: loading a series and writing it back gives a
# series whose records (tools/bin/series) are the same, for the series
# this repository has and for values a writer must quote.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
. "$T_TOP/tools/lib.sh"
# shellcheck source=tools/series.sh
. "$T_TOP/tools/series.sh"

SERIES_BIN=$T_BIN/series
FILES=("$T_TOP/series.yaml" "$T_TOP/test/series/v1.yaml"
	"$T_TOP/test/fixtures/faults/warn.yaml" "$T_TOP/test/fixtures/identity/comment.yaml"
	"$T_TOP/test/fixtures/loader/quoting.yaml"
	"$T_TOP/test/fixtures/loader/findings-accept.yaml"
	"$T_TOP/test/fixtures/series/claimless.yaml"
	"$T_TOP/test/fixtures/series/target-skip-cases.yaml"
	"$T_TOP/test/fixtures/series/repo-base.yaml")

t_plan $((${#FILES[@]} + 30))

# ask(): print what accessor $1 of tools/series.sh or target.sh sets
# its first argument to, asked with the rest ($2...).
ask()
{
	local v

	"$1" v "${@:2}"
	printf '%s' "$v"
}

for f in "${FILES[@]}"; do
	load_series "$f"
	series_write > "$T_TMP/written.yaml"
	"$SERIES_BIN" "$f" > "$T_TMP/want" 2>&1
	"$SERIES_BIN" "$T_TMP/written.yaml" > "$T_TMP/got" 2>&1
	t_eq "${f#"$T_TOP"/}: written back, the same records" "$(< "$T_TMP/want")" "$(< "$T_TMP/got")"
done

load_series "$T_TOP/test/fixtures/loader/quoting.yaml"
t_eq "every record is kept: cover, claims, reasons" \
	"$T_TOP/cover-letter.txt|a claim: with \"quotes\", a \\backslash and # no comment|it says \"why\": C:\\path and 'single' quotes" \
	"$(ask series_get cover)|$(ask series_claim t-one)|$(ask series_step checkpatch-accept 1 | sed -n 's/^UNKNOWN_COMMIT_ID=//p')"
t_eq "steps and labels" "2 0 1/1" "$(ask series_nsteps) $(ask series_label 0) $(ask series_label 1)"
t_eq "the series' own timeout" 45 "$(ask series_get timeout)"
t_eq "the targets, in order, with their records" \
	"x86_64-gcc x86_64 gcc - yes|x86_64-gcc-nb x86_64 gcc $T_TOP/tools/kconfig/bisect.config no" \
	"$(targets_names names; for name in "${names[@]}"; do printf '%s %s %s %s %s|' "$name" "$(ask target_field "$name" arch)" \
		"$(ask target_field "$name" compiler)" "$(ask target_field "$name" config)" "$(ask target_field "$name" boot)"
		done | sed 's/|$//')"
TARGETS=x86_64-gcc-nb load_series "$T_TOP/test/fixtures/loader/quoting.yaml"
t_eq "TARGETS= selects among them" "x86_64-gcc-nb" "$(targets_names names; echo "${names[*]}")"
t_eq "a target nobody declared is an error naming the declared ones" \
	"TARGETS=arm64-gcc: $T_TOP/test/fixtures/loader/quoting.yaml declares no target 'arm64-gcc' (declared: x86_64-gcc x86_64-gcc-nb)" \
	"$( (TARGETS=arm64-gcc load_series "$T_TOP/test/fixtures/loader/quoting.yaml") 2>&1 | sed 's/^[^:]*: error: //')"

# record(): the arguments as one tab-separated line.
record()
{
	local IFS=$'\t'
	printf '%s\n' "$*"
}

# The findings each patch accepts (findings-accept): one line each,
# CHECK KIND FILE MATCH REASON and a newline, "*" for a kind or file
# left out.
load_series "$T_TOP/test/fixtures/loader/findings-accept.yaml"
t_eq "findings-accept: patch 1's, in order, kind and file given or left out" \
	"$(record w1 -Wmissing-prototypes kernel/kallsyms.c \
		"no previous prototype for 'kallsyms_lookup_name'" \
		"called from assembly, folded over two lines"
	record sparse '*' '*' 'plain integer as NULL: "0" # no comment' \
		"it says \"why\": C:\\path and 'single' quotes")" "$(ask series_step findings-accept 1)"
t_eq "findings-accept: patch 3's, '*' given as left out, leading spaces kept" \
	"$(record kdoc '*' include/linux/kallsyms.h "  leading spaces: kept" "the kind left out"
	record tags '*' '*' '*' '"*" given is any, as left out: -x')" "$(ask series_step findings-accept 3)"
t_eq "findings-accept: nothing for patch 2, which accepts none" "" "$(ask series_step findings-accept 2)"
want="$(ask series_step findings-accept 1)|$(ask series_step findings-accept 2)|$(ask series_step findings-accept 3)"
series_write > "$T_TMP/fa.yaml"
load_series "$T_TMP/fa.yaml"
t_eq "findings-accept: written and loaded again, the same" \
	"$want" "$(ask series_step findings-accept 1)|$(ask series_step findings-accept 2)|$(ask series_step findings-accept 3)"
# As a tool that accepts a finding sets it (test/e2e/t-50-faults.sh).
line=$(record w1 '*' '*' "set but not used" "the fixture's own")
series_step_set findings-accept 2 "$line"$'\n'
series_write > "$T_TMP/fa-edited.yaml"
want=$(record finding-accept 2 "$line")
t_eq "findings-accept set by a tool: its record, after patch 2's line, is all that is new" \
	"$("$SERIES_BIN" "$T_TMP/fa.yaml" |
		awk -v r="$want" '{ print } /^patch\t2\t/ { print r }')" \
	"$("$SERIES_BIN" "$T_TMP/fa-edited.yaml" 2>&1)"
load_series "$T_TOP/test/fixtures/loader/quoting.yaml"
t_eq "findings-accept: a second load drops the first's" "|" \
	"$(ask series_step findings-accept 1)|$(ask series_step findings-accept 3)"

# KUnit cases a target does not count: the cases as declared, the
# runner's words and the reason; the test itself is not skipped.
load_series "$T_TOP/test/fixtures/series/target-skip-cases.yaml"
t_eq "skip-cases: at step 1, CASES, WORDS and REASON of each test" \
	"$(record case_2,case_1 suite_a.case_2,suite_a.case_1,suite-b.case_2,suite-b.case_1 \
		"two cases of two suites")|$(record test_a my_suite.test_a "folded over two lines")" \
	"$(ask series_skip_cases arm64-gcc 1 two)|$(ask series_skip_cases arm64-gcc 1 suite)"
t_eq "skip-cases: none at step 0 for the test skipped at 1; no whole skip of either" \
	"|||not on this target" \
	"$(ask series_skip_cases arm64-gcc 0 two)|$(ask series_skip arm64-gcc 1 two)|$(ask series_skip arm64-gcc 1 suite)|$(ask series_skip arm64-gcc 1 plain)"
load_series "$T_TOP/test/fixtures/loader/quoting.yaml"
t_eq "skip-cases: a second load drops the first's" "" "$(ask series_skip_cases arm64-gcc 1 two)$(ask series_skip_cases arm64-gcc 1 suite)"

# A second load replaces the first: nothing of it stays.
load_series "$T_TOP/series.yaml"
t_eq "a second load replaces the first" "unexport-kallsyms 4 10 -" \
	"$(ask series_get name) $(ask series_nsteps) $(series_tests ids; echo "${#ids[@]}") $(c=$(ask series_claim t-one); echo "${c:--}")"

# An edited series (a patch appended) is written and read back.
ids=() answer='' n=0
series_nsteps n
series_patch_set "$n" "$(echo "$T_TOP"/patches/v1/0001-*.patch)"
series_tests ids
for id in "${ids[@]}"; do
	series_expected answer 3 "$id"
	series_expected_set "$n" "$id" "$answer"
done
series_write > "$T_TMP/edited.yaml"
t_rc "an edited series is valid" 0 "$SERIES_BIN" "$T_TMP/edited.yaml"
t_grep "its new step expects what 3/3 does" '^expect	4	kallsyms-lookup-name	no$' "$T_OUT"

# The guest program: the declared tests, then the operations, one line
# each, as the runner reads them (guest/README).
load_series "$T_TOP/series.yaml"
guest_program > "$T_TMP/program"
t_eq "the guest program: 10 tests, then 17 operations" "10 17" \
	"$(grep -c '^test	' "$T_TMP/program") $(grep -c '^op	' "$T_TMP/program")"
t_grep "an exec operation runs the program from /bisect/bin" \
	'^op	exec	path=/bisect/bin/ksymtab	args=kallsyms_lookup_name kallsyms_on_each_symbol	tests=ksymtab-exports	expect=ok$' \
	"$T_TMP/program"
execs=()
series_list execs program
t_eq "the programs it runs and their dir are kept" \
	"ksymtab $T_TOP/guest/programs" "${execs[*]} $(ask series_get guest-programs)"
t_grep "an operation keeps its tab-separated fields" \
	'^op	write	path=/proc/sys/kernel/panic	value=-1	tests=hwbp-write	match=value is changed	count=>0	label=handler fired$' \
	"$T_TMP/program"
# Without a guest no KUnit case can be skipped (tools/bin/series says so).
GUEST_OPS_YAML=()
series_skips_clear
series_write > "$T_TMP/noguest.yaml"
t_eq "a booting series with tests but no guest.run is an error naming the file and the target" \
	"$T_TMP/noguest.yaml: target x86_64-gcc boots, but the series has no guest.run to judge its tests: declare what the guest does (guest/README), leave tests out, or boot: no" \
	"$( (load_series "$T_TMP/noguest.yaml") 2>&1 | sed 's/^[^:]*: error: //')"

# A series from a git tree, without claims: no cover letter, prep,
# tests, expect or guest; its target boots all the same.
fix=$T_TOP/test/fixtures/series
fix_real=$(cd "$fix" && pwd -P)
load_series "$fix/repo-base.yaml"
t_eq "repo base: repo absolute, base-commit as written, package empty" \
	"$fix_real/linux|v6.6-rc1~3^2|" "$(ask series_get repo)|$(ask series_get base-commit)|$(ask series_get package)"
t_eq "repo base: no cover, prep, tests, guest; the target boots" \
	"|0|0|0|yes|" \
	"$(ask series_get cover)|$(prep=(); series_patches prep 0; echo "${#prep[@]}")|$(series_tests ids; echo "${#ids[@]}")|$(ops=(); series_list ops op; echo "${#ops[@]}")|$(ask target_field x86_64-gcc boot)|$(ask series_get guest-fragment)"
series_write > "$T_TMP/repo-base.yaml"
t_eq "repo base: written as repo and commit, nothing empty written" \
	"$(printf '%s\n' 'name: "repo-base"' 'version: 1' "config: \"$fix_real/bisect.config\"" \
		base: "  repo: \"$fix_real/linux\"" '  commit: "v6.6-rc1~3^2"')" \
	"$(sed -n '1,/^  commit:/p' "$T_TMP/repo-base.yaml")"
t_eq "repo base: no cover-letter, prep, expect, tests or guest written" "" \
	"$(grep -E '^ *(cover-letter|prep|expect|tests|guest):' "$T_TMP/repo-base.yaml")"
load_series "$fix/claimless.yaml"
t_eq "a package base after a repo base: repo and base-commit empty again" \
	"linux-source-6.1||" "$(ask series_get package)|$(ask series_get repo)|$(ask series_get base-commit)"
# shellcheck disable=SC2016  # expanded by the inner shell
t_rc "series_get: a field no series has is an error" 2 bash -c \
	'. "$1/tools/lib.sh"; . "$1/tools/series.sh"; load_series "$1/series.yaml"; series_get v nosuch' _ "$T_TOP"
t_grep "... naming it" "series_get: no field 'nosuch'" "$T_OUT"

t_done
