#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-checkpatch.sh - the checkpatch stage program (tools/stages/checkpatch)
# run as the cell runner runs it (an inputs file, a clean environment) on
# a small tree made here with the kernel's own checkpatch.pl: a clean
# patch passes, an accepted warning type is acked with its reason, one
# not accepted fails naming the type and the file to edit, an error
# fails whatever is accepted, and a worktree that is not at the commit
# gives no verdict (stored by no cache) instead of checking another tree.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/stage-lib.sh
source "$T_TOP/tools/stage-lib.sh"

t_plan 8

# checkpatch.pl and its word lists, where make lint keeps them.
CP=$(bash "$T_TOP/tools/lint.sh" --checkpatch) || die "cannot fetch checkpatch.pl (tools/lint.sh)"

# A tree checkpatch.pl takes for a kernel tree (top_of_kernel_tree),
# made in W, and a worktree of its repo, as the driver has them.
KREPO=$T_TMP/k.git
W=$T_TMP/w
WT=$T_TMP/wt
git init -q --bare "$KREPO"
mkdir -p "$W/scripts" "$W/drivers/misc"
for d in Documentation arch include fs init ipc kernel lib; do
	mkdir -p "$W/$d" && touch "$W/$d/.keep"
done
for f in COPYING CREDITS Kbuild MAINTAINERS Makefile README; do
	echo "$f" > "$W/$f"
done
cp "$CP/checkpatch.pl" "$CP/spelling.txt" "$CP/const_structs.checkpatch" "$W/scripts/"
printf '// SPDX-License-Identifier: GPL-2.0\nint demo_value;\n' > "$W/drivers/misc/demo.c"
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.org \
	GIT_COMMITTER_NAME='A U Thor' GIT_COMMITTER_EMAIL=author@example.org \
	GIT_AUTHOR_DATE='2026-01-01 00:00 +0000' GIT_COMMITTER_DATE='2026-01-01 00:00 +0000'
g() { git --git-dir="$KREPO" --work-tree="$W" "$@"; }
commit()
{
	g add -A && g commit -q -m "$1" -m "$2" -m 'Signed-off-by: A U Thor <author@example.org>' &&
		g rev-parse HEAD
}
BASE=$(commit 'misc: demo: add a value' 'The base of the tests.')
printf '// SPDX-License-Identifier: GPL-2.0\nint demo_value = 1;\n' > "$W/drivers/misc/demo.c"
CLEAN=$(commit 'misc: demo: start the value at one' 'One is where it starts.')
printf '// SPDX-License-Identifier: GPL-2.0\nint demo_value = 1;\nint demo_other  ;\n' \
	> "$W/drivers/misc/demo.c"
WARN=$(commit 'misc: demo: add another value' 'Another one, with a space too many.')
printf '// SPDX-License-Identifier: GPL-2.0\nint demo_value = 1;\nint demo_other  ;\nint demo_e(void){return 0;}\n' \
	> "$W/drivers/misc/demo.c"
ERR=$(commit 'misc: demo: add a function' 'With its brace where it should not be.')
: "$BASE"
git --git-dir="$KREPO" worktree add -q --detach "$WT" "$CLEAN" || die "cannot add the worktree $WT"

# run_stage(): the program on commit $1 with the worktree at commit $2
# and the accepted types $3... (TYPE=REASON); GOT = status|summary, its
# files in REC, DETAIL and PATCH.
N=0
run_stage()
{
	local sha=$1; shift
	local at=$1; shift
	local a

	N=$((N + 1))
	git -C "$WT" checkout -q -f --detach "$at"
	: > "$T_TMP/accept.$N"
	for a in "$@"; do
		echo "$a" >> "$T_TMP/accept.$N"
	done
	REC=$T_TMP/rec.$N DETAIL=$T_TMP/detail.$N PATCH=$T_TMP/run$N/patches/0001-demo.patch
	printf '%s\t%s\n' kernel-repo "$KREPO" worktree "$WT" commit "$sha" \
		patch-out "$PATCH" checkpatch-accept "$T_TMP/accept.$N" \
		series "$T_TMP/series.yaml" > "$T_TMP/inputs.$N"
	: > "$DETAIL"
	# shellcheck disable=SC2094  # the program appends to its log too
	env -i PATH="$PATH" TMPDIR="${TMPDIR:-/tmp}" "$T_TOP/tools/stages/checkpatch" \
		"$T_TMP/inputs.$N" "$REC" "$T_TMP/log.$N" "$DETAIL" >> "$T_TMP/log.$N" 2>&1
	GOT="$(rec_get "$REC" status)|$(rec_get "$REC" summary)"
}

# rec_get(): field $2 of record $1.
rec_get()
{
	awk -F'\t' -v f="$2" '$1 == f { print $2 }' "$1"
}

run_stage "$CLEAN" "$CLEAN"
t_eq "a clean commit passes" "ok|clean" "$GOT"
t_grep "the patch is written where the series names it" '^Subject: .*start the value at one' \
	"$PATCH"

run_stage "$WARN" "$WARN"
t_eq "a warning not accepted fails" \
	"FAIL|0 error(s), 1 warning(s)/check(s) not accepted in series.yaml" "$GOT"
t_grep "the details name the warning's type" '^WARNING SPACING: ' "$DETAIL"
t_grep "and the file to edit" \
	"^next: .* under checkpatch-accept in $T_TMP/series.yaml\$" "$DETAIL"

run_stage "$WARN" "$WARN" 'SPACING=as the driver wrote it'
t_eq "the same warning accepted is acked, its reason in the details" \
	"acked|1 warning(s) accepted in series.yaml|accepted WARNING SPACING: (as the driver wrote it)" \
	"$GOT|$(sed -n 's/^\(accepted WARNING SPACING: \).*\((.*)\)$/\1\2/p' "$DETAIL")"

run_stage "$ERR" "$ERR" 'SPACING=as the driver wrote it'
t_eq "an error fails even when its type (SPACING) is accepted" "FAIL|yes" \
	"${GOT%%|*}|$(if grep -q "^ERROR SPACING: " "$DETAIL"; then echo yes; else cat "$DETAIL"; fi)"

run_stage "$CLEAN" "$WARN"
t_eq "a worktree at another commit gives no verdict, and it is not stored" \
	"FAIL|the worktree $WT is at $WARN, not at $CLEAN|1" "$GOT|$(rec_get "$REC" nocache)"

t_done
