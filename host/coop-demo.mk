# coop-demo: `make demo`'s program (host/coop-demo.c): BFS (kernels/bfs.cl) beside the render task
# (kernels/tasks/render.cl), cooperative and not, and its test. scripts/demo-plot draws its CSV.
# Included after the Makefile: make -f Makefile -f host/coop-demo.mk build/bin/coop-demo

COOP_DEMO_OBJS := $(BUILD)/obj/host/coop-demo.o $(BUILD)/obj/host/common/reference.o \
    $(BUILD)/obj/host/common/image.o $(BUILD)/obj/gen/coop_demo_source.o

# In coop-bench's order (bfs.cl's own megakernel calls matmult.cl's task, which calls render.cl's);
# the program's glue (the searches and the megakernel) is in coop-demo.c.
$(BUILD)/gen/coop_demo_source.c: kernels/tasks/render.cl kernels/tasks/matmult.cl kernels/bfs.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_demo_source $(filter %.cl,$^) > $@

$(BUILD)/obj/host/coop-demo.o: host/common/graph.h host/common/reference.h host/common/image.h

$(BUILD)/bin/coop-demo: $(COOP_DEMO_OBJS) $(GRAPH_OBJ) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GRAPH_LIBS) $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-demo
programs: $(BUILD)/bin/coop-demo

# The test runs the program as a subprocess.
$(BUILD)/tests/test_demo: $(BUILD)/bin/coop-demo
