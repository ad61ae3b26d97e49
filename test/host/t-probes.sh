#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-probes.sh - what a run asks of the host once and keeps (WORKDIR/memo)
# is asked again as soon as what decides the answer changed: the guest
# compiler's libc.a and version (user_cc_facts, tools/stages/boot.sh)
# when its file changes, is replaced, another file is linked in its
# place, its search path changes or the libc.a is gone; the sandbox
# probe (sandbox_check, tools/sandbox.sh) when bwrap's file, the kernel
# or its user namespace limits change, and a sandbox that did not start
# is never kept; a package's version (pkg_version) when dpkg's database
# changes. Each "run" is a new shell, which reads the memos anew, with
# fake programs that count how often they are asked.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

D=$T_TMP/probes
export WORKDIR=$D/wd LOG=$D/asked
# Facts of files changed just now are not kept (file_id): the fakes are.
export FILE_SETTLE=0
mkdir -p "$D/bin" "$WORKDIR"
export PATH=$D/bin:$PATH

# run(): in a new shell with the tools' functions, the command $@; its
# output, then how many times a fake was asked so far; its exit code.
run()
{
	local rc

	TOP=$T_TOP bash -c '
		. "$TOP/tools/lib.sh"
		. "$TOP/tools/cell.sh"
		. "$TOP/tools/target.sh"
		. "$TOP/tools/stages/boot.sh"
		"$@"' run "$@"
	rc=$?
	echo "asked $(wc -l < "$LOG")"
	return "$rc"
}

# facts(): what user_cc_facts says of compiler $1.
# shellcheck disable=SC2317  # called through run
facts()
{
	local -A f

	user_cc_facts f "$1" || echo "not found"
	echo "${f[real]##*/} ${f[libc]##*/} ${f[version]}"
}
export -f facts

t_plan 37

# A compiler that logs each question; its libc.a, and two alternatives
# of it, linked to as cc is (/usr/bin/cc -> /etc/alternatives/cc).
: > "$LOG"
touch "$D/libc.a"
cat > "$D/bin/fakecc-1" << EOF
#!/bin/bash
echo "\$*" >> "$LOG"
case \$1 in
--version) echo "fakecc (test) 1.0"; echo "more lines" ;;
-print-file-name=libc.a) echo "$D/libc.a" ;;
esac
EOF
chmod +x "$D/bin/fakecc-1"
cp -p "$D/bin/fakecc-1" "$D/bin/fakecc-2"
ln -s fakecc-1 "$D/bin/fakecc"

t_eq "compiler: asked, its answers" "fakecc-1 libc.a fakecc (test) 1.0
asked 2" "$(run facts fakecc)"
t_eq "compiler: a second run asks nothing" "fakecc-1 libc.a fakecc (test) 1.0
asked 2" "$(run facts fakecc)"
t_eq "compiler: by another name, asked (--version says the name)" "asked 4" \
	"$(run facts "$D/bin/fakecc" | tail -n 1)"
touch -d '2020-01-01 00:00' "$D/bin/fakecc-1"
t_eq "compiler: its mtime changed, asked again" "asked 6" "$(run facts fakecc | tail -n 1)"
t_eq "compiler: then kept again" "asked 6" "$(run facts fakecc | tail -n 1)"
# An upgrade: a new file in its place, same size and mtime.
cp -p "$D/bin/fakecc-1" "$D/bin/fakecc-1.new"
mv "$D/bin/fakecc-1.new" "$D/bin/fakecc-1"
t_eq "compiler: replaced by a file of the same size and mtime, asked again" "asked 8" \
	"$(run facts fakecc | tail -n 1)"
ln -sfn fakecc-2 "$D/bin/fakecc"
t_eq "compiler: another alternative linked in, asked again, and named" "fakecc-2 libc.a fakecc (test) 1.0
asked 10" "$(run facts fakecc)"
t_eq "compiler: LIBRARY_PATH set, asked again" "asked 12" \
	"$(LIBRARY_PATH=$D run facts fakecc | tail -n 1)"
rm "$D/libc.a"
t_eq "compiler: the libc.a kept is gone, asked again" "fakecc-2 libc.a fakecc (test) 1.0
asked 14" "$(run facts fakecc)"
t_eq "compiler: an answer without libc.a is not kept" "asked 16" "$(run facts fakecc | tail -n 1)"
touch "$D/libc.a"
t_eq "compiler: changed just now (FILE_SETTLE), asked and not kept" "asked 18 asked 20" \
	"$(FILE_SETTLE=100 run facts fakecc | tail -n 1) $(FILE_SETTLE=100 run facts fakecc | tail -n 1)"
t_eq "compiler: one not on PATH" "not found
  
asked 20" "$(run facts no-such-cc)"

# A bwrap that logs each sandbox it is asked to start, and the kernel's
# settings where sandbox_key reads them.
: > "$LOG"
cat > "$D/bin/bwrap" << EOF
#!/bin/bash
echo "\$*" >> "$LOG"
EOF
chmod +x "$D/bin/bwrap"
export SANDBOX_SYS=$D/sys
mkdir -p "$SANDBOX_SYS/kernel/random" "$SANDBOX_SYS/user"
echo 6.1.0-test > "$SANDBOX_SYS/kernel/osrelease"
echo 0b6b2a3c-0000-4000-8000-000000000001 > "$SANDBOX_SYS/kernel/random/boot_id"
echo 1000 > "$SANDBOX_SYS/user/max_user_namespaces"

t_eq "sandbox: started" "asked 1" "$(run sandbox_check)"
t_eq "sandbox: a second run starts none" "asked 1" "$(run sandbox_check)"
echo 6.1.0-other > "$SANDBOX_SYS/kernel/osrelease"
t_eq "sandbox: another kernel, started again" "asked 2" "$(run sandbox_check)"
touch -d '2020-01-01 00:00' "$D/bin/bwrap"
t_eq "sandbox: bwrap changed, started again" "asked 3" "$(run sandbox_check)"
echo 0 > "$SANDBOX_SYS/user/max_user_namespaces"
t_eq "sandbox: user namespaces limited, started again" "asked 4" "$(run sandbox_check)"
t_eq "sandbox: another timeout is another command, started again" "asked 5" \
	"$(SANDBOX_TIMEOUT=60 run sandbox_check)"
printf 'echo "bwrap: no permission" >&2\nexit 1\n' >> "$D/bin/bwrap"
t_rc "sandbox: one that does not start: the run stops" 2 run sandbox_check
t_grep "sandbox: ... saying why" "the sandbox does not start here \\(bwrap: bwrap: no permission\\)" "$T_OUT"
t_eq "sandbox: ... and is started again next time, not kept" "asked 7" \
	"$(run sandbox_check 2> /dev/null | tail -n 1)"

# dpkg-query, asked of a package's version, and its database.
: > "$LOG"
cat > "$D/bin/dpkg-query" << EOF
#!/bin/bash
echo "\$*" >> "$LOG"
head -n 1 "\$DPKG_ADMINDIR/status"
EOF
chmod +x "$D/bin/dpkg-query"
export DPKG_ADMINDIR=$D/dpkg
mkdir -p "$DPKG_ADMINDIR/updates"
echo 059-4 > "$DPKG_ADMINDIR/status"
# version(): what pkg_version says of dracut-core.
# shellcheck disable=SC2317  # called through run
version()
{
	local v
	pkg_version v dracut-core
	echo "$v"
}
export -f version
t_eq "package: asked, and kept" "059-4
asked 1
059-4
asked 1" "$(run version; run version)"
echo 060-1 > "$DPKG_ADMINDIR/status"
t_eq "package: dpkg's database changed, asked again" "060-1
asked 2" "$(run version)"

# A program's --version (tool_version), asked once per file.
: > "$LOG"
cat > "$D/bin/faketool" << EOF
#!/bin/bash
echo "\$*" >> "$LOG"
printf 'faketool 2.0\n\tby the test, a \\\\ and a \\\\n\n\n'
EOF
chmod +x "$D/bin/faketool"
# toolv(): what tool_version says of faketool, quoted.
# shellcheck disable=SC2317  # called through run
toolv()
{
	local v
	tool_version v faketool
	printf '%q\n' "$v"
}
export -f toolv
want=$(printf '%q' $'faketool 2.0\n\tby the test, a \\ and a \\n')
t_eq "tool: asked, its text (trailing newlines dropped)" "$want
asked 1" "$(run toolv)"
t_eq "tool: a second run asks nothing, the same text (tab, backslashes, lines)" "$want
asked 1" "$(run toolv)"
touch -d '2020-01-01 00:00' "$D/bin/faketool"
t_eq "tool: its file changed, asked again" "asked 2" "$(run toolv | tail -n 1)"

# The memo itself: any text back as it went in, a key with a tab or a
# newline refused, a miss sees what another process added since.
# memo(): memo_put NAME KEY VALUE, then in a new shell memo_get NAME KEY.
# shellcheck disable=SC2317  # called through run
memo()
{
	memo_put "$@" || echo refused
	bash -c '. "$TOP/tools/lib.sh"; . "$TOP/tools/cell.sh"
		memo_get v "$1" "$2" && printf "%q\n" "$v" || echo none' _ "$1" "$2"
}
export -f memo
for v in '' 'one line' $'two\nlines' $'a\ttab' 'a \\ backslash' 'not a newline: \n' \
	$'\\\\n\\\n\\' $'trailing newline\n' $'\x01 and \\ \x02'; do
	i=$((${i:-0} + 1))
	t_eq "memo: $(printf '%q' "$v") back as it went in" "$(printf '%q' "$v")
asked 2" "$(run memo text "k$i" "$v")"
done
t_eq "memo: a key with a tab is refused, nothing kept" "refused
none
asked 2" "$(run memo text $'k\tx' v)"
# seen(): memo_get of memo added key k1, then of k2 after another
# process added k2, in one shell; and after a line of its own.
# shellcheck disable=SC2317  # called through run
seen()
{
	local v

	memo_get v added k1 || echo "k1 none"
	( memo_put added k2 "from a subshell" )
	bash -c '. "$TOP/tools/lib.sh"; . "$TOP/tools/cell.sh"; memo_put added k3 "from a run"'
	memo_get v added k2 && echo "k2: $v"
	memo_get v added k3 && echo "k3: $v"
	memo_get v added k4 || echo "k4 none"
	memo_put added k5 "its own"
	bash -c '. "$TOP/tools/lib.sh"; . "$TOP/tools/cell.sh"; memo_put added k6 "after its own"'
	memo_get v added k6 && echo "k6: $v"
}
export -f seen
t_eq "memo: a miss reads what another process added" "k1 none
k2: from a subshell
k3: from a run
k4 none
k6: after its own
asked 2" "$(run seen)"

t_done
