// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-check guest test runner.
 *
 * Runs as PID 1 (rdinit=/bisect/runner) in a QEMU guest booted from the
 * kernel of one step of a patch series. It interprets the test program
 * the host put into the initramfs (/bisect/program, or bisect_program=PATH
 * on the kernel command line; the format is in README): tests, and the
 * operations that set them up and check them (load or unload a module,
 * write or read a file, read a KUnit suite's results, run a program).
 * It prints the verdicts as KTAP on the results port and powers the
 * machine off. The port is the one the kernel command line names as
 * bisect_results=DEV (the kernel hands it to init as an environment
 * variable; default /dev/ttyS1).
 *
 * Every operation runs in a forked child, waited for with a timeout: an
 * oops in such a syscall kills the child only, while an oops in PID 1
 * would panic the guest.
 *
 * Built static for the guest's arch, see README; x86 powers off through
 * QEMU's isa-debug-exit port, other archs through the kernel (PSCI).
 */

#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

#include "guestop.h"
#include "splat.h"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* Whole run; the host has its own, longer, timeout around QEMU. */
#ifndef WATCHDOG_SECS
#define WATCHDOG_SECS		60
#endif
/* One operation in a child. */
#ifndef OP_TIMEOUT_SECS
#define OP_TIMEOUT_SECS		20
#endif
/* Grace period for a SIGKILLed child to be reaped. */
#define REAP_GRACE_MS		2000
/* A load still running this long says where its module's code is. */
#ifndef SLOW_OP_MS
#define SLOW_OP_MS		3000
#endif
/* How often a program's output is looked at for its end. */
#define POLL_SLICE_MS		200

#define RESULTS_TTY		"/dev/ttyS1"
#define RESULTS_ENV		"bisect_results"
#define FALLBACK_CONSOLE	"/dev/console"
#define FALLBACK_PREFIX		"BISECT: "
#define SKIP_ENV		"bisect_skip"
#define SKIP_CASES_ENV		"bisect_skip_cases"
#define SKIP_DECLARED		"declared for this target"
#define PROGRAM_PATH		"/bisect/program"
#define PROGRAM_ENV		"bisect_program"

#define DEBUG_EXIT_PORT		0xf4

#define DEBUGFS_DIR		"/sys/kernel/debug"
#define KUNIT_DIR		DEBUGFS_DIR "/kunit"

#define LINE_MAX_LEN		1024
#define KMSG_REC_LEN		8192
#define KMSG_MAX_LINES		512
#define KMSG_LINE_LEN		256
#define KMSG_QUOTE_LINES	3
#define QUOTE_LEN		200

#define MOD_PATH_LEN		512
#define MOD_SEARCH_DEPTH	8
#define WHAT_LEN		512
#define WHY_LEN			1024

/* The test program: limits that keep every table bounded (more in guestop.h). */
#define PROG_MAX_SIZE		(256 * 1024)
#define PROG_LINE_LEN		1023	/* characters, without the newline */

/* A program's output, a file read in a child, a KUnit suite's results. */
#define OUT_BUF_LEN		(128 * 1024)
#define TEXT_MAX_LINES		4096
#define CASE_DIAG_LINES		3
#define OUT_QUOTE_LINES		3

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

/* The errno called @name ("ENXIO"), or 0. */
static int errno_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (!strcmp(errno_names[i].name, name))
			return errno_names[i].err;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Kernel log                                                        */

static int kmsg_fd = -1;

/* What the kernel logged during one operation. */
struct kmsg_log {
	unsigned int total;
	unsigned int nquote;
	char quote[KMSG_QUOTE_LINES][QUOTE_LEN + 4];
	bool bad;		/* a splat: BUG, Oops, WARNING, panic */
	unsigned int matched;	/* lines holding the operation's match= */
};

static char kmsg_lines[KMSG_MAX_LINES][KMSG_LINE_LEN];

/*
 * A bad message opens a splat, by the kernel's own formats (splat.h, the
 * same test as the host's triage). No "Call Trace" here: code under test
 * may call dump_stack() on purpose (a sample's handler does, each time
 * its watched symbol is touched). A real BUG, Oops or WARN has its own
 * line above its trace.
 */

/* Lines worth quoting first, in log order. */
static const char * const kmsg_notable_words[] = {
	"BUG", "Oops", "WARNING", "RIP: 0010:", "invalid opcode",
	"Unknown symbol", "symbol_get", "symbol_put",
	"fail", "error", "Error",
};

/* Every match= of the program: what its checks look for is notable too. */
static const char *match_words[GUEST_MAX_OPS];
static unsigned int nmatch_words;

static bool has_any(const char *s, const char * const *words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(s, words[i]))
			return true;
	return false;
}

static bool kmsg_notable(const char *s)
{
	return has_any(s, kmsg_notable_words, ARRAY_SIZE(kmsg_notable_words)) ||
	       has_any(s, match_words, nmatch_words);
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

/* "prio,seq,ts,flags;message\n" then " KEY=value\n" lines: the message. */
static char *kmsg_text(char *rec)
{
	char *msg = strchr(rec, ';');

	if (!msg)
		return NULL;
	msg++;
	msg[strcspn(msg, "\n")] = '\0';
	return msg;
}

static void kmsg_quote(struct kmsg_log *log, const char *msg)
{
	char *q = log->quote[log->nquote++];
	size_t len = strlen(msg);

	if (len > QUOTE_LEN) {
		memcpy(q, msg, QUOTE_LEN);
		memcpy(q + QUOTE_LEN, "...", sizeof("..."));
	} else {
		memcpy(q, msg, len + 1);
	}
}

/*
 * Read every record logged since kmsg_mark(); count those that hold
 * @match (if not NULL). Up to KMSG_QUOTE_LINES are kept for quoting: all
 * of them if no more were logged, else the notable ones if any.
 */
static void kmsg_collect(struct kmsg_log *log, const char *match)
{
	static char rec[KMSG_REC_LEN];
	unsigned int stored = 0, i;
	bool notable = false;

	memset(log, 0, sizeof(*log));
	if (kmsg_fd < 0)
		return;

	for (;;) {
		ssize_t n = read(kmsg_fd, rec, sizeof(rec) - 1);
		char *msg;

		if (n < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;	/* EPIPE: overwritten, skipped */
			break;			/* EAGAIN: nothing more */
		}
		if (n == 0)
			break;
		rec[n] = '\0';
		msg = kmsg_text(rec);
		if (!msg)
			continue;

		log->total++;
		if (splat_kind(msg) != SPLAT_NONE)
			log->bad = true;
		if (match && strstr(msg, match))
			log->matched++;
		if (stored < KMSG_MAX_LINES) {
			snprintf(kmsg_lines[stored], KMSG_LINE_LEN, "%s", msg);
			stored++;
		}
	}

	if (stored > KMSG_QUOTE_LINES)
		for (i = 0; i < stored; i++)
			if (kmsg_notable(kmsg_lines[i]))
				notable = true;

	for (i = 0; i < stored && log->nquote < KMSG_QUOTE_LINES; i++) {
		if (notable && !kmsg_notable(kmsg_lines[i]))
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

/*
 * The whole kernel log, for the host to keep: a fresh reader starts at
 * the oldest record the kernel still has.
 */
static void kmsg_dump(void)
{
	static char rec[KMSG_REC_LEN];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		emit("# runner: cannot read /dev/kmsg: %s", strerror(errno));
		return;
	}
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *msg;

		if (n < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;
			break;
		}
		if (n == 0)
			break;
		rec[n] = '\0';
		msg = kmsg_text(rec);
		if (msg)
			emit("# dmesg: %s", msg);
	}
	close(fd);
}

/* ---------------------------------------------------------------- */
/* Operations in a child                                             */

enum op_status {
	ST_OK,		/* done: child exited 0, and no test case failed */
	ST_ERRNO,	/* child exited with an errno */
	ST_EXIT,	/* a program exited with another code than 0 */
	ST_CASES,	/* a KTAP test case failed, or there was none */
	ST_SIGNAL,	/* child was killed, e.g. by an oops */
	ST_TIMEOUT,	/* child did not finish in time */
	ST_FORK,	/* could not even start the child */
	ST_NORUN,	/* not started: what it needs is missing (why) */
};

/* Test cases of a KTAP text; declared: in bisect_skip_cases. */
struct cases {
	unsigned int total, failed, skipped, declared;
};

struct op_result {
	enum op_status status;
	int err;		/* ST_ERRNO, ST_FORK */
	int code;		/* ST_EXIT */
	int sig;		/* ST_SIGNAL */
	struct cases cases;	/* kunit, exec */
	bool out_cut;		/* exec: its output did not all fit */
	struct kmsg_log log;
	char what[WHAT_LEN];	/* "insmod foo.ko bar=1" */
	char why[WHY_LEN];	/* ST_NORUN */
};

/* Shared with the children, for data they hand back. */
struct child_page {
	int exec_err;		/* why execv() failed */
	size_t len;
	char buf[OUT_BUF_LEN];
};

static struct child_page *child_page;

/* What a program writes to its stdout and stderr. */
struct capture {
	char *buf;
	size_t size, len;
	bool cut;		/* more than fits in buf */
};

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * The module a load operation is loading, or NULL: when the load runs
 * for SLOW_OP_MS (its init hangs, say), the runner prints where the
 * kernel put the module's code, so that the host can name the function
 * a hung CPU is in: "# runner: module NAME section SECTION 0xADDRESS",
 * one line per section of code (a name with "text") in
 * /sys/module/NAME/sections, which is there while init runs.
 */
static const char *slow_module;

static void report_sections(const char *name)
{
	char path[MOD_PATH_LEN], addr[64];
	struct dirent *de;
	ssize_t n;
	DIR *dir;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/%s/sections", name);
	dir = opendir(path);
	if (!dir) {
		emit("# runner: module %s: no %s: %s", name, path, strerror(errno));
		return;
	}
	while ((de = readdir(dir))) {
		if (!strstr(de->d_name, "text"))
			continue;
		fd = openat(dirfd(dir), de->d_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, addr, sizeof(addr) - 1);
		close(fd);
		if (n <= 0)
			continue;
		addr[n] = '\0';
		addr[strcspn(addr, "\n")] = '\0';
		emit("# runner: module %s section %s %s", name, de->d_name, addr);
	}
	closedir(dir);
}

/* Wait for @pid for at most @ms; true once it is reaped into @status. */
static bool wait_child(pid_t pid, long ms, int *status)
{
	struct timespec t0, ts;
	bool slow = !slow_module;
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
		if (!slow && ms_since(&t0) >= SLOW_OP_MS) {
			slow = true;
			report_sections(slow_module);
		}
		left = ms - ms_since(&t0);
		if (left <= 0)
			return false;
		if (!slow && left > SLOW_OP_MS - ms_since(&t0))
			left = SLOW_OP_MS - ms_since(&t0) + 1;
		ts.tv_sec = left / 1000;
		ts.tv_nsec = (left % 1000) * 1000000;
		sigtimedwait(&chld, NULL, &ts);
	}
}

static void capture_add(struct capture *cap, const char *p, size_t n)
{
	for (; n && cap->len + 1 < cap->size; n--, p++)
		cap->buf[cap->len++] = *p ? *p : ' ';
	cap->buf[cap->len] = '\0';
	if (n)
		cap->cut = true;
}

/*
 * Read the child's output from @fd until its end or the operation's
 * deadline. A process the child left behind may hold the pipe: once the
 * child is reaped (true, @status filled in), what is there is all.
 */
static bool capture_output(struct capture *cap, int fd, pid_t pid,
			   const struct timespec *t0, int *status)
{
	bool reaped = false;
	char tmp[4096];

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = OP_TIMEOUT_SECS * 1000L - ms_since(t0);
		ssize_t n;
		int r;

		if (left <= 0)
			return reaped;
		r = poll(&pfd, 1, left < POLL_SLICE_MS ? left : POLL_SLICE_MS);
		if (r < 0 && errno != EINTR)
			return reaped;
		if (r <= 0) {
			if (!reaped && waitpid(pid, status, WNOHANG) == pid)
				reaped = true;
			if (reaped && r == 0)
				return true;
			continue;
		}
		n = read(fd, tmp, sizeof(tmp));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return reaped;
		capture_add(cap, tmp, n);
	}
}

/*
 * Run fn(arg) in a child and log what the kernel says meanwhile; count
 * the kernel log lines holding @match. The child's exit code is 0 or an
 * errno, unless @cap: then fn() execs a program, whose stdout and stderr
 * go to @cap and whose exit code is its own.
 */
static void run_op(struct op_result *res, int (*fn)(const void *),
		   const void *arg, struct capture *cap, const char *match)
{
	int status = 0, pfd[2] = { -1, -1 };
	bool reaped = false;
	struct timespec t0;
	pid_t pid;

	res->status = ST_OK;
	kmsg_mark();
	if (cap) {
		cap->len = 0;
		cap->cut = false;
		cap->buf[0] = '\0';
		if (pipe2(pfd, O_CLOEXEC) < 0) {
			res->status = ST_FORK;
			res->err = errno;
			return;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		res->status = ST_FORK;
		res->err = errno;
		if (cap) {
			close(pfd[0]);
			close(pfd[1]);
		}
		return;
	}
	if (pid == 0) {
		int err;

		if (cap) {
			/* Its own group: a timeout kills what it started. */
			setpgid(0, 0);
			dup2(pfd[1], STDOUT_FILENO);
			dup2(pfd[1], STDERR_FILENO);
		}
		err = fn(arg);
		_exit(err > 0 && err < 256 ? err : (err ? 255 : 0));
	}

	if (cap) {
		setpgid(pid, pid);
		close(pfd[1]);
		reaped = capture_output(cap, pfd[0], pid, &t0, &status);
		close(pfd[0]);
	}
	if (!reaped)
		reaped = wait_child(pid, OP_TIMEOUT_SECS * 1000L - ms_since(&t0),
				    &status);
	if (!reaped) {
		if (cap)
			kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		/* A child stuck in the kernel may never go; leave it. */
		wait_child(pid, REAP_GRACE_MS, &status);
		res->status = ST_TIMEOUT;
	} else if (WIFSIGNALED(status)) {
		res->status = ST_SIGNAL;
		res->sig = WTERMSIG(status);
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		if (cap && !child_page->exec_err) {
			res->status = ST_EXIT;
			res->code = WEXITSTATUS(status);
		} else {
			res->status = ST_ERRNO;
			res->err = cap ? child_page->exec_err :
					 WEXITSTATUS(status);
		}
	}
	kmsg_collect(&res->log, match);
}

/*
 * Why test cases failed an operation: "N of M cases failed", "no test
 * cases", or "no case ran" when all but the declared ones (and those
 * the suite skipped) are left; then how many were declared.
 */
static void cases_failed(const struct cases *c, char *buf, size_t len)
{
	int n;

	if (c->failed)
		n = snprintf(buf, len, "%u of %u cases failed", c->failed,
			     c->total);
	else if (c->total)
		n = snprintf(buf, len, "no case ran");
	else
		n = snprintf(buf, len, "no test cases");
	if (c->declared && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ", %u skipped (%s)", c->declared,
			 SKIP_DECLARED);
}

/* "loaded", "-6 ENXIO (...)", "killed by signal 11 (...)" */
static const char *op_outcome(const struct op_result *res, const char *ok,
			      char *buf, size_t len)
{
	char e[128];

	switch (res->status) {
	case ST_OK:
		snprintf(buf, len, "%s", ok);
		break;
	case ST_ERRNO:
		snprintf(buf, len, "%s", errno_str(res->err, e, sizeof(e)));
		break;
	case ST_EXIT:
		snprintf(buf, len, "exit %d", res->code);
		break;
	case ST_CASES:
		cases_failed(&res->cases, buf, len);
		break;
	case ST_SIGNAL:
		snprintf(buf, len, "killed by signal %d (%s)", res->sig,
			 strsignal(res->sig));
		break;
	case ST_TIMEOUT:
		snprintf(buf, len, "timed out after %d s", OP_TIMEOUT_SECS);
		break;
	case ST_FORK:
		snprintf(buf, len, "fork failed: %s",
			 errno_str(res->err, e, sizeof(e)));
		break;
	case ST_NORUN:
		snprintf(buf, len, "%s", res->why);
		break;
	}
	return buf;
}

/* ---------------------------------------------------------------- */
/* KUnit cases not counted on this target                            */

/*
 * The kernel parameter bisect_skip_cases=SUITE.CASE,... (init's
 * environment; the kernel keeps a parameter whose name has no '.' for
 * init, whatever its value holds): KUnit cases this target does not
 * count. A kunit operation of SUITE prints such a case as skipped,
 * SKIP_DECLARED, whatever its result, and judges by the others.
 */
struct skip_case {
	const char *suite, *name;
	size_t suite_len, name_len;
	bool seen;		/* in its suite's results */
};

/* An entry is at least "s.c" and a comma. */
static struct skip_case skip_cases[GUEST_SKIP_CASES_LEN / 4 + 1];
static unsigned int nskip_cases;
static char skip_cases_text[GUEST_SKIP_CASES_LEN + 1];

/* Parse @v (NULL: none); false, why in @err, if it is malformed. */
static bool parse_skip_cases(const char *v, char *err, size_t len)
{
	const char *p, *dot;
	size_t n;

	nskip_cases = 0;
	if (!v || !*v)
		return true;
	if (strlen(v) > GUEST_SKIP_CASES_LEN) {
		snprintf(err, len, "longer than %d characters",
			 GUEST_SKIP_CASES_LEN);
		return false;
	}
	memcpy(skip_cases_text, v, strlen(v) + 1);
	for (p = skip_cases_text;; p++) {
		n = strcspn(p, ",");
		dot = memchr(p, '.', n);
		if (!dot || dot == p || dot + 1 == p + n ||
		    strspn(p, GUEST_SUITE_SET) != (size_t)(dot - p) ||
		    strspn(dot + 1, GUEST_CASE_SET) != (size_t)(p + n - dot - 1)) {
			snprintf(err, len, "\"%.*s\" is not SUITE.CASE ([a-z0-9_-]+.[a-z0-9_]+)",
				 (int)(n > 64 ? 64 : n), p);
			return false;
		}
		skip_cases[nskip_cases++] = (struct skip_case){
			.suite = p, .suite_len = dot - p,
			.name = dot + 1, .name_len = p + n - dot - 1,
		};
		p += n;
		if (!*p)
			return true;
	}
}

/* The declared skip of case @name (@len bytes) of @suite, or NULL. */
static struct skip_case *skip_case_of(const char *suite, const char *name,
				      size_t len)
{
	size_t slen = strlen(suite);
	unsigned int i;

	for (i = 0; i < nskip_cases; i++) {
		struct skip_case *k = &skip_cases[i];

		if (k->suite_len == slen && !memcmp(k->suite, suite, slen) &&
		    k->name_len == len && !memcmp(k->name, name, len))
			return k;
	}
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Test text: KTAP                                                   */

/* A text split into lines, in place. */
static char *text_line[TEXT_MAX_LINES];
static unsigned int text_nlines;

/* False if @text has more lines than text_line[] holds. */
static bool text_split(char *text)
{
	text_nlines = 0;
	while (*text) {
		char *end = text + strcspn(text, "\n");
		bool last = !*end;

		if (text_nlines == TEXT_MAX_LINES)
			return false;
		*end = '\0';
		if (end > text && end[-1] == '\r')
			end[-1] = '\0';
		text_line[text_nlines++] = text;
		if (last)
			break;
		text = end + 1;
	}
	return true;
}

static unsigned int indent_of(const char *s)
{
	return strspn(s, " \t");
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* One result line of KTAP or TAP. */
struct ktap_result {
	bool ok, skip;
	const char *name;
	int name_len;
	const char *reason;
	int reason_len;
};

/* Parse "ok 3 - name # SKIP why" (@s without its indentation). */
static bool ktap_result(const char *s, struct ktap_result *r)
{
	const char *p, *hash, *end;

	if (!strncmp(s, "ok ", 3)) {
		r->ok = true;
		p = s + 3;
	} else if (!strncmp(s, "not ok ", 7)) {
		r->ok = false;
		p = s + 7;
	} else {
		return false;
	}
	if (!is_digit(*p))
		return false;
	while (is_digit(*p))
		p++;
	p += strspn(p, " ");
	if (*p == '-' && (p[1] == ' ' || !p[1]))
		p += 1 + strspn(p + 1, " ");

	hash = *p == '#' ? p : strstr(p, " #");
	end = hash ? hash : p + strlen(p);
	while (end > p && end[-1] == ' ')
		end--;
	r->name = p;
	r->name_len = end - p;
	r->skip = false;
	r->reason = "";
	r->reason_len = 0;
	if (hash) {
		const char *d = hash + (*hash == '#' ? 1 : 2);

		d += strspn(d, " ");
		if (!strncasecmp(d, "SKIP", 4) && (!d[4] || d[4] == ' ')) {
			r->skip = true;
			r->reason = d + 4 + strspn(d + 4, " ");
			r->reason_len = strlen(r->reason);
			while (r->reason_len &&
			       r->reason[r->reason_len - 1] == ' ')
				r->reason_len--;
		}
	}
	return true;
}

/* KTAP's lines that are no test's words: version, plan, subtest name. */
static bool ktap_header(const char *s)
{
	return !strncmp(s, "KTAP version ", 13) ||
	       !strncmp(s, "TAP version ", 12) || !strncmp(s, "1..", 3) ||
	       !strncmp(s, "# Subtest", 9);
}

/* KTAP's own lines: version, plan, results, diagnostics. */
static bool ktap_syntax(const char *s)
{
	struct ktap_result r;

	return *s == '#' || ktap_result(s, &r) || ktap_header(s);
}

/* The least indentation of a result line, above @min; UINT_MAX: none. */
static unsigned int ktap_level(unsigned int min)
{
	unsigned int i, level = UINT_MAX;
	struct ktap_result r;

	for (i = 0; i < text_nlines; i++) {
		unsigned int ind = indent_of(text_line[i]);

		if (ind >= min && ind < level &&
		    ktap_result(text_line[i] + ind, &r))
			level = ind;
	}
	return level;
}

/*
 * The test cases of the text in text_line[]: the result lines at the
 * least indentation, or, if @nested (a KUnit suite, whose own result
 * line is not indented), at the least indentation above none if there
 * is any. Counted into @c; if @id, each is printed as
 * "# ID: PREFIX.CASE: ok", and a failed one with up to CASE_DIAG_LINES
 * of what the test said before it: "# " diagnostics, and the lines that
 * carry on one (KUnit prints an expectation's details so). A case of
 * KUnit suite @suite (NULL: none) that bisect_skip_cases names counts
 * as declared, and is printed as skipped, with its result.
 */
static void ktap_cases(bool nested, const char *id, const char *prefix,
		       const char *suite, struct cases *c)
{
	const char *diag[CASE_DIAG_LINES];
	unsigned int i, ndiag = 0, level = UINT_MAX;
	struct ktap_result r;
	struct skip_case *k;

	memset(c, 0, sizeof(*c));
	if (nested)
		level = ktap_level(1);
	if (level == UINT_MAX)
		level = ktap_level(0);
	if (level == UINT_MAX)
		return;

	for (i = 0; i < text_nlines; i++) {
		unsigned int ind = indent_of(text_line[i]), j;
		const char *s = text_line[i] + ind;

		if (!ktap_result(s, &r)) {
			if (*s && !ktap_header(s) && ndiag < CASE_DIAG_LINES)
				diag[ndiag++] = s;
			continue;
		}
		if (ind > level)
			continue;
		if (ind < level) {
			ndiag = 0;
			continue;
		}
		c->total++;
		k = suite ? skip_case_of(suite, r.name, r.name_len) : NULL;
		if (k) {
			k->seen = true;
			c->declared++;
		} else if (r.skip) {
			c->skipped++;
		} else if (!r.ok) {
			c->failed++;
		}
		if (id && k)
			emit("# %s: %s.%.*s: skip (%s; result: %s)", id, prefix,
			     r.name_len, r.name, SKIP_DECLARED,
			     r.skip ? "skip" : r.ok ? "ok" : "not ok");
		else if (id && r.skip)
			emit("# %s: %s.%.*s: skip%s%.*s%s", id, prefix,
			     r.name_len, r.name, r.reason_len ? " (" : "",
			     r.reason_len, r.reason, r.reason_len ? ")" : "");
		else if (id)
			emit("# %s: %s.%.*s: %s", id, prefix, r.name_len,
			     r.name, r.ok ? "ok" : "not ok");
		for (j = 0; id && !k && !r.ok && !r.skip && j < ndiag; j++) {
			const char *d = diag[j];

			if (*d == '#')
				d += 1 + strspn(d + 1, " ");
			emit("# %s: %s.%.*s: %.*s", id, prefix, r.name_len,
			     r.name, QUOTE_LEN, d);
		}
		ndiag = 0;
	}
}

/*
 * Up to OUT_QUOTE_LINES lines of a program's output, as "# ID: out: ..."
 * (if it printed KTAP, of what is not KTAP).
 */
static void out_quote(const char *id, bool has_ktap)
{
	unsigned int i, shown = 0, more = 0;

	for (i = 0; i < text_nlines; i++) {
		const char *s = text_line[i];

		if (!s[indent_of(s)])
			continue;
		if (has_ktap && ktap_syntax(s + indent_of(s)))
			continue;
		if (shown < OUT_QUOTE_LINES) {
			emit("# %s: out: %.*s", id, QUOTE_LEN, s);
			shown++;
		} else {
			more++;
		}
	}
	if (more)
		emit("# %s: out: [%u more line%s not shown]", id, more,
		     more == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- */
/* The test program                                                  */

/* The keys kind @k must have, or (@all) may have. */
static unsigned int kind_keys(const struct guest_kind_def *k, bool all)
{
	unsigned int keys = GKEY_BIT(k->arg);

	if (k->extra != GKEY_NONE && (all || k->need_extra))
		keys |= GKEY_BIT(k->extra);
	return all ? keys | GKEY_COMMON : keys;
}

struct op {
	unsigned int line;
	enum guest_kind kind;
	const char *val[GKEY_NR];	/* NULL: not given */
	unsigned char test[GUEST_MAX_TESTS];	/* indexes in tests[] */
	unsigned int ntests;
	enum guest_expect expect;
	int expect_err;
	char count_cmp;			/* '=', '<', '>'; 0: no log check */
	unsigned long count;
};

struct test {
	const char *id;
	int last_op;			/* -1: no operation names it */
	bool skip;			/* bisect_skip */
	bool done;			/* its result line is printed */
	bool checked;			/* one of its checks passed */
};

static char prog_text[PROG_MAX_SIZE + 1];
static struct test tests[GUEST_MAX_TESTS];
static unsigned int ntests;
static struct op ops[GUEST_MAX_OPS];
static unsigned int nops;

/* Why the program is malformed, for "# runner: program line N: ..." */
static unsigned int prog_err_line;
static char prog_err[LINE_MAX_LEN / 2];

/* Make prog_err printable whatever bytes the program holds; false. */
static bool prog_err_printable(void)
{
	unsigned char *p;

	for (p = (unsigned char *)prog_err; *p; p++)
		if (*p < ' ' || *p > '~')
			*p = '?';
	return false;
}

/*
 * Say why, return false. A macro so that the compiler checks the format
 * string against snprintf()'s prototype.
 */
#define prog_error(line, ...)						\
	(prog_err_line = (line),					\
	 snprintf(prog_err, sizeof(prog_err), __VA_ARGS__),		\
	 prog_err_printable())

/* Whether the host told the runner not to run test @id on this target:
 * kernel parameter bisect_skip=id,id,... (init's environment).
 */
static bool told_to_skip(const char *id)
{
	const char *p = getenv(SKIP_ENV);
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

static int test_by_name(const char *id, size_t len)
{
	unsigned int i;

	for (i = 0; i < ntests; i++)
		if (strlen(tests[i].id) == len && !strncmp(tests[i].id, id, len))
			return i;
	return -1;
}

/* Test ids: [a-z0-9-]+, and not a word the runner's own lines use. */
static bool parse_test(unsigned int line, char *rest)
{
	size_t i, len = strlen(rest);

	if (!len || strchr(rest, '\t'))
		return prog_error(line, "a test record is \"test<TAB>ID\"");
	if (len > GUEST_TEST_ID_LEN)
		return prog_error(line, "test id longer than %d characters",
				  GUEST_TEST_ID_LEN);
	if (strspn(rest, GUEST_TEST_ID_SET) != len)
		return prog_error(line, "bad test id \"%s\" (not [a-z0-9-]+)",
				  rest);
	for (i = 0; guest_reserved_ids[i]; i++)
		if (!strcmp(rest, guest_reserved_ids[i]))
			return prog_error(line, "test id \"%s\" is reserved",
					  rest);
	if (test_by_name(rest, len) >= 0)
		return prog_error(line, "test %s declared twice", rest);
	if (ntests >= GUEST_MAX_TESTS)
		return prog_error(line, "more than %d tests", GUEST_MAX_TESTS);
	tests[ntests].id = rest;
	tests[ntests].last_op = -1;
	ntests++;
	return true;
}

static bool parse_expect(struct op *op, const char *v)
{
	unsigned int e;

	for (e = GEXPECT_OK; e < GEXPECT_ERRNO; e++) {
		if (!strcmp(v, guest_expects[e])) {
			op->expect = e;
			return true;
		}
	}
	op->expect = GEXPECT_ERRNO;
	op->expect_err = errno_by_name(v);
	if (!op->expect_err)
		return prog_error(op->line, "bad expect=%.64s (ok, clean, fail or ENAME)",
				  v);
	return true;
}

/* "N", ">N" or "<N" */
static bool parse_count(struct op *op, const char *v)
{
	size_t n;

	op->count_cmp = '=';
	if (*v == '<' || *v == '>')
		op->count_cmp = *v++;
	n = strlen(v);
	if (!n || n > GUEST_COUNT_MAX_DIGITS || strspn(v, "0123456789") != n)
		return prog_error(op->line, "bad count=%.64s (N, >N or <N)",
				  v);
	op->count = strtoul(v, NULL, 10);
	return true;
}

/* The values of an operation's keys, once all of them are known. */
static bool check_op(struct op *op)
{
	const struct guest_kind_def *k = &guest_kinds[op->kind];
	unsigned int key, need = kind_keys(k, false);
	const char *v;

	for (key = 0; key < GKEY_NR; key++) {
		v = op->val[key];
		if (!v) {
			if (need & GKEY_BIT(key))
				return prog_error(op->line, "%s needs %s=",
						  k->name, guest_key_names[key]);
			continue;
		}
		if (!*v && !(GKEY_EMPTY_OK & GKEY_BIT(key)))
			return prog_error(op->line, "empty %s=",
					  guest_key_names[key]);
	}
	v = op->val[GKEY_FILE] ? op->val[GKEY_FILE] :
	    op->val[GKEY_MODULE] ? op->val[GKEY_MODULE] : op->val[GKEY_SUITE];
	if (v && (strchr(v, '/') || !strcmp(v, ".") || !strcmp(v, "..")))
		return prog_error(op->line, "%s: a name, not a path: \"%.64s\"",
				  k->name, v);
	v = op->val[GKEY_PATH];
	if (v && *v != '/')
		return prog_error(op->line, "path=%.64s is not absolute", v);
	v = op->val[GKEY_ARGS];
	if (v) {
		unsigned int n = 0;

		for (; *v; v += strcspn(v, " ")) {
			v += strspn(v, " ");
			if (*v)
				n++;
		}
		if (n > GUEST_EXEC_MAX_ARGS)
			return prog_error(op->line, "more than %d args",
					  GUEST_EXEC_MAX_ARGS);
	}

	if (op->val[GKEY_EXPECT] && !parse_expect(op, op->val[GKEY_EXPECT]))
		return false;
	if (!op->val[GKEY_MATCH] != !op->val[GKEY_COUNT])
		return prog_error(op->line, "match= and count= go together");
	if (op->val[GKEY_LABEL] && !op->val[GKEY_MATCH])
		return prog_error(op->line, "label= without match=");
	if (op->val[GKEY_COUNT] && !parse_count(op, op->val[GKEY_COUNT]))
		return false;
	if (op->count_cmp && op->expect != GEXPECT_NONE &&
	    op->expect != GEXPECT_OK && op->expect != GEXPECT_CLEAN)
		return prog_error(op->line, "a log check needs the %s to succeed",
				  k->name);
	if ((op->expect != GEXPECT_NONE || op->count_cmp) &&
	    !op->val[GKEY_TESTS])
		return prog_error(op->line, "a check (expect= or match=) needs tests=");
	return true;
}

/* "op<TAB>KIND<TAB>key=value..." (@rest: from KIND on) */
static bool parse_op(unsigned int line, char *rest)
{
	struct op *op;
	char *field;
	int kind;

	if (nops >= GUEST_MAX_OPS)
		return prog_error(line, "more than %d ops", GUEST_MAX_OPS);
	op = &ops[nops];
	memset(op, 0, sizeof(*op));
	op->line = line;

	field = strsep(&rest, "\t");
	for (kind = 0; kind < GOP_NR; kind++)
		if (!strcmp(field, guest_kinds[kind].name))
			break;
	if (kind == GOP_NR)
		return prog_error(line, "unknown operation \"%.64s\"", field);
	op->kind = kind;

	while (rest) {
		char *eq;
		unsigned int key;

		field = strsep(&rest, "\t");
		eq = strchr(field, '=');
		if (!eq)
			return prog_error(line, "\"%.64s\" is not key=value",
					  field);
		*eq = '\0';
		for (key = 0; key < GKEY_NR; key++)
			if (!strcmp(field, guest_key_names[key]))
				break;
		if (key == GKEY_NR ||
		    !(kind_keys(&guest_kinds[kind], true) & GKEY_BIT(key)))
			return prog_error(line, "%s has no key \"%.64s\"",
					  guest_kinds[kind].name, field);
		if (op->val[key])
			return prog_error(line, "%s= given twice", field);
		op->val[key] = eq + 1;
	}
	if (!check_op(op))
		return false;
	nops++;
	return true;
}

/* tests=a,b,c: every one declared, none twice. */
static bool resolve_tests(struct op *op, unsigned int index)
{
	const char *p = op->val[GKEY_TESTS];

	while (p) {
		size_t len = strcspn(p, ",");
		int t = test_by_name(p, len);
		unsigned int i;

		if (!len)
			return prog_error(op->line, "empty test id in tests=");
		if (t < 0)
			return prog_error(op->line, "tests=: no test \"%.*s\" declared",
					  (int)(len > 64 ? 64 : len), p);
		for (i = 0; i < op->ntests; i++)
			if (op->test[i] == t)
				return prog_error(op->line, "tests=: %s twice",
						  tests[t].id);
		op->test[op->ntests++] = t;
		tests[t].last_op = index;
		p = p[len] ? p + len + 1 : NULL;
	}
	return true;
}

/* Parse prog_text[0..size) into tests[] and ops[]. */
static bool parse_program(size_t size)
{
	char *p = prog_text, *end = prog_text + size;
	unsigned int line = 0, i;

	while (p < end) {
		char *nl = memchr(p, '\n', end - p);
		char *rest = p, *rec;
		size_t len = (nl ? nl : end) - p;

		line++;
		if (memchr(p, '\0', len))
			return prog_error(line, "NUL byte");
		if (len > PROG_LINE_LEN)
			return prog_error(line, "line longer than %d characters",
					  PROG_LINE_LEN);
		p[len] = '\0';
		p += len + 1;
		if (len && rest[len - 1] == '\r')
			rest[len - 1] = '\0';
		if (!*rest || *rest == '#')
			continue;

		rec = strsep(&rest, "\t");
		if (!strcmp(rec, "test")) {
			if (!parse_test(line, rest ? rest : ""))
				return false;
		} else if (!strcmp(rec, "op")) {
			if (!rest)
				return prog_error(line, "op without a kind");
			if (!parse_op(line, rest))
				return false;
		} else {
			return prog_error(line, "unknown record \"%.64s\"",
					  rec);
		}
	}
	for (i = 0; i < nops; i++) {
		if (!resolve_tests(&ops[i], i))
			return false;
		if (ops[i].val[GKEY_MATCH])
			match_words[nmatch_words++] = ops[i].val[GKEY_MATCH];
	}
	for (i = 0; i < ntests; i++)
		tests[i].skip = told_to_skip(tests[i].id);
	return true;
}

/*
 * Read and parse the program at @path. False if it cannot run: then
 * prog_err says why, and prog_missing whether there is none.
 */
static bool prog_missing;

static bool load_program(const char *path)
{
	char e[128];
	size_t size = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		prog_missing = true;
		snprintf(prog_err, sizeof(prog_err),
			 "no test program at %s: %s", path,
			 errno_str(errno, e, sizeof(e)));
		return false;
	}
	for (;;) {
		ssize_t n = read(fd, prog_text + size, PROG_MAX_SIZE + 1 - size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			prog_missing = true;
			snprintf(prog_err, sizeof(prog_err),
				 "no test program at %s: %s", path,
				 errno_str(errno, e, sizeof(e)));
			close(fd);
			return false;
		}
		size += n;
		if (n == 0 || size > PROG_MAX_SIZE)
			break;
	}
	close(fd);
	if (size > PROG_MAX_SIZE)
		return prog_error(0, "program larger than %d bytes",
				  PROG_MAX_SIZE);
	return parse_program(size);
}

/* ---------------------------------------------------------------- */
/* The operations                                                    */

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

/* What the children do: return 0 or an errno. */

struct load_arg {
	int fd;
	const char *params;
};

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

struct write_arg {
	const char *path;
	const char *data;
};

static int do_write(const void *p)
{
	const struct write_arg *arg = p;
	size_t len = strlen(arg->data);
	ssize_t n;
	int fd;

	fd = open(arg->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, arg->data, len);
	if (n < 0)
		return errno;
	if (close(fd) < 0)
		return errno;
	return n == (ssize_t)len ? 0 : EIO;
}

/* Read @fd into child_page, as much as fits. */
static int read_to_page(int fd)
{
	size_t room = sizeof(child_page->buf) - 1;

	child_page->len = 0;
	while (child_page->len < room) {
		ssize_t n = read(fd, child_page->buf + child_page->len,
				 room - child_page->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			break;
		child_page->len += n;
	}
	return 0;
}

static int do_read(const void *p)
{
	int fd = open(p, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	err = read_to_page(fd);
	close(fd);
	return err;
}

static int do_read_fd(const void *p)
{
	return read_to_page(*(const int *)p);
}

static int do_exec(const void *p)
{
	char * const *argv = p;
	sigset_t none;
	int fd;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	execv(argv[0], argv);
	child_page->exec_err = errno;
	return errno;
}

/* child_page->buf as a string, for the parent. */
static char *page_text(void)
{
	size_t i, len = child_page->len;

	if (len >= sizeof(child_page->buf))
		len = sizeof(child_page->buf) - 1;
	for (i = 0; i < len; i++)
		if (!child_page->buf[i])
			child_page->buf[i] = ' ';
	child_page->buf[len] = '\0';
	return child_page->buf;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * One kind of operation: run @op into @res, @ok its text on success.
 * False if it is not to run at all.
 */
typedef bool op_fn(const struct op *op, struct op_result *res, char *ok,
		   size_t oklen);

static bool op_load(const struct op *op, struct op_result *res, char *ok,
		    size_t oklen)
{
	const char *file = op->val[GKEY_FILE];
	const char *params = op->val[GKEY_PARAMS] ? op->val[GKEY_PARAMS] : "";
	struct load_arg arg = { .params = params };
	char path[MOD_PATH_LEN], e[128], name[MOD_PATH_LEN];

	snprintf(res->what, sizeof(res->what), "insmod %s%s%s", file,
		 *params ? " " : "", params);
	snprintf(ok, oklen, "loaded");
	res->status = ST_NORUN;
	if (!find_file(mod_dir, file, path, sizeof(path), 0)) {
		snprintf(res->why, sizeof(res->why), "%s not found under %s",
			 file, mod_dir);
		return true;
	}
	arg.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (arg.fd < 0) {
		snprintf(res->why, sizeof(res->why), "cannot open %s: %s",
			 path, errno_str(errno, e, sizeof(e)));
		return true;
	}
	/* The kernel's name of the module: the file's, '-' as '_'. */
	snprintf(name, sizeof(name), "%.*s", (int)(strlen(file) - 3), file);
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	slow_module = name;
	run_op(res, do_load, &arg, NULL, op->val[GKEY_MATCH]);
	slow_module = NULL;
	close(arg.fd);
	if (res->status == ST_OK)
		report_srcversion(file);
	return true;
}

/* Only a module that is loaded is unloaded. */
static bool op_unload(const struct op *op, struct op_result *res,
		      char *ok, size_t oklen)
{
	const char *name = op->val[GKEY_MODULE];
	char path[MOD_PATH_LEN];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	if (access(path, F_OK) < 0)
		return false;
	snprintf(res->what, sizeof(res->what), "rmmod %s", name);
	snprintf(ok, oklen, "ok");
	run_op(res, do_unload, name, NULL, op->val[GKEY_MATCH]);
	return true;
}

static bool op_write(const struct op *op, struct op_result *res, char *ok,
		     size_t oklen)
{
	static char data[PROG_LINE_LEN + 2];
	struct write_arg arg = { .path = op->val[GKEY_PATH], .data = data };

	snprintf(data, sizeof(data), "%s\n", op->val[GKEY_VALUE]);
	snprintf(res->what, sizeof(res->what), "write \"%s\" to %s",
		 op->val[GKEY_VALUE], op->val[GKEY_PATH]);
	snprintf(ok, oklen, "ok");
	run_op(res, do_write, &arg, NULL, op->val[GKEY_MATCH]);
	return true;
}

static bool op_read(const struct op *op, struct op_result *res, char *ok,
		    size_t oklen)
{
	char *text;

	snprintf(res->what, sizeof(res->what), "read %s", op->val[GKEY_PATH]);
	child_page->len = 0;
	run_op(res, do_read, op->val[GKEY_PATH], NULL, op->val[GKEY_MATCH]);
	text = page_text();
	text[strcspn(text, "\n")] = '\0';
	snprintf(ok, oklen, "\"%.*s\"", QUOTE_LEN, text);
	return true;
}

/* kunit and exec: the test cases decide too. */
static void cases_outcome(const struct op *op, struct op_result *res,
			  char *ok, size_t oklen)
{
	const struct cases *c = &res->cases;
	size_t n;

	if (res->status != ST_OK)
		return;
	/* Cases declared skipped leave the others to judge: one must run. */
	if (c->failed || (op->kind == GOP_KUNIT && !c->total) ||
	    (c->declared && c->total == c->declared + c->skipped)) {
		res->status = ST_CASES;
		return;
	}
	if (!c->total)
		return;
	n = strlen(ok);
	snprintf(ok + n, oklen - n, "%s%u of %u cases passed", n ? ", " : "",
		 c->total - c->skipped - c->declared, c->total);
	n = strlen(ok);
	if (c->skipped)
		snprintf(ok + n, oklen - n, ", %u skipped", c->skipped);
	n = strlen(ok);
	if (c->declared)
		snprintf(ok + n, oklen - n, ", %u skipped (%s)", c->declared,
			 SKIP_DECLARED);
}

/* A KUnit suite's results, @text (split in place): its cases judge @res. */
static void kunit_results(const struct op *op, struct op_result *res,
			  char *text, char *ok, size_t oklen)
{
	text_split(text);
	ktap_cases(true, NULL, NULL, op->val[GKEY_SUITE], &res->cases);
	cases_outcome(op, res, ok, oklen);
}

static bool op_kunit(const struct op *op, struct op_result *res, char *ok,
		     size_t oklen)
{
	const char *suite = op->val[GKEY_SUITE];
	char path[MOD_PATH_LEN], e[128];
	static bool mounted;
	int fd;

	snprintf(res->what, sizeof(res->what), "kunit %s", suite);
	*ok = '\0';
	if (!mounted) {
		mount_one("debugfs", DEBUGFS_DIR, "debugfs");
		mounted = true;
	}
	snprintf(path, sizeof(path), KUNIT_DIR "/%s/results", suite);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		res->status = ST_NORUN;
		snprintf(res->why, sizeof(res->why),
			 "no KUnit suite %s: %s: %s", suite, path,
			 errno_str(errno, e, sizeof(e)));
		return true;
	}
	child_page->len = 0;
	run_op(res, do_read_fd, &fd, NULL, op->val[GKEY_MATCH]);
	close(fd);
	kunit_results(op, res, page_text(), ok, oklen);
	return true;
}

static bool op_exec(const struct op *op, struct op_result *res, char *ok,
		    size_t oklen)
{
	static char out[OUT_BUF_LEN], args[PROG_LINE_LEN + 1];
	struct capture cap = { .buf = out, .size = sizeof(out) };
	const char *path = op->val[GKEY_PATH];
	char *argv[GUEST_EXEC_MAX_ARGS + 2], *a = args, *s, e[128];
	unsigned int argc = 0;
	struct stat st;
	int err;

	snprintf(args, sizeof(args), "%s",
		 op->val[GKEY_ARGS] ? op->val[GKEY_ARGS] : "");
	snprintf(res->what, sizeof(res->what), "exec %s%s%s", path,
		 *args ? " " : "", op->val[GKEY_ARGS] ? op->val[GKEY_ARGS] : "");
	snprintf(ok, oklen, "exit 0");
	err = stat(path, &st) < 0 ? errno : S_ISREG(st.st_mode) ? 0 : EACCES;
	if (err) {
		res->status = ST_NORUN;
		snprintf(res->why, sizeof(res->why), "cannot run %s: %s",
			 path, errno_str(err, e, sizeof(e)));
		return true;
	}
	argv[argc++] = (char *)path;
	while ((s = strsep(&a, " ")))
		if (*s && argc <= GUEST_EXEC_MAX_ARGS)
			argv[argc++] = s;
	argv[argc] = NULL;
	child_page->exec_err = 0;
	run_op(res, do_exec, argv, &cap, op->val[GKEY_MATCH]);
	res->out_cut = !text_split(out) || cap.cut;
	ktap_cases(false, NULL, NULL, NULL, &res->cases);
	cases_outcome(op, res, ok, oklen);
	return true;
}

static op_fn * const op_fns[GOP_NR] = {
	[GOP_LOAD] = op_load,
	[GOP_UNLOAD] = op_unload,
	[GOP_WRITE] = op_write,
	[GOP_READ] = op_read,
	[GOP_KUNIT] = op_kunit,
	[GOP_EXEC] = op_exec,
};

/* Run @op; false if it is not to run (an unload of a module not loaded). */
static bool op_run(const struct op *op, struct op_result *res, char *ok,
		   size_t oklen)
{
	memset(res, 0, sizeof(*res));
	return op_fns[op->kind](op, res, ok, oklen);
}

/* ---------------------------------------------------------------- */
/* Verdicts                                                          */

static int test_num;

static bool live(const struct test *t)
{
	return !t->skip && !t->done;
}

static void verdict(struct test *t, bool ok, const char *directive)
{
	if (t->done)
		return;
	t->done = true;
	emit("%s %d %s%s%s", ok ? "ok" : "not ok", ++test_num, t->id,
	     directive ? " # " : "", directive ? directive : "");
}

static void verdict_error(struct test *t, const char *why)
{
	char d[WHY_LEN + 8];

	snprintf(d, sizeof(d), "ERROR %s", why);
	verdict(t, false, d);
}

/* After its last operation, or at the end: a test not yet decided. */
static void verdict_final(struct test *t)
{
	if (t->skip)
		verdict(t, true, "SKIP not run on this target (bisect_skip)");
	else if (t->last_op < 0)
		verdict_error(t, "no operation");
	else if (t->checked)
		verdict(t, true, NULL);
	else
		verdict_error(t, "none of its checks ran");
}

static bool expect_met(const struct op *op, const struct op_result *res)
{
	switch (op->expect) {
	case GEXPECT_NONE:
	case GEXPECT_OK:
		return res->status == ST_OK;
	case GEXPECT_CLEAN:
		return res->status == ST_OK && !res->log.bad;
	case GEXPECT_FAIL:
		return res->status == ST_ERRNO || res->status == ST_EXIT ||
		       res->status == ST_CASES;
	case GEXPECT_ERRNO:
		return res->status == ST_ERRNO && res->err == op->expect_err;
	}
	return false;
}

static bool count_met(const struct op *op, unsigned int n)
{
	switch (op->count_cmp) {
	case '<':
		return n < op->count;
	case '>':
		return n > op->count;
	default:
		return n == op->count;
	}
}

/* "# ID: handler fired 1 time during the write" */
static void report_count(const char *id, const struct op *op,
			 unsigned int n)
{
	const char *kind = guest_kinds[op->kind].name;

	if (op->val[GKEY_LABEL])
		emit("# %s: %s %u time%s during the %s", id,
		     op->val[GKEY_LABEL], n, n == 1 ? "" : "s", kind);
	else
		emit("# %s: %u kernel log line%s matching \"%s\" during the %s",
		     id, n, n == 1 ? "" : "s", op->val[GKEY_MATCH], kind);
}

/* "# ID: WHAT: OUTCOME", what the kernel logged, the test cases. */
static void op_report(const char *id, const struct op *op,
		      const struct op_result *res, const char *ok)
{
	const char *suite = op->val[GKEY_SUITE];
	char buf[WHY_LEN], prefix[WHAT_LEN];
	unsigned int i;
	struct cases c;

	op_outcome(res, ok, buf, sizeof(buf));
	emit("# %s: %s: %s", id, res->what, buf);
	kmsg_print(id, &res->log);
	if (op->kind == GOP_KUNIT) {
		ktap_cases(true, id, res->what, suite, &c);
		/* A declared case the results lack: stale, say so. */
		for (i = 0; i < nskip_cases &&
		     (res->status == ST_OK || res->status == ST_CASES); i++) {
			const struct skip_case *k = &skip_cases[i];

			if (!k->seen &&
			    skip_case_of(suite, k->name, k->name_len) == k)
				emit("# %s: %s.%.*s: %s, but the suite has no such case",
				     id, res->what, (int)k->name_len, k->name,
				     SKIP_DECLARED);
		}
	} else if (op->kind == GOP_EXEC) {
		snprintf(prefix, sizeof(prefix), "exec %s",
			 basename_of(op->val[GKEY_PATH]));
		ktap_cases(false, id, prefix, NULL, &c);
		out_quote(id, c.total);
		if (res->out_cut)
			emit("# %s: out: [only the first %d bytes or %d lines read]",
			     id, OUT_BUF_LEN - 1, TEXT_MAX_LINES);
	}
}

/* An operation no test names: setup or cleanup, reported if it fails. */
static void run_shared(const struct op *op)
{
	struct op_result res;
	char ok[WHY_LEN], buf[WHY_LEN];

	if (!op_run(op, &res, ok, sizeof(ok)) || res.status == ST_OK)
		return;
	if (res.status == ST_NORUN) {
		emit("# runner: %s", res.why);
		return;
	}
	emit("# runner: %s: %s", res.what,
	     op_outcome(&res, ok, buf, sizeof(buf)));
	kmsg_print("runner", &res.log);
}

/* Operation @index, for the tests it names that are still live. */
static void run_for_tests(unsigned int index)
{
	const struct op *op = &ops[index];
	struct test *lt[GUEST_MAX_TESTS];
	unsigned int nlive = 0, i;
	struct op_result res;
	char ok[WHY_LEN], why[WHY_LEN], buf[WHY_LEN];
	bool pass;

	for (i = 0; i < op->ntests; i++)
		if (live(&tests[op->test[i]]))
			lt[nlive++] = &tests[op->test[i]];
	if (!nlive || !op_run(op, &res, ok, sizeof(ok)))
		return;

	/* Could not run: not started, or never came back. */
	if (res.status == ST_NORUN) {
		for (i = 0; i < nlive; i++)
			verdict_error(lt[i], res.why);
		return;
	}
	op_report(lt[0]->id, op, &res, ok);
	snprintf(why, sizeof(why), "%s: %s", res.what,
		 op_outcome(&res, ok, buf, sizeof(buf)));
	if (res.status == ST_TIMEOUT || res.status == ST_FORK) {
		for (i = 0; i < nlive; i++)
			verdict_error(lt[i], why);
		return;
	}

	/* A precondition, or what a log check looks at, that failed. */
	if (op->expect == GEXPECT_NONE && res.status != ST_OK) {
		for (i = 0; i < nlive; i++)
			verdict_error(lt[i], why);
		return;
	}
	if (op->expect == GEXPECT_NONE && !op->count_cmp)
		return;
	pass = expect_met(op, &res);
	if (!pass && res.status == ST_OK && res.log.bad)
		emit("# %s: the kernel logged a splat during the %s",
		     lt[0]->id, guest_kinds[op->kind].name);
	if (pass && op->count_cmp) {
		report_count(lt[0]->id, op, res.log.matched);
		pass = count_met(op, res.log.matched);
	}
	for (i = 0; i < nlive; i++) {
		if (pass)
			lt[i]->checked = true;
		else
			verdict(lt[i], false, NULL);
	}
}

static void run_program(void)
{
	unsigned int i, k;

	for (i = 0; i < nops; i++) {
		const struct op *op = &ops[i];

		if (op->ntests)
			run_for_tests(i);
		else
			run_shared(op);
		/* A test is decided once its last operation is done. */
		for (k = 0; k < op->ntests; k++) {
			struct test *t = &tests[op->test[k]];

			if (t->last_op == (int)i)
				verdict_final(t);
		}
	}
	for (i = 0; i < ntests; i++)
		verdict_final(&tests[i]);
}

int main(void)
{
	const char *program = getenv(PROGRAM_ENV);
	char why[WHY_LEN];
	struct sigaction sa;
	struct utsname uts;
	bool ready, bad_cases;
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
	if (!child_page) {
		emit("# runner: out of memory");
		power_off();
	}

	if (uname(&uts) < 0) {
		snprintf(uts.release, sizeof(uts.release), "unknown");
		snprintf(uts.version, sizeof(uts.version), "unknown");
	}
	snprintf(mod_dir, sizeof(mod_dir), "/lib/modules/%s", uts.release);

	if (!program || !*program)
		program = PROGRAM_PATH;
	emit("KTAP version 1");
	ready = load_program(program);
	/* The host checks what it writes: this is the guest's safety net. */
	bad_cases = ready && !parse_skip_cases(getenv(SKIP_CASES_ENV), why,
					       sizeof(why));
	if (ready && !bad_cases)
		emit("1..%u", ntests);
	emit("# runner: kernel %s", uts.release);
	/* Which kernel booted: the host compares it with what it built. */
	emit("# identity: uname-r %s", uts.release);
	emit("# identity: uname-v %s", uts.version);
	if (kmsg_fd < 0)
		emit("# runner: cannot read /dev/kmsg: %s", strerror(errno));
	if (bad_cases) {
		emit("# runner: %s: %s", SKIP_CASES_ENV, why);
		emit("Bail out! bad %s", SKIP_CASES_ENV);
		power_off();
	}
	if (!ready) {
		if (prog_missing) {
			emit("# runner: %s", prog_err);
			emit("Bail out!");
		} else {
			emit("# runner: program line %u: %s", prog_err_line,
			     prog_err);
			emit("Bail out! bad test program");
		}
		power_off();
	}

	run_program();
	kmsg_dump();

	emit("# runner: done");
	power_off();
	return 0;
}
