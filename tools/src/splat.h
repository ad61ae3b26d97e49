/* SPDX-License-Identifier: GPL-2.0 */
/*
 * splat.h - which kernel log messages open a splat (a WARN, BUG, oops or
 * panic), by the formats the kernel prints them in. The one place both
 * the host's triage (console) and the guest's runner (/dev/kmsg) ask.
 *
 * The message is one log line without its "[    1.234567] " time stamp
 * or caller id. A splat's first line starts with its kind: a word that
 * merely contains "BUG" or "WARNING" (a symbol BUGS_x, "DEBUG:", the
 * "RETBleed: WARNING: ..." of the CPU bug mitigations) is no splat.
 */
#ifndef BISECT_SPLAT_H
#define BISECT_SPLAT_H

#include <string.h>

enum splat {
	SPLAT_NONE,
	SPLAT_WARN,	/* WARN(), UBSAN, lockdep: the kernel goes on */
	SPLAT_OOPS,	/* BUG(), oops, fault: the task or the kernel dies */
	SPLAT_PANIC,	/* panic() */
};

static inline int splat_starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * The die() header of x86 and others: "<what>: <4 hex> [#<n>]", as in
 * "Oops: 0002 [#1] PREEMPT", "invalid opcode: 0000 [#1]",
 * "general protection fault, ...: 0000 [#1]".
 */
static inline int splat_die_header(const char *s)
{
	const char *p = strstr(s, ": ");
	int i;

	for (; p; p = strstr(p + 1, ": ")) {
		const char *h = p + 2;

		for (i = 0; i < 4; i++)
			if (!strchr("0123456789abcdef", h[i]) || !h[i])
				break;
		if (i == 4 && !strncmp(h + 4, " [#", 3) &&
		    h[7] >= '0' && h[7] <= '9')
			return 1;
	}
	return 0;
}

static inline enum splat splat_kind(const char *msg)
{
	if (splat_starts(msg, "Kernel panic - not syncing"))
		return SPLAT_PANIC;
	if (splat_starts(msg, "WARNING: ") || splat_starts(msg, "UBSAN: "))
		return SPLAT_WARN;
	if (splat_starts(msg, "BUG: ") || splat_starts(msg, "kernel BUG at ") ||
	    splat_starts(msg, "Oops") || splat_starts(msg, "Internal error: ") ||
	    splat_starts(msg, "general protection fault") ||
	    splat_starts(msg, "Unable to handle kernel ") ||
	    splat_die_header(msg))
		return SPLAT_OOPS;
	return SPLAT_NONE;
}

/*
 * A hang report: a detector found a task, a CPU or RCU that made no
 * progress. No splat by splat_kind() (the runner and the boot verdict
 * judge a hang by its timeout, and triage a report's trace by the trace),
 * but its report names a function as a splat's does (triage's titles):
 *
 *	INFO: task runner:83 blocked for more than 120 seconds.
 *	task:swapper/0       state:D stack:0     pid:1     ppid:0 ...
 *	watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [runner:83]
 *	rcu: INFO: rcu_preempt self-detected stall on CPU
 *
 * The second is a blocked task as SysRq "w" (show blocked state) lists
 * it, and as the hung task detector's report goes on after its first.
 */
enum hang {
	HANG_NONE,
	HANG_TASK,	/* the hung task detector */
	HANG_BLOCKED,	/* a task in state D, as the kernel shows one */
	HANG_LOCKUP,	/* the soft lockup detector */
	HANG_STALL,	/* an RCU stall */
};

static inline enum hang splat_hang(const char *msg)
{
	if (splat_starts(msg, "INFO: task ") &&
	    strstr(msg, " blocked for more than "))
		return HANG_TASK;
	if (splat_starts(msg, "task:") && strstr(msg, " state:D "))
		return HANG_BLOCKED;
	if (splat_starts(msg, "watchdog: "))
		msg += strlen("watchdog: ");
	if (splat_starts(msg, "BUG: soft lockup"))
		return HANG_LOCKUP;
	if (splat_starts(msg, "rcu: "))
		msg += strlen("rcu: ");
	if (splat_starts(msg, "INFO: rcu_") && strstr(msg, "detected stall"))
		return HANG_STALL;
	return HANG_NONE;
}

#endif /* BISECT_SPLAT_H */
