#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-probes.sh - what a run asks of the host once and keeps (WORKDIR/memo)
# is asked again as soon as what decides the answer changed: the sandbox
# probe (sandbox_check, tools/sandbox.sh) when bwrap's file, the kernel
# or its user namespace limits change, and a sandbox that did not start
# is never kept. Each "run" is a new shell, which reads the memos anew,
# with fake programs that count how often they are asked.

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

t_plan 9

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

t_done
