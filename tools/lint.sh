#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - lint this repository: shellcheck -x on every shell script and
# the kernel's checkpatch.pl --no-tree -f --strict on every C file, one
# result per file; then that the stage programs source only what their
# key covers, and that no new upper-case variable goes from one shell
# file to another (globals, issue 23). Prints KTAP; exits 1 when anything
# has findings.
#
# checkpatch.pl comes from the imported Debian tree (or its tarball) of
# one kernel, the series' base: whichever other linux-source is installed
# or imported, the same rules judge this code (6.12's checkpatch.pl warns
# of what 6.1's accepts).

# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LINT_KERNEL=linux-source-6.1
CPDIR=$WORKDIR/lint/$LINT_KERNEL

# fetch_checkpatch(): put checkpatch.pl and its data files in $CPDIR.
fetch_checkpatch()
{
	local f tarball ref files=(scripts/checkpatch.pl scripts/spelling.txt
		scripts/const_structs.checkpatch)

	[[ -x "$CPDIR/scripts/checkpatch.pl" ]] && return 0
	mkdir -p "$CPDIR/scripts" || die "cannot create $CPDIR"
	ref=$(git --git-dir="$WORKDIR/kernel.git" for-each-ref --count=1 \
		--format='%(refname)' "refs/heads/import/$LINT_KERNEL/" 2>/dev/null)
	if [[ -n "$ref" ]]; then
		for f in "${files[@]}"; do
			git --git-dir="$WORKDIR/kernel.git" show "$ref:$f" > "$CPDIR/$f" ||
				die "cannot read $f from $ref"
		done
	else
		tarball=/usr/src/$LINT_KERNEL.tar.xz
		[[ -r "$tarball" ]] || die "no kernel tree for checkpatch.pl: run 'make bisect-check' or install $LINT_KERNEL"
		tar -C "$CPDIR" --strip-components=1 -xf "$tarball" \
			--wildcards "${files[@]/#/*/}" || die "cannot unpack checkpatch.pl from $tarball"
	fi
	chmod +x "$CPDIR/scripts/checkpatch.pl"
}

# shell_files(): every tracked shell script of repository $1 (by
# extension or shebang), relative to it.
shell_files()
{
	local top=$1; shift

	(cd "$top" && git ls-files -z | xargs -0 -r grep -lIE '^#!.*\b(ba)?sh\b' -- 2>/dev/null)
	git -C "$top" ls-files '*.sh'
}

# globals_check(): the ratchet of issue 23 on repository $1, with the
# program $2 (tools/bin/globals): the upper-case variables that one of
# its shell files sets and another reads, but the settings of
# tools/lib.sh's defaults block (its ': "${NAME:=...}"' lines, README
# "Settings"), against tools/globals.baseline, which only shrinks. Prints
# one line for each name not in the baseline and for each baseline name
# that is no such variable any more; 1 when there is any. Two test
# programs (test/*/t-*.sh) are two processes that source no one of each
# other: a name one sets and the other reads crosses nothing
# (globals_crosses). Also each call that gives a function's nameref
# argument the name of a local of that function (globals --shadows):
# the function would set its own local, never the caller's variable.
globals_check()
{
	local top=$1; shift
	local prog=$1; shift
	local baseline=tools/globals.baseline
	local name set read bad=0 out defaults files
	local -A listed=() found=() setting=()

	mapfile -t files < <(shell_files "$top" | sort -u)
	defaults=$(cd "$top" && "$prog" --defaults tools/lib.sh) || {
		echo "$prog --defaults tools/lib.sh failed"
		return 1
	}
	for name in $defaults; do
		setting[$name]=1
	done
	out=$(cd "$top" && "$prog" --shadows "${files[@]}") || {
		echo "$prog --shadows on the shell files failed"
		return 1
	}
	if [[ -n "$out" ]]; then
		printf '%s\n' "$out"
		bad=1
	fi
	out=$(cd "$top" && "$prog" "${files[@]}") || {
		echo "$prog on the shell files failed"
		return 1
	}
	if [[ -r "$top/$baseline" ]]; then
		while read -r name _; do
			[[ -z "$name" || "$name" == \#* ]] || listed[$name]=1
		done < "$top/$baseline"
	fi
	while IFS=$'\t' read -r name set read; do
		[[ -n "$name" && -z "${setting[$name]:-}" ]] || continue
		globals_crosses "$set" "$read" || continue
		found[$name]=1
		[[ -n "${listed[$name]:-}" ]] && continue
		echo "$name: set in ${set//,/ }; read in ${read//,/ }; a new global:" \
			"pass it to what reads it as an argument or an inputs-file field" \
			"($baseline only shrinks)"
		bad=1
	done <<< "$out"
	for name in $(printf '%s\n' "${!listed[@]}" | sort); do
		[[ -n "${found[$name]:-}" ]] && continue
		echo "$name: no longer set in one file and read in another:" \
			"remove it from $baseline (the list only shrinks)"
		bad=1
	done
	((bad == 0))
}

# globals_crosses(): whether a name set in files $1 and read in files $2
# (comma separated, as tools/bin/globals prints them) goes from one
# process's file to another file it shares a process with: some setter
# and some reader differ, and are not both test programs.
globals_crosses()
{
	local -a sets reads
	local s r

	IFS=, read -r -a sets <<< "$1"
	IFS=, read -r -a reads <<< "$2"
	for s in "${sets[@]}"; do
		for r in "${reads[@]}"; do
			[[ "$s" == "$r" ]] && continue
			[[ "$s" == test/*/t-*.sh && "$r" == test/*/t-*.sh ]] && continue
			return 0
		done
	done
	return 1
}

# program_sources(): for each stage program of tools/stages.tsv (runs
# beside-build), print "not ok"-worthy lines: a file it sources that is
# not part of its declared key (tools/cell.sh, cell_prog: lib.sh,
# stage-lib.sh, findings.sh). Prints "PROGRAM: FILE" for each.
program_sources()
{
	local name runs line src

	while IFS=$'\t' read -r name _ _ _ runs _; do
		[[ "$runs" == beside-build ]] || continue
		while IFS= read -r line; do
			[[ "$line" =~ ^[[:space:]]*(source|\.)[[:space:]]+(.*)$ ]] || continue
			# The file's name ends the line: "$TOP/tools/x.sh" or the like.
			src=${BASH_REMATCH[2]%\"}
			src=${src##*/}
			case $src in
			lib.sh | stage-lib.sh | findings.sh) ;;
			*) echo "tools/stages/$name: sources $src, which its cell's key does not cover" ;;
			esac
		done < "$TOP/tools/stages/$name"
	done < "$TOP/tools/stages.tsv"
}

# lint_item(): lint "KIND FILE" $1 (KIND shellcheck or checkpatch): exit
# 0 and nothing said when the file is clean.
# shellcheck disable=SC2317  # called through lanes_start
lint_item()
{
	local kind=${1%% *}
	local f=${1#* }

	cd "$TOP" || return 1
	case $kind in
	shellcheck) shellcheck -x "$f" ;;
	checkpatch) PATH=/usr/bin:$PATH perl "$CPDIR/scripts/checkpatch.pl" \
			--no-tree -f --strict --show-types --color=never -q "$f" ;;
	*) echo "no such lint: $kind"; return 1 ;;
	esac
}

main()
{
	local f n=0 bad=0 out files c_files items tmp i
	local -a lanes

	command -v shellcheck >/dev/null || die "shellcheck not found: run 'make deps'"
	[[ -x "$TOP/tools/bin/globals" ]] || die "tools/bin/globals not found: run 'make tools'"
	fetch_checkpatch
	mapfile -t files < <(shell_files "$TOP" | sort -u)
	mapfile -t c_files < <(git -C "$TOP" ls-files '*.c' '*.h')
	echo "KTAP version 1"
	echo "1..$((${#files[@]} + ${#c_files[@]} + 2))"
	items=()
	for f in "${files[@]}"; do
		items+=("shellcheck $f")
	done
	for f in "${c_files[@]}"; do
		items+=("checkpatch $f")
	done
	tmp=$(mktemp -d) || die "cannot make a temporary directory"
	# shellcheck disable=SC2064  # the directory of now
	trap "rm -rf '$tmp'" EXIT
	# JOBS at a time; the results said in order.
	lanes_start lanes "$tmp" "$JOBS" lint_item "${items[@]}"
	wait "${lanes[@]}"
	for ((i = 0; i < ${#items[@]}; i++)); do
		n=$((n + 1))
		out=$(cat "$tmp/$i" 2> /dev/null)
		if [[ "$(cat "$tmp/$i.rc" 2> /dev/null)" == 0 && -z "$out" ]]; then
			echo "ok $n ${items[i]}"
		else
			printf '# %s\n' "${out//$'\n'/$'\n'# }" | head -n 20
			echo "not ok $n ${items[i]}"
			bad=$((bad + 1))
		fi
	done
	n=$((n + 1))
	out=$(program_sources)
	if [[ -z "$out" ]]; then
		echo "ok $n stage programs source only what their key covers"
	else
		printf '# %s\n' "${out//$'\n'/$'\n'# }"
		echo "not ok $n stage programs source only what their key covers"
		bad=$((bad + 1))
	fi
	n=$((n + 1))
	if out=$(globals_check "$TOP" "$TOP/tools/bin/globals"); then
		echo "ok $n globals"
	else
		printf '# %s\n' "${out//$'\n'/$'\n'# }"
		echo "not ok $n globals"
		bad=$((bad + 1))
	fi
	echo "# Totals: pass:$((n - bad)) fail:$bad xfail:0 xpass:0 skip:0 error:0"
	((bad == 0))
}

# --checkpatch: only fetch checkpatch.pl, and say where it is (tests that
# run it on fixtures).
if [[ "${1:-}" == --checkpatch ]]; then
	fetch_checkpatch
	echo "$CPDIR/scripts"
	exit 0
fi
# --globals [REPO [PROGRAM]]: only the globals check, of REPO (this
# one) with PROGRAM (tools/bin/globals); its findings, exit 1 with any.
if [[ "${1:-}" == --globals ]]; then
	globals_check "${2:-$TOP}" "${3:-$TOP/tools/bin/globals}"
	exit $?
fi
main "$@"; exit $?
