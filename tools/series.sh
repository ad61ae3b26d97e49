#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh - the one series loader: validate a series.yaml with
# tools/bin/series (libyaml) and load every record into shell variables;
# write a loaded (and edited) series back out as YAML; the identities
# that key the build results.
#
# Variables set for the caller.
# shellcheck disable=SC2034
#
# Sourced by every tool that reads a series; expects lib.sh.

declare -a STEP_PATCH=() STEP_LABEL=() ACCEPT_TYPES=()
declare -a PREP_PATCHES=() TEST_IDS=()
declare -A ACCEPT_REASON=() EXPECT=() TEST_CLAIM=()

# load_series(): validate series file $1 with tools/bin/series and load
# all of it; a second call loads another series in place of the first.
load_series()
{
	local file=$1; shift
	local records kind a b c i n=0

	[[ -f "$file" ]] || die "$file: no such series file (set SERIES=path/to/series.yaml)"
	[[ -x "$TOP/tools/bin/series" ]] || die "tools/bin/series is not built: run 'make tools'"
	records=$("$TOP/tools/bin/series" "$file") || exit "$EXIT_SETUP"
	STEP_PATCH=() STEP_LABEL=() ACCEPT_TYPES=() PREP_PATCHES=() TEST_IDS=()
	ACCEPT_REASON=() EXPECT=() TEST_CLAIM=()
	SERIES_COVER=
	while IFS=$'\t' read -r kind a b c; do
		case $kind in
		name) SERIES_NAME=$a ;;
		version) SERIES_VERSION=$a ;;
		cover) SERIES_COVER=$a ;;
		config) CONFIG_FRAGMENT=$a ;;
		package) PACKAGE=$a ;;
		timeout) SERIES_TIMEOUT=$a ;;
		test) TEST_IDS+=("$a"); TEST_CLAIM[$a]=$b ;;
		prep) PREP_PATCHES+=("$a") ;;
		patch) STEP_PATCH[a]=$b; n=$a ;;
		accept)
			ACCEPT_TYPES[a]+="$b "
			ACCEPT_REASON["$a:$b"]=$c
			;;
		expect) EXPECT["$a:$b"]=$c ;;
		esac
	done <<< "$records"
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-$SERIES_TIMEOUT}
	NSTEPS=$((n + 1))
	STEP_LABEL[0]=0
	for ((i = 1; i < NSTEPS; i++)); do
		STEP_LABEL[i]="$i/$n"
	done
}

# yaml_str(): $1 as a double-quoted YAML scalar.
yaml_str()
{
	local v=${1//\\/\\\\}
	printf '"%s"' "${v//\"/\\\"}"
}

# series_write(): print the loaded series as series.yaml text, with the
# paths absolute: a tool that edits a series (bench's edited 3/3, a
# longer series) changes the variables and writes it out with this.
series_write()
{
	local id i t

	printf 'name: %s\nversion: %s\n' "$(yaml_str "$SERIES_NAME")" "$SERIES_VERSION"
	printf 'cover-letter: %s\nconfig: %s\n' "$(yaml_str "$SERIES_COVER")" \
		"$(yaml_str "$CONFIG_FRAGMENT")"
	printf 'base:\n  package: %s\n  prep:\n' "$(yaml_str "$PACKAGE")"
	for i in "${PREP_PATCHES[@]}"; do
		printf '    - %s\n' "$(yaml_str "$i")"
	done
	printf '  expect:\n'
	for id in "${TEST_IDS[@]}"; do
		printf '    %s: %s\n' "$id" "${EXPECT["0:$id"]}"
	done
	printf 'boot:\n  timeout: %s\ntests:\n' "$SERIES_TIMEOUT"
	for id in "${TEST_IDS[@]}"; do
		printf '  - id: %s\n    claim: %s\n' "$id" "$(yaml_str "${TEST_CLAIM[$id]}")"
	done
	printf 'patches:\n'
	for ((i = 1; i < NSTEPS; i++)); do
		printf '  - file: %s\n' "$(yaml_str "${STEP_PATCH[i]}")"
		if [[ -n "${ACCEPT_TYPES[i]:-}" ]]; then
			printf '    checkpatch-accept:\n'
			for t in ${ACCEPT_TYPES[i]}; do
				printf '      - type: %s\n        reason: %s\n' "$t" \
					"$(yaml_str "${ACCEPT_REASON["$i:$t"]}")"
			done
		fi
		printf '    expect:\n'
		for id in "${TEST_IDS[@]}"; do
			printf '      %s: %s\n' "$id" "${EXPECT["$i:$id"]}"
		done
	done
}

# toolchain_id(): what decides the build output besides tree and config.
toolchain_id()
{
	{
		gcc --version | head -n 1
		ld --version | head -n 1
		make --version | head -n 1
	} 2>&1
}

# build_ids(): the build dir and the identities build results depend on:
# one incremental build dir per config and toolchain, never mixed; the
# results also depend on how make is called and on the guest modules.
build_ids()
{
	TOOLCHAIN_ID=$(toolchain_id)
	# The tree's path is in the build dir's command lines (not relocatable).
	OUT=$WORKDIR/build/$(hash_of "$(cat "$CONFIG_FRAGMENT")" "$TOOLCHAIN_ID" "$WT")
	CFG_ID=$(hash_of "$OUT" "$(declare -f kmake kmake_argv stage_build build_identity \
		build_config build_touch_changed build_warnings build_recompiled build_sync_dir)")
	GUESTMOD_ID=$(hash_files "$TOP"/test/guest/modules/*)
}

# build_key(): the cache key of the build of one tree.
build_key()
{
	local tree=$1; shift
	hash_of "$tree" "$CFG_ID" "$GUESTMOD_ID"
}

# build_ident(): the identity the kernel of one tree carries in its
# version string (KBUILD_BUILD_VERSION, `uname -v` in the guest): made
# only of what decides the image, the tree, the config and the toolchain,
# so that the same inputs give the same image and any two steps differ.
build_ident()
{
	local tree=$1; shift
	hash_of "$tree" "$(cat "$CONFIG_FRAGMENT")" "$TOOLCHAIN_ID" | cut -c1-12
}
