#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-60-distcc.sh - end to end: a build scales out over distcc
# (BUILD_HOSTS, tools/stages/build.sh). Two distccd daemons of the test's
# own, on 127.0.0.2 and 127.0.0.3 (loopback only), compile one cold build
# of the series' last step for x86_64-gcc through the real path
# (tools/bisect-run --stage build, in a WORKDIR of its own: no result
# cache, no build dir, no ccache of earlier runs, so that every compile
# goes out). Midway, the second daemon is killed with all it runs; the
# build must still end well. Then:
#
#   - the daemons' own logs show compiles on both;
#   - the build cell says where its compiles ran, host by host;
#   - the kernel is the local one: the same identity (uname -v, module
#     srcversions), the same bzImage, the same vmlinux build id as the
#     step bisect-check built here without distcc (shared WORKDIR);
#   - the cell's key does not depend on BUILD_HOSTS: the same build
#     without it comes from the cache.
#
# One cold build, about as long as a local one (a local cold build takes
# 159 to 308 s on the 2-core VMs; 447 to 882 s here with another engineer's
# builds on the same cores), plus a warm rerun from the cache. The
# daemons are stopped at the end and on failure.
#
# make check runs it beside t-50-faults, at a lower priority: t-50's
# guests wait for their deadlines, and alone it keeps the cores only
# 60 % busy. This test needs no WORKDIR lock (its build has a WORKDIR of
# its own), only the last step of v1 that t-10 built, and t-50 counts
# only the processes and QEMUs of its own runs (t-60 runs no QEMU).
# Started right after t-10 instead, it slowed t-20 to t-40 by 158 s and
# left t-50 alone for 400 s: no faster in all.
# check: beside t-50-faults

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

KREPO=$E2E_WORKDIR/kernel.git
# v1, which t-10 checks: its last step is built when this one starts.
SERIES_FILE=$T_TOP/test/series/v1.yaml
TGT=x86_64-gcc
# The test's own WORKDIR, removed at the end.
DWD=$E2E_WORKDIR/t-60-distcc
TREE=$(wt_root "$DWD")/t-60-tree
VICTIM=127.0.0.3
# Compiles the victim finishes before it is killed.
KILL_AFTER=${T60_KILL_AFTER:-25}
declare -A DPID=()

t_plan 26

# daemon_start(): start distccd on address $1, port $PORT, logging to
# $T_TMP/distccd-$1.log; its own process group, stopped by defer.
# Fails when it does not come up (port taken: the caller tries another).
daemon_start()
{
	local addr=$1; shift
	local log=$T_TMP/distccd-$addr.log i

	: > "$log"
	# --log-stderr: the log is our file (as root, distccd runs as the
	# user distccd, who cannot write in T_TMP). TMPDIR: its work files,
	# which a killed daemon leaves behind.
	setsid env TMPDIR="$DTMP" distccd --no-detach --daemon --log-stderr \
		--log-level info --listen "$addr" --port "$PORT" \
		--allow 127.0.0.0/8 --jobs 2 < /dev/null 2>> "$log" &
	DPID[$addr]=$!
	defer daemon_stop "$addr"
	for ((i = 0; i < 50; i++)); do
		grep -q 'preforking daemon started' "$log" && return 0
		kill -0 "${DPID[$addr]}" 2>/dev/null || break
		sleep 0.1
	done
	daemon_stop "$addr"
	return 1
}

# daemon_stop(): end daemon $1 and all it started (compilers too); $2
# the signal (default TERM).
daemon_stop()
{
	local addr=$1; shift
	local sig=${1:-TERM}
	local pid=${DPID[$addr]:-}

	[[ -n "$pid" ]] || return 0
	kill_tree "$sig" "$pid"
	wait "$pid" 2>/dev/null
	DPID[$addr]=
	return 0
}

# jobs_of(): "finished started" compiles in daemon log $1.
jobs_of()
{
	local log=$1; shift
	echo "$(grep -c 'COMPILE_OK' "$log") $(grep -c '\] compile from ' "$log")"
}

# build_id(): the GNU build id of ELF file $1.
build_id()
{
	readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: //p'
}

# ref_art(): an artifact dir of the shared WORKDIR whose kernel carries
# version $1, with its image.
ref_art()
{
	local ident=$1; shift
	local f

	[[ -n "$ident" ]] || return 0
	for f in "$E2E_WORKDIR"/artifacts/*/identity.tsv; do
		if grep -q -x -F "uname-v	$ident" "$f" && [[ -f "${f%/*}/bzImage" ]]; then
			echo "${f%/*}"
			return 0
		fi
	done
}

defer_init
defer rm -rf "$T_TMP"
# The daemons' work files: theirs to write (as root, they run as distccd).
DTMP=$(mktemp -d /tmp/t-60-distccd.XXXXXX) && chmod 1777 "$DTMP"
defer rm -rf "$DTMP"

"$T_TOP/tools/deps.sh" dist > "$T_TMP/deps.out" 2>&1
t_rc "distcc and distccd are installed" 0 command -v distcc distccd
# Debian's distccd runs only the compilers linked in /usr/lib/distcc
# (update-distcc-symlinks); ccache hands distcc /usr/bin/gcc.
t_rc "distccd may run gcc (/usr/lib/distcc/gcc; else: update-distcc-symlinks)" 0 \
	test -L /usr/lib/distcc/gcc

# The step: the series' last, as bisect-check applied it in the shared
# WORKDIR (the earlier tests did; else it runs here first).
branch=bisect/$("$T_BIN/series" "$SERIES_FILE" | awk -F'\t' '$1 == "name" { n = $2 }
	$1 == "version" { v = $2 } END { print n "/v" v }')
if ! git --git-dir="$KREPO" rev-parse -q --verify "$branch" > /dev/null; then
	e2e_run "$SERIES_FILE" LOCK_WAIT=1800 TARGETS="$TGT"
fi
sha=$(git --git-dir="$KREPO" rev-parse "$branch")
last=$(git --git-dir="$KREPO" rev-list --count "$branch-base..$branch")
t_rc "the step: $branch, step $last ($sha)" 0 test -n "$sha" -a "$last" -gt 0
git --git-dir="$KREPO" show "$(git --git-dir="$KREPO" for-each-ref --count=1 \
	--format='%(refname)' 'refs/heads/import/')":scripts/extract-vmlinux > "$T_TMP/extract-vmlinux"
chmod +x "$T_TMP/extract-vmlinux"

# The daemons, on a port of their own: a free one of a few.
for PORT in $((36000 + $$ % 1000)) $((37000 + $$ % 1000)) $((38000 + $$ % 1000)); do
	daemon_start 127.0.0.2 && daemon_start 127.0.0.3 && break
	daemon_stop 127.0.0.2
done
t_rc "two distccd daemons listen on 127.0.0.2 and 127.0.0.3 (port $PORT)" 0 \
	test -n "${DPID[127.0.0.2]}" -a -n "${DPID[127.0.0.3]}"
HOSTS="127.0.0.2:$PORT/2 127.0.0.3:$PORT/2"
mkdir -p "$T_TMP/distcc"
export DISTCC_DIR=$T_TMP/distcc

# A compile on each, before the kernel: a refused compiler shows here.
echo 'int f(void) { return 1; }' > "$T_TMP/probe.c"
for a in 127.0.0.2 127.0.0.3; do
	DISTCC_HOSTS="$a:$PORT/1" DISTCC_FALLBACK=0 distcc /usr/bin/gcc -c "$T_TMP/probe.c" \
		-o "$T_TMP/probe.o" > "$T_TMP/probe-$a.out" 2>&1
	echo "probe rc $?" >> "$T_TMP/probe-$a.out"
done
t_eq "each daemon compiles a probe (else see its log: a refused compiler?)" \
	"probe rc 0 probe rc 0" \
	"$(tail -qn 1 "$T_TMP/probe-127.0.0.2.out" "$T_TMP/probe-127.0.0.3.out" | xargs)"
before2=$(jobs_of "$T_TMP/distccd-127.0.0.2.log" | cut -d' ' -f1)
before3=$(jobs_of "$T_TMP/distccd-127.0.0.3.log" | cut -d' ' -f1)

# The build, cold, through the daemons; JOBS left to their capacity.
rm -rf "$DWD"
defer rm -rf "$DWD"
# The WORKDIR first: a worktree dir of /dev/shm whose WORKDIR is missing
# is an orphan, which any run's prune removes (t-50 runs beside this);
# git checks the tree out there for seconds before bisect-run makes it.
mkdir -p "$DWD"
# What a killed or failed earlier run of this file left.
worktree_drop "$KREPO" "$TREE"
wt_root_make "$TREE" "$DWD"
defer wt_root_drop "$TREE" "$DWD"
git --git-dir="$KREPO" worktree add -q --detach "$TREE" "$sha"
defer worktree_drop "$KREPO" "$TREE"
t0=$(now_ms)
env -u JOBS WORKDIR="$DWD" SERIES="$SERIES_FILE" BUILD_HOSTS="$HOSTS" \
	CCACHE_DIR="$DWD/ccache" "$T_TOP/tools/bisect-run" --stage build --target "$TGT" "$TREE" \
	> "$T_TMP/run.out" 2> "$T_TMP/run.err" &
RUN_PID=$!
defer job_stop RUN_PID

# Kill the victim once it has finished KILL_AFTER compiles, while it
# has one under way: its clients see their connection drop.
killed=0 inflight=no mkpid=
vlog=$T_TMP/distccd-$VICTIM.log
while kill -0 "$RUN_PID" 2>/dev/null; do
	# How make runs, as the kernel sees it: its arguments and the
	# environment ccache and distcc read.
	if [[ -z "$mkpid" ]] && mkpid=$(pgrep -o -f "^make -C $TREE O="); then
		{
			tr '\0' ' ' < "/proc/$mkpid/cmdline"
			echo
			tr '\0' '\n' < "/proc/$mkpid/environ" | grep -E '^(CCACHE|DISTCC)_'
		} > "$T_TMP/make.env" 2>/dev/null
	fi
	if ((!killed)); then
		read -r nok nstart < <(jobs_of "$vlog")
		if ((nok - before3 >= KILL_AFTER && nstart > nok)); then
			# Frozen (daemon and workers), it logs nothing more:
			# killed only with a compile under way, else thawed.
			kill -STOP -- "-${DPID[$VICTIM]}"
			read -r nok nstart < <(jobs_of "$vlog")
			if ((nstart > nok)); then
				daemon_stop "$VICTIM" KILL
				killed=1 inflight=yes
				echo "killed $VICTIM after $((nok - before3)) compiles, $((nstart - nok)) under way" >> "$T_TMP/kill.log"
			else
				kill -CONT -- "-${DPID[$VICTIM]}"
			fi
		fi
	fi
	sleep 0.2
done
wait "$RUN_PID"
rc=$?
RUN_PID=
secs=$((($(now_ms) - t0) / 1000))
echo "# the distributed cold build took ${secs}s"
t_eq "the build through distcc passes (bisect-run exit 0)" 0 "$rc"
t_eq "$VICTIM was killed mid-build, with a compile under way" "1 yes" "$killed $inflight"

RUNDIR=$(find "$DWD/runs" -maxdepth 1 -name 'bisect-run-*' | sort | tail -n 1)
rec=$RUNDIR/results/0-$TGT-build.tsv
blog=$RUNDIR/logs/0-$TGT-build.log
ART=$(sed -n 's/^out\tart\t//p' "$rec" 2>/dev/null)
OUT=$(find "$DWD/bisect-run" -maxdepth 3 -name vmlinux -printf '%h\n' 2>/dev/null | head -n 1)
read -r d2 _ < <(jobs_of "$T_TMP/distccd-127.0.0.2.log")
read -r d3 _ < <(jobs_of "$vlog")
t_rc "127.0.0.2 compiled kernel files (its own log: $((d2 - before2)))" 0 test "$((d2 - before2))" -gt 10
t_rc "$VICTIM compiled kernel files before it died (its own log: $((d3 - before3)))" 0 \
	test "$((d3 - before3))" -ge "$KILL_AFTER"
t_nogrep "no daemon refused a compiler" 'whitelist' <(cat "$T_TMP"/distccd-*.log)
t_grep "make ran with -j4, the daemons' capacity (JOBS not given)" \
	"^make -C $TREE O=[^ ]* -j4 .*CC=ccache gcc " "$T_TMP/make.env"
t_grep "a fresh build dir: ccache off (CCACHE_DISABLE=1)" '^CCACHE_DISABLE=1$' "$T_TMP/make.env"
t_grep "and still in front of distcc (CCACHE_PREFIX=distcc)" '^CCACHE_PREFIX=distcc$' "$T_TMP/make.env"
t_grep "distcc is given the hosts" "^DISTCC_HOSTS=$HOSTS\$" "$T_TMP/make.env"
t_grep "bisect-run says where it compiles" 'BUILD_HOSTS: compiling on .* make -j4' "$T_TMP/run.err"
t_grep "the cell says where its compiles ran, both hosts" \
	"distcc: [0-9]+ compiles on 127\\.0\\.0\\.2:$PORT [1-9][0-9]?%, 127\\.0\\.0\\.3:$PORT [1-9][0-9]?%" "$rec"
t_grep "the compile cut short by the kill (and those refused after) went elsewhere" \
	"[1-9][0-9]* moved from 127\\.0\\.0\\.3:$PORT" "$rec"
t_grep "the build log has the table of hosts" '^  127\.0\.0\.3:[0-9]+ [1-9][0-9]* 0 [1-9]' "$blog"

# The same kernel as the local build: bisect-check's build of the same
# tree, config and toolchain, which carries the same version string
# (build_ident); from the earlier tests, or made now.
ident=$(sed -n 's/^uname-v\t//p' "$ART/identity.tsv" 2>/dev/null)
REF_ART=$(ref_art "$ident")
if [[ -z "$REF_ART" ]]; then
	e2e_run "$SERIES_FILE" LOCK_WAIT=1800 TARGETS="$TGT" STEPS="$last"
	REF_ART=$(ref_art "$ident")
fi
t_rc "the local build of the same kernel ($ident) is at hand" 0 test -n "$REF_ART"
"$T_TMP/extract-vmlinux" "$REF_ART/bzImage" > "$T_TMP/ref-vmlinux" 2>/dev/null
REF_ID=$(build_id "$T_TMP/ref-vmlinux")
t_eq "the same identity as the local build (uname -v, modules' srcversions)" \
	"$(cat "$REF_ART/identity.tsv")" "$(cat "$ART/identity.tsv" 2>/dev/null)"
t_eq "the same bzImage as the local build" \
	"$(sha1sum < "$REF_ART/bzImage")" "$(sha1sum < "$ART/bzImage" 2>/dev/null)"
t_rc "the local build's vmlinux has a build id" 0 test -n "$REF_ID"
t_eq "the same vmlinux build id as the local build" "$REF_ID" "$(build_id "$OUT/vmlinux")"

# Where it compiled is no input of the result: without BUILD_HOSTS (and
# the daemons gone) the same build comes from the cache.
daemon_stop 127.0.0.2
env -u JOBS WORKDIR="$DWD" SERIES="$SERIES_FILE" \
	"$T_TOP/tools/bisect-run" --stage build --target "$TGT" "$TREE" > "$T_TMP/run2.out" 2>&1
t_eq "without BUILD_HOSTS: exit 0" 0 "$?"
RUN2=$(find "$DWD/runs" -maxdepth 1 -name 'bisect-run-*' | sort | tail -n 1)
t_grep "without BUILD_HOSTS: the same cell key, from the cache" \
	"^0	$TGT	build	ok	.*	[^	]+/[0-9]+-$TGT-build$" "$RUN2/cells.tsv"
t_nogrep "no daemon of the test is left" . <(pgrep -a -f "distccd .*--port $PORT")

t_done
