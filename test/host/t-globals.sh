#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-globals.sh - tests of tools/bin/globals (issue 23) on shell files
# written here: function-local names against global ones, each form of a
# set and of a read, what is skipped (comments, single quotes, quoted
# here-documents) and what is not (double quotes, unquoted ones), bash's
# own names, --count, --defaults, usage and I/O errors; then the ratchet
# of tools/lint.sh --globals on a small repository: a new name fails, a
# stale baseline line fails, the defaults and a clean baseline pass, two
# test programs' same name is no global, a test's and a library's is.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

GL=$T_BIN/globals
D=$T_TMP/d
mkdir -p "$D"

t_plan 36

# names(): the names globals prints for files $@ (in $D), one line.
names()
{
	(cd "$D" && "$GL" "$@") | cut -f 1 | xargs
}

# line(): globals' line of name $1 for files $2... (in $D).
line()
{
	local name=$1; shift
	(cd "$D" && "$GL" "$@") | awk -F'\t' -v n="$name" '$1 == n'
}

# A library with functions: what a function declares local is its own.
cat > "$D/lib.sh" <<'FIXTURE'
G_TOP=1
f()
{
	local L_ONE=1 L_TWO L_FOR L_PRINTF L_RD
	L_ONE=2
	L_TWO=3
	declare L_DECL=4
	declare -g G_DECLG=5
	G_FN=6
	read -r L_RD
	for L_FOR in a; do :; done
	printf -v L_PRINTF '%s' "$L_ONE"
	local -n L_REF=G_TARGET
	if true; then
		{ G_NESTED=7; }
	fi
	echo "$L_ONE $L_TWO $L_DECL $L_RD $L_FOR $L_PRINTF $L_REF"
}
function g {
	local -a L_ARR=()
	L_ARR+=(x)
	G_AFTER_LOCAL_IN_F=8
	L_READ=9
}
h() {
	local L_G
	(( L_G++ ))
}
k() { G_K=10; }
L_TWO=top
FIXTURE
cat > "$D/user.sh" <<'FIXTURE'
echo "$G_TOP $G_DECLG $G_FN $G_TARGET $G_NESTED $G_AFTER_LOCAL_IN_F $G_K"
echo "$L_ONE $L_DECL $L_READ $L_RD $L_FOR $L_PRINTF $L_REF $L_ARR $L_G $L_TWO"
FIXTURE
t_eq "function-local names are the function's; the others global" \
	"G_AFTER_LOCAL_IN_F G_DECLG G_FN G_K G_NESTED G_TARGET G_TOP L_READ L_TWO" \
	"$(names lib.sh user.sh)"
cat > "$D/self.sh" <<'FIXTURE'
G_TOP=2
echo "$G_TOP"
FIXTURE
t_eq "the files that set it, those that read it without setting it, each sorted" \
	"$(printf 'G_TOP\tlib.sh,self.sh\tuser.sh')" "$(line G_TOP user.sh self.sh lib.sh)"
t_eq "a name set and read in one file alone is not printed" "" \
	"$(names lib.sh)"
t_eq "a name each file sets and reads itself is each file's own: not printed" "" \
	"$(names self.sh self.sh)"
cp "$D/self.sh" "$D/self2.sh"
t_eq "two files that each set and read their own: not printed" "" \
	"$(names self.sh self2.sh)"

# Each form of a set.
cat > "$D/sets.sh" <<'FIXTURE'
S_ASSIGN=1
S_APPEND+=x
S_ELEM[3]=y
S_ELEM2[$i + 1]=y
S_PREFIX=1 S_PREFIX2=2 cmd arg NOT_ARG=3
export S_EXPORT=1
readonly S_RO=1
declare -x S_DECL=1 S_DECL2
typeset -i S_TYPESET=1
local S_LOCALTOP=1
read -r S_READ1 S_READ2 < /dev/null
read -ra S_ARR_READ <<< "x"
IFS=: read -r -d '' -a S_ARR2 S_READ3
while IFS= read -r S_READ4; do :; done < file
printf -v S_PRINTF '%s' x
printf -vS_PRINTF2 x
mapfile -t S_MAPFILE < file
readarray -d '' S_READARRAY < file
for S_FOR in a b; do :; done
: "${S_DEFAULT:=1}"
echo "${S_DEFAULT2=1}"
(( S_ARITH = 1 ))
(( S_INC++ ))
x=$(( S_CMPD += 2 ))
exec {S_FD}> file
declare -n S_REF=S_TARGET
setsid env -u X S_ENV=1 cmd
S_ARRAY=(a "b" $(c))
if [[ -n $x ]]; then S_IN_IF=1; fi
echo ok && S_AFTER_AND=1
FIXTURE
cat > "$D/reads-all.sh" <<'FIXTURE'
echo $S_ASSIGN $S_APPEND $S_ELEM $S_ELEM2 $S_PREFIX $S_PREFIX2 $NOT_ARG $S_EXPORT $S_RO
echo $S_DECL $S_DECL2 $S_TYPESET $S_LOCALTOP $S_READ1 $S_READ2 $S_ARR_READ $S_ARR2 $S_READ3
echo $S_READ4 $S_PRINTF $S_PRINTF2 $S_MAPFILE $S_READARRAY $S_FOR $S_DEFAULT $S_DEFAULT2
echo $S_ARITH $S_INC $S_CMPD $S_FD $S_REF $S_TARGET $S_ENV $S_ARRAY $S_IN_IF $S_AFTER_AND
FIXTURE
t_eq "every form of a set" \
	"S_AFTER_AND S_APPEND S_ARITH S_ARR2 S_ARRAY S_ARR_READ S_ASSIGN S_CMPD S_DECL S_DECL2 S_DEFAULT S_DEFAULT2 S_ELEM S_ELEM2 S_ENV S_EXPORT S_FD S_FOR S_INC S_IN_IF S_LOCALTOP S_MAPFILE S_PREFIX S_PREFIX2 S_PRINTF S_PRINTF2 S_READ1 S_READ2 S_READ3 S_READ4 S_READARRAY S_REF S_RO S_TARGET S_TYPESET" \
	"$(names sets.sh reads-all.sh)"
t_eq "a compound assignment, ++, \${X:=} and a nameref's target read too" \
	"$(printf 'S_CMPD\tsets.sh\treads-all.sh')" "$(line S_CMPD sets.sh reads-all.sh)"
t_eq "a plain arithmetic assignment does not read" \
	"$(printf 'S_ARITH\tsets.sh\treads-all.sh')" "$(line S_ARITH sets.sh reads-all.sh)"

# Each form of a read, of names another file sets.
sed -E 's/^([A-Z_]+)$/\1=1/' > "$D/writer.sh" <<'FIXTURE'
R_PLAIN
R_BRACE
R_LEN
R_IND
R_DEF
R_ARR
R_IDX
R_SUB
R_ARITH
R_CMDARITH
R_OFF
R_STR
R_SUBSCR
R_NESTED
R_BQ
R_HEREDOC
R_KEY
R_EXPORTED
R_CASE
R_PAT
R_DQ_SQ
R_PROC
R_IN_ARR
R_FOR_ARITH
R_TEST
FIXTURE
cat > "$D/reads.sh" <<'FIXTURE'
echo $R_PLAIN ${R_BRACE} ${#R_LEN} ${!R_IND} ${x:-${R_DEF:-y}}
echo "${R_ARR[@]}" "${a[R_IDX]}" "${R_SUB[0]}"
echo $(( R_ARITH + 1 ))
(( R_CMDARITH > 0 )) && echo "${s:R_OFF:2}" "${R_STR: -1}"
x[R_SUBSCR]=1
echo "$(echo "$R_NESTED")" `echo $R_BQ`
cat <<EOF
text $R_HEREDOC
EOF
declare -A assoc=()
assoc[R_KEY]=1
echo "${assoc[R_KEY]}"
export R_EXPORTED
case $R_CASE in
"$R_PAT") echo in ;;
*) ;;
esac
echo "'$R_DQ_SQ'"
diff <(echo "$R_PROC") /dev/null
a=(x "$R_IN_ARR")
for ((i = 0; i < R_FOR_ARITH; i++)); do :; done
[[ -n $R_TEST ]]
FIXTURE
t_eq "every form of a read; an associative array's keys are no names" \
	"R_ARITH R_ARR R_BQ R_BRACE R_CASE R_CMDARITH R_DEF R_DQ_SQ R_EXPORTED R_FOR_ARITH R_HEREDOC R_IDX R_IND R_IN_ARR R_LEN R_NESTED R_OFF R_PAT R_PLAIN R_PROC R_STR R_SUB R_SUBSCR R_TEST" \
	"$(names writer.sh reads.sh)"

# What is skipped, and that the scan goes on after it.
sed -E 's/^([A-Z_]+)$/\1=1/' > "$D/qwriter.sh" <<'FIXTURE'
Q_COMMENT
Q_SINGLE
Q_ANSI
Q_ESCAPED
Q_QHEREDOC
Q_QHEREDOC2
Q_QHEREDOC3
Q_TABHEREDOC
Q_INDQ
Q_AFTER
Q_WORD_HASH
Q_DQ_ESC
FIXTURE
cat > "$D/quotes.sh" <<'FIXTURE'
# $Q_COMMENT
echo '$Q_SINGLE' # "$Q_COMMENT"
echo $'$Q_ANSI\' $Q_ANSI'
echo "\$Q_ESCAPED"
cat <<'EOF2'
$Q_QHEREDOC "
EOF2
cat << "EOF2"
$Q_QHEREDOC2 '
EOF2
cat <<\EOF2; echo "$Q_WORD_HASH"a#b
$Q_QHEREDOC3 `
EOF2
	cat <<-EOF2
	$Q_TABHEREDOC
	EOF2
echo "'$Q_INDQ'" "\\$Q_DQ_ESC"
echo "$Q_AFTER"
FIXTURE
t_eq "comments, single quotes, quoted here-documents skipped; the rest read" \
	"Q_AFTER Q_DQ_ESC Q_INDQ Q_TABHEREDOC Q_WORD_HASH" "$(names qwriter.sh quotes.sh)"

# Bash's own names, the environment of the programs we run (make's CC,
# ccache's, distcc's, dpkg's, gcc's), lower-case names and one-letter
# ones are not looked at; a name that only starts like one is.
cat > "$D/env-set.sh" <<'FIXTURE'
PATH=/x IFS=: HOME=/h LC_ALL=C XDG_CACHE_HOME=/c BASH_XTRACEFD=3 TMPDIR=/t
CC=gcc CCACHE_DIR=/c DISTCC_FALLBACK=1 DPKG_ADMINDIR=/d LIBRARY_PATH=/l CC_OURS=1
lower=1 A=1 _=1
OK_NAME=1
FIXTURE
cat > "$D/env-read.sh" <<'FIXTURE'
echo "$PATH $IFS $HOME $LC_ALL $XDG_CACHE_HOME $BASH_XTRACEFD $TMPDIR $lower $A $OK_NAME"
echo "$CC $CCACHE_DIR $DISTCC_FALLBACK $DPKG_ADMINDIR $LIBRARY_PATH $CC_OURS"
FIXTURE
t_eq "bash's and the environment's names, lower-case and one-letter ones ignored" \
	"CC_OURS OK_NAME" "$(names env-set.sh env-read.sh)"

t_eq "--count: the number of names alone" 9 "$(cd "$D" && "$GL" --count lib.sh user.sh)"

# --defaults: the : "${X:=...}" commands outside functions.
cat > "$D/defaults.sh" <<'FIXTURE'
: "${D_ONE:=1}"
: ${D_TWO:=2}
: "${D_THREE=3}"
echo "${D_NOT_COLON:=4}"
x=${D_NOT_CMD:=5}
f()
{
	: "${D_IN_FUNC:=6}"
}
: "${D_ALT:-7}"
echo "$(: "${D_IN_SUBST:=8}")"
FIXTURE
t_eq "--defaults: the file's own : \"\${X:=}\" commands" "D_ONE D_THREE D_TWO" \
	"$(cd "$D" && "$GL" --defaults defaults.sh | xargs)"

# Usage and I/O errors: exit 2, saying what.
t_rc "no FILE: exit 2" 2 "$GL"
t_grep "no FILE: the message" '^globals: error: no FILE' "$T_OUT"
t_rc "an unknown option: exit 2" 2 "$GL" --frob "$D/lib.sh"
t_grep "an unknown option: named" '^globals: error: --frob: unknown option' "$T_OUT"
t_rc "a missing file: exit 2" 2 "$GL" "$D/lib.sh" "$D/missing.sh"
t_grep "a missing file: named" "^globals: error: cannot open $D/missing.sh: " "$T_OUT"

# Nesting deeper than the scanner's stack, unterminated quotes and
# here-documents, binary bytes: an end, exit 0.
# shellcheck disable=SC2016  # the fixture's text
{
	printf 'X_DEEP=1\n'
	for _ in $(seq 300); do printf '"$(${X_DEEP:-'; done
	printf '\n\x00\xff"unterminated $X_DEEP\n'
	printf 'cat <<E\n$X_DEEP\n'
} > "$D/deep.sh"
t_rc "deep nesting, NUL bytes, unterminated: exit 0" 0 "$GL" "$D/deep.sh" "$D/user.sh"

# A name given to a function that makes that argument a nameref is set
# there: $1 counted past the shifts before it, in any file, quoted, with
# a subscript; not an argument that is a value, nor a lower-case name.
cat > "$D/nref-lib.sh" <<'FIXTURE'
to_two()
{
	local -n __a=$1; shift
	local v=$1; shift
	local -n __b=$1; shift
	__a=$v __b=$v
}
FIXTURE
cat > "$D/nref-use.sh" <<'FIXTURE'
to_two N_FIRST N_VALUE "N_SECOND[$x]"
to_two "N_QUOTED" "$N_READ" lower
later N_LATER
FIXTURE
cat > "$D/nref-late.sh" <<'FIXTURE'
later() { local -n __l="$1"; __l=1; }
FIXTURE
cat > "$D/nref-read.sh" <<'FIXTURE'
echo "$N_FIRST $N_VALUE ${N_SECOND[1]} $N_QUOTED $N_LATER"
FIXTURE
t_eq "nameref arguments are sets: \$1 and \$2 past a shift, quoted, subscripted" \
	"N_FIRST N_LATER N_QUOTED N_SECOND" "$(names nref-lib.sh nref-use.sh nref-late.sh nref-read.sh)"
t_eq "... by a function a later file defines" \
	"$(printf 'N_LATER\tnref-use.sh\tnref-read.sh')" \
	"$(line N_LATER nref-use.sh nref-read.sh nref-late.sh)"
t_eq "a value argument is no set" "" "$(line N_VALUE nref-lib.sh nref-use.sh nref-read.sh)"
t_eq "without the function's file: no nameref known, no set" "" \
	"$(line N_FIRST nref-use.sh nref-read.sh)"

# --shadows: a nameref argument named as a local of the function itself
# (bash resolves the nameref to that local: the caller's is never set).
cat > "$D/shadow.sh" <<'FIXTURE'
clock()
{
	local -n __c=$1; shift
	local t=1
	__c=$t
}
f() { local t; clock t; echo "$t"; }
g() { local when; clock when; clock "t"; echo "$when"; }
FIXTURE
t_eq "--shadows: each call that names the function's own local, file and line" \
	"shadow.sh:7: clock's argument 1, t, is a local of clock's own|shadow.sh:8: clock's argument 1, t, is a local of clock's own" \
	"$(cd "$D" && "$GL" --shadows shadow.sh | sed 's/: the nameref.*//' | paste -sd '|')"
t_eq "--shadows: a name of the caller's alone is no finding" "" \
	"$(cd "$D" && "$GL" --shadows nref-lib.sh nref-use.sh nref-late.sh)"

# The ratchet of tools/lint.sh --globals, on a repository of its own.
R=$T_TMP/repo
mkdir -p "$R/tools"
git -C "$R" init -q
cat > "$R/tools/lib.sh" <<'FIXTURE'
: "${WORKDIR:=/w}"
: "${JOBS:=1}"
TOP_DIR=/top
FIXTURE
cat > "$R/tools/a.sh" <<'FIXTURE'
X_NEW=1
echo "$TOP_DIR $WORKDIR $JOBS"
FIXTURE
cat > "$R/tools/b.sh" <<'FIXTURE'
echo "$X_NEW $TOP_DIR $WORKDIR"
FIXTURE
printf '# Only shrinks.\nTOP_DIR\n' > "$R/tools/globals.baseline"
git -C "$R" add . || exit 1

t_rc "a new name: lint fails" 1 "$T_TOP/tools/lint.sh" --globals "$R" "$GL"
t_grep "a new name: which, where set and read, what to do" \
	'^X_NEW: set in tools/a.sh; read in tools/b.sh; .*argument.*inputs-file field' "$T_OUT"
t_nogrep "the defaults of tools/lib.sh are not globals" 'WORKDIR|JOBS|TOP_DIR' "$T_OUT"

printf '# Only shrinks.\nTOP_DIR\nX_NEW\nX_GONE\n' > "$R/tools/globals.baseline"
t_rc "a stale baseline line: lint fails" 1 "$T_TOP/tools/lint.sh" --globals "$R" "$GL"
t_grep "a stale baseline line: remove it" \
	'X_GONE: .*remove it from tools/globals.baseline.*only shrinks' "$T_OUT"

printf '# Only shrinks.\nTOP_DIR\nX_NEW\n' > "$R/tools/globals.baseline"
t_rc "the baseline as it is: lint passes" 0 "$T_TOP/tools/lint.sh" --globals "$R" "$GL"
cp "$D/shadow.sh" "$R/tools/shadow.sh"
git -C "$R" add . || exit 1
t_rc "a shadowed nameref argument: lint fails" 1 "$T_TOP/tools/lint.sh" --globals "$R" "$GL"
git -C "$R" rm -q -f tools/shadow.sh || exit 1

# Two test programs are two processes: K1 of one is not K1 of the other.
# A test program that sets what a library of tools/ reads crosses.
mkdir -p "$R/test/host"
cat > "$R/test/host/t-one.sh" <<'FIXTURE'
K1=a
echo "$K1"
FIXTURE
cat > "$R/test/host/t-two.sh" <<'FIXTURE'
echo "$K1"
FIXTURE
git -C "$R" add . || exit 1
t_rc "a name of two test programs: no global, lint passes" 0 \
	"$T_TOP/tools/lint.sh" --globals "$R" "$GL"
echo 'X_TEST=1' >> "$R/test/host/t-two.sh"
cat >> "$R/tools/b.sh" <<'FIXTURE'
echo "$X_TEST"
FIXTURE
t_rc "a test program's name a library reads: lint fails" 1 \
	"$T_TOP/tools/lint.sh" --globals "$R" "$GL"
t_grep "... naming both files" '^X_TEST: set in test/host/t-two.sh; read in tools/b.sh; ' "$T_OUT"

t_done
