#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh - stage 4: build one step in the shared, incremental O= build
# dir, install its modules and the guest test modules into an artifact
# dir, and fail on build errors and on warnings the previous step did not
# have.
#
# Stage functions report through CELL_* variables the caller reads.
# shellcheck disable=SC2034
#
# Sourced by tools/bisect-check; expects lib.sh and apply.sh.

# Reproducible build identity: the same tree gives the same image.
readonly BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2000"

# kmake(): make in the worktree with the fixed build environment; ccache
# keeps its cache in WORKDIR.
kmake()
{
	CCACHE_DIR=${CCACHE_DIR:-$WORKDIR/ccache} \
	make -C "$WT" O="$OUT" -j"$JOBS" \
		CC="ccache gcc" \
		LOCALVERSION= \
		KBUILD_BUILD_TIMESTAMP="$BUILD_TIMESTAMP" \
		KBUILD_BUILD_USER=bisect \
		KBUILD_BUILD_HOST=bisect-check \
		"$@"
}

# build_touch_changed(): give a fresh mtime to every file that differs
# between the tree(s) the build dir last saw and the worktree's HEAD.
build_touch_changed()
{
	local log=$1; shift
	local state=$OUT/.bisect-trees
	local head tree files

	head=$(git_k rev-parse "HEAD^{tree}")
	[[ -f "$state" ]] || return 0
	while read -r tree; do
		[[ "$tree" == "$head" ]] && continue
		if ! git_k cat-file -e "$tree" 2>/dev/null; then
			# Unknown tree: the dir is of no use, start over.
			echo "build dir state $tree unknown: cleaning $OUT" >> "$log"
			find "$OUT" -mindepth 1 -maxdepth 1 ! -name .config -exec rm -rf {} +
			return 0
		fi
		mapfile -t files < <(git_k diff --name-only "$tree" "$head")
		((${#files[@]})) || continue
		echo "touching ${#files[@]} file(s) changed since tree $tree" >> "$log"
		(cd "$WT" && touch -c -- "${files[@]}")
	done < "$state"
}

# build_warnings(): print the normalised warnings of a build log: paths
# relative to the tree, no line/column numbers.
build_warnings()
{
	local log=$1; shift
	grep -E ': warning: |^WARNING: ' "$log" |
		sed -e "s#$WT/##g" -e "s#$OUT/##g" \
		    -e 's#^\([^: ]*\):[0-9]*:[0-9]*: warning:#\1: warning:#' |
		sort -u
}

# build_recompiled(): print the stems of the objects a build log compiled.
build_recompiled()
{
	local log=$1; shift
	sed -n 's#^  CC \(\[M\] \)\{0,1\} *\([^ ]*\)\.o$#\2#p' "$log" | sort -u
}

# stage_build(): build the worktree's HEAD into $OUT and its artifacts
# into $1; $2 holds the previous step's warnings. Sets CELL_STATUS and
# CELL_SUMMARY.
stage_build()
{
	local art=$1; shift
	local prev_warn=$1; shift
	local log=$1; shift
	local detail=$1; shift
	local head new kver merge_log tmp

	head=$(git_k rev-parse "HEAD^{tree}")
	mkdir -p "$OUT" "$art"
	build_touch_changed "$log"
	# Until the build succeeds, the dir holds a mix of both trees.
	{ cat "$OUT/.bisect-trees" 2>/dev/null; echo "$head"; } | sort -u > "$OUT/.bisect-trees.new"
	mv "$OUT/.bisect-trees.new" "$OUT/.bisect-trees"

	if [[ ! -f "$OUT/.config" ]]; then
		merge_log=$RUNDIR/logs/$STEP_IDX-kconfig.log
		(cd "$WT" && run_logged "$merge_log" scripts/kconfig/merge_config.sh \
			-n -O "$OUT" "$CONFIG_FRAGMENT")
		if grep -q 'not in final .config' "$merge_log" || [[ ! -f "$OUT/.config" ]]; then
			CELL_STATUS=FAIL
			CELL_SUMMARY="config fragment does not apply"
			grep -A2 'Value requested' "$merge_log" > "$detail"
			echo "next: fix $CONFIG_FRAGMENT (see $merge_log)" >> "$detail"
			rm -f "$OUT/.config"
			return "$EXIT_FAIL"
		fi
	fi
	if ! run_logged "$log" kmake olddefconfig ||
	   ! run_logged "$log" kmake bzImage modules; then
		CELL_STATUS=FAIL
		CELL_SUMMARY="build failed"
		{
			echo "first errors:"
			grep -E ': error: |^make.*Error|undefined reference|ERROR: ' "$log" |
				head -n 8 | sed -e "s#$WT/##g" -e 's/^/  /'
			echo "next: fix the commit; rerun with V=1 to see the whole build"
		} > "$detail"
		return "$EXIT_FAIL"
	fi
	echo "$head" > "$OUT/.bisect-trees"

	# Warnings: the previous step's, minus those of files rebuilt now,
	# plus the ones this build printed. New ones fail the cell.
	tmp=$art/warnings.now
	build_warnings "$log" > "$tmp"
	build_recompiled "$log" > "$art/recompiled"
	awk -F': warning: ' 'NR == FNR { redo[$0] = 1; next }
		{ f = $1; sub(/\.[ch]$/, "", f); if (!(f in redo)) print }' \
		"$art/recompiled" "$prev_warn" 2>/dev/null |
		cat - "$tmp" | sort -u > "$art/warnings"
	new=$(comm -13 <(sort -u "$prev_warn" 2>/dev/null) "$tmp")
	rm -f "$tmp"

	kver=$(cat "$OUT/include/config/kernel.release")
	rm -rf "$art/staging"
	if ! run_logged "$log" kmake INSTALL_MOD_PATH="$art/staging" modules_install; then
		CELL_STATUS=FAIL
		CELL_SUMMARY="modules_install failed"
		tail -n 5 "$log" > "$detail"
		return "$EXIT_FAIL"
	fi
	cp "$OUT/arch/x86/boot/bzImage" "$art/bzImage"
	echo "$kver" > "$art/kernel.release"

	# The guest's test modules, built against this step (M=), outside
	# the repository. Missing exports must still give a module, so the
	# guest can show the refusal.
	rm -rf "$art/guestmod"
	cp -r "$TOP/test/guest/modules" "$art/guestmod"
	if ! run_logged "$log" kmake M="$art/guestmod" KBUILD_MODPOST_WARN=1 modules ||
	   ! run_logged "$log" kmake M="$art/guestmod" INSTALL_MOD_PATH="$art/staging" \
		INSTALL_MOD_DIR=extra modules_install; then
		CELL_STATUS=FAIL
		CELL_SUMMARY="guest test modules do not build"
		grep -E 'error' "$log" | tail -n 5 > "$detail"
		return "$EXIT_FAIL"
	fi

	if [[ -n "$new" && "${BUILD_IGNORE_WARNINGS:-0}" != 1 ]]; then
		CELL_STATUS=FAIL
		CELL_SUMMARY="$(wc -l <<< "$new") new warning(s)"
		{
			echo "expected: no warning the previous step did not have"
			echo "actual:"
			printf '  %s\n' "${new//$'\n'/$'\n'  }"
			echo "next: fix the warning in this commit"
		} > "$detail"
		return "$EXIT_FAIL"
	fi
	CELL_STATUS=ok
	CELL_SUMMARY="$kver"
	return 0
}
