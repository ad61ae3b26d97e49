#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# intake.sh - take a series in from where a developer has it: a branch of
# their own kernel tree (--range BASE..BRANCH), a thread from their inbox
# (--mbox FILE, through b4), checked as it is or written out as a series
# file to add claims to (--init), and the base a series names in a git
# repository of theirs (base: repo/commit).
#
# Their repository is only read: its objects are shared with WORKDIR's
# kernel repo through git's alternates (objects/info/alternates of that
# repo, never of theirs), and every git command here reads it (rev-parse,
# rev-list, format-patch). test/e2e/t-70-range.sh proves its refs, index,
# config and object store are the same after a run.
#
# Sourced by tools/bisect-check; expects lib.sh and series.sh (yaml_str).

# intake_git_dir(): variable $1 = the git dir of the repository at or
# above dir $2, absolute; dies naming the dir when there is none.
intake_git_dir()
{
	local -n __ig=$1; shift
	local dir=$1; shift

	__ig=$(git -C "$dir" rev-parse --absolute-git-dir 2> /dev/null) ||
		die "$dir: not in a git repository: run --range in your kernel tree, or give -C DIR"
}

# intake_rev(): variable $1 = the commit revision $3 names in git dir $2;
# dies naming the repository and the revision when it names none.
intake_rev()
{
	local -n __ir=$1; shift
	local gd=$1; shift
	local rev=$1; shift

	[[ "$rev" != -* ]] || die "$gd: '$rev' is not a revision (it starts with '-')"
	__ir=$(git --git-dir="$gd" rev-parse -q --verify "$rev^{commit}" 2> /dev/null) ||
		die "$gd: '$rev' names no commit: check the range (git log $rev)"
}

# intake_name(): variable $1 = a series name made of branch name $2: what
# tools/bin/series accepts (letters, digits, '.', '_', '-').
intake_name()
{
	local -n __in=$1; shift
	local n=$1; shift

	n=${n#refs/heads/}
	n=${n//[^A-Za-z0-9._-]/-}
	while [[ "$n" == *--* ]]; do
		n=${n//--/-}
	done
	n=${n##[.-]}
	n=${n:0:64}
	n=${n%%[.-]}
	[[ -n "$n" ]] || n=series
	__in=$n
}

# b4 prep's cover letter commit holds this line between the cover and
# its tracking data (b4 0.12, ez.py MAGIC_MARKER).
INTAKE_B4_MARKER='--- b4-submit-tracking ---'

# intake_b4_fields(): read what tools/bin/b4prep printed (file $1) into
# the assoc array $2: subject, revision, change-id, base-branch.
intake_b4_fields()
{
	local file=$1; shift
	local -n __ibf=$1; shift
	local k v

	while IFS=$'\t' read -r k v; do
		__ibf["$k"]=$v
	done < "$file"
}

# intake_b4_empty(): true when commit $2 of git dir $1 changes nothing
# (has the tree of its parent), as b4's cover letter commit.
intake_b4_empty()
{
	local gd=$1; shift
	local c=$1; shift

	[[ "$(git --git-dir="$gd" rev-parse "$c^{tree}")" == \
	   "$(git --git-dir="$gd" rev-parse -q --verify "$c^^{tree}")" ]]
}

# intake_b4_cover(): variable $1 = b4 prep's cover letter commit among
# the commits BASE..TIP ($3, $4) of git dir $2, "" when there is none: an
# empty commit (the tree of its parent) with b4's marker line in its
# message. Dies naming them when there are two.
intake_b4_cover()
{
	local -n __ibc=$1; shift
	local gd=$1; shift
	local base=$1; shift
	local tip=$1; shift
	local c
	local -a covers=()

	while read -r c; do
		intake_b4_empty "$gd" "$c" && covers+=("$c")
	done < <(git --git-dir="$gd" rev-list --grep="^$INTAKE_B4_MARKER\$" "$base..$tip")
	((${#covers[@]} < 2)) ||
		die "$gd: ${#covers[@]} b4 prep cover letter commits in ${base:0:12}..${tip:0:12} (${covers[*]:0:2}...): give the range of one series"
	__ibc=${covers[0]:-}
}

# intake_b4_head(): variables $1 = the base and $2 = the branch of the
# series that b4 prep manages at HEAD of git dir $4, as b4 finds them: on
# a branch whose cover is a commit (cover strategy "commit", b4's
# default) the base is the cover commit's parent; otherwise (strategies
# "tip-commit" and "branch-description") it is the fork point of the
# branch from the base branch b4 recorded in its tracking data. Returns
# 1 with the reason in variable $3 when HEAD is on no such branch.
intake_b4_head()
{
	local -n __ibh_base=$1; shift
	local -n __ibh_branch=$1; shift
	local -n __ibh_why=$1; shift
	local gd=$1; shift
	local br strategy cover tmp bb rc
	local -A f=()

	br=$(git --git-dir="$gd" symbolic-ref -q --short HEAD) || {
		__ibh_why="HEAD is detached, on no branch"
		return 1
	}
	__ibh_branch=$br
	strategy=$(git --git-dir="$gd" config --get "branch.$br.b4-prep-cover-strategy") ||
		strategy=commit
	tmp=$(mktemp) || die "cannot create a temporary file"
	case $strategy in
	commit | tip-commit)
		# As b4 looks for it: the newest commit with the marker.
		cover=$(git --git-dir="$gd" rev-list -1 --grep="^$INTAKE_B4_MARKER\$" HEAD)
		if [[ -z "$cover" ]] || ! intake_b4_empty "$gd" "$cover"; then
			rm -f "$tmp"
			__ibh_why="branch $br has no b4 prep cover letter commit (no commit with b4's line '$INTAKE_B4_MARKER')"
			return 1
		fi
		if [[ "$strategy" == commit ]]; then
			rm -f "$tmp"
			__ibh_base=$(git --git-dir="$gd" rev-parse -q --verify "$cover^") ||
				die "$gd: b4's cover letter commit ${cover:0:12} of $br has no parent: no base"
			return 0
		fi
		git --git-dir="$gd" log -1 --format=%B "$cover" | "$TOP/tools/bin/b4prep" > "$tmp"
		rc=$?
		;;
	branch-description)
		git --git-dir="$gd" config --get "branch.$br.b4-tracking" > "$tmp.json" || {
			rm -f "$tmp" "$tmp.json"
			__ibh_why="branch $br has no b4 tracking data (git config branch.$br.b4-tracking)"
			return 1
		}
		"$TOP/tools/bin/b4prep" -t "$tmp.json" < /dev/null > "$tmp"
		rc=$?
		rm -f "$tmp.json"
		;;
	*)
		rm -f "$tmp"
		die "$gd: branch $br: b4 cover strategy '$strategy' is not one b4 0.12 has (commit, tip-commit, branch-description)"
		;;
	esac
	((rc == 0)) || { rm -f "$tmp"; die "$gd: branch $br: b4's tracking data cannot be read (tools/bin/b4prep says why above)"; }
	intake_b4_fields "$tmp" f
	rm -f "$tmp"
	bb=${f[base-branch]:-}
	[[ -n "$bb" ]] ||
		die "$gd: branch $br: b4's tracking data names no base branch: give --range BASE..$br"
	git --git-dir="$gd" rev-parse -q --verify "refs/heads/$bb^{commit}" > /dev/null ||
		die "$gd: branch $br: its base branch $bb (b4's tracking data) is gone: give --range BASE..$br"
	# b4's fork point (merge-base --fork-point); a base branch without
	# the reflog that needs: where the two meet.
	__ibh_base=$(git --git-dir="$gd" merge-base --fork-point "refs/heads/$bb" HEAD 2> /dev/null) ||
		__ibh_base=$(git --git-dir="$gd" merge-base "refs/heads/$bb" HEAD) ||
		die "$gd: branch $br and its base branch $bb have no commit in common"
	return 0
}

# intake_b4_config(): the .b4-config beside series file $1, unless there
# is one: no recipients (a series of one's own goes to those its cover
# letter and get_maintainer.pl name, never to this repository's series'
# ones), b4's commands for get_maintainer.pl as tools/send.sh needs them.
intake_b4_config()
{
	local cfg=${1%/*}/.b4-config key val

	[[ -e "$cfg" ]] && return 0
	{
		echo "# Written by tools/bisect-check: b4's settings for make send of this series."
		echo "# No recipients here: b4 sends to the To: and Cc: of the cover letter and"
		echo "# the patches' trailers, and to those get_maintainer.pl names (AUTO_CC=1)."
		echo "# Add send-series-to and send-series-cc (see $TOP/.b4-config) for more."
		echo "[b4]"
		for key in send-auto-to-cmd send-auto-cc-cmd; do
			val=$(git config -f "$TOP/.b4-config" --get "b4.$key") || continue
			printf '\t%s = %s\n' "$key" "$val"
		done
	} > "$cfg" || die "cannot write $cfg"
}

# intake_range(): write the series of range $3 (BASE..BRANCH; "" for the
# series b4 prep manages at HEAD, intake_b4_head) of the repository at
# dir $2 into series file $4 (its patches in patches/ beside it); what
# it took in, for the caller's messages, into associative array $1 (the
# caller's): [n] the number of patches, [range] the range (BASE..BRANCH,
# the base as a commit when b4's fork point), [cover] the subject of the
# cover letter ("" for none). The base is that repository at
# BASE, each commit of the range a patch, the target the default one, no
# claims (the boot still fails on any oops, BUG, WARNING, panic or hang).
# A branch that b4 prep manages gives the cover letter (b4's cover letter
# commit, not a patch, or the branch's description), as
# cover-letter.txt beside the series file, and the revision. Dies with
# what to do on a range it cannot take: no "..", no commit in it, a merge
# in it, a cover letter commit amid the patches.
intake_range()
{
	local -n __ir_took=$1; shift
	local dir=$1; shift
	local range=$1; shift
	local out=$1; shift
	local gd base tip count odir branch='' cover='' from to why tmp rc name='' what=''
	local coverfile=- version=1
	local -a merges=() files=()
	local -A f=()

	intake_git_dir gd "$dir"
	if [[ -z "$range" ]]; then
		intake_b4_head base branch why "$gd" ||
			die "$gd: --range without BASE..BRANCH checks the branch b4 prep manages at HEAD, but $why: give --range BASE..BRANCH"
		tip=$(git --git-dir="$gd" rev-parse HEAD) || die "$gd: no HEAD"
		range="${base:0:12}..$branch"
	else
		[[ "$range" == ?*..?* && "$range" != *...* ]] ||
			die "--range '$range': give BASE..BRANCH (two dots), e.g. --range v6.1..my-series, or --range alone on a b4 prep branch"
		intake_rev base "$gd" "${range%%..*}"
		intake_rev tip "$gd" "${range#*..}"
		branch=$(git --git-dir="$gd" rev-parse -q --verify --symbolic-full-name "${range#*..}" 2> /dev/null)
		[[ "$branch" == refs/heads/* ]] && branch=${branch#refs/heads/} || branch=''
	fi
	mapfile -t merges < <(git --git-dir="$gd" rev-list --merges "$base..$tip")
	((${#merges[@]} == 0)) ||
		die "--range $range: ${merges[0]:0:12} is a merge; a series is a line of patches: rebase it, or give a range without merges"
	count=$(git --git-dir="$gd" rev-list --count "$base..$tip") || die "$gd: cannot list $range"
	((count > 0)) || die "--range $range: no commit in it (is BASE an ancestor of BRANCH?)"
	odir=$(dirname "$out")
	mkdir -p "$odir/patches" || die "cannot create $odir/patches"
	rm -f "$odir"/patches/*.patch "$odir/cover-letter.txt"

	# A branch b4 prep manages: its cover letter is no patch.
	from=$base
	to=$tip
	tmp=$odir/b4prep.tsv
	intake_b4_cover cover "$gd" "$base" "$tip"
	if [[ -n "$cover" ]]; then
		if [[ "$(git --git-dir="$gd" rev-parse "$cover^")" == "$base" ]]; then
			from=$cover
		elif [[ "$cover" == "$tip" ]]; then
			to=$(git --git-dir="$gd" rev-parse "$tip^")
		else
			die "--range $range: b4's cover letter commit ${cover:0:12} is amid the patches (b4 keeps it first, or last): give BASE as its parent, ${cover:0:12}^, or --range alone on the branch"
		fi
		count=$((count - 1))
		((count > 0)) || die "--range $range: only b4's cover letter commit ${cover:0:12} in it, no patch"
		git --git-dir="$gd" log -1 --format=%B "$cover" |
			"$TOP/tools/bin/b4prep" -o "$odir/cover-letter.txt" > "$tmp"
		rc=$?
		what="b4 prep's cover letter commit ${cover:0:12}"
	elif [[ -n "$branch" ]] &&
	     git --git-dir="$gd" config --get "branch.$branch.b4-tracking" > "$tmp.json"; then
		git --git-dir="$gd" config --get "branch.$branch.description" |
			"$TOP/tools/bin/b4prep" -t "$tmp.json" -o "$odir/cover-letter.txt" > "$tmp"
		rc=$?
		what="the description of branch $branch (b4 prep)"
	fi
	rm -f "$tmp.json"
	if [[ -n "$what" ]]; then
		((rc == 0)) ||
			die "--range $range: $what cannot be read (tools/bin/b4prep says why above)"
		intake_b4_fields "$tmp" f
		version=${f[revision]:-1}
		coverfile="cover-letter.txt"
		[[ -n "$branch" ]] && name=${branch#b4/}
	fi
	rm -f "$tmp"
	intake_name name "${name:-${range#*..}}"
	mapfile -t files < <(git --git-dir="$gd" format-patch -o "$odir/patches" \
		--no-signature "$from..$to") ||
		die "$gd: git format-patch $range failed"
	((${#files[@]} == count)) ||
		die "$gd: git format-patch gave ${#files[@]} patches for $count commits of $range (an empty commit in it?)"
	intake_write "$out" "the series of $range in $gd, $count patch(es) of git format-patch${what:+, the cover letter from $what}" \
		"$name" "$version" "$coverfile" "$gd" "$base" "${files[@]}"
	intake_b4_config "$out"
	__ir_took=(["n"]=$count ["range"]=$range ["cover"]=${f[subject]:-})
}

# intake_write(): series file $1 (what it is: $2), named $3, version $4,
# cover letter file $5 ("-": none), base commit $7 of git dir $6, the
# patch files $8... (in patches/ beside it); no claims, the default
# target, the series config of this repository.
intake_write()
{
	local out=$1; shift
	local what=$1; shift
	local name=$1; shift
	local version=$1; shift
	local cover=$1; shift
	local gd=$1; shift
	local base=$1; shift
	local f

	{
		echo "# Written by tools/bisect-check on $(date -u +%F): $what."
		echo "# No claims yet. Add them (README, The series): tests: and guest: say"
		echo "# what the guest checks, an expect: per patch what each step must give."
		printf 'name: %s\nversion: %s\n' "$(yaml_str "$name")" "$version"
		[[ "$cover" == - ]] || printf 'cover-letter: %s\n' "$(yaml_str "$cover")"
		printf 'config: %s\n' "$(yaml_str "$TOP/tools/kconfig/bisect.config")"
		printf 'base:\n  repo: %s\n  commit: %s\n' "$(yaml_str "$gd")" "$base"
		printf 'boot:\n  timeout: 120\n'
		printf 'patches:\n'
		for f in "$@"; do
			printf '  - file: %s\n' "$(yaml_str "patches/${f##*/}")"
		done
	} > "$out" || die "cannot write $out"
}

# intake_mbox(): write the series a thread holds (mbox $3, as saved from a
# mail client or b4 mbox) into series file $4, the number of its patches
# into variable $1. b4 am (in the sandbox: the mail is anyone's) picks the
# newest complete revision and applies the trailers of the replies; the
# base is the cover's base-commit, else revision $5 ("-": none), in the
# git repository at dir $2. Bad mail is refused with what is wrong and
# nothing run: no patch in it, a revision with a patch missing (never
# filled from an older one), unicode control characters, prerequisite
# patches, no base.
intake_mbox()
{
	local -n __im_n=$1; shift
	local dir=$1; shift
	local mbox=$1; shift
	local out=$1; shift
	local base=$1; shift
	local odir b4d log gd f count name rev subject missing='' i total=0 rc
	local -a sb=() mbx=() cov=() files=() prereq=()
	local -A have=()

	[[ -f "$mbox" && -r "$mbox" ]] || die "--mbox $mbox: cannot read it"
	mbox=$(realpath "$mbox")
	intake_git_dir gd "$dir"
	odir=$(dirname "$out")
	b4d=$odir/b4
	rm -rf "$b4d" "$odir/patches"
	mkdir -p "$b4d" "$odir/patches" || die "cannot create $b4d"
	log=$b4d/b4.log
	# b4 wants a user identity, which HOME held: a neutral one of its
	# own (it adds no Signed-off-by here).
	sandbox_argv sb --rw "$b4d" --ro "${mbox%/*}" --ro "$TOP" \
		--env XDG_CACHE_HOME=/tmp --env XDG_CONFIG_HOME=/tmp --env XDG_DATA_HOME=/tmp \
		--env GIT_CONFIG_COUNT=2 \
		--env GIT_CONFIG_KEY_0=user.name --env GIT_CONFIG_VALUE_0=bisect-check \
		--env GIT_CONFIG_KEY_1=user.email --env GIT_CONFIG_VALUE_1=bisect-check@localhost
	(cd "$b4d" && "${sb[@]}" b4 am -C --no-partial-reroll -t -m "$mbox" -o "$b4d") \
		> "$log" 2>&1
	rc=$?
	grep -q '^No patches found' "$log" &&
		die "$mbox: no patch in it (b4 am found none): give the thread of a series, as saved from your mail client or b4 mbox"
	if grep -q 'suspicious unicode control characters' "$log"; then
		# Its subject and the character's name, not the line itself: it
		# would reorder what the terminal shows.
		die "$mbox: unicode control characters in a patch (b4 am refuses it): $(grep -A5 'suspicious unicode control' "$log" |
			sed -n 's/^ *\(Subject\|Char\): /\1: /p' | paste -sd ' ')"
	fi
	if grep -q 'Thread incomplete' "$log"; then
		# b4 lists the patches it found, "  [PATCH v2 2/3] subject".
		while IFS= read -r f; do
			have[${f%/*}]=1
			total=${f#*/}
		done < <(sed -n 's/^  \[PATCH[^]]* \([0-9][0-9]*\/[0-9][0-9]*\)\].*/\1/p' "$log")
		for ((i = 1; i <= total; i++)); do
			[[ -n "${have[$i]:-}" ]] || missing+="${missing:+, }$i/$total"
		done
		die "$mbox: a partial series, ${missing:-a patch} missing (b4 am: thread incomplete): save the whole thread"
	fi
	((rc == 0)) || die "$mbox: b4 am failed (see $log)"
	mbx=("$b4d"/*.mbx)
	[[ -f "${mbx[0]}" ]] || die "$mbox: b4 am wrote no series (see $log)"
	rev=$(sed -n 's/^  \[PATCH v\([0-9][0-9]*\) .*/\1/p' "$log" | head -n 1)
	[[ -n "$rev" ]] || rev=1
	# The cover letter: subject (without the [PATCH ...] tag) and body.
	cov=("$b4d"/*.cover)
	if [[ -f "${cov[0]}" ]]; then
		subject=$(awk '/^Subject: / { s = substr($0, 10); getline; while ($0 ~ /^[ \t]/) { s = s $0; getline }
			print s; exit }' "${cov[0]}" | sed 's/^\[[^]]*\] *//')
		{ printf '%s\n\n' "$subject"; sed '1,/^$/d' "${cov[0]}"; } > "$odir/cover-letter.txt"
		mapfile -t prereq < <(sed -n 's/^prerequisite-patch-id: *\([0-9a-f]*\).*/\1/p' "${cov[0]}")
		((${#prereq[@]} == 0)) ||
			die "$mbox: the series needs prerequisite patches first (patch-id ${prereq[*]}): apply them on the base and give that commit as --base"
		f=$(sed -n 's/^base-commit: *\([0-9a-f]\{7,40\}\).*/\1/p' "${cov[0]}" | head -n 1)
		[[ -n "$f" ]] && base=$f
	fi
	[[ "$base" != - ]] ||
		die "$mbox: no base: the cover names no base-commit; give --base REV (a commit of the tree at -C DIR)"
	intake_rev base "$gd" "$base"
	git mailsplit -o"$odir/patches" "${mbx[0]}" > /dev/null || die "$mbox: git mailsplit failed"
	for f in "$odir"/patches/[0-9]*; do
		mv "$f" "$f.patch" && files+=("$f.patch")
	done
	count=${#files[@]}
	((count > 0)) || die "$mbox: b4 am gave no patch (see $log)"
	intake_name name "${subject:-${mbx[0]##*/}}"
	intake_write "$out" "v$rev of the thread $mbox, $count patch(es) as b4 am applied them, on $base of $gd" \
		"$name" "$rev" "$([[ -f "$odir/cover-letter.txt" ]] && echo cover-letter.txt || echo -)" \
		"$gd" "$base" "${files[@]}"
	__im_n=$count
}

# intake_base(): make the kernel repo KREPO see the objects of base
# repository $2 (alternates: read, never written) and set variable $1 to
# revision $3 there; the log $4 says what was done. Dies with what to do
# when the repository or the revision is not there.
intake_base()
{
	local -n __ib_ref=$1; shift
	local repo=$1; shift
	local rev=$1; shift
	local log=$1; shift
	local gd objs alt=$KREPO/objects/info/alternates

	intake_git_dir gd "$repo"
	objs=$(git --git-dir="$gd" rev-parse --path-format=absolute --git-common-dir)/objects
	[[ -d "$objs" ]] || die "$repo: no object store at $objs"
	intake_rev __ib_ref "$gd" "$rev"
	if [[ ! -d "$KREPO" ]]; then
		git init -q --bare "$KREPO" >> "$log" 2>&1 || die "cannot create $KREPO"
		git --git-dir="$KREPO" config gc.auto 0
	fi
	# A base in the kernel repo itself needs no alternate.
	if [[ "$(realpath "$objs")" != "$(realpath "$KREPO/objects")" ]] &&
	   ! grep -qxF "$objs" "$alt" 2> /dev/null; then
		{ mkdir -p "${alt%/*}" && echo "$objs" >> "$alt"; } || die "cannot write $alt"
		echo "shares the objects of $objs (alternates)" >> "$log"
	fi
	git --git-dir="$KREPO" cat-file -e "$__ib_ref^{commit}" 2> /dev/null ||
		die "$KREPO cannot read $__ib_ref through $alt"
	echo "base: $repo at $rev, $__ib_ref" >> "$log"
}

# intake_tidy(): drop from the kernel repo's alternates the object stores
# that are gone (a repository a series was based on, since removed), of
# which git would complain on every command, and the series branches
# that needed them; the log $1 says so.
intake_tidy()
{
	local log=$1; shift
	local alt=$KREPO/objects/info/alternates line keep=() gone=0

	[[ -s "$alt" ]] || return 0
	while IFS= read -r line; do
		if [[ -d "$line" ]]; then
			keep+=("$line")
		else
			gone=$((gone + 1))
			echo "alternates: $line is gone, no longer read" >> "$log"
		fi
	done < "$alt"
	((gone)) || return 0
	printf '%s\n' "${keep[@]}" | grep . > "$alt.tmp"
	mv "$alt.tmp" "$alt"
	# The series branches whose commits lived there are gone too: a ref
	# to a commit the repo cannot read whole is dropped, not kept broken.
	while IFS= read -r line; do
		git --git-dir="$KREPO" rev-list --objects --quiet "$line" 2> /dev/null && continue
		git --git-dir="$KREPO" update-ref -d "$line"
		echo "$line: its objects were in a store that is gone: dropped" >> "$log"
	done < <(git --git-dir="$KREPO" for-each-ref --format='%(refname)' refs/heads/bisect/)
}
