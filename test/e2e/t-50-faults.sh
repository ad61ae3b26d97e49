#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-50-faults.sh - end to end: the fault suite. Runs the real pipeline on the
# fault fixtures of test/fixtures/faults/ (one real patch each, made with
# git format-patch on the preparation commit, touching only
# samples/hw_breakpoint/ so that only a module rebuilds) and on broken
# environments, and asserts for each case the exit code, a message that
# names what failed and what to do next, and that nothing is left behind:
# no QEMU of the run, no worktree, no WORKDIR lock, the imported base
# unchanged. It ends with a normal run of series.yaml, which must pass.
#
# Cases:  1 series.yaml errors        2 a patch that does not apply
#         3 UTF-8 author, +0530 date  4 a build error     5 a new warning
#         6 a checkpatch ERROR        7 a guest panic     8 a guest hang
#         9 a guest WARN              10 SIGINT in a build, SIGINT in a
#         boot, SIGKILL in a boot     11 SIGTERM in a boot while a second
#         run on the same WORKDIR refuses (no LOCK_WAIT) and a third waits
#         (LOCK_WAIT)
#         12 qemu-system-x86_64 or dracut missing
#         13 WORKDIR read-only or full (tmpfs mounts; needs root)
#         14 a commit that fails on one target only
#         15 commits that fail the robots' cheap checks
#         16 a hostile Makefile: the sandbox stops it, honest steps pass
#         17 init sleeps for ever (every CPU idles): the boot names the
#         task that does not go on, on x86_64 and arm64
#         18 claims that hold at random: booted twice, "flaky", not stored
#         19 undeclared ABI changes (an export added, one made _GPL, one
#         removed): each fails the abi cell alone, naming the symbol
#         20 one tree after two steps: a patch squashed into the one
#         before it is judged against the base, not served the cell of
#         the same tree judged after the first patch
#
# Other people may run the pipeline on the same WORKDIR meanwhile, so
# every run here waits for the lock (LOCK_WAIT=900), finds its run dir by
# its own pid (never runs/latest), and looks for leftovers of that run
# only: each run is started in a session of its own, so any process left
# of it is found by session id (QEMU also by its run dir on the command
# line), and so is one still holding the WORKDIR lock; the worktree and
# the import ref are checked while holding the lock, as a run would.
#
# Environment: WORKDIR (see lib-e2e.sh); FAULTS="2 7" runs only those
# cases (the plan follows); FAULTS_KEEP=1 keeps the temporary directory
# with the runs' stdout and stderr.

# shellcheck source=test/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=test/e2e/lib-e2e.sh
source "$T_TOP/test/e2e/lib-e2e.sh"

FIX=$T_TOP/test/fixtures/faults
KREPO=$WORKDIR/kernel.git
# Where bisect-check puts the throwaway worktree of this WORKDIR.
F_WT=$(bash -c 'source "$1/tools/lib.sh" && source "$1/tools/worktree.sh" && wt_root "$2"' - \
	"$T_TOP" "$WORKDIR")/worktree
PREP_REF=refs/heads/bisect/unexport-kallsyms-v1/v1-base

# How long a signalled run may take to print "interrupted" and to exit
# (an interrupted run renames its worktree away rather than deleting a
# whole kernel tree, which takes a minute on a slow disk).
F_SIG_MSG=20
F_SIG_EXIT=20

# The number of results of each case, for the plan.
declare -A CASE_N=([1]=20 [2]=17 [3]=8 [4]=10 [5]=11 [6]=14 [7]=11 [8]=17
	[9]=12 [10]=37 [11]=21 [12]=14 [13]=8 [14]=20 [15]=55 [16]=15 [17]=24 [18]=15 [19]=14 [20]=16 [end]=2)

F_STARTED=()
F_MOUNTS=()

# f_cleanup(): at exit, stop what is left of the runs this file started
# (by pid, session by session), unmount the tmpfs mounts and remove the
# temporary directory.
# shellcheck disable=SC2317  # called by the EXIT trap
f_cleanup()
{
	local sid pid m

	for sid in "${F_STARTED[@]}"; do
		for pid in $(f_procs_of "$sid" | awk '{ print $1 }'); do
			kill -TERM "$pid" 2>/dev/null
		done
		wait "$sid" 2>/dev/null
	done
	for m in "${F_MOUNTS[@]}"; do
		umount "$m" 2>/dev/null
	done
	if [[ "${FAULTS_KEEP:-0}" == 1 ]]; then
		echo "# FAULTS_KEEP=1: kept $T_TMP"
	else
		rm -rf "$T_TMP"
	fi
}
trap f_cleanup EXIT

# f_now_ms(): milliseconds since the epoch.
f_now_ms()
{
	local us=${EPOCHREALTIME//[!0-9]/}
	echo $((us / 1000))
}

# f_alive(): true while pid $1 runs (a child that exited is a zombie
# until waited for, and kill -0 still reaches it).
f_alive()
{
	local pid=$1; shift
	local state

	proc_state state "$pid" || return 1
	[[ "$state" != Z ]]
}

# f_check(): a result that passes when status $2 is 0; $3 is the
# diagnostic on failure.
f_check()
{
	local desc=$1; shift
	local rc=$1; shift
	local diag=$1; shift

	if ((rc == 0)); then
		t_ok "$desc"
	else
		t_fail "$desc" "$diag"
	fi
}

# f_ere(): print $1 with the ERE metacharacters escaped.
f_ere()
{
	printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

# f_want(): true when case $1 is selected (FAULTS, default all).
f_want()
{
	[[ -z "${FAULTS:-}" || " $FAULTS " == *" $1 "* ]]
}

# f_case(): start case $1 (a number or "end"): print its title, start its
# clock. f_case_end prints its time.
f_case()
{
	F_CASE=$1; shift
	F_CASE_T0=$(f_now_ms)
	echo "# case $F_CASE: $*"
}

# f_case_end(): print the elapsed time of the current case.
f_case_end()
{
	local ms=$(($(f_now_ms) - F_CASE_T0))
	printf '# case %s took %d.%ds\n' "$F_CASE" $((ms / 1000)) $((ms % 1000 / 100))
}

# f_start(): start the pipeline on series $2 in the background, in its own
# session and process group, with SIGINT not ignored (as a terminal job
# would be: a background command of a script starts with SIGINT ignored,
# which bash cannot trap), with LOCK_WAIT=900 and no KEEP/FORCE/STEPS/
# BOOT_TIMEOUT from the caller's environment; further VAR=value arguments
# override those. stdout and stderr go to $T_TMP/$1.out and .err. Sets
# F_PID (also its session and process group id), F_T0, F_STAMP (no run
# dir of this run is older).
f_start()
{
	local tag=$1; shift
	local series=$1; shift

	F_STAMP=$(date +%Y%m%d-%H%M%S)
	F_T0=$(f_now_ms)
	setsid env --default-signal=INT LOCK_WAIT=900 KEEP=0 FORCE=0 STEPS= \
		BOOT_TIMEOUT= "$@" \
		"$T_TOP/tools/bisect-check" "$series" \
		> "$T_TMP/$tag.out" 2> "$T_TMP/$tag.err" < /dev/null &
	F_PID=$!
	F_STARTED+=("$F_PID")
}

# f_finish(): wait for run $1 started at stamp $2; sets F_RC, F_MS (since
# the last f_start) and F_RUN (its run dir, empty when it made none).
f_finish()
{
	local pid=$1; shift
	local stamp=$1; shift

	wait "$pid" 2>/dev/null
	F_RC=$?
	F_MS=$(($(f_now_ms) - F_T0))
	F_RUN=$(f_rundir "$pid" "$stamp")
}

# f_run(): f_start and f_finish; E2E_RUN is set for lib-e2e.sh.
f_run()
{
	f_start "$@"
	f_finish "$F_PID" "$F_STAMP"
	E2E_RUN=$F_RUN
}

# f_rundir(): the run dir of pid $1, made at or after stamp $2 (pids are
# reused, run ids are <date>-<time>-<pid>); prints nothing when none.
f_rundir()
{
	local pid=$1; shift
	local stamp=$1; shift
	local d id

	for d in "$WORKDIR"/runs/*-"$pid"; do
		[[ -d "$d" ]] || continue
		id=$(basename "$d")
		[[ "${id%-*}" > "$stamp" || "${id%-*}" == "$stamp" ]] || continue
		echo "$d"
		return
	done
}

# f_wait_for(): wait up to $3 seconds for a line matching ERE $2 in file
# $1 while pid $4 runs; true when it came.
f_wait_for()
{
	local file=$1; shift
	local re=$1; shift
	local secs=$1; shift
	local pid=$1; shift
	local end=$((SECONDS + secs))

	while ((SECONDS < end)); do
		grep -Eq -- "$re" "$file" 2>/dev/null && return 0
		f_alive "$pid" || break
		sleep 0.2
	done
	grep -Eq -- "$re" "$file" 2>/dev/null
}

# f_qemu_of(): print the QEMU processes of pid $1's runs.
f_qemu_of()
{
	local pid=$1; shift
	pgrep -af '^qemu-system' | grep -E -- "/runs/[0-9]{8}-[0-9]{6}-$pid/"
}

# f_wait_qemu(): wait up to $2 seconds for a QEMU of run $1; true when
# one runs.
f_wait_qemu()
{
	local pid=$1; shift
	local secs=$1; shift
	local end=$((SECONDS + secs))

	while ((SECONDS < end)) && f_alive "$pid"; do
		[[ -n "$(f_qemu_of "$pid")" ]] && return 0
		sleep 0.2
	done
	return 1
}

# f_procs_of(): print "pid args" of the processes left of run $1: those
# of its session (f_start makes one per run; setpgid() keeps it, and
# orphans keep it too), and those whose command line names its run dir
# (RUNDIR/...-PID/): a sandbox starts a session of its own.
f_procs_of()
{
	local sid=$1; shift
	ps -e -o pid=,sid=,args= |
		awk -v s="$sid" -v re="/runs/[0-9-]+-$sid/" \
			'$2 == s || $0 ~ re { $2 = ""; print }'
}

# f_lock_of(): print the processes left of run $1 that hold WORKDIR $2's
# lock file open: the flock lives as long as any descendant that
# inherited the descriptor.
f_lock_of()
{
	local sid=$1; shift
	local wd=$1; shift
	local pid args fd

	while read -r pid args; do
		for fd in /proc/"$pid"/fd/*; do
			if [[ "$(readlink "$fd" 2>/dev/null)" == "$wd/lock" ]]; then
				echo "$pid $args"
				break
			fi
		done
	done < <(f_procs_of "$sid")
}

# f_refs(): the kernel repo's refs, "sha ref" per line, sorted; without
# the fault fixtures' own branches.
f_refs()
{
	git --git-dir="$KREPO" for-each-ref --format='%(objectname) %(refname)' |
		grep -v ' refs/heads/bisect/fault-' | sort
}

# f_left_behind(): the five "nothing left behind" results of run pid $2
# (described by $1): no QEMU of it, no process at all of it (a killed
# guest is reaped asynchronously: wait up to 5 s), no process of it
# holding the lock, and, holding the lock as any run would (others may be
# running), no worktree and the import refs as before the suite.
f_left_behind()
{
	local what=$1; shift
	local pid=$1; shift
	local left i fd wt refs

	for ((i = 0; i < 25; i++)); do
		left=$(f_procs_of "$pid")
		[[ -z "$left" ]] && break
		sleep 0.2
	done
	t_eq "$what: no QEMU of the run left" "" "$(f_qemu_of "$pid")"
	t_eq "$what: no process of the run left" "" "$left"
	t_eq "$what: no process of the run holds the WORKDIR lock" "" \
		"$(f_lock_of "$pid" "$WORKDIR")"

	exec {fd}>> "$WORKDIR/lock"
	flock -w 900 "$fd"
	wt=$(git --git-dir="$KREPO" worktree list --porcelain |
		grep -Fx "worktree $F_WT")
	[[ -e "$F_WT" ]] && wt+=" $F_WT exists"
	refs=$(git --git-dir="$KREPO" for-each-ref refs/heads/import/)
	exec {fd}>&-
	t_eq "$what: no worktree left (registered or on disk)" "" "$wt"
	t_eq "$what: the import ref is unchanged" "$IMPORT_REFS" "$refs"
}

# f_cell(): "status summary" of cell $2 $3 of run dir $1, cached or not.
f_cell()
{
	local run=$1; shift
	local idx=$1; shift
	local stage=$1; shift
	awk -F'\t' -v i="$idx" -v s="$stage" -v t="$E2E_TARGET" \
		'$1 == i && $3 == s && ($2 == "-" || $2 == t) {
		print $4, $6 }' "$run/cells.tsv" 2>/dev/null
}

# f_row(): the statuses of step $2's cells in run dir $1, in stage order.
f_row()
{
	local run=$1; shift
	local idx=$1; shift
	local stage
	for stage in $(e2e_stages); do
		f_cell "$run" "$idx" "$stage" | cut -d' ' -f1
	done | xargs
}

# f_report_names(): one result: the report on stdout of run $2 (files
# named $1) heads the failing cell's details with its step and stage ($4
# $5) and shows the step's commit (step index $3) in the matrix.
f_report_names()
{
	local tag=$1; shift
	local run=$1; shift
	local idx=$1; shift
	local label=$1; shift
	local stage=$1; shift
	local sha

	sha=$(awk -F'\t' -v i="$idx" '$1 == i { print substr($3, 1, 12) }' "$run/steps.tsv" 2>/dev/null)
	# A target stage's failure names the target.
	[[ "$(e2e_id "$idx" "$stage")" == "$idx-$stage" ]] || label+=" $E2E_TARGET"
	grep -Eq "^step $label $stage: FAIL" "$T_TMP/$tag.out" &&
		[[ "$sha" =~ ^[0-9a-f]{12}$ ]] &&
		grep -Eq "^${label%% *} +$sha " "$T_TMP/$tag.out"
	f_check "$tag: the report names step $label, its commit and the stage" $? \
		"expected 'step $label $stage: FAIL' and the row of commit '${sha:-?}' in $T_TMP/$tag.out"
}

# f_bin_without(): a directory of symlinks to every command on PATH
# except the ones named; prints its path.
f_bin_without()
{
	local dir=$T_TMP/bin-without-${1}
	local d f name skip dirs

	mkdir -p "$dir"
	IFS=: read -ra dirs <<< "$PATH"
	for d in "${dirs[@]}"; do
		for f in "$d"/*; do
			name=${f##*/}
			[[ -x "$f" && ! -e "$dir/$name" ]] || continue
			for skip in "$@"; do
				[[ "$name" == "$skip" ]] && continue 2
			done
			ln -s "$f" "$dir/$name"
		done
	done
	echo "$dir"
}

# ---- the cases ----

# case_series(): series.yaml errors stop the run before anything is done.
case_series()
{
	local name line col key re f

	f_case 1 "series.yaml errors: exit 2, FILE:LINE:COL and key, nothing run"
	for name in malformed unknown-key missing-patch duplicate-patch empty-series; do
		f=$FIX/yaml-$name.yaml
		case $name in
		malformed)
			line=$(grep -n 'expect: {' "$f" | cut -d: -f1)
			col=22 key='\(syntax\)'
			re="did not find expected ',' or '\}' \(while parsing a flow mapping at line $line, column 11\)"
			line=$((line + 1))
			;;
		unknown-key)
			line=$(grep -n 'checkpatch-acept:' "$f" | cut -d: -f1)
			col=5 key='patches\[0\]\.checkpatch-acept'
			re="unknown key 'checkpatch-acept' \(allowed: file, checkpatch-accept, findings-accept, abi, expect\)"
			;;
		missing-patch)
			line=$(grep -n 'file: no-such-fault.patch' "$f" | cut -d: -f1)
			col=11 key='patches\[0\]\.file'
			re='file not found: .*/no-such-fault\.patch: No such file or directory'
			;;
		duplicate-patch)
			line=$(grep -n 'file: panic.patch' "$f" | sed -n '1s/:.*//p')
			re="duplicate patch: same file as patches\[0\]\.file \(line $line\)"
			line=$(grep -n 'file: panic.patch' "$f" | sed -n '2s/:.*//p')
			col=11 key='patches\[1\]\.file'
			;;
		empty-series)
			line=$(grep -n '^patches: \[\]' "$f" | cut -d: -f1)
			col=10 key='patches'
			re='must not be empty'
			;;
		esac
		f_run "yaml-$name" "$f"
		t_eq "yaml-$name: exit 2" 2 "$F_RC"
		t_grep "yaml-$name: stderr names file:$line:$col and the key" \
			"^$(f_ere "$f"):$line:$col: error: $key: $re" \
			"$T_TMP/yaml-$name.err"
		t_grep "yaml-$name: stderr says to fix series.yaml and rerun" \
			'1 error\(s\); nothing was run\. Fix series\.yaml and rerun\.$' "$T_TMP/yaml-$name.err"
		t_eq "yaml-$name: nothing run (no run dir)" "" "$F_RUN"
	done
	f_case_end
}

# case_no_apply(): a patch that does not apply fails its step's apply
# cell, skips the rest, and leaves the other series' refs alone.
case_no_apply()
{
	local refs_before

	f_case 2 "a patch that does not apply"
	refs_before=$(f_refs)
	f_run no-apply "$FIX/no-apply.yaml"
	t_eq "no-apply: exit 1" 1 "$F_RC"
	e2e_matrix_eq "no-apply: step 2 apply FAIL, steps 2 and 3 skipped, 0 and 1 pass" \
		<(for st in $(e2e_stages); do
			case $st in
			apply) printf '%s\n' "0 apply ok" "1 apply ok" "2 apply FAIL" "3 apply skip" ;;
			build|boot|tests) printf '%s\n' "0 $st ok" "1 $st ok" "2 $st skip" "3 $st skip" ;;
			*) printf '%s\n' "0 $st skip" "1 $st ok" "2 $st skip" "3 $st skip" ;;
			esac
		done | sort -s -n -k1,1)
	t_eq "no-apply: the apply cell names the patch, the hunk, and that git am -3 cannot help" \
		"FAIL no-apply.patch does not apply at samples/hw_breakpoint/data_breakpoint.c:74; git am -3 cannot work: the base lacks its blobs" \
		"$(f_cell "$F_RUN" 2 apply)"
	t_grep "no-apply: the report names the step" '^step 2/3 apply: FAIL' "$T_TMP/no-apply.out"
	t_grep "no-apply: details name the patch file" \
		"^expected: $(f_ere "$FIX/no-apply.patch") applies with git am on [0-9a-f]{12}" "$F_RUN/details/2-apply.txt"
	t_grep "no-apply: details quote the failing hunk" \
		'^  error: patch failed: samples/hw_breakpoint/data_breakpoint\.c:[0-9]+' "$F_RUN/details/2-apply.txt"
	t_grep "no-apply: details name the patch's subject" \
		'^actual: "samples/hw_breakpoint: Say write breakpoint in the module description" \(no-apply\.patch\) does not apply' \
		"$F_RUN/details/2-apply.txt"
	t_grep "no-apply: details give the failing hunk's header" \
		'^failing hunk: samples/hw_breakpoint/data_breakpoint\.c:74 @@ -74,4 \+74,4 @@ module_exit\(hw_break_module_exit\);$' \
		"$F_RUN/details/2-apply.txt"
	t_grep "no-apply: details name the blob the base lacks for git am -3" \
		'^three-way: git am -3 cannot work: the base lacks the blob\(s\) 3add216 ' "$F_RUN/details/2-apply.txt"
	t_grep "no-apply: details say what to do" '^next: rebase ' \
		"$F_RUN/details/2-apply.txt"
	t_eq "no-apply: no series branch for a series that did not apply" "" \
		"$(git --git-dir="$KREPO" for-each-ref refs/heads/bisect/fault-no-apply/)"
	t_eq "no-apply: the other refs of the kernel repo are unchanged" "" \
		"$(comm -23 <(echo "$refs_before") <(f_refs))"
	f_left_behind no-apply "$F_PID"
	f_case_end
}

# case_authorship(): a UTF-8 author and a +0530 date are kept exactly.
case_authorship()
{
	f_case 3 "odd but valid authorship"
	f_run authorship "$FIX/authorship.yaml"
	t_eq "authorship: exit 0" 0 "$F_RC"
	e2e_authorship "$FIX/authorship.yaml" bisect/fault-authorship/v1
	t_eq "authorship: the commit's author is the patch's, byte for byte" \
		"Jöran Müller-Łukasiewicz <joran.mueller@example.org> Mon, 2 Mar 2020 17:04:05 +0530" \
		"$(git --git-dir="$KREPO" log -1 --date=rfc --format='%an <%ae> %ad' \
			bisect/fault-authorship/v1)"
	f_left_behind authorship "$F_PID"
	f_case_end
}

# case_build_error(): a syntax error fails the build with its first errors.
case_build_error()
{
	f_case 4 "a commit that breaks the build"
	f_run build-error "$FIX/build-error.yaml"
	t_eq "build-error: exit 1" 1 "$F_RC"
	t_eq "build-error: step 1 builds FAIL; W=1, sparse, abi, boot and tests skip; exports (no build needed) is judged" \
		"ok ok ok ok ok skip skip ok FAIL skip skip skip" \
		"$(f_row "$F_RUN" 1)"
	f_report_names build-error "$F_RUN" 1 1/1 build
	t_grep "build-error: details quote the compiler's error in the file" \
		'samples/hw_breakpoint/data_breakpoint\.c:[0-9]+:[0-9]+: error: ' "$F_RUN/details/1-$E2E_TARGET-build.txt"
	t_grep "build-error: details say what to do" '^next: ' "$F_RUN/details/1-$E2E_TARGET-build.txt"
	f_left_behind build-error "$F_PID"
	f_case_end
}

# f_listen(): listen on 127.0.0.1:$1 in the background for at most 30
# minutes, writing a line to file $2 for every connection; F_LISTENER is
# its pid. Returns once it listens.
f_listen()
{
	local port=$1; shift
	local file=$1; shift
	local i

	: > "$file"
	python3 -c '
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(4)
s.settimeout(1)
open(sys.argv[2] + ".ready", "w").close()
end = time.time() + 1800
while time.time() < end:
    try:
        c, a = s.accept()
    except socket.timeout:
        continue
    with open(sys.argv[2], "a") as f:
        f.write("connection from %s:%d\n" % a)
    c.close()
' "$port" "$file" &
	F_LISTENER=$!
	for ((i = 0; i < 50; i++)); do
		[[ -e "$file.ready" ]] && return 0
		sleep 0.1
	done
	return 1
}

# case_sandbox(): a commit whose Makefile writes to the builder's home,
# reads a secret planted there, connects to a listener on 127.0.0.1 and
# leaves a process running (test/fixtures/faults/hostile.patch). The
# sandbox stops each; the build cell names the rules; the honest step
# before it passes.
case_sandbox()
{
	local home secret sum conn det

	f_case 16 "a hostile Makefile: the sandbox stops it, honest steps pass"
	home=$(getent passwd "$(id -u)" | cut -d: -f6)
	secret=$home/.bisect-hostile-secret
	rm -f "$home/.bisect-hostile-written"
	echo "planted by t-50 case 16, $(date +%s%N)" > "$secret"
	sum=$(sha1sum < "$secret")
	conn=$T_TMP/hostile-connections
	f_listen 47613 "$conn" || echo "# the listener on 127.0.0.1:47613 did not start"
	# FORCE=1: a cached verdict would run no Makefile, and prove nothing.
	f_run hostile "$FIX/hostile.yaml" FORCE=1
	kill "$F_LISTENER" 2>/dev/null
	wait "$F_LISTENER" 2>/dev/null
	det=$F_RUN/details/2-$E2E_TARGET-build.txt
	t_eq "hostile: exit 1" 1 "$F_RC"
	t_eq "hostile: the honest step 1 builds, boots and passes its tests" "ok ok ok" \
		"$(for st in build boot tests; do f_cell "$F_RUN" 1 "$st" | cut -d' ' -f1; done | xargs)"
	t_eq "hostile: step 2's build fails, saying the sandbox stopped it" \
		"FAIL the sandbox stopped what the tree's build tried:" \
		"$(f_cell "$F_RUN" 2 build | cut -d" " -f1-9)"
	t_grep "hostile: the write to HOME: read-only host" \
		"^  sandbox: read-only host: .*\.bisect-hostile-written: Read-only file system" "$det"
	t_grep "hostile: the read of the secret: HOME hidden" \
		"^  sandbox: HOME hidden: .*\.bisect-hostile-secret: No such file or directory" "$det"
	t_grep "hostile: the connection: no network" "^  sandbox: no network: .*Connection refused" "$det"
	t_grep "hostile: the process left running: killed" "^  sandbox: own processes: killed " "$det"
	t_eq "hostile: the secret is unchanged and nothing was written to HOME" "$sum|no file" \
		"$(sha1sum < "$secret")|$([[ -e "$home/.bisect-hostile-written" ]] && echo written || echo no file)"
	t_eq "hostile: the listener on 127.0.0.1 got no connection" "" "$(cat "$conn" 2>&1)"
	t_eq "hostile: no process of the Makefile's is left" "" "$(pgrep -af bisect-hostile-sleeper)"
	rm -f "$secret" "$home/.bisect-hostile-written"
	pkill -f bisect-hostile-sleeper 2>/dev/null
	f_left_behind hostile "$F_PID"
	f_case_end
}

# case_build_warning(): a new compiler warning fails the build.
case_build_warning()
{
	f_case 5 "a commit that adds a compiler warning"
	f_run build-warning "$FIX/build-warning.yaml"
	t_eq "build-warning: exit 1" 1 "$F_RC"
	t_eq "build-warning: step 1 builds FAIL (W=1 leaves it to the build), abi, boot and tests skip" \
		"ok ok ok ok ok ok ok ok FAIL skip skip skip" \
		"$(f_row "$F_RUN" 1)"
	f_report_names build-warning "$F_RUN" 1 1/1 build
	t_eq "build-warning: the cell says new warning(s)" "FAIL 1 new warning(s)" \
		"$(f_cell "$F_RUN" 1 build)"
	t_grep "build-warning: details name the warning and the file" \
		"^  samples/hw_breakpoint/data_breakpoint\.c: warning: unused variable .unused_fault." \
		"$F_RUN/details/1-$E2E_TARGET-build.txt"
	t_grep "build-warning: details say what to do" '^next: fix the warning' "$F_RUN/details/1-$E2E_TARGET-build.txt"
	f_left_behind build-warning "$F_PID"
	f_case_end
}

# case_checkpatch(): a checkpatch ERROR fails the checkpatch cell only.
case_checkpatch()
{
	f_case 6 "a commit with a checkpatch ERROR"
	f_run checkpatch-error "$FIX/checkpatch-error.yaml"
	t_eq "checkpatch-error: exit 1" 1 "$F_RC"
	t_eq "checkpatch-error: only step 1's checkpatch fails" "ok FAIL ok ok ok ok ok ok ok ok ok ok" \
		"$(f_row "$F_RUN" 1)"
	f_report_names checkpatch-error "$F_RUN" 1 1/1 checkpatch
	t_grep "checkpatch-error: details quote the ERROR and its type" \
		'^ERROR TRAILING_WHITESPACE: trailing whitespace' "$F_RUN/details/1-checkpatch.txt"
	t_grep "checkpatch-error: details say what to do" '^next: fix the patch' \
		"$F_RUN/details/1-checkpatch.txt"
	f_left_behind checkpatch-error "$F_PID"
	# The exit contract through make (README): make's own 2 for any
	# failed recipe, after the tool's code said in words.
	make -s -C "$T_TOP" bisect-check SERIES="$FIX/checkpatch-error.yaml" \
		WORKDIR="$WORKDIR" > "$T_TMP/make.out" 2>&1
	t_eq "checkpatch-error: make bisect-check exits 2 (make's code)" 2 "$?"
	t_grep "checkpatch-error: make says the tool's exit 1, a failed check" \
		'^make: tools/bisect-check exited 1: a check failed' "$T_TMP/make.out"
	make -s -C "$T_TOP" bisect-check SERIES="$FIX/yaml-malformed.yaml" \
		WORKDIR="$WORKDIR" > "$T_TMP/make.out" 2>&1
	t_eq "yaml-malformed: make bisect-check exits 2" 2 "$?"
	t_grep "yaml-malformed: make says the tool's exit 2, a setup error" \
		'^make: tools/bisect-check exited 2: a usage or setup error' "$T_TMP/make.out"
	f_case_end
}

# case_panic(): a guest panic fails the boot with the panic line quoted.
case_panic()
{
	f_case 7 "a commit whose guest panics"
	f_run panic "$FIX/panic.yaml"
	t_eq "panic: exit 1" 1 "$F_RC"
	t_eq "panic: step 1 boot FAIL, panic" "FAIL panic (tcg)" \
		"$(f_cell "$F_RUN" 1 boot | sed -E 's/, booted #[0-9a-f]{12}//; s/\(kvm\)$/(tcg)/')"
	f_report_names panic "$F_RUN" 1 1/1 boot
	t_grep "panic: step 1 tests fail or skip" '^(FAIL|skip)$' \
		<(f_cell "$F_RUN" 1 tests | cut -d' ' -f1)
	t_grep "panic: details quote the panic line" \
		'Kernel panic - not syncing: bisect-check fault fixture' "$F_RUN/details/1-$E2E_TARGET-boot.txt"
	t_grep "panic: details say what to do" '^next: ' "$F_RUN/details/1-$E2E_TARGET-boot.txt"
	f_left_behind panic "$F_PID"
	f_case_end
}

# case_hang(): a hung guest is killed at boot.timeout and fails the boot.
case_hang()
{
	local ms

	f_case 8 "a commit whose guest hangs (boot.timeout 15)"
	f_run hang "$FIX/hang.yaml"
	t_eq "hang: exit 1" 1 "$F_RC"
	# The loop the patch adds is data_breakpoint.c:45-46.
	t_grep "hang: step 1 boot FAIL, timeout, and where: the module's function and line" \
		'^FAIL timeout: hang in hw_break_module_init \[data_breakpoint\] \(samples/hw_breakpoint/data_breakpoint\.c:4[56]\) \((tcg|kvm)\)$' \
		<(f_cell "$F_RUN" 1 boot | sed -E 's/, booted #[0-9a-f]{12}//')
	t_grep "hang: details name the place and keep the monitor's words" \
		'^stuck at hw_break_module_init\+0x[0-9a-f]+/0x[0-9a-f]+ \[data_breakpoint\] \(' \
		"$F_RUN/details/1-$E2E_TARGET-boot.txt"
	t_grep "hang: and who called it" \
		'^  called from do_one_initcall\+0x[0-9a-f]+/0x[0-9a-f]+ \(' \
		"$F_RUN/details/1-$E2E_TARGET-boot.txt"
	t_grep "hang: the guest runner said where the module's code is" \
		'^# runner: module data_breakpoint section \.init\.text 0x[0-9a-f]+$' \
		"$F_RUN/boot/1-$E2E_TARGET/results.ktap"
	t_grep "hang: the raw capture is kept" '^monitor capture: .*/hang\.raw$' \
		"$F_RUN/details/1-$E2E_TARGET-boot.txt"
	t_grep "hang: the report groups it with the crashes" \
		'^  hang in hw_break_module_init \[data_breakpoint\]: introduced by 1/1, still at 1/1 \(x86_64-gcc\)$' "$T_TMP/hang.out"
	ms=$(awk -F'\t' '$1 == 1 && $3 == "boot" { print $5 }' "$F_RUN/cells.tsv")
	[[ "$ms" =~ ^[0-9]+$ ]] && ((ms >= 15000 && ms < 40000))
	f_check "hang: the boot took the 15 s timeout, less than 40 s" $? "actual: ${ms:-no} ms"
	f_report_names hang "$F_RUN" 1 1/1 boot
	t_grep "hang: step 1 tests fail or skip" '^(FAIL|skip)$' \
		<(f_cell "$F_RUN" 1 tests | cut -d' ' -f1)
	t_grep "hang: details quote the last console lines" \
		'\[ *[0-9]+\.[0-9]+\] ' "$F_RUN/details/1-$E2E_TARGET-boot.txt"
	t_grep "hang: details say what to do" '^next: ' "$F_RUN/details/1-$E2E_TARGET-boot.txt"
	f_left_behind hang "$F_PID"
	f_case_end
}

# case_warn(): a WARN fails the boot even though the tests pass.
case_warn()
{
	f_case 9 "a commit that WARNs but passes its tests"
	f_run warn "$FIX/warn.yaml"
	t_eq "warn: exit 1" 1 "$F_RC"
	t_eq "warn: step 1 boot FAIL, warning" "FAIL warning (tcg)" \
		"$(f_cell "$F_RUN" 1 boot | sed -E 's/, booted #[0-9a-f]{12}//; s/\(kvm\)$/(tcg)/')"
	f_report_names warn "$F_RUN" 1 1/1 boot
	t_grep "warn: the failed boot still names the kernel it proved" \
		"^1	$E2E_TARGET	boot	FAIL	[0-9]+	warning, booted #[0-9a-f]{12} " \
		"$F_RUN/cells.tsv"
	t_eq "warn: step 1 tests pass" "ok 9/9 as declared" "$(f_cell "$F_RUN" 1 tests)"
	t_grep "warn: details quote the WARNING line" \
		'WARNING: .*data_breakpoint' "$F_RUN/details/1-$E2E_TARGET-boot.txt"
	t_grep "warn: details say what to do" '^next: ' "$F_RUN/details/1-$E2E_TARGET-boot.txt"
	f_left_behind warn "$F_PID"
	f_case_end
}

# f_signal(): send signal $3 to the process group of run $2 (started at
# stamp $4, files named $1), as a terminal's Ctrl-C would, or with $7
# "pid" to the run's own process alone, as timeout(1) would, and record
# four results: exit $5, the "interrupted" message, which came within
# F_SIG_MSG seconds, and the exit within $6 seconds. A run that does not
# exit in time is killed. Sets F_RC and F_RUN.
f_signal()
{
	local tag=$1; shift
	local pid=$1; shift
	local sig=$1; shift
	local stamp=$1; shift
	local want_rc=$1; shift
	local limit=$1; shift
	local to=${1:-group}
	local t0 t_msg=-1 t_exit=-1 ms
	local said="interrupted by SIG$sig, cleaning up"

	t0=$(f_now_ms)
	if [[ "$to" == pid ]]; then
		kill -"$sig" "$pid"
	else
		kill -"$sig" -- "-$pid"
	fi
	while :; do
		ms=$(($(f_now_ms) - t0))
		if ((t_msg < 0)) && grep -q "$said" "$T_TMP/$tag.err"; then
			t_msg=$ms
		fi
		if ! f_alive "$pid"; then
			t_exit=$ms
			break
		fi
		((ms > limit * 1000)) && break
		sleep 0.1
	done
	((t_exit < 0)) && kill -KILL -- "-$pid" 2>/dev/null
	f_finish "$pid" "$stamp"
	((t_msg < 0)) && grep -q "$said" "$T_TMP/$tag.err" && t_msg=$t_exit
	echo "# $tag: SIG$sig: message after $t_msg ms, exit after $t_exit ms"
	t_eq "$tag: SIG$sig exits $want_rc" "$want_rc" "$F_RC"
	# On the run's own stderr, also when a logged command was running.
	t_grep "$tag: says it was interrupted" "$said" "$T_TMP/$tag.err"
	((t_msg >= 0 && t_msg <= F_SIG_MSG * 1000))
	f_check "$tag: the message came within $F_SIG_MSG s" $? "actual: $t_msg ms (-1: none)"
	((t_exit >= 0 && t_exit <= limit * 1000))
	f_check "$tag: it exited within $limit s" $? "actual: $t_exit ms (-1: killed)"
}

# case_signals(): Ctrl-C in a build and in a boot: exit 130, cleaned up;
# and a run killed outright in a boot leaves no guest and no lock.
case_signals()
{
	f_case 10 "SIGINT during a build"
	# FORCE=1: the build really runs (the fixture's result is cached).
	f_start int-build "$FIX/build-warning.yaml" FORCE=1 STEPS=1
	f_wait_for "$T_TMP/int-build.err" "1/1 $E2E_TARGET build: start" 900 "$F_PID"
	f_check "int-build: the build started" $? "see $T_TMP/int-build.err"
	sleep 2
	f_signal int-build "$F_PID" INT "$F_STAMP" 130 "$F_SIG_EXIT"
	f_left_behind int-build "$F_PID"
	f_case_end

	# SIGTERM to the run alone (timeout(1), a CI runner): the build must
	# stop at once, not finish first and leave its make behind.
	f_case 10 "SIGTERM to the run's own process during a build"
	f_start term-build "$FIX/build-warning.yaml" FORCE=1 STEPS=1
	f_wait_for "$T_TMP/term-build.err" "1/1 $E2E_TARGET build: start" 900 "$F_PID"
	f_check "term-build: the build started" $? "see $T_TMP/term-build.err"
	sleep 2
	f_signal term-build "$F_PID" TERM "$F_STAMP" 143 "$F_SIG_EXIT" pid
	f_left_behind term-build "$F_PID"
	f_case_end

	f_case 10 "SIGINT during a boot"
	# A boot timeout of its own gives the hang fixture's boot a cache key
	# of its own: only that boot runs, and it does not end by itself.
	f_start int-boot "$FIX/hang.yaml" STEPS=1 BOOT_TIMEOUT=600
	f_wait_for "$T_TMP/int-boot.err" "1/1 $E2E_TARGET boot: start" 900 "$F_PID" &&
		f_wait_qemu "$F_PID" 30
	f_check "int-boot: the hung guest runs" $? "see $T_TMP/int-boot.err"
	f_signal int-boot "$F_PID" INT "$F_STAMP" 130 "$F_SIG_EXIT"
	f_left_behind int-boot "$F_PID"
	f_case_end

	f_case 10 "SIGKILL of the run alone during a boot (no trap runs)"
	# As the OOM killer would: the guest must die with the run and must
	# not keep the WORKDIR lock (it used to, for up to boot.timeout).
	f_start kill-boot "$FIX/hang.yaml" STEPS=1 BOOT_TIMEOUT=600
	f_wait_for "$T_TMP/kill-boot.err" "1/1 $E2E_TARGET boot: start" 900 "$F_PID" &&
		f_wait_qemu "$F_PID" 30
	f_check "kill-boot: the hung guest runs" $? "see $T_TMP/kill-boot.err"
	kill -KILL "$F_PID"
	f_finish "$F_PID" "$F_STAMP"
	t_eq "kill-boot: SIGKILL exits 137" 137 "$F_RC"
	f_left_behind kill-boot "$F_PID"
	f_case_end
}

# case_lock(): while a run holds the WORKDIR lock, a second one without
# LOCK_WAIT refuses at once and a third with LOCK_WAIT waits; SIGTERM
# ends the first (exit 143), and the third, a normal run of series.yaml,
# then passes.
case_lock()
{
	local a a_stamp c c_stamp

	f_case 11 "SIGTERM during a boot; meanwhile a second run refuses, a third waits"
	f_start term-boot "$FIX/hang.yaml" STEPS=1 BOOT_TIMEOUT=600
	a=$F_PID
	a_stamp=$F_STAMP
	f_wait_for "$T_TMP/term-boot.err" "1/1 $E2E_TARGET boot: start" 900 "$a" &&
		f_wait_qemu "$a" 30
	f_check "term-boot: the hung guest runs, holding the lock" $? "see $T_TMP/term-boot.err"

	f_run refused "$T_TOP/series.yaml" LOCK_WAIT=0
	t_eq "refused: exit 2" 2 "$F_RC"
	t_grep "refused: names the holder's pid, says to wait or use another WORKDIR" \
		"another bisect-check \(pid $a\) is using WORKDIR=$(f_ere "$WORKDIR"): wait for it \(LOCK_WAIT=seconds waits\), or set another WORKDIR" \
		"$T_TMP/refused.err"
	((F_MS < 5000))
	f_check "refused: at once (under 5 s)" $? "actual: $F_MS ms"
	t_eq "refused: nothing run (no run dir)" "" "$F_RUN"

	f_start waited "$T_TOP/series.yaml" LOCK_WAIT=900
	c=$F_PID
	c_stamp=$F_STAMP
	f_wait_for "$T_TMP/waited.err" \
		"another bisect-check \(pid $a\) is using WORKDIR; waiting up to 900s" 60 "$c" &&
		f_alive "$c"
	f_check "waited: waits for the holder, naming it" $? "see $T_TMP/waited.err"

	f_signal term-boot "$a" TERM "$a_stamp" 143 "$F_SIG_EXIT"
	f_left_behind term-boot "$a"

	f_finish "$c" "$c_stamp"
	t_eq "waited: then runs series.yaml, which passes (exit 0)" 0 "$F_RC"
	f_left_behind waited "$c"
	f_case_end
}

# case_missing_tool(): a missing qemu-system-x86_64 or dracut is a setup
# error that says how to install it.
case_missing_tool()
{
	local bin tool pkg

	f_case 12 "a missing tool"
	for tool in qemu-system-x86_64 dracut; do
		case $tool in
		qemu-system-x86_64) pkg=qemu-system-x86 ;;
		dracut) pkg=dracut-core ;;
		esac
		bin=$(f_bin_without "$tool")
		f_run "no-$tool" "$FIX/panic.yaml" PATH="$bin"
		t_eq "no $tool: exit 2" 2 "$F_RC"
		t_grep "no $tool: names it and how to install it" \
			"error: $tool not found: run 'make deps' \(Debian package.*\<$pkg\>" "$T_TMP/no-$tool.err"
		f_left_behind "no $tool" "$F_PID"
	done
	f_case_end
}

# case_workdir(): a read-only and a full WORKDIR are setup errors that
# name WORKDIR and say what to do.
case_workdir()
{
	local ro=$T_TMP/ro full=$T_TMP/full i

	f_case 13 "WORKDIR read-only or full"
	mkdir -p "$ro" "$full"
	if ! mount -t tmpfs -o ro,size=1m tmpfs "$ro" ||
	   ! { F_MOUNTS+=("$ro"); mount -t tmpfs -o size=64k tmpfs "$full"; }; then
		for ((i = 0; i < CASE_N[13]; i++)); do
			t_skip "WORKDIR on tmpfs" "cannot mount tmpfs (needs root)"
		done
		f_case_end
		return
	fi
	F_MOUNTS+=("$full")

	f_run ro-workdir "$FIX/panic.yaml" WORKDIR="$ro"
	t_eq "read-only WORKDIR: exit 2" 2 "$F_RC"
	t_grep "read-only WORKDIR: names WORKDIR and says what to do" \
		"error: WORKDIR=$ro is not writable: check permissions" "$T_TMP/ro-workdir.err"
	t_eq "read-only WORKDIR: nothing written" "" "$(find "$ro" -mindepth 1)"

	# Full: room for the (empty) lock file, none for anything else.
	dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null
	f_run full-workdir "$FIX/panic.yaml" WORKDIR="$full"
	t_eq "full WORKDIR: exit 2" 2 "$F_RC"
	t_grep "full WORKDIR: the error names WORKDIR and says there is no space" \
		"error: .*No space left on device.*WORKDIR=$(f_ere "$full")" "$T_TMP/full-workdir.err"
	t_grep "full WORKDIR: says what to do" \
		"free space in WORKDIR=.*, or set WORKDIR to a directory with room" "$T_TMP/full-workdir.err"
	t_eq "full WORKDIR: no process of the run holds its lock" "" "$(f_lock_of "$F_PID" "$full")"
	t_eq "full WORKDIR: no worktree" "" "$(find "$full" -maxdepth 1 -name worktree)"
	f_case_end
}

# f_failed_cells(): "step target stage" of every failed cell of run $1.
f_failed_cells()
{
	awk -F'\t' '$4 ~ /FAIL/ { print $1, $2, $3 }' "$1/cells.tsv" | xargs
}

# case_targets(): a commit that fails on one target fails that target's
# cell only: an x86-only header on arm64, a clang-only warning on clang.
case_targets()
{
	f_case 14 "a commit that fails on one target only"
	f_run arch-only "$FIX/arch-only.yaml"
	t_eq "arch-only: exit 1" 1 "$F_RC"
	t_eq "arch-only: the one failed cell is step 1's arm64-gcc build" \
		"1 arm64-gcc build" "$(f_failed_cells "$F_RUN")"
	t_eq "arch-only: x86_64-gcc builds step 1" ok \
		"$(E2E_TARGET=x86_64-gcc f_cell "$F_RUN" 1 build | cut -d' ' -f1)"
	t_grep "arch-only: details quote the missing header" \
		'data_breakpoint\.c:[0-9]+:[0-9]+: fatal error: asm/msr\.h: No such file' \
		"$F_RUN/details/1-arm64-gcc-build.txt"
	t_grep "arch-only: the report names the target" '^step 1/1 arm64-gcc build: FAIL' \
		"$T_TMP/arch-only.out"
	t_grep "arch-only: the KTAP has a subtest per target" '^        # Subtest: arm64-gcc$' \
		"$F_RUN/report.ktap"
	f_left_behind arch-only "$F_PID"

	f_run clang-warning "$FIX/clang-warning.yaml"
	t_eq "clang-warning: exit 1" 1 "$F_RC"
	t_eq "clang-warning: the one failed cell is step 1's x86_64-clang build" \
		"1 x86_64-clang build" "$(f_failed_cells "$F_RUN")"
	t_eq "clang-warning: the cell says new warning(s)" "FAIL 1 new warning(s)" \
		"$(E2E_TARGET=x86_64-clang f_cell "$F_RUN" 1 build)"
	t_grep "clang-warning: details quote clang's warning" \
		"samples/hw_breakpoint/data_breakpoint\.c: warning: variable 'len' is used uninitialized whenever 'if' condition is false \[-Wsometimes-uninitialized\]" \
		"$F_RUN/details/1-x86_64-clang-build.txt"
	f_left_behind clang-warning "$F_PID"
	f_case_end
}

# case_robots(): each cheap check of the kernel's robots fails its own
# cell only, in the tool's words; a finding is not new again at a later
# step; accepted with a reason in series.yaml, it is acked.
case_robots()
{
	local acc=$T_TMP/robots-accepted.yaml

	f_case 15 "commits that fail the robots' cheap checks"
	f_run robots "$FIX/robots.yaml"
	t_eq "robots: exit 1" 1 "$F_RC"
	t_eq "robots: each commit fails its own check only" \
		"1 - tags 2 - kdoc 3 - w1 4 - sparse" "$(f_failed_cells "$F_RUN")"
	t_eq "robots: the preparation is not checked" "ok skip skip skip skip skip skip skip ok skip skip skip" \
		"$(f_row "$F_RUN" 0)"
	t_eq "robots: 5/5, clean for all, passes" "ok ok ok ok ok ok ok ok ok ok skip skip" \
		"$(f_row "$F_RUN" 5)"
	t_grep "robots: tags quotes the line and what is wrong with it" \
		'^new trailer-format in robots-tags\.patch: Signed-off-by: Robot Fixture <robot-fixture@example\.org>$' \
		"$F_RUN/details/1-tags.txt"
	t_grep "robots: kdoc quotes kernel-doc" \
		"^new kernel-doc in samples/hw_breakpoint/data_breakpoint\\.c: samples/hw_breakpoint/data_breakpoint\\.c:[0-9]+: warning: Function parameter or member 'data' not described in 'sample_hbp_handler'\$" \
		"$F_RUN/details/2-kdoc.txt"
	t_grep "robots: w1 quotes gcc" \
		"^new -Wunused-but-set-variable in samples/hw_breakpoint/data_breakpoint\\.c: .*data_breakpoint\\.c:[0-9]+:[0-9]+: warning: variable .tries. set but not used \\[-Wunused-but-set-variable\\]\$" \
		"$F_RUN/details/3-w1.txt"
	t_grep "robots: sparse quotes sparse" \
		'^new sparse-warning in samples/hw_breakpoint/data_breakpoint\.c: .*data_breakpoint\.c:[0-9]+:[0-9]+: warning: Using plain integer as NULL pointer$' \
		"$F_RUN/details/4-sparse.txt"
	t_grep "robots: the details say what to do" \
		"^next: fix the patch, or accept a finding with a reason under findings-accept \\(check: w1\\) of patch 3 in $(f_ere "$FIX/robots.yaml")\$" \
		"$F_RUN/details/3-w1.txt"
	f_report_names robots "$F_RUN" 3 3/5 w1
	t_eq "robots: the kdoc finding of 2/5 is not new at 3/5" "ok no new finding (1 file(s))" \
		"$(f_cell "$F_RUN" 3 kdoc)"
	f_left_behind robots "$F_PID"

	# The same series with every finding accepted, with a reason.
	(
		# shellcheck source=tools/series.sh
		source "$T_TOP/tools/series.sh"
		load_series "$FIX/robots.yaml"
		series_step_set findings-accept 1 $'tags\ttrailer-format\t*\toutside the trailer block\tthe fixture\'s own\n'
		series_step_set findings-accept 2 $'kdoc\tkernel-doc\tsamples/hw_breakpoint/data_breakpoint.c\tnot described\tthe fixture\'s own\n'
		series_step_set findings-accept 3 $'w1\t*\t*\tset but not used\tthe fixture\'s own\n'
		series_step_set findings-accept 4 $'sparse\tsparse-warning\t*\tplain integer\tthe fixture\'s own\n'
		series_write
	) > "$acc"
	f_run robots-accepted "$acc"
	t_eq "robots accepted: exit 0" 0 "$F_RC"
	t_eq "robots accepted: the four checks are acked" \
		"1 tags acked 2 kdoc acked 3 w1 acked 4 sparse acked" \
		"$(awk -F'\t' '$4 ~ /acked/ { print $1, $3, "acked" }' "$F_RUN/cells.tsv" | xargs)"
	t_grep "robots accepted: the details give the reason" \
		"^accepted -Wunused-but-set-variable in samples/hw_breakpoint/data_breakpoint\\.c: .*\\(the fixture's own\\)\$" \
		"$F_RUN/details/3-w1.txt"
	f_left_behind robots-accepted "$F_PID"

	# make send's recipients (the .b4-config beside the series) miss
	# the list get_maintainer.pl names.
	f_run cc "$T_TOP/test/fixtures/cc/cc.yaml"
	t_eq "cc: exit 1" 1 "$F_RC"
	t_eq "cc: only the cc cell fails" "1 - cc" "$(f_failed_cells "$F_RUN")"
	t_grep "cc: details name the list left out, with get_maintainer.pl's role" \
		'^not a recipient: linux-kernel@vger\.kernel\.org \(open list\)$' \
		"$F_RUN/details/1-cc.txt"
	t_grep "cc: details name the b4 config to fix" \
		"^next: add them to send-series-to or send-series-cc in $(f_ere "$T_TOP/test/fixtures/cc/.b4-config") " \
		"$F_RUN/details/1-cc.txt"
	f_left_behind cc "$F_PID"

	# An export goes that a driver kbuild can build as a module uses.
	f_run exports "$FIX/exports.yaml"
	t_eq "exports: exit 1" 1 "$F_RC"
	t_eq "exports: only the exports cell fails" "1 - exports" "$(f_failed_cells "$F_RUN")"
	t_grep "exports: details name the user, why it can be a module and that its object uses it" \
		'^modular user of sprint_symbol: drivers/scsi/fnic/fnic_trace\.c: its object uses sprint_symbol; .*FCOE_FNIC.* tristate' \
		"$F_RUN/details/1-exports.txt"
	t_eq "exports: the summary names the users" \
		"FAIL 2 modular user(s) of 1 removed export(s): arch/s390/lib/test_unwind.c drivers/scsi/fnic/fnic_trace.c" \
		"$(f_cell "$F_RUN" 1 exports)"
	t_grep "exports: another arch's modular user is judged by its source, and says so" \
		'^modular user of sprint_symbol: arch/s390/lib/test_unwind\.c: does not compile for x86_64-gcc \(see the log\), and its source names sprint_symbol; ' \
		"$F_RUN/details/1-exports.txt"
	t_grep "exports: built-in users need no export" \
		'^sprint_symbol in lib/vsprintf\.c: not modular \(builtin: ' "$F_RUN/details/1-exports.txt"
	f_left_behind exports "$F_PID"
	t_eq "abi: the declared removal is the one made" \
		"ok -1 export(s), as declared" "$(E2E_TARGET=x86_64-gcc f_cell "$F_RUN" 1 abi)"

	# The same commit, its removal not declared: the abi cell fails too.
	(
		# shellcheck source=tools/series.sh
		source "$T_TOP/tools/series.sh"
		load_series "$FIX/exports.yaml"
		series_nsteps n
		for ((i = 1; i < n; i++)); do
			series_step_set abi "$i" ''
		done
		series_write
	) > "$T_TMP/exports-undeclared.yaml"
	f_run exports-undeclared "$T_TMP/exports-undeclared.yaml"
	t_eq "abi: an undeclared removal: exit 1" 1 "$F_RC"
	# (In the order they ended: sorted.)
	t_eq "abi: the abi cell fails besides exports" "1 - exports 1 x86_64-gcc abi" \
		"$(awk -F'\t' '$4 ~ /FAIL/ { print $1, $2, $3 }' "$F_RUN/cells.tsv" | sort | xargs)"
	t_eq "abi: the summary names the symbol" \
		"FAIL 1 export change(s) not as declared: sprint_symbol" \
		"$(E2E_TARGET=x86_64-gcc f_cell "$F_RUN" 1 abi)"
	t_grep "abi: the details say what it was and where to declare it" \
		'^removed sprint_symbol: EXPORT_SYMBOL_GPL@vmlinux -> - \(undeclared\)$' \
		"$F_RUN/details/1-x86_64-gcc-abi.txt"
	t_grep "abi: and name the series file to edit" \
		"^next: declare the change under abi: of patch 1 in $(f_ere "$T_TMP/exports-undeclared.yaml")" \
		"$F_RUN/details/1-x86_64-gcc-abi.txt"
	f_left_behind exports-undeclared "$F_PID"
	f_case_end
}

# case_sleep_hang(): kernel_init() sleeps for ever before it starts init:
# every CPU idles, so the boot names the task that does not go on, as
# syzbot titles it, with its stack, on x86_64 and on arm64.
case_sleep_hang()
{
	local t d

	f_case 17 "init sleeps for ever: every CPU idles (x86_64, arm64)"
	f_run sleep-hang "$FIX/sleep-hang.yaml"
	t_eq "sleep-hang: exit 1" 1 "$F_RC"
	for t in x86_64-gcc arm64-gcc; do
		d=$F_RUN/details/1-$t-boot.txt
		t_grep "sleep-hang: $t: step 1 boot FAIL, timeout, the task that hung and where" \
			'^FAIL timeout: INFO: task hung in kernel_init(, booted #[0-9a-f]{12})? \((tcg|kvm)\)$' \
			<(E2E_TARGET=$t f_cell "$F_RUN" 1 boot)
		t_grep "sleep-hang: $t: the monitor found every CPU idle" \
			'^idle	[0-9]+$' "$F_RUN/boot/1-$t/hang.tsv"
		t_grep "sleep-hang: $t: details say a task did not go on" \
			'^the host stopped the guest after 20 s; a task did not go on:$' "$d"
		t_grep "sleep-hang: $t: details quote PID 1, blocked" \
			'task:swapper(/0)? +state:D .*pid:1 ' "$d"
		t_grep "sleep-hang: $t: and its stack: msleep called from kernel_init" \
			'^\[ *[0-9.]+\] +msleep\+0x' "$d"
		t_grep "sleep-hang: $t: kernel_init in the stack" \
			'^\[ *[0-9.]+\] +kernel_init\+0x' "$d"
		t_grep "sleep-hang: $t: a timeout is booted twice before it is believed" \
			'^booted twice \(the first result may have been the host.s\): both the same$' "$d"
		t_grep "sleep-hang: $t: the title is the crash title" \
			'^title	INFO: task hung in kernel_init$' "$F_RUN/boot/1-$t/triage.tsv"
		t_grep "sleep-hang: $t: the report groups it with the crashes" \
			"^  INFO: task hung in kernel_init: introduced by 1/1, still at 1/1 \\(.*$t.*\\)\$" \
			"$T_TMP/sleep-hang.out"
	done
	f_left_behind sleep-hang "$F_PID"
	f_case_end
}

# case_flaky(): claims that hold at random (twelve coins): a boot where
# one fails is booted again, the two disagree, the tests cell says
# "flaky" with both outcomes, keeps both boots' files and is not stored.
case_flaky()
{
	local d

	f_case 18 "claims that hold at random: booted twice, flaky"
	f_run flaky "$FIX/flaky.yaml"
	d=$F_RUN/details/1-x86_64-gcc-tests.txt
	t_eq "flaky: exit 1 (flaky is no pass)" 1 "$F_RC"
	t_grep "flaky: step 1 tests say flaky, a coin that came out both ways" \
		'^flaky coin-[0-9]+: (yes, then no|no, then yes)' <(f_cell "$F_RUN" 1 tests)
	t_grep "flaky: step 1 boot ok: the boots themselves agree" '^ok ' <(f_cell "$F_RUN" 1 boot)
	t_grep "flaky: the details say the two boots disagree" \
		'^flaky: two boots of the same kernel disagree on these claims:$' "$d"
	t_grep "flaky: and name a claim with both outcomes" \
		'^  coin-[0-9]+: (yes, then no|no, then yes)$' "$d"
	t_grep "flaky: the first boot's results are kept" \
		"^first boot's results: .*/results\.1\.ktap\$" "$d"
	t_rc "flaky: the first boot's results exist" 0 test -s "$F_RUN/boot/1-x86_64-gcc/results.1.ktap"
	t_grep "flaky: the report's matrix shows it" '^ *1/1 .*flaky' "$T_TMP/flaky.out"
	t_grep "flaky: KTAP says not ok, flaky" '^ *not ok [0-9]+ tests # .*flaky: ' "$T_TMP/flaky.out"
	f_left_behind flaky "$F_PID"
	# Not stored: the next run boots the step again.
	f_run flaky-again "$FIX/flaky.yaml"
	t_eq "flaky: the next run judges step 1's tests anew, not from the cache" "-" \
		"$(awk -F'\t' '$1 == 1 && $2 == "x86_64-gcc" && $3 == "tests" { print $8 }' "$F_RUN/cells.tsv")"
	f_case_end
}

# case_abi(): three commits change the exported ABI without declaring
# it: each fails its abi cell, and nothing else, naming the symbol.
case_abi()
{
	local d

	f_case 19 "undeclared ABI changes: an export added, made _GPL, removed"
	f_run abi "$FIX/abi.yaml"
	t_eq "abi: exit 1" 1 "$F_RC"
	t_eq "abi: only the abi cells fail, one per step" \
		"1 x86_64-gcc abi 2 x86_64-gcc abi 3 x86_64-gcc abi" \
		"$(awk -F'\t' '$4 ~ /FAIL/ { print $1, $2, $3 }' "$F_RUN/cells.tsv" | sort | xargs)"
	d=$F_RUN/details
	t_eq "abi: an added export, named" \
		"FAIL 1 export change(s) not as declared: kallsyms_lookup_size_offset" \
		"$(E2E_TARGET=x86_64-gcc f_cell "$F_RUN" 1 abi)"
	t_grep "abi: the details say it was added, GPL, by vmlinux" \
		'^added kallsyms_lookup_size_offset: - -> EXPORT_SYMBOL_GPL@vmlinux \(undeclared\)$' \
		"$d/1-x86_64-gcc-abi.txt"
	t_eq "abi: an export made _GPL, named" \
		"FAIL 1 export change(s) not as declared: test_taint" \
		"$(E2E_TARGET=x86_64-gcc f_cell "$F_RUN" 2 abi)"
	t_grep "abi: the details say from what to what" \
		'^changed test_taint: EXPORT_SYMBOL@vmlinux -> EXPORT_SYMBOL_GPL@vmlinux \(undeclared\)$' \
		"$d/2-x86_64-gcc-abi.txt"
	t_eq "abi: a removed export no module uses, named" \
		"FAIL 1 export change(s) not as declared: sprint_symbol_build_id" \
		"$(E2E_TARGET=x86_64-gcc f_cell "$F_RUN" 3 abi)"
	t_grep "abi: the details say it was removed" \
		'^removed sprint_symbol_build_id: EXPORT_SYMBOL_GPL@vmlinux -> - \(undeclared\)$' \
		"$d/3-x86_64-gcc-abi.txt"
	t_eq "abi: its exports check passes: built-in users need no export" "ok" \
		"$(f_cell "$F_RUN" 3 exports | cut -d' ' -f1)"
	f_left_behind abi "$F_PID"
	f_case_end
}

# case_squash(): the same tree after another step. squash-two.yaml adds
# an unused variable (step 1 fails on the new warning) and then a comment
# (step 2 keeps the warning, not new after step 1: it passes);
# squash-one.yaml is the two squashed: step 2's tree after the base. Its
# build must fail: a build cell is keyed by its artifact and the
# warnings it is judged against (build_cell_key), not by the tree alone,
# which once served it step 2's "ok".
case_squash()
{
	local a1 a2

	f_case 20 "one tree after two steps: a squashed patch judged against the base"
	f_run squash-two "$FIX/squash-two.yaml"
	t_eq "squash-two: exit 1 (step 1's new warning)" 1 "$F_RC"
	t_eq "squash-two: step 1 fails its build on the new warning" "FAIL 1 new warning(s)" \
		"$(f_cell "$F_RUN" 1 build)"
	t_eq "squash-two: step 2 keeps it, not new after step 1: every cell passes" \
		"ok ok ok ok ok ok ok ok ok ok ok ok" "$(f_row "$F_RUN" 2)"
	# The kernel's identity: a hash of tree, config and toolchain.
	a1=$(f_cell "$F_RUN" 2 build | grep -o '#[0-9a-f]\{12\}')
	f_left_behind squash-two "$F_PID"
	f_run squash-one "$FIX/squash-one.yaml"
	t_eq "squash-one: exit 1" 1 "$F_RC"
	t_eq "squash-one: the same tree after the base fails its build on the warning" \
		"FAIL 1 new warning(s)" "$(f_cell "$F_RUN" 1 build)"
	a2=$(sed -n 's/^identity: \(#[0-9a-f]\{12\}\) .*/\1/p' \
		"$F_RUN/logs/$(e2e_id 1 build).log" | tail -n 1)
	t_eq "squash-one: ... the kernel of squash-two's step 2 (the same tree and config)" \
		"${a1:-none}" "${a2:-none}"
	f_left_behind squash-one "$F_PID"
	f_case_end
}

# case_end(): the next normal run passes, and the kernel repo is sound.
case_end()
{
	local t0

	f_case end "a normal run afterwards"
	f_run normal "$T_TOP/series.yaml"
	t_eq "series.yaml passes afterwards (exit 0)" 0 "$F_RC"
	t0=$(f_now_ms)
	t_rc "the kernel repo is connected (git fsck --connectivity-only)" 0 \
		git --git-dir="$KREPO" fsck --connectivity-only --no-progress
	echo "# fsck took $(($(f_now_ms) - t0)) ms"
	f_case_end
}

# ---- main ----

plan=0
for c in "${!CASE_N[@]}"; do
	f_want "$c" && plan=$((plan + CASE_N[$c]))
done
t_plan "$plan"

git --git-dir="$KREPO" rev-parse -q --verify "$PREP_REF^{commit}" > /dev/null ||
	echo "# $PREP_REF is missing: the first run of a fixture makes it"
IMPORT_REFS=$(git --git-dir="$KREPO" for-each-ref refs/heads/import/)

f_want 1 && case_series
f_want 2 && case_no_apply
f_want 3 && case_authorship
f_want 4 && case_build_error
f_want 5 && case_build_warning
f_want 6 && case_checkpatch
f_want 7 && case_panic
f_want 8 && case_hang
f_want 9 && case_warn
f_want 10 && case_signals
f_want 11 && case_lock
f_want 12 && case_missing_tool
f_want 13 && case_workdir
f_want 14 && case_targets
f_want 15 && case_robots
f_want 16 && case_sandbox
f_want 17 && case_sleep_hang
f_want 18 && case_flaky
f_want 19 && case_abi
f_want 20 && case_squash
f_want end && case_end

# t_done fails "the plan" when the cases ran another number of results
# than CASE_N says.
t_done
