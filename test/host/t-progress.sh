#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-progress.sh - the progress of long work (tools/lib.sh watch_loop,
# fmt_done; the lines of a build, build_watch, and of an import,
# import_watch): how far, of how much, by what, the time so far and what
# is left; in place on a terminal (a pty of script(1)), a line now and
# then in a log, nothing with QUIET=1, and the line cleared once the
# work ends. And the program's clock its progress lines are stamped with
# (elapsed_ms, cell.sh progress).

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
. "$T_TOP/tools/lib.sh"
# shellcheck source=tools/cell.sh
. "$T_TOP/tools/cell.sh"
# shellcheck source=tools/stages/build.sh
. "$T_TOP/tools/stages/build.sh"
# shellcheck source=tools/import.sh
. "$T_TOP/tools/import.sh"

t_plan 22

t_eq "a quarter done in 10 s: 30 s left" \
	"50 of 200 steps (25%), 10s, about 30s left" "$(fmt_done 50 200 steps 10)"
t_eq "minutes" "1 of 4 files (25%), 1m05s, about 3m15s left" "$(fmt_done 1 4 files 65)"
t_eq "nothing to go by: the count and the time" "7 steps, 9s" "$(fmt_done 7 '' steps 9)"
t_eq "more than the last time: 100%, nothing left" \
	"12 of 10 steps (100%), 3s, about 0s left" "$(fmt_done 12 10 steps 3)"
t_eq "none done yet: no rate to go by" "0 steps, 3s" "$(fmt_done 0 10 steps 3)"

# The clock: elapsed_ms sets the variable its caller names, t too (a
# local of its own named t once took the value, and every progress line
# said 0.0s); progress stamps its lines with it.
clock()
{
	TOP=$T_TOP RUNDIR=${2:-} bash -c '
		. "$TOP/tools/lib.sh"
		. "$TOP/tools/cell.sh"
		sleep 0.3
		f() { local t; elapsed_ms t; echo "$t"; }
		case $1 in
		elapsed) t=$(f); ((t >= 300 && t < 10000)) && echo yes || echo "no: $t" ;;
		progress) progress hello 2>&1 ;;
		esac' clock "$1"
}
t_eq "elapsed_ms: the time since lib.sh was sourced, into the caller's t" yes "$(clock elapsed)"
t_grep "progress: its line stamped with that time" '^clock: \[ *0\.[3-9]s\] hello$' <(QUIET=0 clock progress)
mkdir -p "$T_TMP/qrun"
t_eq "progress with QUIET=1: nothing on stderr" "" "$(QUIET=1 clock progress "$T_TMP/qrun")"
t_grep "... but the line in the run's progress.log" '^clock: \[ *0\.[3-9]s\] hello$' "$T_TMP/qrun/progress.log"

# A build: kbuild's lines counted against the dir's last build, or for
# a fresh dir the target's last fresh build.
WORKDIR=$T_TMP/wd
out=$T_TMP/out
tgt=x86_64-gcc
series_label_set 0 base
series_label_set 1 1/3
mkdir -p "$out" "$WORKDIR/progress"
log=$T_TMP/logs/1-x86_64-gcc-build.log
mkdir -p "${log%/*}"
{
	for ((i = 0; i < 25; i++)); do
		echo "  CC      kernel/f$i.o"
	done
	echo "kernel/f3.c:1:2: warning: not a step"
	echo "  LD [M]  samples/x.ko"
} > "$log"
: > "$out/.config"
: > "$out/.bisect-trees"
echo 104 > "$out/.bisect-steps"
t_eq "a build dir's build: against its last build" \
	"x86_64-gcc build of 1/3: 26 of 104 steps (25%), 20s, about 1m00s left (by the last build)" \
	"$(build_watch 20 "$log" "$out" "$tgt")"
rm "$out/.bisect-steps"
echo 52 > "$WORKDIR/progress/$tgt.fresh"
t_eq "a fresh dir: against the target's last fresh build" \
	"x86_64-gcc build of 1/3: 26 of 52 steps (50%), 20s, about 20s left (by the last build)" \
	"$(build_watch 20 "$log" "$out" "$tgt")"
rm "$WORKDIR/progress/$tgt.fresh"
echo 78 > "$WORKDIR/progress/arm64-gcc.fresh"
t_eq "a target's first fresh dir: by another target's fresh build, said so" \
	"x86_64-gcc build of 1/3: 26 of 78 steps (33%), 20s, about 40s left (by an estimate: arm64-gcc's fresh build)" \
	"$(build_watch 20 "$log" "$out" "$tgt")"
rm "$WORKDIR/progress/arm64-gcc.fresh"
t_eq "nothing to go by: said so" \
	"x86_64-gcc build of 1/3: 26 steps, 20s (no earlier build to go by)" \
	"$(build_watch 20 "$log" "$out" "$tgt")"
build_steps_keep "$log" 1 "$out" "$tgt"
t_eq "a fresh dir's count is kept for the dir and the target" "26 26" \
	"$(cat "$out/.bisect-steps" "$WORKDIR/progress/$tgt.fresh" | tr '\n' ' ' | sed 's/ $//')"

# An import: a line a file, against a count or the last import's file,
# with the base build beside it.
seq 30 > "$T_TMP/added"
echo 120 > "$T_TMP/last"
t_eq "hashing against the files counted, the base build beside it" \
	"import: hashing into git: 30 of 120 files (25%), 4s, about 12s left; the base build meanwhile: 26 steps" \
	"$(import_watch 4 "hashing into git:" files "$T_TMP/added" 120 "$log")"
t_eq "unpacking against the last import's count (a file)" \
	"import: unpacking p: 30 of 120 entries (25%), 4s, about 12s left" \
	"$(import_watch 4 "unpacking p:" entries "$T_TMP/added" "$T_TMP/last")"
t_eq "a first import: nothing to go by, said so" \
	"import: unpacking p: 30 entries, 4s (no earlier import to go by)" \
	"$(import_watch 4 "unpacking p:" entries "$T_TMP/added" "$T_TMP/none")"

# watch_loop itself, on a function that says its arguments, in a script
# of its own (run under script(1) for a terminal): the work is a sleep of
# $1 seconds; with $2 = kill, the watcher is killed while it goes on.
cat > "$T_TMP/watch" << EOF
#!/bin/bash
. "$T_TOP/tools/lib.sh"
prog_set t
PROGRESS_TTY_EVERY=1 PROGRESS_LOG_EVERY=1
tick_line() { echo "work: \$2 at \${1}s"; }
if [[ "\${2:-}" == kill ]]; then
	watch_loop \$\$ tick_line here &
	w=\$!
	sleep "\$1"
	kill \$w
	wait \$w
	echo END >&2
	exit 0
fi
sleep "\$1" &
watch_loop \$! tick_line here
EOF
chmod +x "$T_TMP/watch"
out=$(QUIET=0 "$T_TMP/watch" 3.5 2>&1)
n=$(grep -c '^t: work: here at [0-9]s$' <<< "$out")
t_eq "in a log: a line each PROGRESS_LOG_EVERY seconds while the work goes on" \
	"3 or 4 lines" "$( ((n == 3 || n == 4)) && echo "3 or 4" || echo "$n") lines"
t_eq "in a log: no terminal control" "0" "$(grep -c $'\r' <<< "$out")"
t_eq "QUIET=1: not a line" "" "$(QUIET=1 "$T_TMP/watch" 2.5 2>&1)"
QUIET=0 script -qec "$T_TMP/watch 2.5" /dev/null > "$T_TMP/tty.out" 2>&1
t_grep "on a terminal: in place (carriage return, line erased)" \
	$'\r\033\\[Kt: work: here at 2s' "$T_TMP/tty.out"
QUIET=0 script -qec "$T_TMP/watch 2.5 kill" /dev/null > "$T_TMP/kill.out" 2>&1
t_grep "killed on a terminal: the line erased before what follows" \
	$'at 2s\r\033\\[K\r?END' "$T_TMP/kill.out"

t_done
