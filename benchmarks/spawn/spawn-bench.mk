# spawn-bench: how soon a task spawned on the device starts (benchmarks/spawn/spawn-bench.c). Its
# program is what coop-merge makes of benchmarks/spawn/spawner.cl with the task spawned.cl,
# committed in kernels/generated/ (merges.txt; `make regenerate`). Included after the Makefile.

$(BUILD)/gen/spawner_mega_source.c: kernels/generated/spawner_mega.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh spawner_mega_source $< > $@

$(BUILD)/obj/benchmarks/spawn/spawn-bench.o: kernels/generated/spawner_mega.h

$(BUILD)/bin/spawn-bench: $(BUILD)/obj/benchmarks/spawn/spawn-bench.o $(BUILD)/obj/gen/spawner_mega_source.o \
    $(call common,errors buffers device stats) $(CLI_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# `programs` read PROGRAMS before this file; install reads it when it runs.
PROGRAMS += $(BUILD)/bin/spawn-bench
programs: $(BUILD)/bin/spawn-bench
