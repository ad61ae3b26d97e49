/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - error, memory and UTF-8 helpers shared by the host tools, most
 * of which are one .c file. The includer defines UTIL_PROG (its name, for
 * messages) and UTIL_ERROR (its exit status for usage and I/O errors)
 * before including this file. Everything is static inline, so that a
 * tool need not use all of it.
 */
#ifndef BISECT_UTIL_H
#define BISECT_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = UTIL_PROG;

/* Print "prog: error: <where>..." and exit with @code. */
static inline void vdie_at(int code, const char *where, const char *fmt,
			   va_list ap)
{
	fprintf(stderr, "%s: error: %s", prog, where);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(code);
}

/* Print "prog: error: ..." and exit with UTIL_ERROR. */
static inline void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie_at(UTIL_ERROR, "", fmt, ap);
}

/* realloc() that never returns NULL. */
static inline void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* The @n bytes at @s as a new NUL-terminated string. */
static inline char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* FNV-1a of the string @s: the hash of our open-addressing sets. */
static inline size_t str_hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static inline char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* A set of strings (copies): open addressing, FNV-1a, zero-initialised. */
struct set {
	char **keys;
	size_t cap, nr;
};

static inline size_t set_slot(char **keys, size_t cap, const char *key)
{
	size_t i = str_hash(key) & (cap - 1);

	while (keys[i] && strcmp(keys[i], key))
		i = (i + 1) & (cap - 1);
	return i;
}

static inline int set_has(const struct set *s, const char *key)
{
	return s->cap && s->keys[set_slot(s->keys, s->cap, key)];
}

/* Add a copy of @key to @s; returns 0 when it was there already. */
static inline int set_add(struct set *s, const char *key)
{
	char **keys;
	size_t i, cap;

	if (set_has(s, key))
		return 0;
	if (2 * (s->nr + 1) > s->cap) {
		if (s->cap > SIZE_MAX / 4 / sizeof(*keys))
			die("out of memory");
		cap = s->cap ? 2 * s->cap : 16;
		keys = xrealloc(NULL, cap * sizeof(*keys));
		memset(keys, 0, cap * sizeof(*keys));
		for (i = 0; i < s->cap; i++)
			if (s->keys[i])
				keys[set_slot(keys, cap, s->keys[i])] = s->keys[i];
		free(s->keys);
		s->keys = keys;
		s->cap = cap;
	}
	s->keys[set_slot(s->keys, s->cap, key)] = xstrdup(key);
	s->nr++;
	return 1;
}

static inline void set_free(struct set *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->keys[i]);
	free(s->keys);
	memset(s, 0, sizeof(*s));
}

/*
 * An array of @size-byte elements that holds @n of them and has room for
 * *@cap, grown to room for @n + 1. The room doubles, so that adding one
 * at a time takes linear time whatever realloc() does.
 */
static inline void *xgrow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	if (*cap > (size_t)-1 / 2 / size)
		die("out of memory");
	*cap = *cap ? 2 * *cap : 4;
	return xrealloc(p, *cap * size);
}

/* vsprintf() into memory that never fails to come. */
static inline char *xvasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		die("out of memory");
	s = xrealloc(NULL, (size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

/* sprintf() into memory that never fails to come. */
static inline char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/*
 * Read the rest of an open file into a NUL-terminated buffer and set
 * *plen; returns NULL (nothing allocated) on a read error.
 */
static inline char *slurp(FILE *f, size_t *plen)
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

/*
 * The length of the UTF-8 character at @s (at most @n bytes), or 0 when
 * the bytes there are not one: a stray continuation byte, a truncated
 * sequence, an overlong form, a surrogate or a code point past U+10FFFF.
 */
static inline size_t utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (!n)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] < 0xc2 || u[0] > 0xf4)
		return 0;
	len = u[0] < 0xe0 ? 2 : u[0] < 0xf0 ? 3 : 4;
	if (u[0] == 0xe0)
		lo = 0xa0;
	else if (u[0] == 0xed)
		hi = 0x9f;
	else if (u[0] == 0xf0)
		lo = 0x90;
	else if (u[0] == 0xf4)
		hi = 0x8f;
	if (n < len || u[1] < lo || u[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((u[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * The longest prefix of @s (@len bytes) that is at most @max bytes and
 * does not end inside a UTF-8 character.
 */
static inline size_t utf8_cut(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

/*
 * Where the shortest suffix of @s (@len bytes) that holds at least the
 * last @keep bytes starts, not inside a UTF-8 character.
 */
static inline size_t utf8_tail(const char *s, size_t len, size_t keep)
{
	size_t start;

	if (len <= keep)
		return 0;
	start = len - keep;
	while (start > 0 && ((unsigned char)s[start] & 0xc0) == 0x80)
		start--;
	return start;
}

#define SHOW_LEN	64	/* longest text quoted in a message, in bytes */

/*
 * Quote text for a message: at most SHOW_LEN bytes of it, cut between two
 * UTF-8 characters and marked "..." when it is longer; control characters
 * and bytes that are not UTF-8 shown as '?'. Four rotating buffers let one
 * message quote up to four values.
 */
static inline const char *show(const char *s, size_t len)
{
	static char ring[4][SHOW_LEN + 4];
	static int next;
	char *p = ring[next];
	size_t i = 0, n = 0, c;

	next = (next + 1) % 4;
	while (i < len) {
		c = utf8_len(s + i, len - i);
		if (n + (c ? c : 1) > SHOW_LEN)
			break;
		if (!c || (unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			p[n++] = '?';
			i++;
			continue;
		}
		memcpy(p + n, s + i, c);
		n += c;
		i += c;
	}
	if (i < len) {
		memcpy(p + n, "...", 3);
		n += 3;
	}
	p[n] = '\0';
	return p;
}

#define MSG_MAX		1024	/* longest message, in bytes */
#define MSG_TAIL	384	/* bytes kept from the end of a longer one */

/*
 * Shorten the message @msg in place to at most MSG_MAX bytes by cutting
 * out its middle, marked "...": its end (the errno text, the advice) is
 * kept, and both cuts fall between two UTF-8 characters.
 */
static inline void shorten_msg(char *msg)
{
	size_t len = strlen(msg), head, tail;

	if (len <= MSG_MAX)
		return;
	tail = utf8_tail(msg, len, MSG_TAIL);
	head = utf8_cut(msg, len, MSG_MAX - 3 - (len - tail));
	memcpy(msg + head, "...", 3);
	memmove(msg + head + 3, msg + tail, len - tail + 1);
}

/* A text file in memory, split in place into NUL-terminated lines. */
struct lines {
	char *buf;
	char **v;
	size_t nr, cap;
	int partial;		/* the last line had no newline */
};

static inline void lines_push(struct lines *l, char *s)
{
	if (l->nr == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->nr++] = s;
}

/*
 * Read @path into @l, split at each '\n'. @what names the file in
 * messages ("console file x: ..."), or is NULL. Returns 0, or -1 with
 * errno ENOENT when the file does not exist and @missing_ok is set;
 * other errors are fatal.
 */
static inline int lines_read(struct lines *l, const char *path,
			     const char *what, int missing_ok)
{
	size_t len, i, start = 0;
	char *buf;
	FILE *f;

	memset(l, 0, sizeof(*l));
	f = fopen(path, "rb");
	if (!f) {
		if (missing_ok && errno == ENOENT)
			return -1;
		die("cannot open %s%s%s: %s", what ? what : "", what ? " file " : "",
		    path, strerror(errno));
	}
	buf = slurp(f, &len);
	if (!buf)
		die("cannot read %s%s%s: %s", what ? what : "", what ? " file " : "",
		    path, strerror(errno));
	fclose(f);
	l->buf = buf;
	for (i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		buf[i] = '\0';
		lines_push(l, buf + start);
		start = i + 1;
	}
	if (start < len) {
		lines_push(l, buf + start);
		l->partial = 1;
	}
	return 0;
}

/* Drop the '\r' of every CRLF line end of @l (in place). */
static inline void lines_strip_cr(struct lines *l)
{
	size_t i, n;

	for (i = 0; i < l->nr; i++) {
		n = strlen(l->v[i]);
		if (n && l->v[i][n - 1] == '\r')
			l->v[i][n - 1] = '\0';
	}
}

/* The value of hex digit @c, -1 when it is none. */
static inline int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* @s without its leading and trailing spaces (in place). */
static inline char *trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && e[-1] == ' ')
		*--e = '\0';
	return s;
}

#endif /* BISECT_UTIL_H */
