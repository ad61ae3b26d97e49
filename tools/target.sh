#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# target.sh - the target dimension: a target is an arch, a compiler, the
# series' config fragment plus the target's own, and whether it boots
# (series.yaml `targets:`; absent means x86_64-gcc). What differs per
# arch and per compiler is data, in tools/arch.tsv and
# tools/compiler.tsv; this file is their only reader. It also keeps the
# identities build results depend on, per target: the build dir, the
# toolchain, the build key and the kernel's version string.
#
# A target is a value: target_get ARRAY NAME gives its fields, by name,
# in an associative array of the caller's; what builds or boots it takes
# the target's name (or such an array) as an argument. There is no
# current target.
#
# Variables set for the caller (through namerefs).
# shellcheck disable=SC2034
#
# Sourced by every tool that builds or boots; expects lib.sh and
# series.sh (whose loader gives each target to target_add).

declare -A ARCH_TAB=() CC_TAB=()
declare -A TGT_OUT=() TGT_CFGID=() TGT_TOOLCHAIN=()
# The series' targets as it declares them (target_add), this file's own:
# TGT_NAMES the selected ones in the series' order (targets_check,
# targets_only), and by name the arch, the compiler, the own config
# fragment ("-": none) and whether it boots (yes or no). Read through
# targets_names, target_get and target_field.
declare -a TGT_NAMES=()
declare -A TGT_ARCH=() TGT_COMPILER=() TGT_CONFIG=() TGT_BOOT=()

# targets_clear(): no target declared (a series loads anew).
targets_clear()
{
	TGT_NAMES=() TGT_ARCH=() TGT_COMPILER=() TGT_CONFIG=() TGT_BOOT=()
}

# targets_names(): array $1 = the selected targets, in the series' order.
targets_names()
{
	local -n __tn_ref=$1; shift

	__tn_ref=("${TGT_NAMES[@]}")
}

# targets_only(): select target $1 alone (tools/bisect-run, one target
# a question); fails when the series declares no such target.
targets_only()
{
	[[ -n "${TGT_ARCH[$1]:-}" ]] || return 1
	TGT_NAMES=("$1")
}

# target_add(): the series declares target $1: arch $2, compiler $3, own
# config fragment $4 ("-": none), boots $5 (yes or no).
target_add()
{
	TGT_NAMES+=("$1")
	TGT_ARCH[$1]=$2
	TGT_COMPILER[$1]=$3
	TGT_CONFIG[$1]=$4
	TGT_BOOT[$1]=$5
}

# target_field(): variable $1 = field $3 (arch, compiler, config, boot)
# of target $2 as the series declares it; empty for no such target.
target_field()
{
	local -n __tf_ref=$1; shift

	case $2 in
	arch) __tf_ref=${TGT_ARCH[$1]:-} ;;
	compiler) __tf_ref=${TGT_COMPILER[$1]:-} ;;
	config) __tf_ref=${TGT_CONFIG[$1]:-} ;;
	boot) __tf_ref=${TGT_BOOT[$1]:-} ;;
	*) die "target_field: no field '$2'" ;;
	esac
}

# tab_load(): read table $1 (tools/NAME.tsv) into the associative array
# named $2 as [row:field]; $3... are the field names after the first.
tab_load()
{
	local file=$TOP/tools/$1.tsv; shift
	local -n tab=$1; shift
	local -a f
	local i n=0

	[[ -r "$file" ]] || die "$file: cannot read the table"
	while IFS=$'\t' read -r -a f; do
		n=$((n + 1))
		[[ ${#f[@]} -eq 0 || "${f[0]}" == '#'* ]] && continue
		((${#f[@]} == $# + 1)) ||
			die "$file:$n: expected $(($# + 1)) tab-separated fields (${*}), found ${#f[@]}"
		tab["${f[0]}"]=1
		for ((i = 1; i <= $#; i++)); do
			tab["${f[0]}:${!i}"]=${f[i]}
		done
	done < "$file"
}

# targets_tables(): load arch.tsv and compiler.tsv, once.
targets_tables()
{
	((${#ARCH_TAB[@]})) && return 0
	tab_load arch ARCH_TAB karch cross image qemu qemu-args console results res-args \
		config user-cc identity kvm packages
	tab_load compiler CC_TAB cc make version packages
}

# arch_names(): the archs of arch.tsv, one a line.
arch_names()
{
	local k
	targets_tables
	for k in "${!ARCH_TAB[@]}"; do
		[[ "$k" == *:* ]] || echo "$k"
	done | sort
}

# targets_check(): every target of the loaded series (from file $1) has
# its compiler in compiler.tsv (the archs were checked by tools/bin/series
# --arch); TARGETS=name... selects some of them, in the series' order.
targets_check()
{
	local file=$1; shift
	local t keep=()

	((${#TGT_NAMES[@]})) || die "$file: tools/bin/series gave no target (make tools?)"
	targets_tables
	for t in "${TGT_NAMES[@]}"; do
		[[ -n "${CC_TAB[${TGT_COMPILER[$t]}]:-}" ]] ||
			die "$file: target $t: compiler '${TGT_COMPILER[$t]}' is not in tools/compiler.tsv (known: $(tab_keys CC_TAB))"
	done
	[[ -n "${TARGETS:-}" ]] || return 0
	for t in $TARGETS; do
		[[ -n "${TGT_ARCH[$t]:-}" ]] ||
			die "TARGETS=$TARGETS: $file declares no target '$t' (declared: ${TGT_NAMES[*]})"
	done
	for t in "${TGT_NAMES[@]}"; do
		[[ " $TARGETS " == *" $t "* ]] && keep+=("$t")
	done
	TGT_NAMES=("${keep[@]}")
}

# tab_keys(): the row names of table array $1.
tab_keys()
{
	local -n keys_of=$1
	local k
	for k in "${!keys_of[@]}"; do
		[[ "$k" == *:* ]] || printf '%s ' "$k"
	done
}

# target_get(): the associative array named $1 = target $2's fields:
#   name arch compiler boot   the series' target (series.yaml targets:)
#   karch cross image qemu console results res-args kvm identity
#   user-cc packages          its arch's row of arch.tsv ({cross}
#                             replaced, "-" of cross made empty)
#   qemu-args make            words, one space between two (read -a)
#   cc                        its compiler's cc, {cross} replaced
#   runner                    the guest runner binary of its arch
#   fragments                 its config fragments, one a line (the
#                             series', the arch's, its own, the guest's)
#   out toolchain cfgid       its build dir and identities (build_ids;
#                             empty before)
target_get()
{
	local -n __tg_ref=$1; shift
	local t=$1; shift
	local arch=${TGT_ARCH[$t]} cc=${TGT_COMPILER[$t]} cross v frags gfrag
	local -a w=()

	targets_tables
	cross=${ARCH_TAB[$arch:cross]}
	[[ "$cross" == - ]] && cross=
	read -r -a w <<< "${ARCH_TAB[$arch:qemu-args]}"
	__tg_ref=([name]=$t [arch]=$arch [compiler]=$cc [boot]=${TGT_BOOT[$t]}
		[karch]=${ARCH_TAB[$arch:karch]} [cross]=$cross
		[image]=${ARCH_TAB[$arch:image]} [qemu]=${ARCH_TAB[$arch:qemu]}
		[qemu-args]="${w[*]}" [console]=${ARCH_TAB[$arch:console]}
		[results]=${ARCH_TAB[$arch:results]} [res-args]=${ARCH_TAB[$arch:res-args]}
		[kvm]=${ARCH_TAB[$arch:kvm]} [identity]=${ARCH_TAB[$arch:identity]}
		[user-cc]=${ARCH_TAB[$arch:user-cc]} [packages]=${ARCH_TAB[$arch:packages]}
		[runner]=$TOP/tools/bin/guest-runner-$arch
		[cc]=${CC_TAB[$cc:cc]//\{cross\}/$cross}
		[out]=${TGT_OUT[$t]:-} [toolchain]=${TGT_TOOLCHAIN[$t]:-}
		[cfgid]=${TGT_CFGID[$t]:-})
	v=${CC_TAB[$cc:make]}
	w=()
	[[ "$v" == - ]] || read -r -a w <<< "${v//\{cross\}/$cross}"
	__tg_ref["make"]="${w[*]}"
	series_get frags config
	frags+=$'\n'$TOP/tools/kconfig/${ARCH_TAB[$arch:config]}
	[[ "${TGT_CONFIG[$t]}" == - ]] || frags+=$'\n'${TGT_CONFIG[$t]}
	# What the guest's KUnit suites need (series.sh, guest_check).
	series_get gfrag guest-fragment
	[[ -z "$gfrag" ]] || frags+=$'\n'$gfrag
	__tg_ref["fragments"]=$frags
}

# target_image(): variable $1 = target $2's image field alone (what a
# cached build must have, asked for every build cell a run looks up).
target_image()
{
	local -n __ti_ref=$1; shift

	targets_tables
	__ti_ref=${ARCH_TAB[${TGT_ARCH[$1]}:image]}
}

# target_words(): array $1 = the words of field $3 of target array $2
# (qemu-args, make: read -a; fragments: one a line).
target_words()
{
	local -n __tw_ref=$1; shift
	local -n __tw_t=$1; shift
	local field=$1; shift
	local v=${__tw_t["$field"]}

	__tw_ref=()
	[[ -n "$v" ]] || return 0
	if [[ "$field" == fragments ]]; then
		mapfile -t __tw_ref <<< "$v"
	else
		read -r -a __tw_ref <<< "$v"
	fi
}

# target_out(): target $1 builds in dir $2 (tools/bisect-run's own dirs).
target_out()
{
	TGT_OUT[$1]=$2
}

# target_packages(): variable $1 = the Debian packages the selected
# targets need, each followed by a space.
target_packages()
{
	local -n __tp_ref=$1; shift
	local __tp_t

	targets_tables
	__tp_ref=
	for __tp_t in "${TGT_NAMES[@]}"; do
		__tp_ref+="${ARCH_TAB[${TGT_ARCH[$__tp_t]}:packages]} ${CC_TAB[${TGT_COMPILER[$__tp_t]}:packages]} "
	done
}

# targets_deps(): install what the selected targets need (cross tools,
# emulators), when missing.
targets_deps()
{
	local pkgs key known

	target_packages pkgs
	# Asked of dpkg only when its database changed since the same
	# packages were found installed (memo deps: no fork on a rerun).
	dpkg_db_key key
	[[ -n "$key" ]] && hash_to key "$pkgs" "$key" && memo_get known deps "$key" && return 0
	# shellcheck disable=SC2046,SC2086  # one word per package
	"$TOP/tools/deps.sh" $(printf 'pkg:%s ' $pkgs) ||
		die "cannot install the packages of the targets ${TGT_NAMES[*]} (tools/arch.tsv, tools/compiler.tsv)"
	dpkg_db_key key
	[[ -n "$key" && -d "$WORKDIR" ]] && hash_to key "$pkgs" "$key" && memo_put deps "$key" installed
	return 0
}

# path_of(): REPLY, where program $1 is on PATH ("" when nowhere), with
# no fork.
path_of()
{
	local d
	local -a dirs
	REPLY=
	IFS=: read -r -a dirs <<< "$PATH"
	for d in "${dirs[@]}"; do
		if [[ -f "$d/$1" && -x "$d/$1" ]]; then
			REPLY=$d/$1
			return 0
		fi
	done
	return 1
}

# toolchain_id(): variable $1 = what decides target $2's build output
# besides tree and config: the compiler's and binutils' versions, and
# make's.
# Asking them takes a fork or three each, at every run; the answer is
# kept in memo toolchain under a key of the programs' files themselves
# (path, size, mtime, ctime, inode of each, links resolved): an upgrade
# changes those, and with them the key.
toolchain_id()
{
	local -n __tc_ref=$1; shift
	local t=$1; shift
	local c cmds bins=() key ids what
	local -A tg

	target_get tg "$t"
	what="$t ${tg[arch]} ${tg[compiler]} ${tg[make]}"
	c=${CC_TAB[${tg[compiler]}:version]}
	IFS=';' read -r -a cmds <<< "${c//\{cross\}/${tg[cross]}}"
	for c in "${cmds[@]}" make; do
		path_of "${c%% *}"
		bins+=("${REPLY:-${c%% *}}")
	done
	# The files' identities, as stat -L -c '%n %s %Y %Z %i' says them.
	files_id_to ids "${bins[@]}"
	hash_to key "$what" "$ids"
	memo_get __tc_ref toolchain "$key" && [[ -n "$__tc_ref" ]] && return 0
	__tc_ref=$(
		echo "$what"
		for c in "${cmds[@]}"; do
			# shellcheck disable=SC2086  # a command and its words
			$c 2>&1 | head -n 1
		done
		make --version 2>&1 | head -n 1
	)
	memo_put toolchain "$key" "$__tc_ref"
}

# kconfig_options(): variable $1 = what config fragments $2... set, as
# merge_config.sh merges them: an option's last line ("CONFIG_X=v" or
# "# CONFIG_X is not set") wins; one line an option, in the order the
# options first appear. Comments and blank lines are not part of it. A
# line's CR before its newline is not either: Kconfig reads
# "# CONFIG_X is not set\r" as such, and drops the CR of a value.
# Fragment lists that set the same options make the same .config, so
# they share a build dir and its results: a series taken in (the series
# config alone) and series.yaml (the same, and guest options the series
# config already sets) build on from each other. Fails when a fragment
# cannot be read.
kconfig_options()
{
	local -n __ko_ref=$1; shift
	local -A __ko_val=()
	local -a __ko_names=()
	local __ko_f __ko_line __ko_n
	local __ko_set='^(CONFIG_[A-Za-z0-9_]*)=(.*)$'
	local __ko_unset='^# (CONFIG_[A-Za-z0-9_]*) is not set$'

	__ko_ref=
	for __ko_f in "$@"; do
		[[ -r "$__ko_f" ]] || return 1
		while IFS= read -r __ko_line || [[ -n "$__ko_line" ]]; do
			__ko_line=${__ko_line%$'\r'}
			[[ "$__ko_line" =~ $__ko_set || "$__ko_line" =~ $__ko_unset ]] || continue
			__ko_n=${BASH_REMATCH[1]}
			[[ -v "__ko_val[$__ko_n]" ]] || __ko_names+=("$__ko_n")
			__ko_val[$__ko_n]=$__ko_line
		done < "$__ko_f"
	done
	for __ko_n in "${__ko_names[@]}"; do
		__ko_ref+=${__ko_val[$__ko_n]}$'\n'
	done
	return 0
}

# build_ids(): per target, the build dir and the identities its build
# results depend on: one incremental build dir per target, config and
# toolchain, never mixed; results also depend on how make is called and
# on the guest modules. Needs WT (the tree's path is in the build dir's
# command lines: build dirs are not relocatable).
build_ids()
{
	local t frag h rows fns gm
	local -a frags
	local -A tg

	GUESTMOD_ID=-
	series_get gm guest-modules
	[[ "$gm" == - ]] || hash_files_to GUESTMOD_ID "$gm"/*
	# How a target is built, the same for all: the files of the code
	# that builds, whole (a list of its functions would miss one it
	# calls): the build stage, the targets' code (kmake's arguments,
	# build_ident's formula), the sandbox a build runs in (its
	# environment).
	hash_files_to fns "$TOP/tools/stages/build.sh" "$TOP/tools/target.sh" \
		"$TOP/tools/sandbox.sh"
	for t in "${TGT_NAMES[@]}"; do
		target_get tg "$t"
		target_words frags tg fragments
		target_table_rows rows "$t"
		toolchain_id "TGT_TOOLCHAIN[$t]" "$t"
		kconfig_options frag "${frags[@]}"
		hash_to h "$frag" "${TGT_TOOLCHAIN[$t]}" "$WT"
		TGT_OUT[$t]=$WORKDIR/build/$h
		hash_to "TGT_CFGID[$t]" "${TGT_OUT[$t]}" "$fns" "$rows"
	done
}

# target_table_rows(): variable $1 = the table rows target $2 uses, as
# text (a key input: a changed row changes how the target is built and
# booted): the lines of arch.tsv, then of compiler.tsv, that start with
# its arch or its compiler and a tab, as grep -h would print them
# (without the last newline), read without a fork.
target_table_rows()
{
	local -n __tr_ref=$1; shift
	local __tr_t=$1; shift
	local __tr_f __tr_line __tr_rows=

	for __tr_f in "$TOP/tools/arch.tsv" "$TOP/tools/compiler.tsv"; do
		while IFS= read -r __tr_line || [[ -n "$__tr_line" ]]; do
			[[ "$__tr_line" == "${TGT_ARCH[$__tr_t]}"$'\t'* ||
			   "$__tr_line" == "${TGT_COMPILER[$__tr_t]}"$'\t'* ]] &&
				__tr_rows+=$__tr_line$'\n'
		done < "$__tr_f"
	done
	__tr_ref=${__tr_rows%$'\n'}
}

# build_key(): variable $1 = the cache key of target $2's build of tree
# $3.
build_key()
{
	hash_to "$1" "$3" "${TGT_CFGID[$2]}" "$GUESTMOD_ID"
}

# build_ident(): variable $1 = the identity target $2's kernel of tree
# $3 carries in its version string (KBUILD_BUILD_VERSION, `uname -v` in
# the guest): made only of what decides the image, the tree, the config
# and the toolchain, so that the same inputs give the same image and any
# two steps or targets differ.
build_ident()
{
	local -n __bi_ref=$1; shift
	local t=$1; shift
	local tree=$1; shift
	local frag h
	local -a frags
	local -A tg

	target_get tg "$t"
	target_words frags tg fragments
	kconfig_options frag "${frags[@]}"
	hash_to h "$tree" "$frag" "${tg[toolchain]}"
	__bi_ref=${h:0:12}
}

# targets_write(): the run's targets, for the report: RUNDIR/targets.tsv.
targets_write()
{
	local t
	for t in "${TGT_NAMES[@]}"; do
		printf '%s\t%s\t%s\t%s\n' "$t" "${TGT_ARCH[$t]}" "${TGT_COMPILER[$t]}" "${TGT_BOOT[$t]}"
	done > "$RUNDIR/targets.tsv"
}
