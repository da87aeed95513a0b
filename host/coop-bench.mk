# coop-bench: BFS, SSSP, coloring, MIS and Bellman-Ford as cooperative, standalone and
# multikernel runs (host/coop-bench.c), its high-priority tasks (host/bench_task.c), and its test.
# Its apps are in apps/ (apps/README.md): the programs coop-merge made of bfs.cl, bfs_searches.cl,
# sssp.cl, sssp_searches.cl, color.cl, mis.cl and sssp_bf.cl with kernels/tasks/matmult.cl and
# render.cl (kernels/generated/, listed in merges.txt), the multikernel steps apps/APP/APP_step.cl,
# and the CPU references apps/APP/APP_ref.c (sssp's for sssp-bf too). The tasks as ordinary kernels
# are kernels/tasks/plain.cl.
# Included after the Makefile: make -f Makefile -f host/coop-bench.mk build/bin/coop-bench

COOP_BENCH_GENERATED := $(foreach app,bfs bfs_searches sssp sssp_searches color mis sssp_bf,\
    $(foreach form,standalone mega matmult_mega render_mega,$(app)_$(form)))
COOP_BENCH_STEPS := bfs sssp color mis sssp_bf

COOP_BENCH_OBJS := $(BUILD)/obj/host/coop-bench.o $(BUILD)/obj/host/bench_task.o \
    $(foreach app,bfs sssp color mis,$(BUILD)/obj/apps/$(app)/$(app)_ref.o) \
    $(COOP_BENCH_GENERATED:%=$(BUILD)/obj/gen/%_source.o) \
    $(COOP_BENCH_STEPS:%=$(BUILD)/obj/gen/%_step_source.o) $(BUILD)/obj/gen/bench_tasks_plain_source.o
# host/render.mk is included after this file: its objects are named here.
COOP_BENCH_RENDER_OBJS := $(BUILD)/obj/host/common/render_ref.o $(BUILD)/obj/host/common/image.o

# A merged program's text, from kernels/generated/ (no coop-merge needed).
$(COOP_BENCH_GENERATED:%=$(BUILD)/gen/%_source.c): $(BUILD)/gen/%_source.c: $(GENERATED)/%.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

# The plain kernels, with the headers they include pasted in: the app's own beside the step, the
# kernel library's (expand.h...) from kernels/lib.
define coop_bench_step
$(BUILD)/gen/$(1)_step_source.c: $(2)/$(1)_step.cl $(wildcard $(2)/*.h) $(KERNEL_LIB_HEADERS) scripts/embed.sh
	@mkdir -p $$(@D)
	sh scripts/embed.sh -i -I kernels/lib $(1)_step_source $$< > $$@
endef
$(foreach app,$(COOP_BENCH_STEPS),$(eval $(call coop_bench_step,$(app),apps/$(app))))

$(BUILD)/gen/bench_tasks_plain_source.c: kernels/tasks/plain.cl kernels/tasks/matmult.h kernels/tasks/render.h \
    scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh -i bench_tasks_plain_source $< > $@

$(BUILD)/obj/host/coop-bench.o: host/common/graph.h
$(BUILD)/obj/host/coop-bench.o $(BUILD)/obj/host/bench_task.o: host/bench_task.h
$(BUILD)/obj/host/coop-bench.o: $(COOP_BENCH_GENERATED:%=$(GENERATED)/%.h)
$(BUILD)/obj/host/coop-bench.o: HOST_CFLAGS += -I$(GENERATED)
$(BUILD)/obj/host/bench_task.o: host/common/image.h host/common/render_ref.h

$(BUILD)/bin/coop-bench: $(COOP_BENCH_OBJS) $(COOP_BENCH_RENDER_OBJS) $(GRAPH_OBJS) \
    $(call common,errors buffers device run graph_input clock json matmult_ref stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GRAPH_LIBS) $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-bench
programs: $(BUILD)/bin/coop-bench

# The tests run the program (and the scripts that drive it) as subprocesses.
$(BUILD)/tests/test_bench $(BUILD)/tests/test_scripts: $(BUILD)/bin/coop-bench
