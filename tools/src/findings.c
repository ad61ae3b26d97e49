// SPDX-License-Identifier: GPL-2.0
/*
 * findings - what the kernel's robots report (W=1 warnings, sparse,
 * kernel-doc), as findings that do not depend on line numbers, and which
 * findings of a commit are new to its parent: a finding is new when its
 * (file, kind, message) is not among the parent's, so that a line that
 * only moved is not new (the rule of netdev NIPA's kdoc check).
 *
 * Usage:
 *	findings parse --tool gcc|sparse|kdoc [--strip PREFIX]... FILE...
 *	findings new --parent P --child C [--accept A]
 *
 * parse reads the output of a tool (stdout and stderr as captured: gcc
 * or clang in a kernel build, sparse by "make C=2", scripts/kernel-doc
 * -none) and prints one line per finding, sorted (bytewise) and without
 * two lines of the same file, kind and message (the first one read is
 * kept):
 *
 *	file<TAB>kind<TAB>message<TAB>raw
 *
 * file:	the source file as the tree names it: each --strip PREFIX (an
 *		absolute worktree path, say) is taken off its start, then any
 *		leading "./" and "../" (a build directory's view of the tree).
 *		A PREFIX that does not end in "/" only matches a whole path
 *		component.
 * kind:	gcc, clang: the warning's option ("-Wmissing-prototypes"),
 *		also for an error made by -Werror ("-Werror=x" and clang's
 *		"-Werror,-Wx" are "-Wx", so that -Werror makes nothing new);
 *		"error" or "warning" for a diagnostic without an option. sparse:
 *		"sparse-warning" or "sparse-error". kdoc: "kernel-doc".
 * message:	the text after "warning: " or "error: " (a kernel-doc error
 *		keeps its "error: "), without the option that is the kind,
 *		without anything that depends on the position: a "path:LINE" or
 *		"path:LINE:COL" in the text loses its numbers and its path the
 *		--strip prefixes. Numbers that are part of the text stay.
 *		Typographic quotes (U+2018, U+2019; gcc in a UTF-8 locale)
 *		become "'", so that the locale changes nothing.
 *		gcc: the context line before it, "FILE: In function 'f':", is
 *		folded in, as "In function 'f': unused variable 'ret'"; for an
 *		inlined function with its callers, as "In function 'f',
 *		inlined from 'g': ...". Without it, two functions with the same
 *		warning were one finding, and a second one would not be new.
 *		A context holds until the next one, "FILE: At top level:", or a
 *		kbuild line; it applies to a diagnostic in its FILE only.
 *		sparse: the lines after a finding that give its details
 *		("FILE:L:C:    expected int *p") are folded in, each after " | ",
 *		so that two different mix-ups of a file are two findings.
 *		Nothing more is folded into a text past FOLD_MAX bytes.
 * raw:		the line as the tool printed it, for quoting.
 *
 * Every field has its tabs as spaces, a line its trailing CR and its
 * terminal escapes (colours, links) removed. A finding's line is
 * "FILE:LINE:COL: SEVERITY: ..." (gcc, clang, sparse) or "FILE:LINE:
 * SEVERITY: ..." (kernel-doc, which prints no column), so that in a W=1
 * build log "--tool gcc" does not take kernel-doc's lines, nor "--tool
 * kdoc" gcc's. "--tool sparse" and "--tool kdoc" skip a line that ends in
 * a gcc option ("[-W...]"), so that sparse's can read a "make C=2" log;
 * "--tool gcc" cannot tell sparse's lines there from gcc's diagnostics
 * without an option (kind "warning" or "error"). Every other line
 * (notes, source and caret lines, "In file included from", kbuild's
 * "  CC ..." and make's lines, "N warnings generated.", linker and
 * modpost messages, anything that is no finding) is ignored. 6.1's
 * kernel-doc has no -Wall (it stops at "Argument unknown!"): run it with
 * -none alone. "--" ends the options; at most MAX_STRIP --strip.

 * new reads two outputs of parse, the parent's and the child's, and an
 * optional accept file, TSV lines "kind<TAB>file<TAB>substring<TAB>
 * reason" (blank lines and lines starting with "#" are ignored): a new
 * finding of that kind and in that file ("*" for either: any) whose
 * message contains the substring (an empty one: any message) is accepted,
 * for the reason (not empty; the first line that matches gives it). It
 * prints, sorted,
 *
 *	new<TAB>file<TAB>kind<TAB>message<TAB>raw
 *	acked<TAB>file<TAB>kind<TAB>message<TAB>raw<TAB>reason
 *
 * for each child finding whose file, kind and message the parent does
 * not have (both are made unique as parse makes its output), then
 * "summary<TAB>N new, M acked, K gone", where gone counts the parent's
 * findings that the child does not have. Blank lines of P and C are
 * ignored; any other line must have four fields, file and kind not
 * empty.

 * Exit status: 0 ok (new: no finding is new but accepted ones), 1 a new
 * finding not accepted, 2 usage or I/O error, or an input error of new
 * (its message names FILE:LINE). Errors name the file ("findings:
 * error: FILE: ...").
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FINDINGS_OK	0
#define FINDINGS_NEW	1
#define FINDINGS_ERROR	2

#define MAX_STRIP	16	/* --strip options */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FOLD_MAX	4096	/* longest text lines are folded into */

#define UTIL_PROG "findings"
#define UTIL_ERROR FINDINGS_ERROR
#include "util.h"

enum tool {
	TOOL_GCC,
	TOOL_SPARSE,
	TOOL_KDOC,
	NR_TOOLS,
};

static const char * const tool_name[NR_TOOLS] = {
	[TOOL_GCC]	= "gcc",
	[TOOL_SPARSE]	= "sparse",
	[TOOL_KDOC]	= "kdoc",
};

struct finding {
	char *file;
	char *kind;
	char *msg;
	char *raw;
	size_t seq;		/* order of reading, for a stable sort */
};

struct findings {
	struct finding *v;
	size_t nr, cap;
};

/* The gcc context ("In function 'f'") of the lines that follow. */
struct context {
	char *file;		/* NULL: any file (an inlined function's) */
	char *text;		/* NULL: none */
};

/* What parse knows while it reads. */
struct parser {
	enum tool tool;
	const char *strip[MAX_STRIP];
	int nr_strip;
	struct findings out;
	struct context ctx;
	size_t fold;		/* sparse: the finding details go to, + 1 */
	char *fold_file;	/* its file as printed */
};

/* An accept line. */
struct accept {
	char *kind;
	char *file;
	char *sub;
	char *reason;
};

static void bad_usage(const char *why)
{
	fprintf(stderr,
		"%s: error: %s\n"
		"usage: %s parse --tool gcc|sparse|kdoc [--strip PREFIX]... FILE...\n"
		"       %s new --parent P --child C [--accept A]\n",
		prog, why, prog, prog);
	exit(FINDINGS_ERROR);
}

/* @a, @sep and @b in a new string. */
static char *join(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	char *s = xrealloc(NULL, la + ls + lb + 1);

	memcpy(s, a, la);
	memcpy(s + la, sep, ls);
	memcpy(s + la + ls, b, lb + 1);
	return s;
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * Read @path into @l, split at each '\n', each line without its trailing
 * CR. Errors name the file.
 */
static void read_file(struct lines *l, const char *path)
{
	lines_read(l, path, NULL, 0);
	lines_strip_cr(l);
}

/*
 * Drop the terminal escapes of @s in place: CSI sequences (colours),
 * OSC ones (links, up to BEL or ST) and two-byte ones.
 */
static void drop_escapes(char *s)
{
	char *w = s;

	while (*s) {
		if (*s != '\033') {
			*w++ = *s++;
			continue;
		}
		s++;
		if (*s == '[') {
			s++;
			while (*s && (*s < 0x40 || *s > 0x7e))
				s++;
		} else if (*s == ']') {
			while (*s && *s != '\a' && !(s[0] == '\033' && s[1] == '\\'))
				s++;
			if (*s == '\033')
				s++;
		}
		if (*s)
			s++;
	}
	*w = '\0';
}

static void untab(char *s)
{
	for (; *s; s++)
		if (*s == '\t')
			*s = ' ';
}

/* Typographic single quotes (U+2018, U+2019) as "'", in place. */
static void plain_quotes(char *s)
{
	char *w = s;

	while (*s) {
		if (starts_with(s, "\xe2\x80\x98") || starts_with(s, "\xe2\x80\x99")) {
			*w++ = '\'';
			s += 3;
			continue;
		}
		*w++ = *s++;
	}
	*w = '\0';
}

static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
}

/* The length of @prefix when @path starts with it as a whole component. */
static size_t strip_len(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	if (!n || strncmp(path, prefix, n))
		return 0;
	if (prefix[n - 1] == '/')
		return n;
	if (path[n] == '/')
		return n + 1;
	return 0;
}

/*
 * @path without the --strip prefixes, "./" and "../" it starts with, or
 * @path itself when nothing would be left.
 */
static const char *tree_path(const struct parser *p, const char *path)
{
	const char *orig = path;
	size_t n;
	int i, again = 1;

	while (again) {
		again = 0;
		for (i = 0; i < p->nr_strip; i++) {
			n = strip_len(path, p->strip[i]);
			if (n && path[n]) {
				path += n;
				again = 1;
			}
		}
		if (starts_with(path, "./") || starts_with(path, "../")) {
			path = strchr(path, '/') + 1;
			again = 1;
		}
		while (*path == '/' && again)
			path++;
	}
	return *path ? path : orig;
}

/* A character that ends a path in a message. */
static int path_end(char c)
{
	return !c || strchr(" '\"`()[]{}<>,;:", c);
}

/*
 * Whether @s (@n bytes) ends in a file name extension ("x.c", "x.h"): at
 * most four letters after a dot, the dot not first.
 */
static int has_extension(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && k <= 4 && is_alpha(s[n - 1 - k]))
		k++;
	return k >= 1 && k <= 4 && k + 1 < n && s[n - 1 - k] == '.';
}

/*
 * Take the positions out of the message @msg, in place: a ":LINE" or
 * ":LINE:COL" right after a path with an extension goes, and so does a
 * --strip prefix a path starts with.
 */
static void unposition(const struct parser *p, char *msg)
{
	char *r = msg, *w = msg, *tok = msg;
	int i, start = 1;
	size_t n;

	while (*r) {
		if (start) {
			for (i = 0; i < p->nr_strip; i++) {
				n = strip_len(r, p->strip[i]);
				if (n && !path_end(r[n])) {
					r += n;
					break;
				}
			}
		}
		if (r[0] == ':' && is_digit(r[1]) && has_extension(tok, w - tok)) {
			r++;
			while (is_digit(*r) || (r[0] == ':' && is_digit(r[1])))
				r++;
			continue;
		}
		start = path_end(*r);
		*w++ = *r++;
		if (start)
			tok = w;
	}
	*w = '\0';
}

/*
 * Split a diagnostic "FILE:LINE[:COL]:REST" in place: its file (no
 * spaces in it), whether it had a column, and what follows the colon.
 * Returns -1 when @s is no diagnostic.
 */
static int split_location(char *s, char **file, int *col, char **rest)
{
	char *c, *d;

	for (c = s; *c && *c != ' '; c++) {
		if (*c != ':' || c == s || !is_digit(c[1]))
			continue;
		d = c + 1;
		while (is_digit(*d))
			d++;
		if (*d != ':')
			continue;
		*col = is_digit(d[1]);
		if (*col) {
			d++;
			while (is_digit(*d))
				d++;
			if (*d != ':')
				return -1;
		}
		*c = '\0';
		*file = s;
		*rest = d + 1;
		return 0;
	}
	return -1;
}

/*
 * Take a gcc option off the end of @msg in place ("... [-Werror=x]")
 * and return it as a kind ("-Wx"), or NULL when @msg ends in none.
 */
static char *take_option(char *msg)
{
	size_t n = strlen(msg);
	char *open, *opt, *comma;

	if (!n || msg[n - 1] != ']')
		return NULL;
	open = strrchr(msg, '[');
	if (!open || open == msg || open[-1] != ' ' || !starts_with(open + 1, "-W"))
		return NULL;
	msg[n - 1] = '\0';
	opt = open + 1;
	while ((comma = strchr(opt, ',')) && starts_with(comma + 1, "-W"))
		opt = comma + 1;
	if (starts_with(opt, "-Werror="))
		opt = join("-W", "", opt + strlen("-Werror="));
	else
		opt = xstrdup(opt);
	open[-1] = '\0';
	return opt;
}

static void push(struct findings *f, char *file, char *kind, char *msg, char *raw)
{
	struct finding *x;

	if (f->nr == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		f->v = xrealloc(f->v, f->cap * sizeof(*f->v));
	}
	x = &f->v[f->nr];
	x->file = file;
	x->kind = kind;
	x->msg = msg;
	x->raw = raw;
	x->seq = f->nr++;
}

/* Replace the context by @text in @file (both taken over; may be NULL). */
static void set_context(struct parser *p, char *file, char *text)
{
	free(p->ctx.file);
	free(p->ctx.text);
	p->ctx.file = file;
	p->ctx.text = text;
}

/* "    inlined from 'g' at FILE:L:C:" adds ", inlined from 'g'". */
static void inlined_from(struct parser *p, const char *s)
{
	const char *name = s + strlen("    inlined from '");
	const char *end = strchr(name, '\'');
	char *from, *text;

	if (!end || !p->ctx.text || strlen(p->ctx.text) > FOLD_MAX)
		return;
	from = xstrndup(s + 4, end + 1 - (s + 4));
	text = join(p->ctx.text, ", ", from);
	free(from);
	free(p->ctx.text);
	p->ctx.text = text;
}

/*
 * A gcc context line: "FILE: In function 'f':", "FILE: At top level:",
 * "In function 'f'," and "    inlined from 'g' at FILE:L:C:". Returns 1
 * when @s (its quotes made plain) is one.
 */
static int gcc_context(struct parser *p, const char *s)
{
	const char *sp = strstr(s, ": ");
	size_t n = strlen(s);

	if (starts_with(s, "In function '") && s[n - 1] == ',') {
		set_context(p, NULL, xstrndup(s, n - 1));
		return 1;
	}
	if (starts_with(s, "    inlined from '")) {
		inlined_from(p, s);
		return 1;
	}
	if (!sp || memchr(s, ' ', sp - s))
		return 0;
	if (!strcmp(sp, ": At top level:")) {
		set_context(p, NULL, NULL);
		return 1;
	}
	if (starts_with(sp, ": In function '") && s[n - 1] == ':') {
		set_context(p, xstrndup(s, sp - s),
			    xstrndup(sp + 2, s + n - 1 - (sp + 2)));
		return 1;
	}
	return 0;
}

/* kbuild's "  CC      x.o" and make's lines end a gcc context. */
static int build_line(const char *s)
{
	if (starts_with(s, "make"))
		return 1;
	return s[0] == ' ' && s[1] == ' ' && s[2] >= 'A' && s[2] <= 'Z';
}

/* Fold a sparse detail line into the finding it belongs to. */
static void sparse_detail(struct parser *p, const char *file, char *rest)
{
	struct finding *f;
	char *msg;

	if (!p->fold || strcmp(p->fold_file, file))
		return;
	f = &p->out.v[p->fold - 1];
	if (strlen(f->msg) > FOLD_MAX)
		return;
	unposition(p, rest);
	rtrim(rest);
	msg = join(f->msg, " | ", rest + strspn(rest, " "));
	free(f->msg);
	f->msg = msg;
}

/* The severity REST starts with: "warning" or "error", or NULL. */
static const char *severity(const char *rest, const char **msg)
{
	static const char * const sev[][2] = {
		{ " warning: ", "warning" },
		{ " error: ", "error" },
		{ " fatal error: ", "error" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sev); i++) {
		if (starts_with(rest, sev[i][0])) {
			*msg = rest + strlen(sev[i][0]);
			return sev[i][1];
		}
	}
	return NULL;
}

/*
 * The kind of a diagnostic of @sev whose text is @text (taken apart in
 * place), and its message in @msg; NULL when the tool has no such
 * findings.
 */
static char *kind_of(struct parser *p, const char *sev, const char *file,
		     char *text, char **msg)
{
	char *opt = take_option(text);
	const struct context *ctx = &p->ctx;

	if (p->tool == TOOL_GCC) {
		if (ctx->text && (!ctx->file || !strcmp(ctx->file, file)))
			*msg = join(ctx->text, ": ", text);
		else
			*msg = xstrdup(text);
		return opt ? opt : xstrdup(sev);
	}
	if (opt) {
		/* gcc's, in a log of several tools */
		free(opt);
		return NULL;
	}
	if (p->tool == TOOL_SPARSE) {
		*msg = xstrdup(text);
		return join("sparse-", "", sev);
	}
	*msg = strcmp(sev, "error") ? xstrdup(text) : join("error: ", "", text);
	return xstrdup("kernel-doc");
}

/* A line "FILE:LINE[:COL]: ..." split at @file, @col and @rest. */
static void parse_diagnostic(struct parser *p, char *file, int col, char *rest,
			     const char *raw)
{
	const char *sev, *text;
	char *kind, *msg;

	if (p->tool == TOOL_KDOC ? col : !col)
		return;
	sev = severity(rest, &text);
	if (!sev) {
		if (p->tool == TOOL_SPARSE && starts_with(rest, "  "))
			sparse_detail(p, file, rest);
		else
			p->fold = 0;
		return;
	}
	p->fold = 0;
	kind = kind_of(p, sev, file, (char *)text, &msg);
	if (!kind)
		return;
	unposition(p, msg);
	rtrim(msg);
	push(&p->out, xstrdup(tree_path(p, file)), kind, msg, xstrdup(raw));
	if (p->tool == TOOL_SPARSE) {
		p->fold = p->out.nr;
		free(p->fold_file);
		p->fold_file = xstrdup(file);
	}
}

static void parse_line(struct parser *p, char *line)
{
	char *raw, *file, *rest;
	int col;

	drop_escapes(line);
	untab(line);
	raw = xstrdup(line);
	plain_quotes(line);
	if (p->tool == TOOL_GCC && gcc_context(p, line)) {
		p->fold = 0;
	} else if (split_location(line, &file, &col, &rest)) {
		if (build_line(line))
			set_context(p, NULL, NULL);
		p->fold = 0;
	} else {
		parse_diagnostic(p, file, col, rest, raw);
	}
	free(raw);
}

/* By file, kind and message. */
static int cmp_key(const struct finding *x, const struct finding *y)
{
	int c = strcmp(x->file, y->file);

	if (!c)
		c = strcmp(x->kind, y->kind);
	if (!c)
		c = strcmp(x->msg, y->msg);
	return c;
}

/* By key, then in the order read. */
static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	int c = cmp_key(x, y);

	if (!c)
		c = (x->seq > y->seq) - (x->seq < y->seq);
	return c;
}

/* Sort @f and keep the first of each file, kind and message. */
static void sort_unique(struct findings *f)
{
	size_t i, n = 0;

	if (!f->nr)
		return;
	qsort(f->v, f->nr, sizeof(*f->v), cmp_finding);
	for (i = 1; i < f->nr; i++)
		if (cmp_key(&f->v[n], &f->v[i]))
			f->v[++n] = f->v[i];
	f->nr = n + 1;
}

static void flush_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		die("stdout: %s", strerror(errno));
}

/* The value of option argv[*i], which must have one. */
static const char *opt_value(int argc, char **argv, int *i)
{
	static char why[128];

	if (*i + 1 >= argc) {
		snprintf(why, sizeof(why), "option %s needs a value", argv[*i]);
		bad_usage(why);
	}
	return argv[++*i];
}

static enum tool tool_of(const char *name)
{
	int t;

	for (t = 0; t < NR_TOOLS; t++)
		if (!strcmp(name, tool_name[t]))
			return t;
	bad_usage("--tool must be gcc, sparse or kdoc");
	return NR_TOOLS;
}

static int cmd_parse(int argc, char **argv)
{
	struct parser p = { .tool = NR_TOOLS };
	struct lines l;
	size_t j;
	int i = 2;

	for (; i < argc && starts_with(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--tool")) {
			p.tool = tool_of(opt_value(argc, argv, &i));
		} else if (!strcmp(argv[i], "--strip") && p.nr_strip < MAX_STRIP) {
			p.strip[p.nr_strip++] = opt_value(argc, argv, &i);
		} else {
			bad_usage("unknown option or too many --strip");
		}
	}
	if (p.tool == NR_TOOLS)
		bad_usage("parse needs --tool");
	if (i == argc)
		bad_usage("parse needs a FILE");
	for (; i < argc; i++) {
		read_file(&l, argv[i]);
		set_context(&p, NULL, NULL);
		p.fold = 0;
		for (j = 0; j < l.nr; j++)
			parse_line(&p, l.v[j]);
		free(l.v);
		free(l.buf);
	}
	sort_unique(&p.out);
	for (j = 0; j < p.out.nr; j++)
		printf("%s\t%s\t%s\t%s\n", p.out.v[j].file, p.out.v[j].kind,
		       p.out.v[j].msg, p.out.v[j].raw);
	flush_stdout();
	return FINDINGS_OK;
}

/* Split @s at the first @max - 1 tabs; returns the number of fields. */
static int split_tabs(char *s, char **f, int max)
{
	char *tab;
	int n = 0;

	f[n++] = s;
	while (n < max && (tab = strchr(s, '\t'))) {
		*tab = '\0';
		s = tab + 1;
		f[n++] = s;
	}
	return n;
}

static int blank(const char *s)
{
	return s[strspn(s, " ")] == '\0';
}

/* Read an output of parse into @f, sorted and unique. */
static void read_findings(struct findings *f, struct lines *l, const char *path)
{
	char *fld[4];
	size_t i;

	read_file(l, path);
	for (i = 0; i < l->nr; i++) {
		if (blank(l->v[i]))
			continue;
		if (split_tabs(l->v[i], fld, 4) != 4 || !fld[0][0] || !fld[1][0])
			die("%s:%zu: expected file, kind, message and raw, separated by tabs",
			    path, i + 1);
		push(f, fld[0], fld[1], fld[2], fld[3]);
	}
	sort_unique(f);
}

static struct accept *read_accepts(struct lines *l, const char *path, size_t *nr)
{
	struct accept *a = NULL;
	char *fld[4];
	size_t i;

	*nr = 0;
	read_file(l, path);
	for (i = 0; i < l->nr; i++) {
		if (blank(l->v[i]) || l->v[i][0] == '#')
			continue;
		if (split_tabs(l->v[i], fld, 4) != 4 || !fld[0][0] || !fld[1][0] ||
		    blank(fld[3]))
			die("%s:%zu: expected kind, file, message substring and reason, %s",
			    path, i + 1, "separated by tabs");
		untab(fld[3]);
		a = xrealloc(a, (*nr + 1) * sizeof(*a));
		a[*nr] = (struct accept){ fld[0], fld[1], fld[2], fld[3] };
		++*nr;
	}
	return a;
}

/* The reason the first matching accept line gives @f, or NULL. */
static const char *accepted(const struct finding *f, const struct accept *a, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (strcmp(a[i].kind, "*") && strcmp(a[i].kind, f->kind))
			continue;
		if (strcmp(a[i].file, "*") && strcmp(a[i].file, f->file))
			continue;
		if (strstr(f->msg, a[i].sub))
			return a[i].reason;
	}
	return NULL;
}

/* Print a new finding of the child, acked when @a accepts it. */
static int print_new(const struct finding *f, const struct accept *a, size_t nr_a)
{
	const char *why = accepted(f, a, nr_a);

	printf("%s\t%s\t%s\t%s\t%s", why ? "acked" : "new", f->file, f->kind,
	       f->msg, f->raw);
	if (why)
		printf("\t%s", why);
	putchar('\n');
	return !why;
}

/*
 * Print the child's findings that the parent lacks and the summary;
 * returns the count of those not accepted. Both are sorted and unique.
 */
static size_t compare(const struct findings *par, const struct findings *ch,
		      const struct accept *a, size_t nr_a)
{
	size_t i = 0, j = 0, nr_new = 0, nr_acked = 0, nr_gone = 0;
	int c;

	while (i < par->nr || j < ch->nr) {
		if (i == par->nr)
			c = 1;
		else if (j == ch->nr)
			c = -1;
		else
			c = cmp_key(&par->v[i], &ch->v[j]);
		if (c < 0) {
			nr_gone++;
			i++;
		} else if (c > 0) {
			if (print_new(&ch->v[j++], a, nr_a))
				nr_new++;
			else
				nr_acked++;
		} else {
			i++;
			j++;
		}
	}
	printf("summary\t%zu new, %zu acked, %zu gone\n", nr_new, nr_acked, nr_gone);
	return nr_new;
}

static int cmd_new(int argc, char **argv)
{
	const char *parent = NULL, *child = NULL, *acc = NULL;
	struct findings par = { 0 }, ch = { 0 };
	struct lines lp, lc, la;
	struct accept *a = NULL;
	size_t nr_a = 0, nr_new;
	int i;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--parent"))
			parent = opt_value(argc, argv, &i);
		else if (!strcmp(argv[i], "--child"))
			child = opt_value(argc, argv, &i);
		else if (!strcmp(argv[i], "--accept"))
			acc = opt_value(argc, argv, &i);
		else
			bad_usage("new takes --parent P --child C [--accept A]");
	}
	if (!parent || !child)
		bad_usage("new needs --parent and --child");
	read_findings(&par, &lp, parent);
	read_findings(&ch, &lc, child);
	if (acc)
		a = read_accepts(&la, acc, &nr_a);
	nr_new = compare(&par, &ch, a, nr_a);
	flush_stdout();
	return nr_new ? FINDINGS_NEW : FINDINGS_OK;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bad_usage("no command");
	if (!strcmp(argv[1], "parse"))
		return cmd_parse(argc, argv);
	if (!strcmp(argv[1], "new"))
		return cmd_new(argc, argv);
	bad_usage("the command is parse or new");
	return FINDINGS_ERROR;
}
