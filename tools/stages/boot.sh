#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh - the boot and tests stages: build a dracut initramfs holding
# the step's modules and the in-guest test runner, boot it in QEMU, and
# judge the console, the runner's results and the kernel's identity
# (tools/bin/triage); boot_cells runs them as cells (cell.sh).
#
# The runner is PID 1 (rdinit=), writes KTAP to the second serial port
# and powers the guest off through isa-debug-exit. A wall-clock timeout
# ends a hung guest; panic=-1 ends a panicking one at once.
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh and
# cell.sh.

# loglevel=5: warnings and worse reach the console (a WARN must fail the
# step), KERN_INFO noise does not; the runner reads the full log itself.
# The console device is the arch's (tools/arch.tsv).
readonly BOOT_CMDLINE="loglevel=5 panic=-1 rdinit=/bisect/runner"
# The probe guest is done in about a second even under TCG; under a KVM
# that hangs it spins a core until the timeout, so keep that short.
readonly KVM_PROBE_TIMEOUT=4

# qemu_start(): boot a kernel and initramfs of a target (target.sh) in
# the background (QEMU_PID); console and results go to files. qemu_wait
# collects it. Args: TARGET ACCEL KERNEL INITRD DIR SECS LOG [EXTRA
# kernel command line words].
qemu_start()
{
	local t=$1; shift
	local accel=$1; shift
	local kernel=$1; shift
	local initrd=$1; shift
	local dir=$1; shift
	local secs=$1; shift
	local log=$1; shift
	local extra=${1:-}
	# shellcheck disable=SC2054  # the commas are QEMU's
	local res i qargs
	local -A tg
	# The same guest again (stage_boot_finish boots a suspect one twice).
	QEMU_LAST=("$t" "$accel" "$kernel" "$initrd" "$dir" "$secs" "$log" "$extra")
	target_get tg "$t"
	target_words qargs tg qemu-args
	# Split first, then put the file in: a path may hold spaces.
	read -r -a res <<< "${tg[res-args]}"
	for i in "${!res[@]}"; do
		res[i]=${res[i]//\{file\}/$dir/results.ktap}
	done
	# The watcher ends the guest at the deadline, after asking its
	# monitor where it hangs, and when every CPU idles, the console
	# for the blocked tasks (tools/qemu-watch.sh, in DIR): the console
	# is a socket the watcher can press SysRq on, kept in console.log
	# (relative paths: a unix socket's path has at most 107 bytes).
	# shellcheck disable=SC2054  # the commas are QEMU's
	local cmd=(setpriv --pdeathsig KILL "$TOP/tools/qemu-watch.sh" "$secs"
		"${tg[arch]}" "${kernel%/*}/System.map" "${kernel%/*}/staging/lib/modules" --
		"${tg[qemu]}" -accel "$accel" "${qargs[@]}"
		-kernel "$kernel" -initrd "$initrd"
		-append "console=${tg[console]} $BOOT_CMDLINE bisect_results=${tg[results]}${extra:+ $extra}"
		-chardev socket,id=con,path=con.sock,server=on,wait=off,mux=on,logfile=console.log
		-serial chardev:con "${res[@]}"
		-monitor unix:mon.sock,server=on,wait=off
		-pidfile "$dir/qemu.pid")

	rm -f "$dir/console.log" "$dir/results.ktap" "$dir/qemu.pid" "$dir/mon.sock" "$dir/con.sock" \
		"$dir/hang.tsv" "$dir/hang.raw" "$dir/hang.err"
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
		lock_drop
		cd "$dir" && exec "${cmd[@]}"
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

# make_initramfs(): target $1's guest initramfs: a dracut image (runner, module
# tooling and the modules the guest program loads, the series' list
# driver, --kver/--kmoddir of the step), made once per dracut
# version, runner, kernel release and module list and reused, with a
# small cpio of the step's own modules, the runner's program
# (GUEST_PROGRAM) and the series' guest programs (guest_bins) appended (later cpio entries replace earlier ones when
# the kernel unpacks them).
make_initramfs()
{
	local t=$1; shift
	local art=$1; shift
	local img=$1; shift
	local log=$1; shift
	local kver key base ovl runner arch
	local -a drivers
	local -A tg

	target_get tg "$t"
	series_list drivers driver
	runner=${tg[runner]} arch=${tg[arch]}
	kver=$(cat "$art/kernel.release")
	# dracut copies kmod's tools and their libraries from this host.
	key=$(hash_of "$(dpkg-query -W -f='${Package}=${Version} ' dracut-core kmod libc6 2>/dev/null)" \
		"$(sha1sum < "$runner")" "$kver" "${drivers[*]}")
	base=$WORKDIR/initramfs/base-$key.img
	if [[ ! -f "$base" ]]; then
		mkdir -p "$WORKDIR/initramfs"
		run_logged "$log" dracut --quiet --force --no-hostonly --no-compress \
			--no-early-microcode --kver "$kver" \
			--kmoddir "$art/staging/lib/modules/$kver" \
			--modules kernel-modules --add-drivers "${drivers[*]}" \
			--include "$runner" /bisect/runner \
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
	# The guest does without the modules' debug info (kept for the
	# host, boot_hang): a tenth of their size to copy and to load.
	find "$ovl/usr/lib/modules" -name '*.ko' -exec "${tg[cross]}strip" --strip-debug {} + ||
		return 1
	mkdir -p "$ovl/bisect" && printf '%s\n' "$GUEST_PROGRAM" > "$ovl/bisect/program" || return 1
	# The series' guest programs (exec operations) of this arch.
	if [[ -n "${GUEST_BIN[$arch]:-}" ]]; then
		cp -r "${GUEST_BIN[$arch]}" "$ovl/bisect/bin" || return 1
	fi
	(cd "$ovl" && find usr bisect | LC_ALL=C sort | cpio -o -H newc --quiet \
		--reproducible) > "$img.overlay" 2>> "$log" || return 1
	cat "$base" "$img.overlay" > "$img" || return 1
	echo "initramfs: $base + $(stat -c %s "$img.overlay") bytes of step modules and program" >> "$log"
	return 0
}

# qemu_version(): variable $1 = the first line of QEMU binary $2's
# --version, asked once per binary (not from a $(...): a subshell's
# answer would be asked again at every boot cell).
qemu_version()
{
	local -n __qv_ref=$1; shift
	local q=$1; shift
	local id v

	if [[ -z "${QEMU_VERSION[$q]:-}" ]]; then
		# Kept per installed binary: QEMU takes a tenth of a second
		# to say it, an upgrade changes its size, times and inode.
		path_of "$q"
		files_id_to id "${REPLY:-$q}"
		if ! memo_get v qemu-version "$id"; then
			v=$("$q" --version 2>&1 | head -n 1)
			memo_put qemu-version "$id" "$v"
		fi
		QEMU_VERSION[$q]=$v
	fi
	__qv_ref=${QEMU_VERSION[$q]}
}

# kvm_probe(): decide KVM or TCG for target $1's arch once per host
# kernel and QEMU version (BOOT_ACCEL, BOOT_ACCEL_WHY; memo kvm-probe),
# booting the kernel of artifact dir $2 when it must: KVM only when the
# arch can use it here (tools/arch.tsv) and a guest really finishes
# under it.
kvm_probe()
{
	local t=$1; shift
	local art=$1; shift
	local key known dir rc qver
	local -A tg

	target_get tg "$t"
	qemu_version qver "${tg[qemu]}"
	key=$(hash_of "$(uname -r)" "$qver")
	if [[ -n "${ACCEL:-}" ]]; then
		BOOT_ACCEL=$ACCEL
		BOOT_ACCEL_WHY="ACCEL=$ACCEL set by the user"
		return 0
	fi
	if [[ "${tg[kvm]}" != yes ]]; then
		BOOT_ACCEL=tcg
		BOOT_ACCEL_WHY="KVM cannot run ${tg[arch]} guests on this host (tools/arch.tsv)"
		return 0
	fi
	if memo_get known kvm-probe "$key" && [[ "$known" == *$'\t'* ]]; then
		BOOT_ACCEL=${known%%$'\t'*}
		BOOT_ACCEL_WHY=${known#*$'\t'}
		return 0
	fi
	if [[ ! -w /dev/kvm ]]; then
		BOOT_ACCEL=tcg
		BOOT_ACCEL_WHY="no usable /dev/kvm"
	else
		dir=$RUNDIR/kvm-probe
		mkdir -p "$dir"
		progress "boot: probing KVM (up to ${KVM_PROBE_TIMEOUT}s)"
		make_initramfs "$t" "$art" "$dir/initrd.img" "$dir/probe.log"
		qemu_run "$t" kvm "$art/${tg[image]##*/}" "$dir/initrd.img" "$dir" \
			"$KVM_PROBE_TIMEOUT" "$dir/probe.log"
		rc=$?
		if grep -q '^# runner: done' "$dir/results.ktap" 2>/dev/null; then
			BOOT_ACCEL=kvm
			BOOT_ACCEL_WHY="a probe guest finished under KVM"
		else
			BOOT_ACCEL=tcg
			BOOT_ACCEL_WHY="a probe guest did not finish under KVM in ${KVM_PROBE_TIMEOUT}s (qemu exit $rc)"
		fi
	fi
	memo_put kvm-probe "$key" "$BOOT_ACCEL"$'\t'"$BOOT_ACCEL_WHY (probed $(date -u +%F))"
	BOOT_ACCEL_WHY+=" (probed now)"
}

# boot_tools(): the boot's programs are there for every selected target
# (target.sh); called before any work, and by boot_setup: done once a
# run for the same targets.
BOOT_TOOLS_OF=
boot_tools()
{
	local t q runner
	local -a names
	local -A tg

	targets_names names
	[[ -n "$BOOT_TOOLS_OF" && "$BOOT_TOOLS_OF" == "${names[*]}" ]] && return 0
	declare -gA RUNNER_SUM=() GUEST_BIN=() GUEST_BIN_SUM=()

	[[ -x "$TOP/tools/bin/triage" ]] || die "tools/bin/triage is not built: run 'make tools'"
	targets_tables
	for t in "${names[@]}"; do
		target_get tg "$t"
		[[ "${tg[boot]}" == yes ]] || continue
		command -v "${tg[qemu]}" >/dev/null ||
			die "${tg[qemu]} not found: run 'make deps' (Debian packages of target $t: ${tg[packages]})"
		# The runner of the target's arch, static, made when missing
		# or older than its sources or the Makefile that says how it
		# is compiled (asked without make when it is not).
		runner=${tg[runner]}
		q=${runner#"$TOP"/}
		if [[ ! "$runner" -nt "$TOP/guest/runner.c" ||
		      ! "$runner" -nt "$TOP/tools/src/splat.h" ||
		      ! "$runner" -nt "$TOP/tools/src/guestop.h" ||
		      ! "$runner" -nt "$TOP/Makefile" ]]; then
			make -s -C "$TOP" "$q" GUEST_CC="${tg[user-cc]}" WORKDIR="$WORKDIR" \
				JOBS="$JOBS" >&2 ||
				die "cannot build $q with ${tg[user-cc]} (target $t): run 'make deps'"
		fi
		# The binary, not only its source, keys the boots: another
		# compiler makes another runner. Its hash is kept while the
		# file is the same (one read of it a run: a target of the
		# same arch has it).
		[[ -n "${RUNNER_SUM[${tg[arch]}]+set}" ]] ||
			file_sums_to "RUNNER_SUM[${tg[arch]}]" "$runner"
		[[ -n "${GUEST_BIN[${tg[arch]}]+set}" ]] || guest_bins "$t" "${tg[user-cc]}"
	done
	command -v dracut >/dev/null ||
		die "dracut not found: run 'make deps' (Debian package dracut-core)"
	BOOT_TOOLS_OF=${names[*]}
}

# user_cc_facts(): associative array $1 (the caller's) = what guest_bins
# asks of compiler $2 (an arch's user-cc): [real], its file (links
# resolved: another alternative for cc is another compiler), [libc], its
# static libc (-print-file-name=libc.a), and [version], the first line of
# its --version. Five forks a compiler, asked at every run, are instead
# kept in memos cc-libc and cc-version under the name it is called by,
# its file's path and identity (file_id: an upgrade or another
# alternative changes them), what else steers its search for libc.a
# (GCC_EXEC_PREFIX, COMPILER_PATH, LIBRARY_PATH) and the locale of its
# messages. A libc.a kept but gone since is asked again. Fails when the
# compiler is not on PATH.
user_cc_facts()
{
	local -n __ucf=$1; shift
	local cc=$1; shift
	local path key='' libc version
	local -A id

	__ucf=([real]='' [libc]='' [version]='')
	if [[ "$cc" == */* ]]; then
		path=$cc
		[[ -f "$path" && -x "$path" ]] || return 1
	else
		path_of "$cc" || return 1
		path=$REPLY
	fi
	if file_id id "$path" && [[ -n "${id[real]}" ]]; then
		__ucf[real]=${id[real]}
		((id[settled])) &&
			hash_to key "$cc" "${id[real]}" "${id[key]}" "${GCC_EXEC_PREFIX-}" \
				"${COMPILER_PATH-}" "${LIBRARY_PATH-}" "${LC_ALL-}" \
				"${LC_MESSAGES-}" "${LANG-}" "${LANGUAGE-}"
	else
		__ucf[real]=$(readlink -f "$path")
	fi
	if [[ -n "$key" ]] && memo_get libc cc-libc "$key" && [[ -f "$libc" ]] &&
	   memo_get version cc-version "$key"; then
		__ucf[libc]=$libc __ucf[version]=$version
		return 0
	fi
	libc=$("$cc" -print-file-name=libc.a)
	version=$("$cc" --version 2>&1 | head -n 1)
	__ucf[libc]=$libc __ucf[version]=$version
	[[ -n "$key" && -f "$libc" ]] || return 0
	memo_put cc-libc "$key" "$libc"
	memo_put cc-version "$key" "$version"
}

# guest_bins(): the series' guest programs (its list program, each NAME.c
# in its dir guest-programs) for target $1's arch: static, by its compiler $2,
# made once per source, compiler and flags in WORKDIR/guest-bin/KEY.
# GUEST_BIN[arch] is that dir, GUEST_BIN_SUM[arch] the binaries' hash
# (a boot's key: another compiler makes other programs). What the
# compiler says (user_cc_facts) and the hashes of the files
# (file_sums_to: the static libc is 5 MB) are kept while their files are
# the same.
guest_bins()
{
	local t=$1; shift
	local ucc=$1; shift
	local arch name key dir tmp cc libc progs srcs=() bins=() sb=() execs
	local -A ucf
	local flags="-O2 -Wall -static"

	target_field arch "$t" arch
	GUEST_BIN[$arch]='' GUEST_BIN_SUM[$arch]=''
	series_list execs program
	((${#execs[@]})) || return 0
	series_get progs guest-programs
	for name in "${execs[@]}"; do
		srcs+=("$progs/$name.c")
		bins+=("$name")
	done
	user_cc_facts ucf "$ucc" ||
		die "$ucc not found: run 'make deps' (target $t)"
	cc=${ucf[real]}
	# What goes in: the sources, the compiler and the static libc.
	libc=${ucf[libc]}
	[[ -f "$libc" ]] || die "$ucc has no static libc (target $t): run 'make deps'"
	file_sums_to key "${srcs[@]}" "$libc"
	hash_to key "$key" "$arch" "$cc" "${ucf[version]}" "$flags"
	dir=$WORKDIR/guest-bin/$key
	if [[ ! -d "$dir" ]]; then
		tmp=$dir.tmp.$$
		rm -rf "$tmp"
		mkdir -p "$tmp" || die "cannot make $tmp"
		# The series' code: compiled in the sandbox, which may
		# write the new dir alone.
		sandbox_argv sb --rw "$tmp" --ro "$progs"
		for name in "${bins[@]}"; do
			# shellcheck disable=SC2086  # the flags are words
			"${sb[@]}" "$ucc" $flags -o "$tmp/$name" "$progs/$name.c" \
				> "$tmp/$name.log" 2>&1 || {
				sed -n '1,20p' "$tmp/$name.log" >&2
				rm -rf "$tmp"
				die "cannot build guest program $progs/$name.c with $ucc (target $t): fix it, or run 'make deps' if the compiler is missing"
			}
			rm -f "$tmp/$name.log"
		done
		mv "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
	fi
	GUEST_BIN[$arch]=$dir
	file_sums_to "GUEST_BIN_SUM[$arch]" "${bins[@]/#/$dir/}"
}

# boot_setup(): what every boot needs: the runner binary and the tools.
# With the word "async", each guest is judged when the next one starts or
# the run ends (boot_pending_finish), so that it runs while the next step
# builds; else at once. With "only-declared" (tools/bisect-run, which
# asks about some claims), triage judges the claims of the boot's expect
# list alone and ignores what else the runner reports. That is no part of
# the boot key: the expect list is, and when it holds every claim the
# runner reports no other, so the verdict is the same either way.
boot_setup()
{
	local h v ev w
	local -a drivers

	BOOT_ASYNC=0 BOOT_ONLY_DECLARED=0
	for w in "$@"; do
		case $w in
		async) BOOT_ASYNC=1 ;;
		only-declared) BOOT_ONLY_DECLARED=1 ;;
		*) die "boot_setup: unknown word '$w'" ;;
		esac
	done

	boot_tools
	pkg_version v dracut-core
	declare -gA QEMU_VERSION=() ACCEL_OF=()
	# What the runner runs: the series' tests and guest operations.
	GUEST_PROGRAM=$(guest_program)
	series_list drivers driver
	# The runner and triage with every header they include.
	# The boot stage's own code, whole (a list of its functions would
	# miss one they call: qemu_wait, boot_accel, ...).
	hash_files_to h "$TOP/guest/runner.c" "$TOP/tools/src/triage.c" \
		"$TOP/tools/src/splat.h" "$TOP/tools/src/guestop.h" "$TOP/tools/src/util.h" \
		"$TOP/tools/src/hangsym.c" "$TOP/tools/qemu-watch.sh" "$TOP/tools/stages/boot.sh"
	# What a cached boot cell brings back is part of it too.
	cache_evidence ev boot
	hash_to BOOT_ID "$h" "$ev" \
		"$BOOT_CMDLINE" "$BOOT_TIMEOUT" "$GUEST_PROGRAM" "${drivers[*]}" "$v"
	ACCEL_DONE=0
	BOOT_PENDING=()
	return 0
}

# boot_accel_none(): the report's header says that no accelerator was
# decided, when every boot of the run came from the cache.
boot_accel_none()
{
	[[ "${ACCEL_DONE:-}" == 0 ]] &&
		printf 'accel\tnone used: every boot result was cached\n' >> "$RUNDIR/meta.tsv"
	return 0
}

# boot_pending_of(): a guest of target $1 runs, not judged yet.
boot_pending_of()
{
	((${#BOOT_PENDING[@]})) && [[ "${BOOT_PENDING[1]}" == "$1" ]]
}

# boot_accel(): the accelerator of target $1's arch, decided once a run
# (kvm_probe, with the kernel of artifact dir $2) and said in the
# report's header.
boot_accel()
{
	local t=$1; shift
	local art=$1; shift
	local arch key=accel

	target_field arch "$t" arch

	if [[ -n "${ACCEL_OF[$arch]:-}" ]]; then
		BOOT_ACCEL=${ACCEL_OF[$arch]}
		return 0
	fi
	kvm_probe "$t" "$art"
	ACCEL_OF[$arch]=$BOOT_ACCEL
	# The first arch's line keeps the plain key.
	((ACCEL_DONE)) && key="accel $arch"
	printf '%s\t%s\n' "$key" "$BOOT_ACCEL: $BOOT_ACCEL_WHY" >> "$RUNDIR/meta.tsv"
	progress "boot: $arch guests use $BOOT_ACCEL ($BOOT_ACCEL_WHY)"
	ACCEL_DONE=1
}

# stage_boot_start(): the boot stage, first half: the step's initramfs
# and its guest, started (qemu_start). Fails, with the result in REC,
# when there is no initramfs. Args: REC LOG DETAIL TARGET ART DIR EXPECT...
# (the EXPECT words are "id=yes|no" of the step's claims, or
# "id=skip:REASON" for a claim the target does not run: the runner is
# told to skip it, bisect_skip= on the command line, and DIR/skip.tsv
# keeps the reasons for the tests stage; or "id=yes|no<TAB>CASES<TAB>
# WORDS<TAB>REASON" for a claim judged without KUnit cases the target
# does not count, series_skip_cases': the runner is told the WORDS,
# bisect_skip_cases=, and DIR/skip-cases.tsv keeps CASES and REASON).
stage_boot_start()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local tgt=$1; shift
	local art=$1; shift
	local dir=$1; shift
	local t e id val cases words reason cwords='' skips=
	local -a kopts
	local -A tg

	mkdir -p "$dir"
	: > "$dir/skip.tsv"
	: > "$dir/skip-cases.tsv"
	for e in "$@"; do
		id=${e%%=*}
		val=${e#*=}
		if [[ "$val" == *$'\t'* ]]; then
			IFS=$'\t' read -r val cases words reason <<< "$val"
			printf '%s\t%s\t%s\n' "$id" "$cases" "$reason" >> "$dir/skip-cases.tsv"
			cwords+=${cwords:+,}$words
		elif [[ "$val" == skip:* ]]; then
			printf '%s\t%s\n' "$id" "${val#skip:}" >> "$dir/skip.tsv"
			skips+=${skips:+,}$id
			val=skip
		fi
		printf '%s\t%s\n' "$id" "$val"
	done > "$dir/expect.tsv"

	t=$(now_ms)
	if ! make_initramfs "$tgt" "$art" "$dir/initrd.img" "$log"; then
		result "$rec" FAIL "dracut failed"
		tail -n 5 "$log" > "$detail"
		return 1
	fi
	echo "initramfs: $(($(now_ms) - t)) ms" >> "$log"
	# allnoconfig leaves KUnit's suites off by default
	# (CONFIG_KUNIT_DEFAULT_ENABLED): a guest with suites to read turns
	# them on.
	local extra=${skips:+bisect_skip=$skips}
	extra+=${cwords:+${extra:+ }bisect_skip_cases=$cwords}
	series_list kopts kconfig
	[[ " ${kopts[*]} " == *" CONFIG_KUNIT=y "* ]] && extra+="${extra:+ }kunit.enable=1"
	target_get tg "$tgt"
	qemu_start "$tgt" "$BOOT_ACCEL" "$art/${tg[image]##*/}" "$dir/initrd.img" "$dir" \
		"$BOOT_TIMEOUT" "$log" "$extra"
}

# boot_hang(): where the guest of DIR ($1) hung, as the watcher captured
# it at the deadline (tools/qemu-watch.sh, tools/bin/hangsym), its
# modules' lines read with the binutils of prefix $3: HANG_TITLE
# ("hang in FUNC"), HANG_WHERE (its FILE:LINE when the code has debug
# info: modules do, vmlinux does not), the place and the frames in
# DETAIL ($2), the title in DIR/triage.tsv (the report groups crash
# titles); fails when nothing was captured. When every CPU idled, the
# hang is the task that does not go on, which the watcher asked the
# guest for (SysRq w): triage's title "INFO: task hung in FUNC".
boot_hang()
{
	local dir=$1; shift
	local detail=$1; shift
	local cross=$1; shift
	local kind a b c d on='' line idle=0 where=()

	HANG_TITLE='' HANG_WHERE=''
	[[ -s "$dir/hang.tsv" ]] || return 1
	while IFS=$'\t' read -r kind a b c d; do
		case $kind in
		idle) idle=$a ;;
		title) HANG_TITLE=$a ;;
		cpu) on=" on CPU $a of $b (the busiest)" ;;
		module)
			# NAME SECTION OFFSET KO: the line, from the .ko's DWARF;
			# of the function's own code, not of what it inlined.
			line=$("${cross}addr2line" -i -e "$d" -j "$b" "$c" 2>/dev/null | tail -n 1)
			line=${line%% (discriminator*}
			[[ "$line" == \?\?* || "$line" == *:0 || -z "$line" ]] ||
				HANG_WHERE=${line#"${WT%/}"/}
			;;
		pc)
			if [[ "$b" == - ]]; then
				where+=("stuck at $a$on, outside vmlinux (a module's code)")
			else
				where+=("stuck at $b ($a)$on${HANG_WHERE:+, $HANG_WHERE}")
			fi
			;;
		frame) where+=("  called from $b ($a)") ;;
		esac
	done < "$dir/hang.tsv"
	[[ -n "$HANG_TITLE" ]] || return 1
	if ((idle)); then
		while IFS=$'\t' read -r kind a; do
			[[ "$kind" == title && "$a" == "INFO: task hung"* ]] || continue
			echo "no CPU is busy ($idle in the idle loop: $HANG_TITLE): the hang is a task that does not go on, listed above by SysRq w" >> "$detail"
			echo "monitor capture: $dir/hang.raw" >> "$detail"
			HANG_TITLE=$a HANG_WHERE=
			return 0
		done < "$dir/triage.tsv"
	fi
	printf '%s\n' "${where[@]}" >> "$detail"
	echo "monitor capture: $dir/hang.raw" >> "$detail"
	printf 'title\t%s\n' "$HANG_TITLE" >> "$dir/triage.tsv"
}

# boot_judge(): judge the guest of DIR ($4) that ended with RC ($5):
# tools/bin/triage on its console, results and identity into
# DIR/triage.tsv, where it hung (boot_hang), the details in DETAIL ($2).
# Sets B_STATUS, B_SUMMARY (without the accelerator), B_TRC (triage's
# exit code). Args: LOG DETAIL ART DIR RC CROSS (the target's binutils
# prefix).
boot_judge()
{
	local log=$1; shift
	local detail=$1; shift
	local art=$1; shift
	local dir=$1; shift
	local rc=$1; shift
	local cross=$1; shift
	local kind a b booted=''
	local flags=()

	B_STATUS=FAIL B_SUMMARY="triage failed"
	((rc == 124)) && flags=(--timed-out "$BOOT_TIMEOUT")
	((${BOOT_ONLY_DECLARED:-0})) && flags+=(--only-declared)
	"$TOP/tools/bin/triage" --console "$dir/console.log" \
		--results "$dir/results.ktap" --expect "$dir/expect.tsv" \
		--identity "$art/identity.tsv" --dmesg "$dir/kernel.log" \
		"${flags[@]}" > "$dir/triage.tsv" 2>> "$log"
	B_TRC=$?
	: > "$detail"
	while IFS=$'\t' read -r kind a b _; do
		case $kind in
		boot) B_STATUS=$a; B_SUMMARY=$b ;;
		identity) [[ "$a" == ok ]] && booted=${b%% *} ;;
		boot-detail) echo "$a" >> "$detail" ;;
		esac
	done < "$dir/triage.tsv"
	((rc == 124)) && boot_hang "$dir" "$detail" "$cross" &&
		B_SUMMARY+=": $HANG_TITLE${HANG_WHERE:+ ($HANG_WHERE)}"
	# Every boot says which kernel it proved it ran.
	B_SUMMARY+=${booted:+, booted $booted}
}

# boot_suspect(): whether the boot of DIR ($1), judged by boot_judge with
# QEMU's exit RC ($2), may be the host's doing rather than the kernel's:
# it timed out, or a claim came out other than declared. Such a boot is
# run once more before its result is believed.
boot_suspect()
{
	local dir=$1; shift
	local rc=$1; shift
	local kind a b c d

	((rc == 124)) && return 0
	while IFS=$'\t' read -r kind a b c d _; do
		[[ "$kind" == test && "$d" == FAIL ]] && return 0
	done < "$dir/triage.tsv"
	return 1
}

# boot_outcome(): what a boot's DIR/triage.tsv ($1) says, one line per
# fact two boots of one kernel must agree on: the boot's verdict, each
# claim's result (not its diagnostics, which hold times and addresses).
boot_outcome()
{
	local kind a b c

	while IFS=$'\t' read -r kind a b c _; do
		case $kind in
		boot) printf 'boot\t%s\n' "${b%%:*}" ;;
		test) printf 'test %s\t%s\n' "$a" "$c" ;;
		esac
	done < "$1"
}

# boot_disagree(): the facts on which two boots' triage.tsv ($1, $2)
# differ, one line each ("boot: timeout, then ok"); none when they agree.
boot_disagree()
{
	local what v
	local -A first=() second=()

	while IFS=$'\t' read -r what v; do first[$what]=$v; done < <(boot_outcome "$1")
	while IFS=$'\t' read -r what v; do second[$what]=$v; done < <(boot_outcome "$2")
	for what in "${!first[@]}" "${!second[@]}"; do
		[[ "${first[$what]:-none}" == "${second[$what]:-none}" ]] && continue
		printf '%s: %s, then %s\n' "${what#test }" "${first[$what]:-none}" "${second[$what]:-none}"
	done | sort -uV
}

# stage_boot_finish(): the boot stage, second half: wait for the guest
# and judge console, results and identity (boot_judge; DIR/triage.tsv is
# what the tests stage reads). A suspect boot (boot_suspect) runs once
# more, the same kernel and initramfs on the same command line: when the
# two agree the second is the verdict; when not, the cell is "flaky",
# says both outcomes and is not stored, and the first boot's files are
# kept as *.1 (console.1.log, triage.1.tsv, ...). Args: REC LOG DETAIL
# TARGET ART DIR ACCEL (what the guest ran on).
stage_boot_finish()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local t=$1; shift
	local art=$1; shift
	local dir=$1; shift
	local accel=$1; shift
	local rc f was='' differ=''
	local -A tg

	target_get tg "$t"
	qemu_wait
	rc=$?
	boot_judge "$log" "$detail" "$art" "$dir" "$rc" "${tg[cross]}"
	if ((B_TRC <= 1)) && boot_suspect "$dir" "$rc"; then
		was=$B_SUMMARY
		for f in console.log results.ktap triage.tsv kernel.log hang.tsv hang.raw hang.err; do
			[[ -e "$dir/$f" ]] && mv "$dir/$f" "$dir/${f%.*}.1.${f##*.}"
		done
		cp "$detail" "$detail.1"
		echo "boot again: the first boot's result ($was) may be the host's" >> "$log"
		qemu_start "${QEMU_LAST[@]}"
		qemu_wait
		rc=$?
		boot_judge "$log" "$detail" "$art" "$dir" "$rc" "${tg[cross]}"
		# The boot's own verdict; the claims are the tests cell's
		# (tools/stages/tests reads the rest of disagree.txt).
		boot_disagree "$dir/triage.1.tsv" "$dir/triage.tsv" > "$dir/disagree.txt"
		differ=$(grep '^boot: ' "$dir/disagree.txt")
	fi
	result "$rec" "$B_STATUS" "$B_SUMMARY ($accel)"
	if [[ -n "$differ" ]]; then
		result "$rec" flaky "$was, then $B_SUMMARY ($accel)"
		result_nocache "$rec"
		{
			echo "flaky: two boots of the same kernel, initramfs and command line disagree:"
			echo "  ${differ//$'\n'/$'\n'  }"
			echo "first boot: console $dir/console.1.log, results $dir/results.1.ktap, its details:"
			sed 's/^/  /' "$detail.1"
			echo "second boot:"
		} > "$detail.flaky"
		cat "$detail" >> "$detail.flaky"
		mv "$detail.flaky" "$detail"
		echo "next: rerun (a flaky result is not stored); if it stays flaky, look for a race or a timeout too short for this host" >> "$detail"
	elif [[ -n "$was" ]]; then
		echo "booted twice (the first result may have been the host's): both the same" >> "$detail"
	fi
	rm -f "$detail.1"
	if ((B_TRC > 1)); then
		# triage's own error is no verdict on the step: not cached.
		result "$rec" FAIL "triage failed ($accel)"
		result_nocache "$rec"
		echo "triage exited $B_TRC: $(tail -n 1 "$log")" >> "$detail"
		echo "next: fix the tool (make tools), then rerun" >> "$detail"
	fi
	if [[ "$B_STATUS" != ok ]]; then
		echo "console: $dir/console.log" >> "$detail"
		echo "next: rerun with KEEP=1 and boot $art/${tg[image]##*/} by hand (command in $log)" >> "$detail"
	fi
	# The image is made again from the artifacts in 50 ms: only KEEP=1
	# keeps it in the run dir, for booting it by hand.
	[[ "${KEEP:-0}" == 1 ]] || rm -rf "$dir/initrd.img" "$dir/initrd.img.overlay" "$dir/overlay"
	return 0
}

# The step facts (step_facts, tools/inputs.sh) of the boot boot_cells
# started, for the programs that judge it when it ends.
# shellcheck disable=SC2034  # given by name (cell_prog_inputs)
declare -gA BOOT_FACTS=()

# boot_cells(): the boot cell of step $1 built for target $2 and the cells
# of the programs that judge its results (tools/stages.tsv, runs
# after-boot: tests): all from the cache, or a guest started here and
# judged by boot_pending_finish: at once, or (boot_setup async) when the
# next boot starts or the run ends, so that the guest (one thread under
# TCG) runs while the next build goes on (a build leaves a core idle
# while it links). The boot's key is written to its dir first (boot.key:
# the key of what judges it, input boot-results). $3 names the step's
# facts (step_facts): its build's artifact dir among them.
boot_cells()
{
	local idx=$1; shift
	local tgt=$1; shift
	local __bc_fn=$1; shift
	local -n __bc_f=$__bc_fn
	local art=${__bc_f[art]} build_key key id ident t0 qver s k hit exp=()
	local -a qargs judges
	local -A tg f keys=()

	# The artifact dir is named by the build key.
	build_key=${art##*/}
	series_expect exp "$tgt" "$idx"
	# The identity the guest must prove is part of the key: a result is
	# reused only for the very kernel and modules it was judged on; so
	# are the emulator and how it is called.
	target_get tg "$tgt"
	target_words qargs tg qemu-args
	qemu_version qver "${tg[qemu]}"
	text_of ident "$art/identity.tsv"
	hash_to key "$build_key" "$BOOT_ID" "${exp[*]}" "$ident" \
		"$qver" "${qargs[*]}" "${tg[console]}" "${tg[results]}" "${tg[res-args]}" \
		"${RUNNER_SUM[${tg[arch]}]:-}" "${GUEST_BIN_SUM[${tg[arch]}]:-}"
	cell_files f "$idx" "$tgt" boot
	printf '%s\n' "$key" > "$RUNDIR/boot/${f[prefix]}/boot.key" ||
		die "cannot write $RUNDIR/boot/${f[prefix]}/boot.key: check space and permissions of WORKDIR=$WORKDIR"
	# Served only all together: what judges a boot judges that boot.
	hit=0
	if cache_has boot "$key"; then
		hit=1
		stages_at judges after-boot "$idx"
		for s in "${judges[@]}"; do
			if ! cell_prog_inputs k "$idx" "$tgt" "$s" "$__bc_fn" || ! cache_has "$s" "$k"; then
				hit=0
				break
			fi
			keys[$s]=$k
		done
	fi
	if ((hit)) && cell_lookup "$idx" "$tgt" boot "$key"; then
		for s in "${judges[@]}"; do
			cell_lookup "$idx" "$tgt" "$s" "${keys[$s]}" || hit=0
		done
		((hit)) && return 0
	fi
	boot_pending_finish
	boot_accel "$tgt" "$art"
	cell_begin t0 "$idx" "$tgt" boot
	BOOT_PENDING=("$idx" "$tgt" "$art" "$key" "$t0" "$BOOT_ACCEL")
	BOOT_FACTS=()
	# shellcheck disable=SC2034  # given by name (boot_pending_finish)
	for s in "${!__bc_f[@]}"; do
		BOOT_FACTS[$s]=${__bc_f[$s]}
	done
	if ! stage_boot_start "${f[rec]}" "${f[log]}" "${f[detail]}" "$tgt" "$art" \
		"$RUNDIR/boot/${f[prefix]}" "${exp[@]}"; then
		BOOT_PENDING=()
		cell_end "$idx" "$tgt" boot "$key" "$t0"
		skip_after "$idx" "$tgt" boot "no initramfs"
		return
	fi
	[[ "${BOOT_ASYNC:-0}" == 1 ]] || boot_pending_finish
}

# boot_pending_finish(): judge the boot boot_cells started, if any.
boot_pending_finish()
{
	local idx tgt art key t0 accel t end f dir s k
	local -a judges
	local -A b

	((${#BOOT_PENDING[@]})) || return 0
	idx=${BOOT_PENDING[0]}
	tgt=${BOOT_PENDING[1]}
	art=${BOOT_PENDING[2]}
	key=${BOOT_PENDING[3]}
	t0=${BOOT_PENDING[4]}
	accel=${BOOT_PENDING[5]}
	BOOT_PENDING=()
	cell_files b "$idx" "$tgt" boot
	dir=$RUNDIR/boot/${b[prefix]}
	# The guest's own time: to the end of the wait below when it still
	# runs, else to its last output (QEMU logs being ended by the timeout).
	end=
	if ! kill -0 "$QEMU_PID" 2>/dev/null; then
		end=$t0
		for f in "$dir/console.log" "$dir/results.ktap" "${b[log]}"; do
			[[ -f "$f" ]] || continue
			t=$(date -r "$f" +%s%3N)
			((t > end)) && end=$t
		done
	fi
	stage_boot_finish "${b[rec]}" "${b[log]}" "${b[detail]}" "$tgt" "$art" "$dir" "$accel"
	[[ -n "$end" ]] || end=$(now_ms)
	cell_end "$idx" "$tgt" boot "$key" "$t0" $((end - t0))
	# What judges the boot (tests): from the boot just made, never from
	# the cache.
	stages_at judges after-boot "$idx"
	for s in "${judges[@]}"; do
		cell_prog_inputs k "$idx" "$tgt" "$s" BOOT_FACTS || continue
		cell_prog_exec "$idx" "$tgt" "$s" "$k"
	done
}
