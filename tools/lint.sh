#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - lint this repository: shellcheck -x on every shell script and
# the kernel's checkpatch.pl --no-tree -f --strict on every C file. Prints
# KTAP, one result per file; exits 1 when any file has findings.
#
# checkpatch.pl comes from the imported Debian tree (or its tarball) of
# one kernel, the series' base: whichever other linux-source is installed
# or imported, the same rules judge this code (6.12's checkpatch.pl warns
# of what 6.1's accepts).

PROG=lint
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

# shell_files(): every tracked shell script (by extension or shebang).
shell_files()
{
	git -C "$TOP" ls-files -z | xargs -0 -r grep -lIE '^#!.*\b(ba)?sh\b' -- 2>/dev/null
	git -C "$TOP" ls-files '*.sh'
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

main()
{
	local f n=0 bad=0 out files c_files

	command -v shellcheck >/dev/null || die "shellcheck not found: run 'make deps'"
	fetch_checkpatch
	mapfile -t files < <(shell_files | sort -u)
	mapfile -t c_files < <(git -C "$TOP" ls-files '*.c' '*.h')
	echo "KTAP version 1"
	echo "1..$((${#files[@]} + ${#c_files[@]} + 1))"
	for f in "${files[@]}"; do
		n=$((n + 1))
		if out=$(cd "$TOP" && shellcheck -x "$f" 2>&1); then
			echo "ok $n shellcheck $f"
		else
			printf '# %s\n' "${out//$'\n'/$'\n'# }" | head -n 20
			echo "not ok $n shellcheck $f"
			bad=$((bad + 1))
		fi
	done
	for f in "${c_files[@]}"; do
		n=$((n + 1))
		out=$(cd "$TOP" && PATH=/usr/bin:$PATH perl "$CPDIR/scripts/checkpatch.pl" \
			--no-tree -f --strict --show-types --color=never -q "$f" 2>&1)
		if [[ -z "$out" ]]; then
			echo "ok $n checkpatch $f"
		else
			printf '# %s\n' "${out//$'\n'/$'\n'# }" | head -n 20
			echo "not ok $n checkpatch $f"
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
main "$@"; exit $?
