#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# inputs.sh - the driver's side of the stage programs' contract
# (tools/stage-lib.sh): one provider per input a row of tools/stages.tsv
# may declare, input_NAME VALUE-VAR KEY-VAR IDX STAGE, called by cell_prog
# (tools/cell.sh). The value is what the program reads; the key part is
# what of it decides the result: content, not paths (a commit by its
# patch, a tree's file by its blob, a config by its text). A provider
# named after what it gives, never after a stage: a new stage reuses
# them, and test/host/t-inputs.sh checks each on a real git repo.
#
# Called as input_NAME VALUE-VAR KEY-VAR IDX STAGE TARGET (TARGET "-" for
# a stage of scope step). Reads the driver's run state: KREPO, WT, RUNDIR,
# SERIES, the series' steps (STEP_SHA, STEP_TREE, STEP_PATCH, ABI_DECL,
# ACCEPT_TYPES, ACCEPT_REASON;
# tools/series.sh), the builds' artifacts (STEP_ART) and the ids main()
# works out once (ABI_JUDGED, GIT_VERSION, CHECKPATCH_ID, PERL_VERSION,
# ROBOT_TOOLS_ID, B4CONFIG, B4CONFIG_TEXT). Sourced by tools/bisect-check;
# expects lib.sh, cache.sh, findings.sh and target.sh.

# shellcheck disable=SC2034  # a provider sets its caller's variables by name

# parent_tree(): variable $1 = the tree of the step before $2: known
# when that step was checked in this run (not with STEPS=).
parent_tree()
{
	local -n __pt_ref=$1; shift
	local idx=$1; shift

	__pt_ref=${STEP_TREE[idx - 1]:-}
	[[ -n "$__pt_ref" ]] ||
		__pt_ref=$(git --git-dir="$KREPO" rev-parse "${STEP_SHA[idx - 1]}^{tree}")
}

# patch_sum(): variable $1 = the sum of commit $2 as a patch (what a
# commit id names never changes: asked of git once).
patch_sum()
{
	local -n __ps_ref=$1; shift
	local sha=$1; shift
	local __ps_v

	if ! memo_get __ps_v format-patch "$sha $GIT_VERSION"; then
		[[ "$sha" =~ ^[0-9a-f]{40}$ ]] || return 1
		__ps_v=$(git --git-dir="$KREPO" format-patch -1 --stdout "$sha" | sha1sum) ||
			return 1
		memo_put format-patch "$sha $GIT_VERSION" "$__ps_v"
	fi
	__ps_ref=$__ps_v
}

# blobs_at(): variable $1 = the blob ids of files $4... at commit $3,
# kept in memo $2.
blobs_at()
{
	local -n __ba_ref=$1; shift
	local memo=$1; shift
	local sha=$1; shift
	local -a revs=()
	local f __ba_v

	if ! memo_get __ba_v "$memo" "$sha"; then
		for f in "$@"; do
			revs+=("$sha:$f")
		done
		__ba_v=$(git --git-dir="$KREPO" rev-parse "${revs[@]}" 2>&1) || return 1
		__ba_v=${__ba_v//$'\n'/ }
		memo_put "$memo" "$sha" "$__ba_v"
	fi
	__ba_ref=$__ba_v
}

# checkpatch_blobs(): variable $1 = the blobs of checkpatch.pl and its
# word lists at commit $2 (it runs the step's own).
checkpatch_blobs()
{
	blobs_at "$1" checkpatch-blobs "$2" scripts/checkpatch.pl scripts/spelling.txt \
		scripts/const_structs.checkpatch
}

# The inputs a stage program declares (tools/stages.tsv), for cell_prog:
# input_NAME VALUE-VAR KEY-VAR IDX STAGE sets the value the program reads
# and the part of the cell's key it decides. A provider that fails gives
# the cell a "no verdict" failure. Their own names start with __i: the
# caller's variables may be called anything.
# shellcheck disable=SC2317  # all called through cell_prog
{
# The kernel repo: its path decides nothing (ids name the content).
input_kernel_repo() { local -n __iv=$1 __ik=$2; __iv=$KREPO; __ik=; }
# The step's commit, keyed by its patch: the message and the diff.
input_commit()
{
	local -n __iv=$1 __ik=$2
	__iv=${STEP_SHA[$3]}
	patch_sum __ik "$__iv"
}
# The step's commit as its tree: only the files decide.
input_commit_tree() { local -n __iv=$1 __ik=$2; __iv=${STEP_TREE[$3]}; __ik=$__iv; [[ -n "$__iv" ]]; }
# The commit before the step, keyed by its tree.
input_parent()
{
	local -n __iv=$1 __ik=$2
	__iv=${STEP_SHA[$3 - 1]}
	parent_tree __ik "$3"
}
# checkpatch.pl of the step's tree (a program runs it from git): its
# blobs and the codespell it calls.
input_checkpatch_script()
{
	local -n __iv=$1 __ik=$2
	local __ib
	__iv=-
	checkpatch_blobs __ib "${STEP_SHA[$3]}" || return 1
	__ik="$__ib $CHECKPATCH_ID"
}
# MAINTAINERS and get_maintainer.pl of the step's tree.
input_maintainers()
{
	local -n __iv=$1 __ik=$2
	__iv=-
	blobs_at __ik maintainers-blobs "${STEP_SHA[$3]}" MAINTAINERS scripts/get_maintainer.pl
}
input_perl() { local -n __iv=$1 __ik=$2; __iv=-; __ik=$PERL_VERSION; }
# The C tools that parse and judge findings (tools/bin: tags, findings).
input_robot_tools() { local -n __iv=$1 __ik=$2; __iv=-; __ik=$ROBOT_TOOLS_ID; }
input_idx() { local -n __iv=$1 __ik=$2; __iv=$3; __ik=$3; }
# Where the program writes the step's patch, named as the series names
# it (a finding names the file).
input_patch_out()
{
	local -n __iv=$1 __ik=$2
	__iv=$RUNDIR/patches/$4/${STEP_PATCH[$3]##*/}
	__ik=${__iv##*/}
}
# The step's accepted findings of the stage (series.yaml), as a file.
input_accept()
{
	local -n __iv=$1 __ik=$2
	__iv=$RUNDIR/accept/$3-$4.tsv
	findings_accepts "$3" "$4" > "$__iv" || return 1
	text_of __ik "$__iv"
}
# The worktree, at the step's commit: the driver checks it out before
# it starts a program that declares this input (programs_beside), and
# the program checks that it is. Keyed by the commit's tree, all a tool
# run in it may read.
input_worktree()
{
	local -n __iv=$1 __ik=$2
	__iv=$WT
	__ik=${STEP_TREE[$3]:-}
	[[ -n "$__ik" ]]
}
# The checkpatch.pl warning types the step accepts (series.yaml
# checkpatch-accept), as a file of TYPE=REASON lines.
input_checkpatch_accept()
{
	local -n __iv=$1 __ik=$2
	local __it
	__iv=$RUNDIR/accept/$3-checkpatch-types.txt
	: > "$__iv" || return 1
	for __it in ${ACCEPT_TYPES[$3]:-}; do
		printf '%s=%s\n' "$__it" "${ACCEPT_REASON["$3:$__it"]}" >> "$__iv" || return 1
	done
	text_of __ik "$__iv"
}
# The series file: the details name it as the file to edit.
input_series() { local -n __iv=$1 __ik=$2; __iv=$SERIES; __ik=$SERIES; }
# The b4 config make send uses (tools/send.sh), and whether b4 adds
# get_maintainer.pl's recipients itself.
input_b4config() { local -n __iv=$1 __ik=$2; __iv=$B4CONFIG; __ik="$B4CONFIG $B4CONFIG_TEXT"; }
input_auto_cc() { local -n __iv=$1 __ik=$2; __iv=${AUTO_CC:-1}; __ik=$__iv; }
}

# The step's build on the target: its artifacts (tools/stages/build.sh),
# named by the build's key, which covers all that made them.
input_build_art()
{
	local -n __iv=$1 __ik=$2
	__iv=${STEP_ART[$3:$5]:-}
	__ik=${__iv##*/}
	[[ -n "$__iv" ]]
}
# The same target's build of the step before: from this run, or (a run
# of some steps only) where the cache keeps it; "-" when it is in neither
# (the program then says so, and skips).
input_prev_build_art()
{
	local -n __iv=$1 __ik=$2
	local __ip
	__iv=${STEP_ART[$(($3 - 1)):$5]:-}
	if [[ -z "$__iv" ]]; then
		parent_tree __ip "$3" || return 1
		target_select "$5"
		build_key __ik "$__ip"
		__iv=$WORKDIR/artifacts/$__ik
		[[ -f "$__iv/Module.symvers" ]] || __iv=-
	fi
	__ik=${__iv##*/}
}
# The changes to the exported symbols the step declares (series.yaml
# abi), as a file of "KIND<TAB>SYMBOL" lines.
input_abi_declared()
{
	local -n __iv=$1 __ik=$2
	__iv=$RUNDIR/abi/$3.tsv
	printf '%s' "${ABI_DECL[$3]:-}" > "$__iv" || return 1
	__ik=${ABI_DECL[$3]:-}
}
# Whether the changes of the series' exports are judged against its
# declarations (yes), or reported only (no: a series just taken in by
# --range or --mbox, which could declare none; bisect-check's args()).
input_abi_judged() { local -n __iv=$1 __ik=$2; __iv=${ABI_JUDGED:-yes}; __ik=$__iv; }
# tools/bin/abi, by its sources.
input_abi_tool()
{
	local -n __iv=$1 __ik=$2
	__iv=$TOP/tools/bin/abi
	hash_files_to __ik "$TOP/tools/src/abi.c" "$TOP/tools/src/util.h"
}
