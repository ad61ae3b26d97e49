#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# inputs.sh - the driver's side of the stage programs' contract
# (tools/stage-lib.sh): one provider per input a row of tools/stages.tsv
# may declare, input_NAME VALUE-VAR KEY-VAR IDX STAGE TARGET FACTS, called
# by cell_prog (tools/cell.sh). The value is what the program reads; the
# key part is what of it decides the result: content, not paths (a
# commit by its patch, a tree's file by its blob, a config by its text).
# A provider named after what it gives, never after a stage: a new stage
# reuses them, and test/host/t-inputs.sh checks each on a real git repo.
#
# Called as input_NAME VALUE-VAR KEY-VAR IDX STAGE TARGET FACTS (TARGET
# "-" for a stage of scope step; FACTS the name of the assoc array
# step_facts made of the step: its commits, trees and artifacts, as the
# driver knows them). Reads the driver's run state: KREPO, WT, RUNDIR,
# SERIES, the steps' patches and what each declares (series_patches and
# series_step of tools/series.sh), the boots' dirs and records (the
# run dir's) and what the driver says of the run once (inputs_set); the
# tools' versions and ids and GM_VIEW_ID the
# providers ask themselves (tool_version_once and robot_tools_id of
# cache.sh, gm_view_id). Sourced by tools/bisect-check and
# tools/bisect-run; expects lib.sh, cache.sh, cell.sh, findings.sh and
# target.sh; runs tools/gm-view.pl.

# shellcheck disable=SC2034  # a provider sets its caller's variables by name

# What the driver says of the run once (inputs_set), this file's own:
# the b4 config make send uses and its text (b4config, b4config-text),
# and whether a series' changes to its exports are judged against what
# it declares (abi-judged: yes; no for a series just taken in by --range
# or --mbox, which could declare none).
declare -A INPUTS_RUN=([b4config]='' [b4config-text]='' [abi-judged]=yes)

# inputs_set(): the run's $1 (b4config: a file, whose text is read
# here too; abi-judged: yes or no) = $2.
inputs_set()
{
	case $1 in
	b4config)
		INPUTS_RUN[b4config]=$2
		text_of "INPUTS_RUN[b4config-text]" "$2"
		;;
	abi-judged) INPUTS_RUN[abi-judged]=$2 ;;
	*) die "inputs_set: no run value '$1'" ;;
	esac
	return 0
}

# step_facts(): assoc array $1 = what the driver knows of step $2 on
# target $3 ("-": none), from its indexed arrays named $4 (the steps'
# commits, "-" for one that did not apply) and $5 (their trees, known
# once checked out in this run) and its assoc array named $6 (the
# builds' artifact dirs by "STEP:TARGET"), the base commit being $7:
#
#   onto    the commit the step goes onto (the base's for step 0)
#   sha     the step's commit          tree   its tree, or empty
#   parent  the step before's commit   ptree  its tree, or empty
#   art     the step's build on the target, or empty
#   part    the step before's build on the target, or empty
#
# The providers read these alone (argument FACTS), never the driver's
# arrays.
step_facts()
{
	local -n __sf=$1; shift
	local idx=$1; shift
	local tgt=$1; shift
	local -n __sf_sha=$1 __sf_tree=$2 __sf_art=$3; shift 3
	local base=$1; shift

	__sf=([sha]=${__sf_sha[idx]:-} [tree]=${__sf_tree[idx]:-}
		[parent]='' [ptree]='' [onto]=$base [art]='' [part]='')
	if ((idx > 0)); then
		__sf[parent]=${__sf_sha[idx - 1]:-}
		__sf[ptree]=${__sf_tree[idx - 1]:-}
		__sf[onto]=${__sf[parent]}
	fi
	[[ "$tgt" == - ]] && return 0
	__sf[art]=${__sf_art[$idx:$tgt]:-}
	((idx > 0)) && __sf[part]=${__sf_art[$((idx - 1)):$tgt]:-}
	return 0
}

# parent_tree(): variable $1 = the tree of the step before, of step
# facts $2 (step_facts): known when that step was checked in this run
# (not with STEPS=), else asked of git.
parent_tree()
{
	local -n __pt_ref=$1; shift
	local -n __pt_f=$1; shift

	__pt_ref=${__pt_f[ptree]}
	[[ -n "$__pt_ref" ]] ||
		__pt_ref=$(git --git-dir="$KREPO" rev-parse "${__pt_f[parent]}^{tree}")
}

# patch_sum(): variable $1 = the sum of commit $2 as a patch (what a
# commit id names never changes: asked of git once).
patch_sum()
{
	local -n __ps_ref=$1; shift
	local sha=$1; shift
	local __ps_v __ps_git

	tool_version_once __ps_git git
	if ! memo_get __ps_v format-patch "$sha $__ps_git"; then
		[[ "$sha" =~ ^[0-9a-f]{40}$ ]] || return 1
		__ps_v=$(git --git-dir="$KREPO" format-patch -1 --stdout "$sha" | sha1sum) ||
			return 1
		memo_put format-patch "$sha $__ps_git" "$__ps_v"
	fi
	__ps_ref=$__ps_v
}

# blobs_at(): variable $1 = the blob ids of files $4... at commit $3,
# kept in memo $2. Fails for no commit ("-": a step that did not apply),
# which git rev-parse would echo back as an option, not refuse.
blobs_at()
{
	local -n __ba_ref=$1; shift
	local memo=$1; shift
	local sha=$1; shift
	local -a revs=()
	local f __ba_v

	[[ "$sha" =~ ^[0-9a-f]{40}$ ]] || return 1
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

# kernel_doc_blob(): variable $1 = the blob of scripts/kernel-doc at
# commit $2.
kernel_doc_blob()
{
	blobs_at "$1" kernel-doc-blob "$2" scripts/kernel-doc
}

# c_files_sums(): variables $1 and $2 = the sums of the C files and
# headers (*.[ch]) the step of facts $3 (step_facts) touches against the
# step before, as they are
# at the step before and at the step: paths, modes and blobs (git
# diff-tree, which detects no rename: a renamed file is both its names,
# more than git diff's rename detection lists; a side that lacks a file
# has no line for it). Trees never change: kept in memo c-files.
c_files_sums()
{
	local -n __cf_p=$1 __cf_c=$2; shift 2
	local __cf_fn=$1; shift
	local -n __cf_f=$__cf_fn
	local ctree=${__cf_f[tree]} ptree raw line meta path om nm ob nb __cf_v
	local -a before=() after=()

	[[ -n "$ctree" ]] || return 1
	parent_tree ptree "$__cf_fn" || return 1
	if ! memo_get __cf_v c-files "$ptree $ctree"; then
		raw=$(git --git-dir="$KREPO" diff-tree -r "$ptree" "$ctree" -- '*.[ch]') ||
			return 1
		# ":OLDMODE NEWMODE OLDBLOB NEWBLOB STATUS<TAB>PATH", git's raw
		# format (an odd path quoted).
		while IFS= read -r line; do
			[[ -n "$line" ]] || continue
			meta=${line%%$'\t'*} path=${line#*$'\t'}
			read -r om nm ob nb _ <<< "${meta#:}"
			[[ "$om" == 000000 ]] || before+=("$om $ob $path")
			[[ "$nm" == 000000 ]] || after+=("$nm $nb $path")
		done <<< "$raw"
		hash_to __cf_p c-files "${before[@]}"
		hash_to __cf_c c-files "${after[@]}"
		__cf_v="$__cf_p $__cf_c"
		memo_put c-files "$ptree $ctree" "$__cf_v"
	fi
	__cf_p=${__cf_v% *}
	__cf_c=${__cf_v#* }
}

# gm_view_id(): GM_VIEW_ID = the id of tools/gm-view.pl, which makes the
# key of a patch as get_maintainer.pl reads it (asked once a run).
gm_view_id()
{
	[[ -n "${GM_VIEW_ID:-}" ]] || hash_files_to GM_VIEW_ID "$TOP/tools/gm-view.pl"
}

# gm_auto_plain(): whether the commands make send runs on a patch for
# its recipients read of it only what get_maintainer.pl does: none runs
# (AUTO_CC=0), or each of the b4 config's send-auto-to-cmd and
# send-auto-cc-cmd (b4's defaults when unset, as tools/stages/cc runs
# them) is scripts/get_maintainer.pl with options that only choose what
# it prints or make it read less. Any other command (a script of one's
# own, another option) may read anything of the patch. Asked of the
# config once a run.
GM_AUTO_FOR='' GM_AUTO_PLAIN=''
gm_auto_plain()
{
	local b4config=${INPUTS_RUN[b4config]} key cmd w
	local for="$b4config ${AUTO_CC:-1} ${INPUTS_RUN[b4config-text]}"
	local -a words=()

	if [[ "$GM_AUTO_FOR" != "$for" ]]; then
		GM_AUTO_FOR=$for GM_AUTO_PLAIN=1
		if [[ "${AUTO_CC:-1}" != 0 ]]; then
			for key in send-auto-to-cmd send-auto-cc-cmd; do
				cmd=$(git config -f "$b4config" --get "b4.$key" 2> /dev/null)
				# b4's defaults are of these options alone.
				[[ -n "$cmd" ]] || continue
				read -ra words <<< "$cmd"
				[[ "${words[0]:-}" == scripts/get_maintainer.pl ]] || GM_AUTO_PLAIN=0
				for w in "${words[@]:1}"; do
					case $w in
					--no-tree | --notree | --nogit | --nogit-fallback | \
					--nogit-chief-penguins | --nogit-blame | \
					--[mrlns] | --no[mrlns] | --rolestats | --norolestats | \
					--roles | --noroles | --moderated | --nomoderated | \
					--multiline | --nomultiline | --remove-duplicates | \
					--noremove-duplicates | --fixes | --nofixes | \
					--keywords | --nokeywords) ;;
					*) GM_AUTO_PLAIN=0 ;;
					esac
				done
			done
		fi
	fi
	((GM_AUTO_PLAIN))
}

# gm_view_sum(): variable $1 = the sum of commit $2's patch as its own
# scripts/get_maintainer.pl reads it (tools/gm-view.pl: the files, the
# K: patterns of its MAINTAINERS the lines match, the Fixes: ids); the
# patch formatted as tools/stages/cc does, in the environment of a
# program (tools/cell.sh, cell_exec: no user's git config). Fails when
# that get_maintainer.pl reads a patch in a way gm-view.pl does not
# know, or when gm-view.pl fails (a K: pattern that does not compile:
# get_maintainer.pl dies on it too); the caller then keys by the whole
# patch, so gm-view.pl's messages would only be noise.
# A commit's view, a script's and a MAINTAINERS' facts are kept in memos
# gm-view, gm-script and gm-keywords.
gm_view_sum()
{
	local -n __gv_ref=$1; shift
	local sha=$1; shift
	local blobs known kw __gv_v __gv_git
	local -a env=("PATH=$PATH")

	gm_view_id
	tool_version_once __gv_git git
	if ! memo_get __gv_v gm-view "$sha $__gv_git $GM_VIEW_ID"; then
		blobs_at blobs maintainers-blobs "$sha" MAINTAINERS scripts/get_maintainer.pl ||
			return 1
		if ! memo_get known gm-script "${blobs#* } $GM_VIEW_ID"; then
			known=$(set -o pipefail
				git --git-dir="$KREPO" cat-file blob "${blobs#* }" |
					perl "$TOP/tools/gm-view.pl" script) || return 1
			memo_put gm-script "${blobs#* } $GM_VIEW_ID" "$known"
		fi
		[[ "$known" == known ]] || return 1
		if ! memo_get kw gm-keywords "${blobs%% *} $GM_VIEW_ID"; then
			kw=$(set -o pipefail
				git --git-dir="$KREPO" cat-file blob "${blobs%% *}" |
					perl "$TOP/tools/gm-view.pl" keywords 2> /dev/null) || return 1
			memo_put gm-keywords "${blobs%% *} $GM_VIEW_ID" "$kw"
		fi
		[[ -n "${LANG:-}" ]] && env+=("LANG=$LANG")
		[[ -n "${LC_ALL:-}" ]] && env+=("LC_ALL=$LC_ALL")
		__gv_v=$(set -o pipefail
			env -i "${env[@]}" git --git-dir="$KREPO" format-patch -1 --stdout "$sha" |
				perl "$TOP/tools/gm-view.pl" patch 3<<< "$kw" 2> /dev/null |
				sha1sum) || return 1
		__gv_v=${__gv_v%% *}
		memo_put gm-view "$sha $__gv_git $GM_VIEW_ID" "$__gv_v"
	fi
	__gv_ref=$__gv_v
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
# The same, for a program that makes commits there (the sandbox lets it
# write: the name ends in -rw).
input_kernel_repo_rw() { input_kernel_repo "$@"; }
# The commit the step's patches go onto: the step before's, the base's
# for the preparation (step 0). Keyed by its id, which names its whole
# history, as the commit made on it names it.
input_onto()
{
	local -n __iv=$1 __ik=$2 __if=$6
	__iv=${__if[onto]}
	__ik=$__iv
	[[ "$__iv" =~ ^[0-9a-f]{40}$ ]]
}
# The worktree, which the program writes (it makes the commit there), at
# the commit input onto names: the driver checks it out before it starts
# the program (apply_all), and the program checks that it is. Its
# content is that commit's, which onto keys.
input_worktree_rw() { local -n __iv=$1 __ik=$2; __iv=$WT; __ik=; }
# The step's patch files (the preparation's at step 0), in order, as a
# file of their paths, one a line; keyed by their contents and paths (a
# failure's details name them where they are).
input_patches()
{
	local -n __iv=$1 __ik=$2
	local -a __ip=()
	local __id

	series_patches __ip "$3"
	[[ "${__ip[*]}" != *$'\n'* ]] || return 1
	for __id in "${__ip[@]}"; do
		[[ -r "$__id" ]] || return 1
	done
	cell_id_to __id "$3" "${5:--}" "$4"
	__iv=$RUNDIR/inputs/$__id.patches
	printf '%s\n' "${__ip[@]}" > "$__iv" || return 1
	hash_files_to __ik "${__ip[@]}" || return 1
	__ik="$__ik ${__ip[*]}"
}
# git, by its version (a program that runs git am or the like).
input_git() { local -n __iv=$1 __ik=$2; __iv=-; tool_version_once __ik git; }
# The step's commit, keyed by its patch: the message and the diff.
input_commit()
{
	local -n __iv=$1 __ik=$2 __if=$6
	__iv=${__if[sha]}
	patch_sum __ik "$__iv"
}
# The step's commit as its tree: only the files decide.
input_commit_tree() { local -n __iv=$1 __ik=$2 __if=$6; __iv=${__if[tree]}; __ik=$__iv; [[ -n "$__iv" ]]; }
# The step's commit as scripts/get_maintainer.pl reads its patch: the
# value the commit (the program formats the patch), the key the files,
# matched K: keywords and Fixes: ids the patch gives it (gm_view_sum),
# so that an edit of a comment or of the message that changes none of
# them keeps the key. The whole patch (as input commit) when make send
# runs another command on the patch (gm_auto_plain), or when the step's
# get_maintainer.pl is not one whose reading gm-view.pl knows.
input_commit_gm_view()
{
	local -n __iv=$1 __ik=$2 __if=$6
	local __is

	__iv=${__if[sha]}
	if gm_auto_plain && gm_view_sum __is "$__iv"; then
		__ik="gm-view $GM_VIEW_ID $__is"
		return 0
	fi
	patch_sum __is "$__iv" || return 1
	__ik="patch $__is"
}
# The step's commit as the C files and headers it touches: the value its
# tree, the key their paths and blobs at the commit (c_files_sums).
input_commit_c_files()
{
	local -n __iv=$1 __ik=$2 __if=$6
	local __ip

	__iv=${__if[tree]}
	[[ -n "$__iv" ]] && c_files_sums __ip __ik "$6"
}
# The commit before the step, keyed by its tree.
input_parent()
{
	local -n __iv=$1 __ik=$2 __if=$6
	__iv=${__if[parent]}
	parent_tree __ik "$6"
}
# The commit before the step as the C files and headers the step
# touches: the value the commit, the key their paths and blobs there.
input_parent_c_files()
{
	local -n __iv=$1 __ik=$2 __if=$6
	local __ic

	__iv=${__if[parent]}
	c_files_sums __ik __ic "$6"
}
# checkpatch.pl of the step's tree (a program runs it from git): its
# blobs and the codespell it calls (codespell starts Python: asked once).
input_checkpatch_script()
{
	local -n __iv=$1 __ik=$2 __if=$6
	local __ib __ic
	__iv=-
	checkpatch_blobs __ib "${__if[sha]}" || return 1
	tool_version_once __ic codespell
	__ik="$__ib $__ic"
}
# scripts/kernel-doc of the step's tree and of the step before (a
# program runs each side's own): their blobs.
input_kernel_doc_script()
{
	local -n __iv=$1 __ik=$2 __if=$6
	local __ip __ic

	__iv=-
	kernel_doc_blob __ip "${__if[parent]}" || return 1
	kernel_doc_blob __ic "${__if[sha]}" || return 1
	__ik="$__ip $__ic"
}
# MAINTAINERS and get_maintainer.pl of the step's tree.
input_maintainers()
{
	local -n __iv=$1 __ik=$2 __if=$6
	__iv=-
	blobs_at __ik maintainers-blobs "${__if[sha]}" MAINTAINERS scripts/get_maintainer.pl
}
input_perl() { local -n __iv=$1 __ik=$2; __iv=-; tool_version_once __ik perl; }
# The C tools that parse and judge findings (tools/bin: tags, findings).
input_robot_tools() { local -n __iv=$1 __ik=$2; __iv=-; robot_tools_id __ik; }
input_idx() { local -n __iv=$1 __ik=$2; __iv=$3; __ik=$3; }
# Where the program writes the step's patch, named as the series names
# it (a finding names the file).
input_patch_out()
{
	local -n __iv=$1 __ik=$2
	series_patch __ik "$3"
	__iv=$RUNDIR/patches/$4/${__ik##*/}
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
	local -n __iv=$1 __ik=$2 __if=$6
	__iv=$WT
	__ik=${__if[tree]}
	[[ -n "$__ik" ]]
}
# The checkpatch.pl warning types the step accepts (series.yaml
# checkpatch-accept), as a file of TYPE=REASON lines.
input_checkpatch_accept()
{
	local -n __iv=$1 __ik=$2
	local __it
	__iv=$RUNDIR/accept/$3-checkpatch-types.txt
	series_step __it checkpatch-accept "$3"
	printf '%s' "$__it" > "$__iv" || return 1
	text_of __ik "$__iv"
}
# The series file: the details name it as the file to edit.
input_series() { local -n __iv=$1 __ik=$2; __iv=$SERIES; __ik=$SERIES; }
# The b4 config make send uses (tools/send.sh), and whether b4 adds
# get_maintainer.pl's recipients itself.
input_b4config()
{
	local -n __iv=$1 __ik=$2
	__iv=${INPUTS_RUN[b4config]}
	__ik="$__iv ${INPUTS_RUN[b4config-text]}"
}
input_auto_cc() { local -n __iv=$1 __ik=$2; __iv=${AUTO_CC:-1}; __ik=$__iv; }
}

# The step's build on the target: its artifacts (tools/stages/build.sh),
# named by the build's key, which covers all that made them.
input_build_art()
{
	local -n __iv=$1 __ik=$2 __if=$6
	__iv=${__if[art]}
	__ik=${__iv##*/}
	[[ -n "$__iv" ]]
}
# The same target's build of the step before: from this run, or (a run
# of some steps only) where the cache keeps it; "-" when it is in neither
# (the program then says so, and skips).
input_prev_build_art()
{
	local -n __iv=$1 __ik=$2 __if=$6
	local __ip
	__iv=${__if[part]}
	if [[ -z "$__iv" ]]; then
		parent_tree __ip "$6" || return 1
		build_key __ik "$5" "$__ip"
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
	series_step __ik abi "$3"
	printf '%s' "$__ik" > "$__iv" || return 1
}
# Whether the changes of the series' exports are judged against its
# declarations (yes), or reported only (no: a series just taken in by
# --range or --mbox, which could declare none; bisect-check's args()).
input_abi_judged() { local -n __iv=$1 __ik=$2; __iv=${INPUTS_RUN[abi-judged]}; __ik=$__iv; }
# tools/bin/abi, by its sources.
input_abi_tool()
{
	local -n __iv=$1 __ik=$2
	__iv=$TOP/tools/bin/abi
	hash_files_to __ik "$TOP/tools/src/abi.c" "$TOP/tools/src/util.h"
}
# The results of the step's boot on the target, for a stage that judges
# them: the boot's dir (its triage.tsv, the skips it was given, the
# second boot's findings); keyed by the boot cell's key, which covers the
# kernel, the guest's program and how it ran (boot_cells writes it there,
# boot.key, before it looks the cells up).
input_boot_results()
{
	local -n __iv=$1 __ik=$2
	local __id

	cell_id_to __id "$3" "$5"
	__iv=$RUNDIR/boot/$__id
	text_of __ik "$__iv/boot.key" && [[ -n "$__ik" ]]
}
# The record of that boot: a boot not stored (flaky, or its tool failed)
# makes what judges it not stored either. No key: the boot's key is
# boot-results'.
input_boot_record()
{
	local -n __iv=$1 __ik=$2
	local -A __ib

	cell_files __ib "$3" "$5" boot
	__iv=${__ib[rec]}
	__ik=
}
