#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# worktree.sh - the throwaway worktrees of the kernel repo, in one place:
# where they go (wt_root: /dev/shm when it is big enough), the run's
# worktree (made on first use, kept between runs as plain files when
# git finds it clean, taken back by the next run), the sparse worktrees
# of make send and range-diff (only the files a series touches), and
# their removal.
#
# Sourced by tools/bisect-check, tools/bisect-run, tools/send.sh,
# tools/range-diff.sh, tools/prune.sh and tools/bench.sh; expects lib.sh
# (and, for the run's worktree, cell.sh's progress).

# wt_epoch(): variable $1 = the fixed old mtime every file of a fresh
# worktree has (files that differ from what the build dir last saw are
# touched again before building).
wt_epoch()
{
	printf -v "$1" %s 946684800
}

# wt_epoch_touch(): give the files named on stdin (NUL separated, relative
# to the current dir) that mtime.
wt_epoch_touch()
{
	local e

	wt_epoch e
	xargs -0 -r touch -h -m -d "@$e"
}

# wt_kept(): variable $1 = where the kept worktree of $WT goes (beside it).
wt_kept()
{
	printf -v "$1" %s "$WT-kept"
}

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
	# shellcheck disable=SC2153  # lib.sh's setting, not wt_root's workdir
	if interrupted && [[ -d "$WT" ]] &&
	   [[ "$(dirname "$WT")" -ef "$WORKDIR" ]] &&
	   mv "$WT" "$WT.trash.$$" 2>/dev/null; then
		git --git-dir="$KREPO" worktree prune >/dev/null 2>&1
		return 0
	fi
	worktree_drop "$KREPO" "$WT"
	wt_root_drop "$WT" "$WORKDIR"
}

# ensure_worktree(): make the worktree on first use, at commit $1 (cached
# runs may need none at all).
ensure_worktree()
{
	[[ -n "${WT_READY:-}" ]] && return 0
	progress "worktree: $WT"
	stage_worktree "$1" "$RUNDIR/logs/worktree.log" ||
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

# The index of the files worktree_place put at $WT, until stage_worktree
# makes them the worktree: this file's own.
WT_PLACED=

# worktree_place(): right after an import, move the unpacked tree $2 (old
# mtimes) to $WT, where it is hashed (import_hash) and may be built from
# meanwhile; stage_worktree makes it a git worktree once the commit
# exists, with the index $3 the hashing writes; log to $1.
worktree_place()
{
	local log=$1; shift
	local tree=$1; shift
	local index=$1; shift

	worktree_clear "$log" || return "$EXIT_SETUP"
	mv "$tree" "$WT" || return "$EXIT_SETUP"
	echo "moved the unpacked import to $WT" >> "$log"
	WT_PLACED=$index
}

# stage_worktree(): make the run's worktree at $WT: the kept worktree,
# moved there, at whatever commit the last run left it (a second at most,
# no file written), else checked out on commit $1 (5 to 20 s, the objects
# read from disk). The stages check out the commits they need.
stage_worktree()
{
	local base=$1; shift
	local log=$1; shift

	if [[ -n "$WT_PLACED" ]]; then
		worktree_adopt "$base" "$log" "$WT_PLACED" || return
		WT_PLACED=
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
	(cd "$WT" && git ls-files -z | wt_epoch_touch) ||
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

# The kept worktree, $WT-kept (wt_kept): the worktree of the last run,
# kept between runs as plain files, unregistered, with its index
# (KEPT.index) and the commit they hold (KEPT.commit, written last,
# removed first). A run moves it to $WT and back, so files keep their
# mtimes: git gives a fresh one to what it rewrites, and a build dir
# recompiles what changed since it last built, not every file the
# series touches. Before each
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
	local head index kept

	wt_kept kept
	if ! { [[ -f "$WT/.git" ]] &&
	       head=$(git_k rev-parse -q --verify HEAD 2>/dev/null) &&
	       index=$(wt_index 2>/dev/null) && [[ -f "$index" ]] &&
	       [[ ! -e "$(git_k rev-parse --git-path rebase-apply)" ]]; }; then
		echo "the worktree is not kept: not at a commit, or git am under way" >> "$log"
		return 1
	fi
	kept_drop
	if cp "$index" "$kept.index" && rm -f "$WT/.git" &&
	   mv "$WT" "$kept" && echo "$head" > "$kept.commit"; then
		git --git-dir="$KREPO" worktree prune >/dev/null 2>&1
		echo "kept the worktree, at $head, as $kept" >> "$log"
		return 0
	fi
	echo "could not keep the worktree at $kept" >> "$log"
	kept_drop
	return 1
}

# kept_take(): make the kept worktree, when git finds it clean, the run's
# worktree; log to $1.
kept_take()
{
	local log=$1; shift
	local held kept

	wt_kept kept
	[[ -f "$kept.commit" ]] || return 1
	held=$(< "$kept.commit")
	if ! tree_clean "$kept" "$kept.index" "$held" "$log"; then
		echo "the kept worktree is of no use: dropping it" >> "$log"
		kept_drop
		return 1
	fi
	rm -f "$kept.commit"
	if mv "$kept" "$WT" &&
	   worktree_adopt "$held" "$log" "$kept.index"; then
		rm -f "$kept.index"
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
	local kept

	wt_kept kept
	rm -f "$kept.commit"
	rm -rf "$kept" "$kept.index"
}

# ---------------------------------------------------------------------------
# Sparse worktrees: b4, get_maintainer.pl and git range-diff need only the
# files a series touches, and the kernel's 80000 files take a minute to
# check out and to remove.

# patch_paths(): print the paths the diffs of the given patch files touch.
patch_paths()
{
	sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' "$@"
}

# sparse_patterns(): print a sparse checkout in .gitignore syntax: the
# top-level files and, for each path on stdin, the files (not the
# subdirectories) of every directory on its path.
sparse_patterns()
{
	local -A seen=()
	local -a parts
	local path prefix part

	printf '/*\n!/*/\n'
	while read -r path; do
		[[ "$path" == */* ]] || continue
		IFS=/ read -ra parts <<< "${path%/*}"
		prefix=
		for part in "${parts[@]}"; do
			prefix+=/$part
			[[ -n "${seen[$prefix]:-}" ]] && continue
			seen[$prefix]=1
			printf '%s/\n!%s/*/\n' "$prefix" "$prefix"
		done
	done
}

# shm_is_tmpfs(): /dev/shm is a tmpfs mount (read from /proc/mounts: no
# fork).
shm_is_tmpfs()
{
	local mnt type
	[[ -r /proc/mounts ]] || return 1
	while read -r _ mnt type _; do
		[[ "$mnt" == /dev/shm && "$type" == tmpfs ]] && return 0
	done < /proc/mounts
	return 1
}

# wt_root(): where the throwaway worktree of WORKDIR $1 goes: WT_ROOT when
# set; else a directory of ours on /dev/shm when that is a tmpfs of 8 GiB
# or more (a run makes and removes a kernel tree's 80000 files: 8 s there
# against 30 to 70 s on a disk); else WORKDIR itself.
wt_root()
{
	local workdir=$1; shift
	local dir size

	if [[ -n "${WT_ROOT:-}" ]]; then
		echo "$WT_ROOT"
		return
	fi
	if shm_is_tmpfs && [[ -w /dev/shm ]]; then
		size=$(df -k --output=size /dev/shm 2>/dev/null | tail -n 1)
		dir=/dev/shm/bisect-check.$EUID.$(realpath -m "$workdir" | sha1sum | cut -c1-12)
		# Made when needed (wt_root_make); if there, ours alone: not a
		# symlink, owned by us (anyone can write to /dev/shm).
		if ((${size:-0} >= 8 * 1024 * 1024)) &&
		   { [[ ! -e "$dir" && ! -L "$dir" ]] ||
		     [[ -d "$dir" && ! -L "$dir" && -O "$dir" ]]; }; then
			echo "$dir"
			return
		fi
	fi
	echo "$workdir"
}

# wt_root_make(): make the directory of worktree $1, for us alone; one of
# /dev/shm (wt_root) says in it which WORKDIR it is of ($2, default
# WORKDIR): what wt_root_orphans goes by once that WORKDIR is gone.
wt_root_make()
{
	local dir workdir=${2:-$WORKDIR}
	dir=$(dirname "$1")
	[[ -d "$dir" ]] || mkdir -m 700 "$dir" || return 1
	# Said also in one made before it was said.
	[[ "$dir" == /dev/shm/bisect-check.* && ! -e "$dir/.workdir" ]] &&
		realpath -m "$workdir" > "$dir/.workdir"
	return 0
}

# wt_root_orphans(): the worktree dirs of ours on /dev/shm whose WORKDIR
# is gone (removed by hand: make distclean removes its own), one a line:
# a kept worktree there holds a kernel tree in memory (1.5 GB) that no
# run would use again. Only those that name their WORKDIR, and are the
# dir wt_root gives it, and are ours, and have not changed for an hour:
# a run may make its worktree's dir before its WORKDIR (make bench's
# tree of a WORKDIR that bisect-check makes later).
wt_root_orphans()
{
	local dir workdir

	for dir in /dev/shm/bisect-check."$EUID".*; do
		[[ -d "$dir" && ! -L "$dir" && -O "$dir" && -r "$dir/.workdir" ]] || continue
		IFS= read -r workdir < "$dir/.workdir" || continue
		[[ "$workdir" == /* && ! -e "$workdir" ]] || continue
		[[ "$(wt_root "$workdir")" == "$dir" ]] || continue
		[[ -n "$(find "$dir" -maxdepth 0 -mmin +60)" ]] && echo "$dir"
	done
	return 0
}

# wt_root_drop(): remove the directory of worktree $1 once empty (but for
# what wt_root_make said in it), unless it is WORKDIR $2.
wt_root_drop()
{
	local dir
	dir=$(dirname "$1")
	[[ "$dir" -ef "$2" ]] && return 0
	[[ -e "$dir/.workdir" ]] || { rmdir "$dir" 2>/dev/null; return 0; }
	rm -f "$dir/.workdir"
	rmdir "$dir" 2>/dev/null || realpath -m "$2" > "$dir/.workdir"
	return 0
}

# worktree_sparse(): a fresh sparse worktree $2 of the kernel repo at
# commit $3, on a new branch $4 ("-": detached), logged to $1: the
# top-level files and those of every directory of the paths on stdin
# (sparse_patterns). The patterns are the worktree's own ($GIT_DIR/info);
# core.sparseCheckout comes with each git command run there (the kernel
# repo's config stays as it is). Dies naming what failed.
worktree_sparse()
{
	local log=$1; shift
	local wt=$1; shift
	local rev=$1; shift
	local branch=$1; shift
	local gitdir
	local -a add=(--detach)

	[[ "$branch" == - ]] || add=(-b "$branch")
	run_logged "$log" git_repo worktree add -f --no-checkout "${add[@]}" "$wt" "$rev" ||
		die "worktree: cannot create $wt (see $log)"
	gitdir=$(git -C "$wt" rev-parse --absolute-git-dir) ||
		die "worktree: $wt is not a git worktree"
	{ mkdir -p "$gitdir/info" && sparse_patterns > "$gitdir/info/sparse-checkout"; } ||
		die "worktree: cannot write $gitdir/info/sparse-checkout"
	run_logged "$log" git -C "$wt" -c core.sparseCheckout=true -c core.hooksPath=/dev/null \
		read-tree -mu HEAD || die "worktree: cannot check out $wt (see $log)"
}

# worktree_drop(): remove a throwaway worktree of a repository, on disk
# and from the repository's list of worktrees. Not `git worktree remove`:
# it first looks at every file for changes (20 s on a kernel tree) that
# a throwaway worktree does not have to keep.
worktree_drop()
{
	local repo=$1; shift
	local wt=$1; shift

	rm -rf "$wt"
	git --git-dir="$repo" worktree prune >/dev/null 2>&1
}
