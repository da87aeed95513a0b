# coop-path: the recursion study on the path tracer (host/coop-path.c) and its test. Its programs
# are what coop-merge makes of apps/path/path_loop.cl, path_wave.cl and path_queue.cl, standalone
# and beside the matmult task (kernels/tasks/matmult.cl), committed in kernels/generated/
# (merges.txt; `make regenerate`), and apps/path/path_plain.cl, ordinary kernels built as written
# (path.h inlined); its check is apps/path/path_ref.c, path.h compiled as C. Included after the
# Makefile.

COOP_PATH_PROGRAMS := path_loop_standalone path_loop_matmult_mega path_wave_standalone path_wave_matmult_mega \
    path_queue_standalone path_queue_matmult_mega

$(COOP_PATH_PROGRAMS:%=$(BUILD)/gen/%_source.c): $(BUILD)/gen/%_source.c: kernels/generated/%.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

$(BUILD)/gen/path_plain_source.c: apps/path/path_plain.cl apps/path/path.h scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh -i path_plain_source $< > $@

$(BUILD)/obj/apps/path/path_ref.o: apps/path/path.h

$(BUILD)/obj/host/coop-path.o: $(COOP_PATH_PROGRAMS:%=kernels/generated/%.h) kernels/lib/ws_layout.h | $(KERNEL_LIB)

$(BUILD)/bin/coop-path: $(BUILD)/obj/host/coop-path.o $(COOP_PATH_PROGRAMS:%=$(BUILD)/obj/gen/%_source.o) \
    $(BUILD)/obj/gen/path_plain_source.o $(BUILD)/obj/apps/path/path_ref.o \
    $(call common,errors buffers clock device json run matmult_ref matmult_task stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-path
programs: $(BUILD)/bin/coop-path

# The test runs the program as a subprocess, and calls the check (path_ref.c) itself: the tests'
# pattern rule with the reference linked in.
$(BUILD)/tests/test_path: tests/test_path.c tests/testutil.h $(BUILD)/obj/apps/path/path_ref.o $(LIBA) \
    $(BUILD)/bin/coop-path
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -Ilibcoop/src -Iapps -o $@ $< $(BUILD)/obj/apps/path/path_ref.o $(LIBA) \
	    $(CHECK_LIBS) $(LDLIBS)
