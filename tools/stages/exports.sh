#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exports.sh - the exports stage: for every EXPORT_SYMBOL* a series commit
# removes (and does not add back elsewhere), no in-tree code that kbuild
# can build as a module still uses the symbol. Not a grep verdict:
#
#   1. the C files that name the symbol (git grep -w in the worktree,
#      at the commit),
#      but the one that exported it, are the candidates;
#   2. tools/bin/modusers says from the tree's Kbuild makefiles and
#      Kconfig whether each can be built into a module (obj-m, or
#      obj-$(CONFIG_X) with X tristate, directly or as part of a
#      composite object); built-in-only code keeps the symbol, as
#      exports only matter to modules;
#   3. each modular candidate is compiled (single object, kbuild's own
#      command line) in the first target's W=1 dir (wcheck.sh), and its
#      object must have the symbol undefined (nm -u): a local variable
#      or a string of the same name is no use. A candidate that does
#      not compile for that target (another arch's file) is judged by
#      its source and says so.
#
# No work twice: the cell is keyed by what the commit removes (each
# symbol and its file), the config and toolchain (target_get's cfgid)
# and the code that judges, not by the tree (exports_plan). The cell records the
# trees it judged (out tree, out parent-tree) and the paths of the tree
# it read, its evidence logs/N-exports.reads: the candidates and, for
# each object it compiled, what kbuild's records in the W=1 dir say the
# object was made from, the generated headers' inputs included
# (tools/bin/kdeps). A later tree that changed none of those, no build
# input no record names (exports_build_input: Makefiles, Kbuild and
# Kconfig files, which modusers and the config read, scripts/, the
# generated headers' tables) and no C file into a new candidate gets
# the cached answer, by git alone (exports_valid, exports_holds): a
# maintainer's edit of a comment is no new compile.
#
# Sourced by tools/bisect-check; expects lib.sh, cell.sh, worktree.sh,
# build.sh and wcheck.sh.

# The most paths two trees may differ in for a cached cell to be judged
# at all: more is another base, and a command line too long for git grep.
EXPORTS_MAX_CHANGED=${EXPORTS_MAX_CHANGED:-2000}

# exports_removed(): print "symbol<TAB>file" for each export that commit
# $2 removes from its parent $1 and does not add anywhere.
exports_removed()
{
	git --git-dir="$KREPO" diff -U0 "$1" "$2" -- '*.c' '*.h' | awk '
		/^--- / { file = substr($2, 3); next }
		/^\+\+\+ / { next }
		/^[-+][ \t]*EXPORT_SYMBOL[A-Z_]*\(/ {
			s = $0; sub(/^[-+][ \t]*EXPORT_SYMBOL[A-Z_]*\([ \t]*/, "", s)
			sub(/[^A-Za-z0-9_].*/, "", s)
			if (substr($0, 1, 1) == "-") gone[s] = file
			else added[s] = 1
		}
		END { for (s in gone) if (!(s in added)) print s "\t" gone[s] }' | sort
}

# exports_compile(): compile object $3 in target $1's W=1 dir $2 (the
# worktree as it is), from scratch: that dir sees many trees (the steps,
# their parents) and the mtimes of their files say nothing about which
# one an object there was made from; log $4. Without sparse: only the
# object's symbols count here (C=0 after wcheck_make's C=2: make takes
# the last one). Fails when it does not compile.
exports_compile()
{
	local t=$1; shift
	local wdir=$1; shift
	local obj=$1; shift
	local log=$1; shift

	rm -f "$wdir/$obj" "$wdir/${obj%/*}/.${obj##*/}.cmd"
	wcheck_make "$t" "$wdir" "$log" C=0 "$obj" && [[ -f "$wdir/$obj" ]]
}

# exports_reads(): file $1 = the paths of the tree the cell read: the
# candidates $5... and what tools/bin/kdeps finds in the records of the
# objects of array $3, compiled in W=1 dir $2 (its complaints into log
# $4); sorted, once each. "*" among them when what an object read is not
# known (no record of it).
exports_reads()
{
	local file=$1; shift
	local wdir=$1; shift
	local -n __er_objs=$1; shift
	local log=$1; shift

	{
		printf '%s\n' "$@"
		if ((${#__er_objs[@]})) &&
		   ! "$TOP/tools/bin/kdeps" --objtree "$wdir" --srctree "$WT" --offsets \
			"${__er_objs[@]}" 2>> "$log"; then
			echo '*'
		fi
	} > "$file.tmp" || return 1
	sort -u "$file.tmp" > "$file" && rm -f "$file.tmp"
}

# stage_exports(): the exports cell of commit $5 (parent $6) on target
# $4, the worktree at the commit (at_step): of the exports $7 it removes
# (exports_removed's lines). Records the trees it judged, the commit's
# $8 and its parent's $9, and what it read (exports_reads, beside its
# log), for exports_valid.
# Args: REC LOG DETAIL TARGET SHA PARENT REMOVED TREE PTREE
stage_exports()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local t=$1; shift
	local sha=$1; shift
	local parent=$1; shift
	local removed=$1; shift
	local tree=$1; shift
	local ptree=$1; shift
	local sym from f verdict why wdir='' obj n_sym=0 n_cand=0 n_user=0 users=''
	local reads=${log%.log}.reads
	local -a cands=() looked=() objs=()

	while IFS=$'\t' read -r sym from; do
		[[ -n "$sym" ]] || continue
		n_sym=$((n_sym + 1))
		# In the worktree, at the commit: git grep of a commit
		# inflates every blob (2.5 s a symbol), of the files 0.25 s.
		mapfile -t cands < <(git_k grep -l -w -e "$sym" -- '*.c' |
			grep -v -x -F -e "$from")
		echo "removed: $sym (from $from); named in ${#cands[@]} other C file(s)" >> "$log"
		((${#cands[@]})) || {
			echo "$sym: no other C file names it" >> "$detail"
			continue
		}
		looked+=("${cands[@]}")
		if [[ -z "$wdir" ]] && ! wcheck_ready wdir "$log" "$t"; then
			result "$rec" FAIL "the series' config does not apply in $wdir (see the log)"
			result_nocache "$rec"
			return
		fi
		if ! "$TOP/tools/bin/modusers" --tree "$WT" "${cands[@]}" > "$log.modusers" 2>> "$log"; then
			result "$rec" FAIL "tools/bin/modusers could not read the tree's Kbuild files (see the log)"
			result_nocache "$rec"
			return
		fi
		cat "$log.modusers" >> "$log"
		while IFS=$'\t' read -r f verdict _ why; do
			n_cand=$((n_cand + 1))
			case $verdict in
			module|unknown) ;;
			*)
				echo "$sym in $f: not modular ($verdict: $why)" >> "$detail"
				continue
				;;
			esac
			obj=${f%.c}.o
			if exports_compile "$t" "$wdir" "$obj" "$log"; then
				objs+=("$obj")
				if ! nm -u "$wdir/$obj" | awk '{ print $2 }' | grep -q -x -F -e "$sym"; then
					echo "$sym in $f: can be a module ($why), but its object does not use $sym" >> "$detail"
					continue
				fi
				why="its object uses $sym; $why"
			else
				# What it would read, compiled, is not known: any
				# other tree asks again.
				looked+=('*')
				why="does not compile for $t (see the log), and its source names $sym; $why"
			fi
			n_user=$((n_user + 1))
			users+=" $f"
			echo "modular user of $sym: $f: $why" >> "$detail"
		done < "$log.modusers"
	done <<< "$removed"

	if ! exports_reads "$reads" "$wdir" objs "$log" "${looked[@]}"; then
		result "$rec" FAIL "cannot write $reads: check space and permissions of the run dir"
		result_nocache "$rec"
		return
	fi
	if ((n_sym == 0)); then
		result "$rec" ok "no export removed"
	elif ((n_user)); then
		echo "next: keep the export(s), or change the modular users first:$users" >> "$detail"
		result "$rec" FAIL "$n_user modular user(s) of $n_sym removed export(s):$users"
	else
		result "$rec" ok "$n_sym removed export(s): no modular in-tree user ($n_cand file(s) checked)"
	fi
	result_out "$rec" tree "$tree"
	result_out "$rec" parent-tree "$ptree"
}

# exports_plan(): variable $1 = the key of the exports cell of step $4
# (commit $6, parent $5, their trees $8 and $7) on a target of config
# and toolchain $3 (target_get's cfgid), and associative array $2 (the
# caller's) = what its validator (exports_valid) and stage_exports are
# given: [idx], [removed] (exports_removed's lines), [tree], [ptree].
# With exports removed, the key is what they are, the config and
# toolchain, the tools and
# the code that judge, not the trees: the validator compares those with
# what the cached cell read. Without, the trees too: such a cell reads
# the diff alone, and a hit says the step is the cache's. The series
# file is no input (robot_tools_id, not ROBOT_ID): an edited series is
# often another file.
exports_plan()
{
	local -n __ep_key=$1; shift
	local -n __ep_plan=$1; shift
	local cfgid=$1; shift
	local idx=$1; shift
	local parent=$1; shift
	local sha=$1; shift
	local ptree=$1; shift
	local tree=$1; shift
	local m w gv rt removed=
	local -a words=()

	# What decides the cell besides the exports and the config, and
	# the memo of the exports, asked once a run.
	if [[ -z "${EXPORTS_CODE_ID:-}" ]]; then
		hash_files_to EXPORTS_CODE_ID "$TOP/tools/stages/exports.sh" \
			"$TOP/tools/src/kdeps.c" "$TOP/tools/src/util.h"
		wcheck_code w
		hash_to EXPORTS_CODE_ID "$EXPORTS_CODE_ID" "$w"
		tool_version_once gv git
		hash_files_to EXPORTS_MEMO_ID "$TOP/tools/stages/exports.sh"
		hash_to EXPORTS_MEMO_ID "$EXPORTS_MEMO_ID" "$gv"
	fi
	# A fact of two commits (a warm rerun forks nothing for it): kept
	# as "symbol=file" words, files having no blank (exports_removed).
	if ! memo_get m exports-removed "$parent $sha $EXPORTS_MEMO_ID"; then
		# Kept only when git could tell.
		if removed=$(set -o pipefail; exports_removed "$parent" "$sha"); then
			m=${removed//$'\t'/=}
			memo_put exports-removed "$parent $sha $EXPORTS_MEMO_ID" "${m//$'\n'/ }"
		fi
	else
		read -r -a words <<< "$m"
		for w in "${words[@]}"; do
			removed+=${removed:+$'\n'}${w%%=*}$'\t'${w#*=}
		done
	fi
	__ep_plan=(["idx"]=$idx ["removed"]=$removed ["tree"]=$tree ["ptree"]=$ptree)
	robot_tools_id rt
	if [[ -n "$removed" ]]; then
		hash_to __ep_key removes "$removed" "$cfgid" "$rt" \
			"$EXPORTS_CODE_ID"
	else
		hash_to __ep_key none "$ptree" "$tree" "$cfgid" "$rt" \
			"$EXPORTS_CODE_ID"
	fi
}

# exports_build_input(): whether path $1 of the tree decides what the
# exports cell read and no record kdeps reads names it: scripts/
# (kbuild's makefiles, fixdep, the compiler plugins); a Makefile,
# Kbuild or Kconfig file anywhere (modusers' verdicts, and whether a
# dir has a Kbuild file at all; the command lines; the config, whose
# autoconf.h every object reads); any other file that is no C source
# or header (a defconfig, the .bc and the tables generated headers come
# from), but the documentation's text and the like.
exports_build_input()
{
	local p=$1; shift

	case $p in
	scripts/*) return 0 ;;
	esac
	case ${p##*/} in
	Kconfig* | Makefile* | Kbuild*) return 0 ;;
	*.c | *.h) return 1 ;;
	esac
	case $p in
	Documentation/* | LICENSES/* | MAINTAINERS | CREDITS | README | COPYING | .mailmap | \
	.gitignore | */.gitignore)
		return 1
		;;
	esac
	return 0
}

# exports_holds(): whether the exports cell made on tree $3, which read
# the paths listed in file $4 ("*" among them: any path), holds for tree
# $5, where the exports $2 ("symbol<TAB>file" lines) are removed too;
# variable $1 = why, either way. It holds when of the paths the trees
# differ in none was read, none is a build input (exports_build_input),
# none was added that may stand for one read (a header: it may shadow
# one, or answer a __has_include; another file of a name read), and no
# C file but a symbol's own exporter names the symbol as a word at $5
# (a new candidate). Git alone: no worktree.
exports_holds()
{
	local -n __eh_why=$1; shift
	local removed=$1; shift
	local old=$1; shift
	local reads=$1; shift
	local new=$1; shift
	local st p sym from n=0 rc
	local -A was_read=() name_read=()
	local -a cs=() paths=()

	if [[ ! -r "$reads" ]]; then
		__eh_why="its list of the files it read is missing"
		return 1
	fi
	while IFS= read -r p; do
		[[ -n "$p" ]] || continue
		was_read[$p]=1
		name_read[${p##*/}]=1
	done < "$reads"
	while IFS= read -r -d '' st && IFS= read -r -d '' p; do
		n=$((n + 1))
		if [[ "$st" == '?' ]]; then
			__eh_why="git cannot compare the trees"
			return 1
		elif ((n > EXPORTS_MAX_CHANGED)); then
			__eh_why="more than $EXPORTS_MAX_CHANGED paths changed"
			return 1
		elif [[ -n "${was_read['*']:-}" ]]; then
			__eh_why="$p changed, and what a candidate that did not compile reads is not known"
			return 1
		elif [[ -n "${was_read[$p]:-}" ]]; then
			__eh_why="$p, which it read, changed"
			return 1
		elif exports_build_input "$p"; then
			__eh_why="$p, a build input, changed"
			return 1
		elif [[ "$st" == A && ( "$p" == *.h || -n "${name_read[${p##*/}]:-}" ) ]]; then
			__eh_why="$p was added: it may stand for a file it read"
			return 1
		fi
		[[ "$p" == *.c && "$st" != D ]] && cs+=("$p")
	done < <(git --git-dir="$KREPO" diff-tree -r -z --no-renames --name-status "$old" "$new" ||
		printf '?\0-\0')
	while IFS=$'\t' read -r sym from; do
		[[ -n "$sym" ]] || continue
		paths=()
		for p in "${cs[@]}"; do
			[[ "$p" == "$from" ]] || paths+=("$p")
		done
		((${#paths[@]})) || continue
		git --git-dir="$KREPO" --literal-pathspecs grep -q -w -e "$sym" "$new" -- \
			"${paths[@]}"
		rc=$?
		if ((rc == 0)); then
			__eh_why="a changed C file names $sym now"
			return 1
		elif ((rc != 1)); then
			__eh_why="git grep failed on tree $new"
			return 1
		fi
	done <<< "$removed"
	__eh_why="$n path(s) changed, none of the ${#was_read[@]} it read, no build input, no new candidate"
	return 0
}

# exports_valid(): the validator of a cached exports cell (cell_lookup;
# its record $2, its evidence beside) for the step exports_plan planned
# into associative array $1: it holds for the same trees, and otherwise
# as exports_holds says, which the progress line and the record (out
# reused) tell.
# shellcheck disable=SC2317  # called through cell_lookup
exports_valid()
{
	local -n __ev_plan=$1; shift
	local rec=$1; shift
	local id why reads made tree step label
	local -A r

	rec_read r "$rec"
	tree=${__ev_plan[tree]} step=${__ev_plan[idx]}
	series_label label "$step"
	made=${r[out tree]:-}
	id=${rec##*/}
	id=${id%.tsv}
	reads=${rec%/results/*}/logs/$id.reads
	[[ -n "$made" ]] || return 1
	[[ "$made" == "$tree" &&
	   "${r[out parent-tree]:-}" == "${__ev_plan[ptree]}" ]] && return 0
	if [[ -z "${__ev_plan[removed]}" ]]; then
		why="no export removed"
	elif ! exports_holds why "${__ev_plan[removed]}" "$made" "$reads" "$tree"; then
		# Said once: cell_run asks again, then runs the cell.
		if [[ "${EXPORTS_STALE:-}" != "$tree $made" ]]; then
			EXPORTS_STALE="$tree $made"
			progress "$label exports: the cached cell of tree ${made:0:12} does not hold: $why"
		fi
		return 1
	fi
	result_out "$rec" reused "made on tree $made: $why"
	progress "$label exports: the cached cell of tree ${made:0:12} holds: $why"
}
