/* test_examples.c: the tutorial's program (host/examples/components.c) on PoCL: connected
 * components by label propagation with resizing_global_barrier_any(), merged with a periodic
 * task, equal to a CPU union-find under chaos; its arguments and exit statuses. */
#include "testutil.h"

#define COMPONENTS "build/bin/components"
#define BUILD_IT "make"

enum { WORKERS = 3, SEEDS = 20 };

START_TEST(labels_equal_union_find_under_chaos)
{
    char seed[16], chaos[16];
    for (unsigned s = 0; s <= SEEDS; s++) {
        snprintf(seed, sizeof seed, "%u", s + 1);
        snprintf(chaos, sizeof chaos, "%u", s);
        /* chaos seed 0 is no chaos: the first run has only the task's kills and forks */
        tu_process run = s ? tu_run_program(COMPONENTS, BUILD_IT, WORKERS, "--nodes", "3000", "--edges", "2400",
                                            "--seed", seed, "--chaos", chaos, NULL)
                           : tu_run_program(COMPONENTS, BUILD_IT, WORKERS, "--nodes", "3000", "--edges", "2400",
                                            "--seed", seed, NULL);
        ck_assert_msg(run.status == 0, "chaos %u: status %d: %s", s, run.status, run.output);
        ck_assert_msg(strstr(run.output, "labels equal to the CPU's") && !strstr(run.output, "missed"),
                      "chaos %u: %s", s, run.output);
        free(run.output);
    }
}
END_TEST

/* A bad argument is refused with status 1 and a message that names it. */
static const struct {
    const char *args[5];
    const char *message;
} refused[] = {
    {{"--nodes", "0"}, "--nodes needs a whole number from 1 to 50000000, not '0'"},
    {{"--nodes", "5abc"}, "--nodes needs a whole number from 1 to 50000000, not '5abc'"},
    {{"--edges", "-3"}, "--edges needs a whole number from 0 to 200000000, not '-3'"},
    {{"--period-ms", "99999999999999999999"}, "--period-ms needs a whole number from 1 to 60000"},
    {{"--chaos"}, "--chaos needs a whole number from 1 to 4294967295, not ''"},
    {{"--frobnicate"}, "unknown argument '--frobnicate'"},
    /* what strtoul() alone takes */
    {{"--nodes", " 200"}, "--nodes needs a whole number from 1 to 50000000, not ' 200'"},
    {{"--edges", "+150"}, "--edges needs a whole number from 0 to 200000000, not '+150'"},
    {{"--seed", "2", "--seed", "3"}, "--seed given twice ('2', then '3'); give it once"},
};

START_TEST(bad_arguments_are_refused)
{
    tu_process run = tu_run_program(COMPONENTS, BUILD_IT, WORKERS, refused[_i].args[0], refused[_i].args[1],
                                    refused[_i].args[2], refused[_i].args[3], NULL);
    ck_assert_msg(run.status == 1, "%s: status %d: %s", refused[_i].args[0], run.status, run.output);
    ck_assert_msg(strstr(run.output, refused[_i].message), "%s: %s", refused[_i].args[0], run.output);
    free(run.output);
}
END_TEST

START_TEST(help_explains_every_option)
{
    tu_process run = tu_run_program(COMPONENTS, BUILD_IT, WORKERS, "--help", NULL);
    ck_assert_int_eq(run.status, 0);
    static const char *const options[] = {"--nodes", "--edges", "--seed", "--period-ms", "--task-groups",
                                          "--chaos", "--version", "Exit status"};
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        ck_assert_msg(strstr(run.output, options[i]), "--help does not mention %s: %s", options[i], run.output);
    free(run.output);
    run = tu_run_program(COMPONENTS, BUILD_IT, WORKERS, "--version", NULL);
    ck_assert_int_eq(run.status, 0);
    char version[64];
    snprintf(version, sizeof version, "components (libcoop) %s\n", coop_version());
    ck_assert_str_eq(run.output, version);
    free(run.output);
}
END_TEST

static Suite *examples_suite(void)
{
    Suite *suite = suite_create("examples");
    TCase *components = tcase_create("components");
    tcase_set_timeout(components, 600);
    tcase_add_test(components, labels_equal_union_find_under_chaos);
    tcase_add_loop_test(components, bad_arguments_are_refused, 0, (int)(sizeof refused / sizeof *refused));
    tcase_add_test(components, help_explains_every_option);
    suite_add_tcase(suite, components);
    return suite;
}

int main(void)
{
    return tu_run(examples_suite());
}
