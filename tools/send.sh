#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# send.sh - turn the checked series into mail with b4 (`make send`).
#
# In a throwaway worktree of the kernel repo it makes branch b4/NAME: the
# -base commit of the last bisect-check (the preparation, never sent) and
# `git am` of the series' patches. `b4 prep` enrolls it with that commit
# as fork point, takes the cover letter from the series' cover letter,
# the revision from its version, the recipients from .b4-config and
# get_maintainer.pl (--auto-to-cc). Then, by SEND:
#   unset or 0  `b4 send -o SEND_OUT`: write the messages, send nothing
#   1           send them with your git sendemail / b4 settings
#   reflect     `b4 send --reflect`: send them to yourself only
# SEND=1 and SEND=reflect first require that the last bisect-check of
# exactly this series passed: this series file, all steps, exit 0, the
# same base commit, the same patch ids as the commits being sent.
# --abi (make send ABI=1), under the same requirement, prints what each
# patch does to the exported symbols, by that run's abi cells, for the
# sender to paste into the cover letter; it writes and sends nothing.
#
# Usage: tools/send.sh [--abi] [SERIES.yaml]
# Environment: SERIES, WORKDIR, SEND, SEND_OUT, V=1, KEEP=1, and
#   SIGN=auto|1|0  patatt-sign the messages: auto (default) signs when
#                  patatt.signingkey or user.signingkey is set
#   AUTO_CC=1|0    ask get_maintainer.pl through b4 (default 1)
#   LAST_RUN=dir   the run dir to check instead of the one named by
#                  WORKDIR/last-run/NAME-vVERSION
# Exit: 0 written or sent (--abi: printed), 1 refused or failed, 2 usage
#   or setup error.

# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tools/series.sh
source "$TOP/tools/series.sh"
# shellcheck source=tools/worktree.sh
source "$TOP/tools/worktree.sh"

ABI_ONLY=0
if [[ "${1:-}" == --abi ]]; then
	ABI_ONLY=1
	shift
fi
SERIES=${1:-$SERIES}
KREPO=$WORKDIR/kernel.git
WT=$WORKDIR/send-wt
LOG=$WORKDIR/send.log
B4CONFIG=$(b4_config_of "$SERIES")

declare -a PATCHES=() FILE_IDS=() SENT_IDS=() RUN_IDS=() WHY=()
# The series' name, version and cover letter (load).
NAME='' VERSION='' COVER=''

# usage(): print the usage and exit with $1.
usage()
{
	sed -n 's/^# \{0,1\}//; 4,30p' "$0"
	exit "$1"
}

# refuse(): print why $1 (sending, or --abi's summary) is refused, what
# to do (then $2, default sending again), and exit 1.
refuse()
{
	local what=$1; shift
	local again=${1:-send again when it passes}
	local line

	msg "error: refusing to $what:"
	for line in "${WHY[@]}"; do
		printf '  - %s\n' "$line" >&2
	done
	msg "next: run 'make bisect-check SERIES=$SERIES', then $again"
	exit "$EXIT_FAIL"
}

# step(): announce a step of the send, with the time since the start.
step()
{
	local t

	elapsed_ms t
	fmt_ms_to t "$t"
	msg "$(printf '[%6s] %s' "$t" "$*")"
}

# Git config of every git command in the send worktree, b4's included:
# none of the user's hooks, and a sparse checkout (see sparse_patterns).
# Given on the command line (-c, GIT_CONFIG_*), so the kernel repo's own
# config stays as it is.
WT_CONFIG=(core.hooksPath=/dev/null core.sparseCheckout=true)

# git_wt(): git in the send worktree.
git_wt()
{
	local -a cfg=()
	local kv
	for kv in "${WT_CONFIG[@]}"; do
		cfg+=(-c "$kv")
	done
	git -C "$WT" "${cfg[@]}" "$@"
}

# check_tools(): die with a hint when a tool that sending needs is missing.
check_tools()
{
	local t

	for t in git b4 perl flock; do
		command -v "$t" > /dev/null ||
			die "$t is missing: run 'tools/deps.sh send' (or 'make deps')"
	done
	[[ -x /usr/bin/python3 ]] ||
		die "/usr/bin/python3 is missing: run 'tools/deps.sh send'"
	/usr/bin/python3 -c 'import git_filter_repo' 2> /dev/null ||
		die "git-filter-repo is missing (b4 prep needs it): apt-get install git-filter-repo"
	[[ -x "$TOP/tools/bin/series" ]] ||
		die "tools/bin/series is not built: run 'make tools'"
	[[ -f "$B4CONFIG" ]] || die "$B4CONFIG is missing: it holds the recipients"
}

# send_series(): name, version, cover letter and patches of $SERIES,
# through the one series loader (series.sh).
send_series()
{
	local i n

	load_series "$SERIES"
	series_get NAME name
	series_get VERSION version
	series_get COVER cover
	# A series may leave its cover letter out: it is checked, not sent
	# (and --abi prints for one yet to be written).
	[[ -n "$COVER" || "$ABI_ONLY" == 1 ]] ||
		die "$SERIES: the series has no cover-letter, and sending needs one: add cover-letter: FILE to it (b4's cover format: subject, empty line, body)"
	series_nsteps n
	for ((i = 1; i < n; i++)); do
		series_patch "PATCHES[$i]" "$i"
	done
	((${#PATCHES[@]} > 0)) || die "$SERIES: no patches to send"
	BRANCH=b4/$NAME
	BASE_REF=refs/heads/bisect/$NAME/v$VERSION-base
	TAG=sent/$NAME-v$VERSION
}

# check_cover(): the cover letter must be in b4's format: subject, empty
# line, body; b4 drops '#' lines and refuses to send 'EDITME'.
check_cover()
{
	local first second

	[[ -r "$COVER" ]] || die "cover letter $COVER is not readable"
	{ IFS= read -r first; IFS= read -r second; } < "$COVER"
	[[ -n "$first" && -z "$second" ]] ||
		die "$COVER: the first line must be the subject and the second empty (b4's cover format)"
	if grep -q '^#' "$COVER"; then
		die "$COVER: b4 drops the lines that start with '#'; reword them"
	fi
	if grep -q EDITME "$COVER"; then
		die "$COVER: b4 refuses to send a cover letter that says EDITME"
	fi
}

# patch_id(): print the stable patch id of the patch on stdin (empty when
# there is no diff, as for b4's cover letter commit).
patch_id()
{
	local out
	out=$(git patch-id --stable)
	printf '%s\n' "${out%% *}"
}

# run_dir(): print the run dir of the last bisect-check of this series:
# WORKDIR/last-run/NAME-vVERSION is a symlink to it (or a file naming it).
run_dir()
{
	local f=$WORKDIR/last-run/$NAME-v$VERSION
	if [[ -n "$LAST_RUN" ]]; then
		printf '%s\n' "$LAST_RUN"
	elif [[ -d "$f" ]]; then
		(cd -P "$f" && pwd)
	elif [[ -f "$f" ]]; then
		head -n 1 "$f"
	fi
}

# compare_ids(): add a reason to WHY for each patch whose id in the array
# named $1 differs from the run's (RUN_IDS).
compare_ids()
{
	local -n ids=$1
	local n=${#RUN_IDS[@]} i

	if ((${#ids[@]} != n)); then
		WHY+=("the series has ${#ids[@]} patch(es), the checked run had $n")
		return
	fi
	for ((i = 1; i <= n; i++)); do
		if [[ "${ids[i]}" != "${RUN_IDS[i]}" ]]; then
			WHY+=("patch $i changed since the check: patch id ${ids[i]:0:12}, checked ${RUN_IDS[i]:0:12} (${PATCHES[i]##*/})")
		fi
	done
}

# check_sender(): add to WHY each patch the sender did not sign off, or
# not last: b4 sends as git's user.name <user.email>, and whoever sends
# a patch certifies it with their Signed-off-by, the last one (the DCO;
# tools/bin/tags --sender). The replay cannot know who sends: this is
# where it is known.
check_sender()
{
	local name email out rc i kind msg

	name=$(git config --get user.name)
	email=$(git config --get user.email)
	for i in "${!PATCHES[@]}"; do
		out=$("$TOP/tools/bin/tags" --patch "${PATCHES[i]}" --sender "$name <$email>" 2>&1)
		rc=$?
		if ((rc > 1)); then
			WHY+=("patch $i: tools/bin/tags cannot read ${PATCHES[i]}: $out")
			continue
		fi
		while IFS=$'\t' read -r _ kind msg _; do
			case $kind in
			missing-sender-sob|sender-sob-not-last)
				WHY+=("patch $i (${PATCHES[i]##*/}): $msg: you send it as $name <$email>, so add your Signed-off-by as its last trailer")
				;;
			esac
		done <<< "$out"
	done
}

# check_run(): fill WHY with the reasons the last bisect-check of this
# series does not vouch for what is being sent; empty WHY means it does.
check_run()
{
	local dir tsv key a b rexit='' rbase='' rname='' rversion='' rsteps=all rseries=''
	local rtargets=all
	local report base

	WHY=()
	RUN_IDS=()
	dir=$(run_dir)
	tsv=$dir/series.tsv
	if [[ -z "$dir" || ! -r "$tsv" ]]; then
		WHY+=("no run: no bisect-check of $NAME v$VERSION recorded${dir:+ (no $tsv)}")
		return
	fi
	RUN=$dir
	while IFS=$'\t' read -r key a b; do
		case $key in
		series) rseries=$a ;;
		name) rname=$a ;;
		version) rversion=$a ;;
		base) rbase=$a ;;
		exit) rexit=$a ;;
		steps) rsteps=$a ;;
		targets) rtargets=$a ;;
		patch-id) RUN_IDS[a]=$b ;;
		esac
	done < "$tsv"
	if [[ "$rname" != "$NAME" || "$rversion" != "$VERSION" ]]; then
		WHY+=("the run $dir is of $rname v$rversion, not of $NAME v$VERSION")
	fi
	if [[ "$rseries" != "$(realpath "$SERIES")" ]]; then
		WHY+=("another series file: the run checked ${rseries:-none recorded}, not $(realpath "$SERIES")")
	fi
	if [[ "$rexit" != 0 ]]; then
		report=$dir/matrix.txt
		[[ -f "$report" ]] || report=$dir
		WHY+=("run failed: exit ${rexit:-none recorded} (report: $report)")
	fi
	if [[ "$rsteps" != all ]]; then
		WHY+=("partial run: only steps $rsteps were checked (STEPS=$rsteps)")
	fi
	if [[ "$rtargets" != all ]]; then
		WHY+=("partial run: only targets $rtargets were checked (TARGETS=$rtargets)")
	fi
	base=$(git_repo rev-parse -q --verify "$BASE_REF^{commit}")
	if [[ -z "$base" ]]; then
		WHY+=("no $BASE_REF in $KREPO")
	elif [[ "$base" != "$rbase" ]]; then
		WHY+=("different base: the run checked ${rbase:0:12}, ${BASE_REF#refs/heads/} is ${base:0:12}")
	fi
	compare_ids "${1:-FILE_IDS}"
}

# file_ids(): the patch ids of the series' patch files, into FILE_IDS.
file_ids()
{
	local i
	for i in "${!PATCHES[@]}"; do
		FILE_IDS[i]=$(patch_id < "${PATCHES[i]}")
		[[ -n "${FILE_IDS[i]}" ]] || die "${PATCHES[i]}: no diff in it (git patch-id found none)"
	done
}

# lock_send(): one send per WORKDIR at a time (the worktree is shared).
lock_send()
{
	exec {SEND_LOCK}>> "$WORKDIR/send.lock" || die "cannot write $WORKDIR/send.lock"
	flock -n "$SEND_LOCK" || die "another send is using $WT: wait for it"
}

# drop_branch(): delete branch b4/NAME and the config b4 keeps for it.
drop_branch()
{
	git_repo branch -D "$BRANCH" > /dev/null 2>&1
	git_repo config --remove-section "branch.$BRANCH" > /dev/null 2>&1
	return 0
}

# cleanup(): remove the worktree and the branch (registered with defer).
cleanup()
{
	if [[ "${KEEP:-0}" == 1 && -d "$WT" ]]; then
		msg "KEEP=1: the worktree stays at $WT on branch $BRANCH (sparse: git -c core.sparseCheckout=true there)"
		return 0
	fi
	worktree_drop "$KREPO" "$WT"
	drop_branch
}


# make_worktree(): a fresh sparse worktree on a new branch b4/NAME at the
# base (worktree_sparse); core.sparseCheckout comes with each command
# (WT_CONFIG).
make_worktree()
{
	if [[ -e "$WT" ]] || git_repo rev-parse -q --verify "refs/heads/$BRANCH" > /dev/null; then
		# We hold the send lock: these are debris of a killed send.
		warn "removing the leftovers of an earlier send ($WT, $BRANCH)"
		cleanup
	fi
	defer cleanup
	step "worktree: $WT (sparse), branch $BRANCH at ${BASE:0:12}"
	worktree_sparse "$LOG" "$WT" "$BASE" "$BRANCH" \
		< <(echo scripts/get_maintainer.pl; patch_paths "${PATCHES[@]}")
	cp "$B4CONFIG" "$WT/.b4-config" || die "worktree: cannot copy .b4-config"
}

# apply_patches(): `git am` the series' patches, authorship kept.
apply_patches()
{
	local i

	for i in "${!PATCHES[@]}"; do
		if ! run_logged "$LOG" git_wt am --quiet --no-message-id --no-3way "${PATCHES[i]}"; then
			git_wt am --abort > /dev/null 2>&1
			die_rc "$EXIT_FAIL" "apply: patch $i (${PATCHES[i]##*/}) does not apply on ${BASE:0:12} (see $LOG): run 'make bisect-check'"
		fi
	done
}

# b4_env(): set B4_ENV, the environment that gives b4's git calls the
# git config WT_CONFIG, b4.prep-cover-strategy=commit (whatever the
# user's default) and the KEY=VALUE pairs given. b4 0.12 has no -c
# option: GIT_CONFIG_COUNT/KEY/VALUE reach every git it runs.
b4_env()
{
	local n=${GIT_CONFIG_COUNT:-0} kv

	B4_ENV=()
	for kv in "${WT_CONFIG[@]}" b4.prep-cover-strategy=commit "$@"; do
		B4_ENV+=("GIT_CONFIG_KEY_$n=${kv%%=*}" "GIT_CONFIG_VALUE_$n=${kv#*=}")
		n=$((n + 1))
	done
	B4_ENV+=("GIT_CONFIG_COUNT=$n")
}

# b4_run(): run b4 in the worktree, logged. Arguments up to '--' are git
# config KEY=VALUE pairs for b4's git calls (see b4_env); the rest are
# b4's.
b4_run()
{
	local -a cfg=()

	while (($#)) && [[ "$1" != -- ]]; do
		cfg+=("$1")
		shift
	done
	shift
	b4_env "${cfg[@]}"
	(cd "$WT" && run_logged "$LOG" env "${B4_ENV[@]}" b4 "$@")
}

# shell_quote(): print $1 single-quoted for b4's shlex.
shell_quote()
{
	local s=$1; shift
	printf "'%s'" "${s//\'/\'\\\'\'}"
}

# prep(): enroll the branch with b4 and set its cover letter, revision
# and recipients.
prep()
{
	local info base rev commits

	step "prep: b4 prep --enroll ${BASE:0:12} (fork point: the preparation commit)"
	b4_run -- prep --enroll "$BASE" ||
		die "prep: b4 prep --enroll failed (see $LOG)"
	# The cover letter is b4's empty commit at the start of the branch;
	# --edit-cover runs core.editor on it, here a copy of our file.
	step "prep: cover letter from ${COVER#"$TOP"/}"
	b4_run "core.editor=cp -- $(shell_quote "$COVER")" -- prep --edit-cover ||
		die "prep: b4 prep --edit-cover failed (see $LOG)"
	step "prep: b4 prep --force-revision $VERSION"
	b4_run -- prep --force-revision "$VERSION" ||
		die "prep: b4 prep --force-revision failed (see $LOG)"
	if [[ "${AUTO_CC:-1}" == 1 ]]; then
		step "prep: b4 prep --auto-to-cc (.b4-config and get_maintainer.pl)"
		b4_run -- prep --auto-to-cc ||
			die "prep: b4 prep --auto-to-cc failed (see $LOG)"
	fi
	b4_env
	info=$(cd "$WT" && env "${B4_ENV[@]}" b4 prep --show-info 2>> "$LOG") ||
		die "prep: b4 prep --show-info failed (see $LOG)"
	base=$(sed -n 's/^base-commit: //p' <<< "$info")
	rev=$(sed -n 's/^revision: //p' <<< "$info")
	commits=$(grep -c '^commit-' <<< "$info")
	[[ "$base" == "$BASE" && "$rev" == "$VERSION" && "$commits" == "${#PATCHES[@]}" ]] ||
		die "prep: b4 sees base ${base:0:12} revision $rev and $commits commit(s), expected ${BASE:0:12} v$VERSION and ${#PATCHES[@]}"
}

# branch_ids(): the patch ids of the commits b4 will send, into SENT_IDS
# (b4's cover letter commit is empty and has none).
branch_ids()
{
	local c id i=0

	SENT_IDS=()
	while read -r c; do
		id=$(git_wt show "$c" | patch_id)
		[[ -n "$id" ]] || continue
		i=$((i + 1))
		SENT_IDS[i]=$id
	done < <(git_wt rev-list --reverse "$BASE..HEAD")
}

# has_signing_key(): true when patatt has a key to sign with.
has_signing_key()
{
	[[ -n "$(git_repo config --get patatt.signingkey)" ||
		-n "$(git_repo config --get user.signingkey)" ]]
}

# sign_args(): set SIGN_ARGS from SIGN and say what it means.
sign_args()
{
	SIGN_ARGS=()
	case ${SIGN:-auto} in
	1) msg "signing with patatt (SIGN=1)" ;;
	0)
		SIGN_ARGS=(--no-sign)
		msg "not signing (SIGN=0)"
		;;
	auto)
		if has_signing_key; then
			msg "signing with patatt (a key is configured; SIGN=0 to not sign)"
		else
			SIGN_ARGS=(--no-sign)
			msg "not signing: no patatt.signingkey or user.signingkey (SIGN=1 to require it)"
		fi
		;;
	*) die "SIGN=$SIGN: expected auto, 1 or 0" ;;
	esac
}

# smtp_server(): print the SMTP server b4 will use ('' for none).
smtp_server()
{
	local id
	id=$(git_repo config --get b4.sendemail-identity)
	if [[ -n "$id" ]]; then
		git_repo config --get "sendemail.$id.smtpserver" && return
	fi
	git_repo config --get sendemail.smtpserver
}

# out_dir(): set OUT, the directory the messages are written to.
out_dir()
{
	local dir

	if [[ -n "${SEND_OUT:-}" ]]; then
		OUT=$SEND_OUT
		if compgen -G "$OUT/*.eml" > /dev/null; then
			die "SEND_OUT=$OUT already holds messages: give an empty or new directory"
		fi
	else
		dir=$(run_dir)
		if [[ -n "$dir" && -d "$dir" ]]; then
			OUT=$dir/send
		else
			OUT=$WORKDIR/send/$NAME-v$VERSION
		fi
		# Ours: start it afresh.
		rm -f "$OUT"/*.eml
	fi
	mkdir -p "$OUT" || die "cannot create $OUT"
}

# print_messages(): one block per message of directory $1: Subject, To, Cc.
print_messages()
{
	local dir=$1; shift

	/usr/bin/python3 - "$dir"/*.eml <<- 'EOF'
		import email, email.policy, os, sys
		for path in sys.argv[1:]:
		    with open(path, 'rb') as f:
		        m = email.message_from_binary_file(f, policy=email.policy.default)
		    print(m['Subject'])
		    for name in ('To', 'Cc'):
		        if m[name] is None:
		            continue
		        addrs = [str(a) for a in m[name].addresses]
		        print('  %s: %s' % (name, ('\n' + ' ' * 6).join(addrs)))
		    print('  file: %s' % os.path.basename(path))
		    print()
	EOF
}

# messages(): print how many messages b4 makes of the series: the cover
# letter and each patch; of one patch, one message, the cover letter's
# text below the patch's "---" (b4 0.12, mixin_cover), as a b4 prep
# branch of one commit gives it.
messages()
{
	local n=${#PATCHES[@]}

	((n == 1)) || n=$((n + 1))
	echo "$n"
}

# write_messages(): `b4 send -o OUT`. b4 0.12 takes the kernel.org web
# endpoint when no sendemail.smtpserver is set in a kernel tree, and that
# path requires signing even with -o; a server that is never contacted
# (-o is a dry run) keeps it on the local path.
write_messages()
{
	local n want

	want=$(messages)
	step "write: b4 send -o $OUT"
	b4_run sendemail.smtpserver=/bin/false -- send "${SIGN_ARGS[@]}" -o "$OUT" ||
		die "write: b4 send -o failed (see $LOG)"
	n=$(compgen -G "$OUT/*.eml" | wc -l)
	((n == want)) ||
		die "write: b4 wrote $n message(s) to $OUT, expected $want"
	print_messages "$OUT"
	msg "wrote $n messages to $OUT"
}

# check_transport(): how b4 will send: set SERVER; without an SMTP
# server b4 uses the kernel.org web endpoint, which needs a signature.
check_transport()
{
	SERVER=$(smtp_server)
	[[ -n "$SERVER" ]] && return 0
	[[ ${#SIGN_ARGS[@]} == 0 ]] ||
		die "no sendemail.smtpserver is set, so b4 would use the kernel.org web endpoint, which needs a patatt signature: set sendemail.smtpserver (see git-send-email(1)) or a patatt key"
	msg "no sendemail.smtpserver: b4 submits through the kernel.org web endpoint (once before: b4 send --web-auth-new)"
}

# send_messages(): `b4 send` for real (or --reflect), answering its
# "Press Enter to proceed" prompt: SEND=1 is the go-ahead.
send_messages()
{
	local -a args=("${SIGN_ARGS[@]}")
	local n tagged verb=Sent

	if [[ "$MODE" == reflect ]]; then
		args+=(--reflect)
		verb=Reflected
	fi
	tagged=$(git_repo rev-parse -q --verify "refs/tags/$TAG")
	step "send: b4 send ${args[*]} via ${SERVER:-the web endpoint}"
	b4_run -- send "${args[@]}" <<< '' ||
		die_rc "$EXIT_FAIL" "send: b4 send failed (see $LOG)"
	n=$(sed -n "s/^$verb \([0-9]*\) messages\$/\1/p" "$LOG" | tail -n 1)
	[[ "$n" == "$(messages)" ]] ||
		die_rc "$EXIT_FAIL" "send: b4 reports ${n:-no} messages sent, expected $(messages) (see $LOG)"
	msg "$verb $n messages of $NAME v$VERSION"
	if [[ "$MODE" == send && -z "$tagged" ]] &&
		git_repo rev-parse -q --verify "refs/tags/$TAG" > /dev/null; then
		msg "b4 tagged what it sent: tag $TAG in $KREPO"
	elif [[ "$MODE" == send ]]; then
		msg "tag $TAG was there already (an earlier send): b4 left it as it was"
	fi
}

# abi_summary(): print the ABI summary of the series (--abi) from its
# last bisect-check, which must be of exactly these patch files and have
# passed (check_run); nothing is written or sent. tools/bin/report --abi
# reads the run's abi cells.
abi_summary()
{
	local t out

	command -v git > /dev/null || die "git is missing: run 'tools/deps.sh send' (or 'make deps')"
	for t in series report; do
		[[ -x "$TOP/tools/bin/$t" ]] ||
			die "tools/bin/$t is not built: run 'make tools'"
	done
	send_series
	[[ -d "$KREPO" ]] || die "no kernel repo at $KREPO: run 'make bisect-check' first"
	if [[ "${SEND:-0}" != 0 ]]; then
		msg "note: SEND=$SEND ignored: --abi (ABI=1) prints the summary and sends nothing"
	fi
	file_ids
	check_run FILE_IDS
	((${#WHY[@]} == 0)) ||
		refuse "print the ABI summary of $NAME v$VERSION" \
			"'make send ABI=1' again when it passes"
	out=$("$TOP/tools/bin/report" --abi "$RUN") ||
		die_rc "$EXIT_FAIL" "tools/bin/report --abi $RUN found no summary (above): run 'make bisect-check SERIES=$SERIES'"
	msg "the exported ABI per patch, by the abi cells of $RUN; paste it into ${COVER:-the cover letter} if you want it there (make send never adds it):"
	printf '%s\n' "$out"
}

# why(): print the reasons in WHY on one line.
why()
{
	local out=
	printf -v out '%s; ' "${WHY[@]}"
	printf '%s\n' "${out%; }"
}

# main(): the gate, the branch, b4 prep, the gate again, b4 send.
main()
{
	local i

	[[ "${1:-}" == -h || "${1:-}" == --help ]] && usage 0
	(($# <= 1)) || usage "$EXIT_SETUP"
	if ((ABI_ONLY)); then
		abi_summary
		return
	fi
	case ${SEND:-0} in
	0) MODE='write' ;;
	1) MODE=send ;;
	reflect) MODE=reflect ;;
	*) die "SEND=$SEND: expected 1, reflect, or nothing to only write the messages" ;;
	esac
	check_tools
	send_series
	check_cover
	[[ -d "$KREPO" ]] || die "no kernel repo at $KREPO: run 'make bisect-check' first"
	git config --get user.email > /dev/null ||
		die "no user.email in your git config: b4 sends as user.name <user.email>"

	# The gate, on the patch files first: a refusal costs nothing.
	step "series $NAME v$VERSION: ${#PATCHES[@]} patches, mode $MODE"
	file_ids
	check_run FILE_IDS
	# A reflection goes to the sender alone: no Signed-off-by needed.
	[[ "$MODE" == reflect ]] || check_sender
	if [[ "$MODE" != write ]]; then
		((${#WHY[@]} == 0)) || refuse "send $NAME v$VERSION"
		step "check: the last bisect-check ($RUN) passed with these patches on ${BASE_REF#refs/heads/}"
		sign_args
		check_transport
	elif ((${#WHY[@]})); then
		msg "note: SEND=1 would be refused: $(why)"
	fi
	BASE=$(git_repo rev-parse -q --verify "$BASE_REF^{commit}") ||
		die "no ${BASE_REF#refs/heads/} in $KREPO: run 'make bisect-check' first"

	lock_send
	: > "$LOG"
	defer_init
	make_worktree
	step "apply: git am of ${#PATCHES[@]} patches"
	apply_patches
	prep

	# The gate again, on the commits b4 is about to send.
	branch_ids
	WHY=()
	if [[ "$MODE" == write ]]; then
		for i in "${!PATCHES[@]}"; do
			[[ "${SENT_IDS[i]:-}" == "${FILE_IDS[i]}" ]] ||
				WHY+=("patch $i on $BRANCH differs from ${PATCHES[i]##*/}")
		done
		((${#WHY[@]} == 0)) || die "check: $(why)"
		step "check: the ${#SENT_IDS[@]} commits on $BRANCH have the patch ids of the patch files"
	else
		compare_ids SENT_IDS
		((${#WHY[@]} == 0)) || refuse "send $NAME v$VERSION"
		step "check: the ${#SENT_IDS[@]} commits on $BRANCH have the patch ids of the checked run"
	fi

	[[ "$MODE" != write ]] || sign_args
	out_dir
	write_messages
	if [[ "$MODE" != write ]]; then
		send_messages
	fi
	return 0
}

# On one line: bash has read the exit before main runs, so editing this
# file during a run cannot make the running shell read changed text.
main "$@"; exit $?
