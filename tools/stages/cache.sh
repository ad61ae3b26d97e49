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
	local d status ms run summary

	[[ "${FORCE:-0}" == 1 ]] && return 1
	d=$(cache_dir "$stage" "$key")
	[[ -f "$d/result" ]] || return 1
	IFS=$'\t' read -r status ms run summary < "$d/result" || return 1
	[[ -n "$status" ]] || return 1
	CELL_STATUS="cached-$status"
	CELL_MS=$ms
	CELL_SUMMARY="from run $run: $summary"
	[[ -f "$d/detail" ]] && cp "$d/detail" "$detail"
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
	local d

	d=$(cache_dir "$stage" "$key")
	mkdir -p "$d.tmp.$$" || return 0
	printf '%s\t%s\t%s\t%s\n' "$status" "$ms" "$RUN_ID" "$summary" > "$d.tmp.$$/result"
	[[ -s "$detail" ]] && cp "$detail" "$d.tmp.$$/detail"
	rm -rf "$d"
	mv "$d.tmp.$$" "$d"
}
