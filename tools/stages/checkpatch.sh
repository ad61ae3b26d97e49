#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.sh - stage 3: run the tree's own scripts/checkpatch.pl on one
# series commit and judge it against the warnings series.yaml accepts.
#
# The imported tree has no history, so checkpatch cannot look commit ids
# up. Rather than letting it silently skip the "commit <sha> ("title")"
# style check when the id is unknown, it runs without git (GIT_DIR points
# nowhere): the style check then applies to every cited id, and any
# "commit <sha>" citation is reported UNKNOWN_COMMIT_ID, which a series
# may accept with a reason.
#
# Stage functions report through CELL_* variables the caller reads.
# shellcheck disable=SC2034
#
# Sourced by tools/bisect-check; expects lib.sh.

# stage_checkpatch(): check commit $1 of step $2; sets CELL_STATUS (ok,
# acked, FAIL) and CELL_SUMMARY, and writes findings to the detail file.
stage_checkpatch()
{
	local sha=$1; shift
	local idx=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local patch=$RUNDIR/patches/$idx.patch
	local accepted=" ${ACCEPT_TYPES[idx]:-} "
	local out kind type text n_err=0 n_bad=0 n_ack=0 rc

	git_k format-patch -1 --stdout "$sha" > "$patch" || {
		CELL_STATUS=FAIL
		CELL_SUMMARY="cannot export $sha as a patch"
		return "$EXIT_FAIL"
	}
	out=$RUNDIR/logs/$idx-checkpatch.out
	# Debian's python3 first: --codespell finds its dictionary through it.
	(cd "$WT" && run_logged "$log" env PATH="/usr/bin:$PATH" \
		GIT_DIR=/nonexistent \
		perl scripts/checkpatch.pl --strict --codespell --show-types \
		--color=never "$patch")
	rc=$?
	# The findings, without the command line run_logged put first.
	tail -n +2 "$log" > "$out"
	if ! grep -q '^total: ' "$out"; then
		CELL_STATUS=FAIL
		CELL_SUMMARY="checkpatch.pl did not finish (exit $rc)"
		tail -n 5 "$out" > "$detail"
		return "$EXIT_FAIL"
	fi

	: > "$detail"
	while IFS= read -r line; do
		[[ "$line" =~ ^(ERROR|WARNING|CHECK):([A-Z0-9_]+):\ (.*)$ ]] ||
			continue
		kind=${BASH_REMATCH[1]}
		type=${BASH_REMATCH[2]}
		text=${BASH_REMATCH[3]}
		if [[ "$kind" == ERROR ]]; then
			n_err=$((n_err + 1))
			echo "$kind $type: $text" >> "$detail"
		elif [[ "$accepted" == *" $type "* ]]; then
			n_ack=$((n_ack + 1))
			echo "accepted $kind $type: $text (${ACCEPT_REASON["$idx:$type"]:-})" >> "$detail"
		else
			n_bad=$((n_bad + 1))
			echo "$kind $type: $text" >> "$detail"
		fi
	done < "$out"

	if ((n_err + n_bad > 0)); then
		CELL_STATUS=FAIL
		CELL_SUMMARY="$n_err error(s), $n_bad warning(s)/check(s) not accepted in series.yaml"
		((n_ack)) && CELL_SUMMARY+=", $n_ack accepted"
		echo "next: fix the patch, or accept a warning with a reason under checkpatch-accept in $SERIES" >> "$detail"
		return "$EXIT_FAIL"
	fi
	if ((n_ack > 0)); then
		CELL_STATUS=acked
		CELL_SUMMARY="$n_ack warning(s) accepted in series.yaml"
		return 0
	fi
	CELL_STATUS=ok
	CELL_SUMMARY="clean"
	return 0
}
