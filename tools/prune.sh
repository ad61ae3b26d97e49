#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prune.sh - keep WORKDIR bounded. bisect-check prunes at the end of every
# run (holding the WORKDIR lock); `make prune` runs it by hand.
#
# Policy (PRUNE_RUNS and PRUNE_DAYS are settings, tools/lib.sh; PRUNE_SLACK
# below; each also an environment variable):
#   runs/          the newest PRUNE_RUNS run dirs stay, and every run that
#                  runs/latest or last-run/* names (what `make send` checks);
#                  older ones go (at the end of a run: once PRUNE_SLACK
#                  more have piled up, so that a rerun does not pay for
#                  it; unused entries below, at most hourly). A cached cell keeps its own copy of its
#                  evidence (cache.sh), so no cell loses what it quotes.
#   artifacts/, build/, bisect-run/, initramfs/, cache/
#                  an entry not used for PRUNE_DAYS days goes (use touches
#                  it: a build, a cache hit, a boot). A cached "ok" build
#                  whose artifacts went is built again when needed.
#   *.tmp.*        leftovers of an interrupted store, older than a day, go.
#   ccache-nodepend/  bounded by ccache itself (CCACHE_MAXSIZE, default 5G).
#   ccache/        the depend-mode cache of earlier versions goes: its
#                  entries can serve stale .incbin objects (build.sh).
#   kernel.git     the imported base trees and series branches stay.
#   memo/          the facts a run keeps (cache.sh: memo_get) stay; the
#                  side stores of earlier versions that memos replaced
#                  (toolchain/, kvm-probe.*, pkg-version.*, deps.stamp)
#                  go (at most hourly, as below).
#   /dev/shm/bisect-check.*  the worktree dir of a WORKDIR that is gone
#                  (wt_root_orphans: removed by hand) goes once it is an
#                  hour old, with the kept worktree in it (at most
#                  hourly, as above).
#
# Usage: tools/prune.sh [WORKDIR]   (default: $WORKDIR, else the default)

# As a command, with the shared defaults (sourced, the caller has them).
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
	# shellcheck source=tools/lib.sh
	source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
	# shellcheck source=tools/worktree.sh
	source "$TOP/tools/worktree.sh"
fi

# The end of a run prunes run dirs only this many beyond PRUNE_RUNS.
PRUNE_SLACK=${PRUNE_SLACK:-10}

# prune_runs(): remove all but the newest $2 run dirs of WORKDIR $1 and
# those a symlink of runs/latest or last-run/ points at.
prune_runs()
{
	local workdir=$1; shift
	local keep=$1; shift
	local -A pinned=()
	local -a old=()
	local l dir n=0

	[[ -d "$workdir/runs" ]] || return 0
	# Pinned by name: a link may be relative or go through other links
	# (resolved without a fork each where cache.sh is loaded: a
	# WORKDIR has a last-run link per series and version).
	for l in "$workdir/runs/latest" "$workdir"/last-run/*; do
		[[ -L "$l" ]] || continue
		if declare -F real_path > /dev/null; then
			real_path dir "$l" 2> /dev/null
		else
			dir=$(readlink -f "$l")
		fi
		[[ -n "$dir" ]] && pinned[${dir##*/}]=1
	done
	while IFS= read -r dir; do
		[[ -n "$dir" ]] || continue
		n=$((n + 1))
		((n <= keep)) && continue
		[[ -n "${pinned[${dir##*/}]:-}" ]] && continue
		old+=("$dir")
	done < <(find "$workdir/runs" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' |
		 sort -rn | cut -d' ' -f2-)
	((${#old[@]} == 0)) || rm -rf -- "${old[@]}"
}

# prune_unused(): remove the entries matching $3 at depth $2 under
# directory $1 that were not used (modified) for $4 days.
prune_unused()
{
	local dir=$1; shift
	local depth=$1; shift
	local name=$1; shift
	local days=$1; shift

	[[ -d "$dir" ]] || return 0
	find "$dir" -mindepth "$depth" -maxdepth "$depth" -name "$name" \
		-mtime "+$((days - 1))" -prune -exec rm -rf -- {} +
}

# workdir_prune(): apply the policy above to WORKDIR $1; with $2 =
# "auto" (the end of every run), cheaply: run dirs only once there are
# PRUNE_SLACK more than PRUNE_RUNS, unused entries (judged in days) at
# most once an hour.
workdir_prune()
{
	local workdir=$1; shift
	local mode=${1:-all}
	local runs links dir last=0

	[[ -d "$workdir" ]] || return 0
	[[ -e "$workdir/ccache" ]] && rm -rf -- "$workdir/ccache"
	runs=("$workdir"/runs/*/)
	# Each link may pin one more run.
	links=("$workdir"/last-run/* "$workdir/runs/latest")
	if [[ "$mode" != auto ]] ||
	   ((${#runs[@]} > PRUNE_RUNS + PRUNE_SLACK + ${#links[@]})); then
		prune_runs "$workdir" "$PRUNE_RUNS"
	fi
	if [[ "$mode" == auto ]]; then
		[[ -r "$workdir/prune.stamp" ]] && read -r last < "$workdir/prune.stamp"
		[[ "$last" =~ ^[0-9]+$ ]] || last=0
		((EPOCHSECONDS - last < 3600)) && return 0
		echo "$EPOCHSECONDS" > "$workdir/prune.stamp"
	fi
	prune_unused "$workdir/artifacts" 1 '*' "$PRUNE_DAYS"
	prune_unused "$workdir/build" 1 '*' "$PRUNE_DAYS"
	prune_unused "$workdir/build-w1" 1 '*' "$PRUNE_DAYS"
	prune_unused "$workdir/wcheck" 1 '*' "$PRUNE_DAYS"
	prune_unused "$workdir/bisect-run" 2 '*' "$PRUNE_DAYS"
	prune_unused "$workdir/initramfs" 1 'base-*' "$PRUNE_DAYS"
	prune_unused "$workdir/cache" 2 '*' "$PRUNE_DAYS"
	prune_unused "$workdir/cache" 2 '*.tmp.*' 1
	prune_unused "$workdir/artifacts" 1 '*.tmp.*' 1
	prune_unused "$workdir/wcheck" 1 '*.tmp.*' 1
	rm -rf -- "$workdir/toolchain" "$workdir/deps.stamp" "$workdir"/kvm-probe.* \
		"$workdir"/pkg-version.*
	wt_root_orphans | while IFS= read -r dir; do
		rm -rf -- "$dir"
	done
	return 0
}

# prune_main(): tools/prune.sh as a command.
prune_main()
{
	local workdir=${1:-$WORKDIR}
	local before after

	[[ -d "$workdir" ]] || { echo "prune: nothing at $workdir"; return 0; }
	before=$(du -sm "$workdir" | cut -f1)
	workdir_prune "$workdir"
	after=$(du -sm "$workdir" | cut -f1)
	echo "prune: $workdir: ${before} MB -> ${after} MB (kept the newest $PRUNE_RUNS runs and what was used in $PRUNE_DAYS days)"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
	prune_main "$@"; exit $?
fi
