/* test_alloc_failures.c: every allocation of a run fails in turn, SQLite's way. coop-merge and a
 * libcoop program (tests/tools/fail-alloc-run.c: context, program, kernel, buffers, a traced
 * megakernel run with a task) are built with AddressSanitizer and tests/tools/fail_alloc.c,
 * which fails their Nth malloc/calloc/realloc/strdup/strndup (and clCreateBuffer) when
 * COOP_FAIL_ALLOC=N; only calls from the project's own objects count. Each run must end with its
 * error and message, no crash, no leak of ours (LeakSanitizer, tests/tools/fail_alloc.supp
 * leaving out PoCL's and LLVM's own), and no output file; N grows until an allocation N never
 * comes, and that run must succeed.
 * In `make check` N runs over every value up to DENSE_RUNS and every SPARSE_STRIDE-th after;
 * `make fail-alloc-sweep` (COOP_FAIL_ALLOC_ALL=1) runs every N. */
#include "testutil.h"

#include <dirent.h>

enum {
    DENSE_RUNS = 60,
    SPARSE_STRIDE = 5,
    MAX_ALLOCATIONS = 20000 /* far above a run's count: the loop stops at the run's end */
};

#define MERGE "build/bin/coop-merge-fail-alloc"
#define LIBCOOP_RUN "build/tests/fail-alloc-run"
/* PoCL's and LLVM's own leaks left out, and no table of them in the output */
#define LSAN_OPTIONS "suppressions=tests/tools/fail_alloc.supp:print_suppressions=0"

static unsigned next_n(unsigned n)
{
    return getenv("COOP_FAIL_ALLOC_ALL") || n < DENSE_RUNS ? n + 1 : n + SPARSE_STRIDE;
}

/* Runs argv with COOP_FAIL_ALLOC=n and checks the outcome: a failure (status 1, `message` in its
 * output, no sanitizer report) or, when allocation n never came, a success. Returns whether the
 * run was complete. */
static int run_failing(char *const argv[], unsigned n, const char *const messages[])
{
    char text[16];
    snprintf(text, sizeof text, "%u", n);
    setenv("COOP_FAIL_ALLOC", text, 1);
    tu_process run = tu_run_process(argv);
    unsetenv("COOP_FAIL_ALLOC");
    int complete = strstr(run.output, "never came") != NULL;
    ck_assert_msg(!strstr(run.output, "Sanitizer"), "%s, allocation %u failing: a sanitizer report:\n%s", argv[0],
                  n, run.output);
    if (complete) {
        ck_assert_msg(run.status == 0, "%s made fewer than %u allocations and exited with %d:\n%s", argv[0], n,
                      run.status, run.output);
    } else {
        ck_assert_msg(run.status == 1, "%s, allocation %u failing: exit status %d, expected 1:\n%s", argv[0], n,
                      run.status, run.output);
        int named = 0;
        for (size_t i = 0; messages[i]; i++)
            named |= strstr(run.output, messages[i]) != NULL;
        ck_assert_msg(named, "%s, allocation %u failing: the output names no shortage of memory:\n%s", argv[0], n,
                      run.output);
    }
    free(run.output);
    return complete;
}

/* Files in `folder` (no more than a few). */
static unsigned files_in(const char *folder)
{
    DIR *dir = opendir(folder);
    ck_assert_ptr_nonnull(dir);
    unsigned files = 0;
    for (struct dirent *entry; (entry = readdir(dir));)
        files += strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..");
    closedir(dir);
    return files;
}

/* coop-merge on the chaos example and its task, with a host header: "out of memory", exit 1, and
 * nothing written, not even a temporary file. */
START_TEST(merge_survives_every_allocation_failure)
{
    char folder[] = "/tmp/coop-fail-alloc-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(folder));
    char output[sizeof folder + 16], header[sizeof folder + 16];
    snprintf(output, sizeof output, "%s/out.cl", folder);
    snprintf(header, sizeof header, "%s/out.h", folder);
    char *argv[] = {MERGE, "kernels/examples/rounds.cl", "--task", "kernels/examples/fill.cl", "-o", output,
                    "--host-header", header, NULL};
    static const char *const messages[] = {"coop-merge: out of memory\n", NULL};
    setenv("LSAN_OPTIONS", LSAN_OPTIONS, 1);
    unsigned n = 1;
    for (; n < MAX_ALLOCATIONS; n = next_n(n)) {
        if (run_failing(argv, n, messages))
            break;
        ck_assert_msg(files_in(folder) == 0, "coop-merge, allocation %u failing, left files in %s", n, folder);
    }
    ck_assert_uint_lt(n, MAX_ALLOCATIONS);
    ck_assert_int_eq(unlink(output), 0);
    ck_assert_int_eq(unlink(header), 0);
    ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

/* libcoop from context to report, traced: each call fails with COOP_ERR_NO_MEMORY ("out of host
 * memory") and says what it was doing, or, for a buffer, with OpenCL's allocation failure; no
 * trace file is left. */
START_TEST(libcoop_survives_every_allocation_failure)
{
    char folder[] = "/tmp/coop-fail-alloc-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(folder));
    char trace[sizeof folder + 16];
    snprintf(trace, sizeof trace, "%s/trace.json", folder);
    char *argv[] = {LIBCOOP_RUN, "8", trace, NULL};
    static const char *const messages[] = {"out of host memory", "CL_MEM_OBJECT_ALLOCATION_FAILURE",
                                           "clCreateBuffer: error -4", NULL};
    tu_env(2);
    setenv("LSAN_OPTIONS", LSAN_OPTIONS, 1);
    unsigned n = 1;
    for (; n < MAX_ALLOCATIONS; n = next_n(n)) {
        if (run_failing(argv, n, messages))
            break;
        ck_assert_msg(access(trace, F_OK) != 0, "libcoop, allocation %u failing, left %s", n, trace);
    }
    ck_assert_uint_lt(n, MAX_ALLOCATIONS);
    ck_assert_int_eq(access(trace, F_OK), 0);
    ck_assert_int_eq(unlink(trace), 0);
    ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

static Suite *alloc_failures_suite(void)
{
    Suite *suite = suite_create("alloc_failures");
    TCase *each = tu_tcase("every allocation fails in turn", 900);
    tcase_add_test(each, merge_survives_every_allocation_failure);
    tcase_add_test(each, libcoop_survives_every_allocation_failure);
    suite_add_tcase(suite, each);
    return suite;
}

int main(void)
{
    return tu_run(alloc_failures_suite());
}
