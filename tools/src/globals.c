// SPDX-License-Identifier: GPL-2.0
/*
 * globals - the upper-case shell variables that one of our shell files
 * sets and another reads: a value that crosses files without being
 * passed (issue 23), which `make lint` keeps from growing
 * (tools/globals.baseline).
 *
 * Usage:
 *	globals [--count] FILE...
 *	globals --defaults FILE...
 *	globals --shadows FILE...
 *
 * For each FILE, globals collects the names (^[A-Z_][A-Z0-9_]*$, at least
 * two characters, not one of bash's or the environment's own: PATH, IFS,
 * BASH_*, LC_*, XDG_*, ...; nor one of the environment the programs we
 * run read, their interface rather than ours: make's CC, ccache's
 * CCACHE_*, distcc's DISTCC_*, dpkg's DPKG_ADMINDIR, gcc's LIBRARY_PATH,
 * COMPILER_PATH and GCC_EXEC_PREFIX) that the file sets at a scope that is not a
 * function's own, and those it reads. Then it prints, sorted by name, each
 * name that some file sets and another one reads, tab separated:
 *
 *	NAME<TAB>SET-IN<TAB>READ-IN
 *
 * SET-IN and READ-IN are the files (as given) that set and that read it,
 * comma separated, sorted. With --count, only the number of such names.
 * With --defaults, the names that the files set by `: "${NAME:=...}"` (or
 * `${NAME=...}`) as a command of their own outside any function, sorted:
 * the defaults block of tools/lib.sh. With --shadows, each call that
 * gives a nameref argument (as above) a name the function declares local
 * itself, one line each, "FILE:LINE: FUNC's argument N, NAME, is a local
 * of FUNC's own: ...": bash resolves the nameref to that local, not the
 * caller's variable, and the caller's is never set.
 *
 * A set: NAME=, NAME+= and NAME[...]= at the start of a simple command
 * (before the command word, or as the whole command) and after env (a
 * word of the command, before the command env runs); the names after
 * declare, typeset, local (with or without a value), export and readonly
 * (with a value; a bare name after export or readonly is a read); read's
 * names and its -a array; printf -v NAME; mapfile's or readarray's array;
 * for NAME (and select); ${NAME:=...} and ${NAME=...} anywhere (a read
 * too); an arithmetic assignment (NAME=, NAME+= and the like, NAME++,
 * ++NAME: the compound ones a read too); {NAME}> (a redirection that
 * opens a file descriptor). A name that local, or declare or typeset
 * without -g, declares inside a function body (name() or function name,
 * then a { ... } group; nested groups counted) is that function's: its
 * sets and reads there on are not counted. The target of a nameref
 * (local -n x=NAME, declare -n) counts as a set and a read. So does a
 * name given as an argument to a function that makes that argument a
 * nameref (local -n x=$1, where $1 is counted past the body's shift
 * commands before it: `local -n a=$1; shift; local -n b=$1` makes $1
 * and $2 namerefs), in any of the files: `hash_to KEY ...` sets KEY as
 * much as KEY=... does. Such an argument is NAME, "NAME", or either
 * with a subscript (NAME[...]).
 *
 * A read: $NAME, ${NAME...}, ${#NAME...}, ${!NAME...}; a bare NAME in an
 * arithmetic context ((( )), $(( )), $[ ], for (( )), ${x:offset:length})
 * and in an array subscript, except the keys of an array that the same
 * file declares associative (declare -A, local -A).
 *
 * Skipped: comments, single-quoted strings ($'...' too), the bodies of
 * here-documents whose delimiter is quoted. Double-quoted strings,
 * command substitutions ($( ), ` `, <( ), >( )) and the bodies of
 * unquoted here-documents are read for expansions. Not modelled: eval,
 * let, names built at run time (printf -v "$var", ${!var}'s target, a
 * nameref function called through a variable, a nameref of $@ or ${N}),
 * subshells (a set inside ( ) or $( ) counts), bash's dynamic scoping (a
 * function reading its caller's local).
 *
 * The scanner keeps an explicit stack of nested contexts (quotes,
 * expansions, substitutions), at most MAX_FRAMES deep; an opener past that
 * depth is taken as a plain character. Any input ends in linear time.
 *
 * Exit status: 0; 2 on a usage or I/O error.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLOBALS_OK	0
#define GLOBALS_ERROR	2

#define UTIL_PROG "globals"
#define UTIL_ERROR GLOBALS_ERROR
#include "util.h"

#define MAX_FRAMES	64	/* nested quotes, expansions, substitutions */
#define MAX_FUNCS	32	/* nested function bodies tracked */
#define MAX_PENDING	16	/* here-documents started on one line */
#define MAX_DELIM	256	/* bytes of a here-document's delimiter */
#define MAX_SUBSCRIPT	256	/* bytes looked at for NAME[...]= */

/* The variables of bash and of the environment: never ours. */
static const char * const builtin_names[] = {
	"BASH", "BASHOPTS", "BASHPID", "CDPATH", "CI", "COLUMNS", "DISPLAY",
	"EDITOR", "EPOCHREALTIME", "EPOCHSECONDS", "EUID", "FUNCNAME",
	"FUNCNEST", "GLOBIGNORE", "GROUPS", "HISTFILE", "HISTSIZE", "HOME",
	"HOSTNAME", "HOSTTYPE", "IFS", "LANG", "LANGUAGE", "LINENO", "LINES",
	"LOGNAME", "MACHTYPE", "MAIL", "MAPFILE", "OLDPWD", "OPTARG", "OPTERR",
	"OPTIND", "OSTYPE", "PAGER", "PATH", "PIPESTATUS", "PPID", "PS1", "PS2",
	"PS3", "PS4", "PWD", "RANDOM", "REPLY", "SECONDS", "SHELL", "SHELLOPTS",
	"SHLVL", "SUDO_GID", "SUDO_UID", "SUDO_USER", "TERM", "TIMEFORMAT",
	"TMPDIR", "TZ", "UID", "USER", "VISUAL",
	/* The environment of the programs we run. */
	"CC", "COMPILER_PATH", "DPKG_ADMINDIR", "GCC_EXEC_PREFIX", "LIBRARY_PATH",
};

static const char * const builtin_prefixes[] = {
	"BASH_", "COMP_", "LC_", "XDG_",
	/* The environment of the programs we run. */
	"CCACHE_", "DISTCC_",
};

/* Whether the @n bytes at @s are a name we look at. */
static int is_candidate(const char *s, size_t n)
{
	size_t i;

	if (n < 2 || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	for (i = 1; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	for (i = 0; i < sizeof(builtin_names) / sizeof(*builtin_names); i++)
		if (strlen(builtin_names[i]) == n && !memcmp(builtin_names[i], s, n))
			return 0;
	for (i = 0; i < sizeof(builtin_prefixes) / sizeof(*builtin_prefixes); i++)
		if (!strncmp(builtin_prefixes[i], s, strlen(builtin_prefixes[i])))
			return 0;
	return 1;
}

/* The kinds of context, each a frame of the stack. */
enum {
	F_CMD,		/* commands: the file, $( ), <( ), ` ` */
	F_DQ,		/* "..." */
	F_PARAM,	/* ${...} */
	F_ARITH,	/* (( )), $(( )), $[ ], a subscript, ${x:offset} */
	F_HDOC,		/* the body of an unquoted here-document */
};

/* What the words of the current command are (F_CMD). */
enum {
	M_NONE,		/* no command word yet */
	M_OTHER,	/* an ordinary command's arguments */
	M_DECL,		/* declare, typeset, local, export, readonly */
	M_READ,		/* read */
	M_PRINTF,	/* printf: only -v matters */
	M_MAPFILE,	/* mapfile, readarray */
	M_FOR,		/* for, select: the variable */
	M_FUNCKW,	/* function: the name */
	M_CASE,		/* case: the word before "in" */
	M_COLON,	/* the : command (a default) */
	M_ENV,		/* env, before its command */
	M_NREF,		/* a function's arguments, some of them namerefs */
};

/* What the next word is, after an option that takes one. */
enum { N_NONE, N_ARG, N_SET };

/* The declaring command of M_DECL. */
enum { K_DECLARE, K_LOCAL, K_EXPORT };

struct frame {
	int type;
	int close;		/* F_CMD: ')', '`' or 0 (the file); F_ARITH: ')', ']', '}' */
	int dq;			/* F_PARAM, F_ARITH: inside double quotes */
	int word;		/* F_PARAM: past the operator */
	int keys;		/* F_ARITH: an associative array's keys */
	size_t depth;		/* F_CMD, F_ARITH: open ( or [ */
	/* F_CMD */
	int cmd_start;		/* a word here may be an assignment or the command */
	int in_word;
	int mode, next, redir;
	int pat;		/* in a case pattern */
	size_t case_nest;
	int in_arr;		/* in NAME=( ... ) */
	size_t arr_depth;
	int kw, decl_local, decl_ref, decl_assoc, decl_print;
	unsigned int nref_mask;	/* M_NREF: which arguments are namerefs */
	long nref_fn;		/* M_NREF: the function, in nref_fns */
	int argn;		/* M_NREF: the arguments so far */
	/* F_HDOC */
	char *delim;
	size_t dlen;
	int strip, bol;
};

struct heredoc {
	char *delim;
	size_t dlen;
	int quoted, strip;
};

struct func {
	size_t depth;		/* the braces open outside its body */
	struct set locals;
	struct set own;		/* every name it declares local, any case */
	char *name;		/* NULL when not known */
	int shifts;		/* shift commands in its body so far */
};

/* A function that makes some of its arguments namerefs (in any file). */
struct nref_fn {
	char *name;
	unsigned int mask;	/* bit k: argument k + 1 */
	struct set own;		/* the names it declares local */
};

#define MAX_NREF_ARG	32	/* arguments looked at for a nameref */

/* The file being scanned. */
static const char *buf;
static size_t len;

static struct frame stack[MAX_FRAMES];
static int nframes;
static struct func funcs[MAX_FUNCS];
static int nfuncs;
static size_t braces;		/* { groups open */
static int pending_func;	/* a function's name was seen: its { is next */
static char *pending_name;	/* that name */
static struct nref_fn *nref_fns;
static size_t nr_nref_fns, cap_nref_fns;
static int collecting;		/* the first pass: nameref functions only */
static const char *cur_path;	/* the file being scanned */
static char **shadows;		/* --shadows' lines */
static size_t nr_shadows, cap_shadows;
static struct heredoc pending[MAX_PENDING];
static int npending;

static struct set sets, reads, assoc, defaults;

static int ch(size_t i)
{
	return i < len ? (unsigned char)buf[i] : -1;
}

static int in_set(int c, const char *s)
{
	return c > 0 && strchr(s, c);
}

static int is_name0(int c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_name1(int c)
{
	return is_name0(c) || is_digit(c);
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Whether @c ends an unquoted word. */
static int ends_word(int c)
{
	return c == -1 || is_blank(c) || c == '\n' || in_set(c, ";&|<>()");
}

/* The end of the name at @i (@i itself when none starts there). */
static size_t name_end(size_t i)
{
	if (!is_name0(ch(i)))
		return i;
	while (is_name1(ch(i)))
		i++;
	return i;
}

/* The end of the unquoted, expansion-free run of a word at @i. */
static size_t lit_end(size_t i)
{
	while (!ends_word(ch(i)) && !in_set(ch(i), "'\"$`\\"))
		i++;
	return i;
}

static int word_is(size_t i, size_t e, const char *w)
{
	return e - i == strlen(w) && !memcmp(buf + i, w, e - i);
}

static struct frame *push(int type)
{
	struct frame *f;

	if (nframes == MAX_FRAMES)
		return NULL;
	f = &stack[nframes++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	return f;
}

static void push_cmd(int close)
{
	struct frame *f = push(F_CMD);

	if (f) {
		f->close = close;
		f->cmd_start = 1;
	}
}

static void push_dq(void)
{
	push(F_DQ);
}

static void push_arith(int close, int dq, int keys)
{
	struct frame *f = push(F_ARITH);

	if (f) {
		f->close = close;
		f->dq = dq;
		f->keys = keys;
	}
}

/* Drop the top frame; the file's own never goes. */
static void pop(void)
{
	if (nframes <= 1)
		return;
	nframes--;
	free(stack[nframes].delim);
	stack[nframes].delim = NULL;
}

static int is_local(const char *name)
{
	int k;

	for (k = 0; k < nfuncs; k++)
		if (set_has(&funcs[k].locals, name))
			return 1;
	return 0;
}

#define USE_READ	1
#define USE_SET		2

/* The file reads and/or sets the name from @s to @e. */
static void use(size_t s, size_t e, int how)
{
	char *name;

	if (!is_candidate(buf + s, e - s))
		return;
	name = xstrndup(buf + s, e - s);
	if (!is_local(name)) {
		if (how & USE_SET)
			set_add(&sets, name);
		if (how & USE_READ)
			set_add(&reads, name);
	}
	free(name);
}

/* The name from @s to @e is the innermost function's own (a set outside one). */
static void use_local(size_t s, size_t e)
{
	char *name;

	if (!nfuncs) {
		use(s, e, USE_SET);
		return;
	}
	if (!is_candidate(buf + s, e - s))
		return;
	name = xstrndup(buf + s, e - s);
	set_add(&funcs[nfuncs - 1].locals, name);
	free(name);
}

static void add_name(struct set *set, size_t s, size_t e)
{
	char *name = xstrndup(buf + s, e - s);

	set_add(set, name);
	free(name);
}

static int is_assoc(size_t s, size_t e)
{
	char *name = xstrndup(buf + s, e - s);
	int r = set_has(&assoc, name);

	free(name);
	return r;
}

/* The name of a function whose body comes: @s to @e (NULL: none). */
static void pending_set(size_t s, size_t e)
{
	free(pending_name);
	pending_name = e > s ? xstrndup(buf + s, e - s) : NULL;
}

static void func_open(void)
{
	char *name = pending_name;

	pending_name = NULL;
	if (nfuncs == MAX_FUNCS) {
		free(name);
		return;
	}
	memset(&funcs[nfuncs], 0, sizeof(funcs[nfuncs]));
	funcs[nfuncs].name = name;
	funcs[nfuncs++].depth = braces - 1;
}

static void func_free(struct func *fn)
{
	set_free(&fn->locals);
	set_free(&fn->own);
	free(fn->name);
	fn->name = NULL;
}

/* The nameref function @name (@n bytes): its index in nref_fns, or -1. */
static long nref_find(const char *name, size_t n)
{
	size_t k;

	for (k = 0; k < nr_nref_fns; k++)
		if (strlen(nref_fns[k].name) == n && !memcmp(nref_fns[k].name, name, n))
			return (long)k;
	return -1;
}

static void func_close(void)
{
	struct func *fn;
	long k;
	size_t i;

	if (!nfuncs || funcs[nfuncs - 1].depth != braces)
		return;
	fn = &funcs[--nfuncs];
	/* A nameref function's locals, for --shadows. */
	k = fn->name ? nref_find(fn->name, strlen(fn->name)) : -1;
	for (i = 0; k >= 0 && i < fn->own.cap; i++)
		if (fn->own.keys[i])
			set_add(&nref_fns[k].own, fn->own.keys[i]);
	func_free(fn);
}

/* The innermost function makes its argument @pos (1-based) a nameref. */
static void nref_arg(int pos)
{
	const char *name = nfuncs ? funcs[nfuncs - 1].name : NULL;
	long k;

	if (!name || pos < 1 || pos > MAX_NREF_ARG)
		return;
	k = nref_find(name, strlen(name));
	if (k < 0) {
		nref_fns = xgrow(nref_fns, nr_nref_fns, &cap_nref_fns, sizeof(*nref_fns));
		k = (long)nr_nref_fns++;
		memset(&nref_fns[k], 0, sizeof(nref_fns[k]));
		nref_fns[k].name = xstrdup(name);
	}
	nref_fns[k].mask |= 1u << (pos - 1);
}

#define SHADOW_WHY \
	"the nameref would set that local, not the caller's variable (rename one)"

/* The line of offset @i in the file being scanned. */
static size_t line_of(size_t i)
{
	size_t k, n = 1;

	for (k = 0; k < i && k < len; k++)
		n += buf[k] == '\n';
	return n;
}

/* Argument @f->argn, the name from @s to @e, of nameref function @f->nref_fn. */
static void shadow_check(const struct frame *f, size_t s, size_t e)
{
	const struct nref_fn *fn = &nref_fns[f->nref_fn];
	char *name;

	if (collecting)
		return;
	name = xstrndup(buf + s, e - s);
	if (set_has(&fn->own, name)) {
		shadows = xgrow(shadows, nr_shadows, &cap_shadows, sizeof(*shadows));
		shadows[nr_shadows++] =
			xasprintf("%s:%zu: %s's argument %d, %s, is a local of %s's own: %s",
				  cur_path, line_of(s), fn->name, f->argn, name, fn->name,
				  SHADOW_WHY);
	}
	free(name);
}

/*
 * Whether a ${NAME:=...} starting now is a default: an argument of the
 * : command of the file's own context, outside any function.
 */
static int at_default(void)
{
	int k;

	for (k = nframes - 1; k >= 0; k--)
		if (stack[k].type == F_CMD)
			return k == 0 && stack[k].mode == M_COLON && !nfuncs;
	return 0;
}

/* Past the single-quoted string whose quote is at @i. */
static size_t skip_squote(size_t i)
{
	const char *q = i + 1 < len ? memchr(buf + i + 1, '\'', len - i - 1) : NULL;

	return q ? (size_t)(q - buf) + 1 : len;
}

/* Past the $'...' string whose quote is at @i. */
static size_t skip_ansi(size_t i)
{
	for (i++; i < len; i++) {
		if (buf[i] == '\\')
			i++;
		else if (buf[i] == '\'')
			return i + 1;
	}
	return len;
}

/* ${ at @i: the parameter's name, then a frame for the rest. */
static size_t param(size_t i, int dq)
{
	size_t j = i + 2, s, e;
	struct frame *f;
	int pre = 0, def;

	if ((ch(j) == '#' || ch(j) == '!') && is_name0(ch(j + 1))) {
		pre = 1;
		j++;
	}
	s = j;
	e = name_end(j);
	def = at_default();
	f = push(F_PARAM);
	if (!f)
		return i + 2;
	f->dq = dq;
	if (e == s) {
		/* A special parameter: ${#}, ${1}, ${10}, ${@}. */
		if (is_digit(ch(j)))
			while (is_digit(ch(j)))
				j++;
		else if (in_set(ch(j), "#?@*$!-"))
			j++;
		return j;
	}
	if (!pre && (ch(e) == '=' || (ch(e) == ':' && ch(e + 1) == '='))) {
		use(s, e, USE_SET | USE_READ);
		if (def && is_candidate(buf + s, e - s))
			add_name(&defaults, s, e);
	} else {
		use(s, e, USE_READ);
	}
	if (ch(e) == '[') {
		push_arith(']', dq, is_assoc(s, e));
		return e + 1;
	}
	return e;
}

/* An expansion at @i, a '$'. */
static size_t dollar(size_t i, int dq)
{
	int c = ch(i + 1);
	size_t e;

	if (c == '(') {
		if (ch(i + 2) == '(') {
			push_arith(')', dq, 0);
			return i + 3;
		}
		push_cmd(')');
		return i + 2;
	}
	if (c == '{')
		return param(i, dq);
	if (c == '[') {
		push_arith(']', dq, 0);
		return i + 2;
	}
	if (!dq && c == '\'')
		return skip_ansi(i + 1);
	if (!dq && c == '"') {
		push_dq();
		return i + 2;
	}
	if (is_name0(c)) {
		e = name_end(i + 1);
		use(i + 1, e, USE_READ);
		return e;
	}
	if (is_digit(c) || in_set(c, "#?@*$!-"))
		return i + 2;
	return i + 1;
}

/* Where the line at @i ends, when it is the delimiter of @d; else 0. */
static int is_delim_line(size_t i, const char *d, size_t dlen, int strip, size_t *end)
{
	size_t s, e;

	if (strip)
		while (ch(i) == '\t')
			i++;
	s = i;
	while (i < len && buf[i] != '\n')
		i++;
	*end = i;
	e = i;
	if (e > s && buf[e - 1] == '\r')
		e--;
	return e - s == dlen && !memcmp(buf + s, d, dlen);
}

/* Past the body of the here-document @h, which starts at @i. */
static size_t skip_body(size_t i, const struct heredoc *h)
{
	size_t end;

	while (i < len) {
		if (is_delim_line(i, h->delim, h->dlen, h->strip, &end))
			return end < len ? end + 1 : len;
		i = end < len ? end + 1 : len;
	}
	return len;
}

/*
 * At @i, the start of a line: the bodies of the here-documents its
 * command started, a quoted one skipped, an unquoted one a frame.
 */
static size_t start_heredocs(size_t i)
{
	struct heredoc h;
	struct frame *f;

	while (npending) {
		h = pending[0];
		memmove(pending, pending + 1, --npending * sizeof(*pending));
		if (!h.quoted) {
			f = push(F_HDOC);
			if (f) {
				f->delim = h.delim;
				f->dlen = h.dlen;
				f->strip = h.strip;
				f->bol = 1;
				return i;
			}
		}
		i = skip_body(i, &h);
		free(h.delim);
	}
	return i;
}

/* The delimiter of a here-document, at @i, just past "<<". */
static size_t heredoc(struct frame *f, size_t i)
{
	char d[MAX_DELIM];
	size_t n = 0;
	int strip = 0, quoted = 0, q;

	if (ch(i) == '-') {
		strip = 1;
		i++;
	}
	while (is_blank(ch(i)))
		i++;
	while (!ends_word(ch(i))) {
		q = ch(i++);
		if (q == '\'' || q == '"') {
			quoted = 1;
			while (i < len && buf[i] != q) {
				if (n < MAX_DELIM)
					d[n++] = buf[i];
				i++;
			}
			if (i < len)
				i++;
			continue;
		}
		if (q == '\\') {
			quoted = 1;
			if (i == len)
				break;
			q = ch(i++);
		}
		if (n < MAX_DELIM)
			d[n++] = (char)q;
	}
	if (npending < MAX_PENDING) {
		pending[npending].delim = xstrndup(d, n);
		pending[npending].dlen = n;
		pending[npending].quoted = quoted;
		pending[npending].strip = strip;
		npending++;
	}
	f->in_word = 0;
	return i;
}

/* A redirection operator at @i ('<' or '>'): its target is no name. */
static size_t redirect(struct frame *f, size_t i)
{
	if (ch(i) == '<' && ch(i + 1) == '<' && ch(i + 2) != '<')
		return heredoc(f, i + 2);
	i++;
	while (in_set(ch(i), "<>&|"))
		i++;
	if (ch(i) == '-')
		i++;
	f->redir = 1;
	f->in_word = 0;
	return i;
}

/* A command ends: the next word may be an assignment or a command. */
static void end_cmd(struct frame *f)
{
	f->cmd_start = 1;
	f->mode = M_NONE;
	f->next = N_NONE;
	f->redir = 0;
	f->in_word = 0;
}

/* The name from @s to @e after a declaring command; @value: NAME=... */
static void decl_name(struct frame *f, size_t s, size_t e, int value)
{
	if (f->decl_local && nfuncs)
		add_name(&funcs[nfuncs - 1].own, s, e);
	if (f->decl_assoc)
		add_name(&assoc, s, e);
	if (f->decl_print)
		use(s, e, USE_READ);
	else if (f->decl_local)
		use_local(s, e);
	else if (f->kw == K_EXPORT && !value)
		use(s, e, USE_READ);
	else
		use(s, e, USE_SET);
}

/*
 * The value of a nameref at @i: NAME, "NAME" or 'NAME' is its target;
 * $N or "$N" (N 1 to 9) makes the function's argument N, past its
 * shifts, a nameref (nref_arg).
 */
static void ref_target(size_t i)
{
	int q = ch(i);
	size_t e;

	if (q == '"' || q == '\'')
		i++;
	if (q != '\'' && ch(i) == '$' && ch(i + 1) >= '1' && ch(i + 1) <= '9' &&
	    (q == '"' ? ch(i + 2) == '"' : ends_word(ch(i + 2)))) {
		if (nfuncs)
			nref_arg(ch(i + 1) - '0' + funcs[nfuncs - 1].shifts);
		return;
	}
	e = name_end(i);
	if (e == i)
		return;
	if ((q == '"' || q == '\'') ? ch(e) == q : ends_word(ch(e)))
		use(i, e, USE_SET | USE_READ);
}

/* The ']' that closes the subscript whose '[' is at @i, or 0. */
static size_t subscript_end(size_t i)
{
	size_t j, depth = 0;

	for (j = i + 1; j < len && j - i < MAX_SUBSCRIPT; j++) {
		if (buf[j] == '\n')
			return 0;
		if (buf[j] == '[') {
			depth++;
		} else if (buf[j] == ']') {
			if (!depth)
				return j;
			depth--;
		}
	}
	return 0;
}

/* NAME=, NAME+= or NAME[...]= at @i (the name ends at @n): where to go on, or 0. */
static size_t assignment(struct frame *f, size_t i, size_t n)
{
	size_t j, k = 0;

	if (ch(n) == '=') {
		j = n + 1;
	} else if (ch(n) == '+' && ch(n + 1) == '=') {
		j = n + 2;
	} else if (ch(n) == '[') {
		k = subscript_end(n);
		if (!k)
			return 0;
		if (ch(k + 1) == '=')
			j = k + 2;
		else if (ch(k + 1) == '+' && ch(k + 2) == '=')
			j = k + 3;
		else
			return 0;
	} else {
		return 0;
	}
	if (f->mode == M_DECL)
		decl_name(f, i, n, 1);
	else
		use(i, n, USE_SET);
	if (f->mode == M_DECL && f->decl_ref && !k)
		ref_target(j);
	if (k) {
		if (nframes == MAX_FRAMES)
			return k + 1;
		push_arith(']', 0, is_assoc(i, n));
		return n + 1;
	}
	return j;
}

/* Options of declare and the like, from @i to @e. */
static void decl_opts(struct frame *f, size_t i, size_t e)
{
	for (; i < e; i++) {
		char c = buf[i];

		if (c == 'f' || c == 'F') {
			/* Function names follow. */
			f->mode = M_OTHER;
			return;
		}
		if (c == 'g')
			f->decl_local = 0;
		f->decl_ref |= c == 'n';
		f->decl_assoc |= c == 'A';
		f->decl_print |= c == 'p';
	}
}

/*
 * Options from @i to @e (past the '-') of a command whose options in
 * @arg take an argument and whose option @arr (or 0) names an array to
 * set.
 */
static void cmd_opts(struct frame *f, size_t i, size_t e, const char *arg, int arr)
{
	size_t m;

	for (; i < e; i++) {
		if (arr && buf[i] == arr) {
			m = name_end(i + 1);
			if (i + 1 == e && ends_word(ch(e)))
				f->next = N_SET;
			else if (m == e && m > i + 1)
				use(i + 1, m, USE_SET);
			return;
		}
		if (in_set(ch(i), arg)) {
			if (i + 1 == e && ends_word(ch(e)))
				f->next = N_ARG;
			return;
		}
	}
}

/* A bare name word from @i to @n (whole): set it. */
static size_t set_word(size_t i, size_t n)
{
	if (n > i && ends_word(ch(n))) {
		use(i, n, USE_SET);
		return n;
	}
	return i;
}

/* Where "()" at @k (blanks before and inside) ends; 0 when none is there. */
static size_t parens_end(size_t k)
{
	while (is_blank(ch(k)))
		k++;
	if (ch(k) != '(')
		return 0;
	k++;
	while (is_blank(ch(k)))
		k++;
	return ch(k) == ')' ? k + 1 : 0;
}

/* After "function": the name, then () if any. */
static size_t func_name(struct frame *f, size_t i, size_t e)
{
	size_t k;

	if (e == i) {
		f->mode = M_OTHER;
		return i;
	}
	pending_set(i, e);
	k = parens_end(e);
	if (k)
		e = k;
	pending_func = 1;
	end_cmd(f);
	return e;
}

static const char * const keep_start[] = {
	"if", "then", "else", "elif", "do", "while", "until", "!", "time",
	"command", "builtin", "exec", "coproc",
};

/* The command word from @i to @e (@whole: nothing else in the word). */
static size_t command_word(struct frame *f, size_t i, size_t e, int whole)
{
	int pend = pending_func;
	size_t k;

	pending_func = 0;
	if (whole && word_is(i, e, "{")) {
		braces++;
		if (pend)
			func_open();
		return e;
	}
	if (whole && word_is(i, e, "}")) {
		if (braces)
			braces--;
		func_close();
		f->cmd_start = 0;
		f->mode = M_OTHER;
		return e;
	}
	if (whole) {
		for (k = 0; k < sizeof(keep_start) / sizeof(*keep_start); k++)
			if (word_is(i, e, keep_start[k]))
				return e;
		f->cmd_start = 0;
		f->mode = M_OTHER;
		if (word_is(i, e, "case")) {
			f->case_nest++;
			f->mode = M_CASE;
		} else if (word_is(i, e, "esac") && f->case_nest) {
			f->case_nest--;
			f->pat = 0;
		} else if (word_is(i, e, "for") || word_is(i, e, "select")) {
			f->mode = M_FOR;
		} else if (word_is(i, e, "function")) {
			f->mode = M_FUNCKW;
		} else if (word_is(i, e, "export") || word_is(i, e, "readonly") ||
			   word_is(i, e, "declare") || word_is(i, e, "typeset") ||
			   word_is(i, e, "local")) {
			f->mode = M_DECL;
			f->kw = buf[i] == 'l' ? K_LOCAL :
				buf[i] == 'd' || buf[i] == 't' ? K_DECLARE : K_EXPORT;
			f->decl_local = f->kw == K_LOCAL || (f->kw == K_DECLARE && nfuncs);
			f->decl_ref = 0;
			f->decl_assoc = 0;
			f->decl_print = 0;
		} else if (word_is(i, e, "read")) {
			f->mode = M_READ;
		} else if (word_is(i, e, "printf")) {
			f->mode = M_PRINTF;
		} else if (word_is(i, e, "mapfile") || word_is(i, e, "readarray")) {
			f->mode = M_MAPFILE;
		} else if (word_is(i, e, ":")) {
			f->mode = M_COLON;
		} else if (word_is(i, e, "env")) {
			f->mode = M_ENV;
		}
		if (f->mode != M_OTHER || word_is(i, e, "esac") ||
		    word_is(i, e, "fi") || word_is(i, e, "done"))
			return e;
	}
	/* name() or name (): a function; its body comes. */
	k = e > i ? parens_end(e) : 0;
	if (k) {
		pending_func = 1;
		pending_set(i, e);
		end_cmd(f);
		return k;
	}
	f->cmd_start = 0;
	f->mode = M_OTHER;
	if (whole && word_is(i, e, "shift") && nfuncs)
		funcs[nfuncs - 1].shifts++;
	f->nref_fn = whole ? nref_find(buf + i, e - i) : -1;
	f->nref_mask = f->nref_fn >= 0 ? nref_fns[f->nref_fn].mask : 0;
	if (f->nref_mask) {
		f->mode = M_NREF;
		f->argn = 0;
	}
	return i;
}

/*
 * Argument @f->argn of a nameref function at @i: NAME, "NAME", NAME[...]
 * or "NAME[...]" is set (and read) when the function makes it a nameref.
 */
static void nref_word(struct frame *f, size_t i)
{
	int q = ch(i) == '"';
	size_t n = name_end(i + q);
	int c = ch(n);

	f->argn++;
	if (f->argn > MAX_NREF_ARG || !(f->nref_mask & (1u << (f->argn - 1))))
		return;
	if (n > i + q && (c == '[' || (q ? c == '"' : ends_word(c)))) {
		use(i + q, n, USE_SET | USE_READ);
		shadow_check(f, i + q, n);
	}
}

/*
 * A word starts at @i in a command frame: what it is. Returns where the
 * scan goes on (@i: the word is scanned as any other).
 */
static size_t word(struct frame *f, size_t i)
{
	size_t e = lit_end(i), n = name_end(i), j;
	int whole = ends_word(ch(e));

	if (f->redir) {
		f->redir = 0;
		return i;
	}
	if (f->in_arr)
		return i;
	if (f->next) {
		j = f->next == N_SET ? set_word(i, n) : i;
		f->next = N_NONE;
		return j;
	}
	/* {NAME}> opens a file descriptor into NAME; {NAME}>&- closes it. */
	if (ch(i) == '{') {
		j = name_end(i + 1);
		if (j > i + 1 && ch(j) == '}' && (ch(j + 1) == '<' || ch(j + 1) == '>')) {
			use(i + 1, j, ch(j + 2) == '&' && ch(j + 3) == '-' ? USE_READ : USE_SET);
			return j + 1;
		}
	}
	if (f->pat) {
		if (whole && word_is(i, e, "esac") && f->case_nest) {
			f->case_nest--;
			f->pat = 0;
			f->cmd_start = 0;
			f->mode = M_OTHER;
			return e;
		}
		return i;
	}
	if (n > i && (f->cmd_start || f->mode == M_DECL || f->mode == M_ENV)) {
		j = assignment(f, i, n);
		if (j)
			return j;
	}
	switch (f->mode) {
	case M_DECL:
		if (ch(i) == '-' || ch(i) == '+') {
			decl_opts(f, i + 1, e);
			return e;
		}
		if (n > i && ends_word(ch(n))) {
			decl_name(f, i, n, 0);
			return n;
		}
		return i;
	case M_READ:
		if (ch(i) == '-') {
			cmd_opts(f, i + 1, e, "dnNptui", 'a');
			return e;
		}
		return set_word(i, n);
	case M_PRINTF:
		f->mode = M_OTHER;
		if (ch(i) == '-' && ch(i + 1) == 'v') {
			f->mode = M_PRINTF;
			cmd_opts(f, i + 1, e, "", 'v');
			return e;
		}
		return i;
	case M_MAPFILE:
		if (ch(i) == '-') {
			cmd_opts(f, i + 1, e, "dnOsuCc", 0);
			return e;
		}
		f->mode = M_OTHER;
		return set_word(i, n);
	case M_FOR:
		f->mode = M_OTHER;
		return set_word(i, n);
	case M_FUNCKW:
		return func_name(f, i, e);
	case M_ENV:
		if (ch(i) == '-') {
			if (whole && (word_is(i, e, "-u") || word_is(i, e, "-C") ||
				      word_is(i, e, "-S")))
				f->next = N_ARG;
			return e;
		}
		/* The command env runs. */
		f->cmd_start = 1;
		return command_word(f, i, e, whole);
	case M_NREF:
		nref_word(f, i);
		return i;
	case M_OTHER:
		/* setsid env X=1 cmd, run_logged LOG env X=1 cmd */
		if (whole && word_is(i, e, "env"))
			f->mode = M_ENV;
		return i;
	case M_CASE:
		if (whole && word_is(i, e, "in")) {
			f->pat = 1;
			f->mode = M_OTHER;
			return e;
		}
		return i;
	}
	if (f->cmd_start)
		return command_word(f, i, e, whole);
	return i;
}

/* '(' at @i in a command frame. */
static size_t open_paren(struct frame *f, size_t i)
{
	if (ch(i + 1) == '(' && !f->in_word && (f->cmd_start || f->mode == M_FOR)) {
		pending_func = 0;
		f->cmd_start = 0;
		f->mode = M_OTHER;
		f->in_word = 1;
		push_arith(')', 0, 0);
		return i + 2;
	}
	if (f->pat)
		return i + 1;
	f->depth++;
	if (f->in_word && i > 0 && buf[i - 1] == '=' && !f->in_arr) {
		/* NAME=( ... ): an array's words. */
		f->in_arr = 1;
		f->arr_depth = f->depth;
		f->in_word = 0;
		return i + 1;
	}
	pending_func = 0;
	end_cmd(f);
	return i + 1;
}

/* ')' at @i in a command frame. */
static size_t close_paren(struct frame *f, size_t i)
{
	if (f->pat) {
		f->pat = 0;
		end_cmd(f);
		return i + 1;
	}
	if (f->depth) {
		if (f->in_arr && f->depth == f->arr_depth) {
			f->in_arr = 0;
			f->in_word = 1;
		} else {
			f->cmd_start = 0;
			f->mode = M_OTHER;
			f->in_word = 0;
			f->redir = 0;
		}
		f->depth--;
		return i + 1;
	}
	if (f->close == ')')
		pop();
	return i + 1;
}

/* The escape, expansion or command substitution at @i, where each one
 * means the same in every context that expands (@dq: inside double
 * quotes): where it ends, or 0 when @i starts none.
 */
static size_t step_expansion(size_t i, int dq)
{
	switch (ch(i)) {
	case '\\':
		return i + 2;
	case '$':
		return dollar(i, dq);
	case '`':
		push_cmd('`');
		return i + 1;
	}
	return 0;
}

/* One step in a command frame, at @i. */
static size_t step_cmd(struct frame *f, size_t i)
{
	int c = ch(i);
	size_t j;

	if (c == '#' && !f->in_word) {
		j = i;
		while (j < len && buf[j] != '\n')
			j++;
		return j;
	}
	switch (c) {
	case ' ':
	case '\t':
	case '\r':
		f->in_word = 0;
		return i + 1;
	case '\n':
		f->in_word = 0;
		if (!f->in_arr && f->mode != M_CASE)
			end_cmd(f);
		i++;
		return npending ? start_heredocs(i) : i;
	case ';':
		end_cmd(f);
		if (ch(i + 1) == ';' || ch(i + 1) == '&') {
			if (f->case_nest)
				f->pat = 1;
			i++;
			if (ch(i + 1) == '&')
				i++;
		}
		return i + 1;
	case '&':
		if (ch(i + 1) == '>')
			return redirect(f, i + 1);
		end_cmd(f);
		return i + (ch(i + 1) == '&' ? 2 : 1);
	case '|':
		if (f->pat) {
			f->in_word = 0;
			return i + 1;
		}
		end_cmd(f);
		return i + (ch(i + 1) == '|' || ch(i + 1) == '&' ? 2 : 1);
	case '<':
	case '>':
		if (ch(i + 1) == '(') {
			push_cmd(')');
			return i + 2;
		}
		return redirect(f, i);
	case '(':
		return open_paren(f, i);
	case ')':
		return close_paren(f, i);
	case '\\':
		if (ch(i + 1) == '\n')
			return i + 2;
		break;
	case '`':
		if (f->close == '`') {
			pop();
			return i + 1;
		}
		break;
	}
	if (!f->in_word) {
		f->in_word = 1;
		j = word(f, i);
		if (j > i)
			return j;
	}
	j = step_expansion(i, 0);
	if (j)
		return j;
	switch (c) {
	case '\'':
		return skip_squote(i);
	case '"':
		push_dq();
		return i + 1;
	}
	return i + 1;
}

/* One step in double quotes. */
static size_t step_dq(size_t i)
{
	size_t j = step_expansion(i, 1);

	if (j)
		return j;
	if (ch(i) == '"') {
		pop();
		return i + 1;
	}
	for (i++; i < len && !in_set(ch(i), "\"\\$`"); i++)
		;
	return i;
}

/* One step in ${...}. */
static size_t step_param(struct frame *f, size_t i)
{
	int c = ch(i);
	size_t j;

	if (c == '}') {
		pop();
		return i + 1;
	}
	if (!f->word) {
		f->word = 1;
		if (c != ':')
			return i + 1;
		if (in_set(ch(i + 1), "-=+?"))
			return i + 2;
		/* ${x:offset:length}: arithmetic. */
		f->type = F_ARITH;
		f->close = '}';
		f->depth = 0;
		return i + 1;
	}
	j = step_expansion(i, f->dq);
	if (j)
		return j;
	switch (c) {
	case '\'':
		return f->dq ? i + 1 : skip_squote(i);
	case '"':
		push_dq();
		return i + 1;
	}
	return i + 1;
}

/* A name or number at @i in arithmetic. */
static size_t arith_name(struct frame *f, size_t i)
{
	size_t e, k, p;
	int how = USE_READ, c1, c2;

	if (is_digit(ch(i)) || (i > 0 && buf[i - 1] == '#')) {
		/* A number: 42, 0x1f, 16#ff. */
		while (is_name1(ch(i)) || ch(i) == '#')
			i++;
		return i;
	}
	e = name_end(i);
	if (f->keys)
		return e;
	for (k = e; is_blank(ch(k)); k++)
		;
	c1 = ch(k);
	c2 = ch(k + 1);
	if (c1 == '=' && c2 != '=')
		how = USE_SET;
	else if (in_set(c1, "+-*/%&|^") && c2 == '=')
		how |= USE_SET;
	else if ((c1 == '<' || c1 == '>') && c2 == c1 && ch(k + 2) == '=')
		how |= USE_SET;
	else if ((c1 == '+' || c1 == '-') && c2 == c1)
		how |= USE_SET;
	for (p = i; p > 0 && is_blank(ch(p - 1)); p--)
		;
	if (p >= 2 && (buf[p - 1] == '+' || buf[p - 1] == '-') && buf[p - 2] == buf[p - 1])
		how |= USE_SET;
	use(i, e, how);
	return e;
}

/* One step in arithmetic or a subscript. */
static size_t step_arith(struct frame *f, size_t i)
{
	int c = ch(i);
	size_t j;

	switch (c) {
	case '(':
	case '[':
		if (f->close == (c == '(' ? ')' : ']'))
			f->depth++;
		return i + 1;
	case ')':
	case ']':
	case '}':
		if (c != f->close)
			return i + 1;
		if (f->depth) {
			f->depth--;
			return i + 1;
		}
		pop();
		return i + (c == ')' && ch(i + 1) == ')' ? 2 : 1);
	case '"':
		push_dq();
		return i + 1;
	}
	j = step_expansion(i, f->dq);
	if (j)
		return j;
	if (is_name1(c))
		return arith_name(f, i);
	return i + 1;
}

/* One step in the body of an unquoted here-document. */
static size_t step_hdoc(struct frame *f, size_t i)
{
	size_t end;

	if (f->bol) {
		f->bol = 0;
		if (is_delim_line(i, f->delim, f->dlen, f->strip, &end)) {
			pop();
			return start_heredocs(end < len ? end + 1 : len);
		}
	}
	if (ch(i) == '\n') {
		f->bol = 1;
		return i + 1;
	}
	end = step_expansion(i, 1);
	return end ? end : i + 1;
}

/* Scan the text of one file into sets and reads. */
static void scan(void)
{
	struct frame *f;
	size_t i = 0, j = 0;

	nframes = 0;
	push_cmd(0);
	while (i < len) {
		f = &stack[nframes - 1];
		switch (f->type) {
		case F_CMD:
			j = step_cmd(f, i);
			break;
		case F_DQ:
			j = step_dq(i);
			break;
		case F_PARAM:
			j = step_param(f, i);
			break;
		case F_ARITH:
			j = step_arith(f, i);
			break;
		case F_HDOC:
			j = step_hdoc(f, i);
			break;
		}
		i = j > i ? j : i + 1;
	}
	while (nframes > 1)
		pop();
	nframes = 0;
	while (npending)
		free(pending[--npending].delim);
	while (nfuncs)
		func_free(&funcs[--nfuncs]);
	braces = 0;
	pending_func = 0;
	pending_set(0, 0);
}

/* What one file sets or reads. */
struct use {
	const char *name;
	const char *file;
	int set;
};

static struct use *uses;
static size_t nuses, cap_uses;

static void add_uses(const struct set *s, const char *file, int set)
{
	size_t i;

	for (i = 0; i < s->cap; i++) {
		if (!s->keys[i])
			continue;
		uses = xgrow(uses, nuses, &cap_uses, sizeof(*uses));
		uses[nuses].name = xstrdup(s->keys[i]);
		uses[nuses].file = file;
		uses[nuses++].set = set;
	}
}

/* Scan file @path; with @collect, only for the nameref functions it defines. */
static void scan_file(const char *path, int collect)
{
	FILE *fp = fopen(path, "rb");
	char *text;

	if (!fp)
		die("cannot open %s: %s", path, strerror(errno));
	cur_path = path;
	collecting = collect;
	text = slurp(fp, &len);
	if (!text)
		die("cannot read %s: %s", path, strerror(errno));
	fclose(fp);
	buf = text;
	scan();
	if (!collect) {
		add_uses(&sets, path, 1);
		add_uses(&reads, path, 0);
	}
	set_free(&sets);
	set_free(&reads);
	set_free(&assoc);
	free(text);
	buf = NULL;
	len = 0;
}

/* By name, the sets first, then by file. */
static int by_use(const void *a, const void *b)
{
	const struct use *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	if (x->set != y->set)
		return y->set - x->set;
	return strcmp(x->file, y->file);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Print the files of uses[@i..@e) (one kind, sorted), comma separated. */
static void print_files(size_t i, size_t e)
{
	size_t k;

	for (k = i; k < e; k++)
		if (k == i || strcmp(uses[k].file, uses[k - 1].file))
			printf("%s%s", k == i ? "" : ",", uses[k].file);
}

/* Whether file @file is among those of uses[@i..@e). */
static int file_in(size_t i, size_t e, const char *file)
{
	size_t k;

	for (k = i; k < e; k++)
		if (!strcmp(uses[k].file, file))
			return 1;
	return 0;
}

/* Print the files of uses[@r..@j) (reads, sorted) that are not among the
 * setting files uses[@i..@r), comma separated.
 */
static void print_foreign(size_t i, size_t r, size_t j)
{
	size_t k;
	int first = 1;

	for (k = r; k < j; k++) {
		if (k > r && !strcmp(uses[k].file, uses[k - 1].file))
			continue;
		if (file_in(i, r, uses[k].file))
			continue;
		printf("%s%s", first ? "" : ",", uses[k].file);
		first = 0;
	}
}

/* Print the names set in one file and read in another that does not set
 * them itself (a file that sets and reads a name of its own, as many a
 * test does, has its own variable of that name); their count.
 */
static size_t report(int print)
{
	size_t i, j, r, k, n = 0;
	int foreign;

	if (nuses)
		qsort(uses, nuses, sizeof(*uses), by_use);
	for (i = 0; i < nuses; i = j) {
		for (r = i; r < nuses && !strcmp(uses[r].name, uses[i].name) && uses[r].set; r++)
			;
		for (j = r; j < nuses && !strcmp(uses[j].name, uses[i].name); j++)
			;
		if (r == i || j == r)
			continue;
		foreign = 0;
		for (k = r; k < j && !foreign; k++)
			foreign = !file_in(i, r, uses[k].file);
		if (!foreign)
			continue;
		n++;
		if (!print)
			continue;
		printf("%s\t", uses[i].name);
		print_files(i, r);
		putchar('\t');
		print_foreign(i, r, j);
		putchar('\n');
	}
	return n;
}

static void print_defaults(void)
{
	char **v = xrealloc(NULL, (defaults.nr + 1) * sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < defaults.cap; i++)
		if (defaults.keys[i])
			v[n++] = defaults.keys[i];
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	for (i = 0; i < n; i++)
		printf("%s\n", v[i]);
	free(v);
}

static void bad_usage(const char *why, const char *opt)
{
	if (opt)
		fprintf(stderr, "%s: error: %s: %s\n", prog, show(opt, strlen(opt)), why);
	else
		fprintf(stderr, "%s: error: %s\n", prog, why);
	fprintf(stderr, "usage: %s [--count | --defaults | --shadows] FILE...\n", prog);
	exit(GLOBALS_ERROR);
}

int main(int argc, char **argv)
{
	int i, count = 0, defs = 0, shadow = 0;
	size_t k, n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--count") || !strcmp(argv[i], "--defaults") ||
		    !strcmp(argv[i], "--shadows")) {
			if (count + defs + shadow)
				bad_usage("one of --count, --defaults, --shadows at most",
					  argv[i]);
			count = argv[i][2] == 'c';
			defs = argv[i][2] == 'd';
			shadow = argv[i][2] == 's';
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			bad_usage("unknown option", argv[i]);
		break;
	}
	if (i == argc)
		bad_usage("no FILE", NULL);
	/* The nameref functions of all the files first: any file calls them. */
	for (k = i; k < (size_t)argc; k++)
		scan_file(argv[k], 1);
	for (; i < argc; i++)
		scan_file(argv[i], 0);
	if (shadow)
		for (k = 0; k < nr_shadows; k++)
			printf("%s\n", shadows[k]);
	else if (defs)
		print_defaults();
	else if (count)
		printf("%zu\n", report(0));
	else
		report(1);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the output: %s", strerror(errno));
	for (k = 0, n = nuses; k < n; k++)
		free((char *)uses[k].name);
	free(uses);
	for (k = 0; k < nr_nref_fns; k++) {
		free(nref_fns[k].name);
		set_free(&nref_fns[k].own);
	}
	free(nref_fns);
	for (k = 0; k < nr_shadows; k++)
		free(shadows[k]);
	free(shadows);
	set_free(&defaults);
	return GLOBALS_OK;
}
