#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-exports.sh - tests of the exports cell's cache (tools/stages/
# exports.sh) on a small real git repository and a W=1 dir of kbuild-like
# records: its key is what a commit removes, not the tree
# (exports_plan); what a cell read is the candidates and what kdeps
# finds in the records of the objects it compiled (exports_reads); a
# cached cell holds for a new tree exactly when no path it read, no
# build input and no new candidate changed (exports_holds), by git
# alone; the validator says why and keeps its list across runs through
# the cache (exports_valid, cell_lookup, CACHE_EVIDENCE).

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

export WORKDIR=$T_TMP/workdir
mkdir -p "$WORKDIR"
# shellcheck source=tools/lib.sh
source "$T_TOP/tools/lib.sh"
# shellcheck source=tools/cell.sh
source "$T_TOP/tools/cell.sh"
# shellcheck source=tools/stages/wcheck.sh
source "$T_TOP/tools/stages/wcheck.sh"
# shellcheck source=tools/stages/exports.sh
source "$T_TOP/tools/stages/exports.sh"

D=$T_TMP/exports
TAB=$'\t'
for i in 1 2 3; do
	series_label_set "$i" "$i/3"
done

t_plan 44

# --- the tree: an exporter, a modular user, its headers, a Makefile ---
KREPO=$D/k.git
WT=$D/src
git init -q --bare "$KREPO"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@localhost GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@localhost
mkdir -p "$WT/kernel" "$WT/drivers/a" "$WT/drivers/b" "$WT/include/linux" \
	"$WT/arch/x86/include/asm" "$WT/scripts" "$WT/Documentation"
printf '/* kallsyms */\nint foo_sym;\nEXPORT_SYMBOL_GPL(foo_sym);\nint bar_sym;\nEXPORT_SYMBOL(bar_sym);\n' \
	> "$WT/kernel/kallsyms.c"
printf '#include <linux/dep.h>\nint f(void) { return foo_sym; }\n' > "$WT/drivers/a/user.c"
echo 'obj-m += user.o' > "$WT/drivers/a/Makefile"
echo 'int plain;' > "$WT/drivers/b/plain.c"
echo '#define DEP 1' > "$WT/include/linux/dep.h"
echo '#define OTHER 1' > "$WT/include/linux/other.h"
echo '#define FEAT 1' > "$WT/arch/x86/include/asm/feat.h"
echo '{ print }' > "$WT/scripts/feat.awk"
echo 'Text.' > "$WT/Documentation/x.rst"

# commit_of(): commit the worktree onto $1; print its id.
commit_of()
{
	GIT_INDEX_FILE=$D/k.index git --git-dir="$KREPO" --work-tree="$WT" add -A . &&
		GIT_INDEX_FILE=$D/k.index git --git-dir="$KREPO" commit-tree ${1:+-p "$1"} -m c \
		"$(GIT_INDEX_FILE=$D/k.index git --git-dir="$KREPO" write-tree)"
}

# tree_with(): print the tree of $1 with file $2 made of text $3, or
# without it when $3 is "-".
tree_with()
{
	local blob

	export GIT_INDEX_FILE=$D/v.index
	git --git-dir="$KREPO" read-tree "$1"
	if [[ "$3" == - ]]; then
		printf '0 %040d\t%s\n' 0 "$2" | git --git-dir="$KREPO" update-index --index-info
	else
		blob=$(printf '%s\n' "$3" | git --git-dir="$KREPO" hash-object -w --stdin)
		git --git-dir="$KREPO" update-index --add --cacheinfo "100644,$blob,$2"
	fi
	git --git-dir="$KREPO" write-tree
	unset GIT_INDEX_FILE
}

PARENT=$(commit_of "")
sed -i '/EXPORT_SYMBOL_GPL(foo_sym)/d' "$WT/kernel/kallsyms.c"
COMMIT=$(commit_of "$PARENT")
TREE=$(git --git-dir="$KREPO" rev-parse "$COMMIT^{tree}")
PTREE=$(git --git-dir="$KREPO" rev-parse "$PARENT^{tree}")
REMOVED=$(exports_removed "$PARENT" "$COMMIT")
t_eq "the commit removes foo_sym from kernel/kallsyms.c (bar_sym stays)" \
	"foo_sym${TAB}kernel/kallsyms.c" "$REMOVED"

# --- what the cell read: the candidate, what its object's record names ---
W1=$D/w1
mkdir -p "$W1/drivers/a" "$W1/include/generated"
cat > "$W1/drivers/a/.user.o.cmd" <<EOF
savedcmd_drivers/a/user.o := gcc -nostdinc -I$WT/include -I./include -c -o drivers/a/user.o $WT/drivers/a/user.c

source_drivers/a/user.o := $WT/drivers/a/user.c

deps_drivers/a/user.o := \\
  $WT/include/linux/dep.h \\
    \$(wildcard include/config/FOO) \\
  include/generated/feat.h \\

EOF
cat > "$W1/include/generated/.feat.h.cmd" <<EOF
savedcmd_include/generated/feat.h := awk -f $WT/scripts/feat.awk $WT/arch/x86/include/asm/feat.h > include/generated/feat.h
EOF
# shellcheck disable=SC2034  # exports_reads's, by name
OBJS=(drivers/a/user.o)
READS=$D/reads
exports_reads "$READS" "$W1" OBJS "$D/log" drivers/a/user.c
t_eq "read: the candidate, its header, and through the generated header its inputs" \
	"$(printf '%s\n' arch/x86/include/asm/feat.h drivers/a/user.c include \
		include/linux/dep.h scripts/feat.awk)" "$(cat "$READS")"
# shellcheck disable=SC2034
NOOBJ=(drivers/a/gone.o)
exports_reads "$D/reads-star" "$W1" NOOBJ "$D/log" drivers/a/user.c
t_grep "an object without a record: what it read is not known (*)" '^\*$' "$D/reads-star"

# --- whether the cached cell holds for a new tree ---
# holds(): "holds" or "stale", then why, for the cell made on TREE with
# the reads file $2 (default READS), for tree $1.
holds()
{
	local why
	if exports_holds why "$REMOVED" "$TREE" "${2:-$READS}" "$1"; then
		echo "holds: $why"
	else
		echo "stale: $why"
	fi
}
# verdict(): holds() without the why.
verdict()
{
	local v
	v=$(holds "$@")
	echo "${v%%:*}"
}

t_eq "the same tree: holds" "holds: 0 path(s) changed, none of the 5 it read, no build input, no new candidate" \
	"$(holds "$TREE")"
t_eq "a C file outside what it read changed: holds" holds \
	"$(verdict "$(tree_with "$TREE" drivers/b/plain.c 'int plain2;')")"
t_eq "the exporter's comment edited (the daily loop): holds" \
	"holds: 1 path(s) changed, none of the 5 it read, no build input, no new candidate" \
	"$(holds "$(tree_with "$TREE" kernel/kallsyms.c "$(sed 's|kallsyms|kallsyms, edited|' \
		"$WT/kernel/kallsyms.c")")")"
t_eq "a header none of its objects read changed: holds" holds \
	"$(verdict "$(tree_with "$TREE" include/linux/other.h '#define OTHER 2')")"
t_eq "the documentation's text changed: holds" holds \
	"$(verdict "$(tree_with "$TREE" Documentation/x.rst 'Other text.')")"
t_eq "a new C file that does not name the symbol: holds" holds \
	"$(verdict "$(tree_with "$TREE" drivers/c/new.c 'int new_one;')")"
t_eq "a new C file naming an export still there (bar_sym): holds" holds \
	"$(verdict "$(tree_with "$TREE" drivers/c/new.c 'int g(void) { return bar_sym; }')")"
t_eq "a new C file naming it in a longer word: holds (git grep -w)" holds \
	"$(verdict "$(tree_with "$TREE" drivers/c/new.c 'int foo_sym_count;')")"

t_eq "the candidate changed: stale" \
	"stale: drivers/a/user.c, which it read, changed" \
	"$(holds "$(tree_with "$TREE" drivers/a/user.c 'int f(void) { return 0; }')")"
t_eq "the candidate deleted: stale" \
	"stale: drivers/a/user.c, which it read, changed" \
	"$(holds "$(tree_with "$TREE" drivers/a/user.c -)")"
t_eq "a header its object read changed: stale" \
	"stale: include/linux/dep.h, which it read, changed" \
	"$(holds "$(tree_with "$TREE" include/linux/dep.h '#define DEP 2')")"
t_eq "a header a generated header it read is made from changed: stale" \
	"stale: arch/x86/include/asm/feat.h, which it read, changed" \
	"$(holds "$(tree_with "$TREE" arch/x86/include/asm/feat.h '#define FEAT 2')")"
t_eq "the Kbuild file modusers read changed: stale" \
	"stale: drivers/a/Makefile, a build input, changed" \
	"$(holds "$(tree_with "$TREE" drivers/a/Makefile 'obj-y += user.o')")"
t_eq "a Kbuild file added beside that Makefile: stale" \
	"stale: drivers/a/Kbuild, a build input, changed" \
	"$(holds "$(tree_with "$TREE" drivers/a/Kbuild 'obj-y += user.o')")"
t_eq "a Kconfig file anywhere (the config, modusers' types): stale" \
	"stale: drivers/c/Kconfig, a build input, changed" \
	"$(holds "$(tree_with "$TREE" drivers/c/Kconfig 'config C')")"
t_eq "Documentation's Kconfig is the config's too: stale" stale \
	"$(verdict "$(tree_with "$TREE" Documentation/Kconfig 'config D')")"
t_eq "scripts/, even a C file there: stale" \
	"stale: scripts/basic/fixdep.c, a build input, changed" \
	"$(holds "$(tree_with "$TREE" scripts/basic/fixdep.c 'int main;')")"
t_eq "a table generated headers come from: stale" stale \
	"$(verdict "$(tree_with "$TREE" arch/x86/entry/syscall_64.tbl '0 common read')")"
t_eq "a header added (it may shadow one read): stale" \
	"stale: include/linux/new.h was added: it may stand for a file it read" \
	"$(holds "$(tree_with "$TREE" include/linux/new.h '#define NEW 1')")"
t_eq "a new C file naming the removed symbol: stale" \
	"stale: a changed C file names foo_sym now" \
	"$(holds "$(tree_with "$TREE" drivers/c/new.c 'int g(void) { return foo_sym; }')")"
t_eq "a C file outside what it read that starts naming it: stale" \
	"stale: a changed C file names foo_sym now" \
	"$(holds "$(tree_with "$TREE" drivers/b/plain.c 'int h(void) { return foo_sym; }')")"
t_eq "a candidate that did not compile (*): any change is stale" stale \
	"$(verdict "$(tree_with "$TREE" drivers/b/plain.c 'int plain2;')" "$D/reads-star")"
t_eq "... but the same tree holds" holds "$(verdict "$TREE" "$D/reads-star")"
t_eq "no list of what it read: stale" \
	"stale: its list of the files it read is missing" \
	"$(holds "$(tree_with "$TREE" drivers/b/plain.c 'int plain2;')" "$D/none")"
t_eq "more changes than EXPORTS_MAX_CHANGED: stale" \
	"stale: more than 1 paths changed" \
	"$(EXPORTS_MAX_CHANGED=1 holds "$(tree_with "$(tree_with "$TREE" drivers/b/plain.c 'int p2;')" \
		drivers/b/q.c 'int q;')")"
t_eq "a tree git does not have: stale" "stale: git cannot compare the trees" \
	"$(holds 0123456789012345678901234567890123456789 2> /dev/null)"

# --- the key: what the commit removes, not its tree ---
declare -A PLAN
exports_plan K1 PLAN cfg 3 "$PARENT" "$COMMIT" "$PTREE" "$TREE"
t_eq "exports_plan gives the validator the step, the trees, the removed exports" \
	"3 $TREE $PTREE foo_sym${TAB}kernel/kallsyms.c" \
	"${PLAN[idx]} ${PLAN[tree]} ${PLAN[ptree]} ${PLAN[removed]}"
# The same removal, the exporter's comment edited: another tree, same key.
sed -i 's|/\* kallsyms \*/|/* kallsyms, edited */|' "$WT/kernel/kallsyms.c"
EDITED=$(commit_of "$PARENT")
ETREE=$(git --git-dir="$KREPO" rev-parse "$EDITED^{tree}")
exports_plan K2 PLAN cfg 3 "$PARENT" "$EDITED" "$PTREE" "$ETREE"
t_eq "an edited commit that removes the same exports: the same key" "$K1" "$K2"
exports_plan K3 PLAN cfg2 3 "$PARENT" "$EDITED" "$PTREE" "$ETREE"
t_eq "another config or toolchain (target_get's cfgid): another key" 1 "$([[ "$K3" != "$K1" ]] && echo 1)"
sed -i '/EXPORT_SYMBOL(bar_sym)/d' "$WT/kernel/kallsyms.c"
BOTH=$(commit_of "$PARENT")
exports_plan K4 PLAN cfg 3 "$PARENT" "$BOTH" "$PTREE" "$(git --git-dir="$KREPO" rev-parse "$BOTH^{tree}")"
t_eq "a commit that removes one more export: another key" 1 "$([[ "$K4" != "$K1" ]] && echo 1)"
# Asked again: from the memo, in a new shell as in a new run.
t_eq "the removed exports come back from the memo as exports_removed said them" \
	"$(exports_removed "$PARENT" "$BOTH")" \
	"$(unset MEMO MEMO_READ; declare -A MEMO=() MEMO_READ=()
	   # shellcheck disable=SC2317  # it must not be called
	   exports_removed() { echo "not asked"; }
	   exports_plan K PLAN cfg 3 "$PARENT" "$BOTH" "$PTREE" -; echo "${PLAN[removed]}")"
t_grep "... which keeps them in WORKDIR/memo" "^$PARENT $BOTH [0-9a-f]+${TAB}bar_sym=kernel/kallsyms\.c foo_sym=kernel/kallsyms\.c$" \
	"$WORKDIR/memo/exports-removed"
exports_plan K5 PLAN cfg 1 "$PARENT" "$PARENT" "$PTREE" "$PTREE"
exports_plan K6 PLAN cfg 1 "$PARENT" "$PARENT" "$PTREE" "$ETREE"
t_eq "no export removed: the trees are the key" 1 \
	"$([[ -z "${PLAN[removed]}" && "$K5" != "$K6" ]] && echo 1)"

# --- the validator through the cache: a cell run, then looked up ---
# fake_exports(): an exports cell as stage_exports leaves one: a result,
# the trees, the list of what it read beside its log.
# shellcheck disable=SC2317  # called through cell_run
fake_exports()
{
	echo ran >> "$D/calls"
	cp "$READS" "${2%.log}.reads"
	result "$1" ok "1 removed export(s): no modular in-tree user (1 file(s) checked)"
	result_out "$1" tree "$TREE"
	result_out "$1" parent-tree "$PTREE"
}
# new_run(): a fresh run dir: RUN_ID, RUNDIR.
new_run()
{
	RUN_ID=$1
	RUNDIR=$WORKDIR/runs/$RUN_ID
	mkdir -p "$RUNDIR/logs" "$RUNDIR/details" "$RUNDIR/results"
	: > "$RUNDIR/cells.tsv"
}
: > "$D/calls"
new_run r1
PLAN=(["idx"]=3 ["tree"]=$TREE ["ptree"]=$PTREE ["removed"]=$REMOVED)
cell_run 3 - exports "$K1" "exports_valid PLAN" fake_exports 2> /dev/null
t_eq "run 1: the cell runs" 1 "$(grep -c . "$D/calls")"
t_eq "run 1: its list of what it read is kept in the cache" "$(cat "$READS")" \
	"$(cat "$WORKDIR/cache/exports/$K1/evidence/logs%@-exports.reads")"

new_run r2
PLAN[tree]=$(tree_with "$TREE" drivers/b/plain.c 'int plain2;')
cell_run 3 - exports "$K1" "exports_valid PLAN" fake_exports 2> /dev/null
t_eq "run 2, a change outside what it read: the cell is not run again" 1 \
	"$(grep -c . "$D/calls")"
t_eq "run 2: it is the cached one, from run 1" "3${TAB}-${TAB}exports${TAB}ok${TAB}r1/3-exports" \
	"$(cut -f1-4,8 "$RUNDIR/cells.tsv")"
t_grep "run 2: the progress line says why it holds" \
	"3/3 exports: the cached cell of tree ${TREE:0:12} holds: 1 path\(s\) changed, none of the 5 it read" \
	"$RUNDIR/progress.log"
t_grep "run 2: and so does its record" \
	"^out${TAB}reused${TAB}made on tree $TREE: 1 path" "$RUNDIR/results/3-exports.tsv"

new_run r3
PLAN[tree]=$(tree_with "$TREE" include/linux/dep.h '#define DEP 3')
# As checks_early and checks_beside ask: a lookup, then the cell.
cell_lookup 3 - exports "$K1" "exports_valid PLAN" 2> /dev/null ||
	cell_run 3 - exports "$K1" "exports_valid PLAN" fake_exports 2> /dev/null
t_eq "run 3, a header it read changed: the cell runs again" 2 "$(grep -c . "$D/calls")"
t_eq "run 3: the progress line says why, once" 1 \
	"$(grep -c "3/3 exports: the cached cell of tree ${TREE:0:12} does not hold: include/linux/dep.h, which it read, changed" \
		"$RUNDIR/progress.log")"

t_done
