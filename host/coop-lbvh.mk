# coop-lbvh: the LBVH build (host/coop-lbvh.c) and its test. Its programs are what coop-merge makes
# of apps/lbvh/lbvh.cl, standalone and beside the matmult task (kernels/tasks/matmult.cl),
# committed in kernels/generated/ (merges.txt; `make regenerate`), and the chain baseline
# apps/lbvh/lbvh_step.cl, an ordinary kernel built as written (lbvh.h inlined); its checks are
# apps/lbvh/lbvh_ref.c. Included after the Makefile.

COOP_LBVH_PROGRAMS := lbvh_standalone lbvh_matmult_mega

$(COOP_LBVH_PROGRAMS:%=$(BUILD)/gen/%_source.c): $(BUILD)/gen/%_source.c: kernels/generated/%.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

$(BUILD)/gen/lbvh_step_source.c: apps/lbvh/lbvh_step.cl apps/lbvh/lbvh.h scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh -i lbvh_step_source $< > $@

$(BUILD)/obj/host/coop-lbvh.o: $(COOP_LBVH_PROGRAMS:%=kernels/generated/%.h) host/common/mesh.h

$(BUILD)/bin/coop-lbvh: $(BUILD)/obj/host/coop-lbvh.o $(COOP_LBVH_PROGRAMS:%=$(BUILD)/obj/gen/%_source.o) \
    $(BUILD)/obj/gen/lbvh_step_source.o $(BUILD)/obj/apps/lbvh/lbvh_ref.o \
    $(call common,errors buffers clock device json run matmult_ref matmult_task mesh stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-lbvh
programs: $(BUILD)/bin/coop-lbvh

# The test runs the program as a subprocess, and calls the checks (lbvh_ref.c) itself: the
# tests' pattern rule with the reference linked in.
$(BUILD)/tests/test_lbvh: tests/test_lbvh.c tests/testutil.h $(BUILD)/obj/apps/lbvh/lbvh_ref.o $(LIBA) \
    $(BUILD)/bin/coop-lbvh
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -Ilibcoop/src -Iapps -o $@ $< $(BUILD)/obj/apps/lbvh/lbvh_ref.o $(LIBA) \
	    $(CHECK_LIBS) $(LDLIBS)
