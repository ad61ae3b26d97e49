# SPDX-License-Identifier: GPL-2.0
#
# Makefile - thin targets over tools/: build the host tools, run the series
# pipeline, the tests, the linters, and sending. `make help` lists them.

SERIES  ?= $(CURDIR)/series.yaml
# The defaults are tools/lib.sh's, asked once.
ifndef WORKDIR
WORKDIR := $(shell bash tools/lib.sh --default WORKDIR)
endif
# With BUILD_HOSTS, JOBS defaults to the hosts' capacity, which the build
# asks distcc for (tools/stages/build.sh): passed on only when given.
ifndef JOBS
ifndef BUILD_HOSTS
JOBS    := $(shell bash tools/lib.sh --default JOBS)
endif
endif
V       ?= 0
KEEP    ?= 0
FORCE   ?= 0
export SERIES WORKDIR V KEEP FORCE
ifdef JOBS
export JOBS
endif
ifdef BUILD_HOSTS
export BUILD_HOSTS
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -Wall -Wextra -Werror
# The checkout's path is no part of a binary (-g's compile dir): the guest
# runner's sum is in every boot's key, and two checkouts of the same code
# (a CI clone) must build the same runner.
CFLAGS  += -ffile-prefix-map=$(CURDIR)=.
BIN     := tools/bin
HOST_PROGS := $(BIN)/series $(BIN)/triage $(BIN)/report $(BIN)/findings $(BIN)/tags $(BIN)/cacheio $(BIN)/hangsym $(BIN)/distlog $(BIN)/modusers $(BIN)/kdeps $(BIN)/abi $(BIN)/b4prep $(BIN)/globals
# The guest runner of the host's arch; boot.sh makes the others with the
# arch's GUEST_CC (tools/arch.tsv) as a target needs them.
GUEST_PROGS := $(BIN)/guest-runner-x86_64
GUEST_CC ?= cc
# The host programs again, with ASan and UBSan, for the host tests.
SAN_BIN := $(BIN)/san
SAN_PROGS := $(SAN_BIN)/series $(SAN_BIN)/triage $(SAN_BIN)/report $(SAN_BIN)/findings $(SAN_BIN)/tags $(SAN_BIN)/cacheio $(SAN_BIN)/hangsym $(SAN_BIN)/distlog $(SAN_BIN)/modusers $(SAN_BIN)/kdeps $(SAN_BIN)/abi $(SAN_BIN)/b4prep $(SAN_BIN)/globals
SAN_CFLAGS := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all

.PHONY: help tools tools-san deps bisect-check check test-host lint send \
	range-diff bench prune clean distclean

help: ## list the targets and variables
	@echo 'Targets:'
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed 's/:.*## /\t/' | awk -F'\t' '{ printf "  %-14s %s\n", $$1, $$2 }'
	@echo 'Variables:'
	@echo '  SERIES=file    series to run (default: series.yaml)'
	@echo '  WORKDIR=dir    kernel repo, build dirs, caches, runs (default: $(WORKDIR))'
	@echo '  JOBS=n         parallel build jobs (default: nproc; with BUILD_HOSTS, their capacity)'
	@echo '  BUILD_HOSTS="host[:port][/slots] ..." compile on these distcc hosts (docs/distributed.md)'
	@echo '  V=1            show the tools'"'"' own output'
	@echo '  KEEP=1         keep the throwaway worktree and say where'
	@echo '  FORCE=1        ignore the result cache'
	@echo '  TARGETS="t ..." only these targets of the series (default: all it declares)'
	@echo '  SANDBOX=0      run the tree'"'"'s Makefiles and scripts without the sandbox (README, Sandbox)'
	@echo '  SEND=1|reflect make send: really send (default: write messages only)'
	@echo '  ABI=1          make send: only print each patch'"'"'s exported ABI changes, for the cover letter'
	@echo '  PRUNE_RUNS=n   run dirs kept (default 20); PRUNE_DAYS=n: unused entries kept (default 14)'
	@echo 'Exit: make bisect-check exits 0 when every cell passed, else 2 (make'"'"'s own code)'
	@echo '  after saying the tool'"'"'s: tools/bisect-check exits 0 passed, 1 a check failed, 2 setup error.'

deps-tools:
	$(Q)tools/deps.sh tools

tools: deps-tools $(HOST_PROGS) $(GUEST_PROGS) ## build the host tools and the guest runner

tools-san: deps-tools $(SAN_PROGS) ## the host tools with sanitizers, in tools/bin/san

# series is one program of several files (tools/src/series.h).
SERIES_SRC := $(addprefix tools/src/,series.c series-yaml.c series-schema.c \
	series-guest.c series-out.c)
SERIES_DEPS := $(SERIES_SRC) tools/src/series.h tools/src/util.h \
	tools/src/guestop.h

$(BIN)/series: $(SERIES_DEPS)
	$(Q)mkdir -p $(BIN)
	$(Q)$(CC) $(CFLAGS) -o $@ $(SERIES_SRC) -lyaml

$(SAN_BIN)/series: $(SERIES_DEPS)
	$(Q)mkdir -p $(SAN_BIN)
	$(Q)$(CC) $(CFLAGS) $(SAN_CFLAGS) -o $@ $(SERIES_SRC) -lyaml

$(SAN_BIN)/%: tools/src/%.c tools/src/util.h tools/src/splat.h
	$(Q)mkdir -p $(SAN_BIN)
	$(Q)$(CC) $(CFLAGS) $(SAN_CFLAGS) -o $@ $<

$(BIN)/%: tools/src/%.c tools/src/util.h tools/src/splat.h
	$(Q)mkdir -p $(BIN)
	$(Q)$(CC) $(CFLAGS) -o $@ $<

# The runner's bytes key every boot: made again when how it is compiled
# (this file) changes, not only its sources.
$(BIN)/guest-runner-%: guest/runner.c tools/src/splat.h tools/src/guestop.h Makefile
	$(Q)mkdir -p $(BIN)
	$(Q)$(GUEST_CC) $(CFLAGS) -Itools/src -static -o $@ $<

deps: ## install every Debian package the targets need
	$(Q)tools/deps.sh tools bisect lint send

# make exits 2 for any failed recipe; the tool's own code (0 passed, 1 a
# check failed, 2 usage or setup error) is said here, and scripts that
# need it call tools/bisect-check directly (README, "Exit codes").
bisect-check: tools ## replay the series: apply, checkpatch, robots' checks, build, boot, test; print the matrix
	$(Q)tools/deps.sh bisect $(if $(BUILD_HOSTS),dist)
	$(Q)tools/bisect-check "$(SERIES)" || { rc=$$?; case $$rc in \
		1) why="a check failed" ;; 2) why="a usage or setup error" ;; \
		*) why="interrupted or killed" ;; esac; \
		echo "make: tools/bisect-check exited $$rc: $$why (make exits 2; scripts: call tools/bisect-check for 0/1/2)" >&2; \
		exit $$rc; }

check: tools tools-san ## run the tests: host-side fixtures, lint, end-to-end runs of v1 and v2
	$(Q)tools/deps.sh bisect lint send
	$(Q)test/run.sh

test-host: tools tools-san ## only the host-side tests on fixtures (fast)
	$(Q)tools/deps.sh lint
	$(Q)test/run.sh host

# globals: the ratchet of tools/globals.baseline (tools/lint.sh).
lint: deps-tools $(BIN)/globals ## shellcheck -x, checkpatch --no-tree -f on our C, no new globals
	$(Q)tools/deps.sh lint
	$(Q)tools/lint.sh

# ABI=1: print the per-patch ABI summary of the last run, for the sender
# to paste into the cover letter; nothing is written or sent.
ifeq ($(origin ABI),command line)
ifneq ($(filter-out 0 1,$(ABI)),)
$(error ABI=$(ABI): expected 1 (make send: print the ABI summary) or 0)
endif
endif

send: tools ## write the series' messages with b4 (SEND=1 sends, SEND=reflect to you, ABI=1 prints the ABI summary)
	$(Q)tools/deps.sh bisect send
	$(Q)tools/send.sh $(if $(filter 1,$(ABI)),--abi)

range-diff: tools ## git range-diff of v1 against v2 on the same base
	$(Q)tools/deps.sh bisect
	$(Q)tools/range-diff.sh

prune: ## trim WORKDIR now: old runs, and what was not used for PRUNE_DAYS (tools/prune.sh)
	$(Q)tools/prune.sh "$(WORKDIR)"

bench: tools ## measure cold/warm runs against a cold build and a naive loop; add them to docs/bench-runs.md
	$(Q)tools/deps.sh bisect
	$(Q)tools/bench.sh

clean: ## remove this repository's build products
	$(Q)rm -rf $(BIN)

distclean: clean ## also remove WORKDIR (kernel repo, build dirs, caches, runs) and its kept worktree
	@echo "removing $(WORKDIR): kernel repo, build dirs, ccache, result cache, runs"
	$(Q)rm -rf "$(WORKDIR)"
	$(Q)r=$$(bash -c '. tools/lib.sh && . tools/worktree.sh && wt_root "$$1"' - "$(WORKDIR)") && \
		rm -rf "$$r/worktree-kept" "$$r/worktree-kept.index" "$$r/worktree-kept.commit" && \
		{ rmdir "$$r" 2>/dev/null; true; }
