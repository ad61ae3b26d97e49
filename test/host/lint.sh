#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - make check's lint step: shellcheck -x and checkpatch.pl
# --no-tree -f --strict over the repository, and no new globals
# (tools/globals.baseline) (tools/lint.sh).
#
# make check runs it beside t-10-bisect-v1, at a lower priority: two
# minutes of a core's work that fits in the cores t-10 leaves idle (its
# single-threaded import, guests booting). It needs nothing of t-10's:
# checkpatch.pl comes from the tarball when no import is made yet.
# check: beside t-10-bisect-v1

exec "$(dirname "${BASH_SOURCE[0]}")/../../tools/lint.sh"
