#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stage-lib.sh - the contract between the cell runner (tools/cell.sh) and
# a stage program (tools/stages/NAME with an "inputs" column in
# tools/stages.tsv). The runner runs the program as its own process, in a
# clean environment, as
#
#	tools/stages/NAME INPUTS REC LOG DETAIL
#
# INPUTS is a file of "name<TAB>value" lines the driver wrote from the
# stage's declared inputs (tools/stages.tsv); it is everything the
# program may read besides its own files and the tools it runs. The
# program writes its log and details and leaves its result in the
# record REC with result() (and result_out(), result_nocache()); it
# writes nothing else of the driver's but the paths of its inputs whose
# names end in -rw (the sandbox lets it write those alone). Exit 0 when it gave a result;
# any other exit without one is the runner's "no result" failure.
#
# Sourced by tools/cell.sh (the record's writers) and by every stage
# program; expects lib.sh.

# result(): a stage's result: status and summary, in record $1.
result()
{
	local rec=$1; shift
	local status=$1; shift
	local summary=$1; shift
	printf 'status\t%s\nsummary\t%s\n' "$status" "${summary//$'\t'/ }" > "$rec"
}

# result_out(): something stage made (name $2, value $3), in record $1.
result_out()
{
	printf 'out\t%s\t%s\n' "$2" "$3" >> "$1"
}

# result_nocache(): the result in record $1 is no verdict on the step
# (the tool itself failed): report it, do not store it.
result_nocache()
{
	printf 'nocache\t1\n' >> "$1"
}

# stage_args(): a stage program's arguments, INPUTS REC LOG DETAIL ($2...)
# into the associative array named $1 (declared by the caller): each
# input by its name, and the files as "rec", "log" and "detail". Dies
# (exit 2) on a usage error; an input named twice keeps the last value.
stage_args()
{
	local -n __sa_in=$1; shift
	# Names of their own: the caller's array may be called anything.
	local __sa_file=${1:-} __sa_name __sa_value

	(($# == 4)) || die "usage: ${0##*/} INPUTS REC LOG DETAIL (run by tools/cell.sh)"
	[[ -r "$__sa_file" ]] || die "cannot read the inputs file '$__sa_file'"
	while IFS=$'\t' read -r __sa_name __sa_value; do
		[[ -z "$__sa_name" || "$__sa_name" == '#'* ]] && continue
		__sa_in["$__sa_name"]=$__sa_value
	done < "$__sa_file"
	__sa_in["rec"]=$2
	__sa_in["log"]=$3
	__sa_in["detail"]=$4
}

# stage_need(): die unless the associative array named $1 has every
# input $2...: a driver that did not write a declared input is a bug,
# not a verdict.
stage_need()
{
	local -n __sn_in=$1; shift
	local __sn_n
	for __sn_n in "$@"; do
		[[ -n "${__sn_in[$__sn_n]+set}" ]] ||
			die "input '$__sn_n' missing from the inputs file"
	done
}
