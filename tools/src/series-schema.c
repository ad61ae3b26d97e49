// SPDX-License-Identifier: GPL-2.0
/*
 * series-schema.c - the schema of series.yaml: its keys, what each
 * value must be, and the rules between them (the tests that expect
 * mappings and skips name, the targets, the patches, none of them
 * twice). guest: is series-guest.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#include "series.h"

#define NAME_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
			"0123456789._-"
#define NAME_MAX_LEN	64	/* of a series name: a file name <name>-v<N> */
#define PACKAGE_SET	"abcdefghijklmnopqrstuvwxyz0123456789.+-"
/*
 * A revision of base.repo, for git rev-parse: a ref, an object name or
 * an expression of them (v6.1~2, main@{1}), never an option.
 */
#define COMMIT_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
			"0123456789._/~^@{}-"
#define COMMIT_RE	"[A-Za-z0-9._/~^@{}-]+"
#define COMMIT_MAX_LEN	255
#define TYPE_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
/* A kernel symbol: a C identifier (and the '.' of some compilers'). */
#define SYMBOL_SET	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_."
#define TARGET_SET	"abcdefghijklmnopqrstuvwxyz0123456789_-"
#define TARGET_RE	"[a-z0-9][a-z0-9_-]*"
#define TARGET_MAX_LEN	32	/* of a target name */
#define NO_TARGETS	"leave targets out for the default, " DEFAULT_TARGET

static const char * const top_keys[] = {
	"name", "version", "cover-letter", "config", "base", "boot", "targets",
	"tests", "guest", "patches", NULL
};

static const char * const base_keys[] = {
	"package", "repo", "commit", "prep", "expect", NULL
};

/* What a base is, for the messages about its form. */
#define BASE_FORMS	"give package (a Debian source package), or repo and commit (a git tree and a revision in it)"

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

static const char * const skip_keys[] = {
	"tests", "cases", "steps", "reason", NULL
};

/* ---- The series name ---- */

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
ssize_t find_test(const struct series *s, const char *id, size_t len)
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
bool arch_ok(const struct series *s, const char *arch)
{
	return !s->narchs ||
	       index_find(&s->arch_ix, s->archs, sizeof(*s->archs), 0, arch,
			  strlen(arch)) >= 0;
}

/* The declared tests as "a, b, c" for messages, or "none". */
const char *declared_tests(const struct series *s)
{
	return s->ntests ? s->declared : "none";
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
	const struct node *n;
	size_t i, list_len;
	bool ok = true;
	FILE *list;

	/* Malformed, it still says the series has tests: expect is needed. */
	s->has_tests = true;
	if (!want(seq, N_SEQ, key))
		return;
	/* No tests: a series without claims, nothing to expect. */
	if (!seq->nkid) {
		s->has_tests = false;
		s->tests_ok = true;
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

		n = map_item(seq, key, i, test_keys, item);
		if (!n) {
			ok = false;
			continue;
		}
		id = need(n, item, "id", sub);
		if (id)
			t.id = get_text(id, sub, TEST_ID_SET, "[a-z0-9-]+");
		t.claim = need_text(n, item, "claim", NULL, NULL);
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
			       shown(k), declared_tests(s));
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

/* The key node of @name in @map (first occurrence), or @map. */
static const struct node *key_node(const struct node *map, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < map->nkid; i += 2)
		if (scalar_is(map->kid[i], name))
			return map->kid[i];
	return map;
}

/* base.commit: COMMIT_RE, at most COMMIT_MAX_LEN bytes, no option. */
static const char *get_commit(const struct node *n, const char *key)
{
	const char *rev = get_text(n, key, NULL, NULL);

	if (!rev)
		return NULL;
	if (rev[0] == '-') {
		report(n, key, "'%s' starts with '-', which %s: name the revision another way",
		       shown(n), "git would take for an option");
		return NULL;
	}
	if (strspn(rev, COMMIT_SET) != n->len) {
		report(n, key, "'%s' must match %s", shown(n), COMMIT_RE);
		return NULL;
	}
	if (n->len > COMMIT_MAX_LEN) {
		report(n, key, "'%s' is %zu bytes long, more than %d",
		       shown(n), n->len, COMMIT_MAX_LEN);
		return NULL;
	}
	return rev;
}

/*
 * The tree a series applies to: package, a Debian source package whose
 * /usr/src tarball is imported; or repo, a git repository (a directory,
 * relative to the series file), and commit, a revision in it. Exactly
 * one of the two forms.
 */
static void check_base_tree(struct series *s, const struct node *map)
{
	const struct node *pkg = lookup(map, "package");
	const struct node *repo = lookup(map, "repo");
	const struct node *rev = lookup(map, "commit");
	const char *other = repo ? "repo" : "commit";
	char sub[KEY_LEN];

	if (pkg && (repo || rev)) {
		key_join(sub, "base", other, strlen(other));
		report(key_node(map, other), sub,
		       "'package' and '%s' both given: %s, not both", other,
		       BASE_FORMS);
		return;
	}
	if (pkg) {
		key_join(sub, "base", "package", 7);
		s->package = get_text(pkg, sub, PACKAGE_SET, "[a-z0-9.+-]+");
		return;
	}
	if (!repo && !rev) {
		report(map, "base.package", "missing required key: %s", BASE_FORMS);
		return;
	}
	if (!rev)
		report(map, "base.commit",
		       "missing required key: repo needs the revision to start from");
	if (!repo)
		report(map, "base.repo",
		       "missing required key: commit is a revision of the git tree repo names");
	if (repo) {
		key_join(sub, "base", "repo", 4);
		s->repo = get_dir(s, repo, sub);
	}
	if (rev) {
		key_join(sub, "base", "commit", 6);
		s->commit = get_commit(rev, sub);
	}
}

static void check_base(struct series *s, const struct node *map)
{
	char sub[KEY_LEN], item[KEY_LEN];
	const struct node *v;
	size_t i;

	if (!want(map, N_MAP, "base"))
		return;
	check_keys(map, "base", base_keys);
	check_base_tree(s, map);
	/* No prep: the series applies to the base as it is. */
	v = lookup_at(map, "base", "prep", sub);
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
	/* Expectations are of the declared tests: none, none needed. */
	if (s->has_tests)
		v = need(map, "base", "expect", sub);
	else
		v = lookup_at(map, "base", "expect", sub);
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
bool skips_step(const struct skip *k, size_t step)
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

/* Keep @p for the series' life: freed with it. */
static void keep_alloc(struct series *s, void *p)
{
	s->allocs = xrealloc(s->allocs, (s->nallocs + 1) * sizeof(*s->allocs));
	s->allocs[s->nallocs++] = p;
}

/* Whether guest operation @op names test @t (an index into s->tests). */
static bool op_names(const struct guest_op *op, size_t t)
{
	size_t i;

	for (i = 0; i < op->ntests; i++)
		if (op->tests[i] == t)
			return true;
	return false;
}

/*
 * The words skip @k (one with cases) adds to the runner's
 * bisect_skip_cases=: SUITE.CASE for each suite a kunit operation of
 * its test reads (each suite once) and each case, comma separated,
 * printed to @f unless it is NULL; returns their length.
 */
size_t skip_words(const struct series *s, const struct skip *k, FILE *f)
{
	ssize_t t = find_test(s, k->test, strlen(k->test));
	size_t i, j, c, len = 0;

	for (i = 0; t >= 0 && i < s->nops; i++) {
		const struct guest_op *op = &s->ops[i];

		if (op->kind != GOP_KUNIT || !op_names(op, t))
			continue;
		for (j = 0; j < i; j++)
			if (s->ops[j].kind == GOP_KUNIT && op_names(&s->ops[j], t) &&
			    !strcmp(s->ops[j].arg, op->arg))
				break;
		if (j < i)
			continue;
		for (c = 0; c < k->ncases; c++) {
			if (f)
				fprintf(f, "%s%s.%s", len ? "," : "", op->arg,
					k->cases[c]);
			len += (len ? 1 : 0) + strlen(op->arg) + 1 +
			       strlen(k->cases[c]);
		}
	}
	return len;
}

/*
 * Why test @t (an index into s->tests) cannot have cases skipped,
 * written into @why; NULL when it can. The cases are those of the
 * suites its kunit operations read, and the runner leaves a case out
 * wherever its suite is read: so a kunit operation judges @t, and the
 * suites it reads judge no other test.
 */
static const char *cases_rule(const struct series *s, size_t t, char *why,
			      size_t size)
{
	const struct guest_op *op, *o;
	bool kunit = false;
	size_t i, j, k;

	for (i = 0; i < s->nops; i++) {
		op = &s->ops[i];
		if (op->kind != GOP_KUNIT || !op_names(op, t))
			continue;
		kunit = true;
		for (j = 0; j < s->nops; j++) {
			o = &s->ops[j];
			if (o->kind != GOP_KUNIT || strcmp(o->arg, op->arg))
				continue;
			for (k = 0; k < o->ntests; k++) {
				if (o->tests[k] == t)
					continue;
				snprintf(why, size,
					 "the runner leaves a case out wherever suite %s is read, and it judges test '%s' too: cases need a suite that judges '%s' alone",
					 op->arg, s->tests[o->tests[k]].id,
					 s->tests[t].id);
				return why;
			}
		}
	}
	if (kunit)
		return NULL;
	snprintf(why, size,
		 "test '%s' is judged by no kunit operation: cases are a KUnit suite's (guest.run), leave cases out to skip the whole test",
		 s->tests[t].id);
	return why;
}

/* A skip item's cases: list, KUnit case names; NULL when invalid. */
static const char **get_cases(struct series *s, const struct node *seq,
			      const char *key, size_t *ncases)
{
	const char **cases;
	char item[KEY_LEN];
	bool ok = true;
	size_t i, j;

	if (!want(seq, N_SEQ, key))
		return NULL;
	if (!seq->nkid) {
		report(seq, key,
		       "must not be empty: name the cases to skip, or leave cases out to skip the whole test");
		return NULL;
	}
	cases = xcalloc(seq->nkid, sizeof(*cases));
	*ncases = 0;
	for (i = 0; i < seq->nkid; i++) {
		const char *c;

		key_index(item, key, i);
		c = get_text(seq->kid[i], item, GUEST_CASE_SET, "[a-z0-9_]+");
		if (!c) {
			ok = false;
			continue;
		}
		for (j = 0; j < *ncases; j++)
			if (!strcmp(cases[j], c))
				break;
		if (j < *ncases) {
			report(seq->kid[i], item, "case '%s' is listed twice",
			       shown(seq->kid[i]));
			ok = false;
			continue;
		}
		cases[(*ncases)++] = c;
	}
	if (ok) {
		keep_alloc(s, cases);
		return cases;
	}
	free(cases);
	return NULL;
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

/*
 * One item of a target's skip: list: declared tests, maybe the steps
 * and the KUnit cases of those tests it is about, and the reason.
 */
static void check_skip(struct series *s, struct target *t,
		       const struct node *map, const char *key)
{
	char sub[KEY_LEN], item[KEY_LEN], why[512];
	const struct node *ids, *v;
	const char *reason = NULL, **cases = NULL;
	size_t i, ncases = 0;
	ssize_t twice, found;
	bool *at = NULL;

	check_keys(map, key, skip_keys);
	reason = need_text(map, key, "reason", NULL, NULL);
	if (!reason)
		return;
	v = lookup_at(map, key, "steps", sub);
	if (v) {
		at = get_steps(s, v, sub);
		if (!at)
			return;
		keep_alloc(s, at);
	}
	v = lookup_at(map, key, "cases", sub);
	if (v) {
		cases = get_cases(s, v, sub, &ncases);
		if (!cases)
			return;
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
		found = find_test(s, id, strlen(id));
		if (s->tests_ok && found < 0) {
			report(n, item, "unknown test '%s' (declared tests: %s)",
			       shown(n), declared_tests(s));
			continue;
		}
		if (cases && found >= 0 &&
		    cases_rule(s, found, why, sizeof(why))) {
			report(n, item, "%s", why);
			continue;
		}
		twice = skipped_twice(t, id, at, s->npatches + 1);
		if (twice >= 0) {
			report(n, item, "test '%s' is skipped twice at step %zd",
			       shown(n), twice);
			continue;
		}
		t->skips[t->nskips++] = (struct skip){ id, reason, at, cases,
						       ncases };
	}
}

/*
 * The length of bisect_skip_cases= target @t gives the runner at each
 * step: at most GUEST_SKIP_CASES_LEN, said for the first step past it.
 */
static void check_skip_words(const struct series *s, const struct target *t,
			     const struct node *seq, const char *key)
{
	size_t step, i, len, n;

	for (step = 0; step <= s->npatches; step++) {
		len = 0;
		for (i = 0; i < t->nskips; i++) {
			if (!t->skips[i].cases || !skips_step(&t->skips[i], step))
				continue;
			n = skip_words(s, &t->skips[i], NULL);
			len += n && len ? n + 1 : n;
		}
		if (len <= GUEST_SKIP_CASES_LEN)
			continue;
		report(seq, key,
		       "at step %zu the cases skipped make the runner's bisect_skip_cases=SUITE.CASE,... %zu characters long, more than it takes (%d): skip fewer cases, or whole tests",
		       step, len, GUEST_SKIP_CASES_LEN);
		return;
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
	check_skip_words(s, t, seq, key);
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
	v = lookup_at(map, key, "config", sub);
	if (v)
		t->config = get_file(s, v, sub);
	t->boot = true;
	v = lookup_at(map, key, "boot", sub);
	if (v)
		t->boot = get_yesno(v, sub) != 'n';
	v = lookup_at(map, key, "skip", sub);
	if (v)
		check_skips(s, t, v, sub);
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
		n = map_item(seq, "targets", i, target_keys, item);
		if (!n)
			continue;
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
	char item[KEY_LEN];
	const struct node *n;
	size_t i;

	if (!want(seq, N_SEQ, key))
		return;
	p->acc = xcalloc(seq->nkid, sizeof(*p->acc));
	for (i = 0; i < seq->nkid; i++) {
		/* Filled here, kept only when complete. */
		struct accept a = { .type = NULL };

		n = map_item(seq, key, i, accept_keys, item);
		if (!n)
			continue;
		a.type = need_text(n, item, "type", TYPE_SET, "[A-Z0-9_]+");
		a.reason = need_text(n, item, "reason", NULL, NULL);
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

		n = map_item(seq, key, i, finding_accept_keys, item);
		if (!n)
			continue;
		v = need(n, item, "check", sub);
		if (v)
			a.check = get_finding_check(v, sub);
		a.kind = get_finding_any(n, item, "kind");
		a.file = get_finding_any(n, item, "file");
		a.match = need_text(n, item, "match", NULL, NULL);
		a.reason = need_text(n, item, "reason", NULL, NULL);
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

		n = map_item(seq, "patches", i, patch_keys, item);
		if (!n)
			continue;
		v = need(n, item, "file", sub);
		if (v) {
			p->file = get_file(s, v, sub);
			if (p->file)
				add_entry(s, v, sub, p->file);
		}
		v = lookup_at(n, item, "checkpatch-accept", sub);
		if (v)
			check_accepts(p, v, sub);
		v = lookup_at(n, item, "findings-accept", sub);
		if (v)
			check_finding_accepts(p, v, sub);
		v = lookup_at(n, item, "abi", sub);
		if (v)
			check_abi(p, v, sub);
		if (s->has_tests)
			v = need(n, item, "expect", sub);
		else
			v = lookup_at(n, item, "expect", sub);
		if (v)
			p->expect = check_expect(s, v, sub);
	}
}

void check_series(struct series *s, const struct node *root)
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
	/* No cover letter: a series to check, not to send. */
	v = lookup_at(root, "", "cover-letter", sub);
	if (v)
		s->cover = get_file(s, v, sub);
	v = need(root, "", "config", sub);
	if (v)
		s->config = get_file(s, v, sub);

	/*
	 * Tests first: the expect mappings are checked against them. No
	 * tests, or [], is a series without claims: a step then passes when
	 * it builds and boots without a splat.
	 */
	tests = lookup(root, "tests");
	key_join(sub, "", "tests", 5);
	if (tests)
		check_tests(s, tests, sub);
	else
		s->tests_ok = true;
	v = lookup(root, "guest");
	if (v)
		check_guest(s, v);
	v = need(root, "", "base", sub);
	if (v)
		check_base(s, v);
	v = lookup(root, "boot");
	if (v)
		check_boot(s, v);
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
