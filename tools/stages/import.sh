#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# import.sh - stage 1: import the kernel tree that Debian's linux-source
# package installs into a shared bare git repository, as one base commit
# whose id depends only on the package version.
#
# Stage functions report through CELL_* variables the caller reads.
# shellcheck disable=SC2034
#
# Sourced by tools/bisect-check; expects lib.sh.

# Fixed identity and date of import commits: the same package version must
# always give the same commit id.
readonly IMPORT_IDENT_NAME="bisect-check import"
readonly IMPORT_IDENT_EMAIL="bisect-check@localhost"
readonly IMPORT_DATE="2000-01-01T00:00:00+0000"

# import_ref(): the ref that holds the import of a package version.
import_ref()
{
	local pkg=$1; shift
	local ver=$1; shift
	# Debian versions may hold ':' and '~', which refs cannot.
	ver=${ver//:/_}
	ver=${ver//\~/_}
	echo "refs/heads/import/$pkg/$ver"
}

# import_pkg_version(): print the installed version of a package, or fail.
import_pkg_version()
{
	local pkg=$1; shift
	dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null
}

# stage_import(): make sure $KREPO holds the import of $PACKAGE; sets
# BASE_COMMIT and DEB_VERSION. Returns 0 on success, 2 on setup errors.
stage_import()
{
	local pkg=$1; shift
	local log=$1; shift
	local tarball=/usr/src/$pkg.tar.xz
	local ref tmp top tree

	DEB_VERSION=$(import_pkg_version "$pkg")
	if [[ -z "$DEB_VERSION" || ! -r "$tarball" ]]; then
		"$TOP/tools/deps.sh" "pkg:$pkg" >> "$log" 2>&1
		DEB_VERSION=$(import_pkg_version "$pkg")
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

	ref=$(import_ref "$pkg" "$DEB_VERSION")
	if BASE_COMMIT=$(git --git-dir="$KREPO" rev-parse -q --verify "$ref^{commit}"); then
		echo "reused $ref ($BASE_COMMIT)" >> "$log"
		IMPORT_REUSED=1
		return 0
	fi
	IMPORT_REUSED=0

	tmp=$(mktemp -d "$WORKDIR/import.XXXXXX") || return "$EXIT_SETUP"
	defer import_cleanup "$tmp"
	run_logged "$log" tar -C "$tmp" -xf "$tarball" || {
		msg "import: cannot unpack $tarball (see $log)"
		return "$EXIT_SETUP"
	}
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	if [[ ! -f "$top/Makefile" ]]; then
		msg "import: $tarball holds no kernel tree"
		return "$EXIT_SETUP"
	fi

	# The old mtime of a fresh worktree (apply.sh) before hashing, so that
	# the unpacked tree can become this run's worktree as it is.
	(cd "$top" && find . -type f -print0 | xargs -0 touch -h -m -d "@$WT_EPOCH") ||
		return "$EXIT_SETUP"
	# Debian's top-level .gitignore ignores everything at the top level,
	# so force-add: the import is exactly the tarball's content.
	run_logged "$log" env GIT_INDEX_FILE="$tmp/index" \
		git --git-dir="$KREPO" --work-tree="$top" add -f -A . ||
		return "$EXIT_SETUP"
	tree=$(GIT_INDEX_FILE="$tmp/index" git --git-dir="$KREPO" write-tree) ||
		return "$EXIT_SETUP"
	BASE_COMMIT=$(GIT_AUTHOR_NAME="$IMPORT_IDENT_NAME" \
		GIT_AUTHOR_EMAIL="$IMPORT_IDENT_EMAIL" \
		GIT_AUTHOR_DATE="$IMPORT_DATE" \
		GIT_COMMITTER_NAME="$IMPORT_IDENT_NAME" \
		GIT_COMMITTER_EMAIL="$IMPORT_IDENT_EMAIL" \
		GIT_COMMITTER_DATE="$IMPORT_DATE" \
		git --git-dir="$KREPO" commit-tree "$tree" \
		-m "Import $pkg $DEB_VERSION" \
		-m "Unpacked from $tarball as installed by Debian's package manager." \
	) || return "$EXIT_SETUP"
	git --git-dir="$KREPO" update-ref "$ref" "$BASE_COMMIT" ||
		return "$EXIT_SETUP"
	echo "imported $ref ($BASE_COMMIT)" >> "$log"
	# Hand the unpacked tree and its index to stage_worktree.
	IMPORT_TREE=$top
	IMPORT_INDEX=$tmp/index
	return 0
}

# import_cleanup(): remove what is left of an import's scratch dir.
import_cleanup()
{
	local tmp=$1; shift
	rm -rf "$tmp"
}
