// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - validate a bisect-check series.yaml and print it as
 * normalised, tab-separated records.
 *
 * Usage: series [--arch NAME]... FILE
 *
 * guest.run, what the guest runner does, is checked here against the
 * runner's language (test/guest/README) and printed as its program lines.
 *
 * Each --arch option adds NAME to the arch names that a target may
 * have; without any, every [a-z0-9_]+ is taken.
 *
 * On success the records go to stdout (one per line, documented in
 * usage(), in the order print_series() prints them) and the exit code
 * is 0.  Otherwise every problem found is printed to stderr as
 * "FILE:LINE:COL: error: KEY: MESSAGE", followed by a summary line,
 * nothing at all is printed on stdout, and the exit code is 2.
 *
 * The file is read with the libyaml event API into a small tree that
 * keeps the position of every node, so that each error can point at
 * the offending key or value.  Anchors, aliases, duplicate keys and
 * multiple documents, which libyaml accepts, are rejected here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#define EXIT_BAD	2
#define UTIL_PROG	"series"
#define UTIL_ERROR	EXIT_BAD
#include "util.h"
#include "guestop.h"

#define KEY_LEN		256	/* longest dotted key path kept */
#define MAX_DEPTH	64	/* deepest nesting of collections accepted */
#define MAX_YAML	(4 << 20)	/* largest series.yaml accepted */
#define DEFAULT_TIMEOUT	120

#define NAME_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
			"0123456789._-"
#define NAME_MAX_LEN	64	/* of a series name: a file name <name>-v<N> */
#define PACKAGE_SET	"abcdefghijklmnopqrstuvwxyz0123456789.+-"
#define TEST_ID_SET	GUEST_TEST_ID_SET
#define TYPE_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
/* A kernel symbol: a C identifier (and the '.' of some compilers'). */
#define SYMBOL_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_."
#define TARGET_SET	"abcdefghijklmnopqrstuvwxyz0123456789_-"
#define TARGET_RE	"[a-z0-9][a-z0-9_-]*"
#define TARGET_MAX_LEN	32	/* of a target name */
#define ARCH_SET	"abcdefghijklmnopqrstuvwxyz0123456789_"
#define ARCH_RE		"[a-z0-9_]+"

/* The one target of a series without targets: (name, arch, compiler). */
#define DEFAULT_TARGET	"x86_64-gcc"
#define DEFAULT_ARCH	"x86_64"
#define DEFAULT_CC	"gcc"
#define NO_TARGETS	"leave targets out for the default, " DEFAULT_TARGET

enum ntype { N_SCALAR, N_SEQ, N_MAP, N_ALIAS };

/* One node of the document, with its 1-based position. */
struct node {
	enum ntype type;
	int line;
	int col;
	char *val;		/* scalar text, or the anchor an alias names */
	size_t len;
	bool plain;		/* scalar written without quotes or | > */
	bool dup;		/* key repeated in its mapping (reported) */
	char *anchor;
	struct node **kid;	/* items; or key, value, key, value... */
	size_t nkid;
	size_t cap;		/* room in kid[] */
};

struct error {
	int line;
	int col;
	size_t seq;
	char *key;		/* dotted key path */
	char *msg;
};

struct test {
	const char *id;
	const char *claim;
};

struct accept {
	const char *type;
	const char *reason;
};

/* A finding of a robots' check that a patch is allowed to have. */
struct finding_accept {
	const char *check;	/* one of finding_checks[] */
	const char *kind;	/* "*": any kind */
	const char *file;	/* "*": any file */
	const char *match;	/* a substring of its message */
	const char *reason;
};

/* An export a patch means to change (its abi: key). */
struct abi_decl {
	const char *kind;	/* one of abi_kinds[] */
	const char *sym;
};

/* A declared test that a target does not run, and why. */
struct skip {
	const char *test;
	const char *reason;
	bool *at;		/* per step (0 = base): skipped; NULL: all */
};

/* A build (and maybe boot) target. */
struct target {
	const char *name;
	const char *arch;
	const char *compiler;	/* "gcc" or "clang" */
	char *config;		/* its config fragment, or NULL */
	bool boot;
	struct skip *skips;	/* tests its guests do not run */
	size_t nskips;
};

struct patch {
	char *file;
	struct accept *acc;
	size_t nacc;
	struct finding_accept *facc;
	size_t nfacc;
	struct abi_decl *abi;	/* the exports it means to change */
	size_t nabi;
	char *expect;		/* per declared test: 'y', 'n' or 0 */
};

/*
 * An index of the elements of an array by a 64-bit hash of their keys,
 * so that finding duplicates takes linear time: open addressing with
 * linear probing, at most half full. It only stores hashes; the caller
 * compares the keys of the candidates index_next() returns.
 */
struct index {
	uint64_t *hash;
	size_t *elem;		/* element + 1; 0: a free slot */
	size_t cap;		/* 0 or a power of two */
	size_t nr;
};

/* A prep or series patch, remembered to catch duplicates. */
struct entry {
	char *file;
	char key[KEY_LEN];
	int line;
	off_t size;
	unsigned long long hash;
};

struct series {
	const char *dir;	/* directory of series.yaml, as given */
	const char *name;
	long version;
	char *cover;
	char *config;
	const char *package;
	long timeout;
	struct test *tests;
	size_t ntests;
	struct index ids;	/* of tests[] by id */
	bool tests_ok;		/* tests fully valid: check expect keys */
	char *declared;		/* "a, b, c" for messages */
	char **prep;
	size_t nprep;
	char *base_expect;
	struct patch *patches;
	size_t npatches;
	char *guest_modules;	/* the guest's test modules dir, or NULL */
	char *guest_programs;	/* the dir of the guest programs' sources */
	bool programs_given;	/* guest.programs given, maybe not usable */
	struct guest_op *ops;	/* guest.run */
	size_t nops;
	struct target *targets;	/* none: the default target */
	size_t ntargets;
	struct index names;	/* of targets[] by name */
	const char **archs;	/* the --arch names; none: any arch */
	size_t narchs, archs_cap;
	struct index arch_ix;	/* of archs[] */
	char *arch_list;	/* "x86_64, arm64" for messages */
	struct entry *ents;
	size_t nents, ents_cap;
	struct index ents_ix;	/* of ents[] by size and hash */
	void **allocs;		/* freed with the series */
	size_t nallocs;
};

static struct error *errors;
static size_t nerrors, errors_cap;

static const char * const top_keys[] = {
	"name", "version", "cover-letter", "config", "base", "boot", "targets",
	"tests", "guest", "patches", NULL
};

static const char * const base_keys[] = {
	"package", "prep", "expect", NULL
};

static const char * const boot_keys[] = { "timeout", NULL };
static const char * const test_keys[] = { "id", "claim", NULL };

static const char * const patch_keys[] = {
	"file", "checkpatch-accept", "findings-accept", "abi", "expect", NULL
};

/* The changes to the exported symbols a patch may declare (abi:). */
static const char * const abi_kinds[] = { "removes", "adds", "changes", NULL };

static const char * const accept_keys[] = { "type", "reason", NULL };

static const char * const finding_accept_keys[] = {
	"check", "kind", "file", "match", "reason", NULL
};

/* The robots' checks whose findings a patch may accept. */
static const char * const finding_checks[] = {
	"w1", "sparse", "kdoc", "tags", NULL
};

static const char * const target_keys[] = {
	"name", "arch", "compiler", "config", "boot", "skip", NULL
};

static const char * const skip_keys[] = { "tests", "steps", "reason", NULL };

static void out_of_memory(void)
{
	die("out of memory");
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		out_of_memory();
	return p;
}

/* User text is quoted with show() of util.h. */
static const char *shown(const struct node *n)
{
	return show(n->val, n->len);
}

/* Record the error @msg at @line:@col for the dotted key path @key. */
static void add_error(int line, int col, const char *key, const char *msg)
{
	struct error *e;

	errors = xgrow(errors, nerrors, &errors_cap, sizeof(*errors));
	e = &errors[nerrors];
	e->line = line;
	e->col = col;
	e->seq = nerrors;
	if (!*key)
		key = "(document)";
	e->key = xstrndup(key, strlen(key));
	e->msg = xstrndup(msg, strlen(msg));
	shorten_msg(e->msg);
	nerrors++;
}

/*
 * A message of any length is written to a memory stream; add_error()
 * shortens one longer than MSG_MAX by its middle, not its end (see
 * shorten_msg()).
 */
struct msg {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *msg_open(struct msg *m)
{
	m->buf = NULL;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f)
		out_of_memory();
	return m->f;
}

static char *msg_close(struct msg *m)
{
	if (fclose(m->f))
		out_of_memory();
	return m->buf;
}

/*
 * report_at(line, col, key, fmt, ...) and report(node, key, fmt, ...)
 * format with fprintf(), so that the compiler checks every format.
 */
#define report_at(line, col, key, ...)					\
	do {								\
		struct msg m_;						\
									\
		fprintf(msg_open(&m_), __VA_ARGS__);			\
		add_error(line, col, key, msg_close(&m_));		\
		free(m_.buf);						\
	} while (0)

#define report(n, key, ...)						\
	do {								\
		const struct node *n_ = (n);				\
									\
		report_at(n_->line, n_->col, key, __VA_ARGS__);		\
	} while (0)

static int cmp_error(const void *a, const void *b)
{
	const struct error *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/*
 * Key paths: "base" + "prep" -> "base.prep"; "patches" + 2 -> "patches[2]".
 * A deep parent is cut (between two UTF-8 characters) so that the path
 * fits in KEY_LEN bytes.
 */
static void key_join(char *dst, const char *parent, const char *name,
		     size_t len)
{
	const char *s = show(name, len);
	int n = (int)utf8_cut(parent, strlen(parent), KEY_LEN / 2);

	if (*parent)
		snprintf(dst, KEY_LEN, "%.*s.%s", n, parent, s);
	else
		snprintf(dst, KEY_LEN, "%s", s);
}

static void key_index(char *dst, const char *parent, size_t i)
{
	int n = (int)utf8_cut(parent, strlen(parent), KEY_LEN - 24);

	snprintf(dst, KEY_LEN, "%.*s[%zu]", n, parent, i);
}

static uint64_t hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (len--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void index_put(struct index *ix, uint64_t h, size_t elem)
{
	size_t i = h & (ix->cap - 1);

	while (ix->elem[i])
		i = (i + 1) & (ix->cap - 1);
	ix->hash[i] = h;
	ix->elem[i] = elem + 1;
}

/* Add element @elem, whose key hashes to @h. */
static void index_add(struct index *ix, uint64_t h, size_t elem)
{
	struct index old = *ix;
	size_t i;

	if (2 * (ix->nr + 1) > ix->cap) {
		if (old.cap > SIZE_MAX / 4 / sizeof(*ix->hash))
			out_of_memory();
		ix->cap = old.cap ? 2 * old.cap : 16;
		ix->hash = xcalloc(ix->cap, sizeof(*ix->hash));
		ix->elem = xcalloc(ix->cap, sizeof(*ix->elem));
		for (i = 0; i < old.cap; i++)
			if (old.elem[i])
				index_put(ix, old.hash[i], old.elem[i] - 1);
		free(old.hash);
		free(old.elem);
	}
	index_put(ix, h, elem);
	ix->nr++;
}

/*
 * The candidates for hash @h: start with *@slot = @h, and call again
 * with *@slot + 1 after each one (in *@elem); false when there are no
 * more.
 */
static bool index_next(const struct index *ix, uint64_t h, size_t *slot,
		       size_t *elem)
{
	size_t i;

	if (!ix->cap)
		return false;
	for (i = *slot & (ix->cap - 1); ix->elem[i]; i = (i + 1) & (ix->cap - 1)) {
		if (ix->hash[i] == h) {
			*slot = i;
			*elem = ix->elem[i] - 1;
			return true;
		}
	}
	return false;
}

/*
 * The element of the array @base (of @size-byte elements, indexed by @ix)
 * whose string at byte offset @off is @key (@len bytes), or -1.
 */
static ssize_t index_find(const struct index *ix, const void *base,
			  size_t size, size_t off, const char *key, size_t len)
{
	uint64_t h = hash_bytes(key, len);
	size_t slot = h, i;
	const char *k;

	for (; index_next(ix, h, &slot, &i); slot++) {
		k = *(const char * const *)((const char *)base + i * size + off);
		if (strlen(k) == len && !memcmp(k, key, len))
			return (ssize_t)i;
	}
	return -1;
}

static void index_free(struct index *ix)
{
	free(ix->hash);
	free(ix->elem);
	memset(ix, 0, sizeof(*ix));
}

/* ---- Reading the document into a tree of nodes ---- */

struct loader {
	yaml_parser_t parser;
	const char *text;	/* the whole input, for positions */
	size_t size;
};

static void free_node(struct node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nkid; i++)
		free_node(n->kid[i]);
	free(n->kid);
	free(n->val);
	free(n->anchor);
	free(n);
}

/* Turn a byte offset of the input into a 1-based line and column. */
static void offset_pos(const struct loader *ld, size_t off, int *line,
		       int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < ld->size; i++) {
		if (ld->text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)ld->text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

static void syntax_error(struct loader *ld)
{
	yaml_parser_t *p = &ld->parser;
	int line = (int)p->problem_mark.line + 1;
	int col = (int)p->problem_mark.column + 1;
	const char *problem = p->problem ? p->problem : "unknown problem";

	if (p->error == YAML_MEMORY_ERROR)
		out_of_memory();
	if (p->error == YAML_READER_ERROR) {
		offset_pos(ld, p->problem_offset, &line, &col);
		report_at(line, col, "(syntax)", "%s (byte 0x%02x)", problem,
			  (unsigned int)p->problem_value & 0xff);
		return;
	}
	if (p->problem_mark.index < ld->size &&
	    ld->text[p->problem_mark.index] == '\t')
		report_at(line, col, "(syntax)",
			  "%s (a tab: YAML indents with spaces only)", problem);
	else if (p->context)
		report_at(line, col, "(syntax)", "%s (%s at line %zu, column %zu)",
			  problem, p->context, p->context_mark.line + 1,
			  p->context_mark.column + 1);
	else
		report_at(line, col, "(syntax)", "%s", problem);
}

static bool next_event(struct loader *ld, yaml_event_t *ev)
{
	if (yaml_parser_parse(&ld->parser, ev))
		return true;
	syntax_error(ld);
	return false;
}

static struct node *new_node(enum ntype type, const yaml_mark_t *mark,
			     const yaml_char_t *anchor)
{
	struct node *n = xcalloc(1, sizeof(*n));

	n->type = type;
	n->line = (int)mark->line + 1;
	n->col = (int)mark->column + 1;
	if (anchor)
		n->anchor = xstrndup((const char *)anchor,
				     strlen((const char *)anchor));
	return n;
}

/*
 * Build the node for the event @ev (consumed here) and, for a collection,
 * for everything up to its end event.  Returns NULL on a syntax error.
 */
static struct node *load_node(struct loader *ld, yaml_event_t *ev, int depth)
{
	yaml_event_type_t end = YAML_NO_EVENT;
	struct node *n = NULL;
	yaml_event_t kid;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n = new_node(N_SCALAR, &ev->start_mark,
			     ev->data.scalar.anchor);
		n->val = xstrndup((const char *)ev->data.scalar.value,
				  ev->data.scalar.length);
		n->len = ev->data.scalar.length;
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		break;
	case YAML_ALIAS_EVENT:
		n = new_node(N_ALIAS, &ev->start_mark, NULL);
		n->val = xstrndup((const char *)ev->data.alias.anchor,
				  strlen((const char *)ev->data.alias.anchor));
		n->len = strlen(n->val);
		break;
	case YAML_SEQUENCE_START_EVENT:
		n = new_node(N_SEQ, &ev->start_mark,
			     ev->data.sequence_start.anchor);
		end = YAML_SEQUENCE_END_EVENT;
		break;
	case YAML_MAPPING_START_EVENT:
		n = new_node(N_MAP, &ev->start_mark,
			     ev->data.mapping_start.anchor);
		end = YAML_MAPPING_END_EVENT;
		break;
	default:
		/* The parser guarantees a node here. */
		report_at((int)ev->start_mark.line + 1,
			  (int)ev->start_mark.column + 1, "(syntax)",
			  "unexpected YAML event %d", ev->type);
		yaml_event_delete(ev);
		return NULL;
	}
	yaml_event_delete(ev);
	if (end == YAML_NO_EVENT)
		return n;

	if (depth >= MAX_DEPTH) {
		report(n, "(syntax)", "nesting deeper than %d levels", MAX_DEPTH);
		free_node(n);
		return NULL;
	}
	for (;;) {
		struct node *k;

		if (!next_event(ld, &kid))
			break;
		if (kid.type == end) {
			yaml_event_delete(&kid);
			return n;
		}
		k = load_node(ld, &kid, depth + 1);
		if (!k)
			break;
		n->kid = xgrow(n->kid, n->nkid, &n->cap, sizeof(*n->kid));
		n->kid[n->nkid++] = k;
	}
	free_node(n);
	return NULL;
}

/*
 * Parse the whole stream: exactly one document is expected.  Returns its
 * root, or NULL when nothing can be validated (errors are recorded).
 */
static struct node *load(struct loader *ld)
{
	struct node *root;
	yaml_event_t ev;

	if (!next_event(ld, &ev))
		return NULL;
	yaml_event_delete(&ev);		/* stream start */
	if (!next_event(ld, &ev))
		return NULL;
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_event_delete(&ev);
		report_at(1, 1, "", "no YAML document (the file is empty)");
		return NULL;
	}
	yaml_event_delete(&ev);		/* document start */
	if (!next_event(ld, &ev))
		return NULL;
	root = load_node(ld, &ev, 0);
	if (!root)
		return NULL;
	if (!next_event(ld, &ev))
		return root;
	yaml_event_delete(&ev);		/* document end */
	if (!next_event(ld, &ev))
		return root;
	if (ev.type == YAML_DOCUMENT_START_EVENT)
		report_at((int)ev.start_mark.line + 1,
			  (int)ev.start_mark.column + 1, "",
			  "a second YAML document: only one document is allowed");
	yaml_event_delete(&ev);
	return root;
}

/* ---- Checks that do not depend on the schema ---- */

static bool scalar_is(const struct node *n, const char *s)
{
	return n->type == N_SCALAR && n->len == strlen(s) &&
	       !memcmp(n->val, s, n->len);
}

static bool same_scalar(const struct node *a, const struct node *b)
{
	return a->type == N_SCALAR && b->type == N_SCALAR &&
	       a->len == b->len && !memcmp(a->val, b->val, a->len);
}

/*
 * The first scalar key of @map that equals @k and is not itself a
 * duplicate, among those in @keys; NULL when there is none.
 */
static const struct node *find_key(const struct node *map,
				   const struct index *keys,
				   const struct node *k, uint64_t h)
{
	size_t slot = h, i;

	for (; index_next(keys, h, &slot, &i); slot++)
		if (same_scalar(map->kid[i], k))
			return map->kid[i];
	return NULL;
}

/*
 * Walk the whole tree: reject anchors, aliases, non-scalar keys and
 * duplicate keys (marking them so the schema checks skip them).
 */
static void check_tree(struct node *n, const char *key)
{
	struct index keys = { .cap = 0 };
	const struct node *first;
	char sub[KEY_LEN];
	size_t i;
	uint64_t h;

	if (n->anchor)
		report(n, key, "anchors and aliases are not supported (anchor '&%s')",
		       show(n->anchor, strlen(n->anchor)));
	if (n->type == N_ALIAS)
		report(n, key, "anchors and aliases are not supported (alias '*%s')",
		       shown(n));
	if (n->type == N_SEQ) {
		for (i = 0; i < n->nkid; i++) {
			key_index(sub, key, i);
			check_tree(n->kid[i], sub);
		}
	}
	if (n->type != N_MAP)
		return;
	for (i = 0; i + 1 < n->nkid; i += 2) {
		struct node *k = n->kid[i];

		if (k->type != N_SCALAR) {
			if (k->type != N_ALIAS)
				report(k, key, "keys must be plain strings, not a %s",
				       k->type == N_SEQ ? "sequence" : "mapping");
			check_tree(k, key);
			continue;
		}
		key_join(sub, key, k->val, k->len);
		if (k->anchor)
			report(k, sub, "anchors and aliases are not supported (anchor '&%s')",
			       show(k->anchor, strlen(k->anchor)));
		h = hash_bytes(k->val, k->len);
		first = find_key(n, &keys, k, h);
		if (first) {
			report(k, sub, "duplicate key (first at line %d)",
			       first->line);
			k->dup = true;
		} else {
			index_add(&keys, h, i);
		}
		check_tree(n->kid[i + 1], sub);
	}
	index_free(&keys);
}

/* ---- Schema helpers ---- */

static bool is_null(const struct node *n)
{
	return n->type == N_SCALAR && n->plain &&
	       (n->len == 0 || scalar_is(n, "~") || scalar_is(n, "null") ||
		scalar_is(n, "Null") || scalar_is(n, "NULL"));
}

static const char *kind(const struct node *n)
{
	if (n->type == N_SEQ)
		return "a sequence";
	if (n->type == N_MAP)
		return "a mapping";
	if (is_null(n))
		return "an empty value";
	return "a scalar";
}

/* Check that @n has type @t; aliases were reported by check_tree(). */
static bool want(const struct node *n, enum ntype t, const char *key)
{
	static const char * const names[] = {
		[N_SCALAR] = "a scalar",
		[N_SEQ] = "a sequence",
		[N_MAP] = "a mapping",
		[N_ALIAS] = "an alias",
	};

	if (n->type == N_ALIAS)
		return false;
	if (n->type == t && !(t != N_SCALAR && is_null(n)))
		return true;
	if (t == N_SEQ && is_null(n))
		report(n, key,
		       "expected a sequence, got an empty value (write [] for none)");
	else
		report(n, key, "expected %s, got %s", names[t], kind(n));
	return false;
}

/* Report keys of @map that are not in @allowed. */
static void check_keys(const struct node *map, const char *key,
		       const char * const *allowed)
{
	char sub[KEY_LEN], list[KEY_LEN] = "";
	size_t i, j, len = 0;

	for (j = 0; allowed[j]; j++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s",
				j ? ", " : "", allowed[j]);
	for (i = 0; i + 1 < map->nkid; i += 2) {
		const struct node *k = map->kid[i];

		if (k->type != N_SCALAR || k->dup)
			continue;
		for (j = 0; allowed[j]; j++)
			if (scalar_is(k, allowed[j]))
				break;
		if (allowed[j])
			continue;
		key_join(sub, key, k->val, k->len);
		report(k, sub, "unknown key '%s' (allowed: %s)", shown(k), list);
	}
}

/* The value for @name in @map (first occurrence), or NULL. */
static struct node *lookup(const struct node *map, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < map->nkid; i += 2)
		if (scalar_is(map->kid[i], name))
			return map->kid[i + 1];
	return NULL;
}

/* Like lookup(), but report a missing key. */
static struct node *need(const struct node *map, const char *key,
			 const char *name, char *sub)
{
	struct node *v = lookup(map, name);

	key_join(sub, key, name, strlen(name));
	if (!v)
		report(map, sub, "missing required key");
	return v;
}

/*
 * A string value that will be printed in a record: not empty, no tab,
 * newline or other control character, and (when @set is given) only
 * characters from @set, described to the user as @re.
 */
static const char *get_text(const struct node *n, const char *key,
			    const char *set, const char *re)
{
	size_t i;

	if (!want(n, N_SCALAR, key))
		return NULL;
	if (is_null(n) || strspn(n->val, " ") == n->len) {
		report(n, key, "must not be empty");
		return NULL;
	}
	if (memchr(n->val, '\t', n->len) || memchr(n->val, '\n', n->len) ||
	    memchr(n->val, '\r', n->len)) {
		report(n, key, "'%s' contains a tab or newline", shown(n));
		return NULL;
	}
	for (i = 0; i < n->len; i++) {
		unsigned char c = n->val[i];

		if (c < 0x20 || c == 0x7f) {
			report(n, key, "'%s' contains a control character",
			       shown(n));
			return NULL;
		}
	}
	if (set && strspn(n->val, set) != n->len) {
		report(n, key, "'%s' must match %s", shown(n), re);
		return NULL;
	}
	return n->val;
}

/*
 * Whether git check-ref-format refuses @name (@len bytes, not empty, no
 * '/') as a component of a branch name; @what then says why.
 */
static bool ref_refuses(const char *name, size_t len, char *what,
			size_t size)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (c < 0x20 || c == 0x7f)
			snprintf(what, size, "contains a control character");
		else if (c == ' ')
			snprintf(what, size, "contains a space");
		else if (strchr("~^:?*[\\", c))
			snprintf(what, size, "contains '%c'", c);
		else
			continue;
		return true;
	}
	if (memmem(name, len, "@{", 2))
		snprintf(what, size, "contains '@{'");
	else if (memmem(name, len, "..", 2))
		snprintf(what, size, "contains '..'");
	else if (name[0] == '.')
		snprintf(what, size, "starts with '.'");
	else if (len >= 5 && !memcmp(name + len - 5, ".lock", 5))
		snprintf(what, size, "ends with '.lock'");
	else if (name[len - 1] == '.')
		snprintf(what, size, "ends with '.'");
	else if (len == 1 && name[0] == '@')
		snprintf(what, size, "is '@'");
	else
		return false;
	return true;
}

/*
 * What keeps @name (@len bytes, not empty) from being the series name,
 * written into @buf; NULL when nothing does. The name becomes a component
 * of the branch bisect/<name>/v<N>, so git check-ref-format must take it,
 * and the file name <name>-v<N>, so it is short and has no '/'. Past
 * git's rules it is kept to NAME_SET, which the shell glue and the file
 * system take as it is.
 */
static const char *name_rule(const char *name, size_t len, char *buf,
			     size_t size)
{
	const char *git = "git check-ref-format refuses in the branch bisect/<name>/v<N>";
	size_t ok = strspn(name, NAME_SET), c;
	char what[64];

	if (len > NAME_MAX_LEN) {
		snprintf(buf, size, "it is %zu bytes long, more than %d for the file <name>-v<N>",
			 len, NAME_MAX_LEN);
	} else if (memchr(name, '/', len)) {
		snprintf(buf, size, "it contains '/', which makes the file <name>-v<N> a path");
	} else if (ref_refuses(name, len, what, sizeof(what))) {
		snprintf(buf, size, "it %s, which %s", what, git);
	} else if (name[0] == '-') {
		snprintf(buf, size, "it starts with '-', which %s",
			 "git refuses as a branch name and commands take for an option");
	} else if (ok < len) {
		c = utf8_len(name + ok, len - ok);
		snprintf(buf, size, "it contains '%s', which is not in [A-Za-z0-9._-]",
			 show(name + ok, c ? c : 1));
	} else {
		return NULL;
	}
	return buf;
}

/*
 * The series name (see name_rule()), or NULL when it is not usable; the
 * message says which rule it breaks and what a good name looks like.
 */
static const char *get_name(const struct node *n, const char *key)
{
	char why[256] = "";

	if (!want(n, N_SCALAR, key))
		return NULL;
	if (is_null(n) || !n->len) {
		report(n, key, "must not be empty");
		return NULL;
	}
	if (!name_rule(n->val, n->len, why, sizeof(why)))
		return n->val;
	report(n, key, "'%s' cannot be the series name: %s. Rename the series: at most %d %s, %s",
	       shown(n), why, NAME_MAX_LEN, "characters of A-Z a-z 0-9 . _ -",
	       "not starting with '.' or '-', no '..', not ending with '.' or '.lock'");
	return NULL;
}

/* A decimal integer in @min..@max. */
static bool get_int(const struct node *n, const char *key, long min,
		    long max, long *out)
{
	const char *s;
	size_t digits;
	long v = 0;
	bool neg;

	if (!want(n, N_SCALAR, key))
		return false;
	s = n->val;
	neg = *s == '-';
	s += neg;
	digits = strspn(s, "0123456789");
	if (!digits || digits != strlen(s) || n->len != strlen(n->val) ||
	    (s[0] == '0' && digits > 1)) {
		if (is_null(n))
			report(n, key, "expected an integer, got an empty value");
		else
			report(n, key, "expected an integer, got '%s'", shown(n));
		return false;
	}
	if (digits > 9) {
		v = neg ? LONG_MIN : LONG_MAX;
	} else {
		for (; *s; s++)
			v = v * 10 + (*s - '0');
		if (neg)
			v = -v;
	}
	if (v < min || v > max) {
		if (max == INT_MAX && v < min)
			report(n, key, "%s is out of range: must be >= %ld",
			       shown(n), min);
		else
			report(n, key, "%s is out of range %ld..%ld",
			       shown(n), min, max);
		return false;
	}
	*out = v;
	return true;
}

/* yes/no (or true/false): 'y' or 'n', 0 when invalid. */
static char get_yesno(const struct node *n, const char *key)
{
	if (!want(n, N_SCALAR, key))
		return 0;
	if (scalar_is(n, "yes") || scalar_is(n, "true"))
		return 'y';
	if (scalar_is(n, "no") || scalar_is(n, "false"))
		return 'n';
	if (is_null(n))
		report(n, key, "expected yes or no, got an empty value");
	else
		report(n, key, "expected yes or no (or true/false), got '%s'",
		       shown(n));
	return 0;
}

/*
 * A path to a regular, readable file (@dir: a directory), relative to
 * the directory of series.yaml unless absolute.  Returns its realpath(),
 * or NULL.
 */
static char *get_path(const struct series *s, const struct node *n,
		      const char *key, bool dir)
{
	const char *rel = get_text(n, key, NULL, NULL);
	char *path, *real = NULL;
	struct stat st;
	int fd;

	if (!rel)
		return NULL;
	if (rel[0] == '/' || !strcmp(s->dir, "."))
		path = xstrndup(rel, strlen(rel));
	else if (asprintf(&path, "%s/%s", s->dir, rel) < 0)
		out_of_memory();

	real = realpath(path, NULL);
	if (!real) {
		report(n, key, "%s: %s: %s",
		       errno == ENOENT ? "file not found" : "cannot access",
		       path, strerror(errno));
		goto out;
	}
	/* stat() first: opening a FIFO would block. */
	if (stat(real, &st) || (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
		report(n, key, "not a %s: %s", dir ? "directory" : "regular file", path);
		goto bad;
	}
	fd = open(real, O_RDONLY | (dir ? O_DIRECTORY : 0));
	if (fd < 0) {
		report(n, key, "cannot read %s: %s", path, strerror(errno));
		goto bad;
	}
	close(fd);
	if (strpbrk(real, "\t\n\r")) {
		report(n, key, "resolved path '%s' contains a tab or newline",
		       show(real, strlen(real)));
		goto bad;
	}
	goto out;
bad:
	free(real);
	real = NULL;
out:
	free(path);
	return real;
}

static char *get_file(const struct series *s, const struct node *n,
		      const char *key)
{
	return get_path(s, n, key, false);
}

static char *get_dir(const struct series *s, const struct node *n,
		     const char *key)
{
	return get_path(s, n, key, true);
}

/* ---- Duplicate patches ---- */

/* Size and FNV-1a hash of a file's contents; 0 or a negative errno. */
static int hash_file(const char *file, off_t *size,
		     unsigned long long *hash)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	char chunk[65536];
	off_t total = 0;
	ssize_t got, i;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return -errno;
	while ((got = read(fd, chunk, sizeof(chunk))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			got = -errno;
			close(fd);
			return (int)got;
		}
		for (i = 0; i < got; i++) {
			h ^= (unsigned char)chunk[i];
			h *= 0x100000001b3ULL;
		}
		total += got;
	}
	close(fd);
	*size = total;
	*hash = h;
	return 0;
}

/* Read up to @n bytes, retrying short reads; -1 on error. */
static ssize_t read_full(int fd, char *p, size_t n)
{
	size_t done = 0;
	ssize_t got;

	while (done < n) {
		got = read(fd, p + done, n - done);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			break;
		done += got;
	}
	return done;
}

static bool same_contents(const char *a, const char *b)
{
	static char x[65536], y[65536];
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
	bool same = fa >= 0 && fb >= 0;
	ssize_t na, nb;

	while (same) {
		na = read_full(fa, x, sizeof(x));
		nb = read_full(fb, y, sizeof(y));
		if (na < 0 || na != nb || memcmp(x, y, na))
			same = false;
		else if (!na)
			break;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/*
 * Remember a prep or series patch and report it when it is the same
 * file as, or has the same contents as, an earlier one.
 */
static void add_entry(struct series *s, const struct node *n,
		      const char *key, char *file)
{
	size_t slot, i;
	struct entry *e;
	uint64_t h;
	int err;

	s->ents = xgrow(s->ents, s->nents, &s->ents_cap, sizeof(*s->ents));
	e = &s->ents[s->nents];
	memset(e, 0, sizeof(*e));
	err = hash_file(file, &e->size, &e->hash);
	if (err) {
		report(n, key, "cannot read %s: %s", file, strerror(-err));
		return;
	}
	if (!e->size) {
		report(n, key, "patch file %s is empty", file);
		return;
	}
	/* Only an entry of the same size and hash can be the same. */
	h = e->hash ^ ((uint64_t)e->size * 0x9e3779b97f4a7c15ULL);
	for (slot = h; index_next(&s->ents_ix, h, &slot, &i); slot++) {
		const struct entry *o = &s->ents[i];

		if (o->size != e->size || o->hash != e->hash)
			continue;
		if (!strcmp(o->file, file)) {
			report(n, key, "duplicate patch: same file as %s (line %d)",
			       o->key, o->line);
			return;
		}
		if (o->size == e->size && o->hash == e->hash &&
		    same_contents(o->file, file)) {
			report(n, key, "duplicate patch: same contents as %s (line %d)",
			       o->key, o->line);
			return;
		}
	}
	e->file = file;
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->line = n->line;
	index_add(&s->ents_ix, h, s->nents);
	s->nents++;
}

/* ---- The schema ---- */

/* The index in s->tests of the test with id @id (@len bytes), or -1. */
static ssize_t find_test(const struct series *s, const char *id, size_t len)
{
	return index_find(&s->ids, s->tests, sizeof(*s->tests),
			  offsetof(struct test, id), id, len);
}

/* The index in s->targets of the target named @name, or -1. */
static ssize_t find_target(const struct series *s, const char *name)
{
	return index_find(&s->names, s->targets, sizeof(*s->targets),
			  offsetof(struct target, name), name, strlen(name));
}

/* Whether @arch is accepted: any arch when no --arch was given. */
static bool arch_ok(const struct series *s, const char *arch)
{
	return !s->narchs ||
	       index_find(&s->arch_ix, s->archs, sizeof(*s->archs), 0, arch,
			  strlen(arch)) >= 0;
}

/* Test ids the runner prints as its own diagnostics ("# runner: ..."). */
static bool reserved_id(const char *id)
{
	size_t i;

	for (i = 0; guest_reserved_ids[i]; i++)
		if (!strcmp(id, guest_reserved_ids[i]))
			return true;
	return false;
}

static void check_tests(struct series *s, const struct node *seq,
			const char *key)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *n, *v;
	size_t i, list_len;
	bool ok = true;
	FILE *list;

	if (!want(seq, N_SEQ, key))
		return;
	if (!seq->nkid) {
		report(seq, key, "must not be empty: declare at least one test");
		return;
	}
	list = open_memstream(&s->declared, &list_len);
	if (!list)
		out_of_memory();
	s->tests = xcalloc(seq->nkid, sizeof(*s->tests));
	for (i = 0; i < seq->nkid; i++) {
		/* Filled here, kept only when valid and new. */
		struct test t = { .id = NULL };
		const struct node *id = NULL;
		ssize_t j;

		n = seq->kid[i];
		key_index(item, key, i);
		ok = want(n, N_MAP, item) && ok;
		if (n->type != N_MAP)
			continue;
		check_keys(n, item, test_keys);
		id = need(n, item, "id", sub);
		if (id)
			t.id = get_text(id, sub, TEST_ID_SET, "[a-z0-9-]+");
		v = need(n, item, "claim", sub);
		if (v)
			t.claim = get_text(v, sub, NULL, NULL);
		if (t.id && reserved_id(t.id)) {
			key_join(sub, item, "id", 2);
			report(id, sub, "'%s' is the runner's own name in its output: %s",
			       t.id, "choose another id");
			t.id = NULL;
		}
		if (!t.id) {
			ok = false;
			continue;
		}
		j = find_test(s, t.id, strlen(t.id));
		if (j >= 0) {
			key_join(sub, item, "id", 2);
			report(id, sub, "duplicate test id '%s' (first declared at %s[%zd])",
			       show(t.id, strlen(t.id)), key, j);
			ok = false;
			continue;
		}
		fprintf(list, "%s%s", s->ntests ? ", " : "", t.id);
		index_add(&s->ids, hash_bytes(t.id, strlen(t.id)), s->ntests);
		s->tests[s->ntests++] = t;
	}
	if (fclose(list))
		out_of_memory();
	s->tests_ok = ok;
}

/* An expect mapping: yes/no for exactly the declared tests. */
static char *check_expect(struct series *s, const struct node *map,
			  const char *key)
{
	char *vals = xcalloc(s->ntests + 1, 1);
	bool *seen = xcalloc(s->ntests + 1, sizeof(*seen));
	char sub[KEY_LEN];
	size_t i, t;

	if (!want(map, N_MAP, key))
		goto out;
	for (i = 0; i + 1 < map->nkid; i += 2) {
		const struct node *k = map->kid[i];
		ssize_t found;
		char v;

		if (k->type != N_SCALAR || k->dup)
			continue;
		key_join(sub, key, k->val, k->len);
		found = find_test(s, k->val, k->len);
		if (s->tests_ok && found < 0)
			report(k, sub, "unknown test '%s' (declared tests: %s)",
			       shown(k), s->declared);
		v = get_yesno(map->kid[i + 1], sub);
		if (found >= 0) {
			vals[found] = v;
			seen[found] = true;
		}
	}
	if (!s->tests_ok)
		goto out;
	for (t = 0; t < s->ntests; t++)
		if (!seen[t])
			report(map, key, "test '%s' has no expectation",
			       show(s->tests[t].id, strlen(s->tests[t].id)));
out:
	free(seen);
	return vals;
}

static void check_base(struct series *s, const struct node *map)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *v;
	size_t i;

	if (!want(map, N_MAP, "base"))
		return;
	check_keys(map, "base", base_keys);
	v = need(map, "base", "package", sub);
	if (v)
		s->package = get_text(v, sub, PACKAGE_SET, "[a-z0-9.+-]+");
	v = need(map, "base", "prep", sub);
	if (v && want(v, N_SEQ, sub)) {
		s->prep = xcalloc(v->nkid, sizeof(*s->prep));
		for (i = 0; i < v->nkid; i++) {
			char *file;

			key_index(item, sub, i);
			file = get_file(s, v->kid[i], item);
			if (!file)
				continue;
			s->prep[s->nprep++] = file;
			add_entry(s, v->kid[i], item, file);
		}
	}
	v = need(map, "base", "expect", sub);
	if (v)
		s->base_expect = check_expect(s, v, sub);
}

static void check_boot(struct series *s, const struct node *map)
{
	const struct node *v;

	if (!want(map, N_MAP, "boot"))
		return;
	check_keys(map, "boot", boot_keys);
	v = lookup(map, "timeout");
	if (v)
		get_int(v, "boot.timeout", 1, 3600, &s->timeout);
}

/* A target name: TARGET_RE, at most TARGET_MAX_LEN bytes. */
static const char *get_target_name(const struct node *n, const char *key)
{
	const char *name = get_text(n, key, TARGET_SET, TARGET_RE);

	if (!name)
		return NULL;
	if (name[0] == '-' || name[0] == '_') {
		report(n, key, "'%s' must match %s: it starts with '%c'",
		       shown(n), TARGET_RE, name[0]);
		return NULL;
	}
	if (n->len > TARGET_MAX_LEN) {
		report(n, key, "'%s' is %zu bytes long, more than %d",
		       shown(n), n->len, TARGET_MAX_LEN);
		return NULL;
	}
	return name;
}

static const char *get_arch(const struct series *s, const struct node *n,
			    const char *key)
{
	const char *arch = get_text(n, key, ARCH_SET, ARCH_RE);

	if (!arch || arch_ok(s, arch))
		return arch;
	report(n, key, "unknown arch '%s' (accepted: %s)", shown(n),
	       s->arch_list);
	return NULL;
}

static const char *get_compiler(const struct node *n, const char *key)
{
	if (!get_text(n, key, NULL, NULL))
		return NULL;
	if (scalar_is(n, "gcc") || scalar_is(n, "clang"))
		return n->val;
	report(n, key, "expected gcc or clang, got '%s'", shown(n));
	return NULL;
}

/* Whether @k skips step @step (0: the base). */
static bool skips_step(const struct skip *k, size_t step)
{
	return !k->at || k->at[step];
}

/* The step of target @t where test @id is skipped twice, or -1. */
static ssize_t skipped_twice(const struct target *t, const char *id,
			     const bool *at, size_t nsteps)
{
	size_t i, step;

	for (i = 0; i < t->nskips; i++) {
		if (strcmp(t->skips[i].test, id))
			continue;
		for (step = 0; step < nsteps; step++)
			if ((!at || at[step]) && skips_step(&t->skips[i], step))
				return step;
	}
	return -1;
}

/* A skip item's steps: list, as a flag per step; NULL when invalid. */
static bool *get_steps(const struct series *s, const struct node *seq,
		       const char *key)
{
	char item[KEY_LEN];
	bool *at, ok = true;
	size_t i;
	long v;

	if (!want(seq, N_SEQ, key))
		return NULL;
	if (!seq->nkid) {
		report(seq, key, "must not be empty: leave steps out for every step");
		return NULL;
	}
	at = xcalloc(s->npatches + 1, sizeof(*at));
	for (i = 0; i < seq->nkid; i++) {
		key_index(item, key, i);
		if (!get_int(seq->kid[i], item, 0, (long)s->npatches, &v)) {
			ok = false;
			continue;
		}
		if (at[v])
			report(seq->kid[i], item, "step %ld is listed twice", v);
		at[v] = true;
	}
	if (ok)
		return at;
	free(at);
	return NULL;
}

/* One item of a target's skip: list: declared tests and the reason. */
static void check_skip(struct series *s, struct target *t,
		       const struct node *map, const char *key)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *ids, *v;
	const char *reason = NULL;
	bool *at = NULL;
	ssize_t twice;
	size_t i;

	check_keys(map, key, skip_keys);
	v = need(map, key, "reason", sub);
	if (v)
		reason = get_text(v, sub, NULL, NULL);
	if (!reason)
		return;
	v = lookup(map, "steps");
	if (v) {
		key_join(sub, key, "steps", 5);
		at = get_steps(s, v, sub);
		if (!at)
			return;
		/* Kept for the target's life: freed with its skips. */
		s->allocs = xrealloc(s->allocs, (s->nallocs + 1) * sizeof(*s->allocs));
		s->allocs[s->nallocs++] = at;
	}
	ids = need(map, key, "tests", sub);
	if (!ids || !want(ids, N_SEQ, sub))
		return;
	if (!ids->nkid)
		report(ids, sub, "must not be empty: name the tests to skip");
	t->skips = xrealloc(t->skips, (t->nskips + ids->nkid) * sizeof(*t->skips));
	for (i = 0; i < ids->nkid; i++) {
		const struct node *n = ids->kid[i];
		const char *id;

		key_index(item, sub, i);
		id = get_text(n, item, TEST_ID_SET, "[a-z0-9-]+");
		if (!id)
			continue;
		if (s->tests_ok && find_test(s, id, strlen(id)) < 0) {
			report(n, item, "unknown test '%s' (declared tests: %s)",
			       shown(n), s->declared);
			continue;
		}
		twice = skipped_twice(t, id, at, s->npatches + 1);
		if (twice >= 0) {
			report(n, item, "test '%s' is skipped twice at step %zd",
			       shown(n), twice);
			continue;
		}
		t->skips[t->nskips++] = (struct skip){ id, reason, at };
	}
}

/* A target's skip: the tests its guests do not run, with reasons. */
static void check_skips(struct series *s, struct target *t,
			const struct node *seq, const char *key)
{
	char item[KEY_LEN];
	size_t i;

	if (!want(seq, N_SEQ, key))
		return;
	if (!t->boot)
		report(seq, key, "the target does not boot (boot: no): it runs no test to skip");
	for (i = 0; i < seq->nkid; i++) {
		key_index(item, key, i);
		if (want(seq->kid[i], N_MAP, item))
			check_skip(s, t, seq->kid[i], item);
	}
}

/* One item of targets:, into @t; its name is checked by the caller. */
static void check_target(struct series *s, struct target *t,
			 const struct node *map, const char *key)
{
	char sub[KEY_LEN];
	const struct node *v;

	v = need(map, key, "arch", sub);
	if (v)
		t->arch = get_arch(s, v, sub);
	v = need(map, key, "compiler", sub);
	if (v)
		t->compiler = get_compiler(v, sub);
	v = lookup(map, "config");
	if (v) {
		key_join(sub, key, "config", 6);
		t->config = get_file(s, v, sub);
	}
	t->boot = true;
	v = lookup(map, "boot");
	if (v) {
		key_join(sub, key, "boot", 4);
		t->boot = get_yesno(v, sub) != 'n';
	}
	v = lookup(map, "skip");
	if (v) {
		key_join(sub, key, "skip", 4);
		check_skips(s, t, v, sub);
	}
}

static void check_targets(struct series *s, const struct node *seq)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *n, *v;
	struct target *t;
	ssize_t j;
	size_t i;

	if (is_null(seq)) {
		report(seq, "targets",
		       "expected a sequence, got an empty value (%s)", NO_TARGETS);
		return;
	}
	if (!want(seq, N_SEQ, "targets"))
		return;
	if (!seq->nkid) {
		report(seq, "targets",
		       "must not be empty: list at least one target, or %s",
		       NO_TARGETS);
		return;
	}
	s->targets = xcalloc(seq->nkid, sizeof(*s->targets));
	s->ntargets = seq->nkid;
	for (i = 0; i < seq->nkid; i++) {
		t = &s->targets[i];
		n = seq->kid[i];
		key_index(item, "targets", i);
		if (!want(n, N_MAP, item))
			continue;
		check_keys(n, item, target_keys);
		v = need(n, item, "name", sub);
		if (v)
			t->name = get_target_name(v, sub);
		check_target(s, t, n, item);
		if (!t->name)
			continue;
		j = find_target(s, t->name);
		if (j >= 0) {
			report(v, sub,
			       "duplicate target name '%s' (first declared at targets[%zd])",
			       shown(v), j);
			continue;
		}
		index_add(&s->names, hash_bytes(t->name, strlen(t->name)), i);
	}
}

static void check_accepts(struct patch *p, const struct node *seq,
			  const char *key)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *n, *v;
	size_t i;

	if (!want(seq, N_SEQ, key))
		return;
	p->acc = xcalloc(seq->nkid, sizeof(*p->acc));
	for (i = 0; i < seq->nkid; i++) {
		/* Filled here, kept only when complete. */
		struct accept a = { .type = NULL };

		n = seq->kid[i];
		key_index(item, key, i);
		if (!want(n, N_MAP, item))
			continue;
		check_keys(n, item, accept_keys);
		v = need(n, item, "type", sub);
		if (v)
			a.type = get_text(v, sub, TYPE_SET, "[A-Z0-9_]+");
		v = need(n, item, "reason", sub);
		if (v)
			a.reason = get_text(v, sub, NULL, NULL);
		if (a.type && a.reason)
			p->acc[p->nacc++] = a;
	}
}

/* The check of a findings-accept item: one of finding_checks[]. */
static const char *get_finding_check(const struct node *n, const char *key)
{
	size_t i;

	if (!get_text(n, key, NULL, NULL))
		return NULL;
	for (i = 0; finding_checks[i]; i++)
		if (scalar_is(n, finding_checks[i]))
			return n->val;
	report(n, key, "expected w1, sparse, kdoc or tags, got '%s'", shown(n));
	return NULL;
}

/*
 * An optional key of a findings-accept item: "*" (any) when absent;
 * given, it must be a non-empty text. NULL when it is wrong.
 */
static const char *get_finding_any(const struct node *map, const char *key,
				   const char *name)
{
	char sub[KEY_LEN];
	const struct node *v = lookup(map, name);

	if (!v)
		return "*";
	key_join(sub, key, name, strlen(name));
	return get_text(v, sub, NULL, NULL);
}

static void check_finding_accepts(struct patch *p, const struct node *seq,
				  const char *key)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *n, *v;
	size_t i;

	if (!want(seq, N_SEQ, key))
		return;
	p->facc = xcalloc(seq->nkid, sizeof(*p->facc));
	for (i = 0; i < seq->nkid; i++) {
		/* Filled here, kept only when complete. */
		struct finding_accept a = { .check = NULL };

		n = seq->kid[i];
		key_index(item, key, i);
		if (!want(n, N_MAP, item))
			continue;
		check_keys(n, item, finding_accept_keys);
		v = need(n, item, "check", sub);
		if (v)
			a.check = get_finding_check(v, sub);
		a.kind = get_finding_any(n, item, "kind");
		a.file = get_finding_any(n, item, "file");
		v = need(n, item, "match", sub);
		if (v)
			a.match = get_text(v, sub, NULL, NULL);
		v = need(n, item, "reason", sub);
		if (v)
			a.reason = get_text(v, sub, NULL, NULL);
		if (a.check && a.kind && a.file && a.match && a.reason)
			p->facc[p->nfacc++] = a;
	}
}

/*
 * A patch's abi: a mapping of removes, adds and changes, each a sequence
 * of symbols; a symbol named twice in one patch is an error.
 */
static void check_abi(struct patch *p, const struct node *map, const char *key)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *seq;
	size_t k, i, j, cap = 0;

	if (!want(map, N_MAP, key))
		return;
	check_keys(map, key, abi_kinds);
	for (k = 0; abi_kinds[k]; k++) {
		seq = lookup(map, abi_kinds[k]);
		if (!seq)
			continue;
		key_join(sub, key, abi_kinds[k], strlen(abi_kinds[k]));
		if (!want(seq, N_SEQ, sub))
			continue;
		for (i = 0; i < seq->nkid; i++) {
			const char *sym;

			key_index(item, sub, i);
			sym = get_text(seq->kid[i], item, SYMBOL_SET,
				       "[A-Za-z0-9_.]+");
			if (!sym)
				continue;
			for (j = 0; j < p->nabi; j++)
				if (!strcmp(p->abi[j].sym, sym))
					break;
			if (j < p->nabi) {
				report(seq->kid[i], item,
				       "symbol '%s' already declared (%s)",
				       shown(seq->kid[i]), p->abi[j].kind);
				continue;
			}
			p->abi = xgrow(p->abi, p->nabi, &cap, sizeof(*p->abi));
			p->abi[p->nabi].kind = abi_kinds[k];
			p->abi[p->nabi].sym = sym;
			p->nabi++;
		}
	}
}

static void check_patches(struct series *s, const struct node *seq)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *n, *v;
	size_t i;

	if (!want(seq, N_SEQ, "patches"))
		return;
	if (!seq->nkid) {
		report(seq, "patches", "must not be empty: list at least one patch");
		return;
	}
	s->patches = xcalloc(seq->nkid, sizeof(*s->patches));
	s->npatches = seq->nkid;
	for (i = 0; i < seq->nkid; i++) {
		struct patch *p = &s->patches[i];

		n = seq->kid[i];
		key_index(item, "patches", i);
		if (!want(n, N_MAP, item))
			continue;
		check_keys(n, item, patch_keys);
		v = need(n, item, "file", sub);
		if (v) {
			p->file = get_file(s, v, sub);
			if (p->file)
				add_entry(s, v, sub, p->file);
		}
		v = lookup(n, "checkpatch-accept");
		if (v) {
			key_join(sub, item, "checkpatch-accept", 17);
			check_accepts(p, v, sub);
		}
		v = lookup(n, "findings-accept");
		if (v) {
			key_join(sub, item, "findings-accept", 15);
			check_finding_accepts(p, v, sub);
		}
		v = lookup(n, "abi");
		if (v) {
			key_join(sub, item, "abi", 3);
			check_abi(p, v, sub);
		}
		v = need(n, item, "expect", sub);
		if (v)
			p->expect = check_expect(s, v, sub);
	}
}

/* ---- Guest operations ---- */

/*
 * What the guest does, in order (guest.run): each operation names the
 * tests it belongs to and maybe what it must give (test/guest/README).
 * Printed as the runner's program: "op KIND key=value..." records, in
 * the language of guestop.h. Its kinds (guest_kinds[]) are the YAML
 * keys naming an operation; a second value (load's params, write's
 * value, exec's args) has the same key in both.
 */
struct op_kind_info {
	const char *set;	/* characters its value may have, or NULL */
	const char *re;		/* @set as shown to the user */
	const char * const *keys;	/* every key the kind takes */
};

static const char * const load_keys[] = {
	"load", "params", "tests", "expect", "log", NULL
};

static const char * const unload_keys[] = {
	"unload", "tests", "expect", "log", NULL
};

static const char * const write_keys[] = {
	"write", "value", "tests", "expect", "log", NULL
};

static const char * const read_keys[] = {
	"read", "tests", "expect", "log", NULL
};

static const char * const kunit_keys[] = {
	"kunit", "config", "tests", "expect", NULL
};

static const char * const exec_keys[] = {
	"exec", "args", "tests", "expect", "log", NULL
};

static const char * const log_keys[] = { "match", "count", "label", NULL };

static const char * const guest_keys[] = {
	"modules", "programs", "run", NULL
};

#define MODFILE_SET	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."
#define MODNAME_SET	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
#define SUITE_SET	"abcdefghijklmnopqrstuvwxyz0123456789_-"
#define KCONFIG_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
#define ERRNO_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#define PROGRAM_SET	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
#define PROGRAM_MAX_LEN	64	/* of a guest program's name */

/* The YAML side of guest_kinds[]. */
static const struct op_kind_info op_kinds[GOP_NR] = {
	[GOP_LOAD] = { MODFILE_SET, "a module file, NAME.ko", load_keys },
	[GOP_UNLOAD] = { MODNAME_SET, "[A-Za-z0-9_]+", unload_keys },
	[GOP_WRITE] = { NULL, NULL, write_keys },
	[GOP_READ] = { NULL, NULL, read_keys },
	[GOP_KUNIT] = { SUITE_SET, "[a-z0-9_-]+", kunit_keys },
	[GOP_EXEC] = { PROGRAM_SET, "[A-Za-z0-9_-]+", exec_keys },
};

struct guest_op {
	enum guest_kind kind;
	const char *arg;	/* the value of the kind's key */
	const char *extra;	/* load: params; write: value; exec: args */
	const char *expect;	/* ok, clean, fail, E<NAME>; or NULL */
	const char *match, *count, *label;	/* the log check, or NULL */
	const char **config;	/* kunit: the suite's options */
	size_t nconfig;
	size_t *tests;		/* indexes into s->tests */
	size_t ntests;
};

/* Whether @v is a log count: N, >N or <N (N decimal, < 10^9). */
static bool count_ok(const char *v)
{
	size_t n;

	if (*v == '>' || *v == '<')
		v++;
	n = strspn(v, "0123456789");
	return n && n <= GUEST_COUNT_MAX_DIGITS && !v[n];
}

/* A module file name: NAME.ko, NAME of [A-Za-z0-9_-]. */
static bool modfile_ok(const char *v)
{
	size_t len = strlen(v);

	return len > 3 && !strcmp(v + len - 3, ".ko") &&
	       strspn(v, MODFILE_SET) == len && !memchr(v, '.', len - 3);
}

/* An absolute path the runner may open: no "..", nothing odd. */
static bool guest_path_ok(const char *v)
{
	size_t len = strlen(v);

	return v[0] == '/' && !strstr(v, "/../") && !strchr(v, ' ') &&
	       !(len >= 3 && !strcmp(v + len - 3, "/.."));
}

static void check_op_tests(struct series *s, struct guest_op *op,
			   const struct node *v, const char *key)
{
	char item[KEY_LEN];
	size_t i, j;

	if (v->type == N_SCALAR && !is_null(v)) {
		/* One test may be named without brackets. */
		const char *id = get_text(v, key, TEST_ID_SET, "[a-z0-9-]+");
		ssize_t t;

		if (!id)
			return;
		t = find_test(s, id, strlen(id));
		if (t < 0) {
			if (s->tests_ok)
				report(v, key, "unknown test '%s' (declared tests: %s)",
				       shown(v), s->declared);
			return;
		}
		op->tests = xcalloc(1, sizeof(*op->tests));
		op->tests[op->ntests++] = t;
		return;
	}
	if (!want(v, N_SEQ, key))
		return;
	if (!v->nkid) {
		report(v, key, "must not be empty: name a test, or leave %s",
		       "tests out for an operation of every test");
		return;
	}
	op->tests = xcalloc(v->nkid, sizeof(*op->tests));
	for (i = 0; i < v->nkid; i++) {
		const struct node *n = v->kid[i];
		const char *id;
		ssize_t t;

		key_index(item, key, i);
		id = get_text(n, item, TEST_ID_SET, "[a-z0-9-]+");
		if (!id)
			continue;
		t = find_test(s, id, strlen(id));
		if (t < 0) {
			if (s->tests_ok)
				report(n, item, "unknown test '%s' (declared tests: %s)",
				       shown(n), s->declared);
			continue;
		}
		for (j = 0; j < op->ntests; j++)
			if (op->tests[j] == (size_t)t)
				break;
		if (j < op->ntests) {
			report(n, item, "test '%s' is named twice", shown(n));
			continue;
		}
		op->tests[op->ntests++] = t;
	}
}

static void check_op_log(struct guest_op *op, const struct node *v,
			 const char *key)
{
	char sub[KEY_LEN];
	const struct node *n;

	if (!want(v, N_MAP, key))
		return;
	check_keys(v, key, log_keys);
	n = need(v, key, "match", sub);
	if (n)
		op->match = get_text(n, sub, NULL, NULL);
	n = need(v, key, "count", sub);
	if (n) {
		op->count = get_text(n, sub, NULL, NULL);
		if (op->count && !count_ok(op->count)) {
			report(n, sub, "'%s' is not a count: write N, >N or <N", shown(n));
			op->count = NULL;
		}
	}
	n = lookup(v, "label");
	if (n) {
		key_join(sub, key, "label", 5);
		op->label = get_text(n, sub, NULL, NULL);
	}
}

static void check_op_config(struct guest_op *op, const struct node *v,
			    const char *key)
{
	char item[KEY_LEN];
	size_t i;

	if (!want(v, N_SEQ, key))
		return;
	op->config = xcalloc(v->nkid, sizeof(*op->config));
	for (i = 0; i < v->nkid; i++) {
		const char *c;

		key_index(item, key, i);
		c = get_text(v->kid[i], item, KCONFIG_SET, "CONFIG_[A-Z0-9_]+");
		if (!c)
			continue;
		if (strncmp(c, "CONFIG_", 7) || !c[7]) {
			report(v->kid[i], item, "'%s' is not a Kconfig option: write CONFIG_NAME",
			       shown(v->kid[i]));
			continue;
		}
		op->config[op->nconfig++] = c;
	}
}

/* The kind of operation @map is: the one kind key it has, or -1. */
static int op_kind_of(const struct node *map, const char *key)
{
	char list[KEY_LEN] = "";
	int kind = -1, k;
	size_t len = 0;

	for (k = 0; k < GOP_NR; k++) {
		if (!lookup(map, guest_kinds[k].name))
			continue;
		if (kind >= 0) {
			report(map, key, "one operation per item: '%s' and '%s' both given",
			       guest_kinds[kind].name, guest_kinds[k].name);
			return -1;
		}
		kind = k;
	}
	if (kind >= 0)
		return kind;
	for (k = 0; k < GOP_NR; k++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s",
				k ? ", " : "", guest_kinds[k].name);
	report(map, key, "no operation: give one of %s", list);
	return -1;
}

/*
 * The program an exec operation runs, @name: its source NAME.c must be
 * in guest.programs (the shell builds it as GUEST_BIN NAME).
 */
static void check_program(const struct series *s, const struct node *v,
			  const char *key, const char *name)
{
	struct stat st;
	char *path;
	int fd, err = 0;

	if (strlen(name) > PROGRAM_MAX_LEN) {
		report(v, key, "'%s' is %zu characters long: a program name has at most %d",
		       shown(v), strlen(name), PROGRAM_MAX_LEN);
		return;
	}
	if (!s->programs_given) {
		report(v, key, "exec needs guest.programs: add 'programs: DIR' to guest, %s %s.c",
		       "DIR the directory (relative to this file) that holds", name);
		return;
	}
	if (!s->guest_programs)
		return;		/* guest.programs is not usable: reported */
	if (asprintf(&path, "%s/%s.c", s->guest_programs, name) < 0)
		out_of_memory();
	/* stat() first: opening a FIFO would block. */
	if (stat(path, &st)) {
		err = errno;
		report(v, key, "%s: %s: %s (exec %s runs %s%s, built from it)",
		       err == ENOENT ? "program source not found" :
		       "cannot access program source", path, strerror(err),
		       name, GUEST_BIN, name);
	} else if (!S_ISREG(st.st_mode)) {
		report(v, key, "program source is not a regular file: %s", path);
	} else {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			err = errno;
			report(v, key, "cannot read program source %s: %s", path,
			       strerror(err));
		} else {
			close(fd);
		}
	}
	free(path);
}

/* The arguments of an exec operation: at most GUEST_EXEC_MAX_ARGS words. */
static const char *get_args(const struct node *v, const char *key)
{
	const char *args = get_text(v, key, NULL, NULL), *p;
	size_t n = 0;

	if (!args)
		return NULL;
	for (p = args; *p; p += strcspn(p, " ")) {
		p += strspn(p, " ");
		if (*p)
			n++;
	}
	if (n > GUEST_EXEC_MAX_ARGS) {
		report(v, key, "%zu arguments: the guest runner takes at most %d %s",
		       n, GUEST_EXEC_MAX_ARGS, "(words between spaces)");
		return NULL;
	}
	return args;
}

/* Whether @v is one of the words of expect= (not an errno name). */
static bool expect_word(const char *v)
{
	size_t e;

	for (e = GEXPECT_OK; e < GEXPECT_ERRNO; e++)
		if (!strcmp(v, guest_expects[e]))
			return true;
	return false;
}

/* One item of guest.run, into @op; false when it is not usable. */
static bool check_op(struct series *s, struct guest_op *op,
		     const struct node *map, const char *key)
{
	const struct op_kind_info *k;
	char sub[KEY_LEN];
	const struct node *v;
	int kind;

	kind = op_kind_of(map, key);
	if (kind < 0)
		return false;
	k = &op_kinds[kind];
	op->kind = kind;
	check_keys(map, key, k->keys);
	v = need(map, key, guest_kinds[kind].name, sub);
	op->arg = get_text(v, sub, k->set, k->re);
	if (!op->arg)
		return false;
	if ((kind == GOP_LOAD && !modfile_ok(op->arg)) ||
	    ((kind == GOP_WRITE || kind == GOP_READ) && !guest_path_ok(op->arg))) {
		report(v, sub, "'%s' must be %s", shown(v),
		       kind == GOP_LOAD ? "a module file, NAME.ko" :
		       "an absolute path in the guest, without spaces or '..'");
		return false;
	}
	if (kind == GOP_EXEC)
		check_program(s, v, sub, op->arg);
	v = lookup(map, "params");
	if (v && kind == GOP_LOAD) {
		key_join(sub, key, "params", 6);
		op->extra = get_text(v, sub, NULL, NULL);
	}
	v = lookup(map, "args");
	if (v && kind == GOP_EXEC) {
		key_join(sub, key, "args", 4);
		op->extra = get_args(v, sub);
	}
	if (kind == GOP_WRITE) {
		v = need(map, key, "value", sub);
		if (!v)
			return false;
		op->extra = get_text(v, sub, NULL, NULL);
		if (!op->extra)
			return false;
	}
	v = lookup(map, "config");
	if (v && kind == GOP_KUNIT) {
		key_join(sub, key, "config", 6);
		check_op_config(op, v, sub);
	}
	v = lookup(map, "tests");
	if (v) {
		key_join(sub, key, "tests", 5);
		check_op_tests(s, op, v, sub);
	}
	v = lookup(map, "expect");
	if (v) {
		key_join(sub, key, "expect", 6);
		op->expect = get_text(v, sub, ERRNO_SET "abcdefghijklmnopqrstuvwxyz",
				      "ok, clean, fail or an errno name");
		if (op->expect && !expect_word(op->expect) &&
		    !(op->expect[0] == 'E' && op->expect[1] &&
		      strspn(op->expect, ERRNO_SET) == strlen(op->expect))) {
			report(v, sub, "'%s': expect ok, clean, fail or an errno name (ENOENT)",
			       shown(v));
			op->expect = NULL;
		}
	}
	v = lookup(map, "log");
	if (v && kind != GOP_KUNIT) {
		key_join(sub, key, "log", 3);
		check_op_log(op, v, sub);
		if (op->expect)
			report(v, sub, "a log check and expect: give one (%s)",
			       "a log check wants the operation to succeed");
	}
	if ((op->expect || op->match) && !lookup(map, "tests"))
		report(map, key, "a check belongs to a test: name it in tests");
	return true;
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

static void check_guest(struct series *s, const struct node *map)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *v, *seq;
	bool *named;
	size_t i, j;

	if (!want(map, N_MAP, "guest"))
		return;
	check_keys(map, "guest", guest_keys);
	v = lookup(map, "modules");
	if (v) {
		key_join(sub, "guest", "modules", 7);
		s->guest_modules = get_dir(s, v, sub);
	}
	/* Before guest.run: its exec operations name files in it. */
	v = lookup(map, "programs");
	if (v) {
		key_join(sub, "guest", "programs", 8);
		s->guest_programs = get_dir(s, v, sub);
		s->programs_given = true;
	}
	seq = need(map, "guest", "run", sub);
	if (!seq || !want(seq, N_SEQ, sub))
		return;
	if (!seq->nkid) {
		report(seq, sub, "must not be empty: list what the guest does");
		return;
	}
	if (seq->nkid > GUEST_MAX_OPS) {
		report(seq, sub, "%zu operations: the runner takes at most %d",
		       seq->nkid, GUEST_MAX_OPS);
		return;
	}
	s->ops = xcalloc(seq->nkid, sizeof(*s->ops));
	for (i = 0; i < seq->nkid; i++) {
		key_index(item, sub, i);
		if (want(seq->kid[i], N_MAP, item) &&
		    check_op(s, &s->ops[s->nops], seq->kid[i], item))
			s->nops++;
	}
	if (!s->tests_ok)
		return;
	/* Every declared test is judged by some operation. */
	named = xcalloc(s->ntests, sizeof(*named));
	for (i = 0; i < s->nops; i++)
		for (j = 0; j < s->ops[i].ntests; j++)
			named[s->ops[i].tests[j]] = true;
	for (i = 0; i < s->ntests; i++)
		if (!named[i])
			report(seq, sub, "test '%s' is named by no operation: %s [%s] %s",
			       s->tests[i].id, "add tests:", s->tests[i].id,
			       "to the operations that judge it");
	free(named);
}

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
	if (i < s->nops) {
		/* The suites run at boot, built in; their results in debugfs. */
		fprintf(f, "kconfig\tCONFIG_KUNIT=y\nkconfig\tCONFIG_KUNIT_DEBUGFS=y\n"
			"kconfig\tCONFIG_DEBUG_FS=y\n");
		for (; i < s->nops; i++)
			for (k = 0; k < s->ops[i].nconfig; k++)
				fprintf(f, "kconfig\t%s=y\n", s->ops[i].config[k]);
	}
	for (i = 0; i < s->nops; i++)
		print_op(f, s, &s->ops[i]);
}

static void check_series(struct series *s, const struct node *root)
{
	const struct node *v, *tests;
	char sub[KEY_LEN];

	if (!want(root, N_MAP, ""))
		return;
	check_keys(root, "", top_keys);

	v = need(root, "", "name", sub);
	if (v)
		s->name = get_name(v, sub);
	v = need(root, "", "version", sub);
	if (v)
		get_int(v, sub, 1, INT_MAX, &s->version);
	v = need(root, "", "cover-letter", sub);
	if (v)
		s->cover = get_file(s, v, sub);
	v = need(root, "", "config", sub);
	if (v)
		s->config = get_file(s, v, sub);

	/* Tests first: the expect mappings are checked against them. */
	tests = lookup(root, "tests");
	key_join(sub, "", "tests", 5);
	if (tests)
		check_tests(s, tests, sub);
	v = lookup(root, "guest");
	if (v)
		check_guest(s, v);
	v = need(root, "", "base", sub);
	if (v)
		check_base(s, v);
	v = lookup(root, "boot");
	if (v)
		check_boot(s, v);
	if (!tests)
		report(root, "tests", "missing required key");
	v = need(root, "", "patches", sub);
	if (v)
		check_patches(s, v);
	/* After the patches: a skip names steps. */
	v = lookup(root, "targets");
	if (v)
		check_targets(s, v);
	else if (!arch_ok(s, DEFAULT_ARCH))
		report(root, "targets",
		       "missing required key: the default target's arch, %s, is not accepted (accepted: %s)",
		       DEFAULT_ARCH, s->arch_list);
}

/* ---- Output ---- */

static void print_expect(FILE *f, const struct series *s, size_t step,
			 const char *vals)
{
	size_t t;

	for (t = 0; t < s->ntests; t++)
		fprintf(f, "expect\t%zu\t%s\t%s\n", step, s->tests[t].id,
			vals[t] == 'y' ? "yes" : "no");
}

/*
 * A target's skip records, one per step and test it skips, by step and
 * then in the order the tests are declared.
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
					fprintf(f, "skip\t%s\t%zu\t%s\t%s\n",
						t->name, step, t->skips[i].test,
						t->skips[i].reason);
}

/* The records, in the order documented in the usage text. */
static void print_series(FILE *f, const struct series *s)
{
	size_t i, j;

	fprintf(f, "name\t%s\n", s->name);
	fprintf(f, "version\t%ld\n", s->version);
	fprintf(f, "cover\t%s\n", s->cover);
	fprintf(f, "config\t%s\n", s->config);
	fprintf(f, "package\t%s\n", s->package);
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

static void free_series(struct series *s)
{
	size_t i;

	free(s->cover);
	free(s->config);
	free(s->tests);
	index_free(&s->ids);
	free(s->declared);
	for (i = 0; i < s->nprep; i++)
		free(s->prep[i]);
	free(s->prep);
	free(s->base_expect);
	for (i = 0; i < s->npatches; i++) {
		free(s->patches[i].file);
		free(s->patches[i].acc);
		free(s->patches[i].facc);
		free(s->patches[i].abi);
		free(s->patches[i].expect);
	}
	free(s->patches);
	for (i = 0; i < s->nops; i++) {
		free(s->ops[i].tests);
		free(s->ops[i].config);
	}
	free(s->ops);
	free(s->guest_modules);
	free(s->guest_programs);
	for (i = 0; i < s->ntargets; i++) {
		free(s->targets[i].config);
		free(s->targets[i].skips);
	}
	for (i = 0; i < s->nallocs; i++)
		free(s->allocs[i]);
	free(s->allocs);
	free(s->targets);
	index_free(&s->names);
	free(s->archs);
	index_free(&s->arch_ix);
	free(s->arch_list);
	free(s->ents);
	index_free(&s->ents_ix);
}

/* ---- Main ---- */

static void usage(FILE *f, bool full)
{
	fprintf(f, "Usage: %s [--arch NAME]... FILE\n       %s --help\n", prog,
		prog);
	if (!full)
		return;
	fprintf(f,
		"\n"
		"Validate a bisect-check series.yaml.  When it is valid, print its\n"
		"normalised records on stdout, one per line, fields separated by tabs:\n"
		"\n"
		"  name     NAME\n"
		"  version  N\n"
		"  cover    /abs/cover-letter\n"
		"  config   /abs/kconfig-fragment\n"
		"  package  DEBIAN-PACKAGE\n"
		"  timeout  SECONDS                 (default %d)\n"
		"  target   NAME ARCH CC CONFIG BOOT\n"
		"                                   (each target, in order; CC gcc|clang,\n"
		"                                   CONFIG /abs/fragment or -, BOOT yes|no;\n"
		"                                   by default %s %s %s - yes)\n"
		"  skip     TARGET STEP ID REASON   (a test TARGET's guest does not run\n"
		"                                   at that step)\n"
		"  test     ID  CLAIM               (each declared test, in order)\n"
		"  guest-modules  /abs/dir          (guest.modules, when given)\n"
		"  guest-programs /abs/dir          (guest.programs, when given: NAME.c\n"
		"                                   there is the guest's " GUEST_BIN "NAME)\n"
		"  driver   MODULE                  (each module guest.run loads, once)\n"
		"  program  NAME                    (each program guest.run execs, once,\n"
		"                                   in the order first run)\n"
		"  kconfig  CONFIG_X=y              (what its KUnit suites need)\n"
		"  op       KIND  KEY=VALUE...      (each guest.run item, in order: the\n"
		"                                   guest runner's program line,\n"
		"                                   test/guest/README)\n"
		"  opyaml   {...}                   (the same item as a YAML flow mapping)\n"
		"  prep     /abs/patch              (each base.prep patch, in order)\n"
		"  patch    N  /abs/patch           (patches numbered from 1)\n"
		"  accept   N  TYPE  REASON         (after the patch N line)\n"
		"  finding-accept N CHECK KIND FILE MATCH REASON\n"
		"                                   (after patch N's accept lines; CHECK\n"
		"                                   w1|sparse|kdoc|tags, KIND and FILE\n"
		"                                   * for any)\n"
		"  abi      N  KIND  SYMBOL         (after patch N's finding-accept lines;\n"
		"                                   KIND removes|adds|changes)\n"
		"  expect   STEP  ID  yes|no        (step 0 = base, then each patch)\n"
		"\n"
		"Relative paths are resolved against the directory of FILE.\n"
		"Otherwise every error is printed on stderr as\n"
		"FILE:LINE:COL: error: KEY: MESSAGE, nothing is printed on stdout,\n"
		"and the exit code is 2.  Usage errors also exit with 2.\n"
		"\n"
		"Options:\n"
		"  --arch NAME   accept only the arch names given, one per --arch,\n"
		"                for the targets (without it: any %s)\n",
		DEFAULT_TIMEOUT, DEFAULT_TARGET, DEFAULT_ARCH, DEFAULT_CC,
		ARCH_RE);
}

/* Read all of @file; 0 or a negative errno value. */
static int read_file(const char *file, char **text, size_t *size)
{
	struct stat st;
	ssize_t got;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		got = -errno;
		close(fd);
		return (int)got;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	*text = xrealloc(NULL, MAX_YAML + 1);
	got = read_full(fd, *text, MAX_YAML + 1);
	if (got < 0) {
		got = -errno;
		close(fd);
		free(*text);
		return (int)got;
	}
	close(fd);
	if (got > MAX_YAML) {
		free(*text);
		return -EFBIG;
	}
	*size = got;
	return 0;
}

/*
 * Accept arch @name for the targets (--arch); false when it is not a
 * valid arch name. A repeated name is taken once.
 */
static bool add_arch(struct series *s, const char *name)
{
	size_t len = strlen(name);

	if (!len || strspn(name, ARCH_SET) != len)
		return false;
	if (s->narchs && arch_ok(s, name))
		return true;
	s->archs = xgrow(s->archs, s->narchs, &s->archs_cap, sizeof(*s->archs));
	index_add(&s->arch_ix, hash_bytes(name, len), s->narchs);
	s->archs[s->narchs++] = name;
	return true;
}

/* The --arch names as "a, b, c", for messages. */
static void list_archs(struct series *s)
{
	size_t i, len;
	FILE *f;

	if (!s->narchs)
		return;
	f = open_memstream(&s->arch_list, &len);
	if (!f)
		out_of_memory();
	for (i = 0; i < s->narchs; i++)
		fprintf(f, "%s%s", i ? ", " : "", s->archs[i]);
	if (fclose(f))
		out_of_memory();
}

static char *dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');

	if (!slash)
		return xstrndup(".", 1);
	if (slash == file)
		return xstrndup("/", 1);
	return xstrndup(file, slash - file);
}

int main(int argc, char **argv)
{
	struct series s = { .timeout = DEFAULT_TIMEOUT };
	char *out = NULL;
	size_t out_len = 0;
	FILE *f;
	struct loader ld = { .size = 0 };
	struct node *root = NULL;
	const char *file;
	char *text = NULL, *dir;
	size_t i, size = 0;
	int err, argi = 1;
	bool dashdash;

	if (argc == 2 && (!strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "-h"))) {
		usage(stdout, true);
		return 0;
	}
	for (; argi < argc && !strcmp(argv[argi], "--arch"); argi += 2) {
		if (argi + 1 == argc) {
			fprintf(stderr, "%s: error: --arch needs an arch name\n",
				prog);
			usage(stderr, false);
			goto fail;
		}
		if (!add_arch(&s, argv[argi + 1])) {
			fprintf(stderr, "%s: error: --arch '%s': must match %s\n",
				prog, show(argv[argi + 1], strlen(argv[argi + 1])),
				ARCH_RE);
			usage(stderr, false);
			goto fail;
		}
	}
	dashdash = argi < argc && !strcmp(argv[argi], "--");
	if (dashdash)
		argi++;
	if (argc - argi != 1 || (!dashdash && argv[argi][0] == '-' &&
				 argv[argi][1])) {
		fprintf(stderr, "%s: error: expected exactly one FILE argument\n",
			prog);
		usage(stderr, false);
		goto fail;
	}
	file = argv[argi];
	list_archs(&s);

	err = read_file(file, &text, &size);
	if (err) {
		fprintf(stderr, "%s: error: cannot open: %s\n", file,
			strerror(-err));
		goto fail;
	}

	dir = dir_of(file);
	s.dir = dir;
	ld.text = text;
	ld.size = size;
	if (!yaml_parser_initialize(&ld.parser))
		out_of_memory();
	yaml_parser_set_input_string(&ld.parser, (const unsigned char *)text,
				     size);
	root = load(&ld);
	yaml_parser_delete(&ld.parser);

	if (root) {
		check_tree(root, "");
		check_series(&s, root);
	}

	if (nerrors) {
		qsort(errors, nerrors, sizeof(*errors), cmp_error);
		for (i = 0; i < nerrors; i++) {
			fprintf(stderr, "%s:%d:%d: error: %s: %s\n", file,
				errors[i].line, errors[i].col, errors[i].key,
				errors[i].msg);
			free(errors[i].key);
			free(errors[i].msg);
		}
		fprintf(stderr, "%s: %zu error(s); nothing was run. Fix series.yaml and rerun.\n",
			file, nerrors);
		err = EXIT_BAD;
	} else {
		/* Buffered, so that a failure cannot leave partial output. */
		f = open_memstream(&out, &out_len);
		if (!f)
			out_of_memory();
		print_series(f, &s);
		if (fclose(f))
			out_of_memory();
		if (fwrite(out, 1, out_len, stdout) != out_len ||
		    fflush(stdout)) {
			fprintf(stderr, "%s: error: writing output: %s\n", prog,
				strerror(errno));
			err = EXIT_BAD;
		}
	}

	free(errors);
	free(out);
	free_series(&s);
	free_node(root);
	free(text);
	free(dir);
	return err;

fail:
	free_series(&s);
	return EXIT_BAD;
}
