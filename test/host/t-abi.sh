#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-abi.sh - fixture tests of tools/bin/abi (the abi stage's judge) on
# Module.symvers excerpts of a 6.1 build (test/fixtures/abi/README): the
# series' 3/3 as declared passes; an added export, one turned
# EXPORT_SYMBOL_GPL and an undeclared removal each fail naming the
# symbol; a declaration that is not made fails; bad input is rc 2 with
# FILE:LINE, never a crash (the sanitizer build runs here).

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

ABI=$T_BIN/abi
FIX=$T_TOP/test/fixtures/abi
TAB=$'\t'

t_plan 32

# --- the series' 3/3: the two declared removals ---
t_rc "3/3 as declared: exit 0" 0 "$ABI" "$FIX/before.symvers" "$FIX/unexport.symvers" \
	"$FIX/unexport.decl"
t_eq "3/3: both removals, with type and object, declared" \
	"removed${TAB}kallsyms_lookup_name${TAB}EXPORT_SYMBOL_GPL@vmlinux${TAB}-${TAB}declared|removed${TAB}kallsyms_on_each_symbol${TAB}EXPORT_SYMBOL_GPL@vmlinux${TAB}-${TAB}declared" \
	"$(paste -sd '|' "$T_OUT")"
t_rc "3/3 with nothing declared: exit 1" 1 "$ABI" "$FIX/before.symvers" "$FIX/unexport.symvers"
t_eq "and both removals are undeclared" "undeclared undeclared" "$(cut -f5 "$T_OUT" | xargs)"
t_rc "3/3 with --info: exit 0" 0 "$ABI" --info "$FIX/before.symvers" "$FIX/unexport.symvers"
t_eq "and the changes are reported as information" "info info" "$(cut -f5 "$T_OUT" | xargs)"

# --- each kind of change fails only when undeclared, naming the symbol ---
t_rc "an added export: exit 1" 1 "$ABI" "$FIX/before.symvers" "$FIX/adds.symvers" -
t_eq "it is named, with what it is after" \
	"added${TAB}new_helper${TAB}-${TAB}EXPORT_SYMBOL@vmlinux${TAB}undeclared" "$(< "$T_OUT")"
t_rc "EXPORT_SYMBOL turned _GPL: exit 1" 1 "$ABI" "$FIX/before.symvers" "$FIX/to-gpl.symvers"
t_eq "it is named, before and after" \
	"changed${TAB}jiffies${TAB}EXPORT_SYMBOL@vmlinux${TAB}EXPORT_SYMBOL_GPL@vmlinux${TAB}undeclared" \
	"$(< "$T_OUT")"
t_rc "an undeclared removal: exit 1" 1 "$ABI" "$FIX/before.symvers" "$FIX/removes.symvers"
t_eq "it is named" "removed${TAB}phys_base${TAB}EXPORT_SYMBOL@vmlinux${TAB}-${TAB}undeclared" \
	"$(< "$T_OUT")"
printf 'changes\tjiffies\n' > "$T_TMP/gpl.decl"
t_rc "the same change declared (changes): exit 0" 0 "$ABI" "$FIX/before.symvers" \
	"$FIX/to-gpl.symvers" "$T_TMP/gpl.decl"

# --- a declaration must be made, by the change it names ---
printf 'removes\tjiffies\n' > "$T_TMP/wrong.decl"
t_rc "declared removes, but the symbol changed: exit 1" 1 "$ABI" "$FIX/before.symvers" \
	"$FIX/to-gpl.symvers" "$T_TMP/wrong.decl"
t_eq "the change is undeclared and the declaration not made" \
	"changed jiffies undeclared|not-made jiffies undeclared" \
	"$(awk -F'\t' '{ print $1, $2, $5 }' "$T_OUT" | paste -sd '|')"
t_rc "no change, yet removals declared: exit 1" 1 "$ABI" "$FIX/before.symvers" \
	"$FIX/before.symvers" "$FIX/unexport.decl"
t_eq "each declaration is named with its kind" \
	"not-made kallsyms_lookup_name removes|not-made kallsyms_on_each_symbol removes" \
	"$(awk -F'\t' '{ print $1, $2, $3 }' "$T_OUT" | paste -sd '|')"

# --- a move between objects is information; a namespace change is a change ---
sed 's|\tnet/netfilter/nf_conntrack\t|\tnet/netfilter/nf_conntrack_helper\t|' "$FIX/before.symvers" \
	> "$T_TMP/moved.symvers"
t_rc "an export that only moved to another object: exit 0" 0 "$ABI" "$FIX/before.symvers" \
	"$T_TMP/moved.symvers"
t_eq "reported as a move" "moved nf_conntrack_helper_register info" \
	"$(awk -F'\t' '{ print $1, $2, $5 }' "$T_OUT")"
sed 's|\tCXL$|\tCXL_CORE|' "$FIX/before.symvers" > "$T_TMP/ns.symvers"
t_rc "another namespace: exit 1" 1 "$ABI" "$FIX/before.symvers" "$T_TMP/ns.symvers"
t_eq "shown with the namespaces" \
	"EXPORT_SYMBOL_GPL:CXL@vmlinux EXPORT_SYMBOL_GPL:CXL_CORE@vmlinux" \
	"$(cut -f3,4 "$T_OUT" | tr '\t' ' ')"

# --- bad input: rc 2, the file and line, nothing else ---
printf '0x0\tfoo\tvmlinux\n' > "$T_TMP/short.symvers"
t_rc "a line with three fields: exit 2" 2 "$ABI" "$T_TMP/short.symvers" "$FIX/before.symvers"
t_grep "names the file and line" 'short\.symvers:1: expected 4 or 5 tab-separated fields' "$T_OUT"
{ cat "$FIX/before.symvers"; sed -n 4p "$FIX/before.symvers"; } > "$T_TMP/twice.symvers"
t_rc "a symbol twice in one file: exit 2" 2 "$ABI" "$FIX/before.symvers" "$T_TMP/twice.symvers"
printf 'renames\tfoo\n' > "$T_TMP/bad.decl"
t_rc "a declaration of no known kind: exit 2" 2 "$ABI" "$FIX/before.symvers" \
	"$FIX/before.symvers" "$T_TMP/bad.decl"
# Random bytes, NULs and all: an input error, never a crash.
head -c 4096 /dev/urandom > "$T_TMP/noise"
t_rc "random bytes: exit 2 (no crash, no sanitizer report)" 2 "$ABI" "$T_TMP/noise" \
	"$FIX/before.symvers"

# --- the stage program (tools/stages/abi) on the same files ---
# stage(): run the abi stage on builds' dirs $1 (before) and $2, with
# declarations $3, the series judging them unless $4 is "no", in a clean
# environment as the cell runner does.
stage()
{
	local d=$T_TMP/stage
	rm -rf "$d" && mkdir -p "$d"
	printf 'build-art\t%s\nprev-build-art\t%s\nabi-declared\t%s\nabi-judged\t%s\nidx\t3\nseries\t%s\nabi-tool\t%s\n' \
		"$2" "$1" "$3" "${4:-yes}" /x/series.yaml "$ABI" > "$d/inputs"
	env -i PATH="$PATH" "$T_TOP/tools/stages/abi" "$d/inputs" "$d/rec" "$d/log" "$d/detail" \
		> /dev/null 2>&1
	printf '%s|%s\n' "$(sed -n 's/^status\t//p' "$d/rec")" "$(sed -n 's/^summary\t//p' "$d/rec")"
}
mkdir -p "$T_TMP/b0" "$T_TMP/b3" "$T_TMP/badd"
cp "$FIX/before.symvers" "$T_TMP/b0/Module.symvers"
cp "$FIX/unexport.symvers" "$T_TMP/b3/Module.symvers"
cp "$FIX/adds.symvers" "$T_TMP/badd/Module.symvers"
t_eq "stage: 3/3 as declared" "ok|-2 export(s), as declared" \
	"$(stage "$T_TMP/b0" "$T_TMP/b3" "$FIX/unexport.decl")"
t_eq "stage: an undeclared export names it" "FAIL|1 export change(s) not as declared: new_helper" \
	"$(stage "$T_TMP/b0" "$T_TMP/badd" /dev/null)"
t_grep "stage: the details name the series file to edit" \
	'^next: declare the change under abi: of patch 3 in /x/series\.yaml' "$T_TMP/stage/detail"
t_eq "stage: a series that declares nothing: the change reported, not judged" \
	"ok|+1 export(s), none declared in the series: reported, not judged" \
	"$(stage "$T_TMP/b0" "$T_TMP/badd" /dev/null no)"
t_grep "stage: and the details name the symbol" '^added new_helper: .*\(info\)$' "$T_TMP/stage/detail"
t_eq "stage: no build of the step before: a skip, not a verdict" \
	"skip|no build of the step before on this target to compare with (STEPS= left it out)" \
	"$(stage - "$T_TMP/b3" /dev/null)"

t_done
