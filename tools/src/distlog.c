// SPDX-License-Identifier: GPL-2.0
/*
 * distlog - where the compiles of a build ran, from the log the distcc
 * client writes (DISTCC_LOG, distcc 3.x, default verbosity): per host,
 * the compiles it finished, the ones it failed and the ones it was given
 * but that were done elsewhere (it refused the connection, or died or
 * dropped it mid-compile).
 *
 * Usage:
 *	distlog [--host SPEC]... FILE...
 *
 * A line of the client's log is "distcc[PID] MESSAGE" or "distcc[PID]
 * (function) MESSAGE"; MESSAGE may start with "ERROR: " or "Warning: ".
 * One PID is one call of distcc, one compile. Read are:
 *
 *	compile from SRC to OBJ				a call starts
 *	exec on SPEC: COMMAND				it goes to SPEC
 *	compile SRC on SPEC completed ok		compiled on SPEC
 *	compile SRC on SPEC failed[ with exit code N]	failed on SPEC
 *	failed to distribute SRC to SPEC, running locally instead
 *							moved from SPEC
 *	failed to distribute, running locally instead	ran here, no host
 *
 * A call that goes to a host and then, with no result from it, to
 * another host or here, has moved from the first: distcc 3.4 sends a
 * compile whose host refuses the connection or dies under it to the
 * next host, or compiles it here when there is none (DISTCC_FALLBACK).
 *
 * A SRC of "(null)" is a call distcc ran here without looking for its
 * source (kbuild's probes of the compiler on /dev/null, "gcc --version",
 * assembler files, "-E" of linker scripts) and is not counted. SPEC is
 * a host as DISTCC_HOSTS names it; "localhost" is this machine (in a
 * build through hosts: the compiles that came back). A host is named by
 * its SPEC without the slots ("/N") and the options (",lzo", ",cpp"):
 * "127.0.0.2:3632", "build1", "@build1" (ssh), "localhost". Every other
 * line (distcc's "cpp SRC on localhost", its debug lines, distccd's
 * lines, anything else) is ignored, as are CRs at line ends. SRC may
 * hold spaces: a line is read from its end.
 *
 * Output, one line each:
 *
 *	host<TAB>NAME<TAB>compiled<TAB>failed<TAB>moved
 *	total<TAB>compiled<TAB>failed<TAB>moved
 *	summary<TAB>TEXT
 *
 * The hosts come in the order of the --host options (each named, with
 * zeros when the log never names it: a host that took no compile shows),
 * then the others sorted bytewise, localhost last; the calls run here
 * for want of a host are counted in the total's moved only. TEXT says
 * the same in a line: "N compiles on A 49%, B 46%, localhost 5%; 12
 * moved from B", with the failures when there were some, or "no
 * compiles".
 *
 * Exit status: 0, or 2 on a usage or I/O error.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DISTLOG_ERROR	2
#define MAX_HOSTS	4096	/* hosts one run can name */
#define NO_HOST		((size_t)-1)

#define UTIL_PROG "distlog"
#define UTIL_ERROR DISTLOG_ERROR
#include "util.h"

static const char local_name[] = "localhost";

struct host {
	char *name;
	unsigned long compiled;
	unsigned long failed;
	unsigned long moved;
	int given;		/* named by --host, in this order */
};

/* Where each call of distcc (its PID) was sent last, without a result. */
struct call {
	long pid;		/* 0: a free slot */
	size_t host;		/* an index of struct hosts, or NO_HOST */
};

struct calls {
	struct call *v;
	size_t nr, cap;		/* cap: a power of 2, or 0 */
};

struct hosts {
	struct host *v;
	size_t nr, cap;
};

static void bad_usage(const char *why)
{
	fprintf(stderr, "%s: error: %s\nusage: %s [--host SPEC]... FILE...\n",
		prog, why, prog);
	exit(DISTLOG_ERROR);
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Does @s (@len bytes) end in @suffix? */
static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

/*
 * The name of host spec @spec (@len bytes): without its slots and its
 * options; for an ssh host ("[USER]@HOST[:COMMAND]"), "@HOST".
 */
static char *host_name(const char *spec, size_t len)
{
	const char *at, *end;
	size_t n = 0;

	while (n < len && spec[n] != '/' && spec[n] != ',')
		n++;
	at = memchr(spec, '@', n);
	if (!at)
		return xstrndup(spec, n);
	end = memchr(at, ':', n - (size_t)(at - spec));
	if (!end)
		end = spec + n;
	return xstrndup(at, (size_t)(end - at));
}

/* The index of the host of spec @spec (@len bytes), added when new. */
static size_t host_index(struct hosts *h, const char *spec, size_t len)
{
	char *name = host_name(spec, len);
	size_t i;

	for (i = 0; i < h->nr; i++) {
		if (!strcmp(h->v[i].name, name)) {
			free(name);
			return i;
		}
	}
	if (h->nr == MAX_HOSTS)
		die("more than %d hosts", MAX_HOSTS);
	h->v = xgrow(h->v, h->nr, &h->cap, sizeof(*h->v));
	memset(&h->v[h->nr], 0, sizeof(*h->v));
	h->v[h->nr].name = name;
	return h->nr++;
}

static struct host *host_get(struct hosts *h, const char *spec, size_t len)
{
	size_t i = host_index(h, spec, len);	/* may move h->v */

	return &h->v[i];
}

/* The slot of call @pid in @c (a hash table), made when new. */
static struct call *call_get(struct calls *c, long pid)
{
	struct call *old = c->v;
	size_t i, n = c->cap;

	if (2 * (c->nr + 1) > c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->v = xrealloc(NULL, c->cap * sizeof(*c->v));
		memset(c->v, 0, c->cap * sizeof(*c->v));
		c->nr = 0;
		for (i = 0; i < n; i++)
			if (old[i].pid)
				*call_get(c, old[i].pid) = old[i];
		free(old);
	}
	i = (size_t)pid * 2654435761u & (c->cap - 1);
	while (c->v[i].pid && c->v[i].pid != pid)
		i = (i + 1) & (c->cap - 1);
	if (!c->v[i].pid) {
		c->v[i].pid = pid;
		c->v[i].host = NO_HOST;
		c->nr++;
	}
	return &c->v[i];
}

/* Call @call leaves the host it was sent to without a result. */
static void call_moves(struct hosts *h, struct call *call)
{
	if (call->host != NO_HOST)
		h->v[call->host].moved++;
	call->host = NO_HOST;
}

/*
 * The message of a client log line: after "distcc[PID] ", an optional
 * "(function) " and an optional "ERROR: " or "Warning: "; NULL when the
 * line is not the client's.
 */
static const char *message(const char *line, long *pid)
{
	const char *p;

	if (!starts_with(line, "distcc["))
		return NULL;
	p = line + strlen("distcc[");
	if (*p < '1' || *p > '9')
		return NULL;
	*pid = 0;
	while (*p >= '0' && *p <= '9') {
		if (*pid > 99999999)
			return NULL;
		*pid = *pid * 10 + *p++ - '0';
	}
	if (!starts_with(p, "] "))
		return NULL;
	p += 2;
	if (*p == '(') {
		p = strstr(p, ") ");
		if (!p)
			return NULL;
		p += 2;
	}
	if (starts_with(p, "ERROR: "))
		p += strlen("ERROR: ");
	else if (starts_with(p, "Warning: "))
		p += strlen("Warning: ");
	return p;
}

/*
 * Where the host spec of "compile SRC on SPEC<rest>" starts and how long
 * it is, @len being the length without <rest>; 0 when there is none.
 */
static size_t spec_of(const char *msg, size_t len, const char **spec)
{
	const char *p, *last = NULL;

	for (p = msg; (p = strstr(p, " on ")) && p < msg + len; p++)
		last = p;
	if (!last || last + 4 >= msg + len)
		return 0;
	*spec = last + 4;
	return (size_t)(msg + len - *spec);
}

/*
 * Is the SRC of "compile SRC on SPEC" (the spec starting at @spec) a
 * source distcc looked at, not "(null)"?
 */
static int is_compile(const char *msg, const char *spec)
{
	const char *src = msg + strlen("compile ");

	return spec - 4 > src && strncmp(src, "(null) on ", 10);
}

/* Count the line @line of a client log into @h; @c: the calls. */
static void read_line(struct hosts *h, struct calls *c, struct host *none,
		      const char *line)
{
	const char *msg, *spec, *p;
	struct call *call;
	size_t len, n;
	long pid;

	msg = message(line, &pid);
	if (!msg)
		return;
	call = call_get(c, pid);
	len = strlen(msg);
	if (starts_with(msg, "compile from ")) {
		call->host = NO_HOST;
		return;
	}
	if (starts_with(msg, "exec on ")) {
		spec = msg + strlen("exec on ");
		p = strstr(spec, ": ");
		if (!p || p == spec)
			return;
		call_moves(h, call);
		if (strncmp(spec, "localhost: ", 11))
			call->host = host_index(h, spec, (size_t)(p - spec));
		return;
	}
	if (starts_with(msg, "compile ")) {
		if (ends_with(msg, len, " completed ok")) {
			n = spec_of(msg, len - strlen(" completed ok"), &spec);
			if (n && is_compile(msg, spec))
				host_get(h, spec, n)->compiled++;
			call->host = NO_HOST;
			return;
		}
		p = strstr(msg, " failed with exit code ");
		if (p)
			len = (size_t)(p - msg);
		else if (ends_with(msg, len, " failed"))
			len -= strlen(" failed");
		else
			return;
		n = spec_of(msg, len, &spec);
		if (n && is_compile(msg, spec))
			host_get(h, spec, n)->failed++;
		call->host = NO_HOST;
		return;
	}
	if (!strcmp(msg, "failed to distribute, running locally instead")) {
		none->moved++;
		call->host = NO_HOST;
		return;
	}
	if (starts_with(msg, "failed to distribute ") &&
	    ends_with(msg, len, ", running locally instead")) {
		len -= strlen(", running locally instead");
		for (p = msg + len; p > msg && p[-1] != ' '; p--)
			;
		if (p > msg + strlen("failed to distribute ") + 3 &&
		    !strncmp(p - 4, " to ", 4)) {
			host_get(h, p, (size_t)(msg + len - p))->moved++;
			call->host = NO_HOST;
		}
	}
}

/* Read the client log @path into @h. */
static void read_log(struct hosts *h, struct host *none, const char *path)
{
	struct calls c = { 0 };
	struct lines l;
	size_t i;

	lines_read(&l, path, "distcc log", 0);
	lines_strip_cr(&l);
	for (i = 0; i < l.nr; i++)
		read_line(h, &c, none, l.v[i]);
	free(c.v);
	free(l.v);
	free(l.buf);
}

/* The order of the output: given hosts first, localhost last. */
static int host_cmp(const void *a, const void *b)
{
	const struct host *x = a, *y = b;
	int lx = !strcmp(x->name, local_name), ly = !strcmp(y->name, local_name);

	if (x->given || y->given) {
		if (x->given && y->given)
			return x->given - y->given;
		return x->given ? -1 : 1;
	}
	if (lx != ly)
		return lx - ly;
	return strcmp(x->name, y->name);
}

/* The share @n of @total, in whole percent, rounded. */
static unsigned long percent(unsigned long n, unsigned long total)
{
	return total ? (n * 200 + total) / (2 * total) : 0;
}

static void print(struct hosts *h, const struct host *none)
{
	unsigned long c = 0, f = 0, b = none->moved;
	const char *sep = "";
	size_t i;

	if (h->nr)
		qsort(h->v, h->nr, sizeof(*h->v), host_cmp);
	for (i = 0; i < h->nr; i++) {
		printf("host\t%s\t%lu\t%lu\t%lu\n", h->v[i].name,
		       h->v[i].compiled, h->v[i].failed, h->v[i].moved);
		c += h->v[i].compiled;
		f += h->v[i].failed;
		b += h->v[i].moved;
	}
	printf("total\t%lu\t%lu\t%lu\n", c, f, b);
	if (!c && !f && !b) {
		printf("summary\tno compiles\n");
		return;
	}
	printf("summary\t%lu compile%s on", c, c == 1 ? "" : "s");
	for (i = 0; i < h->nr; i++) {
		if (!h->v[i].compiled && !h->v[i].given)
			continue;
		printf("%s %s %lu%%", sep, h->v[i].name,
		       percent(h->v[i].compiled, c));
		sep = ",";
	}
	sep = "; ";
	for (i = 0; i < h->nr; i++) {
		if (!h->v[i].moved)
			continue;
		printf("%s%lu moved from %s", sep, h->v[i].moved,
		       h->v[i].name);
		sep = ", ";
	}
	if (none->moved)
		printf("%s%lu ran here, no host free", sep, none->moved);
	sep = "; ";
	for (i = 0; i < h->nr; i++) {
		if (!h->v[i].failed)
			continue;
		printf("%s%lu failed on %s", sep, h->v[i].failed, h->v[i].name);
		sep = ", ";
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct hosts h = { 0 };
	struct host none = { 0 };
	struct host *g;
	int i, given = 0, files = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--host")) {
			if (++i == argc || !*argv[i])
				bad_usage("--host needs a host");
			g = host_get(&h, argv[i], strlen(argv[i]));
			if (!g->given)
				g->given = ++given;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			bad_usage("unknown option");
		break;
	}
	for (; i < argc; i++) {
		read_log(&h, &none, argv[i]);
		files++;
	}
	if (!files)
		bad_usage("no log file");
	print(&h, &none);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the output: %s", strerror(errno));
	while (h.nr)
		free(h.v[--h.nr].name);
	free(h.v);
	return 0;
}
