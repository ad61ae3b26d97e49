#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-25-identity.sh - end to end: every boot runs exactly the kernel its
# step built. The regression test of a stale bzImage: two trees that
# differ in a comment only (their kernels differ in the version string,
# their compressed payloads tend to have the same length) are built one
# after the other and back, in one build dir, twice (the second run with
# FORCE=1 builds A, B, A again). For every boot, the version in the
# bzImage's setup header, the banner of the vmlinux compressed inside it
# and what the guest's uname -v said must be one and the same, and be
# the same for the same tree and differ between the two trees.
#
# This holds the image to what the kernel's own tools read from it
# (scripts/extract-vmlinux of the base tree), not to what the pipeline
# says of itself.

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

SERIES=$T_TOP/test/fixtures/identity/comment.yaml
KREPO=$WORKDIR/kernel.git

t_plan 33

# t_neq(): pass when $2 and $3 differ (and are not empty).
t_neq()
{
	local desc=$1 a=$2 b=$3
	if [[ -n "$a" && "$a" != "$b" ]]; then
		t_ok "$desc"
	else
		t_fail "$desc" "expected two different values, actual '$a' and '$b'"
	fi
}

# header_version(): the version string the bzImage's setup header points
# at (boot protocol: kernel_version at 0x20e, relative to 0x200).
header_version()
{
	local img=$1; shift
	local ptr
	ptr=$(od -An -tu2 -j 526 -N 2 "$img" | tr -d ' ')
	[[ -n "$ptr" ]] || return 1
	dd if="$img" bs=1 skip=$((ptr + 512)) count=200 status=none | tr '\0' '\n' | head -n 1
}

# payload_versions(): the UTS_VERSION of each "Linux version" banner of
# the vmlinux inside (init/version.o has one made before the final link).
payload_versions()
{
	local img=$1; shift
	local b
	"$T_TMP/extract-vmlinux" "$img" 2>/dev/null | strings -n 16 |
		grep '^Linux version ' | while IFS= read -r b; do uts "$b"; done
}

# uts(): the UTS_VERSION part of a version string: from " #" on.
uts()
{
	local s=$1; shift
	[[ "$s" == *" #"* ]] || { echo "none in '$s'"; return; }
	echo "#${s#* #}"
}

# check_boots(): for run $E2E_RUN and label $1, check every step that
# booted in this run; sets IDENT[step] to what it booted.
check_boots()
{
	local label=$1; shift
	local idx img hv pb guest

	for idx in 0 1 2; do
		IDENT[idx]=
		# A cached boot brings its evidence (log, results) along.
		img=$(grep -o -m 1 -- '-kernel [^ ]*' "$E2E_RUN/logs/$idx-$E2E_TARGET-boot.log" | cut -d' ' -f2)
		hv=$(uts "$(header_version "$img")")
		pb=$(payload_versions "$img")
		guest=$(sed -n 's/^# identity: uname-v //p' "$E2E_RUN/boot/$idx-$E2E_TARGET/results.ktap" | head -n 1)
		if [[ "$hv" == '#'[0-9a-f]* ]] && grep -q -x -F -- "$hv" <<< "$pb"; then
			t_ok "$label step $idx: the kernel inside the bzImage is the one its header names"
		else
			t_fail "$label step $idx: the kernel inside the bzImage is the one its header names" \
				"expected: header's version '$hv' in the compressed vmlinux's banners" \
				"actual: ${pb//$'\n'/, }"
		fi
		t_eq "$label step $idx: the guest booted that kernel" "$hv" "$guest"
		IDENT[idx]=$guest
	done
}

git --git-dir="$KREPO" show "import/linux-source-6.1/$(dpkg-query -W -f='${Version}' linux-source-6.1):scripts/extract-vmlinux" \
	> "$T_TMP/extract-vmlinux" 2>/dev/null ||
	git --git-dir="$KREPO" show "$(git --git-dir="$KREPO" for-each-ref --count=1 --format='%(refname)' 'refs/heads/import/')":scripts/extract-vmlinux \
	> "$T_TMP/extract-vmlinux"
chmod +x "$T_TMP/extract-vmlinux"
t_grep "the base tree's extract-vmlinux is at hand" 'decompress' "$T_TMP/extract-vmlinux"

declare -a IDENT=()

e2e_run "$SERIES" LOCK_WAIT=900
t_eq "first run exits 0" 0 "$E2E_RC"
t_eq "first run: no cell failed" "" "$(awk -F'\t' '$4 ~ /FAIL/' "$E2E_RUN/cells.tsv")"
check_boots "run 1"
t_grep "run 1: step 2's boot is step 0's (the same tree)" \
	"^2	$E2E_TARGET	boot	ok	.*	[^	]+/[0-9]+-$E2E_TARGET-boot$" "$E2E_RUN/cells.tsv"
t_grep "run 1: the cached boot brought its evidence along" '^# identity: uname-v #' \
	"$E2E_RUN/boot/2-$E2E_TARGET/results.ktap"
t_grep "run 1: step 2 (step 0's tree) reuses step 0's build" \
	"^2	$E2E_TARGET	build	ok	.*	[^	]+/[0-9]+-$E2E_TARGET-build$" "$E2E_RUN/cells.tsv"
t_neq "run 1: the two trees carry different identities" "${IDENT[0]}" "${IDENT[1]}"
# A WORKDIR of earlier runs may hold step 1's boot already: cached or
# not, the cell names the kernel it proved.
t_grep "run 1: the boot cell names the kernel it proved" \
	"^1	$E2E_TARGET	boot	ok	[0-9]*	ok, booted #[0-9a-f]{12} " "$E2E_RUN/cells.tsv"
A=${IDENT[0]}
B=${IDENT[1]}
RUN1=$E2E_RUN

# A, B and A again in the same build dir, past the result cache.
e2e_run "$SERIES" LOCK_WAIT=900 FORCE=1
t_eq "FORCE=1 run exits 0" 0 "$E2E_RC"
t_eq "FORCE=1 run: no cell failed" "" "$(awk -F'\t' '$4 ~ /FAIL/' "$E2E_RUN/cells.tsv")"
t_eq "FORCE=1 run: every step was built" "3" \
	"$(awk -F'\t' '$3 == "build" && $4 == "ok"' "$E2E_RUN/cells.tsv" | wc -l)"
check_boots "run 2"
t_eq "run 2: A again has A's identity" "$A" "${IDENT[0]}"
t_eq "run 2: B again has B's identity" "$B" "${IDENT[1]}"
t_eq "run 2: back to A has A's identity" "$A" "${IDENT[2]}"
t_grep "every build proved its image (log)" '^identity: #[0-9a-f]{12} ' "$E2E_RUN/logs/2-$E2E_TARGET-build.log"
t_eq "no initramfs is kept in the run dir" "" "$(find "$E2E_RUN" -name 'initrd.img*')"

# The runs that made the cells are gone: a rerun from the cache still
# has every cell's evidence, in its own run dir.
rm -rf "$RUN1" "$E2E_RUN"
first=$E2E_RUN
e2e_run "$SERIES" LOCK_WAIT=900
t_eq "rerun from the cache exits 0" 0 "$E2E_RC"
t_eq "rerun: every boot and build is cached" "0" \
	"$(awk -F'\t' '($3 == "boot" || $3 == "build") && $8 == "-"' "$E2E_RUN/cells.tsv" | wc -l)"
t_eq "rerun: the evidence of each cached boot is in this run" "3 3" \
	"$(find "$E2E_RUN"/boot -name console.log | wc -l) $(grep -l '^# identity: uname-v #' "$E2E_RUN"/boot/*/results.ktap | wc -l)"
t_eq "rerun: the run that made them is gone" no "$([[ -d "$first" ]] && echo yes || echo no)"
t_nogrep "no QEMU left running" . <(pgrep -a -f '^qemu-system' || true)

t_done
