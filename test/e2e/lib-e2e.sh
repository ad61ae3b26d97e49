#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lib-e2e.sh - helpers for the end-to-end tests, which run the real
# pipeline (tools/bisect-check) on the real Debian tree.

# shellcheck disable=SC2034  # E2E_RC and E2E_RUN are read by the tests

# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/worktree.sh
source "$T_TOP/tools/worktree.sh"
# shellcheck source=tools/cell.sh
source "$T_TOP/tools/cell.sh"
E2E_WORKDIR=$WORKDIR
export WORKDIR=$E2E_WORKDIR

# e2e_run(): run bisect-check on a series; sets E2E_RC and E2E_RUN (the
# run dir) and keeps stdout/stderr in $T_TMP/run.out and run.err.
e2e_run()
{
	local series=$1; shift
	env "$@" "$T_TOP/tools/bisect-check" "$series" > "$T_TMP/run.out" 2> "$T_TMP/run.err"
	E2E_RC=$?
	E2E_RUN=$(readlink -f "$E2E_WORKDIR/runs/latest")
}

# The target whose cells the tests look at (series without `targets:`
# have this one only).
E2E_TARGET=${E2E_TARGET:-x86_64-gcc}

# e2e_targets(): the targets of run dir $1, in order.
e2e_targets()
{
	cut -f1 "$1/targets.tsv" | xargs
}

# e2e_boots(): true when target $2 of run dir $1 boots.
e2e_boots()
{
	[[ "$(awk -F'\t' -v t="$2" '$1 == t { print $4 }' "$1/targets.tsv")" == yes ]]
}

# e2e_golden(): golden cells file $1 as target $2 of run dir $3 must
# show them for series $4: a target that does not boot skips its boots
# and tests; at a step where the target skips a claim as the series
# declares, its tests are acked, not ok.
e2e_golden()
{
	local golden=$1; shift
	local tgt=$1; shift
	local run=$1; shift
	local series=$1; shift
	local steps

	if ! e2e_boots "$run" "$tgt"; then
		sed -E 's/^([0-9]+) (boot|tests) .*/\1 \2 skip/' "$golden"
		return
	fi
	steps=$("$T_TOP/tools/bin/series" "$series" |
		awk -F'\t' -v t="$tgt" '$1 == "skip" && $2 == t { print $3 }' | sort -u | xargs)
	awk -v s=" $steps " '$2 == "tests" && $3 == "ok" && index(s, " " $1 " ") { $3 = "acked" } { print }' \
		"$golden"
}

# e2e_stages(): the stage names of tools/stages.tsv, in order.
e2e_stages()
{
	awk -F'\t' '!/^#/ && NF { print $1 }' "$T_TOP/tools/stages.tsv" | xargs
}

# e2e_id(): the id of cell (step $1, stage $2) of E2E_TARGET, as its
# files are named (cell.sh's cell_id: the one rule); without $2, the
# prefix of the step's target files (its boot dir).
e2e_id()
{
	local idx=$1; shift
	local stage=${1:-}
	local scope tgt=$E2E_TARGET

	scope=$(awk -F'\t' -v s="$stage" '$1 == s { print $3 }' "$T_TOP/tools/stages.tsv")
	[[ -n "$stage" && "$scope" == step ]] && tgt=-
	cell_id "$idx" "$tgt" "$stage"
}

# e2e_cells(): print "idx stage status" of a run's step cells and of its
# E2E_TARGET cells (cached or not: the status is the verdict), in pipeline order (cells of one
# step may finish in another order: checkpatch runs beside the build, a
# guest beside the next build).
e2e_cells()
{
	local run=$1; shift
	awk -F'\t' -v stages="$(e2e_stages)" -v t="$E2E_TARGET" 'BEGIN { split(stages, o, " ")
			for (i in o) rank[o[i]] = i }
		$2 == "-" || $2 == t {
		print $1, rank[$3] + 0, $3, $4 }' \
		"$run/cells.tsv" | sort -n -k1,1 -k2,2 | cut -d' ' -f1,3,4
}

# e2e_matrix_eq(): assert a run's cells equal a golden file.
e2e_matrix_eq()
{
	local desc=$1; shift
	local golden=$1; shift
	local diff
	diff=$(diff -u "$golden" <(e2e_cells "$E2E_RUN") | tail -n +3)
	if [[ -z "$diff" ]]; then
		t_ok "$desc"
	else
		t_fail "$desc" "expected (-) vs actual (+) cells:" "$diff" \
			"report: $E2E_RUN/matrix.txt"
	fi
}

# e2e_authorship(): assert each commit of series $1 (branch $2, whose
# last commit is the last patch's) keeps its patch's From/Date.
e2e_authorship()
{
	local series=$1; shift
	local branch=$1; shift
	local n file sha want got info line
	local -a patches=()

	while IFS= read -r line; do
		[[ "$line" == patch$'\t'* ]] && patches+=("${line#patch$'\t'}")
	done < <("$T_BIN/series" "$series")
	for line in "${patches[@]}"; do
		IFS=$'\t' read -r n file <<< "$line"
		info=$(git mailinfo -u /dev/null /dev/null < "$file")
		want="$(sed -n 's/^Author: //p' <<< "$info") <$(sed -n 's/^Email: //p' <<< "$info")> $(sed -n 's/^Date: //p' <<< "$info")"
		sha=$(git --git-dir="$E2E_WORKDIR/kernel.git" rev-parse "$branch~$((${#patches[@]} - n))")
		got=$(git --git-dir="$E2E_WORKDIR/kernel.git" log -1 --date=rfc \
			--format='%an <%ae> %ad' "$sha")
		t_eq "authorship of patch $n kept ($(basename "$file"))" "$want" "$got"
	done
}

# e2e_worktrees_left(): the worktrees bisect-check of this WORKDIR makes
# (its own, and the .reg one it adopts the import through) that are
# still registered. Other worktrees of the kernel repository are not
# ours to judge: a concurrent test may have its own.
e2e_worktrees_left()
{
	local wt
	wt=$(wt_root "$E2E_WORKDIR")/worktree

	git --git-dir="$E2E_WORKDIR/kernel.git" worktree list --porcelain |
		sed -n 's/^worktree //p' | grep -Fx -e "$wt" -e "$wt.reg"
	return 0
}
