// SPDX-License-Identifier: GPL-2.0
/*
 * triage - judge one guest boot of bisect-check.
 *
 * Usage:
 *	triage --console FILE --results FILE --expect FILE
 *	       [--identity FILE] [--timed-out SECONDS] [--only-declared]
 *	       [--dmesg FILE]
 *
 * --console	raw serial console (ttyS0) of the guest; \r, NULs, ANSI
 *		escapes and a partial last line are tolerated.
 * --results	KTAP written by the in-guest runner to its own serial port
 *		(may be empty or truncated). "ok N id" means the claim holds
 *		(yes), "not ok N id" that it does not (no), a "# ERROR"
 *		directive that the test could not run (error), a "# SKIP"
 *		one that the runner was told not to run it (skip).
 *		Lines "# <id>: text" are diagnostics of test <id>; the runner
 *		ends with "# runner: done". A partial last line is ignored.
 *		Lines "# dmesg: text" are the guest's whole kernel log,
 *		which the runner dumps at its end; they are no diagnostics.
 * --dmesg	write the text of those lines to FILE, one a line: the
 *		boot's full kernel log, kept beside its quiet console.
 * --expect	lines "id<TAB>yes|no|skip"; blank lines and "#" comments are
 *		ignored.
 * --timed-out	the host stopped QEMU after SECONDS: the boot timed out,
 *		and the first detail line says after how long. The lines
 *		quoted are the report of the first task that did not go
 *		on, when the console has one (the hung task detector's, or
 *		SysRq w's list of blocked tasks, which tools/qemu-watch.sh
 *		asks for when every CPU idles), else the console's end.
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
 *	title	<crash title>		(one per distinct title)
 *	tests	ok|FAIL|skip	<summary>
 *	test	<id>	<yes|no|skip|->	<yes|no|error|skip|missing>	ok|FAIL	<diags>
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
 * Titles: every splat on the console, and a panic that no splat came
 * before, gets a one-line title as syzbot names crashes; the "title"
 * records give each distinct title once, in console order, whatever the
 * verdict (a timed-out boot has them too). A splat starts at a line
 * that splat.h's splat_kind() or splat_hang() knows and goes on to its
 * "---[ end trace", the next such line or 200 lines; a die() header
 * ("Oops: 0000 [#1]", "invalid opcode: ...", "Internal error: ...")
 * right after a BUG or "Unable to handle kernel" header is part of it.
 * The title is "<kind> in <function>":
 *
 *	kernel BUG at <file>:<line>!		kernel BUG
 *	WARNING: CPU: 0 PID: 1 at <file> f+..	WARNING
 *	WARNING: <what>, BUG: <what>		WARNING: <what>, BUG: <what>
 *	BUG: KASAN: <what> in f+...		KASAN: <what> Read|Write
 *	UBSAN: <what> in <file>			UBSAN: <what>
 *	Unable to handle kernel NULL pointer dereference ...
 *						BUG: kernel NULL pointer dereference
 *	Unable to handle kernel <what> at ...	Unable to handle kernel <what>
 *	<what>: 0000 [#1], Internal error: <what>: ... [#1]
 *						<what> ("Oops - BUG": kernel BUG)
 *	INFO: task <task> blocked for more than ...	INFO: task hung
 *	task:<task> state:D ... (SysRq w)		INFO: task hung
 *	[watchdog: ]BUG: soft lockup ...	BUG: soft lockup
 *	[rcu: ]INFO: rcu_<flavour> ...detected stall...	INFO: rcu detected stall
 *
 * where <what> ends before the first ",", ":", "!", " at ", " in ", " on
 * CPU", " for address" or " - " (the address, CPU, task or place of
 * this one crash). The function is the one the header names (WARNING,
 * KASAN); else the first frame of the registers' instruction pointer
 * ("RIP: 0010:f+0x3d/0x40" on x86, "pc : f+0x54/0x58" on arm64), but
 * not for a hung task; else (no IP, or one without a symbol, as
 * "RIP: 0010:0x0") the first frame of its "Call Trace:" that is no
 * "? " guess and not of the code that reports a splat or takes its
 * trap (dump_stack*, __warn, report_bug, exc_*, asm_exc_*, page fault
 * and die() handling, ubsan_*, kasan_*; for a hung task also frames
 * that wait or sleep, for an RCU stall also the stall report's and the
 * timer interrupt's). A function loses its offset "+0x3d/0x40", module
 * " [mod]" and the suffix of a compiler's clone (".isra.0", ".cold").
 * Without a function the title is the kind alone, or "kernel BUG at
 * <file>", "WARNING at <file>", "UBSAN: <what> in <file>" when the
 * header gives the file. A panic's title is "Kernel panic - not
 * syncing: <message>": its first sentence (cut at ". " or after "! "),
 * without a final ".". A plain dump_stack() is no splat and gets no
 * title. A title is one line without tabs, bytes that are not UTF-8
 * shown as "?", runs of spaces made one, a function's offset
 * "+0x../0x.." dropped, and 1 to 120 bytes, cut between two characters.
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
#define TITLE_MAX	120	/* bytes of a crash title */
#define TITLE_BUF	512	/* bytes of a title or its parts, uncut */
#define PART_MAX	200	/* bytes of a part taken from a header */
#define SPLAT_LINES	200	/* lines of a splat searched for its function */

#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

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
	ACT_SKIP,
};

static const char * const actual_name[] = {
	[ACT_MISSING]	= "missing",
	[ACT_YES]	= "yes",
	[ACT_NO]	= "no",
	[ACT_ERROR]	= "error",
	[ACT_SKIP]	= "skip",
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
		"       [--identity FILE] [--timed-out SECONDS] [--only-declared]\n"
		"       [--dmesg FILE]\n",
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

/*
 * The report of the first task that did not go on (a hung task's, or a
 * blocked task's as SysRq w lists it), from its header on; 0 when there
 * is none.
 */
static int ex_hung(struct excerpt *ex, const struct lines *l)
{
	size_t i, j;
	enum hang h = HANG_NONE;
	int task_line;

	for (i = 0; i < l->nr; i++) {
		h = splat_hang(msg_start(l->v[i]));
		if (h == HANG_TASK || h == HANG_BLOCKED)
			break;
	}
	if (i == l->nr)
		return 0;
	/* The detector's report goes on with the task's own line. */
	task_line = h == HANG_TASK;
	ex_add(ex, l, i, EXCERPT_MAX);
	for (j = i + 1; j < l->nr && ex->nr < EXCERPT_MAX; j++) {
		const char *m = msg_start(l->v[j]);

		h = splat_hang(m);
		if (task_line && h == HANG_BLOCKED)
			h = HANG_NONE;
		if (strstr(m, "Call Trace:") || strstr(m, "Call trace:"))
			task_line = 0;
		if (splat_kind(m) != SPLAT_NONE || splat_starts(m, "sysrq: ") ||
		    h != HANG_NONE)
			break;
		ex_add(ex, l, j, EXCERPT_MAX);
	}
	return 1;
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
		else if (!strcmp(val, "skip"))
			e[n].want = ACT_SKIP;
		else
			die("%s:%zu: expected yes, no or skip, got \"%s\"", path, i + 1, val);
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
	if (hash && !strncmp(hash, "ERROR", 5)) {
		r->actual = ACT_ERROR;
		r->why = hash;
	} else if (hash && !strncmp(hash, "SKIP", 4)) {
		r->actual = ACT_SKIP;
		r->why = hash;
	}
}

#define DMESG_PREFIX	"# dmesg:"

/* The results of @path into @res; the kernel log lines go to @dmesg. */
static void read_results(const char *path, struct results *res, FILE *dmesg)
{
	struct lines l;
	size_t i, n;
	char *s, *colon;

	read_lines(&l, "results", path);
	memset(res, 0, sizeof(*res));
	for (i = 0; i < l.nr; i++) {
		s = l.v[i];
		if (!strncmp(s, DMESG_PREFIX, strlen(DMESG_PREFIX))) {
			s += strlen(DMESG_PREFIX);
			if (dmesg)
				fprintf(dmesg, "%s\n", *s == ' ' ? s + 1 : s);
			continue;
		}
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
	char *line;
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
		line = xasprintf("booted: %s %s\nbuilt: %s %s\n",
				 booted->release ? booted->release : "?",
				 booted->version,
				 built->release ? built->release : "?",
				 built->version);
		sb_add(detail, line);
		free(line);
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
		line = xasprintf("module %s: booted srcversion %s, built %s\n",
				 booted->mod[i], booted->src[i],
				 want ? want : "no such module");
		sb_add(detail, line);
		free(line);
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
	const char *console, *results, *expect, *identity, *dmesg;
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
		{ "dmesg",	required_argument, NULL, 'd' },
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
		case 'd':
			o->dmesg = optarg;
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
	int hung;		/* the excerpt is a task that did not go on */
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
		v->hung = ex_hung(&v->ex, con);
		if (!v->hung)
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
	size_t i, n = 0, reported = 0, differ = 0, undeclared = 0, skipped = 0;
	struct result *r;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nr_exp; i++) {
		r = find_result(res, exp[i].id);
		if (r) {
			reported++;
			if (r->actual != exp[i].want)
				differ++;
			else if (r->actual == ACT_SKIP)
				skipped++;
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
			      "%zu/%zu as declared", nr_exp - skipped,
			      nr_exp - skipped);
	}
	if (skipped)
		n += snprintf(t->summary + n, sizeof(t->summary) - n,
			      ", %zu skipped as declared", skipped);
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
		printf("boot-detail\tthe host stopped the guest after %ld s; %s:\n",
		       o->timed_out, v->hung ? "a task did not go on" : "its console ends");
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

/*
 * Crash titles, one line per splat as syzbot names them (see the header
 * comment): what happened, " in ", and the function it happened in.
 */

#define SYM_CHARS	"abcdefghijklmnopqrstuvwxyz" \
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_."
#define HEX_CHARS	"0123456789abcdef"

/*
 * The function of the stack frame "func+0x1d/0x40 [module]" at @s into
 * @fn (@size bytes, at least 1), without the compiler's suffix of a
 * clone (".isra.0", ".cold"); returns its length, or 0 when @s is not
 * such a frame ("? func+...", "0x41c5fb", "<TASK>"). A space or a comma
 * may follow the frame.
 */
static size_t frame_func(const char *s, char *fn, size_t size)
{
	size_t n = strspn(s, SYM_CHARS), name = strcspn(s, "."), h;
	const char *p = s + n;

	if (strncmp(p, "+0x", 3))
		return 0;
	p += 3;
	h = strspn(p, HEX_CHARS);
	if (!h || strncmp(p + h, "/0x", 3))
		return 0;
	p += h + 3;
	h = strspn(p, HEX_CHARS);
	if (!h || (p[h] != '\0' && p[h] != ' ' && p[h] != ','))
		return 0;
	if (name > n)
		name = n;
	if (name >= size)
		name = size - 1;
	memcpy(fn, s, name);
	fn[name] = '\0';
	return name;
}

/*
 * The instruction pointer line of a splat's registers: "RIP: 0010:f+0x1/0x2"
 * (x86), "pc : f+0x1/0x2" (arm64) and the like. Returns -1 when @m is
 * none, 0 when it names no function ("RIP: 0010:0x0", a user space
 * "RIP: 0033:0x41c5fb"), else the length of the function put in @fn.
 */
static int ip_func(const char *m, char *fn, size_t size)
{
	static const char * const ip[] = {
		"RIP: ", "EIP: ", "pc : ", "epc : ", "PC is at ",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ip); i++) {
		if (!splat_starts(m, ip[i]))
			continue;
		m += strlen(ip[i]);
		if (strspn(m, HEX_CHARS) == 4 && m[4] == ':')
			m += 5;		/* the code segment */
		return frame_func(m, fn, size) ? 1 : 0;
	}
	return -1;
}

/* Frames of the code that reports a splat or takes its trap (prefixes). */
static const char * const report_frames[] = {
	"dump_stack", "__dump_stack", "show_stack", "show_regs", "__warn",
	"warn_slowpath", "report_bug", "handle_bug", "die", "__die",
	"do_trap", "do_error_trap", "oops_", "page_fault_oops",
	"kernelmode_fixup_or_oops", "do_user_addr_fault", "exc_", "asm_exc_",
	"__do_kernel_fault", "do_page_fault", "do_translation_fault",
	"do_mem_abort", "bug_handler", "brk_handler", "call_break_hook",
	"do_debug_exception", "el1", "panic", "check_panic_on_warn",
	"ubsan_", "__ubsan_", "kasan_", "__kasan_", "__asan_", NULL,
};

/* Frames a hung task waits in, not the caller that waits (substrings). */
static const char * const wait_frames[] = {
	"sched", "switch_to", "wait", "mutex", "rwsem", "down_", "_lock",
	"completion", "sleep", "synchronize", NULL,
};

/* Frames of an RCU stall's report, not the code that stalls (substrings). */
static const char * const stall_frames[] = {
	"rcu", "nmi_", "apic_timer", "timer_interrupt", "tick_",
	"update_process_times", "hrtimer", "irq", NULL,
};

static int frame_skipped(const char *fn, const char * const *also)
{
	size_t i;

	for (i = 0; report_frames[i]; i++)
		if (splat_starts(fn, report_frames[i]))
			return 1;
	for (i = 0; also && also[i]; i++)
		if (strstr(fn, also[i]))
			return 1;
	return 0;
}

/* A printf precision for @n bytes of a title's part: PART_MAX at most. */
static int prec(size_t n)
{
	return n < PART_MAX ? (int)n : PART_MAX;
}

/*
 * @a, @b and @c one after the other into @dst (@size bytes), cut when
 * full; a character cut in two becomes "?" in title_clean().
 */
static void cat3(char *dst, size_t size, const char *a, const char *b,
		 const char *c)
{
	const char *part[3] = { a, b, c };
	size_t n = 0, len, i;

	for (i = 0; i < 3; i++) {
		len = strlen(part[i]);
		if (len > size - 1 - n)
			len = size - 1 - n;
		memmove(dst + n, part[i], len);
		n += len;
	}
	dst[n] = '\0';
}

/*
 * The kind of a splat from its header's text @s: up to where the header
 * goes on with the case at hand (an address, a CPU, a task, a location),
 * at most @size - 1 bytes.
 */
static void cut_kind(char *kind, size_t size, const char *s)
{
	static const char * const sep[] = {
		",", ":", "!", " at ", " in ", " on CPU", " for address", " - ",
	};
	size_t n = strlen(s), i;
	const char *p;

	for (i = 0; i < ARRAY_SIZE(sep); i++) {
		p = strstr(s, sep[i]);
		if (p && (size_t)(p - s) < n)
			n = p - s;
	}
	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(kind, s, n);
	kind[n] = '\0';
}

/* What the header of a splat says, and how to read the rest of it. */
struct splat_head {
	char kind[TITLE_BUF];	/* "kernel BUG", "WARNING", ... */
	char at[TITLE_BUF];	/* the title without a function, or "" */
	char fn[TITLE_BUF];	/* the function the header names, or "" */
	int use_ip;		/* the function is the registers' IP */
	int merge_die;		/* a die() header after it is its own */
	int merge_task;		/* so is the task line of a hung task */
	int kasan;		/* add the access ("Read", "Write") */
	const char * const *skip;	/* more frames the trace skips */
};

/* "kernel BUG at kernel/module/main.c:784!": the file, no line. */
static void bug_at(struct splat_head *h, const char *file)
{
	snprintf(h->at, sizeof(h->at), "kernel BUG at %.*s",
		 prec(strcspn(file, ":! ")), file);
}

/*
 * A WARN(): "WARNING: CPU: 0 PID: 92 at <file>:113 f+0x10c/0x120", "...
 * at f+0x10c/0x120" (no file), or "WARNING: <file>:113 at f+0x10c/0x120,
 * CPU#0: ..." (newer kernels). Returns 0 when @s is none of them.
 */
static int warn_at(struct splat_head *h, const char *s)
{
	const char *at = strstr(s, " at ");

	if (!at || !frame_func(at + 4, h->fn, sizeof(h->fn))) {
		if (!splat_starts(s, "CPU: "))
			return 0;
		if (at) {
			at += 4;
			snprintf(h->at, sizeof(h->at), "WARNING at %.*s",
				 prec(strcspn(at, ": ")), at);
			at = strchr(at, ' ');
			if (at)
				frame_func(at + 1, h->fn, sizeof(h->fn));
		}
	}
	cat3(h->kind, sizeof(h->kind), "WARNING", "", "");
	return 1;
}

/* "UBSAN: shift-out-of-bounds in kernel/foo.c:3:4" */
static void ubsan_at(struct splat_head *h, const char *s)
{
	const char *in = strstr(s, " in ");
	int what = prec(in ? (size_t)(in - s) : strlen(s));

	snprintf(h->kind, sizeof(h->kind), "UBSAN: %.*s", what, s);
	if (in)
		snprintf(h->at, sizeof(h->at), "UBSAN: %.*s in %.*s", what, s,
			 prec(strcspn(in + 4, ": ")), in + 4);
}

/* "BUG: KASAN: slab-out-of-bounds in f+0x1/0x2" */
static void kasan_at(struct splat_head *h, const char *s)
{
	const char *in = strstr(s, " in ");

	snprintf(h->kind, sizeof(h->kind), "KASAN: %.*s",
		 prec(in ? (size_t)(in - s) : strlen(s)), s);
	if (in)
		frame_func(in + 4, h->fn, sizeof(h->fn));
	h->kasan = 1;
}

/* A die() header, "Oops: 0002 [#1]", "Internal error: Oops - BUG: ...". */
static int is_die_header(const char *m)
{
	return splat_die_header(m) || splat_starts(m, "Oops") ||
	       splat_starts(m, "Internal error: ");
}

/* The header @m of a splat, into @h. */
static void read_head(struct splat_head *h, const char *m)
{
	char what[TITLE_BUF], *w;

	memset(h, 0, sizeof(*h));
	h->use_ip = 1;
	switch (splat_hang(m)) {
	case HANG_TASK:
		h->merge_task = 1;
		fallthrough;
	case HANG_BLOCKED:
		cat3(h->kind, sizeof(h->kind), "INFO: task hung", "", "");
		h->use_ip = 0;
		h->skip = wait_frames;
		return;
	case HANG_LOCKUP:
		cat3(h->kind, sizeof(h->kind), "BUG: soft lockup", "", "");
		return;
	case HANG_STALL:
		cat3(h->kind, sizeof(h->kind), "INFO: rcu detected stall", "",
		     "");
		h->skip = stall_frames;
		return;
	case HANG_NONE:
		break;
	}
	if (splat_starts(m, "kernel BUG at ")) {
		cat3(h->kind, sizeof(h->kind), "kernel BUG", "", "");
		bug_at(h, m + strlen("kernel BUG at "));
		h->merge_die = 1;
	} else if (splat_starts(m, "WARNING: ")) {
		if (warn_at(h, m + strlen("WARNING: ")))
			return;
		cut_kind(what, sizeof(what), m + strlen("WARNING: "));
		cat3(h->kind, sizeof(h->kind), "WARNING: ", what, "");
	} else if (splat_starts(m, "UBSAN: ")) {
		ubsan_at(h, m + strlen("UBSAN: "));
	} else if (splat_starts(m, "BUG: KASAN: ")) {
		kasan_at(h, m + strlen("BUG: KASAN: "));
	} else if (splat_starts(m, "BUG: ")) {
		cut_kind(what, sizeof(what), m + strlen("BUG: "));
		cat3(h->kind, sizeof(h->kind), "BUG", *what ? ": " : "", what);
		h->merge_die = 1;
	} else if (splat_starts(m, "Unable to handle kernel NULL pointer")) {
		/* arm64's, as x86 says it */
		cat3(h->kind, sizeof(h->kind), "BUG: kernel NULL pointer dereference",
		     "", "");
		h->merge_die = 1;
	} else if (splat_starts(m, "Unable to handle kernel ")) {
		cut_kind(h->kind, sizeof(h->kind), m);
		h->merge_die = 1;
	} else {
		/* what comes before ": <code> [#<n>]" (arm64's "Oops - BUG") */
		if (splat_starts(m, "Internal error: "))
			m += strlen("Internal error: ");
		snprintf(what, sizeof(what), "%.*s", prec(strcspn(m, ":,")), m);
		w = trim(what);
		if (!strcmp(w, "Oops - BUG"))
			w = "kernel BUG";
		else if (!*w)
			w = "Oops";
		cat3(h->kind, sizeof(h->kind), w, "", "");
	}
}

/* "Read" or "Write" of a KASAN report's "Read of size 8 at addr ..." */
static void kasan_access(struct splat_head *h, const char *m)
{
	size_t n = strlen(h->kind);

	if (splat_starts(m, "Read of size ") ||
	    splat_starts(m, "Write of size ")) {
		snprintf(h->kind + n, sizeof(h->kind) - n, " %.*s",
			 (int)strcspn(m, " "), m);
		h->kasan = 0;
	}
}

/*
 * The title of the splat whose header is console line @i, into @t (@size
 * bytes); returns the line after the splat. The splat goes on to its
 * "---[ end trace", the next splat or panic, or SPLAT_LINES lines; a
 * die() header right after a BUG is part of it.
 */
static size_t splat_title(const struct lines *con, size_t i, char *t,
			  size_t size)
{
	char ip[TITLE_BUF] = "", frame[TITLE_BUF] = "";
	struct splat_head h;
	int ip_seen = -1;
	size_t j, trace = 0;
	const char *m, *fn;

	read_head(&h, msg_start(con->v[i]));
	for (j = i + 1; j < con->nr && j - i <= SPLAT_LINES; j++) {
		m = msg_start(con->v[j]);
		if (strstr(m, "---[ end trace")) {
			j++;
			break;
		}
		if (h.merge_task && !trace && splat_hang(m) == HANG_BLOCKED) {
			h.merge_task = 0;
			continue;
		}
		if (splat_kind(m) != SPLAT_NONE || splat_hang(m) != HANG_NONE) {
			if (!h.merge_die || !is_die_header(m))
				break;
			h.merge_die = 0;
			continue;
		}
		if (h.kasan)
			kasan_access(&h, m);
		if (ip_seen < 0)
			ip_seen = ip_func(m, ip, sizeof(ip));
		if (!trace) {
			if (strstr(m, "Call Trace:") || strstr(m, "Call trace:"))
				trace = j;
		} else if (!*frame && frame_func(m, frame, sizeof(frame)) &&
			   frame_skipped(frame, h.skip)) {
			*frame = '\0';
		}
	}
	fn = *h.fn ? h.fn : h.use_ip && ip_seen > 0 ? ip : frame;
	if (*fn)
		cat3(t, size, h.kind, " in ", fn);
	else
		cat3(t, size, *h.at ? h.at : h.kind, "", "");
	return j;
}

/*
 * "Kernel panic - not syncing: <message>": its first sentence, without a
 * final ".".
 */
static void panic_title(const char *m, char *t, size_t size)
{
	const char *p = m + strlen("Kernel panic - not syncing");
	size_t i, n;

	p += strspn(p, ": ");
	n = strlen(p);
	for (i = 0; i < n; i++) {
		if ((p[i] == '.' || p[i] == '!') && p[i + 1] == ' ') {
			n = i + (p[i] == '!');
			break;
		}
	}
	while (n > 0 && (p[n - 1] == '.' || p[n - 1] == ' '))
		n--;
	snprintf(t, size, "Kernel panic - not syncing%s%.*s", n ? ": " : "",
		 prec(n), p);
}

/*
 * A title as printed: bytes that are not UTF-8 become "?", runs of
 * spaces one space, the offset of a function ("f+0x1d/0x40") goes; at
 * most TITLE_MAX bytes, cut between two characters, never empty.
 */
static char *title_clean(const char *s)
{
	size_t len = strlen(s), i = 0, n = 0, c, h;
	char *t = xrealloc(NULL, len + 1);

	while (i < len) {
		c = utf8_len(s + i, len - i);
		if (!c || (unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			t[n++] = '?';
			i++;
			continue;
		}
		if (s[i] == ' ' && (n == 0 || t[n - 1] == ' ')) {
			i++;
			continue;
		}
		if (n > 0 && strchr(SYM_CHARS, t[n - 1]) &&
		    !strncmp(s + i, "+0x", 3)) {
			h = strspn(s + i + 3, HEX_CHARS);
			if (h && !strncmp(s + i + 3 + h, "/0x", 3) &&
			    strspn(s + i + 6 + h, HEX_CHARS)) {
				i += 6 + h;
				i += strspn(s + i, HEX_CHARS);
				continue;
			}
		}
		memcpy(t + n, s + i, c);
		n += c;
		i += c;
	}
	n = utf8_cut(t, n, TITLE_MAX);
	while (n > 0 && t[n - 1] == ' ')
		n--;
	if (!n)
		t[n++] = '?';	/* not from the kernel's formats */
	t[n] = '\0';
	return t;
}

struct titles {
	char **v;
	size_t nr, cap;
};

/*
 * The title of every splat and of a panic that no splat came before, in
 * console order.
 */
static void find_titles(const struct lines *con, struct titles *tl)
{
	char t[TITLE_BUF];
	size_t i = 0;
	int seen = 0;
	const char *m;
	enum splat k;

	memset(tl, 0, sizeof(*tl));
	while (i < con->nr) {
		m = msg_start(con->v[i]);
		k = splat_kind(m);
		if (k == SPLAT_NONE && splat_hang(m) == HANG_NONE) {
			i++;
			continue;
		}
		if (k == SPLAT_PANIC) {
			i++;
			if (seen)
				continue;
			seen = 1;
			panic_title(m, t, sizeof(t));
		} else {
			seen = 1;
			i = splat_title(con, i, t, sizeof(t));
		}
		grow(&tl->v, &tl->cap, tl->nr, sizeof(*tl->v));
		tl->v[tl->nr++] = title_clean(t);
	}
}

/* One "title" record per distinct title, in order of first appearance. */
static void print_titles(const struct lines *con)
{
	struct name_pos *idx;
	struct titles tl;
	char *first;
	size_t i;

	find_titles(con, &tl);
	idx = xrealloc(NULL, (tl.nr + 1) * sizeof(*idx));
	first = xrealloc(NULL, tl.nr + 1);
	for (i = 0; i < tl.nr; i++) {
		idx[i].name = tl.v[i];
		idx[i].pos = i;
	}
	index_sort(idx, tl.nr);
	for (i = 0; i < tl.nr; i++)
		first[idx[i].pos] = !i || strcmp(idx[i].name, idx[i - 1].name);
	for (i = 0; i < tl.nr; i++)
		if (first[i])
			printf("title\t%s\n", tl.v[i]);
	for (i = 0; i < tl.nr; i++)
		free(tl.v[i]);
	free(tl.v);
	free(first);
	free(idx);
}

int main(int argc, char **argv)
{
	struct tests_verdict tests;
	struct boot_verdict boot;
	struct name_pos *exp_idx;
	struct results res;
	struct expect *exp;
	struct lines con;
	FILE *dmesg = NULL;
	struct opts o;
	size_t nr_exp;

	parse_opts(argc, argv, &o);
	read_lines(&con, "console", o.console);
	if (o.dmesg) {
		dmesg = fopen(o.dmesg, "w");
		if (!dmesg)
			die("%s: %s", o.dmesg, strerror(errno));
	}
	read_results(o.results, &res, dmesg);
	if (dmesg && fclose(dmesg))
		die("%s: %s", o.dmesg, strerror(errno));
	read_expect(o.expect, &exp, &nr_exp, &exp_idx);

	judge_boot(&o, &con, &res, &boot);
	judge_tests(&o, &res, exp, nr_exp, exp_idx, &boot, &tests);
	print_boot(&o, &con, &boot);
	print_titles(&con);
	print_tests(&res, exp, nr_exp, &tests);

	if (fflush(stdout) || ferror(stdout))
		die("cannot write stdout: %s", strerror(errno));
	return boot.ok && tests.ok ? TRIAGE_OK : TRIAGE_FAIL;
}
