# Cooperative kernels for OpenCL: libcoop, coop-merge, programs, tests.
#   make            build everything into build/
#   make check      build and run the Check test suite (on PoCL), then replay the fuzz inputs
#   make sanitize   build everything with ASan and UBSan into build-sanitize/, run the quick tests
#   make fuzz       fuzz the graph readers and coop-merge (FUZZ_SECONDS=N each; fuzz/fuzz.mk)
#   make demo       build and run the main job on the default device
#   make install PREFIX=/usr/local
#   make clean
# Set COOP_NO_DEPS=1 to skip the Debian package step (e.g. on the GPU machine, which has no
# package registry), and CL_CFLAGS / CL_LIBS to point at another OpenCL SDK.

CC ?= gcc
PREFIX ?= /usr/local
BUILD := build
CL_CFLAGS ?=
CL_LIBS ?= -lOpenCL
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -fPIC -Ilibcoop/include $(CL_CFLAGS)
LDLIBS := $(CL_LIBS) -lm -lpthread

LIB_SRCS := $(wildcard libcoop/src/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/kernel_header.o $(BUILD)/obj/gen/selftest_source.o
LIB_HEADERS := libcoop/include/coop.h libcoop/include/coop_kernel.h libcoop/include/coop_layout.h \
    libcoop/include/coop_scheduler.h
LIBA := $(BUILD)/lib/libcoop.a
LIBSO := $(BUILD)/lib/libcoop.so

PROGRAMS := $(BUILD)/bin/coop-info $(BUILD)/bin/coop-litmus $(BUILD)/bin/barrier-bench $(BUILD)/bin/sched-bench \
    $(BUILD)/bin/coop-chaos
# The grid.sync() comparison is built where nvcc exists.
NVCC := $(shell command -v nvcc 2>/dev/null)
ifneq ($(NVCC),)
PROGRAMS += $(BUILD)/bin/gridsync-bench
endif

TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps lib programs check sanitize sanitize-check demo install clean
.DELETE_ON_ERROR:

# The Debian package step runs while the Makefile is read, before any rule, so that a parallel
# build (make -j) never compiles ahead of the headers it installs. Not for `make clean` (nor for
# the build inside `make sanitize`, which passes COOP_NO_DEPS=1 after its own step ran).
ifeq ($(COOP_NO_DEPS),)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
DEPS_STATUS := $(shell sh scripts/install-deps.sh >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error scripts/install-deps.sh failed (status $(DEPS_STATUS)); set COOP_NO_DEPS=1 to skip it)
endif
endif
endif

all: lib programs

deps:
	@sh scripts/install-deps.sh

lib: $(LIBA) $(LIBSO)

programs: $(PROGRAMS)

$(BUILD)/gen/kernel_header.c: libcoop/include/coop_layout.h libcoop/include/coop_kernel.h \
    libcoop/include/coop_scheduler.h scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_kernel_header_source $(filter %.h,$^) > $@

$(BUILD)/gen/selftest_source.c: libcoop/src/selftest.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_selftest_source $< > $@

$(BUILD)/gen/litmus_source.c: kernels/litmus.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_litmus_source $< > $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.c $(LIB_HEADERS) libcoop/src/internal.h libcoop/src/discovery.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ilibcoop/src -c $< -o $@

$(LIBA): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(LIBSO): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libcoop.so -o $@ $^ $(LDLIBS)

JSON_OBJ := $(BUILD)/obj/host/common/json.o

$(BUILD)/obj/host/%.o: host/%.c $(LIB_HEADERS) host/common/json.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ihost/common -c $< -o $@

$(BUILD)/bin/coop-info: $(BUILD)/obj/host/coop-info.o $(JSON_OBJ) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/bin/coop-litmus: $(BUILD)/obj/host/coop-litmus.o $(BUILD)/obj/gen/litmus_source.o $(JSON_OBJ) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/bin/barrier-bench: $(BUILD)/obj/benchmarks/barrier/barrier.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/gen/rounds_source.c: kernels/examples/rounds.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_rounds_source $< > $@

$(BUILD)/bin/coop-chaos: $(BUILD)/obj/host/coop-chaos.o $(BUILD)/obj/gen/rounds_source.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/gen/sched_bench_source.c: benchmarks/sched/sched.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh sched_bench_source $< > $@

STATS_OBJ := $(BUILD)/obj/host/common/stats.o

$(BUILD)/obj/benchmarks/sched/sched-bench.o: benchmarks/sched/sched-bench.c $(LIB_HEADERS) host/common/stats.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ihost/common -c $< -o $@

$(BUILD)/bin/sched-bench: $(BUILD)/obj/benchmarks/sched/sched-bench.o $(BUILD)/obj/gen/sched_bench_source.o $(STATS_OBJ) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/bin/gridsync-bench: benchmarks/barrier/gridsync.cu
	@mkdir -p $(@D)
	$(NVCC) -O2 -arch=sm_90 -o $@ $<

# ---- Tests ---------------------------------------------------------------------------------
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

GRAPH_OBJ := $(BUILD)/obj/host/common/graph.o
GRAPH_LIBS := -lz -llzma

$(GRAPH_OBJ): host/common/graph.c host/common/graph.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(LIBA) $(GRAPH_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -Ilibcoop/src -Ihost/common -o $@ $< $(LIBA) $(GRAPH_OBJ) \
	    $(CHECK_LIBS) $(GRAPH_LIBS) $(LDLIBS)

include host/coop-bench.mk
include host/render.mk
include host/coop-demo.mk
include host/coop-ws.mk
include merge-tool/Makefile.inc
include fuzz/fuzz.mk
# coop-merge needs libclang (Debian's libclang-dev); machines without it (the GPU machine) build
# everything else.
ifneq ($(wildcard $(LLVM_INCLUDEDIR)/clang-c/Index.h),)
PROGRAMS += $(BUILD)/bin/coop-merge
programs: $(BUILD)/bin/coop-merge
endif

# Tests that run the programs as subprocesses.
$(BUILD)/tests/test_litmus: $(BUILD)/bin/coop-litmus

# The test binaries, then the fuzz targets on their seeds and past crashes; both run either way.
check: all $(TEST_BINS) $(FUZZ_REPLAYS)
	@status=0; sh tests/run-tests.sh $(TEST_BINS) || status=1; \
	$(MAKE) --no-print-directory COOP_NO_DEPS=1 fuzz-replay || status=1; exit $$status

# ---- Sanitizers ----------------------------------------------------------------------------
# Everything built again with AddressSanitizer and UBSan (CC carries the flags, so that every
# link line has them too), and the tests that finish quickly: the graph readers, the API's
# argument and error paths, and coop-merge through the fuzz replays (every input of its tests).
SANITIZE_BUILD := build-sanitize
SANITIZE_TESTS := test_graph test_errors test_device test_program test_channel test_discovery
SANITIZE_OPTIONS := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

sanitize:
	@$(MAKE) --no-print-directory BUILD=$(SANITIZE_BUILD) CC='$(CC) $(SANITIZE)' CFLAGS='-O1 -g' COOP_NO_DEPS=1 \
	    sanitize-check

sanitize-check: all $(SANITIZE_TESTS:%=$(BUILD)/tests/%) $(FUZZ_REPLAYS)
	@status=0; $(SANITIZE_OPTIONS) sh tests/run-tests.sh $(SANITIZE_TESTS:%=$(BUILD)/tests/%) || status=1; \
	$(SANITIZE_OPTIONS) $(MAKE) --no-print-directory fuzz-replay || status=1; exit $$status

# ---- Main job ------------------------------------------------------------------------------
demo: all
	$(BUILD)/bin/coop-demo
	/usr/bin/python3 scripts/demo-plot demo/responsiveness.csv demo/responsiveness.png

# ---- Install -------------------------------------------------------------------------------
install: lib programs
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(LIBA) $(LIBSO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(LIB_HEADERS) $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|' libcoop/coop.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/coop.pc

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
