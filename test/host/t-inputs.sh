#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-inputs.sh - tests of the driver's input providers (tools/inputs.sh)
# on a small git repo made here: each gives the value a stage program
# reads, and a key part that changes exactly when what decides the
# result changes (a commit's patch, a tree, a file's blob, a config's
# text), not when only a path or an unrelated file does. Then the keys
# of the cc and kdoc cells as the driver makes them from the table: an
# edit that changes nothing they read keeps them, one that does changes
# them (cc's with the kernel's own get_maintainer.pl, which also shows
# whom it names).

# shellcheck disable=SC2030,SC2031  # some checks change a step in a subshell, on purpose
# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# The tree bisect-check imported (make lint's checkpatch.pl comes from
# it too): the kernel's own get_maintainer.pl, which tools/gm-view.pl
# knows.
KGIT=${WORKDIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bisect-check}/kernel.git
export WORKDIR=$T_TMP/workdir
mkdir -p "$WORKDIR"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/findings.sh
source "$T_TOP/tools/findings.sh"
# shellcheck source=tools/cell.sh
source "$T_TOP/tools/cell.sh"
# shellcheck source=tools/inputs.sh
source "$T_TOP/tools/inputs.sh"
# What a step declares (series_step), as a loaded series would say it.
# shellcheck source=tools/series.sh
source "$T_TOP/tools/series.sh"

# A tree with the files the providers look at, and four commits: the
# base; one that touches a C file; one that changes MAINTAINERS; one
# with the same tree as the one before it but another message.
KREPO=$T_TMP/k.git
W=$T_TMP/w
git init -q --bare "$KREPO"
mkdir -p "$W/scripts"
g() { git --git-dir="$KREPO" --work-tree="$W" "$@"; }
echo 'M: A <a@example.org>' > "$W/MAINTAINERS"
printf 'print "gm";\n' > "$W/scripts/get_maintainer.pl"
printf 'print "cp";\n' > "$W/scripts/checkpatch.pl"
echo 'teh the' > "$W/scripts/spelling.txt"
echo 'file_operations' > "$W/scripts/const_structs.checkpatch"
echo 'int a;' > "$W/a.c"
export GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=T \
	GIT_COMMITTER_EMAIL=t@example.org GIT_AUTHOR_DATE='2026-01-01 00:00 +0000' \
	GIT_COMMITTER_DATE='2026-01-01 00:00 +0000'
commit() { g add -A && g commit -q --allow-empty -m "$1" && g rev-parse HEAD; }
shas=("$(commit base)")
echo 'int a = 1;' > "$W/a.c"
shas+=("$(commit 'a: set a')")
echo 'M: B <b@example.org>' >> "$W/MAINTAINERS"
shas+=("$(commit 'MAINTAINERS: add B')")
shas+=("$(commit 'another message, the same tree')")
trees=()
for s in "${shas[@]}"; do
	trees+=("$(g rev-parse "$s^{tree}")")
done
series_patch_set 1 /x/0001-a.patch
series_patch_set 2 /y/0002-m.patch
series_patch_set 3 /z/0003-e.patch
RUNDIR=$T_TMP/run
mkdir -p "$RUNDIR/accept"
SERIES=$T_TMP/series.yaml
B4CONFIG=$T_TMP/b4config
printf '[b4]\n' > "$B4CONFIG"
inputs_set b4config "$B4CONFIG"

# The steps' commits and trees (shas, trees, above), builds (arts:
# "STEP:TARGET" -> dir) and base: what the driver knows of the run, here
# the test's; key and val give the providers the step facts step_facts
# makes of them, as the driver does.
declare -A arts=()
base=

# key(): the key part provider $1 gives at step $2 (stage $3, default s;
# target $4, default none).
key()
{
	local v='' k=''
	local -A __step_facts
	step_facts __step_facts "$2" "${4:--}" shas trees arts "$base"
	"input_$1" v k "$2" "${3:-s}" "${4:-}" __step_facts || { echo "(failed)"; return; }
	echo "$k"
}

# val(): the value provider $1 gives at step $2 (stage $3, default s;
# target $4, default none).
val()
{
	local v='' k=''
	local -A __step_facts
	step_facts __step_facts "$2" "${4:--}" shas trees arts "$base"
	"input_$1" v k "$2" "${3:-s}" "${4:-}" __step_facts || { echo "(failed)"; return; }
	echo "$v"
}

t_plan 61

# --- a commit: by its patch ---
t_eq "commit: the value is the step's commit" "${shas[1]}" "$(val commit 1)"
t_eq "commit: asked twice, the same key" "$(key commit 1)" "$(key commit 1)"
t_eq "commit: another commit, another key" yes \
	"$([[ "$(key commit 1)" != "$(key commit 2)" ]] && echo yes || echo no)"
t_eq "commit: a step that did not apply gives no value" "(failed)" \
	"$(shas[1]=-; key commit 1)"

# --- a tree: by its id, whatever the message ---
t_eq "commit-tree: the same tree under another message, the same key" \
	"$(key commit_tree 2)" "$(key commit_tree 3)"
t_eq "commit-tree: a changed file, another key" yes \
	"$([[ "$(key commit_tree 1)" != "$(key commit_tree 2)" ]] && echo yes || echo no)"
t_eq "parent: the value is the commit before, the key its tree" \
	"${shas[1]} ${trees[1]}" "$(val parent 2) $(key parent 2)"
t_eq "parent: known from git when the step before was not checked" "${trees[1]}" \
	"$(trees=() key parent 2)"

# --- files of the step's tree: by their blobs ---
t_eq "maintainers: unchanged files, the same key" "$(key maintainers 0)" "$(key maintainers 1)"
t_eq "maintainers: a changed MAINTAINERS, another key" yes \
	"$([[ "$(key maintainers 1)" != "$(key maintainers 2)" ]] && echo yes || echo no)"
t_eq "maintainers: the key is the blobs of MAINTAINERS and get_maintainer.pl" \
	"$(g rev-parse "${shas[2]}:MAINTAINERS" "${shas[2]}:scripts/get_maintainer.pl" | paste -sd ' ')" \
	"$(key maintainers 2)"
t_eq "checkpatch-script: its blobs and what it runs with" \
	"$(g rev-parse "${shas[1]}:scripts/checkpatch.pl" "${shas[1]}:scripts/spelling.txt" \
		"${shas[1]}:scripts/const_structs.checkpatch" | paste -sd ' ') $(codespell --version)" \
	"$(key checkpatch_script 1)"
t_eq "checkpatch-script: a step without checkpatch.pl gives no value" "(failed)" \
	"$(rm -rf "$WORKDIR/memo"; shas[1]=$(g hash-object -t blob -w --stdin <<< x); \
		key checkpatch_script 1)"

# --- run dir files: the path is the value, the content the key ---
t_eq "patch-out: under the run dir by stage, named as the series names it; the key is the name" \
	"$RUNDIR/patches/tags/0001-a.patch|0001-a.patch" "$(val patch_out 1 tags)|$(key patch_out 1 tags)"
series_step_set findings-accept 1 $'kdoc\tnew\ta.c\tmissing\tthe reason\ntags\tnew\t-\tFixes\tanother'
t_eq "accept: the step's accepted findings of the stage, written to its file" \
	$'new\ta.c\tmissing\tthe reason' "$(val accept 1 kdoc >/dev/null; cat "$RUNDIR/accept/1-kdoc.tsv")"
t_eq "accept: the key is that text, so another acceptance is another key" yes \
	"$([[ "$(key accept 1 kdoc)" == $'new\ta.c\tmissing\tthe reason' && \
		"$(key accept 1 tags)" != "$(key accept 1 kdoc)" ]] && echo yes || echo no)"
t_eq "accept: no accepted finding, an empty file and key" "0|" \
	"$(val accept 2 kdoc > /dev/null; wc -c < "$RUNDIR/accept/2-kdoc.tsv")|$(key accept 2 kdoc)"

# --- the worktree: the value is where it is, the key the step's tree ---
WT=$T_TMP/wt
t_eq "worktree: the value is the driver's worktree, the key the step's tree" \
	"$WT|${trees[1]}" "$(val worktree 1)|$(key worktree 1)"
t_eq "worktree: the same tree under another message, the same key" \
	"$(key worktree 2)" "$(key worktree 3)"
t_eq "worktree: a step whose tree is not known gives no value" "(failed)" \
	"$(trees=() key worktree 1)"

# --- what the apply program reads and writes ---
base=${shas[0]}
t_eq "onto: the base at the preparation, the step before's commit else; keyed by the id" \
	"$base $base|${shas[1]} ${shas[1]}" \
	"$(val onto 0) $(key onto 0)|$(val onto 2) $(key onto 2)"
t_eq "onto: a step before that did not apply gives no value" "(failed)" \
	"$(shas[1]=-; key onto 2)"
# --- a build's artifacts: the run's, by step and target ---
arts=([1:tA]=/w/artifacts/k1a [0:tA]=/w/artifacts/k0a [1:tB]=/w/artifacts/k1b)
t_eq "build-art: the step's build on the target, keyed by its dir's name (the build key)" \
	"/w/artifacts/k1a k1a|/w/artifacts/k1b k1b" \
	"$(val build_art 1 s tA) $(key build_art 1 s tA)|$(val build_art 1 s tB) $(key build_art 1 s tB)"
t_eq "build-art: no build of the step on the target gives no value" "(failed)" \
	"$(key build_art 2 s tA)"
t_eq "prev-build-art: the same target's build of the step before, from this run" \
	"/w/artifacts/k0a k0a" "$(val prev_build_art 1 s tA) $(key prev_build_art 1 s tA)"
# shellcheck disable=SC2034  # given by name (step_facts)
arts=()
t_eq "worktree-rw, kernel-repo-rw: where they are, no key (onto's commit is their content)" \
	"$WT||$KREPO|" "$(val worktree_rw 1)|$(key worktree_rw 1)|$(val kernel_repo_rw 1)|$(key kernel_repo_rw 1)"
mkdir -p "$T_TMP/p" "$RUNDIR/inputs"
echo one > "$T_TMP/p/0001-a.patch"
echo two > "$T_TMP/p/0002-b.patch"
cp "$T_TMP/p/0001-a.patch" "$T_TMP/p/copy.patch"
t_eq "patches: the step's patch files, one a line, in a file the cell names" \
	"$RUNDIR/inputs/1-apply.patches|$T_TMP/p/0001-a.patch" \
	"$(series_patch_set 1 "$T_TMP/p/0001-a.patch"; v=$(val patches 1 apply); echo "$v|$(cat "$v")")"
t_eq "patches: the preparation's, in order, at step 0" \
	"$T_TMP/p/0002-b.patch $T_TMP/p/0001-a.patch" \
	"$(series_prep_set "$T_TMP/p/0002-b.patch" "$T_TMP/p/0001-a.patch"; \
		v=$(val patches 0 apply); paste -sd ' ' "$v")"
t_eq "patches: the same file again, the same key; another content or another path, another" \
	"same|other|other" \
	"$(series_patch_set 1 "$T_TMP/p/0001-a.patch"; k=$(key patches 1); \
	   [[ "$(key patches 1)" == "$k" ]] && echo same || echo other)|$( \
	   series_patch_set 1 "$T_TMP/p/0001-a.patch"; k=$(key patches 1); echo changed >> "$T_TMP/p/0001-a.patch"; \
	   [[ "$(key patches 1)" == "$k" ]] && echo same || echo other)|$( \
	   series_patch_set 1 "$T_TMP/p/0002-b.patch"; k=$(key patches 1); cp "$T_TMP/p/0002-b.patch" "$T_TMP/p/b2.patch"; \
	   series_patch_set 1 "$T_TMP/p/b2.patch"; [[ "$(key patches 1)" == "$k" ]] && echo same || echo other)"
t_eq "patches: a patch file gone gives no value" "(failed)" \
	"$(series_patch_set 1 "$T_TMP/p/nosuch.patch"; key patches 1)"
t_eq "git: no value, its version the key" "-|$(git --version)" "$(val git 1)|$(key git 1)"

# --- the checkpatch.pl types a step accepts, as TYPE=REASON lines ---
series_step_set checkpatch-accept 1 $'LONG_LINE=a quoted log line\nUNKNOWN_COMMIT_ID=not in the tree'
t_eq "checkpatch-accept: the step's types with their reasons, written to its file" \
	$'LONG_LINE=a quoted log line\nUNKNOWN_COMMIT_ID=not in the tree' \
	"$(val checkpatch_accept 1 > /dev/null; cat "$RUNDIR/accept/1-checkpatch-types.txt")"
t_eq "checkpatch-accept: another reason, another key; none accepted, an empty key" yes \
	"$([[ "$(key checkpatch_accept 1)" != "$(series_step_set checkpatch-accept 1 \
		$'LONG_LINE=other\nUNKNOWN_COMMIT_ID=not in the tree'; key checkpatch_accept 1)" &&
		-z "$(key checkpatch_accept 2)" ]] && echo yes || echo no)"

# --- whether the series judges its exports' changes ---
t_eq "abi-judged: yes for a series file, no for one just taken in (inputs_set abi-judged no)" "yes|no" \
	"$(key abi_judged 1)|$(inputs_set abi-judged no; key abi_judged 1)"

# --- the settings and ids of the run ---
t_eq "b4config: the path is the value; path and text the key" "$B4CONFIG|$B4CONFIG [b4]" \
	"$(val b4config 1)|$(key b4config 1)"
t_eq "auto-cc: 1 unless AUTO_CC says otherwise" "1 0" "$(key auto_cc 1) $(AUTO_CC=0 key auto_cc 1)"
t_eq "perl, robot-tools: no value, their versions the key" \
	"-|$(perl --version)|-|$(robot_tools_id v; echo "$v")" \
	"$(val perl 1)|$(key perl 1)|$(val robot_tools 1)|$(key robot_tools 1)"
t_eq "series, idx: the value and the key" "$SERIES|$SERIES|2|2" \
	"$(val series 2)|$(key series 2)|$(val idx 2)|$(key idx 2)"

# --- the cc and kdoc cells' keys, from the table (cell_prog_inputs) ---
# A second history in the same repo: a tree with two maintained dirs
# (beta's entry has a K: keyword), the kernel's get_maintainer.pl and a
# stand-in scripts/kernel-doc, and commits made on a chosen parent.
REF=$(git --git-dir="$KGIT" for-each-ref --count=1 --format='%(refname)' refs/heads/import/ \
	2> /dev/null)
if [[ -n "$REF" ]]; then
	git --git-dir="$KGIT" show "$REF:scripts/get_maintainer.pl" > "$T_TMP/get_maintainer.pl"
else
	tar -xOf "$(find /usr/src -maxdepth 1 -name 'linux-source-*.tar.xz' | sort | tail -n 1)" \
		--wildcards '*/scripts/get_maintainer.pl' > "$T_TMP/get_maintainer.pl"
fi
[[ -s "$T_TMP/get_maintainer.pl" ]] ||
	die "no get_maintainer.pl: run 'make bisect-check' (imports the kernel) first"
rm -rf "$W"
mkdir -p "$W/scripts" "$W/drivers/alpha" "$W/drivers/beta" "$W/drivers/gamma"
cp "$T_TMP/get_maintainer.pl" "$W/scripts/get_maintainer.pl"
cat > "$W/MAINTAINERS" <<'EOF2'
ALPHA DRIVER
M:	Alpha Maint <alpha@example.org>
L:	alpha-list@example.org
S:	Maintained
F:	drivers/alpha/

BETA DRIVER
M:	Beta Maint <beta@example.org>
S:	Maintained
F:	drivers/beta/
K:	\bbeta_magic\b

GAMMA DRIVER
M:	Gamma Maint <gamma@example.org>
S:	Maintained
F:	drivers/gamma/
EOF2
echo 'kernel-doc v1' > "$W/scripts/kernel-doc"
printf 'int a;\n' > "$W/drivers/alpha/a.c"
printf 'int b;\n' > "$W/drivers/beta/b.c"
printf 'int g;\n' > "$W/drivers/gamma/g.c"
echo readme > "$W/README"
g read-tree --empty
B0=$(commit 'the second base')

# on(): commit, on commit $1, the files $3... with text (FILE=TEXT; the
# text's \n as newlines) and message $2; prints the commit.
on()
{
	local parent=$1; shift
	local msg=$1; shift
	local f

	g read-tree -u --reset "$parent" && g reset -q --soft "$parent" || return 1
	for f in "$@"; do
		printf '%b' "${f#*=}" > "$W/${f%%=*}"
	done
	commit "$msg"
}

# cell_key(): the key of stage $1's cell for commit $3 as the step after
# commit $2 (the driver's own cell_prog_inputs on the table's inputs).
cell_key()
{
	local shas=("$2" "$3") trees=()
	local key
	local -A __step_facts

	series_patch_set 1 /p/0001-x.patch
	trees=("$(g rev-parse "$2^{tree}")" "$(g rev-parse "$3^{tree}")")
	step_facts __step_facts 1 - shas trees arts "$base"
	if cell_prog_inputs key 1 - "$1" __step_facts > /dev/null 2>&1; then
		echo "$key"
	else
		echo "(failed)"
	fi
}

# same(): "same" when $1 and $2 are, else "different".
same()
{
	if [[ "$1" == "$2" ]]; then echo same; else echo different; fi
}

# gm(): what the kernel's get_maintainer.pl says of commit $1's patch
# (run as tools/stages/cc runs it, on a tree of MAINTAINERS and itself).
gm()
{
	mkdir -p "$T_TMP/gm/scripts"
	g show "$1:MAINTAINERS" > "$T_TMP/gm/MAINTAINERS"
	cp "$T_TMP/get_maintainer.pl" "$T_TMP/gm/scripts/"
	g format-patch -1 --stdout "$1" > "$T_TMP/gm.patch"
	(cd "$T_TMP/gm" && perl scripts/get_maintainer.pl --no-tree --nogit --nogit-fallback \
		--rolestats < "$T_TMP/gm.patch" 2> /dev/null)
}

STAGE_DIR=$T_TOP/tools/stages
load_stages "$T_TOP/tools/stages.tsv"
mkdir -p "$RUNDIR/inputs"
series_label_set 1 1/1
# The daily loop: 1/1 edits a comment of alpha's file; its next version
# words the comment and the message otherwise.
C1=$(on "$B0" $'alpha: note the counter\n\nA first message.' \
	'drivers/alpha/a.c=/* the counter */\nint a;\n')
C1B=$(on "$B0" $'alpha: note the counter\n\nAnother message, longer,\nover two lines.' \
	'drivers/alpha/a.c=/* the counter of alpha, reworded */\nint a;\n')
C1K=$(on "$B0" $'alpha: note the counter\n\nA first message.' \
	'drivers/alpha/a.c=/* the counter */\nint a;\nint beta_magic;\n')
C1M=$(on "$B0" $'alpha: note the counter\n\nLike beta_magic.' \
	'drivers/alpha/a.c=/* the counter */\nint a;\n')
C1G=$(on "$B0" $'alpha: note the counter\n\nA first message.' \
	'drivers/alpha/a.c=/* the counter */\nint a;\n' 'drivers/gamma/g.c=/* g */\nint g;\n')

t_eq "cc: a comment and the message edited (alpha has no K:), the same key" same \
	"$(same "$(cell_key cc "$B0" "$C1")" "$(cell_key cc "$B0" "$C1B")")"
t_eq "cc: ... as get_maintainer.pl names the same people for both" same \
	"$(same "$(gm "$C1")" "$(gm "$C1B")")"
t_eq "cc: a line that matches beta's K: pattern, another key" different \
	"$(same "$(cell_key cc "$B0" "$C1")" "$(cell_key cc "$B0" "$C1K")")"
t_grep "cc: ... as get_maintainer.pl then names beta's maintainer" 'beta@example.org' \
	<(gm "$C1K")
t_eq "cc: a message that matches it, another key (the intro is matched whole)" different \
	"$(same "$(cell_key cc "$B0" "$C1")" "$(cell_key cc "$B0" "$C1M")")"
t_eq "cc: another file touched, another key" different \
	"$(same "$(cell_key cc "$B0" "$C1")" "$(cell_key cc "$B0" "$C1G")")"
t_eq "cc: the key is of the patch as get_maintainer.pl reads it, and of tools/gm-view.pl" \
	"gm-view $(hash_files "$TOP/tools/gm-view.pl")" \
	"$(shas=("$B0" "$C1"); k=$(key commit_gm_view 1); echo "${k% *}")"
cat > "$T_TMP/b4-own" <<'EOF2'
[b4]
	send-auto-to-cmd = scripts/get_maintainer.pl --no-tree --nogit --nogit-fallback --nogit-chief-penguins --norolestats --nol
	send-auto-cc-cmd = scripts/get_maintainer.pl --no-tree --nogit --nogit-fallback --nogit-chief-penguins --norolestats --nom
EOF2
printf '[b4]\n\tsend-auto-cc-cmd = scripts/my-cc.sh --all\n' > "$T_TMP/b4-custom"
t_eq "cc: get_maintainer.pl with options that only choose what it prints, the same key" same \
	"$(inputs_set b4config "$T_TMP/b4-own"; shas=("$B0" "$C1")
		same "$(key commit_gm_view 1 | cut -d' ' -f1)" gm-view)"
t_eq "cc: a send-auto-cc-cmd of one's own, an edit of the comment changes the key" different \
	"$(inputs_set b4config "$T_TMP/b4-custom"
		same "$(cell_key cc "$B0" "$C1")" "$(cell_key cc "$B0" "$C1B")")"
t_eq "cc: ... as the key is then the whole patch" "patch $(patch_sum s "$C1"; echo "$s")" \
	"$(inputs_set b4config "$T_TMP/b4-custom"; shas=("$B0" "$C1"); key commit_gm_view 1)"
t_eq "cc: ... unless make send runs no command (AUTO_CC=0)" gm-view \
	"$(inputs_set b4config "$T_TMP/b4-custom"; AUTO_CC=0; shas=("$B0" "$C1")
		k=$(key commit_gm_view 1); echo "${k%% *}")"
t_eq "cc: a step that did not apply gives no value" "(failed)" \
	"$(shas=("$B0" -); key commit_gm_view 1)"
t_eq "... and leaves no blob ids of '-' in the memo, nor git's complaint" "1|" \
	"$(blobs_at b maintainers-blobs - MAINTAINERS 2>&1; echo "$?")|$(memo_get b maintainers-blobs - && echo "$b")"
t_eq "cc: a get_maintainer.pl gm-view.pl does not know, the whole patch" \
	"patch $(patch_sum s "${shas[1]}"; echo "$s")" "$(key commit_gm_view 1)"

# kdoc: 1/1 touches alpha's file, on bases that differ elsewhere or not.
K1=$(on "$B0" 'alpha: doc' 'drivers/alpha/a.c=/** a - the a */\nint a;\n')
BX=$(on "$B0" 'base: elsewhere' 'drivers/beta/b.c=int b = 2;\n' 'README=other\n')
K1X=$(on "$BX" 'alpha: doc' 'drivers/alpha/a.c=/** a - the a */\nint a;\n')
K1R=$(on "$B0" 'alpha: doc, and a README' 'drivers/alpha/a.c=/** a - the a */\nint a;\n' \
	'README=more\n')
K1C=$(on "$B0" 'alpha: other doc' 'drivers/alpha/a.c=/** a - another a */\nint a;\n')
BA=$(on "$B0" 'base: alpha before' 'drivers/alpha/a.c=int a; /* before */\n')
K1A=$(on "$BA" 'alpha: doc' 'drivers/alpha/a.c=/** a - the a */\nint a;\n')
BK=$(on "$B0" 'base: kernel-doc' 'scripts/kernel-doc=kernel-doc v2\n')
K1K=$(on "$BK" 'alpha: doc, kernel-doc back' 'drivers/alpha/a.c=/** a - the a */\nint a;\n' \
	'scripts/kernel-doc=kernel-doc v1\n')
K1S=$(on "$B0" 'alpha: doc, kernel-doc' 'drivers/alpha/a.c=/** a - the a */\nint a;\n' \
	'scripts/kernel-doc=kernel-doc v2\n')
KEY=$(cell_key kdoc "$B0" "$K1")
t_eq "kdoc: a change elsewhere in the parent's tree, the same key" same \
	"$(same "$KEY" "$(cell_key kdoc "$BX" "$K1X")")"
t_eq "kdoc: ... where the trees' key was another" different \
	"$(same "$(trees=(- "$(g rev-parse "$K1^{tree}")"); key commit_tree 1)" \
		"$(trees=(- "$(g rev-parse "$K1X^{tree}")"); key commit_tree 1)")"
t_eq "kdoc: a file that is no C file or header changed too, the same key" same \
	"$(same "$KEY" "$(cell_key kdoc "$B0" "$K1R")")"
t_eq "kdoc: the touched file otherwise at the commit, another key" different \
	"$(same "$KEY" "$(cell_key kdoc "$B0" "$K1C")")"
t_eq "kdoc: the touched file otherwise at the parent, another key" different \
	"$(same "$KEY" "$(cell_key kdoc "$BA" "$K1A")")"
t_eq "kdoc: scripts/kernel-doc otherwise at the parent, another key" different \
	"$(same "$KEY" "$(cell_key kdoc "$BK" "$K1K")")"
t_eq "kdoc: scripts/kernel-doc otherwise at the commit, another key" different \
	"$(same "$KEY" "$(cell_key kdoc "$B0" "$K1S")")"
t_eq "kdoc: the values the program reads: the commit's tree, the parent" \
	"$(g rev-parse "$K1^{tree}")|$B0|-" \
	"$(shas=("$B0" "$K1"); trees=([1]="$(g rev-parse "$K1^{tree}")")
		echo "$(val commit_c_files 1)|$(val parent_c_files 1)|$(val kernel_doc_script 1)")"
t_eq "kdoc: a step whose tree is not known gives no value" "(failed)" \
	"$(shas=("$B0" "$K1"); trees=(); key commit_c_files 1)"

t_done
