#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# range-diff.sh - `git range-diff` of two versions of the series on the
# same base (`make range-diff`): v1 as posted against v2 of series.yaml.
#
# Both are applied with `git am` (authorship kept, committer and its date
# fixed as in bisect-check) onto the -base commit that bisect-check made
# of series.yaml (the Debian tree and the preparation), in one throwaway
# sparse worktree that holds only the files the patches touch. Nothing is
# left behind: no worktree, no branch.
#
# Usage: tools/range-diff.sh [OLD.yaml [NEW.yaml]]
#   (default OLD test/series/v1.yaml, NEW $SERIES or series.yaml)
# Environment: SERIES, WORKDIR, V=1, KEEP=1.
# Exit: 0 printed, 1 a patch does not apply, 2 usage or setup error.

# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tools/series.sh
source "$TOP/tools/series.sh"
# shellcheck source=tools/worktree.sh
source "$TOP/tools/worktree.sh"

OLD=${1:-$TOP/test/series/v1.yaml}
NEW=${2:-${SERIES:-$TOP/series.yaml}}
KREPO=$WORKDIR/kernel.git
WT=$WORKDIR/range-diff-wt
LOG=$WORKDIR/range-diff.log

declare -a OLD_PATCHES=() NEW_PATCHES=()
# The name and version of the series load_patches read last.
NAME='' VERSION=''

# usage(): print the usage and exit with $1.
usage()
{
	sed -n 's/^# \{0,1\}//; 4,16p' "$0"
	exit "$1"
}

# git_wt(): git in the worktree: sparse, none of the user's hooks.
git_wt()
{
	git -C "$WT" -c core.sparseCheckout=true -c core.hooksPath=/dev/null "$@"
}

# load_patches(): the patches of series $1 (series.sh's loader) into the
# array named $2; set NAME and VERSION from it.
load_patches()
{
	local file=$1; shift
	local -n into=$1; shift
	local i n

	load_series "$file"
	series_get NAME name
	series_get VERSION version
	series_nsteps n
	for ((i = 1; i < n; i++)); do
		series_patch "into[$i]" "$i"
	done
	((${#into[@]})) || die "$file: no patches"
}


# cleanup(): remove the worktree (registered with defer).
cleanup()
{
	if [[ "${KEEP:-0}" == 1 && -d "$WT" ]]; then
		msg "KEEP=1: the worktree stays at $WT (sparse: git -c core.sparseCheckout=true there)"
		return 0
	fi
	worktree_drop "$KREPO" "$WT"
}

# make_worktree(): a sparse worktree, detached at the base.
make_worktree()
{
	[[ -e "$WT" ]] && cleanup	# debris of a killed run: we hold the lock
	defer cleanup
	worktree_sparse "$LOG" "$WT" "$BASE" - \
		< <(patch_paths "${OLD_PATCHES[@]}" "${NEW_PATCHES[@]}")
}

# apply(): check out the base and `git am` the patches given; print the
# resulting commit.
apply()
{
	local label=$1; shift
	local p

	run_logged "$LOG" git_wt checkout -q --detach "$BASE" ||
		die "cannot check out the base in $WT (see $LOG)"
	for p in "$@"; do
		if ! run_logged "$LOG" env GIT_COMMITTER_NAME=bisect-check \
			GIT_COMMITTER_EMAIL=bisect-check@localhost \
			git -C "$WT" -c core.sparseCheckout=true -c core.hooksPath=/dev/null \
			am --quiet --no-message-id --no-3way --committer-date-is-author-date "$p"; then
			git_wt am --abort > /dev/null 2>&1
			die_rc "$EXIT_FAIL" "$label: ${p##*/} does not apply on ${BASE:0:12} (see $LOG)"
		fi
	done
	git_wt rev-parse HEAD
}

# main(): load both series, apply them on the base, compare.
main()
{
	local old_name old_version old_tip new_tip

	[[ "${1:-}" == -h || "${1:-}" == --help ]] && usage 0
	(($# <= 2)) || usage "$EXIT_SETUP"
	[[ -x "$TOP/tools/bin/series" ]] || die "tools/bin/series is not built: run 'make tools'"
	[[ -d "$KREPO" ]] || die "no kernel repo at $KREPO: run 'make bisect-check' first"
	load_patches "$OLD" OLD_PATCHES
	old_name=$NAME old_version=$VERSION
	load_patches "$NEW" NEW_PATCHES
	BASE=$(git_repo rev-parse -q --verify "refs/heads/bisect/$NAME/v$VERSION-base^{commit}") ||
		die "no bisect/$NAME/v$VERSION-base in $KREPO: run 'make bisect-check' first"

	exec {LOCK}>> "$WORKDIR/range-diff.lock" || die "cannot write $WORKDIR/range-diff.lock"
	flock -n "$LOCK" || die "another range-diff is using $WT: wait for it"
	: > "$LOG"
	defer_init
	msg "v$old_version ($old_name) against v$VERSION ($NAME) on ${BASE:0:12}"
	make_worktree
	old_tip=$(apply "v$old_version" "${OLD_PATCHES[@]}") || exit
	new_tip=$(apply "v$VERSION" "${NEW_PATCHES[@]}") || exit
	git_repo range-diff "$BASE..$old_tip" "$BASE..$new_tip" ||
		die "git range-diff failed"
}

# On one line: bash has read the exit before main runs, so editing this
# file during a run cannot make the running shell read changed text.
main "$@"; exit $?
