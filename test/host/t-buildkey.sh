#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-buildkey.sh - a build cell's key (build_cell_key, tools/stages/build.sh)
# covers its verdict's inputs: the artifact (the tree, config, toolchain:
# build_key) and the warnings a new one is judged against, those of the
# same target's step before. The same tree after another step (a patch
# squashed into the one before it) is another cell, and so is a build
# that judges no warning (tools/bisect-run) against one that does. An
# artifact built whole is taken as it is only as the sandbox watched it.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
. "$T_TOP/tools/lib.sh"
# shellcheck source=tools/cache.sh
. "$T_TOP/tools/cache.sh"
# shellcheck source=tools/stages/build.sh
. "$T_TOP/tools/stages/build.sh"

t_plan 10

D=$T_TMP/warn
mkdir -p "$D"
printf '%s\n' 'kernel/a.c: warning: unused variable' > "$D/one"
printf '%s\n' 'kernel/a.c: warning: unused variable' > "$D/same"
printf '%s\n' 'kernel/a.c: warning: unused variable' 'kernel/b.c: warning: shadow' > "$D/two"
: > "$D/empty"
k1='' k2=''

build_cell_key k1 art1 "$D/one"
build_cell_key k2 art1 "$D/same"
t_eq "the same artifact judged against the same warnings: the same cell" "$k1" "$k2"
build_cell_key k2 art1 "$D/two"
t_rc "the same artifact against other warnings (another step before): another cell" 0 \
	test "$k1" != "$k2"
build_cell_key k2 art2 "$D/one"
t_rc "another artifact: another cell" 0 test "$k1" != "$k2"
build_cell_key k1 art1 "$D/empty"
build_cell_key k2 art1 "$D/missing"
t_eq "no step before (its file missing) is judged as one without warnings" "$k1" "$k2"
build_cell_key k2 art1 -
t_rc "no warning judged (bisect-run): not the cell that judges against none" 0 \
	test "$k1" != "$k2"
[[ "$k2" =~ ^[0-9a-f]{20}$ ]] && r=yes || r=no
t_eq "a key as every cache key is made (hash_to)" yes "$r"

# An artifact built whole is taken as it is (bisect-run) only as the
# sandbox watched it: one built without it is built again in it.
A=$T_TMP/art
mkdir -p "$A"
# unwatched(): build_marked as a run with SANDBOX=0 asks it.
# shellcheck disable=SC2317  # called through t_rc
unwatched() { local SANDBOX=0; build_marked "$@"; }
t_rc "no mark: not built whole" 1 build_marked "$A"
SANDBOX=0 build_mark "$A"
t_rc "built without the sandbox: not taken by a run in it" 1 build_marked "$A"
t_rc "... but by a run without it" 0 unwatched "$A"
SANDBOX=yes build_mark "$A"
t_rc "built in the sandbox (any SANDBOX but 0): taken" 0 build_marked "$A"

t_done
