/* trace-verify: the checks of tests/trace_check.h on trace files written elsewhere (the GPU
 * machine has no Check or jansson: its traces are brought back and checked here).
 *
 *     build/tests/trace-verify FILE.json...
 *
 * Each file must be a complete trace (nothing dropped) that passes every check test_trace makes
 * of its own runs, against the report the file holds. Exit status 0 when all pass, 1 otherwise;
 * Check's output names the file and the check that failed. */
#include "trace_check.h"

static char **files;

START_TEST(file_passes)
{
    tc_check_file(files[_i], files[_i]);
    printf("%s: passes\n", files[_i]);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fprintf(argc < 2 ? stderr : stdout, "Usage: %s FILE.json...\n", argv[0]);
        return argc < 2 ? 1 : 0;
    }
    files = argv + 1;
    Suite *suite = suite_create("trace-verify");
    TCase *tc = tcase_create("files");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, file_passes, 0, argc - 1);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}
