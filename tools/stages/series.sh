#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh - load a series.yaml (validated by tools/bin/series, libyaml)
# into shell variables, and the identities that key the build results.
#
# Variables set for the caller.
# shellcheck disable=SC2034
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh.

declare -a STEP_PATCH=() STEP_LABEL=() ACCEPT_TYPES=()
declare -a PREP_PATCHES=() TEST_IDS=()
declare -A ACCEPT_REASON=() EXPECT=()

# load_series(): validate $SERIES with tools/bin/series and load it.
load_series()
{
	local records kind a b c i n=0

	[[ -f "$SERIES" ]] || die "$SERIES: no such series file (set SERIES=path/to/series.yaml)"
	[[ -x "$TOP/tools/bin/series" ]] || die "tools/bin/series is not built: run 'make tools'"
	records=$("$TOP/tools/bin/series" "$SERIES") || exit "$EXIT_SETUP"
	while IFS=$'\t' read -r kind a b c; do
		case $kind in
		name) SERIES_NAME=$a ;;
		version) SERIES_VERSION=$a ;;
		config) CONFIG_FRAGMENT=$a ;;
		package) PACKAGE=$a ;;
		timeout) BOOT_TIMEOUT=${BOOT_TIMEOUT:-$a} ;;
		test) TEST_IDS+=("$a") ;;
		prep) PREP_PATCHES+=("$a") ;;
		patch) STEP_PATCH[a]=$b; n=$a ;;
		accept)
			ACCEPT_TYPES[a]+="$b "
			ACCEPT_REASON["$a:$b"]=$c
			;;
		expect) EXPECT["$a:$b"]=$c ;;
		esac
	done <<< "$records"
	NSTEPS=$((n + 1))
	STEP_LABEL[0]=0
	for ((i = 1; i < NSTEPS; i++)); do
		STEP_LABEL[i]="$i/$n"
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
	CFG_ID=$(hash_of "$OUT" "$(declare -f kmake kmake_argv stage_build)")
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
