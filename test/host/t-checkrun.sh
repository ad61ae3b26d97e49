#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-checkrun.sh - how make check (test/run.sh) places the end-to-end
# files, on fake ones in a copy of its files: one after the other, but a
# file whose header says "# check: beside NAME" runs while NAME runs and
# is said right after it, and one that says "# check: after NAME" starts
# once NAME is done, runs beside the files after it and is said when it
# ends; both niced. Given alone (a FILTER), such a file just runs.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

R=$T_TMP/top
mkdir -p "$R/test/e2e" "$R/tools"
cp "$T_TOP/tools/lib.sh" "$R/tools/"
cp "$T_TOP/test/run.sh" "$T_TOP/test/lib.sh" "$R/test/"

# fake(): test file t-$1 that takes $2 seconds; header line $3. It says
# when it started and ended and its nice value.
fake()
{
	local name=$1; shift
	local secs=$1; shift
	local header=${1:-}

	cat > "$R/test/e2e/t-$name.sh" << EOF
#!/bin/bash
$header
echo "1..1"
echo "# start \$(date +%s%N)"
sleep $secs
echo "# end \$(date +%s%N)"
echo "# nice \$(cut -d' ' -f19 /proc/\$\$/stat)"
echo "ok 1 t-$name"
EOF
}

t_plan 8

fake 10-first 1
fake 20-second 1
fake 30-third 1
fake 50-side 0.5 "# check: beside t-20-second"
fake 60-late 1.5 "# check: after t-10-first"

# at(): what file t-$1 said of $2 in its log: its "start" or "end" (ns),
# its "nice" value.
at()
{
	sed -n "s/^# $2 //p" "$R/wd/check-logs/t-$1.log"
}

WORKDIR=$R/wd bash "$R/test/run.sh" e2e > "$T_TMP/out" 2> "$T_TMP/err"
t_eq "the run passes" 0 "$?"
t_eq "said in order: each file, the one beside right after it, the one after the first when it ends" \
	"t-10-first t-20-second t-50-side t-30-third t-60-late" \
	"$(sed -n 's/^check: \(t-[a-z0-9-]*\) .*/\1/p' "$T_TMP/err" | xargs)"
t_eq "5 results" "5 passed, 0 failed, 0 skipped" "$(tail -n 1 "$T_TMP/out")"
t_rc "beside: it starts before the file it is beside ends" 0 \
	test "$(at 50-side start)" -lt "$(at 20-second end)"
t_rc "after: it starts once that file is done" 0 \
	test "$(at 60-late start)" -ge "$(at 10-first end)"
t_rc "after: and runs beside the files after it" 0 \
	test "$(at 60-late start)" -lt "$(at 20-second end)"
t_eq "beside and after run niced; the others not" "0 0 0 10 10" \
	"$(for f in 10-first 20-second 30-third 50-side 60-late; do at "$f" nice; done | xargs)"

WORKDIR=$R/wd bash "$R/test/run.sh" e2e t-60 > "$T_TMP/out" 2> "$T_TMP/err"
t_eq "alone: it runs, not niced" "0|1 passed, 0 failed, 0 skipped" \
	"$(at 60-late nice)|$(tail -n 1 "$T_TMP/out")"

t_done
