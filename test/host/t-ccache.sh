#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-ccache.sh - the ccache settings of the kernel builds never serve an
# object whose inputs the cache key does not cover. The case that once
# booted an earlier step's kernel: an assembler file that only `.incbin`s
# a binary (x86's piggy.S and vmlinux.bin.gz) is byte-identical while the
# binary changed. ccache's depend mode hashes only what -MD lists and
# serves the old object (checked here, as the cause); the environment
# kmake gives ccache (tools/stages/build.sh) must compile it anew.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
. "$T_TOP/tools/lib.sh"
# shellcheck source=tools/stages/build.sh
. "$T_TOP/tools/stages/build.sh"

t_plan 7

if ! command -v ccache > /dev/null; then
	for i in 1 2 3 4 5; do
		t_skip "ccache test $i" "ccache is not installed (make deps)"
	done
	t_done
fi

cd "$T_TMP" || exit 1
cat > piggy.S <<'EOF'
	.section .rodata
	.globl blob
blob:
	.incbin "blob.bin"
EOF

# build_twice(): compile piggy.S with blob AAAA, then BBBB, through
# ccache with the environment given; print the blob in the second object.
build_twice()
{
	rm -rf cache && mkdir cache
	printf AAAA > blob.bin
	env "$@" CCACHE_DIR="$T_TMP/cache" ccache gcc -Wp,-MMD,piggy.d -c piggy.S -o one.o || return 1
	printf BBBB > blob.bin
	env "$@" CCACHE_DIR="$T_TMP/cache" ccache gcc -Wp,-MMD,piggy.d -c piggy.S -o two.o || return 1
	objcopy -O binary -j .rodata two.o /dev/stdout
}

t_eq "the cause: depend mode ($(ccache --version | head -n 1)) serves the old .incbin" \
	AAAA "$(build_twice CCACHE_DEPEND=1)"

# What kmake runs: the words between "env" and "make" are its settings.
WORKDIR=$T_TMP WT=$T_TMP JOBS=1
# A target's fields (target.sh target_get): gcc for this host.
declare -A tg=([out]=$T_TMP/out [karch]=x86 [cross]='' [cc]=gcc [make]='' [fragments]='')
kmake_argv argv tg
settings=()
for w in "${argv[@]:1}"; do
	[[ "$w" == make ]] && break
	settings+=("$w")
done
t_grep "kmake turns depend mode off" '^CCACHE_NODEPEND=1$' <(printf '%s\n' "${settings[@]}")
# Even when the user's environment asks for depend mode and sloppiness.
export CCACHE_DEPEND=1 CCACHE_SLOPPINESS=incbin,time_macros
t_eq "kmake's ccache compiles a changed .incbin anew" BBBB "$(build_twice "${settings[@]}")"
CCACHE_DIR=$T_TMP/cache ccache --print-stats > stats.txt 2>&1
t_grep "ccache refused to cache it (unsupported code directive)" \
	'^unsupported_code_directive[[:space:]]+[1-9]' stats.txt
unset CCACHE_DEPEND CCACHE_SLOPPINESS

# The hazard of an old cache: direct mode hits what depend mode stored.
t_eq "the cause, too: a direct lookup hits a depend-mode entry" AAAA \
	"$(rm -rf cache && mkdir cache && printf AAAA > blob.bin &&
	   CCACHE_DEPEND=1 CCACHE_DIR="$T_TMP/cache" ccache gcc -Wp,-MMD,piggy.d -c piggy.S -o one.o &&
	   printf BBBB > blob.bin &&
	   CCACHE_NODEPEND=1 CCACHE_DIR="$T_TMP/cache" ccache gcc -Wp,-MMD,piggy.d -c piggy.S -o two.o &&
	   objcopy -O binary -j .rodata two.o /dev/stdout)"
t_grep "so kmake's cache is not the depend-mode one of earlier versions" \
	"^CCACHE_DIR=$T_TMP/ccache-nodepend\$" <(printf '%s\n' "${settings[@]}")

# A C file is still served from the cache: ccache is on, not bypassed.
echo 'int f(void) { return 1; }' > c.c
rm -rf cache && mkdir cache
env "${settings[@]}" CCACHE_DIR="$T_TMP/cache" ccache gcc -c c.c -o c1.o
env "${settings[@]}" CCACHE_DIR="$T_TMP/cache" ccache gcc -c c.c -o c2.o
CCACHE_DIR=$T_TMP/cache ccache --print-stats > stats.txt 2>&1
t_grep "an unchanged C file hits" '^direct_cache_hit[[:space:]]+1$' stats.txt

t_done
