// SPDX-License-Identifier: GPL-2.0
/*
 * runner-kunit.c - the guest runner's judgement of a KUnit suite's
 * results, run on the host by test/host/t-runner.sh: guest/runner.c
 * is included whole, its main() renamed and never called, so that what
 * is tested is the runner's own code, not a copy of it; nothing here
 * mounts, loads or powers off anything.
 *
 * Usage: runner-kunit SUITE RESULTS
 *
 * Reads bisect_skip_cases from the environment, as the runner (PID 1)
 * has it from the kernel command line, then judges RESULTS (a suite's
 * /sys/kernel/debug/kunit/SUITE/results) as a kunit operation of SUITE
 * with expect=ok does, printing on stdout what the runner prints for it
 * ("# t: kunit SUITE: OUTCOME" and a line per case), then "verdict: ok"
 * or "verdict: not ok". A malformed bisect_skip_cases: the runner's
 * message and exit 2.
 */
#define main runner_main
#include "../../guest/runner.c"
#undef main

int main(int argc, char **argv)
{
	static char text[OUT_BUF_LEN];
	char ok[WHY_LEN], why[WHY_LEN];
	struct op op = { .kind = GOP_KUNIT, .expect = GEXPECT_OK };
	struct op_result res;
	size_t len;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: runner-kunit SUITE RESULTS\n");
		return 2;
	}
	out_fd = STDOUT_FILENO;
	if (!parse_skip_cases(getenv(SKIP_CASES_ENV), why, sizeof(why))) {
		emit("# runner: %s: %s", SKIP_CASES_ENV, why);
		return 2;
	}
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';

	op.val[GKEY_SUITE] = argv[1];
	memset(&res, 0, sizeof(res));
	snprintf(res.what, sizeof(res.what), "kunit %s", argv[1]);
	*ok = '\0';
	kunit_results(&op, &res, text, ok, sizeof(ok));
	op_report("t", &op, &res, ok);
	emit("verdict: %s", expect_met(&op, &res) ? "ok" : "not ok");
	return 0;
}
