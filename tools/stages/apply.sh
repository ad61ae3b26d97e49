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

# stage_worktree(): make a fresh worktree at $WT on commit $1.
stage_worktree()
{
	local base=$1; shift
	local log=$1; shift

	if [[ -n "${WT_PLACED:-}" ]]; then
		worktree_adopt "$base" "$log"
		return
	fi
	worktree_clear "$log" || return "$EXIT_SETUP"
	# Parallel checkout: writing 80000 files is mostly system time.
	run_logged "$log" git --git-dir="$KREPO" -c checkout.workers="$JOBS" \
		worktree add -f --detach "$WT" "$base" ||
		return "$EXIT_SETUP"
	# Same old mtime everywhere: the build dir decides what is new.
	(cd "$WT" && git ls-files -z | xargs -0 touch -h -m -d "@$WT_EPOCH") ||
		return "$EXIT_SETUP"
	return 0
}

# worktree_adopt(): make the unpacked import at $WT (worktree_place),
# already hashed into an index, the worktree on commit $1 instead of
# checking the same files out again.
worktree_adopt()
{
	local base=$1; shift
	local log=$1; shift
	local reg=$WT.reg index

	rm -rf "$reg"
	run_logged "$log" git --git-dir="$KREPO" worktree add -f --no-checkout \
		--detach "$reg" "$base" || return "$EXIT_SETUP"
	mv "$reg/.git" "$WT/.git" && rmdir "$reg" || return "$EXIT_SETUP"
	run_logged "$log" git --git-dir="$KREPO" worktree repair "$WT" ||
		return "$EXIT_SETUP"
	index=$(git -C "$WT" rev-parse --git-path index) || return "$EXIT_SETUP"
	[[ "$index" == /* ]] || index=$WT/$index
	cp "$IMPORT_INDEX" "$index" || return "$EXIT_SETUP"
	echo "adopted the unpacked import as the worktree" >> "$log"
	WT_PLACED=
	IMPORT_TREE=
	return 0
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
