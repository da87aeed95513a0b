# Cooperative kernels for OpenCL: libcoop, coop-merge, programs, tests.
#   make            build everything into build/ (installs nothing: see make deps)
#   make deps       install the Debian packages the project needs (scripts/install-deps.sh); demo,
#                   check, sanitize, fuzz and smith run it first
#   make check      build and run the Check test suite (on PoCL; test_nvptx compiles every kernel
#                   for NVIDIA's PTX target with clang), then replay the fuzz inputs
#   make sanitize   build everything with ASan and UBSan into build-sanitize/, run the quick tests
#   make fuzz       fuzz the graph readers, the .obj reader and coop-merge (FUZZ_SECONDS=N each;
#                   fuzz/fuzz.mk)
#   make smith      random cooperative kernels, merged and run (SECONDS=N; fuzz/smith/smith.mk)
#   make demo       build and run the main job on the default device
#   make install PREFIX=/usr/local
#   make clean
# Set COOP_NO_DEPS=1 to skip the Debian package step of demo, check, sanitize, fuzz and smith (e.g.
# on the GPU machine, which has no package registry), CL_CFLAGS / CL_LIBS to point at another
# OpenCL SDK, and CUDA=1 to build the CUDA comparison programs gridsync-bench and preempt-bench (nvcc,
# or NVCC=...).

CC ?= gcc
PREFIX ?= /usr/local
BUILD := build
CL_CFLAGS ?=
CL_LIBS ?= -lOpenCL
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -fPIC -Ilibcoop/include $(CL_CFLAGS)
LDLIBS := $(CL_LIBS) -lm -lpthread

# The version is coop.h's (COOP_VERSION_*): the soname is libcoop.so.MAJOR.
version_part = $(shell sed -n 's/^\#define COOP_VERSION_$(1) \([0-9]*\)$$/\1/p' libcoop/include/coop.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)

# Only what coop.h marks COOP_API is exported from libcoop.so.
LIB_CFLAGS := -fvisibility=hidden

LIB_SRCS := $(wildcard libcoop/src/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/kernel_header.o $(BUILD)/obj/gen/selftest_source.o \
    $(BUILD)/obj/gen/echo_source.o
DEVICE_HEADERS := $(wildcard libcoop/include/coop_device/*.h)
LIB_HEADERS := libcoop/include/coop.h libcoop/include/coop_kernel.h libcoop/include/coop_layout.h \
    libcoop/include/coop_request.h $(DEVICE_HEADERS)
# The kernel library: headers in the paper's language that a user's kernel may include
# (kernels/lib/ws_deque.h...), installed in include/coop/kernels. The build tree has the same
# folder, a link to kernels/lib, so that coop-merge finds them beside its executable in both, and
# host code includes <coop/kernels/ws_layout.h> in both.
KERNEL_LIB_HEADERS := $(wildcard kernels/lib/*.h)
KERNEL_LIB := $(BUILD)/include/coop/kernels
LIBA := $(BUILD)/lib/libcoop.a
LIBSO_REAL := $(BUILD)/lib/libcoop.so.$(VERSION)
LIBSO_MAJOR := $(BUILD)/lib/libcoop.so.$(VERSION_MAJOR)
LIBSO := $(BUILD)/lib/libcoop.so
PCFILE := $(BUILD)/lib/pkgconfig/coop.pc

PROGRAMS := $(BUILD)/bin/coop-info $(BUILD)/bin/coop-litmus $(BUILD)/bin/barrier-bench $(BUILD)/bin/sched-bench \
    $(BUILD)/bin/coop-chaos
# The grid.sync() comparison (CUDA) only when asked: make CUDA=1.
NVCC ?= nvcc
ifeq ($(CUDA),1)
PROGRAMS += $(BUILD)/bin/gridsync-bench $(BUILD)/bin/preempt-bench
endif

# The programs' own copy of the strict parser and of the whole-or-nothing file writer (libcoop's
# are hidden inside libcoop.so; linked before libcoop.a, the writer is also the one its trace
# writer uses: libcoop/src/outfile.h), their shared command-line handling (host/common/cli.c) and
# their outputs (host/common/output.c).
STRICT_OBJ := $(BUILD)/obj/host/common/strict.o
OUTFILE_OBJ := $(BUILD)/obj/host/common/outfile.o
CLI_OBJS := $(BUILD)/obj/host/common/cli.o $(BUILD)/obj/host/common/output.o $(STRICT_OBJ) $(OUTFILE_OBJ)
# The rest of the programs' shared layer (host/common/, a file per concern): $(call common,errors
# buffers) names the objects of the parts a program links.
common = $(patsubst %,$(BUILD)/obj/host/common/%.o,$(1))
# Host programs bind the merged programs of kernels/generated/ by their header's names, and
# include an app's CPU reference by its folder: "bfs/bfs_ref.h" (apps/README.md).
HOST_CFLAGS := -Ihost/common -Ilibcoop/src -Ikernels/generated -I$(BUILD)/include -Iapps
APP_REF_HEADERS := $(wildcard apps/*.h apps/*/*_ref.h)

TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps lib programs man check sanitize sanitize-check demo install clean regenerate
.DELETE_ON_ERROR:

# Installing Debian packages is `make deps` (scripts/install-deps.sh), never a side effect of a
# build: make, lib, programs and install only build. The targets that run something on this
# machine (RUN_GOALS) install what is missing first, on a fresh machine too. The step runs while
# the Makefile is read, before any rule, so that a parallel build (make -j) never compiles ahead
# of the headers it installs; a dry run (make -n) prints it instead. Not for the build inside
# `make sanitize`, which passes COOP_NO_DEPS=1 after its own step ran.
RUN_GOALS := demo check sanitize fuzz smith
ifeq ($(COOP_NO_DEPS),)
ifneq ($(filter $(RUN_GOALS),$(MAKECMDGOALS)),)
ifneq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
$(info sh scripts/install-deps.sh)
else
DEPS_STATUS := $(shell sh scripts/install-deps.sh >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error scripts/install-deps.sh failed (status $(DEPS_STATUS)); set COOP_NO_DEPS=1 to skip it)
endif
endif
endif
endif

# Man pages, made from each program's --help and --version by help2man (Debian's help2man, which
# make deps installs); skipped, with a note, where help2man is missing.
HELP2MAN := $(shell command -v help2man 2>/dev/null)

all: lib programs man

deps:
	@sh scripts/install-deps.sh

lib: $(LIBA) $(LIBSO) $(PCFILE)

$(KERNEL_LIB):
	@mkdir -p $(@D)
	ln -sfn $(CURDIR)/kernels/lib $@

programs: $(PROGRAMS)

# The kernel header: coop_kernel.h with the files it includes in their places (coop_layout.h,
# coop_device/*.h in order, coop_request.h inside coop_device/common.h).
$(BUILD)/gen/kernel_header.c: libcoop/include/coop_kernel.h libcoop/include/coop_layout.h \
    libcoop/include/coop_request.h $(DEVICE_HEADERS) scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh -i coop_kernel_header_source libcoop/include/coop_kernel.h > $@

$(BUILD)/gen/selftest_source.c: libcoop/src/selftest.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_selftest_source $< > $@

$(BUILD)/gen/echo_source.c: libcoop/src/channel.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_echo_source $< > $@

$(BUILD)/gen/litmus_source.c: kernels/litmus.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_litmus_source $< > $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/obj/libcoop/src/%.o: libcoop/src/%.c $(LIB_HEADERS) libcoop/src/internal.h libcoop/src/discovery.h \
    libcoop/src/json_text.h libcoop/src/strict.h libcoop/src/trace.h libcoop/src/outfile.h libcoop/src/share.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_CFLAGS) -Ilibcoop/src -c $< -o $@

$(STRICT_OBJ): libcoop/src/strict.c libcoop/src/strict.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ilibcoop/src -c $< -o $@

$(OUTFILE_OBJ): libcoop/src/outfile.c libcoop/src/outfile.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ilibcoop/src -c $< -o $@

$(BUILD)/obj/benchmarks/%.o: benchmarks/%.c $(LIB_HEADERS) $(wildcard host/common/*.h) libcoop/src/strict.h \
    libcoop/src/outfile.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HOST_CFLAGS) -c $< -o $@

$(LIBA): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# The real file, then the soname's link (what programs load) and the link the linker finds.
$(LIBSO_REAL): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libcoop.so.$(VERSION_MAJOR) -o $@ $^ $(LDLIBS)

$(LIBSO_MAJOR): $(LIBSO_REAL)
	ln -sf $(notdir $<) $@

$(LIBSO): $(LIBSO_MAJOR)
	ln -sf $(notdir $<) $@

# coop.pc, for PREFIX $(1): the OpenCL flags this tree was built with are in it, so that
# `pkg-config --cflags --libs coop` alone builds a program that calls OpenCL too.
coop_pc = sed -e 's|@PREFIX@|$(1)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@CL_CFLAGS@|$(CL_CFLAGS)|' \
    -e 's|@CL_LIBS@|$(CL_LIBS)|' libcoop/coop.pc.in
# This tree's own (PKG_CONFIG_PATH=build/lib/pkgconfig): the library in build/lib, headers in place.
$(PCFILE): libcoop/coop.pc.in libcoop/include/coop.h Makefile
	@mkdir -p $(@D)
	$(call coop_pc,$(abspath $(BUILD))) | sed -e 's|^includedir=.*|includedir=$(abspath libcoop/include)|' > $@

$(BUILD)/obj/host/%.o: host/%.c $(LIB_HEADERS) $(wildcard host/common/*.h) $(APP_REF_HEADERS) \
    libcoop/src/json_text.h libcoop/src/strict.h libcoop/src/outfile.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HOST_CFLAGS) -c $< -o $@

# The apps' CPU references (apps/APP/APP_ref.c): plain C on the arrays the kernels take, with no
# include path, so that they stay below the programs that call them.
$(BUILD)/obj/apps/%.o: apps/%.c $(APP_REF_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/bin/coop-info: $(BUILD)/obj/host/coop-info.o $(call common,json) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/bin/coop-litmus: $(BUILD)/obj/host/coop-litmus.o $(BUILD)/obj/gen/litmus_source.o \
    $(call common,errors buffers device json) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/bin/barrier-bench: $(BUILD)/obj/benchmarks/barrier/barrier.o $(call common,errors device) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/gen/rounds_source.c: kernels/generated/rounds_mega.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_rounds_source $< > $@

$(BUILD)/obj/host/coop-chaos.o: kernels/generated/rounds_mega.h

$(BUILD)/bin/coop-chaos: $(BUILD)/obj/host/coop-chaos.o $(BUILD)/obj/gen/rounds_source.o \
    $(call common,errors buffers device) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# sched-bench's programs: what coop-merge makes of benchmarks/sched/ (kernels/generated/merges.txt).
SCHED_PROGRAMS := sched_units_mega sched_units_standalone sched_rounds_mega sched_rounds_standalone

$(SCHED_PROGRAMS:%=$(BUILD)/gen/%_source.c): $(BUILD)/gen/%_source.c: kernels/generated/%.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

# Its queued figure's ordinary kernels, built as written (work.h inlined).
$(BUILD)/gen/sched_queued_source.c: benchmarks/sched/queued.cl benchmarks/sched/work.h scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh -i sched_queued_source $< > $@

$(BUILD)/obj/benchmarks/sched/sched-bench.o: $(SCHED_PROGRAMS:%=kernels/generated/%.h)

$(BUILD)/bin/sched-bench: $(BUILD)/obj/benchmarks/sched/sched-bench.o $(SCHED_PROGRAMS:%=$(BUILD)/obj/gen/%_source.o) \
    $(BUILD)/obj/gen/sched_queued_source.o $(call common,errors buffers clock device stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/bin/gridsync-bench: benchmarks/barrier/gridsync.cu $(STRICT_OBJ) libcoop/src/strict.h libcoop/include/coop.h
	@mkdir -p $(@D)
	$(NVCC) -O2 -arch=sm_90 -Ilibcoop/src -Ilibcoop/include -o $@ $< $(STRICT_OBJ)

$(BUILD)/bin/preempt-bench: benchmarks/preempt/preempt-bench.cu $(STRICT_OBJ) libcoop/src/strict.h libcoop/include/coop.h
	@mkdir -p $(@D)
	$(NVCC) -O2 -arch=sm_90 -std=c++17 -Ilibcoop/src -Ilibcoop/include -o $@ $< $(STRICT_OBJ) -lpthread

# ---- Tests ---------------------------------------------------------------------------------
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

# The graph readers and generators (graph.h), a file per layer (graph.c says which), and their
# private headers.
GRAPH_SRCS := $(addprefix host/common/,graph.c graph_text.c graph_decode.c graph_csr.c graph_parse.c graph_gen.c)
GRAPH_HEADERS := $(addprefix host/common/,graph.h graph_text.h graph_decode.h graph_csr.h graph_parse.h)
GRAPH_OBJS := $(GRAPH_SRCS:%.c=$(BUILD)/obj/%.o)
GRAPH_LIBS := -lz -llzma

$(GRAPH_OBJS): $(BUILD)/obj/%.o: %.c $(GRAPH_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Tests read trace files back with jansson (Debian's libjansson-dev; tests/trace_check.h).
TEST_LIBS := -ljansson

$(BUILD)/tests/%: tests/%.c tests/testutil.h tests/trace_check.h $(LIBA) $(GRAPH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -Ilibcoop/src -Ihost/common -Ikernels/generated -I$(BUILD)/include \
	    -o $@ $< $(LIBA) $(GRAPH_OBJS) \
	    $(CHECK_LIBS) $(GRAPH_LIBS) $(TEST_LIBS) $(LDLIBS)

# What coop-merge made of the project's kernels (merges.txt there; `make regenerate`).
GENERATED := kernels/generated

include host/coop-bench.mk
include host/render.mk
include host/coop-demo.mk
include host/coop-multi.mk
include host/coop-ws.mk
include host/coop-lbvh.mk
include host/coop-path.mk
include host/coop-qsort.mk
include benchmarks/spawn/spawn-bench.mk
include host/examples.mk
include merge-tool/Makefile.inc
include fuzz/fuzz.mk
include fuzz/smith/smith.mk
include tests/fail_alloc.mk
# coop-merge needs libclang (Debian's libclang-dev); machines without it (the GPU machine) build
# everything else.
ifneq ($(wildcard $(LLVM_INCLUDEDIR)/clang-c/Index.h),)
PROGRAMS += $(BUILD)/bin/coop-merge
programs: $(BUILD)/bin/coop-merge
endif

# Tests that run the programs as subprocesses.
$(BUILD)/tests/test_litmus: $(BUILD)/bin/coop-litmus
$(BUILD)/tests/test_bench: host/common/hash.h
$(BUILD)/tests/test_examples: $(BUILD)/bin/components
$(BUILD)/tests/test_trace: $(BUILD)/tests/trace-verify
# tests/trace_check.h's checks on trace files from elsewhere (the GPU machine has no Check).
$(BUILD)/tests/trace-verify: tests/tools/trace-verify.c tests/testutil.h tests/trace_check.h $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -Ilibcoop/src -o $@ $< $(LIBA) $(CHECK_LIBS) $(TEST_LIBS) $(LDLIBS)

# ---- Man pages -----------------------------------------------------------------------------
# Each page's NAME line is the summary in the program's --help: its first line after the usage
# (host/common/cli.h).
MAN_PAGES = $(PROGRAMS:$(BUILD)/bin/%=$(BUILD)/man/man1/%.1)
# coop-merge's help (merge-tool/) has no summary line and it has no --version: its page is told
# both.
HELP2MAN_VERSION_coop-merge := --version-string=$(VERSION)
HELP2MAN_NAME_coop-merge := fuses a cooperative kernel and ordinary kernels into one megakernel

# test_outputs runs the programs that write files.
$(BUILD)/tests/test_outputs: $(PROGRAMS)

# test_programs runs every program; test_library installs the tree (make install) into a
# temporary prefix and builds a program against it with pkg-config.
$(BUILD)/tests/test_programs $(BUILD)/tests/test_library: $(PROGRAMS) $(LIBSO) $(PCFILE) \
    $(if $(HELP2MAN),$(MAN_PAGES))
$(BUILD)/tests/test_library: kernels/lib/ws_layout.h | $(KERNEL_LIB)

ifneq ($(HELP2MAN),)
man: $(MAN_PAGES)
else
man:
	@echo "note: help2man is missing (Debian package help2man): no man pages" >&2
endif

$(BUILD)/man/man1/%.1: $(BUILD)/bin/%
	@mkdir -p $(@D)
	name='$(HELP2MAN_NAME_$*)'; [ -n "$$name" ] || name=$$($< --help | awk 'NR > 1 && !/^ / { \
	    sub(/\.$$/, ""); print tolower(substr($$0, 1, 1)) substr($$0, 2); exit }'); \
	$(HELP2MAN) --no-info --no-discard-stderr $(HELP2MAN_VERSION_$*) --name="$$name" --output=$@ $<

# The test binaries, then the fuzz targets on their seeds and past crashes; both run either way.
# No second make runs the replays: make runs a recipe line that calls $(MAKE) even in a dry run,
# and `make -n check` would run the tests.
check: all $(TEST_BINS) $(FUZZ_REPLAY_INPUTS)
	@status=0; sh tests/run-tests.sh $(TEST_BINS) || status=1; \
	{ $(FUZZ_REPLAY_RUN); } || status=1; exit $$status

# ---- Sanitizers ----------------------------------------------------------------------------
# Everything built again with AddressSanitizer and UBSan (CC carries the flags, so that every
# link line has them too), and the tests that finish quickly: the graph readers, the strict
# parser and the environment, the API's argument and error paths, and coop-merge through the fuzz
# replays (every input of its tests).
SANITIZE_BUILD := build-sanitize
SANITIZE_TESTS := test_graph test_strict test_env test_errors test_device test_program test_channel test_discovery
# Leaks inside the OpenCL platform's libraries are PoCL's (tests/lsan-platform.supp); the tests
# run with an empty PoCL kernel cache, so that the result does not depend on what it holds.
SANITIZE_OPTIONS := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan-platform.supp:print_suppressions=0

sanitize:
	@$(MAKE) --no-print-directory BUILD=$(SANITIZE_BUILD) CC='$(CC) $(SANITIZE)' CFLAGS='-O1 -g' COOP_NO_DEPS=1 \
	    sanitize-check

sanitize-check: all $(SANITIZE_TESTS:%=$(BUILD)/tests/%) $(FUZZ_REPLAY_INPUTS)
	@status=0; cache=$$(mktemp -d) || exit 1; \
	POCL_CACHE_DIR=$$cache $(SANITIZE_OPTIONS) sh tests/run-tests.sh $(SANITIZE_TESTS:%=$(BUILD)/tests/%) || status=1; \
	rm -rf "$$cache"; \
	export $(SANITIZE_OPTIONS); { $(FUZZ_REPLAY_RUN); } || status=1; exit $$status

# ---- Main job ------------------------------------------------------------------------------
demo: all
	$(BUILD)/bin/coop-demo --trace demo/trace.json
	/usr/bin/python3 scripts/demo-plot demo/responsiveness.csv demo/responsiveness.png
	/usr/bin/python3 scripts/timeline demo/trace.json demo/timeline.png

# ---- Install -------------------------------------------------------------------------------
# The shared library as Debian lays one out: libcoop.so.X.Y.Z, libcoop.so.X (the soname) -> it,
# libcoop.so -> libcoop.so.X; man pages in share/man/man1. The kernel library goes with the
# headers rather than in share/: one of them (ws_layout.h) is for host C too, which then needs
# no -I beyond pkg-config's, and its own folder keeps names such as hash.h out of the host's
# include path. coop-merge looks for it in ../include/coop/kernels from its own folder.
# share/coop/embed.sh builds a merged program's text into a program, as the tutorial's is.
install: lib programs man
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/include/coop_device \
	    $(DESTDIR)$(PREFIX)/include/coop/kernels $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/coop
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBSO_REAL) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libcoop.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libcoop.so.$(VERSION_MAJOR)
	ln -sf libcoop.so.$(VERSION_MAJOR) $(DESTDIR)$(PREFIX)/lib/libcoop.so
	install -m 644 $(filter-out $(DEVICE_HEADERS),$(LIB_HEADERS)) $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(DEVICE_HEADERS) $(DESTDIR)$(PREFIX)/include/coop_device/
	install -m 644 $(KERNEL_LIB_HEADERS) $(DESTDIR)$(PREFIX)/include/coop/kernels/
	install -m 644 scripts/embed.sh $(DESTDIR)$(PREFIX)/share/coop/
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	$(call coop_pc,$(PREFIX)) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/coop.pc
	$(if $(HELP2MAN),install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/,\
	    @echo "note: no man pages installed (help2man is missing)" >&2)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
