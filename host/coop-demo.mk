# coop-demo: `make demo`'s program (host/coop-demo.c): BFS from one source after another
# (apps/demo/demo.cl, on apps/bfs/bfs.h) beside the render task (kernels/tasks/render.cl),
# cooperative and not, and its test. Its kernels are the programs coop-merge made of them
# (kernels/generated/demo_mega.cl and demo_standalone.cl, listed in merges.txt) and the render
# task as an ordinary kernel (kernels/tasks/plain.cl, which coop-bench.mk embeds); its check is
# BFS's CPU reference (apps/bfs/bfs_ref.c). scripts/demo-plot draws its CSV.
# Included after the Makefile: make -f Makefile -f host/coop-demo.mk build/bin/coop-demo

COOP_DEMO_GENERATED := demo_mega demo_standalone
COOP_DEMO_OBJS := $(BUILD)/obj/host/coop-demo.o $(BUILD)/obj/apps/bfs/bfs_ref.o \
    $(BUILD)/obj/host/common/image.o $(COOP_DEMO_GENERATED:%=$(BUILD)/obj/gen/%_source.o) \
    $(BUILD)/obj/gen/bench_tasks_plain_source.o

$(COOP_DEMO_GENERATED:%=$(BUILD)/gen/%_source.c): $(BUILD)/gen/%_source.c: $(GENERATED)/%.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

$(BUILD)/obj/host/coop-demo.o: host/common/graph.h apps/bfs/bfs_ref.h host/common/image.h \
    $(COOP_DEMO_GENERATED:%=$(GENERATED)/%.h)
$(BUILD)/obj/host/coop-demo.o: HOST_CFLAGS += -I$(GENERATED)

$(BUILD)/bin/coop-demo: $(COOP_DEMO_OBJS) $(GRAPH_OBJS) \
    $(call common,errors buffers device run graph_input clock stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GRAPH_LIBS) $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-demo
programs: $(BUILD)/bin/coop-demo

# The test runs the program as a subprocess.
$(BUILD)/tests/test_demo: $(BUILD)/bin/coop-demo
