#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cache.sh - the result cache: each cell's result is stored under a key
# made of everything that determines it, and reused by later runs. A
# cached failure stays a failure. FORCE=1 ignores (and refreshes) it.
#
# Stage functions report through CELL_* variables the caller reads.
# shellcheck disable=SC2034
#
# Sourced by tools/bisect-check; expects lib.sh.

# hash_of(): print a short sha1 of the arguments' text.
hash_of()
{
	printf '%s\n' "$@" | sha1sum | cut -c1-20
}

# hash_files(): print a short sha1 of the named files' contents and names.
hash_files()
{
	local f
	for f in "$@"; do
		printf '%s\n' "${f#"$TOP"/}"
		cat "$f"
	done | sha1sum | cut -c1-20
}

# The evidence a cell's details name, per stage: files of a run dir, @
# standing for the step. It is kept with the cell and put back into every
# run that reuses the cell, at that run's step, so that a cached cell's
# evidence lives as long as the cell does (old runs are pruned, prune.sh).
declare -rA CACHE_EVIDENCE=(
	[build]="logs/@-build.log logs/@-kconfig.log"
	[checkpatch]="logs/@-checkpatch.log"
	[boot]="logs/@-boot.log boot/@/console.log boot/@/results.ktap boot/@/triage.tsv"
	[tests]="boot/@/results.ktap"
)

# cache_step_of(): the step of a run's details file ($RUNDIR/details/N-stage.txt).
cache_step_of()
{
	local f=${1##*/}
	echo "${f%%-*}"
}

# cache_dir(): the directory of one cached cell.
cache_dir()
{
	local stage=$1; shift
	local key=$1; shift
	echo "$WORKDIR/cache/$stage/$key"
}

# cache_get(): load a cached cell into CELL_STATUS/CELL_SUMMARY/CELL_MS and
# copy its details; fails when there is none or FORCE=1.
cache_get()
{
	local stage=$1; shift
	local key=$1; shift
	local detail=$1; shift
	local d status ms run summary old new t from to text

	[[ "${FORCE:-0}" == 1 ]] && return 1
	d=$(cache_dir "$stage" "$key")
	[[ -f "$d/result" ]] || return 1
	IFS=$'\t' read -r status ms run summary < "$d/result" || return 1
	[[ -n "$status" ]] || return 1
	CELL_STATUS="cached-$status"
	CELL_MS=$ms
	CELL_SUMMARY="from run $run: $summary"
	# Used now: pruning goes by the last use (prune.sh).
	touch -c "$d"
	[[ -f "$d/detail" ]] && text=$(< "$d/detail")
	old=$(cat "$d/step" 2>/dev/null)
	new=$(cache_step_of "$detail")
	for t in ${CACHE_EVIDENCE[$stage]:-}; do
		[[ -f "$d/evidence/${t//\//%}" ]] || continue
		to=$RUNDIR/${t//@/$new}
		mkdir -p "${to%/*}" && cp "$d/evidence/${t//\//%}" "$to"
		# The details name the evidence where it was made.
		from=$WORKDIR/runs/$run/${t//@/$old}
		[[ -n "$old" ]] && text=${text//"$from"/"$to"}
	done
	[[ -f "$d/detail" ]] && printf '%s\n' "$text" > "$detail"
	return 0
}

# cache_put(): store a finished cell.
cache_put()
{
	local stage=$1; shift
	local key=$1; shift
	local status=$1; shift
	local ms=$1; shift
	local summary=$1; shift
	local detail=$1; shift
	local d t idx f

	d=$(cache_dir "$stage" "$key")
	mkdir -p "$d.tmp.$$/evidence" || return 0
	printf '%s\t%s\t%s\t%s\n' "$status" "$ms" "$RUN_ID" "$summary" > "$d.tmp.$$/result"
	[[ -s "$detail" ]] && cp "$detail" "$d.tmp.$$/detail"
	idx=$(cache_step_of "$detail")
	echo "$idx" > "$d.tmp.$$/step"
	for t in ${CACHE_EVIDENCE[$stage]:-}; do
		f=$RUNDIR/${t//@/$idx}
		[[ -f "$f" ]] && cp "$f" "$d.tmp.$$/evidence/${t//\//%}"
	done
	rm -rf "$d"
	mv "$d.tmp.$$" "$d"
}
