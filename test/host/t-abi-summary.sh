#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-abi-summary.sh - the exported ABI per patch that `make send ABI=1`
# prints for the cover letter: tools/bin/report --abi on the abi cells
# of a real run (test/fixtures/abi-summary/README) and on variants of it
# (targets that differ, each kind of change, cells that did not pass,
# details it cannot read), then tools/send.sh --abi, which prints it only
# from the last run of exactly this series and writes and sends nothing.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/abi-summary
REPORT=$T_BIN/report
TAB=$'\t'

# fresh(): a scratch copy of the fixture's run dir, named $1; its path.
fresh()
{
	rm -rf "${T_TMP:?}/$1"
	cp -r "$FIX/run" "$T_TMP/$1"
	echo "$T_TMP/$1"
}

# cell(): set the status and summary of the abi cell of step $2 on
# target $3 in run dir $1 to $4 and $5.
cell()
{
	local run=$1; shift
	awk -F'\t' -v OFS='\t' -v s="$1" -v t="$2" -v st="$3" -v sum="$4" \
		'$1 == s && $2 == t && $3 == "abi" { $4 = st; $6 = sum } { print }' \
		"$run/cells.tsv" > "$run/cells.tsv.new" && mv "$run/cells.tsv.new" "$run/cells.tsv"
}

t_plan 41

# --- the real run: all three targets agree ---
t_rc "report --abi: exit 0" 0 "$REPORT" --abi "$FIX/run"
t_eq "report --abi: the summary of the run" "" "$(diff -u "$FIX/golden.txt" "$T_OUT" 2>&1)"
t_eq "report --abi: no line of the changes is longer than 72 columns" "" \
	"$(grep '^      ' "$T_OUT" | awk 'length($0) > 72')"
t_eq "report --abi: step 0 (the preparation) is left out" "1/3 2/3 3/3" \
	"$(awk '/^  [^ ]/ { print $1 }' "$T_OUT" | xargs)"

# --- the targets differ at 2/3: one line per group of targets ---
run=$(fresh differ)
printf 'added new_helper: - -> EXPORT_SYMBOL@vmlinux (declared)\n' > "$run/details/2-arm64-gcc-abi.txt"
t_rc "targets differ: exit 0" 0 "$REPORT" --abi "$run"
t_grep "targets differ: the heading does not say they agree" \
	'^Exported ABI per patch \(x86_64-gcc, arm64-gcc, x86_64-clang\):$' "$T_OUT"
t_eq "targets differ: 2/3 has a line per group of targets that agree" \
	"  2/3 samples/hw_breakpoint: Drop use of kallsyms_lookup_name()|      x86_64-gcc, x86_64-clang: no change|      arm64-gcc: +1 export: new_helper (EXPORT_SYMBOL, vmlinux)" \
	"$(grep -A2 '^  2/3 ' "$T_OUT" | paste -sd '|')"
t_eq "targets differ: the steps where they agree keep one line" \
	"      no change" "$(grep -A1 '^  1/3 ' "$T_OUT" | tail -n 1)"

# --- each kind of change, namespaces and the wrapping of a long list ---
run=$(fresh kinds)
{
	printf 'removed kallsyms_lookup_name: EXPORT_SYMBOL_GPL@vmlinux -> - (declared)\n'
	printf 'added cxl_probe: - -> EXPORT_SYMBOL_GPL:CXL@drivers/cxl/core/cxl_core (declared)\n'
	printf 'changed jiffies: EXPORT_SYMBOL@vmlinux -> EXPORT_SYMBOL_GPL@vmlinux (declared)\n'
	printf 'moved nf_conntrack_helper_register: EXPORT_SYMBOL_GPL@net/netfilter/nf_conntrack -> EXPORT_SYMBOL_GPL@net/netfilter/nf_conntrack_helper (info)\n'
} > "$run/details/3-x86_64-gcc-abi.txt"
cp "$run/details/3-x86_64-gcc-abi.txt" "$run/details/3-arm64-gcc-abi.txt"
cp "$run/details/3-x86_64-gcc-abi.txt" "$run/details/3-x86_64-clang-abi.txt"
t_rc "each kind: exit 0" 0 "$REPORT" --abi "$run"
t_eq "each kind: counted and named in the order removed, added, changed, moved" \
	"-1 export: kallsyms_lookup_name (EXPORT_SYMBOL_GPL, vmlinux); +1 export: cxl_probe (EXPORT_SYMBOL_GPL, namespace CXL, drivers/cxl/core/cxl_core); 1 export changed: jiffies (EXPORT_SYMBOL, vmlinux -> EXPORT_SYMBOL_GPL, vmlinux); 1 export moved: nf_conntrack_helper_register (EXPORT_SYMBOL_GPL, net/netfilter/nf_conntrack -> EXPORT_SYMBOL_GPL, net/netfilter/nf_conntrack_helper)" \
	"$(sed -n '/^  3\/3 /,$p' "$T_OUT" | tail -n +2 | sed 's/^ *//' | paste -sd ' ')"
t_eq "each kind: wrapped between symbols, within 72 columns where they fit" \
	"      -1 export: kallsyms_lookup_name (EXPORT_SYMBOL_GPL, vmlinux);" \
	"$(grep -A1 '^  3/3 ' "$T_OUT" | tail -n 1)"
t_eq "each kind: a part longer than a line stays whole" \
	"        nf_conntrack_helper_register (EXPORT_SYMBOL_GPL, net/netfilter/nf_conntrack -> EXPORT_SYMBOL_GPL, net/netfilter/nf_conntrack_helper)" \
	"$(tail -n 1 "$T_OUT")"

# --- a cell that did not pass: no summary at all, each cell named ---
run=$(fresh failed)
cell "$run" 3 arm64-gcc FAIL "1 export change(s) not as declared: kallsyms_lookup_name"
t_rc "a failed abi cell: exit 1" 1 "$REPORT" --abi "$run"
t_grep "a failed abi cell: named with its step, target and summary" \
	'^report: error: step 3/3 on arm64-gcc: no abi verdict: cached-FAIL: from run 20261207-032836-28388: 1 export change\(s\) not as declared: kallsyms_lookup_name$' \
	"$T_OUT"
t_nogrep "a failed abi cell: no summary printed" '^Exported ABI' "$T_OUT"
run=$(fresh missing)
grep -v "^2${TAB}x86_64-clang${TAB}" "$FIX/run/cells.tsv" > "$run/cells.tsv"
t_rc "an abi cell that is not in cells.tsv: exit 1" 1 "$REPORT" --abi "$run"
t_grep "a missing abi cell: said so" '^report: error: step 2/3 on x86_64-clang: no abi verdict: not run$' \
	"$T_OUT"
run=$(fresh skipped)
cell "$run" 1 x86_64-gcc skip "no build"
cell "$run" 2 x86_64-gcc skip "no build"
t_rc "skipped abi cells: exit 1" 1 "$REPORT" --abi "$run"
t_grep "skipped abi cells: counted" '^report: error: 2 abi cell\(s\) of .* did not pass: no summary$' \
	"$T_OUT"

# --- what it cannot read: exit 2, the file and line ---
run=$(fresh garbled)
printf 'removed kallsyms_lookup_name EXPORT_SYMBOL_GPL@vmlinux\n' >> "$run/details/3-x86_64-clang-abi.txt"
t_rc "a detail line of no known form: exit 2" 2 "$REPORT" --abi "$run"
t_grep "a detail line of no known form: the file and line" \
	'3-x86_64-clang-abi\.txt:3: expected "CHANGE SYMBOL: BEFORE -> AFTER \(VERDICT\)"' "$T_OUT"
run=$(fresh undeclared)
sed -i 's/(declared)$/(undeclared)/' "$run/details/3-x86_64-gcc-abi.txt"
t_rc "an undeclared change in a cell that passed: exit 2" 2 "$REPORT" --abi "$run"
t_grep "an undeclared change: the file and line" '3-x86_64-gcc-abi\.txt:1: removed kallsyms_lookup_name is "undeclared"' \
	"$T_OUT"
run=$(fresh sides)
sed -i '1s/ -> - / -> EXPORT_SYMBOL_GPL@vmlinux /' "$run/details/3-x86_64-gcc-abi.txt"
t_rc "a removal that is still there: exit 2" 2 "$REPORT" --abi "$run"
t_grep "a removal that is still there: the file and line" '3-x86_64-gcc-abi\.txt:1: removed kallsyms_lookup_name: bad sides' \
	"$T_OUT"
run=$(fresh old)
grep -v '^abi' "$FIX/run/stages.tsv" > "$run/stages.tsv"
grep -v "${TAB}abi${TAB}" "$FIX/run/cells.tsv" > "$run/cells.tsv"
t_rc "a run older than the abi cell: exit 2" 2 "$REPORT" --abi "$run"
t_grep "a run older than the abi cell: says so and what to do" \
	'stages\.tsv: no abi stage: the run is older; run '\''make bisect-check'\'' again' "$T_OUT"
run=$(fresh noise)
head -c 4096 /dev/urandom > "$run/details/3-arm64-gcc-abi.txt"
t_rc "random bytes as details: exit 2 (no crash, no sanitizer report)" 2 "$REPORT" --abi "$run"
t_rc "report --abi without a run dir: usage, exit 2" 2 "$REPORT" --abi

# --- tools/send.sh --abi: only from the last run of exactly this series ---
# A WORKDIR whose kernel repo has the series' base branch, and the run
# dir as a passed run of series.yaml on that base with these patches.
SERIES_FILE=$T_TOP/series.yaml
WD=$T_TMP/workdir
git init -q --bare "$WD/kernel.git"
base=$(GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t.test GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@t.test git --git-dir="$WD/kernel.git" commit-tree -m base \
	"$(git --git-dir="$WD/kernel.git" mktree < /dev/null)")
git --git-dir="$WD/kernel.git" update-ref refs/heads/bisect/unexport-kallsyms/v2-base "$base"
RUN=$(fresh sendrun)
{
	printf 'series\t%s\nname\tunexport-kallsyms\nversion\t2\nbase\t%s\n' \
		"$(realpath "$SERIES_FILE")" "$base"
	n=0
	while IFS=$'\t' read -r kind _ patch _; do
		[[ "$kind" == patch ]] || continue
		n=$((n + 1))
		printf 'patch-id\t%s\t%s\n' "$n" "$(git patch-id --stable < "$patch" | cut -d' ' -f1)"
	done < <("$T_TOP/tools/bin/series" "$SERIES_FILE")
	printf 'steps\tall\ntargets\tall\nexit\t0\n'
} > "$RUN/series.tsv"
# send_abi(): tools/send.sh --abi on series.yaml with run dir $1; stdout
# to $T_OUT, stderr to $T_TMP/err.
# shellcheck disable=SC2317  # run by t_rc
send_abi()
{
	local run=$1; shift
	env -u SEND_OUT WORKDIR="$WD" LAST_RUN="$run" "$@" "$T_TOP/tools/send.sh" --abi \
		"$SERIES_FILE" 2> "$T_TMP/err"
}
# listing(): the files of the kernel repo and the run dir, with their sums.
listing()
{
	find "$WD/kernel.git" "$RUN" | sort
	find "$WD/kernel.git" "$RUN" -type f -exec md5sum {} + | sort
}
before=$(listing)
t_rc "send.sh --abi: exit 0" 0 send_abi "$RUN" SEND=1
t_eq "send.sh --abi: stdout is the summary, nothing else" "" \
	"$(diff -u "$FIX/golden.txt" "$T_OUT" 2>&1)"
t_grep "send.sh --abi: says it is for the sender to paste, never added" \
	'paste it into .*cover-letter\.txt if you want it there \(make send never adds it\)' "$T_TMP/err"
t_grep "send.sh --abi: SEND=1 is ignored, said so" '^send: note: SEND=1 ignored' "$T_TMP/err"
t_eq "send.sh --abi: the kernel repo and the run dir are unchanged" "$before" "$(listing)"
t_eq "send.sh --abi: no message, send log or send worktree anywhere" "" \
	"$(find "$WD" "$RUN" \( -name '*.eml' -o -name send -o -name send.log -o -name send-wt \
		-o -name send.lock \) -print)"
sed "s/^\\(patch-id${TAB}2${TAB}\\).*/\\10123456789abcdef0123456789abcdef01234567/" "$RUN/series.tsv" \
	> "$T_TMP/series.tsv" && cp "$T_TMP/series.tsv" "$RUN/series.tsv.changed"
mkdir -p "$T_TMP/run-patch" && cp -r "$RUN"/. "$T_TMP/run-patch" &&
	mv "$T_TMP/run-patch/series.tsv.changed" "$T_TMP/run-patch/series.tsv"
rm -f "$RUN/series.tsv.changed"
t_rc "send.sh --abi, patch 2 changed since the run: exit 1" 1 send_abi "$T_TMP/run-patch"
t_grep "patch 2 changed: says why" '^  - patch 2 changed since the check' "$T_TMP/err"
t_grep "patch 2 changed: says what to do next" \
	"^send: next: run 'make bisect-check SERIES=.*series\\.yaml', then 'make send ABI=1' again when it passes\$" \
	"$T_TMP/err"
t_eq "patch 2 changed: prints no summary" "" "$(< "$T_OUT")"
t_rc "send.sh --abi, no run: exit 1" 1 send_abi "$T_TMP/no-run"
t_grep "no run: says so" '^  - no run: no bisect-check of unexport-kallsyms v2 recorded' "$T_TMP/err"

t_done
