#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - make check's lint step: shellcheck -x and checkpatch.pl
# --no-tree -f --strict over the repository, and no new globals
# (tools/globals.baseline) (tools/lint.sh).

exec "$(dirname "${BASH_SOURCE[0]}")/../../tools/lint.sh"
