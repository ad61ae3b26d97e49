// SPDX-License-Identifier: GPL-2.0
/*
 * kdeps - the files of a kernel tree that kbuild's own records say went
 * into objects of a build dir (O=), so that a check that compiled them
 * can say which files of the tree its answer rests on, and a later tree
 * that changed none of them gets the same answer without a compile.
 *
 * Usage:
 *	kdeps --objtree DIR --srctree TREE [--offsets] OBJ...
 *
 * OBJ is a file of the build dir DIR (lib/foo.o), relative to it. Its
 * record is DIR/lib/.foo.o.cmd, which kbuild writes for every file it
 * makes with if_changed (fixdep's "source_", "deps_" lines and the
 * command line, "cmd_" or "savedcmd_"). kdeps prints, one a line, sorted,
 * each path relative to TREE that a word of the record names under TREE
 * (the source, each header, a file the command line names: -include
 * files, which fixdep leaves out of "deps_", a script, a table), and
 * follows each word that names a file of the build dir with a record of
 * its own (a generated header made from a script and a table, a linked
 * vDSO whose symbols a header lists, the objects of that link) to its
 * record, and so on. A word is taken apart at '=' and ',' too
 * (-Wp,-MMD,x; -I/tree/x). Directories named by -I options come out too:
 * no change of a tree is a directory.
 *
 * Not recorded by kbuild, so not followed: what filechk makes
 * (include/generated/asm-offsets.h, bounds.h, autoconf.h, utsrelease.h),
 * the generic-y wrappers, include/config/. The first ones come from a
 * compiled .s file: --offsets adds the record of every .s file of the
 * build dir (symbolic links are not entered) as an OBJ; the others come
 * from the config and the tree's Makefiles, Kbuild and Kconfig files,
 * which the caller keys or watches itself.
 *
 * TREE is the source tree as make was given it; the records name it by
 * its real path (kbuild's abs_srctree): both are looked for (the given
 * one alone when it is gone).
 *
 * Exit status: 0; 1 when an OBJ has no record (the others are still
 * printed: the caller cannot know what that one read); 2 on a usage or
 * I/O error.
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define KDEPS_OK	0
#define KDEPS_MISSING	1
#define KDEPS_ERROR	2

#define UTIL_PROG "kdeps"
#define UTIL_ERROR KDEPS_ERROR
#include "util.h"

static const char *objtree;
/* The tree as given and as its real path, each with a '/' at its end. */
static char *src_given, *src_real;

static struct set visited;	/* build dir files whose record was read */
static struct set found;	/* tree paths */

/* The record of build dir file @rel: DIR/dir/.name.cmd. */
static char *record_of(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	if (!slash)
		return xasprintf("%s/.%s.cmd", objtree, rel);
	return xasprintf("%s/%.*s/.%s.cmd", objtree, (int)(slash - rel), rel, slash + 1);
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static void follow(const char *rel);

/* The tree path after @prefix in @w, if @w has one there; else NULL. */
static const char *under(const char *w, const char *prefix)
{
	const char *p = strstr(w, prefix);

	if (!p)
		return NULL;
	p += strlen(prefix);
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	/* "-fmacro-prefix-map=/tree/=", "-I /tree/.": the tree is no file. */
	if (!*p || *p == '=' || *p == '/' || !strcmp(p, "."))
		return NULL;
	return p;
}

/* One part of a word (no blank, '=' or ','), NUL-terminated, editable. */
static void part(char *w)
{
	const char *t;
	size_t n = strlen(w);

	while (n && strchr(")\"';:\\", w[n - 1]))
		w[--n] = '\0';
	while (*w == '\'' || *w == '"')
		w++;
	if (!*w)
		return;
	t = under(w, src_real);
	if (!t)
		t = under(w, src_given);
	if (t) {
		set_add(&found, t);
		return;
	}
	/* A file of the build dir: relative, inside it. */
	if (*w == '/' || *w == '-' || *w == '$' || strstr(w, ".."))
		return;
	while (w[0] == '.' && w[1] == '/')
		w += 2;
	if (*w)
		follow(w);
}

/* Every word of the record at @path, taken apart at '=' and ','. */
static void scan(const char *path)
{
	struct lines l;
	size_t i;
	char *p, *w;

	lines_read(&l, path, "record", 0);
	for (i = 0; i < l.nr; i++) {
		p = l.v[i];
		for (;;) {
			while (*p && strchr(" \t=,", *p))
				p++;
			if (!*p)
				break;
			w = p;
			while (*p && !strchr(" \t=,", *p))
				p++;
			if (*p)
				*p++ = '\0';
			part(w);
		}
	}
	free(l.v);
	free(l.buf);
}

/* Read the record of build dir file @rel once, if it has one. */
static void follow(const char *rel)
{
	char *rec;

	if (!set_add(&visited, rel))
		return;
	rec = record_of(rel);
	if (is_file(rec))
		scan(rec);
	free(rec);
}

/* Follow the record of every .s file under @dir (relative to DIR). */
static void offsets(const char *dir)
{
	char *path = *dir ? xasprintf("%s/%s", objtree, dir) : xstrdup(objtree);
	struct dirent *e;
	struct stat st;
	char *sub, *rel;
	size_t n;
	DIR *d;

	d = opendir(path);
	if (!d)
		die("cannot open %s: %s", path, strerror(errno));
	while ((errno = 0, e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		sub = xasprintf("%s/%s", path, e->d_name);
		if (lstat(sub, &st))
			die("cannot stat %s: %s", sub, strerror(errno));
		n = strlen(e->d_name);
		if (S_ISDIR(st.st_mode)) {
			rel = *dir ? xasprintf("%s/%s", dir, e->d_name) : xstrdup(e->d_name);
			offsets(rel);
			free(rel);
		} else if (S_ISREG(st.st_mode) && n > 7 && e->d_name[0] == '.' &&
			   !strcmp(e->d_name + n - 6, ".s.cmd")) {
			/* .foo.s.cmd: the record of foo.s. */
			rel = xasprintf("%s%s%.*s", dir, *dir ? "/" : "", (int)(n - 5),
					e->d_name + 1);
			follow(rel);
			free(rel);
		}
		free(sub);
	}
	if (errno)
		die("cannot read %s: %s", path, strerror(errno));
	closedir(d);
	free(path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static void bad_usage(const char *why)
{
	fprintf(stderr, "%s: error: %s\n", prog, why);
	fprintf(stderr, "usage: %s --objtree DIR --srctree TREE [--offsets] OBJ...\n", prog);
	exit(KDEPS_ERROR);
}

/* @s with one '/' at its end. */
static char *with_slash(const char *s)
{
	size_t n = strlen(s);

	while (n > 1 && s[n - 1] == '/')
		n--;
	return xasprintf("%.*s/", (int)n, s);
}

int main(int argc, char **argv)
{
	const char *src = NULL;
	char real[PATH_MAX], *rec;
	char **v;
	int i, all_s = 0, rc = KDEPS_OK;
	size_t j, n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--objtree") || !strcmp(argv[i], "--srctree")) {
			if (i + 1 == argc || !*argv[i + 1])
				bad_usage(argv[i][2] == 'o' ? "--objtree needs a directory" :
					  "--srctree needs a directory");
			if (argv[i][2] == 'o')
				objtree = argv[i + 1];
			else
				src = argv[i + 1];
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--offsets")) {
			all_s = 1;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			bad_usage("unknown option");
		break;
	}
	if (!objtree)
		bad_usage("no --objtree");
	if (!src)
		bad_usage("no --srctree");
	if (i == argc)
		bad_usage("no OBJ");
	/* A tree that is gone is still the one the records name. */
	src_given = with_slash(src);
	src_real = with_slash(realpath(src, real) ? real : src);
	for (; i < argc; i++) {
		rec = record_of(argv[i]);
		if (!is_file(rec)) {
			fprintf(stderr, "%s: no record of %s (%s)\n", prog, argv[i], rec);
			rc = KDEPS_MISSING;
		}
		free(rec);
		follow(argv[i]);
	}
	if (all_s)
		offsets("");
	v = xrealloc(NULL, (found.nr + 1) * sizeof(*v));
	for (j = 0, n = 0; j < found.cap; j++)
		if (found.keys[j])
			v[n++] = found.keys[j];
	qsort(v, n, sizeof(*v), by_name);
	for (j = 0; j < n; j++)
		printf("%s\n", v[j]);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the output: %s", strerror(errno));
	return rc;
}
