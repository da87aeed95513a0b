# coop-bench: BFS, SSSP, coloring, MIS and Bellman-Ford as cooperative, standalone and
# multikernel runs (host/coop-bench.c, kernels/bfs.cl, kernels/sssp.cl, kernels/lib/searches.cl,
# kernels/color.cl, kernels/mis.cl, kernels/sssp_bf.cl), its high-priority tasks (host/bench_task.c
# with kernels/tasks/matmult.cl and kernels/tasks/render.cl), and its test.
# Included after the Makefile: make -f Makefile -f host/coop-bench.mk build/bin/coop-bench

COOP_BENCH_OBJS := $(BUILD)/obj/host/coop-bench.o $(BUILD)/obj/host/bench_task.o \
    $(BUILD)/obj/host/common/reference.o $(BUILD)/obj/gen/coop_bench_bfs_source.o \
    $(BUILD)/obj/gen/coop_bench_sssp_source.o $(BUILD)/obj/gen/coop_bench_color_source.o \
    $(BUILD)/obj/gen/coop_bench_mis_source.o $(BUILD)/obj/gen/coop_bench_sssp_bf_source.o
# host/render.mk is included after this file: its objects are named here.
COOP_BENCH_RENDER_OBJS := $(BUILD)/obj/host/common/render_ref.o $(BUILD)/obj/host/common/image.o

# Each app's program is the tasks followed by the app.
COOP_BENCH_TASKS := kernels/tasks/render.cl kernels/tasks/matmult.cl

$(BUILD)/gen/coop_bench_bfs_source.c: $(COOP_BENCH_TASKS) kernels/lib/searches.cl kernels/bfs.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_bench_bfs_source $(filter %.cl,$^) > $@

$(BUILD)/gen/coop_bench_sssp_source.c: $(COOP_BENCH_TASKS) kernels/lib/searches.cl kernels/sssp.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_bench_sssp_source $(filter %.cl,$^) > $@

$(BUILD)/gen/coop_bench_color_source.c: $(COOP_BENCH_TASKS) kernels/lib/sweep_app.cl kernels/color.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_bench_color_source $(filter %.cl,$^) > $@

$(BUILD)/gen/coop_bench_mis_source.c: $(COOP_BENCH_TASKS) kernels/lib/sweep_app.cl kernels/mis.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_bench_mis_source $(filter %.cl,$^) > $@

$(BUILD)/gen/coop_bench_sssp_bf_source.c: $(COOP_BENCH_TASKS) kernels/lib/sweep_app.cl kernels/sssp_bf.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_bench_sssp_bf_source $(filter %.cl,$^) > $@

$(BUILD)/obj/host/coop-bench.o $(BUILD)/obj/host/common/reference.o: host/common/graph.h host/common/reference.h
$(BUILD)/obj/host/coop-bench.o $(BUILD)/obj/host/bench_task.o: host/bench_task.h
$(BUILD)/obj/host/bench_task.o: host/common/image.h host/common/render_ref.h

$(BUILD)/bin/coop-bench: $(COOP_BENCH_OBJS) $(COOP_BENCH_RENDER_OBJS) $(GRAPH_OBJ) $(JSON_OBJ) $(STATS_OBJ) \
    $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GRAPH_LIBS) $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-bench
programs: $(BUILD)/bin/coop-bench

# The tests run the program (and the scripts that drive it) as subprocesses.
$(BUILD)/tests/test_bench $(BUILD)/tests/test_scripts: $(BUILD)/bin/coop-bench
