#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-series.sh - tests of tools/bin/series, the series.yaml validator.
#
# Each fixture in test/fixtures/series/ is named for what it tests. The
# error fixtures say in their header which line is wrong; the tests check
# the exit status, the summary line (which counts the errors, so a
# spurious extra error fails too) and every expected FILE:LINE:COL: KEY
# line. The valid fixtures are compared with golden files in which the
# fixture directory is written @DIR@, so they hold wherever the
# repository is checked out.
#
# Build the binary first (make tools tools-san, from tools/src/series*.c);
# this file builds nothing.

# shellcheck source=test/lib.sh source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

export LC_ALL=C		# strerror() texts are matched below

SERIES=$T_BIN/series
FIX=$T_TOP/test/fixtures/series
FIX_REAL=$(cd "$FIX" && pwd -P)
OUT=$T_TMP/stdout
ERR=$T_TMP/stderr
RC=

# run_in(): run the validator in directory $1 on the remaining arguments;
# stdout to $OUT, stderr to $ERR, exit status in $RC.
run_in()
{
	local dir=$1; shift
	(cd "$dir" && "$SERIES" "$@") > "$OUT" 2> "$ERR"
	RC=$?
}

# ere_quote(): print $1 with the ERE metacharacters escaped.
ere_quote()
{
	printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

# golden(): print the records of $OUT with directory $1 written @DIR@.
golden()
{
	local out
	out=$(< "$OUT")
	printf '%s\n' "${out//"$1"/@DIR@}"
}

# fails(): run fixture $1.yaml (from the fixture directory, so messages
# start with "$1.yaml:") and check exit 2 and the summary for $2 errors.
fails()
{
	local name=$1; shift
	local count=$1; shift
	run_in "$FIX" "$name.yaml"
	t_eq "$name: exit 2 and summary of $count error(s)" \
		"2 $name.yaml: $count error(s); nothing was run. Fix series.yaml and rerun." \
		"$RC $(tail -n 1 "$ERR")"
}

# has_error(): the last run reported at line $2, column $3, key $4 an
# error matching the ERE $5 ($1 names the fixture).
has_error()
{
	local name=$1; shift
	local line=$1; shift
	local col=$1; shift
	local key=$1; shift
	local msg=$1; shift
	t_grep "$name: $line:$col $key" \
		"^$(ere_quote "$name.yaml:$line:$col: error: $key: ")$msg" "$ERR"
}

# record(): print the arguments as one tab-separated record.
record()
{
	local IFS=$'\t'
	printf '%s\n' "$*"
}

if [[ ! -x "$SERIES" ]]; then
	echo "t-series: $SERIES is not built (make tools tools-san)" >&2
	exit 2
fi

t_plan 336

# ---- valid series ----

run_in "$FIX" valid.yaml
t_eq "valid: exit 0" 0 "$RC"
t_eq "valid: nothing on stderr" "" "$(< "$ERR")"
t_eq "valid: records match valid.golden" "$(< "$FIX/valid.golden")" \
	"$(golden "$FIX_REAL")"

# The records as the shell glue reads them.
claim='' reason=''
while IFS=$'\t' read -r kind a b c; do
	[[ $kind == test && $a == beta ]] && claim=$b
	[[ $kind == accept && $b == UNKNOWN_COMMIT_ID ]] && reason="$a|$c"
done < "$OUT"
t_eq "valid: read -r splits a test record" "the second claim: quoted" "$claim"
t_eq "valid: read -r splits an accept record" "2|folded over two lines" \
	"$reason"

run_in "$FIX" minimal.yaml
t_eq "minimal: exit 0" 0 "$RC"
t_eq "minimal: default timeout, no prep (minimal.golden)" \
	"$(< "$FIX/minimal.golden")" "$(golden "$FIX_REAL")"
t_eq "minimal: no targets: the one default target" \
	"target	x86_64-gcc	x86_64	gcc	-	yes" "$(grep '^target	' "$OUT")"

# ---- a series without claims ----

run_in "$FIX" claimless.yaml
t_eq "claimless: exit 0, nothing on stderr" "0 " "$RC $(< "$ERR")"
t_eq "claimless: records match claimless.golden" "$(< "$FIX/claimless.golden")" \
	"$(golden "$FIX_REAL")"
t_eq "claimless: no cover, test, guest, prep or expect record" "" \
	"$(grep -Ev '^(name|version|config|package|timeout|target|patch)	' "$OUT")"

# Variants of claimless.yaml, in a copy of the fixture directory.
claim=$T_TMP/claimless
mkdir -p "$claim"
cp -R "$FIX/patches" "$FIX/bisect.config" "$FIX/cover-letter.txt" "$claim/"
claim_real=$(cd "$claim" && pwd -P)
# variant(): claimless.yaml edited by the sed script $1, as
# $claim/v.yaml, run from there.
variant()
{
	sed "$1" "$FIX/claimless.yaml" > "$claim/v.yaml"
	run_in "$claim" v.yaml
}

variant 's/^patches:/tests: []\npatches:/'
t_eq "claimless with tests: []: the same records" \
	"0 $(< "$FIX/claimless.golden")" "$RC $(golden "$claim_real")"
variant 's/^  package: .*/&\n  prep: [patches\/prep\/0001-prep.patch]\n  expect: {}/'
t_eq "claimless with prep and an empty expect: the prep record, no expect" \
	"0 prep	@DIR@/patches/prep/0001-prep.patch" \
	"$RC $(golden "$claim_real" | grep -E '^(prep|expect)	')"
variant 's/^  package: .*/&\n  expect: {ghost: yes}/'
t_eq "no tests, an expect naming one: exit 2, unknown test" \
	"2 v.yaml:9:12: error: base.expect.ghost: unknown test 'ghost' (declared tests: none)" \
	"$RC $(head -n 1 "$ERR")"
variant 's/^  package: .*/&\n  prep:/'
t_eq "prep given empty: exit 2, write []" \
	"2 v.yaml:9:8: error: base.prep: expected a sequence, got an empty value (write [] for none)" \
	"$RC $(head -n 1 "$ERR")"
variant 's/^patches:/tests:\n  - {id: one, claim: a claim}\npatches:/'
t_eq "tests declared: base.expect and each patch's expect required" \
	"2|v.yaml:8:3: error: base.expect: missing required key|v.yaml:12:5: error: patches[0].expect: missing required key|v.yaml:13:5: error: patches[1].expect: missing required key" \
	"$RC|$(head -n 3 "$ERR" | paste -sd '|')"

# ---- base: a Debian package, or a git tree and a revision ----

run_in "$FIX" repo-base.yaml
t_eq "repo-base: exit 0, nothing on stderr" "0 " "$RC $(< "$ERR")"
t_eq "repo-base: records match repo-base.golden" "$(< "$FIX/repo-base.golden")" \
	"$(golden "$FIX_REAL")"
t_eq "repo-base: repo absolute and base-commit as written, where package is" \
	"$(record config @DIR@/bisect.config
	record repo @DIR@/linux
	record base-commit 'v6.6-rc1~3^2'
	record timeout 120)" \
	"$(golden "$FIX_REAL" | sed -n '/^config	/,/^timeout	/p')"
t_eq "repo-base: no cover, package, test, prep or expect record" "" \
	"$(grep -E '^(cover|package|test|prep|expect)	' "$OUT")"

# Variants of repo-base.yaml, in a copy of the fixture directory.
base=$T_TMP/base
mkdir -p "$base"
cp -R "$FIX/linux" "$FIX/patches" "$FIX/bisect.config" "$FIX/cover-letter.txt" "$base/"
base_real=$(cd "$base" && pwd -P)
# rvariant(): repo-base.yaml edited by the sed script $1, as
# $base/v.yaml, run from $base.
rvariant()
{
	sed "$1" "$FIX/repo-base.yaml" > "$base/v.yaml"
	run_in "$base" v.yaml
}

rvariant 's/^  commit: .*/  commit: main@{1}\n  prep: [patches\/prep\/0001-prep.patch]\n  expect: {}/'
t_eq "repo-base with prep and an empty expect: prep records, no expect" \
	"0 main@{1}|@DIR@/patches/prep/0001-prep.patch|" \
	"$RC $(golden "$base_real" | sed -n 's/^base-commit\t//p')|$(golden "$base_real" |
		sed -n 's/^prep\t//p')|$(grep '^expect' "$OUT")"
rvariant '/^  repo: /d;/^  commit: /d;s/^base:/base: {}/'
t_eq "base with neither package nor repo: exit 2, both forms named" \
	"2 v.yaml:8:7: error: base.package: missing required key: give package (a Debian source package), or repo and commit (a git tree and a revision in it)" \
	"$RC $(head -n 1 "$ERR")"
rvariant '/^  repo: /d'
t_eq "commit without repo: exit 2, repo missing" \
	"2 v.yaml:9:3: error: base.repo: missing required key: commit is a revision of the git tree repo names" \
	"$RC $(head -n 1 "$ERR")"
rvariant 's/^  commit: .*/  commit: v6.1\n  package: linux-source-6.1/;/^  repo: /d'
t_eq "package and commit: exit 2, one form only" \
	"2 v.yaml:9:3: error: base.commit: 'package' and 'commit' both given: give package (a Debian source package), or repo and commit (a git tree and a revision in it), not both" \
	"$RC $(head -n 1 "$ERR")"
rvariant 's/^  repo: .*/  repo: no-such-tree/'
t_eq "repo that does not exist: exit 2" \
	"2 v.yaml:9:9: error: base.repo: file not found: no-such-tree: No such file or directory" \
	"$RC $(head -n 1 "$ERR")"
long=$(printf 'a%.0s' {1..255})
rvariant "s/^  commit: .*/  commit: $long/"
t_eq "commit of 255 bytes: taken" "0 $long" "$RC $(sed -n 's/^base-commit\t//p' "$OUT")"
rvariant "s/^  commit: .*/  commit: a$long/"
t_eq "commit of 256 bytes: exit 2, too long" \
	"2 v.yaml:10:11: error: base.commit: '${long:0:64}...' is 256 bytes long, more than 255" \
	"$RC $(head -n 1 "$ERR")"
commits='' bad=''
for c in v6.1 HEAD~2 'HEAD^{tree}' a1b2c3d origin/main 'v6.6-rc1^2' 'main@{1}' \
	'a b' 'a:b' 'a*b' 'a?b' '-a' 'a\b' 'a[b' "a'b" 'é'; do
	rvariant "s|^  commit: .*|  commit: '${c//\\/\\\\}'|"
	[[ $RC == 0 || $RC == 2 ]] || bad+="'$c': exit $RC"$'\n'
	[[ $RC == 0 ]] && commits+="$(sed -n 's/^base-commit\t//p' "$OUT") "
done
t_eq "commits: [A-Za-z0-9._/~^@{}-]+ taken as written, not starting with '-'" \
	"v6.1 HEAD~2 HEAD^{tree} a1b2c3d origin/main v6.6-rc1^2 main@{1} " "$commits"
t_eq "commits: rc 0 or 2" "" "$bad"

fails base-both 1
has_error base-both 7 3 base.repo \
	"'package' and 'repo' both given: give package \(a Debian source package\), or repo and commit \(a git tree and a revision in it\), not both$"
fails base-repo-no-commit 1
has_error base-repo-no-commit 7 3 base.commit \
	"missing required key: repo needs the revision to start from$"
fails base-commit-dash 1
has_error base-commit-dash 7 16 base.commit \
	"'--output=/tmp/x' starts with '-', which git would take for an option: name the revision another way$"
fails base-repo-not-dir 1
has_error base-repo-not-dir 6 14 base.repo "not a directory: cover-letter\.txt$"
fails base-commit-space 1
has_error base-commit-space 8 11 base.commit \
	"'v6\.1 v6\.2' must match \[A-Za-z0-9\._/~\^@\{\}-\]\+$"
t_eq "base-commit-space: nothing on stdout" "" "$(< "$OUT")"

# ---- findings-accept: the robots' findings a patch accepts ----

run_in "$FIX" findings-accept.yaml
t_eq "findings-accept: exit 0, nothing on stderr" "0 " "$RC $(< "$ERR")"
t_eq "findings-accept: records match findings-accept.golden" \
	"$(< "$FIX/findings-accept.golden")" "$(golden "$FIX_REAL")"
t_eq "findings-accept: after the patch's accept lines, in order, * for kind or file left out" \
	"$(record patch 1 @DIR@/patches/0001-dummy-1.patch
	record accept 1 LONG_LINE "after findings-accept in the file, before it in the records"
	record finding-accept 1 w1 -Wmissing-prototypes kernel/kallsyms.c \
		"no previous prototype" "the function is called from assembly only"
	record finding-accept 1 sparse '*' '*' 'plain integer as NULL: "0"' \
		'it says "why" with a \backslash'
	record finding-accept 1 kdoc '*' include/linux/kallsyms.h "not described" \
		"the kind left out"
	record finding-accept 1 tags trailer-format '*' "outside the trailer block" \
		"the file left out"
	record patch 2 @DIR@/patches/0002-dummy-2.patch)" \
	"$(golden "$FIX_REAL" | sed -n '/^patch	1/,/^patch	2/p')"
t_eq "findings-accept: an empty list gives no record" "1 1 1 1" \
	"$(awk -F'\t' '$1 == "finding-accept" { print $2 }' "$OUT" | xargs)"

# The records as the shell glue reads them: every field lands apart.
fa=''
while IFS=$'\t' read -r kind a b c d e f; do
	[[ $kind == finding-accept && $b == tags ]] && fa="$a|$b|$c|$d|$e|$f"
done < "$OUT"
t_eq "findings-accept: read -r splits a finding-accept record" \
	"1|tags|trailer-format|*|outside the trailer block|the file left out" "$fa"

fails findings-accept-bad 17
fkey='patches[0].findings-accept'
has_error findings-accept-bad 18 42 "${fkey}[0].colour" \
	"unknown key 'colour' \(allowed: check, kind, file, match, reason\)$"
has_error findings-accept-bad 19 9 "${fkey}[1].check" "missing required key$"
has_error findings-accept-bad 20 9 "${fkey}[2].match" "missing required key$"
has_error findings-accept-bad 21 9 "${fkey}[3].reason" "missing required key$"
has_error findings-accept-bad 22 17 "${fkey}[4].check" \
	"expected w1, sparse, kdoc or tags, got 'checkpatch'$"
has_error findings-accept-bad 23 28 "${fkey}[5].match" "must not be empty$"
has_error findings-accept-bad 24 39 "${fkey}[6].reason" "must not be empty$"
has_error findings-accept-bad 25 27 "${fkey}[7].kind" "must not be empty$"
has_error findings-accept-bad 26 27 "${fkey}[8].file" "must not be empty$"
has_error findings-accept-bad 27 17 "${fkey}[9].check" "'w1\?' contains a tab or newline$"
has_error findings-accept-bad 28 27 "${fkey}[10].kind" "'-W\?x' contains a tab or newline$"
has_error findings-accept-bad 29 27 "${fkey}[11].file" "'a\?b\.c' contains a tab or newline$"
has_error findings-accept-bad 30 28 "${fkey}[12].match" "'m\?n' contains a tab or newline$"
has_error findings-accept-bad 31 39 "${fkey}[13].reason" "'r\?s' contains a tab or newline$"
has_error findings-accept-bad 32 27 "${fkey}[14].kind" "expected a scalar, got a sequence$"
has_error findings-accept-bad 33 17 "${fkey}[15].check" \
	"expected w1, sparse, kdoc or tags, got 'W1'$"
has_error findings-accept-bad 34 9 "${fkey}[16]" "expected a mapping, got a scalar$"
t_eq "findings-accept-bad: nothing on stdout" "" "$(< "$OUT")"

fails findings-accept-not-a-sequence 2
has_error findings-accept-not-a-sequence 16 7 "patches[0].findings-accept" \
	"expected a sequence, got a mapping$"
has_error findings-accept-not-a-sequence 21 21 "patches[1].findings-accept" \
	"expected a sequence, got an empty value \(write \[\] for none\)$"

fails findings-accept-folded 2
has_error findings-accept-folded 20 17 "patches[0].findings-accept[0].reason" \
	"'first paragraph\?second paragraph' contains a tab or newline$"
has_error findings-accept-folded 25 16 "patches[0].findings-accept[1].match" \
	"'a line\?' contains a tab or newline$"

fails findings-accept-misplaced 4
has_error findings-accept-misplaced 11 3 base.findings-accept \
	"unknown key 'findings-accept' \(allowed: package, repo, commit, prep, expect\)$"
has_error findings-accept-misplaced 16 6 "targets[0].findings-accept" \
	"unknown key 'findings-accept' \(allowed: name, arch, compiler, config, boot, skip\)$"
has_error findings-accept-misplaced 22 38 "patches[0].checkpatch-accept[0].findings-accept" \
	"unknown key 'findings-accept' \(allowed: type, reason\)$"
allowed='name, version, cover-letter, config, base, boot, targets, tests, guest, patches'
has_error findings-accept-misplaced 24 1 findings-accept \
	"unknown key 'findings-accept' \(allowed: $allowed\)$"

# ---- abi: the exports a patch means to change ----

run_in "$FIX" abi.yaml
t_eq "abi: exit 0, nothing on stderr" "0 " "$RC $(< "$ERR")"
t_eq "abi: after the patch's finding-accept lines, by kind (removes, adds, changes), in order" \
	"$(record abi 1 removes kallsyms_lookup_name
	record abi 1 removes kallsyms_on_each_symbol
	record abi 1 adds new_helper
	record abi 1 changes jiffies)" "$(grep '^abi	' "$OUT")"
t_eq "abi: the records sit between patch 1 and patch 2" "patch 1|abi 1|abi 1|abi 1|abi 1|patch 2" \
	"$(awk -F'\t' '$1 == "patch" || $1 == "abi" { print $1, $2 }' "$OUT" | paste -sd '|')"
fails abi-bad 5
has_error abi-bad 17 7 "patches[0].abi.renames" \
	"unknown key 'renames' \(allowed: removes, adds, changes\)$"
has_error abi-bad 18 28 "patches[0].abi.removes[1]" "'not a symbol' must match \[A-Za-z0-9_.\]\+$"
has_error abi-bad 19 14 "patches[0].abi.adds[0]" "symbol 'twice' already declared \(removes\)$"
has_error abi-bad 20 16 "patches[0].abi.changes" "expected a sequence, got a scalar$"
has_error abi-bad 23 10 "patches[1].abi" "expected a mapping, got a sequence$"

# ---- guest program ----

run_in "$FIX" guest.yaml
t_eq "guest: exit 0, records match guest.golden" "0 $(< "$FIX/guest.golden")" \
	"$RC $(golden "$FIX_REAL")"
t_eq "guest: KUnit options after the suites' own" \
	"CONFIG_KUNIT=y CONFIG_KUNIT_DEBUGFS=y CONFIG_DEBUG_FS=y CONFIG_MY_SUITE_TEST=y CONFIG_SMP=y" \
	"$(sed -n 's/^kconfig\t//p' "$OUT" | xargs)"
t_eq "guest: each module loaded once as a driver, as the kernel names it" \
	"my_mod other" "$(sed -n 's/^driver\t//p' "$OUT" | xargs)"
t_grep "guest: a test named as a scalar" '^op	kunit	suite=my_suite	tests=suite	expect=ok$' "$OUT"
t_grep "guest: values kept as written in the runner's line" \
	'^op	write	path=/proc/sys/kernel/printk	value=7 "quoted" \\back # not a comment	tests=logs	match=it'"'"'s "here"	count=>0	label=handler fired$' "$OUT"

fails guest-bad 14
has_error guest-bad 17 5 guest.run "test 'lonely' is named by no operation: add tests: \[lonely\] "
has_error guest-bad 17 7 "guest.run[0]" "no operation: give one of load, unload, write, read, kunit, exec$"
has_error guest-bad 18 7 "guest.run[1]" "one operation per item: 'load' and 'unload' both given$"
has_error guest-bad 19 37 "guest.run[2].colour" "unknown key 'colour' \(allowed: load, params, config, tests, expect, log\)$"
has_error guest-bad 20 14 "guest.run[3].load" "'a\.o' must be a module file, NAME\.ko$"
has_error guest-bad 21 7 "guest.run[4].value" "missing required key$"
has_error guest-bad 22 14 "guest.run[5].read" "'proc/version' must be an absolute path in the guest"
has_error guest-bad 23 45 "guest.run[6].tests[1]" "unknown test 'nobody' \(declared tests: judged, lonely\)$"
has_error guest-bad 24 54 "guest.run[7].expect" "'maybe': expect ok, clean, fail or an errno name"
has_error guest-bad 25 69 "guest.run[8].log.count" "'=1' is not a count: write N, >N or <N$"
has_error guest-bad 26 63 "guest.run[9].log" "a log check and expect: give one"
has_error guest-bad 27 7 "guest.run[10]" "a check belongs to a test: name it in tests$"
has_error guest-bad 28 27 "guest.run[11].config[0]" "'SMP' is not a Kconfig option: write CONFIG_NAME$"
has_error guest-bad 29 35 "guest.run[12].log" "unknown key 'log' \(allowed: kunit, config, tests, expect\)$"

fails guest-reserved 1
has_error guest-reserved 9 10 "tests[0].id" "'dmesg' is the runner's own name in its output: choose another id$"

# ---- guest programs (exec) ----

run_in "$FIX" guest-exec.yaml
t_eq "guest-exec: exit 0, records match guest-exec.golden" \
	"0 $(< "$FIX/guest-exec.golden")" "$RC $(golden "$FIX_REAL")"
t_eq "guest-exec: nothing on stderr" "" "$(< "$ERR")"
t_eq "guest-exec: the operations' options, each once, no KUnit's without a suite" \
	"CONFIG_KPROBES=y CONFIG_X86_IOPL_IOPERM=y" \
	"$(sed -n 's/^kconfig\t//p' "$OUT" | xargs)"
t_eq "guest-exec: guest.programs as an absolute directory" \
	"$FIX_REAL/programs" "$(sed -n 's/^guest-programs\t//p' "$OUT")"
t_eq "guest-exec: each program run once, in the order first run" \
	"probe ktap_cases" "$(sed -n 's/^program\t//p' "$OUT" | xargs)"
t_grep "guest-exec: the program's path in the guest, its args as written" \
	'^op	exec	path=/bisect/bin/probe	args=--mode "fast"  -n 3 \\x	tests=runs	expect=ok$' "$OUT"
t_grep "guest-exec: a program run again, without args" \
	'^op	exec	path=/bisect/bin/probe	tests=runs,cases	expect=fail$' "$OUT"

# The options of the fragment each once, KUnit's own too, and in the
# time any input is given however many an operation names (comparing
# each with all before it took minutes on a few hundred thousand).
opts=$T_TMP/opts
mkdir -p "$opts"
for f in "$FIX"/*; do
	[[ $f == *.yaml ]] || ln -s "$f" "$opts/"
done
sed 's/config: \[CONFIG_MY_SUITE_TEST, CONFIG_SMP\]/config: [CONFIG_DEBUG_FS, CONFIG_MY_SUITE_TEST, CONFIG_SMP, CONFIG_KUNIT]/' \
	"$FIX/guest.yaml" > "$opts/kunit.yaml"
run_in "$opts" kunit.yaml
t_eq "a suite that names KUnit's own options: each once, where first named" \
	"0 CONFIG_KUNIT=y CONFIG_KUNIT_DEBUGFS=y CONFIG_DEBUG_FS=y CONFIG_MY_SUITE_TEST=y CONFIG_SMP=y" \
	"$RC $(sed -n 's/^kconfig\t//p' "$OUT" | xargs)"
awk '/config: \[CONFIG_KPROBES\]$/ {
	printf "      config: ["
	for (i = 0; i < 100000; i++)
		printf "CONFIG_O%d, ", i
	print "CONFIG_KPROBES, CONFIG_O0]"
	next
} { print }' "$FIX/guest-exec.yaml" > "$opts/many.yaml"
(cd "$opts" && timeout 10 "$SERIES" many.yaml) > "$OUT" 2> "$ERR"
RC=$?
t_eq "100000 options on a load, then one on an exec: exit 0 within 10 s, each once" \
	"0 100002 0 CONFIG_KPROBES=y CONFIG_X86_IOPL_IOPERM=y" \
	"$RC $(grep -c '^kconfig' "$OUT") $(sed -n 's/^kconfig\t//p' "$OUT" | sort | uniq -d | wc -l) $(sed -n 's/^kconfig\t//p' "$OUT" | tail -n 2 | xargs)"

fails guest-exec-bad 11
has_error guest-exec-bad 17 14 "guest.run[0].exec" "'a/b' must match \[A-Za-z0-9_-\]\+$"
has_error guest-exec-bad 18 14 "guest.run[1].exec" \
	"program source not found: $(ere_quote "$FIX_REAL/programs/nope.c"): No such file or directory \(exec nope runs /bisect/bin/nope, built from it\)$"
has_error guest-exec-bad 19 14 "guest.run[2].exec" \
	"program source is not a regular file: $(ere_quote "$FIX_REAL/programs/subdir.c")$"
has_error guest-exec-bad 20 35 "guest.run[3].params" "unknown key 'params' \(allowed: exec, args, config, tests, expect, log\)$"
has_error guest-exec-bad 21 41 "guest.run[4].args" "'-v \?' contains a control character$"
has_error guest-exec-bad 22 41 "guest.run[5].args" "'-v\?-n' contains a tab or newline$"
has_error guest-exec-bad 23 41 "guest.run[6].args" "33 arguments: the guest runner takes at most 32 "
has_error guest-exec-bad 24 41 "guest.run[7].args" "expected a scalar, got a sequence$"
has_error guest-exec-bad 25 14 "guest.run[8].exec" "'a123456789b.*' is 65 characters long: a program name has at most 64$"
has_error guest-exec-bad 26 7 "guest.run[9]" "no operation: give one of load, unload, write, read, kunit, exec$"
has_error guest-exec-bad 27 7 "guest.run[10]" "one operation per item: 'load' and 'exec' both given$"
t_eq "guest-exec-bad: nothing on stdout" "" "$(< "$OUT")"

fails guest-exec-noprograms 1
has_error guest-exec-noprograms 13 14 "guest.run[0].exec" \
	"exec needs guest.programs: add 'programs: DIR' to guest, .* that holds probe\.c$"
t_eq "guest-exec-noprograms: nothing on stdout" "" "$(< "$OUT")"

fails guest-programs-not-dir 1
has_error guest-programs-not-dir 11 13 guest.programs "not a directory: cover-letter\.txt$"
t_eq "guest-programs-not-dir: nothing on stdout" "" "$(< "$OUT")"

# ---- targets ----

run_in "$FIX" targets.yaml
t_eq "targets: exit 0" 0 "$RC"
t_eq "targets: nothing on stderr" "" "$(< "$ERR")"
t_eq "targets: records match targets.golden" "$(< "$FIX/targets.golden")" \
	"$(golden "$FIX_REAL")"
t_eq "targets: one record each, in order, after timeout, before test" \
	"timeout	120
target	x86_64-gcc	x86_64	gcc	-	yes
target	arm64-gcc	arm64	gcc	@DIR@/kconfig/arm64.config	yes
target	x86_64-clang	x86_64	clang	@DIR@/kconfig/clang.config	no
test	only	the only claim" \
	"$(golden "$FIX_REAL" | sed -n '/^timeout/,/^test/p')"

# The records as the shell glue reads them.
targets=''
while IFS=$'\t' read -r kind a b c d e; do
	[[ $kind == target ]] && targets+="$a|$b|$c|${d##*/}|$e "
done < "$OUT"
t_eq "targets: read -r splits a target record" \
	"x86_64-gcc|x86_64|gcc|-|yes arm64-gcc|arm64|gcc|arm64.config|yes x86_64-clang|x86_64|clang|clang.config|no " \
	"$targets"

run_in "$FIX" target-skip.yaml
t_eq "target-skip: records match target-skip.golden" \
	"0 $(< "$FIX/target-skip.golden")" "$RC $(golden "$FIX_REAL")"
t_eq "target-skip: one record per step and test, by step, in test order" \
	"0 first
0 second
0 third
1 first
1 third
2 first
2 second
2 third" "$(awk -F'\t' '$1 == "skip" { print $3, $4 }' "$OUT")"

fails target-skip-bad 9
has_error target-skip-bad 28 17 "targets[1].skip[0].tests[1]" \
	"unknown test 'fourth' \(declared tests: first, second, third\)$"
has_error target-skip-bad 30 38 "targets[1].skip[1].steps[1]" "2 is out of range 0..1$"
has_error target-skip-bad 32 18 "targets[1].skip[3].tests[0]" \
	"test 'second' is skipped twice at step 1$"
has_error target-skip-bad 33 37 "targets[1].skip[4].steps[1]" "step 1 is listed twice$"
has_error target-skip-bad 34 9 "targets[1].skip[5].reason" "missing required key$"
has_error target-skip-bad 35 17 "targets[1].skip[6].tests" \
	"must not be empty: name the tests to skip$"
has_error target-skip-bad 41 7 "targets[2].skip" \
	"the target does not boot \(boot: no\): it runs no test to skip$"
has_error target-skip-bad 46 38 "targets[3].skip[0].why" \
	"unknown key 'why' \(allowed: tests, cases, steps, reason\)$"
has_error target-skip-bad 47 34 "targets[3].skip[1].steps" "expected a sequence, got a scalar$"

# KUnit cases a target does not count: the test is judged by the others.
run_in "$FIX" target-skip-cases.yaml
t_eq "target-skip-cases: records match target-skip-cases.golden" \
	"0 $(< "$FIX/target-skip-cases.golden")" "$RC $(golden "$FIX_REAL")"
t_eq "target-skip-cases: the runner's words, a suite read twice named once, two suites each" \
	"0 suite my_suite.test_a
1 suite my_suite.test_a
1 two suite_a.case_2,suite_a.case_1,suite-b.case_2,suite-b.case_1" \
	"$(awk -F'\t' '$1 == "skip-cases" { print $3, $4, $6 }' "$OUT")"
t_eq "target-skip-cases: a case skip is no whole test's skip" "0 plain
1 plain" "$(awk -F'\t' '$1 == "skip" { print $3, $4 }' "$OUT")"

fails target-skip-cases-bad 9
has_error target-skip-cases-bad 36 16 "targets[0].skip[1].tests[0]" \
	"test 'plain' is judged by no kunit operation: cases are a KUnit suite's \(guest.run\), leave cases out to skip the whole test$"
has_error target-skip-cases-bad 37 16 "targets[0].skip[2].tests[0]" \
	"the runner leaves a case out wherever suite two_tests is read, and it judges test 'other' too: cases need a suite that judges 'shared' alone$"
has_error target-skip-cases-bad 38 16 "targets[0].skip[3].tests[0]" \
	"the runner leaves a case out wherever suite read_twice is read, and it judges test 'far' too: cases need a suite that judges 'alone' alone$"
has_error target-skip-cases-bad 39 33 "targets[0].skip[4].cases[1]" "'Big' must match \[a-z0-9_\]\+$"
has_error target-skip-cases-bad 40 36 "targets[0].skip[5].cases[2]" "case 'a' is listed twice$"
has_error target-skip-cases-bad 41 29 "targets[0].skip[6].cases" \
	"must not be empty: name the cases to skip, or leave cases out to skip the whole test$"
has_error target-skip-cases-bad 42 29 "targets[0].skip[7].cases" "expected a sequence, got a scalar$"
has_error target-skip-cases-bad 44 16 "targets[0].skip[9].tests[0]" \
	"test 'own' is skipped twice at step 0$"
has_error target-skip-cases-bad 45 61 "targets[1].skip" \
	"at step 1 the cases skipped make the runner's bisect_skip_cases=SUITE.CASE,... 1264 characters long, more than it takes \(1024\): skip fewer cases, or whole tests$"

run_in "$FIX" --arch x86_64 --arch arm64 targets.yaml
t_eq "targets --arch x86_64 --arch arm64: both archs taken" \
	"0 $(< "$FIX/targets.golden")" "$RC $(golden "$FIX_REAL")"
run_in "$FIX" --arch arm64 --arch x86_64 --arch arm64 -- targets.yaml
t_eq "targets: --arch repeated, then --: same records" \
	"0 $(< "$FIX/targets.golden")" "$RC $(golden "$FIX_REAL")"

run_in "$FIX" --arch x86_64 --arch riscv64 targets.yaml
t_eq "targets --arch x86_64 --arch riscv64: exit 2, one error" \
	"2 targets.yaml: 1 error(s); nothing was run. Fix series.yaml and rerun." \
	"$RC $(tail -n 1 "$ERR")"
has_error targets 21 11 "targets[1].arch" \
	"unknown arch 'arm64' \(accepted: x86_64, riscv64\)$"
t_eq "targets --arch ...: nothing on stdout" "" "$(< "$OUT")"

run_in "$FIX" --arch x86_64 minimal.yaml
t_eq "minimal --arch x86_64: the default target is taken" \
	"0 $(< "$FIX/minimal.golden")" "$RC $(golden "$FIX_REAL")"
run_in "$FIX" --arch arm64 minimal.yaml
t_eq "minimal --arch arm64: exit 2, one error" \
	"2 minimal.yaml: 1 error(s); nothing was run. Fix series.yaml and rerun." \
	"$RC $(tail -n 1 "$ERR")"
has_error minimal 3 1 targets \
	"missing required key: the default target's arch, x86_64, is not accepted \(accepted: arm64\)$"

fails targets-null 1
has_error targets-null 14 9 targets \
	"expected a sequence, got an empty value \(leave targets out for the default, x86_64-gcc\)$"

fails targets-empty 1
has_error targets-empty 14 10 targets \
	"must not be empty: list at least one target, or leave targets out for the default, x86_64-gcc$"

fails targets-not-a-sequence 1
has_error targets-not-a-sequence 15 3 targets "expected a sequence, got a mapping$"

fails target-wrong-type 3
has_error target-wrong-type 15 5 "targets[0]" "expected a mapping, got a scalar$"
has_error target-wrong-type 17 11 "targets[1].arch" "expected a scalar, got a sequence$"
has_error target-wrong-type 19 11 "targets[1].boot" \
	"expected yes or no \(or true/false\), got 'maybe'$"

fails target-unknown-key 1
has_error target-unknown-key 18 5 "targets[0].kconfig" \
	"unknown key 'kconfig' \(allowed: name, arch, compiler, config, boot, skip\)$"

fails target-missing-key 3
has_error target-missing-key 15 5 "targets[0].name" "missing required key$"
has_error target-missing-key 16 5 "targets[1].arch" "missing required key$"
has_error target-missing-key 17 5 "targets[2].compiler" "missing required key$"

fails target-duplicate-name 1
has_error target-duplicate-name 18 11 "targets[1].name" \
	"duplicate target name 'x86_64-gcc' \(first declared at targets\[0\]\)$"

fails target-bad-name 5
has_error target-bad-name 15 12 "targets[0].name" \
	"'X86_64-gcc' must match \[a-z0-9\]\[a-z0-9_-\]\*$"
has_error target-bad-name 16 12 "targets[1].name" \
	"'-gcc' must match \[a-z0-9\]\[a-z0-9_-\]\*: it starts with '-'$"
has_error target-bad-name 17 12 "targets[2].name" \
	"'_gcc' must match \[a-z0-9\]\[a-z0-9_-\]\*: it starts with '_'$"
has_error target-bad-name 18 12 "targets[3].name" \
	"'a-33-byte-name-is-one-too-long-xy' is 33 bytes long, more than 32$"
has_error target-bad-name 19 12 "targets[4].name" "must not be empty$"

fails target-bad-arch 1
has_error target-bad-arch 16 11 "targets[0].arch" "'x86-64' must match \[a-z0-9_\]\+$"

fails target-bad-compiler 1
has_error target-bad-compiler 17 15 "targets[0].compiler" \
	"expected gcc or clang, got 'icc'$"

fails target-missing-config 1
has_error target-missing-config 18 13 "targets[0].config" \
	"file not found: kconfig/no-such\.config: No such file or directory$"

# ---- paths resolve against the directory of series.yaml ----

copy=$T_TMP/copy/sub
mkdir -p "$copy"
cp -R "$FIX/valid.yaml" "$FIX/cover-letter.txt" "$FIX/bisect.config" \
	"$FIX/patches" "$copy/"
copy_real=$(cd "$copy" && pwd -P)

run_in / "$copy/valid.yaml"
t_eq "copy run from /: paths resolve into the copy" \
	"0 $(< "$FIX/valid.golden")" "$RC $(golden "$copy_real")"
run_in "$T_TMP/copy" sub/valid.yaml
t_eq "copy run as sub/valid.yaml: paths resolve into the copy" \
	"0 $(< "$FIX/valid.golden")" "$RC $(golden "$copy_real")"

# Absolute paths are taken as they are, whatever the YAML's directory.
sed -e "s|^cover-letter: .*|cover-letter: \"$FIX/cover-letter.txt\"|" \
	"$FIX/minimal.yaml" > "$copy/absolute.yaml"
run_in / "$copy/absolute.yaml"
t_grep "absolute cover-letter path kept" \
	"^cover	$(ere_quote "$FIX_REAL/cover-letter.txt")\$" "$OUT"

# An unreadable patch. Root reads everything, so as root the validator
# runs as nobody (setpriv), or the test is skipped.
cp "$FIX/minimal.yaml" "$copy/unreadable.yaml"
chmod 000 "$copy/patches/0001-dummy-1.patch"
as_user=()
if [[ $EUID -eq 0 ]]; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	chmod 755 "$T_TMP"	# let nobody reach the copy
	"${as_user[@]}" "$SERIES" --help > /dev/null 2>&1 || as_user=(false)
fi
if [[ ${as_user[0]-} == false ]]; then
	t_skip "unreadable patch file is reported" \
		"root, and cannot run the validator as nobody"
else
	(cd "$copy" && "${as_user[@]}" "$SERIES" unreadable.yaml) \
		> "$OUT" 2> "$ERR"
	t_grep "unreadable patch file is reported" \
		"^unreadable\.yaml:16:11: error: patches\[0\]\.file: cannot read .*: Permission denied$" \
		"$ERR"
fi
chmod 644 "$copy/patches/0001-dummy-1.patch"

# ---- one fixture per error class ----

fails unknown-key 1
allowed='file, checkpatch-accept, findings-accept, abi, expect'
has_error unknown-key 17 5 "patches[0].checkpatch-acept" \
	"unknown key 'checkpatch-acept' \(allowed: $allowed\)$"

fails wrong-type 1
has_error wrong-type 6 7 base "expected a mapping, got a scalar$"

fails not-an-integer 1
has_error not-an-integer 3 10 version "expected an integer, got 'two'$"

fails out-of-range 1
has_error out-of-range 11 12 boot.timeout "3601 is out of range 1\.\.3600$"

fails missing-key 1
has_error missing-key 15 5 "patches[1].expect" "missing required key$"

fails missing-file 1
has_error missing-file 15 11 "patches[1].file" \
	"file not found: patches/0002-no-such\.patch: No such file or directory$"
t_eq "missing-file: nothing on stdout" "" "$(< "$OUT")"

fails not-a-file 1
has_error not-a-file 4 15 cover-letter "not a regular file: patches$"

fails duplicate-patch-file 1
has_error duplicate-patch-file 17 11 "patches[1].file" \
	"duplicate patch: same file as patches\[0\]\.file \(line 15\)$"

fails duplicate-patch-contents 1
has_error duplicate-patch-contents 17 11 "patches[1].file" \
	"duplicate patch: same contents as base\.prep\[0\] \(line 10\)$"

fails empty-patch 1
has_error empty-patch 13 11 "patches[0].file" "patch file .*/empty\.patch is empty$"

fails duplicate-key 1
has_error duplicate-key 4 1 version "duplicate key \(first at line 3\)$"

fails duplicate-test-id 1
has_error duplicate-test-id 13 9 "tests[1].id" \
	"duplicate test id 'only' \(first declared at tests\[0\]\)$"

fails empty-patches 1
has_error empty-patches 12 10 patches "must not be empty"

fails malformed 1
has_error malformed 9 9 "(syntax)" \
	"did not find expected ',' or '\]' \(while parsing a flow sequence at line 8, column 9\)$"

fails multiple-documents 1
has_error multiple-documents 16 1 "(document)" \
	"a second YAML document: only one document is allowed$"

fails tab-in-value 1
has_error tab-in-value 12 23 "tests[0].claim" "'one\?claim' contains a tab or newline$"

fails newline-in-value 1
has_error newline-in-value 17 17 "patches[0].checkpatch-accept[0].reason" \
	"'first line\?second line\?' contains a tab or newline$"

fails anchor-alias 2
has_error anchor-alias 9 11 base.expect \
	"anchors and aliases are not supported \(anchor '&all-yes'\)$"
has_error anchor-alias 16 13 "patches[1].expect" \
	"anchors and aliases are not supported \(alias '\*all-yes'\)$"

fails unknown-test 2
has_error unknown-test 17 7 "patches[0].expect.gamma" \
	"unknown test 'gamma' \(declared tests: alpha, beta\)$"
has_error unknown-test 17 7 "patches[0].expect" "test 'beta' has no expectation$"

fails bad-yes-no 1
has_error bad-yes-no 9 18 base.expect.only \
	"expected yes or no \(or true/false\), got 'maybe'$"

fails bad-name 2
has_error bad-name 3 7 name "'my series' cannot be the series name: it contains a space, "
has_error bad-name 8 12 base.package "'Linux_Source' must match \[a-z0-9\.\+-\]\+$"

fails empty 1
has_error empty 1 1 "(document)" "no YAML document"

fails not-a-mapping 1
has_error not-a-mapping 2 1 "(document)" "expected a mapping, got a sequence$"

# ---- found by fuzzing: rc 2 and FILE:LINE:COL, never a crash ----

fails duplicate-test-id-then-no-id 2
has_error duplicate-test-id-then-no-id 14 9 "tests[1].id" \
	"duplicate test id 'only' \(first declared at tests\[0\]\)$"
has_error duplicate-test-id-then-no-id 16 5 "tests[2].id" "missing required key$"

fails accept-type-then-reason 2
has_error accept-type-then-reason 18 9 "patches[0].checkpatch-accept[0].reason" \
	"missing required key$"
has_error accept-type-then-reason 19 9 "patches[0].checkpatch-accept[1].type" \
	"missing required key$"

# well_formed(): print what in $ERR is not a FILE:LINE:COL: error: KEY:
# MESSAGE line of $1 or the summary, and "rc N" unless $RC is 0 or 2.
well_formed()
{
	local file=$1; shift
	[[ $RC == 0 || $RC == 2 ]] || echo "rc $RC"
	grep -Ev "^$(ere_quote "$file"):[0-9]+:[0-9]+: error: [^:]+: .|^$(ere_quote "$file"): [0-9]+ error\(s\); " "$ERR"
}

# Every line of the valid fixtures dropped, and doubled.
mut=$T_TMP/mutants
mkdir -p "$mut"
cp -R "$FIX/cover-letter.txt" "$FIX/bisect.config" "$FIX/patches" \
	"$FIX/kconfig" "$FIX/linux" "$mut/"
bad=''
for f in valid minimal targets findings-accept claimless repo-base; do
	n=$(wc -l < "$FIX/$f.yaml")
	for ((i = 1; i <= n; i++)); do
		for m in "${i}d" "${i}p"; do
			sed "$m" "$FIX/$f.yaml" > "$mut/m.yaml"
			run_in "$mut" m.yaml
			out=$(well_formed m.yaml)
			[[ -z "$out" ]] || bad+="$f.yaml with sed $m: $out"$'\n'
		done
	done
done
t_eq "mutants of valid, minimal, targets, findings-accept, claimless, repo-base: rc 0 or 2, errors FILE:LINE:COL: KEY" \
	"" "$bad"

# ---- the series name: a git branch component and a file name ----

# name_rule(): fixture $1 breaks the rule matching the ERE $2 (line 3).
name_rule()
{
	local name=$1; shift
	local rule=$1; shift
	fails "$name" 1
	has_error "$name" 3 7 name "'.*' cannot be the series name: it $rule.*\. Rename the series: at most 64 characters of A-Z a-z 0-9 \. _ -"
}

name_rule name-dotdot "contains '\.\.', which git check-ref-format refuses in the branch bisect/<name>/v<N>"
name_rule name-dot-start "starts with '\.', which git check-ref-format refuses"
name_rule name-lock "ends with '\.lock', which git check-ref-format refuses"
name_rule name-dot-end "ends with '\.', which git check-ref-format refuses"
name_rule name-too-long "is 300 bytes long, more than 64 for the file <name>-v<N>"
name_rule name-slash "contains '/', which makes the file <name>-v<N> a path"
name_rule name-space "contains a space, which git check-ref-format refuses"
name_rule name-control "contains a control character, which git check-ref-format refuses"
name_rule name-special "contains '\?', which git check-ref-format refuses"
name_rule name-at-brace "contains '@\{', which git check-ref-format refuses"
name_rule name-at "is '@', which git check-ref-format refuses"
name_rule name-dash "starts with '-', which git refuses as a branch name and commands take for an option"
name_rule name-non-ascii "contains 'é', which is not in \[A-Za-z0-9\._-\]"

# The validator takes a name only when git takes bisect/<name>/v1, it has
# at most 64 bytes and no '/'; past git's rules, only [A-Za-z0-9._-] not
# starting with '-'.
accepted='' bad=''
for name in ok a.b a_b-c 1.0 a..b .a a. a.lock a.locked x/y 'a b' 'a~b' \
	'a^b' 'a:b' 'a?b' 'a*b' 'a[b' 'a\b' 'a@{b' '@' 'a@b' '-a' 'a-' 'é' \
	"it's" "$(printf 'x%.0s' {1..64})" "$(printf 'y%.0s' {1..65})" 'a/.b' \
	'a/' '..'; do
	{ printf "name: '%s'\n" "${name//\'/\'\'}"; sed 1,3d "$FIX/minimal.yaml"; } \
		> "$mut/n.yaml"
	run_in "$mut" n.yaml
	[[ $RC == 0 || $RC == 2 ]] || bad+="'$name': exit $RC"$'\n'
	[[ $RC == 0 ]] || continue
	accepted+="${name:0:8} "
	git check-ref-format "refs/heads/bisect/$name/v1" ||
		bad+="'$name': taken, but git check-ref-format refuses it"$'\n'
	((${#name} <= 64)) || bad+="'$name': taken, but longer than 64"$'\n'
done
t_eq "names: only those git and a file name take are taken" \
	"ok a.b a_b-c 1.0 a.locked a- xxxxxxxx " "$accepted"
t_eq "names: none taken that git check-ref-format refuses" "" "$bad"

# ---- long messages keep their end; quoting cuts between characters ----

fails long-path 1
has_error long-path 5 15 cover-letter \
	"file not found: a(é/)+.*\.\.\..*(é/)+x: No such file or directory$"
t_rc "long-path: the message is valid UTF-8" 0 iconv -f UTF-8 -t UTF-8 "$ERR"
len=$(head -n 1 "$ERR" | sed 's/^long-path\.yaml:5:15: error: cover-letter: //' |
	tr -d '\n' | wc -c)
t_eq "long-path: the message is cut to at most 1024 bytes" yes \
	"$( ((len > 900 && len <= 1024)) && echo yes || echo "no: $len bytes")"

fails long-utf8-value 1
has_error long-utf8-value 14 9 "tests[1].id" "'a(é)+\.\.\.' must match \[a-z0-9-\]\+$"
t_rc "long-utf8-value: the message is valid UTF-8" 0 iconv -f UTF-8 -t UTF-8 "$ERR"

# ---- 100,000 tests: duplicates found in linear time ----

# big_series(): a series of $1 tests, with base.expect giving each one,
# then key 5 again (line $1 + 9), and test id 7 again (line 2 * $1 + 11).
big_series()
{
	local n=$1; shift
	sed -n '3,10p' "$FIX/minimal.yaml"
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "    %d: yes\n", i
		print "    5: no"; print "tests:"
		for (i = 0; i < n; i++) printf "- {id: %d, claim: c}\n", i
		print "- {id: 7, claim: again}"; print "patches:"
		print "- {file: patches/0001-dummy-1.patch, expect: {0: yes}}" }'
}
big_series 100000 > "$mut/big.yaml"
start=$(date +%s%N)
run_in "$mut" big.yaml
ms=$((($(date +%s%N) - start) / 1000000))
t_eq "100k tests: exit 2 with 2 errors" \
	"2 big.yaml: 2 error(s); nothing was run. Fix series.yaml and rerun." \
	"$RC $(tail -n 1 "$ERR")"
has_error big 100009 5 "base.expect.5" "duplicate key \(first at line 14\)$"
has_error big 200011 8 "tests[100000].id" \
	"duplicate test id '7' \(first declared at tests\[7\]\)$"
t_eq "100k tests: checked within 20 s" yes \
	"$( ((ms < 20000)) && echo yes || echo "no: $ms ms")"

# ---- 80,000 targets and 20,000 --arch names: linear time too ----

# big_targets(): minimal.yaml with $1 targets of archs a0..a19999, then
# target t7 again (line $1 + 19).
big_targets()
{
	local n=$1; shift
	sed 1d "$FIX/minimal.yaml"
	awk -v n="$n" 'BEGIN { print "targets:"
		for (i = 0; i < n; i++)
			printf "- {name: t%d, arch: a%d, compiler: gcc}\n", i, i % 20000
		print "- {name: t7, arch: a7, compiler: clang}" }'
}
big_targets 80000 > "$mut/big-targets.yaml"
archs=()
for ((i = 0; i < 20000; i++)); do
	archs+=(--arch "a$i")
done
start=$(date +%s%N)
run_in "$mut" "${archs[@]}" big-targets.yaml
ms=$((($(date +%s%N) - start) / 1000000))
t_eq "80k targets: exit 2 with 1 error" \
	"2 big-targets.yaml: 1 error(s); nothing was run. Fix series.yaml and rerun." \
	"$RC $(tail -n 1 "$ERR")"
has_error big-targets 80019 10 "targets[80000].name" \
	"duplicate target name 't7' \(first declared at targets\[7\]\)$"
t_eq "80k targets: checked within 20 s" yes \
	"$( ((ms < 20000)) && echo yes || echo "no: $ms ms")"

# ---- all errors are reported, in line order ----

fails two-errors 2
has_error two-errors 7 1 colour "unknown key 'colour' \(allowed: name, version, cover-letter, config, base, boot, targets, tests, guest, patches\)$"
has_error two-errors 11 11 base.expect "expected a mapping, got a sequence$"
t_eq "two-errors: reported in line order" "7 11" \
	"$(sed -n 's/^two-errors\.yaml:\([0-9]*\):.*/\1/p' "$ERR" | xargs)"
t_eq "two-errors: nothing on stdout" "" "$(< "$OUT")"

# ---- command line ----

t_rc "--help exits 0" 0 "$SERIES" --help
t_grep "--help prints the usage" "^Usage: series \[--arch NAME\]\.\.\. FILE$" "$T_OUT"
t_grep "--help documents the records" "^  expect +STEP +ID +yes\|no" "$T_OUT"
t_grep "--help documents the target record" "^  target +NAME +ARCH +CC +CONFIG +BOOT$" \
	"$T_OUT"
t_grep "--help documents the guest-programs record" "^  guest-programs /abs/dir +\(guest\.programs" \
	"$T_OUT"
t_grep "--help documents the program record" "^  program +NAME +\(each program guest\.run execs" \
	"$T_OUT"
t_grep "--help documents the repo and base-commit records" \
	"^  repo +/abs/git-tree .*base\.repo.*|^  base-commit REV " "$T_OUT"
t_eq "--help: repo and base-commit in one place" 2 \
	"$(grep -cE '^  (repo|base-commit) ' "$T_OUT")"
t_grep "--help documents the finding-accept record" \
	"^  finding-accept N CHECK KIND FILE MATCH REASON$" "$T_OUT"
t_grep "--help documents --arch" "^  --arch NAME +accept only the arch names given" \
	"$T_OUT"
t_rc "no argument: exit 2" 2 "$SERIES"
t_grep "no argument: says why" "^series: error: expected exactly one FILE argument$" \
	"$T_OUT"
t_rc "two arguments: exit 2" 2 "$SERIES" "$FIX/valid.yaml" "$FIX/minimal.yaml"
t_rc "unknown option: exit 2" 2 "$SERIES" --frobnicate
t_rc "--arch without a name: exit 2" 2 "$SERIES" --arch
t_grep "--arch without a name: says why" "^series: error: --arch needs an arch name$" \
	"$T_OUT"
t_rc "--arch then no FILE: exit 2" 2 "$SERIES" --arch x86_64
t_grep "--arch then no FILE: says why" \
	"^series: error: expected exactly one FILE argument$" "$T_OUT"
t_rc "--arch with a bad name: exit 2" 2 "$SERIES" --arch x86-64 "$FIX/targets.yaml"
t_grep "--arch with a bad name: says why" \
	"^series: error: --arch 'x86-64': must match \[a-z0-9_\]\+$" "$T_OUT"
t_rc "--arch with an empty name: exit 2" 2 "$SERIES" --arch '' "$FIX/targets.yaml"
t_rc "--arch after FILE: exit 2" 2 "$SERIES" "$FIX/targets.yaml" --arch x86_64
t_rc "unknown option after --arch: exit 2" 2 "$SERIES" --arch x86_64 --frobnicate
run_in "$T_TMP" no-such.yaml
t_eq "missing series file: exit 2, cannot open" \
	"2 no-such.yaml: error: cannot open: No such file or directory" \
	"$RC $(< "$ERR")"
run_in "$T_TMP" copy
t_eq "directory as series file: exit 2, cannot open" \
	"2 copy: error: cannot open: Is a directory" "$RC $(< "$ERR")"

# The fault fixtures that build ask for the series' kernel options: the
# same guest options, so that their builds share the series' build dirs
# (a fixture of other options is a cold build of every target it names,
# minutes each, in a make check from an empty WORKDIR).
want=$("$SERIES" "$T_TOP/series.yaml" | grep '^kconfig' | sort)
bad=
for f in "$T_TOP"/test/fixtures/{faults,identity,cc}/*.yaml "$T_TOP/test/series/v1.yaml"; do
	"$SERIES" "$f" > "$T_TMP/fixture.out" 2> /dev/null || continue
	[[ "$(grep '^kconfig' "$T_TMP/fixture.out" | sort)" == "$want" ]] || bad+=" ${f#"$T_TOP"/}"
done
t_eq "every valid fixture an end-to-end test runs has series.yaml's guest options" "" "$bad"

t_done
