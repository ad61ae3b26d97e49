#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-75-mbox.sh - end to end: a series from the inbox. The thread of
# test/fixtures/mbox/thread.mbox holds v1 and v2 of the series, each with
# its cover, and replies that carry Reviewed-by. tools/bisect-check
# --mbox, on the preparation commit of WORKDIR's kernel repo (--base),
#
#   - checks v2, not v1, with the replies' trailers in the applied
#     commits, every step built and booted, and says the revision and
#     the cover in the report's header;
#   - refuses, before anything runs (no run dir), a mail with no patch,
#     a revision with a patch missing (also when an older revision has
#     it), unicode control characters in a patch, and a cover that needs
#     prerequisite patches, each saying what is wrong;
#   - with --init writes the series and its cover letter instead;
#   - a patch that does not apply on the base fails its apply cell, which
#     names the failing hunk and says whether git am -3 would apply it
#     (noapply.mbox: no, the base lacks its blobs; threeway.mbox: yes);
#   - the report of each starts with what a maintainer replies with.

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

KREPO=$WORKDIR/kernel.git
MB=$T_TOP/test/fixtures/mbox
BC=$T_TOP/tools/bisect-check
BASE=bisect/unexport-kallsyms/v2-base
trap 'rm -rf "$T_TMP"' EXIT

t_plan 32

if ! git --git-dir="$KREPO" rev-parse -q --verify "$BASE" > /dev/null; then
	e2e_run "$T_TOP/series.yaml" LOCK_WAIT=900
fi

LOCK_WAIT=${LOCK_WAIT:-900} "$BC" -C "$KREPO" --mbox "$MB/thread.mbox" --base "$BASE" \
	> "$T_TMP/mbox.out" 2> "$T_TMP/mbox.err"
rc=$?
run=$(readlink -f "$WORKDIR/runs/latest")
# v2's 2/3 has a checkpatch warning series.yaml accepts; a series taken
# in from mail accepts nothing yet: that cell fails, and only that one.
t_eq "--mbox: the run's verdict (only 2/3's checkpatch, which nothing accepts, fails)" \
	"1|2 checkpatch FAIL" \
	"$rc|$(awk -F'\t' '$4 == "FAIL" { print $1, $3, $4 }' "$run/cells.tsv" | paste -sd ',')"
t_eq "--mbox: v2 is the revision checked, its cover in the header" \
	"v2: Unexport kallsyms_lookup_name() and kallsyms_on_each_symbol()" \
	"$(awk -F'\t' '$1 == "cover" { print $2 }' "$run/meta.tsv")"
t_eq "--mbox: three patches on the base, each built and booted" \
	"0 ok ok|1 ok ok|2 ok ok|3 ok ok" \
	"$(awk -F'\t' '$2 == "'"$E2E_TARGET"'" && ($3 == "build" || $3 == "boot") {
		s[$1] = s[$1] " " $4 } END { for (i = 0; i in s; i++)
		printf "%s%d%s", (i ? "|" : ""), i, s[i] }' "$run/cells.tsv")"
tip=$(awk -F'\t' '$1 == 3 { print $3 }' "$run/steps.tsv")
t_eq "--mbox: the trees are v2's" \
	"$(git --git-dir="$KREPO" rev-parse 'bisect/unexport-kallsyms/v2^{tree}')" \
	"$(git --git-dir="$KREPO" rev-parse "$tip^{tree}" 2>&1)"
t_eq "--mbox: 2/3 carries the Reviewed-by of its reply and of the cover's" \
	"Reviewed-by: Masami Hiramatsu <mhiramat@kernel.org>|Reviewed-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>" \
	"$(git --git-dir="$KREPO" log -1 --format=%B "$tip~1" | grep '^Reviewed-by: ' | paste -sd '|')"
t_eq "--mbox: and keeps its author" "Will Deacon <will@kernel.org>" \
	"$(git --git-dir="$KREPO" log -1 --format='%an <%ae>' "$tip~1")"
# shown(): how the report shows the cell of step $2, stage $3 of run dir
# $1: status and summary, after "from run RUN: " when it was cached.
shown()
{
	awk -F'\t' -v i="$2" -v s="$3" '$1 == i && $3 == s {
		if ($8 == "-")
			print $4, $6
		else
			print $4 "* from run " substr($8, 1, index($8, "/") - 1) ": " $6
	}' "$1/cells.tsv"
}
BASE_LINE="base: $(git --git-dir="$KREPO" rev-parse "$BASE") \\(.* of $(realpath "$KREPO")\\)"
t_eq "--mbox: the report starts with the reply: the series, the first failing commit and cell, the base" \
	"bisect-check of v2: Unexport kallsyms_lookup_name() and kallsyms_on_each_symbol(): 1 of 4 steps failed|first failing commit: 2/3 samples/hw_breakpoint: Drop use of kallsyms_lookup_name()|cell: step 2/3, stage checkpatch: $(shown "$run" 2 checkpatch)|yes" \
	"$(sed -n '1,3p' "$T_TMP/mbox.out" | paste -sd '|')|$(
	sed '/^$/q' "$T_TMP/mbox.out" | grep -cE "^$BASE_LINE\$" | sed 's/^1$/yes/')"

# refused(): --mbox of fixture $1 exits 2, says $2 (an ERE), and runs
# nothing (no new run dir): three results.
refused()
{
	local f=$1; shift
	local said=$1; shift
	local before

	before=$(readlink -f "$WORKDIR/runs/latest")
	t_rc "$f: refused" 2 "$BC" -C "$KREPO" --mbox "$MB/$f.mbox" --base "$BASE"
	t_grep "$f: says what is wrong" "$said" "$T_OUT"
	t_eq "$f: nothing ran" "$before" "$(readlink -f "$WORKDIR/runs/latest")"
}
refused notpatch 'notpatch\.mbox: no patch in it'
refused partial 'partial\.mbox: a partial series, 1/3 missing'
refused control 'control\.mbox: unicode control characters in a patch .*Char: RIGHT-TO-LEFT OVERRIDE'
refused prereq 'prereq\.mbox: the series needs prerequisite patches first \(patch-id 4b1a4c3e2f19'
t_rc "mixed: v2 is not filled up from v1" 2 "$BC" -C "$KREPO" --mbox "$MB/mixed.mbox" --base "$BASE"
t_grep "mixed: says which patch of v2 is missing" 'mixed\.mbox: a partial series, 3/3 missing' "$T_OUT"

# no_apply(): --mbox of fixture $1, one patch with subject $2, on the
# base: exit 1, its apply cell the only failure, with summary $3 (after
# "0001.patch does not apply at samples/hw_breakpoint/data_breakpoint.c:");
# the report starts with the reply that says so. Three results; RUN is
# the run dir, DETAIL the cell's details.
no_apply()
{
	local f=$1; shift
	local subject=$1; shift
	local summary="0001.patch does not apply at samples/hw_breakpoint/data_breakpoint.c:$1"; shift
	local rc

	LOCK_WAIT=${LOCK_WAIT:-900} "$BC" -C "$KREPO" --mbox "$MB/$f.mbox" --base "$BASE" \
		> "$T_TMP/$f.out" 2> "$T_TMP/$f.err"
	rc=$?
	RUN=$(readlink -f "$WORKDIR/runs/latest")
	DETAIL=$RUN/details/1-apply.txt
	t_eq "$f: only the patch's apply fails, its summary naming the hunk and git am -3" \
		"1|1 apply FAIL $summary" \
		"$rc|$(awk -F'\t' '$4 == "FAIL" { print $1, $3, $4, $6 }' "$RUN/cells.tsv" | paste -sd ',')"
	t_grep "$f: details name the patch file and subject" \
		"^actual: \"$subject\" \\(0001\\.patch\\) does not apply: git am failed\$" "$DETAIL"
	t_eq "$f: the report starts with the reply: the commit, the cell, the base" \
		"bisect-check of --mbox $MB/$f.mbox: 1 of 2 steps failed|first failing commit: 1/1 $subject|cell: step 1/1, stage apply: $(shown "$RUN" 1 apply)|yes" \
		"$(sed -n '1,3p' "$T_TMP/$f.out" | paste -sd '|')|$(
		sed '/^$/q' "$T_TMP/$f.out" | grep -cE "^$BASE_LINE\$" | sed 's/^1$/yes/')"
}

no_apply noapply "samples/hw_breakpoint: Say write breakpoint in the module description" \
	"74; git am -3 cannot work: the base lacks its blobs"
t_grep "noapply: details give the failing hunk's header" \
	'^failing hunk: samples/hw_breakpoint/data_breakpoint\.c:74 @@ -74,4 \+74,4 @@ module_exit\(hw_break_module_exit\);$' \
	"$DETAIL"
t_grep "noapply: details name the blob the base lacks" \
	'^three-way: git am -3 cannot work: the base lacks the blob\(s\) 3add216 ' "$DETAIL"
no_apply threeway "samples/hw_breakpoint: Make sample_hbp static" "21; git am -3 would apply it"
t_grep "threeway: details say git am -3 applies it cleanly" \
	'^three-way: git am -3 would apply it cleanly' "$DETAIL"

t_rc "--init: writes the series of the thread" 0 \
	"$BC" -C "$KREPO" --mbox "$MB/thread.mbox" --base "$BASE" --init "$T_TMP/in/series.yaml"
t_eq "--init: version 2, its cover letter, three patches, as tools/bin/series reads them" \
	"2|Unexport kallsyms_lookup_name() and kallsyms_on_each_symbol()|3" \
	"$("$T_BIN/series" "$T_TMP/in/series.yaml" | awk -F'\t' '$1 == "version" { print $2 }')|$(
		head -n 1 "$T_TMP/in/cover-letter.txt")|$(find "$T_TMP/in/patches" -name '*.patch' | wc -l)"

t_done
