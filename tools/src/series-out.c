// SPDX-License-Identifier: GPL-2.0
/*
 * series-out.c - a valid series as normalised, tab-separated records,
 * in the order usage() documents; guest.run as the runner's program
 * lines (guestop.h).
 */
#define _GNU_SOURCE
#include "series.h"

/* ---- Guest operations ---- */

/* "a,b" of an operation's tests. */
static void print_op_tests(FILE *f, const struct series *s,
			   const struct guest_op *op, const char *sep)
{
	size_t j;

	for (j = 0; j < op->ntests; j++)
		fprintf(f, "%s%s", j ? sep : "", s->tests[op->tests[j]].id);
}

/* @v as a YAML double-quoted scalar; it has no control character. */
static void yaml_quoted(FILE *f, const char *v)
{
	putc('"', f);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			putc('\\', f);
		putc(*v, f);
	}
	putc('"', f);
}

/*
 * The runner's program line of @op ("op" record) and the same
 * operation as a YAML flow mapping ("opyaml" record, for tools that
 * write a series back out).
 */
static void print_op(FILE *f, const struct series *s, const struct guest_op *op)
{
	const struct guest_kind_def *k = &guest_kinds[op->kind];
	/* Only a kind with a second key has op->extra. */
	const char *extra = k->extra == GKEY_NONE ? NULL : guest_key_names[k->extra];
	size_t j;

	/* exec NAME runs the guest's GUEST_BIN NAME. */
	fprintf(f, "op\t%s\t%s=%s%s", k->name, guest_key_names[k->arg],
		op->kind == GOP_EXEC ? GUEST_BIN : "", op->arg);
	if (op->extra)
		fprintf(f, "\t%s=%s", extra, op->extra);
	if (op->ntests) {
		fprintf(f, "\ttests=");
		print_op_tests(f, s, op, ",");
	}
	if (op->expect)
		fprintf(f, "\texpect=%s", op->expect);
	if (op->match)
		fprintf(f, "\tmatch=%s\tcount=%s", op->match, op->count);
	if (op->label)
		fprintf(f, "\tlabel=%s", op->label);
	fprintf(f, "\nopyaml\t{%s: ", k->name);
	yaml_quoted(f, op->arg);
	if (op->extra) {
		fprintf(f, ", %s: ", extra);
		yaml_quoted(f, op->extra);
	}
	if (op->nconfig) {
		fprintf(f, ", config: [");
		for (j = 0; j < op->nconfig; j++)
			fprintf(f, "%s%s", j ? ", " : "", op->config[j]);
		putc(']', f);
	}
	if (op->ntests) {
		fprintf(f, ", tests: [");
		print_op_tests(f, s, op, ", ");
		putc(']', f);
	}
	if (op->expect)
		fprintf(f, ", expect: %s", op->expect);
	if (op->match) {
		fprintf(f, ", log: {match: ");
		yaml_quoted(f, op->match);
		fprintf(f, ", count: ");
		yaml_quoted(f, op->count);
		if (op->label) {
			fprintf(f, ", label: ");
			yaml_quoted(f, op->label);
		}
		putc('}', f);
	}
	fprintf(f, "}\n");
}

/* Whether an operation before @i has the kind and value of operation @i. */
static bool op_seen(const struct series *s, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (s->ops[j].kind == s->ops[i].kind &&
		    !strcmp(s->ops[j].arg, s->ops[i].arg))
			return true;
	return false;
}

/* The module name of file NAME.ko, as the kernel and dracut know it. */
static char *mod_name(const char *file)
{
	char *name = xstrndup(file, strlen(file) - 3), *p;

	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

/* An option of the guest fragment and where it comes in it. */
struct kconfig_at {
	const char *name;
	size_t pos;
};

static int kconfig_cmp(const void *a, const void *b)
{
	const struct kconfig_at *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The options of the guest fragment: KUnit's own when a suite runs (the
 * suites run at boot, built in; their results in debugfs), then what
 * each operation needs, the suites' first; each once, where it first
 * comes. The repeats are found in a sorted copy: an operation may name
 * many options, and comparing each with all before it took minutes on a
 * few hundred thousand.
 */
static void print_kconfig(FILE *f, const struct series *s)
{
	static const char * const kunit[] = {
		"CONFIG_KUNIT", "CONFIG_KUNIT_DEBUGFS", "CONFIG_DEBUG_FS",
	};
	const size_t nr_kunit = sizeof(kunit) / sizeof(*kunit);
	struct kconfig_at *at;
	const char **opt;
	size_t i, k, n = 0, nr = 0;
	bool suites = false;
	char *dup;

	for (i = 0; i < s->nops; i++) {
		suites = suites || s->ops[i].kind == GOP_KUNIT;
		n += s->ops[i].nconfig;
	}
	if (suites)
		n += nr_kunit;
	if (!n)
		return;
	opt = xcalloc(n, sizeof(*opt));
	at = xcalloc(n, sizeof(*at));
	dup = xcalloc(n, 1);
	if (suites)
		for (k = 0; k < nr_kunit; k++)
			opt[nr++] = kunit[k];
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].kind == GOP_KUNIT)
			for (k = 0; k < s->ops[i].nconfig; k++)
				opt[nr++] = s->ops[i].config[k];
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].kind != GOP_KUNIT)
			for (k = 0; k < s->ops[i].nconfig; k++)
				opt[nr++] = s->ops[i].config[k];
	for (i = 0; i < n; i++)
		at[i] = (struct kconfig_at){ .name = opt[i], .pos = i };
	qsort(at, n, sizeof(*at), kconfig_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(at[i].name, at[i - 1].name))
			dup[at[i].pos] = 1;
	for (i = 0; i < n; i++)
		if (!dup[i])
			fprintf(f, "kconfig\t%s=y\n", opt[i]);
	free(dup);
	free(at);
	free(opt);
}

/*
 * What the guest needs besides the program: the test modules dir, the
 * guest programs' sources dir, the module files it loads (dracut
 * installs their dependencies), the programs it runs and the kernel
 * options its operations need.
 */
static void print_guest(FILE *f, const struct series *s)
{
	size_t i;

	if (s->guest_modules)
		fprintf(f, "guest-modules\t%s\n", s->guest_modules);
	if (s->guest_programs)
		fprintf(f, "guest-programs\t%s\n", s->guest_programs);
	for (i = 0; i < s->nops; i++) {
		const struct guest_op *op = &s->ops[i];
		char *name;

		if (op->kind != GOP_LOAD || op_seen(s, i))
			continue;
		name = mod_name(op->arg);
		fprintf(f, "driver\t%s\n", name);
		free(name);
	}
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].kind == GOP_EXEC && !op_seen(s, i))
			fprintf(f, "program\t%s\n", s->ops[i].arg);
	print_kconfig(f, s);
	for (i = 0; i < s->nops; i++)
		print_op(f, s, &s->ops[i]);
}

/* ---- The series ---- */

static void print_expect(FILE *f, const struct series *s, size_t step,
			 const char *vals)
{
	size_t t;

	for (t = 0; t < s->ntests; t++)
		fprintf(f, "expect\t%zu\t%s\t%s\n", step, s->tests[t].id,
			vals[t] == 'y' ? "yes" : "no");
}

/*
 * One skip record of @k at @step: "skip" for a whole test, "skip-cases"
 * with the cases (a,b) and the runner's words (SUITE.CASE,...) for
 * cases of it.
 */
static void print_skip(FILE *f, const struct series *s,
		       const struct target *t, const struct skip *k,
		       size_t step)
{
	size_t c;

	if (!k->cases) {
		fprintf(f, "skip\t%s\t%zu\t%s\t%s\n", t->name, step, k->test,
			k->reason);
		return;
	}
	fprintf(f, "skip-cases\t%s\t%zu\t%s\t", t->name, step, k->test);
	for (c = 0; c < k->ncases; c++)
		fprintf(f, "%s%s", c ? "," : "", k->cases[c]);
	putc('\t', f);
	skip_words(s, k, f);
	fprintf(f, "\t%s\n", k->reason);
}

/*
 * A target's skip records, one per step and test it skips (or skips
 * cases of), by step and then in the order the tests are declared.
 */
static void print_skips(FILE *f, const struct series *s,
			const struct target *t)
{
	size_t i, j, step;

	for (step = 0; step <= s->npatches; step++)
		for (j = 0; j < s->ntests; j++)
			for (i = 0; i < t->nskips; i++)
				if (!strcmp(t->skips[i].test, s->tests[j].id) &&
				    skips_step(&t->skips[i], step))
					print_skip(f, s, t, &t->skips[i], step);
}

/* The records, in the order documented in the usage text. */
void print_series(FILE *f, const struct series *s)
{
	size_t i, j;

	fprintf(f, "name\t%s\n", s->name);
	fprintf(f, "version\t%ld\n", s->version);
	if (s->cover)
		fprintf(f, "cover\t%s\n", s->cover);
	fprintf(f, "config\t%s\n", s->config);
	if (s->package)
		fprintf(f, "package\t%s\n", s->package);
	else
		fprintf(f, "repo\t%s\nbase-commit\t%s\n", s->repo, s->commit);
	fprintf(f, "timeout\t%ld\n", s->timeout);
	if (!s->ntargets)
		fprintf(f, "target\t%s\t%s\t%s\t-\tyes\n", DEFAULT_TARGET,
			DEFAULT_ARCH, DEFAULT_CC);
	for (i = 0; i < s->ntargets; i++) {
		const struct target *t = &s->targets[i];

		fprintf(f, "target\t%s\t%s\t%s\t%s\t%s\n", t->name, t->arch,
			t->compiler, t->config ? t->config : "-",
			t->boot ? "yes" : "no");
	}
	for (i = 0; i < s->ntargets; i++)
		print_skips(f, s, &s->targets[i]);
	for (i = 0; i < s->ntests; i++)
		fprintf(f, "test\t%s\t%s\n", s->tests[i].id,
			s->tests[i].claim);
	print_guest(f, s);
	for (i = 0; i < s->nprep; i++)
		fprintf(f, "prep\t%s\n", s->prep[i]);
	for (i = 0; i < s->npatches; i++) {
		const struct patch *p = &s->patches[i];

		fprintf(f, "patch\t%zu\t%s\n", i + 1, p->file);
		for (j = 0; j < p->nacc; j++)
			fprintf(f, "accept\t%zu\t%s\t%s\n", i + 1,
				p->acc[j].type, p->acc[j].reason);
		for (j = 0; j < p->nfacc; j++)
			fprintf(f, "finding-accept\t%zu\t%s\t%s\t%s\t%s\t%s\n",
				i + 1, p->facc[j].check, p->facc[j].kind,
				p->facc[j].file, p->facc[j].match,
				p->facc[j].reason);
		for (j = 0; j < p->nabi; j++)
			fprintf(f, "abi\t%zu\t%s\t%s\n", i + 1, p->abi[j].kind,
				p->abi[j].sym);
	}
	print_expect(f, s, 0, s->base_expect);
	for (i = 0; i < s->npatches; i++)
		print_expect(f, s, i + 1, s->patches[i].expect);
}
