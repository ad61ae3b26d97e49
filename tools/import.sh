#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# import.sh - the base of every step, before any stage: import the kernel
# tree that Debian's linux-source package installs into a shared bare git
# repository, as one base commit whose id depends only on the package
# version.
#
# Sourced by tools/bisect-check and tools/bisect-run; expects lib.sh and
# worktree.sh.
# shellcheck disable=SC2034  # the IMPORT_* it sets, worktree.sh and the driver read

# Fixed identity and date of import commits: the same package version must
# always give the same commit id.
readonly IMPORT_IDENT_NAME="bisect-check import"
readonly IMPORT_IDENT_EMAIL="bisect-check@localhost"
readonly IMPORT_DATE="2000-01-01T00:00:00+0000"

# import_ref(): variable $1 = the ref that holds the import of package
# $2's version $3.
import_ref()
{
	local -n __ir_ref=$1; shift
	local __ir_pkg=$1; shift
	local __ir_ver=$1; shift
	# Debian versions may hold ':' and '~', which refs cannot.
	__ir_ver=${__ir_ver//:/_}
	__ir_ver=${__ir_ver//\~/_}
	__ir_ref=refs/heads/import/$__ir_pkg/$__ir_ver
}

# import_commit_of(): variable $1 = the commit ref $2 of $KREPO names;
# fails when there is none. A ref's own file naming a loose object is
# read without git (every rerun: the import is made loose); else git
# says.
import_commit_of()
{
	local -n __ico_ref=$1; shift
	local sha=

	[[ -f "$KREPO/$1" ]] && IFS= read -r sha < "$KREPO/$1"
	if [[ "$sha" =~ ^[0-9a-f]{40}$ && -f "$KREPO/objects/${sha:0:2}/${sha:2}" ]]; then
		__ico_ref=$sha
		return 0
	fi
	__ico_ref=$(git --git-dir="$KREPO" rev-parse -q --verify "$1^{commit}")
}

# stage_import(): make sure $KREPO holds the import of package $3 (log
# $4); sets DEB_VERSION, and variable $2 to its commit when an earlier
# run imported it (variable $1 = 1); otherwise unpacks the tarball into
# IMPORT_TREE for import_hash (variable $1 = 0). Returns 0 on success, 2
# on setup errors.
stage_import()
{
	local -n __si_reused=$1; shift
	local -n __si_base=$1; shift
	local pkg=$1; shift
	local log=$1; shift
	local tarball=/usr/src/$pkg.tar.xz
	local ref tmp top rc

	pkg_version DEB_VERSION "$pkg"
	if [[ -z "$DEB_VERSION" || ! -r "$tarball" ]]; then
		"$TOP/tools/deps.sh" "pkg:$pkg" >> "$log" 2>&1
		pkg_version DEB_VERSION "$pkg"
	fi
	if [[ -z "$DEB_VERSION" || ! -r "$tarball" ]]; then
		msg "import: $pkg is not installed (no $tarball): run 'make deps' or 'apt-get install $pkg'"
		return "$EXIT_SETUP"
	fi

	if [[ ! -d "$KREPO" ]]; then
		run_logged "$log" git init -q --bare "$KREPO" || return "$EXIT_SETUP"
		# Big repo, one writer: keep git from repacking behind our back.
		git --git-dir="$KREPO" config gc.auto 0
	fi

	import_ref ref "$pkg" "$DEB_VERSION"
	if import_commit_of __si_base "$ref"; then
		echo "reused $ref ($__si_base)" >> "$log"
		__si_reused=1
		return 0
	fi
	__si_reused=0

	# Next to the worktree: the unpacked tree becomes it by a rename.
	wt_root_make "$WT" || return "$EXIT_SETUP"
	tmp=$(mktemp -d "$(dirname "$WT")/import.XXXXXX") || return "$EXIT_SETUP"
	defer import_cleanup "$tmp"
	# tar names each file it writes (-v, to a list of its own): what
	# import_watch counts against the last import of the package.
	watch_start IMPORT_WATCH_PID import_watch "unpacking $pkg:" entries \
		"$tmp/unpacked" "$WORKDIR/progress/import-$pkg.unpacked"
	run_logged "$log" tar -C "$tmp" -xvf "$tarball" --index-file="$tmp/unpacked"
	rc=$?
	job_stop IMPORT_WATCH_PID
	if ((rc != 0)); then
		msg "import: cannot unpack $tarball (see $log)"
		return "$EXIT_SETUP"
	fi
	import_count_keep "$tmp/unpacked" "$WORKDIR/progress/import-$pkg.unpacked"
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	if [[ ! -f "$top/Makefile" ]]; then
		msg "import: $tarball holds no kernel tree"
		return "$EXIT_SETUP"
	fi

	# The old mtime of a fresh worktree (worktree.sh) before hashing, so that
	# the unpacked tree can become this run's worktree as it is.
	(cd "$top" && find . ! -type d -print0 | tee "$tmp/files" | wt_epoch_touch) ||
		return "$EXIT_SETUP"
	# The files git add is to hash: what import_watch counts it against.
	tr -cd '\0' < "$tmp/files" | wc -c > "$tmp/files.count" &&
		rm -f "$tmp/files" || return "$EXIT_SETUP"
	# The caller hashes it with import_hash (which may take a while:
	# git add is one thread), and can use the time.
	IMPORT_TREE=$top
	IMPORT_INDEX=$tmp/index
	IMPORT_REF=$ref
	IMPORT_PKG=$pkg
	IMPORT_TARBALL=$tarball
	return 0
}

# import_hash(): hash the unpacked tree $1 (maybe moved since) into
# $KREPO as the import commit; print its id. Only reads the tree.
import_hash()
{
	local top=$1; shift
	local log=$1; shift
	local tree commit

	# Debian's top-level .gitignore ignores everything at the top level,
	# so force-add: the import is exactly the tarball's content.
	# -v: a line a file hashed (import_watch counts them).
	env GIT_INDEX_FILE="$IMPORT_INDEX" git --git-dir="$KREPO" \
		--work-tree="$top" add -v -f -A . > "$IMPORT_INDEX.added" 2>> "$log" || {
		echo "git add of $top into $KREPO failed" >> "$log"
		return "$EXIT_SETUP"
	}
	tree=$(GIT_INDEX_FILE="$IMPORT_INDEX" git --git-dir="$KREPO" write-tree) ||
		return "$EXIT_SETUP"
	commit=$(GIT_AUTHOR_NAME="$IMPORT_IDENT_NAME" \
		GIT_AUTHOR_EMAIL="$IMPORT_IDENT_EMAIL" \
		GIT_AUTHOR_DATE="$IMPORT_DATE" \
		GIT_COMMITTER_NAME="$IMPORT_IDENT_NAME" \
		GIT_COMMITTER_EMAIL="$IMPORT_IDENT_EMAIL" \
		GIT_COMMITTER_DATE="$IMPORT_DATE" \
		git --git-dir="$KREPO" commit-tree "$tree" \
		-m "Import $IMPORT_PKG $DEB_VERSION" \
		-m "Unpacked from $IMPORT_TARBALL as installed by Debian's package manager." \
	) || return "$EXIT_SETUP"
	git --git-dir="$KREPO" update-ref "$IMPORT_REF" "$commit" ||
		return "$EXIT_SETUP"
	echo "imported $IMPORT_REF ($commit)" >> "$log"
	echo "$commit"
}

# import_place(): the unpacked tree of stage_import made the worktree's
# files (worktree_place), before it is hashed; log to $1.
import_place()
{
	worktree_place "$1" "$IMPORT_TREE" "$IMPORT_INDEX"
}

# import_hash_start(): import_hash in the background; its commit id goes
# to IMPORT_INDEX.commit. Stopped or awaited with import_hash_wait, which
# also stops its progress line; that says how the build writing log $3
# (the base's, meanwhile) goes too.
import_hash_start()
{
	local top=$1; shift
	local log=$1; shift
	local build_log=$1; shift
	local count=

	(
		# The run's lock stays with the run alone.
		lock_drop
		import_hash "$top" "$log"
	) > "$IMPORT_INDEX.commit" &
	IMPORT_HASH_PID=$!
	# Ends an unfinished job, git included.
	defer job_stop IMPORT_HASH_PID
	read -r count < "${IMPORT_INDEX%/*}/files.count"
	watch_start IMPORT_WATCH_PID import_watch "hashing into git:" files \
		"$IMPORT_INDEX.added" "$count" "$build_log"
}

# import_hash_wait(): wait for import_hash_start's job; variable $1 =
# the commit it made.
import_hash_wait()
{
	local -n __ihw_ref=$1; shift
	local rc

	wait "$IMPORT_HASH_PID"
	rc=$?
	IMPORT_HASH_PID=
	job_stop IMPORT_WATCH_PID
	((rc == 0)) || return "$rc"
	__ihw_ref=$(cat "$IMPORT_INDEX.commit")
	[[ -n "$__ihw_ref" ]]
}

# import_watch(): the import's progress line, $1 seconds in (watch_loop):
# what it does ($2) to how many $3 so far, one a line of list $4, of
# those $5 says (a number, or a file holding the last import's count);
# with $6, a build log, how far the base build beside it is.
import_watch()
{
	local el=$1; shift
	local what=$1; shift
	local unit=$1; shift
	local list=$1; shift
	local total=${1:-}; shift
	local build_log=${1:-}
	local n

	[[ -f "$total" ]] && read -r total < "$total"
	n=$(wc -l < "$list" 2> /dev/null)
	printf 'import: %s %s' "$what" "$(fmt_done "${n:-0}" "$total" "$unit" "$el")"
	[[ "$total" =~ ^[1-9][0-9]*$ ]] || printf ' (no earlier import to go by)'
	[[ -z "$build_log" ]] ||
		printf '; the base build meanwhile: %d steps' "$(build_steps_of "$build_log")"
	echo
}

# import_count_keep(): keep the count of lines of list $1 in file $2, what
# the next import of the package goes by.
import_count_keep()
{
	local list=$1; shift
	local keep=$1; shift

	mkdir -p "${keep%/*}" && wc -l < "$list" > "$keep"
}

# import_cleanup(): remove what is left of an import's scratch dir.
import_cleanup()
{
	local tmp=$1; shift
	rm -rf "$tmp"
	wt_root_drop "$WT" "$WORKDIR"
}
