// SPDX-License-Identifier: GPL-2.0
/*
 * abi - the exported symbols of a kernel build against those of the build
 * before it, judged against the changes a patch declares: what a module
 * can link against, added, removed or changed, by the kernel's own list
 * (Module.symvers, written by modpost).
 *
 * Usage:
 *	abi [--info] BEFORE AFTER [DECLARED]
 *
 * BEFORE and AFTER are Module.symvers files: one export a line, tab
 * separated, CRC, symbol, the object that exports it (vmlinux or a
 * module's path), the export type (EXPORT_SYMBOL, EXPORT_SYMBOL_GPL...)
 * and its namespace (empty for none; lines without the namespace field,
 * as older kernels write them, are read as none). DECLARED, when given
 * and not "-", holds the changes the patch means to make, one a line:
 *
 *	removes<TAB>SYMBOL	the export is gone
 *	adds<TAB>SYMBOL		a new export
 *	changes<TAB>SYMBOL	its type (GPL-ness) or namespace changes
 *
 * Blank lines and lines starting with '#' are ignored.
 *
 * abi prints one line per change, by symbol, tab separated:
 *
 *	CHANGE<TAB>SYMBOL<TAB>BEFORE<TAB>AFTER<TAB>VERDICT
 *
 * CHANGE is removed, added, changed (type or namespace) or moved (only
 * the exporting object differs); BEFORE and AFTER are TYPE[:NAMESPACE]@
 * OBJECT, or "-" where there is none. VERDICT is "declared" (the change
 * is declared), "undeclared", or "info" (a move, or any change with
 * --info: a series that declares nothing). Then, for every declaration
 * no change fulfils, a line "not-made<TAB>SYMBOL<TAB>KIND<TAB>-<TAB>
 * undeclared" (with --info, "info").
 *
 * Exit status: 0 when every change is declared (or info) and every
 * declaration is made, 1 otherwise, 2 on a usage error or bad input, with
 * a message "FILE:LINE: what is wrong" on stderr.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ABI_ERROR 2
#define UTIL_PROG "abi"
#define UTIL_ERROR ABI_ERROR
#include "util.h"

/* One export of a Module.symvers file. */
struct export {
	char *sym;
	char *obj;
	char *type;
	char *ns;	/* "" for none */
	size_t line;
};

/* One declared change. */
struct decl {
	char *sym;
	const char *kind;	/* "removes", "adds" or "changes" */
	size_t line;
	bool made;
};

struct list {
	const char *file;
	struct export *v;
	size_t n, cap;
};

static const char * const decl_kinds[] = { "removes", "adds", "changes", NULL };

/* A symbol name as the kernel's exports have them: printable, no space. */
static bool good_symbol(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!*u)
		return false;
	for (; *u; u++)
		if (*u <= 0x20 || *u >= 0x7f)
			return false;
	return true;
}

/* Split @line at tabs into at most @max fields; the count of fields. */
static size_t split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;

	f[n++] = line;
	while (n < max) {
		char *t = strchr(f[n - 1], '\t');

		if (!t)
			break;
		*t = '\0';
		f[n++] = t + 1;
	}
	return n;
}

/*
 * The lines of file @path, each NUL-terminated in place, through @fn;
 * a file that cannot be read, or that has a NUL byte, is an input error.
 */
static void each_line(const char *path, void (*fn)(void *, char *, size_t),
		      void *arg)
{
	FILE *f = fopen(path, "r");
	size_t len, lineno = 0;
	char *buf, *p, *end, *nl;

	if (!f)
		die("%s: cannot read: %s", path, strerror(errno));
	buf = slurp(f, &len);
	fclose(f);
	if (!buf)
		die("%s: cannot read: %s", path, strerror(errno));
	end = buf + len;
	p = buf + strlen(buf);
	if (p != end) {
		for (nl = buf; nl < p; nl++)
			lineno += *nl == '\n';
		die("%s:%zu: has a NUL byte: not a text file", path,
		    lineno + 1);
	}
	for (p = buf; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		fn(arg, p, ++lineno);
	}
	free(buf);
}

static void add_export(void *arg, char *line, size_t lineno)
{
	struct list *l = arg;
	struct export *e;
	char *f[6];
	size_t n;

	if (!*line)
		return;
	n = split_tabs(line, f, 6);
	if (n < 4 || n > 5)
		die("%s:%zu: expected 4 or 5 tab-separated fields, got %zu",
		    l->file, lineno, n);
	if (!good_symbol(f[1]))
		die("%s:%zu: bad symbol name '%s'", l->file, lineno,
		    show(f[1], strlen(f[1])));
	if (!*f[2] || !good_symbol(f[2]))
		die("%s:%zu: bad exporting object '%s'", l->file, lineno,
		    show(f[2], strlen(f[2])));
	if (strncmp(f[3], "EXPORT_SYMBOL", 13) || !good_symbol(f[3]))
		die("%s:%zu: bad export type '%s' (expected EXPORT_SYMBOL...)",
		    l->file, lineno, show(f[3], strlen(f[3])));
	if (n == 5 && *f[4] && !good_symbol(f[4]))
		die("%s:%zu: bad namespace '%s'", l->file, lineno,
		    show(f[4], strlen(f[4])));
	l->v = xgrow(l->v, l->n, &l->cap, sizeof(*l->v));
	e = &l->v[l->n++];
	e->sym = xstrdup(f[1]);
	e->obj = xstrdup(f[2]);
	e->type = xstrdup(f[3]);
	e->ns = xstrdup(n == 5 ? f[4] : "");
	e->line = lineno;
}

static int by_sym(const void *a, const void *b)
{
	const struct export *x = a, *y = b;
	int c = strcmp(x->sym, y->sym);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

static void read_exports(struct list *l, const char *path)
{
	size_t i;

	l->file = path;
	each_line(path, add_export, l);
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), by_sym);
	for (i = 1; i < l->n; i++)
		if (!strcmp(l->v[i].sym, l->v[i - 1].sym))
			die("%s:%zu: symbol '%s' exported twice (also at line %zu)",
			    path, l->v[i].line, show(l->v[i].sym, strlen(l->v[i].sym)),
			    l->v[i - 1].line);
}

struct decls {
	const char *file;
	struct decl *v;
	size_t n, cap;
};

static void add_decl(void *arg, char *line, size_t lineno)
{
	struct decls *d = arg;
	const char *kind = NULL;
	char *f[3];
	size_t n, i;

	if (!*line || *line == '#')
		return;
	n = split_tabs(line, f, 3);
	if (n != 2)
		die("%s:%zu: expected KIND<TAB>SYMBOL, got %zu field(s)", d->file,
		    lineno, n);
	for (i = 0; decl_kinds[i]; i++)
		if (!strcmp(f[0], decl_kinds[i]))
			kind = decl_kinds[i];
	if (!kind)
		die("%s:%zu: unknown kind '%s' (expected removes, adds or changes)",
		    d->file, lineno, show(f[0], strlen(f[0])));
	if (!good_symbol(f[1]))
		die("%s:%zu: bad symbol name '%s'", d->file, lineno,
		    show(f[1], strlen(f[1])));
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].sym, f[1]))
			die("%s:%zu: symbol '%s' declared twice (also at line %zu)",
			    d->file, lineno, show(f[1], strlen(f[1])), d->v[i].line);
	d->v = xgrow(d->v, d->n, &d->cap, sizeof(*d->v));
	d->v[d->n].sym = xstrdup(f[1]);
	d->v[d->n].kind = kind;
	d->v[d->n].line = lineno;
	d->v[d->n].made = false;
	d->n++;
}

/* "TYPE[:NS]@OBJECT" of @e into @buf (freed by the caller), or "-". */
static char *side(const struct export *e)
{
	if (!e)
		return xstrdup("-");
	return xasprintf("%s%s%s@%s", e->type, *e->ns ? ":" : "", e->ns, e->obj);
}

struct judge {
	struct decls *d;
	bool info;
	int bad;
};

/* Print one change of @sym and judge it against the declarations. */
static void change(struct judge *j, const char *what, const char *kind,
		   const struct export *before, const struct export *after)
{
	const char *sym = before ? before->sym : after->sym;
	const char *verdict = "undeclared";
	char *b = side(before), *a = side(after);
	size_t i;

	for (i = 0; kind && i < j->d->n; i++) {
		if (strcmp(j->d->v[i].sym, sym) || strcmp(j->d->v[i].kind, kind))
			continue;
		j->d->v[i].made = true;
		verdict = "declared";
	}
	if (!kind || (j->info && strcmp(verdict, "declared")))
		verdict = "info";
	if (!strcmp(verdict, "undeclared"))
		j->bad++;
	printf("%s\t%s\t%s\t%s\t%s\n", what, sym, b, a, verdict);
	free(b);
	free(a);
}

static void free_exports(struct list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].sym);
		free(l->v[i].obj);
		free(l->v[i].type);
		free(l->v[i].ns);
	}
	free(l->v);
}

static void print_help(FILE *f)
{
	fputs("usage: abi [--info] BEFORE AFTER [DECLARED]\n"
	      "  BEFORE, AFTER  Module.symvers of the build before and of this one\n"
	      "  DECLARED       the declared changes: KIND<TAB>SYMBOL a line, KIND\n"
	      "                 removes, adds or changes (\"-\": none)\n"
	      "  --info         report the changes, judge none (nothing declared)\n"
	      "Prints CHANGE SYMBOL BEFORE AFTER VERDICT lines; exit 0 when all is\n"
	      "declared and made, 1 when not, 2 on bad input.\n", f);
}

int main(int argc, char **argv)
{
	struct list before = { 0 }, after = { 0 };
	struct decls d = { 0 };
	struct judge j = { .d = &d };
	size_t i = 0, k = 0, n;
	int a = 1;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		print_help(stdout);
		return 0;
	}
	if (a < argc && !strcmp(argv[a], "--info")) {
		j.info = true;
		a++;
	}
	if (argc - a < 2 || argc - a > 3) {
		print_help(stderr);
		return ABI_ERROR;
	}
	read_exports(&before, argv[a]);
	read_exports(&after, argv[a + 1]);
	if (argc - a == 3 && strcmp(argv[a + 2], "-")) {
		d.file = argv[a + 2];
		each_line(d.file, add_decl, &d);
	}

	while (i < before.n || k < after.n) {
		const struct export *x = i < before.n ? &before.v[i] : NULL;
		const struct export *y = k < after.n ? &after.v[k] : NULL;
		int c = !x ? 1 : !y ? -1 : strcmp(x->sym, y->sym);

		if (c < 0) {
			change(&j, "removed", "removes", x, NULL);
			i++;
		} else if (c > 0) {
			change(&j, "added", "adds", NULL, y);
			k++;
		} else {
			if (strcmp(x->type, y->type) || strcmp(x->ns, y->ns))
				change(&j, "changed", "changes", x, y);
			else if (strcmp(x->obj, y->obj))
				change(&j, "moved", NULL, x, y);
			i++;
			k++;
		}
	}
	for (n = 0; n < d.n; n++) {
		if (d.v[n].made)
			continue;
		printf("not-made\t%s\t%s\t-\t%s\n", d.v[n].sym, d.v[n].kind,
		       j.info ? "info" : "undeclared");
		if (!j.info)
			j.bad++;
	}
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the output: %s", strerror(errno));
	free_exports(&before);
	free_exports(&after);
	for (n = 0; n < d.n; n++)
		free(d.v[n].sym);
	free(d.v);
	return j.bad ? 1 : 0;
}
