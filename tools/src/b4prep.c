// SPDX-License-Identifier: GPL-2.0
/*
 * b4prep - the cover letter and the tracking data of a branch that
 * `b4 prep` manages, as b4 (0.12) keeps them.
 *
 * Usage:
 *	b4prep [-o COVER] < MESSAGE
 *	b4prep -t TRACKING [-o COVER] < DESCRIPTION
 *
 * MESSAGE	the message of b4's cover letter commit (cover strategies
 *		"commit" and "tip-commit": an empty commit): the cover, then
 *		a line "--- b4-submit-tracking ---" (b4's marker), then b4's
 *		tracking data, a JSON object from the first '{' on.
 * -t		cover strategy "branch-description": the cover is the
 *		branch's description (on stdin), the tracking data the JSON
 *		object in file TRACKING (git config branch.NAME.b4-tracking).
 * -o		write the cover letter to COVER as a cover letter file: its
 *		subject line, an empty line, its body. As b4 sends it: the
 *		lines that start with '#' dropped, no run of more than one
 *		empty line, no leading or trailing white space; a cover whose
 *		first line is empty or whose second is not gets b4's subject
 *		"(no cover subject)" and the whole text as its body. Never the
 *		tracking data.
 *
 * Output: one line per field, "name<TAB>value": subject (the cover's),
 * then, of the tracking data's "series" object, those that are there:
 * revision (a whole number), change-id, base-branch (absent when null).
 *
 * Exit status: 0 done; 1 not a b4 cover (no marker line) or tracking data
 * that is not what b4 writes (malformed JSON, no "series" object, a field
 * of the wrong type or holding a control character), said with the byte
 * where (a field's control character: with the field's name, as
 * "series.NAME"); 2 usage or I/O error, or input holding a NUL byte.
 */

#include <getopt.h>

#define B4_OK		0
#define B4_BAD		1
#define B4_ERROR	2

#define UTIL_PROG "b4prep"
#define UTIL_ERROR B4_ERROR
#include "util.h"

#define MARKER		"--- b4-submit-tracking ---"
#define NO_SUBJECT	"(no cover subject)"
#define DEPTH_MAX	64	/* nesting of JSON values */
#define WS		" \t\r\n\v\f"
/* JSON's one-character escapes and what they stand for. */
#define ESC_FROM	"\"\\/bfnrt"
#define ESC_TO		"\"\\/\b\f\n\r\t"

/* A JSON text being read: where it came from, for messages. */
struct json {
	const char *s;
	size_t len, pos;
	const char *what;
	size_t base;		/* offset of s in the input it came from */
};

/* The fields of the "series" object that are printed. */
struct tracking {
	char *revision, *change_id, *base_branch;
	int series;		/* a "series" object was seen */
};

static void print_help(FILE *f)
{
	fputs("Usage: b4prep [-o COVER] < MESSAGE\n"
	      "       b4prep -t TRACKING [-o COVER] < DESCRIPTION\n"
	      "The cover letter (to COVER) and the tracking fields (on stdout) of a\n"
	      "branch that b4 prep manages: MESSAGE is its cover letter commit's\n"
	      "message; with -t, DESCRIPTION its branch description and TRACKING\n"
	      "the file of its b4-tracking JSON.\n"
	      "Exit: 0 done, 1 not a b4 cover or bad tracking data, 2 usage or I/O error.\n",
	      f);
}

/* Report stdin as no b4 cover letter commit's message and exit 1. */
static void not_b4(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie_at(B4_BAD, "stdin: ", fmt, ap);
}

/* Report bad tracking data at the current byte and exit 1. */
static void bad(const struct json *j, const char *fmt, ...)
{
	char where[256];
	va_list ap;

	snprintf(where, sizeof(where), "%s, byte %zu: ", j->what, j->base + j->pos + 1);
	va_start(ap, fmt);
	vdie_at(B4_BAD, where, fmt, ap);
}

static void skip_ws(struct json *j)
{
	while (j->pos < j->len && strchr(" \t\r\n", j->s[j->pos]))
		j->pos++;
}

static int peek(struct json *j)
{
	skip_ws(j);
	return j->pos < j->len ? (unsigned char)j->s[j->pos] : -1;
}

static void expect(struct json *j, char c)
{
	if (peek(j) != c)
		bad(j, "expected '%c'", c);
	j->pos++;
}

/* Append the UTF-8 form of code point @cp to @out (room for 4 bytes). */
static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The four hex digits of a \u escape at the current byte. */
static unsigned long hex4(struct json *j)
{
	unsigned long v = 0;
	int i, c;

	if (j->len - j->pos < 4)
		bad(j, "a \\u escape needs four hex digits");
	for (i = 0; i < 4; i++) {
		c = (unsigned char)j->s[j->pos + i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned long)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned long)(c - 'A' + 10);
		else
			bad(j, "a \\u escape needs four hex digits");
	}
	j->pos += 4;
	return v;
}

/* A JSON string at the current byte, decoded, as a new string. */
static char *parse_string(struct json *j)
{
	size_t n = 0, cap = 0, c;
	unsigned long cp, lo;
	const char *esc;
	char *out = NULL;

	expect(j, '"');
	for (;;) {
		/* Room for the most one step adds (4 bytes) and the NUL. */
		if (n + 5 > cap) {
			cap = cap ? 2 * cap : 64;
			out = xrealloc(out, cap);
		}
		if (j->pos >= j->len)
			bad(j, "a string does not end");
		c = (unsigned char)j->s[j->pos];
		if (c == '"') {
			j->pos++;
			break;
		}
		if (c < 0x20)
			bad(j, "a control character in a string");
		if (c != '\\') {
			c = utf8_len(j->s + j->pos, j->len - j->pos);
			if (!c)
				bad(j, "a string is not UTF-8");
			memcpy(out + n, j->s + j->pos, c);
			n += c;
			j->pos += c;
			continue;
		}
		if (++j->pos >= j->len)
			bad(j, "a string does not end");
		c = (unsigned char)j->s[j->pos++];
		esc = c ? strchr(ESC_FROM, (int)c) : NULL;
		if (esc) {
			out[n++] = ESC_TO[esc - ESC_FROM];
			continue;
		}
		if (c != 'u') {
			j->pos--;
			bad(j, "an unknown escape '\\%c'", (int)c);
		}
		cp = hex4(j);
		if (cp >= 0xdc00 && cp <= 0xdfff)
			bad(j, "a \\u escape of a lone low surrogate");
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (j->len - j->pos < 2 || j->s[j->pos] != '\\' ||
			    j->s[j->pos + 1] != 'u')
				bad(j, "a high surrogate without its low one");
			j->pos += 2;
			lo = hex4(j);
			if (lo < 0xdc00 || lo > 0xdfff)
				bad(j, "a high surrogate without its low one");
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		n += put_utf8(out + n, cp);
	}
	out[n] = '\0';
	if (strlen(out) != n) {
		free(out);
		bad(j, "a string holds \\u0000");
	}
	return out;
}

/* A JSON number at the current byte, as its text. */
static char *parse_number(struct json *j)
{
	size_t start = j->pos, d;

#define DIGITS() do {							\
		d = j->pos;						\
		while (j->pos < j->len && j->s[j->pos] >= '0' &&	\
		       j->s[j->pos] <= '9')				\
			j->pos++;					\
		if (j->pos == d)					\
			bad(j, "a number needs a digit here");		\
	} while (0)

	if (j->s[j->pos] == '-')
		j->pos++;
	if (j->pos < j->len && j->s[j->pos] == '0')
		j->pos++;
	else
		DIGITS();
	if (j->pos < j->len && j->s[j->pos] == '.') {
		j->pos++;
		DIGITS();
	}
	if (j->pos < j->len && (j->s[j->pos] == 'e' || j->s[j->pos] == 'E')) {
		j->pos++;
		if (j->pos < j->len && (j->s[j->pos] == '+' || j->s[j->pos] == '-'))
			j->pos++;
		DIGITS();
	}
#undef DIGITS
	return xstrndup(j->s + start, j->pos - start);
}

enum jtype { J_STRING, J_NUMBER, J_NULL, J_OTHER };

/* Whether @s is a whole number above 0 in JSON's form. */
static int whole_number(const char *s)
{
	return s[0] >= '1' && s[0] <= '9' && !s[strspn(s, "0123456789")];
}

static void parse_value(struct json *j, int depth, char **scalar, enum jtype *type,
			struct tracking *t);

/*
 * An object at the current byte; at depth 1 under the key "series", the
 * fields of @t are taken from it.
 */
static void parse_object(struct json *j, int depth, struct tracking *t, int series)
{
	enum jtype type;
	char *key, *val, **slot;

	expect(j, '{');
	if (peek(j) == '}') {
		j->pos++;
		return;
	}
	for (;;) {
		if (peek(j) != '"')
			bad(j, "expected a key (a string)");
		key = parse_string(j);
		expect(j, ':');
		if (depth == 0 && !strcmp(key, "series")) {
			if (peek(j) != '{')
				bad(j, "\"series\" is not an object");
			if (t->series)
				bad(j, "a second \"series\" object");
			t->series = 1;
			parse_object(j, depth + 1, t, 1);
		} else if (series) {
			val = NULL;
			parse_value(j, depth + 1, &val, &type, t);
			slot = !strcmp(key, "revision") ? &t->revision :
			       !strcmp(key, "change-id") ? &t->change_id :
			       !strcmp(key, "base-branch") ? &t->base_branch : NULL;
			if (slot == &t->revision &&
			    (type != J_NUMBER || !whole_number(val)))
				bad(j, "series.revision is not a whole number above 0");
			if (slot && slot != &t->revision && type != J_STRING &&
			    type != J_NULL)
				bad(j, "series.%s is not a string", key);
			if (slot) {
				free(*slot);
				*slot = val;
			} else {
				free(val);
			}
		} else {
			parse_value(j, depth + 1, NULL, NULL, t);
		}
		free(key);
		if (peek(j) == ',') {
			j->pos++;
			continue;
		}
		expect(j, '}');
		return;
	}
}

/*
 * Any JSON value at the current byte. A string or a number is returned
 * in *@scalar when asked for, with its type; null leaves *@scalar NULL.
 */
static void parse_value(struct json *j, int depth, char **scalar, enum jtype *type,
			struct tracking *t)
{
	static const char *const words[] = { "true", "false", "null" };
	enum jtype dummy;
	char *v = NULL;
	size_t i, n;
	int c;

	if (!type)
		type = &dummy;
	*type = J_OTHER;
	if (depth > DEPTH_MAX)
		bad(j, "nested deeper than %d", DEPTH_MAX);
	c = peek(j);
	if (c == '{') {
		parse_object(j, depth, t, 0);
	} else if (c == '[') {
		j->pos++;
		if (peek(j) == ']') {
			j->pos++;
			return;
		}
		for (;;) {
			parse_value(j, depth + 1, NULL, NULL, t);
			if (peek(j) == ',') {
				j->pos++;
				continue;
			}
			expect(j, ']');
			break;
		}
	} else if (c == '"') {
		v = parse_string(j);
		*type = J_STRING;
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		v = parse_number(j);
		*type = J_NUMBER;
	} else {
		for (i = 0; i < 3; i++) {
			n = strlen(words[i]);
			if (j->len - j->pos >= n && !memcmp(j->s + j->pos, words[i], n))
				break;
		}
		if (i == 3)
			bad(j, c < 0 ? "the JSON ends before a value" : "expected a value");
		j->pos += n;
		*type = i == 2 ? J_NULL : J_OTHER;
	}
	if (scalar)
		*scalar = v;
	else
		free(v);
}

/* Read b4's tracking JSON (@len bytes at @s) into @t. */
static void parse_tracking(const char *s, size_t len, size_t base, const char *what,
			   struct tracking *t)
{
	struct json j = { .s = s, .len = len, .what = what, .base = base };

	if (peek(&j) != '{')
		bad(&j, "the tracking data is not a JSON object");
	parse_object(&j, 0, t, 0);
	if (peek(&j) >= 0)
		bad(&j, "more after the JSON object");
	if (!t->series)
		bad(&j, "no \"series\" object in the tracking data");
}

/* Whether @s holds a control character (a TAB or newline would split a field). */
static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/*
 * The cover as b4 sends it, from @len bytes at @s: '#' lines emptied, runs
 * of empty lines made one, white space trimmed at both ends. A new string.
 */
static char *clean_cover(const char *s, size_t len)
{
	char *out = xrealloc(NULL, len + 1);
	size_t i = 0, n = 0, e, start, end;

	while (i < len) {
		e = i;
		while (e < len && s[e] != '\n')
			e++;
		if (s[i] != '#') {
			memcpy(out + n, s + i, e - i);
			n += e - i;
		}
		/*
		 * b4 replaces "\n\n\n" with "\n\n" until there is none:
		 * no third newline in a row, in one pass (replacing took
		 * minutes on a million empty lines).
		 */
		if (e < len && !(n >= 2 && out[n - 1] == '\n' && out[n - 2] == '\n'))
			out[n++] = '\n';
		i = e + 1;
	}
	out[n] = '\0';
	start = strspn(out, WS);
	end = n;
	while (end > start && strchr(WS, out[end - 1]))
		end--;
	memmove(out, out + start, end - start);
	out[end - start] = '\0';
	return out;
}

/* Whether line @s (up to '\n' or the end) is only white space. */
static int blank_line(const char *s)
{
	for (; *s && *s != '\n'; s++)
		if (!strchr(WS, *s))
			return 0;
	return 1;
}

/*
 * Split @cover (cleaned) into *@subject and *@body as b4's
 * get_cover_subject_body() does: both new strings.
 */
static void split_cover(const char *cover, char **subject, char **body)
{
	const char *nl = strchr(cover, '\n'), *rest;
	size_t end;

	if (!nl || blank_line(cover) || !blank_line(nl + 1)) {
		*subject = xstrdup(NO_SUBJECT);
		*body = xstrdup(cover);
		return;
	}
	*subject = xstrndup(cover, (size_t)(nl - cover));
	rest = strchr(nl + 1, '\n');
	rest = rest ? rest + 1 : "";
	rest += strspn(rest, WS);
	end = strlen(rest);
	while (end && strchr(WS, rest[end - 1]))
		end--;
	*body = xstrndup(rest, end);
}

/* Where the marker line starts in @s (@len bytes), or NULL. */
static const char *find_marker(const char *s, size_t len)
{
	size_t i = 0, m = strlen(MARKER), e;

	while (i < len) {
		e = i;
		while (e < len && s[e] != '\n')
			e++;
		if (e - i >= m && !memcmp(s + i, MARKER, m) &&
		    (e - i == m || (e - i == m + 1 && s[i + m] == '\r')))
			return s + i;
		i = e + 1;
	}
	return NULL;
}

static char *read_all(FILE *f, const char *what, size_t *plen)
{
	char *buf = slurp(f, plen);

	if (!buf)
		die("cannot read %s: %s", what, strerror(errno));
	if (strlen(buf) != *plen)
		die("%s holds a NUL byte: not a b4 cover or tracking data", what);
	return buf;
}

/* Refuse a field that holds a control character: it would split a record. */
static void check_field(const char *name, const char *val)
{
	if (!val || !has_control(val))
		return;
	fprintf(stderr, "%s: error: tracking data: series.%s holds a control character\n",
		prog, name);
	exit(B4_BAD);
}

static void print_field(const char *name, const char *val)
{
	if (val)
		printf("%s\t%s\n", name, val);
}

int main(int argc, char **argv)
{
	const char *tracking_file = NULL, *cover_file = NULL, *mark, *js;
	struct tracking t = { 0 };
	char *in, *tj = NULL, *cover, *subject, *body;
	size_t len, tlen, clen;
	FILE *f;
	int c;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	while ((c = getopt_long(argc, argv, "ho:t:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_help(stdout);
			return B4_OK;
		case 'o':
			cover_file = optarg;
			break;
		case 't':
			tracking_file = optarg;
			break;
		default:
			print_help(stderr);
			return B4_ERROR;
		}
	}
	if (optind != argc) {
		print_help(stderr);
		return B4_ERROR;
	}

	in = read_all(stdin, "stdin", &len);
	if (tracking_file) {
		f = fopen(tracking_file, "rb");
		if (!f)
			die("cannot open %s: %s", tracking_file, strerror(errno));
		tj = read_all(f, tracking_file, &tlen);
		fclose(f);
		parse_tracking(tj, tlen, 0, tracking_file, &t);
		clen = len;
	} else {
		mark = find_marker(in, len);
		if (!mark) {
			free(in);
			not_b4("no line \"%s\": not a b4 prep cover letter commit's message",
			       MARKER);
		}
		clen = (size_t)(mark - in);
		js = memchr(mark, '{', len - clen);
		if (!js) {
			free(in);
			not_b4("no tracking data (a JSON object) after \"%s\"", MARKER);
		}
		parse_tracking(js, len - (size_t)(js - in), (size_t)(js - in),
			       "stdin (tracking data)", &t);
	}

	check_field("revision", t.revision);
	check_field("change-id", t.change_id);
	check_field("base-branch", t.base_branch);
	cover = clean_cover(in, clen);
	split_cover(cover, &subject, &body);
	if (cover_file) {
		f = fopen(cover_file, "w");
		if (!f)
			die("cannot write %s: %s", cover_file, strerror(errno));
		fprintf(f, "%s\n\n%s%s", subject, body, *body ? "\n" : "");
		if (fclose(f))
			die("cannot write %s: %s", cover_file, strerror(errno));
	}
	printf("subject\t");
	for (c = 0; subject[c]; c++)
		putchar((unsigned char)subject[c] < 0x20 ? '?' : subject[c]);
	putchar('\n');
	print_field("revision", t.revision);
	print_field("change-id", t.change_id);
	print_field("base-branch", t.base_branch);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the output: %s", strerror(errno));
	free(in);
	free(tj);
	free(cover);
	free(subject);
	free(body);
	free(t.revision);
	free(t.change_id);
	free(t.base_branch);
	return B4_OK;
}
