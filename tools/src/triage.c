// SPDX-License-Identifier: GPL-2.0
/*
 * triage - judge one guest boot of bisect-check.
 *
 * Usage:
 *	triage --console FILE --results FILE --expect FILE
 *	       [--identity FILE] [--timed-out SECONDS] [--only-declared]
 *
 * --console	raw serial console (ttyS0) of the guest; \r, NULs, ANSI
 *		escapes and a partial last line are tolerated.
 * --results	KTAP written by the in-guest runner to its own serial port
 *		(may be empty or truncated). "ok N id" means the claim holds
 *		(yes), "not ok N id" that it does not (no), a "# ERROR" or
 *		"# SKIP" directive that the test could not run (error).
 *		Lines "# <id>: text" are diagnostics of test <id>; the runner
 *		ends with "# runner: done". A partial last line is ignored.
 * --expect	lines "id<TAB>yes|no"; blank lines and "#" comments are
 *		ignored.
 * --timed-out	the host stopped QEMU after SECONDS: the boot timed out,
 *		and the first detail line says after how long.
 * --only-declared  judge only the declared tests; ignore the others the
 *		runner reported (bisect-run asks about a few claims).
 * --identity	what the host built: lines "uname-r<TAB>release",
 *		"uname-v<TAB>version" and "srcversion<TAB>module<TAB>hash".
 *		The runner reports the booted kernel's as "# identity:
 *		uname-r|uname-v <value>" and, per module it loaded, "#
 *		identity: srcversion <module> <hash>". A different release
 *		or version, a module srcversion that differs or was not
 *		built, or a finished runner that reported no version fails
 *		the boot: another kernel than the one built was booted.
 *
 * Output (stdout, tab separated):
 *	boot	ok|FAIL	ok|panic|timeout|booted X, built Y|oops|warning|no result
 *	identity	ok|FAIL|unknown	<booted uname -v>	<built uname -v>
 *	boot-detail	<console line>		(0..20 lines)
 *	tests	ok|FAIL|skip	<summary>
 *	test	<id>	<yes|no|->	<yes|no|error|missing>	ok|FAIL	<diags>
 *
 * The expected column of a test that was reported but not declared is
 * "-" and its diagnostics start with "not declared"; an ERROR or SKIP
 * reason comes first in the diagnostics. No test lines follow "tests
 * skip", which is printed when the boot failed and no result came back.
 *
 * Boot verdict, first match wins: timed out; "Kernel panic - not
 * syncing"; another kernel or module than the one built (--identity); a
 * bad line (below); no "# runner: done" in the results;
 * otherwise ok. Bad lines contain "Oops", "BUG:", "kernel BUG at",
 * "KASAN", "general protection" (reason oops), "WARNING:" at the start
 * of the message (reason warning, unless an oops-class line is present
 * too) or "Call Trace" (the class of the splat it belongs to). Two
 * exceptions keep a clean boot clean: "WARNING:" in the middle of a
 * message, as in the pr_err() "RETBleed: WARNING: ..." of the CPU bug
 * mitigations, is not a WARN() splat; and a "Call Trace" outside any
 * splat whose first frame is dump_stack*() is an explicit dump_stack(),
 * as in the hw_breakpoint sample handler.
 *
 * Exit status: 0 boot and tests ok, 1 either failed, 2 usage or I/O
 * error.
 */

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIAGE_OK	0
#define TRIAGE_FAIL	1
#define TRIAGE_ERROR	2

#define EXCERPT_MAX	20	/* boot-detail lines at most */
#define TAIL_LINES	15	/* console tail for timeout, no result */
#define PANIC_BEFORE	15	/* lines before a panic without a splat */
#define BAD_AFTER	4	/* lines quoted after each bad line */
#define QUOTE_MAX	300	/* bytes of one quoted field */

enum bad {
	BAD_NONE,
	BAD_WARN,
	BAD_OOPS,
};

#define UTIL_PROG "triage"
#define UTIL_ERROR TRIAGE_ERROR
#include "util.h"
#include "splat.h"

enum actual {
	ACT_MISSING,
	ACT_YES,
	ACT_NO,
	ACT_ERROR,
};

static const char * const actual_name[] = {
	[ACT_MISSING]	= "missing",
	[ACT_YES]	= "yes",
	[ACT_NO]	= "no",
	[ACT_ERROR]	= "error",
};

struct result {
	char *id;
	enum actual actual;
	char *why;		/* ERROR or SKIP reason, or NULL */
	int declared;
};

struct diag {
	char *id;
	char *text;
};

struct expect {
	char *id;
	enum actual want;
};

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
};

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: %s --console FILE --results FILE --expect FILE\n"
		"       [--identity FILE] [--timed-out SECONDS] [--only-declared]\n",
		prog);
	exit(TRIAGE_ERROR);
}

static void sb_add(struct strbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

/* Print s, cut at max bytes on a UTF-8 boundary with "..." appended. */
static void put_quoted(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max) {
		fputs(s, stdout);
		return;
	}
	n = max - 3;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	fwrite(s, 1, n, stdout);
	fputs("...", stdout);
}

/*
 * Clean one console line in place: drop \r, NULs, other control
 * characters and ANSI escape sequences, make a tab a space, strip
 * trailing spaces.
 */
static void clean_console(char *s)
{
	unsigned char c;
	char *r, *w = s;

	for (r = s; *r; r++) {
		c = *r;
		if (c == 0x1b) {
			if (r[1] == '[') {
				for (r += 2; *r; r++)
					if (*r >= 0x40 && *r <= 0x7e)
						break;
				if (!*r)
					break;
			} else if (r[1]) {
				r++;
				if ((*r == '(' || *r == ')') && r[1])
					r++;
			}
			continue;
		}
		if (c == '\t')
			c = ' ';
		else if (c < 0x20 || c == 0x7f)
			continue;
		*w++ = c;
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

/* Read a file given on the command line as cleaned lines. */
static void read_lines(struct lines *l, const char *what, const char *path)
{
	size_t i;

	lines_read(l, path, what, 0);
	for (i = 0; i < l->nr; i++)
		clean_console(l->v[i]);
}

/* Skip the "[    1.234567] " time stamp and "[    T1] " caller id. */
static const char *msg_start(const char *s)
{
	const char *p = s, *e;

	while (*p == '[') {
		e = p + 1 + strspn(p + 1, " 0123456789.TC");
		if (*e != ']')
			break;
		p = e + 1;
		while (*p == ' ')
			p++;
	}
	return p;
}

static int is_warn_header(const char *s)
{
	return splat_kind(msg_start(s)) == SPLAT_WARN;
}

static int is_oops_header(const char *s)
{
	return splat_kind(msg_start(s)) == SPLAT_OOPS;
}

/* Is the trace starting at line i an explicit dump_stack()? */
static int is_dump_stack(const struct lines *l, size_t i)
{
	size_t j;
	const char *m;

	for (j = i + 1; j < l->nr && j <= i + 4; j++) {
		m = msg_start(l->v[j]);
		if (*m == '<')		/* <TASK>, <IRQ>, <NMI>, <#DB> */
			continue;
		return !strncmp(m, "dump_stack", 10);
	}
	return 0;
}

/* Mark each console line with the class of splat it is a bad line of. */
static enum bad classify(const struct lines *l, enum bad *bad)
{
	enum bad open = BAD_NONE, worst = BAD_NONE;
	const char *s;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		s = l->v[i];
		bad[i] = BAD_NONE;
		if (is_warn_header(s)) {
			bad[i] = BAD_WARN;
			open = BAD_WARN;
		} else if (is_oops_header(s)) {
			bad[i] = BAD_OOPS;
			open = BAD_OOPS;
		} else if (strstr(s, "Call Trace")) {
			if (open != BAD_NONE)
				bad[i] = open;
			else if (!is_dump_stack(l, i))
				bad[i] = BAD_OOPS;
		} else if (strstr(s, "---[ end trace")) {
			open = BAD_NONE;
		}
		if (bad[i] > worst)
			worst = bad[i];
	}
	return worst;
}

struct excerpt {
	size_t v[EXCERPT_MAX];
	size_t nr;
};

static void ex_add(struct excerpt *ex, const struct lines *l, size_t i,
		   size_t max)
{
	if (ex->nr < max && l->v[i][0] != '\0')
		ex->v[ex->nr++] = i;
}

/* Last TAIL_LINES non-empty lines. */
static void ex_tail(struct excerpt *ex, const struct lines *l)
{
	size_t i = l->nr, from = l->nr, seen = 0;

	while (i > 0 && seen < TAIL_LINES) {
		i--;
		if (l->v[i][0] != '\0') {
			seen++;
			from = i;
		}
	}
	for (i = from; i < l->nr; i++)
		ex_add(ex, l, i, EXCERPT_MAX);
}

/* Bad lines in [from, to) each with BAD_AFTER lines after it. */
static void ex_windows(struct excerpt *ex, const struct lines *l,
		       const enum bad *bad, size_t from, size_t to,
		       size_t max)
{
	size_t i, j, next = from;

	for (i = from; i < to && ex->nr < max; i++) {
		if (bad[i] == BAD_NONE)
			continue;
		for (j = i > next ? i : next; j <= i + BAD_AFTER && j < to; j++)
			ex_add(ex, l, j, max);
		next = j;
	}
}

static void ex_panic(struct excerpt *ex, const struct lines *l,
		     const enum bad *bad, size_t p)
{
	size_t i, first = p;

	for (i = 0; i < p; i++) {
		if (bad[i] != BAD_NONE) {
			first = i;
			break;
		}
	}
	if (first == p)
		first = p > PANIC_BEFORE ? p - PANIC_BEFORE : 0;
	if (p - first + 1 <= EXCERPT_MAX) {
		for (i = first; i <= p; i++)
			ex_add(ex, l, i, EXCERPT_MAX);
		return;
	}
	/* Too long: the splat's windows, then the panic line itself. */
	ex_windows(ex, l, bad, first, p, EXCERPT_MAX - 1);
	ex_add(ex, l, p, EXCERPT_MAX);
}

/*
 * A sorted index of (name, position) pairs, so that a lookup by name
 * costs log n: 100k results or expectations are checked in well under a
 * second, where a linear search per name took minutes.
 */
struct name_pos {
	const char *name;
	size_t pos;
};

static int name_pos_cmp(const void *a, const void *b)
{
	const struct name_pos *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void index_sort(struct name_pos *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), name_pos_cmp);
}

/* The first entry of v[0..n) not ordered before (name, pos). */
static size_t index_lower(const struct name_pos *v, size_t n,
			  const char *name, size_t pos)
{
	struct name_pos key = { name, pos };
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (name_pos_cmp(&v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Grow *p to hold at least n + 1 elements of size sz (doubling). */
static void grow(void *pp, size_t *cap, size_t n, size_t sz)
{
	void **p = pp;

	if (n < *cap)
		return;
	*cap = *cap ? *cap * 2 : 64;
	*p = xrealloc(*p, *cap * sz);
}

static void read_expect(const char *path, struct expect **pe, size_t *pn,
			struct name_pos **pidx)
{
	struct expect *e = NULL;
	struct name_pos *idx;
	struct lines l;
	size_t i, n = 0, cap = 0, dup_line = 0;
	size_t *line_of = NULL, lcap = 0;
	char *s, *tab, *val;

	read_lines(&l, "expect", path);
	/* split_clean() turned tabs into spaces; split on the last one. */
	for (i = 0; i < l.nr; i++) {
		s = trim(l.v[i]);
		if (*s == '\0' || *s == '#')
			continue;
		tab = strrchr(s, ' ');
		if (!tab)
			die("%s:%zu: expected \"id<TAB>yes|no\"", path, i + 1);
		*tab = '\0';
		val = tab + 1;
		s = trim(s);
		if (*s == '\0' || strchr(s, ' '))
			die("%s:%zu: bad test id", path, i + 1);
		grow(&e, &cap, n, sizeof(*e));
		grow(&line_of, &lcap, n, sizeof(*line_of));
		e[n].id = s;
		line_of[n] = i + 1;
		if (!strcmp(val, "yes"))
			e[n].want = ACT_YES;
		else if (!strcmp(val, "no"))
			e[n].want = ACT_NO;
		else
			die("%s:%zu: expected yes or no, got \"%s\"", path, i + 1, val);
		n++;
	}
	/* Duplicates are neighbours once sorted; name the first repeat. */
	idx = xrealloc(NULL, (n + 1) * sizeof(*idx));
	for (i = 0; i < n; i++) {
		idx[i].name = e[i].id;
		idx[i].pos = i;
	}
	index_sort(idx, n);
	for (i = 1; i < n; i++)
		if (!strcmp(idx[i].name, idx[i - 1].name) &&
		    (!dup_line || line_of[idx[i].pos] < dup_line))
			dup_line = line_of[idx[i].pos];
	if (dup_line)
		for (i = 0; i < n; i++)
			if (line_of[i] == dup_line)
				die("%s:%zu: duplicate test id %s", path,
				    dup_line, e[i].id);
	free(line_of);
	*pe = e;
	*pn = n;
	*pidx = idx;
}

struct results {
	struct result *r;
	size_t nr, cap;
	struct diag *d;
	size_t nr_diag, cap_diag;
	struct name_pos *by_id;		/* r, sorted by id and position */
	struct name_pos *diag_by_id;	/* d, likewise */
	int done;
};

/* The last result reported for id, or NULL. */
static struct result *find_result(const struct results *res, const char *id)
{
	size_t i = index_lower(res->by_id, res->nr, id, (size_t)-1);

	if (i == 0 || strcmp(res->by_id[i - 1].name, id))
		return NULL;
	return &res->r[res->by_id[i - 1].pos];
}

/* "ok N id [# directive]" or "not ok N id [# directive]" */
static void parse_result(struct results *res, char *s, enum actual act)
{
	struct result *r;
	char *hash, *id;

	s += strspn(s, "0123456789");
	if (*s != ' ')
		return;
	hash = strstr(s, " #");
	if (hash) {
		*hash = '\0';
		hash = trim(hash + 2);
	}
	id = trim(s);
	if (*id == '\0')
		return;
	id[strcspn(id, " ")] = '\0';
	grow(&res->r, &res->cap, res->nr, sizeof(*res->r));
	r = &res->r[res->nr++];
	r->id = id;
	r->actual = act;
	r->why = NULL;
	r->declared = 0;
	if (hash && (!strncmp(hash, "ERROR", 5) || !strncmp(hash, "SKIP", 4))) {
		r->actual = ACT_ERROR;
		r->why = hash;
	}
}

static void read_results(const char *path, struct results *res)
{
	struct lines l;
	size_t i, n;
	char *s, *colon;

	read_lines(&l, "results", path);
	memset(res, 0, sizeof(*res));
	for (i = 0; i < l.nr; i++) {
		s = l.v[i];
		if (!strncmp(s, "# ", 2)) {
			if (!strcmp(trim(s + 2), "runner: done")) {
				res->done = 1;
				continue;
			}
			s += 2;
			n = strcspn(s, ": ");
			colon = s + n;
			if (n == 0 || strncmp(colon, ": ", 2))
				continue;
			*colon = '\0';
			grow(&res->d, &res->cap_diag, res->nr_diag,
			     sizeof(*res->d));
			res->d[res->nr_diag].id = s;
			res->d[res->nr_diag].text = trim(colon + 2);
			res->nr_diag++;
			continue;
		}
		/* A partial last line is a result cut off mid-way. */
		if (l.partial && i == l.nr - 1)
			break;
		if (!strncmp(s, "ok ", 3))
			parse_result(res, s + 3, ACT_YES);
		else if (!strncmp(s, "not ok ", 7))
			parse_result(res, s + 7, ACT_NO);
	}
	res->by_id = xrealloc(NULL, (res->nr + 1) * sizeof(*res->by_id));
	for (i = 0; i < res->nr; i++) {
		res->by_id[i].name = res->r[i].id;
		res->by_id[i].pos = i;
	}
	index_sort(res->by_id, res->nr);
	res->diag_by_id = xrealloc(NULL, (res->nr_diag + 1) *
				   sizeof(*res->diag_by_id));
	for (i = 0; i < res->nr_diag; i++) {
		res->diag_by_id[i].name = res->d[i].id;
		res->diag_by_id[i].pos = i;
	}
	index_sort(res->diag_by_id, res->nr_diag);
}

static void diags_of(struct strbuf *b, const struct results *res,
		     const char *id)
{
	size_t i;

	for (i = index_lower(res->diag_by_id, res->nr_diag, id, 0);
	     i < res->nr_diag && !strcmp(res->diag_by_id[i].name, id); i++) {
		if (b->len)
			sb_add(b, " | ");
		sb_add(b, res->d[res->diag_by_id[i].pos].text);
	}
}

static void put_test(const char *id, const char *want, enum actual act,
		     int ok, const char *why, const char *pre,
		     const struct results *res)
{
	struct strbuf b = { NULL, 0, 0 };

	sb_add(&b, "");
	if (pre)
		sb_add(&b, pre);
	if (why) {
		if (b.len)
			sb_add(&b, " | ");
		sb_add(&b, why);
	}
	diags_of(&b, res, id);
	printf("test\t%s\t%s\t%s\t%s\t", id, want, actual_name[act],
	       ok ? "ok" : "FAIL");
	put_quoted(b.s, QUOTE_MAX);
	putchar('\n');
	free(b.s);
}

/* What was built (--identity) and what the runner says booted. */
struct identity {
	char *release, *version;	/* NULL: not known */
	char **mod, **src;		/* module name and srcversion */
	size_t nr_mod;
};

#define IDENT_PREFIX	"identity"

/* Split "key rest" at the first space; NULL when there is no value. */
static char *split_word(char *s)
{
	char *sp = strchr(s, ' ');

	if (!sp)
		return NULL;
	*sp = '\0';
	return trim(sp + 1);
}

/* Record one "uname-r|uname-v|srcversion ..." entry; 0 if malformed. */
static int ident_add(struct identity *id, char *s)
{
	char *val = split_word(s), *hash;

	if (!val || *val == '\0')
		return 0;
	if (!strcmp(s, "uname-r")) {
		id->release = val;
	} else if (!strcmp(s, "uname-v")) {
		id->version = val;
	} else if (!strcmp(s, "srcversion")) {
		hash = split_word(val);
		if (!hash || *hash == '\0' || strchr(hash, ' '))
			return 0;
		id->mod = xrealloc(id->mod, (id->nr_mod + 1) * sizeof(*id->mod));
		id->src = xrealloc(id->src, (id->nr_mod + 1) * sizeof(*id->src));
		id->mod[id->nr_mod] = val;
		id->src[id->nr_mod] = hash;
		id->nr_mod++;
	} else {
		return 0;
	}
	return 1;
}

static void read_identity(const char *path, struct identity *id)
{
	struct lines l;
	size_t i;
	char *s;

	memset(id, 0, sizeof(*id));
	read_lines(&l, "identity", path);
	for (i = 0; i < l.nr; i++) {
		s = trim(l.v[i]);
		if (*s == '\0' || *s == '#')
			continue;
		if (!ident_add(id, s))
			die("%s:%zu: expected \"uname-r|uname-v<TAB>value\" or %s",
			    path, i + 1, "\"srcversion<TAB>module<TAB>hash\"");
	}
	if (!id->version)
		die("%s: no uname-v line: the build wrote no identity", path);
}

/*
 * The runner's "# identity: ..." diagnostics; a malformed one makes the
 * version "?", so that it cannot pass for a match.
 */
static void booted_identity(const struct results *res, struct identity *id)
{
	static char bad[2] = { '?', '\0' };
	size_t i;

	memset(id, 0, sizeof(*id));
	for (i = 0; i < res->nr_diag; i++) {
		if (strcmp(res->d[i].id, IDENT_PREFIX))
			continue;
		if (!ident_add(id, res->d[i].text))
			id->version = bad;
	}
}

static const char *built_src(const struct identity *built, const char *mod)
{
	size_t i;

	for (i = 0; i < built->nr_mod; i++)
		if (!strcmp(built->mod[i], mod))
			return built->src[i];
	return NULL;
}

/*
 * Compare what booted with what was built. Returns 1 when they are the
 * same, 0 when not (with a reason and detail lines), -1 when the guest
 * reported nothing to compare.
 */
static int identity_check(const struct identity *built,
			  const struct identity *booted, int runner_done,
			  char *reason, size_t len, struct strbuf *detail)
{
	const char *want;
	char line[1024];
	size_t i;
	int same = 1;

	if (!booted->version) {
		if (!runner_done)
			return -1;
		snprintf(reason, len, "booted an unknown kernel, built %s",
			 built->version);
		sb_add(detail, "the runner finished but reported no uname -v\n");
		return 0;
	}
	if (strcmp(booted->version, built->version) ||
	    (built->release && booted->release &&
	     strcmp(booted->release, built->release))) {
		size_t a = strcspn(booted->version, " ");
		size_t b = strcspn(built->version, " ");

		/* "#<ident>" says it all unless only the rest differs. */
		if (a == b && !strncmp(booted->version, built->version, a)) {
			a = strlen(booted->version);
			b = strlen(built->version);
		}
		snprintf(reason, len, "booted %.*s, built %.*s", (int)a,
			 booted->version, (int)b, built->version);
		snprintf(line, sizeof(line), "booted: %s %s\nbuilt: %s %s\n",
			 booted->release ? booted->release : "?",
			 booted->version, built->release ? built->release : "?",
			 built->version);
		sb_add(detail, line);
		same = 0;
	}
	for (i = 0; i < booted->nr_mod; i++) {
		want = built_src(built, booted->mod[i]);
		if (want && !strcmp(want, booted->src[i]))
			continue;
		if (same)
			snprintf(reason, len,
				 "booted module %s srcversion %s, built %s",
				 booted->mod[i], booted->src[i],
				 want ? want : "none");
		snprintf(line, sizeof(line),
			 "module %s: booted srcversion %s, built %s\n",
			 booted->mod[i], booted->src[i],
			 want ? want : "no such module");
		sb_add(detail, line);
		same = 0;
	}
	return same;
}

static long parse_num(const char *opt, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < 0)
		die("%s: expected a non-negative number, got \"%s\"", opt, s);
	return v;
}

/* What the command line asks. */
struct opts {
	const char *console, *results, *expect, *identity;
	int only_declared, timed_out_given;
	long timed_out;
};

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "console",	required_argument, NULL, 'c' },
		{ "results",	required_argument, NULL, 'r' },
		{ "expect",	required_argument, NULL, 'e' },
		{ "timed-out",	required_argument, NULL, 't' },
		{ "only-declared", no_argument,	   NULL, 'o' },
		{ "identity",	required_argument, NULL, 'i' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	memset(o, 0, sizeof(*o));
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			o->console = optarg;
			break;
		case 'r':
			o->results = optarg;
			break;
		case 'e':
			o->expect = optarg;
			break;
		case 't':
			o->timed_out = parse_num("--timed-out", optarg);
			o->timed_out_given = 1;
			break;
		case 'o':
			o->only_declared = 1;
			break;
		case 'i':
			o->identity = optarg;
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc || !o->console || !o->results || !o->expect)
		bad_usage();
}

/* The verdict on the boot, with the console lines that show why. */
struct boot_verdict {
	int ok;
	const char *reason;
	struct excerpt ex;
	/* --identity: 1 the same, 0 another kernel, -1 nothing to compare */
	int ident;
	struct identity built, booted;
	struct strbuf detail;
	char ident_reason[512];
};

static void judge_boot(const struct opts *o, const struct lines *con,
		       const struct results *res, struct boot_verdict *v)
{
	enum bad *bad, worst;
	size_t p;

	memset(v, 0, sizeof(*v));
	v->ident = -1;
	sb_add(&v->detail, "");
	booted_identity(res, &v->booted);
	if (o->identity) {
		read_identity(o->identity, &v->built);
		v->ident = identity_check(&v->built, &v->booted, res->done,
					  v->ident_reason,
					  sizeof(v->ident_reason), &v->detail);
	}

	bad = xrealloc(NULL, (con->nr + 1) * sizeof(*bad));
	worst = classify(con, bad);
	for (p = 0; p < con->nr; p++)
		if (splat_kind(msg_start(con->v[p])) == SPLAT_PANIC)
			break;

	if (o->timed_out_given) {
		v->reason = "timeout";
		ex_tail(&v->ex, con);
	} else if (p < con->nr) {
		v->reason = "panic";
		ex_panic(&v->ex, con, bad, p);
	} else if (v->ident == 0) {
		v->reason = v->ident_reason;
	} else if (worst != BAD_NONE) {
		v->reason = worst == BAD_OOPS ? "oops" : "warning";
		ex_windows(&v->ex, con, bad, 0, con->nr, EXCERPT_MAX);
	} else if (!res->done) {
		v->reason = "no result";
		ex_tail(&v->ex, con);
	} else {
		v->reason = "ok";
		v->ok = 1;
	}
	free(bad);
}

/* The verdict on the tests. */
struct tests_verdict {
	int ok;
	const char *status;	/* ok, FAIL or skip */
	char summary[1024];
};

static void judge_tests(const struct opts *o, struct results *res,
			const struct expect *exp, size_t nr_exp,
			const struct name_pos *exp_idx,
			const struct boot_verdict *boot, struct tests_verdict *t)
{
	size_t i, n = 0, reported = 0, differ = 0, undeclared = 0;
	struct result *r;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nr_exp; i++) {
		r = find_result(res, exp[i].id);
		if (r) {
			reported++;
			if (r->actual != exp[i].want)
				differ++;
		} else {
			differ++;
		}
	}
	for (i = 0; i < res->nr; i++) {
		size_t j = index_lower(exp_idx, nr_exp, res->r[i].id, 0);

		res->r[i].declared = o->only_declared ||
			(j < nr_exp && !strcmp(exp_idx[j].name, res->r[i].id));
		/* Count each undeclared id once, at its last report. */
		if (!res->r[i].declared && find_result(res, res->r[i].id) == &res->r[i])
			undeclared++;
	}

	if (res->nr == 0 && !boot->ok) {
		t->status = "skip";
		snprintf(t->summary, sizeof(t->summary), "no results (%.900s)",
			 boot->reason);
		return;
	}
	if (!res->done) {
		size_t wrong = differ - (nr_exp - reported);

		n += snprintf(t->summary, sizeof(t->summary),
			      "incomplete: %zu of %zu reported", reported, nr_exp);
		if (wrong)
			n += snprintf(t->summary + n, sizeof(t->summary) - n,
				      ", %zu %s", wrong,
				      wrong == 1 ? "differs" : "differ");
	} else if (differ) {
		n += snprintf(t->summary, sizeof(t->summary),
			      "%zu of %zu differ", differ, nr_exp);
	} else {
		n += snprintf(t->summary, sizeof(t->summary),
			      "%zu/%zu as declared", nr_exp, nr_exp);
	}
	if (undeclared)
		snprintf(t->summary + n, sizeof(t->summary) - n,
			 ", %zu not declared", undeclared);
	t->ok = res->done && !differ && !undeclared;
	t->status = t->ok ? "ok" : "FAIL";
}

static void put_detail(const char *s)
{
	fputs("boot-detail\t", stdout);
	put_quoted(s, QUOTE_MAX);
	putchar('\n');
}

static void print_boot(const struct opts *o, const struct lines *con,
		       struct boot_verdict *v)
{
	char *l, *next;
	size_t i;

	printf("boot\t%s\t", v->ok ? "ok" : "FAIL");
	put_quoted(v->reason, QUOTE_MAX);
	putchar('\n');
	if (o->timed_out_given)
		printf("boot-detail\tthe host stopped the guest after %ld s; its console ends:\n",
		       o->timed_out);
	if (o->identity) {
		printf("identity\t%s\t%s\t%s\n",
		       v->ident == 1 ? "ok" : v->ident == 0 ? "FAIL" : "unknown",
		       v->booted.version ? v->booted.version : "-",
		       v->built.version);
		for (l = v->detail.s; *l; l = next) {
			next = strchr(l, '\n');
			*next++ = '\0';
			put_detail(l);
		}
	}
	for (i = 0; i < v->ex.nr; i++)
		put_detail(con->v[v->ex.v[i]]);
}

static void print_tests(const struct results *res, const struct expect *exp,
			size_t nr_exp, const struct tests_verdict *t)
{
	const struct result *r;
	size_t i;

	printf("tests\t%s\t%s\n", t->status, t->summary);
	for (i = 0; i < nr_exp && strcmp(t->status, "skip"); i++) {
		r = find_result(res, exp[i].id);
		put_test(exp[i].id, actual_name[exp[i].want],
			 r ? r->actual : ACT_MISSING,
			 r && r->actual == exp[i].want, r ? r->why : NULL,
			 NULL, res);
	}
	for (i = 0; i < res->nr; i++) {
		r = &res->r[i];
		if (r->declared || find_result(res, r->id) != r)
			continue;
		put_test(r->id, "-", r->actual, 0, r->why, "not declared", res);
	}
}

int main(int argc, char **argv)
{
	struct tests_verdict tests;
	struct boot_verdict boot;
	struct name_pos *exp_idx;
	struct results res;
	struct expect *exp;
	struct lines con;
	struct opts o;
	size_t nr_exp;

	parse_opts(argc, argv, &o);
	read_lines(&con, "console", o.console);
	read_results(o.results, &res);
	read_expect(o.expect, &exp, &nr_exp, &exp_idx);

	judge_boot(&o, &con, &res, &boot);
	judge_tests(&o, &res, exp, nr_exp, exp_idx, &boot, &tests);
	print_boot(&o, &con, &boot);
	print_tests(&res, exp, nr_exp, &tests);

	if (fflush(stdout) || ferror(stdout))
		die("cannot write stdout: %s", strerror(errno));
	return boot.ok && tests.ok ? TRIAGE_OK : TRIAGE_FAIL;
}
