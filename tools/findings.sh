#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# findings.sh - what the robots' checks (stages kdoc, w1, sparse, tags)
# share: the findings series.yaml accepts for a check, and the one
# judgement of a check's findings, by tools/bin/findings: a finding is new
# when its (file, kind, message) is not among the parent's, without line
# numbers, so that a line that only moved is not new (netdev NIPA's rule).
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh and
# cell.sh (result).

# findings_accepts(): print the accept lines of check $2 for patch $1
# (series.yaml findings-accept; series.sh's series_step) in the form
# `findings new --accept` reads: kind, file, substring, reason.
findings_accepts()
{
	local idx=$1; shift
	local check=$1; shift
	local c kind file match reason text

	series_step text findings-accept "$idx"
	while IFS=$'\t' read -r c kind file match reason; do
		[[ "$c" == "$check" ]] || continue
		printf '%s\t%s\t%s\t%s\n' "$kind" "$file" "$match" "$reason"
	done <<< "$text"
}

# findings_judge(): judge the findings of check $4 (parse output $6 of
# the child against $5 of the parent; /dev/null: none) with the accept
# file $7, into record $1, log $2 and details $3; $8 is the series file
# and $9 the patch's number, for the next step the details name; ${10}
# says what was checked, for the summary.
findings_judge()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local check=$1; shift
	local parent=$1; shift
	local child=$1; shift
	local accept=$1; shift
	local series=$1; shift
	local idx=$1; shift
	local what=$1; shift
	local out=${log%.log}.new kind file ktype raw why rc n_new=0 n_ack=0 gone=''

	"$TOP/tools/bin/findings" new --parent "$parent" --child "$child" \
		--accept "$accept" > "$out" 2>> "$log"
	rc=$?
	if ((rc > 1)); then
		result "$rec" FAIL "tools/bin/findings could not judge the findings (see the log)"
		result_nocache "$rec"
		return
	fi
	while IFS=$'\t' read -r kind file ktype _ raw why; do
		case $kind in
		new)
			n_new=$((n_new + 1))
			printf 'new %s in %s: %s\n' "$ktype" "$file" "$raw" >> "$detail"
			;;
		acked)
			n_ack=$((n_ack + 1))
			printf 'accepted %s in %s: %s (%s)\n' "$ktype" "$file" "$raw" "$why" >> "$detail"
			;;
		summary)
			# "N new, M acked, K gone": the gone ones are good news.
			[[ "$file" =~ ([0-9]+)\ gone ]] && gone=${BASH_REMATCH[1]}
			;;
		esac
	done < "$out"
	local also=''
	if ((n_new)); then
		printf 'next: fix the patch, or accept a finding with a reason under findings-accept (check: %s) of patch %s in %s\n' \
			"$check" "$idx" "$series" >> "$detail"
		((n_ack)) && also=", $n_ack accepted"
		result "$rec" FAIL "$n_new new finding(s)$also ($what)"
	elif ((n_ack)); then
		result "$rec" acked "$n_ack finding(s) accepted in series.yaml ($what)"
	else
		[[ -n "$gone" && "$gone" != 0 ]] && also=", $gone gone"
		result "$rec" ok "no new finding$also ($what)"
	fi
}
