#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cell.sh - the cell runner. A cell is one stage of one step, and of one
# target for a stage of scope "target" (tools/stages.tsv; "-" stands
# for the target of a step-scope cell); it has a key made of exactly its
# inputs and one result record. Its files are named by its id, "N-stage"
# or "N-target-stage" (cell_id). This file alone
# runs cells: the cache lookup and store (cache.sh, one format), the
# timing, the progress line and the line of cells.tsv.
#
# A stage is a function called as `STAGE REC LOG DETAIL ARGS...`: it
# works from its arguments, writes its log and its details, and leaves
# its result in the record REC with result() (and result_out() for what
# it made, e.g. a commit id). It never calls back into the driver.
#
# The record, RUNDIR/results/<cell id>.tsv, is the one truth about a
# cell; every cell has one, a skipped cell too. Tab separated:
#	status	ok|acked|FAIL|skip
#	summary	one line
#	out	NAME	VALUE	(any number: what the stage made)
#	nocache	1		(the result is no verdict: not stored)
#	ms	elapsed		run	run id	step	N	target	T
#					(added by the runner: where it was made)
#	cached-from	RUN	CELL	(a cell served from the cache: the run
#					and cell id it was made in)
# cells.tsv, the run's index the report and bisect-run read, is written
# from the records alone (cell_record): index, target, stage, status,
# elapsed ms, summary, log, and "RUN/CELL" or "-" for cached-from.
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh and
# a RUNDIR with logs/, details/ and results/, RUN_ID, T0 and STEP_LABEL.
#
# shellcheck disable=SC2034  # CELL_* are what the runner tells its caller

# shellcheck source=tools/cache.sh
source "$TOP/tools/cache.sh"

# progress(): one line per cell as it starts and ends, also kept in the
# run dir (progress.log: the run's timeline).
progress()
{
	local t=${EPOCHREALTIME/[.,]/} line s
	t=$((t / 1000))
	fmt_ms_to s $((t - T0))
	printf -v line '%s: [%7s] %s' "$PROG" "$s" "$*"
	echo "$line" >&2
	[[ -n "${RUNDIR:-}" && -d "$RUNDIR" ]] && echo "$line" >> "$RUNDIR/progress.log"
	return 0
}

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

# rec_read(): load record $1 without a fork: REC_STATUS, REC_SUMMARY,
# REC_MS, REC_RUN, REC_STEP, REC_TARGET, REC_NOCACHE, REC_CACHED ("RUN/CELL"
# or empty) and REC_OUT[name]; fails when the file cannot be read.
rec_read()
{
	local k a b

	REC_STATUS='' REC_SUMMARY='' REC_MS='' REC_RUN='' REC_STEP='' REC_NOCACHE=''
	REC_TARGET=- REC_CACHED=
	declare -gA REC_OUT=()
	[[ -r "$1" ]] || return 1
	while IFS=$'\t' read -r k a b; do
		case $k in
		status) REC_STATUS=$a ;;
		summary) REC_SUMMARY=$a ;;
		ms) REC_MS=$a ;;
		run) REC_RUN=$a ;;
		step) REC_STEP=$a ;;
		target) REC_TARGET=$a ;;
		nocache) REC_NOCACHE=$a ;;
		cached-from) REC_CACHED=$a/$b ;;
		out) REC_OUT[$a]=$b ;;
		esac
	done < "$1"
}

# rec_get(): the value of field $2 of record $1 ("out NAME" for an out).
rec_get()
{
	rec_read "$1" || return 0
	case $2 in
	status) echo "$REC_STATUS" ;;
	summary) echo "$REC_SUMMARY" ;;
	ms) echo "$REC_MS" ;;
	run) echo "$REC_RUN" ;;
	step) echo "$REC_STEP" ;;
	nocache) echo "$REC_NOCACHE" ;;
	cached-from) echo "$REC_CACHED" ;;
	"out "*) echo "${REC_OUT[${2#out }]:-}" ;;
	esac
}

# load_stages(): the stage table $1 (tools/stages.tsv): STAGES in
# pipeline order, STAGE_NEEDS[name], the stage each needs, and
# STAGE_SCOPE[name], step or target.
load_stages()
{
	local table=$1; shift
	local name needs scope what

	STAGES=()
	declare -gA STAGE_NEEDS=() STAGE_SCOPE=()
	while IFS=$'\t' read -r name needs scope what; do
		[[ -z "$name" || "$name" == '#'* ]] && continue
		[[ -n "$what" && "$scope" =~ ^(step|target)$ ]] ||
			die "$table: bad line for stage '$name'"
		STAGES+=("$name")
		STAGE_NEEDS[$name]=$needs
		STAGE_SCOPE[$name]=$scope
	done < "$table"
}

# skip_after(): skip, for step $1 and target $2 ("-": every target of
# TGT_NAMES), every stage that needs stage $3, in turn, with the reason $4.
skip_after()
{
	local idx=$1; shift
	local tgt=$1; shift
	local failed=$1; shift
	local why=$1; shift
	local -A down=([$failed]=1)
	local s t

	for s in "${STAGES[@]}"; do
		[[ -n "${down[${STAGE_NEEDS[$s]}]:-}" ]] || continue
		down[$s]=1
		if [[ "${STAGE_SCOPE[$s]}" == step ]]; then
			cell_skip "$idx" - "$s" "$why"
		elif [[ "$tgt" != - ]]; then
			cell_skip "$idx" "$tgt" "$s" "$why"
		else
			for t in "${TGT_NAMES[@]}"; do
				cell_skip "$idx" "$t" "$s" "$why"
			done
		fi
	done
}

# cell_id_to(): variable $1 = the id of cell (step $2, target $3, stage
# $4): what its files are named by, "N-stage" or "N-target-stage" ("-"
# as the target of a step-scope cell); without $4, the prefix of the
# step's (and target's) files, e.g. its boot dir. The one place of the
# rule in bash (tools/src/report.c has C's, test/host/t-cell.sh holds
# them to each other); no fork: every cell asks.
cell_id_to()
{
	local -n __ci_ref=$1; shift

	__ci_ref=$1
	[[ "$2" == - ]] || __ci_ref+=-$2
	__ci_ref+=${3:+-$3}
}

# cell_id(): the same, printed.
cell_id()
{
	local id
	cell_id_to id "$@"
	echo "$id"
}

# cell_files(): the files of cell ($1, $2, $3) without a fork:
# CELL_PREFIX (the step's and target's id), CELL_REC, CELL_LOG and
# CELL_DETAIL.
cell_files()
{
	local id

	cell_id_to CELL_PREFIX "$1" "$2"
	cell_id_to id "$1" "$2" "$3"
	CELL_REC=$RUNDIR/results/$id.tsv
	CELL_LOG=$RUNDIR/logs/$id.log
	CELL_DETAIL=$RUNDIR/details/$id.txt
}

# cell_rec(), cell_log(), cell_detail(): the files of cell ($1, $2, $3).
cell_rec()
{
	echo "$RUNDIR/results/$(cell_id "$@").tsv"
}

cell_log()
{
	echo "$RUNDIR/logs/$(cell_id "$@").log"
}

cell_detail()
{
	echo "$RUNDIR/details/$(cell_id "$@").txt"
}

# cell_record(): a finished cell, from its record alone: its line of
# cells.tsv and its progress line; CELL_STATUS and CELL_SUMMARY say what
# it was.
# Usage: cell_record IDX TARGET STAGE LOG ("-": none)
cell_record()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local log=$1; shift
	local t shown summary

	cell_files "$idx" "$tgt" "$stage"
	rec_read "$CELL_REC"
	summary=${REC_SUMMARY//$'\t'/ }
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$idx" "$tgt" "$stage" "$REC_STATUS" \
		"${REC_MS:--}" "$summary" "$log" "${REC_CACHED:--}" >> "$RUNDIR/cells.tsv"
	[[ "$tgt" == - ]] && tgt=
	fmt_ms_to t "${REC_MS:-0}"
	shown=$REC_STATUS
	[[ -n "$REC_CACHED" ]] && shown="cached-$REC_STATUS" summary="from run ${REC_CACHED%%/*}: $summary"
	progress "${STEP_LABEL[idx]}${tgt:+ $tgt} $stage: $shown ($t) $summary"
	CELL_STATUS=$REC_STATUS
	CELL_SUMMARY=$REC_SUMMARY
}

# cell_lookup(): report cell ($1, $2, $3) from the cache under key $4;
# fails when it is not there, or when function $5 (if given, not "-") says the
# cached record (its only argument) is of no use any more, e.g. because
# what the stage made is gone.
cell_lookup()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local key=$1; shift
	local valid=${1:--}
	local rec old

	cache_get "$stage" "$key" "$idx" "$tgt" || return 1
	cell_files "$idx" "$tgt" "$stage"
	rec=$CELL_REC
	if [[ "$valid" != - ]] && ! "$valid" "$rec"; then
		rm -f "$rec" "$CELL_DETAIL"
		return 1
	fi
	rec_read "$rec"
	# Where it was made: the cell id of its step and target there.
	cell_id_to old "${REC_STEP:-$idx}" "$REC_TARGET" "$stage"
	printf 'cached-from\t%s\t%s\n' "$REC_RUN" "$old" >> "$rec"
	cell_record "$idx" "$tgt" "$stage" -
}

# cell_begin(): cell ($1, $2, $3) starts: a progress line, an empty log,
# no record yet; its start time is in CELL_T0.
cell_begin()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local t=$tgt

	[[ "$t" == - ]] && t=
	progress "${STEP_LABEL[idx]}${t:+ $t} $stage: start"
	: > "$(cell_log "$idx" "$tgt" "$stage")"
	rm -f "$(cell_rec "$idx" "$tgt" "$stage")"
	CELL_T0=$(now_ms)
}

# cell_end(): cell ($1, $2, $3) of key $4 is done, started at $5
# (CELL_T0), taking $6 ms (default: until now): complete its record,
# store it unless it says nocache, and record the cell.
cell_end()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local key=$1; shift
	local t0=$1; shift
	local ms=${1:-$(($(now_ms) - t0))}
	local rec

	rec=$(cell_rec "$idx" "$tgt" "$stage")
	rec_read "$rec"
	if [[ -z "$REC_STATUS" ]]; then
		# A stage that left no result failed in a way it did not say.
		result "$rec" FAIL "the $stage stage gave no result (see its log)"
		result_nocache "$rec"
	fi
	printf 'ms\t%s\nrun\t%s\nstep\t%s\ntarget\t%s\n' "$ms" "$RUN_ID" "$idx" "$tgt" >> "$rec"
	rec_read "$rec"
	[[ -n "$REC_NOCACHE" ]] || cache_put "$stage" "$key" "$idx" "$tgt"
	cell_record "$idx" "$tgt" "$stage" "$(cell_log "$idx" "$tgt" "$stage")"
}

# cell_run(): one cell, from the cache or by running its stage.
# Usage: cell_run IDX TARGET STAGE KEY VALID FUNCTION ARGS...; VALID as
# for cell_lookup ("-": none); FUNCTION is called as
# FUNCTION REC LOG DETAIL ARGS...
cell_run()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local key=$1; shift
	local valid=$1; shift
	local fn=$1; shift
	local t0

	cell_lookup "$idx" "$tgt" "$stage" "$key" "$valid" && return 0
	cell_begin "$idx" "$tgt" "$stage"
	t0=$CELL_T0
	: > "$(cell_detail "$idx" "$tgt" "$stage")"
	"$fn" "$(cell_rec "$idx" "$tgt" "$stage")" "$(cell_log "$idx" "$tgt" "$stage")" \
		"$(cell_detail "$idx" "$tgt" "$stage")" "$@"
	cell_end "$idx" "$tgt" "$stage" "$key" "$t0"
}

# cell_skip(): a cell (step $1, target $2, stage $3) that does not run,
# with the reason $4: its record says so.
cell_skip()
{
	cell_files "$1" "$2" "$3"
	printf 'status\tskip\nsummary\t%s\nms\t0\nrun\t%s\nstep\t%s\ntarget\t%s\n' \
		"${4//$'\t'/ }" "$RUN_ID" "$1" "$2" > "$CELL_REC"
	cell_record "$1" "$2" "$3" -
}
