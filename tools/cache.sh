#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cache.sh - the result cache, in one format for every stage: a cell's
# result record (cell.sh) with its details and evidence, stored under a
# key made of everything that determines the result, and reused by later
# runs. A cached failure stays a failure. FORCE=1 ignores (and
# refreshes) it.
#
# Sourced by tools/cell.sh; expects lib.sh.

# cacheio_ready(): this shell's cache coprocess (tools/bin/cacheio:
# hashes, copies, touches without a fork each) runs: started on first
# use; fails in a subshell of the shell that owns it (two writers would
# mix their requests) or when it is not built. Callers fall back to
# sha1sum, cp and touch.
CACHEIO_OWNER=
cacheio_ready()
{
	[[ "$CACHEIO_OWNER" == "$BASHPID" ]] && return 0
	[[ -z "$CACHEIO_OWNER" && -x "$TOP/tools/bin/cacheio" ]] || return 1
	# Without the WORKDIR lock: it must not outlive nor hold the run.
	coproc CACHEIO {
		lock_drop
		exec "$TOP/tools/bin/cacheio"
	}
	CACHEIO_OWNER=$BASHPID
}

# copy_file(): copy file $1 to $2.
copy_file()
{
	if cacheio_ready; then
		if ! printf 'C%s\0%s\0' "$1" "$2" >&"${CACHEIO[1]}" ||
		   ! IFS= read -r REPLY <&"${CACHEIO[0]}"; then
			die "tools/bin/cacheio failed (make tools?)"
		fi
		[[ "$REPLY" == ok ]] && return 0
		msg "copy $1: $REPLY"
		return 1
	fi
	cp "$1" "$2"
}

# touch_used(): mark cache entry or artifact dir $1 used now (pruning goes
# by the last use), when it exists.
touch_used()
{
	if cacheio_ready; then
		if ! printf 'T%s\0' "$1" >&"${CACHEIO[1]}" ||
		   ! IFS= read -r REPLY <&"${CACHEIO[0]}"; then
			die "tools/bin/cacheio failed (make tools?)"
		fi
		return 0
	fi
	touch -c "$1"
}

# hash_to(): variable $1 = a short sha1 of the other arguments' text,
# one a line (without a fork when cacheio runs: cache keys are many).
hash_to()
{
	local -n __hash_ref=$1; shift

	if cacheio_ready; then
		{ printf S; printf '%s\n' "$@"; printf '\0'; } >&"${CACHEIO[1]}" &&
			IFS= read -r __hash_ref <&"${CACHEIO[0]}" &&
			[[ "$__hash_ref" =~ ^[0-9a-f]{20}$ ]] && return 0
		die "tools/bin/cacheio failed (make tools?)"
	fi
	__hash_ref=$(printf '%s\n' "$@" | sha1sum | cut -c1-20)
}

# hash_files_to(): variable $1 = a short sha1 of the named files' names
# (relative to this repository) and contents.
hash_files_to()
{
	local -n __hash_ref=$1; shift
	local f

	if cacheio_ready; then
		{
			printf F
			for f in "$@"; do
				printf '%s\0%s\0' "${f#"$TOP"/}" "$f"
			done
			printf '\0'
		} >&"${CACHEIO[1]}" &&
			IFS= read -r __hash_ref <&"${CACHEIO[0]}" &&
			[[ "$__hash_ref" =~ ^[0-9a-f]{20}$ ]] && return 0
		die "tools/bin/cacheio failed (make tools?)"
	fi
	__hash_ref=$(for f in "$@"; do
			printf '%s\n' "${f#"$TOP"/}"
			cat "$f"
		done | sha1sum | cut -c1-20)
}

# The store of facts: memo NAME is WORKDIR/memo/NAME, one fact a line,
# "KEY<TAB>VALUE" (a key is one line without a tab; in a value a
# backslash, a newline and a tab are written \\, \n and \t, so that any
# text comes back as it went in). A memo holds facts of immutable inputs
# only (what a commit id names never changes; what a program says, under
# its file's identity; a probe's answer, under what decides it), so that
# a rerun need not ask again. Everything the tool keeps besides the cells'
# results (cache/, cell.sh) is a memo.
declare -A MEMO=() MEMO_READ=()

# memo_load(): read memo $1 into MEMO (MEMO_READ: the identity of the
# file as read).
memo_load()
{
	local name=$1; shift
	local file=$WORKDIR/memo/$name k v rest
	local -A id

	MEMO_READ[$name]=-
	[[ -r "$file" ]] || return 0
	file_id id "$file" && MEMO_READ[$name]=${id[id]}
	while IFS=$'\t' read -r k rest; do
		v=
		while [[ "$rest" == *\\* ]]; do
			v+=${rest%%\\*}
			rest=${rest#*\\}
			case ${rest:0:1} in
			n) v+=$'\n' ;;
			t) v+=$'\t' ;;
			*) v+=${rest:0:1} ;;
			esac
			rest=${rest:1}
		done
		MEMO["$name:$k"]=$v$rest
	done < "$file"
}

# memo_get(): variable $1 = what memo $2 keeps for key $3; fails when it
# keeps nothing. Each memo is read once a run, and again on a miss when
# another process added to it since (two runs of one WORKDIR, or a
# stage's subshell).
memo_get()
{
	local -n __memo_ref=$1; shift
	# Names of their own: the caller's variable may be called anything.
	local __memo_name=$1; shift
	local __memo_key=$1; shift
	local -A __memo_id

	[[ -n "${MEMO_READ[$__memo_name]:-}" ]] || memo_load "$__memo_name"
	if [[ -z "${MEMO["$__memo_name:$__memo_key"]+set}" ]]; then
		file_id __memo_id "$WORKDIR/memo/$__memo_name" || __memo_id[id]=-
		[[ "${__memo_id[id]}" == "${MEMO_READ[$__memo_name]}" ]] && return 1
		memo_load "$__memo_name"
		[[ -n "${MEMO["$__memo_name:$__memo_key"]+set}" ]] || return 1
	fi
	__memo_ref=${MEMO["$__memo_name:$__memo_key"]}
}

# memo_put(): memo $1 keeps value $3 (any text) for key $2 (refused,
# with nothing kept, when the key has a tab or a newline).
memo_put()
{
	local name=$1; shift
	local key=$1; shift
	local value=$1; shift
	local enc=${value//\\/\\\\} file=$WORKDIR/memo/$name read=
	local -A id

	[[ "$key" != *[$'\t\n']* ]] || return 1
	MEMO["$name:$key"]=$value
	enc=${enc//$'\n'/\\n}
	enc=${enc//$'\t'/\\t}
	[[ -d "$WORKDIR/memo" ]] || mkdir -p "$WORKDIR/memo" || return 0
	# What this shell read of the memo is all of it: its own line added
	# is no reason to read it again on the next miss.
	if [[ -n "${MEMO_READ[$name]:-}" ]]; then
		file_id id "$file" || id[id]=-
		[[ "${id[id]}" == "${MEMO_READ[$name]}" ]] && read=1
	fi
	printf '%s\t%s\n' "$key" "$enc" >> "$file"
	[[ -n "$read" ]] && file_id id "$file" && MEMO_READ[$name]=${id[id]}
	return 0
}

# dpkg_db_key(): variable $1 = what identifies dpkg's database (its
# status file and the journal of an unfinished dpkg run, in DPKG_ADMINDIR
# as dpkg-query reads it), which every install and removal changes:
# the key of a fact about the installed packages. Empty when either file
# changed just now (no fact is kept then: file_id).
dpkg_db_key()
{
	local -n __dk_ref=$1; shift
	local __dk_db=${DPKG_ADMINDIR:-/var/lib/dpkg}
	local -A __dk_s __dk_u

	__dk_ref=
	file_id __dk_s "$__dk_db/status" && ((__dk_s[settled])) || return 0
	file_id __dk_u "$__dk_db/updates" && ((__dk_u[settled])) || return 0
	hash_to __dk_ref "${__dk_s[key]}" "${__dk_u[key]}"
}

# pkg_version(): variable $1 = the version of Debian package $2 that
# dpkg-query -W says, empty when it is not installed; kept in memo
# dpkg-version under dpkg's database (dpkg_db_key).
pkg_version()
{
	local -n __pv_ref=$1; shift
	local __pv_pkg=$1; shift
	local __pv_key

	dpkg_db_key __pv_key
	if [[ -n "$__pv_key" ]]; then
		hash_to __pv_key "$__pv_pkg" "$__pv_key"
		memo_get "${!__pv_ref}" dpkg-version "$__pv_key" && return 0
	fi
	__pv_ref=$(dpkg-query -W -f='${Version}' "$__pv_pkg" 2>/dev/null)
	[[ -z "$__pv_key" ]] || memo_put dpkg-version "$__pv_key" "$__pv_ref"
}

# file_id(): associative array $1 (the caller's: local -A) = what
# identifies file $2, links followed, for a fact kept about it (what a
# compiler says, a big file's hash): [id] as `stat -L -c '%n %s %Y %Z
# %i'` prints it; [key] the same with the times to the nanosecond and
# the device; [ino] its inode; [real] its path with every link resolved,
# as readlink -f gives it (empty when it has none); [settled] 1 when it
# has not changed (ctime) for FILE_SETTLE seconds, else 0: a file changed again within the clock tick of the
# change a fact was kept after would keep its times, so a fact of a file
# changed just now is not kept. Fails when the file cannot be stat'ed.
# No fork when cacheio runs (and knows the request: make tools).
: "${FILE_SETTLE:=2}"
CACHEIO_ID=
file_id()
{
	local -n __fid=$1; shift
	local path=$1; shift
	local line size mt ct ino dev mns cns now real

	__fid=(["id"]='' ["key"]='' ["ino"]='' ["real"]='' ["settled"]=0)
	# A cacheio older than its source may not know the request.
	[[ -n "$CACHEIO_ID" ]] ||
		{ [[ "$TOP/tools/bin/cacheio" -nt "$TOP/tools/src/cacheio.c" ]] && CACHEIO_ID=1 || CACHEIO_ID=0; }
	if [[ "$CACHEIO_ID" == 1 && "$path" != *$'\n'* ]] && cacheio_ready; then
		if ! printf 'I%s\0' "$path" >&"${CACHEIO[1]}" ||
		   ! IFS= read -r line <&"${CACHEIO[0]}"; then
			die "tools/bin/cacheio failed (make tools?)"
		fi
		[[ "$line" == error:* ]] && return 1
		real=${line#*$'\t'}
		line=${line%%$'\t'*}
	else
		line=$(stat -L -c '%s %Y %Z %i %d %.9Y %.9Z' -- "$path" 2> /dev/null) || return 1
		real=$(readlink -f -- "$path")
	fi
	read -r size mt ct ino dev mns cns <<< "$line"
	[[ "$ct" =~ ^[0-9]+$ ]] || return 1
	__fid["id"]="$path $size $mt $ct $ino"
	__fid["key"]="$path $size $mt.${mns#*.} $ct.${cns#*.} $ino $dev"
	__fid["ino"]=$ino
	__fid["real"]=$real
	now=${EPOCHREALTIME%[.,]*}
	((now - ct >= FILE_SETTLE)) && __fid["settled"]=1
	return 0
}

# real_path(): variable $1 = the path of file $2 with every link
# resolved, as realpath(1) prints it (no fork when file_id has it).
real_path()
{
	local -n __rp_ref=$1; shift
	local -A __rp_id

	if file_id __rp_id "$1" && [[ -n "${__rp_id[real]}" ]]; then
		__rp_ref=${__rp_id[real]}
	else
		__rp_ref=$(realpath -- "$1")
	fi
}

# files_id_to(): variable $1 = the identities (file_id's [id]) of files $2...,
# one a line, as `stat -L -c '%n %s %Y %Z %i' FILES` prints them; a file
# that cannot be stat'ed says so on its line.
files_id_to()
{
	local -n __fi_ref=$1; shift
	local __fi_f __fi_lines=
	local -A __fi_id

	for __fi_f in "$@"; do
		if file_id __fi_id "$__fi_f"; then
			__fi_lines+=${__fi_id[id]}$'\n'
		else
			__fi_lines+="$__fi_f: cannot stat"$'\n'
		fi
	done
	__fi_ref=${__fi_lines%$'\n'}
}

# file_sums_to(): variable $1 = hash_files_to's hash of files $2...,
# kept in memo file-sum under the files' identities (file_id) and TOP
# (their names are hashed relative to it): a big file (a static libc, a
# runner binary) is read again only once it changed. Files of which one
# cannot be stat'ed or has just changed are hashed, and nothing is kept.
file_sums_to()
{
	local __fs_var=$1; shift
	local __fs_f __fs_key=
	local -a __fs_ids=("$TOP")
	local -A __fs_id

	for __fs_f in "$@"; do
		if ! file_id __fs_id "$__fs_f" || ((!__fs_id[settled])); then
			__fs_ids=()
			break
		fi
		__fs_ids+=("${__fs_id[key]}")
	done
	if ((${#__fs_ids[@]})); then
		hash_to __fs_key "${__fs_ids[@]}"
		memo_get "$__fs_var" file-sum "$__fs_key" && return 0
	fi
	hash_files_to "$__fs_var" "$@"
	[[ -n "$__fs_key" ]] || return 0
	local -n __fs_ref=$__fs_var
	memo_put file-sum "$__fs_key" "$__fs_ref"
}

# hash_of(), hash_files(): the same, printed.
hash_of()
{
	local h
	hash_to h "$@"
	echo "$h"
}

hash_files()
{
	local h
	hash_files_to h "$@"
	echo "$h"
}

# The evidence a cell's details name, per stage: files of a run dir, @
# standing for the cell's step and target (cell_id). It is kept with the cell and put back into every
# run that reuses the cell, at that run's step, so that a cached cell's
# evidence lives as long as the cell does (old runs are pruned, prune.sh).
# The exports cell's list of what it read is its validator's
# (exports_valid), which runs once the cell is put back. The boot's list
# is part of its key (boot_setup): a cell stored without a file added
# here would be served without it.
declare -rA CACHE_EVIDENCE=(
	[build]="logs/@-build.log logs/@-kconfig.log"
	[checkpatch]="logs/@-checkpatch.log"
	[boot]="logs/@-boot.log boot/@/console.log boot/@/results.ktap boot/@/triage.tsv boot/@/hang.raw boot/@/hang.tsv boot/@/kernel.log"
	[tests]="boot/@/results.ktap"
	[tags]="logs/@-tags.log"
	[kdoc]="logs/@-kdoc.log"
	[cc]="logs/@-cc.log"
	[w1]="logs/@-w1.log"
	[sparse]="logs/@-sparse.log"
	[exports]="logs/@-exports.log logs/@-exports.reads"
)

# cache_dir(): variable $1 = where the cell of stage $2 under key $3 is
# kept. A cell made with SANDBOX=0 is kept apart: the tree's code ran
# unwatched, and a verdict the sandbox would have changed (it stops
# what a build writes outside its dirs) must not be served to a run in
# it, nor one it made to a run without it.
cache_dir()
{
	local -n __cd_ref=$1; shift

	__cd_ref=$WORKDIR/cache/$1/$2
	[[ "$SANDBOX" == 0 ]] && __cd_ref+=-nosandbox
	return 0
}

# cache_has(): is there a cached result of (stage $1, key $2) to use?
cache_has()
{
	local d

	[[ "${FORCE:-0}" != 1 ]] || return 1
	cache_dir d "$1" "$2"
	[[ -f "$d/record" ]]
}

# cache_evidence(): variable $1 = the evidence kept with a cached cell
# of stage $2 (CACHE_EVIDENCE), for a key that covers it.
cache_evidence()
{
	local -n __ce_ref=$1; shift

	__ce_ref=${CACHE_EVIDENCE[$1]:-}
}

# cache_get(): put the cached result of (stage $1, key $2) into the run
# dir as the cell of step $3 and target $4: its record, details and
# evidence. Fails when there is none, or with FORCE=1.
cache_get()
{
	local stage=$1; shift
	local key=$1; shift
	local idx=$1; shift
	local tgt=$1; shift
	local d run old t from to text now detail
	local -A got cfiles

	[[ "${FORCE:-0}" == 1 ]] && return 1
	cache_dir d "$stage" "$key"
	rec_read got "$d/record" || return 1
	run=${got[run]}
	old=
	if [[ -n "${got[step]}" ]]; then
		cell_files cfiles "${got[step]}" "${got[target]}" "$stage"
		old=${cfiles[prefix]}
	fi
	cell_files cfiles "$idx" "$tgt" "$stage"
	now=${cfiles[prefix]}
	detail=${cfiles[detail]}
	[[ -n "${got[status]}" && -n "$run" ]] || return 1
	# Used now: pruning goes by the last use (prune.sh).
	touch_used "$d"
	copy_file "$d/record" "${cfiles[rec]}" || return 1
	[[ -f "$d/detail" ]] && text_of text "$d/detail"
	for t in ${CACHE_EVIDENCE[$stage]:-}; do
		[[ -f "$d/evidence/${t//\//%}" ]] || continue
		to=$RUNDIR/${t//@/$now}
		[[ -d "${to%/*}" ]] || mkdir -p "${to%/*}" || return 1
		copy_file "$d/evidence/${t//\//%}" "$to"
		# The details name the evidence where it was made.
		from=$WORKDIR/runs/$run/${t//@/$old}
		[[ -n "$old" ]] && text=${text//"$from"/"$to"}
	done
	if [[ -f "$d/detail" ]]; then
		printf '%s\n' "$text" > "$detail"
	elif [[ -e "$detail" ]]; then
		rm -f "$detail"
	fi
	return 0
}

# cache_put(): store the finished cell of stage $1, step $3 and target $4
# under key $2: its record, details and evidence, from the run dir.
cache_put()
{
	local stage=$1; shift
	local key=$1; shift
	local idx=$1; shift
	local tgt=$1; shift
	local d t f
	local -A c

	cache_dir d "$stage" "$key"
	cell_files c "$idx" "$tgt" "$stage"
	mkdir -p "$d.tmp.$$/evidence" || return 0
	cp "${c[rec]}" "$d.tmp.$$/record" || return 0
	[[ -s "${c[detail]}" ]] && cp "${c[detail]}" "$d.tmp.$$/detail"
	for t in ${CACHE_EVIDENCE[$stage]:-}; do
		f=$RUNDIR/${t//@/${c[prefix]}}
		[[ -f "$f" ]] && cp "$f" "$d.tmp.$$/evidence/${t//\//%}"
	done
	rm -rf "$d"
	mv "$d.tmp.$$" "$d"
}

# tool_version_once(): variable $1 = what program $2 says with --version
# (tool_version: a memo under the program's file), asked once a run: git's
# (how it applies, formats and diffs), perl's and codespell's are parts
# of many keys and memos.
declare -A CACHE_TOOL_VERSION=()
tool_version_once()
{
	local -n __tvo_ref=$1; shift
	local name=$1; shift

	[[ -n "${CACHE_TOOL_VERSION[$name]+set}" ]] ||
		tool_version "CACHE_TOOL_VERSION[$name]" "$name"
	__tvo_ref=${CACHE_TOOL_VERSION[$name]}
}

# robot_tools_id(): variable $1 = the id of the C tools that parse and
# judge the robots' findings (tools/bin: findings, tags, modusers), of
# their sources, made once a run.
robot_tools_id()
{
	local -n __rti_ref=$1; shift

	[[ -n "${CACHE_ROBOT_TOOLS_ID:-}" ]] ||
		hash_files_to CACHE_ROBOT_TOOLS_ID "$TOP/tools/src/findings.c" "$TOP/tools/src/tags.c" \
			"$TOP/tools/src/modusers.c" "$TOP/tools/src/util.h"
	__rti_ref=$CACHE_ROBOT_TOOLS_ID
}

# tool_version(): variable $1 = what program $2 says with --version,
# asked once per installed program (a Python or Perl one takes a quarter
# of a second to start) and kept in memo tool-version under the
# program's path, size, mtime, ctime and inode, which an upgrade changes
# (file_id: no fork).
tool_version()
{
	local -n __tv_ref=$1; shift
	local name=$1; shift
	local key id

	path_of "$name"
	files_id_to id "${REPLY:-$name}"
	hash_to key "$name" "$id"
	memo_get __tv_ref tool-version "$name-$key" && [[ -n "$__tv_ref" ]] && return 0
	__tv_ref=$("$name" --version 2>&1)
	memo_put tool-version "$name-$key" "$__tv_ref"
}
