# coop-bench: BFS and SSSP as cooperative, standalone and multikernel runs (host/coop-bench.c,
# kernels/bfs.cl, kernels/sssp.cl, the task in kernels/tasks/matmult.cl), and its test.
# Included after the Makefile: make -f Makefile -f host/coop-bench.mk build/bin/coop-bench

COOP_BENCH_OBJS := $(BUILD)/obj/host/coop-bench.o $(BUILD)/obj/host/common/reference.o \
    $(BUILD)/obj/gen/coop_bench_bfs_source.o $(BUILD)/obj/gen/coop_bench_sssp_source.o

# Each app's program is the task followed by the app.
$(BUILD)/gen/coop_bench_bfs_source.c: kernels/tasks/matmult.cl kernels/bfs.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_bench_bfs_source $(filter %.cl,$^) > $@

$(BUILD)/gen/coop_bench_sssp_source.c: kernels/tasks/matmult.cl kernels/sssp.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_bench_sssp_source $(filter %.cl,$^) > $@

$(BUILD)/obj/host/coop-bench.o $(BUILD)/obj/host/common/reference.o: host/common/graph.h host/common/reference.h

$(BUILD)/bin/coop-bench: $(COOP_BENCH_OBJS) $(GRAPH_OBJ) $(JSON_OBJ) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GRAPH_LIBS) $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-bench
programs: $(BUILD)/bin/coop-bench

# The test runs the program as a subprocess.
$(BUILD)/tests/test_bench: $(BUILD)/bin/coop-bench
