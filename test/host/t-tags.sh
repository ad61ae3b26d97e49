#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-tags.sh - fixture tests of tools/bin/tags: the series' own patches
# (v2 clean, v1's bare commit citation), one made-up patch per kind of
# finding, checkpatch.pl's real --show-types output of each (6.1's,
# --no-tree --strict) for the de-duplication, --known subjects, RFC 2047
# From: headers, in-body From:, notes after "---", a patch without
# "---", and inputs that must not crash it: empty, binary, headerless,
# CRLF, no final newline, 1 MB lines, malformed encoded words, fuzz.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/tags
TAGS=$T_BIN/tags
TAB=$'\t'
WILL='Will Deacon <will@kernel.org>'
JANE_FROM='From: Jane Doe <jane@example.org>'
F60='f60d24d2ad04 ("hw-breakpoints: Fix broken hw-breakpoint sample module")'

# check(): desc, expected exit, patch (a name in $FIX or a path), the
# expected findings as "kind<TAB>message<TAB>raw" lines ("" for none),
# then tags' options. Two results: the exit status, and the findings
# compared as sets (sorted), each line prefixed with the patch's path.
check()
{
	local desc=$1 rc=$2 patch=$3 want=$4
	shift 4
	[[ $patch == /* ]] || patch=$FIX/$patch
	t_rc "$desc: exit $rc" "$rc" "$TAGS" --patch "$patch" "$@"
	want=$(printf '%s\n' "$want" | awk -v f="$patch" 'NF { print f "\t" $0 }' | LC_ALL=C sort)
	t_eq "$desc: findings" "$want" "$(LC_ALL=C sort "$T_OUT")"
}

# f(): one expected finding, from its kind, message and raw line.
f()
{
	printf '%s\t%s\t%s\n' "$1" "$2" "$3"
}

t_plan 96

# --- the series' patches ---
for n in 1 2 3; do
	check "v2 $n/3 with sender Will Deacon" 0 "v2-000$n.patch" "" --sender "$WILL"
done
check "v2 2/3 quotes the known subject, wrapped over two lines" 0 v2-0002.patch "" \
	--sender "$WILL" --known "$FIX/known.tsv"
V1=$(f commit-ref-format 'a commit cited without the word "commit" before its id' "$F60.")
check "v1 2/3 cites a bare id" 1 v1-0002.patch "$V1" --sender "$WILL"
check "v1 2/3 with --known: the subject is right, the form is not" 1 v1-0002.patch "$V1" \
	--known "$FIX/known.tsv"
check "v1 2/3: checkpatch's GIT_COMMIT_ID on that line drops it" 0 v1-0002.patch "" \
	--checkpatch "$FIX/v1-0002.checkpatch"

# --- one made-up patch per kind ---
MISSING=$(f missing-sob 'no Signed-off-by: of the author <jane@example.org>' "$JANE_FROM")
check "missing-sob" 1 missing-sob.patch "$MISSING"
check "missing-sob: checkpatch's NO_AUTHOR_SIGN_OFF drops it" 0 missing-sob.patch "" \
	--checkpatch "$FIX/missing-sob.checkpatch"

check "sob-name-mismatch: same email in another case, another name" 1 \
	sob-name-mismatch.patch \
	"$(f sob-name-mismatch 'the author <jane@example.org> signs off as "Jane Q. Doe", not as "Jane Doe" (From:)' \
		'Signed-off-by: Jane Q. Doe <Jane@Example.org>')"
check "sob-name-mismatch: checkpatch's FROM_SIGN_OFF_MISMATCH drops it" 0 \
	sob-name-mismatch.patch "" --checkpatch "$FIX/sob-name-mismatch.checkpatch"

check "sender-sob-not-last" 1 sender.patch \
	"$(f sender-sob-not-last 'the sender <will@kernel.org> must sign off last, after <jane@example.org>' \
		'Signed-off-by: Will Deacon <will@kernel.org>')" --sender "$WILL"
check "missing-sender-sob" 1 sender.patch \
	"$(f missing-sender-sob 'no Signed-off-by: of the sender <other@example.org>' "$JANE_FROM")" \
	--sender "Other Person <other@example.org>"
check "the sender's email compares case-insensitively" 0 sender.patch "" \
	--sender "Jane Doe <JANE@example.org>"

FIXES_MSG=$(printf '%s\n' \
	'a commit id of fewer than 12 hex digits' \
	'a commit id in upper case' \
	'Fixes: without ("subject") one space after the id' \
	'Fixes: with a subject not closed by ") on its line' \
	'Fixes: with the word "commit" before the id' \
	'write the tag as "Fixes: " at the start of the line')
FIXES_RAW=$(printf '%s\n' \
	'Fixes: f60d24d2 ("hw-breakpoints: Fix broken hw-breakpoint sample module")' \
	'Fixes: F60D24D2AD04 ("hw-breakpoints: Fix broken hw-breakpoint sample module")' \
	'Fixes: f60d24d2ad04 hw-breakpoints: Fix broken hw-breakpoint sample module' \
	'Fixes: f60d24d2ad04 ("hw-breakpoints: Fix broken hw-breakpoint sample' \
	"Fixes: commit $F60" \
	"fixes: $F60")
check "fixes-format: six bad Fixes: tags, the good one passes" 1 fixes-format.patch \
	"$(paste <(yes fixes-format | head -n 6) <(printf '%s\n' "$FIXES_MSG") \
		<(printf '%s\n' "$FIXES_RAW"))"
check "fixes-format: checkpatch's BAD_FIXES_TAG on each line drops them" 0 \
	fixes-format.patch "" --checkpatch "$FIX/fixes-format.checkpatch"

FIRST=$(f commit-ref-format 'a commit id of fewer than 12 hex digits' \
	'The sample has reported reads since commit 1a2b3c4 ("samples: Add')
check "commit-ref-format: short, no subject, bare, upper case; not the good ones" 1 \
	commit-ref-format.patch "$FIRST
$(f commit-ref-format 'a commit without ("subject") after its id' \
	'hw_breakpoint"), and the export came with commit f60d24d2ad04, which')
$(f commit-ref-format 'a commit cited without the word "commit" before its id' \
	'made it a modular user. As f60d24d2ad04 ("hw-breakpoints: Fix broken')
$(f commit-ref-format 'a commit id in upper case' \
	'too: commit F60D24D2AD04 ("hw-breakpoints: Fix broken hw-breakpoint')"
check "commit-ref-format: checkpatch skips the message's first line, so that one stays" 1 \
	commit-ref-format.patch "$FIRST" --checkpatch "$FIX/commit-ref-format.checkpatch"
check "commit-ref-format: wrapped and well-formed passes with --known" 1 \
	commit-ref-format.patch "$FIRST" --checkpatch "$FIX/commit-ref-format.checkpatch" \
	--known "$FIX/known.tsv"

check "commit-subject-mismatch: a cited and a Fixes: subject; unknown ids are fine" 1 \
	mismatch.patch \
	"$(f commit-subject-mismatch 'commit f60d24d2ad04 is ("hw-breakpoints: Fix broken hw-breakpoint sample module"), not ("hw-breakpoints: Fix the sample module")' \
		'The export came with commit f60d24d2ad04 ("hw-breakpoints: Fix the')
$(f commit-subject-mismatch 'commit f60d24d2ad04 is ("hw-breakpoints: Fix broken hw-breakpoint sample module"), not ("hw-breakpoints: fix broken hw-breakpoint sample module")' \
		'Fixes: f60d24d2ad04 ("hw-breakpoints: fix broken hw-breakpoint sample module")')" \
	--known "$FIX/known.tsv" --checkpatch "$FIX/mismatch.checkpatch"
check "commit-subject-mismatch: without --known, nothing to compare" 0 mismatch.patch ""

TRAILERS=$(printf 'Signed-off-by: with whitespace before the colon\tSigned-off-by : John Roe <john@example.org>
Signed-off-by: outside the trailer block (the last paragraph)\tSigned-off-by: Early Bird <early@example.org>')
check "trailer-format: each malformed tag once; Cc and Reported-by forms pass" 1 \
	trailer-format.patch "$(printf '%s\n' "$TRAILERS" \
	'Signed-off-by: a duplicate line	Signed-off-by: Jane Doe <jane@example.org>' \
	'Signed-off-by: in the wrong case	signed-off-by: John Roe <john@example.org>' \
	'Reviewed-by: not followed by exactly one space	Reviewed-by:  Ann Lee <ann@example.org>' \
	'Acked-by: without an email address	Acked-by: Ann Lee' \
	'Signed-off-by: without an email address in <>	Signed-off-by: John Roe john@example.org' \
	'Tested-by: with text after the email address	Tested-by: Ann Lee <ann@example.org> [on arm64]' |
	sed 's/^/trailer-format\t/')"
check "trailer-format: BAD_SIGN_OFF drops only the lines checkpatch named" 1 \
	trailer-format.patch "$(printf '%s\n' "$TRAILERS" | sed 's/^/trailer-format\t/')" \
	--checkpatch "$FIX/trailer-format.checkpatch"
printf 'ERROR:BAD_SIGN_OFF: no line quoted\nWARNING:GIT_COMMIT_ID: nor here\n' > "$T_TMP/nowhere.cp"
check "a checkpatch finding that quotes no line drops every finding of its kinds" 1 \
	trailer-format.patch "$(f missing-sender-sob 'no Signed-off-by: of the sender <other@example.org>' \
		"$JANE_FROM")" --checkpatch "$T_TMP/nowhere.cp" --sender "Other <other@example.org>"

# --- the author: RFC 2047, in-body From:, where the message ends ---
check "UTF-8 Q-encoded From: matches the UTF-8 Signed-off-by:" 0 utf8-from.patch ""
sed 's/^From: .*/From: =?utf-8?B?QW5kcsOp?= Almeida <andrealmeid@example.org>/' \
	"$FIX/utf8-from.patch" > "$T_TMP/b64.patch"
check "B-encoded word then plain text" 0 "$T_TMP/b64.patch" ""
sed 's/^From: .*/From: =?ISO-8859-1?Q?Andr=E9?=  =?iso-8859-1?q?_Almeida?= <andrealmeid@example.org>/' \
	"$FIX/utf8-from.patch" > "$T_TMP/latin1.patch"
check "two ISO-8859-1 words, the blank between them dropped" 0 "$T_TMP/latin1.patch" ""
sed 's/^Signed-off-by: André/Signed-off-by: Andre/' "$FIX/utf8-from.patch" > "$T_TMP/andre.patch"
check "the decoded name is compared" 1 "$T_TMP/andre.patch" \
	"$(f sob-name-mismatch 'the author <andrealmeid@example.org> signs off as "Andre Almeida", not as "André Almeida" (From:)' \
		'Signed-off-by: Andre Almeida <andrealmeid@example.org>')"
sed 's/^From: .*/From: =?UTF-8?q?Andr=C3=?= =?UTF-8?x?y?= =?UTF-8?B?@@?= =?? =?UTF-8?q?A <andrealmeid@example.org>/' \
	"$FIX/utf8-from.patch" > "$T_TMP/bad2047.patch"
check "malformed encoded words are kept as they are" 1 "$T_TMP/bad2047.patch" \
	"$(f sob-name-mismatch 'the author <andrealmeid@example.org> signs off as "André Almeida", not as "=?UTF-8?q?Andr=C3=?= =?UTF-8?x?y?= =?UTF-8?B?@@?= =?? =?UTF-8?q?..." (From:)' \
		'Signed-off-by: André Almeida <andrealmeid@example.org>')"
check "in-body From: is the author, the mail's From: the sender" 0 inbody-from.patch "" \
	--sender "$WILL"
grep -v '^Signed-off-by: Jane' "$FIX/inbody-from.patch" > "$T_TMP/inbody-nosob.patch"
check "in-body From: without its Signed-off-by:" 1 "$T_TMP/inbody-nosob.patch" \
	"$(f missing-sob 'no Signed-off-by: of the author <jane@example.org>' "$JANE_FROM")" \
	--sender "$WILL"
check "notes after --- and the diffstat are ignored" 0 notes.patch ""
check "no --- separator: the message ends at diff --git" 0 no-separator.patch ""

# --- --known and --checkpatch files ---
printf 'f60d24d2ad04977b0bd9e3eb35dba2d2fa569af9\tok\nf60d24d2\tshort\n' > "$T_TMP/bad.tsv"
t_rc "a --known line without 40 hex digits: exit 2" 2 "$TAGS" \
	--patch "$FIX/v2-0002.patch" --known "$T_TMP/bad.tsv"
t_grep "the error names the file and line" '^tags: error: .*/bad\.tsv:2: expected 40 hex digits' "$T_OUT"
printf 'WARNING: Missing Signed-off-by: line(s)\n' > "$T_TMP/notypes.cp"
t_rc "checkpatch output without --show-types: exit 2" 2 "$TAGS" \
	--patch "$FIX/v2-0002.patch" --checkpatch "$T_TMP/notypes.cp"
t_grep "the error says to use --show-types" 'notypes\.cp:1: .*--show-types' "$T_OUT"

# --- usage and I/O errors ---
t_rc "no arguments: exit 2" 2 "$TAGS"
t_grep "usage is printed" '^usage: tags --patch FILE' "$T_OUT"
t_rc "an unknown option: exit 2" 2 "$TAGS" --patch "$FIX/v2-0001.patch" --bogus
t_rc "an extra argument: exit 2" 2 "$TAGS" --patch "$FIX/v2-0001.patch" extra
t_rc "a missing patch: exit 2" 2 "$TAGS" --patch "$T_TMP/nonexistent.patch"
t_grep "tags: error: FILE: why" "^tags: error: cannot open $T_TMP/nonexistent\\.patch: No such file or directory\$" "$T_OUT"
t_rc "a directory as the patch: exit 2" 2 "$TAGS" --patch "$T_TMP"
t_rc "a --sender without an email: exit 2" 2 "$TAGS" --patch "$FIX/v2-0001.patch" \
	--sender "Will Deacon"
t_rc "a missing --checkpatch file: exit 2" 2 "$TAGS" --patch "$FIX/v2-0001.patch" \
	--checkpatch "$T_TMP/nonexistent.cp"

# --- inputs that must not crash it ---
: > "$T_TMP/empty.patch"
check "an empty file: no Signed-off-by:, no From:" 1 "$T_TMP/empty.patch" \
	"$(f missing-sob 'no Signed-off-by: and no From: header' '')"
sed -n '/^kallsyms_lookup_name() and/,/^Signed-off-by/p' "$FIX/v2-0003.patch" \
	> "$T_TMP/headerless.patch"
check "no headers: the Signed-off-by: is enough" 0 "$T_TMP/headerless.patch" "" --sender "$WILL"
sed 's/$/\r/' "$FIX/v2-0002.patch" > "$T_TMP/crlf.patch"
check "CRLF line ends" 0 "$T_TMP/crlf.patch" "" --sender "$WILL" --known "$FIX/known.tsv"
sed 's/$/\r/' "$FIX/trailer-format.patch" > "$T_TMP/crlf-bad.patch"
"$TAGS" --patch "$FIX/trailer-format.patch" | cut -f 2- > "$T_TMP/lf.out"
check "CRLF: the same findings, no CR in the raw lines" 1 "$T_TMP/crlf-bad.patch" \
	"$(cat "$T_TMP/lf.out")"
sed -n '1,/^Signed-off-by/p' "$FIX/v2-0003.patch" | head -c -1 > "$T_TMP/nonl.patch"
check "no final newline after the Signed-off-by:" 0 "$T_TMP/nonl.patch" "" --sender "$WILL"
printf 'From: Jane Doe <jane@example.org>\nSubject: x\n\nx\n\nSigned-off-by: \x01Jane\tDoe\x7f\xff <jane@example.org>\n' \
	> "$T_TMP/ctrl.patch"
check "control characters and bad UTF-8 print as ?" 1 "$T_TMP/ctrl.patch" \
	"$(f sob-name-mismatch 'the author <jane@example.org> signs off as "?Jane?Doe??", not as "Jane Doe" (From:)' \
		'Signed-off-by: ?Jane?Doe?? <jane@example.org>')"

# A 1 MB line of each kind that could go quadratic: citations without
# subjects, open subjects, encoded words without an end, a huge tag.
MB=1048576
{
	printf 'From: =?UTF-8?q?'
	head -c $MB /dev/zero | tr '\0' 'x' | sed 's/x\{10\}/=?a?q?xx /g'
	printf ' <jane@example.org>\nSubject: [PATCH] big\n\n'
	awk -v n=$MB 'BEGIN { s = "commit 1a2b3c4d5e "; while (length(s) < n) s = s s; print s
		s = "0123456789ab (\"x "; while (length(s) < n) s = s s; print s }'
	printf '\nSigned-off-by: Jane Doe <jane@example.org>\nCc: '
	head -c $MB /dev/zero | tr '\0' 'y'
	printf '\n'
} > "$T_TMP/big.patch"
t_rc "1 MB lines: exit 1 within 20 s" 1 timeout 20 "$TAGS" --patch "$T_TMP/big.patch"
t_eq "1 MB lines: no output line over 2 KiB" 0 \
	"$(LC_ALL=C awk 'length($0) > 2048' "$T_OUT" | wc -l)"
t_grep "1 MB lines: the raw line is cut and marked" \
	"${TAB}trailer-format${TAB}Cc: without an email address${TAB}Cc: y+\\.\\.\\.\$" "$T_OUT"
t_eq "1 MB lines: 58,000 equal findings print once" 1 \
	"$(grep -c "fewer than 12" "$T_OUT")"

# Random bytes and fuzzed fixtures, from a fixed seed.
mkdir -p "$T_TMP/fuzz"
LC_ALL=C awk -v dir="$T_TMP/fuzz" 'BEGIN {
	srand(20250611)
	for (f = 0; f < 10; f++) {
		out = dir "/random" f ".patch"
		for (i = 0; i < 20000; i++)
			printf "%c", int(rand() * 255) + 1 > out
		close(out)
	}
}'
LC_ALL=C awk -v dir="$T_TMP/fuzz" -v n=100 '
	{ pool[np++] = $0 }
	END {
		srand(20250612)
		for (f = 0; f < n; f++) {
			out = dir "/mut" f ".patch"
			lines = int(rand() * 60)
			for (l = 0; l < lines; l++) {
				s = pool[int(rand() * np)]
				r = rand()
				if (r < 0.2)
					s = substr(s, 1, int(rand() * length(s)))
				else if (r < 0.3)
					s = s sprintf("%c%c", 1 + int(rand() * 255), 1 + int(rand() * 255))
				else if (r < 0.4)
					s = "=?utf-8?" substr(s, int(rand() * length(s)))
				printf "%s%s", s, rand() < 0.9 ? "\n" : "\r\n" > out
			}
			close(out)
		}
	}' "$FIX"/*.patch
bad=
for p in "$T_TMP"/fuzz/*.patch; do
	"$TAGS" --patch "$p" --sender "$WILL" --known "$FIX/known.tsv" \
		--checkpatch "$FIX/trailer-format.checkpatch" > "$T_OUT" 2>&1
	rc=$?
	((rc <= 1)) || bad+=" ${p##*/}: exit $rc;"
	[[ $(awk -F'\t' 'NF != 4' "$T_OUT" | wc -l) == 0 ]] || bad+=" ${p##*/}: not 4 fields;"
done
t_eq "110 random and fuzzed patches: exit 0 or 1, four fields a line" "" "$bad"

t_done
