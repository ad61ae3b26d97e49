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
# Sourced by tools/bisect-check; expects lib.sh and cell.sh.

# stage_checkpatch(): check commit SHA (exported to the file PATCH) with
# the worktree's checkpatch.pl; ok, acked when only the accepted types
# were found, FAIL otherwise, the findings in DETAIL.
# Args: REC LOG DETAIL SHA PATCH SERIES_FILE [TYPE=REASON...]
stage_checkpatch()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local sha=$1; shift
	local patch=$1; shift
	local series=$1; shift
	local -A reason=()
	local a out kind type text n_err=0 n_bad=0 n_ack=0 rc summary

	for a in "$@"; do
		reason[${a%%=*}]=${a#*=}
	done
	git_k format-patch -1 --stdout "$sha" > "$patch" || {
		result "$rec" FAIL "cannot export $sha as a patch"
		return
	}
	out=${log%.log}.out
	# Debian's python3 first: --codespell finds its dictionary through it.
	(cd "$WT" && run_logged "$log" env PATH="/usr/bin:$PATH" \
		GIT_DIR=/nonexistent \
		perl scripts/checkpatch.pl --strict --codespell --show-types \
		--color=never "$patch")
	rc=$?
	# The findings, without the command line run_logged put first.
	tail -n +2 "$log" > "$out"
	if ! grep -q '^total: ' "$out"; then
		result "$rec" FAIL "checkpatch.pl did not finish (exit $rc)"
		tail -n 5 "$out" > "$detail"
		return
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
		elif [[ -n "${reason[$type]+set}" ]]; then
			n_ack=$((n_ack + 1))
			echo "accepted $kind $type: $text (${reason[$type]})" >> "$detail"
		else
			n_bad=$((n_bad + 1))
			echo "$kind $type: $text" >> "$detail"
		fi
	done < "$out"

	if ((n_err + n_bad > 0)); then
		summary="$n_err error(s), $n_bad warning(s)/check(s) not accepted in series.yaml"
		((n_ack)) && summary+=", $n_ack accepted"
		result "$rec" FAIL "$summary"
		echo "next: fix the patch, or accept a warning with a reason under checkpatch-accept in $series" >> "$detail"
	elif ((n_ack > 0)); then
		result "$rec" acked "$n_ack warning(s) accepted in series.yaml"
	else
		result "$rec" ok "clean"
	fi
}
