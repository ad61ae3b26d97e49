// SPDX-License-Identifier: GPL-2.0
/*
 * report - the run report of bisect-check.
 *
 * Usage: report RUNDIR
 *
 * Reads (all tab separated, one record a line; blank lines and lines
 * starting with "#" are ignored; all three files must exist):
 *	RUNDIR/meta.tsv		key, value
 *	RUNDIR/steps.tsv	index, label, sha ("-": never applied), subject
 *	RUNDIR/cells.tsv	index, stage, status, elapsed_ms ("-": none),
 *				summary ("-": none), log ("-": none)
 *	RUNDIR/stages.tsv	name, needs, what: the stages in pipeline
 *				order, one column each (tools/stages.tsv)
 *	RUNDIR/details/<index>-<stage>.txt	optional lines quoted under a
 *				FAIL, cached-FAIL or acked cell
 *
 * Statuses: ok, FAIL,
 * skip, acked, cached-ok, cached-acked, cached-FAIL, cached-skip (a cached cell's
 * summary names the run it comes from). A stage without a cell is a
 * skip "not run"; when a cell is given twice the last line wins.
 *
 * Writes RUNDIR/report.ktap and RUNDIR/matrix.txt and prints both, the
 * KTAP first, then a blank line, then the matrix.
 *
 * KTAP: the meta lines become "# key: value" header comments, each step
 * a subtest named "<label> <sha:12> [PREP] <subject>" ("[PREP]" only for
 * step 0, unless its subject already starts with it) with one result per
 * stage. A step is "not ok" when one of its cells failed, "ok ... # SKIP"
 * when all of them were skipped, otherwise
 * "ok". The result line of a cell is, by status:
 *
 *	ok		ok N stage # <time> <summary>
 *	acked		ok N stage # <time> acked: <summary>
 *	cached-ok	ok N stage # <time> cached: <summary>
 *	cached-acked	ok N stage # <time> cached: acked: <summary>
 *	FAIL		not ok N stage # <time> <summary>
 *	cached-FAIL	not ok N stage # <time> cached: <summary>
 *	skip		ok N stage # SKIP <summary>
 *	cached-skip	ok N stage # SKIP cached: <summary>
 *	(no cell)	ok N stage # SKIP not run
 *
 * where <time> is elapsed_ms as seconds with one decimal ("4.1s"), left
 * out with the space after it when unknown. The detail lines of a FAIL,
 * cached-FAIL or acked cell (blank ones dropped, 40 at most, then a
 * "... more lines in details/..." line) come right before its result
 * line as "# " diagnostics. "# Totals:" counts stage results: ok, acked and cached-ok
 * pass; FAIL and cached-FAIL fail; skip, cached-skip and missing cells
 * skip.
 *
 * Matrix: one row per step with label, sha (12), subject (40 columns at
 * most) and per stage "<status> <time>", where the status is ok, FAIL,
 * skip, acked, or ok* / FAIL* / skip* for cached results (footnote
 * "* cached"); skips show no time.
 * Then one block per failed cell with its summary, detail lines and
 * log, and last the line "N steps, P passed, F failed, S skipped",
 * which counts steps: failed when a cell failed, skipped when all cells
 * were skipped, passed otherwise.
 *
 * Exit status: 0 no cell failed, 1 a cell failed (cached-FAIL too),
 * 2 usage or I/O error.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_OK	0
#define REPORT_FAIL	1
#define REPORT_ERROR	2

#define MAX_STAGES	16
#define SHA_LEN		12
#define SUBJECT_MAX	40	/* matrix columns of the subject */
#define DETAIL_MAX	40	/* detail lines quoted per cell */
#define ELAPSED_MAX	1000000000000L	/* ms, about 31 years */

enum status {
	ST_MISSING,
	ST_OK,
	ST_ACKED,
	ST_CACHED_OK,
	ST_CACHED_ACKED,
	ST_SKIP,
	ST_CACHED_SKIP,
	ST_FAIL,
	ST_CACHED_FAIL,
	NR_STATUS,
};

#define UTIL_PROG "report"
#define UTIL_ERROR REPORT_ERROR
#include "util.h"

/* The stages, from RUNDIR/stages.tsv (read_stages). */
static const char *stage_name[MAX_STAGES];
static int nr_stages;

static const char * const status_name[NR_STATUS] = {
	[ST_MISSING]	 = "missing",
	[ST_OK]		 = "ok",
	[ST_ACKED]	 = "acked",
	[ST_CACHED_OK]	 = "cached-ok",
	[ST_CACHED_ACKED] = "cached-acked",
	[ST_SKIP]	 = "skip",
	[ST_CACHED_SKIP] = "cached-skip",
	[ST_FAIL]	 = "FAIL",
	[ST_CACHED_FAIL] = "cached-FAIL",
};

/* The status as the matrix shows it. */
static const char * const status_short[NR_STATUS] = {
	[ST_MISSING]	 = "skip",
	[ST_OK]		 = "ok",
	[ST_ACKED]	 = "acked",
	[ST_CACHED_OK]	 = "ok*",
	[ST_CACHED_ACKED] = "acked*",
	[ST_SKIP]	 = "skip",
	[ST_CACHED_SKIP] = "skip*",
	[ST_FAIL]	 = "FAIL",
	[ST_CACHED_FAIL] = "FAIL*",
};

struct cell {
	enum status st;
	long ms;		/* -1: unknown */
	char *summary;		/* "" when none */
	char *log;		/* "" when none */
};

struct step {
	long index;
	size_t line;		/* in steps.tsv */
	char *label;
	char *sha;
	char *subject;
	struct cell cell[MAX_STAGES];
};

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	s = xrealloc(NULL, n + 1);
	va_start(ap, fmt);
	vsnprintf(s, n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* Drop control characters except tab; strip trailing blanks. */
static void clean(char *s)
{
	char *w = s;
	unsigned char c;

	for (; *s; s++) {
		c = *s;
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			continue;
		*w++ = c;
	}
	*w = '\0';
}

static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

static void untab(char *s)
{
	for (; *s; s++)
		if (*s == '\t')
			*s = ' ';
}

/*
 * Read path into l (util.h), each line cleaned. Returns 0, or -1 with
 * errno ENOENT when the file does not exist and missing_ok is set; other
 * errors are fatal.
 */
static int read_lines(struct lines *l, const char *path, int missing_ok)
{
	size_t i;

	if (lines_read(l, path, NULL, missing_ok))
		return -1;
	for (i = 0; i < l->nr; i++)
		clean(l->v[i]);
	return 0;
}

/* Split s at the first max - 1 tabs; returns the number of fields. */
static int split(char *s, char **f, int max)
{
	int n = 0;
	char *tab;

	f[n++] = s;
	while (n < max && (tab = strchr(s, '\t'))) {
		*tab = '\0';
		s = tab + 1;
		f[n++] = s;
	}
	return n;
}

static int skip_line(const char *s)
{
	return s[strspn(s, " \t")] == '\0' || s[0] == '#';
}

static int parse_long(const char *s, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* "-" and "" both mean "none". */
static char *none(char *s)
{
	return strcmp(s, "-") ? s : s + 1;
}

struct run {
	const char *dir;
	struct lines meta;
	struct step *step;
	size_t nr_step;
};

/* By index, then by line, so that of equal indexes the first comes first. */
static int cmp_step(const void *a, const void *b)
{
	const struct step *x = a, *y = b;

	if (x->index != y->index)
		return (x->index > y->index) - (x->index < y->index);
	return (x->line > y->line) - (x->line < y->line);
}

static int cmp_index(const void *key, const void *elem)
{
	const long *index = key;
	const struct step *st = elem;

	return (*index > st->index) - (*index < st->index);
}

/* The step with @index; run->step is sorted by then. */
static struct step *find_step(struct run *run, long index)
{
	return bsearch(&index, run->step, run->nr_step, sizeof(*run->step),
		       cmp_index);
}

static void read_meta(struct run *run)
{
	char *path = xasprintf("%s/meta.tsv", run->dir);
	size_t i;

	read_lines(&run->meta, path, 0);
	for (i = 0; i < run->meta.nr; i++) {
		if (skip_line(run->meta.v[i]))
			continue;
		if (!strchr(run->meta.v[i], '\t'))
			die("%s:%zu: expected \"key<TAB>value\"", path, i + 1);
	}
	free(path);
}

static void read_steps(struct run *run)
{
	char *path = xasprintf("%s/steps.tsv", run->dir);
	size_t i, cap = 0, dup = 0;
	struct lines l;
	struct step *st;
	char *f[4];
	int k;

	read_lines(&l, path, 0);
	for (i = 0; i < l.nr; i++) {
		if (skip_line(l.v[i]))
			continue;
		if (split(l.v[i], f, 4) != 4)
			die("%s:%zu: expected \"index<TAB>label<TAB>sha<TAB>subject\"",
			    path, i + 1);
		if (run->nr_step == cap) {
			cap = cap ? 2 * cap : 64;
			run->step = xrealloc(run->step, cap * sizeof(*run->step));
		}
		st = &run->step[run->nr_step];
		memset(st, 0, sizeof(*st));
		st->line = i + 1;
		if (parse_long(f[0], &st->index))
			die("%s:%zu: bad step index \"%s\"", path, i + 1,
			    show(f[0], strlen(f[0])));
		if (!*f[1] || !*f[2])
			die("%s:%zu: empty label or sha", path, i + 1);
		untab(f[3]);
		rtrim(f[3]);
		st->label = f[1];
		st->sha = f[2];
		st->subject = f[3];
		for (k = 0; k < nr_stages; k++) {
			st->cell[k].st = ST_MISSING;
			st->cell[k].ms = -1;
			st->cell[k].summary = "not run";
			st->cell[k].log = "";
		}
		run->nr_step++;
	}
	if (run->nr_step == 0)
		die("%s: no steps", path);
	qsort(run->step, run->nr_step, sizeof(*run->step), cmp_step);
	/* The first line in the file that repeats an earlier index. */
	for (i = 1; i < run->nr_step; i++)
		if (run->step[i].index == run->step[i - 1].index &&
		    (!dup || run->step[i].line < run->step[dup].line))
			dup = i;
	if (dup)
		die("%s:%zu: duplicate step index %ld (first at line %zu)", path,
		    run->step[dup].line, run->step[dup].index,
		    run->step[dup - 1].line);
	free(path);
}

static int lookup(const char * const *names, int nr, const char *s)
{
	int i;

	for (i = 0; i < nr; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

/* The stage table: one "name<TAB>needs<TAB>what" line per stage. */
static void read_stages(const struct run *run)
{
	char *path = xasprintf("%s/stages.tsv", run->dir);
	struct lines l;
	size_t i;
	char *tab;

	read_lines(&l, path, 0);
	for (i = 0; i < l.nr; i++) {
		if (skip_line(l.v[i]))
			continue;
		tab = strchr(l.v[i], '\t');
		if (!tab || tab == l.v[i])
			die("%s:%zu: expected \"stage<TAB>needs<TAB>what\"", path, i + 1);
		*tab = '\0';
		if (lookup(stage_name, nr_stages, l.v[i]) >= 0)
			die("%s:%zu: stage %s given twice", path, i + 1, l.v[i]);
		if (nr_stages == MAX_STAGES)
			die("%s:%zu: more than %d stages", path, i + 1, MAX_STAGES);
		stage_name[nr_stages++] = l.v[i];
	}
	if (!nr_stages)
		die("%s: no stage", path);
	free(path);
}

static void read_cells(struct run *run)
{
	char *path = xasprintf("%s/cells.tsv", run->dir);
	struct lines l;
	struct step *st;
	struct cell *c;
	int stage, status;
	long index;
	char *f[6];
	size_t i;

	read_lines(&l, path, 0);
	for (i = 0; i < l.nr; i++) {
		if (skip_line(l.v[i]))
			continue;
		if (split(l.v[i], f, 6) != 6)
			die("%s:%zu: expected 6 tab-separated fields", path, i + 1);
		st = parse_long(f[0], &index) ? NULL : find_step(run, index);
		if (!st)
			die("%s:%zu: no step with index \"%s\" in steps.tsv",
			    path, i + 1, show(f[0], strlen(f[0])));
		stage = lookup(stage_name, nr_stages, f[1]);
		if (stage < 0)
			die("%s:%zu: unknown stage \"%s\"", path, i + 1,
			    show(f[1], strlen(f[1])));
		status = lookup(status_name, NR_STATUS, f[2]);
		if (status < 0 || status == ST_MISSING)
			die("%s:%zu: unknown status \"%s\"", path, i + 1,
			    show(f[2], strlen(f[2])));
		c = &st->cell[stage];
		c->st = status;
		c->ms = -1;
		if (strcmp(f[3], "-") && *f[3] && parse_long(f[3], &c->ms))
			die("%s:%zu: bad elapsed_ms \"%s\": expected milliseconds or \"-\"",
			    path, i + 1, show(f[3], strlen(f[3])));
		if (c->ms > ELAPSED_MAX)
			die("%s:%zu: elapsed_ms %ld is out of range 0..%ld",
			    path, i + 1, c->ms, ELAPSED_MAX);
		untab(f[5]);
		rtrim(f[5]);
		c->summary = none(f[4]);
		c->log = none(f[5]);
	}
	free(path);
}

static int is_fail(enum status st)
{
	return st == ST_FAIL || st == ST_CACHED_FAIL;
}

static int is_skip(enum status st)
{
	return st == ST_SKIP || st == ST_CACHED_SKIP || st == ST_MISSING;
}

static int is_cached(enum status st)
{
	return st == ST_CACHED_OK || st == ST_CACHED_FAIL ||
	       st == ST_CACHED_SKIP || st == ST_CACHED_ACKED;
}

static int has_details(enum status st)
{
	return is_fail(st) || st == ST_ACKED || st == ST_CACHED_ACKED;
}

/* "4.1s" into buf, or "" when unknown; read_cells() bounds ms. */
static const char *fmt_time(char *buf, size_t size, long ms)
{
	long t;

	if (ms < 0)
		return "";
	t = ms / 100 + (ms % 100 >= 50);
	snprintf(buf, size, "%ld.%lds", t / 10, t % 10);
	return buf;
}

/* Print the detail lines of a cell, each prefixed with pre. */
static void put_details(FILE *out, const struct run *run,
			const struct step *st, int stage, const char *pre)
{
	char *rel = xasprintf("details/%ld-%s.txt", st->index, stage_name[stage]);
	char *path = xasprintf("%s/%s", run->dir, rel);
	struct lines l;
	size_t i, n = 0;

	if (read_lines(&l, path, 1) == 0) {
		for (i = 0; i < l.nr; i++) {
			untab(l.v[i]);
			rtrim(l.v[i]);
			if (*l.v[i] == '\0')
				continue;
			if (n++ == DETAIL_MAX) {
				fprintf(out, "%s... more lines in %s\n", pre, rel);
				break;
			}
			fprintf(out, "%s%s\n", pre, l.v[i]);
		}
		free(l.v);
		free(l.buf);
	}
	free(path);
	free(rel);
}

static void ktap_cell(FILE *out, const struct run *run, const struct step *st,
		      int stage)
{
	const struct cell *c = &st->cell[stage];
	const char *tag = "", *time;
	char tbuf[32];

	if (c->st == ST_ACKED)
		tag = "acked: ";
	else if (c->st == ST_CACHED_ACKED)
		tag = "cached: acked: ";
	else if (is_cached(c->st))
		tag = "cached: ";
	if (is_skip(c->st)) {
		fprintf(out, "    ok %d %s # SKIP%s%s%s\n", stage + 1,
			stage_name[stage], *tag || *c->summary ? " " : "", tag,
			c->summary);
		return;
	}
	if (has_details(c->st))
		put_details(out, run, st, stage, "    # ");
	time = fmt_time(tbuf, sizeof(tbuf), c->ms);
	fprintf(out, "    %s %d %s", is_fail(c->st) ? "not ok" : "ok",
		stage + 1, stage_name[stage]);
	if (*time || *tag || *c->summary)
		fprintf(out, " #%s%s%s%s%s", *time ? " " : "", time,
			*tag || *c->summary ? " " : "", tag, c->summary);
	fputc('\n', out);
}

static void step_name(FILE *out, const struct step *st)
{
	int mark = st->index == 0 && strncmp(st->subject, "[PREP", 5);

	fprintf(out, "%s %.*s %s%s", st->label,
		(int)utf8_cut(st->sha, strlen(st->sha), SHA_LEN), st->sha,
		mark ? "[PREP] " : "", st->subject);
}

enum verdict {
	V_PASS,
	V_FAIL,
	V_SKIP,
};

static enum verdict step_verdict(const struct step *st)
{
	int k, skipped = 0;

	for (k = 0; k < nr_stages; k++) {
		if (is_fail(st->cell[k].st))
			return V_FAIL;
		skipped += is_skip(st->cell[k].st);
	}
	return skipped == nr_stages ? V_SKIP : V_PASS;
}

static void write_ktap(FILE *out, const struct run *run, int *pass,
		       int *fail, int *skip)
{
	const struct step *st;
	const char *why;
	size_t i;
	char *s;
	int k;

	fputs("KTAP version 1\n", out);
	for (i = 0; i < run->meta.nr; i++) {
		s = run->meta.v[i];
		if (skip_line(s))
			continue;
		s = strchr(s, '\t');
		*s = '\0';
		untab(s + 1);
		rtrim(s + 1);
		fprintf(out, "# %s:%s%s\n", run->meta.v[i], s[1] ? " " : "",
			s + 1);
		*s = '\t';
	}
	fprintf(out, "1..%zu\n", run->nr_step);
	for (i = 0; i < run->nr_step; i++) {
		st = &run->step[i];
		fputs("    KTAP version 1\n    # Subtest: ", out);
		step_name(out, st);
		fprintf(out, "\n    1..%d\n", nr_stages);
		for (k = 0; k < nr_stages; k++) {
			ktap_cell(out, run, st, k);
			if (is_fail(st->cell[k].st))
				(*fail)++;
			else if (is_skip(st->cell[k].st))
				(*skip)++;
			else
				(*pass)++;
		}
		switch (step_verdict(st)) {
		case V_FAIL:
			fprintf(out, "not ok %zu ", i + 1);
			step_name(out, st);
			fputc('\n', out);
			break;
		case V_SKIP:
			why = "not run";
			for (k = 0; k < nr_stages; k++) {
				if (*st->cell[k].summary) {
					why = st->cell[k].summary;
					break;
				}
			}
			fprintf(out, "ok %zu ", i + 1);
			step_name(out, st);
			fprintf(out, " # SKIP %s\n", why);
			break;
		default:
			fprintf(out, "ok %zu ", i + 1);
			step_name(out, st);
			fputc('\n', out);
		}
	}
	fprintf(out, "# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
		*pass, *fail, *skip);
}

/* Display width of UTF-8 text: bytes that do not continue a character. */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* A copy of s cut to max columns, "..." marking the cut. */
static char *shorten(const char *s, size_t max)
{
	size_t w = 0, n;

	if (width(s) <= max)
		return xasprintf("%s", s);
	for (n = 0; s[n]; n++) {
		if (((unsigned char)s[n] & 0xc0) == 0x80)
			continue;
		if (w++ == max - 3)
			break;
	}
	return xasprintf("%.*s...", (int)n, s);
}

#define MAX_COLS	(3 + MAX_STAGES)

static void write_matrix(FILE *out, const struct run *run)
{
	static const char * const head[3] = { "step", "commit", "subject" };
	size_t i, wid[MAX_COLS], nr_pass = 0, nr_fail = 0, nr_skip = 0;
	const int nr_cols = 3 + nr_stages;
	char ***row, tbuf[32], *s;
	const struct step *st;
	const struct cell *c;
	int k, cached = 0;

	row = xrealloc(NULL, run->nr_step * sizeof(*row));
	for (k = 0; k < nr_cols; k++)
		wid[k] = strlen(k < 3 ? head[k] : stage_name[k - 3]);
	for (i = 0; i < run->nr_step; i++) {
		st = &run->step[i];
		row[i] = xrealloc(NULL, nr_cols * sizeof(**row));
		row[i][0] = xasprintf("%s", st->label);
		row[i][1] = xasprintf("%.*s",
				      (int)utf8_cut(st->sha, strlen(st->sha),
						    SHA_LEN), st->sha);
		row[i][2] = shorten(st->subject, SUBJECT_MAX);
		for (k = 0; k < nr_stages; k++) {
			c = &st->cell[k];
			fmt_time(tbuf, sizeof(tbuf), c->ms);
			if (is_skip(c->st) || c->ms < 0)
				row[i][3 + k] = xasprintf("%s", status_short[c->st]);
			else
				row[i][3 + k] = xasprintf("%s %s",
							  status_short[c->st], tbuf);
			cached |= is_cached(c->st);
		}
		for (k = 0; k < nr_cols; k++)
			if (width(row[i][k]) > wid[k])
				wid[k] = width(row[i][k]);
	}

	for (k = 0; k < nr_cols; k++) {
		if (k + 1 < nr_cols)
			fprintf(out, "%-*s  ", (int)wid[k],
				k < 3 ? head[k] : stage_name[k - 3]);
		else
			fprintf(out, "%s\n", stage_name[k - 3]);
	}
	for (i = 0; i < run->nr_step; i++) {
		for (k = 0; k < nr_cols; k++) {
			s = row[i][k];
			if (k + 1 < nr_cols)
				fprintf(out, "%s%*s  ", s,
					(int)(wid[k] - width(s)), "");
			else
				fprintf(out, "%s\n", s);
			free(s);
		}
		free(row[i]);
	}
	free(row);
	if (cached)
		fputs("* cached: result reused from an earlier run\n", out);

	for (i = 0; i < run->nr_step; i++) {
		st = &run->step[i];
		for (k = 0; k < nr_stages; k++) {
			c = &st->cell[k];
			if (!is_fail(c->st))
				continue;
			fprintf(out, "\nstep %s %s: %s%s%s\n", st->label,
				stage_name[k], status_short[c->st],
				*c->summary ? " " : "", c->summary);
			put_details(out, run, st, k, "    ");
			if (*c->log)
				fprintf(out, "    log: %s\n", c->log);
		}
		switch (step_verdict(st)) {
		case V_FAIL:
			nr_fail++;
			break;
		case V_SKIP:
			nr_skip++;
			break;
		default:
			nr_pass++;
		}
	}
	fprintf(out, "\n%zu steps, %zu passed, %zu failed, %zu skipped\n",
		run->nr_step, nr_pass, nr_fail, nr_skip);
}

static void write_file(const char *dir, const char *name, const char *buf,
		       size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f;

	f = fopen(tmp, "w");
	if (!f)
		die("cannot create %s: %s", tmp, strerror(errno));
	if (fwrite(buf, 1, len, f) != len || fclose(f))
		die("cannot write %s: %s", tmp, strerror(errno));
	if (rename(tmp, path))
		die("cannot rename %s to %s: %s", tmp, path, strerror(errno));
	free(tmp);
	free(path);
}

int main(int argc, char **argv)
{
	struct run run = { .nr_step = 0 };
	char *ktap = NULL, *matrix = NULL;
	size_t ktap_len = 0, matrix_len = 0;
	int pass = 0, fail = 0, skip = 0;
	FILE *out;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: %s RUNDIR\n", prog);
		return REPORT_ERROR;
	}
	run.dir = argv[1];
	read_stages(&run);
	read_meta(&run);
	read_steps(&run);
	read_cells(&run);

	out = open_memstream(&ktap, &ktap_len);
	if (!out)
		die("out of memory");
	write_ktap(out, &run, &pass, &fail, &skip);
	if (fclose(out))
		die("out of memory");
	out = open_memstream(&matrix, &matrix_len);
	if (!out)
		die("out of memory");
	write_matrix(out, &run);
	if (fclose(out))
		die("out of memory");

	write_file(run.dir, "report.ktap", ktap, ktap_len);
	write_file(run.dir, "matrix.txt", matrix, matrix_len);
	fwrite(ktap, 1, ktap_len, stdout);
	putchar('\n');
	fwrite(matrix, 1, matrix_len, stdout);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write stdout: %s", strerror(errno));
	return fail ? REPORT_FAIL : REPORT_OK;
}
