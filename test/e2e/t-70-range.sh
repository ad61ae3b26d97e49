#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-70-range.sh - end to end: a series from a developer's own kernel tree.
# The test makes that tree: a git repository of its own (a clone of the
# imported Debian tree, hard-linked objects, no checkout) with a branch
# of two commits of its own authorship, made without a worktree. Then:
#
#   - tools/bisect-check --range BASE..topic, run in that repository,
#     checks each commit with no series file (the base is the repository
#     at BASE; no claims, so the boots judge splats only) and passes;
#     the applied commits keep their authorship;
#   - the repository is only read: its refs, index, config, HEAD and
#     object store are byte for byte what they were;
#   - --init FILE writes that series (patches beside it) instead, which
#     tools/bin/series accepts and a run of it finds in the cache;
#   - a range with no commit, a range without "..", --init onto a file
#     that exists, and a directory that is no repository are refused
#     with what to do, exit 2.
#
# Then a branch that b4 prep manages, made with b4 (Debian's 0.12) in a
# sparse worktree of that repository, with a HOME, XDG dirs and git
# config of the test's own: `b4 prep -n` (its cover letter commit),
# the two commits picked onto it, `b4 prep --edit-cover` and
# `--force-revision 2`:
#
#   - --range alone, on that branch, checks it from b4's fork point: the
#     cover letter commit is no step, b4's cover (as b4 sends it, never
#     its tracking data) is the series' cover letter, b4's revision its
#     version; the builds and boots are base..topic's (the same trees);
#     the repository is only read;
#   - --range BASE..BRANCH --init writes that cover as cover-letter.txt;
#     a branch of cover strategy branch-description gives its
#     description, from the fork point of the base branch b4 recorded;
#   - tools/send.sh (make send) writes the messages of that series: the
#     cover's subject and body, its To: and Cc:, no recipient of this
#     repository's .b4-config, no tracking data;
#   - tools/b4-check, as b4 prep --check (b4 0.14 on) runs it in the
#     tree's top: a third commit no run has checked (trailing white
#     space) is checked by a run of the branch, then answered, one
#     ERROR: line per failing cell, exit 1; the second time from the
#     cache, no run made; patch 1 from the cache, exit 0, no line; no
#     patch on stdin is refused (exit 2), on stdout too;
#   - --range alone on a branch b4 prep does not manage is refused.

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

KREPO=$WORKDIR/kernel.git
R=$T_TMP/linux
BC=$T_TOP/tools/bisect-check

# cleanup(): the kernel repo must not keep looking into the test's
# repository once it is gone, nor lose what it borrowed from it: the
# objects of its branches that only the test's repository had (the
# range's commits, which git am found there and did not write again; the
# kept worktree is at one of them) are packed into it first.
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup()
{
	local alt=$KREPO/objects/info/alternates
	if [[ -f "$alt" && -n "${import:-}" ]] && grep -q "^$T_TMP/" "$alt"; then
		git --git-dir="$KREPO" rev-list --objects --branches --not "$import" |
			git --git-dir="$KREPO" pack-objects -q "$KREPO/objects/pack/pack" > /dev/null
		sed -i "\\#^$T_TMP/#d" "$alt"
	fi
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# state(): what a run must not change in repository $1: HEAD, config,
# index, every ref, every file of the object store (path, size, sum).
state()
{
	local gd=$1; shift
	(
		cd "$gd" || exit 1
		cat HEAD config
		[[ -f index ]] && sha1sum index
		git --git-dir=. for-each-ref --format='%(objectname) %(refname)'
		[[ -f packed-refs ]] && cat packed-refs
		find objects -type f -printf '%p %s\n' | sort
		find objects/pack -type f -name '*.pack' -exec sha1sum {} + 2> /dev/null | sort
	) | sha1sum
}

# bail(): the test cannot go on: say why, end with the plan unmet.
bail()
{
	echo "Bail out! $*"
	exit 1
}

t_plan 43

# The imported tree (made by the first bisect-check of this WORKDIR).
if ! git --git-dir="$KREPO" rev-parse -q --verify bisect/unexport-kallsyms/v2 > /dev/null; then
	e2e_run "$T_TOP/series.yaml" LOCK_WAIT=2400
fi
import=$(git --git-dir="$KREPO" for-each-ref --count=1 --format='%(refname)' refs/heads/import/)
# No automatic gc in it: a local clone takes every loose object of the
# kernel repo (which never packs them), so a commit of the test's (the
# b4 branch's third) set off a detached gc that repacked the repository
# while b4-check ran, and "b4-check leaves the repository as it was"
# failed on a WORKDIR with many runs behind it.
git clone -q -c gc.auto=0 --no-checkout --single-branch -b "${import#refs/heads/}" "$KREPO" "$R" ||
	bail "cannot clone $KREPO"
git -C "$R" branch -q -m base
git -C "$R" remote remove origin

# Two commits of the developer's, on branch topic, made without a
# worktree: each changes one file of the tree and is a clean patch.
commit_edit()
{
	local file=$1; shift
	local msg=$1; shift
	local parent blob tree
	local idx=$T_TMP/index

	parent=$(git -C "$R" rev-parse -q --verify topic || git -C "$R" rev-parse base)
	rm -f "$idx"
	GIT_INDEX_FILE=$idx git -C "$R" read-tree "$parent" || return 1
	blob=$(git -C "$R" show "$parent:$file" | sed '1a /* t-70: an edit of the range test. */' |
		git -C "$R" hash-object -w --stdin) || return 1
	GIT_INDEX_FILE=$idx git -C "$R" update-index --cacheinfo "100644,$blob,$file" || return 1
	tree=$(GIT_INDEX_FILE=$idx git -C "$R" write-tree) || return 1
	git -C "$R" update-ref refs/heads/topic "$(printf '%s\n\n%s\n\nSigned-off-by: Dee Veloper <dee@example.org>\n' \
		"$msg" "An edit that changes nothing the kernel does." |
		GIT_AUTHOR_NAME='Dee Veloper' GIT_AUTHOR_EMAIL=dee@example.org \
		GIT_AUTHOR_DATE='Thu, 5 Mar 2020 09:00:00 +0100' \
		GIT_COMMITTER_NAME='Dee Veloper' GIT_COMMITTER_EMAIL=dee@example.org \
		git -C "$R" commit-tree "$tree" -p "$parent")"
}
commit_edit samples/hw_breakpoint/data_breakpoint.c \
	"samples/hw_breakpoint: Note the range test" || bail "cannot make commit 1"
commit_edit kernel/kallsyms.c "kallsyms: Note the range test" || bail "cannot make commit 2"
before=$(state "$R/.git")

(cd "$R" && LOCK_WAIT=2400 "$BC" --range base..topic > "$T_TMP/range.out" 2> "$T_TMP/range.err")
rc=$?
t_eq "--range base..topic in the developer's tree: every step passes" 0 "$rc"
run=$(readlink -f "$WORKDIR/runs/latest")
t_eq "three steps (the base and two commits), each built and booted" \
	"0 ok ok|1 ok ok|2 ok ok" \
	"$(awk -F'\t' '$2 == "'"$E2E_TARGET"'" && ($3 == "build" || $3 == "boot") {
		s[$1] = s[$1] " " $4 } END { for (i = 0; i in s; i++)
		printf "%s%d%s", (i ? "|" : ""), i, s[i] }' "$run/cells.tsv")"
t_grep "the report names the base: the developer's repository at base" \
	"^base	$(git -C "$R" rev-parse base) \\(.* of $R/.git\\)$" "$run/meta.tsv"
t_eq "the applied commits keep the developer's authorship" \
	"Dee Veloper <dee@example.org> Thu, 5 Mar 2020 09:00:00 +0100" \
	"$(git --git-dir="$KREPO" log -1 --date=rfc --format='%an <%ae> %ad' "$(awk -F'\t' '$1 == 2 { print $3 }' "$run/steps.tsv")")"
t_eq "its commits' trees are the developer's" "$(git -C "$R" rev-parse 'topic^{tree}')" \
	"$(git --git-dir="$KREPO" rev-parse "$(awk -F'\t' '$1 == 2 { print $3 }' "$run/steps.tsv")^{tree}")"
t_eq "the developer's repository is unchanged (refs, index, config, objects)" "$before" \
	"$(state "$R/.git")"

mkdir -p "$T_TMP/mine"
t_rc "--init writes the series instead of running it" 0 \
	env -C "$R" "$BC" --range base..topic --init "$T_TMP/mine/series.yaml"
t_eq "--init: the series and its two patches" "2|yes" \
	"$(find "$T_TMP/mine/patches" -name '*.patch' | wc -l)|$("$T_BIN/series" "$T_TMP/mine/series.yaml" > /dev/null && echo yes)"
LOCK_WAIT=2400 "$BC" "$T_TMP/mine/series.yaml" > "$T_TMP/init.out" 2> "$T_TMP/init.err"
rc=$?
run=$(readlink -f "$WORKDIR/runs/latest")
t_eq "the written series passes, every build and boot from the cache" "0|0" \
	"$rc|$(awk -F'\t' '($3 == "build" || $3 == "boot") && $8 == "-"' "$run/cells.tsv" | wc -l)"

t_rc "a range with no commit: refused" 2 env -C "$R" "$BC" --range topic..topic
t_grep "and says why" 'no commit in it' "$T_OUT"
t_rc "a range without '..': refused" 2 env -C "$R" "$BC" --range topic
t_rc "--init onto a file that exists: refused, nothing overwritten" 2 \
	env -C "$R" "$BC" --range base..topic --init "$T_TMP/mine/series.yaml"
t_rc "a directory that is no git repository: refused" 2 "$BC" -C "$T_TMP/mine" --range base..topic

# --- a branch that b4 prep manages ---
B4H=$T_TMP/b4home
W=$T_TMP/w
DOC=Documentation/process/submitting-patches.rst
mkdir -p "$B4H"
printf '[user]\n\tname = Dee Veloper\n\temail = dee@example.org\n[core]\n\teditor = cp %s\n' \
	"$T_TMP/cover.txt" > "$B4H/gitconfig"

# home(): command $@ with the test's HOME, XDG dirs and git config: no
# user's settings read, none written.
home()
{
	env HOME="$B4H" XDG_CONFIG_HOME="$B4H/.config" XDG_CACHE_HOME="$B4H/.cache" \
		XDG_DATA_HOME="$B4H/.local/share" GIT_CONFIG_GLOBAL="$B4H/gitconfig" \
		GIT_CONFIG_NOSYSTEM=1 "$@"
}

# wt(): command $@ in the worktree, as home() and with its sparse
# checkout (b4's git calls read that config from the environment), its
# output to the log.
wt()
{
	(cd "$W" && home GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=core.sparseCheckout \
		GIT_CONFIG_VALUE_0=true GIT_CONFIG_KEY_1=core.hooksPath \
		GIT_CONFIG_VALUE_1=/dev/null "$@") < /dev/null >> "$T_TMP/b4.log" 2>&1
}

# meta(): the value of key $2 in the meta.tsv of run dir $1.
meta()
{
	awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1/meta.tsv"
}

# mc(): the mail header reader of the send test.
mc()
{
	/usr/bin/python3 "$T_TOP/test/fixtures/send/mailcheck.py" "$@"
}

{
	git -C "$R" worktree add -q --no-checkout --detach "$W" base &&
		wgd=$(git -C "$W" rev-parse --absolute-git-dir) &&
		mkdir -p "$wgd/info" &&
		printf '/%s\n' samples/hw_breakpoint/ kernel/kallsyms.c "$DOC" > "$wgd/info/sparse-checkout"
} >> "$T_TMP/b4.log" 2>&1 || bail "cannot make a worktree of $R"
{ wt git read-tree -mu HEAD && wt git switch -q -c t70-work; } || bail "cannot check out base in $W"
printf '%s\n' "t-70: two notes of the range test" "" \
	"A series that b4 prep manages: its cover letter is the empty commit at" \
	"the start of the branch." "" "# A note to self, which b4 drops." "" \
	"To: Range List <range-list@example.org>" "Cc: Rev Iewer <rev@example.org>" \
	"Signed-off-by: Dee Veloper <dee@example.org>" > "$T_TMP/cover.txt"
# What b4 sends of it, and so the series' cover letter.
COVER=$(sed '/^# A note/,+1d' "$T_TMP/cover.txt")
{ wt b4 prep -n t70-b4 -f t70-work && wt git cherry-pick base..topic &&
	wt b4 prep --edit-cover && wt b4 prep --force-revision 2; } ||
	bail "b4 prep failed: $(tail -n 5 "$T_TMP/b4.log")"
# The cover strategy that keeps the cover in the branch description.
git config --file "$B4H/gitconfig" b4.prep-cover-strategy branch-description
{ wt git switch -q t70-work && wt b4 prep -n t70-desc -f t70-work &&
	wt git cherry-pick base..topic && wt b4 prep --edit-cover &&
	wt git switch -q b4/t70-b4; } ||
	bail "b4 prep (branch-description) failed: $(tail -n 5 "$T_TMP/b4.log")"
git config --file "$B4H/gitconfig" --unset b4.prep-cover-strategy
before=$(state "$R/.git")

(cd "$W" && LOCK_WAIT=2400 "$BC" --range > "$T_TMP/b4.out" 2> "$T_TMP/b4.err")
rc=$?
t_eq "--range alone on a b4 prep branch: every step passes" 0 "$rc"
# Its run dir, as it says it (another run may have begun since).
run=$(sed -n 's/.* (logs: \(.*\))$/\1/p' "$T_TMP/b4.err" | head -n 1)
t_eq "b4's cover letter commit is no step: the base and the two commits" \
	"0|1 samples/hw_breakpoint: Note the range test|2 kallsyms: Note the range test" \
	"$(awk -F'\t' '{ printf "%s%s", (NR > 1 ? "|" : ""), $1 ($1 ? " " $4 : "") }' "$run/steps.tsv")"
t_eq "the base is b4's fork point: the commit the cover letter commit follows" \
	"$(git -C "$R" rev-parse base)" "$(meta "$run" base | cut -d' ' -f1)"
t_eq "b4's revision is the series' version, the branch its name" "bisect/t70-b4/v2" \
	"$(meta "$run" "series branch")"
t_eq "the report names b4's cover" "v2: t-70: two notes of the range test" "$(meta "$run" cover)"
ser=$(meta "$run" series)
t_eq "the series' cover letter is b4's cover as b4 sends it ('#' lines dropped)" \
	"$COVER" "$(cat "${ser%/*}/cover-letter.txt" 2>&1)"
t_nogrep "and never b4's tracking data" 'b4-submit-tracking|change-id|"series"' \
	"${ser%/*}/cover-letter.txt"
t_eq "every build and boot is base..topic's, from the cache" 0 \
	"$(awk -F'\t' '($3 == "build" || $3 == "boot") && $8 == "-"' "$run/cells.tsv" | wc -l)"
t_eq "the repository is unchanged by the run (refs, index, config, objects)" "$before" \
	"$(state "$R/.git")"

t_rc "--range base..b4/t70-b4 --init: writes the series" 0 \
	env -C "$W" "$BC" --range base..b4/t70-b4 --init "$T_TMP/b4init/series.yaml"
t_eq "--init: b4's cover in cover-letter.txt, named by the series, version 2, 2 patches" \
	"$COVER|$T_TMP/b4init/cover-letter.txt|2|2" \
	"$(cat "$T_TMP/b4init/cover-letter.txt" 2>&1)|$("$T_BIN/series" "$T_TMP/b4init/series.yaml" |
		awk -F'\t' '$1 == "cover" { c = $2 } $1 == "version" { v = $2 } $1 == "patch" { n++ }
			END { print c "|" v "|" n }')"
wt git switch -q b4/t70-desc || bail "cannot check out b4/t70-desc"
t_rc "--range alone --init on a branch-description b4 branch" 0 \
	env -C "$W" "$BC" --range --init "$T_TMP/descinit/series.yaml"
t_eq "its cover is the branch description; its base the fork point from b4's base branch" \
	"$COVER|$(git -C "$R" rev-parse base)|2" \
	"$(cat "$T_TMP/descinit/cover-letter.txt" 2>&1)|$("$T_BIN/series" "$T_TMP/descinit/series.yaml" |
		awk -F'\t' '$1 == "base-commit" { b = $2 } $1 == "patch" { n++ } END { print b "|" n }')"
wt git switch -q b4/t70-b4 || bail "cannot check out b4/t70-b4"

# make send of the series the b4 branch's run checked: the messages only.
t_rc "tools/send.sh (make send) of that series writes its messages" 0 \
	home SEND_OUT="$T_TMP/b4send" AUTO_CC=0 "$T_TOP/tools/send.sh" "$ser"
mapfile -t eml < <(find "$T_TMP/b4send" -name '*.eml' 2> /dev/null | sort)
t_eq "three messages, 0/2 the cover's subject" \
	"3|[PATCH v2 0/2] t-70: two notes of the range test" \
	"${#eml[@]}|$(mc header "${eml[0]:-/dev/null}" Subject)"
t_grep "the cover letter message holds the cover's body" \
	'^A series that b4 prep manages: its cover letter is the empty commit at$' "${eml[0]:-/dev/null}"
t_eq "To: and Cc: are the cover's (and the Signed-off-by), none of this repository's series" \
	"range-list@example.org|dee@example.org rev@example.org" \
	"$(mc addrs "${eml[0]:-/dev/null}" To)|$(mc addrs "${eml[0]:-/dev/null}" Cc)"
t_eq "no message holds b4's tracking data" "" \
	"$(grep -l -e 'b4-submit-tracking' -e '"change-id"' "${eml[@]}" 2> /dev/null)"

# tools/b4-check, as b4 prep --check runs it: a patch on stdin, in the
# tree's top. A third commit, which no run has checked (a nonce: the
# WORKDIR keeps every earlier run's results), that checkpatch finds
# fault with.
printf 't-70: a line that ends in white space (%s). \n' "$(date +%s%N)" >> "$W/$DOC"
wt git commit -q -a -s -m "docs: Note the range test" \
	-m "A line that checkpatch.pl finds fault with." || bail "cannot commit in $W"
git -C "$W" format-patch -1 --stdout --subject-prefix="PATCH v2" HEAD > "$T_TMP/p3.patch"
git -C "$W" format-patch -1 --stdout --subject-prefix="PATCH v2" HEAD~2 > "$T_TMP/p1.patch"
before=$(state "$R/.git")
(cd "$W" && LOCK_WAIT=2400 "$T_TOP/tools/b4-check" < "$T_TMP/p3.patch" \
	> "$T_TMP/c1.out" 2> "$T_TMP/c1.err")
rc=$?
t_eq "b4-check of a patch no run has: checks the branch, then its findings, exit 1" \
	"1|checked now" "$rc|$(grep -o 'checked now' "$T_TMP/c1.err")"
t_grep "its failing checkpatch cell, on one ERROR: line as b4 shows it" \
	'^ERROR: 3/3 checkpatch: .*TRAILING_WHITESPACE' "$T_TMP/c1.out"
# The run that answered, as b4-check names it (another may have begun since).
run=$WORKDIR/runs/$(sed -n 's/.*: run \([0-9][0-9-]*\), .*/\1/p' "$T_TMP/c1.err")
t_eq "nothing but ERROR: lines on stdout, one per failing cell of step 3" \
	"$(awk -F'\t' '$1 == 3 && $4 == "FAIL"' "$run/cells.tsv" 2>&1 | wc -l)|0" \
	"$(grep -c '^ERROR: 3/3 ' "$T_TMP/c1.out")|$(grep -vc '^ERROR: ' "$T_TMP/c1.out")"
# ours(): the runs of WORKDIR that checked the b4 branch's series (other
# runs may go on beside this test's).
ours()
{
	grep -lxF "series	$ser" "$WORKDIR"/runs/*/meta.tsv | sort
}
runs=$(ours)
t0=$(now_ms)
(cd "$W" && "$T_TOP/tools/b4-check" < "$T_TMP/p3.patch" > "$T_TMP/c2.out" 2> "$T_TMP/c2.err")
rc=$?
echo "# b4-check, the second time: $(fmt_ms $(($(now_ms) - t0)))"
t_eq "the second time: the same findings, exit 1" "1|$(cat "$T_TMP/c1.out")" \
	"$rc|$(cat "$T_TMP/c2.out")"
t_grep "the second time: from the cache" 'from the cache \(nothing ran\)' "$T_TMP/c2.err"
t_eq "the second time: no run of the series made" "$runs" "$(ours)"
(cd "$W" && "$T_TOP/tools/b4-check" < "$T_TMP/p1.patch" > "$T_TMP/c3.out" 2> "$T_TMP/c3.err")
rc=$?
t_eq "patch 1 (checked with the branch before): exit 0, no line, from the cache" \
	"0||from the cache" "$rc|$(cat "$T_TMP/c3.out")|$(grep -o 'from the cache' "$T_TMP/c3.err")"
t_eq "b4-check leaves the repository as it was" "$before" "$(state "$R/.git")"
(cd "$W" && "$T_TOP/tools/b4-check" < /dev/null > "$T_TMP/c4.out" 2> "$T_TMP/c4.err")
rc=$?
t_eq "no patch on stdin: exit 2, and an ERROR: line on stdout, where b4 reads" \
	"2|ERROR: b4-check: no patch on stdin: git patch-id found no diff in it" \
	"$rc|$(cat "$T_TMP/c4.out")"

t_rc "--range alone on a branch b4 prep does not manage: refused" 2 env -C "$R" "$BC" --range
t_grep "and says why" 'branch base has no b4 prep cover letter commit' "$T_OUT"

t_done
