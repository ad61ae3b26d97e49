#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-fuzz.sh - every host program over the inputs a fuzzing pass made of
# its fixtures (test/fixtures/fuzz/README): the corpus, and the
# reproducers of what the fuzzing found, which are fixed. Each case must
# end within 10 s, with an exit code the program documents, no sanitizer
# report, and, for exit 2, a message that says where the input is bad
# (the file, or the option of the command line).

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

FUZZ=$T_TOP/test/fixtures/fuzz
RUN=$T_TMP/run

# The exit codes each program documents (its usage or top comment).
declare -A RCS=(
	[abi]="0 1 2" [b4prep]="0 1 2" [cacheio]="0 2" [distlog]="0 2" [findings]="0 1 2"
	[globals]="0 2" [hangsym]="0 1 2" [modusers]="0 2" [report]="0 1 2" [series]="0 2"
	[tags]="0 1 2" [triage]="0 1 2"
)

# where_re(): the ERE a message of exit 2 must match to say where: the
# path of an input of the case (the case's files are all under $RUN,
# which has no ERE specials but "."), with its line for abi, which
# promises FILE:LINE; for cacheio, which reads stdin, the byte; for
# b4prep, stdin or its file.
where_re()
{
	case $1 in
	cacheio) echo '^cacheio: error: stdin, byte [0-9]+: ' ;;
	b4prep) echo "^b4prep: error: (stdin|$RUN/[^:, ]+)[:, ]" ;;
	abi) echo "$RUN/[^:]+:[0-9]+: " ;;
	*) echo "$RUN/[^:]+:" ;;
	esac
}

# setup(): the run directory of a case: the program's defaults, then the
# case's own files over them.
setup()
{
	local prog=$1 c=$2 e

	rm -rf "$T_TMP/scratch" "$RUN" && mkdir -p "$T_TMP/scratch" &&
		cp -R "$FUZZ/$prog/defaults" "$RUN" || return 1
	if [[ $prog == series ]]; then
		# The files a series names, next to it, as in the fixtures.
		for e in "$T_TOP"/test/fixtures/series/*; do
			[[ $e == *.yaml || -e "$RUN/${e##*/}" ]] || ln -s "$e" "$RUN/" || return 1
		done
	fi
	cp -R "$c/." "$RUN/"
}

# args(): the case's command line (its file cmd, one argument a line:
# @@ the run directory, @tmp/NAME a scratch file, @listen/NAME a unix
# socket that listens and never answers, @NAME the input NAME), into
# ARGS; the sockets' paths into SOCKS.
args()
{
	local a

	ARGS=()
	SOCKS=()
	while IFS= read -r a; do
		case $a in
		@@) ARGS+=("$RUN") ;;
		@tmp/*) ARGS+=("$T_TMP/scratch/${a#@tmp/}") ;;
		@listen/*)
			ARGS+=("$T_TMP/scratch/${a#@listen/}")
			SOCKS+=("${ARGS[-1]}")
			;;
		@*) ARGS+=("$RUN/${a#@}") ;;
		*) ARGS+=("$a") ;;
		esac
	done < "$RUN/cmd"
}

# listen(): a unix socket at each of SOCKS that takes connections and
# never reads (a guest's console that does not answer), its server's pid
# into LISTENER; 1 when one is not there within 5 s.
listen()
{
	local s

	LISTENER=
	((${#SOCKS[@]})) || return 0
	python3 -c 'import socket, sys, time
socks = []
for p in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX)
    s.bind(p)
    s.listen(8)
    socks.append(s)
time.sleep(60)' "${SOCKS[@]}" &
	LISTENER=$!
	for s in "${SOCKS[@]}"; do
		for _ in {1..50}; do
			[[ -S $s ]] && break
			sleep 0.1
		done
		[[ -S $s ]] || return 1
	done
}

# opts_re(): the ERE of a message of exit 2 that blames an option of the
# command line, as a usage error does: "PROG: error: --OPTION...".
opts_re()
{
	local a alt=

	for a in "${ARGS[@]:1}"; do
		[[ $a =~ ^--[a-z-]+$ ]] && alt+="${alt:+|}$a"
	done
	[[ -n $alt ]] && echo "^${ARGS[0]}: error: ($alt)[: ]"
}

# check(): run one case and judge it; one result.
check()
{
	local prog=$1 c=$2 name=${2#"$FUZZ"/} in=/dev/null rc bad=() re opts f

	if ! setup "$prog" "$c"; then
		t_fail "$name" "expected a run directory, actual: setup failed"
		return
	fi
	args
	if ((${#SOCKS[@]})) && ! command -v python3 > /dev/null; then
		t_skip "$name" "python3 not found: no socket to listen on"
		return
	fi
	if ! listen; then
		[[ -n $LISTENER ]] && kill "$LISTENER" && wait "$LISTENER" 2> /dev/null
		t_fail "$name" "expected a listening socket at ${SOCKS[*]}, actual: none"
		return
	fi
	[[ $prog == cacheio || $prog == b4prep ]] && in=$RUN/in
	if [[ $prog == modusers ]]; then
		# The sources asked about, empty (no *.c among the fixtures:
		# lint would take them for ours).
		for f in "${ARGS[@]:3}"; do
			mkdir -p "$RUN/${f%/*}" && : > "$RUN/$f"
		done
	fi
	(cd "$RUN" && timeout 10 "$T_BIN/$prog" "${ARGS[@]:1}" < "$in" \
		> "$T_TMP/stdout" 2> "$T_TMP/stderr")
	rc=$?
	if [[ -n $LISTENER ]]; then
		kill "$LISTENER"
		wait "$LISTENER" 2> /dev/null
	fi
	if ((rc == 124)); then
		bad+=("expected an end within 10 s, actual: killed by timeout")
	elif [[ " ${RCS[$prog]} " != *" $rc "* ]]; then
		bad+=("expected exit ${RCS[$prog]// /, }; actual exit $rc")
	fi
	if grep -Eq 'ERROR: AddressSanitizer|runtime error:' "$T_TMP/stderr"; then
		bad+=("expected no sanitizer report, actual:"
		      "$(grep -Em 3 'ERROR: AddressSanitizer|runtime error:|^    #[0-3] ' "$T_TMP/stderr")")
	fi
	re=$(where_re "$prog")
	opts=$(opts_re)
	if ((rc == 2)) && ! grep -Eq -- "$re" "$T_TMP/stderr" &&
	   ! { [[ -n $opts ]] && grep -Eq -- "$opts" "$T_TMP/stderr"; }; then
		bad+=("expected exit 2 with a location (/$re/${opts:+ or /$opts/}), actual message:"
		      "$(head -c 300 "$T_TMP/stderr")")
	fi
	if ((${#bad[@]})); then
		t_fail "$name: ${ARGS[0]}, exit $rc" "${bad[@]}" \
			"command: ${ARGS[*]}"
	else
		t_ok "$name: ${ARGS[0]}, exit $rc"
	fi
}

CASES=()
for prog in "${!RCS[@]}"; do
	# Not pending/: reproducers of what is not fixed yet (README).
	for c in "$FUZZ/$prog"/corpus/*/ "$FUZZ/$prog"/crashes/*/; do
		[[ -f "$c/cmd" ]] && CASES+=("$prog ${c%/}")
	done
done
mapfile -t CASES < <(printf '%s\n' "${CASES[@]}" | sort)

t_plan $((${#CASES[@]} + 1))
t_eq "every program has fuzz cases" "abi b4prep cacheio distlog findings globals hangsym modusers report series tags triage" \
	"$(printf '%s\n' "${CASES[@]}" | cut -d ' ' -f 1 | sort -u | xargs)"
for c in "${CASES[@]}"; do
	check "${c%% *}" "${c#* }"
done

t_done
