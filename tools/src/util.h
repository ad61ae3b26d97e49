/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - error and memory helpers shared by the host tools, each of
 * which is one .c file. The includer defines UTIL_PROG (its name, for
 * messages) and UTIL_ERROR (its exit status for usage and I/O errors)
 * before including this file.
 */
#ifndef BISECT_UTIL_H
#define BISECT_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *prog = UTIL_PROG;

/* Print "prog: error: ..." and exit with UTIL_ERROR. */
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(UTIL_ERROR);
}

/* realloc() that never returns NULL. */
static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

/*
 * Read the rest of an open file into a NUL-terminated buffer and set
 * *plen; returns NULL (nothing allocated) on a read error.
 */
static char *slurp(FILE *f, size_t *plen)
{
	size_t len = 0, cap = 0, n;
	char *buf = NULL;

	for (;;) {
		if (cap - len < 16384) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	*plen = len;
	return buf;
}

#endif /* BISECT_UTIL_H */
