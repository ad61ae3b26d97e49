#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tags.sh - the tags stage: the trailers and commit references of one
# series commit, as robots and maintainers check them (tools/bin/tags):
# the author's Signed-off-by, Fixes: and cited commits in the kernel's
# form, well-formed trailers. What checkpatch.pl reports already (its
# own cell) is not reported twice: tags is told what checkpatch said of
# the same patch. Every finding of a commit's own message is its own, so
# nothing is compared with the parent; accepted findings are acked
# (tools/findings.sh).
#
# Who sends is not checked here: a replay cannot know it (`make send`
# sends as git's user.name and user.email, whoever runs it); `make send
# SEND=1` checks that the sender signed off last (tools/send.sh,
# check_sender).
#
# Sourced by tools/bisect-check; expects lib.sh, cell.sh, findings.sh.

# stage_tags(): the tags cell of step $5 (commit $4), its patch written
# to $6 (named as the series names it); accepted findings in file $7,
# the series file $8.
# Args: REC LOG DETAIL SHA IDX PATCH ACCEPT SERIES
stage_tags()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local sha=$1; shift
	local idx=$1; shift
	local patch=$1; shift
	local accept=$1; shift
	local series=$1; shift
	local dir=${log%.log}.d out rc cp=()

	rm -rf "$dir"
	mkdir -p "$dir" "${patch%/*}" || {
		result "$rec" FAIL "cannot write $dir"
		result_nocache "$rec"
		return
	}
	if ! git --git-dir="$KREPO" format-patch -1 --stdout "$sha" > "$patch"; then
		result "$rec" FAIL "cannot export $sha as a patch"
		result_nocache "$rec"
		return
	fi
	out=$dir/tags.tsv
	(cd "${patch%/*}" && "$TOP/tools/bin/tags" --patch "${patch##*/}") > "$out" 2>> "$log"
	rc=$?
	if ((rc == 1)); then
		# Findings: which of them checkpatch.pl (the commit's own) has.
		git --git-dir="$KREPO" show "$sha:scripts/checkpatch.pl" > "$dir/checkpatch.pl" &&
			run_logged "$dir/checkpatch.out" env GIT_DIR=/nonexistent perl \
				"$dir/checkpatch.pl" --no-tree --strict --show-types --color=never \
				"$patch"
		cp=(--checkpatch "$dir/checkpatch.out")
		(cd "${patch%/*}" && "$TOP/tools/bin/tags" --patch "${patch##*/}" "${cp[@]}") \
			> "$out" 2>> "$log"
		rc=$?
	fi
	if ((rc > 1)); then
		result "$rec" FAIL "tools/bin/tags could not read the patch (see the log)"
		result_nocache "$rec"
		return
	fi
	cut -f4 "$out" >> "$log"
	findings_judge "$rec" "$log" "$detail" tags /dev/null "$out" "$accept" "$series" \
		"$idx" "trailers and commit references"
}
