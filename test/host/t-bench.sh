#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-bench.sh - tests of how `make bench` records its figures
# (tools/bench.sh --record, the bench_record its runs end with): the
# document is made with its header once, each run adds one section with
# the report as printed, the commit, the machine and the command that
# picked the cases; bad input is a clear error and changes nothing.

# The backquotes in single quotes are markdown's, no expansion.
# shellcheck disable=SC2016
# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DOC=$T_TMP/runs.md
REP=$T_TMP/report.txt
HEAD=$(git -C "$T_TOP" rev-parse --short=12 HEAD)

# record(): tools/bench.sh --record with document $1, then the rest as
# the environment's settings (NAME=VALUE words) and the report $2.
record()
{
	local doc=$1; shift
	local rep=$1; shift

	env -u BENCH_CASES -u BENCH_LONG -u BENCH_DISTCC_GOAL -u TARGETS -u SERIES \
		BENCH_DOC="$doc" "$@" "$T_TOP/tools/bench.sh" --record "$rep"
}

t_plan 14

printf '%s\n' '# bench on 2 cores, series x v2' 'case seconds note' \
	'warm 0.4 goal < 1 s' > "$REP"
t_rc "a report is recorded" 0 record "$DOC" "$REP" BENCH_CASES="warm edit-3/3" \
	TARGETS=x86_64-gcc
t_grep "it says where it went" "figures added to $DOC" "$T_OUT"
t_eq "a new document starts with its header" "# make bench: its runs" "$(head -n 1 "$DOC")"
t_grep "the section names the commit" "^## [0-9-]+T[0-9:]+Z, $HEAD" "$DOC"
t_grep "and the command, with the settings given" \
	'Command: `BENCH_CASES="warm edit-3/3" TARGETS=x86_64-gcc make bench`$' "$DOC"
t_grep "and the machine" "^Machine: $(nproc) cores" "$DOC"
t_eq "the report, as printed, in a text block" "$(cat "$REP")" \
	"$(sed -n '/^```text$/,/^```$/p' "$DOC" | sed '1d;$d')"

printf '%s\n' '# bench on 2 cores, series x v2' 'warm 0.5 goal < 1 s' > "$REP"
record "$DOC" "$REP" > /dev/null 2>&1
t_eq "a second run adds a second section, the header once" "1 2" \
	"$(grep -c '^# make bench' "$DOC") $(grep -c '^## ' "$DOC")"
t_grep "with no settings, the command is make bench alone" 'Command: `make bench`$' "$DOC"
t_eq "the newest is last" "warm 0.5 goal < 1 s" "$(tail -n 2 "$DOC" | head -n 1)"

cp "$DOC" "$T_TMP/before.md"
t_rc "a missing report is an error" 2 record "$DOC" "$T_TMP/none.txt"
t_grep "naming the file" "no report to record: $T_TMP/none.txt" "$T_OUT"
t_rc "a document that cannot be written is an error" 2 record "$T_TMP/no/dir/runs.md" "$REP"
t_eq "and neither touched the document" "" "$(cmp "$DOC" "$T_TMP/before.md" 2>&1)"

t_done
