#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - `make bench`: measure bisect-check on this machine, every
# case in this one process, and print the figures side by side:
#
#   cold-build   one cold build per target of the series' config (fresh
#                tree from the Debian tarball where bisect-check puts its
#                worktree, fresh O= dir, no ccache), added up
#   distcc       the first target's cold build again, on the same tree
#                and cores, its compiles sent through distcc to two
#                daemons of this machine (127.0.0.2, 127.0.0.3; one slot a
#                core between them) the way BUILD_HOSTS sends them: the
#                overhead of going through distcc (BENCH_DISTCC_GOAL: what
#                it builds, default the image and the modules)
#   sandbox      the first target's cold build again, on the same tree and
#                cores, merge_config.sh and make in the sandbox
#                bisect-check runs them in (tools/sandbox.sh): what the
#                sandbox costs a build, and one sandbox's start
#   cold         make bisect-check in an empty WORKDIR (import, worktree,
#                every build, every boot)
#   warm         the same again, nothing changed
#   edit-3/3     the same with only 3/3 edited (a comment in its diff)
#   naive        git rebase -x of a full make + modules + fresh initramfs +
#                boot per commit over the same series, warm ccache
#   long         the series plus BENCH_LONG (12) one-file commits made here
#                (test/e2e/make-long-series.sh), after warm: the cost of
#                each added step
#   robots       the robots' cheap checks (tags, kdoc, cc, w1, sparse,
#                exports) of every series commit, twice with FORCE=1 on
#                the first target: first without their W=1 dir (its setup, make's
#                prepare there, falls on 1/N's w1), then with it, warm
#                ccache: the cost per commit, from the cells' own times
#
# Each run's figures go into BENCH_DOC (default docs/bench-runs.md; "-"
# for none) as one more section: when, the commit, the machine, the
# command and the report (bench_record). `tools/bench.sh --record FILE`
# records report FILE so, running nothing.
#
# Goals: warm < 1 s, edit-3/3 <= 10 s per target, cold <= 1.15 x
# cold-build, naive / warm >= 3, distcc <= 1.10 x cold-build of its target,
# sandbox <= 1.03 x cold-build of its target. Uses its own WORKDIR (BENCH_DIR, default
# $WORKDIR/bench), leaving the user's untouched. BENCH_CASES picks cases.

# The cases are called through timed().
# shellcheck disable=SC2317

# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tools/cache.sh
source "$TOP/tools/cache.sh"
# shellcheck source=tools/series.sh
source "$TOP/tools/series.sh"
# shellcheck source=tools/sandbox.sh
source "$TOP/tools/sandbox.sh"
# shellcheck source=tools/worktree.sh
source "$TOP/tools/worktree.sh"

# bench_command(): variable $1 = the command as the user gave it (asked
# before the defaults below): the settings that pick what the bench
# measures, as the environment sets them (the series when not this
# repository's), for bench_record.
bench_command()
{
	local -n __bc_cmd=$1; shift
	local n v

	__bc_cmd=
	for n in BENCH_CASES BENCH_LONG BENCH_DISTCC_GOAL TARGETS SERIES; do
		v=${!n:-}
		[[ -n "$v" ]] || continue
		[[ "$n" == SERIES && "$v" -ef "$TOP/series.yaml" ]] && continue
		[[ "$v" =~ ^[A-Za-z0-9_./:=+-]+$ ]] || v=\"${v//\"/\\\"}\"
		__bc_cmd+="$n=$v "
	done
	__bc_cmd+="make bench"
}
bench_command BENCH_CMD
BENCH_DIR=${BENCH_DIR:-$WORKDIR/bench}
BENCH_DOC=${BENCH_DOC:-$TOP/docs/bench-runs.md}
CASES=${BENCH_CASES:-cold-build distcc sandbox cold warm edit-3/3 long robots naive}
BENCH_LONG=${BENCH_LONG:-12}
# The edit-3/3 case's comment carries it, and the long case's: an
# earlier bench's builds of them must not be in the cache.
BENCH_NONCE=${BENCH_NONCE:-$(date +%s)}
declare -A SECS=()
# The series' branch, package, config fragment and targets, and its name
# and version as the report says them (main).
BRANCH='' PACKAGE_NAME='' FRAGMENT='' SERIES_LINE=''
TGTS=()
BENCH_DPIDS=()

# timed(): run a command, store its wall time in SECS[$1]; fail with it.
timed()
{
	local name=$1; shift
	local t rc
	msg "case $name: $*"
	t=$(now_ms)
	"$@"
	rc=$?
	SECS[$name]=$(( ($(now_ms) - t) / 100 ))
	msg "case $name: $(fmt_ms $(( SECS[$name] * 100 ))) (exit $rc)"
	return "$rc"
}

# bench_kvars(): array $1 = the make variables of target $2 (ARCH,
# CROSS_COMPILE, CC with prefix $3, the compiler's own), array $4 its
# config fragments, $5 its image's name.
bench_kvars()
{
	local -n __bk_ref=$1; shift
	local t=$1; shift
	local pre=$1; shift
	local -n __bk_frags=$1; shift
	local -n __bk_img=$1; shift
	local -a mk
	local -A tg

	target_get tg "$t"
	target_words mk tg make
	target_words __bk_frags tg fragments
	__bk_ref=(ARCH="${tg[karch]}" CROSS_COMPILE="${tg[cross]}" CC="$pre${tg[cc]}" "${mk[@]}")
	__bk_img=${tg[image]##*/}
}

# cold_build(): fresh tree, then per target a fresh O= dir, no ccache:
# the reference, one build per target one after the other (SECS of
# cold-build:TARGET each). The tree goes where bisect-check puts its
# worktree (tmpfs when there is one), so that the comparison does not
# credit bisect-check for it.
cold_build()
{
	local src=$COLD_SRC out t t0 img
	local -a kv frags
	mkdir -p "$src"
	tar -C "$src" --strip-components=1 -xf "/usr/src/$PACKAGE_NAME.tar.xz" || return 1
	for t in "${TGTS[@]}"; do
		bench_kvars kv "$t" '' frags img
		out=$BENCH_DIR/cold-out/$t
		t0=$(now_ms)
		mkdir -p "$out"
		(cd "$src" && env "${kv[@]}" \
			scripts/kconfig/merge_config.sh -n -O "$out" "${frags[@]}" \
			> "$out/merge.log" 2>&1) || return 1
		make -C "$src" O="$out" -j"$JOBS" "${kv[@]}" LOCALVERSION= "$img" modules \
			> "$out/build.log" 2>&1 || return 1
		SECS[cold-build:$t]=$(( ($(now_ms) - t0) / 100 ))
	done
}

# bench_daemons_stop(): end the distccd daemons of the distcc case and
# all they run.
bench_daemons_stop()
{
	local pid
	for pid in "${BENCH_DPIDS[@]}"; do
		kill_tree TERM "$pid"
		wait "$pid" 2>/dev/null
	done
	BENCH_DPIDS=()
	return 0
}

# distcc_build(): the cold build of the first target of cold_build, its
# compiles through distcc (SECS of distcc:TARGET; DISTCC_NOTE, where they
# ran). The daemons listen on loopback addresses only, for this
# machine's clients only, and stop with the case (and on exit).
distcc_build()
{
	local src=$COLD_SRC out=$BENCH_DIR/distcc-out dd=$BENCH_DIR/distcc
	local t=${TGTS[0]} slots port a hosts=() t0 rc i dtmp img
	local goal=() kv=() ckv=() frags=()

	read -r -a goal <<< "${BENCH_DISTCC_GOAL:-}"

	"$TOP/tools/deps.sh" dist || return 1
	if [[ ! -f "$src/Makefile" ]]; then
		mkdir -p "$src" &&
			tar -C "$src" --strip-components=1 -xf "/usr/src/$PACKAGE_NAME.tar.xz" || return 1
	fi
	bench_kvars kv "$t" '' frags img
	bench_kvars ckv "$t" 'ccache ' frags img
	((${#goal[@]})) || goal=("$img" modules)
	rm -rf "$out" "$dd"
	mkdir -p "$out" "$dd/state" || return 1
	# As many slots as cores, between the two: the parallelism of
	# cold-build (make -jJOBS), so that only the way differs.
	slots=$((($(nproc) + 1) / 2))
	port=$((36000 + $$ % 1000))
	# The daemons' work files, theirs to write (as root they run as
	# distccd, who cannot enter WORKDIR), which a killed one leaves.
	dtmp=$(mktemp -d /tmp/bench-distccd.XXXXXX) && chmod 1777 "$dtmp" || return 1
	defer rm -rf "$dtmp"
	defer bench_daemons_stop
	for a in 127.0.0.2 127.0.0.3; do
		setsid env TMPDIR="$dtmp" distccd --no-detach --daemon --log-stderr \
			--log-level info --listen "$a" --port "$port" \
			--allow 127.0.0.0/8 --jobs "$slots" < /dev/null 2>> "$dd/distccd-$a.log" &
		BENCH_DPIDS+=($!)
		hosts+=("$a:$port/$slots")
	done
	for ((i = 0; i < 50; i++)); do
		(($(cat "$dd"/distccd-*.log | grep -c 'listening on') == 2)) && break
		sleep 0.1
	done
	((i < 50)) || { bench_daemons_stop; echo "distccd does not start (see $dd)" >&2; return 1; }
	(cd "$src" && env "${kv[@]}" \
		scripts/kconfig/merge_config.sh -n -O "$out" "${frags[@]}" \
		> "$out/merge.log" 2>&1) || { bench_daemons_stop; return 1; }
	t0=$(now_ms)
	env CCACHE_DISABLE=1 CCACHE_PREFIX=distcc CCACHE_DIR="$dd/ccache" \
		DISTCC_HOSTS="${hosts[*]}" DISTCC_DIR="$dd/state" DISTCC_LOG="$dd/client.log" \
		DISTCC_FALLBACK=1 \
		make -C "$src" O="$out" -j"$JOBS" "${ckv[@]}" LOCALVERSION= "${goal[@]}" \
		> "$out/build.log" 2>&1
	rc=$?
	SECS[distcc:$t]=$((($(now_ms) - t0) / 100))
	bench_daemons_stop
	DISTCC_NOTE=$("$TOP/tools/bin/distlog" --host "${hosts[0]}" --host "${hosts[1]}" \
		"$dd/client.log" | sed -n 's/^summary\t//p')
	return "$rc"
}

# sandbox_build(): the cold build of the first target of cold_build
# again, config and make in the sandbox (SECS of sandbox:TARGET), and
# SANDBOX_START_MS, what starting one empty sandbox takes (the mean of
# 20).
sandbox_build()
{
	local src=$COLD_SRC out=$BENCH_DIR/sandbox-out t=${TGTS[0]} t0 i img
	local -a sb=() kv frags

	if [[ ! -f "$src/Makefile" ]]; then
		mkdir -p "$src" &&
			tar -C "$src" --strip-components=1 -xf "/usr/src/$PACKAGE_NAME.tar.xz" || return 1
	fi
	bench_kvars kv "$t" '' frags img
	rm -rf "$out"
	mkdir -p "$out" || return 1
	# As bisect-check's build_config: the tree writable to
	# merge_config.sh's temporary file.
	sandbox_argv sb --rw "$out" --rw "$src" --ro "$TOP" --ro "$WORKDIR"
	t0=$(now_ms)
	(cd "$src" && "${sb[@]}" env "${kv[@]}" \
		scripts/kconfig/merge_config.sh -n -O "$out" "${frags[@]}" \
		> "$out/merge.log" 2>&1) || return 1
	"${sb[@]}" make -C "$src" O="$out" -j"$JOBS" "${kv[@]}" LOCALVERSION= "$img" modules \
		> "$out/build.log" 2>&1 || return 1
	SECS[sandbox:$t]=$((($(now_ms) - t0) / 100))
	t0=$(now_ms)
	for ((i = 0; i < 20; i++)); do
		"${sb[@]}" true > /dev/null || return 1
	done
	SANDBOX_START_MS=$((($(now_ms) - t0) / 20))
}

# run_check(): bisect-check in the bench WORKDIR.
run_check()
{
	local series=$1; shift
	WORKDIR=$BENCH_DIR/wd "$TOP/tools/bisect-check" "$series" \
		> "$BENCH_DIR/last.out" 2> "$BENCH_DIR/last.err"
	(($? <= 1))
}

# robots(): the robots case: two FORCE=1 runs of the first target, the
# first without the W=1 dir; ROBOTS_SETUP and ROBOTS_RUN are their run
# dirs.
robots()
{
	local env=(FORCE=1 TARGETS="${TGTS[0]}")
	rm -rf "$BENCH_DIR/wd/build-w1" "$BENCH_DIR/wd/wcheck"
	env "${env[@]}" WORKDIR="$BENCH_DIR/wd" "$TOP/tools/bisect-check" "$SERIES" \
		> "$BENCH_DIR/last.out" 2> "$BENCH_DIR/last.err"
	(($? <= 1)) || return 1
	ROBOTS_SETUP=$(readlink -f "$BENCH_DIR/wd/runs/latest")
	env "${env[@]}" WORKDIR="$BENCH_DIR/wd" "$TOP/tools/bisect-check" "$SERIES" \
		> "$BENCH_DIR/last.out" 2> "$BENCH_DIR/last.err"
	(($? <= 1)) || return 1
	ROBOTS_RUN=$(readlink -f "$BENCH_DIR/wd/runs/latest")
}

# robots_report(): per series commit, the time of each robot check and
# their sum, in run dir $1.
robots_report()
{
	awk -F'\t' '$3 ~ /^(tags|kdoc|cc|w1|sparse|exports)$/ && $1 > 0 {
			ms[$1 " " $3] = $5; sum[$1] += $5; if ($1 > n) n = $1 }
		END { for (i = 1; i <= n; i++) {
			printf "#   step %d:", i
			split("tags kdoc cc w1 sparse exports", c, " ")
			for (j = 1; j <= 6; j++)
				printf " %s %.1f", c[j], ms[i " " c[j]] / 1000
			printf "  all %.1f s\n", sum[i] / 1000 } }' "$1/cells.tsv"
}

# bench_series(): BENCH_SERIES, the series the cold, warm and edit-3/3
# cases run: the loaded series written out as it is, in the bench dir,
# so that edit-3/3 edits it in place as a maintainer does (the series
# file's path is in the keys of the step checks: the details name it).
bench_series()
{
	BENCH_SERIES=$BENCH_DIR/series/series.yaml
	mkdir -p "${BENCH_SERIES%/*}" || return 1
	{
		echo "# generated by tools/bench.sh from $SERIES"
		series_write
	} > "$BENCH_SERIES"
}

# edited_series(): rewrite BENCH_SERIES with a 3/3 that changes a comment
# in its diff (series_write of the loaded series, 3/3 replaced).
edited_series()
{
	local dir=$BENCH_DIR/edit p3 k=$BENCH_DIR/wd/kernel.git
	local tip blob tree commit n

	mkdir -p "$dir"
	tip=$(git --git-dir="$k" rev-parse "$BRANCH") || return 1
	blob=$(git --git-dir="$k" show "$tip:kernel/kallsyms.c" |
		sed -e "s/ (bench edit [0-9]*)//" \
		    -e "0,/^ \\* Iterate over all symbols in vmlinux/s//& (bench edit $BENCH_NONCE)/" |
		git --git-dir="$k" hash-object -w --stdin) || return 1
	tree=$(GIT_INDEX_FILE=$dir/index git --git-dir="$k" read-tree "$tip" &&
		GIT_INDEX_FILE=$dir/index git --git-dir="$k" update-index \
			--cacheinfo "100644,$blob,kernel/kallsyms.c" &&
		GIT_INDEX_FILE=$dir/index git --git-dir="$k" write-tree) || return 1
	commit=$(GIT_AUTHOR_NAME="$(git --git-dir="$k" log -1 --format=%an "$tip")" \
		GIT_AUTHOR_EMAIL="$(git --git-dir="$k" log -1 --format=%ae "$tip")" \
		GIT_AUTHOR_DATE="$(git --git-dir="$k" log -1 --format=%aD "$tip")" \
		git --git-dir="$k" commit-tree "$tree" -p "$tip~1" \
		-m "$(git --git-dir="$k" log -1 --format=%B "$tip")") || return 1
	p3=$dir/0003-edited.patch
	git --git-dir="$k" format-patch -1 --stdout "$commit" > "$p3" || return 1
	# The same series, 3/3 replaced by the edited patch.
	series_nsteps n
	series_patch_set $((n - 1)) "$p3"
	{
		echo "# generated by tools/bench.sh from $SERIES: 3/3 edited"
		series_write
	} > "$BENCH_SERIES"
	load_series "$SERIES"
	"$TOP/tools/bin/series" "$BENCH_SERIES" > /dev/null ||
		die "the edited series is not valid: $BENCH_SERIES"
}

# naive(): git rebase -x over the series with a full make, modules, a
# fresh initramfs and a boot per commit; its own build dir, warm ccache.
naive()
{
	local k=$BENCH_DIR/wd/kernel.git wt=$BENCH_DIR/naive-tree out=$BENCH_DIR/naive-out
	local base tip rc

	git --git-dir="$k" worktree remove --force "$wt" > /dev/null 2>&1
	rm -rf "$wt" "$out" "$BENCH_DIR/naive-art"
	base=$(git --git-dir="$k" rev-parse "$BRANCH-base")
	tip=$(git --git-dir="$k" rev-parse "$BRANCH")
	git --git-dir="$k" worktree add -q --detach "$wt" "$base" || return 1
	mkdir -p "$out"
	# x86_64 with gcc, what bench-naive-step.sh builds and boots.
	(cd "$wt" && scripts/kconfig/merge_config.sh -n -O "$out" "$FRAGMENT" \
		"$TOP/tools/kconfig/arch-x86_64.config" > /dev/null 2>&1)
	git -C "$wt" checkout -q --detach "$tip"
	# What the runner runs (it bails out without a program).
	guest_program > "$BENCH_DIR/naive-program" || return 1
	env TOP="$TOP" JOBS="$JOBS" CCACHE_DIR="$BENCH_DIR/wd/ccache" GIT_EDITOR=true \
		git -C "$wt" -c core.hooksPath=/dev/null rebase -q --force-rebase \
		-x "$(printf '%q ' "$TOP/tools/bench-naive-step.sh" "$out" "$BENCH_DIR/naive-art" \
			"$BENCH_DIR/naive-program")" \
		"$base~0" \
		> "$BENCH_DIR/naive.log" 2>&1
	rc=$?
	git -C "$wt" rebase --abort > /dev/null 2>&1
	git --git-dir="$k" worktree remove --force "$wt" > /dev/null 2>&1
	return "$rc"
}

# ratio(): a / b with two decimals.
ratio()
{
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

# first_verdict_report(): when the cold run's first target had its
# verdict (bisect-check, run_passes), against that target's cold build.
first_verdict_report()
{
	local f=${COLD_RUN:-}/first-verdict.tsv tgt verdict ms

	if [[ -z "${COLD_RUN:-}" || ! -r "$f" ]]; then
		echo "             first verdict: none said (one target, or every build dir was there)"
		return 0
	fi
	IFS=$'\t' read -r tgt verdict ms < "$f"
	printf '             first verdict (%s, %s) at %.1f s: / cold-build %s = %s (goal <= 1.2)\n' \
		"$tgt" "$verdict" "$(awk -v d="$ms" 'BEGIN { printf "%.1f", d / 1000 }')" "$tgt" \
		"$(ratio "$((ms / 100))" "${SECS[cold-build:$tgt]:-0}")"
	first_verdict_floor "$tgt"
}

# first_verdict_floor(): what the first verdict of target $1 cannot come
# sooner than, from the cold run's own times: its step 0 built (the
# import's unpacking and the cold build, which the hashing overlaps),
# then each later step's build, one after the other (each builds on the
# last in the same dir), then the last step's boot and tests. The rest
# of the first verdict's time is what runs between them.
first_verdict_floor()
{
	local tgt=$1; shift
	local at rest

	at=$(awk -v t="$tgt" '$0 ~ "\\] 0 " t " build: " && $0 !~ / build: start/ {
		sub(/^[^[]*\[ */, ""); sub(/s\].*/, ""); print int($0 * 1000); exit }' \
		"$COLD_RUN/progress.log" 2> /dev/null)
	rest=$(awk -F'\t' -v t="$tgt" '$2 == t && $1 > last { last = $1 }
		$2 == t { c[$1 "," $3] = $5 }
		END { s = 0; for (i = 1; i <= last; i++) s += c[i ",build"];
			print s + c[last ",boot"] + c[last ",tests"] }' "$COLD_RUN/cells.tsv" 2> /dev/null)
	if [[ ! "$at" =~ ^[0-9]+$ || ! "$rest" =~ ^[0-9]+$ ]]; then
		echo "             its floor: not found in $COLD_RUN"
		return 0
	fi
	printf '             its floor: step 0 built at %.1f s + later builds, last boot and tests %.1f s = %.1f s: / cold-build %s = %s\n' \
		"$(awk -v d="$at" 'BEGIN { printf "%.1f", d / 1000 }')" \
		"$(awk -v d="$rest" 'BEGIN { printf "%.1f", d / 1000 }')" \
		"$(awk -v d="$((at + rest))" 'BEGIN { printf "%.1f", d / 1000 }')" "$tgt" \
		"$(ratio "$(((at + rest) / 100))" "${SECS[cold-build:$tgt]:-0}")"
}

# report(): the figures side by side, against the goals.
report()
{
	local c v t
	echo "# bench on $(nproc) cores, $(date -u +%FT%TZ), series $SERIES_LINE"
	printf '%-12s %10s   %s\n' case seconds note
	for c in cold-build distcc sandbox cold warm edit-3/3 long robots naive; do
		v=${SECS[$c]:-}
		[[ -n "$v" ]] || continue
		printf '%-12s %10s   ' "$c" "$(awk -v d="$v" 'BEGIN { printf "%.1f", d / 10 }')"
		case $c in
		cold-build) for t in "${TGTS[@]}"; do
				printf '%s %s s  ' "$t" "$(awk -v d="${SECS[cold-build:$t]:-0}" 'BEGIN { printf "%.1f", d / 10 }')"
			done
			echo ;;
		distcc) t=${TGTS[0]}
			echo "$t through two local daemons: $(awk -v d="${SECS[distcc:$t]:-0}" 'BEGIN { printf "%.1f", d / 10 }') s, / cold-build $t = $(ratio "${SECS[distcc:$t]:-0}" "${SECS[cold-build:$t]:-0}") (goal <= 1.10); distcc: ${DISTCC_NOTE:-?}" ;;
		sandbox) t=${TGTS[0]}
			echo "$t in the sandbox: / cold-build $t = $(ratio "${SECS[sandbox:$t]:-0}" "${SECS[cold-build:$t]:-0}") (goal <= 1.03); one sandbox starts in ${SANDBOX_START_MS:-?} ms" ;;
		cold) echo "cold / cold-build = $(ratio "$v" "${SECS[cold-build]:-0}") (goal <= 1.15)"
			first_verdict_report ;;
		warm) echo "goal < 1 s" ;;
		edit-3/3) echo "${#TGTS[@]} target(s) (goal <= 10 s per target)" ;;
		long) echo "$BENCH_LONG added one-file steps: $(awk -v d="$v" -v n="$BENCH_LONG" 'BEGIN { printf "%.1f", d / 10 / n }') s each (goal <= 5 s)" ;;
		robots) echo "two FORCE=1 runs of ${TGTS[0]}; per commit below (goal <= 15 s)" ;;
		naive) echo "naive / warm = $(ratio "$v" "${SECS[warm]:-0}"), naive / edit-3/3 = $(ratio "$v" "${SECS[edit-3/3]:-0}") (goal >= 3)" ;;
		*) echo ;;
		esac
	done
	if [[ -n "${ROBOTS_RUN:-}" ]]; then
		echo "# robots' checks, first run without the W=1 dir (its setup in 1's w1):"
		robots_report "$ROBOTS_SETUP"
		echo "# robots' checks, warm ccache, W=1 dir there (goal: all <= 15 s):"
		robots_report "$ROBOTS_RUN"
	fi
	[[ -n "${COLD_RUN:-}" ]] || return 0
	echo "# per step in the cold run (image + boot + guest tests; goal <= 10 s):"
	awk -F'\t' '$3 == "boot" { printf "#   step %s %s: %.1f s (%s)\n", $1, $2, $5 / 1000, $6 }' \
		"$COLD_RUN/cells.tsv"
	echo "# cold run stages (s): $(awk -F'\t' '{ t[$3] += $5 } END {
		for (s in t) printf "%s %.1f  ", s, t[s] / 1000 }' "$COLD_RUN/cells.tsv")"
}

# bench_record(): add report file $1 to the bench runs' document $2 (made
# with its header when there is none): a section that says when, on
# which commit of this repository (its changes outside $2 said), on what
# machine, by which command ($3).
bench_record()
{
	local report=$1; shift
	local doc=$1; shift
	local cmd=$1; shift
	local head dirty cpu mem rel fresh=0 bt='`'

	[[ -r "$report" && -s "$report" ]] ||
		die "no report to record: $report is missing or empty (run make bench first)"
	head=$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null) || head="(not a git checkout)"
	rel=${doc#"$TOP"/}
	dirty=$(git -C "$TOP" status --porcelain --untracked-files=no -- . ":!$rel" 2>/dev/null)
	[[ -n "$dirty" ]] && head+=" with uncommitted changes"
	cpu=$(awk -F': *' '$1 ~ /^model name/ { print $2; exit }' /proc/cpuinfo)
	mem=$(awk '$1 == "MemTotal:" { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
	: 2> /dev/null >> "$doc" ||
		die "cannot write the bench record $doc: check its dir and permissions, or set BENCH_DOC=- for none"
	[[ -s "$doc" ]] || fresh=1
	{
		if ((fresh)); then
			printf '%s\n\n' "# make bench: its runs"
			printf '%s\n' "Written by \`make bench\` (tools/bench.sh, bench_record), one section" \
				"a run, the newest last: the figures as it printed them, the" \
				"command, the commit and the machine. How it measures and what the" \
				"figures mean: [bench.md](bench.md). Machines differ about 2x in" \
				"speed: compare ratios, or runs of one machine."
		fi
		printf '\n## %s, %s\n\n' "$(date -u +%FT%TZ)" "$head"
		printf 'Machine: %s cores (%s), %s. Command: %s\n\n' \
			"$(nproc)" "${cpu:-cpu unknown}" "${mem:-memory unknown}" "$bt$cmd$bt"
		printf '```text\n'
		cat "$report"
		printf '```\n'
	} >> "$doc" || die "cannot write the bench record $doc: check space and permissions"
	msg "figures added to $doc"
}

main()
{
	local n

	if [[ "${1:-}" == --record ]]; then
		[[ $# == 2 ]] || die "usage: tools/bench.sh --record REPORT"
		[[ "$BENCH_DOC" != - ]] || die "BENCH_DOC=-: nowhere to record $2"
		bench_record "$2" "$BENCH_DOC" "$BENCH_CMD"
		return
	fi
	(($# == 0)) || die "usage: tools/bench.sh [--record REPORT] (settings in the environment: BENCH_CASES, ...)"
	load_series "$SERIES"
	# The distcc case's daemons stop on exit, error and Ctrl-C too.
	defer_init
	# The loaded series' fields the cases read.
	targets_names TGTS
	series_branch BRANCH
	series_get n name
	SERIES_LINE=$n
	series_get n version
	SERIES_LINE+=" v$n"
	series_get PACKAGE_NAME package
	series_get FRAGMENT config
	[[ -n "$PACKAGE_NAME" ]] ||
		die "$SERIES: its base is a repository, not a Debian package: make bench measures a package's series"
	mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
	command -v ccache >/dev/null || die "ccache missing: run 'make deps'"
	# Setup, not timed: leftovers of an earlier bench.
	COLD_SRC=$(wt_root "$BENCH_DIR/wd")/cold-src
	wt_root_make "$COLD_SRC" "$BENCH_DIR/wd" || die "cannot create $(dirname "$COLD_SRC")"
	defer wt_root_drop "$COLD_SRC" "$BENCH_DIR/wd"
	defer rm -rf "$COLD_SRC"
	rm -rf "$COLD_SRC" "$BENCH_DIR/cold-out"
	bench_series || die "cannot write the bench's copy of $SERIES"
	[[ " $CASES " == *" cold-build "* ]] && { timed cold-build cold_build || die "cold build failed (see $BENCH_DIR/cold-out/build.log)"; }
	[[ " $CASES " == *" distcc "* ]] && { timed distcc distcc_build || die "distcc build failed (see $BENCH_DIR/distcc-out/build.log, $BENCH_DIR/distcc)"; }
	[[ " $CASES " == *" sandbox "* ]] && { timed sandbox sandbox_build || die "sandboxed build failed (see $BENCH_DIR/sandbox-out/build.log)"; }
	rm -rf "$COLD_SRC"
	if [[ " $CASES " == *" cold "* ]]; then
		rm -rf "$BENCH_DIR/wd"
		timed cold run_check "$BENCH_SERIES" || die "cold run failed (see $BENCH_DIR/last.err)"
		COLD_RUN=$(readlink -f "$BENCH_DIR/wd/runs/latest")
	fi
	[[ " $CASES " == *" warm "* ]] && { timed warm run_check "$BENCH_SERIES" || die "warm run failed"; }
	if [[ " $CASES " == *" edit-3/3 "* ]]; then
		edited_series || die "cannot make the edited series"
		timed edit-3/3 run_check "$BENCH_SERIES" || die "edit run failed"
		grep -E '^bisect-check: .* (apply|checkpatch|tags|kdoc|cc|w1|sparse|exports|build|boot|tests): ' "$BENCH_DIR/last.err" |
			grep -v cached | sed 's/^/#   redone: /'
	fi
	if [[ " $CASES " == *" long "* ]]; then
		WORKDIR=$BENCH_DIR/wd "$TOP/test/e2e/make-long-series.sh" "$BENCH_DIR/long" \
			"$BENCH_LONG" "bench $BENCH_NONCE" \
			> "$BENCH_DIR/long.out" 2>&1 || die "cannot make the long series (see $BENCH_DIR/long.out)"
		timed long run_check "$BENCH_DIR/long/long.yaml" || die "long run failed (see $BENCH_DIR/last.err)"
		series_nsteps n
		awk -F'\t' -v n="$n" '$1 >= n && ($3 == "build" || $3 == "boot") {
			t[$3] += $5; c[$3]++ } END { for (s in t)
			printf "#   long, per added step: %s %.1f s\n", s, t[s] / c[s] / 1000 }' \
			"$(readlink -f "$BENCH_DIR/wd/runs/latest")/cells.tsv"
	fi
	[[ " $CASES " == *" robots "* ]] && { timed robots robots || die "robots runs failed (see $BENCH_DIR/last.err)"; }
	if [[ " $CASES " == *" naive "* ]]; then
		# Untimed once, so that the timed loop has the warm ccache the
		# comparison promises (its own tree path, so its own entries).
		msg "naive: warming its ccache (not timed)"
		naive || die "naive loop failed (see $BENCH_DIR/naive.log)"
		timed naive naive || die "naive loop failed (see $BENCH_DIR/naive.log)"
	fi
	rm -rf "$COLD_SRC"
	wt_root_drop "$COLD_SRC" "$BENCH_DIR/wd"
	report | tee "$BENCH_DIR/report.txt"
	[[ "$BENCH_DOC" == - ]] || bench_record "$BENCH_DIR/report.txt" "$BENCH_DOC" "$BENCH_CMD"
}

main "$@"; exit $?
