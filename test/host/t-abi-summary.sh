#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-abi-summary.sh - the exported ABI per patch that `make send ABI=1`
# prints for the cover letter: tools/bin/report --abi on the abi cells
# of a real run (test/fixtures/abi-summary/README) and on variants of it
# (targets that differ, each kind of change, cells that did not pass,
# details it cannot read).

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

t_plan 29

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

t_done
