// SPDX-License-Identifier: GPL-2.0
/*
 * series-yaml.c - series.yaml as a tree of nodes, and the checks that
 * know no key of the schema: errors by position, key paths, an index of
 * keys by hash, reading the document with the libyaml event API, then
 * rejecting anchors, aliases and duplicate keys, and the checks of one
 * value (its type, a text, an integer, yes/no, a path).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "series.h"

#define MAX_DEPTH	64	/* deepest nesting of collections accepted */

/* An error found, with where it was found. */
struct error {
	int line;
	int col;
	size_t seq;
	char *key;		/* dotted key path */
	char *msg;
};

static struct error *errors;
static size_t nerrors, errors_cap;

void out_of_memory(void)
{
	die("out of memory");
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		out_of_memory();
	return p;
}

/* User text is quoted with show() of util.h. */
const char *shown(const struct node *n)
{
	return show(n->val, n->len);
}

/* Record the error @msg at @line:@col for the dotted key path @key. */
void add_error(int line, int col, const char *key, const char *msg)
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

FILE *msg_open(struct msg *m)
{
	m->buf = NULL;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f)
		out_of_memory();
	return m->f;
}

char *msg_close(struct msg *m)
{
	if (fclose(m->f))
		out_of_memory();
	return m->buf;
}

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
 * Print the errors recorded, by position, on stderr as "@file:LINE:COL:
 * error: KEY: MESSAGE" and then the summary line; their number.
 */
size_t print_errors(const char *file)
{
	size_t i, n = nerrors;

	if (!n)
		return 0;
	qsort(errors, n, sizeof(*errors), cmp_error);
	for (i = 0; i < n; i++) {
		fprintf(stderr, "%s:%d:%d: error: %s: %s\n", file,
			errors[i].line, errors[i].col, errors[i].key,
			errors[i].msg);
		free(errors[i].key);
		free(errors[i].msg);
	}
	fprintf(stderr, "%s: %zu error(s); nothing was run. Fix series.yaml and rerun.\n",
		file, n);
	free(errors);
	errors = NULL;
	nerrors = 0;
	return n;
}

/*
 * Key paths: "base" + "prep" -> "base.prep"; "patches" + 2 -> "patches[2]".
 * A deep parent is cut (between two UTF-8 characters) so that the path
 * fits in KEY_LEN bytes.
 */
void key_join(char *dst, const char *parent, const char *name, size_t len)
{
	const char *s = show(name, len);
	int n = (int)utf8_cut(parent, strlen(parent), KEY_LEN / 2);

	if (*parent)
		snprintf(dst, KEY_LEN, "%.*s.%s", n, parent, s);
	else
		snprintf(dst, KEY_LEN, "%s", s);
}

void key_index(char *dst, const char *parent, size_t i)
{
	int n = (int)utf8_cut(parent, strlen(parent), KEY_LEN - 24);

	snprintf(dst, KEY_LEN, "%.*s[%zu]", n, parent, i);
}

uint64_t hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (len--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void index_put(struct index *ix, uint64_t h, size_t elem)
{
	size_t i = h & (ix->cap - 1);

	while (ix->elem[i])
		i = (i + 1) & (ix->cap - 1);
	ix->hash[i] = h;
	ix->elem[i] = elem + 1;
}

/* Add element @elem, whose key hashes to @h. */
void index_add(struct index *ix, uint64_t h, size_t elem)
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
bool index_next(const struct index *ix, uint64_t h, size_t *slot, size_t *elem)
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
ssize_t index_find(const struct index *ix, const void *base,
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

void index_free(struct index *ix)
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

void free_node(struct node *n)
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

/*
 * The document of @text (@size bytes), or NULL when nothing can be
 * validated (the errors are recorded).
 */
struct node *load_yaml(const char *text, size_t size)
{
	struct loader ld = { .text = text, .size = size };
	struct node *root;

	if (!yaml_parser_initialize(&ld.parser))
		out_of_memory();
	yaml_parser_set_input_string(&ld.parser, (const unsigned char *)text,
				     size);
	root = load(&ld);
	yaml_parser_delete(&ld.parser);
	return root;
}

/* ---- Checks that do not depend on the schema ---- */

bool scalar_is(const struct node *n, const char *s)
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
void check_tree(struct node *n, const char *key)
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

/* ---- The checks of one value ---- */

bool is_null(const struct node *n)
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
bool want(const struct node *n, enum ntype t, const char *key)
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
void check_keys(const struct node *map, const char *key,
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

/*
 * Item @i of the sequence @seq at @key, its key path written to @item:
 * the item when it is a mapping (its keys not in @allowed reported),
 * else NULL.
 */
const struct node *map_item(const struct node *seq, const char *key,
			    size_t i, const char * const *allowed, char *item)
{
	const struct node *n = seq->kid[i];

	key_index(item, key, i);
	if (!want(n, N_MAP, item))
		return NULL;
	check_keys(n, item, allowed);
	return n;
}

/* The value for @name in @map (first occurrence), or NULL. */
struct node *lookup(const struct node *map, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < map->nkid; i += 2)
		if (scalar_is(map->kid[i], name))
			return map->kid[i + 1];
	return NULL;
}

/* Like lookup(), with @sub the value's key, @key.@name, found or not. */
struct node *lookup_at(const struct node *map, const char *key,
		       const char *name, char *sub)
{
	key_join(sub, key, name, strlen(name));
	return lookup(map, name);
}

/* Like lookup(), but report a missing key. */
struct node *need(const struct node *map, const char *key,
		  const char *name, char *sub)
{
	struct node *v = lookup(map, name);

	key_join(sub, key, name, strlen(name));
	if (!v)
		report(map, sub, "missing required key");
	return v;
}

/*
 * The text of required key @name of map @map (at @key), as get_text()
 * takes it; NULL, reported, when it is missing or wrong.
 */
const char *need_text(const struct node *map, const char *key,
		      const char *name, const char *set, const char *re)
{
	char sub[KEY_LEN];
	const struct node *v = need(map, key, name, sub);

	return v ? get_text(v, sub, set, re) : NULL;
}

/*
 * A string value that will be printed in a record: not empty, no tab,
 * newline or other control character, and (when @set is given) only
 * characters from @set, described to the user as @re.
 */
const char *get_text(const struct node *n, const char *key,
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

/* A decimal integer in @min..@max. */
bool get_int(const struct node *n, const char *key, long min,
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
char get_yesno(const struct node *n, const char *key)
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

char *get_file(const struct series *s, const struct node *n, const char *key)
{
	return get_path(s, n, key, false);
}

char *get_dir(const struct series *s, const struct node *n, const char *key)
{
	return get_path(s, n, key, true);
}
