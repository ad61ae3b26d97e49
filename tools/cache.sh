#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cache.sh - the result cache, in one format for every stage: a cell's
# result record (cell.sh) with its details and evidence, stored under a
# key made of everything that determines the result, and reused by later
# runs. A cached failure stays a failure. FORCE=1 ignores (and
# refreshes) it.
#
# Sourced by tools/cell.sh; expects lib.sh.

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
# standing for the cell's step and target (cell_id). It is kept with the cell and put back into every
# run that reuses the cell, at that run's step, so that a cached cell's
# evidence lives as long as the cell does (old runs are pruned, prune.sh).
declare -rA CACHE_EVIDENCE=(
	[build]="logs/@-build.log logs/@-kconfig.log"
	[checkpatch]="logs/@-checkpatch.log"
	[boot]="logs/@-boot.log boot/@/console.log boot/@/results.ktap boot/@/triage.tsv"
	[tests]="boot/@/results.ktap"
)

# cache_dir(): the directory of one cached cell.
cache_dir()
{
	local stage=$1; shift
	local key=$1; shift
	echo "$WORKDIR/cache/$stage/$key"
}

# cache_has(): is there a cached result of (stage $1, key $2) to use?
cache_has()
{
	[[ "${FORCE:-0}" != 1 && -f "$WORKDIR/cache/$1/$2/record" ]]
}

# cache_get(): put the cached result of (stage $1, key $2) into the run
# dir as the cell of step $3 and target $4: its record, details and
# evidence. Fails when there is none, or with FORCE=1.
cache_get()
{
	local stage=$1; shift
	local key=$1; shift
	local idx=$1; shift
	local tgt=$1; shift
	local d run old t from to text now detail

	[[ "${FORCE:-0}" == 1 ]] && return 1
	d=$WORKDIR/cache/$stage/$key
	rec_read "$d/record" || return 1
	run=$REC_RUN
	old=
	if [[ -n "$REC_STEP" ]]; then
		cell_files "$REC_STEP" "$REC_TARGET" "$stage"
		old=$CELL_PREFIX
	fi
	cell_files "$idx" "$tgt" "$stage"
	now=$CELL_PREFIX
	detail=$CELL_DETAIL
	[[ -n "$REC_STATUS" && -n "$run" ]] || return 1
	# Used now: pruning goes by the last use (prune.sh).
	touch -c "$d"
	cp "$d/record" "$CELL_REC" || return 1
	[[ -f "$d/detail" ]] && text=$(< "$d/detail")
	for t in ${CACHE_EVIDENCE[$stage]:-}; do
		[[ -f "$d/evidence/${t//\//%}" ]] || continue
		to=$RUNDIR/${t//@/$now}
		[[ -d "${to%/*}" ]] || mkdir -p "${to%/*}" || return 1
		cp "$d/evidence/${t//\//%}" "$to"
		# The details name the evidence where it was made.
		from=$WORKDIR/runs/$run/${t//@/$old}
		[[ -n "$old" ]] && text=${text//"$from"/"$to"}
	done
	if [[ -f "$d/detail" ]]; then
		printf '%s\n' "$text" > "$detail"
	else
		rm -f "$detail"
	fi
	return 0
}

# cache_put(): store the finished cell of stage $1, step $3 and target $4
# under key $2: its record, details and evidence, from the run dir.
cache_put()
{
	local stage=$1; shift
	local key=$1; shift
	local idx=$1; shift
	local tgt=$1; shift
	local d t f now detail

	now=$(cell_id "$idx" "$tgt")
	detail=$(cell_detail "$idx" "$tgt" "$stage")
	d=$(cache_dir "$stage" "$key")
	mkdir -p "$d.tmp.$$/evidence" || return 0
	cp "$(cell_rec "$idx" "$tgt" "$stage")" "$d.tmp.$$/record" || return 0
	[[ -s "$detail" ]] && cp "$detail" "$d.tmp.$$/detail"
	for t in ${CACHE_EVIDENCE[$stage]:-}; do
		f=$RUNDIR/${t//@/$now}
		[[ -f "$f" ]] && cp "$f" "$d.tmp.$$/evidence/${t//\//%}"
	done
	rm -rf "$d"
	mv "$d.tmp.$$" "$d"
}
