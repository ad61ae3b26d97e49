#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh - the build stage: build one step in the shared, incremental
# O= build dir, install its modules and the guest test modules into an
# artifact dir, and fail on build errors and on warnings the previous
# step did not have.
#
# shellcheck disable=SC2034  # BUILD_* are read by the callers
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh,
# cell.sh and worktree.sh.

# Reproducible build identity: the same tree gives the same image.
readonly BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2000"

# kmake(): make in the worktree for the target of array $1 (target.sh,
# target_get: its build dir is its field out) with the fixed build
# environment; ccache keeps its cache in WORKDIR.
#
# ccache runs in its default mode (direct, falling back to the
# preprocessor), never in depend mode: depend mode keys an object by the
# source and the headers of the compiler's -MD list, which never names
# what an assembler `.incbin` pulls in. x86's piggy.S only records the
# sizes of vmlinux.bin.gz and .incbin's it, so two kernels whose
# compressed payloads had the same length got the same piggy.o, and the
# bzImage booted an earlier step's kernel. The default mode sees
# `.incbin` in the preprocessed text and compiles such files every time
# (test/host/t-ccache.sh proves both). Its cache is a dir of its own,
# ccache-nodepend: a direct-mode lookup hits what depend mode stored,
# stale .incbin objects included, so the depend-mode cache of earlier
# versions ($WORKDIR/ccache) is never read again (prune.sh removes it).
#
# BUILD_CCACHE_OFF=1 passes every call straight to gcc: set for a fresh
# build dir, which means a config or toolchain not built before (build
# dirs are kept per both), so nothing can hit and filling the cache would
# cost a fifth of the build. CC stays the same, so kbuild sees no changed
# command lines. BUILD_IDENT, when set, is the version the kernel
# carries (build_ident in series.sh).
kmake()
{
	local -a __km_argv

	kmake_argv __km_argv "$1"
	shift
	"${__km_argv[@]}" "$@"
}

# kmake_argv(): array $1 = kmake's command for the target of array $2,
# for running it as a program: in the sandbox (tools/sandbox.sh), where
# the build dir, the ccache and the artifact dirs are all it may write.
kmake_argv()
{
	local -n __ka_ref=$1; shift
	local -n __ka_t=$1; shift
	# ccache takes any value of CCACHE_DISABLE, even empty, as "on".
	local off=() ident=() sb=() mk=()
	local ccache=${CCACHE_DIR:-$WORKDIR/ccache-nodepend}
	[[ "${BUILD_CCACHE_OFF:-}" == 1 ]] && off=(CCACHE_DISABLE=1)
	[[ -n "${BUILD_IDENT:-}" ]] && ident=(KBUILD_BUILD_VERSION="$BUILD_IDENT")
	target_words mk __ka_t make
	build_dist_args "${__ka_t[out]}"
	build_sandbox sb __ka_t --rw "$ccache" --rw "$WORKDIR/artifacts"
	# No depend mode, whatever a system ccache.conf or the environment
	# says; no sloppiness of the user's either. Modules carry debug
	# info (vmlinux does not: its link and size would double): a guest
	# hung in a module's code is named with its file and line
	# (boot.sh boot_hang).
	__ka_ref=("${sb[@]}" env -u CCACHE_DEPEND -u CCACHE_SLOPPINESS "${off[@]}"
		"${BUILD_DIST_ARGS[@]}"
		CCACHE_NODEPEND=1
		CCACHE_DIR="$ccache"
		make -C "$WT" O="${__ka_t[out]}" -j"$JOBS"
		ARCH="${__ka_t[karch]}" CROSS_COMPILE="${__ka_t[cross]}"
		CC="ccache ${__ka_t[cc]}" "${mk[@]}"
		LOCALVERSION=
		CFLAGS_MODULE=-g
		"${ident[@]}"
		KBUILD_BUILD_TIMESTAMP="$BUILD_TIMESTAMP"
		KBUILD_BUILD_USER=bisect
		KBUILD_BUILD_HOST=bisect-check)
}

# build_sandbox(): the array named $1 = the sandbox of a command of the
# tree's that builds into the build dir of target array $2 (its out;
# tools/sandbox.sh): that dir writable, with the dirs of options $3...
# (--rw DIR, made when missing); this repository, WORKDIR, the worktree
# and the target's config fragments readable; the host's network only
# for distcc (BUILD_HOSTS).
build_sandbox()
{
	local -n __bs=$1; shift
	local -n __bs_t=$1; shift
	local -a opts=(--rw "${__bs_t[out]}" --ro "$TOP" --ro "$WORKDIR" --ro "${WT%/*}") frags
	local a f

	# The config fragments, wherever the series keeps them.
	target_words frags __bs_t fragments
	for f in "${frags[@]}"; do
		opts+=(--ro "${f%/*}")
	done
	for a in "$@"; do
		[[ "$a" == --* ]] || mkdir -p "$a"
	done
	# The worktree's git (kbuild's setlocalversion asks it).
	[[ -n "${KREPO:-}" ]] && sandbox_git opts "$KREPO"
	build_dist_on && opts+=(--net)
	sandbox_argv __bs "${opts[@]}" "$@"
}

# Distributed compiles: with BUILD_HOSTS="host[:port][/slots] ..." (the
# host list of distcc(1), given as DISTCC_HOSTS), kmake's compiles run on
# those hosts. ccache stays in front: what it has is served here, and it
# runs "distcc gcc ..." for what it has not (CCACHE_PREFIX; ccache 4.7
# applies it with CCACHE_DISABLE=1 too, so a fresh build dir is
# distributed as well). distcc preprocesses here and sends the
# preprocessed text, so the object is the one gcc makes here; a compile
# whose host refuses, dies or drops it goes to another host, or is done
# here (DISTCC_FALLBACK, default 1).
# Nothing of this enters a key, a build dir or an identity: none of
# these functions is hashed into the build key (build_ids), and PATH,
# CC and the toolchain stay what they are. Without BUILD_HOSTS, kmake's
# command is the same as before.

# build_dist_on(): true when the compiles go to BUILD_HOSTS.
build_dist_on()
{
	[[ -n "${BUILD_HOSTS:-}" ]]
}

# build_dist_init(): with BUILD_HOSTS, once a run: install distcc when
# missing (tools/deps.sh dist), check that distcc reads the host list,
# and make JOBS its capacity (distcc -j, the sum of the hosts' slots)
# unless JOBS was given: one the user gave comes from the environment,
# lib.sh's default (nproc) is a variable of the shell alone. Dies on a
# setup error.
build_dist_init()
{
	local jobs

	[[ -n "${BUILD_DIST_READY:-}" ]] && return 0
	BUILD_DIST_READY=1
	build_dist_on || return 0
	path_of distcc || "$TOP/tools/deps.sh" dist ||
		die "BUILD_HOSTS is set and distcc is missing: install it (apt-get install distcc), or unset BUILD_HOSTS"
	jobs=$(DISTCC_HOSTS=$BUILD_HOSTS distcc -j 2>&1)
	[[ "$jobs" =~ ^[1-9][0-9]*$ ]] ||
		die "BUILD_HOSTS='$BUILD_HOSTS': distcc cannot use it (${jobs//$'\n'/ }): give host[:port][/slots] words, see distcc(1), HOST SPECIFICATIONS"
	[[ "${JOBS@a}" == *x* ]] || JOBS=$jobs
	msg "BUILD_HOSTS: compiling on $BUILD_HOSTS through distcc (its capacity: $jobs jobs; make -j$JOBS)"
}

# build_dist_args(): BUILD_DIST_ARGS = kmake's settings for BUILD_HOSTS,
# none without it. distcc's client log of the build goes into the build
# dir $1, for build_dist_end.
build_dist_args()
{
	local out=$1; shift

	BUILD_DIST_ARGS=()
	build_dist_on || return 0
	# distcc's own state dir, which it does not make itself: HOME is
	# hidden in the sandbox.
	mkdir -p "$out/.bisect-distcc"
	BUILD_DIST_ARGS=(CCACHE_PREFIX=distcc DISTCC_HOSTS="$BUILD_HOSTS"
		DISTCC_FALLBACK="${DISTCC_FALLBACK:-1}" DISTCC_LOG="$out/.bisect-distcc.log"
		DISTCC_DIR="$out/.bisect-distcc")
}

# build_dist_begin(): a build of dir $1 starts: empty its distcc log,
# unless it holds what the prebuild of this dir compiled, which belongs
# to this build (build_prebuild).
build_dist_begin()
{
	local out=$1; shift

	build_dist_init
	build_dist_on || return 0
	[[ -n "${BUILD_PRELOG:-}" && "${BUILD_PRE_OUT:-}" == "$out" ]] && return 0
	: > "$out/.bisect-distcc.log"
}

# build_dist_end(): where the build's compiles ran, from distcc's client
# log (tools/bin/distlog): BUILD_DIST_NOTE = one line for the cell's
# summary ("distcc: N compiles on HOST 49%, ..."), and the per-host
# table appended to the details file $1 and to the build log $2 (kept
# with a cached cell). The raw log stays in the build dir $3 until the
# next build of it.
build_dist_end()
{
	local detail=$1; shift
	local log=$1; shift
	local dlog=$1/.bisect-distcc.log w out
	local args=() words=()

	BUILD_DIST_NOTE=
	build_dist_on || return 0
	# The hosts in their order, also those that took nothing.
	read -r -a words <<< "$BUILD_HOSTS"
	for w in "${words[@]}"; do
		[[ "$w" == [-+]* ]] || args+=(--host "$w")
	done
	[[ -f "$dlog" ]] || : > "$dlog"
	if ! out=$("$TOP/tools/bin/distlog" "${args[@]}" -- "$dlog" 2>&1); then
		BUILD_DIST_NOTE="distcc: cannot read its log ($out)"
		echo "$BUILD_DIST_NOTE" >> "$log"
		return 0
	fi
	BUILD_DIST_NOTE="distcc: ${out##*$'\n'summary$'\t'}"
	{
		echo "where the compiles ran (distcc, BUILD_HOSTS=$BUILD_HOSTS; log $dlog):"
		echo "  host compiled failed moved-elsewhere"
		awk -F'\t' '$1 == "host" || $1 == "total" {
			print "  " ($1 == "total" ? "total" : $2), $(NF - 2), $(NF - 1), $NF }' <<< "$out"
	} | tee -a "$log" >> "$detail"
}

# build_touch_changed(): give a fresh mtime to every file that differs
# between the tree(s) build dir $3 last saw and the worktree's HEAD (log
# $2). Sets variable $1 to 1 when a Kconfig file is among them, else 0.
# With $4 (seconds since the epoch, taken once the worktree is at the
# step; "" for now), that mtime: builds of several targets side by side
# touch the same files, and a later touch must not make a sibling's
# fresh objects look older than their sources. Fails when a file could
# not be touched.
build_touch_changed()
{
	local -n __btc_kconfig=$1; shift
	local log=$1; shift
	local out=$1; shift
	local at=$1; shift
	local state=$out/.bisect-trees
	local head tree files f

	__btc_kconfig=0
	head=$(git_k rev-parse "HEAD^{tree}")
	[[ -f "$state" ]] || return 0
	while read -r tree; do
		[[ "$tree" == "$head" ]] && continue
		if ! git_k cat-file -e "$tree" 2>/dev/null; then
			# Unknown tree: the dir is of no use, start over.
			echo "build dir state $tree unknown: cleaning $out" >> "$log"
			find "$out" -mindepth 1 -maxdepth 1 ! -name .config -exec rm -rf {} +
			return 0
		fi
		mapfile -t files < <(git_k diff --no-renames --name-only "$tree" "$head")
		((${#files[@]})) || continue
		echo "touching ${#files[@]} file(s) changed since tree $tree" >> "$log"
		# In batches: another base differs in tens of thousands of
		# files, more than one command line holds. A file left
		# untouched would keep its stale object: no build then.
		printf '%s\0' "${files[@]}" | (cd "$WT" &&
			xargs -0 -r touch -c ${at:+-d "@$at"} --) >> "$log" 2>&1 ||
			return 1
		for f in "${files[@]}"; do
			[[ "${f##*/}" == Kconfig* ]] && __btc_kconfig=1
		done
	done < "$state"
	return 0
}

# The lines kbuild prints for each step of its work ("  CC      init/main.o",
# "  LD [M]  ..."): what build_watch counts.
readonly BUILD_STEP_RE='^  [A-Z][A-Z0-9_]* '

# build_steps_of(): print how many steps the build writing log $1 made.
build_steps_of()
{
	local n

	n=$(grep -c -E "$BUILD_STEP_RE" "$1" 2> /dev/null)
	echo "${n:-0}"
}

# build_watch(): the progress line of the build writing log $2 (into
# dir $3, for target $4), $1 seconds in (watch_loop): kbuild's steps so
# far against those of this build dir's last build (.bisect-steps); for
# a fresh dir, of the target's last fresh build
# (WORKDIR/progress/TARGET.fresh), else an estimate from another
# target's (the first target's cold build gives one to the others); and
# what is left at that rate.
build_watch()
{
	local el=$1; shift
	local log=$1; shift
	local out=$1; shift
	local t=$1; shift
	local id=${log##*/} total='' by='the last build' f name label

	id=${id%%-*}
	if [[ -f "$out/.config" && -r "$out/.bisect-steps" && -f "$out/.bisect-trees" ]]; then
		read -r total < "$out/.bisect-steps"
	elif [[ -r "$WORKDIR/progress/$t.fresh" ]]; then
		read -r total < "$WORKDIR/progress/$t.fresh"
	else
		for f in "$WORKDIR"/progress/*.fresh; do
			[[ -r "$f" ]] || continue
			read -r total < "$f"
			name=${f##*/}
			by="an estimate: ${name%.fresh}'s fresh build"
			break
		done
	fi
	[[ "$total" =~ ^[1-9][0-9]*$ ]] || total=
	series_label label "$id"
	printf '%s build of %s: %s' "$t" "$label" \
		"$(fmt_done "$(build_steps_of "$log")" "$total" steps "$el")"
	if [[ -n "$total" ]]; then
		echo " (by $by)"
	else
		echo " (no earlier build to go by)"
	fi
}

# build_steps_keep(): the steps the build of log $1 took, for the next
# build of its dir $3 (build_watch); with $2 = 1 (a fresh dir) for
# target $4's next fresh build as well.
build_steps_keep()
{
	local log=$1; shift
	local fresh=$1; shift
	local out=$1; shift
	local t=$1; shift
	local n

	n=$(build_steps_of "$log")
	echo "$n" > "$out/.bisect-steps"
	((fresh)) || return 0
	mkdir -p "$WORKDIR/progress" && echo "$n" > "$WORKDIR/progress/$t.fresh"
}

# build_config(): give the build dir of target array $2 (its out) its
# .config when it has none (allnoconfig plus the series' fragment and
# the target's; log $1); fail when a fragment does not apply.
build_config()
{
	local log=$1; shift
	local -n __bc_t=$1; shift
	local out=${__bc_t[out]}
	local -a sb=() mk frags

	[[ -f "$out/.config" ]] && return 0
	mkdir -p "$out" || return 1
	target_words mk __bc_t make
	target_words frags __bc_t fragments
	# merge_config.sh writes its temporary config where it runs, in the
	# tree: the worktree is writable to it.
	build_sandbox sb __bc_t --rw "$WT"
	(cd "$WT" && run_logged "$log" "${sb[@]}" env ARCH="${__bc_t[karch]}" \
		CROSS_COMPILE="${__bc_t[cross]}" CC="${__bc_t[cc]}" "${mk[@]}" \
		scripts/kconfig/merge_config.sh -n -O "$out" "${frags[@]}")
	if grep -q 'not in final .config' "$log" || [[ ! -f "$out/.config" ]]; then
		rm -f "$out/.config"
		return 1
	fi
	return 0
}

# build_prebuild(): start building the tree at $WT as it is into target
# $2's build dir (log $1), in the background and its own process group,
# to use a core that would idle (a fresh import hashes with one thread);
# stopped with build_prebuild_stop. Whatever it compiled, the next build
# reuses: kbuild redoes what changed since and what the stop cut short.
build_prebuild()
{
	local log=$1; shift
	local -A tg
	local -a argv

	target_get tg "$1"
	BUILD_PRELOG=$log
	BUILD_CCACHE_OFF=1
	build_config "${log%/*}/prebuild-kconfig.log" tg || return 1
	# Its compiles count with the build that goes on from it.
	build_dist_init
	BUILD_PRE_OUT=${tg[out]}
	build_dist_on && : > "${tg[out]}/.bisect-distcc.log"
	kmake_argv argv tg
	local cmd=(setsid setpriv --pdeathsig TERM "${argv[@]}" "${tg[image]##*/}" modules)
	printf '$' > "$log"
	printf ' %q' "${cmd[@]}" >> "$log"
	printf '\n' >> "$log"
	# Not a process group leader (no job control), so setsid makes make
	# the leader of a new group without forking: $! is the group. If this
	# shell dies unawares (SIGKILL), make gets SIGTERM and passes it on.
	(
		lock_drop
		exec "${cmd[@]}"
	) < /dev/null >> "$log" 2>&1 &
	BUILD_PREBUILD_PID=$!
	defer build_prebuild_stop
}

# build_prebuild_stop(): stop a prebuild and wait for it. SIGTERM, as a
# background job ignores SIGINT; make passes it on and deletes what it
# had half made.
build_prebuild_stop()
{
	local pid=${BUILD_PREBUILD_PID:-}

	[[ -n "$pid" ]] || return 0
	kill -TERM -- "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	BUILD_PREBUILD_PID=
	echo "stopped here (the next build goes on from this point)" >> "$BUILD_PRELOG"
	return 0
}

# build_sync_dir(): make $2 hold the files of $1 with the same content;
# files whose content is already the same keep their mtime, so that an
# incremental build of $2 redoes only what changed.
build_sync_dir()
{
	local src=$1; shift
	local dst=$1; shift
	local f

	mkdir -p "$dst" || return 1
	for f in "$src"/*; do
		[[ -f "$f" ]] || continue
		cmp -s "$f" "$dst/${f##*/}" || cp "$f" "$dst/${f##*/}" || return 1
	done
}

# build_warnings(): print the normalised warnings of build log $1 (of
# build dir $2): paths relative to the tree, no line/column numbers.
build_warnings()
{
	local log=$1; shift
	local out=$1; shift
	grep -E ': warning: |^WARNING: ' "$log" |
		sed -e "s#$WT/##g" -e "s#$out/##g" \
		    -e 's#^\([^: ]*\):[0-9]*:[0-9]*: warning:#\1: warning:#' |
		sort -u
}

# build_recompiled(): print the stems of the objects a build log compiled.
build_recompiled()
{
	local log=$1; shift
	sed -n 's#^  CC \(\[M\] \)\{0,1\} *\([^ ]*\)\.o$#\2#p' "$log" | sort -u
}

# build_identity(): prove that the image in $1 is the kernel this build
# (log $2) of target array $3 linked, and write what the guest must
# report (identity.tsv: uname -r, uname -v, each module's srcversion).
# Prints why not and fails when the version string or the banner inside
# the compressed image is not this build's.
build_identity()
{
	local art=$1; shift
	local log=$1; shift
	local -n __bid_t=$1; shift
	local uts banner ko name src img

	img=$art/${__bid_t[image]##*/}
	uts=$(sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "${__bid_t[out]}/include/generated/utsversion.h" 2>/dev/null)
	if [[ "$uts" != "#$BUILD_IDENT "* ]]; then
		echo "expected: a kernel version starting #$BUILD_IDENT (KBUILD_BUILD_VERSION)"
		echo "actual: '${uts:-none}' in ${__bid_t[out]}/include/generated/utsversion.h"
		return 1
	fi
	# The banner of the vmlinux inside the image, decompressed the way
	# the kernel's own scripts do it; an uncompressed image is read as
	# it is (tools/arch.tsv says which).
	if [[ "${__bid_t[identity]}" == raw ]]; then
		banner=$(strings -n 16 "$img" | grep '^Linux version ')
	else
		banner=$("$WT/scripts/extract-vmlinux" "$img" 2>> "$log" |
			strings -n 16 | grep '^Linux version ')
	fi
	if ! grep -q -F -- " $uts" <<< "$banner"; then
		echo "expected: the kernel inside $img says $uts"
		echo "actual: ${banner:-no Linux version banner found}"
		echo "next: a stale object reached the image; rerun with FORCE=1 and report it"
		return 1
	fi
	{
		printf 'uname-r\t%s\n' "$(cat "$art/kernel.release")"
		printf 'uname-v\t%s\n' "$uts"
		while IFS= read -r ko; do
			name=$(modinfo -F name "$ko") || continue
			src=$(modinfo -F srcversion "$ko") || continue
			[[ -n "$name" && -n "$src" ]] && printf 'srcversion\t%s\t%s\n' "$name" "$src"
		done < <(find "$art/staging" -name '*.ko' | LC_ALL=C sort)
	} > "$art/identity.tsv"
	echo "identity: $uts, $(grep -c '^srcversion' "$art/identity.tsv") module(s)" >> "$log"
}

# build_cell_key(): variable $1 = the key of a build cell: what its
# artifact is made of (build_key, $2: the tree, config, toolchain and
# guest modules; the artifact dir is named by it) and what its verdict is
# judged against: the warnings file $3 of the same target's step before
# (a missing file: none), or "-" when no warning is judged
# (tools/bisect-run). The same tree after another step (a patch squashed
# into the one before it, a reordered series) has other warnings to be
# new against: another cell, on the same artifact.
build_cell_key()
{
	local -n __bck_ref=$1; shift
	local art_key=$1; shift
	local prev=$1; shift
	local text=-

	[[ "$prev" == - ]] || text_of text "$prev" || text=
	hash_to __bck_ref "$art_key" "warnings against" "$text"
}

# build_mark(): mark artifact dir $1 built whole, saying whether the
# sandbox watched the build (SANDBOX).
build_mark()
{
	local on=1

	[[ "$SANDBOX" == 0 ]] && on=0
	echo "sandbox $on" > "$1/built"
}

# build_marked(): whether artifact dir $1 was built whole in a way this
# run may take as it is: in the sandbox, or, for a run without it
# (SANDBOX=0), without it too. One built without the sandbox, or marked
# before the mark said so, is built again by a run in it: nothing
# watched what the tree's Makefiles did.
build_marked()
{
	local mark=

	[[ -r "$1/built" ]] && IFS= read -r mark < "$1/built"
	[[ "$mark" == "sandbox 1" || ( "$SANDBOX" == 0 && "$mark" == "sandbox 0" ) ]]
}

# build_valid(): a cached "ok" build of target $1 (record $2) is of use
# only while its artifacts are there; a cached failure has none by nature
# and stays a failure.
# shellcheck disable=SC2317  # called through cell_run
build_valid()
{
	local art img
	local -A r
	target_image img "$1"
	rec_read r "$2"
	[[ "${r[status]}" == ok ]] || return 0
	art=${r[out art]:-}
	[[ -f "$art/${img##*/}" && -f "$art/identity.tsv" && -f "$art/Module.symvers" ]]
}

# stage_build(): build the worktree's HEAD for target TARGET into its
# build dir and its artifacts into ART; PREV_WARN holds the warnings of
# the same target's previous step, a new one fails the cell ("-": none is
# judged; build_cell_key keys the cell by it). ART/built marks an
# artifact a build made whole (built, installed, proven to be the kernel
# built, nothing stopped by the sandbox), whatever its warnings: a cell
# that judges none (tools/bisect-run) takes it as it is, where
# bisect-check's cell of the same tree, judged against its step before,
# has another key.
# TOUCH_AT: the mtime the changed sources get (build_touch_changed).
# Args: REC LOG DETAIL TARGET ART PREV_WARN [TOUCH_AT]
stage_build()
{
	local rec=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local t=$1; shift
	local art=$1; shift
	local prev_warn=$1; shift
	local touch_at=${1:-}
	local head new kver merge_log tmp gm gmsrc stopped rules rc out img prev kconfig fresh=0
	local -A tg

	target_get tg "$t"
	out=${tg[out]}
	img=${tg[image]}
	head=$(git_k rev-parse "HEAD^{tree}")
	build_ident BUILD_IDENT "$t" "$head"
	if [[ "$prev_warn" == - ]] && build_marked "$art" && [[ -f "$art/${img##*/}" &&
	      -f "$art/identity.tsv" && -f "$art/Module.symvers" ]]; then
		echo "$art: built whole by an earlier build of this tree; no warning is judged here" >> "$log"
		result "$rec" ok "$(< "$art/kernel.release") #$BUILD_IDENT, built earlier"
		result_out "$rec" art "$art"
		return 0
	fi
	mkdir -p "$out" "$art"
	touch "$out"
	rm -f "$art/identity.tsv" "$art/built"
	build_dist_begin "$out"
	BUILD_CCACHE_OFF=
	[[ -f "$out/.bisect-trees" && -f "$out/.config" ]] || BUILD_CCACHE_OFF=1 fresh=1
	((fresh)) && echo "$out: a fresh build dir: a cold build, without ccache" >> "$log"
	if ! build_touch_changed kconfig "$log" "$out" "$touch_at"; then
		# The dir's objects could pass for the new sources': no build.
		result "$rec" FAIL "cannot give the changed sources a new mtime (see the log)"
		result_nocache "$rec"
		echo "next: see $log; the build dir $out can be removed safely" > "$detail"
		return "$EXIT_FAIL"
	fi
	# Until the build succeeds, the dir holds a mix of both trees.
	{ cat "$out/.bisect-trees" 2>/dev/null; echo "$head"; } | sort -u > "$out/.bisect-trees.new"
	mv "$out/.bisect-trees.new" "$out/.bisect-trees"

	merge_log=${log%-build.log}-kconfig.log
	if ! build_config "$merge_log" tg; then
		result "$rec" FAIL "config fragment does not apply"
		grep -A2 'Value requested' "$merge_log" > "$detail"
		echo "next: fix ${tg[fragments]//$'\n'/ } (see $merge_log)" >> "$detail"
		return "$EXIT_FAIL"
	fi
	# What a prebuild of this dir (build_prebuild) compiled belongs to
	# this build's log: its warnings count.
	if [[ -n "${BUILD_PRELOG:-}" && "${BUILD_PRE_OUT:-}" == "$out" && -f "$BUILD_PRELOG" ]]; then
		cat "$BUILD_PRELOG" >> "$log"
		BUILD_PRELOG=
	fi
	# A fresh .config is complete (merge_config.sh); a kept one needs
	# olddefconfig only when Kconfig files changed under it.
	if ((kconfig)) && ! run_logged "$log" kmake tg olddefconfig; then
		result "$rec" FAIL "olddefconfig failed"
		tail -n 5 "$log" > "$detail"
		return "$EXIT_FAIL"
	fi
	# An interrupted run stops it with the rest (lib.sh, defer).
	watch_start BUILD_WATCH_PID build_watch "$log" "$out" "$t"
	run_logged "$log" kmake tg "${img##*/}" modules
	rc=$?
	job_stop BUILD_WATCH_PID
	if ((rc != 0)); then
		result "$rec" FAIL "build failed"
		{
			echo "first errors:"
			grep -E ': (fatal )?error: |^make.*Error|undefined reference|ERROR: ' "$log" |
				head -n 8 | sed -e "s#$WT/##g" -e 's/^/  /'
			echo "next: fix the commit; rerun with V=1 to see the whole build"
		} > "$detail"
		build_dist_end "$detail" "$log" "$out"
		return "$EXIT_FAIL"
	fi
	echo "$head" > "$out/.bisect-trees"
	build_steps_keep "$log" "$fresh" "$out" "$t"

	# Warnings: the previous step's, minus those of files rebuilt now,
	# plus the ones this build printed. New ones fail the cell.
	prev=$prev_warn
	[[ "$prev" == - ]] && prev=/dev/null
	tmp=$art/warnings.now
	build_warnings "$log" "$out" > "$tmp"
	build_recompiled "$log" > "$art/recompiled"
	awk -F': warning: ' 'NR == FNR { redo[$0] = 1; next }
		{ f = $1; sub(/\.[ch]$/, "", f); if (!(f in redo)) print }' \
		"$art/recompiled" "$prev" 2>/dev/null |
		cat - "$tmp" | sort -u > "$art/warnings"
	new=$(comm -13 <(sort -u "$prev" 2>/dev/null) "$tmp")
	rm -f "$tmp"

	kver=$(cat "$out/include/config/kernel.release")
	rm -rf "$art/staging"
	if ! run_logged "$log" kmake tg INSTALL_MOD_PATH="$art/staging" modules_install; then
		result "$rec" FAIL "modules_install failed"
		tail -n 5 "$log" > "$detail"
		return "$EXIT_FAIL"
	fi
	cp "$out/$img" "$art/${img##*/}"
	# For naming the place of a hang (boot.sh, boot_hang).
	cp "$out/System.map" "$art/System.map"
	# The exports, for the abi stage (tools/stages/abi).
	cp "$out/Module.symvers" "$art/Module.symvers"
	echo "$kver" > "$art/kernel.release"

	# The guest's test modules (series.yaml guest.modules), built
	# against this step (M=) in a dir of the build dir, so that kbuild
	# rebuilds them only when their sources or the headers they use
	# changed. Missing exports must still give a module, so the guest
	# can show the refusal.
	series_get gmsrc guest-modules
	if [[ "$gmsrc" != - ]]; then
		gm=$out/.bisect-guestmod
		build_sync_dir "$gmsrc" "$gm" || {
			result "$rec" FAIL "cannot copy the guest test modules to $gm"
			echo "next: check space and permissions of WORKDIR=$WORKDIR" > "$detail"
			return "$EXIT_FAIL"
		}
		if ! run_logged "$log" kmake tg M="$gm" KBUILD_MODPOST_WARN=1 modules ||
		   ! run_logged "$log" kmake tg M="$gm" INSTALL_MOD_PATH="$art/staging" \
			INSTALL_MOD_DIR=extra modules_install; then
			result "$rec" FAIL "guest test modules do not build"
			grep -E 'error' "$log" | tail -n 5 > "$detail"
			return "$EXIT_FAIL"
		fi
	fi

	if ! build_identity "$art" "$log" tg > "$detail"; then
		result "$rec" FAIL "the image is not the kernel built"
		return "$EXIT_FAIL"
	fi
	build_dist_end "$detail" "$log" "$out"

	if stopped=$(sandbox_stopped "$log"); then
		sandbox_summary rules "$stopped"
		result "$rec" FAIL "the sandbox stopped what the tree's build tried: $rules"
		{
			echo "expected: a build that stays in its build dir (tools/sandbox.sh)"
			echo "actual:"
			printf '  %s\n' "${stopped//$'\n'/$'\n'  }"
			echo "next: the commit's Makefiles or scripts do the above: drop it, or find who wrote it"
		} > "$detail"
		return "$EXIT_FAIL"
	fi
	build_mark "$art"
	if [[ -n "$new" && "$prev_warn" != - ]]; then
		result "$rec" FAIL "$(wc -l <<< "$new") new warning(s)"
		{
			echo "expected: no warning the previous step did not have"
			echo "actual:"
			printf '  %s\n' "${new//$'\n'/$'\n'  }"
			echo "next: fix the warning in this commit"
		} > "$detail"
		return "$EXIT_FAIL"
	fi
	result "$rec" ok "$kver #$BUILD_IDENT${BUILD_DIST_NOTE:+, $BUILD_DIST_NOTE}"
	result_out "$rec" art "$art"
	return 0
}
