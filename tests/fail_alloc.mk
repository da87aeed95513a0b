# ---- Allocation failures (tests/test_alloc_failures.c) -------------------------------------
# coop-merge and a libcoop program built with AddressSanitizer (its leak check included) and
# tests/tools/fail_alloc.c, which fails their Nth allocation when COOP_FAIL_ALLOC=N. The test
# runs every N up to a bound; `make fail-alloc-sweep` runs every N until a run succeeds.
FAIL_ALLOC_WRAP := $(foreach f,malloc calloc realloc strdup strndup,-Wl,--wrap=$(f))
FAIL_ALLOC_OBJ := $(BUILD)/obj/fail-alloc/fail_alloc.o
FAIL_ALLOC_CL_OBJ := $(BUILD)/obj/fail-alloc/fail_alloc_cl.o

$(FAIL_ALLOC_OBJ): tests/tools/fail_alloc.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) -c $< -o $@

$(FAIL_ALLOC_CL_OBJ): tests/tools/fail_alloc.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) -DFAIL_ALLOC_OPENCL -c $< -o $@

$(BUILD)/bin/coop-merge-fail-alloc: $(MERGE_ASAN_OBJS) $(MERGE_ASAN_OUTPUT_OBJS) $(BUILD)/obj/gen/kernel_header.o \
    $(FAIL_ALLOC_OBJ)
	@mkdir -p $(@D)
	$(CC) $(SANITIZE) $(FAIL_ALLOC_WRAP) -o $@ $^ $(MERGE_LIBS)

$(BUILD)/tests/test_alloc_failures: $(BUILD)/bin/coop-merge-fail-alloc

fail-alloc-sweep: $(BUILD)/tests/test_alloc_failures
	COOP_FAIL_ALLOC_ALL=1 sh tests/run-tests.sh $<

.PHONY: fail-alloc-sweep

# libcoop's objects again, with the sanitizers, for tests/tools/fail-alloc-run.c.
FAIL_ALLOC_LIB_OBJS := $(LIB_SRCS:libcoop/src/%.c=$(BUILD)/obj/libcoop-asan/%.o) $(BUILD)/obj/gen/kernel_header.o \
    $(BUILD)/obj/gen/selftest_source.o $(BUILD)/obj/gen/echo_source.o

$(BUILD)/obj/libcoop-asan/%.o: libcoop/src/%.c $(LIB_HEADERS) libcoop/src/internal.h libcoop/src/discovery.h \
    libcoop/src/json_text.h libcoop/src/strict.h libcoop/src/trace.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) $(LIB_CFLAGS) -Ilibcoop/src -c $< -o $@

$(BUILD)/tests/fail-alloc-run: tests/tools/fail-alloc-run.c $(FAIL_ALLOC_LIB_OBJS) $(FAIL_ALLOC_CL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANITIZE) $(FAIL_ALLOC_WRAP) -Wl,--wrap=clCreateBuffer -o $@ $< $(FAIL_ALLOC_LIB_OBJS) \
	    $(FAIL_ALLOC_CL_OBJ) $(LDLIBS)

$(BUILD)/tests/test_alloc_failures: $(BUILD)/tests/fail-alloc-run

# The same run built plainly, for test_scheduler's check of PoCL's worker stack.
$(BUILD)/tests/by-hand-run: tests/tools/fail-alloc-run.c $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

$(BUILD)/tests/test_scheduler: $(BUILD)/tests/by-hand-run
