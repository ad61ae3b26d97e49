#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-boot-skip.sh - tests of what a target's skips become in the boot and
# tests stages (tools/stages/boot.sh), in seconds, nothing booted:
# boot_cells and stage_boot_start, with the initramfs and QEMU replaced
# by stubs, give the runner series.yaml's skips on the kernel command line
# (bisect_skip= for whole claims, bisect_skip_cases= for KUnit cases of
# one), and the tests program (tools/stages/tests, run as the cell runner
# runs it) makes a tests cell of a triage that held "acked", quoting the
# cases and their reason.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

export WORKDIR=$T_TMP/workdir
mkdir -p "$WORKDIR"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/cell.sh
source "$T_TOP/tools/cell.sh"
# shellcheck source=tools/series.sh
source "$T_TOP/tools/series.sh"
# shellcheck source=tools/stages/boot.sh
source "$T_TOP/tools/stages/boot.sh"

# The driver's context, and stubs for what boots: the command line
# words qemu_start is given are kept in QEMU_EXTRA.
RUN_ID='t-boot-skip'
RUNDIR=$WORKDIR/runs/$RUN_ID
mkdir -p "$RUNDIR/logs" "$RUNDIR/details" "$RUNDIR/results"
declare -A RUNNER_SUM=() GUEST_BIN_SUM=()
make_initramfs() { : > "$3"; }
qemu_start() { QEMU_EXTRA=$8; }
qemu_version() { printf -v "$1" stub; }
cache_has() { return 1; }
boot_pending_finish() { :; }
boot_accel() { BOOT_ACCEL=stub; }
ART=$T_TMP/art
mkdir -p "$ART"
: > "$ART/identity.tsv"

# boot(): boot_cells of step $1, target $2: QEMU_EXTRA and DIR, the
# boot's dir.
boot()
{
	QEMU_EXTRA=
	DIR=$RUNDIR/boot/$(cell_id "$1" "$2")
	# The driver makes the run's boot dirs (make_rundir).
	mkdir -p "$DIR"
	# The step's facts, as the driver gives them (step_facts).
	local -A __step_facts=([art]=$ART)
	boot_cells "$1" "$2" __step_facts
}

# tests(): the tests program on DIR with the triage records $@ (one a
# line), into REC and DETAIL.
tests()
{
	REC=$RUNDIR/results/tests.tsv
	DETAIL=$RUNDIR/details/tests.txt
	printf '%s\n' "$@" > "$DIR/triage.tsv"
	: > "$RUNDIR/results/boot.tsv"
	printf '%s\t%s\n' boot-results "$DIR" boot-record "$RUNDIR/results/boot.tsv" \
		> "$RUNDIR/tests.inputs"
	env -i PATH="$PATH" "$T_TOP/tools/stages/tests" "$RUNDIR/tests.inputs" "$REC" \
		"$RUNDIR/logs/tests.log" "$DETAIL"
}

TAB=$'\t'
WORDS=hw_breakpoint.test_one_task_on_all_cpus,hw_breakpoint.test_two_tasks_on_all_cpus,hw_breakpoint.test_one_task_on_one_cpu,hw_breakpoint.test_one_task_mixed,hw_breakpoint.test_two_tasks_on_one_cpu,hw_breakpoint.test_two_tasks_on_one_all_cpus,hw_breakpoint.test_task_on_all_and_one_cpu
CASES="test_one_task_on_all_cpus, test_two_tasks_on_all_cpus, test_one_task_on_one_cpu, test_one_task_mixed, test_two_tasks_on_one_cpu, test_two_tasks_on_one_all_cpus, test_task_on_all_and_one_cpu"

t_plan 15

load_series "$T_TOP/series.yaml"

boot 3 arm64-gcc
t_eq "arm64-gcc 3/3: hwbp-write skipped whole, hwbp-kunit's 7 cases not counted" \
	"bisect_skip=hwbp-write bisect_skip_cases=$WORDS kunit.enable=1" "$QEMU_EXTRA"
t_eq "the triage still expects hwbp-kunit's claim (yes), not a skip" \
	"hwbp-kunit${TAB}yes|hwbp-write${TAB}skip" \
	"$(grep -E '^hwbp-(kunit|write)\b' "$DIR/expect.tsv" | sort | tr '\n' '|' | sed 's/|$//')"
t_eq "skip-cases.tsv: the test, its cases, the reason" \
	"hwbp-kunit${TAB}${CASES// /}${TAB}$(series_skip_cases v arm64-gcc 3 hwbp-kunit; echo "${v##*"$TAB"}")" \
	"$(< "$DIR/skip-cases.tsv")"

tests "tests${TAB}ok${TAB}9 of 9 as expected" \
	"test${TAB}hwbp-kunit${TAB}yes${TAB}yes${TAB}ok${TAB}" \
	"test${TAB}hwbp-write${TAB}skip${TAB}skip${TAB}ok${TAB}SKIP not run on this target (bisect_skip)"
t_eq "held without the declared cases: acked" acked "$(rec_get "$REC" status)"
t_grep "the detail quotes the cases and the reason" \
	"^SKIP on this target: hwbp-kunit cases $CASES: these 7 of the tree's hw_breakpoint KUnit suite's 9 cases fail on arm64 .*arch/arm64/kernel/hw_breakpoint\\.c:575\\); the other 2, test_one_cpu and test_many_cpus, bind breakpoints to CPUs and run; on x86_64 all 9 cases run on two CPUs and pass\$" \
	"$DETAIL"
t_grep "... beside the whole claim skipped" "^SKIP on this target: hwbp-write: arm64 steps over" "$DETAIL"

tests "tests${TAB}FAIL${TAB}1 of 9 differ" \
	"test${TAB}hwbp-kunit${TAB}yes${TAB}no${TAB}wrong${TAB}kunit hw_breakpoint: 1 of 9 cases failed, 6 skipped (declared for this target)" \
	"test${TAB}hwbp-write${TAB}skip${TAB}skip${TAB}ok${TAB}SKIP not run on this target (bisect_skip)"
t_eq "failed all the same: FAIL, the mismatch said, no case skip quoted" \
	"FAIL|hwbp-kunit: expected yes, actual no: kunit hw_breakpoint: 1 of 9 cases failed, 6 skipped (declared for this target)|" \
	"$(rec_get "$REC" status)|$(grep '^hwbp-kunit:' "$DETAIL")|$(grep 'hwbp-kunit cases' "$DETAIL")"

# Only cases skipped (as if arm64 ran hwbp-write at 2/3): acked by them.
series_skip_set arm64-gcc 2 hwbp-write ''

boot 2 arm64-gcc
t_eq "arm64-gcc 2/3, hwbp-write run: bisect_skip_cases= alone" \
	"bisect_skip_cases=$WORDS kunit.enable=1" "$QEMU_EXTRA"
tests "tests${TAB}ok${TAB}9 of 9 as expected" \
	"test${TAB}hwbp-kunit${TAB}yes${TAB}yes${TAB}ok${TAB}" \
	"test${TAB}hwbp-write${TAB}yes${TAB}yes${TAB}ok${TAB}"
t_eq "held without the declared cases alone: acked, one SKIP line" \
	"acked 1" "$(rec_get "$REC" status) $(grep -c '^SKIP on this target' "$DETAIL")"

boot 3 x86_64-gcc
t_eq "x86_64-gcc: nothing skipped, no skip word" "kunit.enable=1" "$QEMU_EXTRA"
t_eq "x86_64-gcc: no case skip kept" "" "$(< "$DIR/skip-cases.tsv")"
tests "tests${TAB}ok${TAB}9 of 9 as expected" \
	"test${TAB}hwbp-kunit${TAB}yes${TAB}yes${TAB}ok${TAB}"
t_eq "x86_64-gcc held: ok, not acked" "ok" "$(rec_get "$REC" status)"

# Booted twice (the boot's disagree.txt): the claims the two boots
# disagree on make the verdict flaky, never stored; the boot's own line
# is the boot cell's.
: > "$DIR/triage.1.tsv"
printf '%s\n' 'boot: timeout, then ok' > "$DIR/disagree.txt"
tests "tests${TAB}ok${TAB}9 of 9 as expected" "test${TAB}hwbp-kunit${TAB}yes${TAB}yes${TAB}ok${TAB}"
t_eq "booted twice, the claims agree: ok, stored" "ok|" \
	"$(rec_get "$REC" status)|$(rec_get "$REC" nocache)"
printf '%s\n' 'boot: timeout, then ok' 'hwbp-kunit: no, then yes' 'hwbp-write: yes, then no' \
	> "$DIR/disagree.txt"
tests "tests${TAB}ok${TAB}9 of 9 as expected" "test${TAB}hwbp-kunit${TAB}yes${TAB}yes${TAB}ok${TAB}"
t_eq "booted twice, claims disagree: flaky, each said, not stored" \
	"flaky|hwbp-kunit: no, then yes; hwbp-write: yes, then no|1" \
	"$(rec_get "$REC" status)|$(rec_get "$REC" summary)|$(rec_get "$REC" nocache)"
rm -f "$DIR/triage.1.tsv" "$DIR/disagree.txt"
tests "tests${TAB}ok${TAB}9 of 9 as expected" "test${TAB}hwbp-kunit${TAB}yes${TAB}yes${TAB}ok${TAB}"
printf 'nocache\t1\n' > "$RUNDIR/results/boot.tsv"
env -i PATH="$PATH" "$T_TOP/tools/stages/tests" "$RUNDIR/tests.inputs" "$REC" \
	"$RUNDIR/logs/tests.log" "$DETAIL"
t_eq "a boot not stored: its tests cell is not either" "ok|1" \
	"$(rec_get "$REC" status)|$(rec_get "$REC" nocache)"

t_done
