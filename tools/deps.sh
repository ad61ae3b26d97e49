#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install the Debian packages a target needs, when missing.
# Idempotent: says what it installs, and installs nothing when all is there.
#
# Usage: tools/deps.sh GROUP|pkg:NAME...   (groups: tools, bisect, lint, send,
# dist: the distributed build client, only with BUILD_HOSTS)

# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

declare -A GROUP=(
	[tools]="gcc make libc6-dev libyaml-dev pkg-config"
	[bisect]="build-essential flex bison bc libelf-dev libssl-dev ccache cpio kmod rsync xz-utils perl codespell sparse python3 qemu-system-x86 dracut-core git bubblewrap"
	[lint]="shellcheck linux-source-6.1"
	[send]="b4 git python3-aiosmtpd"
	[dist]="distcc"
)

# missing(): print the packages of the named groups that are not
# installed; one dpkg-query for all of them (each is a fork, and every
# run asks).
missing()
{
	local g p want=() pkg status
	local -A ok=()

	for g in "$@"; do
		if [[ "$g" == pkg:* ]]; then
			want+=("${g#pkg:}")
			continue
		fi
		[[ -n "${GROUP[$g]:-}" ]] || die "unknown package group '$g' (known: ${!GROUP[*]})"
		for p in ${GROUP[$g]}; do
			want+=("$p")
		done
	done
	((${#want[@]})) || return 0
	while IFS=$'\t' read -r pkg status; do
		[[ "$status" == 'install ok installed' ]] && ok[${pkg%%:*}]=1
	done < <(dpkg-query -W -f='${Package}\t${Status}\n' "${want[@]}" 2>/dev/null)
	for p in "${want[@]}"; do
		[[ -n "${ok[$p]:-}" ]] || echo "$p"
	done | sort -u
}

main()
{
	local pkgs

	[[ $# -gt 0 ]] || die "usage: $0 GROUP... (${!GROUP[*]})"
	mapfile -t pkgs < <(missing "$@")
	((${#pkgs[@]})) || return 0
	msg "installing Debian packages: ${pkgs[*]}"
	if [[ $(id -u) != 0 ]]; then
		die "not root: run 'sudo apt-get install ${pkgs[*]}' and retry"
	fi
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -q --no-install-recommends "${pkgs[@]}" > /tmp/bisect-check-apt.log 2>&1; then
		apt-get update -q > /dev/null 2>&1
		apt-get install -y -q --no-install-recommends "${pkgs[@]}" >> /tmp/bisect-check-apt.log 2>&1 ||
			die "apt-get install ${pkgs[*]} failed (see /tmp/bisect-check-apt.log)"
	fi
	msg "installed: ${pkgs[*]}"
}

main "$@"; exit $?
