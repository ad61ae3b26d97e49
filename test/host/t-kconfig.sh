#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-kconfig.sh - a build dir is named by the options its config
# fragments set, as merge_config.sh merges them (kconfig_options,
# tools/target.sh), not by the fragments' text: the last line of an
# option wins, comments and blank lines and repeats are no part of it,
# and any option set otherwise, added or taken away names another dir.
# Then, on the real tables and series.yaml: a series taken in without
# claims (--range, --mbox: the series config alone) gets the build dir,
# the build key and the kernel identity of series.yaml, whose guest
# options the series config sets too; a series with an option more
# does not.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

D=$T_TMP/kconfig
mkdir -p "$D/wd" "$D/patches"

# opts(): kconfig_options of fragments $@, or "fails".
opts()
{
	TOP=$T_TOP bash -c '
		. "$TOP/tools/lib.sh"
		. "$TOP/tools/target.sh"
		kconfig_options o "$@" || { echo fails; exit; }
		printf "%s" "$o"' opts "$@"
}

t_plan 15

printf '%s\n' '# a comment' 'CONFIG_A=y' '' '# CONFIG_B is not set' 'CONFIG_C="x y"' > "$D/a"
printf '%s\n' 'CONFIG_A=y' '# CONFIG_B is not set' 'CONFIG_C="x y"' > "$D/a-bare"
printf '%s\n' '# again' 'CONFIG_C="x y"' 'CONFIG_A=y' > "$D/repeat"
printf '%s\n' 'CONFIG_A=n' > "$D/a-off"
printf '%s\n' 'CONFIG_D=m' > "$D/d"
# No newline at the end: merge_config.sh still takes the last line.
printf 'CONFIG_D=y' > "$D/d-nonl"
printf '%s\n' '# CONFIG_A is not set' > "$D/a-unset"

t_eq "options, each once, in the order they first appear" \
	"$(printf '%s\n' 'CONFIG_A=y' '# CONFIG_B is not set' 'CONFIG_C="x y"')" "$(opts "$D/a")"
t_eq "comments and blank lines are no part of it" "$(opts "$D/a-bare")" "$(opts "$D/a")"
t_eq "a fragment that repeats options set before changes nothing" \
	"$(opts "$D/a")" "$(opts "$D/a" "$D/repeat")"
t_eq "the last line of an option wins" \
	"$(printf '%s\n' 'CONFIG_A=n' '# CONFIG_B is not set' 'CONFIG_C="x y"')" \
	"$(opts "$D/a" "$D/a-off")"
t_eq "an option added is said" "$(opts "$D/a")"$'\n'CONFIG_D=m "$(opts "$D/a" "$D/d")"
t_eq "a last line without a newline counts" "$(opts "$D/a")"$'\n'CONFIG_D=y "$(opts "$D/a" "$D/d-nonl")"
t_eq "a fragment that cannot be read fails" fails "$(opts "$D/a" "$D/none")"
# CRLF line ends (a fragment written on another system): Kconfig takes
# "# CONFIG_A is not set" with its CR, so A is off; a key that skipped
# the line would name the build dir of A=y, whose kernel has A.
printf '# CONFIG_A is not set\r\nCONFIG_D=m\r\n' > "$D/crlf"
t_eq "CRLF: an option unset with a CR is unset; a value's CR is dropped" \
	"$(opts "$D/a" "$D/a-unset" "$D/d")" "$(opts "$D/a" "$D/crlf")"

# ids(): build dir, build key id and the identity of a kernel of one tree
# for target $2 of series file $1, as bisect-check makes them (the code
# of checkout IDS_TOP, default this one).
ids()
{
	TOP=${IDS_TOP:-$T_TOP} WORKDIR=$D/wd WT=$D/worktree bash -c '
		. "$TOP/tools/lib.sh"
		for f in cell import worktree stages/build stages/boot series; do
			. "$TOP/tools/$f.sh"
		done
		load_series "$1"
		build_ids
		declare -A tg
		target_get tg "$2"
		build_ident id "$2" 0123456789abcdef0123456789abcdef01234567
		echo "${tg[out]} ${tg[cfgid]} $id"' ids "$@"
}

# A series as --range writes it (tools/intake.sh intake_write): the
# series config, no claims, the default target; and one with an option
# of its own besides.
cp "$T_TOP/patches/v2/0001-"*.patch "$D/patches/0001.patch"
printf '%s\n' 'name: taken-in' 'version: 1' "config: $T_TOP/tools/kconfig/bisect.config" \
	'base:' '  package: linux-source-6.1' 'boot:' '  timeout: 120' 'patches:' \
	'  - file: patches/0001.patch' > "$D/taken-in.yaml"
{ cat "$T_TOP/tools/kconfig/bisect.config"; echo 'CONFIG_PRINTK_CALLER=y'; } > "$D/more.config"
sed "s|^config: .*|config: $D/more.config|" "$D/taken-in.yaml" > "$D/more.yaml"
mine=$(ids "$T_TOP/series.yaml" x86_64-gcc)
taken=$(ids "$D/taken-in.yaml" x86_64-gcc)
more=$(ids "$D/more.yaml" x86_64-gcc)
t_rc "series.yaml's ids are made (build dir, key, identity)" 0 \
	test "$(wc -w <<< "$mine")" -eq 3
t_eq "a series taken in: series.yaml's build dir, key and kernel identity" "$mine" "$taken"
t_rc "an option more: another build dir" 0 test "${more%% *}" != "${mine%% *}"
t_rc "an option more: another identity" 0 test "${more##* }" != "${mine##* }"
t_eq "series.yaml's guest options are all set by the series config (else a series taken in builds cold)" \
	"$(opts "$T_TOP/tools/kconfig/bisect.config")" \
	"$(opts "$T_TOP/tools/kconfig/bisect.config" <("$T_BIN/series" "$T_TOP/series.yaml" |
		sed -n 's/^kconfig\t//p'))"

# other(): a copy of this checkout's tools in $D/top, sed script $2
# applied to its file $1: another checkout of the code that builds.
other()
{
	rm -rf "$D/top"
	mkdir -p "$D/top"
	cp -r "$T_TOP/tools" "$D/top/" && sed -i "$2" "$D/top/$1" &&
		! cmp -s "$T_TOP/$1" "$D/top/$1"
}

# shellcheck disable=SC2016  # a sed script: the $ is the code's own
other tools/target.sh 's/__bi_ref=\${h:0:12}/__bi_ref=\${h:0:10}/'
t_eq "the identity's code changed: another build key (an image carries it)" different \
	"$(other=$(IDS_TOP=$D/top ids "$T_TOP/series.yaml" x86_64-gcc)
	   [[ "$(cut -d' ' -f2 <<< "$other")" != "$(cut -d' ' -f2 <<< "$mine")" &&
	      "$(cut -d' ' -f3 <<< "$other")" != "$(cut -d' ' -f3 <<< "$mine")" ]] &&
		echo different || echo "the same: $other")"
# A function of the build stage no list of functions named (the key is
# the build's files, whole): another build key, the same kernel.
other tools/stages/build.sh '/^build_steps_of()$/,/^}$/s/^{$/{\n\t:/'
t_eq "any function of the build's code changed: another build key, the same identity" \
	"key changed, identity kept" \
	"$(other=$(IDS_TOP=$D/top ids "$T_TOP/series.yaml" x86_64-gcc)
	   [[ "$(cut -d' ' -f2 <<< "$other")" != "$(cut -d' ' -f2 <<< "$mine")" ]] &&
		echo -n "key changed" || echo -n "key kept"
	   [[ "$(cut -d' ' -f3 <<< "$other")" == "$(cut -d' ' -f3 <<< "$mine")" ]] &&
		echo ", identity kept" || echo ", identity changed: $other")"
t_done
