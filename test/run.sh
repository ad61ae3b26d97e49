#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the test driver of `make check`: host-side tests on fixtures,
# lint, then the end-to-end tests that run the real pipeline. Each test
# file prints KTAP; this prints one line per file and the totals.
#
# Usage: test/run.sh [host|lint|e2e|all] [FILTER]

# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tools/lib.sh"
prog_set check

WHAT=${1:-all}
FILTER=${2:-}
LOGDIR=${CHECK_LOGDIR:-$WORKDIR/check-logs}
# Host files at a time: they wait for much of their time (sleeps,
# deadlines, a process to end), so twice as many as cores keep them busy.
HOST_LANES=${HOST_LANES:-$((JOBS * 2))}
# The nice value of a file that runs beside others ("# check: beside" or
# "after", placement_of).
BESIDE_NICE=10
PASS=0
FAIL=0
SKIP=0
FILES_FAILED=()

# times_load(): the seconds each test file took the last time it ran
# (LOGDIR/times.tsv: name, seconds), into TIMES.
declare -A TIMES=()
times_load()
{
	local name secs

	[[ -r "$LOGDIR/times.tsv" ]] || return 0
	while IFS=$'\t' read -r name secs; do
		[[ "$secs" =~ ^[0-9]+$ ]] && TIMES[$name]=$secs
	done < "$LOGDIR/times.tsv"
}

# times_save(): file $1 took $2 seconds: kept for the next run's estimate.
times_save()
{
	local name=$1; shift
	local secs=$1; shift
	local tmp=$LOGDIR/times.tsv.$$

	TIMES[$name]=$secs
	for name in "${!TIMES[@]}"; do
		printf '%s\t%s\n' "$name" "${TIMES[$name]}"
	done | sort > "$tmp" && mv "$tmp" "$LOGDIR/times.tsv"
}

# estimate(): say what test files $@ will take, from their last times.
estimate()
{
	local f name secs=0 known=0 unknown=0

	for f in "$@"; do
		name=$(basename "$f" .sh)
		if [[ -n "${TIMES[$name]:-}" ]]; then
			# Host files run side by side, as many as cores
			# keep busy.
			if is_host "$f"; then
				secs=$((secs + TIMES[$name] / JOBS))
			else
				secs=$((secs + TIMES[$name]))
			fi
			known=$((known + 1))
		else
			unknown=$((unknown + 1))
		fi
	done
	if ((known == 0)); then
		msg "${#@} test files; no earlier run's times to go by (kept in $LOGDIR/times.tsv)"
		return 0
	fi
	msg "$(printf '%d test files: about %d min %02d s by the last run'"'"'s times%s' \
		"$#" $((secs / 60)) $((secs % 60)) \
		"$( ((unknown)) && echo ", and $unknown never timed")")"
}

# file_watch(): the progress line of test file $2 writing log $3, $1
# seconds in (watch_loop): its results so far, against its last time $4.
# shellcheck disable=SC2317  # called by watch_loop
file_watch()
{
	local el=$1; shift
	local name=$1; shift
	local log=$1; shift
	local last=${1:-}
	local n left='' now

	n=$(grep -c '^\(not \)\?ok [0-9]' "$log" 2> /dev/null)
	if [[ "$last" =~ ^[0-9]+$ ]]; then
		((last > el)) && left=", about $(fmt_s $((last - el))) left by the last run"
		[[ -n "$left" ]] || left=", longer than the last run's $(fmt_s "$last")"
	fi
	# What a bisect-check run of the test does now, when one wrote its
	# timeline (WORKDIR/runs/latest) since the file started.
	now=$WORKDIR/runs/latest/progress.log
	if [[ -f "$now" && "$now" -nt "$log.start" ]]; then
		now=$(tail -n 1 "$now")
		now="; its run: ${now#*] }"
	else
		now=
	fi
	echo "$name: ${n:-0} results, $(fmt_s "$el")$left$now"
}

# is_host(): whether test file $1 is a host-side test on fixtures: those
# run side by side, JOBS at a time (each has its own T_TMP, none a
# WORKDIR), with the sanitizer builds.
is_host()
{
	[[ "$1" == "$TOP"/test/host/t-* ]]
}

# run_file(): run one test file, keep its log; its exit code and time in
# LOGDIR/NAME.result (for report_file). A long file says how far it is,
# unless $2 is 0 (files run side by side).
run_file()
{
	local f=$1; shift
	local watch=${1:-1}
	local name log rc t
	name=$(basename "$f" .sh)
	log=$LOGDIR/$name.log
	t=$(now_ms)
	rm -f "$LOGDIR/$name.result"
	: > "$log"
	# When it started (file_watch): a file's mtime.
	: > "$log.start"
	((watch)) && watch_start FILE_WATCH_PID file_watch "$name" "$log" "${TIMES[$name]:-}"
	if is_host "$f"; then
		T_BIN=$TOP/tools/bin/san bash "$f" > "$log" 2>&1
	else
		bash "$f" > "$log" 2>&1
	fi
	rc=$?
	job_stop FILE_WATCH_PID
	rm -f "$log.start"
	echo "$rc $(($(now_ms) - t))" > "$LOGDIR/$name.result.tmp" &&
		mv "$LOGDIR/$name.result.tmp" "$LOGDIR/$name.result"
}

# report_file(): once test file $1 has run, count its results and say them.
report_file()
{
	local f=$1; shift
	local name log rc ms p n s
	name=$(basename "$f" .sh)
	log=$LOGDIR/$name.log
	read -r rc ms < "$LOGDIR/$name.result" 2> /dev/null || { rc=1 ms=0; }
	times_save "$name" $(((ms + 500) / 1000))
	p=$(grep -c '^ok [0-9]' "$log")
	n=$(grep -c '^not ok [0-9]' "$log")
	s=$(grep -c '^ok [0-9].*# SKIP' "$log")
	p=$((p - s))
	if ((rc != 0 && n == 0)); then
		# A file that died without a failing result still failed.
		n=1
	fi
	PASS=$((PASS + p))
	FAIL=$((FAIL + n))
	SKIP=$((SKIP + s))
	msg "$(printf '%-28s %s pass:%d fail:%d skip:%d (%s) %s' "$name" \
		"$([[ $rc == 0 ]] && echo ok || echo FAIL)" "$p" "$n" "$s" \
		"$(fmt_ms "$ms")" "$log")"
	if ((rc != 0)); then
		FILES_FAILED+=("$name")
		grep -B4 '^not ok' "$log" | sed 's/^/    /' | tail -n 30 >&2
	fi
}

# placement_of(): where file $1 runs when its header says so, as "HOW
# NAME": "# check: beside NAME" runs it while test file NAME runs, and
# says it once NAME is done; "# check: after NAME" starts it once NAME is
# done, beside the files after NAME, and says it when it ends. Either is
# for a file that needs the cores other files leave idle for a while
# (guests that wait for a deadline, one-threaded steps) and shares
# nothing with them (not the WORKDIR lock, not a QEMU of its own that
# another counts). It runs niced (BESIDE_NICE): the others' work goes
# first.
placement_of()
{
	sed -n '1,60s/^# check: \(beside\|after\) \([a-z0-9-]*\)$/\1 \2/p' "$1" | head -n 1
}

# niced_start(): start run_file of test file $2 in the background, niced
# (BESIDE_NICE), without its progress line; its pid in variable $1,
# killed when this ends.
niced_start()
{
	local -n __ns_pid=$1; shift
	local f=$1; shift

	(renice -n "$BESIDE_NICE" -p "$BASHPID" > /dev/null; run_file "$f" 0) &
	__ns_pid=$!
	defer eval "kill $__ns_pid 2> /dev/null"
}

# run_side_by_side(): run test files $@ HOST_LANES at a time (lanes_start);
# say each in order as soon as it is done.
run_side_by_side()
{
	local -a files=("$@") lanes=()
	local i dir

	dir=$LOGDIR/lanes
	rm -rf "$dir"
	mkdir -p "$dir" || die "cannot create $dir"
	lanes_start lanes "$dir" "$HOST_LANES" run_file_quiet "${files[@]}"
	defer eval "kill ${lanes[*]} 2> /dev/null"
	for ((i = 0; i < ${#files[@]}; i++)); do
		# Its lane gone without its result: it failed (report_file).
		lanes_wait_item "$dir" lanes "$i"
		report_file "${files[i]}"
	done
	wait "${lanes[@]}"
	rm -rf "$dir"
}

# run_file_quiet(): run_file of test file $1 without a progress line.
# shellcheck disable=SC2317  # called through lanes_start
run_file_quiet()
{
	run_file "$1" 0
}

main()
{
	local f g b how name pid files=() todo=() host seq pids later=() later_pids=()
	local -A beside=() after=()
	local i

	mkdir -p "$LOGDIR" || die "cannot create $LOGDIR"
	defer_init
	if [[ $WHAT == host || $WHAT == all ]]; then
		make -s -C "$TOP" tools-san || die "cannot build the sanitizer builds (make tools-san)"
	fi
	case $WHAT in
	host) files=("$TOP"/test/host/t-*.sh) ;;
	lint) files=("$TOP"/test/host/lint.sh) ;;
	e2e) files=("$TOP"/test/e2e/t-*.sh) ;;
	all) files=("$TOP"/test/host/t-*.sh "$TOP"/test/host/lint.sh "$TOP"/test/e2e/t-*.sh) ;;
	*) die "usage: $0 [host|lint|e2e|all] [FILTER]" ;;
	esac
	for f in "${files[@]}"; do
		[[ -f "$f" ]] || continue
		[[ -n "$FILTER" && "$f" != *"$FILTER"* ]] && continue
		todo+=("$f")
	done
	host=() seq=()
	for f in "${todo[@]}"; do
		if is_host "$f"; then
			host+=("$f")
			continue
		fi
		read -r how b < <(placement_of "$f")
		if [[ -n "${b:-}" && " ${todo[*]} " == *"/$b.sh "* ]]; then
			if [[ "$how" == beside ]]; then
				beside[$b]+=" $f"
			else
				after[$b]+=" $f"
			fi
		else
			seq+=("$f")
		fi
	done
	times_load
	estimate "${host[@]}" "${seq[@]}"
	((${#host[@]})) && run_side_by_side "${host[@]}"
	for f in "${seq[@]}"; do
		name=$(basename "$f" .sh)
		pids=()
		for g in ${beside[$name]:-}; do
			niced_start pid "$g"
			pids+=("$pid")
		done
		run_file "$f"
		report_file "$f"
		for g in ${beside[$name]:-}; do
			wait "${pids[0]}"
			pids=("${pids[@]:1}")
			report_file "$g"
		done
		for g in ${after[$name]:-}; do
			niced_start pid "$g"
			later+=("$g")
			later_pids+=("$pid")
		done
		# Those started after an earlier file that are done by now.
		for ((i = 0; i < ${#later[@]}; i++)); do
			[[ -n "${later[i]}" ]] || continue
			kill -0 "${later_pids[i]}" 2> /dev/null && continue
			wait "${later_pids[i]}"
			report_file "${later[i]}"
			later[i]=
		done
	done
	for ((i = 0; i < ${#later[@]}; i++)); do
		[[ -n "${later[i]}" ]] || continue
		wait "${later_pids[i]}"
		report_file "${later[i]}"
	done
	echo "# logs: $LOGDIR"
	((${#FILES_FAILED[@]})) && echo "# failed: ${FILES_FAILED[*]}"
	echo "$PASS passed, $FAIL failed, $SKIP skipped"
	((FAIL == 0))
}

main "$@"; exit $?
