// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-check guest test runner.
 *
 * Runs as PID 1 (rdinit=/bisect/runner) in a QEMU guest booted from the
 * kernel of one step of the patch series, checks what the series claims
 * about kallsyms exports and samples/hw_breakpoint, prints the verdicts as
 * KTAP on the results port and powers the machine off. The port is the
 * one the kernel command line names as bisect_results=DEV (the kernel
 * hands it to init as an environment variable; default /dev/ttyS1).
 *
 * Every module load and unload, and every access to the watched variable,
 * happens in a forked child: an oops in such a syscall kills the child
 * only, while an oops in PID 1 would panic the guest.
 *
 * Built static for the guest's arch, see README; x86 powers off through
 * QEMU's isa-debug-exit port, other archs through the kernel (PSCI).
 */

#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/serial.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
/* Port I/O, for QEMU's isa-debug-exit: where the kernel has it (x86). */
#ifdef SYS_ioperm
#include <sys/io.h>
#define HAVE_DEBUG_EXIT_PORT	1
#endif

#include "../../tools/src/splat.h"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* Whole run; the host has its own, longer, timeout around QEMU. */
#ifndef WATCHDOG_SECS
#define WATCHDOG_SECS		60
#endif
/* One load, unload or file access in a child. */
#ifndef OP_TIMEOUT_SECS
#define OP_TIMEOUT_SECS		20
#endif
/* Grace period for a SIGKILLed child to be reaped. */
#define REAP_GRACE_MS		2000

#define RESULTS_TTY		"/dev/ttyS1"
#define RESULTS_ENV		"bisect_results"
#define FALLBACK_CONSOLE	"/dev/console"
#define FALLBACK_PREFIX		"BISECT: "

#define DEBUG_EXIT_PORT		0xf4

#define PANIC_SYSCTL		"/proc/sys/kernel/panic"
#define PANIC_VALUE		"-1\n"

#define LINE_MAX_LEN		1024
#define KMSG_REC_LEN		8192
#define KMSG_MAX_LINES		512
#define KMSG_LINE_LEN		256
#define KMSG_QUOTE_LINES	3
#define KMSG_QUOTE_LEN		200

#define MOD_PATH_LEN		512
#define MOD_SEARCH_DEPTH	8
#define WHY_LEN			1024

#define HANDLER_MSG		"value is changed"

/* ---------------------------------------------------------------- */
/* Results channel                                                   */

static int out_fd = -1;
static const char *out_prefix = "";

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		buf += n;
		len -= n;
	}
}

static bool open_fallback_console(void)
{
	int fd = open(FALLBACK_CONSOLE, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (out_fd >= 0)
		close(out_fd);
	out_fd = fd;
	out_prefix = FALLBACK_PREFIX;
	return true;
}

/* Formatted text of the line being printed; see emit(). */
static char emit_buf[LINE_MAX_LEN];

/* Print @text as one line with a single write(2). */
static void emit_text(const char *text, int len)
{
	char line[LINE_MAX_LEN + sizeof(FALLBACK_PREFIX)];
	size_t plen = strlen(out_prefix);
	size_t n;

	if (len < 0 || out_fd < 0)
		return;
	n = strnlen(text, LINE_MAX_LEN - 1);
	memcpy(line, out_prefix, plen);
	memcpy(line + plen, text, n);
	/* Keep KTAP line based whatever the text holds. */
	for (char *p = line + plen; p < line + plen + n; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	line[plen + n] = '\n';

	if (write(out_fd, line, plen + n + 1) == (ssize_t)(plen + n + 1))
		return;
	/* The results port went away: say so where the host can see it. */
	if (!plen && open_fallback_console()) {
		write_all(out_fd, out_prefix, strlen(out_prefix));
		write_all(out_fd, line, n + 1);
	}
}

/*
 * printf() one line to the results channel. A macro so that the compiler
 * checks the format string against snprintf()'s prototype.
 */
#define emit(...)	\
	emit_text(emit_buf, snprintf(emit_buf, sizeof(emit_buf), __VA_ARGS__))

/* An 8250 port with no UART behind it opens fine but cannot transmit. */
static bool serial_port_present(int fd)
{
	struct serial_struct ss;

	if (ioctl(fd, TIOCGSERIAL, &ss) < 0)
		return true;	/* not a serial driver we know; try it */
	return ss.type != PORT_UNKNOWN;
}

static void open_results(void)
{
	const char *dev = getenv(RESULTS_ENV);
	struct termios tio;
	int fd;

	if (!dev || strncmp(dev, "/dev/", 5))
		dev = RESULTS_TTY;
	fd = open(dev, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && serial_port_present(fd)) {
		if (tcgetattr(fd, &tio) == 0) {
			cfmakeraw(&tio);
			cfsetospeed(&tio, B115200);
			tcsetattr(fd, TCSANOW, &tio);
		}
		out_fd = fd;
		out_prefix = "";
		return;
	}
	if (fd >= 0)
		close(fd);
	open_fallback_console();
}

static void drain_results(void)
{
	if (out_fd < 0)
		return;
	fsync(out_fd);
	tcdrain(out_fd);
}

/* ---------------------------------------------------------------- */
/* Power off                                                         */

static void power_off(void)
{
	drain_results();

#ifdef HAVE_DEBUG_EXIT_PORT
	/* isa-debug-exit: QEMU exits as soon as the port is written. */
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) == 0)
		outb(0, DEBUG_EXIT_PORT);
#endif
	/*
	 * QEMU runs with -no-reboot, so a reset ends it. Try that before
	 * RB_POWER_OFF: without ACPI the kernel turns a power off into a
	 * halt, which never returns and leaves QEMU running.
	 */
	reboot(RB_AUTOBOOT);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static void on_alarm(int sig)
{
	static const char msg[] = "# runner: watchdog expired\n";

	(void)sig;
	if (out_fd >= 0) {
		write_all(out_fd, out_prefix, strlen(out_prefix));
		write_all(out_fd, msg, sizeof(msg) - 1);
	}
	power_off();
}

/* ---------------------------------------------------------------- */
/* Early setup                                                       */

static void mount_one(const char *src, const char *dir, const char *type)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return;
	mount(src, dir, type, MS_NOSUID | MS_NOEXEC, NULL);
	/* EBUSY: already mounted (e.g. devtmpfs automount); fine. */
}

/* PID 1 may start without fds 0-2 if the initramfs has no /dev/console. */
static void fix_std_fds(void)
{
	int fd;

	for (fd = 0; fd < 3; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		nfd = open(FALLBACK_CONSOLE, O_RDWR | O_NOCTTY);
		if (nfd < 0)
			nfd = open("/dev/null", O_RDWR);
		if (nfd < 0)
			return;
		if (nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
	}
}

/* ---------------------------------------------------------------- */
/* Error names                                                       */

struct errno_name {
	int err;
	const char *name;
};

/* E(NXIO) gives { ENXIO, "ENXIO" } */
#define E(x)	{ E##x, "E" #x }

static const struct errno_name errno_names[] = {
	E(PERM),
	E(NOENT),
	E(SRCH),
	E(INTR),
	E(IO),
	E(NXIO),
	E(2BIG),
	E(NOEXEC),
	E(BADF),
	E(CHILD),
	E(AGAIN),
	E(NOMEM),
	E(ACCES),
	E(FAULT),
	E(BUSY),
	E(EXIST),
	E(NODEV),
	E(NOTDIR),
	E(ISDIR),
	E(INVAL),
	E(NFILE),
	E(MFILE),
	E(TXTBSY),
	E(FBIG),
	E(NOSPC),
	E(ROFS),
	E(RANGE),
	E(DEADLK),
	E(NAMETOOLONG),
	E(NOSYS),
	E(NODATA),
	E(TIME),
	E(BADMSG),
	E(OVERFLOW),
	E(OPNOTSUPP),
	E(TIMEDOUT),
	E(CANCELED),
	E(NOKEY),
	E(KEYREJECTED),
};

#undef E

/* "-6 ENXIO (No such device or address)" */
static const char *errno_str(int err, char *buf, size_t len)
{
	const char *name = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			name = errno_names[i].name;
	snprintf(buf, len, "-%d %s (%s)", err, name ? name : "E?",
		 strerror(err));
	return buf;
}

/* ---------------------------------------------------------------- */
/* Kernel log                                                        */

static int kmsg_fd = -1;

/* What the kernel logged during one operation. */
struct kmsg_log {
	unsigned int total;
	unsigned int nquote;
	char quote[KMSG_QUOTE_LINES][KMSG_QUOTE_LEN + 4];
	bool bad;		/* BUG, Oops, WARNING, general protection */
	unsigned int handler;	/* data_breakpoint handler messages */
};

static char kmsg_lines[KMSG_MAX_LINES][KMSG_LINE_LEN];

/*
 * A bad message opens a splat, by the kernel's own formats (splat.h, the
 * same test as the host's triage). No "Call Trace" here: the sample's
 * own handler calls dump_stack() each time the watched symbol is touched
 * (e.g. pid_max by fork() in rmmod's child while a read/write breakpoint
 * is armed). A real BUG, Oops or WARN has its own line above its trace.
 */

/* Lines worth quoting first, in log order. */
static const char * const kmsg_notable_words[] = {
	"BUG", "Oops", "WARNING", "RIP: 0010:", "invalid opcode",
	"Unknown symbol", "symbol_get", "symbol_put", HANDLER_MSG,
	"Breakpoint", "kallsyms", "fail", "error", "Error",
};

static bool has_any(const char *s, const char * const *words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(s, words[i]))
			return true;
	return false;
}

static void kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

/* Forget everything logged so far. */
static void kmsg_mark(void)
{
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

static void kmsg_quote(struct kmsg_log *log, const char *msg)
{
	char *q = log->quote[log->nquote++];
	size_t len = strlen(msg);

	if (len > KMSG_QUOTE_LEN) {
		memcpy(q, msg, KMSG_QUOTE_LEN);
		strcpy(q + KMSG_QUOTE_LEN, "...");
	} else {
		memcpy(q, msg, len + 1);
	}
}

/* Read every record logged since kmsg_mark(). */
static void kmsg_collect(struct kmsg_log *log)
{
	static char rec[KMSG_REC_LEN];
	unsigned int stored = 0, i;
	bool notable = false;

	memset(log, 0, sizeof(*log));
	if (kmsg_fd < 0)
		return;

	for (;;) {
		ssize_t n = read(kmsg_fd, rec, sizeof(rec) - 1);
		char *msg, *end;

		if (n < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;	/* EPIPE: overwritten, skipped */
			break;			/* EAGAIN: nothing more */
		}
		if (n == 0)
			break;
		rec[n] = '\0';

		/* "prio,seq,ts,flags;message\n" then " KEY=value\n" lines */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		end = strchr(msg, '\n');
		if (end)
			*end = '\0';

		log->total++;
		if (splat_kind(msg) != SPLAT_NONE)
			log->bad = true;
		if (strstr(msg, HANDLER_MSG))
			log->handler++;
		if (stored < KMSG_MAX_LINES) {
			snprintf(kmsg_lines[stored], KMSG_LINE_LEN, "%s", msg);
			stored++;
		}
	}

	for (i = 0; i < stored; i++)
		if (has_any(kmsg_lines[i], kmsg_notable_words,
			    ARRAY_SIZE(kmsg_notable_words)))
			notable = true;

	for (i = 0; i < stored && log->nquote < KMSG_QUOTE_LINES; i++) {
		if (notable &&
		    !has_any(kmsg_lines[i], kmsg_notable_words,
			     ARRAY_SIZE(kmsg_notable_words)))
			continue;
		kmsg_quote(log, kmsg_lines[i]);
	}
}

static void kmsg_print(const char *id, const struct kmsg_log *log)
{
	unsigned int i;

	for (i = 0; i < log->nquote; i++)
		emit("# %s: kmsg: %s", id, log->quote[i]);
	if (log->total > log->nquote)
		emit("# %s: kmsg: [%u more line%s not shown]", id,
		     log->total - log->nquote,
		     log->total - log->nquote == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- */
/* Operations in a child                                             */

enum op_status {
	OP_OK,		/* child exited 0 */
	OP_ERRNO,	/* child exited with an errno */
	OP_SIGNAL,	/* child was killed, e.g. by an oops */
	OP_TIMEOUT,	/* child did not finish in time */
	OP_NORUN,	/* could not even start the child */
};

struct op_result {
	enum op_status status;
	int err;		/* OP_ERRNO, OP_NORUN */
	int sig;		/* OP_SIGNAL */
	struct kmsg_log log;
	char what[160];		/* "insmod data_breakpoint.ko ksym=..." */
};

/* Shared with the children, for data they hand back. */
struct child_page {
	char buf[256];
};

static struct child_page *child_page;

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Wait for @pid for at most @ms; true once it is reaped into @status. */
static bool wait_child(pid_t pid, long ms, int *status)
{
	struct timespec t0, ts;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	clock_gettime(CLOCK_MONOTONIC, &t0);

	for (;;) {
		long left;
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
			return false;
		left = ms - ms_since(&t0);
		if (left <= 0)
			return false;
		ts.tv_sec = left / 1000;
		ts.tv_nsec = (left % 1000) * 1000000;
		sigtimedwait(&chld, NULL, &ts);
	}
}

/*
 * Run fn(arg) in a child and log what the kernel says meanwhile. The
 * child's exit code is 0 or an errno.
 */
static void run_op(struct op_result *res, int (*fn)(const void *),
		   const void *arg)
{
	int status;
	pid_t pid;

	res->status = OP_OK;
	res->err = 0;
	res->sig = 0;

	kmsg_mark();
	pid = fork();
	if (pid < 0) {
		res->status = OP_NORUN;
		res->err = errno;
		memset(&res->log, 0, sizeof(res->log));
		return;
	}
	if (pid == 0) {
		int err = fn(arg);

		_exit(err > 0 && err < 256 ? err : (err ? 255 : 0));
	}

	if (!wait_child(pid, OP_TIMEOUT_SECS * 1000L, &status)) {
		kill(pid, SIGKILL);
		/* A child stuck in the kernel may never go; leave it. */
		wait_child(pid, REAP_GRACE_MS, &status);
		res->status = OP_TIMEOUT;
	} else if (WIFSIGNALED(status)) {
		res->status = OP_SIGNAL;
		res->sig = WTERMSIG(status);
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		res->status = OP_ERRNO;
		res->err = WEXITSTATUS(status);
	}
	kmsg_collect(&res->log);
}

static const char *op_outcome(const struct op_result *res, const char *ok,
			      char *buf, size_t len)
{
	char e[128];

	switch (res->status) {
	case OP_OK:
		snprintf(buf, len, "%s", ok);
		break;
	case OP_ERRNO:
		snprintf(buf, len, "%s", errno_str(res->err, e, sizeof(e)));
		break;
	case OP_SIGNAL:
		snprintf(buf, len, "killed by signal %d (%s)", res->sig,
			 strsignal(res->sig));
		break;
	case OP_TIMEOUT:
		snprintf(buf, len, "timed out after %d s", OP_TIMEOUT_SECS);
		break;
	case OP_NORUN:
		snprintf(buf, len, "fork failed: %s",
			 errno_str(res->err, e, sizeof(e)));
		break;
	}
	return buf;
}

/* "# id: insmod x.ko: loaded" and the kernel's own words. */
static void op_report(const char *id, const struct op_result *res,
		      const char *ok)
{
	char buf[256];

	op_outcome(res, ok, buf, sizeof(buf));
	emit("# %s: %s: %s", id, res->what, buf);
	kmsg_print(id, &res->log);
}

/* ---------------------------------------------------------------- */
/* Modules                                                           */

static char mod_dir[MOD_PATH_LEN];

static bool find_file(const char *dir, const char *name, char *out,
		      size_t len, int depth)
{
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (depth > MOD_SEARCH_DEPTH)
		return false;
	d = opendir(dir);
	if (!d)
		return false;

	while (!found && (de = readdir(d))) {
		char path[MOD_PATH_LEN];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(path))
			continue;
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			found = find_file(path, name, out, len, depth + 1);
		} else if (S_ISREG(st.st_mode) && !strcmp(de->d_name, name)) {
			snprintf(out, len, "%s", path);
			found = true;
		}
	}
	closedir(d);
	return found;
}

struct load_arg {
	int fd;
	const char *params;
};

#define IDENT_MAX_MODULES	16

/*
 * "# identity: srcversion <module> <hash>" once per module that loaded:
 * the host compares it with the srcversion of the step's .ko, so a
 * module of another build is caught (booted X, built Y).
 */
static void report_srcversion(const char *file)
{
	static char seen[IDENT_MAX_MODULES][64];
	static unsigned int nseen;
	char name[64], path[MOD_PATH_LEN], buf[64];
	unsigned int i;
	ssize_t n;
	char *p;
	int fd;

	snprintf(name, sizeof(name), "%s", file);
	p = strstr(name, ".ko");
	if (p)
		*p = '\0';
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i], name))
			return;
	if (nseen < IDENT_MAX_MODULES)
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", name);
	snprintf(path, sizeof(path), "/sys/module/%s/srcversion", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		emit("# identity: srcversion %s none (%s)", name, strerror(errno));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	emit("# identity: srcversion %s %s", name, *buf ? buf : "none");
}

static int do_load(const void *p)
{
	const struct load_arg *arg = p;

	if (syscall(SYS_finit_module, arg->fd, arg->params, 0) < 0)
		return errno;
	return 0;
}

static int do_unload(const void *p)
{
	if (syscall(SYS_delete_module, (const char *)p, O_NONBLOCK) < 0)
		return errno;
	return 0;
}

/*
 * insmod @file with @params. Returns false, with @why filled in, if the
 * module file cannot be found or opened.
 */
static bool load_module(const char *file, const char *params,
			struct op_result *res, char *why, size_t len)
{
	char path[MOD_PATH_LEN], e[128];
	struct load_arg arg;

	snprintf(res->what, sizeof(res->what), "insmod %s%s%s", file,
		 *params ? " " : "", params);

	if (!find_file(mod_dir, file, path, sizeof(path), 0)) {
		snprintf(why, len, "%s not found under %s", file, mod_dir);
		return false;
	}
	arg.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (arg.fd < 0) {
		snprintf(why, len, "cannot open %s: %s", path,
			 errno_str(errno, e, sizeof(e)));
		return false;
	}
	arg.params = params;
	run_op(res, do_load, &arg);
	close(arg.fd);
	if (res->status == OP_OK)
		report_srcversion(file);
	return true;
}

/* The test itself could not run: no child, or it never came back. */
static bool op_broken(const struct op_result *res)
{
	return res->status == OP_NORUN || res->status == OP_TIMEOUT;
}

static void unload_module(const char *name, struct op_result *res)
{
	snprintf(res->what, sizeof(res->what), "rmmod %s", name);
	run_op(res, do_unload, name);
}

/* ---------------------------------------------------------------- */
/* /proc/sys/kernel/panic, i.e. panic_timeout                        */

static int do_write_panic(const void *p)
{
	const char *val = p;
	ssize_t n;
	int fd;

	fd = open(PANIC_SYSCTL, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		return errno;
	if (close(fd) < 0)
		return errno;
	return n == (ssize_t)strlen(val) ? 0 : EIO;
}

static int do_read_panic(const void *p)
{
	char *buf = child_page->buf;
	ssize_t n;
	int fd;

	(void)p;
	fd = open(PANIC_SYSCTL, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = read(fd, buf, sizeof(child_page->buf) - 1);
	if (n < 0)
		return errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void write_panic(struct op_result *res)
{
	snprintf(res->what, sizeof(res->what), "write \"-1\" to %s",
		 PANIC_SYSCTL);
	run_op(res, do_write_panic, PANIC_VALUE);
}

static void read_panic(struct op_result *res)
{
	snprintf(res->what, sizeof(res->what), "read %s", PANIC_SYSCTL);
	child_page->buf[0] = '\0';
	run_op(res, do_read_panic, NULL);
}

/* ---------------------------------------------------------------- */
/* KTAP                                                              */

static int test_num;

static void result(bool ok, const char *id)
{
	emit("%s %d %s", ok ? "ok" : "not ok", ++test_num, id);
}

/* Reason of the ERROR being printed; see result_error(). */
/* Whether the host told the runner not to run test @id on this target:
 * kernel parameter bisect_skip=id,id,... (init's environment).
 */
static bool told_to_skip(const char *id)
{
	const char *p = getenv("bisect_skip");
	size_t n = strlen(id), len;

	while (p && *p) {
		len = strcspn(p, ",");
		if (len == n && !strncmp(p, id, n))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

/* Report test @id as skipped, and return true, when it is not run here. */
static bool skipped_here(const char *id)
{
	if (!told_to_skip(id))
		return false;
	emit("ok %d %s # SKIP not run on this target (bisect_skip)", ++test_num, id);
	return true;
}

static char error_buf[LINE_MAX_LEN];

static void result_error_text(const char *id, const char *why, int len)
{
	if (len >= 0)
		emit("not ok %d %s # ERROR %s", ++test_num, id, why);
}

/* "not ok N id # ERROR <printf(...)>": the test could not run. */
#define result_error(id, ...)						\
	result_error_text(id, error_buf,				\
			  snprintf(error_buf, sizeof(error_buf), __VA_ARGS__))

/* Tests 1 and 2: does a module calling @file's kallsyms function load? */
static void test_probe(const char *id, const char *file, const char *name)
{
	struct op_result res;
	char why[WHY_LEN];

	if (skipped_here(id))
		return;
	if (!load_module(file, "", &res, why, sizeof(why))) {
		result_error(id, "%s", why);
		return;
	}
	op_report(id, &res, "loaded");
	if (op_broken(&res)) {
		result_error(id, "%s: %s", res.what,
			     op_outcome(&res, "", why, sizeof(why)));
		return;
	}
	if (res.status == OP_OK) {
		struct op_result un;

		unload_module(name, &un);
		op_report(id, &un, "ok");
	}
	result(res.status == OP_OK, id);
}

#define HWBP_FILE		"data_breakpoint.ko"
#define HWBP_NAME		"data_breakpoint"
#define HWBP_MAX_UNLOADS	4

/* Every rmmod of data_breakpoint, for the verdict of hwbp-unload. */
static struct op_result hwbp_unloads[HWBP_MAX_UNLOADS];
static unsigned int hwbp_nunloads;
static bool hwbp_ever_loaded;

static void hwbp_unload(const char *id)
{
	struct op_result *un;

	if (hwbp_nunloads >= HWBP_MAX_UNLOADS)
		return;
	un = &hwbp_unloads[hwbp_nunloads++];
	unload_module(HWBP_NAME, un);
	op_report(id, un, "ok");
}

static bool hwbp_load(const char *id, const char *params,
		      struct op_result *res, char *why, size_t len)
{
	if (!load_module(HWBP_FILE, params, res, why, len))
		return false;
	op_report(id, res, "loaded");
	if (res->status == OP_OK)
		hwbp_ever_loaded = true;
	return true;
}

/* Tests 3 and 4: does data_breakpoint load with @params? */
static void test_hwbp_load(const char *id, const char *params)
{
	struct op_result res;
	char why[WHY_LEN];

	if (skipped_here(id))
		return;
	if (!hwbp_load(id, params, &res, why, sizeof(why))) {
		result_error(id, "%s", why);
		return;
	}
	if (op_broken(&res)) {
		result_error(id, "%s: %s", res.what,
			     op_outcome(&res, "", why, sizeof(why)));
		return;
	}
	if (res.status == OP_OK)
		hwbp_unload(id);
	result(res.status == OP_OK, id);
}

/* Tests 5 and 6 share one load of data_breakpoint on panic_timeout. */
static void test_hwbp_access(void)
{
	static const char * const wid = "hwbp-write";
	static const char * const rid = "hwbp-read-ignored";
	struct op_result load, wr, rd, fix;
	unsigned int write_hits = 0;
	char why[WHY_LEN], e[256];

	/*
	 * Loaded and unloaded even when neither access is made here: the
	 * verdict of hwbp-unload counts this rmmod too.
	 */
	if (!hwbp_load(wid, "ksym=panic_timeout", &load, why, sizeof(why))) {
		if (!skipped_here(wid))
			result_error(wid, "could not load data_breakpoint ksym=panic_timeout: %s",
				     why);
		if (!skipped_here(rid))
			result_error(rid, "data_breakpoint ksym=panic_timeout not loaded");
		goto restore;
	}
	if (load.status != OP_OK) {
		op_outcome(&load, "", e, sizeof(e));
		if (!skipped_here(wid))
			result_error(wid, "could not load data_breakpoint ksym=panic_timeout: %s",
				     e);
		if (!skipped_here(rid))
			result_error(rid, "data_breakpoint ksym=panic_timeout not loaded");
		goto restore;
	}

	/* 5: a write to panic_timeout must fire the handler. */
	if (skipped_here(wid))
		goto read;
	write_panic(&wr);
	op_report(wid, &wr, "ok");
	if (wr.status != OP_OK) {
		result_error(wid, "%s: %s", wr.what,
			     op_outcome(&wr, "", e, sizeof(e)));
	} else {
		write_hits = wr.log.handler;
		emit("# %s: handler fired %u time%s during the write", wid,
		     write_hits, write_hits == 1 ? "" : "s");
		result(write_hits > 0, wid);
	}

read:
	/* 6: a read of panic_timeout must not. */
	if (skipped_here(rid)) {
		hwbp_unload(rid);
		goto restore;
	}
	read_panic(&rd);
	op_report(rid, &rd, "ok");
	if (rd.status == OP_OK) {
		emit("# %s: read \"%s\"; handler fired %u time%s during the read",
		     rid, child_page->buf, rd.log.handler,
		     rd.log.handler == 1 ? "" : "s");
		if (!write_hits)
			emit("# %s: note: the handler did not fire on the write either",
			     rid);
	}

	/* Unload before the verdict so its lines precede "ok 6". */
	hwbp_unload(rid);

	if (rd.status != OP_OK)
		result_error(rid, "%s: %s", rd.what,
			     op_outcome(&rd, "", e, sizeof(e)));
	else
		result(rd.log.handler == 0, rid);

restore:
	/* Keep a later panic rebooting at once, as panic=-1 asked. */
	write_panic(&fix);
	if (fix.status != OP_OK)
		op_report("runner", &fix, "ok");
}

/* Test 7: did every rmmod of data_breakpoint go cleanly? */
static void test_hwbp_unload(void)
{
	static const char * const id = "hwbp-unload";
	bool ok = true;
	unsigned int i;

	if (skipped_here(id))
		return;
	if (!hwbp_ever_loaded) {
		result_error(id, "data_breakpoint never loaded, nothing to unload");
		return;
	}
	for (i = 0; i < hwbp_nunloads; i++) {
		const struct op_result *un = &hwbp_unloads[i];

		if (un->status == OP_TIMEOUT || un->status == OP_NORUN) {
			char e[256];

			result_error(id, "%s: %s", un->what,
				     op_outcome(un, "", e, sizeof(e)));
			return;
		}
		if (un->status == OP_OK && !un->log.bad)
			continue;
		ok = false;
		op_report(id, un, "ok");
	}
	emit("# %s: %u rmmod%s of data_breakpoint, %s", id, hwbp_nunloads,
	     hwbp_nunloads == 1 ? "" : "s", ok ? "all clean" : "some failed");
	result(ok, id);
}

int main(void)
{
	struct sigaction sa;
	struct utsname uts;
	sigset_t chld;

	/* Until the results port is open, nothing can be reported anyway. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(WATCHDOG_SECS);

	/* waitpid() with a timeout sleeps in sigtimedwait() for SIGCHLD. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);

	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	mount_one("devtmpfs", "/dev", "devtmpfs");
	fix_std_fds();

	open_results();
	kmsg_open();

	child_page = mmap(NULL, sizeof(*child_page), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (child_page == MAP_FAILED)
		child_page = calloc(1, sizeof(*child_page));

	if (uname(&uts) < 0) {
		strcpy(uts.release, "unknown");
		strcpy(uts.version, "unknown");
	}
	snprintf(mod_dir, sizeof(mod_dir), "/lib/modules/%s", uts.release);

	emit("KTAP version 1");
	emit("1..7");
	emit("# runner: kernel %s", uts.release);
	/* Which kernel booted: the host compares it with what it built. */
	emit("# identity: uname-r %s", uts.release);
	emit("# identity: uname-v %s", uts.version);
	if (kmsg_fd < 0)
		emit("# runner: cannot read /dev/kmsg: %s", strerror(errno));

	test_probe("kallsyms-lookup-name", "kallsyms_lookup_probe.ko",
		   "kallsyms_lookup_probe");
	test_probe("kallsyms-on-each-symbol", "kallsyms_each_probe.ko",
		   "kallsyms_each_probe");
	test_hwbp_load("hwbp-unexported", "ksym=pid_max");
	test_hwbp_load("hwbp-default-load", "");
	test_hwbp_access();
	test_hwbp_unload();

	emit("# runner: done");
	power_off();
	return 0;
}
