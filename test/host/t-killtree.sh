#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-killtree.sh - kill_tree (tools/lib.sh), which ends a run's jobs on an
# interrupt: nothing of the tree is left, not the first process of a PID
# namespace (a sandbox's init ignores SIGTERM), not a sandbox that was
# still being made when the tree was walked; proc_stopped says stopped
# only of a stopped (or gone) process.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
. "$T_TOP/tools/lib.sh"
# shellcheck source=tools/sandbox.sh
. "$T_TOP/tools/sandbox.sh"

t_plan 5

D=$T_TMP/killtree
mkdir -p "$D"
# What this test starts is marked: a sleep of its own length, bubblewrap
# with a setting of its own (its init's command line is the same).
MARK=killtree-$$
LONG=6$$

# left(): "pid args" of each process this test started that is left.
left()
{
	pgrep -af -- "$MARK|sleep $LONG"
}

# settle(): wait up to 2 s for the marked processes to go (a killed
# process is reaped asynchronously); print what is left.
settle()
{
	local i out
	for ((i = 0; i < 20; i++)); do
		out=$(left)
		[[ -z "$out" ]] && break
		sleep 0.1
	done
	echo "$out"
}

# reap(): end what is left of this test's processes (a failed result
# must not hang on them) and wait for job $1.
reap()
{
	local job=$1; shift
	local p
	for p in $(left | cut -d' ' -f1); do
		kill -KILL "$p" 2> /dev/null
	done
	wait "$job" 2> /dev/null
}

# A PID namespace's first process, under a parent (unshare) that waits
# for it with SIGTERM blocked: without SIGKILL for the first, both
# outlive the tree.
if unshare --pid --fork true 2> /dev/null; then
	(exec unshare --pid --fork sleep "$LONG") < /dev/null 2> /dev/null &
	job=$!
	for ((i = 0; i < 50; i++)); do
		[[ -n "$(pgrep -P "$job")" ]] && break
		sleep 0.1
	done
	proc_ns_init "$(pgrep -P "$job")"
	t_eq "the first process of a PID namespace is known as such" "0" "$?"
	proc_ns_init "$job"
	t_eq "... its parent, in ours, is not" "1" "$?"
	kill_tree TERM "$job"
	t_eq "kill_tree TERM: nothing of the tree left, its namespace's init neither" \
		"" "$(settle)"
	reap "$job"
else
	for i in 1 2 3; do
		t_skip "kill_tree on a PID namespace" "unshare --pid cannot run here"
	done
fi

# proc_stopped: a running process is not stopped (it waits its 2 s), a
# stopped one is, and so is one that is gone.
sleep "$LONG" &
job=$!
proc_stopped "$job"
rc1=$?
kill -STOP "$job"
proc_stopped "$job"
rc2=$?
kill -KILL "$job"
kill -CONT "$job"
wait "$job" 2> /dev/null
proc_stopped "$job"
t_eq "proc_stopped: running, stopped, gone" "1 0 0" "$rc1 $rc2 $?"

# Sandboxes killed as they start (a run interrupted while a program cell
# begins): bubblewrap's init, whose parent died before it asked to die
# with it, ran the command to its end with nobody waiting (seen in 1 of
# 10 such kills on these machines).
SANDBOX=1 SANDBOX_TIMEOUT=60 SANDBOX_FSIZE=100000000
if command -v bwrap > /dev/null && (sandbox_check) > /dev/null 2>&1; then
	sandbox_argv sb --env "MARK=$MARK"
	out=
	for ((i = 0; i < 30; i++)); do
		("${sb[@]}" sleep "$LONG") < /dev/null > /dev/null 2>&1 &
		job=$!
		((i % 3)) && sleep "0.00$((i % 3))"
		kill_tree TERM "$job"
		out+=$(settle)
		reap "$job"
		[[ -n "$out" ]] && break
	done
	t_eq "30 sandboxes killed as they start: none left" "" "$out"
else
	t_skip "sandboxes killed as they start" "no sandbox here (bwrap)"
fi
t_done
