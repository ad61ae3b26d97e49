#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-cell.sh - tests of the cell runner itself (tools/cell.sh, cache.sh)
# on fake stages, in seconds: a cell's record is its one truth, a cache
# hit serves it without running the stage and says where it came from,
# a changed key or FORCE=1 runs it again, a result that is no verdict is
# not stored, skip_after skips what needs a failed stage in table order,
# the table refuses what it cannot run, skip_prep skips what does not run
# on the preparation, a stage program runs in a clean environment from
# its declared inputs only and is redone exactly when one of them (or
# its own file) changes, and the cell-id rule of bash is the one the
# report (C) follows.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

export WORKDIR=$T_TMP/workdir
mkdir -p "$WORKDIR"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/cell.sh
source "$T_TOP/tools/cell.sh"

# The runner's context, as the driver sets it.
series_label_set 1 1/2
series_label_set 2 2/2
target_add tA x86_64 gcc - yes
target_add tB arm64 gcc - yes
CALLS=$T_TMP/calls

# new_run(): a fresh run dir, as make_rundir makes one: RUN_ID, RUNDIR.
new_run()
{
	RUN_ID=$1
	RUNDIR=$WORKDIR/runs/$RUN_ID
	mkdir -p "$RUNDIR/logs" "$RUNDIR/details" "$RUNDIR/results"
	: > "$RUNDIR/cells.tsv"
}

# fake_ok(): a stage that passes, counting its calls.
# shellcheck disable=SC2317  # called through cell_run
fake_ok()
{
	local rec=$1 log=$2 detail=$3
	echo "fake_ok $4" >> "$CALLS"
	echo "ran" > "$log"
	echo "a detail" > "$detail"
	result "$rec" ok "fine $4"
	result_out "$rec" made "x$4"
}

# fake_fail(): a stage that fails.
# shellcheck disable=SC2317
fake_fail()
{
	echo fake_fail >> "$CALLS"
	echo "the reason" > "$3"
	result "$1" FAIL "broke"
}

# fake_tool_broke(): a stage whose own tool failed: no verdict.
# shellcheck disable=SC2317
fake_tool_broke()
{
	echo fake_tool_broke >> "$CALLS"
	result "$1" FAIL "the tool itself failed"
	result_nocache "$1"
}

# fake_silent(): a stage that leaves no result at all.
# shellcheck disable=SC2317
fake_silent()
{
	echo fake_silent >> "$CALLS"
}

calls()
{
	grep -c "^$1" "$CALLS" 2>/dev/null || true
}

# line(): the cells.tsv line of cell ($1, $2, $3), "|" between fields.
line()
{
	awk -F'\t' -v OFS='|' -v i="$1" -v t="$2" -v s="$3" \
		'$1 == i && $2 == t && $3 == s { $5 = "MS"; print }' "$RUNDIR/cells.tsv"
}

t_plan 91

# --- the cell-id rule, once ---
t_eq "a step-scope cell's id" "1-apply" "$(cell_id 1 - apply)"
t_eq "a target-scope cell's id" "2-tA-boot" "$(cell_id 2 tA boot)"
t_eq "a step's files on a target" "2-tA" "$(cell_id 2 tA)"
cell_id_to id 3 tB tests
declare -A F
cell_files F 3 tB tests
t_eq "cell_files names the files by the same id" \
	"$id $RUNDIR/results/$id.tsv $RUNDIR/logs/$id.log $RUNDIR/details/$id.txt 3-tB" \
	"$id ${F[rec]} ${F[log]} ${F[detail]} ${F[prefix]}"

# --- a miss runs the stage; its record is the truth ---
new_run r1
: > "$CALLS"
cell_run 1 - fake k1 - fake_ok a
t_eq "a miss runs the stage once" 1 "$(calls fake_ok)"
declare -A R
rec_read R "$(cell_rec 1 - fake)"
t_eq "the record: status, summary, out, where it was made" \
	"ok|fine a|xa|r1|1|-|" \
	"${R[status]}|${R[summary]}|${R[out made]}|${R[run]}|${R[step]}|${R[target]}|${R[cached-from]}"
t_eq "the record has its elapsed ms" yes \
	"$([[ "${R[ms]}" =~ ^[0-9]+$ ]] && echo yes || echo "no: '${R[ms]}'")"
# shellcheck disable=SC2016  # expanded by the inner shell
t_rc "rec_read into a variable that is no associative array: refused" 2 \
	bash -c 'source "$1/tools/lib.sh"; source "$1/tools/cell.sh"; x=; rec_read x "$2"' _ \
	"$T_TOP" "$(cell_rec 1 - fake)"
t_grep "... naming it" 'rec_read: x is no associative array' "$T_OUT"
t_eq "cells.tsv is the record's line, made here (cached-from -)" \
	"1|-|fake|ok|MS|fine a|$RUNDIR/logs/1-fake.log|-" "$(line 1 - fake)"
t_eq "the cache holds it under its key" yes \
	"$([[ -f $WORKDIR/cache/fake/k1/record ]] && echo yes || echo no)"
cell_run 2 tA fake k2 - fake_ok b

# --- a hit serves the record without running the stage ---
new_run r2
: > "$CALLS"
cell_run 1 - fake k1 - fake_ok a
t_eq "a hit does not run the stage" 0 "$(calls fake_ok)"
rec_read R "$(cell_rec 1 - fake)"
t_eq "the hit's record says where it came from" "ok|fine a|r1/1-fake" \
	"${R[status]}|${R[summary]}|${R[cached-from]}"
t_eq "the hit's line: the plain status and cached-from" \
	"1|-|fake|ok|MS|fine a|-|r1/1-fake" "$(line 1 - fake)"
t_eq "the hit brings its details along" "a detail" "$(cat "$(cell_detail 1 - fake)")"
cell_run 2 tA fake k2 - fake_ok b
t_eq "a target-scope hit names its cell of origin" \
	"2|tA|fake|ok|MS|fine b|-|r1/2-tA-fake" "$(line 2 tA fake)"
# The same key at another step: served, from the cell it was made in.
cell_run 2 tB fake k1 - fake_ok a
t_eq "a hit at another step and target names the cell it was made in" \
	"2|tB|fake|ok|MS|fine a|-|r1/1-fake" "$(line 2 tB fake)"

# --- a changed key, FORCE=1, a failing validity check: the stage runs ---
: > "$CALLS"
cell_run 1 - fake k1-changed - fake_ok a
t_eq "a changed key runs the stage" 1 "$(calls fake_ok)"
FORCE=1 cell_run 2 tA fake k2 - fake_ok b
t_eq "FORCE=1 runs the stage" 2 "$(calls fake_ok)"
t_eq "and its record is made here" "-" "$(awk -F'\t' '$1 == 2 && $2 == "tA" { f = $8 } END { print f }' "$RUNDIR/cells.tsv")"
# shellcheck disable=SC2317
never_valid() { return 1; }
cell_run 1 - fake k1 never_valid fake_ok a
t_eq "a cached record its check refuses is redone" 3 "$(calls fake_ok)"

# --- a cell made without the sandbox is kept apart ---
new_run r2s
: > "$CALLS"
SANDBOX=0 cell_run 1 - fake k1 - fake_ok a
t_eq "SANDBOX=0: a cell made in the sandbox is not served" 1 "$(calls fake_ok)"
t_eq "SANDBOX=0: the cell made is kept apart" yes \
	"$([[ -f $WORKDIR/cache/fake/k1-nosandbox/record ]] && echo yes || echo no)"
SANDBOX=0 cell_run 2 - fake k1 - fake_ok a
cell_run 3 - fake k1 - fake_ok a
t_eq "each is served to a run like the one that made it" "1|r2s/1-fake|r2/1-fake" \
	"$(calls fake_ok)|$(rec_get "$(cell_rec 2 - fake)" cached-from)|$(rec_get "$(cell_rec 3 - fake)" cached-from)"

# --- a cached failure stays a failure ---
new_run r3
: > "$CALLS"
cell_run 1 - bad kf - fake_fail
new_run r4
cell_run 1 - bad kf - fake_fail
t_eq "a failure is cached as a verdict" 1 "$(calls fake_fail)"
t_eq "a cached failure is still FAIL, with its details" "1|-|bad|FAIL|MS|broke|-|r3/1-bad the reason" \
	"$(line 1 - bad) $(cat "$(cell_detail 1 - bad)")"

# --- what is no verdict is not stored ---
: > "$CALLS"
cell_run 1 - tool kt - fake_tool_broke
cell_run 1 - tool kt - fake_tool_broke
t_eq "nocache: the stage runs every time" 2 "$(calls fake_tool_broke)"
t_eq "nocache: nothing in the cache" no "$([[ -e $WORKDIR/cache/tool/kt ]] && echo yes || echo no)"
cell_run 1 - quiet kq - fake_silent
cell_run 1 - quiet kq - fake_silent
t_eq "a stage that leaves no result fails, and is not stored" \
	"2 FAIL|the quiet stage gave no result (see its log)" \
	"$(calls fake_silent) $(rec_get "$(cell_rec 1 - quiet)" status)|$(rec_get "$(cell_rec 1 - quiet)" summary)"

# --- the stage table and skip_after ---
cat > "$T_TMP/stages.tsv" <<'EOF'
# name needs scope prep runs inputs what
a	-	step	yes	driver	-	first
b	a	step	no	driver	-	after a
c	b	step	yes	driver	-	after b
d	-	step	yes	driver	-	independent
e	b	target	yes	driver	-	after b, per target
f	e	target	yes	driver	-	after e, per target
EOF
load_stages "$T_TMP/stages.tsv"
all=() nb='' ne='' sf='' pb='' pc='' ra='' ins=''
stages_at all - 1
stage_get nb b needs; stage_get ne e needs; stage_get sf f scope
stage_get pb b prep; stage_get pc c prep; stage_get ra a runs
t_eq "load_stages: the stages in table order, with needs, scope, prep and runs" \
	"a b c d e f|b:a e:b|target|no yes|driver" \
	"${all[*]}|b:$nb e:$ne|$sf|$pb $pc|$ra"
stages_at all - 0
t_eq "stages_at: at the preparation, the stages the table lets run there" "a c d e f" "${all[*]}"
stages_at all driver 1
t_eq "stages_at: of one runs, in table order" "a b c d e f" "${all[*]}"
# shellcheck disable=SC2016  # expanded by the inner shell
t_rc "stage_get: a field the table has not is an error" 2 \
	bash -c 'source "$1/tools/lib.sh"; source "$1/tools/cell.sh"; load_stages "$2"; stage_get x b nosuch' _ \
	"$T_TOP" "$T_TMP/stages.tsv"
t_grep "... naming it" "stage_get: no field 'nosuch'" "$T_OUT"
stages_write "$T_TMP/stages-4.tsv"
t_eq "stages_write: the report's four columns, in table order" \
	"b|a|step|after a|4" "$(awk -F'\t' -v OFS='|' 'NR == 2 { print $1, $2, $3, $4, NF }' "$T_TMP/stages-4.tsv")"
new_run r5
skip_after 1 - a "a failed"
t_eq "skip_after: every stage that needs a, in turn, on every target, in order" \
	"1 - b skip|1 - c skip|1 tA e skip|1 tB e skip|1 tA f skip|1 tB f skip" \
	"$(awk -F'\t' '{ print $1, $2, $3, $4 }' "$RUNDIR/cells.tsv" | paste -sd '|')"
t_eq "skip_after: an independent stage is left alone" "" "$(line 1 - d)"
t_eq "a skipped cell has its record, with the reason" "skip|a failed|r5" \
	"$(rec_get "$(cell_rec 1 tB f)" status)|$(rec_get "$(cell_rec 1 tB f)" summary)|$(rec_get "$(cell_rec 1 tB f)" run)"
new_run r6
skip_after 2 tB e "no boot"
t_eq "skip_after on one target skips only there" "2 tB f skip" \
	"$(awk -F'\t' '{ print $1, $2, $3, $4 }' "$RUNDIR/cells.tsv" | paste -sd '|')"
# bad_table(): load_stages on table text $2 must die naming the table
# and, as ERE $3, what is wrong (test $1).
bad_table()
{
	local desc=$1; shift
	local text=$1; shift
	local re=$1; shift

	printf '%s\n' "$text" > "$T_TMP/bad-stages.tsv"
	# shellcheck disable=SC2016  # expanded by the inner shell
	t_rc "$desc (exit 2)" 2 \
		bash -c 'source "$1/tools/lib.sh"; source "$1/tools/cell.sh"; load_stages "$2"' _ \
		"$T_TOP" "$T_TMP/bad-stages.tsv"
	t_grep "$desc: the message names the table and the fault" "bad-stages\\.tsv: $re" "$T_OUT"
}
bad_table "a table line without its what column is refused" $'a\t-\tstep\tyes\tdriver\t-' \
	"bad line for stage 'a'"
bad_table "a stage given twice is refused" \
	$'a\t-\tstep\tyes\tdriver\t-\tone\na\t-\tstep\tyes\tdriver\t-\ttwo' "stage 'a' given twice"
bad_table "a stage needing a later one is refused" \
	$'a\tb\tstep\tyes\tdriver\t-\tone\nb\t-\tstep\tyes\tdriver\t-\ttwo' \
	"stage 'a' needs 'b', which is not an earlier stage"
bad_table "a driver stage with inputs is refused" $'a\t-\tstep\tyes\tdriver\tx,y\tone' \
	"stage 'a': a driver stage declares no inputs"
bad_table "a program stage without its program is refused" \
	$'nosuchprog\t-\tstep\tno\tbeside-build\tx\tone' "stage 'nosuchprog': no program .*/nosuchprog"
bad_table "a runs value of no kind is refused" $'a\t-\tstep\tyes\tlater\t-\tone' \
	"stage 'a': runs 'later' is none of commit, driver, beside-build, after-build, after-boot"
bad_table "a program beside the build of scope target is refused" \
	$'p\t-\ttarget\tno\tbeside-build\tcalls\tone' "stage 'p': a program beside the build is of scope step"
bad_table "a program after the build of scope step is refused" \
	$'p\t-\tstep\tno\tafter-build\tcalls\tone' "stage 'p': a program after the build is of scope target"
bad_table "an empty table is refused" '# nothing' "no stage"
bad_table "a program after the boot of scope step is refused" \
	$'p\t-\tstep\tno\tafter-boot\tcalls\tone' "stage 'p': a program after the boot is of scope target"
bad_table "a stage that makes the commits after another is refused" \
	$'a\t-\tstep\tyes\tdriver\t-\tone\napply\t-\tstep\tyes\tcommit\tgit\ttwo' \
	"stage 'apply': the stage that makes the commits is the first"

# --- skip_prep: what the table says does not run on the preparation ---
new_run r6b
skip_prep
t_eq "skip_prep: the prep=no stage and all that need it, on every target, in order" \
	"0 - b skip|0 - c skip|0 tA e skip|0 tB e skip|0 tA f skip|0 tB f skip" \
	"$(awk -F'\t' '{ print $1, $2, $3, $4 }' "$RUNDIR/cells.tsv" | paste -sd '|')"
t_eq "skip_prep: the reason" "preparation commit, not part of the series" \
	"$(rec_get "$(cell_rec 0 tB f)" summary)"

# --- stage programs: declared inputs, a clean environment, the key ---
STAGE_DIR=$T_TMP/stages
mkdir -p "$STAGE_DIR"
# fake_prog(): write stage program $1 of $STAGE_DIR: it counts its runs
# in the file of input "calls" and says what it saw of inputs $2...
# and of the environment.
fake_prog()
{
	local name=$1; shift
	local n says=

	for n in "$@"; do
		says+=" $n=\${inputs[$n]}"
	done
	cat > "$STAGE_DIR/$name" <<EOF
#!/bin/bash
source "$T_TOP/tools/lib.sh"
source "$T_TOP/tools/stage-lib.sh"
declare -A inputs=()
stage_args inputs "\$@"
stage_need inputs calls $*
echo $name >> "\${inputs[calls]}"
echo "log of $name" >> "\${inputs[log]}"
result "\${inputs[rec]}" ok "${says# } home=\${HOME-unset} secret=\${T_SECRET-unset}"
EOF
	chmod +x "$STAGE_DIR/$name"
}
fake_prog p alpha
fake_prog q beta
fake_prog r where
printf '#!/bin/bash\necho "no result here"\nexit 3\n' > "$STAGE_DIR/mute"
printf '#!/bin/bash\n' > "$STAGE_DIR/lost"
# shellcheck disable=SC2016  # $2 is the program's own
printf '#!/bin/bash\necho x > "%s/.t-cell-escape"\nprintf "status\\tok\\nsummary\\tfine\\n" > "$2"\n' \
	"$T_TOP" > "$STAGE_DIR/escape"
chmod +x "$STAGE_DIR/mute" "$STAGE_DIR/lost" "$STAGE_DIR/escape"
# writer and reader: write file "made" into the dir their input out-rw
# or out names.
for w in writer:out-rw reader:out; do
	# shellcheck disable=SC2016  # the program's own variables
	printf '%s\n' '#!/bin/bash' \
		"dir=\$(sed -n 's/^${w#*:}\t//p' \"\$1\")" \
		'if echo x > "$dir/made"; then s=wrote; else s=refused; fi' \
		'printf "status\tok\nsummary\t%s\n" "$s" > "$2"' > "$STAGE_DIR/${w%:*}"
	chmod +x "$STAGE_DIR/${w%:*}"
done
cat > "$T_TMP/prog-stages.tsv" <<'EOF'
a	-	step	yes	driver	-	the driver's
p	a	step	no	beside-build	calls,alpha	reads alpha
q	a	step	no	beside-build	calls,beta	reads beta
mute	a	step	no	beside-build	calls	leaves no result
lost	a	step	no	beside-build	calls,nosuch	an input no one gives
escape	a	step	no	beside-build	calls	writes where it may not
r	a	target	no	after-build	calls,where	per target
writer	a	step	no	beside-build	out-rw	writes where its -rw input is
reader	a	step	no	beside-build	out	writes where its read input is
EOF
load_stages "$T_TMP/prog-stages.tsv"
stage_get ins p inputs
t_eq "load_stages: a program's inputs, in order" "calls alpha" "$ins"
stages_at all after-build 1
t_eq "stages_at: the programs of one runs" "r" "${all[*]}"
# The providers, as the driver defines them.
# shellcheck disable=SC2317  # called through cell_prog
{
input_calls() { local -n v=$1 k=$2; v=$CALLS; k=; }
input_alpha() { local -n v=$1 k=$2; v=$ALPHA; k=$ALPHA_KEY; }
input_beta() { local -n v=$1 k=$2; v=beta-value; k=$BETA_KEY; }
input_where() { local -n v=$1 k=$2 f=$6; v="$5 at $3 of ${f[sha]}"; k=$5; }
input_out_rw() { local -n v=$1 k=$2; v=$OUTDIR; k=; }
input_out() { input_out_rw "$@"; }
}
export T_SECRET=driver-only
# The step facts the driver gives each provider (step_facts).
declare -A __step_facts=([sha]=c1)
ALPHA=alpha-value ALPHA_KEY=ka BETA_KEY=kb
# run_progs(): a new run $1 of both programs at step 1.
run_progs()
{
	new_run "$1"
	mkdir -p "$RUNDIR/inputs"
	# In the run dir: a program may write there alone (its sandbox).
	CALLS=$RUNDIR/calls
	: > "$CALLS"
	cell_prog 1 - p __step_facts
	cell_prog 1 - q __step_facts
}
run_progs r9
t_eq "a program runs on a miss, once" "1 1" "$(calls p) $(calls q)"
t_eq "it reads its declared input; no HOME, no variable of the driver's" \
	"ok|alpha=alpha-value home=unset secret=unset|-" \
	"$(rec_get "$(cell_rec 1 - p)" status)|$(rec_get "$(cell_rec 1 - p)" summary)|$(line 1 - p | cut -d'|' -f8)"
t_eq "its inputs file: the declared inputs, name and value" \
	"calls	$CALLS|alpha	alpha-value" "$(paste -sd '|' "$RUNDIR/inputs/1-p.tsv")"
t_grep "its output goes to its log" '^log of p$' "$(cell_log 1 - p)"
run_progs r10
t_eq "the same inputs: both served from the cache" "0 0|r9/1-p" \
	"$(calls p) $(calls q)|$(line 1 - p | cut -d'|' -f8)"
ALPHA=/another/path
run_progs r11
t_eq "a value whose key part is the same: still served" "0 0" "$(calls p) $(calls q)"
ALPHA_KEY=ka2
run_progs r12
t_eq "alpha's key part changed: only the program that declares it is redone" "1 0" \
	"$(calls p) $(calls q)"
BETA_KEY=kb2
run_progs r13
t_eq "beta's key part changed: only q is redone" "0 1" "$(calls p) $(calls q)"
echo '# a change to the program' >> "$STAGE_DIR/q"
CELL_PROG_ID=()
run_progs r14
t_eq "q's own file changed: only q is redone" "0 1" "$(calls p) $(calls q)"
cell_prog 1 - mute __step_facts
t_eq "a program that exits without a result: no verdict, not stored" \
	"FAIL|${STAGE_DIR#"$T_TOP"/}/mute exited 3 without a result (see its log)|1" \
	"$(rec_get "$(cell_rec 1 - mute)" status)|$(rec_get "$(cell_rec 1 - mute)" summary)|$(rec_get "$(cell_rec 1 - mute)" nocache)"
t_grep "and what it printed is in its log" '^no result here$' "$(cell_log 1 - mute)"
cell_prog 1 - escape __step_facts
t_eq "a program that writes outside its run dir: stopped by the sandbox, and said" \
	"FAIL|the sandbox stopped what it ran: read-only host (1)|no file" \
	"$(rec_get "$(cell_rec 1 - escape)" status)|$(rec_get "$(cell_rec 1 - escape)" summary)|$(
		[[ -e "$T_TOP/.t-cell-escape" ]] && echo "$T_TOP/.t-cell-escape written" || echo no file)"
t_grep "its details quote what was refused" \
	"^sandbox: read-only host: .*\.t-cell-escape: Read-only file system" "$(cell_detail 1 - escape)"
# Outside the run dir and WORKDIR, where only a -rw input lets it write.
OUTDIR=$(mktemp -d "$T_TOP/.t-cell-out.XXXXXX")
cell_prog 1 - reader __step_facts
t_eq "an input the program reads: the sandbox keeps it from writing there" \
	"the sandbox stopped what it ran: read-only host (1)|no file" \
	"$(rec_get "$(cell_rec 1 - reader)" summary)|$(
		[[ -e "$OUTDIR/made" ]] && echo written || echo no file)"
cell_prog 1 - writer __step_facts
t_eq "an input whose name ends in -rw: the program writes there" \
	"wrote|x" "$(rec_get "$(cell_rec 1 - writer)" summary)|$(cat "$OUTDIR/made" 2>&1)"
rm -rf "$OUTDIR"
: > "$CALLS"
cell_prog 1 tA r __step_facts
cell_prog 1 tB r __step_facts
t_eq "a target-scope program: a cell per target, the target and the step's facts given to its providers" \
	"2|ok|where=tA at 1 of c1|where=tB at 1 of c1" \
	"$(calls r)|$(rec_get "$(cell_rec 1 tA r)" status)|$(rec_get "$(cell_rec 1 tA r)" summary | cut -d' ' -f1-5)|$(rec_get "$(cell_rec 1 tB r)" summary | cut -d' ' -f1-5)"
t_eq "its inputs file is named by its cell" "where	tB at 1 of c1" \
	"$(grep '^where' "$RUNDIR/inputs/1-tB-r.tsv")"
# shellcheck disable=SC2317,SC2034
input_beta() { local -n v=$1 k=$2; v=$'two\tfields'; k=x; }
: > "$CALLS"
cell_prog 1 - q __step_facts
t_eq "an input value with a tab: no verdict, the program not run" \
	"0|FAIL|the driver could not give its input 'beta' (input_beta)|1" \
	"$(calls q)|$(rec_get "$(cell_rec 1 - q)" status)|$(rec_get "$(cell_rec 1 - q)" summary)|$(rec_get "$(cell_rec 1 - q)" nocache)"
# shellcheck disable=SC2317
input_beta() { return 1; }
cell_prog 1 - q __step_facts
t_eq "a provider that fails: no verdict" "FAIL|1" \
	"$(rec_get "$(cell_rec 1 - q)" status)|$(rec_get "$(cell_rec 1 - q)" nocache)"
# shellcheck disable=SC2317
cell_prog_sub() { (cell_prog "$@"); }
t_rc "an input the driver has no provider for stops the run (exit 2)" 2 cell_prog_sub 1 - lost __step_facts
t_grep "and names the stage, the input and the function to define" \
	"stage lost: the driver has no input 'nosuch' .*define input_nosuch" "$T_OUT"

# --- report (C) follows the same cell ids: it finds the details ---
new_run r7
series_label_set 1 1/1
STAGE_DIR=$T_TOP/tools/stages
load_stages "$T_TOP/tools/stages.tsv"
stages_write "$RUNDIR/stages.tsv"
printf 'tA\tx86_64\tgcc\tyes\n' > "$RUNDIR/targets.tsv"
printf 'debian\tlinux-source-6.1\n' > "$RUNDIR/meta.tsv"
printf '0\t0\t%040d\tprep\n1\t1/1\t%040d\tthe patch\n' 0 1 > "$RUNDIR/steps.tsv"
# shellcheck disable=SC2317
fake_fail_said() { echo "detail of $4" > "$3"; result "$1" FAIL "broke $4"; }
cell_run 1 - checkpatch kc1 - fake_fail_said step-scope
cell_run 1 tA build kb1 - fake_fail_said target-scope
new_run r8
cp "$WORKDIR/runs/r7/"{stages,targets,meta,steps}.tsv "$RUNDIR/"
cell_run 1 - checkpatch kc1 - fake_fail_said step-scope
cell_run 1 tA build kb1 - fake_fail_said target-scope
t_rc "report of the fake cells: exit 1 (they failed)" 1 "$T_BIN/report" "$RUNDIR"
t_grep "report finds a step-scope cell's details by cell.sh's id" \
	'^    # detail of step-scope$' "$RUNDIR/report.ktap"
t_grep "report finds a target-scope cell's details by cell.sh's id" \
	'^        # detail of target-scope$' "$RUNDIR/report.ktap"
t_grep "report shows a cached cell as such, with the run it came from" \
	'^        not ok 1 build # [0-9.]+s cached: from run r7: broke target-scope$' "$RUNDIR/report.ktap"


# --- a cached boot cell brings back the hang monitor's findings ---
# fake_hang(): a boot cell of a guest that hung: the monitor's capture
# and what it found, beside the console.
# shellcheck disable=SC2317  # called through cell_run
fake_hang()
{
	local b

	b=$RUNDIR/boot/$(cell_id 1 tA)
	mkdir -p "$b"
	echo "console" > "$b/console.log"
	echo "raw" > "$b/hang.raw"
	printf 'idle\t2\ntitle\tINFO: task hung in kernel_init\n' > "$b/hang.tsv"
	result "$1" FAIL "timeout: INFO: task hung in kernel_init"
}
new_run r20
cell_run 1 tA boot khang - fake_hang 2> /dev/null
new_run r21
cell_run 1 tA boot khang - fake_hang 2> /dev/null
t_eq "a cached hung boot: served, with the console, the capture and the monitor's findings" \
	"r20/1-tA-boot|console|raw|idle	2" \
	"$(rec_get "$(cell_rec 1 tA boot)" cached-from)|$(cat "$RUNDIR/boot/1-tA/console.log" 2>&1)|$(cat "$RUNDIR/boot/1-tA/hang.raw" 2>&1)|$(head -n 1 "$RUNDIR/boot/1-tA/hang.tsv" 2>&1)"

t_done
