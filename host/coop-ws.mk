# coop-ws: the work-stealing apps, octree and game (host/coop-ws.c), and its test. Its programs
# are what coop-merge makes of apps/octree/octree.cl and apps/game/game.cl (with
# kernels/lib/ws_deque.h and the light task kernels/tasks/ws_light.cl), committed in
# kernels/generated/ (merges.txt; `make regenerate`); its checks are the apps' CPU references,
# apps/octree/octree_ref.c and apps/game/game_ref.c. Included after the Makefile: make -f Makefile -f host/coop-ws.mk build/bin/coop-ws

COOP_WS_PROGRAMS := octree_mega octree_standalone game_mega game_standalone

$(COOP_WS_PROGRAMS:%=$(BUILD)/gen/%_source.c): $(BUILD)/gen/%_source.c: kernels/generated/%.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

$(BUILD)/obj/host/coop-ws.o: $(COOP_WS_PROGRAMS:%=kernels/generated/%.h) kernels/lib/ws_layout.h | $(KERNEL_LIB)

$(BUILD)/bin/coop-ws: $(BUILD)/obj/host/coop-ws.o $(COOP_WS_PROGRAMS:%=$(BUILD)/obj/gen/%_source.o) \
    $(BUILD)/obj/apps/octree/octree_ref.o $(BUILD)/obj/apps/game/game_ref.o \
    $(call common,errors buffers device run json matmult_ref matmult_task stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-ws
programs: $(BUILD)/bin/coop-ws

# The test runs the program as a subprocess.
$(BUILD)/tests/test_ws: $(BUILD)/bin/coop-ws kernels/generated/ws_tree_standalone.h kernels/lib/ws_layout.h | $(KERNEL_LIB)
