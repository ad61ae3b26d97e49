#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-touch.sh - build_touch_changed (tools/stages/build.sh) gives every
# file that differs from a tree the build dir saw a new mtime, however
# many there are: a build dir that last built another base (6.1, then
# 6.12: 70k files) once overflowed touch's command line, the error went
# by, and make would have kept the old base's objects. Here the command
# line is made small (ulimit -s: ARG_MAX is a quarter of the stack).

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
. "$T_TOP/tools/lib.sh"
# shellcheck source=tools/worktree.sh
. "$T_TOP/tools/worktree.sh"
# shellcheck source=tools/stages/build.sh
. "$T_TOP/tools/stages/build.sh"

t_plan 5

N=3000
WT=$T_TMP/wt
out=$T_TMP/out
mkdir -p "$WT/dir" "$out"
git -C "$WT" init -q
for ((i = 0; i < N; i++)); do
	echo "$i" > "$WT/dir/a-rather-long-file-name-to-fill-a-command-line-$i.c"
done
git -C "$WT" add -A && git -C "$WT" -c user.name=t -c user.email=t@example.org commit -qm one
git -C "$WT" rev-parse 'HEAD^{tree}' > "$out/.bisect-trees"
for ((i = 0; i < N; i++)); do
	echo "changed $i" > "$WT/dir/a-rather-long-file-name-to-fill-a-command-line-$i.c"
done
echo 'config X' > "$WT/Kconfig"
git -C "$WT" add -A && git -C "$WT" -c user.name=t -c user.email=t@example.org commit -qm two
find "$WT" -type f -exec touch -h -d @946684800 {} +

t_rc "$N changed files overflow one command line here" 1 \
	bash -c "ulimit -s 256; cd '$WT' && touch -c -- dir/* 2> /dev/null"
(
	ulimit -s 256
	build_touch_changed kconfig "$T_TMP/log" "$out" 1700000000
	echo "rc $? kconfig $kconfig"
) > "$T_TMP/out.txt"
t_eq "build_touch_changed: done, and a Kconfig among them" "rc 0 kconfig 1" "$(cat "$T_TMP/out.txt")"
t_eq "every changed file has the new mtime" "$((N + 1))" \
	"$(find "$WT" -path "$WT/.git" -prune -o -type f -newermt @1699999999 -print | wc -l)"
t_grep "the log says how many" "^touching $((N + 1)) file\\(s\\) changed since tree " "$T_TMP/log"

# A file that cannot be touched fails it, so that the build fails: its
# dir is a file now (ENOTDIR, which touch -c reports, even to root).
git -C "$WT" rev-parse 'HEAD~1^{tree}' > "$out/.bisect-trees"
rm -rf "$WT/dir" && echo not-a-dir > "$WT/dir"
(build_touch_changed kconfig "$T_TMP/log2" "$out" ''; echo "rc $?") > "$T_TMP/out2.txt"
t_eq "a file that cannot be touched: it fails" "rc 1" "$(cat "$T_TMP/out2.txt")"
t_done
