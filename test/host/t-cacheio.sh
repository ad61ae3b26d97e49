#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-cacheio.sh - tests of tools/bin/cacheio, the cache's coprocess: its
# hashes equal `sha1sum | cut -c1-20` of the same bytes (so keys made
# with or without it agree), its copies are byte for byte, its touches
# are touch -c, its identities are stat -L's and readlink -f's, and bad
# requests end it cleanly; then cache.sh's hash_to and hash_files_to
# give the same keys through it as without, file_id the same identity,
# and file_sums_to the hash_files_to hash, kept until a file changes.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CIO=$T_BIN/cacheio
D=$T_TMP/cacheio

# sha(): the short sha1 of stdin, as the shell fallback makes it.
sha()
{
	sha1sum | cut -c1-20
}

t_plan 27

mkdir -p "$D"
# Fixed seed: the same bytes every run, NULs and high bytes included.
awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%c", int(rand() * 256) }' \
	> "$D/random.bin"
printf 'line one\n\tline two\n' > "$D/text"
: > "$D/empty"

t_eq "S: abc and a newline" "$(printf 'abc\n' | sha)" \
	"$(printf 'Sabc\n\0' | "$CIO")"
t_eq "S: no bytes" "$(printf '' | sha)" "$(printf 'S\0' | "$CIO")"
long=$(head -c 300000 "$D/random.bin" | tr -d '\000' | tr '\n' x)
t_eq "S: 300 kB of bytes without NUL" "$(printf '%s' "$long" | sha)" \
	"$(printf 'S%s\0' "$long" | "$CIO")"
t_eq "F: labels and contents, a missing file adds nothing" \
	"$({ printf 'a/random\n'; cat "$D/random.bin"; printf 'b/text\n'; cat "$D/text";
	     printf 'c/none\n'; printf 'd/empty\n'; } | sha)" \
	"$(printf 'Fa/random\0%s\0b/text\0%s\0c/none\0%s\0d/empty\0%s\0\0' \
		"$D/random.bin" "$D/text" "$D/none" "$D/empty" | "$CIO")"
t_eq "three requests, three answers, in order" \
	"$(printf '1\n' | sha) ok $(printf '2\n' | sha)" \
	"$(printf 'S1\n\0C%s\0%s\0S2\n\0' "$D/text" "$D/copy" | "$CIO" | xargs)"

out=$(printf 'C%s\0%s\0' "$D/random.bin" "$D/random.copy" | "$CIO")
t_eq "C: ok" ok "$out"
t_rc "C: byte for byte" 0 cmp "$D/random.bin" "$D/random.copy"
t_grep "C: a missing source is named" "^error: $D/none: No such file or directory\$" \
	<(printf 'C%s\0%s\0' "$D/none" "$D/x" | "$CIO")
t_grep "C: an unwritable target is named" "^error: $D/no/such/dir: No such file or directory\$" \
	<(printf 'C%s\0%s\0' "$D/text" "$D/no/such/dir" | "$CIO")

touch -d '3 days ago' "$D/text"
before=$(stat -c %Y "$D/text")
t_eq "T: ok, and no file made" "ok ok" \
	"$(printf 'T%s\0T%s\0' "$D/text" "$D/never" | "$CIO" | xargs)"
t_rc "T: the time moved on" 0 test "$(stat -c %Y "$D/text")" -gt "$before"
t_eq "T: touch -c makes nothing" no "$([[ -e "$D/never" ]] && echo yes || echo no)"

# I: stat -L and readlink -f of a link to a link, in one answer.
ln -s text "$D/link1"
ln -s link1 "$D/link2"
ns=$(stat -L -c '%.9Y %.9Z' "$D/link2")
read -r mns cns <<< "$ns"
t_eq "I: identity as stat -L, the path as readlink -f" \
	"$(stat -L -c '%s %Y %Z %i %d' "$D/link2") ${mns#*.} ${cns#*.}	$(readlink -f "$D/link2")" \
	"$(printf 'I%s\0' "$D/link2" | "$CIO")"
t_eq "I: a file that is not there, an error not naming it; then more answers" \
	"error: No such file or directory|$(printf '3\n' | sha)" \
	"$(printf 'I%s\0S3\n\0' "$D/none" | "$CIO" | paste -sd '|')"
t_grep "I: a magic link of /proc: its inode, no path" $'^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]{9} [0-9]{9}\t$' \
	<(printf 'I/proc/self/ns/user\0' | "$CIO")

printf 'X' | "$CIO" > "$T_OUT"
rc=${PIPESTATUS[1]}
t_eq "an unknown request: error, exit 2" "error 2" "$(cat "$T_OUT") $rc"
t_rc "a truncated request ends quietly" 0 bash -c "printf 'Sab' | '$CIO'"

# cache.sh: the same keys through the coprocess as through sha1sum.
keys()
{
	# shellcheck source=tools/cache.sh
	source "$T_TOP/tools/cache.sh"
	local a b
	hash_to a "x y" "" $'multi\nline' "tab	here"
	hash_files_to b "$D/random.bin" "$D/text" "$D/none"
	echo "$a $b"
}
via=$(TOP=$T_TOP keys)
# Without tools/bin/cacheio under TOP: sha1sum (the files are not under
# either TOP, so their names hash the same).
plain=$(TOP=$T_TMP/no-top keys 2>/dev/null)
t_eq "hash_to and hash_files_to: coprocess and fallback agree" "$plain" "$via"
t_rc "the keys are 20 hex digits each" 0 grep -Eq '^[0-9a-f]{20} [0-9a-f]{20}$' <(echo "$via")

# memo.sh-style facts: kept, and read back in a new shell into a variable
# of any name (a name its own locals shadowed gave an empty answer).
memo()
{
	# shellcheck source=tools/cache.sh
	source "$T_TOP/tools/cache.sh"
	local v k x
	if [[ "$1" == put ]]; then
		memo_put facts "key one" "value	with tab"
		return
	fi
	memo_get v facts "key one" || echo "v: none"
	memo_get k facts "key one" || echo "k: none"
	memo_get x facts "no such key" && echo "x: found $x"
	echo "$v|$k"
}
WORKDIR=$D/wd memo put
t_eq "memo: a fact read back, in variables named like memo_get's own (its tab kept)" \
	"value	with tab|value	with tab" "$(WORKDIR=$D/wd memo get)"

# file_id through cacheio and through stat and readlink agree, and say
# what stat -L -c '%n %s %Y %Z %i' says (the toolchain's keys).
ids()
{
	# shellcheck source=tools/cache.sh
	source "$T_TOP/tools/cache.sh"
	local -A f
	CACHEIO_ID=$1
	file_id f "$D/link2" || echo "file_id failed"
	echo "${f[id]}|${f[key]}|${f[real]}|${f[ino]}|${f[settled]}"
	file_id f "$D/none" && echo "file_id of nothing did not fail"
	echo "${f[id]}|${f[real]}|${f[settled]}"
}
via=$(TOP=$T_TOP ids "")
t_eq "file_id: through cacheio as through stat and readlink" "$(TOP=$T_TOP ids 0)" "$via"
t_eq "file_id: [id] as stat -L says it, [real] as readlink -f, [ino] the inode" \
	"$(stat -L -c '%n %s %Y %Z %i' "$D/link2")|$(readlink -f "$D/link2")|$(stat -L -c %i "$D/link2")" \
	"$(head -n 1 <<< "$via" | cut -d '|' -f 1,3,4)"
t_eq "file_id: a file that cannot be stat'ed leaves nothing of the last one" "||0" \
	"$(tail -n 1 <<< "$via")"

# file_sums_to: hash_files_to's hash, kept under the files' identity,
# asked again when one changed, even to the same size and mtime.
cp "$D/random.bin" "$D/big"
sums()
{
	# shellcheck source=tools/cache.sh
	source "$T_TOP/tools/cache.sh"
	local a b
	file_sums_to a "$D/big" "$D/text"
	hash_files_to b "$D/big" "$D/text"
	echo "$a $b $(wc -l < "$D/wd/memo/file-sum" 2> /dev/null || echo 0)"
}
first=$(TOP=$T_TOP WORKDIR=$D/wd FILE_SETTLE=0 sums)
read -r a b n <<< "$first"
t_eq "file_sums_to: hash_files_to's hash, kept" "$b $b 1" "$first"
t_eq "file_sums_to: the kept hash, the same" "$first" \
	"$(TOP=$T_TOP WORKDIR=$D/wd FILE_SETTLE=0 sums)"
# One byte other, same size, same mtime: the ctime tells.
printf 'X' | dd of="$D/big" bs=1 seek=100 conv=notrunc status=none
touch -r "$D/random.bin" "$D/big"
read -r a b n <<< "$(TOP=$T_TOP WORKDIR=$D/wd FILE_SETTLE=0 sums)"
t_eq "file_sums_to: a changed file (same size and mtime) hashed again" "new $b 2" \
	"$([[ "$a" != "${first%% *}" ]] && echo new) $a $n"
touch "$D/big"
read -r a b n <<< "$(TOP=$T_TOP WORKDIR=$D/wd sums)"
t_eq "file_sums_to: a file changed just now hashed, not kept" "$b 2" "$a $n"

t_done
