#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-10-bisect-v1.sh - end to end: the series as posted (v1) is a known-bad
# fixture. Run the real pipeline on it and assert the exact matrix: the
# 1/3 typo and the 2/3 citation style fail checkpatch, and on 6.1 the
# default-symbol load and the clean unload fail at 2/3 and 3/3, with the
# guest's own messages quoted. Then flip one expectation and prove the
# tests cell catches it.

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

SERIES=$T_TOP/test/series/v1.yaml

t_plan 43

e2e_run "$SERIES" LOCK_WAIT=900
t_eq "v1 run exits 1 (a check failed)" 1 "$E2E_RC"
t_eq "v1 runs on every target of series.yaml" "x86_64-gcc arm64-gcc x86_64-clang" \
	"$(e2e_targets "$E2E_RUN")"
for E2E_TARGET in $(e2e_targets "$E2E_RUN"); do
	e2e_matrix_eq "v1 matrix, $E2E_TARGET: as expected" \
		<(e2e_golden "$T_TOP/test/expect/v1.cells" "$E2E_TARGET" "$E2E_RUN" "$SERIES")
done
E2E_TARGET=x86_64-gcc
t_grep "report is KTAP" '^KTAP version 1' "$E2E_RUN/report.ktap"
t_grep "report names the Debian version" '^# debian: linux-source-6.1 ' "$E2E_RUN/report.ktap"
t_grep "report names the base commit" '^# base: [0-9a-f]{40}' "$E2E_RUN/report.ktap"
t_grep "report names the series branch" '^# series branch: bisect/unexport-kallsyms-v1/v1' "$E2E_RUN/report.ktap"
t_grep "matrix printed on stdout" '^step +commit' "$T_TMP/run.out"

t_grep "1/3: the typo is reported" "TYPO_SPELLING: 'menas' may be misspelled" "$E2E_RUN/details/1-checkpatch.txt"
t_grep "2/3: the citation style is an ERROR" '^ERROR GIT_COMMIT_ID' "$E2E_RUN/details/2-checkpatch.txt"

# The same failures, with the guest's own words, on every booted target.
for E2E_TARGET in $(e2e_targets "$E2E_RUN"); do
	e2e_boots "$E2E_RUN" "$E2E_TARGET" || continue
	for step in 2 3; do
		d=$E2E_RUN/details/$step-$E2E_TARGET-tests.txt
		t_eq "$step/3 $E2E_TARGET: exactly the default load and the unload differ" \
			"hwbp-default-load hwbp-unload" \
			"$(grep -oE '^[a-z-]+: expected yes, actual no' "$d" | cut -d: -f1 | sort | xargs)"
		t_grep "$step/3 $E2E_TARGET: the guest's ENXIO is quoted" 'ENXIO' "$d"
		t_grep "$step/3 $E2E_TARGET: the guest's BUG on unload is quoted" \
			'kernel BUG at kernel/module/main.c' "$E2E_RUN/details/$step-$E2E_TARGET-boot.txt"
	done
	t_grep "2/3 $E2E_TARGET: the symbol_get refusal of jiffies is quoted" \
		'non-GPLONLY symbol jiffies' "$E2E_RUN/details/2-$E2E_TARGET-tests.txt"
done
E2E_TARGET=x86_64-gcc

# The first target's verdict comes first exactly when another target's
# first build was a cold one made by this run (a fresh build dir: from an
# empty WORKDIR; a cached build brings the log of the run that made it);
# then before that build ends. Else one pass, and no such line.
cold=
for t in arm64-gcc x86_64-clang; do
	awk -F'\t' -v t="$t" '$1 == 0 && $2 == t && $3 == "build" && $8 == "-" { f = 1 }
		END { exit !f }' "$E2E_RUN/cells.tsv" &&
		grep -q 'a fresh build dir' "$E2E_RUN/logs/0-$t-build.log" 2> /dev/null && cold+=" $t"
done
if [[ -n "$cold" ]]; then
	t_eq "cold build(s) of$cold: the first verdict is x86_64-gcc's, FAIL" "x86_64-gcc FAIL" \
		"$(cut -f1,2 "$E2E_RUN/first-verdict.tsv" 2> /dev/null | tr '\t' ' ')"
	t_eq "first verdict said before a later target's cold build ended" "first verdict" \
		"$(grep -o -E 'first verdict|0 (arm64-gcc|x86_64-clang) build: (ok|FAIL)' \
			"$E2E_RUN/progress.log" | head -n 1)"
else
	t_eq "no cold build of a later target: no first verdict of its own" "" \
		"$(ls "$E2E_RUN/first-verdict.tsv" 2> /dev/null)"
	t_eq "no cold build of a later target: one pass, no first verdict said" 0 \
		"$(grep -c 'first verdict' "$E2E_RUN/progress.log")"
fi

e2e_authorship "$SERIES" "bisect/unexport-kallsyms-v1/v1"
t_nogrep "no QEMU left running" . <(pgrep -a -f '^qemu-system' || true)
t_eq "no worktree of the run left registered" "" "$(e2e_worktrees_left)"

# A check that cannot fail is a defect: flip 1/3's read claim.
flipped=$T_TMP/v1-flipped.yaml
sed -e "s#\.\./\.\./#$T_TOP/#" "$SERIES" |
	awk '/^  - file: .*0001-/ { p = 1 } p && /hwbp-read-ignored: yes/ { sub(/yes/, "no"); p = 0 } { print }' > "$flipped"
e2e_run "$flipped" STEPS="0 1" LOCK_WAIT=900
t_eq "flipped expectation: run exits 1" 1 "$E2E_RC"
t_eq "flipped expectation: 1/3 tests cell fails" "1 tests FAIL" \
	"$(e2e_cells "$E2E_RUN" | grep '^1 tests')"
t_grep "flipped expectation: expected vs actual stated" \
	'^hwbp-read-ignored: expected no, actual yes' "$E2E_RUN/details/1-$E2E_TARGET-tests.txt"

t_done
