#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh - the one series loader: validate a series.yaml with
# tools/bin/series (libyaml) and load every record into shell variables;
# write a loaded (and edited) series back out as YAML. The targets'
# identities and tables are target.sh's.
#
# Variables set for the caller.
# shellcheck disable=SC2034
#
# Sourced by every tool that reads a series, and by cell.sh (the
# steps' labels); expects lib.sh. Sourced once: a second source would
# drop the loaded series.
[[ -n "${BISECT_SERIES_SH:-}" ]] && return 0
BISECT_SERIES_SH=1

# The steps, this file's own (series_nsteps, series_patches,
# series_label): SERIES_NSTEPS of them, step 0 the preparation, made of
# the patch files SERIES_PREP, step N of SERIES_PATCH[N]; SERIES_LABEL[N]
# what progress calls it ("0", "N/M").
declare -a SERIES_PATCH=() SERIES_LABEL=() ACCEPT_TYPES=()
SERIES_NSTEPS=0
# FINDING_ACCEPT[N]: the findings patch N accepts (series.yaml
# findings-accept), one "CHECK<TAB>KIND<TAB>FILE<TAB>MATCH<TAB>REASON\n"
# each, KIND and FILE "*" for any.
declare -a FINDING_ACCEPT=()
# ABI_DECL[N]: the changes to the exported symbols patch N declares
# (series.yaml abi), one "KIND<TAB>SYMBOL\n" each, KIND removes, adds or
# changes.
declare -a ABI_DECL=()
declare -a SERIES_PREP=() TEST_IDS=()
declare -A ACCEPT_REASON=() EXPECT=() TEST_CLAIM=()
# TGT_SKIP[target:step:test]: why the target's guest does not run that
# test at that step.
declare -A TGT_SKIP=()
# TGT_SKIP_CASES[target:step:test]: the KUnit cases of that test the
# target does not count at that step, "CASES<TAB>WORDS<TAB>REASON": CASES
# "a,b" as declared, WORDS "SUITE.CASE,..." for the runner's
# bisect_skip_cases=, REASON why. The test is judged by its other cases.
declare -A TGT_SKIP_CASES=()
declare -a GUEST_OPS=() GUEST_OPS_YAML=() GUEST_DRIVERS=() GUEST_KCONFIG=()
declare -a GUEST_TEST_IDS=() GUEST_EXECS=()
# The series' own fields, by the name of their record: name, version,
# cover (the cover letter's file, empty for none), config (the config
# fragment), package, or repo and base-commit (the base: the other one,
# or two, empty), timeout (boot.timeout), guest-modules and
# guest-programs (their dirs, "-" for none), and guest-fragment (the
# config fragment of the guest's KUnit options, guest_check; empty for
# none). This file's own: series_get reads one, series_set changes one
# (before series_write); series_list copies one of the guest's lists.
declare -A SERIES_META=()

# shellcheck source=tools/target.sh
source "$TOP/tools/target.sh"
# hash_to, for the guest's fragment; sourced once (its tables are read-only).
# shellcheck source=tools/cache.sh
declare -F hash_to > /dev/null || source "$TOP/tools/cache.sh"

# series_get(): variable $1 = the series' field $2 (SERIES_META's names).
series_get()
{
	local -n __se_ref=$1; shift

	[[ -n "${SERIES_META[$1]+set}" ]] || die "series_get: no field '$1' (a series is loaded first)"
	__se_ref=${SERIES_META[$1]}
}

# series_set(): the series' field $1 = $2, as series_write writes it.
series_set()
{
	[[ -n "${SERIES_META[$1]+set}" ]] || die "series_set: no field '$1' (a series is loaded first)"
	SERIES_META[$1]=$2
}

# series_list(): array $1 = the guest's list $2: program (the programs
# of guest-programs it runs, by name), driver (the modules its
# initramfs loads), kconfig (the options its operations need) or op
# (its operations, as the runner reads them).
series_list()
{
	local -n __sl_ref=$1; shift

	case $1 in
	program) __sl_ref=("${GUEST_EXECS[@]}") ;;
	driver) __sl_ref=("${GUEST_DRIVERS[@]}") ;;
	kconfig) __sl_ref=("${GUEST_KCONFIG[@]}") ;;
	op) __sl_ref=("${GUEST_OPS[@]}") ;;
	*) die "series_list: no list '$1'" ;;
	esac
}

# series_step(): variable $1 = step $3's field $2: abi (the changes to
# the exported symbols it declares, "KIND<TAB>SYMBOL\n" each: ABI_DECL),
# findings-accept (the robots' findings it accepts, "CHECK<TAB>KIND<TAB>
# FILE<TAB>MATCH<TAB>REASON\n" each: FINDING_ACCEPT) or checkpatch-accept
# (the checkpatch.pl types it accepts, "TYPE=REASON\n" each, in the
# series' order). Empty for none.
series_step()
{
	local -n __ss_ref=$1; shift
	local field=$1; shift
	local idx=$1; shift
	local __ss_t

	case $field in
	abi) __ss_ref=${ABI_DECL[idx]:-} ;;
	findings-accept) __ss_ref=${FINDING_ACCEPT[idx]:-} ;;
	checkpatch-accept)
		__ss_ref=
		for __ss_t in ${ACCEPT_TYPES[idx]:-}; do
			__ss_ref+=$__ss_t=${ACCEPT_REASON["$idx:$__ss_t"]}$'\n'
		done
		;;
	*) die "series_step: no field '$field'" ;;
	esac
}

# series_step_set(): step $2's field $1 (series_step's, in its form) =
# $3, as series_write writes it; empty: none.
series_step_set()
{
	local field=$1; shift
	local idx=$1; shift
	local text=$1; shift
	local t line

	case $field in
	abi)
		unset 'ABI_DECL[idx]'
		[[ -z "$text" ]] || ABI_DECL[idx]=$text
		;;
	findings-accept)
		unset 'FINDING_ACCEPT[idx]'
		[[ -z "$text" ]] || FINDING_ACCEPT[idx]=$text
		;;
	checkpatch-accept)
		for t in ${ACCEPT_TYPES[idx]:-}; do
			unset 'ACCEPT_REASON[$idx:$t]'
		done
		unset 'ACCEPT_TYPES[idx]'
		while IFS= read -r line; do
			[[ -n "$line" ]] || continue
			ACCEPT_TYPES[idx]+="${line%%=*} "
			ACCEPT_REASON["$idx:${line%%=*}"]=${line#*=}
		done <<< "$text"
		;;
	*) die "series_step_set: no field '$field'" ;;
	esac
}

# series_claim(): variable $1 = the claim of test $2 (empty: no such).
series_claim()
{
	local -n __sc_ref=$1; shift

	__sc_ref=${TEST_CLAIM[$1]:-}
}

# series_nsteps(): variable $1 = the number of steps, the preparation's
# (step 0) included.
series_nsteps()
{
	local -n __sn_ref=$1; shift

	__sn_ref=$SERIES_NSTEPS
}

# series_patches(): array $1 = the patch files of step $2 (the
# preparation's for 0; "-" for all of every step, in order).
series_patches()
{
	local -n __sp_ref=$1; shift

	if [[ "$1" == - ]]; then
		__sp_ref=("${SERIES_PREP[@]}" "${SERIES_PATCH[@]}")
	elif (($1 == 0)); then
		__sp_ref=("${SERIES_PREP[@]}")
	else
		__sp_ref=("${SERIES_PATCH[$1]}")
	fi
}

# series_patch(): variable $1 = the patch file of step $2 (1 and on).
series_patch()
{
	local -n __sp1_ref=$1; shift

	__sp1_ref=${SERIES_PATCH[$1]:-}
}

# series_patch_set(): step $1 (1 and on; past the last adds steps) is
# the patch file $2, as series_write writes it.
series_patch_set()
{
	[[ "$1" =~ ^[1-9][0-9]*$ ]] || die "series_patch_set: no step '$1' (a patch is step 1 or later)"
	SERIES_PATCH[$1]=$2
	(($1 < SERIES_NSTEPS)) || SERIES_NSTEPS=$(($1 + 1))
}

# series_prep_set(): the preparation (step 0) is the patch files $@.
series_prep_set()
{
	SERIES_PREP=("$@")
	((SERIES_NSTEPS > 0)) || SERIES_NSTEPS=1
}

# series_label(): variable $1 = what progress lines call step $2.
series_label()
{
	local -n __sla_ref=$1; shift

	__sla_ref=${SERIES_LABEL[$1]:-$1}
}

# series_label_set(): step $1 is called $2 (bisect-run: HEAD).
series_label_set()
{
	SERIES_LABEL[$1]=$2
}

# series_tests(): array $1 = the series' tests, by id, in its order (a
# tool may narrow them: series_tests_set).
series_tests()
{
	local -n __st_ref=$1; shift

	__st_ref=("${TEST_IDS[@]}")
}

# series_tests_set(): the tests a tool asks about are $@ (bisect-run:
# those of its question); the guest's program still declares all.
series_tests_set()
{
	TEST_IDS=("$@")
}

# series_expected(): variable $1 = the answer test $3 is to give at step
# $2 (yes or no; series.yaml expect), empty when none is declared.
series_expected()
{
	local -n __sx_ref=$1; shift

	__sx_ref=${EXPECT["$1:$2"]:-}
}

# series_expected_set(): test $2 is to answer $3 at step $1.
series_expected_set()
{
	EXPECT["$1:$2"]=$3
}

# series_skip(): variable $1 = why target $2's guest does not run test $4
# at step $3; empty when it does.
series_skip()
{
	local -n __sk_ref=$1; shift

	__sk_ref=${TGT_SKIP["$1:$2:$3"]:-}
}

# series_skip_cases(): variable $1 = the KUnit cases of test $4 target
# $2 does not count at step $3, "CASES<TAB>WORDS<TAB>REASON" (CASES as
# declared, WORDS the runner's SUITE.CASE,...); empty for none.
series_skip_cases()
{
	local -n __sk_ref=$1; shift

	__sk_ref=${TGT_SKIP_CASES["$1:$2:$3"]:-}
}

# series_skip_set(): target $1 does not run test $3 at step $2, for
# reason $4 (empty: it does).
series_skip_set()
{
	if [[ -n "$4" ]]; then
		TGT_SKIP["$1:$2:$3"]=$4
	else
		unset 'TGT_SKIP[$1:$2:$3]'
	fi
}

# series_skip_cases_set(): target $1 does not count the KUnit cases $4
# (series_skip_cases' form; empty: it counts all) of test $3 at step $2.
series_skip_cases_set()
{
	if [[ -n "$4" ]]; then
		TGT_SKIP_CASES["$1:$2:$3"]=$4
	else
		unset 'TGT_SKIP_CASES[$1:$2:$3]'
	fi
}

# series_skips_clear(): no target skips a test or a case, at any step.
series_skips_clear()
{
	TGT_SKIP=() TGT_SKIP_CASES=()
}

# series_expect(): array $1 = what target $2's guest is to show at step
# $3, a word per test: "ID=skip:REASON" for a test it does not run
# there, else "ID=ANSWER" and, when it does not count some of the test's
# KUnit cases, a tab and series_skip_cases' three fields.
series_expect()
{
	local -n __se_exp=$1; shift
	local t=$1; shift
	local idx=$1; shift
	local id k

	__se_exp=()
	for id in "${TEST_IDS[@]}"; do
		k=$t:$idx:$id
		if [[ -n "${TGT_SKIP[$k]:-}" ]]; then
			__se_exp+=("$id=skip:${TGT_SKIP[$k]}")
		else
			__se_exp+=("$id=${EXPECT["$idx:$id"]}${TGT_SKIP_CASES[$k]:+$'\t'${TGT_SKIP_CASES[$k]}}")
		fi
	done
}

# series_branch(): variable $1 = the series' branch in the kernel repo,
# bisect/NAME/vVERSION (and NAME-vVERSION-base its base's).
series_branch()
{
	local -n __sb_ref=$1; shift

	__sb_ref=bisect/${SERIES_META[name]}/v${SERIES_META[version]}
}

# load_series(): validate series file $1 with tools/bin/series and load
# all of it; a second call loads another series in place of the first.
load_series()
{
	local file=$1; shift
	local records kind a b c d e f i n=0 archs=()

	[[ -f "$file" ]] || die "$file: no such series file (set SERIES=path/to/series.yaml)"
	[[ -x "$TOP/tools/bin/series" ]] || die "tools/bin/series is not built: run 'make tools'"
	# The archs a target may name are those of tools/arch.tsv.
	for a in $(arch_names); do
		archs+=(--arch "$a")
	done
	records=$("$TOP/tools/bin/series" "${archs[@]}" "$file") || exit "$EXIT_SETUP"
	SERIES_PATCH=() SERIES_LABEL=() ACCEPT_TYPES=() SERIES_PREP=() TEST_IDS=()
	ACCEPT_REASON=() EXPECT=() TEST_CLAIM=() FINDING_ACCEPT=() ABI_DECL=()
	TGT_SKIP=() TGT_SKIP_CASES=()
	targets_clear
	GUEST_OPS=() GUEST_OPS_YAML=() GUEST_DRIVERS=() GUEST_KCONFIG=()
	GUEST_EXECS=()
	SERIES_META=([name]='' [version]='' [cover]='' [config]='' [package]='' [repo]=''
		[base-commit]='' [timeout]='' [guest-modules]=- [guest-programs]=-
		[guest-fragment]='')
	# The last variable takes the rest of the line, tabs and all: the
	# longest record with a fixed number of fields, finding-accept, has
	# seven.
	while IFS=$'\t' read -r kind a b c d e f; do
		case $kind in
		name | version | cover | config | package | repo | base-commit | timeout | \
		guest-modules | guest-programs)
			SERIES_META[$kind]=$a
			;;
		target)
			target_add "$a" "$b" "$c" "$d" "$e"
			;;
		skip) TGT_SKIP["$a:$b:$c"]=$d ;;
		skip-cases) TGT_SKIP_CASES["$a:$b:$c"]=$d$'\t'$e$'\t'$f ;;
		test) TEST_IDS+=("$a"); TEST_CLAIM[$a]=$b ;;
		prep) SERIES_PREP+=("$a") ;;
		patch) SERIES_PATCH[a]=$b; n=$a ;;
		accept)
			ACCEPT_TYPES[a]+="$b "
			ACCEPT_REASON["$a:$b"]=$c
			;;
		finding-accept) FINDING_ACCEPT[a]+="$b"$'\t'"$c"$'\t'"$d"$'\t'"$e"$'\t'"$f"$'\n' ;;
		abi) ABI_DECL[a]+="$b"$'\t'"$c"$'\n' ;;
		expect) EXPECT["$a:$b"]=$c ;;
		program) GUEST_EXECS+=("$a") ;;
		driver) GUEST_DRIVERS+=("$a") ;;
		kconfig) GUEST_KCONFIG+=("$a") ;;
		op)
			# Fields are never empty: rejoined as the runner's line.
			a+=${b:+$'\t'$b}${c:+$'\t'$c}${d:+$'\t'$d}
			GUEST_OPS+=("$a${e:+$'\t'$e}${f:+$'\t'$f}")
			;;
		opyaml) GUEST_OPS_YAML+=("$a") ;;
		esac
	done <<< "$records"
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-${SERIES_META[timeout]}}
	targets_check "$file"
	guest_check "$file"
	# The runner's program declares every test its operations name,
	# whatever a tool later asks about (bisect-run narrows TEST_IDS).
	GUEST_TEST_IDS=("${TEST_IDS[@]}")
	SERIES_NSTEPS=$((n + 1))
	SERIES_LABEL[0]=0
	for ((i = 1; i < SERIES_NSTEPS; i++)); do
		SERIES_LABEL[i]="$i/$n"
	done
}

# guest_check(): a series whose targets boot and that declares tests
# has a guest program (file $1's guest.run) to judge them; a series
# without tests needs none, its boots judged by their console alone. The
# program's KUnit options become a config fragment of their own, the
# field guest-fragment, named by its contents (target.sh merges it).
guest_check()
{
	local file=$1; shift
	local t text frag boots
	local -a names

	if ((!${#GUEST_OPS[@]})); then
		((${#TEST_IDS[@]})) || return 0
		targets_names names
		for t in "${names[@]}"; do
			target_field boots "$t" boot
			[[ "$boots" == yes ]] &&
				die "$file: target $t boots, but the series has no guest.run to judge its tests: declare what the guest does (guest/README), leave tests out, or boot: no"
		done
		return 0
	fi
	((${#GUEST_KCONFIG[@]})) || return 0
	printf -v text '%s\n' "# The options the guest's operations need (series.yaml guest.run)." \
		"${GUEST_KCONFIG[@]}"
	hash_to t "$text"
	frag=$WORKDIR/kconfig/guest-$t.config
	SERIES_META[guest-fragment]=$frag
	[[ -f "$frag" ]] && return 0
	# A WORKDIR that cannot take it is reported by the caller's own
	# check of WORKDIR, which says what to do; no build runs without.
	{ mkdir -p "$WORKDIR/kconfig" && printf '%s' "$text" > "$frag.tmp.$$" &&
		mv "$frag.tmp.$$" "$frag"; } 2> /dev/null ||
		rm -f "$frag.tmp.$$" 2> /dev/null
	return 0
}

# guest_program(): the guest runner's program (guest/README): the
# declared tests, then the operations.
guest_program()
{
	local id op

	for id in "${GUEST_TEST_IDS[@]}"; do
		printf 'test\t%s\n' "$id"
	done
	for op in "${GUEST_OPS[@]}"; do
		printf 'op\t%s\n' "$op"
	done
}

# yaml_str(): $1 as a double-quoted YAML scalar.
yaml_str()
{
	local v=${1//\\/\\\\}
	printf '"%s"' "${v//\"/\\\"}"
}

# abi_by_kind(): the declarations $1 (ABI_DECL's form) as one
# "KIND<TAB>SYMBOL, SYMBOL..." line per kind, removes, adds, changes.
abi_by_kind()
{
	local k kind sym list

	for k in removes adds changes; do
		list=''
		while IFS=$'\t' read -r kind sym; do
			[[ "$kind" == "$k" ]] && list+=${list:+, }$sym
		done <<< "$1"
		[[ -z "$list" ]] || printf '%s\t%s\n' "$k" "$list"
	done
}

# series_write(): print the loaded series as series.yaml text, with the
# paths absolute: a tool that edits a series (bench's edited 3/3, a
# longer series) changes the variables and writes it out with this.
# What the series has none of (cover letter, prep, tests and so their
# expectations, guest) is left out.
series_write()
{
	local id i t skip check kind file match reason listed sym cases arch cc boots own
	local -a names

	printf 'name: %s\nversion: %s\n' "$(yaml_str "${SERIES_META[name]}")" \
		"${SERIES_META[version]}"
	[[ -z "${SERIES_META[cover]}" ]] ||
		printf 'cover-letter: %s\n' "$(yaml_str "${SERIES_META[cover]}")"
	printf 'config: %s\nbase:\n' "$(yaml_str "${SERIES_META[config]}")"
	if [[ -n "${SERIES_META[repo]}" ]]; then
		printf '  repo: %s\n  commit: %s\n' "$(yaml_str "${SERIES_META[repo]}")" \
			"$(yaml_str "${SERIES_META[base-commit]}")"
	else
		printf '  package: %s\n' "$(yaml_str "${SERIES_META[package]}")"
	fi
	((${#SERIES_PREP[@]} == 0)) || printf '  prep:\n'
	for i in "${SERIES_PREP[@]}"; do
		printf '    - %s\n' "$(yaml_str "$i")"
	done
	((${#TEST_IDS[@]} == 0)) || printf '  expect:\n'
	for id in "${TEST_IDS[@]}"; do
		printf '    %s: %s\n' "$id" "${EXPECT["0:$id"]}"
	done
	printf 'boot:\n  timeout: %s\ntargets:\n' "${SERIES_META[timeout]}"
	targets_names names
	for t in "${names[@]}"; do
		target_field arch "$t" arch
		target_field cc "$t" compiler
		target_field boots "$t" boot
		target_field own "$t" config
		printf '  - name: %s\n    arch: %s\n    compiler: %s\n    boot: %s\n' \
			"$t" "$arch" "$cc" "$boots"
		[[ "$own" == - ]] ||
			printf '    config: %s\n' "$(yaml_str "$own")"
		# One skip item per step and test: the reasons may differ.
		skip=
		for ((i = 0; i < SERIES_NSTEPS; i++)); do
			for id in "${TEST_IDS[@]}"; do
				[[ -n "${TGT_SKIP["$t:$i:$id"]:-}" ]] || continue
				[[ -n "$skip" ]] || printf '    skip:\n'
				skip=1
				printf '      - tests: [%s]\n        steps: [%d]\n        reason: %s\n' \
					"$id" "$i" "$(yaml_str "${TGT_SKIP["$t:$i:$id"]}")"
			done
			for id in "${TEST_IDS[@]}"; do
				[[ -n "${TGT_SKIP_CASES["$t:$i:$id"]:-}" ]] || continue
				[[ -n "$skip" ]] || printf '    skip:\n'
				skip=1
				IFS=$'\t' read -r cases _ reason <<< "${TGT_SKIP_CASES["$t:$i:$id"]}"
				printf '      - tests: [%s]\n        cases: [%s]\n        steps: [%d]\n        reason: %s\n' \
					"$id" "${cases//,/, }" "$i" "$(yaml_str "$reason")"
			done
		done
	done
	((${#TEST_IDS[@]} == 0)) || printf 'tests:\n'
	for id in "${TEST_IDS[@]}"; do
		printf '  - id: %s\n    claim: %s\n' "$id" "$(yaml_str "${TEST_CLAIM[$id]}")"
	done
	if ((${#GUEST_OPS_YAML[@]})); then
		printf 'guest:\n'
		[[ "${SERIES_META[guest-modules]}" == - ]] ||
			printf '  modules: %s\n' "$(yaml_str "${SERIES_META[guest-modules]}")"
		[[ "${SERIES_META[guest-programs]}" == - ]] ||
			printf '  programs: %s\n' "$(yaml_str "${SERIES_META[guest-programs]}")"
		printf '  run:\n'
		printf '    - %s\n' "${GUEST_OPS_YAML[@]}"
	fi
	printf 'patches:\n'
	for ((i = 1; i < SERIES_NSTEPS; i++)); do
		printf '  - file: %s\n' "$(yaml_str "${SERIES_PATCH[i]}")"
		if [[ -n "${ACCEPT_TYPES[i]:-}" ]]; then
			printf '    checkpatch-accept:\n'
			for t in ${ACCEPT_TYPES[i]}; do
				printf '      - type: %s\n        reason: %s\n' "$t" \
					"$(yaml_str "${ACCEPT_REASON["$i:$t"]}")"
			done
		fi
		# KIND and FILE "*" (any) are the defaults: left out.
		listed=''
		while IFS=$'\t' read -r check kind file match reason; do
			[[ -n "$check" ]] || continue
			[[ -n "$listed" ]] || printf '    findings-accept:\n'
			listed=1
			printf '      - check: %s\n' "$(yaml_str "$check")"
			[[ "$kind" == '*' ]] || printf '        kind: %s\n' "$(yaml_str "$kind")"
			[[ "$file" == '*' ]] || printf '        file: %s\n' "$(yaml_str "$file")"
			printf '        match: %s\n        reason: %s\n' "$(yaml_str "$match")" \
				"$(yaml_str "$reason")"
		done <<< "${FINDING_ACCEPT[i]:-}"
		listed=''
		while IFS=$'\t' read -r kind sym; do
			[[ -n "$kind" ]] || continue
			[[ -n "$listed" ]] || printf '    abi:\n'
			listed=1
			printf '      %s: [%s]\n' "$kind" "$sym"
		done <<< "$(abi_by_kind "${ABI_DECL[i]:-}")"
		((${#TEST_IDS[@]} == 0)) || printf '    expect:\n'
		for id in "${TEST_IDS[@]}"; do
			printf '      %s: %s\n' "$id" "${EXPECT["$i:$id"]}"
		done
	done
}
