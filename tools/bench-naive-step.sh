#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-naive-step.sh - one step of the naive loop tools/bench.sh compares
# against: what a `git rebase -x` over a series typically runs per commit:
# a full make, modules_install, the guest modules, a fresh initramfs and a
# boot of the guest. Runs in the kernel tree at the commit to check.
# Usage: bench-naive-step.sh OUT ART PROGRAM (the build dir, where each
# step's artifacts go, the runner's program: the series' tests and
# operations); environment (from bench.sh): TOP, JOBS, CCACHE_DIR.

# shellcheck source=tools/lib.sh
source "$TOP/tools/lib.sh"
prog_set naive-step

main()
{
	local out=$1; shift
	local art=$1; shift
	local prog=$1; shift
	local kver img dir

	dir=$art/$(git rev-parse --short HEAD)

	mkdir -p "$dir"
	make -s O="$out" -j"$JOBS" CC="ccache gcc" LOCALVERSION= \
		olddefconfig bzImage modules > "$dir/build.log" 2>&1 || return 1
	make -s O="$out" INSTALL_MOD_PATH="$dir/staging" modules_install \
		>> "$dir/build.log" 2>&1 || return 1
	rm -rf "$dir/mod" && cp -r "$TOP/guest/modules" "$dir/mod"
	make -s -C "$out" M="$dir/mod" KBUILD_MODPOST_WARN=1 modules \
		>> "$dir/build.log" 2>&1 || return 1
	make -s -C "$out" M="$dir/mod" INSTALL_MOD_PATH="$dir/staging" \
		modules_install >> "$dir/build.log" 2>&1 || return 1
	kver=$(cat "$out/include/config/kernel.release")
	img=$dir/initrd.img
	dracut --quiet --force --no-hostonly --no-compress --no-early-microcode \
		--kver "$kver" --kmoddir "$dir/staging/lib/modules/$kver" \
		--modules kernel-modules \
		--add-drivers "data_breakpoint kallsyms_lookup_probe kallsyms_each_probe" \
		--include "$TOP/tools/bin/guest-runner-x86_64" /bisect/runner \
		--include "$prog" /bisect/program "$img" || return 1
	timeout -k 3 60 qemu-system-x86_64 -accel tcg -m 256 -nographic \
		-no-reboot -nic none -monitor none \
		-kernel "$out/arch/x86/boot/bzImage" -initrd "$img" \
		-append "console=ttyS0 loglevel=5 panic=-1 rdinit=/bisect/runner" \
		-serial "file:$dir/console.log" -serial "file:$dir/results.ktap" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 < /dev/null
	# The naive loop checks nothing; it only has to get this far.
	grep -q '^# runner: done' "$dir/results.ktap"
}

main "$@"; exit $?
