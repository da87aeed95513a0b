/* test_env.c: the environment variables libcoop reads (libcoop/src/env.c). A malformed value
 * makes the call that reads it fail with COOP_ERR_INVALID_ARGUMENT and a message naming the
 * variable and what it accepts (it used to be ignored: COOP_CHAOS=notanumber turned chaos off,
 * COOP_TIMEOUT_S=-3 meant 60 s); an empty one is unset; a field the caller sets wins, and the
 * variable is then not read; and env.c is the only file of libcoop that calls getenv. */
#include "testutil.h"

#include <dirent.h>

/* A persistent kernel that ends at once, and a megakernel whose members finish at once. */
static const char quick_source[] =
    "kernel void quick(COOP_PARAMS)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "}\n"
    "kernel void mega(COOP_PARAMS)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx))\n"
    "        COOP_GROUP_SYNC();\n"
    "}\n";

/* The call that reads the variable. */
typedef enum env_call { CALL_CONTEXT, CALL_BUILD, CALL_RUN, CALL_MEGA } env_call;

static const struct {
    const char *variable, *value;
    env_call call;
    const char *message;
} bad_values[] = {
    {"COOP_TIMEOUT_S", "-3", CALL_RUN,
     "environment: COOP_TIMEOUT_S: '-3' is negative; expected a number greater than 0 and at most 1e+06"},
    {"COOP_TIMEOUT_S", "x", CALL_RUN,
     "environment: COOP_TIMEOUT_S: 'x' is not a number; expected a number greater than 0 and at most 1e+06"},
    {"COOP_TIMEOUT_S", "0", CALL_RUN,
     "environment: COOP_TIMEOUT_S: '0' is out of range; expected a number greater than 0 and at most 1e+06"},
    {"COOP_TIMEOUT_S", "5s", CALL_RUN,
     "environment: COOP_TIMEOUT_S: '5s' is not a number; expected a number greater than 0 and at most 1e+06"},
    {"COOP_DISCOVERY_WINDOW_US", "-5", CALL_RUN,
     "environment: COOP_DISCOVERY_WINDOW_US: '-5' is negative; expected a number greater than 0 and at most 1e+09"},
    {"COOP_DISCOVERY_WINDOW_US", "1e10", CALL_RUN,
     "environment: COOP_DISCOVERY_WINDOW_US: '1e10' is out of range; expected a number greater than 0 and at most "
     "1e+09"},
    {"COOP_WATCHDOG_S", "x", CALL_MEGA,
     "environment: COOP_WATCHDOG_S: 'x' is not a number; expected a number greater than 0 and at most 1e+06"},
    {"COOP_WATCHDOG_S", "-1", CALL_MEGA,
     "environment: COOP_WATCHDOG_S: '-1' is negative; expected a number greater than 0 and at most 1e+06"},
    {"COOP_CHAOS", "notanumber", CALL_MEGA,
     "environment: COOP_CHAOS: 'notanumber' is not a whole number; expected a whole number from 0 to 4294967295"},
    {"COOP_CHAOS", "-1", CALL_MEGA,
     "environment: COOP_CHAOS: '-1' is negative; expected a whole number from 0 to 4294967295"},
    {"COOP_CHAOS", "4294967297", CALL_MEGA,
     "environment: COOP_CHAOS: '4294967297' is out of range; expected a whole number from 0 to 4294967295"},
    {"COOP_TRACE", "yes", CALL_MEGA,
     "environment: COOP_TRACE: 'yes' is not a whole number; expected a whole number from 0 to 1"},
    {"COOP_BUILD_LOG", "2", CALL_BUILD,
     "environment: COOP_BUILD_LOG: '2' is out of range; expected a whole number from 0 to 1"},
    {"COOP_CHANNEL", "pigeon", CALL_CONTEXT,
     "environment: COOP_CHANNEL: 'pigeon' is not a channel backend; expected svm, nvhost, queue or auto (any case)"},
    {"COOP_DEVICE", "99999999999", CALL_CONTEXT,
     "COOP_DEVICE: '99999999999' is out of range; expected a whole number from 0 to 4294967295 (an index, or a part "
     "of the name)"},
    {"COOP_PLATFORM", "4294967296", CALL_CONTEXT,
     "COOP_PLATFORM: '4294967296' is out of range; expected a whole number from 0 to 4294967295 (an index, or a "
     "part of the name)"},
};
enum { BAD_VALUES = sizeof bad_values / sizeof bad_values[0] };

/* Sets the variable, makes the calls up to the one that reads it, and checks that one's status
 * and message. */
START_TEST(bad_value_names_the_variable)
{
    tu_env(2);
    setenv(bad_values[_i].variable, bad_values[_i].value, 1);
    env_call call = bad_values[_i].call;
    coop_context *ctx = NULL;
    coop_status status = coop_context_create(NULL, &ctx);
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    if (call > CALL_CONTEXT) {
        TU_ASSERT_OK(ctx, status);
        status = coop_program_create(ctx, quick_source, NULL, &program);
    }
    if (call > CALL_BUILD) {
        TU_ASSERT_OK(ctx, status);
        TU_ASSERT_OK(ctx, coop_kernel_create(program, call == CALL_RUN ? "quick" : "mega", &kernel));
        coop_launch launch = {.local_size = 16};
        coop_mega_params params = {.launch = launch};
        coop_mega_report report;
        status = call == CALL_RUN ? coop_kernel_run(kernel, &launch, NULL)
                                  : coop_mega_run(kernel, &params, NULL, 0, &report);
    }
    ck_assert_msg(status == COOP_ERR_INVALID_ARGUMENT, "%s=%s: status '%s' (%s)", bad_values[_i].variable,
                  bad_values[_i].value, coop_strerror(status), coop_context_message(ctx));
    ck_assert_str_eq(coop_context_message(ctx), bad_values[_i].message);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* An empty variable is unset: the defaults apply and the calls succeed. */
START_TEST(empty_is_unset)
{
    tu_env(2);
    static const char *const variables[] = {"COOP_PLATFORM", "COOP_DEVICE", "COOP_CHANNEL", "COOP_TIMEOUT_S",
                                            "COOP_DISCOVERY_WINDOW_US", "COOP_WATCHDOG_S", "COOP_CHAOS",
                                            "COOP_TRACE", "COOP_BUILD_LOG", "COOP_BUILD_OPTIONS", "COOP_BUILD_DUMP"};
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        setenv(variables[i], "", 1);
    coop_context *ctx = NULL;
    TU_ASSERT_OK(ctx, coop_context_create(NULL, &ctx));
    coop_program *program = NULL;
    coop_kernel *quick = tu_kernel(ctx, quick_source, NULL, "quick", &program), *mega = NULL;
    TU_ASSERT_OK(ctx, coop_kernel_create(program, "mega", &mega));
    coop_launch launch = {.local_size = 16};
    TU_ASSERT_OK(ctx, coop_kernel_run(quick, &launch, NULL));
    coop_mega_params params = {.launch = launch};
    coop_mega_report report;
    TU_ASSERT_OK(ctx, coop_mega_run(mega, &params, NULL, 0, &report));
    coop_mega_report_free(&report);
    coop_kernel_release(quick);
    coop_kernel_release(mega);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* A field the caller sets is used, and the variable it stands for is not even read. */
START_TEST(fields_win_over_the_environment)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *quick = tu_kernel(ctx, quick_source, NULL, "quick", &program), *mega = NULL;
    TU_ASSERT_OK(ctx, coop_kernel_create(program, "mega", &mega));
    setenv("COOP_TIMEOUT_S", "x", 1);
    setenv("COOP_DISCOVERY_WINDOW_US", "x", 1);
    setenv("COOP_WATCHDOG_S", "x", 1);
    setenv("COOP_CHAOS", "x", 1);
    coop_launch launch = {.local_size = 16, .timeout_s = 60, .discovery_window_us = 20000};
    TU_ASSERT_OK(ctx, coop_kernel_run(quick, &launch, NULL));
    coop_mega_params params = {.launch = launch, .chaos_seed = 3, .watchdog_s = 10};
    coop_mega_report report;
    TU_ASSERT_OK(ctx, coop_mega_run(mega, &params, NULL, 0, &report));
    coop_mega_report_free(&report);
    coop_kernel_release(quick);
    coop_kernel_release(mega);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* "Read in one place": no file of libcoop but env.c calls getenv. */
START_TEST(only_env_c_reads_the_environment)
{
    DIR *dir = opendir("libcoop/src");
    ck_assert_msg(dir != NULL, "libcoop/src is missing: run the tests from the repository root");
    unsigned files = 0;
    for (struct dirent *entry = readdir(dir); entry; entry = readdir(dir)) {
        size_t length = strlen(entry->d_name);
        if (length < 3 || strcmp(entry->d_name + length - 2, ".c") != 0)
            continue;
        char path[300];
        snprintf(path, sizeof path, "libcoop/src/%s", entry->d_name);
        char *text = tu_read_file(path, NULL);
        int reads = strstr(text, "getenv(") != NULL;
        free(text);
        files++;
        if (strcmp(entry->d_name, "env.c") == 0)
            ck_assert_msg(reads, "env.c does not call getenv");
        else
            ck_assert_msg(!reads, "%s calls getenv: read the environment through env.c", path);
    }
    closedir(dir);
    ck_assert_uint_gt(files, 5);
}
END_TEST

static Suite *env_suite(void)
{
    Suite *suite = suite_create("env");
    TCase *values = tu_tcase("values", 120);
    tcase_add_loop_test(values, bad_value_names_the_variable, 0, BAD_VALUES);
    tcase_add_test(values, empty_is_unset);
    tcase_add_test(values, fields_win_over_the_environment);
    suite_add_tcase(suite, values);
    TCase *source = tcase_create("source");
    tcase_add_test(source, only_env_c_reads_the_environment);
    suite_add_tcase(suite, source);
    return suite;
}

int main(void)
{
    return tu_run(env_suite());
}
