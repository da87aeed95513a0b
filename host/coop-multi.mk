# coop-multi: BFS, SSSP and a work-stealing tree that spawns tasks as three cooperative kernels
# of one megakernel sharing the device by weight, beside the render and matmult tasks
# (host/coop-multi.c), and its test. Its kernels are what coop-merge made
# (kernels/generated/multi_mega.cl, and bfs_searches_mega.cl, sssp_searches_mega.cl and
# tree_spawn_mega.cl for each kernel alone, listed in merges.txt); the tasks' sizes, buffers
# and checks are coop-bench's (host/bench_task.c, built again to name this program in its
# messages), its checks the apps' CPU references.
# Included after the Makefile: make -f Makefile -f host/coop-multi.mk build/bin/coop-multi

COOP_MULTI_OBJS := $(BUILD)/obj/host/coop-multi.o $(BUILD)/obj/host/bench_task_multi.o \
    $(BUILD)/obj/apps/bfs/bfs_ref.o $(BUILD)/obj/apps/sssp/sssp_ref.o \
    $(BUILD)/obj/gen/multi_mega_source.o $(BUILD)/obj/gen/bfs_searches_mega_source.o \
    $(BUILD)/obj/gen/sssp_searches_mega_source.o $(BUILD)/obj/gen/tree_spawn_mega_source.o \
    $(BUILD)/obj/gen/bench_tasks_plain_source.o

$(BUILD)/gen/multi_mega_source.c $(BUILD)/gen/tree_spawn_mega_source.c: $(BUILD)/gen/%_source.c: $(GENERATED)/%.cl \
    scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

$(BUILD)/obj/host/bench_task_multi.o: host/bench_task.c host/bench_task.h host/common/image.h \
    host/common/render_ref.h $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HOST_CFLAGS) -DBENCH_TASK_PROGRAM='"coop-multi"' -c $< -o $@

$(BUILD)/obj/host/coop-multi.o: host/bench_task.h host/common/graph.h apps/bfs/bfs_ref.h apps/sssp/sssp_ref.h \
    $(GENERATED)/multi_mega.h $(GENERATED)/bfs_searches_mega.h $(GENERATED)/sssp_searches_mega.h \
    $(GENERATED)/tree_spawn_mega.h kernels/lib/ws_layout.h | $(KERNEL_LIB)
$(BUILD)/obj/host/coop-multi.o: HOST_CFLAGS += -I$(GENERATED)

$(BUILD)/bin/coop-multi: $(COOP_MULTI_OBJS) $(COOP_BENCH_RENDER_OBJS) $(GRAPH_OBJS) \
    $(call common,errors buffers device graph_input clock matmult_ref stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GRAPH_LIBS) $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-multi
programs: $(BUILD)/bin/coop-multi

# The tests run the program (test_multi; test_scripts, for a trace of two kernels) as subprocesses.
$(BUILD)/tests/test_multi $(BUILD)/tests/test_scripts: $(BUILD)/bin/coop-multi
