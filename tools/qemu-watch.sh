#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-watch.sh - run one guest with a deadline, and when the deadline
# comes before the guest ends, first ask its QEMU monitor where the CPU
# is (tools/bin/hangsym); when every CPU idles, the hang is a task that
# does not go on: press SysRq on its console ("8w": every message
# shown, then the blocked tasks with their stacks, which triage titles
# "INFO: task hung in FUNC"); then kill it: a hang that says where.
#
# Usage: qemu-watch.sh SECS ARCH SYSTEM_MAP [MODULES_DIR] -- QEMU ARGS...
#   Run in the guest's dir: QEMU's monitor is ./mon.sock (a relative
#   path: a unix socket's path has at most 107 bytes), its console a
#   mux chardev on ./con.sock, and the capture goes to ./hang.tsv
#   (hangsym's records), ./hang.raw (the monitor's words) and
#   ./hang.err. With MODULES_DIR (the step's modules), a CPU
#   in a module's code is named from the sections the runner reported
#   in ./results.ktap (hangsym --results, --modules).
# Exit: QEMU's own exit code; 124 when the deadline ended it (as
# timeout(1) says it).
#
# Started by boot.sh under setpriv --pdeathsig KILL, and QEMU under the
# same: when the run dies, so does this, and so does the guest.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly POLL=0.1
# How long the guest may take to print its blocked tasks.
readonly SYSRQ_MS=8000

secs=$1; shift
arch=$1; shift
map=$1; shift
mods=()
if [[ $# -gt 0 && "$1" != -- ]]; then
	mods=(--results results.ktap --modules "$1")
	shift
fi
[[ "${1:-}" == -- ]] && shift
[[ "$secs" =~ ^[0-9]+$ && $# -gt 0 ]] || {
	echo "usage: qemu-watch.sh SECS ARCH SYSTEM_MAP [MODULES_DIR] -- QEMU ARGS..." >&2
	exit 125
}

setpriv --pdeathsig KILL "$@" &
q=$!
trap 'kill -KILL "$q" 2>/dev/null' EXIT

# guest_ended(): the guest ended (reaped, or a zombie).
guest_ended()
{
	local st rest
	[[ -r "/proc/$q/stat" ]] || return 0
	read -r _ _ st rest < "/proc/$q/stat" 2>/dev/null || return 0
	[[ "$st" == Z ]]
}

# A descriptor nobody writes to: read -t on it sleeps without a fork.
exec {sleep_fd}<> <(:)
t=${EPOCHREALTIME/[.,]/}
end=$((t + secs * 1000000))
while ! guest_ended; do
	t=${EPOCHREALTIME/[.,]/}
	if ((t >= end)); then
		"$TOP/tools/bin/hangsym" --monitor mon.sock --arch "$arch" \
			--system-map "$map" "${mods[@]}" --raw hang.raw > hang.tsv 2> hang.err
		if grep -q '^idle' hang.tsv && [[ -S con.sock ]]; then
			"$TOP/tools/bin/hangsym" --sysrq 8w --console con.sock \
				--timeout-ms "$SYSRQ_MS" 2>> hang.err
		fi
		kill -KILL "$q" 2>/dev/null
		wait "$q"
		exit 124
	fi
	read -r -t "$POLL" -u "$sleep_fd"
done
wait "$q"
