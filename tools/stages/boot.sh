#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh - stages 5 and 6: build a dracut initramfs holding the step's
# modules and the in-guest test runner, boot it in QEMU, and judge the
# console and the runner's results (tools/bin/triage).
#
# The runner is PID 1 (rdinit=), writes KTAP to the second serial port
# and powers the guest off through isa-debug-exit. A wall-clock timeout
# ends a hung guest; panic=-1 ends a panicking one at once.
#
# Stage functions report through CELL_* variables the caller reads.
# shellcheck disable=SC2034
#
# Sourced by tools/bisect-check; expects lib.sh and cache.sh.

# loglevel=5: warnings and worse reach the console (a WARN must fail the
# step), KERN_INFO noise does not; the runner reads the full log itself.
readonly BOOT_CMDLINE="console=ttyS0 loglevel=5 panic=-1 rdinit=/bisect/runner"
# The probe guest is done in about a second even under TCG; under a KVM
# that hangs it spins a core until the timeout, so keep that short.
readonly KVM_PROBE_TIMEOUT=4

# qemu_start(): boot a kernel and initramfs in the background (QEMU_PID);
# console and results go to files. qemu_wait collects it.
qemu_start()
{
	local accel=$1; shift
	local kernel=$1; shift
	local initrd=$1; shift
	local dir=$1; shift
	local secs=$1; shift
	local log=$1; shift
	# shellcheck disable=SC2054  # the commas are QEMU's
	local cmd=(setpriv --pdeathsig KILL timeout -k 3 "$secs"
		setpriv --pdeathsig KILL qemu-system-x86_64 -accel "$accel"
		-m 256 -nographic -no-reboot -nic none -monitor none
		-kernel "$kernel" -initrd "$initrd" -append "$BOOT_CMDLINE"
		-serial "file:$dir/console.log" -serial "file:$dir/results.ktap"
		-device isa-debug-exit,iobase=0xf4,iosize=0x04
		-pidfile "$dir/qemu.pid")

	rm -f "$dir/console.log" "$dir/results.ktap" "$dir/qemu.pid"
	{
		printf '$'
		printf ' %q' "${cmd[@]}"
		printf '\n'
	} >> "$log"
	# A child of this shell, so that Ctrl-C reaches our trap at once and
	# --pdeathsig kills the guest when this shell dies, even by SIGKILL;
	# without the WORKDIR lock's descriptor: a guest must not outlive the
	# run nor hold its lock.
	(
		[[ -n "${LOCK_FD:-}" ]] && exec {LOCK_FD}>&-
		exec "${cmd[@]}"
	) < /dev/null >> "$log" 2>&1 &
	QEMU_PID=$!
	QEMU_DIR=$dir
	QEMU_LOG=$log
	defer qemu_stop
}

# qemu_wait(): wait for the guest of qemu_start. Returns QEMU's exit code,
# 124 when the timeout ended it.
qemu_wait()
{
	local rc

	wait "$QEMU_PID"
	rc=$?
	QEMU_PID=
	echo "qemu exit: $rc" >> "$QEMU_LOG"
	return "$rc"
}

# qemu_stop(): stop the guest of qemu_start, if it runs, and its timeout
# wrapper (registered with defer).
qemu_stop()
{
	local qpid

	[[ -n "${QEMU_PID:-}" ]] || return 0
	kill -TERM "$QEMU_PID" 2>/dev/null
	qpid=$(cat "$QEMU_DIR/qemu.pid" 2>/dev/null)
	[[ -n "$qpid" ]] && kill -KILL "$qpid" 2>/dev/null
	wait "$QEMU_PID" 2>/dev/null
	QEMU_PID=
	return 0
}

# qemu_run(): qemu_start and qemu_wait: one guest, to its end.
qemu_run()
{
	qemu_start "$@"
	qemu_wait
}

readonly GUEST_DRIVERS="data_breakpoint kallsyms_lookup_probe kallsyms_each_probe"

# make_initramfs(): the guest's initramfs: a dracut image (runner, module
# tooling and the test modules, --kver/--kmoddir of the step), made once
# per dracut version, runner and kernel release and reused, with a small
# cpio of the step's own modules appended (later cpio entries replace
# earlier ones when the kernel unpacks them).
make_initramfs()
{
	local art=$1; shift
	local img=$1; shift
	local log=$1; shift
	local kver key base ovl

	kver=$(cat "$art/kernel.release")
	# dracut copies kmod's tools and their libraries from this host.
	key=$(hash_of "$(dpkg-query -W -f='${Package}=${Version} ' dracut-core kmod libc6 2>/dev/null)" \
		"$(sha1sum < "$RUNNER")" "$kver" "$GUEST_DRIVERS")
	base=$WORKDIR/initramfs/base-$key.img
	if [[ ! -f "$base" ]]; then
		mkdir -p "$WORKDIR/initramfs"
		run_logged "$log" dracut --quiet --force --no-hostonly --no-compress \
			--no-early-microcode --kver "$kver" \
			--kmoddir "$art/staging/lib/modules/$kver" \
			--modules kernel-modules --add-drivers "$GUEST_DRIVERS" \
			--include "$RUNNER" /bisect/runner \
			"$base.tmp.$$" || { rm -f "$base.tmp.$$"; return 1; }
		mv "$base.tmp.$$" "$base"
	fi
	touch -c "$base"
	# The step's modules and their index, where dracut put them
	# (usr/lib/modules: lib is a symlink in the image).
	ovl=$(dirname "$img")/overlay
	rm -rf "$ovl"
	mkdir -p "$ovl/usr/lib/modules"
	cp -r "$art/staging/lib/modules/$kver" "$ovl/usr/lib/modules/" || return 1
	rm -f "$ovl/usr/lib/modules/$kver/build" "$ovl/usr/lib/modules/$kver/source"
	(cd "$ovl" && find usr | LC_ALL=C sort | cpio -o -H newc --quiet \
		--reproducible) > "$img.overlay" 2>> "$log" || return 1
	cat "$base" "$img.overlay" > "$img" || return 1
	echo "initramfs: $base + $(stat -c %s "$img.overlay") bytes of step modules" >> "$log"
	return 0
}

# kvm_probe(): decide KVM or TCG once per host kernel and QEMU version:
# KVM only when a guest really finishes under it.
kvm_probe()
{
	local art=$1; shift
	local key file dir rc

	key=$(hash_of "$(uname -r)" "$(qemu-system-x86_64 --version | head -n 1)")
	file=$WORKDIR/kvm-probe.$key
	if [[ -n "${ACCEL:-}" ]]; then
		ACCEL_WHY="ACCEL=$ACCEL set by the user"
		return 0
	fi
	if [[ -f "$file" ]]; then
		IFS=$'\t' read -r ACCEL ACCEL_WHY < "$file"
		return 0
	fi
	if [[ ! -w /dev/kvm ]]; then
		ACCEL=tcg
		ACCEL_WHY="no usable /dev/kvm"
	else
		dir=$RUNDIR/kvm-probe
		mkdir -p "$dir"
		progress "boot: probing KVM (up to ${KVM_PROBE_TIMEOUT}s)"
		make_initramfs "$art" "$dir/initrd.img" "$dir/probe.log"
		qemu_run kvm "$art/bzImage" "$dir/initrd.img" "$dir" \
			"$KVM_PROBE_TIMEOUT" "$dir/probe.log"
		rc=$?
		if grep -q '^# runner: done' "$dir/results.ktap" 2>/dev/null; then
			ACCEL=kvm
			ACCEL_WHY="a probe guest finished under KVM"
		else
			ACCEL=tcg
			ACCEL_WHY="a probe guest did not finish under KVM in ${KVM_PROBE_TIMEOUT}s (qemu exit $rc)"
		fi
	fi
	printf '%s\t%s\n' "$ACCEL" "$ACCEL_WHY (probed $(date -u +%F))" > "$file"
	ACCEL_WHY+=" (probed now)"
}

# boot_tools(): the boot's programs are there; called before any work.
boot_tools()
{
	RUNNER=$TOP/tools/bin/guest-runner
	[[ -x "$RUNNER" ]] || die "$RUNNER is not built: run 'make tools'"
	[[ -x "$TOP/tools/bin/triage" ]] || die "tools/bin/triage is not built: run 'make tools'"
	command -v qemu-system-x86_64 >/dev/null ||
		die "qemu-system-x86_64 not found: run 'make deps' (Debian package qemu-system-x86)"
	command -v dracut >/dev/null ||
		die "dracut not found: run 'make deps' (Debian package dracut-core)"
}

# boot_setup(): what every boot needs: the runner binary and the tools.
boot_setup()
{
	boot_tools
	BOOT_ID=$(hash_of "$(hash_files "$TOP/test/guest/runner.c" "$TOP/tools/src/triage.c")" \
		"$BOOT_CMDLINE" "$BOOT_TIMEOUT" \
		"$(declare -f make_initramfs qemu_start boot_one boot_one_finish boot_pending_finish)" \
		"$(qemu-system-x86_64 --version | head -n 1)" \
		"$(dpkg-query -W -f='${Version}' dracut-core 2>/dev/null)")
	ACCEL_DONE=0
	BOOT_PENDING=()
	return 0
}

# boot_one(): initramfs and QEMU of one step, started; boot_one_finish
# waits and judges. Fails (cells filled) when there is no initramfs.
boot_one()
{
	local idx=$1; shift
	local art=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local dir=$RUNDIR/boot/$idx
	local t id

	mkdir -p "$dir"
	for id in "${TEST_IDS[@]}"; do
		printf '%s\t%s\n' "$id" "${EXPECT["$idx:$id"]}"
	done > "$dir/expect.tsv"

	t=$(now_ms)
	if ! make_initramfs "$art" "$dir/initrd.img" "$log"; then
		CELL_STATUS=FAIL
		CELL_SUMMARY="dracut failed"
		tail -n 5 "$log" > "$detail"
		TESTS_STATUS=skip
		TESTS_SUMMARY="no initramfs"
		return 1
	fi
	echo "initramfs: $(($(now_ms) - t)) ms" >> "$log"
	qemu_start "$ACCEL" "$art/bzImage" "$dir/initrd.img" "$dir" "$BOOT_TIMEOUT" "$log"
}

# boot_one_finish(): wait for the guest of boot_one and triage console and
# results; fills the boot and tests cells (CELL_* of boot, TESTS_* of
# tests).
boot_one_finish()
{
	local idx=$1; shift
	local art=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local dir=$RUNDIR/boot/$idx
	local tdetail=$RUNDIR/details/$idx-tests.txt
	local rc triage kind a b c d e flags=() booted='' wrong=0

	qemu_wait
	rc=$?
	((rc == 124)) && flags=(--timed-out "$BOOT_TIMEOUT")
	[[ "${TRIAGE_ONLY_DECLARED:-0}" == 1 ]] && flags+=(--only-declared)
	triage=$dir/triage.tsv
	"$TOP/tools/bin/triage" --console "$dir/console.log" \
		--results "$dir/results.ktap" --expect "$dir/expect.tsv" \
		--identity "$art/identity.tsv" \
		"${flags[@]}" > "$triage" 2>> "$log"
	# Exit 2 is triage's own error, not a verdict on the step: such a
	# result is reported but never cached (boot_done).
	BOOT_TRIAGE_RC=$?
	: > "$detail"
	: > "$tdetail"
	CELL_STATUS=FAIL
	CELL_SUMMARY="triage failed"
	if ((BOOT_TRIAGE_RC > 1)); then
		echo "triage exited $BOOT_TRIAGE_RC: $(tail -n 1 "$log")" >> "$detail"
		echo "next: fix the tool (make tools), then rerun" >> "$detail"
	fi
	TESTS_STATUS=skip
	TESTS_SUMMARY="no triage"
	while IFS=$'\t' read -r kind a b c d e; do
		case $kind in
		boot) CELL_STATUS=$a; CELL_SUMMARY=$b ;;
		identity)
			[[ "$a" == ok ]] && booted=${b%% *}
			[[ "$a" == FAIL ]] && wrong=1
			;;
		boot-detail) echo "$a" >> "$detail" ;;
		tests) TESTS_STATUS=$a; TESTS_SUMMARY=$b ;;
		tests-detail) echo "$a" >> "$tdetail" ;;
		test)
			[[ "$d" == ok ]] && continue
			echo "$a: expected $b, actual $c: $e" >> "$tdetail"
			;;
		esac
	done < "$triage"
	# Every boot says which kernel it proved it ran; results of another
	# kernel say nothing about this step.
	CELL_SUMMARY+="${booted:+, booted $booted} ($ACCEL)"
	if ((wrong)); then
		TESTS_STATUS=skip
		TESTS_SUMMARY="the guest ran another kernel (see boot)"
	fi
	if [[ "$CELL_STATUS" == FAIL ]]; then
		echo "console: $dir/console.log" >> "$detail"
		echo "next: rerun with KEEP=1 and boot $art/bzImage by hand (command in $log)" >> "$detail"
	fi
	[[ "$TESTS_STATUS" == FAIL ]] &&
		echo "results: $dir/results.ktap" >> "$tdetail"
	# The image is made again from the artifacts in 50 ms: only KEEP=1
	# keeps it in the run dir, for booting it by hand.
	[[ "${KEEP:-0}" == 1 ]] || rm -rf "$dir/initrd.img" "$dir/initrd.img.overlay" "$dir/overlay"
	return 0
}

# boot_step(): the boot and tests cells of one built step, via the cache.
# An uncached boot starts here and is judged by boot_pending_finish: at
# once, or with BOOT_ASYNC=1 when the next boot starts or the run ends,
# so that the guest (one thread under TCG) runs while the next step
# builds (a build leaves a core idle while it links).
boot_step()
{
	local idx=$1; shift
	local art=$1; shift
	local key id t0 exp=""
	local log=$RUNDIR/logs/$idx-boot.log
	local detail=$RUNDIR/details/$idx-boot.txt

	for id in "${TEST_IDS[@]}"; do
		exp+="$id=${EXPECT["$idx:$id"]} "
	done
	# The identity the guest must prove is part of the key: a result is
	# reused only for the very kernel and modules it was judged on.
	key=$(hash_of "$BUILD_KEY" "$BOOT_ID" "$exp" "$(cat "$art/identity.tsv" 2>/dev/null)")
	if cache_get boot "$key" "$RUNDIR/details/$idx-boot.txt" &&
	   cache_get tests "$key" "$RUNDIR/details/$idx-tests.txt"; then
		cache_get boot "$key" "$RUNDIR/details/$idx-boot.txt"
		cell "$idx" boot "$CELL_STATUS" "$CELL_MS" "$CELL_SUMMARY" -
		cache_get tests "$key" "$RUNDIR/details/$idx-tests.txt"
		cell "$idx" tests "$CELL_STATUS" "$CELL_MS" "$CELL_SUMMARY" -
		return
	fi
	boot_pending_finish
	if ((!ACCEL_DONE)); then
		kvm_probe "$art"
		meta accel "$ACCEL: $ACCEL_WHY"
		progress "boot: using $ACCEL ($ACCEL_WHY)"
		ACCEL_DONE=1
	fi
	progress "${STEP_LABEL[idx]} boot: start"
	: > "$log"
	t0=$(now_ms)
	if ! boot_one "$idx" "$art" "$log" "$detail"; then
		boot_done "$idx" "$key" $(($(now_ms) - t0))
		return
	fi
	BOOT_PENDING=("$idx" "$art" "$key" "$t0")
	[[ "${BOOT_ASYNC:-0}" == 1 ]] || boot_pending_finish
}

# boot_pending_finish(): judge the boot boot_step started, if any.
boot_pending_finish()
{
	local idx art key t0 t end f

	((${#BOOT_PENDING[@]})) || return 0
	idx=${BOOT_PENDING[0]}
	art=${BOOT_PENDING[1]}
	key=${BOOT_PENDING[2]}
	t0=${BOOT_PENDING[3]}
	BOOT_PENDING=()
	# The guest's own time: to the end of the wait below when it still
	# runs, else to its last output (QEMU logs being ended by the timeout).
	end=
	if ! kill -0 "$QEMU_PID" 2>/dev/null; then
		end=$t0
		for f in "$RUNDIR/boot/$idx/console.log" "$RUNDIR/boot/$idx/results.ktap" \
			 "$RUNDIR/logs/$idx-boot.log"; do
			[[ -f "$f" ]] || continue
			t=$(date -r "$f" +%s%3N)
			((t > end)) && end=$t
		done
	fi
	boot_one_finish "$idx" "$art" "$RUNDIR/logs/$idx-boot.log" \
		"$RUNDIR/details/$idx-boot.txt"
	[[ -n "$end" ]] || end=$(now_ms)
	boot_done "$idx" "$key" $((end - t0))
}

# boot_done(): record and report the boot and tests cells of step $1.
boot_done()
{
	local idx=$1; shift
	local key=$1; shift
	local ms=$1; shift

	if ((${BOOT_TRIAGE_RC:-0} <= 1)); then
		cache_put boot "$key" "$CELL_STATUS" "$ms" "$CELL_SUMMARY" "$RUNDIR/details/$idx-boot.txt"
		cache_put tests "$key" "$TESTS_STATUS" 0 "$TESTS_SUMMARY" "$RUNDIR/details/$idx-tests.txt"
	fi
	BOOT_TRIAGE_RC=0
	cell "$idx" boot "$CELL_STATUS" "$ms" "$CELL_SUMMARY" "$RUNDIR/logs/$idx-boot.log"
	cell "$idx" tests "$TESTS_STATUS" 0 "$TESTS_SUMMARY" "$RUNDIR/boot/$idx/results.ktap"
}
