#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cc.sh - the cc stage: the recipients `make send` would use for a series
# commit include every maintainer, reviewer and list the commit's own
# scripts/get_maintainer.pl names for it (its MAINTAINERS; no git, as the
# imported tree has no history). The recipients are worked out as b4
# does when tools/send.sh runs it: send-series-to and send-series-cc of
# the b4 config (b4_config_of), plus, unless AUTO_CC=0, what the config's
# send-auto-to-cmd and send-auto-cc-cmd (b4's defaults when unset) print
# for the patch, run at the top of a tree holding MAINTAINERS and
# scripts/get_maintainer.pl only, like tools/send.sh's sparse worktree.
# Addresses compare by email, case-insensitively.
#
# Sourced by tools/bisect-check; expects lib.sh and cell.sh.

# b4's own defaults for the two commands (b4 0.12).
readonly CC_B4_TO_CMD="scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins --norolestats --nol"
readonly CC_B4_CC_CMD="scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins --norolestats --nom"

# cc_emails(): print the email addresses in text $1, lower case, one a
# line.
cc_emails()
{
	grep -o -E '[^][<>,;:" ()]+@[^][<>,;:" ()]+' <<< "$1" | tr '[:upper:]' '[:lower:]'
}

# stage_cc(): the cc cell of commit $4, its patch written to $5; the b4
# config $6 and AUTO_CC $7 as tools/send.sh would use them.
# Args: REC LOG DETAIL SHA PATCH B4CONFIG AUTO_CC
stage_cc()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local sha=$1; shift
	local patch=$1; shift
	local b4config=$1; shift
	local auto=$1; shift
	local dir=${log%.log}.d key cmd out line mail n=0 named=0
	local -A have=()

	rm -rf "$dir"
	mkdir -p "$dir/scripts" "${patch%/*}" || {
		result "$rec" FAIL "cannot write $dir"
		result_nocache "$rec"
		return
	}
	if ! git --git-dir="$KREPO" format-patch -1 --stdout "$sha" > "$patch" ||
	   ! git --git-dir="$KREPO" show "$sha:MAINTAINERS" > "$dir/MAINTAINERS" ||
	   ! git --git-dir="$KREPO" show "$sha:scripts/get_maintainer.pl" \
		> "$dir/scripts/get_maintainer.pl"; then
		result "$rec" FAIL "cannot export $sha's patch, MAINTAINERS or get_maintainer.pl"
		result_nocache "$rec"
		return
	fi
	chmod +x "$dir/scripts/get_maintainer.pl"

	# make send's recipients.
	for key in send-series-to send-series-cc; do
		out=$(git config -f "$b4config" --get "b4.$key" 2>/dev/null)
		echo "$b4config b4.$key: $out" >> "$log"
		for mail in $(cc_emails "$out"); do
			have[$mail]=1
		done
	done
	if [[ "$auto" != 0 ]]; then
		for key in send-auto-to-cmd send-auto-cc-cmd; do
			cmd=$(git config -f "$b4config" --get "b4.$key" 2>/dev/null)
			if [[ -z "$cmd" ]]; then
				cmd=$CC_B4_TO_CMD
				[[ "$key" == send-auto-cc-cmd ]] && cmd=$CC_B4_CC_CMD
			fi
			echo "b4.$key: $cmd < patch" >> "$log"
			# shellcheck disable=SC2086  # a command line, as b4 splits it
			if ! out=$(cd "$dir" && $cmd < "$patch" 2>> "$log"); then
				result "$rec" FAIL "b4.$key of $b4config fails on this patch (see the log)"
				echo "next: fix b4.$key in $b4config, or send with AUTO_CC=0 and list the recipients there" >> "$detail"
				return
			fi
			echo "$out" >> "$log"
			for mail in $(cc_emails "$out"); do
				have[$mail]=1
			done
		done
	fi

	# Whom get_maintainer.pl names, with the reason (its roles).
	echo "get_maintainer.pl --no-tree --nogit --nogit-fallback --rolestats < patch" >> "$log"
	if ! out=$(cd "$dir" && perl scripts/get_maintainer.pl --no-tree --nogit --nogit-fallback \
		--rolestats < "$patch" 2>> "$log"); then
		result "$rec" FAIL "get_maintainer.pl failed (see the log)"
		result_nocache "$rec"
		return
	fi
	echo "$out" >> "$log"
	while IFS= read -r line; do
		[[ -n "$line" ]] || continue
		mail=$(cc_emails "$line" | head -n 1)
		[[ -n "$mail" ]] || continue
		named=$((named + 1))
		[[ -n "${have[$mail]:-}" ]] && continue
		n=$((n + 1))
		echo "not a recipient: $line" >> "$detail"
	done <<< "$out"
	if ((n)); then
		echo "next: add them to send-series-to or send-series-cc in $b4config (or let b4 add them: AUTO_CC=1 and its send-auto-*-cmd)" >> "$detail"
		result "$rec" FAIL "$n of $named address(es) get_maintainer.pl names are not among make send's recipients"
	else
		result "$rec" ok "make send reaches all $named address(es) get_maintainer.pl names"
	fi
}
