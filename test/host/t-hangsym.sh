#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-hangsym.sh - tests of tools/bin/hangsym: the real QEMU 7.2 monitor
# transcripts of hung x86_64 and arm64 guests (panic, idle, user space;
# test/fixtures/hangsym/README) symbolised with their cut System.maps;
# made-up transcripts for the spinning-in preference and the frame
# rules; bad inputs and fuzzed ones; and fake monitors on a unix socket
# (python3): one that replays a fixture, and dead, silent, closing and
# flooding ones, each ended in bounded time.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FIX=$T_TOP/test/fixtures/hangsym
HANGSYM=$T_BIN/hangsym
TAB=$'\t'
SERVERS=()

# stop_servers(): end the fake monitors this test started.
stop_servers()
{
	local p

	for p in "${SERVERS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	SERVERS=()
}
trap 'stop_servers; rm -rf "$T_TMP"' EXIT

# parse(): desc, expected exit, arch, transcript, System.map.
parse()
{
	t_rc "$1" "$2" "$HANGSYM" --parse "$4" --arch "$3" --system-map "$5"
}

t_plan 111

# --- the real captures ---
while read -r arch case rc; do
	parse "$arch-$case: exit $rc" "$rc" "$arch" "$FIX/$arch-$case.raw" \
		"$FIX/$arch.System.map"
	cp "$T_OUT" "$T_TMP/$arch-$case.out"
done <<'CASES'
x86_64 panic 0
x86_64 idle 0
x86_64 user 1
arm64 panic 0
arm64 idle 0
arm64 user 1
CASES

t_eq "x86_64 panic: pc, frames, title" "$(cat <<EOF
pc${TAB}ffffffff811ddb30${TAB}delay_loop+0x20/0x30
frame${TAB}ffffffff811e407c${TAB}panic+0x23e/0x249
frame${TAB}ffffffff811e4e72${TAB}_printk+0x55/0x57
frame${TAB}ffffffff819a7944${TAB}prepare_namespace+0x131/0x160
frame${TAB}ffffffff811f2111${TAB}kernel_init+0x11/0x100
frame${TAB}ffffffff810010ff${TAB}ret_from_fork+0x1f/0x30
title${TAB}hang in panic (spinning in delay_loop)
EOF
)" "$(cat "$T_TMP/x86_64-panic.out")"
t_eq "x86_64 idle: pc, frames, title" "$(cat <<EOF
idle${TAB}1
pc${TAB}ffffffff81019a1e${TAB}amd_e400_idle+0x1e/0x50
frame${TAB}ffffffff811f721a${TAB}default_idle_call+0x1a/0x1d
frame${TAB}ffffffff8105ab46${TAB}do_idle+0x46/0x80
frame${TAB}ffffffff8105ace6${TAB}cpu_startup_entry+0x16/0x20
frame${TAB}ffffffff811f20f1${TAB}rest_init+0x81/0x90
frame${TAB}ffffffff819a6b3a${TAB}arch_call_rest_init+0x5/0x6
frame${TAB}ffffffff819a70d6${TAB}start_kernel+0x598/0x5a5
frame${TAB}ffffffff81000132${TAB}secondary_startup_64_no_verify+0xcd/0xdb
title${TAB}hang in do_idle (spinning in amd_e400_idle)
EOF
)" "$(cat "$T_TMP/x86_64-idle.out")"
t_eq "arm64 panic: the link register first, then the stack" "$(cat <<EOF
pc${TAB}ffffffc00824b2e4${TAB}__delay_cycles+0x4/0x20
frame${TAB}ffffffc00824b378${TAB}__delay+0x78/0xc0
frame${TAB}ffffffc00824b3e8${TAB}__const_udelay+0x28/0x30
frame${TAB}ffffffc008272c34${TAB}panic+0x2ec/0x2fc
frame${TAB}ffffffc00836149c${TAB}mount_block_root+0x1f4/0x204
title${TAB}hang in panic (spinning in __delay_cycles)
EOF
)" "$(cat "$T_TMP/arm64-panic.out")"
t_eq "arm64 idle: at most 8 frames" "$(cat <<EOF
idle${TAB}1
pc${TAB}ffffffc00827ac58${TAB}cpu_do_idle+0x8/0x10
frame${TAB}ffffffc00827ac70${TAB}arch_cpu_idle+0x10/0x20
frame${TAB}ffffffc00806008c${TAB}do_idle+0xcc/0x144
frame${TAB}ffffffc0080602a0${TAB}cpu_startup_entry+0x30/0x40
frame${TAB}ffffffc00827b05c${TAB}rest_init+0xbc/0xc0
frame${TAB}ffffffc00827b054${TAB}rest_init+0xb4/0xc0
frame${TAB}ffffffc0083711b8${TAB}nsfs_init+0x14/0x48
frame${TAB}ffffffc008360dac${TAB}start_kernel+0x5b0/0x5d0
frame${TAB}ffffffc008364a2c${TAB}__primary_switched+0xb4/0xbc
title${TAB}hang in do_idle (spinning in cpu_do_idle)
EOF
)" "$(cat "$T_TMP/arm64-idle.out")"
t_eq "x86_64 user space: outside the kernel" "$(cat <<EOF
pc${TAB}00000000004014f0${TAB}-
title${TAB}hang outside the kernel (pc 00000000004014f0)
EOF
)" "$(cat "$T_TMP/x86_64-user.out")"
t_eq "arm64 user space: outside the kernel" \
	"title${TAB}hang outside the kernel (pc 000000000041994c)" \
	"$(grep "^title" "$T_TMP/arm64-user.out")"
t_nogrep "function pointers on the stack are no frames (x86_64 mount_root+0x0)" \
	'\+0x0/' "$T_TMP/x86_64-panic.out"
parse "an x86_64 transcript read as arm64: no PC, exit 2" 2 arm64 \
	"$FIX/x86_64-panic.raw" "$FIX/arm64.System.map"
t_grep "no PC: said" '^hangsym: error: .*x86_64-panic\.raw: no PC in ' "$T_OUT"

# --- made-up transcripts: the title and frame rules ---
MAP=$T_TMP/made.map
cat > "$MAP" <<'EOF'
ffffffff81000000 T _stext
ffffffff81000000 T _text
ffffffff81000000 T startup_64
ffffffff81000100 t delay_tsc
ffffffff81000200 T panic
ffffffff81000300 t helper.isra.0
ffffffff81000400 T __cpuidle_text_start
ffffffff81000400 t default_idle_alias
ffffffff81000400 T default_idle
ffffffff81000500 T _etext
ffffffff81000600 D some_data
ffffffff81001000 T _sinittext
ffffffff81001000 T start_kernel
ffffffff81002000 T _einittext
EOF
# made(): a transcript with RIP=$1 and the stack words $2..., as $T_TMP/made.raw.
made()
{
	local rip=$1; shift
	{
		printf 'QEMU 7.2.22 monitor\r\n(qemu) info registers\r\n\r\nCPU#0\r\n'
		printf 'RAX=0000000000000000 RSP=ffff888000001000\r\nRIP=%s RFL=00000283\r\n' "$rip"
		printf '(qemu) x/32gx 0xffff888000001000\r\n'
		while (($# > 0)); do
			printf 'ffff888000001000: 0x%s 0x%s\r\n' "$1" "${2:-0000000000000000}"
			shift 2 || shift
		done
		printf '(qemu) '
	} > "$T_TMP/made.raw"
}
made ffffffff81000410 0000000000000010 ffffffff81000104 ffffffff81000310
parse "spinning: exit 0" 0 x86_64 "$T_TMP/made.raw" "$MAP"
t_grep "a function, not a section marker; global before local" \
	"^pc${TAB}ffffffff81000410${TAB}default_idle\\+0x10/0x100\$" "$T_OUT"
t_grep "the first frame that does not spin, without its clone suffix" \
	"^title${TAB}hang in helper \\(spinning in default_idle\\)\$" "$T_OUT"
sed -i 's/T default_idle$/t default_idle/' "$MAP"
parse "two local symbols at one address: exit 0" 0 x86_64 "$T_TMP/made.raw" "$MAP"
t_eq "then the first listed (no spinner: its own title)" \
	"default_idle_alias+0x10/0x100|hang in default_idle_alias" \
	"$(grep -E '^(pc|title)' "$T_OUT" | cut -f 2- | sed 's/^[0-9a-f]*\t//' | paste -sd '|')"
sed -i 's/t default_idle$/T default_idle/' "$MAP"
made ffffffff81000210 ffffffff81000104
parse "a PC that does not spin: exit 0" 0 x86_64 "$T_TMP/made.raw" "$MAP"
t_grep "the PC's function names the hang" "^title${TAB}hang in panic\$" "$T_OUT"
made ffffffff81000104 ffffffff81000410 ffffffff81000600 ffffffff81000200 \
	ffffffff81000700 ffffffff81002004
parse "only spinners, data, pointers and no text on the stack: exit 0" 0 x86_64 \
	"$T_TMP/made.raw" "$MAP"
t_eq "no frame outside the spinners: the PC's function" \
	"frame${TAB}ffffffff81000410${TAB}default_idle+0x10/0x100|title${TAB}hang in delay_tsc" \
	"$(grep -v '^pc' "$T_OUT" | paste -sd '|')"
made ffffffff81001010 ffffffff81000104 ffffffff81000104 ffffffff81000105 \
	ffffffff81000106 ffffffff81000107 ffffffff81000108 ffffffff81000109 \
	ffffffff8100010a ffffffff8100010b ffffffff8100010c
parse "init text: exit 0" 0 x86_64 "$T_TMP/made.raw" "$MAP"
t_grep "init text is kernel text; the last symbol ends at _einittext" \
	"^pc${TAB}ffffffff81001010${TAB}start_kernel\\+0x10/0x1000\$" "$T_OUT"
t_eq "frames: deduplicated, at most 8, in stack order" \
	"8 ffffffff81000104 ffffffff8100010b" \
	"$(grep -c '^frame' "$T_OUT") $(grep '^frame' "$T_OUT" | sed -n '1p;$p' | cut -f 2 | xargs)"
made ffffffff81000600
parse "a PC in data: exit 1" 1 x86_64 "$T_TMP/made.raw" "$MAP"
t_grep "outside the kernel" "^title${TAB}hang outside the kernel \\(pc ffffffff81000600\\)\$" "$T_OUT"
# A module's code (the fault suite's hang spins in a module's init): a
# kernel address outside vmlinux, named by the kernel function it was
# called from; with no such frame it stays outside.
made ffffffffc0001010 0000000000000010 ffffffff81000210 ffffffff81001004
parse "a PC in a module, called from the kernel: exit 0" 0 x86_64 "$T_TMP/made.raw" "$MAP"
t_grep "module code, called from its caller" \
	"^title${TAB}hang in module code called from panic\$" "$T_OUT"
made ffffffffc0001010 0000000000000010
parse "a PC in a module, no kernel frame: exit 1" 1 x86_64 "$T_TMP/made.raw" "$MAP"
t_grep "no caller: outside" "^title${TAB}hang outside the kernel \\(pc ffffffffc0001010\\)\$" "$T_OUT"

# --- several CPUs: the report is about the busiest ---
# made_smp(): CPU 0 idles in default_idle (its stack: helper), CPU 1 is
# at RIP=$1 with the stack words $2... (each CPU its own stack).
made_smp()
{
	local rip=$1; shift
	{
		printf 'QEMU 7.2.22 monitor\r\n(qemu) info registers -a\r\n'
		printf '\r\nCPU#0\r\nRAX=0 RSP=ffff888000001000\r\n'
		printf 'RIP=ffffffff81000410 RFL=00000246 HLT=1\r\n'
		printf '\r\nCPU#1\r\nRAX=0 RSP=ffff888000009000\r\nRIP=%s RFL=00000283\r\n' "$rip"
		printf '(qemu) x/32gx 0xffff888000001000\r\n'
		printf 'ffff888000001000: 0xffffffff81000310 0x0000000000000000\r\n'
		printf '(qemu) x/32gx 0xffff888000009000\r\n'
		while (($# > 0)); do
			printf 'ffff888000009000: 0x%s 0x%s\r\n' "$1" "${2:-0000000000000000}"
			shift 2 || shift
		done
		printf '(qemu) '
	} > "$T_TMP/made.raw"
}
made_smp ffffffffc0001010 0000000000000010 ffffffff81000210
parse "two CPUs, one in a module: exit 0" 0 x86_64 "$T_TMP/made.raw" "$MAP"
t_eq "the module's CPU, its own stack, said which" \
	"cpu${TAB}1${TAB}2|pc${TAB}ffffffffc0001010${TAB}-|frame${TAB}ffffffff81000210${TAB}panic+0x10/0x100|title${TAB}hang in module code called from panic" \
	"$(paste -sd '|' "$T_OUT")"
made_smp 0000000000401000
parse "two CPUs, one in user space: exit 1" 1 x86_64 "$T_TMP/made.raw" "$MAP"
t_grep "user space before an idle CPU" "^title${TAB}hang outside the kernel \\(pc 0000000000401000\\)\$" "$T_OUT"
made_smp ffffffff81000104
parse "two CPUs, both spinning: exit 0" 0 x86_64 "$T_TMP/made.raw" "$MAP"
t_eq "equals: the first CPU, with its own frames" \
	"cpu${TAB}0${TAB}2|title${TAB}hang in helper (spinning in default_idle)" \
	"$(grep -E '^(cpu|title)' "$T_OUT" | paste -sd '|')"

# --- a CPU in a module's code, named from the runner's sections ---
MODDIR=$T_TMP/modules/6.1.0/extra
mkdir -p "$MODDIR"
{ cc -c -O0 -g -o "$T_TMP/core.o" "$FIX/module/demo-core.c" &&
  cc -c -O0 -g -o "$T_TMP/init.o" "$FIX/module/demo-mod.c" &&
  objcopy --rename-section .text=.init.text "$T_TMP/init.o" &&
  ld -r -o "$MODDIR/demo-mod.ko" "$T_TMP/core.o" "$T_TMP/init.o"; } ||
	echo "# cannot build the module stand-in"
# The function's offset in .init.text, as nm says (the expected values).
read -r fv fs < <(nm -S "$MODDIR/demo-mod.ko" | awk '$4 == "demo_spin_init" { print $1, $2 }')
off=$((16#$fv + 3))
RES=$T_TMP/results.ktap
printf '%s\n' "ok 1 earlier" "# runner: module demo_mod section .text 0xffffffffa0001000" \
	"# runner: module demo_mod section .init.text 0xffffffffa0005000" > "$RES"
pc=$(printf '%016x' $((0xffffffffa0005000 + off)))
made_smp "$pc" 0000000000000010 ffffffff81000210
t_rc "a PC in a module the runner placed: exit 0" 0 "$HANGSYM" --parse "$T_TMP/made.raw" \
	--arch x86_64 --system-map "$MAP" --results "$RES" --modules "$T_TMP/modules"
t_eq "its function, offset and module; the section and offset for addr2line" \
	"module${TAB}demo_mod${TAB}.init.text${TAB}$(printf '0x%x' "$off")${TAB}$MODDIR/demo-mod.ko|pc${TAB}$pc${TAB}demo_spin_init+0x3/$(printf '0x%x' $((16#$fs))) [demo_mod]|title${TAB}hang in demo_spin_init [demo_mod]" \
	"$(grep -E '^(module|pc|title)' "$T_OUT" | paste -sd '|')"
printf '%s\n' "# runner: module demo_mod section .init.text 0xffffffffa0009000" > "$RES"
t_rc "a module section below, but the PC past its end: exit 0" 0 "$HANGSYM" --parse \
	"$T_TMP/made.raw" --arch x86_64 --system-map "$MAP" --results "$RES" --modules "$T_TMP/modules"
t_grep "then module code, named by its caller" \
	"^title${TAB}hang in module code called from panic\$" "$T_OUT"
printf '%s\n' "# runner: module nosuch section .init.text 0xffffffffa0005000" \
	"# runner: module demo_mod section .init.text 0xzz" > "$RES"
t_rc "no .ko of the module, a bad address: exit 0" 0 "$HANGSYM" --parse \
	"$T_TMP/made.raw" --arch x86_64 --system-map "$MAP" --results "$RES" --modules "$T_TMP/modules"
t_grep "no .ko: module code" "^title${TAB}hang in module code called from panic\$" "$T_OUT"
head -c 100 /dev/urandom > "$MODDIR/demo-mod.ko"
printf '%s\n' "# runner: module demo_mod section .init.text 0xffffffffa0005000" > "$RES"
t_rc "a .ko that is no ELF: exit 0" 0 "$HANGSYM" --parse "$T_TMP/made.raw" \
	--arch x86_64 --system-map "$MAP" --results "$RES" --modules "$T_TMP/modules"
t_grep "no ELF: module code" "^title${TAB}hang in module code called from panic\$" "$T_OUT"

# --- bad inputs ---
t_rc "no arguments: usage, exit 2" 2 "$HANGSYM"
t_grep "usage is printed" '^usage: hangsym ' "$T_OUT"
t_rc "--monitor and --parse together: exit 2" 2 "$HANGSYM" --parse x --monitor y \
	--arch x86_64 --system-map "$MAP"
t_rc "an unknown arch: exit 2" 2 "$HANGSYM" --parse x --arch sparc --system-map "$MAP"
t_rc "a bad --timeout-ms: exit 2" 2 "$HANGSYM" --monitor x --arch arm64 \
	--system-map "$MAP" --timeout-ms 0
parse "a missing System.map: exit 2" 2 x86_64 "$FIX/x86_64-panic.raw" "$T_TMP/none.map"
t_grep "the error names the file" '^hangsym: error: cannot open System.map file .*/none\.map' "$T_OUT"
parse "a missing transcript: exit 2" 2 x86_64 "$T_TMP/none.raw" "$MAP"
: > "$T_TMP/empty.map"
parse "an empty System.map: exit 2" 2 x86_64 "$FIX/x86_64-panic.raw" "$T_TMP/empty.map"
t_grep "no text symbols" 'empty\.map: no text symbols' "$T_OUT"
grep -v _etext "$MAP" > "$T_TMP/noend.map"
parse "a System.map without _etext: exit 2" 2 x86_64 "$FIX/x86_64-panic.raw" "$T_TMP/noend.map"
{ cat "$MAP"; printf 'ffffffff81000700 T bad\tname\n'; } > "$T_TMP/bad.map"
parse "a bad System.map line: exit 2" 2 x86_64 "$FIX/x86_64-panic.raw" "$T_TMP/bad.map"
t_grep "file and line named" 'bad\.map:15: expected "address type name"' "$T_OUT"
printf 'hello\r\n(qemu) RIP=zz RIP=%s\r\n' "$(printf '1%.0s' {1..17})" > "$T_TMP/garbage.raw"
parse "a garbage transcript: exit 2" 2 x86_64 "$T_TMP/garbage.raw" "$MAP"

# --- 1 MB lines ---
head -c 1048576 /dev/zero | tr '\0' 'f' > "$T_TMP/long"
{ cat "$T_TMP/long"; echo; cat "$FIX/x86_64-panic.raw"; cat "$T_TMP/long"; } > "$T_TMP/long.raw"
parse "1 MB lines around a transcript: exit 0" 0 x86_64 "$T_TMP/long.raw" \
	"$FIX/x86_64.System.map"
t_eq "1 MB lines: the same report" "$(cat "$T_TMP/x86_64-panic.out")" "$(cat "$T_OUT")"
{ cat "$MAP"; printf 'ffffffff81000700 T '; cat "$T_TMP/long"; echo; } > "$T_TMP/long.map"
made ffffffff81000210
parse "a 1 MB symbol name: exit 0" 0 x86_64 "$T_TMP/made.raw" "$T_TMP/long.map"
{ printf 'ffffffff81000700 T x'; tr 'f' ' ' < "$T_TMP/long"; echo; cat "$MAP"; } > "$T_TMP/long2.map"
parse "a 1 MB System.map line that is none: exit 2" 2 x86_64 "$T_TMP/made.raw" \
	"$T_TMP/long2.map"
t_eq "the error quotes at most 64 bytes of it" 1 \
	"$(awk 'length($0) < 200' "$T_OUT" | grep -c 'long2\.map:1: expected')"

# --- fuzz: random bytes, and real transcripts with random damage ---
mkdir -p "$T_TMP/fuzz"
LC_ALL=C awk -v dir="$T_TMP/fuzz" '
	{ raw = raw $0 "\n" }
	END {
		srand(20251203)
		for (f = 0; f < 60; f++) {
			out = sprintf("%s/%d.raw", dir, f)
			if (f < 20) {
				n = int(rand() * 8192)
				for (i = 0; i < n; i++)
					printf "%c", int(rand() * 256) > out
			} else {
				s = raw
				for (k = 0; k < 30; k++) {
					p = 1 + int(rand() * length(s))
					s = substr(s, 1, p - 1) sprintf("%c", int(rand() * 256)) \
					    substr(s, p + 1 + int(rand() * 3))
				}
				printf "%s", s > out
			}
			close(out)
		}
	}' "$FIX/x86_64-panic.raw" "$FIX/arm64-panic.raw"
bad=
for f in "$T_TMP"/fuzz/*.raw; do
	for arch in x86_64 arm64; do
		timeout 10 "$HANGSYM" --parse "$f" --arch "$arch" \
			--system-map "$FIX/$arch.System.map" > "$T_OUT" 2>&1
		rc=$?
		((rc <= 2)) || bad+=" ${f##*/} $arch: exit $rc;"
		grep -q "^title${TAB}hang " "$T_OUT" || ((rc == 2)) ||
			bad+=" ${f##*/} $arch: exit $rc without a title;"
	done
done
t_eq "120 fuzzed transcripts: exit 0, 1 (with a title) or 2, never a crash" "" "$bad"

# --- fake monitors on a unix socket ---
cat > "$T_TMP/fakemon.py" <<'EOF'
# fakemon.py MODE SOCKET [RAW LOG]: a QEMU HMP monitor that misbehaves as
# MODE says, or (replay) answers each command with the next part of RAW,
# logging the commands to LOG. Ends itself after 30 s.
import signal, socket, sys, time
signal.alarm(30)
mode, path = sys.argv[1], sys.argv[2]
srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(1)
if mode == 'stale':
    sys.exit(0)
c, _ = srv.accept()
if mode == 'console':
    # A guest's console (a QEMU mux chardev): keep what comes in RAW,
    # answer each byte with a line of output, as a guest printing
    # its blocked tasks does.
    log = open(sys.argv[3], 'wb')
    c.settimeout(30)
    while True:
        b = c.recv(100)
        if not b:
            break
        log.write(b)
        log.flush()
        c.sendall(b'[   21.0] output\r\n' * len(b))
    sys.exit(0)
P = b'(qemu) '
if mode == 'prompt':
    c.sendall(b'QEMU 7.2.22 monitor\r\n' + P)
elif mode == 'close':
    c.sendall(b'QEMU 7.2.22 monitor\r\n' + P)
    c.recv(100)
    c.close()
elif mode == 'flood':
    try:
        c.sendall(b'x' * (2 << 20))
    except OSError:
        pass
elif mode == 'replay':
    parts = open(sys.argv[3], 'rb').read().split(P)
    log = open(sys.argv[4], 'w')
    c.sendall(parts[0] + P)
    buf = b''
    for part in parts[1:-1]:
        while b'\n' not in buf:
            buf += c.recv(100)
        line, buf = buf.split(b'\n', 1)
        log.write(line.decode() + '\n')
        log.flush()
        c.sendall(part + P)
time.sleep(30)
EOF

# serve(): start a fake monitor (MODE SOCKET [RAW LOG]) and wait for its socket.
serve()
{
	local i

	python3 "$T_TMP/fakemon.py" "$@" &
	SERVERS+=($!)
	for i in {1..50}; do
		[[ -S "$2" ]] && return 0
		sleep 0.1
	done
	return 1
}

# monitor(): desc, expected exit, socket, then more options; the time in
# ELAPSED (ms).
monitor()
{
	local desc=$1 rc=$2 sock=$3 t0
	shift 3
	t0=$(date +%s%3N)
	t_rc "$desc" "$rc" timeout 20 "$HANGSYM" --monitor "$sock" "$@"
	ELAPSED=$(($(date +%s%3N) - t0))
}

SOCK=$T_TMP/mon.sock
if ! command -v python3 > /dev/null; then
	for i in {1..44}; do
		t_skip "fake monitor $i" "python3 not found"
	done
	t_done
fi

for arch in x86_64 arm64; do
	rm -f "$SOCK"
	serve replay "$SOCK" "$FIX/$arch-panic.raw" "$T_TMP/cmds" ||
		echo "# the fake monitor did not start"
	monitor "replayed $arch monitor: exit 0" 0 "$SOCK" --arch "$arch" \
		--system-map "$FIX/$arch.System.map" --raw "$T_TMP/got.raw" --snapshots 1
	t_eq "replayed $arch monitor: the report of --parse" \
		"$(cat "$T_TMP/$arch-panic.out")" "$(cat "$T_OUT")"
	sp=$(tr -d '\r' < "$FIX/$arch-panic.raw" | grep -Eo '(^| )R?SP=[0-9a-f]+' | head -n 1)
	t_eq "replayed $arch monitor: registers, the stack at SP, the CPUs" \
		"info registers -a|x/32gx 0x${sp#*=}|info cpus" "$(paste -sd '|' "$T_TMP/cmds")"
	t_eq "replayed $arch monitor: --raw is what it sent, byte for byte" ok \
		"$(cmp -s "$T_TMP/got.raw" "$FIX/$arch-panic.raw" && echo ok)"
	stop_servers
done

# snaps_raw(): a two-CPU monitor's replies, as $T_TMP/$1: one "info
# registers -a" per word "RIP0,RIP1,RSP1" ($2...; CPU 0's stack at
# ffff888000001000), then the stacks at ffff888000001000 (a word of
# helper) and ffff888000009000 (a word of panic), then "info cpus".
snaps_raw()
{
	local out=$1; shift
	local rip0 rip1 rsp1 w

	{
		printf 'QEMU 7.2.22 monitor\r\n'
		for w in "$@"; do
			IFS=, read -r rip0 rip1 rsp1 <<< "$w"
			printf '(qemu) info registers -a\r\n\r\nCPU#0\r\nRSP=ffff888000001000\r\n'
			printf 'RIP=%s\r\n\r\nCPU#1\r\nRSP=%s\r\n' "$rip0" "$rsp1"
			printf 'RIP=%s\r\n' "$rip1"
		done
		printf '(qemu) x/32gx 0xffff888000001000\r\nffff888000001000: 0xffffffff81000310 0x0\r\n'
		printf '(qemu) x/32gx 0xffff888000009000\r\nffff888000009000: 0xffffffff81000210 0x0\r\n'
		printf '(qemu) info cpus\r\n* CPU #0: thread_id=1\r\n  CPU #1: thread_id=2\r\n(qemu) '
	} > "$T_TMP/$out"
}

# replay(): hangsym --monitor on a fake monitor replaying $T_TMP/$1
# (x86_64, the made-up map), described by $2; the commands in
# $T_TMP/cmds.
replay()
{
	rm -f "$SOCK"
	serve replay "$SOCK" "$T_TMP/$1" "$T_TMP/cmds" || echo "# the fake monitor did not start"
	monitor "$2" 0 "$SOCK" --arch x86_64 --system-map "$MAP"
}

# asked(): the commands of $1 snapshots and snaps_raw's stacks, "|" apart.
asked()
{
	local i out=
	for ((i = 0; i < $1; i++)); do
		out+="info registers -a|"
	done
	echo "${out}x/32gx 0xffff888000001000|x/32gx 0xffff888000009000|info cpus"
}

# Four snapshots (the default): CPU 0 idles but is caught once in a
# kernel function (an interrupt), CPU 1 spins in a module every time.
M=ffffffffc0001010,ffff888000009000
snaps_raw snaps.raw ffffffff81000410,$M ffffffff81000210,$M ffffffff81000410,$M \
	ffffffff81000410,$M
replay snaps.raw "four snapshots: exit 0"
t_eq "four snapshots, then each CPU's stack, then the CPUs" \
	"$(asked 4)" "$(paste -sd '|' "$T_TMP/cmds")"
t_eq "the CPU in the module every time, not the one caught once in panic" \
	"cpu${TAB}1${TAB}2|title${TAB}hang in module code called from panic" \
	"$(grep -E '^(cpu|title)' "$T_OUT" | paste -sd '|')"
t_eq "a CPU busy in a module: not every CPU idles, no idle record" 0 "$(grep -c '^idle' "$T_OUT")"
stop_servers

# The busy CPU's last snapshot lands in an interrupt (helper, kernel
# text, on another stack) while it mostly spins in the module: asked
# once more, and the stack read and the report are of the module's
# loop. (Seen in the fault suite: "hang in native_apic_mem_write" for a
# module's busy loop.)
I=ffffffff81000410
snaps_raw irq.raw $I,$M $I,$M $I,$M $I,ffffffff81000310,ffff888000007000 $I,$M
replay irq.raw "caught in an interrupt: exit 0"
t_eq "caught in an interrupt last: a fifth snapshot, then the stacks at the SPs it gave" \
	"$(asked 5)" "$(paste -sd '|' "$T_TMP/cmds")"
t_eq "... and the report is of the module's loop, not of the interrupt" \
	"cpu${TAB}1${TAB}2|pc${TAB}ffffffffc0001010${TAB}-|title${TAB}hang in module code called from panic" \
	"$(grep -E '^(cpu|pc|title)' "$T_OUT" | paste -sd '|')"
stop_servers

# --sysrq on a guest's console: the mux's break (C-a b) before each key.
rm -f "$SOCK"
serve console "$SOCK" "$T_TMP/keys" || echo "# the fake console did not start"
t0=$(date +%s%3N)
t_rc "--sysrq 8w: exit 0" 0 timeout 20 "$HANGSYM" --sysrq 8w --console "$SOCK" --timeout-ms 5000
ELAPSED=$(($(date +%s%3N) - t0))
t_eq "--sysrq 8w: a break, 8, a break, w (as od -c shows them)" '001b8001bw' \
	"$(od -An -c "$T_TMP/keys" | tr -d ' \n')"
t_eq "--sysrq: done once the console is quiet for 1 s, before --timeout-ms" yes \
	"$( ((ELAPSED >= 2000 && ELAPSED < 4500)) && echo yes || echo "no: $ELAPSED ms")"
stop_servers
t_rc "--sysrq with a key that is none: exit 2" 2 "$HANGSYM" --sysrq 8W --console "$SOCK"
t_grep "said" "--sysrq wants 1 to 8 SysRq keys \(0-9, a-z\), got \"8W\"" "$T_OUT"
# Each key takes 600 ms: 36 of them would keep the watcher 22 s.
rm -f "$SOCK"
serve console "$SOCK" "$T_TMP/keys9" || echo "# the fake console did not start"
t_rc "--sysrq with nine keys: exit 2, at once" 2 timeout 5 "$HANGSYM" \
	--sysrq 8wlt8wlt8 --console "$SOCK"
t_grep "said" "--sysrq wants 1 to 8 SysRq keys \(0-9, a-z\), got \"8wlt8wlt8\"" "$T_OUT"
t_eq "--sysrq with nine keys: none pressed" "" "$(cat "$T_TMP/keys9" 2> /dev/null)"
stop_servers
t_rc "--sysrq with a monitor's options: usage, exit 2" 2 "$HANGSYM" --sysrq w \
	--console "$SOCK" --arch x86_64
rm -f "$SOCK"
t_rc "--sysrq, no console: exit 2" 2 "$HANGSYM" --sysrq w --console "$SOCK"
t_grep "said" "^hangsym: error: console .*: cannot connect to .*mon\\.sock: No such file" "$T_OUT"
t_rc "--snapshots 0: exit 2" 2 "$HANGSYM" --monitor x --arch x86_64 --system-map "$MAP" \
	--snapshots 0

rm -f "$SOCK"
monitor "no socket: exit 2" 2 "$SOCK" --arch x86_64 --system-map "$MAP"
t_grep "cannot connect" "^hangsym: error: monitor .*: cannot connect to .*mon\\.sock: No such file" "$T_OUT"
serve stale "$SOCK" && wait "${SERVERS[@]}" 2>/dev/null
SERVERS=()
monitor "a dead socket: exit 2" 2 "$SOCK" --arch x86_64 --system-map "$MAP"
t_grep "connection refused" "Connection refused" "$T_OUT"

rm -f "$SOCK"
serve silent "$SOCK"
monitor "a silent monitor: exit 2" 2 "$SOCK" --arch x86_64 --system-map "$MAP" \
	--timeout-ms 300 --raw "$T_TMP/silent.raw"
t_eq "a silent monitor: given up after 300 ms" yes \
	"$( ((ELAPSED >= 300 && ELAPSED < 2000)) && echo yes || echo "no: $ELAPSED ms")"
t_grep "a silent monitor: said" "no answer to the connection within 300 ms" "$T_OUT"
t_eq "a silent monitor: an empty --raw all the same" "0" "$(stat -c %s "$T_TMP/silent.raw")"
stop_servers

rm -f "$SOCK"
serve silent "$SOCK"
monitor "a silent monitor, default timeout: exit 2" 2 "$SOCK" --arch arm64 \
	--system-map "$MAP"
t_eq "default timeout: 2 s" yes \
	"$( ((ELAPSED >= 2000 && ELAPSED < 5000)) && echo yes || echo "no: $ELAPSED ms")"
stop_servers

rm -f "$SOCK"
serve prompt "$SOCK"
monitor "a prompt, then silence: exit 2" 2 "$SOCK" --arch x86_64 --system-map "$MAP" \
	--timeout-ms 300 --raw "$T_TMP/prompt.raw"
t_grep "the command named" "no answer to info registers -a within 300 ms" "$T_OUT"
t_grep "--raw keeps what came" '^\(qemu\) $' "$T_TMP/prompt.raw"
stop_servers

rm -f "$SOCK"
serve close "$SOCK"
monitor "a monitor that hangs up: exit 2" 2 "$SOCK" --arch x86_64 --system-map "$MAP"
t_grep "said" "info registers -a: the monitor closed the connection" "$T_OUT"
stop_servers

rm -f "$SOCK"
serve flood "$SOCK"
monitor "a monitor that never prompts: exit 2" 2 "$SOCK" --arch x86_64 --system-map "$MAP"
t_grep "said" "more than 1048576 bytes of output" "$T_OUT"
stop_servers

t_done
