#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kdoc.sh - the kdoc stage: the tree's scripts/kernel-doc -none on the C
# files and headers a series commit touches, at the commit and at its
# parent; a warning the parent did not have fails (tools/findings.sh).
# 6.1's kernel-doc has no -Wall ("Argument unknown!"), so it runs with
# -none alone, as W=1 builds run it.
#
# The files come from git, not from the worktree: the cell needs no
# checkout and no build, and its key is the two trees.
#
# Sourced by tools/bisect-check; expects lib.sh, cell.sh, findings.sh.

# kdoc_side(): kernel-doc of commit $2 (a tree-ish) on files $4... into
# findings file $3, in work dir $1/<label>; the script is $2's own.
kdoc_side()
{
	local dir=$1; shift
	local rev=$1; shift
	local tsv=$1; shift
	local f have=()

	mkdir -p "$dir" || return 1
	for f in "$@"; do
		mkdir -p "$dir/${f%/*}" || return 1
		git --git-dir="$KREPO" show "$rev:$f" > "$dir/$f" 2> /dev/null || continue
		have+=("$f")
	done
	if ((${#have[@]} == 0)); then
		: > "$tsv"
		return 0
	fi
	git --git-dir="$KREPO" show "$rev:scripts/kernel-doc" > "$dir/.kernel-doc" || return 1
	(cd "$dir" && perl .kernel-doc -none "${have[@]}") > "${tsv%.tsv}.txt" 2>&1 || return 1
	"$TOP/tools/bin/findings" parse --tool kdoc "${tsv%.tsv}.txt" > "$tsv"
}

# stage_kdoc(): the kdoc cell of step $6 (commit $4, parent $5); the
# accepted findings in file $7, the series file $8.
# Args: REC LOG DETAIL SHA PARENT IDX ACCEPT SERIES
stage_kdoc()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local sha=$1; shift
	local parent=$1; shift
	local idx=$1; shift
	local accept=$1; shift
	local series=$1; shift
	local dir=${log%.log}.d
	local -a files=()

	mapfile -t files < <(git --git-dir="$KREPO" diff --name-only "$parent" "$sha" -- '*.[ch]')
	if ((${#files[@]} == 0)); then
		result "$rec" ok "no C file or header touched"
		return
	fi
	rm -rf "$dir"
	echo "kernel-doc -none on: ${files[*]}" >> "$log"
	if ! kdoc_side "$dir/parent" "$parent" "$dir/parent.tsv" "${files[@]}" ||
	   ! kdoc_side "$dir/child" "$sha" "$dir/child.tsv" "${files[@]}"; then
		cat "$dir"/*.txt >> "$log" 2> /dev/null
		result "$rec" FAIL "scripts/kernel-doc did not run (see the log)"
		result_nocache "$rec"
		return
	fi
	cat "$dir/child.txt" >> "$log" 2> /dev/null
	findings_judge "$rec" "$log" "$detail" kdoc "$dir/parent.tsv" "$dir/child.tsv" \
		"$accept" "$series" "$idx" "${#files[@]} file(s)"
	rm -rf "$dir/parent" "$dir/child"
}
