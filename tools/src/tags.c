// SPDX-License-Identifier: GPL-2.0
/*
 * tags - the trailers and commit references of one patch, as kernel
 * robots and maintainers check them.
 *
 * Usage:
 *	tags --patch FILE [--sender "Name <email>"] [--known FILE]
 *	     [--checkpatch FILE]
 *
 * --patch	one patch as git format-patch writes it: an optional mbox
 *		"From <sha> ..." line, mail headers up to a blank line, the
 *		message, "---", the diffstat and the diff. Only the message
 *		counts: it ends at the first "---" line or, without one, at
 *		"diff --git". In-body "From:", "Date:" and "Subject:" lines
 *		right after the headers override the mail's, as for git am.
 *		CRLF line ends, NULs, bytes that are not UTF-8, a missing
 *		final newline and a file without headers are tolerated.
 * --sender	who sends the series: the last Signed-off-by: must be theirs.
 * --known	lines "<40 hex digits><TAB><subject>" (blank lines and "#"
 *		comments ignored): a cited id that is a prefix of a known
 *		sha must quote its subject exactly. Unknown ids are fine.
 * --checkpatch	what checkpatch.pl --show-types said of the same patch: a
 *		finding is dropped when checkpatch reported a counterpart
 *		type of its kind (kinds[]) for the same line (the line it
 *		quotes after "#N: ..." is our raw line) or for no line (as
 *		NO_AUTHOR_SIGN_OFF): checkpatch reports it already. Same
 *		line, not just same type: checkpatch misses some of ours
 *		(the first line of the message, "Signed-off-by :", a
 *		Signed-off-by: outside the trailer block), and a type seen
 *		elsewhere must not hide them.
 *
 * Findings (the kind, then when):
 *	missing-sob		no Signed-off-by: with the email of the author
 *				(the From: header, RFC 2047 decoded; emails
 *				compare case-insensitively)
 *	sob-name-mismatch	the author's email signs off under another name
 *	missing-sender-sob	--sender: no Signed-off-by: of the sender
 *	sender-sob-not-last	--sender: the sender's is not the last one
 *	fixes-format		a Fixes: line not in the form
 *				Fixes: <12 to 40 lowercase hex> ("<subject>")
 *	commit-ref-format	a commit cited in the message not in the form
 *				commit <12 to 40 lowercase hex> ("<subject>"),
 *				where the subject may wrap over two more lines
 *	commit-subject-mismatch	--known: a cited subject that is not the
 *				known commit's
 *	trailer-format		a tag of the trailer block (the message's last
 *				paragraph) not in the form "Tag: Name <email>":
 *				whitespace around the tag, its case, no email
 *				(in <> for Signed-off-by: and Co-developed-by:),
 *				text after the email, a duplicate line; or a
 *				Signed-off-by: outside the trailer block
 *
 * Output: one line per finding, "file<TAB>kind<TAB>message<TAB>raw":
 * file as given, a message without line numbers (findings compare as
 * sets), and the offending line as in the patch without its line end
 * (the From: line for a missing Signed-off-by:, empty when there is
 * none), cut at RAW_MAX bytes; control characters and bytes that are
 * not UTF-8 print as '?'.
 *
 * Exit status: 0 no finding, 1 findings, 2 usage or I/O error, or a
 * malformed --known or --checkpatch file.
 */

#include <getopt.h>
#include <stdarg.h>
#include <strings.h>

#define TAGS_OK		0
#define TAGS_FOUND	1
#define TAGS_ERROR	2

#define UTIL_PROG "tags"
#define UTIL_ERROR TAGS_ERROR
#include "util.h"

#define ID_MIN		12	/* hex digits of a cited commit id */
#define ID_MAX		40
#define SHORT_ID_MIN	5	/* shorter hex is no commit id */
#define RAW_MAX		1024	/* bytes of the raw line printed */
#define CP_TYPES	4
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define WORD_MAX	256	/* bytes of an encoded word's text (RFC 2047: 75) */

enum kind {
	K_MISSING_SOB,
	K_SOB_NAME_MISMATCH,
	K_MISSING_SENDER_SOB,
	K_SENDER_SOB_NOT_LAST,
	K_FIXES_FORMAT,
	K_COMMIT_REF_FORMAT,
	K_COMMIT_SUBJECT_MISMATCH,
	K_TRAILER_FORMAT,
	NR_KINDS,
};

/*
 * Each kind and the checkpatch.pl types (as in Linux 6.1) that report the
 * same problem: a finding is dropped when checkpatch gave one of them on
 * the same line (checkpatch_said()). 6.1 has no DUPLICATE_SIGN_OFF: a
 * duplicate is a BAD_SIGN_OFF "Duplicate signature".
 */
static const struct kind_info {
	const char *name;
	const char *checkpatch_types[CP_TYPES];
} kinds[NR_KINDS] = {
	[K_MISSING_SOB] = { "missing-sob",
		{ "MISSING_SIGN_OFF", "NO_AUTHOR_SIGN_OFF",
		  "FROM_SIGN_OFF_MISMATCH" } },
	[K_SOB_NAME_MISMATCH] = { "sob-name-mismatch",
		{ "FROM_SIGN_OFF_MISMATCH" } },
	[K_MISSING_SENDER_SOB] = { "missing-sender-sob", { NULL } },
	[K_SENDER_SOB_NOT_LAST] = { "sender-sob-not-last", { NULL } },
	[K_FIXES_FORMAT] = { "fixes-format", { "BAD_FIXES_TAG" } },
	[K_COMMIT_REF_FORMAT] = { "commit-ref-format", { "GIT_COMMIT_ID" } },
	[K_COMMIT_SUBJECT_MISMATCH] = { "commit-subject-mismatch",
		{ "GIT_COMMIT_ID", "BAD_FIXES_TAG" } },
	[K_TRAILER_FORMAT] = { "trailer-format", { "BAD_SIGN_OFF" } },
};

/* What a tag of the trailer block must carry. */
enum tag_want {
	WANT_NOTHING,		/* a known tag, not checked */
	WANT_ADDRESS,		/* an email, bare or in <> */
	WANT_PERSON,		/* the same; the tag's case is fixed */
	WANT_DCO,		/* "Name <email>", the tag's case is fixed */
};

static const struct tag_info {
	const char *key;
	enum tag_want want;
} tag_table[] = {
	{ "Signed-off-by",	WANT_DCO },
	{ "Co-developed-by",	WANT_DCO },
	{ "Acked-by",		WANT_PERSON },
	{ "Reviewed-by",	WANT_PERSON },
	{ "Tested-by",		WANT_PERSON },
	{ "Reported-by",	WANT_PERSON },
	{ "Suggested-by",	WANT_PERSON },
	{ "Cc",			WANT_ADDRESS },
	{ "Fixes",		WANT_NOTHING },
	{ "Link",		WANT_NOTHING },
	{ "Closes",		WANT_NOTHING },
	{ "BugLink",		WANT_NOTHING },
	{ "Assisted-by",	WANT_NOTHING },
	{ "Message-ID",		WANT_NOTHING },
	{ "Change-Id",		WANT_NOTHING },
};

struct finding {
	enum kind kind;
	char *msg;
	const char *raw;
	int dropped;		/* repeats an earlier one */
};

static struct finding *found;
static size_t nr_found, cap_found;

/* "Key: value" of a line; key is [A-Za-z0-9-]+. */
struct tag {
	size_t lead;		/* blanks before the key */
	const char *key;
	size_t key_len;
	int blank_before;	/* blanks between the key and ':' */
	const char *val;	/* right after ':' */
	const struct tag_info *info;	/* NULL: not in tag_table[] */
};

struct person {
	char *name;		/* quotes and outer blanks removed; "" if none */
	char *email;		/* NULL when none */
	int bracketed;		/* the email was in <> */
	const char *tail;	/* what follows '>', or "" */
};

struct sob {
	size_t line;
	struct person who;
};

/* A commit cited in the message or by Fixes:. */
struct cite {
	const char *raw;	/* the line it starts on */
	char *id;
	char *subject;		/* NULL when not quoted */
};

struct patch {
	const char *path;
	struct lines l;
	size_t body, end;	/* the message: lines [body, end) */
	size_t tr_start, tr_end;	/* the trailer block, empty if none */
	const char *from_line;	/* the From: line, NULL if none */
	struct person author;
	struct sob *sob;
	size_t nr_sob, cap_sob;
	struct cite *cite;
	size_t nr_cite, cap_cite;
};

struct known {
	char *sha;
	char *subject;
};

static struct known *known;
static size_t nr_known;

/* A finding of --checkpatch: its type and the line it quotes. */
struct cp_finding {
	char *type;
	const char *line;	/* NULL when it quotes none */
};

static struct cp_finding *cp;
static size_t nr_cp;

struct opts {
	const char *patch;
	const char *sender;
	const char *known;
	const char *checkpatch;
};

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: %s --patch FILE [--sender \"Name <email>\"] [--known FILE]\n"
		"       [--checkpatch FILE]\n", prog);
	exit(TAGS_ERROR);
}

static void add(enum kind kind, const char *raw, const char *fmt, ...)
{
	va_list ap;

	found = xgrow(found, nr_found, &cap_found, sizeof(*found));
	va_start(ap, fmt);
	found[nr_found].msg = xvasprintf(fmt, ap);
	va_end(ap);
	found[nr_found].kind = kind;
	found[nr_found].raw = raw ? raw : "";
	found[nr_found].dropped = 0;
	nr_found++;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int blank_line(const char *s)
{
	while (is_blank(*s))
		s++;
	return *s == '\0';
}

static int is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* The length of the run of hex digits at @s. */
static size_t hex_run(const char *s)
{
	size_t n = 0;

	while (hex_val(s[n]) >= 0)
		n++;
	return n;
}

static int has_upper(const char *s, size_t n)
{
	while (n--)
		if (s[n] >= 'A' && s[n] <= 'Z')
			return 1;
	return 0;
}

static int has_digit(const char *s, size_t n)
{
	while (n--)
		if (s[n] >= '0' && s[n] <= '9')
			return 1;
	return 0;
}

/* Print @s as a TSV field, at most @max bytes of it (see the top). */
static void put_field(const char *s, size_t max)
{
	size_t len = strlen(s), i = 0, c;

	while (i < len && i < max) {
		c = utf8_len(s + i, len - i);
		if (c && i + c > max)
			break;
		if (!c || (unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			putchar('?');
			i++;
			continue;
		}
		fwrite(s + i, 1, c, stdout);
		i += c;
	}
	if (i < len)
		fputs("...", stdout);
}

/* --- reading the patch --- */

/*
 * Read @path into @l, split at each '\n', without the '\r' of a CRLF line
 * end; a last line without '\n' counts. Errors are fatal.
 */
static void read_lines(struct lines *l, const char *path)
{
	lines_read(l, path, NULL, 0);
	lines_strip_cr(l);
}

/* Parse "Key: value" at @s; returns 0, or -1 when @s is no tag. */
static int parse_tag(const char *s, struct tag *t)
{
	const char *k;
	size_t i;

	memset(t, 0, sizeof(*t));
	while (is_blank(s[t->lead]))
		t->lead++;
	k = s + t->lead;
	while (is_alnum(k[t->key_len]) || k[t->key_len] == '-')
		t->key_len++;
	if (!t->key_len)
		return -1;
	i = t->key_len;
	while (is_blank(k[i]))
		i++;
	if (k[i] != ':')
		return -1;
	t->key = k;
	t->blank_before = i > t->key_len;
	t->val = k + i + 1;
	for (i = 0; i < ARRAY_SIZE(tag_table); i++)
		if (strlen(tag_table[i].key) == t->key_len &&
		    !strncasecmp(tag_table[i].key, k, t->key_len))
			t->info = &tag_table[i];
	return 0;
}

static int tag_is(const struct tag *t, const char *key)
{
	return t->info && !strcmp(t->info->key, key);
}

/* A copy of @s (@n bytes) without double quotes and outer blanks. */
static char *clean_name(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1), *w = d;
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != '"')
			*w++ = s[i];
	*w = '\0';
	while (w > d && is_blank(w[-1]))
		*--w = '\0';
	w = d;
	while (is_blank(*w))
		w++;
	memmove(d, w, strlen(w) + 1);
	return d;
}

/* "Name <email>", or a bare email among other words, or just a name. */
static void parse_person(const char *s, struct person *p)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	const char *at, *w, *e;

	memset(p, 0, sizeof(*p));
	p->tail = "";
	if (lt && gt) {
		p->name = clean_name(s, lt - s);
		p->email = clean_name(lt + 1, gt - lt - 1);
		p->bracketed = 1;
		p->tail = gt + 1;
		return;
	}
	at = strchr(s, '@');
	if (!at) {
		p->name = clean_name(s, strlen(s));
		return;
	}
	for (w = at; w > s && !is_blank(w[-1]); w--)
		;
	for (e = at; *e && !is_blank(*e); e++)
		;
	p->name = clean_name(s, w - s);
	p->email = xstrndup(w, e - w);
	p->tail = e;
}

static int has_email(const struct person *p)
{
	return p->email && strchr(p->email, '@');
}

static int same_email(const struct person *a, const struct person *b)
{
	return a->email && b->email && !strcasecmp(a->email, b->email);
}

/* --- RFC 2047 --- */

struct strbuf {
	char *s;
	size_t len, cap;
};

static void sb_addc(struct strbuf *b, char c)
{
	if (b->len + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 128;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->len++] = c ? c : '?';
	b->s[b->len] = '\0';
}

/* An empty string in @b, allocated. */
static void sb_init(struct strbuf *b)
{
	memset(b, 0, sizeof(*b));
	sb_addc(b, ' ');
	b->len = 0;
	b->s[0] = '\0';
}

/* Add the byte @c of charset @latin1 (ISO 8859-1) or else as it is. */
static void sb_add_byte(struct strbuf *b, unsigned char c, int latin1)
{
	if (latin1 && c >= 0x80) {
		sb_addc(b, (char)(0xc0 | c >> 6));
		sb_addc(b, (char)(0x80 | (c & 0x3f)));
		return;
	}
	sb_addc(b, (char)c);
}

static int b64_val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decode @n bytes of base64 at @s into @b; -1 when they are not base64. */
static int b64_decode(const char *s, size_t n, struct strbuf *b, int latin1)
{
	unsigned int acc = 0;
	int bits = 0, v;
	size_t i;

	for (i = 0; i < n && s[i] != '='; i++) {
		v = b64_val(s[i]);
		if (v < 0)
			return -1;
		acc = (acc << 6 | (unsigned int)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			sb_add_byte(b, (acc >> bits) & 0xff, latin1);
		}
	}
	for (; i < n; i++)
		if (s[i] != '=')
			return -1;
	return 0;
}

/* Decode @n bytes of "Q" encoding at @s into @b; -1 when malformed. */
static int q_decode(const char *s, size_t n, struct strbuf *b, int latin1)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '_') {
			sb_addc(b, ' ');
		} else if (s[i] != '=') {
			sb_add_byte(b, (unsigned char)s[i], latin1);
		} else if (i + 2 < n && hex_val(s[i + 1]) >= 0 &&
			   hex_val(s[i + 2]) >= 0) {
			sb_add_byte(b, hex_val(s[i + 1]) << 4 | hex_val(s[i + 2]),
				    latin1);
			i += 2;
		} else {
			return -1;
		}
	}
	return 0;
}

static int is_latin1(const char *cs, size_t n)
{
	return (n == 10 && !strncasecmp(cs, "iso-8859-1", n)) ||
	       (n == 6 && !strncasecmp(cs, "latin1", n));
}

/*
 * The end of the text of the encoded word whose text starts at @text:
 * its "?=", within WORD_MAX bytes and no blank before it; NULL if none.
 */
static const char *word_end(const char *text)
{
	size_t i;

	for (i = 0; i < WORD_MAX && text[i] && !is_blank(text[i]); i++)
		if (text[i] == '?' && text[i + 1] == '=')
			return text + i;
	return NULL;
}

/*
 * The encoded word "=?charset?Q|B?text?=" at @s: its length, its decoded
 * bytes added to @b when @b is not NULL; 0 when there is none.
 */
static size_t encoded_word(const char *s, struct strbuf *b)
{
	struct strbuf tmp = { NULL, 0, 0 };
	const char *cs = s + 2, *q, *text, *end;
	int latin1, rc;
	size_t i;

	if (s[0] != '=' || s[1] != '?')
		return 0;
	q = cs + strcspn(cs, "? \t");
	if (*q != '?' || q == cs || !q[1] || !strchr("QqBb", q[1]) ||
	    q[2] != '?')
		return 0;
	text = q + 3;
	end = word_end(text);
	if (!end)
		return 0;
	latin1 = is_latin1(cs, strcspn(cs, "*?"));
	if (q[1] == 'Q' || q[1] == 'q')
		rc = q_decode(text, end - text, &tmp, latin1);
	else
		rc = b64_decode(text, end - text, &tmp, latin1);
	for (i = 0; !rc && b && i < tmp.len; i++)
		sb_addc(b, tmp.s[i]);
	free(tmp.s);
	return rc ? 0 : (size_t)(end + 2 - s);
}

/* @s with its RFC 2047 encoded words decoded (malformed ones kept). */
static char *decode_2047(const char *s)
{
	struct strbuf b;
	size_t n, ws;

	sb_init(&b);
	while (*s) {
		n = encoded_word(s, &b);
		if (!n) {
			sb_addc(&b, *s++);
			continue;
		}
		s += n;
		ws = strspn(s, " \t");
		if (ws && encoded_word(s + ws, NULL))
			s += ws;
	}
	return b.s;
}

/* --- the parts of the patch --- */

/* A mail header line: a field name of printable ASCII, then ':'. */
static int is_header(const char *s)
{
	const char *c = s;

	while (*c > ' ' && *c < 0x7f && *c != ':')
		c++;
	return c > s && *c == ':';
}

/* The header at lines [first, next) is From:: the patch's author. */
static void set_author(struct patch *p, size_t first, size_t next)
{
	struct strbuf b;
	const char *s;
	char *dec;
	size_t i;

	sb_init(&b);
	for (i = first; i < next; i++)
		for (s = i == first ? p->l.v[i] + 5 : p->l.v[i]; *s; s++)
			sb_addc(&b, *s);
	dec = decode_2047(b.s);
	free(b.s);
	free(p->author.name);
	free(p->author.email);
	parse_person(dec, &p->author);
	free(dec);
	p->from_line = p->l.v[first];
}

/* The headers from line @i on; returns the line after them. */
static size_t parse_headers(struct patch *p, size_t i)
{
	size_t start = i, first;

	while (i < p->l.nr && is_header(p->l.v[i])) {
		first = i++;
		while (i < p->l.nr && is_blank(p->l.v[i][0]))
			i++;
		if (!strncasecmp(p->l.v[first], "From:", 5))
			set_author(p, first, i);
	}
	if (i > start && i < p->l.nr && blank_line(p->l.v[i]))
		i++;
	return i;
}

static int inbody_header(const char *s)
{
	return !strncasecmp(s, "From:", 5) || !strncasecmp(s, "Date:", 5) ||
	       !strncasecmp(s, "Subject:", 8);
}

static int is_separator(const char *s)
{
	return !strncmp(s, "---", 3) && blank_line(s + 3);
}

/* Where the message starts and ends, and its trailer block. */
static void find_parts(struct patch *p)
{
	size_t i = 0, s, e;
	struct tag t;

	if (p->l.nr && !strncmp(p->l.v[0], "From ", 5))
		i = 1;
	i = parse_headers(p, i);
	if (i < p->l.nr && inbody_header(p->l.v[i]))
		i = parse_headers(p, i);
	p->body = i;
	for (p->end = i; p->end < p->l.nr; p->end++)
		if (is_separator(p->l.v[p->end]) ||
		    !strncmp(p->l.v[p->end], "diff --git ", 11))
			break;
	for (e = p->end; e > p->body && blank_line(p->l.v[e - 1]); e--)
		;
	for (s = e; s > p->body && !blank_line(p->l.v[s - 1]); s--)
		;
	p->tr_start = e;
	p->tr_end = e;
	for (i = s; i < e; i++) {
		if (!parse_tag(p->l.v[i], &t) && !t.lead && t.info) {
			p->tr_start = s;
			break;
		}
	}
}

static int in_trailers(const struct patch *p, size_t i)
{
	return i >= p->tr_start && i < p->tr_end;
}

/* The Signed-off-by: lines: in the trailer block, or not indented. */
static void collect_sobs(struct patch *p)
{
	struct tag t;
	size_t i;

	for (i = p->body; i < p->end; i++) {
		if (parse_tag(p->l.v[i], &t) || !tag_is(&t, "Signed-off-by"))
			continue;
		if (t.lead && !in_trailers(p, i))
			continue;
		p->sob = xgrow(p->sob, p->nr_sob, &p->cap_sob, sizeof(*p->sob));
		p->sob[p->nr_sob].line = i;
		parse_person(t.val, &p->sob[p->nr_sob].who);
		p->nr_sob++;
	}
}

/* --- the checks --- */

static void check_author(const struct patch *p)
{
	const struct sob *by_email = NULL;
	size_t i;

	if (!has_email(&p->author)) {
		if (!p->nr_sob)
			add(K_MISSING_SOB, p->from_line, "no Signed-off-by: %s",
			    p->from_line ? "at all" : "and no From: header");
		return;
	}
	for (i = 0; i < p->nr_sob; i++) {
		if (!same_email(&p->sob[i].who, &p->author))
			continue;
		if (!strcmp(p->sob[i].who.name, p->author.name))
			return;
		if (!by_email)
			by_email = &p->sob[i];
	}
	if (by_email)
		add(K_SOB_NAME_MISMATCH, p->l.v[by_email->line],
		    "the author <%s> signs off as \"%s\", not as \"%s\" (From:)",
		    show(p->author.email, strlen(p->author.email)),
		    show(by_email->who.name, strlen(by_email->who.name)),
		    show(p->author.name, strlen(p->author.name)));
	else
		add(K_MISSING_SOB, p->from_line,
		    "no Signed-off-by: of the author <%s>",
		    show(p->author.email, strlen(p->author.email)));
}

static void check_sender(const struct patch *p, const struct person *sender)
{
	const struct sob *mine = NULL, *last;
	const char *email;
	size_t i;

	for (i = 0; i < p->nr_sob; i++)
		if (same_email(&p->sob[i].who, sender))
			mine = &p->sob[i];
	if (!mine) {
		add(K_MISSING_SENDER_SOB, p->from_line,
		    "no Signed-off-by: of the sender <%s>",
		    show(sender->email, strlen(sender->email)));
		return;
	}
	last = &p->sob[p->nr_sob - 1];
	if (mine == last)
		return;
	email = last->who.email ? last->who.email : "";
	add(K_SENDER_SOB_NOT_LAST, p->l.v[mine->line],
	    "the sender <%s> must sign off last, after <%s>",
	    show(sender->email, strlen(sender->email)),
	    show(email, strlen(email)));
}

/* A tag line reduced for comparing: no blanks, lower case. */
static char *tag_norm(const char *s)
{
	char *d = xrealloc(NULL, strlen(s) + 1), *w = d;

	for (; *s; s++) {
		if (is_blank(*s))
			continue;
		*w++ = (*s >= 'A' && *s <= 'Z') ? *s - 'A' + 'a' : *s;
	}
	*w = '\0';
	return d;
}

struct norm_line {
	char *norm;
	size_t line;
};

static int cmp_norm(const void *a, const void *b)
{
	const struct norm_line *x = a, *y = b;
	int c = strcmp(x->norm, y->norm);

	if (c)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

/*
 * Mark in @dup (one flag per line of the trailer block) the known tags
 * that repeat an earlier line of the block.
 */
static void find_duplicates(const struct patch *p, char *dup)
{
	size_t n = p->tr_end - p->tr_start, k = 0, i;
	struct norm_line *v = xrealloc(NULL, n * sizeof(*v));
	struct tag t;

	for (i = p->tr_start; i < p->tr_end; i++) {
		if (parse_tag(p->l.v[i], &t) || !t.info ||
		    t.info->want == WANT_NOTHING)
			continue;
		v[k].norm = tag_norm(p->l.v[i]);
		v[k++].line = i;
	}
	qsort(v, k, sizeof(*v), cmp_norm);
	for (i = 1; i < k; i++)
		if (!strcmp(v[i].norm, v[i - 1].norm))
			dup[v[i].line - p->tr_start] = 1;
	for (i = 0; i < k; i++)
		free(v[i].norm);
	free(v);
}

/* The text after an email: nothing, "# comment" or "(comment)". */
static int tail_ok(const char *s)
{
	while (is_blank(*s))
		s++;
	return !*s || *s == '#' || *s == '(';
}

/* What is wrong with the value of the known tag @t, or NULL. */
static const char *value_problem(const struct tag *t)
{
	const char *why = NULL;
	struct person who;

	if (blank_line(t->val))
		return "without a value";
	if (t->val[0] != ' ' || is_blank(t->val[1]))
		return "not followed by exactly one space";
	parse_person(t->val, &who);
	if (t->info->want == WANT_DCO && (!who.bracketed || !has_email(&who)))
		why = "without an email address in <>";
	else if (!has_email(&who))
		why = "without an email address";
	else if (!tail_ok(who.tail))
		why = "with text after the email address";
	free(who.name);
	free(who.email);
	return why;
}

/* Check the known tag at line @i of the trailer block. */
static void check_tag(const struct patch *p, size_t i, const struct tag *t,
		      int dup)
{
	const char *why;
	int cased = t->info->want == WANT_PERSON || t->info->want == WANT_DCO;

	if (t->lead)
		why = "indented";
	else if (t->blank_before)
		why = "with whitespace before the colon";
	else if (cased && strncmp(t->key, t->info->key, t->key_len))
		why = "in the wrong case";
	else
		why = value_problem(t);
	if (!why && dup)
		why = "a duplicate line";
	if (why)
		add(K_TRAILER_FORMAT, p->l.v[i], "%s: %s", t->info->key, why);
}

static void check_trailers(const struct patch *p)
{
	char *dup = xrealloc(NULL, p->tr_end - p->tr_start + 1);
	struct tag t;
	size_t i;

	memset(dup, 0, p->tr_end - p->tr_start + 1);
	find_duplicates(p, dup);
	for (i = p->tr_start; i < p->tr_end; i++) {
		if (parse_tag(p->l.v[i], &t) || !t.info ||
		    t.info->want == WANT_NOTHING)
			continue;
		check_tag(p, i, &t, dup[i - p->tr_start]);
	}
	free(dup);
	for (i = 0; i < p->nr_sob; i++)
		if (!in_trailers(p, p->sob[i].line))
			add(K_TRAILER_FORMAT, p->l.v[p->sob[i].line], "%s",
			    "Signed-off-by: outside the trailer block (the last paragraph)");
}

static void add_cite(struct patch *p, const char *raw, const char *id,
		     size_t id_len, const char *subject, size_t subject_len)
{
	struct cite *c;

	p->cite = xgrow(p->cite, p->nr_cite, &p->cap_cite, sizeof(*p->cite));
	c = &p->cite[p->nr_cite++];
	c->raw = raw;
	c->id = xstrndup(id, id_len);
	c->subject = subject ? xstrndup(subject, subject_len) : NULL;
}

/* What is wrong with the commit id @id (@n hex digits), or NULL. */
static const char *id_problem(const char *id, size_t n)
{
	if (!n)
		return "no commit id";
	if (n < ID_MIN)
		return "a commit id of fewer than 12 hex digits";
	if (n > ID_MAX)
		return "a commit id of more than 40 hex digits";
	if (has_upper(id, n))
		return "a commit id in upper case";
	return NULL;
}

/* The length of the id at @v: hex digits that end a word, else 0. */
static size_t word_id(const char *v)
{
	size_t n = hex_run(v);

	return is_alnum(v[n]) || v[n] == '_' ? 0 : n;
}

/* What is wrong with the form of the Fixes: tag @t, or NULL. */
static const char *fixes_problem(const struct tag *t, const char *v, size_t n,
				 int word, const char *subj, const char *close)
{
	if (t->lead || t->blank_before || strncmp(t->key, "Fixes", 5) ||
	    t->val[0] != ' ' || is_blank(t->val[1]))
		return "write the tag as \"Fixes: \" at the start of the line";
	if (word)
		return "Fixes: with the word \"commit\" before the id";
	if (id_problem(v, n))
		return id_problem(v, n);
	if (strncmp(subj, " (\"", 3))
		return "Fixes: without (\"subject\") one space after the id";
	if (!close)
		return "Fixes: with a subject not closed by \") on its line";
	return NULL;
}

/* Check the Fixes: line @i, tag @t, and record the commit it cites. */
static void check_fixes(struct patch *p, size_t i, const struct tag *t)
{
	const char *raw = p->l.v[i], *v = t->val, *subj, *close = NULL, *why;
	size_t n, len;
	int word = 0;

	while (is_blank(*v))
		v++;
	if (!strncasecmp(v, "commit", 6) && is_blank(v[6])) {
		word = 1;
		for (v += 6; is_blank(*v); v++)
			;
	}
	n = word_id(v);
	subj = v + n;
	len = strlen(subj);
	while (len && is_blank(subj[len - 1]))
		len--;
	if (len > 5 && !strncmp(subj + len - 2, "\")", 2))
		close = subj + len - 2;
	if (n && !strncmp(subj, " (\"", 3) && close)
		add_cite(p, raw, v, n, subj + 3, close - subj - 3);
	else if (n)
		add_cite(p, raw, v, n, NULL, 0);
	why = fixes_problem(t, v, n, word, subj, close);
	if (why)
		add(K_FIXES_FORMAT, raw, "%s", why);
}

/* A Fixes: tag: in the trailer block, or unindented with an id. */
static int is_fixes(const struct patch *p, size_t i, struct tag *t)
{
	const char *v;

	if (parse_tag(p->l.v[i], t) || !tag_is(t, "Fixes"))
		return 0;
	if (in_trailers(p, i))
		return 1;
	for (v = t->val; is_blank(*v); v++)
		;
	return !t->lead && hex_run(v) >= SHORT_ID_MIN;
}

/*
 * A line of the message and the next two of its paragraph, trimmed and
 * joined by a space: a citation's id and subject may wrap.
 */
struct scan {
	char *text;		/* NULL until needed (scan_text) */
	const char *close;	/* the next '")', for next_close() */
	int close_valid;
};

static char *scan_text(struct scan *sc, const struct patch *p, size_t i)
{
	struct strbuf b;
	const char *s;
	size_t k;

	if (sc->text)
		return sc->text;
	sb_init(&b);
	for (s = p->l.v[i]; *s; s++)
		sb_addc(&b, *s);
	for (k = i + 1; k < p->end && k <= i + 2; k++) {
		if (blank_line(p->l.v[k]))
			break;
		sb_addc(&b, ' ');
		for (s = p->l.v[k]; is_blank(*s); s++)
			;
		for (; *s; s++)
			sb_addc(&b, *s);
	}
	sc->text = b.s;
	return sc->text;
}

/* The first '")' at or after @from; amortized linear over a line. */
static const char *next_close(struct scan *sc, const char *from)
{
	if (!sc->close_valid || (sc->close && sc->close < from)) {
		sc->close = strstr(from, "\")");
		sc->close_valid = 1;
	}
	return sc->close;
}

/* Where the ("subject") after the id that ends at @s starts, or NULL. */
static const char *subject_at(const char *s)
{
	while (is_blank(*s))
		s++;
	return strncmp(s, "(\"", 2) ? NULL : s;
}

/*
 * Record the citation whose id is @id (@n hex digits) in the scan @sc,
 * reporting a form that is not the kernel's; @bare: no "commit" before
 * the id. Returns where the citation ends.
 */
static const char *cite_at(struct patch *p, size_t i, struct scan *sc,
			   const char *id, size_t n, int bare)
{
	const char *s = subject_at(id + n), *close = NULL, *why;

	if (s)
		close = next_close(sc, s + 2);
	if (close && close > s + 2) {
		add_cite(p, p->l.v[i], id, n, s + 2, close - s - 2);
		why = bare ? "a commit cited without the word \"commit\" before its id" :
			id_problem(id, n);
		if (why)
			add(K_COMMIT_REF_FORMAT, p->l.v[i], "%s", why);
		return close + 2;
	}
	add_cite(p, p->l.v[i], id, n, NULL, 0);
	why = id_problem(id, n);
	add(K_COMMIT_REF_FORMAT, p->l.v[i], "%s",
	    why ? why : "a commit without (\"subject\") after its id");
	return id + n;
}

/* "commit" at @s[j], a word followed by a blank or the line's end. */
static int at_commit(const char *s, size_t j, size_t len)
{
	if (j && (is_alnum(s[j - 1]) || s[j - 1] == '-' || s[j - 1] == '_'))
		return 0;
	if (strncasecmp(s + j, "commit", 6))
		return 0;
	return j + 6 == len || is_blank(s[j + 6]);
}

/* The id after "commit" at @c, if it is one (5+ hex digits, a digit). */
static size_t id_after(const char *c, const char **id)
{
	size_t n;

	for (c += 6; is_blank(*c); c++)
		;
	*id = c;
	n = word_id(c);
	if (n < SHORT_ID_MIN || (n < ID_MIN && !has_digit(c, n)))
		return 0;
	return n;
}

/* The previous line of the paragraph ends with the word "commit". */
static int after_commit(const struct patch *p, size_t i)
{
	const char *s;
	size_t len;

	if (i == p->body)
		return 0;
	s = p->l.v[i - 1];
	len = strlen(s);
	while (len && is_blank(s[len - 1]))
		len--;
	return len >= 6 && at_commit(s, len - 6, len);
}

/* A bare id of 12 to 40 hex digits starting a word at @s[j]. */
static size_t bare_id(const char *s, size_t j)
{
	size_t n;

	if (j && !strchr(" \t(", s[j - 1]))
		return 0;
	n = word_id(s + j);
	return n >= ID_MIN && n <= ID_MAX ? n : 0;
}

/* "commit" at @j of line @i: cite the id after it; returns where to go on. */
static size_t commit_at(struct patch *p, size_t i, struct scan *sc, size_t j)
{
	char *text = scan_text(sc, p, i);
	const char *id;
	size_t n = id_after(text + j, &id);

	if (!n)
		return j;
	return cite_at(p, i, sc, id, n, 0) - text - 1;
}

/* A bare id with its subject at @j of line @i: cite it, as at commit_at(). */
static size_t bare_at(struct patch *p, size_t i, struct scan *sc, size_t j)
{
	size_t n = bare_id(p->l.v[i], j);
	char *text;

	if (!n)
		return j;
	text = scan_text(sc, p, i);
	if (!subject_at(text + j + n))
		return j;
	return cite_at(p, i, sc, text + j, n, 1) - text - 1;
}

/* The commits cited in line @i of the message. */
static void scan_line(struct patch *p, size_t i)
{
	const char *line = p->l.v[i];
	size_t len = strlen(line), j = 0;
	struct scan sc = { NULL, NULL, 0 };

	if (after_commit(p, i)) {
		j = strspn(line, " \t");
		j += hex_run(line + j);
	}
	for (; j < len; j++) {
		if (at_commit(line, j, len))
			j = commit_at(p, i, &sc, j);
		else
			j = bare_at(p, i, &sc, j);
		while (j + 1 < len && is_alnum(line[j]) && is_alnum(line[j + 1]))
			j++;
	}
	free(sc.text);
}

static int skip_refs(const char *s)
{
	struct tag t;

	if (!strncmp(s, "This reverts commit ", 20))
		return 1;
	if (parse_tag(s, &t) || t.lead)
		return 0;
	return tag_is(&t, "Link") || tag_is(&t, "Closes") ||
	       tag_is(&t, "BugLink") || tag_is(&t, "Message-ID") ||
	       (t.key_len == 11 && !strncasecmp(t.key, "base-commit", 11));
}

static void check_refs(struct patch *p)
{
	struct tag t;
	size_t i;

	for (i = p->body; i < p->end; i++) {
		if (is_fixes(p, i, &t))
			check_fixes(p, i, &t);
		else if (!skip_refs(p->l.v[i]))
			scan_line(p, i);
	}
}

static int cmp_known(const void *a, const void *b)
{
	const struct known *x = a, *y = b;

	return strcmp(x->sha, y->sha);
}

/* Cited subjects against --known: the first known sha @c->id prefixes. */
static void check_known(const struct patch *p)
{
	const struct cite *c;
	size_t i, lo, hi, mid, n;
	char *id;

	for (i = 0; i < p->nr_cite; i++) {
		c = &p->cite[i];
		n = strlen(c->id);
		if (!c->subject || n < SHORT_ID_MIN || n > ID_MAX)
			continue;
		id = tag_norm(c->id);
		for (lo = 0, hi = nr_known; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (strcmp(known[mid].sha, id) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nr_known && !strncmp(known[lo].sha, id, n) &&
		    strcmp(known[lo].subject, c->subject))
			add(K_COMMIT_SUBJECT_MISMATCH, c->raw,
			    "commit %s is (\"%s\"), not (\"%s\")",
			    show(c->id, n),
			    show(known[lo].subject, strlen(known[lo].subject)),
			    show(c->subject, strlen(c->subject)));
		free(id);
	}
}

/* --- the other inputs --- */

static void read_known(const char *path)
{
	struct lines l;
	char *tab, *s;
	size_t i;

	read_lines(&l, path);
	known = xrealloc(NULL, (l.nr + 1) * sizeof(*known));
	for (i = 0; i < l.nr; i++) {
		s = l.v[i];
		if (blank_line(s) || s[0] == '#')
			continue;
		tab = strchr(s, '\t');
		if (!tab || tab - s != ID_MAX || hex_run(s) != ID_MAX || !tab[1])
			die("%s:%zu: expected 40 hex digits, a tab and a subject",
			    path, i + 1);
		*tab = '\0';
		known[nr_known].sha = tag_norm(s);
		known[nr_known++].subject = tab + 1;
	}
	qsort(known, nr_known, sizeof(*known), cmp_known);
}

/* "#12: " or "#12: FILE: ...": where a checkpatch finding is. */
static int is_where(const char *s)
{
	size_t n;

	if (s[0] != '#')
		return 0;
	n = strspn(s + 1, "0123456789");
	return n && s[1 + n] == ':';
}

/*
 * "ERROR:TYPE: ...", "WARNING:TYPE: ..." or "CHECK:TYPE: ...", then,
 * when it is about a line, "#N: ..." and the line.
 */
static void read_checkpatch(const char *path)
{
	static const char * const level[] = { "ERROR:", "WARNING:", "CHECK:" };
	struct lines l;
	size_t i, k, n;
	char *s;

	read_lines(&l, path);
	cp = xrealloc(NULL, (l.nr + 1) * sizeof(*cp));
	for (i = 0; i < l.nr; i++) {
		for (k = 0; k < 3; k++)
			if (!strncmp(l.v[i], level[k], strlen(level[k])))
				break;
		if (k == 3)
			continue;
		s = l.v[i] + strlen(level[k]);
		n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (!n || s[n] != ':')
			die("%s:%zu: a finding without its type (%s)", path,
			    i + 1, "run checkpatch.pl with --show-types");
		cp[nr_cp].type = xstrndup(s, n);
		cp[nr_cp].line = NULL;
		if (i + 2 < l.nr && is_where(l.v[i + 1]))
			cp[nr_cp].line = l.v[i + 2];
		nr_cp++;
	}
}

/* checkpatch reported @f: a counterpart type, on its line or on none. */
static int checkpatch_said(const struct finding *f)
{
	const char * const *type = kinds[f->kind].checkpatch_types;
	size_t i, t;

	for (t = 0; t < CP_TYPES && type[t]; t++)
		for (i = 0; i < nr_cp; i++)
			if (!strcmp(cp[i].type, type[t]) &&
			    (!cp[i].line || !strcmp(cp[i].line, f->raw)))
				return 1;
	return 0;
}

/* Raw lines that print the same (put_field() cuts them at RAW_MAX). */
static int cmp_raw(const char *x, const char *y)
{
	return x == y ? 0 : strncmp(x, y, RAW_MAX + 1);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = *(const struct finding * const *)a;
	const struct finding *y = *(const struct finding * const *)b;
	int c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	c = strcmp(x->msg, y->msg);
	if (c)
		return c;
	c = cmp_raw(x->raw, y->raw);
	if (c)
		return c;
	return (x > y) - (x < y);
}

/* Drop the findings that repeat an earlier one (they print the same). */
static void drop_repeats(void)
{
	struct finding **v = xrealloc(NULL, nr_found * sizeof(*v));
	size_t i;

	for (i = 0; i < nr_found; i++)
		v[i] = &found[i];
	qsort(v, nr_found, sizeof(*v), cmp_finding);
	for (i = 1; i < nr_found; i++)
		if (v[i]->kind == v[i - 1]->kind &&
		    !strcmp(v[i]->msg, v[i - 1]->msg) &&
		    !cmp_raw(v[i]->raw, v[i - 1]->raw))
			v[i]->dropped = 1;
	free(v);
}

/* Print the findings checkpatch did not report; returns the exit status. */
static int print_findings(const char *path)
{
	size_t i, n = 0;

	drop_repeats();
	for (i = 0; i < nr_found; i++) {
		if (found[i].dropped || checkpatch_said(&found[i]))
			continue;
		put_field(path, (size_t)-1);
		printf("\t%s\t", kinds[found[i].kind].name);
		put_field(found[i].msg, MSG_MAX);
		putchar('\t');
		put_field(found[i].raw, RAW_MAX);
		putchar('\n');
		n++;
	}
	if (fflush(stdout) || ferror(stdout))
		die("cannot write stdout: %s", strerror(errno));
	return n ? TAGS_FOUND : TAGS_OK;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "patch",	required_argument, NULL, 'p' },
		{ "sender",	required_argument, NULL, 's' },
		{ "known",	required_argument, NULL, 'k' },
		{ "checkpatch",	required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	memset(o, 0, sizeof(*o));
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			o->patch = optarg;
			break;
		case 's':
			o->sender = optarg;
			break;
		case 'k':
			o->known = optarg;
			break;
		case 'c':
			o->checkpatch = optarg;
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc || !o->patch)
		bad_usage();
}

int main(int argc, char **argv)
{
	struct person sender;
	struct patch p;
	struct opts o;

	parse_args(argc, argv, &o);
	if (o.sender) {
		parse_person(o.sender, &sender);
		if (!has_email(&sender))
			die("--sender: expected \"Name <email>\", got \"%s\"",
			    show(o.sender, strlen(o.sender)));
	}
	if (o.known)
		read_known(o.known);
	if (o.checkpatch)
		read_checkpatch(o.checkpatch);
	memset(&p, 0, sizeof(p));
	p.path = o.patch;
	read_lines(&p.l, o.patch);
	find_parts(&p);
	collect_sobs(&p);
	check_author(&p);
	if (o.sender)
		check_sender(&p, &sender);
	check_trailers(&p);
	check_refs(&p);
	check_known(&p);
	return print_findings(p.path);
}
