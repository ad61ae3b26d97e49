// SPDX-License-Identifier: GPL-2.0
/*
 * series-guest.c - guest: of series.yaml, what the guest runner does:
 * its test modules and programs, and guest.run, checked against the
 * runner's language (guestop.h, guest/README).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "series.h"

/*
 * What the guest does, in order (guest.run): each operation names the
 * tests it belongs to and maybe what it must give (guest/README).
 * Printed as the runner's program: "op KIND key=value..." records, in
 * the language of guestop.h. Its kinds (guest_kinds[]) are the YAML
 * keys naming an operation; a second value (load's params, write's
 * value, exec's args) has the same key in both.
 */
struct op_kind_info {
	const char *set;	/* characters its value may have, or NULL */
	const char *re;		/* @set as shown to the user */
	const char * const *keys;	/* every key the kind takes */
};

static const char * const load_keys[] = {
	"load", "params", "config", "tests", "expect", "log", NULL
};

static const char * const unload_keys[] = {
	"unload", "tests", "expect", "log", NULL
};

static const char * const write_keys[] = {
	"write", "value", "tests", "expect", "log", NULL
};

static const char * const read_keys[] = {
	"read", "tests", "expect", "log", NULL
};

static const char * const kunit_keys[] = {
	"kunit", "config", "tests", "expect", NULL
};

static const char * const exec_keys[] = {
	"exec", "args", "config", "tests", "expect", "log", NULL
};

static const char * const log_keys[] = { "match", "count", "label", NULL };

static const char * const guest_keys[] = {
	"modules", "programs", "run", NULL
};

#define MODFILE_SET	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."
#define MODNAME_SET	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
#define SUITE_SET	GUEST_SUITE_SET
#define KCONFIG_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
#define ERRNO_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#define PROGRAM_SET	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
#define PROGRAM_MAX_LEN	64	/* of a guest program's name */

/* The YAML side of guest_kinds[]. */
static const struct op_kind_info op_kinds[GOP_NR] = {
	[GOP_LOAD] = { MODFILE_SET, "a module file, NAME.ko", load_keys },
	[GOP_UNLOAD] = { MODNAME_SET, "[A-Za-z0-9_]+", unload_keys },
	[GOP_WRITE] = { NULL, NULL, write_keys },
	[GOP_READ] = { NULL, NULL, read_keys },
	[GOP_KUNIT] = { SUITE_SET, "[a-z0-9_-]+", kunit_keys },
	[GOP_EXEC] = { PROGRAM_SET, "[A-Za-z0-9_-]+", exec_keys },
};

/* Whether @v is a log count: N, >N or <N (N decimal, < 10^9). */
static bool count_ok(const char *v)
{
	size_t n;

	if (*v == '>' || *v == '<')
		v++;
	n = strspn(v, "0123456789");
	return n && n <= GUEST_COUNT_MAX_DIGITS && !v[n];
}

/* A module file name: NAME.ko, NAME of [A-Za-z0-9_-]. */
static bool modfile_ok(const char *v)
{
	size_t len = strlen(v);

	return len > 3 && !strcmp(v + len - 3, ".ko") &&
	       strspn(v, MODFILE_SET) == len && !memchr(v, '.', len - 3);
}

/* An absolute path the runner may open: no "..", nothing odd. */
static bool guest_path_ok(const char *v)
{
	size_t len = strlen(v);

	return v[0] == '/' && !strstr(v, "/../") && !strchr(v, ' ') &&
	       !(len >= 3 && !strcmp(v + len - 3, "/.."));
}

/* An operation's tests: a test id or a sequence of them, none twice. */
static void check_op_tests(struct series *s, struct guest_op *op,
			   const struct node *v, const char *key)
{
	/* One test may be named without brackets. */
	bool one = v->type == N_SCALAR && !is_null(v);
	char item[KEY_LEN];
	size_t i, j, nr = 1;

	if (!one) {
		if (!want(v, N_SEQ, key))
			return;
		if (!v->nkid) {
			report(v, key, "must not be empty: name a test, or leave %s",
			       "tests out for an operation of every test");
			return;
		}
		nr = v->nkid;
	}
	op->tests = xcalloc(nr, sizeof(*op->tests));
	for (i = 0; i < nr; i++) {
		const struct node *n = one ? v : v->kid[i];
		const char *id, *at = key;
		ssize_t t;

		if (!one) {
			key_index(item, key, i);
			at = item;
		}
		id = get_text(n, at, TEST_ID_SET, "[a-z0-9-]+");
		if (!id)
			continue;
		t = find_test(s, id, strlen(id));
		if (t < 0) {
			if (s->tests_ok)
				report(n, at, "unknown test '%s' (declared tests: %s)",
				       shown(n), declared_tests(s));
			continue;
		}
		for (j = 0; j < op->ntests; j++)
			if (op->tests[j] == (size_t)t)
				break;
		if (j < op->ntests) {
			report(n, at, "test '%s' is named twice", shown(n));
			continue;
		}
		op->tests[op->ntests++] = t;
	}
}

static void check_op_log(struct guest_op *op, const struct node *v,
			 const char *key)
{
	char sub[KEY_LEN];
	const struct node *n;

	if (!want(v, N_MAP, key))
		return;
	check_keys(v, key, log_keys);
	n = need(v, key, "match", sub);
	if (n)
		op->match = get_text(n, sub, NULL, NULL);
	n = need(v, key, "count", sub);
	if (n) {
		op->count = get_text(n, sub, NULL, NULL);
		if (op->count && !count_ok(op->count)) {
			report(n, sub, "'%s' is not a count: write N, >N or <N", shown(n));
			op->count = NULL;
		}
	}
	n = lookup(v, "label");
	if (n) {
		key_join(sub, key, "label", 5);
		op->label = get_text(n, sub, NULL, NULL);
	}
}

static void check_op_config(struct guest_op *op, const struct node *v,
			    const char *key)
{
	char item[KEY_LEN];
	size_t i;

	if (!want(v, N_SEQ, key))
		return;
	op->config = xcalloc(v->nkid, sizeof(*op->config));
	for (i = 0; i < v->nkid; i++) {
		const char *c;

		key_index(item, key, i);
		c = get_text(v->kid[i], item, KCONFIG_SET, "CONFIG_[A-Z0-9_]+");
		if (!c)
			continue;
		if (strncmp(c, "CONFIG_", 7) || !c[7]) {
			report(v->kid[i], item, "'%s' is not a Kconfig option: write CONFIG_NAME",
			       shown(v->kid[i]));
			continue;
		}
		op->config[op->nconfig++] = c;
	}
}

/* The kind of operation @map is: the one kind key it has, or -1. */
static int op_kind_of(const struct node *map, const char *key)
{
	char list[KEY_LEN] = "";
	int kind = -1, k;
	size_t len = 0;

	for (k = 0; k < GOP_NR; k++) {
		if (!lookup(map, guest_kinds[k].name))
			continue;
		if (kind >= 0) {
			report(map, key, "one operation per item: '%s' and '%s' both given",
			       guest_kinds[kind].name, guest_kinds[k].name);
			return -1;
		}
		kind = k;
	}
	if (kind >= 0)
		return kind;
	for (k = 0; k < GOP_NR; k++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s",
				k ? ", " : "", guest_kinds[k].name);
	report(map, key, "no operation: give one of %s", list);
	return -1;
}

/*
 * The program an exec operation runs, @name: its source NAME.c must be
 * in guest.programs (the shell builds it as GUEST_BIN NAME).
 */
static void check_program(const struct series *s, const struct node *v,
			  const char *key, const char *name)
{
	struct stat st;
	char *path;
	int fd, err = 0;

	if (strlen(name) > PROGRAM_MAX_LEN) {
		report(v, key, "'%s' is %zu characters long: a program name has at most %d",
		       shown(v), strlen(name), PROGRAM_MAX_LEN);
		return;
	}
	if (!s->programs_given) {
		report(v, key, "exec needs guest.programs: add 'programs: DIR' to guest, %s %s.c",
		       "DIR the directory (relative to this file) that holds", name);
		return;
	}
	if (!s->guest_programs)
		return;		/* guest.programs is not usable: reported */
	if (asprintf(&path, "%s/%s.c", s->guest_programs, name) < 0)
		out_of_memory();
	/* stat() first: opening a FIFO would block. */
	if (stat(path, &st)) {
		err = errno;
		report(v, key, "%s: %s: %s (exec %s runs %s%s, built from it)",
		       err == ENOENT ? "program source not found" :
		       "cannot access program source", path, strerror(err),
		       name, GUEST_BIN, name);
	} else if (!S_ISREG(st.st_mode)) {
		report(v, key, "program source is not a regular file: %s", path);
	} else {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			err = errno;
			report(v, key, "cannot read program source %s: %s", path,
			       strerror(err));
		} else {
			close(fd);
		}
	}
	free(path);
}

/* The arguments of an exec operation: at most GUEST_EXEC_MAX_ARGS words. */
static const char *get_args(const struct node *v, const char *key)
{
	const char *args = get_text(v, key, NULL, NULL), *p;
	size_t n = 0;

	if (!args)
		return NULL;
	for (p = args; *p; p += strcspn(p, " ")) {
		p += strspn(p, " ");
		if (*p)
			n++;
	}
	if (n > GUEST_EXEC_MAX_ARGS) {
		report(v, key, "%zu arguments: the guest runner takes at most %d %s",
		       n, GUEST_EXEC_MAX_ARGS, "(words between spaces)");
		return NULL;
	}
	return args;
}

/* Whether @v is one of the words of expect= (not an errno name). */
static bool expect_word(const char *v)
{
	size_t e;

	for (e = GEXPECT_OK; e < GEXPECT_ERRNO; e++)
		if (!strcmp(v, guest_expects[e]))
			return true;
	return false;
}

/* One item of guest.run, into @op; false when it is not usable. */
static bool check_op(struct series *s, struct guest_op *op,
		     const struct node *map, const char *key)
{
	const struct op_kind_info *k;
	char sub[KEY_LEN];
	const struct node *v;
	int kind;

	kind = op_kind_of(map, key);
	if (kind < 0)
		return false;
	k = &op_kinds[kind];
	op->kind = kind;
	check_keys(map, key, k->keys);
	v = need(map, key, guest_kinds[kind].name, sub);
	op->arg = get_text(v, sub, k->set, k->re);
	if (!op->arg)
		return false;
	if ((kind == GOP_LOAD && !modfile_ok(op->arg)) ||
	    ((kind == GOP_WRITE || kind == GOP_READ) && !guest_path_ok(op->arg))) {
		report(v, sub, "'%s' must be %s", shown(v),
		       kind == GOP_LOAD ? "a module file, NAME.ko" :
		       "an absolute path in the guest, without spaces or '..'");
		return false;
	}
	if (kind == GOP_EXEC)
		check_program(s, v, sub, op->arg);
	v = lookup_at(map, key, "params", sub);
	if (v && kind == GOP_LOAD)
		op->extra = get_text(v, sub, NULL, NULL);
	v = lookup_at(map, key, "args", sub);
	if (v && kind == GOP_EXEC)
		op->extra = get_args(v, sub);
	if (kind == GOP_WRITE) {
		v = need(map, key, "value", sub);
		if (!v)
			return false;
		op->extra = get_text(v, sub, NULL, NULL);
		if (!op->extra)
			return false;
	}
	/* Kconfig options the operation needs (unknown keys are refused). */
	v = lookup_at(map, key, "config", sub);
	if (v)
		check_op_config(op, v, sub);
	v = lookup_at(map, key, "tests", sub);
	if (v)
		check_op_tests(s, op, v, sub);
	v = lookup_at(map, key, "expect", sub);
	if (v) {
		op->expect = get_text(v, sub, ERRNO_SET "abcdefghijklmnopqrstuvwxyz",
				      "ok, clean, fail or an errno name");
		if (op->expect && !expect_word(op->expect) &&
		    !(op->expect[0] == 'E' && op->expect[1] &&
		      strspn(op->expect, ERRNO_SET) == strlen(op->expect))) {
			report(v, sub, "'%s': expect ok, clean, fail or an errno name (ENOENT)",
			       shown(v));
			op->expect = NULL;
		}
	}
	v = lookup_at(map, key, "log", sub);
	if (v && kind != GOP_KUNIT) {
		check_op_log(op, v, sub);
		if (op->expect)
			report(v, sub, "a log check and expect: give one (%s)",
			       "a log check wants the operation to succeed");
	}
	if ((op->expect || op->match) && !lookup(map, "tests"))
		report(map, key, "a check belongs to a test: name it in tests");
	return true;
}

void check_guest(struct series *s, const struct node *map)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *v, *seq;
	bool *named;
	size_t i, j;

	if (!want(map, N_MAP, "guest"))
		return;
	check_keys(map, "guest", guest_keys);
	v = lookup_at(map, "guest", "modules", sub);
	if (v)
		s->guest_modules = get_dir(s, v, sub);
	/* Before guest.run: its exec operations name files in it. */
	v = lookup_at(map, "guest", "programs", sub);
	if (v) {
		s->guest_programs = get_dir(s, v, sub);
		s->programs_given = true;
	}
	seq = need(map, "guest", "run", sub);
	if (!seq || !want(seq, N_SEQ, sub))
		return;
	if (!seq->nkid) {
		report(seq, sub, "must not be empty: list what the guest does");
		return;
	}
	if (seq->nkid > GUEST_MAX_OPS) {
		report(seq, sub, "%zu operations: the runner takes at most %d",
		       seq->nkid, GUEST_MAX_OPS);
		return;
	}
	s->ops = xcalloc(seq->nkid, sizeof(*s->ops));
	for (i = 0; i < seq->nkid; i++) {
		key_index(item, sub, i);
		if (want(seq->kid[i], N_MAP, item) &&
		    check_op(s, &s->ops[s->nops], seq->kid[i], item))
			s->nops++;
	}
	if (!s->tests_ok)
		return;
	/* Every declared test is judged by some operation. */
	named = xcalloc(s->ntests, sizeof(*named));
	for (i = 0; i < s->nops; i++)
		for (j = 0; j < s->ops[i].ntests; j++)
			named[s->ops[i].tests[j]] = true;
	for (i = 0; i < s->ntests; i++)
		if (!named[i])
			report(seq, sub, "test '%s' is named by no operation: %s [%s] %s",
			       s->tests[i].id, "add tests:", s->tests[i].id,
			       "to the operations that judge it");
	free(named);
}
