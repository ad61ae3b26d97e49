#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-prune.sh - tests of tools/prune.sh, the WORKDIR policy, on a WORKDIR
# made here: run dirs kept by count and by the links that name them,
# other entries by their last use; nothing outside WORKDIR is touched;
# the worktree dir on /dev/shm of a WORKDIR removed by hand goes, no
# other.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

W=$T_TMP/workdir
OUTSIDE=$T_TMP/outside

# aged(): make directory $1 (with a file in it) last used $2 days ago.
aged()
{
	local dir=$1 days=$2
	mkdir -p "$dir"
	echo x > "$dir/f"
	touch -d "$days days ago" "$dir/f" "$dir"
}

# present(): "yes" when path $1 exists, else "no".
present()
{
	if [[ -e "$1" || -L "$1" ]]; then echo yes; else echo no; fi
}

t_plan 29

# 25 runs, one a day; runs/latest names the newest, last-run/ an old one.
for i in $(seq -w 1 25); do
	aged "$W/runs/2026110$((10#$i % 10))-$i" "$((30 - 10#$i))"
done
ln -sfn "20261105-25" "$W/runs/latest"
mkdir -p "$W/last-run"
ln -sfn "$W/runs/20261102-02" "$W/last-run/series-v1"
aged "$W/artifacts/old" 30
aged "$W/artifacts/new" 1
aged "$W/artifacts/keyed.tmp.123" 3
aged "$W/build/old" 20
aged "$W/build/new" 0
aged "$W/bisect-run/treehash/old" 40
aged "$W/build-w1/old" 20
aged "$W/build-w1/new" 2
aged "$W/wcheck/oldkey" 15
aged "$W/wcheck/newkey" 1
aged "$W/wcheck/key.tmp.77" 2
aged "$W/cache/build/oldkey" 15
aged "$W/cache/build/newkey" 13
aged "$W/ccache" 0
aged "$W/ccache-nodepend" 30
aged "$W/toolchain" 0
aged "$W/memo" 60
for f in kvm-probe.0123 pkg-version.linux-source-6.1 deps.stamp; do
	echo old > "$W/$f"
done
mkdir -p "$W/initramfs" "$OUTSIDE"
echo img > "$W/initramfs/base-old.img"
touch -d '30 days ago' "$W/initramfs/base-old.img"
echo keep > "$OUTSIDE/precious"
touch -d '90 days ago' "$OUTSIDE/precious" "$OUTSIDE"
# A link into the outside from an old entry must not be followed.
ln -s "$OUTSIDE" "$W/artifacts/old/link"
touch -d '30 days ago' "$W/artifacts/old"

out=$(PRUNE_RUNS=20 PRUNE_DAYS=14 bash "$T_TOP/tools/prune.sh" "$W" 2>&1)
t_eq "prune exits 0" 0 "$?"
t_grep "prune says what it kept" 'kept the newest 20 runs' <(echo "$out")

t_eq "the newest 20 runs and the pinned one stay" "21 yes" \
	"$(find "$W/runs" -mindepth 1 -maxdepth 1 -type d | wc -l) $(present "$W/runs/20261106-06")"
t_eq "runs 01..05 but the pinned one go" "no no no no" \
	"$(for i in 01 03 04 05; do present "$W/runs/2026110${i#0}-$i"; done | xargs)"
t_eq "a run that last-run/ names stays" yes "$(present "$W/runs/20261102-02")"
t_eq "runs/latest still resolves" yes "$(present "$W/runs/latest/f")"
t_eq "an artifact unused for 30 days goes" no "$(present "$W/artifacts/old")"
t_eq "an artifact used yesterday stays" yes "$(present "$W/artifacts/new")"
t_eq "a store interrupted 3 days ago goes" no "$(present "$W/artifacts/keyed.tmp.123")"
t_eq "a build dir unused for 20 days goes" no "$(present "$W/build/old")"
t_eq "the build dir in use stays" yes "$(present "$W/build/new")"
t_eq "bisect-run build dirs age the same way" no "$(present "$W/bisect-run/treehash/old")"
t_eq "W=1 dirs age the same way" "no yes" \
	"$(present "$W/build-w1/old") $(present "$W/build-w1/new")"
t_eq "W=1 compiles' findings too, and an interrupted one goes" "no yes no" \
	"$(present "$W/wcheck/oldkey") $(present "$W/wcheck/newkey") $(present "$W/wcheck/key.tmp.77")"
t_eq "a cache entry unused for 15 days goes" no "$(present "$W/cache/build/oldkey")"
t_eq "a cache entry used 13 days ago stays" yes "$(present "$W/cache/build/newkey")"
t_eq "an unused dracut base image goes" no "$(present "$W/initramfs/base-old.img")"
t_eq "the depend-mode ccache of earlier versions goes" no "$(present "$W/ccache")"
t_eq "ccache-nodepend is left to ccache's own bound" yes "$(present "$W/ccache-nodepend")"
t_eq "the side stores memos replaced go, the memos stay" "no no no no yes" \
	"$(for f in toolchain kvm-probe.0123 pkg-version.linux-source-6.1 deps.stamp memo; do
		present "$W/$f"; done | xargs)"
t_eq "nothing outside WORKDIR is touched" keep "$(cat "$OUTSIDE/precious" 2>&1)"

t_eq "an absent WORKDIR is nothing to do" 0 \
	"$(bash "$T_TOP/tools/prune.sh" "$T_TMP/none" > /dev/null 2>&1; echo $?)"

# At the end of a run (cache.sh loaded) the links resolve through
# real_path: a relative one pins its run, a dangling one nothing.
W2=$T_TMP/workdir2
for i in 1 2 3 4 5 6; do
	aged "$W2/runs/2026110$i-0$i" "$((30 - i))"
done
ln -sfn 20261106-06 "$W2/runs/latest"
mkdir -p "$W2/last-run"
ln -sfn ../runs/20261102-02 "$W2/last-run/relative"
ln -sfn "$W2/runs/none" "$W2/last-run/dangling"
bash -c '. "$1/tools/lib.sh" && . "$1/tools/worktree.sh" && . "$1/tools/cache.sh" && . "$1/tools/prune.sh" &&
	WORKDIR=$2 prune_runs "$2" 2' prune "$T_TOP" "$W2"
t_eq "sourced with cache.sh: the newest 2 runs and the pinned one stay" \
	"20261102-02 20261105-05 20261106-06" \
	"$(cd "$W2/runs" && find . -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | xargs)"
# Worktree dirs on /dev/shm (worktree.sh wt_root): one of a WORKDIR removed
# by hand, with a kept worktree in it, goes once an hour old; one made
# just now before its WORKDIR stays, as does one of a WORKDIR that is
# there, and one whose note names another WORKDIR than its name says.
gone=$T_TMP/gone-workdir live=$T_TMP/live-workdir new=$T_TMP/new-workdir
mkdir -p "$live"

# lib(): command $@ in a shell with tools/lib.sh.
lib()
{
	bash -c '. "$0/tools/lib.sh" && . "$0/tools/worktree.sh" && "$@"' "$T_TOP" "$@"
}

groot=$(lib wt_root "$gone") lroot=$(lib wt_root "$live") froot=$(lib wt_root "$T_TMP/forged")
nroot=$(lib wt_root "$new")
if [[ "$groot" == /dev/shm/* ]]; then
	lib wt_root_make "$groot/worktree" "$gone" && mkdir "$groot/worktree-kept"
	touch -d '2 hours ago' "$groot"
	lib wt_root_make "$nroot/worktree" "$new" && mkdir "$nroot/worktree"
	lib wt_root_make "$lroot/worktree" "$live" && mkdir "$lroot/worktree-kept"
	lib wt_root_make "$froot/worktree" "$gone"
	out=$(PRUNE_RUNS=20 PRUNE_DAYS=14 bash "$T_TOP/tools/prune.sh" "$W" 2>&1)
	t_eq "the worktree dir of a WORKDIR removed by hand goes" no "$(present "$groot")"
	t_eq "one made in the last hour, its WORKDIR not yet made, stays" yes "$(present "$nroot/worktree")"
	t_eq "the worktree dir of a WORKDIR that is there stays" yes "$(present "$lroot/worktree-kept")"
	t_eq "a dir whose note does not match its name stays" yes "$(present "$froot/.workdir")"
	rmdir "$lroot/worktree-kept" && lib wt_root_drop "$lroot/worktree" "$live"
	t_eq "wt_root_drop: empty but for its note, it goes" no "$(present "$lroot")"
	mkdir "$froot/worktree-kept" && lib wt_root_drop "$froot/worktree" "$T_TMP/forged"
	t_eq "wt_root_drop: with something else in it, it stays, noted" "yes $(realpath -m "$T_TMP/forged")" \
		"$(present "$froot") $(cat "$froot/.workdir" 2> /dev/null)"
	rm -rf "$groot" "$lroot" "$froot" "$nroot"
else
	for i in 1 2 3 4 5 6; do
		t_skip "no tmpfs /dev/shm of 8 GiB here: worktrees go in WORKDIR"
	done
fi

t_done
