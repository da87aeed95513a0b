/* Tests of build/bin/coop-litmus (host/coop-litmus.c with kernels/litmus.cl) on PoCL: with the
 * header's fences no weak outcome appears, every test ran its instances, and bad arguments are
 * refused. The program runs as a subprocess, from the repository root. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define LITMUS "build/bin/coop-litmus"

/* Runs `command`, returns its exit status and fills `out` with its standard output. */
static int run(const char *command, char *out, size_t size)
{
    FILE *pipe = popen(command, "r");
    ck_assert_msg(pipe != NULL, "cannot run %s", command);
    size_t used = fread(out, 1, size - 1, pipe);
    out[used] = '\0';
    int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The value after `"key": ` in `line`, or -1. */
static long field(const char *line, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    const char *at = strstr(line, pattern);
    return at ? strtol(at + strlen(pattern), NULL, 10) : -1;
}

/* A test needs two co-resident groups. Discovery finds them within its default window on a quiet
 * machine; on a busy one the second worker may get its time slice later, so the window is a
 * second (each of the six runs waits it out: coop-litmus launches more groups than can run). */
START_TEST(fenced_tests_show_no_weak_outcome)
{
    static char out[8192];
    int status = run("POCL_MAX_PTHREAD_COUNT=2 COOP_DISCOVERY_WINDOW_US=1000000 " LITMUS
                     " --json --iterations 300 2>/dev/null",
                     out, sizeof out);
    ck_assert_int_eq(status, 0);
    int fenced = 0, plain = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strstr(line, "\"test\""))
            continue;
        ck_assert_int_eq(field(line, "instances"), 300L * 64);
        if (strstr(line, "\"fenced\": true")) {
            fenced++;
            ck_assert_msg(field(line, "weak") == 0, "fenced test with weak outcomes: %s", line);
        } else {
            plain++;
            ck_assert_int_ge(field(line, "weak"), 0);
        }
    }
    ck_assert_int_eq(fenced, 3);
    ck_assert_int_eq(plain, 3);
}
END_TEST

START_TEST(bad_arguments_are_refused)
{
    static char out[8192];
    ck_assert_int_eq(run(LITMUS " --iterations 0 2>&1", out, sizeof out), 1);
    ck_assert_ptr_nonnull(strstr(out, "--iterations: '0' is out of range; expected a whole number from 1 to 10000000"));
    ck_assert_ptr_nonnull(strstr(out, "Usage: coop-litmus"));
    ck_assert_int_eq(run(LITMUS " --test xy 2>&1", out, sizeof out), 1);
    ck_assert_ptr_nonnull(strstr(out, "--test: 'xy' is not a choice; expected mp, sb, lb or all"));
    ck_assert_ptr_nonnull(strstr(out, "Usage: coop-litmus"));
}
END_TEST

START_TEST(one_group_is_not_enough)
{
    static char out[8192];
    ck_assert_int_eq(run("POCL_MAX_PTHREAD_COUNT=1 " LITMUS " --iterations 10 2>&1", out, sizeof out), 1);
    ck_assert_ptr_nonnull(strstr(out, "needs 2"));
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("litmus");
    TCase *tc = tcase_create("litmus");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fenced_tests_show_no_weak_outcome);
    tcase_add_test(tc, bad_arguments_are_refused);
    tcase_add_test(tc, one_group_is_not_enough);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
