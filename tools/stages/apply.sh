#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apply.sh - stage 2: make the throwaway worktree and apply the preparation
# and the series with `git am`, keeping each patch's authorship.
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh and
# cell.sh.

# Committer identity: fixed, with the committer date taken from the author
# date, so the same patches on the same base always give the same ids.
readonly APPLY_COMMITTER_NAME="bisect-check"
readonly APPLY_COMMITTER_EMAIL="bisect-check@localhost"

# A fixed old mtime for every file of a fresh worktree; files that differ
# from what the build dir last saw are touched again before building.
readonly WT_EPOCH=946684800

# git_k(): git on the throwaway worktree, never the user's config hooks.
git_k()
{
	git -C "$WT" -c core.hooksPath=/dev/null -c advice.detachedHead=false "$@"
}

# worktree_remove(): remove the throwaway worktree (registered with defer).
worktree_remove()
{
	if [[ "${KEEP:-0}" == 1 && -d "$WT" ]]; then
		msg "KEEP=1: the worktree stays at $WT"
		return 0
	fi
	# Interrupted, with the worktree on disk: one rename now, the next
	# run deletes it (on tmpfs, deleting takes a second and frees RAM).
	if [[ -n "${INTERRUPTED:-}" && -d "$WT" ]] &&
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

	# We hold the WORKDIR lock: anything at $WT is debris of a killed run,
	# $WT.trash.* that of an interrupted one.
	rm -rf "$WT".trash.*
	if [[ -e "$WT" ]]; then
		echo "removing stale worktree $WT" >> "$log"
		worktree_remove
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

# stage_worktree(): make a fresh worktree at $WT on commit $1: from the
# base copy when it holds that commit (about a second), else checked out
# (5 to 20 s, the objects read from disk), and then kept as the base copy.
stage_worktree()
{
	local base=$1; shift
	local log=$1; shift

	if [[ -n "${WT_PLACED:-}" ]]; then
		worktree_adopt "$base" "$log" "$IMPORT_INDEX" || return
		WT_PLACED=
		IMPORT_TREE=
		basecopy_make "$base" "$log"
		return 0
	fi
	worktree_clear "$log" || return "$EXIT_SETUP"
	if basecopy_valid "$base" "$log"; then
		if cp -al "$WT_BASE" "$WT" 2>> "$log" &&
		   worktree_adopt "$base" "$log" "$WT_BASE.index"; then
			echo "the worktree is a hard-link copy of the base copy $WT_BASE" >> "$log"
			return 0
		fi
		echo "cannot copy the base copy: checking out instead" >> "$log"
		basecopy_drop
		rm -rf "$WT" "$WT.reg"
		git --git-dir="$KREPO" worktree prune >/dev/null 2>&1
	fi
	# Parallel checkout: writing 80000 files is mostly system time.
	run_logged "$log" git --git-dir="$KREPO" -c checkout.workers="$JOBS" \
		worktree add -f --detach "$WT" "$base" ||
		return "$EXIT_SETUP"
	# Same old mtime everywhere: the build dir decides what is new.
	(cd "$WT" && git ls-files -z | xargs -0 touch -h -m -d "@$WT_EPOCH") ||
		return "$EXIT_SETUP"
	basecopy_make "$base" "$log"
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
# hashed into index $3 (an unpacked import, or a copy of the base copy),
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

# The base copy, $WT_BASE: the files of the base commit, kept beside the
# worktree between runs with an index of their own ($WT_BASE.index) and
# the commit they hold ($WT_BASE.commit, written last). A run's worktree
# is a hard-link copy of it. Nothing of a run writes into a file it
# shares: git replaces a file it changes (a new inode) and the build
# writes only into its O= dir; what touches a shared file changes its
# mtime, which the build dirs already treat as "maybe newer". The index
# is refreshed before every use, so a file that another program changed
# in place throws the copy away instead of entering a worktree. ctime is
# not compared (core.trustctime=false in $KREPO): making a hard link
# changes it, and nothing else.

# basecopy_git(): git on the base copy with its own index.
basecopy_git()
{
	GIT_INDEX_FILE="$WT_BASE.index" git --git-dir="$KREPO" \
		--work-tree="$WT_BASE" -c core.trustctime=false "$@"
}

# basecopy_valid(): whether the base copy holds exactly commit $1.
basecopy_valid()
{
	local base=$1; shift
	local log=$1; shift
	local held others

	[[ -f "$WT_BASE.commit" ]] || return 1
	held=$(< "$WT_BASE.commit")
	if [[ "$held" != "$base" ]]; then
		echo "the base copy holds $held, not $base: dropping it" >> "$log"
		basecopy_drop
		return 1
	fi
	if ! basecopy_git update-index --refresh >> "$log" 2>&1; then
		echo "files of the base copy changed (above): dropping it" >> "$log"
		basecopy_drop
		return 1
	fi
	others=$(basecopy_git ls-files --others --directory | head -n 3)
	if [[ -n "$others" ]]; then
		echo "files not of $base in the base copy (${others//$'\n'/, }): dropping it" >> "$log"
		basecopy_drop
		return 1
	fi
	return 0
}

# basecopy_make(): keep the worktree, just made on commit $1 and not
# changed since, as the base copy; on any failure there is none.
basecopy_make()
{
	local base=$1; shift
	local log=$1; shift
	local index

	basecopy_drop
	[[ "$(git --git-dir="$KREPO" config --get core.trustctime)" == false ]] ||
		git --git-dir="$KREPO" config core.trustctime false || return 0
	index=$(wt_index) || return 0
	# The refresh hashes again what the worktree's index has other
	# stat data for (all of a checkout after the touch above), and the
	# worktree takes the refreshed index: the files are the same.
	if cp -al "$WT" "$WT_BASE" 2>> "$log" && rm -f "$WT_BASE/.git" &&
	   cp "$index" "$WT_BASE.index" &&
	   basecopy_git update-index --refresh >> "$log" 2>&1 &&
	   cp "$WT_BASE.index" "$index" &&
	   echo "$base" > "$WT_BASE.commit"; then
		echo "kept the worktree's files as the base copy $WT_BASE" >> "$log"
		return 0
	fi
	echo "could not keep a base copy (the next run checks out again)" >> "$log"
	basecopy_drop
	return 0
}

# basecopy_drop(): remove the base copy (stamp first: never half valid).
basecopy_drop()
{
	rm -f "$WT_BASE.commit"
	rm -rf "$WT_BASE" "$WT_BASE.index"
}

# apply_one(): `git am` one patch file onto HEAD of the worktree; on
# failure write what failed to the detail file and leave nothing applied.
apply_one()
{
	local patch=$1; shift
	local log=$1; shift
	local detail=$1; shift

	if run_logged "$log" env \
		GIT_COMMITTER_NAME="$APPLY_COMMITTER_NAME" \
		GIT_COMMITTER_EMAIL="$APPLY_COMMITTER_EMAIL" \
		GIT_EDITOR=true \
		git -C "$WT" -c core.hooksPath=/dev/null am --quiet \
		--keep-non-patch --committer-date-is-author-date "$patch"; then
		return 0
	fi
	{
		echo "expected: $patch applies with git am on $(git_k rev-parse --short=12 HEAD)"
		echo "actual: git am failed:"
		grep -E '^(error|Patch failed|fatal|warning):' "$log" | tail -n 5 | sed 's/^/  /'
		echo "failing hunk (git apply --check -v):"
		git_k am --show-current-patch=diff 2>/dev/null |
			git -C "$WT" apply --check -v 2>&1 |
			grep -v '^Checking patch' | head -n 25 | sed 's/^/  /'
		echo "next: rebase $(basename "$patch") onto $(git_k rev-parse --short=12 HEAD) (a commit in $KREPO; KEEP=1 keeps $WT_DESC) and rerun"
	} > "$detail"
	git_k am --abort >> "$log" 2>&1
	git_k reset -q --hard >> "$log" 2>&1
	return "$EXIT_FAIL"
}

# stage_apply(): the apply stage: `git am` the patch files, in order,
# onto the worktree's HEAD; the commit made is the record's "out sha".
# Args: REC LOG DETAIL prep|patch PATCH...
stage_apply()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local kind=$1; shift
	local p

	for p in "$@"; do
		if ! apply_one "$p" "$log" "$detail"; then
			result "$rec" FAIL "$(basename "$p") does not apply"
			return
		fi
	done
	if [[ "$kind" == prep ]]; then
		result "$rec" ok "$# patch(es)"
	else
		result "$rec" ok "$(git_k log -1 --format='%an <%ae> %ad' HEAD)"
	fi
	result_out "$rec" sha "$(git_k rev-parse HEAD)"
}
