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

#endif /* BISECT_UTIL_H */
