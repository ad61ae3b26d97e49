#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# wcheck.sh - the w1 and sparse stages: the objects a series commit
# touches, compiled with W=1 and checked by sparse (C=2), at the commit
# and at its parent; a finding the parent did not have fails
# (tools/findings.sh). Both stages come from one compile of each side:
#
#   make O=<W=1 dir> W=1 C=2 --output-sync=target <objects>
#
# prints, per object, kbuild's "CC" line and gcc's diagnostics (and the
# kernel-doc lines W=1 adds, which the kdoc stage judges), then "CHECK"
# and sparse's: the two are split at those lines.
#
# The W=1 dir is one of its own per build dir (the first target's), so
# that the build's objects and command lines stay untouched; it has the
# series' config, not allmodconfig: allmodconfig's syncconfig and
# prepare cost minutes on two cores, and every file this series touches
# is built by the series' config (a file the config does not build is
# named in the details, not checked). The objects: each touched .c file
# the target's build compiles (its build dir has its .cmd), and for a
# touched header the built .c files that include it, at most
# WCHECK_MAX_INCLUDERS of them.
#
# Checking the parent out and the commit back in the shared worktree
# would give the touched files new mtimes and make the next build
# recompile and relink them: their mtimes are put back as they were.
#
# The compile's findings are an artifact, WORKDIR/wcheck/<key>: the w1
# cell makes it, the sparse cell reads it (or makes it, when the w1 cell
# came from the cache and the artifact is gone). Only making it needs
# the worktree, at the commit: the caller runs the stage through at_step
# then, and FORCE=1 removes the artifact first. The parent's side of it
# is also kept apart, under the parent's tree and the objects: a rerun
# after an edit of the commit compiles the commit's side alone. When the
# objects are known before the build (bisect-check, checks_early), the
# artifact is made beside it, from a parent's side made ahead: at the
# step before, for the next commit (wcheck_preside), or by an earlier
# run; a series of small commits then checks each beside its build.
#
# Sourced by tools/bisect-check; expects lib.sh, cell.sh, findings.sh,
# worktree.sh (git_k) and build.sh (kmake, build_config).

WCHECK_MAX_INCLUDERS=${WCHECK_MAX_INCLUDERS:-8}

# wcheck_code(): variable $1 = the id of this file, whole, for the keys
# of what its compiles and verdicts decide (wcheck_art's, the w1 and
# sparse cells', exports_plan's): a list of its functions would miss one
# they call.
wcheck_code()
{
	hash_files_to "$1" "$TOP/tools/stages/wcheck.sh"
}

# The base of wcheck_art's keys by config, asked twice a step.
declare -A WCHECK_BASE_OF=()

# wcheck_art(): variables $1 = the W=1 artifact of the trees $4 (parent)
# and $5 on a target of config and toolchain $3 (target_get's cfgid),
# $2 = the base of its kept parent sides; both apart for SANDBOX=0.
wcheck_art()
{
	local -n __wa_art=$1; shift
	local -n __wa_side=$1; shift
	local cfgid=$1; shift
	local ptree=$1; shift
	local tree=$1; shift
	local __wa_h __wa_sparse __wa_code __wa_rt

	# What decides a compile besides the trees and the objects (not the
	# series file: another one with the same commits shares them); the
	# same all run for a config, asked twice a step.
	__wa_h=${WCHECK_BASE_OF[$cfgid]:-}
	if [[ -z "$__wa_h" ]]; then
		tool_version __wa_sparse sparse
		wcheck_code __wa_code
		robot_tools_id __wa_rt
		hash_to __wa_h "$cfgid" "$__wa_sparse" "$__wa_rt" "$__wa_code"
		# A compile the sandbox did not watch (SANDBOX=0) is kept
		# apart: a run in the sandbox judges its own.
		[[ "$SANDBOX" == 0 ]] && __wa_h+=-nosandbox
		WCHECK_BASE_OF[$cfgid]=$__wa_h
	fi
	__wa_side=$WORKDIR/wcheck/side-$__wa_h
	hash_to __wa_h "$ptree" "$tree" "$__wa_h" "$WCHECK_MAX_INCLUDERS"
	__wa_art=$WORKDIR/wcheck/$__wa_h
}

# wcheck_dir(): variable $1 = the W=1 dir of build dir $2.
wcheck_dir()
{
	local -n __wd_ref=$1; shift
	local h
	hash_to h "$1"
	__wd_ref=$WORKDIR/build-w1/$h
}

# wcheck_ready(): variable $1 = the W=1 dir of target $3's build dir,
# given the target's config when it has none (log $2); fails when the
# config does not apply. Marked used (prune.sh).
wcheck_ready()
{
	local -n __wr_ref=$1; shift
	local log=$1; shift
	local -A tg

	target_get tg "$1"
	wcheck_dir __wr_ref "${tg[out]}"
	touch_used "$__wr_ref"
	tg[out]=$__wr_ref
	build_config "$log" tg
}

# wcheck_make(): kmake of the worktree as it is into W=1 dir $2, with
# target $1's own command line, W=1 and C=2, logged into $3; the make
# arguments follow.
wcheck_make()
{
	local -A tg
	local -a argv

	target_get tg "$1"
	tg[out]=$2
	kmake_argv argv tg
	run_logged "$3" "${argv[@]}" W=1 C=2 "${@:4}"
}

# wcheck_objects(): print the objects to check for commit $1 against
# parent $2 (built files only, per the target's build dir $3), and on
# fd 3 what is not checked and why. The worktree is at $1.
wcheck_objects()
{
	local sha=$1; shift
	local parent=$1; shift
	local out=$1; shift
	local f inc n=0
	# shellcheck disable=SC2034  # wcheck_built's, by name
	local -A seen=()
	local -a files=() users=()

	# What the commit deletes has nothing to compile at the commit.
	mapfile -t files < <(git --git-dir="$KREPO" diff --name-only --diff-filter=d \
		"$parent" "$sha" -- '*.[ch]')
	for f in "${files[@]}"; do
		case $f in
		*.c)
			wcheck_built "$f" seen "$out" || echo "$f: not built by the series' config" >&3
			;;
		*.h)
			if [[ "$f" == include/* ]]; then
				inc="#include <${f#include/}>"
			else
				inc="#include \"${f##*/}\""
			fi
			# The worktree is at the commit (wcheck_run).
			mapfile -t users < <(git_k grep -l -F "$inc" -- '*.c')
			n=0
			for inc in "${users[@]}"; do
				((n < WCHECK_MAX_INCLUDERS)) || break
				wcheck_built "$inc" seen "$out" && n=$((n + 1))
			done
			((n)) || echo "$f: no built .c file includes it" >&3
			;;
		esac
	done
}

# wcheck_built(): print object of C file $1 when the build in dir $3
# compiles it (and assoc array $2 has not seen it); fails if not.
wcheck_built()
{
	local f=$1; shift
	local -n __wb_seen=$1; shift
	local out=$1; shift
	local o=${f%.c}.o

	[[ -f "$out/${o%/*}/.${o##*/}.cmd" ]] || return 1
	[[ -n "${__wb_seen[$o]:-}" ]] && return 0
	__wb_seen["$o"]=1
	echo "$o"
}

# wcheck_compile(): compile objects $5... of the worktree as it is into
# target $1's W=1 dir $2, from scratch, with W=1 and C=2; findings into
# $3.gcc.tsv and $3.sparse.tsv, the output into $3.txt; log $4. Fails
# when an object was not made and no error says why.
wcheck_compile()
{
	local t=$1; shift
	local wdir=$1; shift
	local side=$1; shift
	local log=$1; shift
	local o missing=0

	for o in "$@"; do
		rm -f "$wdir/$o" "$wdir/${o%/*}/.${o##*/}.cmd"
	done
	wcheck_make "$t" "$wdir" "$side.txt" --output-sync=target "$@"
	cat "$side.txt" >> "$log"
	# gcc's lines and kernel-doc's before kbuild's "CHECK" line, sparse's
	# after it, until the next kbuild line.
	awk -v g="$side.gcc.txt" -v s="$side.sparse.txt" '
		/^  CHECK / { to = s; next }
		/^  [A-Z][A-Z0-9_]* / { to = g }
		{ print > (to ? to : g) }
		END { printf "" > g; printf "" > s }' "$side.txt"
	"$TOP/tools/bin/findings" parse --tool gcc --strip "$WT/" --strip "$wdir/" \
		"$side.gcc.txt" > "$side.gcc.tsv" || return 1
	"$TOP/tools/bin/findings" parse --tool sparse --strip "$WT/" --strip "$wdir/" \
		"$side.sparse.txt" > "$side.sparse.tsv" || return 1
	for o in "$@"; do
		[[ -f "$wdir/$o" ]] || missing=1
	done
	((missing == 0)) || grep -q $'\terror\t' "$side.gcc.tsv"
}

# wcheck_in_tree(): print the objects $2... whose .c file commit $1 has.
wcheck_in_tree()
{
	local sha=$1; shift
	local -a srcs=()
	local -A have=()
	local o f

	for o in "$@"; do
		srcs+=("${o%.o}.c")
	done
	while IFS= read -r f; do
		have[$f]=1
	done < <(git --git-dir="$KREPO" ls-tree -r --name-only "$sha" -- "${srcs[@]}")
	for o in "$@"; do
		[[ -n "${have[${o%.o}.c]:-}" ]] && echo "$o"
	done
}

# wcheck_plan(): for commit $4 against parent $5, arrays $1 = the objects
# to check (wcheck_objects of build dir $8; what is not checked, and
# why, to file $7),
# $2 = those the parent has (it may lack a file the commit adds), and
# variable $3 = where the parent's side of them is kept: under side base
# $6 (what else decides a compile: the caller's key of config, toolchain
# and this code), then the parent's tree and the objects; empty when the
# parent has none of them.
wcheck_plan()
{
	local -n __wp_objs=$1; shift
	local -n __wp_pobjs=$1; shift
	local -n __wp_side=$1; shift
	local sha=$1; shift
	local parent=$1; shift
	local sidebase=$1; shift
	local skipped=$1; shift
	local out=$1; shift
	local __wp_key

	__wp_side=
	__wp_pobjs=()
	mapfile -t __wp_objs < <(wcheck_objects "$sha" "$parent" "$out" 3> "$skipped")
	((${#__wp_objs[@]})) || return 0
	mapfile -t __wp_pobjs < <(wcheck_in_tree "$parent" "${__wp_objs[@]}")
	((${#__wp_pobjs[@]})) || return 0
	hash_to __wp_key "$(git --git-dir="$KREPO" rev-parse "$parent^{tree}")" "${__wp_pobjs[@]}"
	__wp_side=$sidebase-$__wp_key
}

# wcheck_side_keep(): keep the parent.* files of dir $1 as side $2.
wcheck_side_keep()
{
	local from=$1; shift
	local side=$1; shift

	rm -rf "$side" "$side.tmp.$$"
	if ! { mkdir -p "$side.tmp.$$" && cp "$from"/parent.* "$side.tmp.$$/" &&
	       : > "$side.tmp.$$/done" && mv "$side.tmp.$$" "$side"; }; then
		rm -rf "$side.tmp.$$"
	fi
	return 0
}

# wcheck_run(): on target $1, the artifact $2 for commit $3 (parent $4): both sides
# compiled, their findings, objects.txt (what was checked) and
# skipped.txt (what was not, and why); log $5. The worktree is at $3 and
# stays there. The parent's side is kept on its own (wcheck_plan, side
# base $6): an edited commit has the same parent and objects as before,
# and its rerun compiles only its own side (FORCE=1 compiles both). With
# $7 = early, beside a build of the worktree: the parent's side must be
# kept already (no checkout), else it fails, having done nothing.
wcheck_run()
{
	local t=$1; shift
	local art=$1; shift
	local sha=$1; shift
	local parent=$1; shift
	local log=$1; shift
	local sidebase=$1; shift
	local early=${1:-}
	local tmp=$art.tmp.$$ wdir f ok=1 side='' moved=0
	local -a objs=() pobjs=() changed=() mtimes=()
	local -A tg

	target_get tg "$t"
	rm -rf "$tmp"
	mkdir -p "$tmp" || return 1
	wcheck_plan objs pobjs side "$sha" "$parent" "$sidebase" "$tmp/skipped.txt" "${tg[out]}"
	printf '%s\n' "${objs[@]}" > "$tmp/objects.txt"
	if [[ "$early" == early && -n "$side" && ! -f "$side/done" ]]; then
		rm -rf "$tmp"
		return 1
	fi
	if ((${#objs[@]} == 0)); then
		: > "$tmp/objects.txt"
		mv "$tmp" "$art"
		return 0
	fi
	if ! wcheck_ready wdir "$log" "$t"; then
		echo "the series' config does not apply in $wdir" >> "$log"
		rm -rf "$tmp"
		return 1
	fi
	echo "W=1 dir $wdir: ${objs[*]}" >> "$log"
	if ((${#pobjs[@]} == 0)); then
		: > "$tmp/parent.gcc.tsv"
		: > "$tmp/parent.sparse.tsv"
	elif [[ "${FORCE:-0}" != 1 && -f "$side/done" ]]; then
		echo "the parent's side, ${pobjs[*]}: from $side" >> "$log"
		cp "$side"/parent.* "$tmp/" || ok=0
		touch_used "$side"
		side=
	else
		mapfile -t changed < <(git_k diff --name-only "$parent" "$sha")
		for f in "${changed[@]}"; do
			mtimes+=("$(stat -c %.9Y "$WT/$f" 2> /dev/null || echo -)")
		done
		moved=1
		git_k checkout -q --detach "$parent" || ok=0
		((ok)) && { wcheck_compile "$t" "$wdir" "$tmp/parent" "$log" "${pobjs[@]}" || ok=0; }
	fi
	if ((moved)); then
		git_k checkout -q --detach "$sha" || die "cannot check out $sha in $WT"
	fi
	((ok)) && { wcheck_compile "$t" "$wdir" "$tmp/child" "$log" "${objs[@]}" || ok=0; }
	for ((f = 0; f < ${#changed[@]}; f++)); do
		[[ "${mtimes[f]}" == - ]] || touch -c -d "@${mtimes[f]}" "$WT/${changed[f]}"
	done
	if ((!ok)); then
		rm -rf "$tmp"
		return 1
	fi
	[[ -z "$side" ]] || wcheck_side_keep "$tmp" "$side"
	rm -rf "$art"
	mv "$tmp" "$art"
}

# wcheck_preside(): on target $1, the parent's side of commit $3 made
# ahead, with the worktree at its parent $2 (the step before, beside that
# step's build): kept as wcheck_run keeps it (side base $5), so that the
# commit's own check compiles its side alone, beside its build. Log $4.
wcheck_preside()
{
	local t=$1; shift
	local parent=$1; shift
	local sha=$1; shift
	local log=$1; shift
	local sidebase=$1; shift
	local side tmp wdir
	local -a objs=() pobjs=()
	local -A tg

	target_get tg "$t"
	wcheck_plan objs pobjs side "$sha" "$parent" "$sidebase" /dev/null "${tg[out]}"
	[[ -z "$side" || -f "$side/done" ]] && return 0
	wcheck_ready wdir "$log" "$t" || return 1
	# Named as prune.sh's pattern of what a killed run left.
	tmp=$side.tmp.pre.$$
	rm -rf "$tmp"
	mkdir -p "$tmp" || return 1
	echo "the next commit's parent side, ${pobjs[*]}, made ahead: $side" >> "$log"
	if wcheck_compile "$t" "$wdir" "$tmp/parent" "$log" "${pobjs[@]}"; then
		wcheck_side_keep "$tmp" "$side"
	fi
	rm -rf "$tmp"
}

# wcheck_plain(): whether tree-ish $2 against $1 only modifies files,
# none that decides what is built (a Makefile, Kbuild or Kconfig file,
# scripts/).
wcheck_plain()
{
	local from=$1; shift
	local to=$1; shift
	local st f

	while IFS=$'\t' read -r st f; do
		[[ "$st" == M ]] || return 1
		case ${f##*/} in
		Makefile* | Kbuild* | Kconfig* | *.mk) return 1 ;;
		esac
		[[ "$f" == scripts/* ]] && return 1
	done < <(git --git-dir="$KREPO" diff --no-renames --name-status "$from" "$to")
	return 0
}

# wcheck_known_early(): whether the objects the W=1 check of commit $1
# compiles (wcheck_objects: the touched files its build compiles) are
# known before the commit's build: they are what the target's build dir
# $2 has built, when it last built one tree alone and that tree differs
# from the commit in nothing that decides what is built.
wcheck_known_early()
{
	local sha=$1; shift
	local out=$1; shift
	local trees

	text_of trees "$out/.bisect-trees" || return 1
	[[ -n "$trees" && "$trees" != *$'\n'* ]] && wcheck_plain "$trees" "$sha"
}

# wcheck_not_built(): print the findings of parse output $1 that the
# target's build of the step (its warnings, file $2, as build_warnings
# writes them) did not print: those it did, its build cell judges; on
# fd 3, the others, as their raw lines.
wcheck_not_built()
{
	awk -F'\t' '
		FILENAME == ARGV[1] {
			gsub(/\342\200\230|\342\200\231/, "\047")
			i = index($0, ": warning: ")
			if (i) seen[substr($0, 1, i - 1) "\t" substr($0, i + 11)] = 1
			next
		}
		{
			m = $3
			sub(/^In function [^:]*: /, "", m)
			if ((($1 "\t" m " [" $2 "]") in seen)) print $4 > "/dev/fd/3"
			else print
		}' "$2" "$1"
}

# stage_wcheck(): the w1 or sparse cell ($4) of step $7 (commit $6,
# parent $8) on target $5; the artifact dir $9; accepted findings in
# file ${10}, the series file ${11}; the warnings of the target's build
# of the step in ${12}; ${13}, where wcheck_run keeps the parent's side.
# Args: REC LOG DETAIL CHECK TARGET SHA IDX PARENT ART ACCEPT SERIES BUILD_WARN SIDEBASE
stage_wcheck()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local check=$1; shift
	local t=$1; shift
	local sha=$1; shift
	local idx=$1; shift
	local parent=$1; shift
	local art=$1; shift
	local accept=$1; shift
	local series=$1; shift
	local build_warn=$1; shift
	local sidebase=$1; shift
	local tool=gcc n what child

	[[ "$check" == sparse ]] && tool=sparse
	# What ran beside the step's build (bisect-check, checks_beside).
	[[ "$check" == w1 && -f "${log%.log}-beside.log" ]] && cat "${log%.log}-beside.log" >> "$log"
	# Without the artifact, the caller put the worktree at the commit.
	if [[ ! -f "$art/objects.txt" ]] &&
	   ! wcheck_run "$t" "$art" "$sha" "$parent" "$log" "$sidebase"; then
		result "$rec" FAIL "the W=1 compile did not run (see the log)"
		result_nocache "$rec"
		return
	fi
	[[ -s "$art/skipped.txt" ]] && sed 's/^/not checked: /' "$art/skipped.txt" >> "$detail"
	n=$(grep -c . "$art/objects.txt")
	if ((n == 0)); then
		result "$rec" ok "no object to check$([[ -s "$art/skipped.txt" ]] && echo ' (see the details)')"
		return
	fi
	what="$n object(s), $t"
	cat "$art/child.$tool.txt" >> "$log"
	child=$art/child.$tool.tsv
	if [[ "$tool" == gcc && -f "$build_warn" ]]; then
		# What the build warns of too is the build cell's to judge.
		child=${log%.log}.child.tsv
		wcheck_not_built "$art/child.gcc.tsv" "$build_warn" > "$child" 3> "$child.built"
		[[ -s "$child.built" ]] &&
			sed 's/^/also a warning of the build (its cell judges it): /' "$child.built" \
				>> "$detail"
	fi
	findings_judge "$rec" "$log" "$detail" "$check" "$art/parent.$tool.tsv" \
		"$child" "$accept" "$series" "$idx" "$what"
}
