// SPDX-License-Identifier: GPL-2.0
/*
 * modusers - whether kbuild can build C files of a kernel tree into a
 * loadable module, from the tree's Kbuild makefiles and Kconfig files,
 * so that "this commit removes EXPORT_SYMBOL(foo): does any modular code
 * still use foo?" is answered by kbuild's rules, not by a grep.
 *
 * Usage:
 *	modusers --tree DIR FILE...
 *
 * Each FILE is a path relative to DIR (drivers/scsi/fnic/fnic_trace.c).
 * For each one, in order, modusers prints one line, tab separated:
 *
 *	FILE<TAB>VERDICT<TAB>OPTION<TAB>WHY
 *
 * FILE is as given (control characters as '?'); OPTION is the CONFIG_X
 * the verdict rests on, or "-"; WHY is a short text for humans that
 * names the rule, the makefile and line, and the Kconfig declaration.
 *
 * module	the object can be built as a module: it is in obj-m, or in
 *		obj-$(CONFIG_X) with X declared tristate or def_tristate in
 *		some Kconfig file of the tree, or it is a part of a composite
 *		object (NAME-y, NAME-m, NAME-objs or NAME-$(CONFIG_Y), with
 *		any assignment operator) whose NAME.o is such a module object.
 *		Composites are followed to MAX_DEPTH levels; a cycle ends.
 * builtin	kbuild builds it only into the kernel: obj-y; lib-y or
 *		lib-$(CONFIG_X) (lib.a is linked into vmlinux); obj-$(CONFIG_X)
 *		with X bool or def_bool; obj-$(subst m,y,$(CONFIG_X)),
 *		obj-$(CONFIG_X:m=y) or obj-$(findstring y,...), which are never
 *		m; an obj- variable whose option cannot be told (no CONFIG_
 *		in it: obj-$(VDSO64-y)); or a part of a builtin composite.
 * unknown	the option of the rule is declared in no Kconfig file of the
 *		tree, or has no type, or is int, hex or string: it could be
 *		anything.
 * none		no kbuild rule builds it into the kernel or a module: no
 *		rule names the object (a user space program under tools/, a
 *		file #included by another .c), its only rules are obj-n ones,
 *		it is a part of a composite that no obj- or lib- list takes in
 *		(or only composites in a cycle), or of a program (the
 *		composite's lists have NAME.o itself, or NAME is in a
 *		hostprogs or userprogs list), its object is itself a composite
 *		(NAME.o made of NAME-y: NAME.c is not compiled), the file is
 *		missing, is not a .c or .S file, or FILE is absolute or has a
 *		".." component (WHY says which). "." components and doubled
 *		'/' are dropped.
 *
 * When several rules name the object, the highest verdict wins: module,
 * then unknown (the undeclared option may be a tristate one), builtin,
 * none; among equal ones the first found. An option expression with
 * several CONFIG_ symbols (obj-$(subst y,$(CONFIG_A),$(CONFIG_B))) is
 * read as "any of them"; one with a single symbol as that symbol.
 *
 * The makefile of a directory is its Kbuild if there is one, else its
 * Makefile. Backslash-continued lines are joined (WHY cites the line the
 * first one) and "#" comments (not "\#") dropped; define...endef blocks,
 * conditionals (both branches count), include lines, rules ("target:
 * ...") and their recipes (the lines after a rule that start with a tab)
 * are skipped. The object of dir/foo.c (or foo.S) is foo.o: modusers
 * looks for the word foo.o on the right
 * of each assignment of dir's makefile, then for sub/foo.o in its
 * parent's, and so on up to the top of the tree. The left side says
 * what the list is: obj-SUFFIX, lib-SUFFIX, NAME-SUFFIX (a composite
 * NAME.o, looked for the same way from the makefile's directory), or a
 * plain variable V (FOO_OBJS := foo.o), whose $(V) or ${V} is then looked
 * for in the same makefile (a list such as i2c-omap-m may be either: both
 * are tried). Flags and other lists (ccflags-y, subdir-, targets,
 * always-, hostprogs, userprogs, extra-y...) are no object lists.
 * Functions on the right ($(addprefix ...)) are not expanded.
 *
 * Not modelled: Kconfig dependencies (a tristate that depends on FOO=y
 * counts as one that can be m), whether kbuild descends into the
 * directory at all (obj-$(CONFIG_X) += dir/), the architecture (every
 * arch/ and every Kconfig file of the tree counts, also examples under
 * Documentation/ and scripts/kconfig/tests/).
 *
 * Kconfig: every file whose name starts with "Kconfig" anywhere under DIR
 * (symbolic links to directories and .git are not entered; the tree is
 * walked once, at the first option looked up) is read for "config X" and
 * "menuconfig X" lines (any indentation). An entry's type is the first
 * bool, boolean, def_bool, tristate, def_tristate, int, hex or string
 * line before the next config, menuconfig, choice, endchoice, menu,
 * endmenu, if, endif, source, comment or mainmenu line; help texts are
 * skipped. A symbol declared in several places is tristate when any
 * declaration is, else bool when any is; WHY cites the config line.
 *
 * Exit status: 0 (whatever the verdicts), 2 on a usage error or an I/O
 * error (an unreadable makefile, Kconfig file or directory of the tree,
 * the output), with a message that names the file ("modusers: error:
 * ...").
 */

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MODUSERS_OK	0
#define MODUSERS_ERROR	2

#define MAX_DEPTH	16	/* nested composites and variables followed */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define UTIL_PROG "modusers"
#define UTIL_ERROR MODUSERS_ERROR
#include "util.h"

/* The verdicts, weakest first: the strongest one found wins. */
enum rank {
	RANK_NONE,
	RANK_BUILTIN,
	RANK_UNKNOWN,
	RANK_MODULE,
};

static const char * const rank_name[] = {
	[RANK_NONE]	= "none",
	[RANK_BUILTIN]	= "builtin",
	[RANK_UNKNOWN]	= "unknown",
	[RANK_MODULE]	= "module",
};

/* A growing string. */
struct sb {
	char *s;
	size_t len, cap;
};

static void sb_addn(struct sb *b, const char *s, size_t n)
{
	size_t cap = b->cap ? b->cap : 64;

	if (n > SIZE_MAX / 4 - b->len)
		die("out of memory");
	while (cap < b->len + n + 1)
		cap *= 2;
	if (cap != b->cap) {
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_adds(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

static void sb_addf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_adds(b, s);
	free(s);
}

static void sb_reset(struct sb *b)
{
	sb_addn(b, "", 0);
	b->len = 0;
	b->s[0] = '\0';
}

/* A set of strings with a number each: open addressing, FNV-1a. */
struct map {
	char **keys;
	size_t *vals;
	size_t cap, nr;
};

static size_t map_slot(const struct map *m, const char *key)
{
	size_t i = str_hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The number of @key, or NULL when @m has no @key. */
static size_t *map_get(const struct map *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = map_slot(m, key);
	return m->keys[i] ? &m->vals[i] : NULL;
}

/* Add @key with the number @val; returns 0 when it was there already. */
static int map_add(struct map *m, const char *key, size_t val)
{
	struct map old = *m;
	size_t i;

	if (map_get(m, key))
		return 0;
	if (2 * (m->nr + 1) > m->cap) {
		if (m->cap > SIZE_MAX / 4 / sizeof(*m->vals))
			die("out of memory");
		m->cap = m->cap ? 2 * m->cap : 64;
		m->keys = xrealloc(NULL, m->cap * sizeof(*m->keys));
		m->vals = xrealloc(NULL, m->cap * sizeof(*m->vals));
		memset(m->keys, 0, m->cap * sizeof(*m->keys));
		for (i = 0; i < old.cap; i++) {
			size_t j;

			if (!old.keys[i])
				continue;
			j = map_slot(m, old.keys[i]);
			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
		free(old.keys);
		free(old.vals);
	}
	i = map_slot(m, key);
	m->keys[i] = xstrdup(key);
	m->vals[i] = val;
	m->nr++;
	return 1;
}

static void map_free(struct map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int is_ident(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The tree, without a trailing '/' (but "/" itself). */
static const char *tree;

/* DIR/@dir, or DIR/@dir/@name when @name is not NULL (@dir may be ""). */
static char *tree_path(const char *dir, const char *name)
{
	if (!name)
		return xasprintf("%s/%s", tree, dir);
	return xasprintf("%s/%s%s%s", tree, dir, *dir ? "/" : "", name);
}

/* --- Kconfig --- */

enum ktype {
	KT_UNTYPED,
	KT_BOOL,
	KT_TRISTATE,
	KT_OTHER,
	NR_KTYPES,
};

static const struct {
	const char *word;
	enum ktype type;
} ktypes[] = {
	{ "bool",		KT_BOOL },
	{ "boolean",		KT_BOOL },
	{ "def_bool",		KT_BOOL },
	{ "tristate",		KT_TRISTATE },
	{ "def_tristate",	KT_TRISTATE },
	{ "int",		KT_OTHER },
	{ "hex",		KT_OTHER },
	{ "string",		KT_OTHER },
};

/* The words that end a config entry. */
static const char * const kends[] = {
	"config", "menuconfig", "choice", "endchoice", "menu", "endmenu",
	"if", "endif", "source", "osource", "rsource", "orsource", "comment",
	"mainmenu",
};

/* A Kconfig symbol: its first declaration of each type, "file:line". */
struct sym {
	char *loc[NR_KTYPES];
	const char *word[NR_KTYPES];	/* the type's keyword */
};

static struct sym *syms;
static size_t nr_syms, cap_syms;
static struct map symmap;
static int kconfig_done;

static size_t sym_get(const char *name)
{
	size_t *v = map_get(&symmap, name);

	if (v)
		return *v;
	syms = xgrow(syms, nr_syms, &cap_syms, sizeof(*syms));
	memset(&syms[nr_syms], 0, sizeof(*syms));
	map_add(&symmap, name, nr_syms);
	return nr_syms++;
}

static void sym_decl(size_t sym, enum ktype t, const char *word,
		     const char *rel, size_t line)
{
	struct sym *s = &syms[sym];

	if (s->loc[t])
		return;
	s->loc[t] = xasprintf("%s:%zu", rel, line);
	s->word[t] = word;
}

/* The columns of the indentation of @s (a tab to the next multiple of 8). */
static size_t indent_of(const char *s)
{
	size_t n = 0;

	for (; is_blank(*s); s++)
		n = *s == '\t' ? (n & ~(size_t)7) + 8 : n + 1;
	return n;
}

/* Is the first word of @s (@wl bytes at @w) @word? */
static int word_is(const char *w, size_t wl, const char *word)
{
	return strlen(word) == wl && !strncmp(w, word, wl);
}

/* Read the config entries of the Kconfig file @path (@rel in the tree). */
static void kconfig_parse(const char *path, const char *rel)
{
	struct lines l;
	size_t i, j, wl, ind, help_ind = 0, cur_line = 0;
	int help = 0, typed = 0, have = 0;
	size_t cur = 0;

	lines_read(&l, path, "Kconfig", 0);
	lines_strip_cr(&l);
	for (i = 0; i < l.nr; i++) {
		char *w = l.v[i], *name;

		ind = indent_of(w);
		while (is_blank(*w))
			w++;
		if (!*w)
			continue;
		/*
		 * Help text: its first line sets the indentation, a line
		 * indented less (or not at all) ends it.
		 */
		if (help == 1) {
			help = ind ? 2 : 0;
			help_ind = ind;
			if (help)
				continue;
		} else if (help == 2) {
			if (ind >= help_ind)
				continue;
			help = 0;
		}
		for (wl = 0; w[wl] && !is_blank(w[wl]); wl++)
			;
		if (word_is(w, wl, "help") || word_is(w, wl, "---help---")) {
			help = 1;
			continue;
		}
		for (j = 0; j < ARRAY_SIZE(kends); j++)
			if (word_is(w, wl, kends[j]))
				break;
		if (j < ARRAY_SIZE(kends)) {
			if (have && !typed)
				sym_decl(cur, KT_UNTYPED, "", rel, cur_line);
			have = 0;
			if (j > 1)
				continue;
			for (name = w + wl; is_blank(*name); name++)
				;
			for (wl = 0; is_ident(name[wl]); wl++)
				;
			if (!wl || (name[wl] && !is_blank(name[wl])))
				continue;
			name[wl] = '\0';
			cur = sym_get(name);
			cur_line = i + 1;
			have = 1;
			typed = 0;
			continue;
		}
		if (!have || typed)
			continue;
		for (j = 0; j < ARRAY_SIZE(ktypes); j++) {
			if (word_is(w, wl, ktypes[j].word)) {
				sym_decl(cur, ktypes[j].type, ktypes[j].word, rel,
					 cur_line);
				typed = 1;
				break;
			}
		}
	}
	if (have && !typed)
		sym_decl(cur, KT_UNTYPED, "", rel, cur_line);
	free(l.buf);
	free(l.v);
}

/*
 * Walk the directory @path (an sb whose first @root bytes are the tree)
 * and read every Kconfig* file under it.
 */
static void walk(struct sb *path, size_t root)
{
	size_t base = path->len;
	struct dirent *de;
	struct stat st;
	DIR *d;

	d = opendir(path->s);
	if (!d)
		die("cannot open directory %s: %s", path->s, strerror(errno));
	for (;;) {
		const char *name;
		int type, kconfig;

		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		name = de->d_name;
		if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, ".git"))
			continue;
		type = de->d_type;
		kconfig = starts_with(name, "Kconfig");
		if (type != DT_DIR && type != DT_UNKNOWN && !kconfig)
			continue;
		path->len = base;
		sb_adds(path, "/");
		sb_adds(path, name);
		if (type == DT_UNKNOWN || type == DT_LNK) {
			if (lstat(path->s, &st))
				die("cannot stat %s: %s", path->s, strerror(errno));
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG :
			       S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
		}
		/* A link to a Kconfig file counts; one to a directory not. */
		if (type == DT_LNK && kconfig && !stat(path->s, &st) &&
		    S_ISREG(st.st_mode))
			type = DT_REG;
		if (type == DT_DIR)
			walk(path, root);
		else if (type == DT_REG && kconfig)
			kconfig_parse(path->s, path->s + root + 1);
	}
	if (errno)
		die("cannot read directory %s: %s", path->s, strerror(errno));
	closedir(d);
	path->len = base;
	path->s[base] = '\0';
}

static void kconfig_read(void)
{
	struct sb path = { 0 };

	if (kconfig_done)
		return;
	kconfig_done = 1;
	sb_adds(&path, tree);
	walk(&path, path.len);
	free(path.s);
}

/*
 * What the symbol @name (without CONFIG_) makes of an obj- rule: its
 * rank, and a text for WHY added to @why.
 */
static enum rank sym_rank(const char *name, struct sb *why)
{
	const struct sym *s;
	size_t *v;

	kconfig_read();
	v = map_get(&symmap, name);
	if (!v) {
		sb_addf(why, "CONFIG_%s declared in no Kconfig", name);
		return RANK_UNKNOWN;
	}
	s = &syms[*v];
	if (s->loc[KT_TRISTATE]) {
		sb_addf(why, "%s is %s (%s", name, s->word[KT_TRISTATE],
			s->loc[KT_TRISTATE]);
		if (s->loc[KT_BOOL])
			sb_addf(why, "; %s at %s", s->word[KT_BOOL], s->loc[KT_BOOL]);
		sb_adds(why, ")");
		return RANK_MODULE;
	}
	if (s->loc[KT_BOOL]) {
		sb_addf(why, "%s is %s (%s)", name, s->word[KT_BOOL], s->loc[KT_BOOL]);
		return RANK_BUILTIN;
	}
	if (s->loc[KT_OTHER]) {
		sb_addf(why, "%s is %s (%s), not bool or tristate", name,
			s->word[KT_OTHER], s->loc[KT_OTHER]);
		return RANK_UNKNOWN;
	}
	sb_addf(why, "%s is declared with no type (%s)", name, s->loc[KT_UNTYPED]);
	return RANK_UNKNOWN;
}

/* --- makefiles --- */

struct assign {
	char *lhs;
	const char *op;
	size_t line;
	char **words;
	size_t nr, cap;
};

/* The makefile of a directory; rel is NULL when it has none. */
struct mk {
	char *rel;
	struct assign *a;
	size_t nr, cap;
};

static struct mk **mks;		/* pointers: a struct mk never moves */
static size_t nr_mks, cap_mks;
static struct map mkmap;

static const char * const ops[] = { "=", ":=", "::=", "+=", "?=", "!=" };

/* The words make skips: no assignment starts with them. */
static const char * const mk_skip[] = {
	"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include",
	"-include", "sinclude", "vpath", "unexport",
};

/* Where a makefile's reader is. */
struct mk_state {
	int in_define;		/* in define...endef */
	int in_rule;		/* after a rule: a line that starts with a tab is its recipe */
};

/* Add the logical line @s (line @line) of makefile @m if it is an assignment. */
static void mk_line(struct mk *m, char *s, size_t line, struct mk_state *st)
{
	char *p, *q, *lhs, *op_start = NULL, *end;
	struct assign *a;
	size_t i, wl, depth = 0;
	size_t w2;

	for (p = s; *p; p++) {
		if (*p == '#' && (p == s || p[-1] != '\\')) {
			*p = '\0';
			break;
		}
	}
	if (st->in_rule && *s == '\t' && !st->in_define)
		return;
	while (is_blank(*s))
		s++;
	if (!*s)
		return;
	for (wl = 0; s[wl] && !is_blank(s[wl]); wl++)
		;
	if (st->in_define) {
		st->in_define = !word_is(s, wl, "endef");
		return;
	}
	for (q = s + wl; is_blank(*q); q++)
		;
	for (w2 = 0; q[w2] && !is_blank(q[w2]); w2++)
		;
	if (word_is(s, wl, "define") ||
	    ((word_is(s, wl, "export") || word_is(s, wl, "override")) &&
	     word_is(q, w2, "define"))) {
		st->in_define = 1;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(mk_skip); i++)
		if (word_is(s, wl, mk_skip[i]))
			return;
	st->in_rule = 0;
	for (p = s; *p; p++) {
		if (*p == '(' || *p == '{') {
			depth++;
		} else if (*p == ')' || *p == '}') {
			if (depth)
				depth--;
		} else if (depth) {
			continue;
		} else if (*p == '=') {
			op_start = p;
			if (p > s && strchr(":+?!", p[-1]))
				op_start = p - 1;
			if (op_start > s && op_start[0] == ':' && op_start[-1] == ':')
				op_start--;
			break;
		} else if (*p == ':' && p[1] != '=' && !(p[1] == ':' && p[2] == '=')) {
			st->in_rule = 1;	/* a rule */
			return;
		}
	}
	if (!op_start)
		return;
	/* The left side: its last word (after export, override...). */
	end = op_start;
	while (end > s && is_blank(end[-1]))
		end--;
	depth = 0;
	lhs = s;
	for (q = s; q < end; q++) {
		if (*q == '(' || *q == '{')
			depth++;
		else if ((*q == ')' || *q == '}') && depth)
			depth--;
		else if (!depth && is_blank(*q))
			lhs = q + 1;
	}
	if (lhs >= end)
		return;
	m->a = xgrow(m->a, m->nr, &m->cap, sizeof(*m->a));
	a = &m->a[m->nr++];
	memset(a, 0, sizeof(*a));
	a->lhs = xstrndup(lhs, (size_t)(end - lhs));
	a->line = line;
	a->op = ops[0];
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strncmp(op_start, ops[i], (size_t)(p + 1 - op_start)) &&
		    strlen(ops[i]) == (size_t)(p + 1 - op_start))
			a->op = ops[i];
	/* The right side's words, split at blanks outside $(...). */
	for (p++; *p; ) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		depth = 0;
		for (q = p; *q && (depth || !is_blank(*q)); q++) {
			if (*q == '(' || *q == '{')
				depth++;
			else if ((*q == ')' || *q == '}') && depth)
				depth--;
		}
		a->words = xgrow(a->words, a->nr, &a->cap, sizeof(*a->words));
		a->words[a->nr++] = xstrndup(p, (size_t)(q - p));
		p = q;
	}
}

/* Read the makefile @path into @m. */
static void mk_parse(struct mk *m, const char *path)
{
	struct sb line = { 0 };
	size_t len, i = 0, e, n, j, lineno = 0, first;
	struct mk_state st = { 0 };
	int cont;
	char *buf;
	FILE *f;

	f = fopen(path, "rb");
	if (!f)
		die("cannot open makefile %s: %s", path, strerror(errno));
	buf = slurp(f, &len);
	if (!buf)
		die("cannot read makefile %s: %s", path, strerror(errno));
	fclose(f);
	while (i < len) {
		sb_reset(&line);
		first = lineno + 1;
		for (;;) {
			for (e = i; e < len && buf[e] != '\n'; e++)
				;
			lineno++;
			n = e - i;
			if (n && buf[i + n - 1] == '\r')
				n--;
			cont = n && buf[i + n - 1] == '\\';
			if (cont)
				n--;
			sb_addn(&line, buf + i, n);
			i = e < len ? e + 1 : e;
			if (!cont || i >= len)
				break;
			sb_adds(&line, " ");
		}
		for (j = 0; j < line.len; j++)
			if (!line.s[j])
				line.s[j] = ' ';
		mk_line(m, line.s, first, &st);
	}
	free(line.s);
	free(buf);
}

/* The makefile of the directory @dir ("" for the top), read once. */
static struct mk *mk_get(const char *dir)
{
	static const char * const names[] = { "Kbuild", "Makefile" };
	struct stat st;
	struct mk *m;
	size_t *v, i;
	char *path;

	v = map_get(&mkmap, dir);
	if (v)
		return mks[*v];
	mks = xgrow(mks, nr_mks, &cap_mks, sizeof(*mks));
	m = xrealloc(NULL, sizeof(*m));
	memset(m, 0, sizeof(*m));
	mks[nr_mks] = m;
	map_add(&mkmap, dir, nr_mks++);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		path = tree_path(dir, names[i]);
		if (!stat(path, &st)) {
			m->rel = xasprintf("%s%s%s", dir, *dir ? "/" : "", names[i]);
			mk_parse(m, path);
			free(path);
			break;
		}
		if (errno != ENOENT && errno != ENOTDIR)
			die("cannot stat makefile %s: %s", path, strerror(errno));
		free(path);
	}
	return m;
}

/* --- the verdict of one file --- */

struct query {
	enum rank rank;
	int found;		/* rank, opt and why are set */
	size_t calls;		/* verdicts given, kept or not */
	char *opt, *why;
	const char *steps[MAX_DEPTH + 1];
	size_t nr_steps;
	struct map seen;	/* objects and variables looked for */
};

/* A verdict: the steps that led here, then @text. */
static void verdict(struct query *q, enum rank r, const char *opt,
		    const char *text)
{
	struct sb why = { 0 };
	size_t i;

	q->calls++;
	if (q->found && r <= q->rank)
		return;
	sb_reset(&why);
	for (i = 0; i < q->nr_steps; i++)
		sb_adds(&why, q->steps[i]);
	sb_adds(&why, text);
	free(q->opt);
	free(q->why);
	q->rank = r;
	q->opt = xstrdup(opt);
	q->why = why.s;
	q->found = 1;
}

/* Do the first @n bytes of @lhs name one of the lists that hold no objects? */
static int no_object_list(const char *lhs, size_t n)
{
	static const char * const first[] = {
		"ccflags", "asflags", "ldflags", "cflags", "cppflags", "subdir",
		"always", "hostprogs", "userprogs", "targets", "extra", "clean",
		"no", "header", "dtb", "dtbo", "core", "drivers", "libs", "head",
		"obj", "lib",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(first); i++)
		if (strlen(first[i]) == n && !strncmp(lhs, first[i], n))
			return 1;
	return 0;
}

/* The CONFIG_ symbols in @s, each once, as a NULL-terminated array. */
static char **config_refs(const char *s, size_t *nr)
{
	char **v = NULL, *name;
	size_t cap = 0, i, n;
	const char *p;

	*nr = 0;
	for (p = s; (p = strstr(p, "CONFIG_")); p += 7) {
		if (p > s && is_ident(p[-1]))
			continue;
		for (n = 0; is_ident(p[7 + n]); n++)
			;
		if (!n)
			continue;
		name = xstrndup(p + 7, n);
		for (i = 0; i < *nr && strcmp(v[i], name); i++)
			;
		if (i < *nr) {
			free(name);
			continue;
		}
		v = xgrow(v, *nr, &cap, sizeof(*v));
		v[(*nr)++] = name;
	}
	return v;
}

static void free_refs(char **v, size_t nr)
{
	while (nr)
		free(v[--nr]);
	free(v);
}

/* Is @s "$(CONFIG_@name)" or "${CONFIG_@name}"? */
static int is_plain_ref(const char *s, const char *name)
{
	size_t n = strlen(name);

	return (starts_with(s, "$(CONFIG_") || starts_with(s, "${CONFIG_")) &&
	       !strncmp(s + 9, name, n) && s[9 + n] == (s[1] == '(' ? ')' : '}') &&
	       !s[10 + n];
}

/*
 * An obj- or lib- rule @a of makefile @m names the object; @suffix is
 * what follows "obj-" or "lib-" in its left side.
 */
static void list_rule(struct query *q, const struct mk *m, const struct assign *a,
		      const char *word, int lib, const char *suffix)
{
	struct sb t = { 0 }, st = { 0 };
	enum rank best = RANK_NONE, r;
	size_t nr = 0, i, pick = 0;
	char **refs = NULL, *opt;

	sb_addf(&t, "%s %s %s in %s:%zu", a->lhs, a->op, word, m->rel, a->line);
	if (*suffix == '$')
		refs = config_refs(suffix, &nr);
	opt = nr ? xasprintf("CONFIG_%s", refs[0]) : xstrdup("-");
	if (!strcmp(suffix, "n") || !*suffix) {
		sb_adds(&t, ": never built");
		verdict(q, RANK_NONE, "-", t.s);
	} else if (lib) {
		sb_adds(&t, ": into lib.a, built in");
		verdict(q, RANK_BUILTIN, opt, t.s);
	} else if (!strcmp(suffix, "y")) {
		sb_adds(&t, ": built in");
		verdict(q, RANK_BUILTIN, "-", t.s);
	} else if (!strcmp(suffix, "m")) {
		verdict(q, RANK_MODULE, "-", t.s);
	} else if (*suffix != '$') {
		sb_addf(&t, ": obj-%s is no list kbuild builds", suffix);
		verdict(q, RANK_NONE, "-", t.s);
	} else if (starts_with(suffix, "$(subst m,y,") ||
		   starts_with(suffix, "$(findstring y,") || strstr(suffix, ":m=y)")) {
		sb_adds(&t, ": its value is never m, built in");
		verdict(q, RANK_BUILTIN, opt, t.s);
	} else if (!nr) {
		sb_adds(&t, ": cannot tell its option, taken as built in");
		verdict(q, RANK_BUILTIN, "-", t.s);
	} else {
		for (i = 0; i < nr; i++) {
			struct sb s = { 0 };

			sb_reset(&s);
			r = sym_rank(refs[i], &s);
			if (!i || r > best) {
				best = r;
				pick = i;
				free(st.s);
				st = s;
			} else {
				free(s.s);
			}
		}
		free(opt);
		opt = xasprintf("CONFIG_%s", refs[pick]);
		if (nr > 1) {
			sb_adds(&t, "; read as any of");
			for (i = 0; i < nr; i++)
				sb_addf(&t, "%s CONFIG_%s", i ? "," : "", refs[i]);
		} else if (!is_plain_ref(suffix, refs[0])) {
			sb_addf(&t, "; read as CONFIG_%s", refs[0]);
		}
		sb_addf(&t, "; %s", st.s);
		verdict(q, best, opt, t.s);
	}
	free(opt);
	free(st.s);
	free(t.s);
	free_refs(refs, nr);
}

static int resolve(struct query *q, const char *obj, size_t depth, struct sb *looked);

static void scan(struct query *q, const struct mk *m, const char *dir,
		 const char *word, size_t depth);

/* Has @q looked for @kind:@what already? Marks it looked for. */
static int seen(struct query *q, const char *kind, const char *what)
{
	char *key = xasprintf("%s:%s", kind, what);
	int added = map_add(&q->seen, key, 0);

	free(key);
	return !added;
}

/*
 * Is @lhs a composite's list of @name: @name-y, -m, -objs, or with
 * @cond, @name-$(...)?
 */
static int composite_of(const char *lhs, const char *name, int cond)
{
	size_t n = strlen(name);

	if (strncmp(lhs, name, n) || lhs[n] != '-')
		return 0;
	lhs += n + 1;
	return !strcmp(lhs, "y") || !strcmp(lhs, "m") || !strcmp(lhs, "objs") ||
	       (cond && *lhs == '$');
}

/*
 * Does a list of the composite @name of @m have @name.o? Then @name is a
 * program (conf-objs := conf.o confdata.o), no object.
 */
static int self_part(const struct mk *m, const char *name)
{
	size_t i, j, n = strlen(name);

	for (i = 0; i < m->nr; i++) {
		if (!composite_of(m->a[i].lhs, name, 1))
			continue;
		for (j = 0; j < m->a[i].nr; j++)
			if (!strncmp(m->a[i].words[j], name, n) &&
			    !strcmp(m->a[i].words[j] + n, ".o"))
				return 1;
	}
	return 0;
}

/* The assignment of @m that lists the program @name (hostprogs, userprogs). */
static const struct assign *prog_list(const struct mk *m, const char *name)
{
	size_t i, j;

	for (i = 0; i < m->nr; i++) {
		if (!starts_with(m->a[i].lhs, "hostprogs") &&
		    !starts_with(m->a[i].lhs, "userprogs"))
			continue;
		for (j = 0; j < m->a[i].nr; j++)
			if (!strcmp(m->a[i].words[j], name))
				return &m->a[i];
	}
	return NULL;
}

/* @word is part of the program @name (@a of @m): no kernel object. */
static void prog_note(struct query *q, const struct mk *m, const struct assign *a,
		      const char *word, const char *name)
{
	const struct assign *p = prog_list(m, name);
	struct sb t = { 0 };

	sb_addf(&t, "%s is part of the program %s (%s in %s:%zu", word, name,
		a->lhs, m->rel, a->line);
	if (p)
		sb_addf(&t, "; %s %s %s in %s:%zu", p->lhs, p->op, name, m->rel, p->line);
	sb_adds(&t, "), no kernel object");
	verdict(q, RANK_NONE, "-", t.s);
	free(t.s);
}

/*
 * The assignment @a of makefile @m (of directory @dir) names @word:
 * follow it to a verdict.
 */
static void hit(struct query *q, const struct mk *m, const char *dir,
		const struct assign *a, const char *word, size_t depth)
{
	const char *lhs = a->lhs, *dash = NULL, *first = NULL, *p, *suffix;
	int composite, var, never, cycle = 0;
	size_t d = 0, calls;
	char *name, *obj, *ref;

	for (p = lhs; *p; p++) {
		if (*p == '(' || *p == '{') {
			d++;
		} else if ((*p == ')' || *p == '}') && d) {
			d--;
		} else if (!d && *p == '-') {
			dash = p;
			if (!first)
				first = p;
		}
	}
	if (dash && dash - lhs == 3 && starts_with(lhs, "obj")) {
		list_rule(q, m, a, word, 0, dash + 1);
		return;
	}
	if (dash && dash - lhs == 3 && starts_with(lhs, "lib")) {
		list_rule(q, m, a, word, 1, dash + 1);
		return;
	}
	if (no_object_list(lhs, first ? (size_t)(first - lhs) : strlen(lhs)))
		return;
	suffix = dash ? dash + 1 : "";
	never = dash && (!*suffix || !strcmp(suffix, "n"));
	composite = dash && dash > lhs && (!strcmp(suffix, "y") || !strcmp(suffix, "m") ||
					   !strcmp(suffix, "objs") || *suffix == '$');
	var = !strchr(lhs, '$');
	if (never) {
		char *t = xasprintf("%s is in %s (%s:%zu): never built", word, lhs,
				    m->rel, a->line);

		verdict(q, RANK_NONE, "-", t);
		free(t);
		return;
	}
	if (depth >= MAX_DEPTH) {
		char *t = xasprintf("%s is in %s (%s:%zu): stopped, %s %d", word, lhs,
				    m->rel, a->line, "composites nested deeper than",
				    MAX_DEPTH);

		verdict(q, RANK_NONE, "-", t);
		free(t);
		return;
	}
	name = xstrndup(lhs, dash ? (size_t)(dash - lhs) : strlen(lhs));
	if (composite && (self_part(m, name) || prog_list(m, name))) {
		prog_note(q, m, a, word, name);
		free(name);
		return;
	}
	calls = q->calls;
	if (composite) {
		ref = xasprintf("%s is part of %s.o (%s in %s:%zu); ", word, name, lhs,
				m->rel, a->line);
		q->steps[q->nr_steps++] = ref;
		obj = xasprintf("%s%s%s.o", dir, *dir ? "/" : "", name);
		cycle = resolve(q, obj, depth + 1, NULL);
		free(obj);
		free(ref);
		q->nr_steps--;
	}
	if (var) {
		char *key = xasprintf("%s:%s", m->rel, lhs);

		if (!seen(q, "v", key)) {
			ref = xasprintf("%s is in $(%s) (%s:%zu); ", word, lhs, m->rel,
					a->line);
			q->steps[q->nr_steps++] = ref;
			obj = xasprintf("$(%s)", lhs);
			scan(q, m, dir, obj, depth + 1);
			free(obj);
			obj = xasprintf("${%s}", lhs);
			scan(q, m, dir, obj, depth + 1);
			free(obj);
			free(ref);
			q->nr_steps--;
		}
		free(key);
	}
	/* Nothing came of it (or only a cycle): say where it ended. */
	if (q->calls == calls && (composite || var)) {
		char *t = composite ?
			xasprintf("%s is part of %s.o (%s in %s:%zu), %s", word, name,
				  lhs, m->rel, a->line, cycle ?
				  "composites in a cycle, none in an obj- or lib- list" :
				  "which no obj- or lib- list takes in") :
			xasprintf("%s is in %s (%s:%zu), which no object list uses",
				  word, lhs, m->rel, a->line);

		verdict(q, RANK_NONE, "-", t);
		free(t);
	}
	free(name);
}

/* Follow each assignment of @m that has the word @word. */
static void scan(struct query *q, const struct mk *m, const char *dir,
		 const char *word, size_t depth)
{
	size_t i, j;

	for (i = 0; i < m->nr; i++) {
		for (j = 0; j < m->a[i].nr; j++) {
			if (strcmp(m->a[i].words[j], word))
				continue;
			hit(q, m, dir, &m->a[i], word, depth);
			break;
		}
	}
}

/*
 * Look for the object @obj (its path in the tree) in the makefile of its
 * directory and in those above, each with its path from there, unless it
 * was looked for already (then returns 1); @looked, when not NULL, gets
 * what was looked for where.
 */
static int resolve(struct query *q, const char *obj, size_t depth, struct sb *looked)
{
	char *dir, *slash;
	const struct mk *m;
	size_t dl;

	if (seen(q, "o", obj))
		return 1;
	dir = xstrdup(obj);
	slash = strrchr(dir, '/');
	*(slash ? slash : dir) = '\0';
	for (;;) {
		dl = strlen(dir);
		m = mk_get(dir);
		if (m->rel) {
			if (looked)
				sb_addf(looked, "%s%s in %s", looked->len ? ", " : "",
					obj + (dl ? dl + 1 : 0), m->rel);
			scan(q, m, dir, obj + (dl ? dl + 1 : 0), depth);
		} else if (looked) {
			sb_addf(looked, "%s%s in %s/ (no Kbuild or Makefile)",
				looked->len ? ", " : "", obj + (dl ? dl + 1 : 0), dl ? dir : ".");
		}
		if (!dl)
			break;
		slash = strrchr(dir, '/');
		*(slash ? slash : dir) = '\0';
	}
	free(dir);
	return 0;
}

/*
 * @file relative to the tree, without "." components and doubled '/';
 * NULL with *@why set when it is not such a path.
 */
static char *norm_path(const char *file, const char **why)
{
	struct sb b = { 0 };
	const char *p = file, *e;

	if (!*file) {
		*why = "empty path";
		return NULL;
	}
	if (*file == '/') {
		*why = "an absolute path: FILE is relative to the tree";
		return NULL;
	}
	sb_reset(&b);
	while (*p) {
		for (e = p; *e && *e != '/'; e++)
			;
		if (e - p == 2 && !strncmp(p, "..", 2)) {
			free(b.s);
			*why = "a path with a .. component: FILE is relative to the tree";
			return NULL;
		}
		if (e > p && !(e - p == 1 && *p == '.')) {
			if (b.len)
				sb_adds(&b, "/");
			sb_addn(&b, p, (size_t)(e - p));
		}
		p = *e ? e + 1 : e;
	}
	if (!b.len) {
		free(b.s);
		*why = "names the tree's top directory, not a file";
		return NULL;
	}
	return b.s;
}

/*
 * Is the object @stem.o of directory @dir a composite (@stem-y, -m or
 * -objs with words)? Then its source @base is not compiled: says so in @q.
 */
static int is_composite(struct query *q, const char *dir, const char *stem,
			const char *base)
{
	const struct mk *m = mk_get(dir);
	size_t i;
	char *t;

	if (!m->rel || no_object_list(stem, strlen(stem)) || self_part(m, stem))
		return 0;
	for (i = 0; i < m->nr; i++) {
		if (!composite_of(m->a[i].lhs, stem, 0) || !m->a[i].nr)
			continue;
		t = xasprintf("%s.o is linked from %s (%s:%zu), not compiled from %s",
			      stem, m->a[i].lhs, m->rel, m->a[i].line, base);
		verdict(q, RANK_NONE, "-", t);
		free(t);
		return 1;
	}
	return 0;
}

/* Print @s as one field: tabs, newlines and other control bytes as '?'. */
static void put_field(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

static void query(const char *file)
{
	struct query q = { 0 };
	struct sb looked = { 0 };
	const char *why = NULL, *base = NULL;
	char *rel, *path, *obj, *dir, *stem;
	struct stat st;
	size_t n = 0;

	rel = norm_path(file, &why);
	if (rel) {
		n = strlen(rel);
		base = strrchr(rel, '/');
		base = base ? base + 1 : rel;
		path = tree_path(rel, NULL);
		if (n < 2 || (strcmp(rel + n - 2, ".c") && strcmp(rel + n - 2, ".S")))
			why = "not a .c or .S file: kbuild builds objects from those";
		else if (stat(path, &st))
			why = errno == ENOENT || errno == ENOTDIR ?
			      "no such file in the tree" : strerror(errno);
		else if (!S_ISREG(st.st_mode))
			why = "not a regular file";
		free(path);
	}
	if (!why) {
		obj = xstrdup(rel);
		obj[n - 1] = 'o';
		dir = xstrndup(rel, (size_t)(base - rel - (base > rel)));
		stem = xstrndup(base, strlen(base) - 2);
		if (!is_composite(&q, dir, stem, base)) {
			sb_reset(&looked);
			resolve(&q, obj, 0, &looked);
			if (!q.found || q.rank == RANK_NONE) {
				if (!q.found) {
					q.why = xasprintf("no kbuild rule names it: looked for %s",
							  looked.s);
					q.opt = xstrdup("-");
				}
				q.rank = RANK_NONE;
			}
		}
		free(obj);
		free(dir);
		free(stem);
	}
	put_field(file);
	printf("\t%s\t", rank_name[why ? RANK_NONE : q.rank]);
	put_field(why ? "-" : q.opt);
	putchar('\t');
	put_field(why ? why : q.why);
	putchar('\n');
	free(rel);
	free(q.opt);
	free(q.why);
	free(looked.s);
	map_free(&q.seen);
}

static void bad_usage(const char *why)
{
	fprintf(stderr, "%s: error: %s\nusage: %s --tree DIR FILE...\n", prog, why, prog);
	exit(MODUSERS_ERROR);
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	struct stat st;
	char *t;
	size_t n;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--tree")) {
			if (++i == argc || !*argv[i])
				bad_usage("--tree needs a directory");
			dir = argv[i];
			continue;
		}
		if (starts_with(argv[i], "--tree=")) {
			dir = argv[i] + 7;
			if (!*dir)
				bad_usage("--tree needs a directory");
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			bad_usage("unknown option");
		break;
	}
	if (!dir)
		bad_usage("no --tree");
	if (i == argc)
		bad_usage("no FILE");
	if (stat(dir, &st))
		die("cannot open tree %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die("tree %s: not a directory", dir);
	t = xstrdup(dir);
	for (n = strlen(t); n > 1 && t[n - 1] == '/'; n--)
		t[n - 1] = '\0';
	tree = t;
	for (; i < argc; i++)
		query(argv[i]);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the output: %s", strerror(errno));
	return MODUSERS_OK;
}
