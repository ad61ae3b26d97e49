// SPDX-License-Identifier: GPL-2.0
/*
 * report - the run report of bisect-check.
 *
 * Usage: report RUNDIR
 *        report --abi RUNDIR
 *        report --verdict TARGET RUNDIR
 *
 * With --verdict it writes nothing and prints the verdict on what of the
 * run concerns TARGET so far: "ok N" or "FAIL F N", N the cells recorded
 * of every step's step-scope stages and of TARGET, F those that failed
 * (as the report counts a failure: FAIL or flaky); exit 0 either way
 * (bisect-check's first verdict, before the other targets are done).
 *
 * With --abi it writes nothing and prints, for the sender to paste into
 * the cover letter (make send ABI=1), what each series step (every step
 * but 0) does to the exported symbols by its abi cells (the stage named
 * "abi", of scope target) and their details, "CHANGE SYMBOL: BEFORE ->
 * AFTER (VERDICT)" a line as tools/stages/abi writes them (no details:
 * no change). A heading names the targets ("... agree" when every step's
 * targets do), then per step its label and subject and, below, its
 * changes, by kind (-N removed, +N added, N changed, N moved), each
 * export with its type, namespace and object; one line per group of
 * targets that agree when they differ. Lines wrap at 72 columns between
 * exports. It reads stages.tsv, targets.tsv, steps.tsv and cells.tsv as
 * below. Exit status: 0 printed; 1 an abi cell of a series step did not
 * pass (failed, skipped or not run: each is named on stderr, nothing is
 * printed); 2 usage or input error (FILE:LINE).
 *
 * Reads (all tab separated, one record a line; blank lines and lines
 * starting with "#" are ignored; all five files must exist):
 *	RUNDIR/meta.tsv		key, value
 *	RUNDIR/stages.tsv	name, needs, scope, what: the stages in
 *				pipeline order (tools/stages.tsv); scope is
 *				"step" (one cell per step) or "target" (one
 *				cell per step and target)
 *	RUNDIR/targets.tsv	name, arch, compiler, boot ("yes" or "no"):
 *				the targets (arch and compiler builds) in the
 *				order to show, at least one, no name twice; a
 *				name is letters, digits, ".", "_", "+" and "-"
 *				and does not start with "-"
 *	RUNDIR/steps.tsv	index, label, sha ("-": never applied), subject
 *	RUNDIR/cells.tsv	index, target, stage, status, elapsed_ms ("-":
 *				none), summary ("-": none), log ("-": none),
 *				cached-from ("-": made in this run, else
 *				"RUN/CELL", the run and cell id it was made
 *				in); target is "-" for a stage of scope step
 *				and a name from targets.tsv for one of scope
 *				target. tools/cell.sh writes it from the
 *				cells' records.
 *	RUNDIR/details/<cell id>.txt	optional lines quoted under a failed
 *				or acked cell. A cell's id (cell_id(), as in
 *				tools/cell.sh) is "<index>-<stage>" for scope
 *				step, "<index>-<target>-<stage>" for scope
 *				target; "<index>-<target>" names a step's
 *				files on a target, e.g. its boot dir
 *	RUNDIR/boot/<index>-<target>/triage.tsv	optional: what triage
 *				said of the boot of that step on that target;
 *				its "title<TAB>TITLE" lines are the boot's
 *				crash titles. Read for each cell of the stage
 *				named "boot", when it has scope target and the
 *				cell is no skip (the guest booted); a missing
 *				file has no titles. Its other lines are not
 *				read, and a title line whose title is empty or
 *				is followed by another field is ignored; a
 *				title is cut to 120 bytes, between two UTF-8
 *				characters.
 *
 * Statuses: ok, FAIL, skip, acked; with a cached-from, the cell is shown
 * as cached-ok, cached-acked, cached-FAIL or cached-skip, its summary
 * after "from run RUN: ", the run it was made in. A
 * step has one cell per step-scope stage, then per target (in the order
 * of targets.tsv) one per target-scope stage, each in stages.tsv order.
 * A cell that cells.tsv does not give is a skip "not run"; when a cell
 * is given twice the last line wins.
 *
 * Writes RUNDIR/report.ktap and RUNDIR/matrix.txt and prints both, the
 * KTAP first, then a blank line, then the matrix. For a series received
 * (meta key "received": taken in by --mbox or --range), it first writes
 * RUNDIR/reply.txt and prints it, then a blank line: the lines a
 * maintainer replies with (see Reply).
 *
 * KTAP: the meta lines become "# key: value" header comments, each step
 * a subtest named "<label> <sha:12> [PREP] <subject>" ("[PREP]" only for
 * step 0, unless its subject already starts with it) with one result per
 * step-scope stage, then one subtest per target, named by the target,
 * with one result per target-scope stage (no target subtests when no
 * stage has scope target). Each level is indented 4 spaces more:
 *
 *	    KTAP version 1
 *	    # Subtest: 2/3 9f8e7d6c5b4a samples/hw_breakpoint: Drop ...
 *	    1..3
 *	    ok 1 apply # 0.2s clean
 *	    ok 2 checkpatch # 2.1s clean
 *	        KTAP version 1
 *	        # Subtest: x86_64-gcc
 *	        1..3
 *	        ok 1 build # 45.2s bzImage and 3 modules
 *	        ok 2 boot # 4.4s ok (tcg)
 *	        not ok 3 tests # 0.0s 1 of 7 differ
 *	    not ok 3 x86_64-gcc
 *	not ok 3 2/3 9f8e7d6c5b4a samples/hw_breakpoint: Drop ...
 *
 * A step or a target is "not ok" when one of its cells failed, "ok ... #
 * SKIP <the first summary of its cells>" when all of them were skipped,
 * otherwise "ok". The result line of a cell is, by status:
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
 * line as "# " diagnostics, at its indentation; after them, a boot cell
 * gives each of its crash titles as a "# crash: TITLE" diagnostic, in
 * the order of its triage.tsv. "# Totals:" counts the
 * cells' results: ok, acked and cached-ok pass; FAIL and cached-FAIL
 * fail; skip, cached-skip and missing cells skip.
 *
 * Matrix: one row per step and target with label, sha (12), subject (40
 * columns at most), per step-scope stage "<status> <time>", the target
 * and per target-scope stage "<status> <time>", where the status is ok,
 * FAIL, skip, acked, or ok* / FAIL* / skip* for cached results (footnote
 * "* cached"); skips show no time. The rows of a step after its first
 * leave label, sha, subject and the step-scope cells blank. Without a
 * stage of scope target: one row per step and no target column.
 * Then one block per failed cell, "step <label> <stage>: ..." or, for
 * a target-scope stage, "step <label> <target> <stage>: ...", with its
 * summary, detail lines and log. Then, when a boot cell has a crash
 * title, the block "crashes:" with one line per distinct title, in order
 * of first appearance (step, then target, then triage.tsv order):
 *
 *	  TITLE: introduced by <step>, still at <step> (<targets>)
 *	  TITLE: at <step> only (<targets>)
 *	  TITLE: introduced by <step>, gone at <step> (<targets>)
 *
 * "introduced by" names the first step with the title; "still at" the
 * last step that booted on a target whose last boot still has the title
 * (the latest of those targets'); otherwise, on every target the next
 * step that booted after its last one with the title has it gone: "gone
 * at" names the latest of those steps, "at <step> only" says the title
 * was at one step only. <targets> are the targets with the title, in
 * targets.tsv order, joined by ", ". Last comes the line "N steps, P
 * passed, F failed, S skipped", which counts steps: failed when a cell
 * failed, skipped when all cells were skipped, passed otherwise.
 *
 * Reply: when a cell failed,
 *
 *	bisect-check of <name>: F of N steps failed
 *	first failing commit: <label> <subject>
 *	cell: step <label>[, target <target>], stage <stage>: <status> <summary>
 *	  <detail line>
 *	also failing: <label> [<target> ]<stage>, ...; C cell(s) at later steps
 *	base: [<debian>, commit ]<base>
 *
 * where <name> is meta "cover", else "received"; the first failing
 * commit is the first step with a failed cell ("the base (step 0: ...),
 * before any patch" for step 0), its cell the first failed one in matrix
 * order; the detail lines are its details' first REPLY_LINES non-blank
 * lines that are not "next:" advice, then "  (M more lines in the
 * report)"; the "also failing" line names the step's other failed cells
 * and counts those of later steps, and is left out when there are none.
 * When no cell failed, one line:
 *
 *	bisect-check of <name>: all N steps (the base and P patch(es)) passed
 *		on <targets>; base: ...
 *	bisect-check of <name>: no step failed (A passed, S skipped)
 *		on <targets>; base: ...
 *
 * (each on one line), the second when a step was skipped; "(the base and
 * ...)" only with a step 0, " on <targets>" (joined by ", ") only with a
 * target-scope stage.
 *
 * Exit status: 0 no cell failed, 1 a cell failed (cached-FAIL too),
 * 2 usage or I/O error, or an input error (its message names FILE:LINE).
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
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
#define CELL_LEN	32	/* bytes of a matrix cell, "FAIL* 1000000000.0s" */
#define TITLE_MAX	120	/* bytes of a crash title */
#define REPLY_LINES	6	/* detail lines in the reply */
#define TARGET_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-"
#define TARGET_RULE	"expected letters, digits, \".\", \"_\", \"+\" and \"-\", not \"-\" first"

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
	ST_FLAKY,		/* two runs disagreed; never from the cache */
	NR_STATUS,
};

enum scope {
	SCOPE_STEP,		/* one cell per step */
	SCOPE_TARGET,		/* one cell per step and target */
	NR_SCOPE,
};

#define UTIL_PROG "report"
#define UTIL_ERROR REPORT_ERROR
#include "util.h"

/* The stages, from RUNDIR/stages.tsv (read_stages). */
static const char *stage_name[MAX_STAGES];
static enum scope stage_scope[MAX_STAGES];
static int stage_pos[MAX_STAGES];	/* among the stages of its scope */
static int nr_stages;
/* The stages of each scope, in table order: indexes of stage_name[]. */
static int step_stage[MAX_STAGES], nr_step_stages;
static int target_stage[MAX_STAGES], nr_target_stages;

static const char * const scope_name[NR_SCOPE] = {
	[SCOPE_STEP]	= "step",
	[SCOPE_TARGET]	= "target",
};

/* Each status: its name in cells.tsv and KTAP, and how the matrix shows it. */
static const struct status_text {
	const char *name, *shown;
} status_text[NR_STATUS] = {
	[ST_MISSING]	  = { "missing",	"skip" },
	[ST_OK]		  = { "ok",		"ok" },
	[ST_ACKED]	  = { "acked",		"acked" },
	[ST_CACHED_OK]	  = { "cached-ok",	"ok*" },
	[ST_CACHED_ACKED] = { "cached-acked",	"acked*" },
	[ST_SKIP]	  = { "skip",		"skip" },
	[ST_CACHED_SKIP]  = { "cached-skip",	"skip*" },
	[ST_FAIL]	  = { "FAIL",		"FAIL" },
	[ST_CACHED_FAIL]  = { "cached-FAIL",	"FAIL*" },
	[ST_FLAKY]	  = { "flaky",		"flaky" },
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
	/*
	 * run->per_step cells: the step-scope stages', then those of each
	 * target in turn (cell_of).
	 */
	struct cell *cell;
};

/* A target; its arch, compiler and boot are checked, not shown. */
struct target {
	size_t line;		/* in targets.tsv */
	char *name;
};

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

/*
 * The index of the next row of table @path (lines @l) from line @i on,
 * blank lines and comments passed over, its @n fields in @f; l->nr when
 * there is none. Dies on a row of another number of fields, saying it
 * expected @shape.
 */
static size_t next_row(const struct lines *l, size_t i, char **f, int n,
		       const char *path, const char *shape)
{
	for (; i < l->nr; i++) {
		if (skip_line(l->v[i]))
			continue;
		if (split(l->v[i], f, n) != n)
			die("%s:%zu: expected %s", path, i + 1, shape);
		break;
	}
	return i;
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

/* A crash title of a boot cell. */
struct crash {
	char *title;
	size_t step;		/* in run->step */
	size_t target;		/* in run->target */
};

/* A line of the matrix's "crashes:" block. */
struct crash_line {
	size_t first;		/* the title's first crash, in run->crash */
	char *text;
};

struct run {
	const char *dir;
	struct lines meta;
	struct step *step;
	size_t nr_step;
	struct target *target;	/* in targets.tsv order */
	struct target **by_name;	/* the same, sorted by name */
	size_t nr_target;
	size_t per_step;	/* cells per step */
	struct crash *crash;	/* by step, target and line (read_crashes) */
	size_t nr_crash;
	size_t *crash_at;	/* where a boot cell's crashes start, or NULL */
	struct crash_line *crash_line;	/* by first appearance */
	size_t nr_crash_line;
};

/* The cells of target @t of step @st: one per target-scope stage. */
static struct cell *target_cells(const struct step *st, size_t t)
{
	return st->cell + nr_step_stages + t * nr_target_stages;
}

/* The cell of stage @k of step @st, of target @t if @k has scope target. */
static struct cell *cell_of(const struct step *st, int k, size_t t)
{
	if (stage_scope[k] == SCOPE_STEP)
		return &st->cell[stage_pos[k]];
	return &target_cells(st, t)[stage_pos[k]];
}

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

/* By name, then by line, so that of equal names the first comes first. */
static int cmp_target(const void *a, const void *b)
{
	const struct target *x = *(struct target * const *)a;
	const struct target *y = *(struct target * const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

static int cmp_target_name(const void *key, const void *elem)
{
	const struct target *t = *(struct target * const *)elem;

	return strcmp(key, t->name);
}

/* The target named @name, or NULL; run->by_name is sorted by then. */
static struct target *find_target(const struct run *run, const char *name)
{
	struct target **t;

	t = bsearch(name, run->by_name, run->nr_target, sizeof(*run->by_name),
		    cmp_target_name);
	return t ? *t : NULL;
}

static void read_meta(struct run *run)
{
	char *path = xasprintf("%s/meta.tsv", run->dir);
	char *value;
	size_t i;

	read_lines(&run->meta, path, 0);
	for (i = 0; i < run->meta.nr; i++) {
		if (skip_line(run->meta.v[i]))
			continue;
		value = strchr(run->meta.v[i], '\t');
		if (!value)
			die("%s:%zu: expected \"key<TAB>value\"", path, i + 1);
		untab(value + 1);
		rtrim(value + 1);
	}
	free(path);
}

/* The value of the first meta line with key @key, or NULL. */
static const char *meta_get(const struct run *run, const char *key)
{
	size_t i, n = strlen(key);
	const char *s;

	for (i = 0; i < run->meta.nr; i++) {
		s = run->meta.v[i];
		if (!skip_line(s) && !strncmp(s, key, n) && s[n] == '\t')
			return s + n + 1;
	}
	return NULL;
}

/* Every cell of every step, each a skip "not run" until read_cells(). */
static void alloc_cells(struct run *run)
{
	struct cell *cells, *c;
	size_t i, n;

	run->per_step = nr_step_stages + run->nr_target * nr_target_stages;
	if (run->per_step > SIZE_MAX / sizeof(*cells) / run->nr_step)
		die("out of memory");
	n = run->nr_step * run->per_step;
	cells = xrealloc(NULL, n * sizeof(*cells));
	for (i = 0; i < n; i++) {
		c = &cells[i];
		c->st = ST_MISSING;
		c->ms = -1;
		c->summary = "not run";
		c->log = "";
	}
	for (i = 0; i < run->nr_step; i++)
		run->step[i].cell = cells + i * run->per_step;
}

static void read_steps(struct run *run)
{
	char *path = xasprintf("%s/steps.tsv", run->dir);
	size_t i, cap = 0, dup = 0;
	struct lines l;
	struct step *st;
	char *f[4];

	read_lines(&l, path, 0);
	for (i = 0; (i = next_row(&l, i, f, 4, path,
				  "\"index<TAB>label<TAB>sha<TAB>subject\"")) < l.nr; i++) {
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
	alloc_cells(run);
}

/* The targets: one "name<TAB>arch<TAB>compiler<TAB>boot" line each. */
static void read_targets(struct run *run)
{
	char *path = xasprintf("%s/targets.tsv", run->dir);
	size_t i, cap = 0, dup = 0;
	struct target **by_name;
	struct target *t;
	struct lines l;
	char *f[4];

	read_lines(&l, path, 0);
	for (i = 0; (i = next_row(&l, i, f, 4, path,
				  "\"name<TAB>arch<TAB>compiler<TAB>boot\"")) < l.nr; i++) {
		if (!*f[0] || f[0][strspn(f[0], TARGET_CHARS)] || *f[0] == '-')
			die("%s:%zu: bad target name \"%s\": %s", path, i + 1,
			    show(f[0], strlen(f[0])), TARGET_RULE);
		if (!*f[1] || !*f[2])
			die("%s:%zu: target %s: empty arch or compiler", path,
			    i + 1, show(f[0], strlen(f[0])));
		untab(f[3]);
		rtrim(f[3]);
		if (strcmp(f[3], "yes") && strcmp(f[3], "no"))
			die("%s:%zu: target %s: boot is \"%s\", expected \"yes\" or \"no\"",
			    path, i + 1, show(f[0], strlen(f[0])),
			    show(f[3], strlen(f[3])));
		if (run->nr_target == cap) {
			cap = cap ? 2 * cap : 8;
			run->target = xrealloc(run->target,
					       cap * sizeof(*run->target));
		}
		t = &run->target[run->nr_target++];
		t->line = i + 1;
		t->name = f[0];
	}
	if (!run->nr_target)
		die("%s: no targets", path);
	by_name = xrealloc(NULL, run->nr_target * sizeof(*by_name));
	for (i = 0; i < run->nr_target; i++)
		by_name[i] = &run->target[i];
	qsort(by_name, run->nr_target, sizeof(*by_name), cmp_target);
	/* The first line in the file that repeats an earlier name. */
	for (i = 1; i < run->nr_target; i++)
		if (!strcmp(by_name[i]->name, by_name[i - 1]->name) &&
		    (!dup || by_name[i]->line < by_name[dup]->line))
			dup = i;
	if (dup)
		die("%s:%zu: duplicate target %s (first at line %zu)", path,
		    by_name[dup]->line, show(by_name[dup]->name,
					     strlen(by_name[dup]->name)),
		    by_name[dup - 1]->line);
	run->by_name = by_name;
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

/* The status named @s (status_text's name), -1 when none is. */
static int status_of(const char *s)
{
	int i;

	for (i = 0; i < NR_STATUS; i++)
		if (!strcmp(status_text[i].name, s))
			return i;
	return -1;
}

/* The stage table: one "name<TAB>needs<TAB>scope<TAB>what" line per stage. */
#define STAGES_SHAPE "\"stage<TAB>needs<TAB>scope<TAB>what\""
static void read_stages(const struct run *run)
{
	char *path = xasprintf("%s/stages.tsv", run->dir);
	struct lines l;
	int scope;
	size_t i;
	char *f[4];

	read_lines(&l, path, 0);
	for (i = 0; (i = next_row(&l, i, f, 4, path, STAGES_SHAPE)) < l.nr; i++) {
		if (!*f[0])
			die("%s:%zu: expected %s", path, i + 1, STAGES_SHAPE);
		if (lookup(stage_name, nr_stages, f[0]) >= 0)
			die("%s:%zu: stage %s given twice", path, i + 1,
			    show(f[0], strlen(f[0])));
		scope = lookup(scope_name, NR_SCOPE, f[2]);
		if (scope < 0)
			die("%s:%zu: stage %s: scope \"%s\" is neither \"step\" nor \"target\"",
			    path, i + 1, show(f[0], strlen(f[0])),
			    show(f[2], strlen(f[2])));
		if (nr_stages == MAX_STAGES)
			die("%s:%zu: more than %d stages", path, i + 1, MAX_STAGES);
		stage_name[nr_stages] = f[0];
		stage_scope[nr_stages] = scope;
		if (scope == SCOPE_STEP) {
			stage_pos[nr_stages] = nr_step_stages;
			step_stage[nr_step_stages++] = nr_stages;
		} else {
			stage_pos[nr_stages] = nr_target_stages;
			target_stage[nr_target_stages++] = nr_stages;
		}
		nr_stages++;
	}
	if (!nr_stages)
		die("%s: no stage", path);
	free(path);
}

static int is_cached(enum status st)
{
	return st == ST_CACHED_OK || st == ST_CACHED_FAIL ||
	       st == ST_CACHED_SKIP || st == ST_CACHED_ACKED;
}

/* The status @st (ok, acked, skip or FAIL) of a cell from the cache. */
static enum status cached_status(enum status st)
{
	switch (st) {
	case ST_OK:
		return ST_CACHED_OK;
	case ST_ACKED:
		return ST_CACHED_ACKED;
	case ST_SKIP:
		return ST_CACHED_SKIP;
	default:
		return ST_CACHED_FAIL;
	}
}

static void read_cells(struct run *run)
{
	char *path = xasprintf("%s/cells.tsv", run->dir);
	struct target *tg;
	struct lines l;
	struct step *st;
	struct cell *c;
	int stage, status;
	long index;
	char *f[8], *from;
	size_t i;

	read_lines(&l, path, 0);
	for (i = 0; (i = next_row(&l, i, f, 8, path, "8 tab-separated fields")) < l.nr; i++) {
		st = parse_long(f[0], &index) ? NULL : find_step(run, index);
		if (!st)
			die("%s:%zu: no step with index \"%s\" in steps.tsv",
			    path, i + 1, show(f[0], strlen(f[0])));
		tg = strcmp(f[1], "-") ? find_target(run, f[1]) : NULL;
		if (strcmp(f[1], "-") && !tg)
			die("%s:%zu: unknown target \"%s\": not in targets.tsv",
			    path, i + 1, show(f[1], strlen(f[1])));
		stage = lookup(stage_name, nr_stages, f[2]);
		if (stage < 0)
			die("%s:%zu: unknown stage \"%s\"", path, i + 1,
			    show(f[2], strlen(f[2])));
		if (stage_scope[stage] == SCOPE_TARGET && !tg)
			die("%s:%zu: stage %s has scope target: expected a target, not \"-\"",
			    path, i + 1, show(f[2], strlen(f[2])));
		if (stage_scope[stage] == SCOPE_STEP && tg)
			die("%s:%zu: stage %s has scope step: expected target \"-\", not \"%s\"",
			    path, i + 1, show(f[2], strlen(f[2])),
			    show(f[1], strlen(f[1])));
		status = status_of(f[3]);
		if (status < 0 || status == ST_MISSING || is_cached(status))
			die("%s:%zu: unknown status \"%s\": %s", path, i + 1,
			    show(f[3], strlen(f[3])), "expected ok, acked, FAIL, skip or flaky");
		untab(f[7]);
		rtrim(f[7]);
		from = NULL;
		if (strcmp(f[7], "-")) {
			from = strchr(f[7], '/');
			if (from == f[7] || !from || !from[1] || strchr(from + 1, '/'))
				die("%s:%zu: bad cached-from \"%s\": expected RUN/CELL or \"-\"",
				    path, i + 1, show(f[7], strlen(f[7])));
			if (status == ST_FLAKY)
				die("%s:%zu: %s", path, i + 1,
				    "a flaky cell from the cache: a flaky result is never stored");
			status = cached_status(status);
		}
		c = cell_of(st, stage, tg ? (size_t)(tg - run->target) : 0);
		c->st = status;
		c->ms = -1;
		if (strcmp(f[4], "-") && *f[4] && parse_long(f[4], &c->ms))
			die("%s:%zu: bad elapsed_ms \"%s\": expected milliseconds or \"-\"",
			    path, i + 1, show(f[4], strlen(f[4])));
		if (c->ms > ELAPSED_MAX)
			die("%s:%zu: elapsed_ms %ld is out of range 0..%ld",
			    path, i + 1, c->ms, ELAPSED_MAX);
		c->summary = none(f[5]);
		c->log = none(f[6]);
		if (from) {
			/* The run it comes from, before its summary. */
			*from = '\0';
			c->summary = xasprintf("from run %s: %s", f[7], c->summary);
		}
	}
	free(path);
}

static int is_fail(enum status st)
{
	/* Flaky: not the code's verdict, but no pass either. */
	return st == ST_FAIL || st == ST_CACHED_FAIL || st == ST_FLAKY;
}

static int is_skip(enum status st)
{
	return st == ST_SKIP || st == ST_CACHED_SKIP || st == ST_MISSING;
}

static int has_details(enum status st)
{
	return is_fail(st) || st == ST_ACKED || st == ST_CACHED_ACKED;
}

enum verdict {
	V_PASS,
	V_FAIL,
	V_SKIP,
	NR_VERDICT,
};

static enum verdict cell_verdict(enum status st)
{
	return is_fail(st) ? V_FAIL : is_skip(st) ? V_SKIP : V_PASS;
}

/*
 * The verdict on @n cells (a step's, a target's): failed when one
 * failed, skipped when all were skipped, passed otherwise.
 */
static enum verdict verdict(const struct cell *c, size_t n)
{
	size_t i, skipped = 0;

	for (i = 0; i < n; i++) {
		if (is_fail(c[i].st))
			return V_FAIL;
		skipped += is_skip(c[i].st);
	}
	return skipped == n ? V_SKIP : V_PASS;
}

/*
 * Crash titles (triage's "title" records) of the boot cells: read per
 * cell, then grouped by title across steps and targets.
 */

/* The boot stage, when it has scope target; else -1. */
static int boot_stage(void)
{
	int k = lookup(stage_name, nr_stages, "boot");

	return k >= 0 && stage_scope[k] == SCOPE_TARGET ? k : -1;
}

/* Did the boot cell (stage @k) of step @st on target @t boot? */
static int booted(const struct step *st, int k, size_t t)
{
	return !is_skip(cell_of(st, k, t)->st);
}

static void add_crash(struct run *run, size_t *cap, const char *title,
		      size_t i, size_t t)
{
	struct crash *c;

	if (run->nr_crash == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		run->crash = xrealloc(run->crash, *cap * sizeof(*run->crash));
	}
	c = &run->crash[run->nr_crash++];
	c->title = xasprintf("%.*s",
			     (int)utf8_cut(title, strlen(title), TITLE_MAX), title);
	c->step = i;
	c->target = t;
}

/*
 * The id of the cell of stage @k (-1: none, the prefix of a step's files
 * on a target) of step @st on target @t (ignored for a step-scope stage):
 * "<index>-<stage>", "<index>-<target>-<stage>" or "<index>-<target>",
 * the rule tools/cell.sh's cell_id_to() writes in bash. Allocated.
 */
static char *cell_id(const struct run *run, const struct step *st, int k,
		     size_t t)
{
	if (k >= 0 && stage_scope[k] == SCOPE_STEP)
		return xasprintf("%ld-%s", st->index, stage_name[k]);
	if (k < 0)
		return xasprintf("%ld-%s", st->index, run->target[t].name);
	return xasprintf("%ld-%s-%s", st->index, run->target[t].name,
			 stage_name[k]);
}

/* The "title" records of RUNDIR/boot/<index>-<target>/triage.tsv. */
static void read_triage(struct run *run, size_t *cap, size_t i, size_t t)
{
	const struct step *st = &run->step[i];
	char *path, *title, *id;
	struct lines l;
	size_t n;

	id = cell_id(run, st, -1, t);
	path = xasprintf("%s/boot/%s/triage.tsv", run->dir, id);
	free(id);
	if (read_lines(&l, path, 1)) {
		free(path);
		return;
	}
	for (n = 0; n < l.nr; n++) {
		if (strncmp(l.v[n], "title\t", 6))
			continue;
		title = l.v[n] + 6;
		title += strspn(title, " ");
		rtrim(title);
		/* Malformed: no title, or more fields. */
		if (!*title || strchr(title, '\t'))
			continue;
		add_crash(run, cap, title, i, t);
	}
	free(l.v);
	free(l.buf);
	free(path);
}

/*
 * The titles of every boot cell that booted, in step order, then target
 * order, then file order; run->crash_at[i * nr_target + t] is where those
 * of step i and target t start.
 */
static void read_crashes(struct run *run)
{
	const int k = boot_stage();
	size_t i, t, at = 0, cap = 0;

	if (k < 0)
		return;
	run->crash_at = xrealloc(NULL, (run->nr_step * run->nr_target + 1) *
				 sizeof(*run->crash_at));
	for (i = 0; i < run->nr_step; i++) {
		for (t = 0; t < run->nr_target; t++) {
			run->crash_at[at++] = run->nr_crash;
			if (booted(&run->step[i], k, t))
				read_triage(run, &cap, i, t);
		}
	}
	run->crash_at[at] = run->nr_crash;
}

/* The crashes of the boot cell of step @i on target @t: [*first, end). */
static size_t cell_crashes(const struct run *run, size_t i, size_t t,
			   size_t *first)
{
	size_t at = i * run->nr_target + t;

	if (!run->crash_at) {
		*first = 0;
		return 0;
	}
	*first = run->crash_at[at];
	return run->crash_at[at + 1];
}

/* By title, then target, then step, then position: a title's group. */
static int cmp_crash(const void *a, const void *b)
{
	const struct crash *x = *(const struct crash * const *)a;
	const struct crash *y = *(const struct crash * const *)b;
	int c = strcmp(x->title, y->title);

	if (c)
		return c;
	if (x->target != y->target)
		return (x->target > y->target) - (x->target < y->target);
	if (x->step != y->step)
		return (x->step > y->step) - (x->step < y->step);
	return (x > y) - (x < y);
}

static int cmp_crash_line(const void *a, const void *b)
{
	const struct crash_line *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/*
 * Per step and target, the next step that booted on the target after it
 * (boot stage @k); run->nr_step when none did.
 */
static void next_boots(const struct run *run, int k, size_t *next)
{
	const size_t nt = run->nr_target;
	size_t i, t, later;

	for (t = 0; t < nt; t++) {
		later = run->nr_step;
		for (i = run->nr_step; i-- > 0;) {
			next[i * nt + t] = later;
			if (booted(&run->step[i], k, t))
				later = i;
		}
	}
}

/*
 * The line of the title of the group @g[0..n) (sorted by cmp_crash):
 * where it first appeared, whether the last step that booted still has
 * it or which step it was gone at, and its targets.
 */
static char *crash_text(const struct run *run, struct crash **g, size_t n,
			const size_t *next)
{
	size_t a, b, lo = SIZE_MAX, hi = 0, still = SIZE_MAX, gone = 0;
	size_t last, after;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	out = open_memstream(&text, &len);
	if (!out)
		die("out of memory");
	for (a = 0; a < n; a = b) {
		for (b = a; b < n && g[b]->target == g[a]->target; b++) {
			if (g[b]->step < lo)
				lo = g[b]->step;
			if (g[b]->step > hi)
				hi = g[b]->step;
		}
		/*
		 * The target's last step with the title is its last step
		 * that booted, or the next step that booted has it gone.
		 */
		last = g[b - 1]->step;
		after = next[last * run->nr_target + g[a]->target];
		if (after == run->nr_step) {
			if (still == SIZE_MAX || last > still)
				still = last;
		} else if (after > gone) {
			gone = after;
		}
	}
	fprintf(out, "%s: ", g[0]->title);
	if (still != SIZE_MAX)
		fprintf(out, "introduced by %s, still at %s", run->step[lo].label,
			run->step[still].label);
	else if (lo == hi)
		fprintf(out, "at %s only", run->step[lo].label);
	else
		fprintf(out, "introduced by %s, gone at %s", run->step[lo].label,
			run->step[gone].label);
	for (a = 0; a < n; a++)
		if (!a || g[a]->target != g[a - 1]->target)
			fprintf(out, "%s%s", a ? ", " : " (",
				run->target[g[a]->target].name);
	fputc(')', out);
	if (fclose(out))
		die("out of memory");
	return text;
}

/* One line per distinct title, in order of first appearance. */
static void group_crashes(struct run *run)
{
	struct crash **by;
	size_t a, b, first, *next;

	if (!run->nr_crash)
		return;
	by = xrealloc(NULL, run->nr_crash * sizeof(*by));
	for (a = 0; a < run->nr_crash; a++)
		by[a] = &run->crash[a];
	qsort(by, run->nr_crash, sizeof(*by), cmp_crash);
	next = xrealloc(NULL, run->nr_step * run->nr_target * sizeof(*next));
	next_boots(run, boot_stage(), next);
	run->crash_line = xrealloc(NULL,
				   run->nr_crash * sizeof(*run->crash_line));
	for (a = 0; a < run->nr_crash; a = b) {
		first = SIZE_MAX;
		for (b = a; b < run->nr_crash &&
		     !strcmp(by[b]->title, by[a]->title); b++)
			if ((size_t)(by[b] - run->crash) < first)
				first = by[b] - run->crash;
		run->crash_line[run->nr_crash_line].first = first;
		run->crash_line[run->nr_crash_line++].text =
			crash_text(run, by + a, b - a, next);
	}
	qsort(run->crash_line, run->nr_crash_line, sizeof(*run->crash_line),
	      cmp_crash_line);
	free(next);
	free(by);
}

/* The matrix's "crashes:" block; none without a title. */
static void put_crashes(FILE *out, const struct run *run)
{
	size_t i;

	if (!run->nr_crash_line)
		return;
	fputs("\ncrashes:\n", out);
	for (i = 0; i < run->nr_crash_line; i++)
		fprintf(out, "  %s\n", run->crash_line[i].text);
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

/*
 * Print the detail lines of the cell of stage @k (target @t) of step
 * @st, each prefixed with @pre.
 */
static void put_details(FILE *out, const struct run *run,
			const struct step *st, int k, size_t t, const char *pre)
{
	char *rel, *path, *id;
	struct lines l;
	size_t i, n = 0;

	id = cell_id(run, st, k, t);
	rel = xasprintf("details/%s.txt", id);
	free(id);
	path = xasprintf("%s/%s", run->dir, rel);
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

/* KTAP indentation of nesting @level (0, 1 or 2): 4 spaces a level. */
static const char *indent(int level)
{
	static const char spaces[] = "        ";

	return spaces + sizeof(spaces) - 1 - 4 * level;
}

/* The prefix of a diagnostic line at nesting @level. */
static const char *diag(int level)
{
	static const char * const pre[] = { "# ", "    # ", "        # " };

	return pre[level];
}

/*
 * The result line, number @num at nesting @level, of the cell of stage
 * @k (target @t) of step @st, after its details; counted in @tally.
 */
static void ktap_cell(FILE *out, const struct run *run, const struct step *st,
		      int k, size_t t, int num, int level, size_t *tally)
{
	const struct cell *c = cell_of(st, k, t);
	const char *tag = "", *time, *in = indent(level);
	char tbuf[32];
	size_t i, end;

	tally[cell_verdict(c->st)]++;
	if (c->st == ST_ACKED)
		tag = "acked: ";
	else if (c->st == ST_FLAKY)
		tag = "flaky: ";
	else if (c->st == ST_CACHED_ACKED)
		tag = "cached: acked: ";
	else if (is_cached(c->st))
		tag = "cached: ";
	if (is_skip(c->st)) {
		fprintf(out, "%sok %d %s # SKIP%s%s%s\n", in, num, stage_name[k],
			*tag || *c->summary ? " " : "", tag, c->summary);
		return;
	}
	if (has_details(c->st))
		put_details(out, run, st, k, t, diag(level));
	if (stage_scope[k] == SCOPE_TARGET && k == boot_stage()) {
		for (end = cell_crashes(run, st - run->step, t, &i); i < end; i++)
			fprintf(out, "%scrash: %s\n", diag(level),
				run->crash[i].title);
	}
	time = fmt_time(tbuf, sizeof(tbuf), c->ms);
	fprintf(out, "%s%s %d %s", in, is_fail(c->st) ? "not ok" : "ok", num,
		stage_name[k]);
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

/*
 * The result line, number @num at nesting @level, of a subtest of the @n
 * cells at @c: step @st, or target @target of it when that is not NULL.
 */
static void ktap_result(FILE *out, int level, size_t num,
			const struct step *st, const char *target,
			const struct cell *c, size_t n)
{
	enum verdict v = verdict(c, n);
	const char *why = "not run";
	size_t i;

	fprintf(out, "%s%s %zu ", indent(level), v == V_FAIL ? "not ok" : "ok",
		num);
	if (target)
		fputs(target, out);
	else
		step_name(out, st);
	if (v == V_SKIP) {
		for (i = 0; i < n; i++) {
			if (*c[i].summary) {
				why = c[i].summary;
				break;
			}
		}
		fprintf(out, " # SKIP %s", why);
	}
	fputc('\n', out);
}

/* The targets that have cells: none without a target-scope stage. */
static size_t nr_shown_targets(const struct run *run)
{
	return nr_target_stages ? run->nr_target : 0;
}

static void write_ktap(FILE *out, const struct run *run, size_t *tally)
{
	const size_t nr_sub = nr_shown_targets(run);
	const struct step *st;
	const char *name;
	size_t i, t;
	char *s;
	int p;

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
		fprintf(out, "\n    1..%zu\n", nr_step_stages + nr_sub);
		for (p = 0; p < nr_step_stages; p++)
			ktap_cell(out, run, st, step_stage[p], 0, p + 1, 1, tally);
		for (t = 0; t < nr_sub; t++) {
			name = run->target[t].name;
			fprintf(out, "        KTAP version 1\n        # Subtest: %s\n",
				name);
			fprintf(out, "        1..%d\n", nr_target_stages);
			for (p = 0; p < nr_target_stages; p++)
				ktap_cell(out, run, st, target_stage[p], t,
					  p + 1, 2, tally);
			ktap_result(out, 1, nr_step_stages + t + 1, st, name,
				    target_cells(st, t), nr_target_stages);
		}
		ktap_result(out, 0, i + 1, st, NULL, st->cell, run->per_step);
	}
	fprintf(out, "# Totals: pass:%zu fail:%zu xfail:0 xpass:0 skip:%zu error:0\n",
		tally[V_PASS], tally[V_FAIL], tally[V_SKIP]);
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

/* step, commit, subject, stages of scope step, target, stages of scope target */
#define MAX_COLS	(4 + MAX_STAGES)

/* One line of the matrix: its columns, "" when blank. */
struct mrow {
	const char *col[MAX_COLS];
	char sha[SHA_LEN + 1];
	char text[MAX_COLS][CELL_LEN];	/* the cells' columns */
	char *subject;
	int cached;			/* one of its cells is */
};

static int matrix_cols(void)
{
	return 3 + nr_step_stages + (nr_target_stages ? 1 + nr_target_stages : 0);
}

static void matrix_head(struct mrow *m)
{
	int p, n = 3;

	m->col[0] = "step";
	m->col[1] = "commit";
	m->col[2] = "subject";
	for (p = 0; p < nr_step_stages; p++)
		m->col[n++] = stage_name[step_stage[p]];
	if (!nr_target_stages)
		return;
	m->col[n++] = "target";
	for (p = 0; p < nr_target_stages; p++)
		m->col[n++] = stage_name[target_stage[p]];
}

/* Column @n of @m: "<status> <time>" of cell @c; skips show no time. */
/*
 * The counts of changes a summary starts with, as the abi cell's "-2
 * export(s), as declared" or "+1 ~1 export(s), ...": words of a sign
 * (+, -, ~ or >) and digits, before the first other word; 0 when none.
 * A cached cell's summary names its run first ("from run ID: ").
 */
static size_t delta_len(const char **summary)
{
	const char *s = *summary, *w;
	size_t n = 0;

	if (!strncmp(s, "from run ", 9) && strstr(s, ": "))
		s = strstr(s, ": ") + 2;
	*summary = s;
	for (w = s; *w && strchr("+-~>", *w) && isdigit((unsigned char)w[1]);) {
		w++;
		while (isdigit((unsigned char)*w))
			w++;
		if (*w != ' ' && *w != '\0')
			return 0;
		n = w - s;
		if (*w == ' ')
			w++;
	}
	return n;
}

static void matrix_cell(struct mrow *m, int n, const struct cell *c)
{
	const char *s = status_text[c->st].shown, *d = c->summary;
	size_t len = strlen(s), dl = delta_len(&d);

	memcpy(m->text[n], s, len + 1);
	if (dl && !is_skip(c->st) && len + 1 + dl < CELL_LEN) {
		/* What changed says more than how long it took. */
		snprintf(m->text[n] + len, CELL_LEN - len, " %.*s", (int)dl, d);
	} else if (!is_skip(c->st) && c->ms >= 0) {
		m->text[n][len] = ' ';
		fmt_time(m->text[n] + len + 1, CELL_LEN - len - 1, c->ms);
	}
	m->col[n] = m->text[n];
	m->cached |= is_cached(c->st);
}

/*
 * Row @r of step @st, the one of target @r: the label, sha, subject and
 * step-scope cells only on row 0. Free m->subject after use.
 */
static void matrix_row(struct mrow *m, const struct run *run,
		       const struct step *st, size_t r)
{
	const struct cell *c;
	size_t len;
	int p, n = 3;

	m->subject = NULL;
	m->cached = 0;
	if (r == 0) {
		len = utf8_cut(st->sha, strlen(st->sha), SHA_LEN);
		memcpy(m->sha, st->sha, len);
		m->sha[len] = '\0';
		m->subject = shorten(st->subject, SUBJECT_MAX);
		m->col[0] = st->label;
		m->col[1] = m->sha;
		m->col[2] = m->subject;
	} else {
		m->col[0] = "";
		m->col[1] = "";
		m->col[2] = "";
	}
	for (p = 0; p < nr_step_stages; p++, n++) {
		if (r == 0)
			matrix_cell(m, n, &st->cell[p]);
		else
			m->col[n] = "";
	}
	if (!nr_target_stages)
		return;
	m->col[n++] = run->target[r].name;
	c = target_cells(st, r);
	for (p = 0; p < nr_target_stages; p++, n++)
		matrix_cell(m, n, &c[p]);
}

static void matrix_line(FILE *out, const struct mrow *m, const size_t *wid)
{
	const int nr_cols = matrix_cols();
	const char *s;
	int k;

	for (k = 0; k + 1 < nr_cols; k++) {
		s = m->col[k];
		fprintf(out, "%s%*s  ", s, (int)(wid[k] - width(s)), "");
	}
	fprintf(out, "%s\n", m->col[k]);
}

/* The failure block of the cell of stage @k (target @t), if it failed. */
static void fail_block(FILE *out, const struct run *run, const struct step *st,
		       int k, size_t t)
{
	const struct cell *c = cell_of(st, k, t);

	if (!is_fail(c->st))
		return;
	fprintf(out, "\nstep %s ", st->label);
	if (stage_scope[k] == SCOPE_TARGET)
		fprintf(out, "%s ", run->target[t].name);
	fprintf(out, "%s: %s%s%s\n", stage_name[k], status_text[c->st].shown,
		*c->summary ? " " : "", c->summary);
	put_details(out, run, st, k, t, "    ");
	if (*c->log)
		fprintf(out, "    log: %s\n", c->log);
}

static void write_matrix(FILE *out, const struct run *run)
{
	const size_t nr_rows = nr_target_stages ? run->nr_target : 1;
	const int nr_cols = matrix_cols();
	size_t i, r, t, w, wid[MAX_COLS], tally[NR_VERDICT] = { 0 };
	const struct step *st;
	struct mrow m;
	int k, p, pass, cached = 0;

	matrix_head(&m);
	for (k = 0; k < nr_cols; k++)
		wid[k] = width(m.col[k]);
	/* Twice over the rows: for the widths of the columns, then to print. */
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			matrix_head(&m);
			matrix_line(out, &m, wid);
		}
		for (i = 0; i < run->nr_step; i++) {
			for (r = 0; r < nr_rows; r++) {
				matrix_row(&m, run, &run->step[i], r);
				cached |= m.cached;
				for (k = 0; k < nr_cols && !pass; k++) {
					w = width(m.col[k]);
					if (w > wid[k])
						wid[k] = w;
				}
				if (pass)
					matrix_line(out, &m, wid);
				free(m.subject);
			}
		}
	}
	if (cached)
		fputs("* cached: result reused from an earlier run\n", out);

	for (i = 0; i < run->nr_step; i++) {
		st = &run->step[i];
		for (p = 0; p < nr_step_stages; p++)
			fail_block(out, run, st, step_stage[p], 0);
		for (t = 0; t < nr_shown_targets(run); t++)
			for (p = 0; p < nr_target_stages; p++)
				fail_block(out, run, st, target_stage[p], t);
		tally[verdict(st->cell, run->per_step)]++;
	}
	put_crashes(out, run);
	fprintf(out, "\n%zu steps, %zu passed, %zu failed, %zu skipped\n",
		run->nr_step, tally[V_PASS], tally[V_FAIL], tally[V_SKIP]);
}

/*
 * The key lines of the details of the cell of stage @k (target @t) of
 * step @st: the first REPLY_LINES non-blank ones that are no "next:"
 * advice, indented, then how many more there are.
 */
static void reply_details(FILE *out, const struct run *run,
			  const struct step *st, int k, size_t t)
{
	char *path, *id;
	struct lines l;
	size_t i, n = 0;

	id = cell_id(run, st, k, t);
	path = xasprintf("%s/details/%s.txt", run->dir, id);
	free(id);
	if (read_lines(&l, path, 1) == 0) {
		for (i = 0; i < l.nr; i++) {
			untab(l.v[i]);
			rtrim(l.v[i]);
			if (*l.v[i] == '\0' || !strncmp(l.v[i], "next:", 5))
				continue;
			if (n++ < REPLY_LINES)
				fprintf(out, "  %s\n", l.v[i]);
		}
		if (n > REPLY_LINES)
			fprintf(out, "  (%zu more lines in the report)\n",
				n - REPLY_LINES);
		free(l.v);
		free(l.buf);
	}
	free(path);
}

/* Call @fn for each failed cell of step @st, in matrix order; stop at 1. */
static int each_fail(const struct run *run, const struct step *st,
		     int (*fn)(void *, const struct step *, int, size_t),
		     void *arg)
{
	size_t t;
	int p;

	for (p = 0; p < nr_step_stages; p++)
		if (is_fail(st->cell[p].st) && fn(arg, st, step_stage[p], 0))
			return 1;
	for (t = 0; t < nr_shown_targets(run); t++)
		for (p = 0; p < nr_target_stages; p++)
			if (is_fail(target_cells(st, t)[p].st) &&
			    fn(arg, st, target_stage[p], t))
				return 1;
	return 0;
}

/* The cell a reply is about, and what else failed. */
struct reply_fail {
	const struct run *run;
	FILE *out;
	int k;			/* its stage, -1 until found */
	size_t t;		/* its target */
	size_t others;		/* failed cells named on the "also" line */
	size_t later;		/* failed cells of later steps */
};

static int take_first(void *arg, const struct step *st, int k, size_t t)
{
	struct reply_fail *r = arg;

	(void)st;
	r->k = k;
	r->t = t;
	return 1;
}

static int name_other(void *arg, const struct step *st, int k, size_t t)
{
	struct reply_fail *r = arg;

	if (k == r->k && t == r->t)
		return 0;
	fprintf(r->out, "%s%s ", r->others++ ? ", " : "also failing: ",
		st->label);
	if (stage_scope[k] == SCOPE_TARGET)
		fprintf(r->out, "%s ", r->run->target[t].name);
	fputs(stage_name[k], r->out);
	return 0;
}

static int count_later(void *arg, const struct step *st, int k, size_t t)
{
	struct reply_fail *r = arg;

	(void)st;
	(void)k;
	(void)t;
	r->later++;
	return 0;
}

/* "base: ...", the base the series was applied on. */
static void reply_base(FILE *out, const struct run *run)
{
	const char *deb = meta_get(run, "debian");
	const char *base = meta_get(run, "base");

	fprintf(out, "base: %s%s%s", deb ? deb : "", deb ? ", commit " : "",
		base ? base : "unknown");
}

/* The reply of a series received that has a failed cell at step @i. */
static void reply_fail(FILE *out, const struct run *run, size_t i,
		       const size_t *tally)
{
	const struct step *st = &run->step[i];
	struct reply_fail r = { .run = run, .out = out, .k = -1 };
	const struct cell *c;
	size_t j;

	each_fail(run, st, take_first, &r);
	c = cell_of(st, r.k, r.t);
	fprintf(out, "%zu of %zu steps failed\n", tally[V_FAIL], run->nr_step);
	if (st->index == 0)
		fprintf(out, "first failing commit: the base (step 0: %s), before any patch\n",
			st->subject);
	else
		fprintf(out, "first failing commit: %s %s\n", st->label,
			st->subject);
	fprintf(out, "cell: step %s, ", st->label);
	if (stage_scope[r.k] == SCOPE_TARGET)
		fprintf(out, "target %s, ", run->target[r.t].name);
	fprintf(out, "stage %s: %s%s%s\n", stage_name[r.k],
		status_text[c->st].shown, *c->summary ? " " : "", c->summary);
	reply_details(out, run, st, r.k, r.t);
	each_fail(run, st, name_other, &r);
	for (j = i + 1; j < run->nr_step; j++)
		each_fail(run, &run->step[j], count_later, &r);
	if (r.later)
		fprintf(out, "%s%zu cell(s) at later steps",
			r.others ? "; " : "also failing: ", r.later);
	if (r.others || r.later)
		fputc('\n', out);
	reply_base(out, run);
	fputc('\n', out);
}

/*
 * The lines a maintainer replies with to a series received (meta
 * "received"); nothing for another run. Returns whether it wrote any.
 */
static int write_reply(FILE *out, const struct run *run)
{
	const char *name = meta_get(run, "cover");
	size_t i, t, patches = 0, tally[NR_VERDICT] = { 0 };
	const struct step *st;

	if (!meta_get(run, "received"))
		return 0;
	if (!name)
		name = meta_get(run, "received");
	for (i = 0; i < run->nr_step; i++) {
		st = &run->step[i];
		tally[verdict(st->cell, run->per_step)]++;
		patches += st->index != 0;
	}
	fprintf(out, "bisect-check of %s: ", name);
	for (i = 0; i < run->nr_step; i++) {
		if (verdict(run->step[i].cell, run->per_step) == V_FAIL) {
			reply_fail(out, run, i, tally);
			return 1;
		}
	}
	if (tally[V_SKIP])
		fprintf(out, "no step failed (%zu passed, %zu skipped)",
			tally[V_PASS], tally[V_SKIP]);
	else if (patches < run->nr_step)
		fprintf(out, "all %zu steps (the base and %zu patch(es)) passed",
			run->nr_step, patches);
	else
		fprintf(out, "all %zu steps passed", run->nr_step);
	for (t = 0; t < nr_shown_targets(run); t++)
		fprintf(out, "%s%s", t ? ", " : " on ", run->target[t].name);
	fputs("; ", out);
	reply_base(out, run);
	fputc('\n', out);
	return 1;
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

/*
 * --abi: the exported ABI of each series step, for the sender to paste
 * into the cover letter (make send ABI=1). The abi cells keep their
 * changes only as details, one line each, as tools/stages/abi writes
 * them: "CHANGE SYMBOL: BEFORE -> AFTER (VERDICT)".
 */
#define ABI_WIDTH	72	/* columns a line of the summary fills at most */
#define ABI_BREAK	"\x1f"	/* where a summary's line may break: a space */

enum abi_kind {
	ABI_REMOVED,
	ABI_ADDED,
	ABI_CHANGED,
	ABI_MOVED,
	NR_ABI_KIND,
};

static const char * const abi_kind_name[NR_ABI_KIND] = {
	[ABI_REMOVED]	= "removed",
	[ABI_ADDED]	= "added",
	[ABI_CHANGED]	= "changed",
	[ABI_MOVED]	= "moved",
};

/* Does a cell of status @st vouch for what it says? */
static int passed(enum status st)
{
	return st == ST_OK || st == ST_ACKED || st == ST_CACHED_OK ||
	       st == ST_CACHED_ACKED;
}

/*
 * One side of a change, "TYPE[:NAMESPACE]@OBJECT" (tools/bin/abi), as
 * "TYPE, OBJECT" or "TYPE, namespace NAMESPACE, OBJECT"; NULL when it is
 * not of that form. Allocated.
 */
static char *abi_side(const char *s)
{
	const char *at = strchr(s, '@'), *ns;

	if (!at || at == s || !at[1] || strchr(at + 1, '@') ||
	    strncmp(s, "EXPORT_SYMBOL", 13))
		return NULL;
	ns = memchr(s, ':', at - s);
	if (!ns)
		return xasprintf("%.*s, %s", (int)(at - s), s, at + 1);
	if (ns + 1 == at)
		return NULL;
	return xasprintf("%.*s, namespace %.*s, %s", (int)(ns - s), s,
			 (int)(at - ns - 1), ns + 1, at + 1);
}

/*
 * Parse the detail line @s (line @lineno of @path) of a passing abi cell
 * into its kind and "SYMBOL (what it is)", allocated into *@item.
 */
static enum abi_kind abi_parse(char *s, const char *path, size_t lineno,
			       char **item)
{
	char *sym, *before, *after, *verdict, *end, *b = NULL, *a = NULL;
	int k, bad;

	sym = strchr(s, ' ');
	before = strstr(s, ": ");
	after = strstr(s, " -> ");
	verdict = strstr(s, " (");
	end = s + strlen(s);
	if (!sym || !before || !after || !verdict || end[-1] != ')' ||
	    !(sym < before && before < after && after < verdict))
		die("%s:%zu: expected \"CHANGE SYMBOL: BEFORE -> AFTER (VERDICT)\", got \"%s\"",
		    path, lineno, show(s, strlen(s)));
	*sym++ = '\0';
	*before = '\0';
	before += 2;
	*after = '\0';
	after += 4;
	*verdict = '\0';
	verdict += 2;
	end[-1] = '\0';
	k = lookup(abi_kind_name, NR_ABI_KIND, s);
	if (k < 0)
		die("%s:%zu: unknown change \"%s\": expected removed, added, changed or moved",
		    path, lineno, show(s, strlen(s)));
	if (!*sym || strchr(sym, ' '))
		die("%s:%zu: bad symbol \"%s\"", path, lineno,
		    show(sym, strlen(sym)));
	if (strcmp(verdict, "declared") && strcmp(verdict, "info"))
		die("%s:%zu: %s %s is \"%s\", in a cell that passed: expected declared or info",
		    path, lineno, s, show(sym, strlen(sym)),
		    show(verdict, strlen(verdict)));
	if (strcmp(before, "-"))
		b = abi_side(before);
	if (strcmp(after, "-"))
		a = abi_side(after);
	/* "-" only on the side a removal or an addition has not. */
	bad = k == ABI_ADDED ? strcmp(before, "-") != 0 : !b;
	bad = bad || (k == ABI_REMOVED ? strcmp(after, "-") != 0 : !a);
	if (bad)
		die("%s:%zu: %s %s: bad sides \"%s\" -> \"%s\": expected TYPE[:NS]@OBJECT or \"-\"",
		    path, lineno, s, show(sym, strlen(sym)),
		    show(before, strlen(before)), show(after, strlen(after)));
	if (k == ABI_REMOVED)
		*item = xasprintf("%s (%s)", sym, b);
	else if (k == ABI_ADDED)
		*item = xasprintf("%s (%s)", sym, a);
	else
		*item = xasprintf("%s (%s -> %s)", sym, b, a);
	free(b);
	free(a);
	return k;
}

/*
 * What the abi cell (stage @k) of step @st on target @t says changed:
 * "no change", or per kind of change its count and symbols, e.g. "-2
 * exports: a (EXPORT_SYMBOL_GPL, vmlinux), b (...)", with ABI_BREAK
 * where a line may break (read_lines() leaves no control character in
 * the details). Allocated.
 */
static char *abi_text(const struct run *run, const struct step *st, int k,
		      size_t t)
{
	static const char * const fmt[NR_ABI_KIND] = {
		[ABI_REMOVED]	= "-%zu export%s",
		[ABI_ADDED]	= "+%zu export%s",
		[ABI_CHANGED]	= "%zu export%s changed",
		[ABI_MOVED]	= "%zu export%s moved",
	};
	char *id = cell_id(run, st, k, t), *path, *item, *text = NULL;
	size_t i, n[NR_ABI_KIND] = { 0 }, len = 0;
	FILE *item_out[NR_ABI_KIND], *out;
	char *items[NR_ABI_KIND];
	size_t items_len[NR_ABI_KIND];
	struct lines l;
	int kind, first = 1;

	path = xasprintf("%s/details/%s.txt", run->dir, id);
	free(id);
	for (kind = 0; kind < NR_ABI_KIND; kind++) {
		item_out[kind] = open_memstream(&items[kind], &items_len[kind]);
		if (!item_out[kind])
			die("out of memory");
	}
	if (read_lines(&l, path, 1) == 0) {
		for (i = 0; i < l.nr; i++) {
			rtrim(l.v[i]);
			if (skip_line(l.v[i]))
				continue;
			kind = abi_parse(l.v[i], path, i + 1, &item);
			fprintf(item_out[kind], "%s%s",
				n[kind] ? "," ABI_BREAK : "", item);
			n[kind]++;
			free(item);
		}
		free(l.v);
		free(l.buf);
	}
	out = open_memstream(&text, &len);
	if (!out)
		die("out of memory");
	for (kind = 0; kind < NR_ABI_KIND; kind++) {
		if (fclose(item_out[kind]))
			die("out of memory");
		if (n[kind]) {
			fputs(first ? "" : ";" ABI_BREAK, out);
			fprintf(out, fmt[kind], n[kind], n[kind] == 1 ? "" : "s");
			fprintf(out, ":" ABI_BREAK "%s", items[kind]);
			first = 0;
		}
		free(items[kind]);
	}
	if (first)
		fputs("no change", out);
	if (fclose(out))
		die("out of memory");
	free(path);
	return text;
}

/*
 * Print @text wrapped at ABI_WIDTH columns at its ABI_BREAKs (a space
 * where it does not break), its first line after @first, the others
 * after @more. A part longer than a line stays whole.
 */
static void wrap(FILE *out, const char *first, const char *more,
		 const char *text)
{
	char *copy = xstrdup(text), *word, *save = NULL;
	size_t col = width(first), w;
	int words = 0;

	fputs(first, out);
	for (word = strtok_r(copy, ABI_BREAK, &save); word;
	     word = strtok_r(NULL, ABI_BREAK, &save)) {
		w = width(word);
		if (words && col + 1 + w > ABI_WIDTH) {
			fprintf(out, "\n%s", more);
			col = width(more);
			words = 0;
		}
		if (words++) {
			fputc(' ', out);
			col++;
		}
		fputs(word, out);
		col += w;
	}
	fputc('\n', out);
	free(copy);
}

/*
 * Print the summary of one step: its heading @step, then below it
 * @text[], what each target's abi cell says; one line per group of
 * targets that agree when they differ.
 */
static void abi_step(FILE *out, const struct run *run, const char *step,
		     char **text)
{
	char *line, *names;
	size_t t, u;
	int *done;

	fprintf(out, "  %s\n", step);
	for (t = 1; t < run->nr_target; t++)
		if (strcmp(text[t], text[0]))
			break;
	if (t == run->nr_target) {
		wrap(out, "      ", "        ", text[0]);
		return;
	}
	done = xrealloc(NULL, run->nr_target * sizeof(*done));
	memset(done, 0, run->nr_target * sizeof(*done));
	for (t = 0; t < run->nr_target; t++) {
		if (done[t])
			continue;
		names = xstrdup(run->target[t].name);
		for (u = t + 1; u < run->nr_target; u++) {
			if (done[u] || strcmp(text[u], text[t]))
				continue;
			done[u] = 1;
			line = xasprintf("%s, %s", names, run->target[u].name);
			free(names);
			names = line;
		}
		line = xasprintf("%s:" ABI_BREAK "%s", names, text[t]);
		wrap(out, "      ", "        ", line);
		free(line);
		free(names);
	}
	free(done);
}

/* Say that the abi cell @c of step @st on target @t did not pass. */
static void no_verdict(const struct run *run, const struct step *st, size_t t,
		       const struct cell *c)
{
	fprintf(stderr, "%s: error: step %s on %s: no abi verdict: %s%s%s\n",
		prog, st->label, run->target[t].name,
		c->st == ST_MISSING ? "" : status_text[c->st].name,
		c->st == ST_MISSING ? "" : ": ", c->summary);
}

/*
 * The --abi summary of @run: a heading naming the targets, then per
 * series step (every step but 0, the preparation or base) its label,
 * subject and what its abi cells say changed; one line per group of
 * targets where they differ. Printed only when every one of those cells
 * passed; otherwise each that did not is named on stderr. Returns the
 * exit status.
 */
static int abi_summary(const struct run *run)
{
	int k = lookup(stage_name, nr_stages, "abi"), bad = 0, agree = 1;
	char **text, *step, *buf = NULL;
	size_t i, t, n, len = 0;
	const struct cell *c;
	struct step *st;
	FILE *out;

	if (k < 0 || stage_scope[k] != SCOPE_TARGET)
		die("%s/stages.tsv: no abi stage: the run is older; run 'make bisect-check' again",
		    run->dir);
	n = run->nr_target;
	text = xrealloc(NULL, run->nr_step * n * sizeof(*text));
	for (i = 0; i < run->nr_step; i++) {
		st = &run->step[i];
		for (t = 0; t < n; t++) {
			text[i * n + t] = NULL;
			c = cell_of(st, k, t);
			if (st->index == 0)
				continue;
			if (!passed(c->st)) {
				no_verdict(run, st, t, c);
				bad++;
				continue;
			}
			text[i * n + t] = abi_text(run, st, k, t);
			if (text[i * n] && strcmp(text[i * n + t], text[i * n]))
				agree = 0;
		}
	}
	if (run->step[0].index == 0 && run->nr_step == 1)
		die("%s/steps.tsv: no step after step 0: no patch to summarize",
		    run->dir);
	if (bad) {
		fprintf(stderr, "%s: error: %d abi cell(s) of %s did not pass: no summary\n",
			prog, bad, run->dir);
		return REPORT_FAIL;
	}
	out = open_memstream(&buf, &len);
	if (!out)
		die("out of memory");
	fputs("Exported ABI per patch (", out);
	for (t = 0; t < n; t++)
		fprintf(out, "%s%s", t ? ", " : "", run->target[t].name);
	fprintf(out, "%s):\n", n > 1 && agree ? " agree" : "");
	for (i = 0; i < run->nr_step; i++) {
		st = &run->step[i];
		if (st->index == 0)
			continue;
		step = xasprintf("%s %s", st->label, st->subject);
		abi_step(out, run, step, &text[i * n]);
		free(step);
	}
	if (fclose(out))
		die("out of memory");
	fwrite(buf, 1, len, stdout);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write stdout: %s", strerror(errno));
	for (i = 0; i < run->nr_step * n; i++)
		free(text[i]);
	free(text);
	free(buf);
	return REPORT_OK;
}

/* --verdict: the cells of @run recorded so far, of step scope or of
 * target @name: "ok N" or "FAIL F N".
 */
static int target_verdict(struct run *run, const char *name)
{
	struct target *tg = find_target(run, name);
	size_t s, t, n = 0, bad = 0;
	enum status st;
	int k;

	if (!tg)
		die("--verdict %s: not a target of %s/targets.tsv",
		    show(name, strlen(name)), run->dir);
	t = tg - run->target;
	for (s = 0; s < run->nr_step; s++)
		for (k = 0; k < nr_stages; k++) {
			st = cell_of(&run->step[s], k, t)->st;
			if (st == ST_MISSING)
				continue;
			n++;
			bad += is_fail(st);
		}
	if (bad)
		printf("FAIL %zu %zu\n", bad, n);
	else
		printf("ok %zu\n", n);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write stdout: %s", strerror(errno));
	return REPORT_OK;
}

int main(int argc, char **argv)
{
	struct run run = { .nr_step = 0 };
	char *ktap = NULL, *matrix = NULL, *reply = NULL;
	size_t ktap_len = 0, matrix_len = 0, reply_len = 0;
	size_t tally[NR_VERDICT] = { 0 };
	int replied;
	FILE *out;

	if (argc == 3 && !strcmp(argv[1], "--abi") && argv[2][0] != '-') {
		run.dir = argv[2];
		read_stages(&run);
		read_targets(&run);
		read_steps(&run);
		read_cells(&run);
		return abi_summary(&run);
	}
	if (argc == 4 && !strcmp(argv[1], "--verdict") && argv[3][0] != '-') {
		run.dir = argv[3];
		read_stages(&run);
		read_targets(&run);
		read_steps(&run);
		read_cells(&run);
		return target_verdict(&run, argv[2]);
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: %s RUNDIR\n       %s --abi RUNDIR\n"
			"       %s --verdict TARGET RUNDIR\n", prog, prog, prog);
		return REPORT_ERROR;
	}
	run.dir = argv[1];
	read_stages(&run);
	read_targets(&run);
	read_meta(&run);
	read_steps(&run);
	read_cells(&run);
	read_crashes(&run);
	group_crashes(&run);

	out = open_memstream(&reply, &reply_len);
	if (!out)
		die("out of memory");
	replied = write_reply(out, &run);
	if (fclose(out))
		die("out of memory");
	out = open_memstream(&ktap, &ktap_len);
	if (!out)
		die("out of memory");
	write_ktap(out, &run, tally);
	if (fclose(out))
		die("out of memory");
	out = open_memstream(&matrix, &matrix_len);
	if (!out)
		die("out of memory");
	write_matrix(out, &run);
	if (fclose(out))
		die("out of memory");

	if (replied)
		write_file(run.dir, "reply.txt", reply, reply_len);
	write_file(run.dir, "report.ktap", ktap, ktap_len);
	write_file(run.dir, "matrix.txt", matrix, matrix_len);
	if (replied) {
		fwrite(reply, 1, reply_len, stdout);
		putchar('\n');
	}
	fwrite(ktap, 1, ktap_len, stdout);
	putchar('\n');
	fwrite(matrix, 1, matrix_len, stdout);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write stdout: %s", strerror(errno));
	return tally[V_FAIL] ? REPORT_FAIL : REPORT_OK;
}
