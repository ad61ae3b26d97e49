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

/* Where operation @o's options come in the fragment: the suites' first. */
static size_t kconfig_rank(const struct series *s, const struct guest_op *o)
{
	return (size_t)(o - s->ops) + (o->kind == GOP_KUNIT ? 0 : s->nops);
}

/* Option @k of operation @op, unless an option before it named it. */
static void print_kconfig(FILE *f, const struct series *s,
			  const struct guest_op *op, size_t k)
{
	const struct guest_op *o;
	size_t j;

	for (o = s->ops; o < s->ops + s->nops; o++) {
		if (kconfig_rank(s, o) > kconfig_rank(s, op))
			continue;
		for (j = 0; j < o->nconfig && (o != op || j < k); j++)
			if (!strcmp(o->config[j], op->config[k]))
				return;
	}
	fprintf(f, "kconfig\t%s=y\n", op->config[k]);
}

/*
 * What the guest needs besides the program: the test modules dir, the
 * guest programs' sources dir, the module files it loads (dracut
 * installs their dependencies), the programs it runs and the kernel
 * options of its KUnit suites.
 */
static void print_guest(FILE *f, const struct series *s)
{
	size_t i, k;

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
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].kind == GOP_KUNIT)
			break;
	/* The suites run at boot, built in; their results in debugfs. */
	if (i < s->nops)
		fprintf(f, "kconfig\tCONFIG_KUNIT=y\nkconfig\tCONFIG_KUNIT_DEBUGFS=y\n"
			"kconfig\tCONFIG_DEBUG_FS=y\n");
	/* What each operation needs, KUnit's suites first, each once. */
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].kind == GOP_KUNIT)
			for (k = 0; k < s->ops[i].nconfig; k++)
				print_kconfig(f, s, &s->ops[i], k);
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].kind != GOP_KUNIT)
			for (k = 0; k < s->ops[i].nconfig; k++)
				print_kconfig(f, s, &s->ops[i], k);
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
