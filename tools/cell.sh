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
# A stage is a program (tools/stages/NAME, the contract in
# tools/stage-lib.sh): the table (tools/stages.tsv) declares its inputs,
# the driver writes them into the cell's inputs file, whose key lines
# and the program's own files make the cell's key, and cell_exec runs
# it in its own process with a clean environment: it sees no variable
# of the driver's. The stages the driver still schedules itself (apply,
# w1, sparse, exports, build, boot, tests: "-" as their inputs) are functions called as `STAGE REC LOG DETAIL ARGS...`, with
# the same record.
#
# The record, RUNDIR/results/<cell id>.tsv, is the one truth about a
# cell; every cell has one, a skipped cell too. Tab separated:
#	status	ok|acked|FAIL|skip|flaky (never stored: result_nocache)
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
# a RUNDIR with logs/, details/ and results/, named by its run's id
# (WORKDIR/runs/ID: a record's run), and a loaded series (series.sh:
# the steps' labels and patch files).
#
# shellcheck disable=SC2034  # CELL_* are what the runner tells its caller

# shellcheck source=tools/cache.sh
source "$TOP/tools/cache.sh"
# shellcheck source=tools/stage-lib.sh
source "$TOP/tools/stage-lib.sh"
# shellcheck source=tools/sandbox.sh
source "$TOP/tools/sandbox.sh"
# shellcheck source=tools/series.sh
source "$TOP/tools/series.sh"

# Where the stage programs are (the tests point it at fake ones).
STAGE_DIR=$TOP/tools/stages

# progress(): one line per cell as it starts and ends, and of the run's
# other steps, kept in the run dir (progress.log: the run's timeline);
# on stderr too, but with QUIET=1 (bisect-check -q: no progress).
progress()
{
	local t line s p
	elapsed_ms t
	fmt_ms_to s "$t"
	prog_name p
	printf -v line '%s: [%7s] %s' "$p" "$s" "$*"
	[[ "$QUIET" == 1 ]] || echo "$line" >&2
	[[ -n "${RUNDIR:-}" && -d "$RUNDIR" ]] && echo "$line" >> "$RUNDIR/progress.log"
	return 0
}

# rec_read(): associative array $1 (the caller's: local -A) = record $2,
# read without a fork: its fields status, summary, ms, run, step,
# target ("-" when none), nocache, cached-from ("RUN/CELL" or empty) and
# "out NAME" for each of its outs; fails when the file cannot be read.
rec_read()
{
	local -n __rr=$1; shift
	local __rr_k __rr_a __rr_b

	[[ "${__rr@a}" == *A* ]] || die "rec_read: ${!__rr} is no associative array"
	__rr=(["status"]='' ["summary"]='' ["ms"]='' ["run"]='' ["step"]='' ["target"]=-
	      ["nocache"]='' ["cached-from"]='')
	[[ -r "$1" ]] || return 1
	while IFS=$'\t' read -r __rr_k __rr_a __rr_b; do
		case $__rr_k in
		status | summary | ms | run | step | target | nocache) __rr["$__rr_k"]=$__rr_a ;;
		cached-from) __rr["cached-from"]=$__rr_a/$__rr_b ;;
		out) __rr["out $__rr_a"]=$__rr_b ;;
		esac
	done < "$1"
}

# rec_get(): the value of field $2 of record $1 (rec_read's names).
rec_get()
{
	local -A r

	rec_read r "$1" || return 0
	echo "${r[$2]:-}"
}

# load_stages(): the stage table $1 (tools/stages.tsv): STAGES in
# pipeline order; by name, STAGE_NEEDS (the stage each needs),
# STAGE_SCOPE (step or target), STAGE_PREP (yes or no), STAGE_RUNS
# (commit, driver, beside-build, after-build or after-boot), STAGE_INPUTS (a program's inputs, space
# separated) and STAGE_WHAT, this file's own: what reads the table asks
# stages_at, stage_get and stage_of_runs. Dies naming the table and the
# stage on a bad line.
load_stages()
{
	local table=$1; shift
	local name needs scope prep runs inputs what

	STAGES=()
	declare -gA STAGE_NEEDS=() STAGE_SCOPE=() STAGE_PREP=() STAGE_RUNS=() \
		STAGE_INPUTS=() STAGE_WHAT=()
	while IFS=$'\t' read -r name needs scope prep runs inputs what; do
		[[ -z "$name" || "$name" == '#'* ]] && continue
		[[ -n "$what" && "$scope" =~ ^(step|target)$ && "$prep" =~ ^(yes|no)$ ]] ||
			die "$table: bad line for stage '$name'"
		[[ -z "${STAGE_SCOPE[$name]:-}" ]] || die "$table: stage '$name' given twice"
		[[ "$needs" == - || -n "${STAGE_SCOPE[$needs]:-}" ]] ||
			die "$table: stage '$name' needs '$needs', which is not an earlier stage"
		case $runs in
		commit)
			[[ "$needs" == - && "$scope" == step && "$prep" == yes && ${#STAGES[@]} == 0 ]] ||
				die "$table: stage '$name': the stage that makes the commits is the first, of scope step, needs none and runs on the preparation"
			;&
		beside-build | after-build | after-boot)
			[[ "$inputs" =~ ^[a-z0-9-]+(,[a-z0-9-]+)*$ ]] ||
				die "$table: stage '$name': a program's inputs are name,name,..."
			[[ "$runs" != beside-build || "$scope" == step ]] ||
				die "$table: stage '$name': a program beside the build is of scope step"
			[[ "$runs" != after-build || "$scope" == target ]] ||
				die "$table: stage '$name': a program after the build is of scope target"
			[[ "$runs" != after-boot || "$scope" == target ]] ||
				die "$table: stage '$name': a program after the boot is of scope target"
			[[ -x "$STAGE_DIR/$name" ]] ||
				die "$table: stage '$name': no program $STAGE_DIR/$name"
			inputs=${inputs//,/ }
			;;
		driver)
			[[ "$inputs" == - ]] ||
				die "$table: stage '$name': a driver stage declares no inputs ('-')"
			inputs=
			;;
		*)
			die "$table: stage '$name': runs '$runs' is none of commit, driver, beside-build, after-build, after-boot"
			;;
		esac
		STAGES+=("$name")
		STAGE_NEEDS[$name]=$needs
		STAGE_SCOPE[$name]=$scope
		STAGE_PREP[$name]=$prep
		STAGE_RUNS[$name]=$runs
		STAGE_INPUTS[$name]=$inputs
		STAGE_WHAT[$name]=$what
	done < "$table"
	((${#STAGES[@]})) || die "$table: no stage"
}

# stage_of_runs(): variable $1 = the first stage of the table whose
# runs is $2, or empty (fails).
stage_of_runs()
{
	local -n __sor_ref=$1; shift
	local __sor_s

	__sor_ref=
	for __sor_s in "${STAGES[@]}"; do
		[[ "${STAGE_RUNS[$__sor_s]}" == "$1" ]] || continue
		__sor_ref=$__sor_s
		return 0
	done
	return 1
}

# stages_at(): array $1 = the stages of the table, in its order, whose
# runs is $2 ("-": every stage) and that run at step $3 (at the
# preparation, step 0, those the table lets run there).
stages_at()
{
	local -n __sa_ref=$1; shift
	local runs=$1; shift
	local idx=$1; shift
	local __sa_s

	__sa_ref=()
	for __sa_s in "${STAGES[@]}"; do
		[[ "$runs" == - || "${STAGE_RUNS[$__sa_s]}" == "$runs" ]] || continue
		((idx == 0)) && [[ "${STAGE_PREP[$__sa_s]}" == no ]] && continue
		__sa_ref+=("$__sa_s")
	done
}

# stage_get(): variable $1 = field $3 (needs, scope, prep, runs, inputs:
# a program's, space separated; what) of stage $2 of the table.
stage_get()
{
	local -n __sg_ref=$1; shift
	local s=$1; shift

	case $1 in
	needs) __sg_ref=${STAGE_NEEDS[$s]-} ;;
	scope) __sg_ref=${STAGE_SCOPE[$s]-} ;;
	prep) __sg_ref=${STAGE_PREP[$s]-} ;;
	runs) __sg_ref=${STAGE_RUNS[$s]-} ;;
	inputs) __sg_ref=${STAGE_INPUTS[$s]-} ;;
	what) __sg_ref=${STAGE_WHAT[$s]-} ;;
	*) die "stage_get: no field '$1' in the stage table" ;;
	esac
}

# stages_write(): the loaded stage table, in the form the report reads
# (tools/src/report.c: name, needs, scope, what), into file $1.
stages_write()
{
	local s

	for s in "${STAGES[@]}"; do
		printf '%s\t%s\t%s\t%s\n' "$s" "${STAGE_NEEDS[$s]}" "${STAGE_SCOPE[$s]}" \
			"${STAGE_WHAT[$s]}"
	done > "$1"
}

# skip_prep(): skip the cells of the preparation commit (step 0) of
# every stage the table says does not run there, and of every stage that
# needs one of those, in turn: once each, in table order.
skip_prep()
{
	local -A down=()
	local s

	for s in "${STAGES[@]}"; do
		[[ "${STAGE_PREP[$s]}" == no || -n "${down[${STAGE_NEEDS[$s]}]:-}" ]] || continue
		down[$s]=1
		skip_stage 0 - "$s" "preparation commit, not part of the series"
	done
}

# skip_stage(): skip the cells of stage $3 at step $1: its one cell, for
# a stage of scope step; else its cell on target $2, or on every target
# ("-"); the reason $4.
skip_stage()
{
	local idx=$1; shift
	local tgt=$1; shift
	local s=$1; shift
	local why=$1; shift
	local t
	local -a names

	if [[ "${STAGE_SCOPE[$s]}" == step ]]; then
		cell_skip "$idx" - "$s" "$why"
	elif [[ "$tgt" != - ]]; then
		cell_skip "$idx" "$tgt" "$s" "$why"
	else
		targets_names names
		for t in "${names[@]}"; do
			cell_skip "$idx" "$t" "$s" "$why"
		done
	fi
}

# skip_after(): skip, for step $1 and target $2 ("-": every target of
# targets_names), every stage that needs stage $3, in turn, with the reason $4.
skip_after()
{
	local idx=$1; shift
	local tgt=$1; shift
	local failed=$1; shift
	local why=$1; shift
	local -A down=([$failed]=1)
	local s

	for s in "${STAGES[@]}"; do
		[[ -n "${down[${STAGE_NEEDS[$s]}]:-}" ]] || continue
		down[$s]=1
		skip_stage "$idx" "$tgt" "$s" "$why"
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

# cell_files(): associative array $1 (the caller's: local -A) = the
# files of cell ($2, $3, $4), without a fork: [rec], [log], [detail],
# and [prefix], the step's and target's id.
cell_files()
{
	local -n __cf=$1; shift
	local __cf_p __cf_id

	cell_id_to __cf_p "$1" "$2"
	cell_id_to __cf_id "$1" "$2" "$3"
	__cf=(["prefix"]=$__cf_p ["rec"]=$RUNDIR/results/$__cf_id.tsv
	      ["log"]=$RUNDIR/logs/$__cf_id.log ["detail"]=$RUNDIR/details/$__cf_id.txt)
}

# cell_rec(), cell_log(), cell_detail(): the files of cell ($1, $2, $3)
# (a fork fewer than with cell_id: cell_files sets them without any).
cell_rec()
{
	local id
	cell_id_to id "$@"
	echo "$RUNDIR/results/$id.tsv"
}

cell_log()
{
	local id
	cell_id_to id "$@"
	echo "$RUNDIR/logs/$id.log"
}

cell_detail()
{
	local id
	cell_id_to id "$@"
	echo "$RUNDIR/details/$id.txt"
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
	local t shown summary from label
	local -A r f

	cell_files f "$idx" "$tgt" "$stage"
	rec_read r "${f[rec]}"
	summary=${r[summary]//$'\t'/ } from=${r[cached-from]}
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$idx" "$tgt" "$stage" "${r[status]}" \
		"${r[ms]:--}" "$summary" "$log" "${from:--}" >> "$RUNDIR/cells.tsv"
	[[ "$tgt" == - ]] && tgt=
	fmt_ms_to t "${r[ms]:-0}"
	shown=${r[status]}
	[[ -n "$from" ]] && shown="cached-${r[status]}" summary="from run ${from%%/*}: $summary"
	series_label label "$idx"
	progress "$label${tgt:+ $tgt} $stage: $shown ($t) $summary"
	CELL_STATUS=${r[status]}
	CELL_SUMMARY=${r[summary]}
}

# cell_lookup(): report cell ($1, $2, $3) from the cache under key $4;
# fails when it is not there, or when validator $5 (if given, not "-")
# says the cached record is of no use any more, e.g. because what the
# stage made is gone. The validator is a function name and the words
# after it, split on blanks ("exports_valid plan"), called with the
# record as its last argument.
cell_lookup()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local key=$1; shift
	local valid=${1:--}
	local rec old
	local -A r f

	cache_get "$stage" "$key" "$idx" "$tgt" || return 1
	cell_files f "$idx" "$tgt" "$stage"
	rec=${f[rec]}
	# shellcheck disable=SC2086  # a function and its words
	if [[ "$valid" != - ]] && ! $valid "$rec"; then
		rm -f "$rec" "${f[detail]}"
		return 1
	fi
	rec_read r "$rec"
	# Where it was made: the cell id of its step and target there.
	cell_id_to old "${r[step]:-$idx}" "${r[target]}" "$stage"
	printf 'cached-from\t%s\t%s\n' "${r[run]}" "$old" >> "$rec"
	cell_record "$idx" "$tgt" "$stage" -
}

# cell_begin(): cell ($2, $3, $4) starts: a progress line, an empty log,
# no record yet; its start time (ms) in variable $1.
cell_begin()
{
	local -n __cb_t0=$1; shift
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local t=$tgt label
	local -A f

	[[ "$t" == - ]] && t=
	series_label label "$idx"
	progress "$label${t:+ $t} $stage: start"
	cell_files f "$idx" "$tgt" "$stage"
	: > "${f[log]}"
	rm -f "${f[rec]}"
	__cb_t0=$(now_ms)
}

# cell_end(): cell ($1, $2, $3) of key $4 is done, started at $5
# (cell_begin), taking $6 ms (default: until now): complete its record,
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
	local -A r c

	cell_files c "$idx" "$tgt" "$stage"
	rec=${c[rec]}
	rec_read r "$rec"
	if [[ -z "${r[status]}" ]]; then
		# A stage that left no result failed in a way it did not say.
		result "$rec" FAIL "the $stage stage gave no result (see its log)"
		result_nocache "$rec"
	fi
	printf 'ms\t%s\nrun\t%s\nstep\t%s\ntarget\t%s\n' "$ms" "${RUNDIR##*/}" "$idx" "$tgt" >> "$rec"
	rec_read r "$rec"
	[[ -n "${r[nocache]}" ]] || cache_put "$stage" "$key" "$idx" "$tgt"
	cell_record "$idx" "$tgt" "$stage" "${c[log]}"
}

# cell_run(): one cell, from the cache or by running its stage.
# Usage: cell_run IDX TARGET STAGE KEY VALID FUNCTION ARGS...; VALID as
# for cell_lookup ("-": none); FUNCTION is called as
# FUNCTION REC LOG DETAIL ARGS...
cell_run()
{
	cell_lookup "$1" "$2" "$3" "$4" "$5" && return 0
	cell_make "$@"
}

# cell_make(): one cell, made: its stage run, never the cache asked (what
# judges a boot just made); as cell_run, VALID unused.
cell_make()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local key=$1; shift
	shift	# VALID: cell_run's
	local fn=$1; shift
	local t0
	local -A c

	cell_begin t0 "$idx" "$tgt" "$stage"
	cell_files c "$idx" "$tgt" "$stage"
	: > "${c[detail]}"
	"$fn" "${c[rec]}" "${c[log]}" "${c[detail]}" "$@"
	cell_end "$idx" "$tgt" "$stage" "$key" "$t0"
}

# cell_skip(): a cell (step $1, target $2, stage $3) that does not run,
# with the reason $4: its record says so.
cell_skip()
{
	local -A f

	cell_files f "$1" "$2" "$3"
	printf 'status\tskip\nsummary\t%s\nms\t0\nrun\t%s\nstep\t%s\ntarget\t%s\n' \
		"${4//$'\t'/ }" "${RUNDIR##*/}" "$1" "$2" > "${f[rec]}"
	cell_record "$1" "$2" "$3" -
}

# cell_exec(): run stage program $5 (STAGE_DIR/$5) on inputs file $4,
# with record $1, log $2 and details $3, in its own process and a clean
# environment (PATH, the locale, TMPDIR and V only: no HOME, no SMTP or
# git credentials, no ssh agent, none of the driver's variables), in the
# sandbox (tools/sandbox.sh): it may write the run dir alone, and runs
# the tree's scripts. A program that exits without a result failed as
# no verdict; one whose tools the sandbox stopped fails, saying so.
# Usage (through cell_run): cell_exec REC LOG DETAIL INPUTS PROGRAM
cell_exec()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local inputs=$1; shift
	local prog=$1; shift
	local rc stopped rules name value p
	local -a keep=() sb=() opts=() patches
	local -A r pdirs=()

	[[ -n "${LANG:-}" ]] && keep+=("LANG=$LANG")
	[[ -n "${LC_ALL:-}" ]] && keep+=("LC_ALL=$LC_ALL")
	# V=1, the user's own setting: the program's tools show their output.
	[[ -n "${V:-}" ]] && keep+=("V=$V")
	opts=(--rw "$RUNDIR" --ro "$TOP" --ro "$STAGE_DIR" --ro "$WORKDIR"
		--ro "${WT:-$WORKDIR}" --ro "${SERIES%/*}")
	[[ -n "${KREPO:-}" ]] && sandbox_git opts "$KREPO"
	# The series' patch files, wherever it keeps them (HOME is hidden).
	series_patches patches -
	for p in "${patches[@]}"; do
		[[ "$p" == /* ]] && pdirs[${p%/*}]=1
	done
	for p in "${!pdirs[@]}"; do
		opts+=(--ro "$p")
	done
	# An input whose name ends in -rw is a path the program writes.
	while IFS=$'\t' read -r name value; do
		[[ "$name" == *-rw && "$value" == /* ]] && opts+=(--rw "$value")
	done < "$inputs"
	sandbox_argv sb "${opts[@]}"
	# shellcheck disable=SC2094  # the program appends to its log too
	"${sb[@]}" env -i PATH="$PATH" TMPDIR="${TMPDIR:-/tmp}" "${keep[@]}" \
		"$STAGE_DIR/$prog" "$inputs" "$rec" "$log" "$detail" \
		>> "$log" 2>&1 < /dev/null
	rc=$?
	rec_read r "$rec"
	if [[ -z "${r[status]}" ]]; then
		result "$rec" FAIL "${STAGE_DIR#"$TOP"/}/$prog exited $rc without a result (see its log)"
		result_nocache "$rec"
	elif stopped=$(sandbox_stopped "$log"); then
		sandbox_summary rules "$stopped"
		result "$rec" FAIL "the sandbox stopped what it ran: $rules"
		printf '%s\n' "$stopped" >> "$detail"
	fi
	return 0
}

# cell_prog_inputs(): the inputs of program stage $4 at step $2 on target
# $3 ("-" for a stage of scope step), and so its cell's key, in variable
# $1; $5 names the assoc array of what the driver knows of the step
# (step_facts, tools/inputs.sh).
# Each input the table declares for it comes from the driver's provider
# for that name (tools/inputs.sh), called as
# `input_NAME VALUE-VAR KEY-VAR IDX STAGE TARGET FACTS` ("-" in a name is
# "_" in the function's): the value goes into the cell's inputs file,
# RUNDIR/inputs/<cell id>.tsv, as "name<TAB>value"; the key part is what
# of it decides the result (a commit's patch, not its id; a file's text,
# not its path). The cell's key is the stage, its inputs' key parts and
# the program's own files (it may source tools/lib.sh, stage-lib.sh and
# findings.sh, no more: tools/lint.sh checks that). A provider that
# fails ends the cell as "no verdict" here, and this fails.
declare -A CELL_PROG_ID=()
cell_prog_inputs()
{
	local -n __cpi_key=$1; shift
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local __cpi_facts=$1; shift
	local id file name val part fn pid t0
	local -a keys=()

	cell_id_to id "$idx" "$tgt" "$stage"
	file=$RUNDIR/inputs/$id.tsv
	pid=${CELL_PROG_ID[$stage]:-}
	if [[ -z "$pid" ]]; then
		hash_files_to pid "$STAGE_DIR/$stage" "$TOP/tools/stage-lib.sh" \
			"$TOP/tools/lib.sh" "$TOP/tools/findings.sh"
		CELL_PROG_ID[$stage]=$pid
	fi
	: > "$file" || die "cannot write $file: check space and permissions of the run dir"
	for name in ${STAGE_INPUTS[$stage]}; do
		fn=input_${name//-/_}
		declare -F "$fn" > /dev/null ||
			die "stage $stage: the driver has no input '$name' (tools/stages.tsv; define $fn)"
		val='' part=''
		if ! "$fn" val part "$idx" "$stage" "$tgt" "$__cpi_facts" || [[ "$val" == *[$'\t\n']* ]]; then
			cell_begin t0 "$idx" "$tgt" "$stage"
			result "$(cell_rec "$idx" "$tgt" "$stage")" FAIL \
				"the driver could not give its input '$name' ($fn)"
			result_nocache "$(cell_rec "$idx" "$tgt" "$stage")"
			cell_end "$idx" "$tgt" "$stage" - "$t0"
			return 1
		fi
		printf '%s\t%s\n' "$name" "$val" >> "$file"
		keys+=("$name=$part")
	done
	hash_to __cpi_key "$stage" "${keys[@]}" "$pid"
}

# cell_prog_run(): the cell of program stage $3 at step $1 on target $2,
# whose inputs file cell_prog_inputs wrote under key $4: from the cache,
# or by running the program (cell_exec).
cell_prog_run()
{
	local idx=$1; shift
	local tgt=$1; shift
	local stage=$1; shift
	local key=$1; shift
	local id

	cell_id_to id "$idx" "$tgt" "$stage"
	cell_run "$idx" "$tgt" "$stage" "$key" - cell_exec "$RUNDIR/inputs/$id.tsv" "$stage"
}

# cell_prog_exec(): as cell_prog_run, but the program is run whatever
# the cache has (cell_make).
cell_prog_exec()
{
	local id

	cell_id_to id "$1" "$2" "$3"
	cell_make "$1" "$2" "$3" "$4" - cell_exec "$RUNDIR/inputs/$id.tsv" "$3"
}

# cell_prog(): the cell of program stage $3 at step $1 on target $2 ("-"
# for a stage of scope step), of step facts $4 (step_facts): its inputs,
# then its result, from the cache or by running the program.
cell_prog()
{
	local key

	cell_prog_inputs key "$1" "$2" "$3" "$4" || return 0
	cell_prog_run "$1" "$2" "$3" "$key"
}
