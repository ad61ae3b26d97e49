#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-b4prep.sh - fixture tests of tools/bin/b4prep: the cover letter and
# tracking fields of real b4 0.12 cover letter commits (an edited one,
# b4's default) and of a branch-description branch, each as b4's own
# rules give them (test/fixtures/b4prep/README); hand-made covers of b4's
# form (no subject, '#' lines amid paragraphs, JSON escapes); and input
# b4 never writes, refused with where: no marker, malformed or
# truncated JSON, no "series", wrong types, control characters, a lone
# surrogate, too deep, NUL bytes, usage errors.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/b4prep
B4PREP=$T_BIN/b4prep

# good(): desc, then the fixture's name, then b4prep's options: exit 0,
# the fields as in NAME.out, the cover letter as in NAME.cover.
good()
{
	local desc=$1; shift
	local name=$1; shift
	local in=$FIX/$name.msg

	[[ -f "$in" ]] || in=$FIX/$name.txt
	rm -f "$T_TMP/cover"
	t_rc "$desc: exit 0" 0 "$B4PREP" -o "$T_TMP/cover" "$@" < "$in"
	t_eq "$desc: the fields" "$(cat "$FIX/$name.out")" "$(cat "$T_OUT")"
	t_eq "$desc: the cover letter" "$(cat "$FIX/$name.cover")" "$(cat "$T_TMP/cover" 2>&1)"
}

# bad(): desc, exit status, the ERE its message must match, the input
# file; nothing on stdout, no cover letter written.
bad()
{
	local desc=$1; shift
	local rc=$1; shift
	local re=$1; shift
	local in=$1; shift

	rm -f "$T_TMP/cover"
	"$B4PREP" -o "$T_TMP/cover" "$@" < "$in" > "$T_TMP/stdout" 2> "$T_OUT"
	t_eq "$desc: exit $rc, nothing printed or written" "$rc||no" \
		"$?|$(cat "$T_TMP/stdout")|$([[ -e "$T_TMP/cover" ]] && echo yes || echo no)"
	t_grep "$desc: says why and where" "$re" "$T_OUT"
}

t_plan 43

good "an edited cover letter commit" commit
t_nogrep "the cover letter holds no tracking data" 'b4-submit-tracking|change-id|"series"' \
	"$T_TMP/cover"
good "b4's default cover letter commit" default
t_nogrep "b4's '#' lines are dropped" '^#' "$T_TMP/cover"
good "a branch description with its b4-tracking" desc -t "$FIX/desc.json"
good "no empty second line: b4's '(no cover subject)'" nosubject
good "'#' lines amid paragraphs, escapes, every JSON type" escapes
t_rc "without -o: only the fields" 0 "$B4PREP" < "$FIX/commit.msg"
t_eq "without -o: the same fields" "$(cat "$FIX/commit.out")" "$(cat "$T_OUT")"

M='^b4prep: error: '
bad "a commit message without b4's marker" 1 "${M}stdin: no line \"--- b4-submit-tracking ---\"" \
	"$FIX/nomarker.msg"
bad "truncated JSON" 1 "${M}stdin \\(tracking data\\), byte [0-9]+: expected a key" \
	"$FIX/truncated.msg"
bad "no \"series\" object" 1 "${M}.*byte [0-9]+: no \"series\" object" "$FIX/noseries.msg"
bad "a revision that is a string" 1 "${M}.*byte [0-9]+: series.revision is not a whole number" \
	"$FIX/badrev.msg"
bad "a TAB in the base branch" 1 "${M}tracking data: series.base-branch holds a control character" \
	"$FIX/control.msg"
bad "more after the JSON object" 1 "${M}.*byte [0-9]+: more after the JSON object" \
	"$FIX/trailing.msg"
bad "a lone high surrogate" 1 "${M}.*byte [0-9]+: a high surrogate without its low one" \
	"$FIX/surrogate.msg"
{ printf 'A\n\nB\n--- b4-submit-tracking ---\n{"series": {"x": '; printf '[%.0s' {1..100000}; } \
	> "$T_TMP/deep.msg"
bad "100000 nested arrays" 1 "${M}.*byte [0-9]+: nested deeper than 64" "$T_TMP/deep.msg"
# Runs of empty lines made one in a pass: one at a time took minutes.
awk 'BEGIN {
	print "A subject\n\nA body"
	for (i = 0; i < 1000000; i++)
		print "# a comment\n"
	print "its end\n--- b4-submit-tracking ---\n{\"series\": {}}"
}' > "$T_TMP/empty.msg"
rm -f "$T_TMP/cover"
t_rc "a million empty lines: exit 0 within 10 s" 0 timeout 10 "$B4PREP" \
	-o "$T_TMP/cover" < "$T_TMP/empty.msg"
t_eq "a million empty lines: one in the cover" "A subject||A body||its end" \
	"$(paste -sd '|' "$T_TMP/cover" 2>&1)"
printf 'A cover\0\n\n--- b4-submit-tracking ---\n{"series": {}}\n' > "$T_TMP/nul.msg"
bad "a NUL byte" 2 "${M}stdin holds a NUL byte" "$T_TMP/nul.msg"
bad "-t FILE that is not there" 2 "${M}cannot open $T_TMP/none" "$FIX/desc.txt" -t "$T_TMP/none"
bad "an unknown option" 2 '^Usage: b4prep' "$FIX/commit.msg" -x

t_done
