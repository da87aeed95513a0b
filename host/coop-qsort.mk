# coop-qsort: the quicksort whose recursion is spawned tasks (host/coop-qsort.c) and its test. Its
# programs are what coop-merge makes of apps/qsort/qsort.cl with its tasks (qsort_tasks.cl), alone
# and beside the matmult task (kernels/tasks/matmult.cl), and of the radix baseline (radix.cl),
# committed in kernels/generated/ (merges.txt; `make regenerate`). Included after the Makefile.

COOP_QSORT_PROGRAMS := qsort_mega qsort_matmult_mega qsort_radix_standalone

$(COOP_QSORT_PROGRAMS:%=$(BUILD)/gen/%_source.c): $(BUILD)/gen/%_source.c: kernels/generated/%.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $*_source $< > $@

$(BUILD)/obj/host/coop-qsort.o: $(COOP_QSORT_PROGRAMS:%=kernels/generated/%.h)

$(BUILD)/bin/coop-qsort: $(BUILD)/obj/host/coop-qsort.o $(COOP_QSORT_PROGRAMS:%=$(BUILD)/obj/gen/%_source.o) \
    $(call common,errors buffers clock device json run matmult_ref matmult_task stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/coop-qsort
programs: $(BUILD)/bin/coop-qsort

# The test runs the program as a subprocess.
$(BUILD)/tests/test_qsort: $(BUILD)/bin/coop-qsort
