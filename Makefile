# dfsim — one plain Makefile (STYLE.md: one build system).
#
#   make            build build/dfsim (optimised, warnings as errors)
#   make run        the main job: build, then run the default experiment
#   make test       build the suite twice (plain and ASan+UBSan) and run both;
#                   the last line is "N passed, N failed"
#   make bench      build and run the benchmarks under bench/
#   make deps       install the Debian packages the build needs (as root)
#   make traces     trace example MPI programs, LAMMPS and HPCC (traces/)
#
# Variables: CC, BUILD (output folder), SANITIZE=1 (ASan+UBSan build).

CC      ?= cc
NPROC   := $(shell nproc 2>/dev/null || echo 2)
BUILD   ?= build
SAN_BUILD := build-san

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wpointer-arith -Wformat=2 -Wvla \
           -Wno-unused-parameter
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L
INC     := -Isrc
LIBS    := -lconfig -lotf2 -lm
# Open MPI (Debian's libopenmpi-dev): runs dealt over ranks (exp/par.c)
MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)
LIBS    += $(MPI_LIBS)

ifeq ($(SANITIZE),1)
OPT     := -O2 -g -fno-omit-frame-pointer \
           -fsanitize=address,undefined -fno-sanitize-recover=all
LDSAN   := -fsanitize=address,undefined
else
OPT     := -O2 -g
LDSAN   :=
endif

CFLAGS_ALL := $(CSTD) $(WARN) $(OPT) $(INC) $(MPI_CFLAGS) -MMD -MP $(CFLAGS)
LDFLAGS_ALL := $(LDSAN) $(LDFLAGS)

# Every .c under src/ except the program's main belongs to the library that
# the program, the tests and the benchmarks link.
LIB_SRC   := $(sort $(filter-out src/main.c,$(wildcard src/*/*.c)))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC  := $(sort $(wildcard tests/*.c))
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
# The PMPI tracer (docs/tracer.md): a shared library of MPI_* wrappers,
# built with mpicc and never sanitized (it is loaded into MPI programs).
TRACER_SRC := $(sort $(wildcard tracer/*.c))
TRACER_HDR := $(wildcard tracer/*.h tracer/*.def)
TRACER    := $(BUILD)/libdfsim-trace.so

.PHONY: reproduce all run test test-one bench deps clean traces

all: $(BUILD)/dfsim

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

# The commit the build comes from (cli/version.c: `dfsim --version`, the
# scoreboard's kept values): the header is rewritten only when it changes.
DFSIM_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
$(BUILD)/gen/dfsim_commit.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define DFSIM_COMMIT "$(DFSIM_COMMIT)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/obj/src/cli/version.o: $(BUILD)/gen/dfsim_commit.h
$(BUILD)/obj/src/cli/version.o: CFLAGS_ALL += -I$(BUILD)/gen

FORCE:

$(BUILD)/libdfsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/dfsim: $(BUILD)/obj/src/main.o $(BUILD)/libdfsim.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(BUILD)/dfsim-tests: $(TEST_OBJ) $(BUILD)/libdfsim.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(TRACER): $(TRACER_SRC) $(TRACER_HDR)
	@mkdir -p $(dir $@)
	mpicc -shared -fPIC $(CSTD) $(WARN) -O2 -g -o $@ $(TRACER_SRC) -lotf2

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(BUILD)/libdfsim.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

# Install the Debian packages the build and the reports need, once:
# libconfig (the experiment-file parser), OTF2 (traces: the tracer
# writes them, the otf2 workload replays them), Open MPI (`mpirun -np N dfsim
# run FILE` deals an experiment's runs over N ranks; exp/par.h) and
# gnuplot (the reports' plots; dfsim writes its results without it and
# says so) are outside a stock Debian 12 with gcc and make.
deps:
	@if ! echo '#include <libconfig.h>' | $(CC) -E - >/dev/null 2>&1; then \
	  echo "installing libconfig-dev (experiment-file parser)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq libconfig-dev >/dev/null; \
	fi
	@if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then \
	  echo "installing libopenmpi-dev, openmpi-bin (runs dealt over MPI ranks)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq libopenmpi-dev openmpi-bin >/dev/null; \
	fi
	@if ! echo '#include <otf2/otf2.h>' | $(CC) -E - >/dev/null 2>&1 || ! command -v otf2-print >/dev/null 2>&1; then \
	  echo "installing libotf2-trace-dev, otf2-tools (OTF2 traces: the tracer writes them, the otf2 workload replays them)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq libotf2-trace-dev otf2-tools >/dev/null; \
	fi
	@if ! command -v gnuplot >/dev/null 2>&1; then \
	  echo "installing gnuplot-nox (report plots)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq gnuplot-nox >/dev/null; \
	fi

# The main job: the default experiment (examples/default.cfg); --force,
# because results/default is this job's folder whatever the file says.
# make run: examples/default.cfg sets experiment.windowed, so its files
# are the same in one process and over two MPI ranks: with two cores or
# more it runs over two (in one process if mpirun cannot start).
run: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@if [ -d results/default ] && [ ! -e results/default/experiment.files ]; then \
	    echo "make run: results/default has no experiment.files (an older dfsim's), so --force would refuse it: moved to results/default.old"; \
	    rm -rf results/default.old; mv results/default results/default.old; \
	fi
	@if [ $(NPROC) -ge 2 ] && command -v mpirun >/dev/null 2>&1; then \
	    echo "mpirun -np 2 $(BUILD)/dfsim run examples/default.cfg -o results/default --force"; \
	    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	        mpirun -np 2 $(BUILD)/dfsim run examples/default.cfg \
	        -o results/default --force || { \
	    echo "make run: mpirun failed; the same run in one process"; \
	    $(BUILD)/dfsim run examples/default.cfg -o results/default --force; }; \
	else \
	    echo "$(BUILD)/dfsim run examples/default.cfg -o results/default --force"; \
	    $(BUILD)/dfsim run examples/default.cfg -o results/default --force; \
	fi

# One suite in one build folder; used twice by `test`. The tests run in
# child processes, as many at a time as there are processors
# (DFSIM_TEST_JOBS=N to choose, 0: one after another in the process
# itself, for a debugger; tests/main.c).
test-one: $(BUILD)/dfsim $(BUILD)/dfsim-tests $(TRACER)
	DFSIM_BIN=$(BUILD)/dfsim DFSIM_SRC=. DFSIM_TRACER=$(TRACER) $(BUILD)/dfsim-tests | tee $(BUILD)/test.log

test: deps
	@rm -f $(BUILD)/test.log $(SAN_BUILD)/test.log
	@$(MAKE) --no-print-directory -j$(NPROC) $(BUILD)/dfsim $(BUILD)/dfsim-tests \
	    $(BUILD)/libdfsim-trace.so
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=$(SAN_BUILD) SANITIZE=1 \
	    $(SAN_BUILD)/dfsim $(SAN_BUILD)/dfsim-tests $(SAN_BUILD)/libdfsim-trace.so
	@$(MAKE) --no-print-directory test-one BUILD=$(BUILD) ; \
	$(MAKE) --no-print-directory test-one BUILD=$(SAN_BUILD) SANITIZE=1 ; \
	awk '/^[0-9]+ passed, [0-9]+ failed$$/ { p += $$1; f += $$3 } \
	     END { print "all suites (plain and ASan+UBSan):"; \
	           printf "%d passed, %d failed\n", p, f; exit (f > 0 || p == 0) }' \
	    $(BUILD)/test.log $(SAN_BUILD)/test.log

# The reproductions' scoreboard (issue 55): every row of
# reproduce/rows.cfg over its seeds, one run per core at once (hours; a
# cut-short run resumes),
# the table into docs/reproductions.md; each seed's value kept in
# reproduce/measured.csv with the commit that measured it, so that the
# next session's machine goes on from there instead of from nothing.
reproduce: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	$(BUILD)/dfsim scoreboard reproduce/rows.cfg -j $(NPROC) \
	    --keep reproduce/measured.csv --write docs/reproductions.md

# Traces of real MPI programs (issue 56; docs/tracer.md): the examples
# of examples/traces/, LAMMPS's Lennard-Jones melt on 16 ranks and a
# small HPCC run, each under the tracer into traces/NAME/traces.otf2.
# LAMMPS and HPCC are installed here, not by deps (nothing else needs
# them).
traces: deps
	@$(MAKE) --no-print-directory $(TRACER)
	@if ! command -v lmp >/dev/null 2>&1 || ! command -v hpcc >/dev/null 2>&1; then \
	  echo "installing lammps, hpcc (programs to trace)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq lammps hpcc >/dev/null; \
	fi
	sh examples/traces/run.sh $(TRACER) traces

bench: deps
	@$(MAKE) --no-print-directory $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done
	@echo "== bench/replay_speed.sh (the otf2 replay; after make traces)"
	@DFSIM=$(BUILD)/dfsim sh bench/replay_speed.sh
	@echo "== bench/partition_speed.sh (one run over two MPI ranks)"
	@DFSIM=$(BUILD)/dfsim sh bench/partition_speed.sh
	@echo "== bench/partition_jobs.sh (make run's experiment over two MPI ranks)"
	@DFSIM=$(BUILD)/dfsim sh bench/partition_jobs.sh
	@echo "== bench/partition_model.sh (the speed model at P processes, its counts checked)"
	@DFSIM=$(BUILD)/dfsim sh bench/partition_model.sh

clean:
	rm -rf $(BUILD) $(SAN_BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
