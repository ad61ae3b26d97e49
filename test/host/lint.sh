#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - make check's lint step: shellcheck -x and checkpatch.pl
# --no-tree -f --strict over the repository, and no new globals
# (tools/globals.baseline) (tools/lint.sh).
#
# make check starts it once t-10-bisect-v1 is done, at a lower priority
# beside the files after it: two minutes of a core's work that fits in
# the cores they leave idle (guests that wait for deadlines), where
# beside t-10's cold builds, which keep both cores busy, it cost t-10 as
# much as it saved. By then checkpatch.pl comes from the import.
# check: after t-10-bisect-v1

exec "$(dirname "${BASH_SOURCE[0]}")/../../tools/lint.sh"
