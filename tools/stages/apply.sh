#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apply.sh - stage 2: make the throwaway worktree and apply the preparation
# and the series with `git am`, keeping each patch's authorship.
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh and
# cell.sh.

# A fixed old mtime for every file of a fresh worktree; files that differ
# from what the build dir last saw are touched again before building.
readonly WT_EPOCH=946684800

# git_k(): git on the throwaway worktree, never the user's config hooks.
git_k()
{
	git -C "$WT" -c core.hooksPath=/dev/null -c advice.detachedHead=false "$@"
}

# worktree_remove(): end of the run (registered with defer): keep the
# worktree as the kept worktree when git finds it clean, else remove it.
worktree_remove()
{
	if [[ "${KEEP:-0}" == 1 && -d "$WT" ]]; then
		msg "KEEP=1: the worktree stays at $WT"
		return 0
	fi
	[[ -d "$WT" ]] && worktree_keep "${WT_LOG:-/dev/null}" && return 0
	# Interrupted, with the worktree on disk: one rename now, the next
	# run deletes it (on tmpfs, deleting takes a second and frees RAM).
	if interrupted && [[ -d "$WT" ]] &&
	   [[ "$(dirname "$WT")" -ef "$WORKDIR" ]] &&
	   mv "$WT" "$WT.trash.$$" 2>/dev/null; then
		git --git-dir="$KREPO" worktree prune >/dev/null 2>&1
		return 0
	fi
	worktree_drop "$KREPO" "$WT"
	wt_root_drop "$WT" "$WORKDIR"
}

# ensure_worktree(): make the worktree on first use (cached runs may need
# none at all).
ensure_worktree()
{
	[[ -n "${WT_READY:-}" ]] && return 0
	progress "worktree: $WT"
	stage_worktree "$BASE_COMMIT" "$RUNDIR/logs/worktree.log" ||
		die "cannot create the worktree (see $RUNDIR/logs/worktree.log)"
	WT_READY=1
}

# worktree_clear(): free $WT for a new worktree and register its removal.
worktree_clear()
{
	local log=$1; shift

	WT_LOG=$log
	# We hold the WORKDIR lock: anything at $WT is what a killed run or
	# KEEP=1 left, $WT.trash.* what an interrupted one did. Clean to git,
	# it becomes the kept worktree.
	rm -rf "$WT".trash.*
	# The hard-link base copy of earlier versions (1.3 GB of tmpfs).
	rm -rf "$WT-base.commit" "$WT-base" "$WT-base.index"
	if [[ -e "$WT" ]]; then
		echo "a worktree is left at $WT" >> "$log"
		worktree_keep "$log" || worktree_drop "$KREPO" "$WT"
	fi
	wt_root_make "$WT" || return "$EXIT_SETUP"
	defer worktree_remove
}

# worktree_place(): right after an import, move the unpacked tree (old
# mtimes) to $WT, where it is hashed (import_hash) and may be built from
# meanwhile; stage_worktree makes it a git worktree once the commit exists.
worktree_place()
{
	local log=$1; shift

	worktree_clear "$log" || return "$EXIT_SETUP"
	mv "$IMPORT_TREE" "$WT" || return "$EXIT_SETUP"
	echo "moved the unpacked import to $WT" >> "$log"
	IMPORT_TREE=$WT
	WT_PLACED=1
}

# stage_worktree(): make the run's worktree at $WT: the kept worktree,
# moved there, at whatever commit the last run left it (a second at most,
# no file written), else checked out on commit $1 (5 to 20 s, the objects
# read from disk). The stages check out the commits they need.
stage_worktree()
{
	local base=$1; shift
	local log=$1; shift

	if [[ -n "${WT_PLACED:-}" ]]; then
		worktree_adopt "$base" "$log" "$IMPORT_INDEX" || return
		WT_PLACED=
		IMPORT_TREE=
		return 0
	fi
	worktree_clear "$log" || return "$EXIT_SETUP"
	[[ "$(git --git-dir="$KREPO" config --get core.trustctime)" == false ]] ||
		git --git-dir="$KREPO" config core.trustctime false ||
		return "$EXIT_SETUP"
	kept_take "$log" && return 0
	# Parallel checkout: writing 80000 files is mostly system time.
	run_logged "$log" git --git-dir="$KREPO" -c checkout.workers="$JOBS" \
		worktree add -f --detach "$WT" "$base" ||
		return "$EXIT_SETUP"
	# Same old mtime everywhere: the build dir decides what is new. The
	# index then takes the new stat data (git hashes every file again,
	# 5 s): else the first look at every file does that, at the run's end.
	(cd "$WT" && git ls-files -z | xargs -0 touch -h -m -d "@$WT_EPOCH") ||
		return "$EXIT_SETUP"
	git_k -c core.trustctime=false update-index -q --refresh >> "$log" 2>&1
	return 0
}

# wt_index(): print the path of the worktree's index.
wt_index()
{
	local index

	index=$(git -C "$WT" rev-parse --git-path index) || return 1
	[[ "$index" == /* ]] || index=$WT/$index
	echo "$index"
}

# worktree_adopt(): make the files at $WT, those of commit $1 and already
# hashed into index $3 (an unpacked import, or the kept worktree's),
# the worktree on that commit instead of checking them out again.
worktree_adopt()
{
	local base=$1; shift
	local log=$1; shift
	local from=$1; shift
	local reg=$WT.reg index

	rm -rf "$reg"
	run_logged "$log" git --git-dir="$KREPO" worktree add -f --no-checkout \
		--detach "$reg" "$base" || return "$EXIT_SETUP"
	mv "$reg/.git" "$WT/.git" && rmdir "$reg" || return "$EXIT_SETUP"
	run_logged "$log" git --git-dir="$KREPO" worktree repair "$WT" ||
		return "$EXIT_SETUP"
	index=$(wt_index) || return "$EXIT_SETUP"
	cp "$from" "$index" || return "$EXIT_SETUP"
	echo "adopted the files at $WT as the worktree (index from $from)" >> "$log"
	return 0
}

# The kept worktree, $WT_KEPT: the worktree of the last run, kept between
# runs as plain files, unregistered, with its index ($WT_KEPT.index) and
# the commit they hold ($WT_KEPT.commit, written last, removed first). A
# run moves it to $WT and back, so files keep their mtimes: git gives a
# fresh one to what it rewrites, and a build dir recompiles what changed
# since it last built, not every file the series touches. Before each
# use git looks at it: a file changed by another program, a stray file,
# an index other than the commit's, or a commit no longer in $KREPO
# throws it away. ctime is not compared (core.trustctime=false): moving
# and linking change it, and nothing else.

# tree_clean(): whether work tree $1 with index $2 holds exactly commit
# $3; why not, to log $4.
tree_clean()
{
	local wt=$1; shift
	local index=$1; shift
	local commit=$1; shift
	local log=$1; shift
	local -a g=(env GIT_INDEX_FILE="$index" git --git-dir="$KREPO"
		--work-tree="$wt" -c core.trustctime=false)
	local others

	if ! git --git-dir="$KREPO" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "$commit is not in $KREPO" >> "$log"
		return 1
	fi
	if ! "${g[@]}" update-index --refresh >> "$log" 2>&1; then
		echo "files of $wt changed (above)" >> "$log"
		return 1
	fi
	if ! "${g[@]}" diff-index --cached --quiet "$commit" -- >> "$log" 2>&1; then
		echo "the index of $wt is not that of $commit" >> "$log"
		return 1
	fi
	others=$("${g[@]}" ls-files --others --directory | head -n 3)
	if [[ -n "$others" ]]; then
		echo "files not of $commit in $wt: ${others//$'\n'/, }" >> "$log"
		return 1
	fi
	return 0
}

# worktree_keep(): make the worktree at $WT, when it is at a commit with
# no git am under way, the kept worktree (the earlier one goes); log to
# $1. Whether git finds it clean is asked when it is taken (kept_take):
# asking now too would cost the run's end 0.3 s.
worktree_keep()
{
	local log=$1; shift
	local head index

	if ! { [[ -f "$WT/.git" ]] &&
	       head=$(git_k rev-parse -q --verify HEAD 2>/dev/null) &&
	       index=$(wt_index 2>/dev/null) && [[ -f "$index" ]] &&
	       [[ ! -e "$(git_k rev-parse --git-path rebase-apply)" ]]; }; then
		echo "the worktree is not kept: not at a commit, or git am under way" >> "$log"
		return 1
	fi
	kept_drop
	if cp "$index" "$WT_KEPT.index" && rm -f "$WT/.git" &&
	   mv "$WT" "$WT_KEPT" && echo "$head" > "$WT_KEPT.commit"; then
		git --git-dir="$KREPO" worktree prune >/dev/null 2>&1
		echo "kept the worktree, at $head, as $WT_KEPT" >> "$log"
		return 0
	fi
	echo "could not keep the worktree at $WT_KEPT" >> "$log"
	kept_drop
	return 1
}

# kept_take(): make the kept worktree, when git finds it clean, the run's
# worktree; log to $1.
kept_take()
{
	local log=$1; shift
	local held

	[[ -f "$WT_KEPT.commit" ]] || return 1
	held=$(< "$WT_KEPT.commit")
	if ! tree_clean "$WT_KEPT" "$WT_KEPT.index" "$held" "$log"; then
		echo "the kept worktree is of no use: dropping it" >> "$log"
		kept_drop
		return 1
	fi
	rm -f "$WT_KEPT.commit"
	if mv "$WT_KEPT" "$WT" &&
	   worktree_adopt "$held" "$log" "$WT_KEPT.index"; then
		rm -f "$WT_KEPT.index"
		echo "the worktree is the kept worktree, at $held" >> "$log"
		return 0
	fi
	echo "cannot use the kept worktree: checking out instead" >> "$log"
	kept_drop
	rm -rf "$WT" "$WT.reg"
	git --git-dir="$KREPO" worktree prune >/dev/null 2>&1
	return 1
}

# kept_drop(): remove the kept worktree (stamp first: never half valid).
kept_drop()
{
	rm -f "$WT_KEPT.commit"
	rm -rf "$WT_KEPT" "$WT_KEPT.index"
}
