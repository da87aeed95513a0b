# coop-ws: the work-stealing apps, octree and game (host/coop-ws.c with kernels/lib/ws_deque.cl,
# kernels/octree.cl and kernels/game.cl; their light task is kernels/tasks/matmult.cl), and its
# test. Included after the Makefile: make -f Makefile -f host/coop-ws.mk build/bin/coop-ws

COOP_WS_SOURCES := kernels/tasks/render.cl kernels/tasks/matmult.cl kernels/lib/ws_deque.cl kernels/octree.cl \
    kernels/game.cl

$(BUILD)/gen/coop_ws_source.c: $(COOP_WS_SOURCES) scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh coop_ws_source $(filter %.cl,$^) > $@

$(BUILD)/bin/coop-ws: $(BUILD)/obj/host/coop-ws.o $(BUILD)/obj/gen/coop_ws_source.o $(JSON_OBJ) $(STATS_OBJ) \
    $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-ws
programs: $(BUILD)/bin/coop-ws

# The test runs the program as a subprocess.
$(BUILD)/tests/test_ws: $(BUILD)/bin/coop-ws
