#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - helpers shared by the bisect-check shell glue: messages, exit
# codes, a defer stack for cleanup, timing and logged command execution.
#
# Exit codes follow the report contract: 0 all passed, 1 a check failed,
# 2 usage or setup error.

# shellcheck disable=SC2034  # some names are used by the sourcing scripts

# Sourced once: a script and a library it sources may both ask for it.
[[ -n "${BISECT_LIB_SH:-}" ]] && return 0
BISECT_LIB_SH=1

readonly EXIT_OK=0
readonly EXIT_FAIL=1
readonly EXIT_SETUP=2

# Directory of this repository (tools/..).
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The program's name its messages start with: its file's, without .sh
# (prog_set names it otherwise; prog_name tells it). This file's own.
PROG=${0##*/}
PROG=${PROG%.sh}
# The program's clock: it starts as this file is sourced (elapsed_ms).
RUN_T0=${EPOCHREALTIME/[.,]/}
RUN_T0=$((RUN_T0 / 1000))

# ---------------------------------------------------------------------------
# Defaults: the tunables every tool shares, set here once (README,
# Settings). The Makefile asks this file too (lib.sh --default NAME).

: "${WORKDIR:=${XDG_CACHE_HOME:-$HOME/.cache}/bisect-check}"
: "${JOBS:=$(nproc)}"
: "${SERIES:=$TOP/series.yaml}"
# QUIET=1 (bisect-check -q): no progress on stderr (the cells' lines,
# long work's), only errors, warnings and the report.
: "${QUIET:=0}"
# How often long work says how far it is: seconds on a terminal (in
# place), and otherwise (a CI log, a line each time).
: "${PROGRESS_TTY_EVERY:=2}"
: "${PROGRESS_LOG_EVERY:=60}"
# distcc hosts ("host[:port][/slots] ..."); empty: compile here alone.
: "${BUILD_HOSTS:=}"
# 1: keep the throwaway worktree registered and say where.
: "${KEEP:=0}"
# 1: ignore the result cache (and refresh it).
: "${FORCE:=0}"
# Only these steps ("0 3"), only these targets of the series; empty: all.
: "${STEPS:=}"
: "${TARGETS:=}"
# kvm or tcg; empty: KVM when a probe guest finishes under it.
: "${ACCEL:=}"
# A guest's deadline, seconds; empty: the series' boot.timeout.
: "${BOOT_TIMEOUT:=}"
# Seconds to wait while another run uses WORKDIR; 0: refuse at once.
: "${LOCK_WAIT:=0}"
# Where the throwaway worktree goes; empty: /dev/shm when a tmpfs of 8
# GiB or more, else WORKDIR (wt_root).
: "${WT_ROOT:=}"
# What pruning keeps: the newest run dirs, and what was used in days.
: "${PRUNE_RUNS:=20}"
: "${PRUNE_DAYS:=14}"
# make send: 1 or reflect really sends (0: writes the messages only),
# into SEND_OUT (empty: the last run dir); SIGN 0, 1 or auto (when a
# signing key is set); AUTO_CC 0: no get_maintainer.pl through b4;
# LAST_RUN the run dir whose verdicts it checks (empty: the series'
# last run, WORKDIR/last-run/NAME-vVERSION).
: "${SEND:=0}"
: "${SEND_OUT:=}"
: "${LAST_RUN:=}"
: "${SIGN:=auto}"
: "${AUTO_CC:=1}"
# 0: the tree's Makefiles and scripts run without the sandbox; the
# sandbox's limits of one command, seconds and bytes a file.
: "${SANDBOX:=1}"
: "${SANDBOX_TIMEOUT:=7200}"
: "${SANDBOX_FSIZE:=$((16 << 30))}"

# b4_config_of(): the b4 config `make send` uses for series file $1 (and
# the cc check judges): the .b4-config beside the series file, else
# this repository's.
b4_config_of()
{
	local dir=${1%/*}
	[[ "$1" == */* ]] || dir=.
	if [[ -f "$dir/.b4-config" ]]; then
		realpath "$dir/.b4-config"
	else
		echo "$TOP/.b4-config"
	fi
}

# prog_set(): the program's messages start with $1.
prog_set()
{
	PROG=$1
}

# prog_name(): variable $1 = the name the program's messages start with.
prog_name()
{
	local -n __pn_ref=$1; shift

	__pn_ref=$PROG
}

# msg(): print an informational line to stderr.
msg()
{
	printf '%s: %s\n' "$PROG" "$*" >&2
}

# warn(): print a warning line to stderr.
warn()
{
	printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

# die_rc(): print an error ($2...) and exit with status $1.
die_rc()
{
	local rc=$1; shift

	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit "$rc"
}

# die(): print an error and exit with the setup status (a program may
# define its own, on die_rc: bisect-run's).
die()
{
	die_rc "$EXIT_SETUP" "$@"
}

# The run's lock (lock_take): its fd, this file's alone.
RUN_LOCK_FD=

# lock_take(): take the lock of file $1 (opened once), at once or, with
# $2 seconds, waiting up to them. 1: another holds it; 2: the file
# cannot be opened.
lock_take()
{
	local file=$1; shift
	local wait=$1; shift

	if [[ -z "$RUN_LOCK_FD" ]]; then
		exec {RUN_LOCK_FD}>> "$file" || { RUN_LOCK_FD=; return 2; }
	fi
	if ((wait > 0)); then
		flock -w "$wait" "$RUN_LOCK_FD" || return 1
	else
		flock -n "$RUN_LOCK_FD" || return 1
	fi
}

# lock_drop(): close the run's lock in a child of the run (a subshell,
# a coprocess) that must not hold it: it stays the run's alone.
lock_drop()
{
	[[ -n "$RUN_LOCK_FD" ]] && exec {RUN_LOCK_FD}>&-
	return 0
}

# verbose(): true when V=1 asked for the tools' own output.
verbose()
{
	[[ "${V:-0}" == 1 ]]
}

# ---------------------------------------------------------------------------
# Defer stack: cleanup is registered when a resource is made and runs in
# reverse order on exit, on error and on SIGINT/SIGTERM.

DEFER_CMDS=()

# defer(): push a command (as separate words) onto the cleanup stack.
defer()
{
	local cmd
	printf -v cmd '%q ' "$@"
	DEFER_CMDS+=("$cmd")
}

# defer_pop_all(): run and clear every deferred command, newest first.
defer_pop_all()
{
	local i
	for ((i = ${#DEFER_CMDS[@]} - 1; i >= 0; i--)); do
		eval "${DEFER_CMDS[i]}" || true
	done
	DEFER_CMDS=()
}

# proc_state(): variable $1 = the state of process $2 (R, S, D, T, Z,
# ...: /proc/PID/stat's field after the command's name, which may hold
# blanks and parentheses); fails when there is no such process.
proc_state()
{
	local -n __pst_ref=$1; shift
	local __pst_line

	read -r __pst_line 2> /dev/null < "/proc/$1/stat" || return 1
	__pst_line=${__pst_line##*) }
	__pst_ref=${__pst_line%% *}
}

# proc_stopped(): true once process $1 is stopped (or gone): a SIGSTOP
# is only queued when kill returns, and a process in the middle of
# fork() or clone() (bubblewrap making its namespaces takes
# milliseconds) stops only once its child exists. Waits 2 s at most.
proc_stopped()
{
	local pid=$1; shift
	local st i

	for ((i = 0; i < 200; i++)); do
		proc_state st "$pid" || return 0
		[[ "$st" == [TtZX] ]] && return 0
		sleep 0.01
	done
	return 1
}

# proc_ns_init(): true when process $1 is the first of a PID namespace
# of its own (bubblewrap's init in a sandbox): such a process ignores
# every signal it has no handler for, SIGKILL and SIGSTOP aside.
proc_ns_init()
{
	local pid=$1; shift
	local key ids

	while read -r key ids; do
		[[ "$key" == NSpid: ]] || continue
		[[ "$ids" == *[[:space:]]1 ]]
		return
	done 2> /dev/null < "/proc/$pid/status"
	return 1
}

# kill_tree(): send signal $1 to process $2 and all its descendants,
# each stopped first so that the tree cannot grow while it is walked,
# children first, then the process itself; quiet when gone. The first
# process of a PID namespace gets SIGKILL, which ends everything in
# there: it would ignore another signal, and a sandbox whose bubblewrap
# parent died before it asked to die with it would run on.
kill_tree()
{
	local sig=$1; shift
	local pid=$1; shift
	local child s=$sig

	kill -STOP "$pid" 2>/dev/null || return 0
	proc_stopped "$pid"
	for child in $(pgrep -P "$pid"); do
		kill_tree "$sig" "$child"
	done
	proc_ns_init "$pid" && s=KILL
	kill "-$s" "$pid" 2>/dev/null
	kill -CONT "$pid" 2>/dev/null
	return 0
}

# job_wait(): wait for the background job whose pid is in variable $1,
# if any, and forget it.
job_wait()
{
	local var=$1; shift
	[[ -n "${!var:-}" ]] || return 0
	wait "${!var}"
	printf -v "$var" '%s' ""
	return 0
}

# job_stop(): end the background job whose pid is in variable $1 and its
# descendants, if any (registered with defer when the job starts).
job_stop()
{
	local var=$1; shift
	[[ -n "${!var:-}" ]] || return 0
	kill_tree TERM "${!var}"
	wait "${!var}" 2>/dev/null
	printf -v "$var" '%s' ""
	return 0
}

# on_signal(): run cleanup and exit 130/143 like a shell would.
on_signal()
{
	local sig=$1; shift
	trap - EXIT INT TERM
	# The trap may run inside run_logged's redirection of a function
	# (kmake): back to the stderr the run started with.
	exec 2>&"$DEFER_STDERR"
	INTERRUPTED=$sig
	msg "interrupted by SIG$sig, cleaning up"
	# The command run_logged waits for, with all it started.
	[[ -n "${RUN_LOGGED_PID:-}" ]] && kill_tree TERM "$RUN_LOGGED_PID"
	defer_pop_all
	if [[ "$sig" == INT ]]; then
		exit 130
	fi
	exit 143
}

# defer_init(): install the traps that run the defer stack.
defer_init()
{
	exec {DEFER_STDERR}>&2
	trap 'rc=$?; trap - EXIT INT TERM; defer_pop_all; exit $rc' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
}

# ---------------------------------------------------------------------------
# Timing and logged execution.

# now_ms(): milliseconds since the epoch.
# text_of(): variable $1 = the text of file $2 as $(cat FILE) gives it,
# trailing newlines dropped, without a fork; empty, and a failure, when
# the file cannot be read.
text_of()
{
	local -n __text_ref=$1; shift
	__text_ref=
	[[ -r "$1" ]] || return 1
	IFS= read -r -d '' __text_ref < "$1"
	__text_ref=${__text_ref%"${__text_ref##*[!$'\n']}"}
	return 0
}

now_ms()
{
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

# elapsed_ms(): variable $1 = the milliseconds since the program started
# (lib.sh was sourced), without a fork.
elapsed_ms()
{
	local -n __em_ref=$1; shift
	local __em_now=${EPOCHREALTIME/[.,]/}
	__em_ref=$((__em_now / 1000 - RUN_T0))
}

# interrupted(): whether a signal ends the program (on_signal): its
# cleanup keeps what a normal end would remove.
interrupted()
{
	[[ -n "${INTERRUPTED:-}" ]]
}

# fmt_ms(): format a millisecond count as seconds with one decimal.
fmt_ms()
{
	local s
	fmt_ms_to s "$1"
	echo "$s"
}

# fmt_ms_to(): the same into variable $1, of $2 milliseconds, no fork.
fmt_ms_to()
{
	local n=$2
	[[ "$n" =~ ^[0-9]+$ ]] || n=0
	printf -v "$1" '%d.%ds' $((n / 1000)) $(((n % 1000) / 100))
}

# fmt_s(): seconds $1 as "1m05s" or "42s".
fmt_s()
{
	if (($1 >= 60)); then
		printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
	else
		printf '%ds' "$1"
	fi
}

# lanes_start(): run function $4 on each of the items $5..., $3 at a
# time: each of $3 lanes takes the next item no lane has taken (a
# mkdir DIR/i.taken decides), so a long item holds up one lane only.
# Item i's output goes to DIR/i and its exit code to DIR/i.rc (DIR is
# $2), written last: lanes_wait_item waits for it. The lanes' pids go to
# array $1.
lanes_start()
{
	local -n __ls_pids=$1; shift
	local dir=$1; shift
	local n=$1; shift
	local fn=$1; shift
	local -a items=("$@")
	local w i

	__ls_pids=()
	for ((w = 0; w < n; w++)); do
		(
			for ((i = 0; i < ${#items[@]}; i++)); do
				mkdir "$dir/$i.taken" 2> /dev/null || continue
				"$fn" "${items[i]}" > "$dir/$i" 2>&1
				echo $? > "$dir/$i.rc.tmp" && mv "$dir/$i.rc.tmp" "$dir/$i.rc"
			done
		) &
		__ls_pids+=($!)
	done
}

# lanes_wait_item(): wait until item $3 of lanes $2 (lanes_start's pids,
# by name) writing to DIR $1 is done; false when every lane ended
# without it (killed).
lanes_wait_item()
{
	local dir=$1; shift
	local -n __lw_pids=$1; shift
	local i=$1; shift

	until [[ -f "$dir/$i.rc" ]]; do
		kill -0 "${__lw_pids[@]}" 2> /dev/null ||
			[[ -f "$dir/$i.rc" ]] || return 1
		sleep 0.2
	done
}

# ---------------------------------------------------------------------------
# Progress of long work (a build, an import): one line, in place on a
# terminal, a line now and then otherwise; nothing with QUIET=1.

# fmt_done(): "N of TOTAL UNIT (P%), 1m05s, about 30s left" for N done of
# TOTAL in $4 seconds, at the rate so far; with no TOTAL (nothing to go
# by), "N UNIT, 1m05s".
fmt_done()
{
	local n=$1; shift
	local total=$1; shift
	local unit=$1; shift
	local el=$1; shift
	local left=0

	if [[ ! "$total" =~ ^[1-9][0-9]*$ ]] || ((n <= 0)); then
		printf '%d %s, %s' "$n" "$unit" "$(fmt_s "$el")"
		return 0
	fi
	((n < total)) && left=$((el * (total - n) / n))
	printf '%d of %d %s (%d%%), %s, about %s left' "$n" "$total" "$unit" \
		$((100 * (n < total ? n : total) / total)) "$(fmt_s "$el")" "$(fmt_s "$left")"
}

# watch_loop(): until killed, or until the shell $1 that started it is
# gone (an interrupted run), say what function $2 prints given the
# seconds so far and the further arguments: in place every
# PROGRESS_TTY_EVERY seconds on a terminal, else a line every
# PROGRESS_LOG_EVERY seconds. It looks every second, sleeps no longer,
# and holds no lock, so that nothing of a run outlives it.
watch_loop()
{
	local parent=$1; shift
	local fn=$1; shift
	local every=$PROGRESS_LOG_EVERY tty=0 cleared=1 tick=0 t0 line

	lock_drop
	[[ "$QUIET" == 1 ]] && return 0
	[[ -t 2 ]] && tty=1 every=$PROGRESS_TTY_EVERY
	t0=$(now_ms)
	# Killed: the terminal's line cleared.
	trap '((tty && !cleared)) && printf "\r\033[K" >&2; exit 0' TERM
	while kill -0 "$parent" 2> /dev/null; do
		# Waited for, not in the foreground: a sleep that job_stop
		# kills is no "Terminated" on the terminal.
		sleep 1 &
		wait "$!"
		tick=$((tick + 1))
		((tick % every == 0)) || continue
		line=$("$fn" $((($(now_ms) - t0) / 1000)) "$@")
		if ((tty)); then
			printf '\r\033[K%s: %s' "$PROG" "$line" >&2
			cleared=0
		else
			msg "$line"
		fi
	done
}

# watch_start(): watch_loop of function $2 (the further arguments are
# its own) in the background for this shell; its pid in global variable
# $1, stopped with job_stop, or on exit.
watch_start()
{
	local var=$1; shift

	watch_loop "$BASHPID" "$@" &
	printf -v "$var" '%s' "$!"
	defer job_stop "$var"
}

# run_logged(): run a command with its output appended to a log file that
# starts with the exact command; with V=1 the output is also shown.
#
# The command runs as a job this shell waits for: bash runs a trap only
# once the foreground command is done, so a SIGTERM sent to the run
# alone (by timeout(1), a service manager, a CI runner) would wait for
# a whole build and then leave its make processes behind. A wait ends at
# once on a trapped signal, and on_signal stops the job's tree.
run_logged()
{
	local log=$1; shift
	local rc

	{
		printf '$'
		printf ' %q' "$@"
		printf '\n'
	} >> "$log"
	# A job's stdin would be /dev/null: keep the caller's (b4 send reads
	# its confirmation from it).
	if verbose; then
		(
			"$@" 2>&1 | tee -a "$log" >&2
			exit "${PIPESTATUS[0]}"
		) <&0 &
	else
		"$@" <&0 >> "$log" 2>&1 &
	fi
	RUN_LOGGED_PID=$!
	wait "$RUN_LOGGED_PID"
	rc=$?
	RUN_LOGGED_PID=
	return "$rc"
}

# ---------------------------------------------------------------------------
# Patch files and the kernel repo.

# patch_subject(): variable $1 = the subject of patch file $2 (as git am
# would make it), else its file name.
patch_subject()
{
	local -n __psj_ref=$1; shift
	local patch=$1; shift

	__psj_ref=$(git mailinfo /dev/null /dev/null < "$patch" 2>/dev/null |
		sed -n 's/^Subject: //p')
	[[ -n "$__psj_ref" ]] || __psj_ref=${patch##*/}
}

# git_repo(): git on the kernel repo, KREPO (git_k, tools/worktree.sh:
# in the worktree).
git_repo()
{
	git --git-dir="$KREPO" "$@"
}

# As a command: print a default, for the Makefile.
if [[ "${BASH_SOURCE[0]}" == "$0" && "${1:-}" == --default ]]; then
	printf '%s\n' "${!2}"
fi
