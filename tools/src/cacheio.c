// SPDX-License-Identifier: GPL-2.0
/*
 * cacheio - the result cache's coprocess (tools/cache.sh): the hashes
 * of cache keys and the copies and touches of a cache hit, for a shell
 * that needs many of them, so that each costs no fork. A hash is the
 * first 20 hex digits of a SHA-1 (FIPS 180-4), the same as
 * `sha1sum | cut -c1-20` of the same bytes, so keys made either way
 * agree.
 *
 * Requests on stdin, one after another, fields ended by NUL:
 *	S <bytes> NUL		hash the bytes
 *	F (<label> NUL <path> NUL)... NUL
 *				hash each label, a newline and the contents
 *				of its file (nothing when the file cannot be
 *				read, as `cat` would add nothing)
 *	C <from> NUL <to> NUL	copy file @from to @to (created or
 *				truncated), byte for byte
 *	T <path> NUL		set @path's times to now, if it exists
 *				(touch -c)
 *	I <path> NUL		what identifies file @path, links followed
 *				(stat -L), and where it is, every link
 *				resolved (readlink -f): a fact kept about a
 *				compiler or a file's hash is keyed by it
 * Replies on stdout, one line each, flushed at once: a hash is 20 hex
 * digits; C and T say "ok" or "error: <why>"; I says "<size> <mtime>
 * <ctime> <inode> <device> <mtime ns> <ctime ns>" (times in seconds and
 * their nanoseconds, 9 digits), a tab and the resolved path (none when
 * it has none, or a newline), or "error: <why>" when @path cannot be
 * stat'ed (not naming it: it may hold a newline). A request of another kind gets "error", the
 * message "cacheio: error: stdin, byte N: ..." (N counted from 0) on
 * stderr, and cacheio exits 2; it exits 0 at the end of its input.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define UTIL_PROG "cacheio"
#define UTIL_ERROR 2
#include "util.h"

struct sha1 {
	uint32_t h[5];
	uint64_t len;		/* bytes so far */
	unsigned char buf[64];
	size_t n;		/* bytes in buf */
};

static uint32_t rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void sha1_block(struct sha1 *c, const unsigned char *p)
{
	uint32_t w[80], a, b, d, e, f, k, t, cc;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = c->h[0];
	b = c->h[1];
	cc = c->h[2];
	d = c->h[3];
	e = c->h[4];
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & cc) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ cc ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & cc) | (b & d) | (cc & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ cc ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = cc;
		cc = rol(b, 30);
		b = a;
		a = t;
	}
	c->h[0] += a;
	c->h[1] += b;
	c->h[2] += cc;
	c->h[3] += d;
	c->h[4] += e;
}

static void sha1_init(struct sha1 *c)
{
	static const uint32_t h0[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0
	};

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->n = 0;
}

static void sha1_add(struct sha1 *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t take;

	c->len += len;
	while (len) {
		take = 64 - c->n;
		if (take > len)
			take = len;
		memcpy(c->buf + c->n, p, take);
		c->n += take;
		p += take;
		len -= take;
		if (c->n == 64) {
			sha1_block(c, c->buf);
			c->n = 0;
		}
	}
}

/* Finish and print the first 20 hex digits and a newline. */
static void sha1_put(struct sha1 *c)
{
	uint64_t bits = c->len * 8;
	unsigned char pad = 0x80, len[8];
	int i;

	sha1_add(c, &pad, 1);
	pad = 0;
	while (c->n != 56)
		sha1_add(c, &pad, 1);
	for (i = 0; i < 8; i++)
		len[i] = bits >> (56 - 8 * i);
	sha1_add(c, len, 8);
	/* 20 hex digits: the first 10 bytes, h[0..1] and half of h[2]. */
	printf("%08x%08x%04x\n", c->h[0], c->h[1], c->h[2] >> 16);
	fflush(stdout);
}

/* Bytes read from stdin so far: where an error is. */
static unsigned long long in_pos;

static int next_byte(void)
{
	int ch = getchar();

	if (ch != EOF)
		in_pos++;
	return ch;
}

/* Read up to NUL into @s (grown as needed); false at the end of input. */
static bool read_field(char **s, size_t *cap, size_t *len)
{
	int ch;

	*len = 0;
	while ((ch = next_byte()) != EOF && ch != '\0') {
		if (*len + 1 >= *cap) {
			*cap = *cap ? *cap * 2 : 4096;
			*s = xrealloc(*s, *cap);
		}
		(*s)[(*len)++] = (char)ch;
	}
	if (*cap)
		(*s)[*len] = '\0';
	return ch != EOF;
}

static void add_file(struct sha1 *c, const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha1_add(c, buf, n);
	fclose(f);
}

static void reply_errno(const char *what)
{
	printf("error: %s: %s\n", what, strerror(errno));
	fflush(stdout);
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n = 0;
	int in, out;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		reply_errno(from);
		return;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		reply_errno(to);
		close(in);
		return;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	close(in);
	if (close(out) || n < 0) {
		reply_errno(to);
		return;
	}
	puts("ok");
	fflush(stdout);
}

static void touch_file(const char *path)
{
	if (utimensat(AT_FDCWD, path, NULL, 0) && errno != ENOENT) {
		reply_errno(path);
		return;
	}
	puts("ok");
	fflush(stdout);
}

/*
 * The I request: the identity and the resolved path of @path; no path
 * where it cannot be resolved (a magic link of /proc) or would not be
 * one line.
 */
static void id_file(const char *path)
{
	struct stat st;
	char *real;

	if (stat(path, &st)) {
		printf("error: %s\n", strerror(errno));
		fflush(stdout);
		return;
	}
	real = realpath(path, NULL);
	printf("%lld %lld %lld %llu %llu %09ld %09ld\t%s\n",
	       (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	       (long long)st.st_ctim.tv_sec, (unsigned long long)st.st_ino,
	       (unsigned long long)st.st_dev, (long)st.st_mtim.tv_nsec,
	       (long)st.st_ctim.tv_nsec,
	       real && !strchr(real, '\n') ? real : "");
	fflush(stdout);
	free(real);
}

/* A C, T or I request; false at a truncated end of input. */
static bool file_request(int kind, char **a, size_t *acap, char **b,
			 size_t *bcap)
{
	size_t alen, blen;

	if (!read_field(a, acap, &alen))
		return false;
	if (kind == 'T') {
		touch_file(alen ? *a : "");
		return true;
	}
	if (kind == 'I') {
		id_file(alen ? *a : "");
		return true;
	}
	if (!read_field(b, bcap, &blen))
		return false;
	copy_file(alen ? *a : "", blen ? *b : "");
	return true;
}

int main(void)
{
	char *a = NULL, *b = NULL;
	size_t acap = 0, bcap = 0, alen, blen;
	struct sha1 c;
	int kind;

	while ((kind = next_byte()) != EOF) {
		if (kind == 'C' || kind == 'T' || kind == 'I') {
			if (!file_request(kind, &a, &acap, &b, &bcap))
				break;
			continue;
		}
		sha1_init(&c);
		if (kind == 'S') {
			if (!read_field(&a, &acap, &alen))
				break;
			sha1_add(&c, a, alen);
		} else if (kind == 'F') {
			while (read_field(&a, &acap, &alen) && alen &&
			       read_field(&b, &bcap, &blen)) {
				sha1_add(&c, a, alen);
				sha1_add(&c, "\n", 1);
				add_file(&c, b);
			}
		} else {
			puts("error");
			fflush(stdout);
			fprintf(stderr,
				"%s: error: stdin, byte %llu: unknown request 0x%02x\n",
				prog, in_pos - 1, (unsigned int)kind);
			return 2;
		}
		sha1_put(&c);
	}
	free(a);
	free(b);
	return 0;
}
