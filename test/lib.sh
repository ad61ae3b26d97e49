#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test/lib.sh - a small KTAP test library for the host-side tests of the
# tooling. A test file sources it, calls t_plan N, then one assertion per
# result, and ends with t_done, which prints the totals and sets the exit
# code (0 all passed, 1 any failed).
#
# Assertions state expected versus actual on failure.

T_NUM=0
T_PASS=0
T_FAIL=0
T_SKIP=0
T_NAME=${T_NAME:-$(basename "$0" .sh)}
T_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T_BIN=${T_BIN:-$T_TOP/tools/bin}	# test/run.sh host: tools/bin/san

# What the sanitizer builds (make tools-san) do when they find an error:
# exit 86, which no tool uses, so that every exit-status check fails.
# Not leaks: the tools exit right after their one run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}

# t_plan(): print the KTAP header and the plan.
t_plan()
{
	local n=$1; shift
	T_PLAN=$n
	echo "KTAP version 1"
	echo "# $T_NAME"
	echo "1..$n"
}

# t_ok(): record a passing result.
t_ok()
{
	local desc=$1; shift
	T_NUM=$((T_NUM + 1))
	T_PASS=$((T_PASS + 1))
	echo "ok $T_NUM $desc"
}

# t_fail(): record a failing result; further arguments are diagnostics.
t_fail()
{
	local desc=$1; shift
	local line
	T_NUM=$((T_NUM + 1))
	T_FAIL=$((T_FAIL + 1))
	for line in "$@"; do
		# Every line of a multi-line diagnostic, or a quoted "ok 1"
		# would count as a result.
		printf '%s\n' "$line" | sed 's/^/# /'
	done
	echo "not ok $T_NUM $desc"
}

# t_skip(): record a skipped result with its reason.
t_skip()
{
	local desc=$1; shift
	local why=$1; shift
	T_NUM=$((T_NUM + 1))
	T_SKIP=$((T_SKIP + 1))
	echo "ok $T_NUM $desc # SKIP $why"
}

# t_eq(): pass when actual equals expected.
t_eq()
{
	local desc=$1; shift
	local expected=$1; shift
	local actual=$1; shift
	if [[ "$expected" == "$actual" ]]; then
		t_ok "$desc"
	else
		t_fail "$desc" "expected: $expected" "actual:   $actual"
	fi
}

# t_grep(): pass when the file contains a line matching the ERE.
t_grep()
{
	local desc=$1; shift
	local re=$1; shift
	local file=$1; shift
	if grep -Eq -- "$re" "$file" 2>/dev/null; then
		t_ok "$desc"
	else
		t_fail "$desc" "expected a line matching /$re/ in $file" \
			"actual (first lines):" "$(head -n 5 "$file" 2>/dev/null)"
	fi
}

# t_nogrep(): pass when the file has no line matching the ERE.
t_nogrep()
{
	local desc=$1; shift
	local re=$1; shift
	local file=$1; shift
	local hit
	hit=$(grep -Em 3 -- "$re" "$file" 2>/dev/null)
	if [[ -z "$hit" ]]; then
		t_ok "$desc"
	else
		t_fail "$desc" "expected no line matching /$re/ in $file" \
			"actual: $hit"
	fi
}

# t_rc(): run a command and pass when it exits with the expected code.
# Output goes to $T_OUT (a file) for later greps.
t_rc()
{
	local desc=$1; shift
	local expected=$1; shift
	local rc
	"$@" > "$T_OUT" 2>&1
	rc=$?
	if [[ "$rc" == "$expected" ]]; then
		t_ok "$desc"
	else
		# The start says what ran, the end why it stopped.
		t_fail "$desc" "expected exit $expected, actual exit $rc: $*" \
			"output: $(head -n 10 "$T_OUT")" \
			"output's end: $(tail -n 5 "$T_OUT")"
	fi
}

# t_done(): print the totals and exit 0 when nothing failed.
t_done()
{
	# A plan that does not match what ran hides a test that never ran.
	if [[ -n "${T_PLAN:-}" && "$T_PLAN" != "$T_NUM" ]]; then
		t_fail "the plan" "expected $T_PLAN results (t_plan), actual $T_NUM"
	fi
	echo "# Totals: pass:$T_PASS fail:$T_FAIL xfail:0 xpass:0 skip:$T_SKIP error:0"
	[[ $T_FAIL -eq 0 ]]
	exit $?
}

T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/bisect-test.XXXXXX")
T_OUT=$T_TMP/out
trap 'rm -rf "$T_TMP"' EXIT
