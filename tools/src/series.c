// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - validate a bisect-check series.yaml and print it as
 * normalised, tab-separated records: the command line, the file, and
 * the order of the work. The work is done by series-yaml.c (the
 * document as a tree of nodes, the checks of one value),
 * series-schema.c (the keys of series.yaml), series-guest.c (guest:,
 * in the guest runner's language, guestop.h) and series-out.c (the
 * records); series.h is what they share.
 *
 * Usage: series [--arch NAME]... FILE
 *
 * guest.run, what the guest runner does, is checked here against the
 * runner's language (guest/README) and printed as its program lines.
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
#include <sys/stat.h>
#include <unistd.h>

#include "series.h"

#define MAX_YAML	(4 << 20)	/* largest series.yaml accepted */

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
		"  cover    /abs/cover-letter       (when cover-letter is given)\n"
		"  config   /abs/kconfig-fragment\n"
		"  package  DEBIAN-PACKAGE          (a base.package base; or:)\n"
		"  repo     /abs/git-tree           (a base.repo base: the tree,\n"
		"  base-commit REV                  and base.commit, its revision)\n"
		"  timeout  SECONDS                 (default %d)\n"
		"  target   NAME ARCH CC CONFIG BOOT\n"
		"                                   (each target, in order; CC gcc|clang,\n"
		"                                   CONFIG /abs/fragment or -, BOOT yes|no;\n"
		"                                   by default %s %s %s - yes)\n"
		"  skip     TARGET STEP ID REASON   (a test TARGET's guest does not run\n"
		"                                   at that step)\n"
		"  skip-cases TARGET STEP ID CASES WORDS REASON\n"
		"                                   (KUnit cases of test ID TARGET's guest\n"
		"                                   does not count at that step: CASES\n"
		"                                   a,b as declared, WORDS the runner's\n"
		"                                   bisect_skip_cases=, SUITE.CASE,...)\n"
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
		"                                   guest/README)\n"
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

/* Read up to @n bytes, retrying short reads; -1 on error. */
ssize_t read_full(int fd, char *p, size_t n)
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

static void free_series(struct series *s)
{
	size_t i;

	free(s->cover);
	free(s->config);
	free(s->repo);
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

int main(int argc, char **argv)
{
	struct series s = { .timeout = DEFAULT_TIMEOUT };
	char *out = NULL;
	size_t out_len = 0;
	FILE *f;
	struct node *root = NULL;
	const char *file;
	char *text = NULL, *dir;
	size_t size = 0;
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
	root = load_yaml(text, size);

	if (root) {
		check_tree(root, "");
		check_series(&s, root);
	}

	if (print_errors(file)) {
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
