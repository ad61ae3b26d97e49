// SPDX-License-Identifier: GPL-2.0
/*
 * hangsym - name the place where a hung guest's CPU is.
 *
 * Usage:
 *	hangsym --monitor SOCKET --arch x86_64|arm64 --system-map FILE
 *		[--raw FILE] [--timeout-ms N] [--snapshots N]
 *		[--results FILE --modules DIR]
 *	hangsym --parse RAWFILE --arch x86_64|arm64 --system-map FILE
 *		[--results FILE --modules DIR]
 *	hangsym --sysrq KEYS --console SOCKET [--timeout-ms N]
 *
 * --monitor	a QEMU HMP monitor on a unix socket (QEMU started with
 *		-monitor unix:PATH,server=on,wait=off). hangsym waits for
 *		its "(qemu) " prompt and sends "info registers -a" (every
 *		CPU, each under a "CPU#N" line) 4 times (--snapshots, 1 to
 *		16), 150 ms apart, and again while the busiest CPU (below)
 *		was last seen away from the place it was in most often (a
 *		timer interrupt in a busy loop), up to 16 snapshots in all;
 *		then "x/32gx 0x<SP>" with
 *		each CPU's stack pointer that printed (QEMU 7.2's HMP knows
 *		no $rsp on x86_64 and no $sp on arm64), then "info cpus".
 *		Every wait, the connection's and each command's, is
 *		bounded by --timeout-ms (default 2000); a dead, silent or
 *		closing monitor is an error. "info cpus" is optional: its
 *		failure is only a warning.
 * --raw	save the monitor's whole output, as it came (echoes, escape
 *		sequences and all), also when the capture failed.
 * --parse	symbolise such a saved transcript instead.
 * --sysrq	press SysRq keys on a guest's serial console instead: the
 *		console is a QEMU chardev with mux=on on a unix socket
 *		(--console; -chardev socket,path=PATH,server=on,wait=off,
 *		mux=on,logfile=FILE keeps the console in FILE). For each
 *		key (0-9, a-z; at most 8, so that a run ends within
 *		5 s and --timeout-ms) hangsym sends the mux's "C-a b", a break,
 *		which a kernel with CONFIG_MAGIC_SYSRQ_SERIAL takes as SysRq,
 *		then the key, 300 ms apart; then it reads what the guest
 *		prints until 1 s passes without output or --timeout-ms
 *		(default 2000) ends, and discards it (the logfile has it).
 *		"8w" shows the blocked tasks ("w") on the console whatever
 *		its loglevel ("8"). A guest that never answers is no error:
 *		the console says whether it did.
 * --system-map	the booted kernel's System.map ("address type name"). Its
 *		text symbols (types t, T and W) name an address: the
 *		nearest at or below it, its size the distance to the next;
 *		among symbols at one address a function comes before a
 *		section marker ("__*_start", "_etext"), a global one before
 *		a local one, then the first listed. Kernel text is
 *		[_text or _stext, _etext) and [_sinittext, _einittext).
 *
 * The transcript gives each CPU's PC (x86_64 "RIP=", arm64 "PC="), its
 * stack pointer and on arm64 its link register (X30): the lines after a
 * "CPU#N" line are CPU N's (before any, CPU 0's; at most 16 CPUs). The
 * words of a memory dump ("addr: 0x... 0x...") are those of the CPU
 * whose stack the address is in (SP to SP + 32 words). Escape
 * sequences, \r and other control characters are dropped first.
 *
 * A CPU seen again is a new snapshot of it: its registers are those of
 * the last one, and every snapshot's PC counts for the choice below.
 *
 * The report is about one CPU, the busiest: each snapshot of a CPU
 * ranks 3 with its PC in a function of kernel text that is no spinner
 * or in module code, 2 in user space, 1 in a spinner; the CPU with the
 * highest sum wins, then the highest rank now, then the first. A guest
 * with several CPUs hangs in one while the others idle, and an idle one
 * is now and then caught in an interrupt.
 *
 * Output (stdout, tab separated):
 *	idle	<CPUs>	every CPU idles: in each CPU's snapshots, at least
 *		half of its PCs are in the idle loop (the idlers table);
 *		the hang is then a task that does not go on, which
 *		"--sysrq 8w" asks the guest to name
 *	cpu	<N>	<CPUs>	the CPU reported on, when there are several
 *	pc	<address>	<sym+0xoff/0xsize, or - outside kernel text>
 *	frame	<address>	<sym+0xoff/0xsize>		(0..8 lines)
 *	title	hang in <sym> [(spinning in <sym>)]
 *		or hang in module code called from <sym> (no address:
 *		equal hangs at other steps get equal titles),
 *		when the PC is a kernel address outside vmlinux's text (a
 *		module's: its symbols are not in System.map) and a frame is
 *		known; else hang outside the kernel (pc <address>)
 *
 * The frames are the candidate return addresses: on arm64 the link
 * register, then the stack words in stack order, each that falls in
 * kernel text but not on a symbol's first byte (a function pointer, as
 * no call returns there), once, at most 8. The title names the PC's function
 * (without a compiler's clone suffix such as ".isra.0"); when that is a
 * function the CPU merely spins or idles in (the spinners table), it
 * names the first frame that is not one too.
 *
 * Modules: with --results FILE (the guest runner's KTAP, whose lines
 * "# runner: module NAME section SECTION 0xADDRESS" say where a module
 * being loaded has its code) and --modules DIR (the step's modules, the
 * NAME.ko files under it at any depth, '-' and '_' alike), a PC outside
 * vmlinux in such a section is named by the .ko's own symbols:
 *	module	<NAME>	<SECTION>	<0xoffset>	<path of NAME.ko>
 *	pc	<address>	<sym+0xoff/0xsize> [NAME]
 *	title	hang in <sym> [NAME]
 * (the offset for addr2line -j SECTION on the .ko, when it has DWARF).
 *
 * Exit status: 0 the PC was symbolised, 1 the capture worked but the PC
 * is outside kernel text, 2 usage, I/O, monitor or parse error.
 */

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/elf.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define HANG_OK		0
#define HANG_OUTSIDE	1
#define HANG_ERROR	2

#define FRAMES_MAX	8		/* frame lines at most */
#define WORDS_MAX	256		/* stack words read from a transcript */
#define STACK_WORDS	32		/* stack words asked of the monitor */
#define RAW_MAX		1048576		/* bytes of monitor output, at most */
#define TIMEOUT_MS	2000		/* default bound of each wait */
#define TIMEOUT_MAX	600000
#define CMD_MAX		64		/* bytes of one monitor command */
#define CPUS_MAX	16		/* CPUs read from a transcript */
#define SNAPS		4		/* "info registers -a" asked this often, */
#define SNAP_GAP_MS	150		/* apart */
#define SNAPS_MAX	16		/* snapshots read from a transcript */
#define PROMPT		"(qemu) "

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define UTIL_PROG "hangsym"
#define UTIL_ERROR HANG_ERROR
#include "util.h"

/* How "info registers" names the registers of each arch. */
struct arch {
	const char *name;
	const char *pc;
	const char *sp;
	const char *lr;		/* or NULL: no link register */
};

static const struct arch arches[] = {
	{ "x86_64",	"RIP=",	"RSP=",	NULL },
	{ "arm64",	"PC=",	"SP=",	"X30=" },
};

/*
 * Functions a CPU idles or spins in on behalf of its caller: idle loops,
 * the delay loops of mdelay() and udelay(), and what panic()'s endless
 * loop calls between them.
 */
static const char * const spinners[] = {
	"default_idle", "default_idle_call", "arch_cpu_idle", "cpu_idle_poll",
	"cpu_do_idle", "native_safe_halt", "native_halt", "pv_native_safe_halt",
	"mwait_idle", "poll_idle", "intel_idle", "acpi_idle_do_entry",
	"acpi_safe_halt", "cpuidle_enter", "cpuidle_enter_state",
	"__delay", "__delay_cycles", "__const_udelay", "__udelay", "__ndelay",
	"delay_loop", "delay_tsc", "delay_halt", "delay_halt_tpause",
	"delay_halt_mwaitx", "touch_softlockup_watchdog", "touch_nmi_watchdog",
	"no_blink", "i8042_panic_blink", "amd_e400_idle",
};

/* The idle loop's functions, where a CPU with nothing to run is found. */
static const char * const idlers[] = {
	"default_idle", "default_idle_call", "arch_cpu_idle", "cpu_idle_poll",
	"cpu_do_idle", "native_safe_halt", "native_halt", "pv_native_safe_halt",
	"mwait_idle", "poll_idle", "intel_idle", "acpi_idle_do_entry",
	"acpi_safe_halt", "cpuidle_enter", "cpuidle_enter_state",
	"amd_e400_idle", "do_idle",
};

struct sym {
	unsigned long long addr;
	const char *name;
	int marker;		/* a section marker, not a function */
	int local;		/* type t */
	size_t order;		/* line in System.map */
};

struct symtab {
	struct lines l;
	struct sym *v;
	size_t nr, cap;
	unsigned long long text, stext, etext, sinittext, einittext;	/* 0: none */
};

/* One CPU of a transcript: its registers and the stack words at its SP. */
struct cpu {
	unsigned long long pc, sp, lr;	/* of its last snapshot */
	int has_pc, has_sp, has_lr;
	unsigned long long seen[SNAPS_MAX];	/* the PC of every snapshot */
	size_t nr_seen;
	unsigned long long word[WORDS_MAX];
	size_t nr_words;
};

struct capture {
	struct cpu cpu[CPUS_MAX];
	size_t nr_cpus;		/* 1 + the highest CPU with registers */
	size_t at;		/* the CPU the lines being read are of */
	size_t pick;		/* the CPU the report is about */
};

struct opts {
	const char *monitor, *parse, *map, *raw;
	const char *sysrq, *console;
	const char *results, *modules;
	const struct arch *arch;
	int timeout_ms;
	int snaps;
};

/* Where a PC in a module is: its module's file, section and function. */
struct modplace {
	char name[64];		/* the module, as the kernel names it */
	char section[64];
	char path[4096];	/* its .ko */
	unsigned long long off;	/* in the section */
	char func[128];		/* "" when no symbol covers it */
	unsigned long long func_off, func_size;
};

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: %s --monitor SOCKET --arch x86_64|arm64 --system-map FILE\n"
		"       [--raw FILE] [--timeout-ms N] [--snapshots N]\n"
		"       [--results FILE --modules DIR]\n"
		"   or: %s --parse RAWFILE --arch x86_64|arm64 --system-map FILE\n"
		"       [--results FILE --modules DIR]\n"
		"   or: %s --sysrq KEYS --console SOCKET [--timeout-ms N]\n",
		prog, prog, prog);
	exit(HANG_ERROR);
}

/*
 * Parse 1 to 16 hex digits at @s into *@val; returns the number of
 * digits, or 0 when there are none or too many.
 */
static size_t parse_hex(const char *s, unsigned long long *val)
{
	size_t n = 0;
	unsigned long long v = 0;

	while (hex_val(s[n]) >= 0) {
		if (n == 16)
			return 0;
		v = v << 4 | (unsigned long long)hex_val(s[n]);
		n++;
	}
	*val = v;
	return n;
}

/* ---- System.map ---- */

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static int is_marker(const char *name)
{
	return !strcmp(name, "_text") || !strcmp(name, "_stext") ||
	       !strcmp(name, "_etext") || !strcmp(name, "_sinittext") ||
	       !strcmp(name, "_einittext") ||
	       (!strncmp(name, "__", 2) && (ends_with(name, "_start") ||
					    ends_with(name, "_end") ||
					    ends_with(name, "_begin")));
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->marker != y->marker)
		return x->marker - y->marker;
	if (x->local != y->local)
		return x->local - y->local;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Note where the text sections start and end. */
static void map_marker(struct symtab *st, const char *name, unsigned long long a)
{
	if (!strcmp(name, "_text"))
		st->text = a;
	else if (!strcmp(name, "_stext"))
		st->stext = a;
	else if (!strcmp(name, "_etext"))
		st->etext = a;
	else if (!strcmp(name, "_sinittext"))
		st->sinittext = a;
	else if (!strcmp(name, "_einittext"))
		st->einittext = a;
}

/* A name of printable ASCII, no spaces, as the kernel's are. */
static int good_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e)
			return 0;
	return 1;
}

/* One "address type name" line; returns 0, or -1 when it is none. */
static int map_line(struct symtab *st, char *s, size_t order)
{
	struct sym *y;
	size_t n;
	unsigned long long a;
	char type;

	n = parse_hex(s, &a);
	if (!n || s[n] != ' ' || !s[n + 1] || s[n + 2] != ' ')
		return -1;
	type = s[n + 1];
	s += n + 3;
	s[strcspn(s, "\r")] = '\0';
	if (!good_name(s))
		return -1;
	map_marker(st, s, a);
	if (type != 't' && type != 'T' && type != 'W')
		return 0;
	if (st->nr == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 1024;
		st->v = xrealloc(st->v, st->cap * sizeof(*st->v));
	}
	y = &st->v[st->nr++];
	y->addr = a;
	y->name = s;
	y->marker = is_marker(s);
	y->local = type == 't';
	y->order = order;
	return 0;
}

/* Sort by address and keep the preferred symbol of each address. */
static void map_sort(struct symtab *st)
{
	size_t i, n = 0;

	qsort(st->v, st->nr, sizeof(*st->v), sym_cmp);
	for (i = 0; i < st->nr; i++)
		if (!n || st->v[i].addr != st->v[n - 1].addr)
			st->v[n++] = st->v[i];
	st->nr = n;
}

static void map_read(struct symtab *st, const char *path)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	lines_read(&st->l, path, "System.map", 0);
	for (i = 0; i < st->l.nr; i++)
		if (map_line(st, st->l.v[i], i) < 0)
			die("%s:%zu: expected \"address type name\", got \"%s\"",
			    path, i + 1, show(st->l.v[i], strlen(st->l.v[i])));
	if (!st->nr)
		die("%s: no text symbols (types t, T, W)", path);
	if (!st->text || (st->stext && st->stext < st->text))
		st->text = st->stext;
	if (!st->text || st->etext <= st->text)
		die("%s: no kernel text range (_stext or _text, then _etext)", path);
	if (st->einittext <= st->sinittext)
		st->einittext = 0;
	map_sort(st);
}

static void map_free(struct symtab *st)
{
	free(st->v);
	free(st->l.v);
	free(st->l.buf);
}

static int in_text(const struct symtab *st, unsigned long long a)
{
	return (a >= st->text && a < st->etext) ||
	       (a >= st->sinittext && a < st->einittext);
}

/* The symbol at or below @a, or NULL; its size in *@size. */
static const struct sym *map_find(const struct symtab *st, unsigned long long a,
				  unsigned long long *size)
{
	size_t lo = 0, hi = st->nr, mid;
	unsigned long long end;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st->v[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (lo < st->nr)
		end = st->v[lo].addr;
	else
		end = a < st->etext ? st->etext : st->einittext;
	*size = end > a ? end - st->v[lo - 1].addr : 0;
	return &st->v[lo - 1];
}

/* ---- the transcript ---- */

/* Drop escape sequences, \r and other control characters, in place. */
static void clean_line(char *s)
{
	unsigned char c;
	char *r, *w = s;

	for (r = s; *r; r++) {
		c = *r;
		if (c == 0x1b && r[1] == '[') {
			for (r += 2; *r && (*r < 0x40 || *r > 0x7e); r++)
				;
			if (!*r)
				break;
			continue;
		}
		if (c == 0x1b) {
			if (r[1])
				r++;
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			continue;
		*w++ = c;
	}
	*w = '\0';
}

/* The value of "KEY=hex" at the start of @s or after a space. */
static int reg_value(const char *s, const char *key, unsigned long long *val)
{
	const char *p = s;
	size_t n;

	while ((p = strstr(p, key))) {
		if (p == s || p[-1] == ' ') {
			n = parse_hex(p + strlen(key), val);
			if (n && (p[strlen(key) + n] == ' ' ||
				  !p[strlen(key) + n]))
				return 1;
		}
		p++;
	}
	return 0;
}

/* A "CPU#N" line: the lines after it are CPU N's (none past CPUS_MAX). */
static int parse_cpu_line(struct capture *c, const char *s)
{
	unsigned long n = 0;
	const char *d;

	if (strncmp(s, "CPU#", 4))
		return 0;
	for (d = s + 4; *d >= '0' && *d <= '9' && n <= CPUS_MAX; d++)
		n = n * 10 + (unsigned long)(*d - '0');
	if (d == s + 4 || *d)
		return 0;
	c->at = n < CPUS_MAX ? n : CPUS_MAX;
	/* A CPU seen again: a new snapshot, its registers the latest. */
	if (c->at < CPUS_MAX && c->cpu[c->at].has_pc) {
		struct cpu *p = &c->cpu[c->at];

		p->has_pc = 0;
		p->has_sp = 0;
		p->has_lr = 0;
	}
	return 1;
}

static void parse_regs(struct capture *c, const struct arch *ar,
		       const char *s)
{
	struct cpu *p;

	if (c->at >= CPUS_MAX)
		return;
	p = &c->cpu[c->at];
	if (!p->has_pc) {
		p->has_pc = reg_value(s, ar->pc, &p->pc);
		if (p->has_pc && p->nr_seen < SNAPS_MAX)
			p->seen[p->nr_seen++] = p->pc;
	}
	if (!p->has_sp)
		p->has_sp = reg_value(s, ar->sp, &p->sp);
	if (ar->lr && !p->has_lr)
		p->has_lr = reg_value(s, ar->lr, &p->lr);
	if (p->has_pc && c->at >= c->nr_cpus)
		c->nr_cpus = c->at + 1;
}

/* The CPU whose stack @a is in, or NULL. */
static struct cpu *stack_of(struct capture *c, unsigned long long a)
{
	size_t i;

	for (i = 0; i < CPUS_MAX; i++)
		if (c->cpu[i].has_sp && a >= c->cpu[i].sp &&
		    a - c->cpu[i].sp < STACK_WORDS * 8ULL)
			return &c->cpu[i];
	return NULL;
}

/* A memory dump line, "address: 0xword 0xword". */
static void parse_dump(struct capture *c, const char *s)
{
	unsigned long long a, w[2];
	size_t n, nr = 0;
	struct cpu *p;

	n = parse_hex(s, &a);
	if (!n || s[n] != ':')
		return;
	p = stack_of(c, a);
	if (!p)
		return;
	for (s += n + 1; *s; s += n) {
		if (strncmp(s, " 0x", 3) || nr == ARRAY_SIZE(w))
			return;
		s += 3;
		n = parse_hex(s, &w[nr]);
		if (!n || (s[n] && s[n] != ' '))
			return;
		nr++;
	}
	for (n = 0; n < nr && p->nr_words < WORDS_MAX; n++)
		p->word[p->nr_words++] = w[n];
}

/* The registers and stack words of a transcript (@len bytes). */
static void parse_capture(struct capture *c, const struct arch *ar,
			  const char *buf, size_t len)
{
	char *copy = xrealloc(NULL, len + 1), *s, *nl;

	memcpy(copy, buf, len);
	copy[len] = '\0';
	memset(c, 0, sizeof(*c));
	for (s = copy; s < copy + len; s = nl + 1) {
		nl = memchr(s, '\n', copy + len - s);
		if (!nl)
			nl = copy + len;
		*nl = '\0';
		clean_line(s);
		if (!parse_cpu_line(c, s))
			parse_regs(c, ar, s);
		parse_dump(c, s);
	}
	free(copy);
}

/* ---- modules ---- */

#define KO_MAX		(64 << 20)	/* bytes of a .ko read, at most */
#define KO_DEPTH	8		/* dirs searched below --modules */

/* Whether module names @a and @b are equal, '-' and '_' alike. */
static int modname_eq(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; i < blen; i++, a++) {
		char x = *a == '-' ? '_' : *a, y = b[i] == '-' ? '_' : b[i];

		if (!*a || x != y)
			return 0;
	}
	return !*a;
}

/* Find NAME.ko under @dir (depth first, at most KO_DEPTH deep). */
static int find_ko(const char *dir, const char *name, char *out, size_t outlen,
		   int depth)
{
	struct dirent *de;
	size_t n;
	DIR *d;
	int found = 0;

	if (depth > KO_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n = strlen(de->d_name);
		if (n > 3 && !strcmp(de->d_name + n - 3, ".ko") &&
		    modname_eq(name, de->d_name, n - 3)) {
			found = snprintf(out, outlen, "%s/%s", dir, de->d_name) < (int)outlen;
		} else if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN) {
			char sub[4096];

			if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) <
			    (int)sizeof(sub))
				found = find_ko(sub, name, out, outlen, depth + 1);
		}
	}
	closedir(d);
	return found;
}

/* @len bytes at @off of @buf (@size) are there. */
static int in_file(size_t size, unsigned long long off, unsigned long long len)
{
	return off <= size && len <= size - off;
}

/* The aliases module_init() and module_exit() give a module's functions. */
static int is_mod_alias(const char *name)
{
	return !strcmp(name, "init_module") || !strcmp(name, "cleanup_module");
}

/*
 * Of two symbols at one address (both NUL-terminated in the string
 * table), whether @a names it better than @b: a function before a bare
 * label, then the function's own name before module_init()'s alias.
 */
static int sym_better(const char *a, int ta, const char *b, int tb)
{
	if (ta != tb)
		return ta == STT_FUNC;
	return is_mod_alias(b) && !is_mod_alias(a);
}

/*
 * The function of section @sec of ELF64 relocatable @ko that covers
 * offset @off (the nearest FUNC or NOTYPE symbol at or below it, within
 * its size when it has one; its own name, not module_init()'s alias
 * init_module); fills @p. 0 found, -1 no such section or a
 * file that is no ELF64 object, 1 no symbol covers it.
 */
static int ko_symbolise(const char *ko, const char *sec, unsigned long long off,
			struct modplace *p)
{
	const struct elf64_shdr *sh, *symtab = NULL, *target = NULL;
	const struct elf64_hdr *eh;
	const struct elf64_sym *sym, *best = NULL;
	const char *shstr, *str;
	size_t len, i, nsec, nsym, ti = 0;
	char *buf;
	FILE *f;
	int rc = -1;

	f = fopen(ko, "rb");
	if (!f)
		return -1;
	buf = slurp(f, &len);
	fclose(f);
	if (!buf)
		return -1;
	eh = (const struct elf64_hdr *)buf;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    len > KO_MAX || eh->e_shentsize != sizeof(struct elf64_shdr) ||
	    !in_file(len, eh->e_shoff, eh->e_shnum * (unsigned long long)sizeof(*sh)) ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff % 8)
		goto out;
	sh = (const struct elf64_shdr *)(buf + eh->e_shoff);
	nsec = eh->e_shnum;
	if (!in_file(len, sh[eh->e_shstrndx].sh_offset, sh[eh->e_shstrndx].sh_size))
		goto out;
	shstr = buf + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < nsec; i++) {
		if (sh[i].sh_name >= sh[eh->e_shstrndx].sh_size)
			continue;
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
		if (strnlen(shstr + sh[i].sh_name, sh[eh->e_shstrndx].sh_size -
			    sh[i].sh_name) == strlen(sec) &&
		    !memcmp(shstr + sh[i].sh_name, sec, strlen(sec)) &&
		    (sh[i].sh_flags & SHF_EXECINSTR)) {
			target = &sh[i];
			ti = i;
		}
	}
	if (!target || off >= target->sh_size)
		goto out;
	rc = 1;
	if (!symtab || symtab->sh_link >= nsec || symtab->sh_entsize != sizeof(struct elf64_sym) ||
	    symtab->sh_offset % 8 || !in_file(len, symtab->sh_offset, symtab->sh_size) ||
	    !in_file(len, sh[symtab->sh_link].sh_offset, sh[symtab->sh_link].sh_size) ||
	    !sh[symtab->sh_link].sh_size)
		goto out;
	/* Every name ends within the table. */
	if (buf[sh[symtab->sh_link].sh_offset + sh[symtab->sh_link].sh_size - 1])
		goto out;
	sym = (const struct elf64_sym *)(buf + symtab->sh_offset);
	nsym = symtab->sh_size / sizeof(*sym);
	str = buf + sh[symtab->sh_link].sh_offset;
	for (i = 0; i < nsym; i++) {
		int type = ELF64_ST_TYPE(sym[i].st_info);

		if (sym[i].st_shndx != ti || sym[i].st_value > off ||
		    (type != STT_FUNC && type != STT_NOTYPE) ||
		    sym[i].st_name >= sh[symtab->sh_link].sh_size ||
		    !str[sym[i].st_name] || str[sym[i].st_name] == '$' ||
		    !strncmp(str + sym[i].st_name, ".L", 2))
			continue;
		if (sym[i].st_size && off - sym[i].st_value >= sym[i].st_size)
			continue;
		if (!best || sym[i].st_value > best->st_value ||
		    (sym[i].st_value == best->st_value &&
		     sym_better(str + sym[i].st_name, type, str + best->st_name,
				ELF64_ST_TYPE(best->st_info))))
			best = &sym[i];
	}
	if (!best)
		goto out;
	i = strnlen(str + best->st_name, sh[symtab->sh_link].sh_size - best->st_name);
	snprintf(p->func, sizeof(p->func), "%.*s", (int)i, str + best->st_name);
	p->func_off = off - best->st_value;
	p->func_size = best->st_size;
	rc = 0;
out:
	free(buf);
	return rc;
}

/*
 * Where @pc is among the module sections the runner reported in
 * @results: fills @p (its func empty when no symbol covers it); 0 when
 * @pc is in one of them.
 */
static int module_place(const struct opts *o, unsigned long long pc,
			struct modplace *p)
{
	char line[512], name[64], sec[64];
	unsigned long long addr;
	int found = -1;
	size_t n;
	FILE *f;

	if (!o->results || !o->modules)
		return -1;
	f = fopen(o->results, "r");
	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		const char *a;

		if (sscanf(line, "# runner: module %63s section %63s", name, sec) != 2)
			continue;
		a = strstr(line, " section ");
		a = a ? strchr(a + 9, ' ') : NULL;
		if (!a || strncmp(a, " 0x", 3))
			continue;
		n = parse_hex(a + 3, &addr);
		if (!n || pc < addr)
			continue;
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", name);
		snprintf(p->section, sizeof(p->section), "%s", sec);
		if (!find_ko(o->modules, name, p->path, sizeof(p->path), 0))
			continue;
		p->off = pc - addr;
		/* A section of the module that holds the PC: the right one. */
		if (ko_symbolise(p->path, sec, p->off, p) >= 0)
			found = 0;
	}
	fclose(f);
	return found;
}

/* ---- the report ---- */

/* The length of @name without a clone suffix (".isra.0", ".cold"). */
static int base_len(const char *name)
{
	return (int)strcspn(name, ".");
}

/* Whether @name, without a clone suffix, is one of @table's @n names. */
static int in_table(const char *name, const char * const *table, size_t n)
{
	size_t i, len = base_len(name);

	for (i = 0; i < n; i++)
		if (strlen(table[i]) == len && !strncmp(table[i], name, len))
			return 1;
	return 0;
}

static int is_spinner(const char *name)
{
	return in_table(name, spinners, ARRAY_SIZE(spinners));
}

/* Print "KIND<TAB>address<TAB>sym+0xoff/0xsize"; returns the symbol. */
static const struct sym *put_addr(const struct symtab *st, const char *kind,
				  unsigned long long a)
{
	const struct sym *y = NULL;
	unsigned long long size = 0;

	if (in_text(st, a))
		y = map_find(st, a, &size);
	printf("%s\t%016llx\t", kind, a);
	if (y)
		printf("%s+0x%llx/0x%llx\n", y->name, a - y->addr, size);
	else
		printf("-\n");
	return y;
}

/*
 * A candidate return address: in kernel text and not a function's first
 * byte (a call comes before a return address: that is a pointer).
 */
static int is_return(const struct symtab *st, unsigned long long a)
{
	const struct sym *y;
	unsigned long long size;

	if (!in_text(st, a))
		return 0;
	y = map_find(st, a, &size);
	return y && y->addr != a;
}

/* The candidate return addresses: the link register, then the stack. */
static size_t frames_of(const struct symtab *st, const struct cpu *c,
			unsigned long long *f)
{
	size_t i, j, n = 0;
	unsigned long long a;

	for (i = 0; i < c->nr_words + 1 && n < FRAMES_MAX; i++) {
		if (i == 0 && !c->has_lr)
			continue;
		a = i ? c->word[i - 1] : c->lr;
		if (!is_return(st, a))
			continue;
		for (j = 0; j < n && f[j] != a; j++)
			;
		if (j == n)
			f[n++] = a;
	}
	return n;
}

/* Where both arches map the kernel and its modules: the upper half. */
#define KERNEL_HALF	0xffff000000000000ULL

/*
 * How busy a CPU looks: 3 in a kernel function or module, 2 in user
 * space, 1 in a spinner, 0 no PC.
 */
static int pc_rank(const struct symtab *st, unsigned long long pc)
{
	const struct sym *y;
	unsigned long long size;

	if (!in_text(st, pc))
		return pc >= KERNEL_HALF ? 3 : 2;
	y = map_find(st, pc, &size);
	return y && !is_spinner(y->name) ? 3 : 1;
}

/* Whether @pc is in the idle loop. */
static int pc_idle(const struct symtab *st, unsigned long long pc)
{
	unsigned long long size;
	const struct sym *y;

	if (!in_text(st, pc))
		return 0;
	y = map_find(st, pc, &size);
	return y && in_table(y->name, idlers, ARRAY_SIZE(idlers));
}

/*
 * Whether every CPU idles: at least half of each CPU's snapshots in the
 * idle loop (an idle CPU is now and then caught in an interrupt).
 */
static int all_idle(const struct symtab *st, const struct capture *c)
{
	size_t i, j, idle, cpus = 0;

	for (i = 0; i < c->nr_cpus; i++) {
		const struct cpu *p = &c->cpu[i];

		if (!p->has_pc || !p->nr_seen)
			continue;
		for (idle = 0, j = 0; j < p->nr_seen; j++)
			idle += pc_idle(st, p->seen[j]);
		if (2 * idle < p->nr_seen)
			return 0;
		cpus++;
	}
	return cpus > 0;
}

/*
 * The busiest CPU: the highest sum of ranks over its snapshots (an idle
 * CPU caught once in an interrupt loses to one stuck in code every
 * time), then the highest rank now, then the first.
 */
static size_t pick_cpu(const struct symtab *st, const struct capture *c)
{
	size_t i, j, best = 0;
	int sum, now, top_sum = -1, top_now = -1;

	for (i = 0; i < c->nr_cpus; i++) {
		const struct cpu *p = &c->cpu[i];

		if (!p->has_pc)
			continue;
		for (sum = 0, j = 0; j < p->nr_seen; j++)
			sum += pc_rank(st, p->seen[j]);
		now = pc_rank(st, p->pc);
		if (sum > top_sum || (sum == top_sum && now > top_now)) {
			top_sum = sum;
			top_now = now;
			best = i;
		}
	}
	return best;
}

/*
 * Where a PC is, to tell a CPU's usual place from one it passes through
 * (an interrupt): its function in kernel text (NULL where System.map
 * names none), else module code, else user space.
 */
static const void *pc_place(const struct symtab *st, unsigned long long pc)
{
	static const char module_code, user_space;
	unsigned long long size;

	if (in_text(st, pc))
		return map_find(st, pc, &size);
	return pc >= KERNEL_HALF ? (const void *)&module_code : (const void *)&user_space;
}

/*
 * Whether CPU @p's latest snapshot is in a place it was in at least as
 * often as in any other: its registers and stack then show its hang,
 * not an interrupt it was caught in.
 */
static int pc_usual(const struct symtab *st, const struct cpu *p)
{
	size_t i, j, n, most = 0, now = 0;
	const void *here = pc_place(st, p->pc), *w;

	for (i = 0; i < p->nr_seen; i++) {
		w = pc_place(st, p->seen[i]);
		for (n = 0, j = 0; j < p->nr_seen; j++)
			n += pc_place(st, p->seen[j]) == w;
		if (n > most)
			most = n;
		if (w == here)
			now = n;
	}
	return now == most;
}

static int report(const struct symtab *st, struct capture *cap,
		  const char *what, const struct opts *o)
{
	const struct sym *pc, *y, *caller = NULL;
	unsigned long long f[FRAMES_MAX];
	static struct modplace mp;
	const struct cpu *c;
	int in_mod = -1;
	size_t i, n;

	cap->pick = pick_cpu(st, cap);
	c = &cap->cpu[cap->pick];
	if (!c->has_pc)
		die("%s: no PC in the monitor's output", what);
	if (all_idle(st, cap))
		printf("idle\t%zu\n", cap->nr_cpus);
	if (cap->nr_cpus > 1)
		printf("cpu\t%zu\t%zu\n", cap->pick, cap->nr_cpus);
	if (!in_text(st, c->pc) && c->pc >= KERNEL_HALF)
		in_mod = module_place(o, c->pc, &mp);
	if (!in_mod && mp.func[0]) {
		printf("module\t%s\t%s\t0x%llx\t%s\n", mp.name, mp.section, mp.off, mp.path);
		printf("pc\t%016llx\t%s+0x%llx/0x%llx [%s]\n", c->pc, mp.func, mp.func_off,
		       mp.func_size, mp.name);
		n = frames_of(st, c, f);
		for (i = 0; i < n; i++)
			put_addr(st, "frame", f[i]);
		printf("title\thang in %.*s [%s]\n", base_len(mp.func), mp.func, mp.name);
		return HANG_OK;
	}
	pc = put_addr(st, "pc", c->pc);
	n = frames_of(st, c, f);
	for (i = 0; i < n; i++) {
		y = put_addr(st, "frame", f[i]);
		if (!caller && y && !is_spinner(y->name))
			caller = y;
	}
	if (!pc && c->pc >= KERNEL_HALF && caller) {
		/* A module's: named by the kernel function it was called from. */
		printf("title\thang in module code called from %.*s\n",
		       base_len(caller->name), caller->name);
		return HANG_OK;
	}
	if (!pc) {
		printf("title\thang outside the kernel (pc %016llx)\n", c->pc);
		return HANG_OUTSIDE;
	}
	if (!is_spinner(pc->name) || !caller)
		printf("title\thang in %.*s\n", base_len(pc->name), pc->name);
	else
		printf("title\thang in %.*s (spinning in %.*s)\n",
		       base_len(caller->name), caller->name,
		       base_len(pc->name), pc->name);
	return HANG_OK;
}

/* ---- the monitor ---- */

struct mon {
	int fd;
	char *buf;		/* all output so far, NUL-terminated */
	size_t len, cap;
	int timeout_ms;
	char err[256];		/* why the last call failed */
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until @fd is ready for @events or @deadline; 0, or -1 (err). */
static int mon_poll(struct mon *m, short events, long long deadline,
		    const char *what)
{
	struct pollfd p = { .fd = m->fd, .events = events };
	long long left;
	int rc;

	for (;;) {
		left = deadline - now_ms();
		if (left <= 0) {
			snprintf(m->err, sizeof(m->err),
				 "no answer to %s within %d ms", what,
				 m->timeout_ms);
			return -1;
		}
		rc = poll(&p, 1, (int)left);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR) {
			snprintf(m->err, sizeof(m->err), "poll: %s",
				 strerror(errno));
			return -1;
		}
	}
}

/* Read one chunk of output; 0, or -1 (err) at its end or an error. */
static int mon_read(struct mon *m, const char *what)
{
	ssize_t n;

	if (m->cap - m->len < 4097) {
		m->cap = m->cap ? m->cap * 2 : 65536;
		m->buf = xrealloc(m->buf, m->cap);
	}
	n = read(m->fd, m->buf + m->len, m->cap - m->len - 1);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		snprintf(m->err, sizeof(m->err), "%s: %s", what,
			 n ? strerror(errno) : "the monitor closed the connection");
		return -1;
	}
	m->len += n;
	m->buf[m->len] = '\0';
	if (m->len > RAW_MAX) {
		snprintf(m->err, sizeof(m->err), "%s: more than %d bytes of output",
			 what, RAW_MAX);
		return -1;
	}
	return 0;
}

/* Read until the output since @from ends with the prompt. */
static int mon_prompt(struct mon *m, size_t from, const char *what)
{
	long long deadline = now_ms() + m->timeout_ms;
	size_t p = strlen(PROMPT);

	for (;;) {
		if (m->len - from >= p && !strcmp(m->buf + m->len - p, PROMPT))
			return 0;
		if (mon_poll(m, POLLIN, deadline, what) < 0 ||
		    mon_read(m, what) < 0)
			return -1;
	}
}

/* Send @cmd and read its output up to the next prompt. */
static int mon_cmd(struct mon *m, const char *cmd)
{
	long long deadline = now_ms() + m->timeout_ms;
	size_t from = m->len, off = 0, n = strlen(cmd);
	char line[CMD_MAX + 1];
	ssize_t w;

	snprintf(line, sizeof(line), "%s\n", cmd);
	n++;
	while (off < n) {
		if (mon_poll(m, POLLOUT, deadline, cmd) < 0)
			return -1;
		w = send(m->fd, line + off, n - off, MSG_NOSIGNAL);
		if (w < 0 && errno != EINTR && errno != EAGAIN) {
			snprintf(m->err, sizeof(m->err), "%s: %s", cmd,
				 strerror(errno));
			return -1;
		}
		off += w > 0 ? w : 0;
	}
	return mon_prompt(m, from, cmd);
}

/* Connect to the unix socket @path. */
static int mon_open(struct mon *m, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(m->err, sizeof(m->err), "socket path too long: %s",
			 show(path, strlen(path)));
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	m->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (m->fd < 0 || connect(m->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		snprintf(m->err, sizeof(m->err), "cannot connect to %s: %s",
			 show(path, strlen(path)), strerror(errno));
		return -1;
	}
	return 0;
}

/* Connect to the monitor at @path and wait for its prompt. */
static int mon_connect(struct mon *m, const char *path)
{
	if (mon_open(m, path) < 0)
		return -1;
	return mon_prompt(m, 0, "the connection");
}

/* The whole capture: prompt, registers, stack, CPUs. */
static int mon_capture(struct mon *m, const struct symtab *st,
		       const struct opts *o)
{
	struct timespec gap = { 0, SNAP_GAP_MS * 1000000L };
	static struct capture c;
	char cmd[CMD_MAX];
	const struct cpu *busy;
	size_t i;

	if (mon_connect(m, o->monitor) < 0)
		return -1;
	for (i = 0; i < (size_t)o->snaps; i++) {
		if (i)
			nanosleep(&gap, NULL);
		if (mon_cmd(m, "info registers -a") < 0)
			return -1;
	}
	parse_capture(&c, o->arch, m->buf, m->len);
	/*
	 * The busiest CPU caught last away from where it mostly is (a
	 * timer interrupt in a module's busy loop): asked again, up to
	 * SNAPS_MAX snapshots in all, so that the stack read below and
	 * the report are of its hang.
	 */
	for (; i < SNAPS_MAX; i++) {
		busy = &c.cpu[pick_cpu(st, &c)];
		if (!busy->has_pc || pc_usual(st, busy))
			break;
		nanosleep(&gap, NULL);
		if (mon_cmd(m, "info registers -a") < 0)
			return -1;
		parse_capture(&c, o->arch, m->buf, m->len);
	}
	for (i = 0; i < c.nr_cpus; i++) {
		if (!c.cpu[i].has_sp)
			continue;
		snprintf(cmd, sizeof(cmd), "x/%dgx 0x%llx", STACK_WORDS, c.cpu[i].sp);
		if (mon_cmd(m, cmd) < 0)
			return -1;
	}
	if (mon_cmd(m, "info cpus") < 0)
		fprintf(stderr, "%s: warning: %s\n", prog, m->err);
	return 0;
}

static void save_raw(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

static int run_monitor(const struct symtab *st, const struct opts *o)
{
	struct mon m = { .fd = -1, .timeout_ms = o->timeout_ms };
	static struct capture c;
	int rc;

	rc = mon_capture(&m, st, o);
	if (m.fd >= 0)
		close(m.fd);
	if (o->raw)
		save_raw(o->raw, m.buf ? m.buf : "", m.len);
	if (rc < 0)
		die("monitor %s: %s", show(o->monitor, strlen(o->monitor)), m.err);
	parse_capture(&c, o->arch, m.buf, m.len);
	free(m.buf);
	return report(st, &c, o->monitor, o);
}

static int run_parse(const struct symtab *st, const struct opts *o)
{
	static struct capture c;
	size_t len;
	char *buf;
	FILE *f;

	f = fopen(o->parse, "rb");
	if (!f)
		die("cannot open %s: %s", o->parse, strerror(errno));
	buf = slurp(f, &len);
	if (!buf)
		die("cannot read %s: %s", o->parse, strerror(errno));
	fclose(f);
	parse_capture(&c, o->arch, buf, len);
	free(buf);
	return report(st, &c, o->parse, o);
}

/* ---- SysRq on the console ---- */

#define SYSRQ_GAP_MS	300	/* between a break, its key and the next */
#define SYSRQ_QUIET_MS	1000	/* no output this long: the guest is done */
#define SYSRQ_KEYS_MAX	8	/* keys a run presses, 2 * SYSRQ_GAP_MS each */
#define MUX_BREAK	"\001b"	/* a QEMU mux's "C-a b": send a break */
#define SYSRQ_KEYS	"0123456789abcdefghijklmnopqrstuvwxyz"

/*
 * Read and drop the guest's output for @ms, or until @quiet ms pass
 * without any when @quiet; a closed connection ends it too.
 */
static void sysrq_drain(struct mon *m, int ms, int quiet)
{
	long long end = now_ms() + ms, last = now_ms();

	for (;;) {
		long long t = now_ms();
		long long until = quiet && last + quiet < end ? last + quiet : end;

		if (t >= until)
			return;
		if (mon_poll(m, POLLIN, until, "the console") < 0)
			return;
		if (mon_read(m, "the console") < 0)
			return;
		m->len = 0;
		last = now_ms();
	}
}

static int sysrq_send(struct mon *m, const char *bytes)
{
	long long deadline = now_ms() + m->timeout_ms;
	size_t off = 0, n = strlen(bytes);
	ssize_t w;

	while (off < n) {
		if (mon_poll(m, POLLOUT, deadline, "the console") < 0)
			return -1;
		w = send(m->fd, bytes + off, n - off, MSG_NOSIGNAL);
		if (w < 0 && errno != EINTR && errno != EAGAIN) {
			snprintf(m->err, sizeof(m->err), "send: %s", strerror(errno));
			return -1;
		}
		off += w > 0 ? w : 0;
	}
	return 0;
}

static int run_sysrq(const struct opts *o)
{
	struct mon m = { .fd = -1, .timeout_ms = o->timeout_ms };
	long long end = now_ms() + o->timeout_ms;
	const char *k;
	char key[2] = "";
	int rc = 0;

	if (mon_open(&m, o->console) < 0)
		die("console %s: %s", show(o->console, strlen(o->console)), m.err);
	for (k = o->sysrq; *k && !rc; k++) {
		key[0] = *k;
		rc = sysrq_send(&m, MUX_BREAK);
		if (!rc) {
			sysrq_drain(&m, SYSRQ_GAP_MS, 0);
			rc = sysrq_send(&m, key);
		}
		if (!rc)
			sysrq_drain(&m, SYSRQ_GAP_MS, 0);
	}
	if (!rc && end > now_ms())
		sysrq_drain(&m, (int)(end - now_ms()), SYSRQ_QUIET_MS);
	close(m.fd);
	free(m.buf);
	if (rc)
		die("console %s: %s", show(o->console, strlen(o->console)), m.err);
	return HANG_OK;
}

/* ---- options ---- */

static const struct arch *arch_of(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	die("unknown --arch \"%s\" (x86_64 or arm64)", show(name, strlen(name)));
	return NULL;
}

/* The value of option @opt: a decimal from @lo to @hi. */
static int parse_int(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		die("--%s wants %ld to %ld, got \"%s\"", opt, lo, hi, show(s, strlen(s)));
	return (int)v;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "monitor",	required_argument, NULL, 'm' },
		{ "parse",	required_argument, NULL, 'p' },
		{ "arch",	required_argument, NULL, 'a' },
		{ "system-map",	required_argument, NULL, 's' },
		{ "raw",	required_argument, NULL, 'r' },
		{ "timeout-ms",	required_argument, NULL, 't' },
		{ "results",	required_argument, NULL, 'R' },
		{ "modules",	required_argument, NULL, 'M' },
		{ "snapshots",	required_argument, NULL, 'n' },
		{ "sysrq",	required_argument, NULL, 'q' },
		{ "console",	required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = TIMEOUT_MS;
	o->snaps = SNAPS;
	while ((opt = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		if (opt == 'm')
			o->monitor = optarg;
		else if (opt == 'p')
			o->parse = optarg;
		else if (opt == 'a')
			o->arch = arch_of(optarg);
		else if (opt == 's')
			o->map = optarg;
		else if (opt == 'r')
			o->raw = optarg;
		else if (opt == 'R')
			o->results = optarg;
		else if (opt == 'M')
			o->modules = optarg;
		else if (opt == 'q')
			o->sysrq = optarg;
		else if (opt == 'c')
			o->console = optarg;
		else if (opt == 'n')
			o->snaps = parse_int("snapshots", optarg, 1, SNAPS_MAX);
		else if (opt == 't')
			o->timeout_ms = parse_int("timeout-ms", optarg, 1, TIMEOUT_MAX);
		else
			bad_usage();
	}
	if (optind != argc)
		bad_usage();
	if (o->sysrq || o->console) {
		if (!o->sysrq || !o->console || o->monitor || o->parse || o->map ||
		    o->arch || o->raw || o->results || o->modules)
			bad_usage();
		if (!*o->sysrq || strlen(o->sysrq) > SYSRQ_KEYS_MAX ||
		    o->sysrq[strspn(o->sysrq, SYSRQ_KEYS)])
			die("--sysrq wants 1 to %d SysRq keys (0-9, a-z), got \"%s\"",
			    SYSRQ_KEYS_MAX, show(o->sysrq, strlen(o->sysrq)));
		return;
	}
	if (!o->arch || !o->map || !o->monitor == !o->parse || (o->parse && o->raw))
		bad_usage();
}

int main(int argc, char **argv)
{
	struct symtab st;
	struct opts o;
	int rc;

	parse_opts(argc, argv, &o);
	if (o.sysrq)
		return run_sysrq(&o);
	map_read(&st, o.map);
	if (o.monitor)
		rc = run_monitor(&st, &o);
	else
		rc = run_parse(&st, &o);
	map_free(&st);
	return rc;
}
