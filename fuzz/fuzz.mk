# fuzz/fuzz.mk: fuzz targets for the graph readers (fuzz/graph_read.c over host/common/graph*.c),
# the .obj reader (fuzz/obj_read.c over host/common/mesh.c) and coop-merge (fuzz/coop_merge.c
# over merge-tool/), and their replays. Included by the
# Makefile after merge-tool/Makefile.inc (its SANITIZE, MERGE_* and LLVM_* variables).
#   make fuzz [FUZZ_SECONDS=N]   libFuzzer (clang-14) on each target for N seconds (default 60);
#                                new inputs go to build/fuzz/corpus/, crashes to build/fuzz/crashes/
#   make fuzz-replay             the seeds and every past crash (fuzz/regressions/) through the
#                                targets built with gcc, AddressSanitizer and UBSan, each input in
#                                its own process (fuzz/replay.c); part of make check and sanitize
# Seeds: the project's inputs (tests/data/graphs, tests/data/obj, tests/merge), gzip and xz copies of the graph
# files, ../shared/graphs/rome99.gr.gz when present, and the merge tests' pairs of a cooperative
# kernel and its tasks joined into one input.

FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SANITIZE := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -g -O1 -Ilibcoop/include
FUZZ_HAS_MERGE := $(wildcard $(LLVM_INCLUDEDIR)/clang-c/Index.h)

.PHONY: fuzz fuzz-replay

# ---- Seeds ---------------------------------------------------------------------------------
GRAPH_SEED_FILES := $(wildcard tests/data/graphs/*.* tests/data/graphs/bad/*.*)
FUZZ_GRAPH_SEEDS := $(FUZZ_DIR)/seeds/graph/.made
FUZZ_MERGE_SEEDS := $(FUZZ_DIR)/seeds/merge/.made
# A cooperative kernel and its task files, as the merge tests run them (fuzz/coop_merge.c's
# markers join them; + separates the files).
MERGE_SEED_SETS := rounds.cl+fill.cl nested.cl+fill.cl types.cl+tasks_a.cl+tasks_b.cl \
    relax.cl+tasks_relax.cl breaks.cl+fill.cl swap.cl+fill.cl frontier.cl+fill.cl \
    rounds.cl+reject/task_arg_range.cl rounds.cl+reject/transmit_task.cl rounds.cl+reject/task_barrier.cl \
    rounds.cl+reject/task_helper_barrier.cl reject/calls_kernel.cl+reject/calls_kernel_task.cl \
    reject/duplicate.cl+reject/duplicate_task.cl

$(FUZZ_GRAPH_SEEDS): $(GRAPH_SEED_FILES) fuzz/fuzz.mk
	@rm -rf $(@D) && mkdir -p $(@D)
	@for file in $(GRAPH_SEED_FILES); do \
	    name=$$(echo "$$file" | tr / _); \
	    gzip -9nc "$$file" > $(@D)/$$name.gz && xz -c "$$file" > $(@D)/$$name.xz || exit 1; \
	done
	@if [ -f ../shared/graphs/rome99.gr.gz ]; then ln -s "$$(cd ../shared/graphs && pwd)/rome99.gr.gz" $(@D)/; fi
	@touch $@

$(FUZZ_MERGE_SEEDS): $(wildcard tests/merge/*.cl tests/merge/reject/*.cl) fuzz/fuzz.mk
	@rm -rf $(@D) && mkdir -p $(@D)
	@for set in $(MERGE_SEED_SETS); do \
	    out=$(@D)/$$(echo "$$set" | tr /+ _-); first=1; \
	    for file in $$(echo "$$set" | tr + ' '); do \
	        [ $$first = 1 ] || printf '//@task\n' >> "$$out"; first=0; \
	        cat "tests/merge/$$file" >> "$$out" || exit 1; \
	    done; \
	done
	@(printf '//@standalone\n'; cat tests/merge/nested.cl) > $(@D)/standalone-nested.cl
	@touch $@

FUZZ_GRAPH_INPUTS := tests/data/graphs $(FUZZ_DIR)/seeds/graph fuzz/regressions/graph
FUZZ_OBJ_INPUTS := tests/data/obj fuzz/regressions/obj
FUZZ_MERGE_INPUTS := tests/merge $(FUZZ_DIR)/seeds/merge fuzz/regressions/merge

# ---- Replays (gcc, AddressSanitizer and UBSan) ----------------------------------------------
$(FUZZ_DIR)/replay/%.o: fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) -Ihost/common -c $< -o $@

FUZZ_REPLAY_GRAPH_OBJS := $(GRAPH_SRCS:host/common/%.c=$(FUZZ_DIR)/replay/%.o)

$(FUZZ_REPLAY_GRAPH_OBJS): $(FUZZ_DIR)/replay/%.o: host/common/%.c $(GRAPH_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) -c $< -o $@

$(FUZZ_DIR)/replay/graph_read.o: host/common/graph.h

$(FUZZ_DIR)/replay/obj_read.o: host/common/mesh.h

$(FUZZ_DIR)/replay/mesh.o: host/common/mesh.c host/common/mesh.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) -c $< -o $@

$(FUZZ_DIR)/replay-obj: $(FUZZ_DIR)/replay/replay.o $(FUZZ_DIR)/replay/obj_read.o $(FUZZ_DIR)/replay/mesh.o
	$(CC) $(SANITIZE) -o $@ $^ -lm

$(FUZZ_DIR)/replay/coop_merge.o: fuzz/coop_merge.c merge-tool/main.c $(MERGE_HEADERS) host/common/output.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) $(MERGE_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/replay-graph: $(FUZZ_DIR)/replay/replay.o $(FUZZ_DIR)/replay/graph_read.o $(FUZZ_REPLAY_GRAPH_OBJS)
	$(CC) $(SANITIZE) -o $@ $^ $(GRAPH_LIBS)

$(FUZZ_DIR)/replay-merge: $(FUZZ_DIR)/replay/replay.o $(FUZZ_DIR)/replay/coop_merge.o \
    $(filter-out %/main.o,$(MERGE_ASAN_OBJS)) $(MERGE_ASAN_OUTPUT_OBJS) $(BUILD)/obj/gen/kernel_header.o
	$(CC) $(SANITIZE) -o $@ $^ $(MERGE_LIBS)

FUZZ_REPLAYS := $(FUZZ_DIR)/replay-graph $(FUZZ_DIR)/replay-obj $(if $(FUZZ_HAS_MERGE),$(FUZZ_DIR)/replay-merge)

# Leaks count as failures here (libFuzzer checks them too). make check and make sanitize run
# the same command after their tests.
FUZZ_REPLAY_INPUTS := $(FUZZ_REPLAYS) $(FUZZ_GRAPH_SEEDS) $(if $(FUZZ_HAS_MERGE),$(FUZZ_MERGE_SEEDS))
FUZZ_REPLAY_RUN := $(FUZZ_DIR)/replay-graph $(FUZZ_GRAPH_INPUTS) && $(FUZZ_DIR)/replay-obj $(FUZZ_OBJ_INPUTS) \
    $(if $(FUZZ_HAS_MERGE),&& $(FUZZ_DIR)/replay-merge $(FUZZ_MERGE_INPUTS))

fuzz-replay: $(FUZZ_REPLAY_INPUTS)
	@$(FUZZ_REPLAY_RUN)

# ---- libFuzzer (clang) ------------------------------------------------------------------------
$(FUZZ_DIR)/obj/%.o: fuzz/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SANITIZE) -Ihost/common -c $< -o $@

FUZZ_GRAPH_OBJS := $(GRAPH_SRCS:host/common/%.c=$(FUZZ_DIR)/obj/%.o)

$(FUZZ_GRAPH_OBJS): $(FUZZ_DIR)/obj/%.o: host/common/%.c $(GRAPH_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(subst fuzzer,fuzzer-no-link,$(FUZZ_SANITIZE)) -c $< -o $@

$(FUZZ_DIR)/obj/graph_read.o: host/common/graph.h

$(FUZZ_DIR)/obj/obj_read.o: host/common/mesh.h

$(FUZZ_DIR)/obj/mesh.o: host/common/mesh.c host/common/mesh.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(subst fuzzer,fuzzer-no-link,$(FUZZ_SANITIZE)) -c $< -o $@

$(FUZZ_DIR)/fuzz-obj: $(FUZZ_DIR)/obj/obj_read.o $(FUZZ_DIR)/obj/mesh.o
	$(FUZZ_CC) $(FUZZ_SANITIZE) -o $@ $^ -lm

$(FUZZ_DIR)/obj/coop_merge.o: fuzz/coop_merge.c merge-tool/main.c $(MERGE_HEADERS) host/common/output.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SANITIZE) $(MERGE_CFLAGS) -c $< -o $@

FUZZ_MERGE_OBJS := $(patsubst merge-tool/%.c,$(FUZZ_DIR)/obj/merge-tool/%.o,\
    $(filter-out merge-tool/main.c,$(MERGE_SRCS)))

$(FUZZ_DIR)/obj/merge-tool/%.o: merge-tool/%.c $(MERGE_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(subst fuzzer,fuzzer-no-link,$(FUZZ_SANITIZE)) $(MERGE_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz-graph: $(FUZZ_DIR)/obj/graph_read.o $(FUZZ_GRAPH_OBJS)
	$(FUZZ_CC) $(FUZZ_SANITIZE) -o $@ $^ $(GRAPH_LIBS)

# coop-merge's outputs (merge-tool/Makefile.inc's MERGE_OUTPUT_OBJS)
FUZZ_MERGE_OBJS += $(FUZZ_DIR)/obj/output.o $(FUZZ_DIR)/obj/outfile.o

$(FUZZ_DIR)/obj/output.o: host/common/output.c host/common/output.h libcoop/src/outfile.h
$(FUZZ_DIR)/obj/outfile.o: libcoop/src/outfile.c libcoop/src/outfile.h
$(FUZZ_DIR)/obj/output.o $(FUZZ_DIR)/obj/outfile.o:
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(subst fuzzer,fuzzer-no-link,$(FUZZ_SANITIZE)) -Ihost/common -Ilibcoop/src -c $< -o $@

$(FUZZ_DIR)/fuzz-merge: $(FUZZ_DIR)/obj/coop_merge.o $(FUZZ_MERGE_OBJS) $(BUILD)/obj/gen/kernel_header.o
	$(FUZZ_CC) $(FUZZ_SANITIZE) -o $@ $^ $(MERGE_LIBS)

FUZZ_TARGETS := graph obj $(if $(FUZZ_HAS_MERGE),merge)

# libFuzzer writes what it finds to build/fuzz/corpus/<target>/ (reading the seeds and past
# crashes beside it) and a crashing input to build/fuzz/crashes/<target>/, mutating with the
# formats' tokens (fuzz/*.dict); coop-merge's own messages are dropped (-close_fd_mask=3), the
# sanitizers' reports are not. Every target runs whatever the one before it found, and the
# target fails at the end if any of them did. An input's time limit is far above what any takes
# alone (0.02 s): on a loaded machine a 20 s limit stopped the graph target on an input that
# only waited for a core, and the merge target never ran.
FUZZ_TIMEOUT_S ?= 600
FUZZ_RSS_MB ?= 4096
FUZZ_RUN = -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT_S) -rss_limit_mb=$(FUZZ_RSS_MB) -print_final_stats=1

fuzz: $(addprefix $(FUZZ_DIR)/fuzz-,$(FUZZ_TARGETS)) $(FUZZ_GRAPH_SEEDS) $(if $(FUZZ_HAS_MERGE),$(FUZZ_MERGE_SEEDS))
	@mkdir -p $(addprefix $(FUZZ_DIR)/corpus/,$(FUZZ_TARGETS)) $(addprefix $(FUZZ_DIR)/crashes/,$(FUZZ_TARGETS))
	@found=""; \
	$(FUZZ_DIR)/fuzz-graph $(FUZZ_RUN) -dict=fuzz/graph.dict -artifact_prefix=$(FUZZ_DIR)/crashes/graph/ \
	    $(FUZZ_DIR)/corpus/graph $(FUZZ_GRAPH_INPUTS) || found="$$found graph"; \
	$(FUZZ_DIR)/fuzz-obj $(FUZZ_RUN) -artifact_prefix=$(FUZZ_DIR)/crashes/obj/ $(FUZZ_DIR)/corpus/obj \
	    $(FUZZ_OBJ_INPUTS) || found="$$found obj"; \
	if [ -n "$(FUZZ_HAS_MERGE)" ]; then \
	    $(FUZZ_DIR)/fuzz-merge $(FUZZ_RUN) -close_fd_mask=3 -dict=fuzz/coop_merge.dict \
	        -artifact_prefix=$(FUZZ_DIR)/crashes/merge/ $(FUZZ_DIR)/corpus/merge $(FUZZ_MERGE_INPUTS) || found="$$found merge"; \
	fi; \
	if [ -n "$$found" ]; then echo "make fuzz: found a failing input in:$$found (see $(FUZZ_DIR)/crashes/)" >&2; exit 1; fi
