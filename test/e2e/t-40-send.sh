#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-40-send.sh - end-to-end test of `make send` (tools/send.sh and b4)
# against a real SMTP server that this test starts on 127.0.0.1: an
# aiosmtpd with test/fixtures/send/smtpsink.py, which keeps every message
# and its envelope and relays nothing. Git and b4 see only a temporary
# HOME and global config that point at it; the user's are not read.
#
# It needs a passed bisect-check of series.yaml in WORKDIR (the e2e
# bisect tests run before this file); without one it runs
# tools/bisect-check first, which takes minutes.
#
# Checks, in order: `make send` writes the 4 messages and sends nothing;
# `make send ABI=1` prints the exported ABI per patch (3/3's two removals
# on every target) and writes and sends nothing; SEND=1 (and ABI=1 on a
# changed patch) is refused (exit 1, nothing sent) with no run, a failed run, a
# partial run, a run of another series file, a different base, a changed
# patch, a sender who did not sign off; SEND=reflect sends them to the
# sender only; SEND=1, by the author, sends them:
# subjects, threading, Message-ID, Date, To, Cc of .b4-config, envelope;
# and `git am` of what was received gives back the checked tree, authors
# and patch ids. b4 0.12 dates each message at sending, so a commit's
# author date after the round trip is its message's Date, not the
# original one. Then `make range-diff` (tools/range-diff.sh): v1 against v2 on
# the v2 base, in a sparse worktree it leaves nowhere.

# shellcheck source=test/lib.sh source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"

KREPO=$WORKDIR/kernel.git
FIX=$T_TOP/test/fixtures/send
SERIES_FILE=$T_TOP/series.yaml
NAME=unexport-kallsyms
VERSION=2
BASE_REF=refs/heads/bisect/$NAME/v$VERSION-base
TIP_REF=refs/heads/bisect/$NAME/v$VERSION
TAG=refs/tags/sent/$NAME-v$VERSION
MAILDIR=$T_TMP/received
SENDER_NAME="Test Sender"
SENDER=sender@bisect-check.test
# The author, who sends for real (SEND=1): whoever sends must have signed
# off every patch (tools/send.sh check_sender).
AUTHOR=will@kernel.org
AUTHOR_NAME="Will Deacon"
SUBJECTS=(
	"[PATCH v2 0/3] Unexport kallsyms_lookup_name() and kallsyms_on_each_symbol()"
	"[PATCH v2 1/3] samples/hw_breakpoint: Drop HW_BREAKPOINT_R when reporting writes"
	"[PATCH v2 2/3] samples/hw_breakpoint: Drop use of kallsyms_lookup_name()"
	"[PATCH v2 3/3] kallsyms: Unexport kallsyms_lookup_name() and kallsyms_on_each_symbol()"
)
SMTP_PID=
RT=$T_TMP/roundtrip
declare -a MSG=()

# mc(): the mail header reader (test/fixtures/send/mailcheck.py).
mc()
{
	/usr/bin/python3 "$FIX/mailcheck.py" "$@"
}

# mail_count(): how many messages the SMTP server has received.
mail_count()
{
	local -a f
	f=("$MAILDIR"/*.eml)
	[[ -e "${f[0]}" ]] || { echo 0; return; }
	echo "${#f[@]}"
}

# smtp_start(): start the SMTP server on a free port of 127.0.0.1 and
# wait until it answers (a few tries, in case another process takes the
# port between asking for it and listening); sets SMTP_PORT, SMTP_PID.
smtp_start()
{
	local try i

	mkdir -p "$MAILDIR"
	for try in 1 2 3 4 5; do
		SMTP_PORT=$(/usr/bin/python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
		echo "# smtp: try $try, port $SMTP_PORT" >> "$T_TMP/smtpd.log"
		PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$FIX /usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" \
			-c smtpsink.Saver "$MAILDIR" >> "$T_TMP/smtpd.log" 2>&1 &
		SMTP_PID=$!
		for ((i = 0; i < 100; i++)); do
			kill -0 "$SMTP_PID" 2> /dev/null || break
			if /usr/bin/python3 -c 'import smtplib, sys
smtplib.SMTP("127.0.0.1", int(sys.argv[1]), timeout=5).quit()' "$SMTP_PORT" 2> /dev/null; then
				return 0
			fi
			sleep 0.1
		done
		smtp_stop
	done
	return 1
}

# smtp_stop(): stop the SMTP server this test started.
smtp_stop()
{
	if [[ -n "$SMTP_PID" ]]; then
		kill "$SMTP_PID" 2> /dev/null
		wait "$SMTP_PID" 2> /dev/null
		SMTP_PID=
	fi
	return 0
}

# tag_cleanup(): delete the tag b4 makes when it sends, unless it was
# there before this test (then it is the user's record of a real send).
# shellcheck disable=SC2317  # run by the defer stack
tag_cleanup()
{
	if [[ "$TAG_BEFORE" == no ]]; then
		git --git-dir="$KREPO" update-ref -d "$TAG" 2> /dev/null
	fi
	return 0
}

# rt_cleanup(): remove the round-trip worktree.
# shellcheck disable=SC2317  # run by the defer stack
rt_cleanup()
{
	git --git-dir="$KREPO" worktree remove --force "$RT" > /dev/null 2>&1
	rm -rf "$RT"
	git --git-dir="$KREPO" worktree prune > /dev/null 2>&1
}

# send_make(): `make send` with the given variables.
# shellcheck disable=SC2317  # run by t_rc
send_make()
{
	make -C "$T_TOP" --no-print-directory send "$@"
}

# new_messages(): MSG[0..] = the messages received since there were $1,
# ordered by the N of [PATCH v2 N/3].
new_messages()
{
	local before=$1; shift
	local n f k

	MSG=()
	n=$(mail_count)
	for ((k = before + 1; k <= n; k++)); do
		f=$(printf '%s/%03d.eml' "$MAILDIR" "$k")
		MSG[$(mc counter "$f")]=$f
	done
}

# last_run(): print the run dir of the last bisect-check of the series:
# last-run/NAME-vVERSION is a symlink to it (or a file naming it).
last_run()
{
	local f=$WORKDIR/last-run/$NAME-v$VERSION
	if [[ -d "$f" ]]; then
		(cd -P "$f" && pwd)
	elif [[ -f "$f" ]]; then
		head -n 1 "$f"
	fi
}

# run_is_current(): true when $RUN checked all steps and targets of
# series.yaml with the patch files as they are now (the same patch ids).
run_is_current()
{
	local kind b ids='' want steps targets

	[[ -r "$RUN/series.tsv" ]] || return 1
	while IFS=$'\t' read -r kind _ b _; do
		[[ "$kind" == patch ]] || continue
		ids+="$(git patch-id --stable < "$b" | cut -d' ' -f1) "
	done < <("$T_BIN/series" "$SERIES_FILE")
	want=$(awk -F'\t' '$1 == "patch-id" { printf "%s ", $3 }' "$RUN/series.tsv")
	steps=$(awk -F'\t' '$1 == "steps" { print $2 }' "$RUN/series.tsv")
	targets=$(awk -F'\t' '$1 == "targets" { print $2 }' "$RUN/series.tsv")
	[[ "$ids" == "$want" && "${steps:-all}" == all && "$targets" == all ]]
}

# fake_run(): a copy of the passed run's series.tsv in directory $1 with
# the line of key $2 (and index $3 for patch-id) set to value $4.
fake_run()
{
	local dir=$1; shift
	local key=$1; shift
	local idx=$1; shift
	local val=$1; shift

	mkdir -p "$dir"
	awk -F'\t' -v OFS='\t' -v k="$key" -v i="$idx" -v v="$val" '
		$1 == k && k != "patch-id" { $2 = v; seen = 1 }
		$1 == k && k == "patch-id" && $2 == i { $3 = v; seen = 1 }
		{ print }
		END { if (!seen) print k, v }' "$RUN/series.tsv" > "$dir/series.tsv"
}

# refused(): SEND=1 with LAST_RUN=$1 exits 1 and says reason $2 (ERE).
refused()
{
	local run=$1; shift
	local reason=$1; shift
	local what=$1; shift

	t_rc "SEND=1 refused: $what (exit 1)" 1 \
		env SEND=1 LAST_RUN="$run" SEND_OUT="$T_TMP/out-refused" "$T_TOP/tools/send.sh"
	t_grep "SEND=1 refused: $what: says why" "$reason" "$T_OUT"
}

T_START=$(now_ms)
t_plan 60
defer_init
defer rm -rf "$T_TMP"

# A bisect-check of series.yaml as it is now, run with the user's own
# settings when there is none (or only a partial or outdated one).
RUN=$(last_run)
if ! run_is_current; then
	echo "# no full bisect-check of the current $NAME v$VERSION in $WORKDIR: running tools/bisect-check (minutes)"
	"$T_TOP/tools/bisect-check" "$SERIES_FILE" > "$T_TMP/bisect-check.log" 2>&1 ||
		tail -n 20 "$T_TMP/bisect-check.log" | sed 's/^/# /'
	RUN=$(last_run)
fi
RUN_EXIT=$(awk -F'\t' '$1 == "exit" { print $2 }' "$RUN/series.tsv" 2> /dev/null)
t_eq "the last bisect-check of series.yaml passed (${RUN:-no run})" 0 "$RUN_EXIT"
BASE=$(git --git-dir="$KREPO" rev-parse -q --verify "$BASE_REF^{commit}")
TIP=$(git --git-dir="$KREPO" rev-parse -q --verify "$TIP_REF^{commit}")
if git --git-dir="$KREPO" rev-parse -q --verify "$TAG" > /dev/null; then
	TAG_BEFORE=yes
else
	TAG_BEFORE=no
fi
defer tag_cleanup

# From here on, nothing of the user's: temporary HOME and git config.
unset GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_DIR GIT_WORK_TREE EMAIL \
	GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE \
	SEND SEND_OUT LAST_RUN SIGN AUTO_CC
export WORKDIR
export HOME=$T_TMP/home
export XDG_CONFIG_HOME=$HOME/.config XDG_CACHE_HOME=$HOME/.cache XDG_DATA_HOME=$HOME/.local/share
export GIT_CONFIG_GLOBAL=$HOME/gitconfig GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"

defer smtp_stop
if smtp_start; then
	t_ok "SMTP server answers on 127.0.0.1:$SMTP_PORT"
else
	t_fail "SMTP server answers on 127.0.0.1" "$(tail -n 5 "$T_TMP/smtpd.log")"
fi
cat > "$GIT_CONFIG_GLOBAL" <<EOF
[user]
	name = $SENDER_NAME
	email = $SENDER
[sendemail]
	smtpserver = 127.0.0.1
	smtpserverport = $SMTP_PORT
EOF

# make send: the messages are written, nothing is sent.
t=$(now_ms)
t_rc "make send exits 0" 0 send_make SEND_OUT="$T_TMP/out-dry"
n=$(find "$T_TMP/out-dry" -name '*.eml' 2> /dev/null | wc -l)
t_eq "make send writes 4 messages into SEND_OUT" 4 "$n"
t_eq "make send prints a block per message" 4 "$(grep -cE '^\[PATCH v2 [0-3]/3\] ' "$T_OUT")"
t_eq "make send sends nothing" 0 "$(mail_count)"
echo "# time: make send $(fmt_ms $(($(now_ms) - t)))"

# make send ABI=1: the exported ABI per patch, by the passed run's abi
# cells, for the sender to paste; no message written or sent.
t=$(now_ms)
emls=$(find "$RUN" "$WORKDIR/send" -name '*.eml' 2> /dev/null | wc -l)
t_rc "make send ABI=1 exits 0" 0 send_make ABI=1
t_grep "make send ABI=1: the three targets agree" \
	'^Exported ABI per patch \(x86_64-gcc, arm64-gcc, x86_64-clang agree\):$' "$T_OUT"
t_eq "make send ABI=1: 3/3 removes its two exports" \
	"      -2 exports: kallsyms_lookup_name (EXPORT_SYMBOL_GPL, vmlinux),|        kallsyms_on_each_symbol (EXPORT_SYMBOL_GPL, vmlinux)" \
	"$(grep -A2 '^  3/3 kallsyms: ' "$T_OUT" | tail -n 2 | paste -sd '|')"
t_eq "make send ABI=1: 1/3 and 2/3 change no export" "      no change|      no change" \
	"$(grep -A1 -E '^  [12]/3 ' "$T_OUT" | grep -vE '^  [12]/3 |^--' | paste -sd '|')"
t_eq "make send ABI=1 writes no message and sends none" "$emls 0" \
	"$(find "$RUN" "$WORKDIR/send" -name '*.eml' 2> /dev/null | wc -l) $(mail_count)"
echo "# time: make send ABI=1 $(fmt_ms $(($(now_ms) - t)))"

# SEND=1 refused: the reason, and still nothing sent.
t=$(now_ms)
refused "$T_TMP/run-none" 'no run' "no run"
fake_run "$T_TMP/run-failed" exit - 1
refused "$T_TMP/run-failed" "run failed: exit 1 \\(report: " "the run failed"
fake_run "$T_TMP/run-partial" steps - "0 1"
refused "$T_TMP/run-partial" 'partial run: only steps 0 1 were checked' "a partial run"
fake_run "$T_TMP/run-targets" targets - "x86_64-gcc"
refused "$T_TMP/run-targets" 'partial run: only targets x86_64-gcc were checked' "a run of some targets"
fake_run "$T_TMP/run-series" series - "$T_TMP/other.yaml"
refused "$T_TMP/run-series" "another series file: the run checked $T_TMP/other.yaml" "another series file"
fake_run "$T_TMP/run-base" base - 0123456789abcdef0123456789abcdef01234567
refused "$T_TMP/run-base" 'different base: the run checked 0123456789ab' "another base"
fake_run "$T_TMP/run-patch" patch-id 2 0123456789abcdef0123456789abcdef01234567
refused "$T_TMP/run-patch" 'patch 2 changed since the check' "patch 2 changed"
t_grep "SEND=1 refused: says what to do" "next: run 'make bisect-check" "$T_OUT"
t_rc "ABI=1 refused: patch 2 changed (exit 1)" 1 \
	env LAST_RUN="$T_TMP/run-patch" "$T_TOP/tools/send.sh" --abi
t_grep "ABI=1 refused: says why" 'patch 2 changed since the check' "$T_OUT"
t_grep "ABI=1 refused: says what to do" "then 'make send ABI=1' again when it passes" "$T_OUT"
t_nogrep "ABI=1 refused: prints no summary" '^Exported ABI' "$T_OUT"
# A passing run, but the sender signed off none of the patches.
refused "$RUN" "patch 1 \\(0001-[^)]*\\): no Signed-off-by: of the sender <$SENDER>: you send it as $SENDER_NAME <$SENDER>, so add your Signed-off-by as its last trailer" \
	"the sender did not sign off"
t_eq "SEND=1 refused: nothing sent" 0 "$(mail_count)"
echo "# time: refusals $(fmt_ms $(($(now_ms) - t)))"

# SEND=reflect: all four, to the sender only.
t=$(now_ms)
before=$(mail_count)
t_rc "make send SEND=reflect exits 0" 0 send_make SEND=reflect SEND_OUT="$T_TMP/out-reflect"
t_eq "SEND=reflect sends 4 messages" $((before + 4)) "$(mail_count)"
rcpts=
for ((k = before + 1; k <= before + 4; k++)); do
	rcpts+="$(mc rcpt "$(printf '%s/%03d.rcpt' "$MAILDIR" "$k")");"
done
t_eq "SEND=reflect delivers to the sender only" "$SENDER;$SENDER;$SENDER;$SENDER;" "$rcpts"
echo "# time: SEND=reflect $(fmt_ms $(($(now_ms) - t)))"

# SEND=1: the real thing, sent by the author, who signed off every patch
# (b4 Cc's the patches' Signed-off-by all the same).
git config --file "$GIT_CONFIG_GLOBAL" user.name "$AUTHOR_NAME"
git config --file "$GIT_CONFIG_GLOBAL" user.email "$AUTHOR"
t=$(now_ms)
before=$(mail_count)
t_rc "make send SEND=1 exits 0" 0 send_make SEND=1 SEND_OUT="$T_TMP/out-send"
t_eq "SEND=1 sends 4 messages" $((before + 4)) "$(mail_count)"
new_messages "$before"
for k in 0 1 2 3; do
	t_eq "message $k/3: subject" "${SUBJECTS[k]}" "$(mc header "${MSG[k]:-/dev/null}" Subject)"
done
ids=
for k in 0 1 2 3; do
	ids+="$(mc ids "${MSG[k]:-/dev/null}" 2>&1);"
done
t_eq "every message has one valid Message-ID and Date" "ok;ok;ok;ok;" "$ids"
cover_id=$(mc header "${MSG[0]:-/dev/null}" Message-ID)
for k in 1 2 3; do
	t_eq "message $k/3: In-Reply-To and References are the cover's Message-ID" \
		"$cover_id $cover_id" \
		"$(mc header "${MSG[k]:-/dev/null}" In-Reply-To) $(mc header "${MSG[k]:-/dev/null}" References)"
done
want_to=$(mc parse-addrs "$(git config --file "$T_TOP/.b4-config" b4.send-series-to)")
want_cc=$(mc parse-addrs "$(git config --file "$T_TOP/.b4-config" b4.send-series-cc), $AUTHOR")
to='' cc='' env_ok=''
for k in 0 1 2 3; do
	to+="$(mc addrs "${MSG[k]:-/dev/null}" To);"
	cc+="$(mc addrs "${MSG[k]:-/dev/null}" Cc);"
	f=${MSG[k]:-/dev/null}
	if [[ "$(mc rcpt "${f%.eml}.rcpt" 2> /dev/null)" == "$(mc addrs "$f" To Cc)" ]]; then
		env_ok+="ok;"
	else
		env_ok+="$k differs;"
	fi
done
t_eq "To: of every message is .b4-config's send-series-to" "$want_to;$want_to;$want_to;$want_to;" "$to"
t_eq "Cc: of every message is .b4-config's send-series-cc and the Signed-off-by" \
	"$want_cc;$want_cc;$want_cc;$want_cc;" "$cc"
t_eq "every message is delivered to its To: and Cc:" "ok;ok;ok;ok;" "$env_ok"
t_grep "the cover letter names the base (the preparation commit)" "^base-commit: $BASE\$" "${MSG[0]:-/dev/null}"
left=$(git --git-dir="$KREPO" worktree list --porcelain | grep -c "^worktree $WORKDIR/send-wt\$")
left+=" $(git --git-dir="$KREPO" for-each-ref --count=1 "refs/heads/b4/$NAME" | wc -l)"
t_eq "the send worktree and branch b4/$NAME are gone" "0 0" "$left"
echo "# time: SEND=1 $(fmt_ms $(($(now_ms) - t)))"

# Round trip: what was received, applied with git am on the base.
t=$(now_ms)
defer rt_cleanup
{
	git --git-dir="$KREPO" worktree add -q -f --no-checkout --detach "$RT" "$BASE" &&
		gitdir=$(git -C "$RT" rev-parse --absolute-git-dir) &&
		mkdir -p "$gitdir/info" &&
		{
			printf '/*\n!/*/\n'
			sed -n 's|^diff --git a/\([^/ ]*\)/.* b/.*|/\1/|p' "${MSG[@]:1}" | sort -u
		} > "$gitdir/info/sparse-checkout" &&
		git -C "$RT" -c core.sparseCheckout=true read-tree -mu HEAD
} > "$T_TMP/roundtrip.log" 2>&1
t_rc "git am of the received 1/3..3/3 on the base" 0 \
	git -C "$RT" -c core.sparseCheckout=true -c core.hooksPath=/dev/null am "${MSG[@]:1}"
t_eq "round trip: the same tree as the checked series" \
	"$(git --git-dir="$KREPO" rev-parse "$TIP^{tree}" 2>&1)" "$(git -C "$RT" rev-parse "HEAD^{tree}" 2>&1)"
t_eq "round trip: the same author of each commit" \
	"$(git --git-dir="$KREPO" log --reverse --format='%an <%ae>' "$BASE..$TIP" 2>&1)" \
	"$(git -C "$RT" log --reverse --format='%an <%ae>' "$BASE..HEAD" 2>&1)"
dates=
for k in 1 2 3; do
	dates+="$(mc epoch "${MSG[k]:-/dev/null}" 2>&1)"$'\n'
done
t_eq "round trip: each author date is its message's Date (b4 dates at sending)" \
	"${dates%$'\n'}" "$(git -C "$RT" log --reverse --format=%at "$BASE..HEAD" 2>&1)"
echo "# the checked author dates: $(git --git-dir="$KREPO" log --reverse --format=%aD "$BASE..$TIP" | paste -sd ';')"
ids=
for c in $(git -C "$RT" rev-list --reverse "$BASE..HEAD" 2> /dev/null); do
	ids+="$(git -C "$RT" show "$c" | git patch-id --stable | cut -d' ' -f1) "
done
t_eq "round trip: the patch ids of the checked run" \
	"$(awk -F'\t' '$1 == "patch-id" { printf "%s ", $3 }' "$RUN/series.tsv" 2> /dev/null)" "$ids"
echo "# time: round trip $(fmt_ms $(($(now_ms) - t)))"

# --- make range-diff: v1 as posted against v2, on the v2 base ---
t=$(now_ms)
t_rc "range-diff: v1 against v2 (tools/range-diff.sh), exit 0" 0 "$T_TOP/tools/range-diff.sh"
t_eq "range-diff: 1/3 and 2/3 changed from v1, 3/3 the same" "1 ! 1|2 ! 2|3 = 3" \
	"$(sed -En 's/^ *([0-9]+): +[0-9a-f]+ ([!=]) +([0-9]+): .*/\1 \2 \3/p' "$T_OUT" | paste -sd '|')"
t_grep "range-diff: 2/3's v2 puts the symbol with __symbol_put()" \
	'^ *\+\+.*__symbol_put\(ksym_name\);' "$T_OUT"
t_eq "range-diff: no worktree left, on disk or in the kernel repo" "|" \
	"$(ls -d "$WORKDIR/range-diff-wt" 2> /dev/null)|$(git --git-dir="$KREPO" worktree list |
		grep range-diff-wt)"
echo "# time: range-diff $(fmt_ms $(($(now_ms) - t)))"
echo "# time: total $(fmt_ms $(($(now_ms) - T_START)))"

t_done
