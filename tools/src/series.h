/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - what the parts of tools/bin/series share: the tree of the
 * document (series-yaml.c), the series it describes (series-schema.c,
 * series-guest.c), printed by series-out.c; main() is series.c's.
 */
#ifndef BISECT_SERIES_H
#define BISECT_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define EXIT_BAD	2
#define UTIL_PROG	"series"
#define UTIL_ERROR	EXIT_BAD
#include "util.h"
#include "guestop.h"

#define KEY_LEN		256	/* longest dotted key path kept */
#define DEFAULT_TIMEOUT	120

#define TEST_ID_SET	GUEST_TEST_ID_SET
#define ARCH_SET	"abcdefghijklmnopqrstuvwxyz0123456789_"
#define ARCH_RE		"[a-z0-9_]+"

/* The one target of a series without targets: (name, arch, compiler). */
#define DEFAULT_TARGET	"x86_64-gcc"
#define DEFAULT_ARCH	"x86_64"
#define DEFAULT_CC	"gcc"

/* ---- The document ---- */

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

/* ---- The series ---- */

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

/*
 * A declared test that a target does not run, and why; or, with cases,
 * KUnit cases of the suites that judge it that the target does not
 * count: the test is judged by the others.
 */
struct skip {
	const char *test;
	const char *reason;
	bool *at;		/* per step (0 = base): skipped; NULL: all */
	const char **cases;	/* NULL: the whole test */
	size_t ncases;
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

struct series {
	const char *dir;	/* directory of series.yaml, as given */
	const char *name;
	long version;
	char *cover;
	char *config;
	const char *package;	/* the base: a Debian source package, */
	char *repo;		/* or a git tree (its realpath) */
	const char *commit;	/* and a revision in it */
	long timeout;
	struct test *tests;
	size_t ntests;
	struct index ids;	/* of tests[] by id */
	bool has_tests;		/* tests given, not []: expect required */
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

/* ---- Errors (series-yaml.c) ---- */

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

void out_of_memory(void);
void *xcalloc(size_t n, size_t size);
FILE *msg_open(struct msg *m);
char *msg_close(struct msg *m);
void add_error(int line, int col, const char *key, const char *msg);
size_t print_errors(const char *file);

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

/* ---- Keys, the index, the tree (series-yaml.c) ---- */

void key_join(char *dst, const char *parent, const char *name, size_t len);
void key_index(char *dst, const char *parent, size_t i);
uint64_t hash_bytes(const void *p, size_t len);
void index_add(struct index *ix, uint64_t h, size_t elem);
bool index_next(const struct index *ix, uint64_t h, size_t *slot,
		size_t *elem);
ssize_t index_find(const struct index *ix, const void *base, size_t size,
		   size_t off, const char *key, size_t len);
void index_free(struct index *ix);
struct node *load_yaml(const char *text, size_t size);
void free_node(struct node *n);
void check_tree(struct node *n, const char *key);

/* ---- The checks of one value (series-yaml.c) ---- */

const char *shown(const struct node *n);
bool scalar_is(const struct node *n, const char *s);
bool is_null(const struct node *n);
bool want(const struct node *n, enum ntype t, const char *key);
void check_keys(const struct node *map, const char *key,
		const char * const *allowed);
const struct node *map_item(const struct node *seq, const char *key,
			    size_t i, const char * const *allowed, char *item);
struct node *lookup(const struct node *map, const char *name);
struct node *lookup_at(const struct node *map, const char *key,
		       const char *name, char *sub);
struct node *need(const struct node *map, const char *key, const char *name,
		  char *sub);
const char *need_text(const struct node *map, const char *key,
		      const char *name, const char *set, const char *re);
const char *get_text(const struct node *n, const char *key, const char *set,
		     const char *re);
bool get_int(const struct node *n, const char *key, long min, long max,
	     long *out);
char get_yesno(const struct node *n, const char *key);
char *get_file(const struct series *s, const struct node *n, const char *key);
char *get_dir(const struct series *s, const struct node *n, const char *key);

/* ---- The schema (series-schema.c, series-guest.c) ---- */

ssize_t find_test(const struct series *s, const char *id, size_t len);
const char *declared_tests(const struct series *s);
bool arch_ok(const struct series *s, const char *arch);
bool skips_step(const struct skip *k, size_t step);
size_t skip_words(const struct series *s, const struct skip *k, FILE *f);
void check_series(struct series *s, const struct node *root);
void check_guest(struct series *s, const struct node *map);

/* ---- Output (series-out.c), files (series.c) ---- */

void print_series(FILE *f, const struct series *s);
ssize_t read_full(int fd, char *p, size_t n);

#endif /* BISECT_SERIES_H */
