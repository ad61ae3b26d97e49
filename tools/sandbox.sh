#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sandbox.sh - run what the tree under test says in a sandbox. A kernel
# tree's Makefiles and scripts run whatever a patch puts there, and a
# series received by mail is anyone's: kconfig, the builds, the W=1 and
# exports compiles (kmake, tools/stages/build.sh) and every stage
# program (cell_exec, tools/cell.sh: checkpatch.pl, kernel-doc,
# get_maintainer.pl of the tree) run under bubblewrap with
#
#   - the host read-only, and HOME, /tmp, /var/tmp and /run empty (HOME
#     read-only too): no key, credential, agent socket or planted secret
#     to read, nothing of the host's to change;
#   - writable only the dirs the caller names (a build dir, its ccache,
#     the artifact dir; a program's run dir), and what it must read
#     (this repository, WORKDIR, the worktree) bound read-only where a
#     hidden dir would cover it;
#   - no network (a loopback of its own; with BUILD_HOSTS the host's
#     network, which distcc needs, and says so);
#   - its own PIDs: what the command leaves running is killed when it
#     ends, and said;
#   - a clean environment (PATH, TMPDIR, the locale; the caller's own
#     VAR=value words after that), and limits of time (SANDBOX_TIMEOUT
#     seconds) and file size (SANDBOX_FSIZE bytes).
#
# tools/sandbox-run, the command's parent in there, reports each rule
# that stopped something as a "sandbox: RULE: WHAT" line in the log;
# sandbox_stopped reads them back for the cell. SANDBOX=0 runs without it
# (a series of your own, on a machine you do not mind; README, Settings).
#
# Sourced by tools/bisect-check (through cell.sh and build.sh) and
# tools/bisect-run; expects lib.sh.


# sandbox_argv(): the array named $1 = the command words that run a
# command in the sandbox (none with SANDBOX=0); then options: --rw DIR
# (writable; it must exist), --ro DIR (readable where a hidden dir would
# cover it; skipped when missing), --net (the host's network), --env
# VAR=VALUE.
sandbox_argv()
{
	local -n __sb=$1; shift
	local home=${HOME:-} d
	local -a sb_rw=() sb_ro=() sb_env=() sb_net=(--unshare-net)

	__sb=()
	[[ "$SANDBOX" == 0 ]] && return 0
	while (($#)); do
		case $1 in
		--rw) sb_rw+=("$2"); shift 2 ;;
		--ro) sb_ro+=("$2"); shift 2 ;;
		--env) sb_env+=(--setenv "${2%%=*}" "${2#*=}"); shift 2 ;;
		--net) sb_net=(--share-net); shift ;;
		*) die "sandbox_argv: unknown option '$1'" ;;
		esac
	done
	[[ -d "$home" && "$home" != / ]] || home=
	__sb=(bwrap --ro-bind / / --dev /dev --proc /proc
		--tmpfs /tmp --tmpfs /var/tmp --tmpfs /run)
	[[ -n "$home" ]] && __sb+=(--tmpfs "$home")
	# This repository: tools/sandbox-run runs in there, whatever hides
	# the place it was cloned to (/tmp, HOME).
	for d in "$TOP" "${sb_ro[@]}"; do
		[[ -e "$d" ]] && __sb+=(--ro-bind "$d" "$d")
	done
	for d in "${sb_rw[@]}"; do
		__sb+=(--bind "$d" "$d")
	done
	[[ -n "$home" ]] && __sb+=(--remount-ro "$home")
	__sb+=(--unshare-user-try --unshare-ipc --unshare-pid --unshare-uts
		--unshare-cgroup-try "${sb_net[@]}" --die-with-parent --new-session
		--clearenv --setenv PATH "$PATH" --setenv TMPDIR /tmp)
	[[ -n "${LANG:-}" ]] && __sb+=(--setenv LANG "$LANG")
	[[ -n "${LC_ALL:-}" ]] && __sb+=(--setenv LC_ALL "$LC_ALL")
	__sb+=("${sb_env[@]}" -- "$TOP/tools/sandbox-run" "${home:-/}" "$SANDBOX_TIMEOUT"
		"$SANDBOX_FSIZE")
}

# sandbox_check(): die unless the sandbox can run here (bubblewrap
# installed and allowed to make its namespaces), saying what to do. A
# sandbox that started is not started again to ask (five processes at
# every run) while what decides it is the same (sandbox_key).
sandbox_check()
{
	local out key
	local -a sb=()

	[[ "$SANDBOX" == 0 ]] && return 0
	command -v bwrap > /dev/null ||
		die "bwrap not found: run 'make deps' (Debian package bubblewrap), or set SANDBOX=0 to build without the sandbox"
	sandbox_argv sb
	sandbox_key key "${sb[@]}" && memo_get out sandbox "$key" && return 0
	out=$("${sb[@]}" true 2>&1) ||
		die "the sandbox does not start here (bwrap: ${out//$'\n'/ }): set SANDBOX=0 to run without it, on a series you trust"
	[[ -n "$key" ]] && memo_put sandbox "$key" started
	return 0
}

# Where sandbox_key reads the kernel's settings (the tests point it at
# fake ones).
: "${SANDBOX_SYS:=/proc/sys}"

# sandbox_key(): variable $1 = the key under which sandbox_check keeps
# that the sandbox of command words $2... started: those words; our
# user; bwrap's file (path and identity: an upgrade, or a setuid bit
# set or taken, changes it) and sandbox-run's text; the running kernel
# (its release and this boot of it: a new kernel is a reboot); the
# settings that allow or limit user namespaces; the user and mount
# namespaces we run in (another container). Fails, leaving it empty,
# when bwrap's file is unknown or changed just now (file_id).
sandbox_key()
{
	local -n __sk_ref=$1; shift
	local __sk_f __sk_v __sk_h
	local -a __sk_parts=("$*" "$EUID")
	local -A __sk_id

	__sk_ref=
	path_of bwrap && file_id __sk_id "$REPLY" && ((__sk_id[settled])) || return 1
	__sk_parts+=("${__sk_id[real]}" "${__sk_id[key]}")
	hash_files_to __sk_h "$TOP/tools/sandbox-run"
	__sk_parts+=("$__sk_h")
	for __sk_f in kernel/osrelease kernel/random/boot_id kernel/unprivileged_userns_clone \
		user/max_user_namespaces kernel/apparmor_restrict_unprivileged_userns; do
		__sk_v=-
		[[ -r "$SANDBOX_SYS/$__sk_f" ]] && IFS= read -r __sk_v < "$SANDBOX_SYS/$__sk_f"
		__sk_parts+=("$__sk_f=$__sk_v")
	done
	for __sk_f in user mnt; do
		file_id __sk_id "/proc/self/ns/$__sk_f" || return 1
		__sk_parts+=("$__sk_f=${__sk_id[ino]}")
	done
	hash_to __sk_ref "${__sk_parts[@]}"
}

# sandbox_stopped(): print the "sandbox: " lines of log $1, the rules
# that stopped something a command run in the sandbox tried, each once;
# fails when there are none.
sandbox_stopped()
{
	grep -E '^sandbox: ' "$1" 2> /dev/null | awk '!seen[$0]++' | grep .
}

# sandbox_summary(): variable $1 = the rules of "sandbox: RULE: ..."
# lines $2, each with how often it stopped something, for a summary:
# "read-only host (1), no network (2)".
sandbox_summary()
{
	local -n __ss=$1; shift
	local line rule
	local -a order=()
	local -A n=()

	while IFS= read -r line; do
		rule=${line#sandbox: }
		rule=${rule%%:*}
		[[ -n "${n[$rule]:-}" ]] || order+=("$rule")
		n[$rule]=$((${n[$rule]:-0} + 1))
	done <<< "$1"
	__ss=
	for rule in "${order[@]}"; do
		__ss+="${__ss:+, }$rule (${n[$rule]})"
	done
}

# sandbox_git(): append to the array named $1 the options that let a
# sandbox read git repository $2: its dir and the object stores its
# alternates name (a base in a developer's repository, tools/intake.sh),
# which may sit where the sandbox hides (HOME, /tmp).
sandbox_git()
{
	local -n __sg=$1; shift
	local gd=$1; shift
	local d

	__sg+=(--ro "$gd")
	[[ -r "$gd/objects/info/alternates" ]] || return 0
	while IFS= read -r d; do
		[[ -d "$d" ]] && __sg+=(--ro "$d")
	done < "$gd/objects/info/alternates"
	return 0
}
