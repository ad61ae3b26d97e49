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
# Sourced by tools/bisect-check; expects lib.sh, cell.sh, apply.sh,
# build.sh and wcheck.sh.

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

# exports_compile(): compile object $2 in W=1 dir $1 (the worktree as it
# is), from scratch: that dir sees many trees (the steps, their parents)
# and the mtimes of their files say nothing about which one an object
# there was made from; log $3. Without sparse: only the object's symbols
# count here (C=0 after wcheck_make's C=2: make takes the last one).
# Fails when it does not compile.
exports_compile()
{
	local wdir=$1; shift
	local obj=$1; shift
	local log=$1; shift

	rm -f "$wdir/$obj" "$wdir/${obj%/*}/.${obj##*/}.cmd"
	wcheck_make "$wdir" "$log" C=0 "$obj" && [[ -f "$wdir/$obj" ]]
}

# stage_exports(): the exports cell of commit $4 (parent $5) on the
# current target, the worktree at the commit (at_step).
# Args: REC LOG DETAIL SHA PARENT
stage_exports()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local sha=$1; shift
	local parent=$1; shift
	local sym from f verdict why wdir='' obj n_sym=0 n_cand=0 n_user=0 users=''
	local -a cands=()

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
		if [[ -z "$wdir" ]] && ! wcheck_ready wdir "$log"; then
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
			if exports_compile "$wdir" "$obj" "$log"; then
				if ! nm -u "$wdir/$obj" | awk '{ print $2 }' | grep -q -x -F -e "$sym"; then
					echo "$sym in $f: can be a module ($why), but its object does not use $sym" >> "$detail"
					continue
				fi
				why="its object uses $sym; $why"
			else
				why="does not compile for $TGT (see the log), and its source names $sym; $why"
			fi
			n_user=$((n_user + 1))
			users+=" $f"
			echo "modular user of $sym: $f: $why" >> "$detail"
		done < "$log.modusers"
	done < <(exports_removed "$parent" "$sha")

	if ((n_sym == 0)); then
		result "$rec" ok "no export removed"
	elif ((n_user)); then
		echo "next: keep the export(s), or change the modular users first:$users" >> "$detail"
		result "$rec" FAIL "$n_user modular user(s) of $n_sym removed export(s):$users"
	else
		result "$rec" ok "$n_sym removed export(s): no modular in-tree user ($n_cand file(s) checked)"
	fi
}
