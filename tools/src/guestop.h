/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guestop.h - the language of the guest runner's program (the format is
 * in guest/README), defined once for both of its sides: the host's
 * series, which checks guest.run of series.yaml and prints it as program
 * lines, and the runner (guest/runner.c), which reads them in the
 * guest. Both include this file, so they cannot disagree on a kind, a
 * key or a limit.
 *
 * Constants, enums and static const tables only: the runner is a static
 * binary of the guest's arch and takes nothing else from the host tools.
 */
#ifndef BISECT_GUESTOP_H
#define BISECT_GUESTOP_H

#include <stdbool.h>

/* Where the guest programs are: exec NAME runs GUEST_BIN NAME. */
#define GUEST_BIN		"/bisect/bin/"

/* The runner's limits: its tables are this big. */
#define GUEST_MAX_OPS		256
#define GUEST_MAX_TESTS		64
#define GUEST_EXEC_MAX_ARGS	32	/* words of an exec's args= */
#define GUEST_COUNT_MAX_DIGITS	9	/* of a log check's count= */

/* A test id: [a-z0-9-]+, and none of the runner's own words. */
#define GUEST_TEST_ID_SET	"abcdefghijklmnopqrstuvwxyz0123456789-"
#define GUEST_TEST_ID_LEN	63	/* characters the runner takes */

/*
 * KUnit cases a target does not count (a skip item's cases: of
 * series.yaml), told to the runner as bisect_skip_cases=SUITE.CASE,...
 * on the kernel command line: a case name is [a-z0-9_]+ and the value
 * at most GUEST_SKIP_CASES_LEN characters (the command line, 2048 bytes
 * on x86 and arm64, holds the rest too).
 */
#define GUEST_CASE_SET		"abcdefghijklmnopqrstuvwxyz0123456789_"
#define GUEST_SUITE_SET		"abcdefghijklmnopqrstuvwxyz0123456789_-"
#define GUEST_SKIP_CASES_LEN	1024

static const char * const guest_reserved_ids[] = {
	"runner", "identity", "dmesg", NULL
};

/* The keys of an "op" record: KEY=VALUE fields after its kind. */
enum guest_key {
	GKEY_FILE,
	GKEY_PARAMS,
	GKEY_MODULE,
	GKEY_PATH,
	GKEY_VALUE,
	GKEY_ARGS,
	GKEY_SUITE,
	GKEY_TESTS,
	GKEY_EXPECT,
	GKEY_MATCH,
	GKEY_COUNT,
	GKEY_LABEL,
	GKEY_NR,
	GKEY_NONE = GKEY_NR
};

static const char * const guest_key_names[GKEY_NR] = {
	[GKEY_FILE] = "file",
	[GKEY_PARAMS] = "params",
	[GKEY_MODULE] = "module",
	[GKEY_PATH] = "path",
	[GKEY_VALUE] = "value",
	[GKEY_ARGS] = "args",
	[GKEY_SUITE] = "suite",
	[GKEY_TESTS] = "tests",
	[GKEY_EXPECT] = "expect",
	[GKEY_MATCH] = "match",
	[GKEY_COUNT] = "count",
	[GKEY_LABEL] = "label",
};

#define GKEY_BIT(k)		(1u << (k))
/* Keys every operation may have. */
#define GKEY_COMMON		(GKEY_BIT(GKEY_TESTS) | GKEY_BIT(GKEY_EXPECT) | \
				 GKEY_BIT(GKEY_MATCH) | GKEY_BIT(GKEY_COUNT) | \
				 GKEY_BIT(GKEY_LABEL))
/* Keys whose value may be empty. */
#define GKEY_EMPTY_OK		(GKEY_BIT(GKEY_PARAMS) | GKEY_BIT(GKEY_VALUE) | \
				 GKEY_BIT(GKEY_ARGS))

/* The kinds of operation, the word after "op". */
enum guest_kind {
	GOP_LOAD,
	GOP_UNLOAD,
	GOP_WRITE,
	GOP_READ,
	GOP_KUNIT,
	GOP_EXEC,
	GOP_NR
};

/*
 * A kind takes the key of its value, maybe the key of a second value,
 * and the common keys. series.yaml names an operation by the kind's
 * name, as its key.
 */
static const struct guest_kind_def {
	const char *name;
	enum guest_key arg;	/* the key of its value, always given */
	enum guest_key extra;	/* the key of its second value, or GKEY_NONE */
	bool need_extra;	/* the second value must be given */
} guest_kinds[GOP_NR] = {
	[GOP_LOAD] = { "load", GKEY_FILE, GKEY_PARAMS, false },
	[GOP_UNLOAD] = { "unload", GKEY_MODULE, GKEY_NONE, false },
	[GOP_WRITE] = { "write", GKEY_PATH, GKEY_VALUE, true },
	[GOP_READ] = { "read", GKEY_PATH, GKEY_NONE, false },
	[GOP_KUNIT] = { "kunit", GKEY_SUITE, GKEY_NONE, false },
	[GOP_EXEC] = { "exec", GKEY_PATH, GKEY_ARGS, false },
};

/* What an operation's expect= says; an errno name is E<NAME>. */
enum guest_expect {
	GEXPECT_NONE,	/* not given: a precondition */
	GEXPECT_OK,	/* the operation succeeds */
	GEXPECT_CLEAN,	/* ... and the kernel logs no splat meanwhile */
	GEXPECT_FAIL,	/* it fails (not killed, not timed out) */
	GEXPECT_ERRNO,	/* it fails with that errno */
};

/* The words of expect=, but an errno name. */
static const char * const guest_expects[GEXPECT_ERRNO] = {
	[GEXPECT_OK] = "ok",
	[GEXPECT_CLEAN] = "clean",
	[GEXPECT_FAIL] = "fail",
};

#endif /* BISECT_GUESTOP_H */
