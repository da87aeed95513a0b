/* test_qsort.c: coop-qsort (host/coop-qsort.c with apps/qsort/), run as a subprocess on PoCL: a
 * quicksort whose recursion is tasks spawned on the device sorts every distribution equal to the
 * CPU's qsort; the smallest recursion spawns exactly the procedures it should (one sort_part, whose
 * sides go to two small_sort runs); the cooperative form stays right under chaos seeds beside the
 * periodic matmult task; a full spawn queue (more ranges at once than the queue and the host hold)
 * and the depth limit are reached on purpose, and the groups that could not spawn sort those
 * ranges themselves, still right; the baseline that spawns nothing (a radix sort in one kernel)
 * sorts right too; bad arguments are refused with their message. scripts/qsort-study
 * runs its --quick subset (it needs python3-matplotlib, as test_scripts' scripts do).
 *
 * coop-qsort exits 2 when its keys differ from the CPU's sort (it compares every word with a
 * sorted copy: sorted and a permutation of the input at once) or when the spawns the kernel
 * counted differ from the runs the runtime recorded, so exit status 0 is the check. Run from the
 * repository root. */
#include "testutil.h"

#include <stdlib.h>
#include <unistd.h>

#define QSORT "build/bin/coop-qsort"

/* The chaos case runs on more PoCL workers, so that kills and forks change how many groups split
 * a level's partition. */
enum { WORKERS = 2, CHAOS_WORKERS = 4 };

#define run_qsort(...) tu_run_program(QSORT, "make " QSORT, WORKERS, __VA_ARGS__)

#define OK_END "keys equal to the CPU's sort: ok"

/* ---- Every distribution --------------------------------------------------------------------- */

/* Each distribution sorted right, two levels of the kernel's partition and a cut-off of 256, so
 * that every procedure runs; uniform keys spawn sort_part runs for certain (the kernel's four
 * ranges, all longer than the cut-off, and a queue of 16). */
START_TEST(every_distribution)
{
    static const char *const dists[] = {"uniform", "sorted", "reversed", "few-unique", "equal"};
    for (size_t i = 0; i < sizeof dists / sizeof dists[0]; i++) {
        tu_process run = run_qsort("--n", "20000", "--dist", dists[i], "--mode", "standalone", "--levels", "2",
                                   "--cutoff", "256", NULL);
        tu_assert_run(&run, dists[i], 0, "qsort: 20000 keys (");
        ck_assert_msg(tu_lines_with(run.output, "standalone: ", OK_END) == 1, "%s: not sorted:\n%s", dists[i],
                      run.output);
        ck_assert_msg(strstr(run.output, "cpu qsort ") != NULL, "%s: no baseline in the table:\n%s", dists[i],
                      run.output);
        if (i == 0)
            ck_assert_msg(tu_sum_before(run.output, " sort_part + ") >= 4, "uniform: under 4 sort_part runs:\n%s",
                          run.output);
        free(run.output);
    }
}
END_TEST

/* The smallest recursion, exactly: 3000 keys, no level in the kernel: it spawns one sort_part
 * run for them all (depth 1), whose sides (about 1500 keys, under the cut-off 2048) go to two
 * small_sort runs (depth 2). Three spawns: the queue never fills. One key, and 64 (sorted in the
 * kernel's group, no spawn), also come out right. */
START_TEST(smallest_recursion_spawns_each_procedure)
{
    tu_process run = run_qsort("--n", "3000", "--mode", "standalone", "--levels", "0", "--cutoff", "2048", NULL);
    tu_assert_run(&run, "3000 keys", 0,
                  "1 sort_part + 2 small_sort runs spawned, depth 2; refused: 0 full, 0 too deep; 0 past --max-depth, "
                  "0 sorted inline: keys equal to the CPU's sort: ok");
    free(run.output);
    static const char *const sizes[] = {"1", "64"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        run = run_qsort("--n", sizes[i], "--mode", "standalone", "--levels", "0", NULL);
        tu_assert_run(&run, sizes[i], 0, "0 sort_part + 0 small_sort runs spawned, depth 0");
        ck_assert_msg(tu_lines_with(run.output, "standalone: ", OK_END) == 1, "%s keys: not sorted:\n%s", sizes[i],
                      run.output);
        free(run.output);
    }
}
END_TEST

/* The baseline that spawns nothing, the radix sort in one kernel, sorts uniform and few-unique
 * keys right too, and every form runs in one call by default. */
START_TEST(radix_baseline_sorts)
{
    static const char *const dists[] = {"uniform", "few-unique"};
    for (size_t i = 0; i < sizeof dists / sizeof dists[0]; i++) {
        tu_process run = run_qsort("--n", "20000", "--dist", dists[i], "--mode", "radix", NULL);
        tu_assert_run(&run, dists[i], 0, "radix: ");
        ck_assert_msg(tu_lines_with(run.output, "radix: ", "one kernel, no spawns: " OK_END) == 1,
                      "%s: not sorted:\n%s", dists[i], run.output);
        ck_assert_msg(strstr(run.output, "\nradix ") != NULL, "%s: no radix row in the table:\n%s", dists[i],
                      run.output);
        free(run.output);
    }
    tu_process run = run_qsort("--n", "4000", NULL);
    tu_assert_run(&run, "every form", 0, "cpu qsort ");
    static const char *const forms[] = {"standalone: ", "cooperative seed 0: ", "radix: "};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        ck_assert_msg(tu_lines_with(run.output, forms[i], OK_END) == 1, "no right %s line:\n%s", forms[i], run.output);
    free(run.output);
}
END_TEST

/* --json: every sort's figures, the medians and the CPU's time; a failed write is an error. */
START_TEST(json_has_every_sort)
{
    char path[] = "/tmp/test_qsort-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    tu_process run = run_qsort("--n", "5000", "--mode", "standalone", "--repeat", "2", "--json", path, NULL);
    tu_assert_run(&run, "--json", 0, "standalone ");
    free(run.output);
    char *json = tu_read_file(path, NULL);
    unlink(path);
    ck_assert_msg(strstr(json, "\"program\": \"coop-qsort\"") && strstr(json, "\"n\": 5000,") &&
                      strstr(json, "\"median_ms\": {\"standalone\": ") && strstr(json, "\"cpu_qsort\": "),
                  "--json lacks the size or the medians:\n%s", json);
    unsigned sorts = 0;
    for (const char *at = strstr(json, "{\"form\": \"standalone\""); at; at = strstr(at + 1, "{\"form\": \"standalone\""))
        sorts++;
    ck_assert_msg(sorts == 2, "--json has %u sorts, not 2:\n%s", sorts, json);
    ck_assert_msg(!strstr(json, "\"check\": \"wrong\""), "a wrong sort:\n%s", json);
    free(json);
    run = run_qsort("--n", "50", "--mode", "standalone", "--json", "/dev/full", NULL);
    tu_assert_run(&run, "--json /dev/full", 1, "coop-qsort: cannot write /dev/full: No space left on device");
    free(run.output);
}
END_TEST

/* ---- Under chaos, beside the periodic task ------------------------------------------------- */

START_TEST(cooperative_under_chaos)
{
    tu_process run = tu_run_program(QSORT, "make " QSORT, CHAOS_WORKERS, "--n", "20000", "--mode", "cooperative",
                                    "--chaos", "1", "--repeat", "3", "--levels", "3", "--cutoff", "256", NULL);
    tu_assert_run(&run, "cooperative --chaos 1", 0, "cooperative seed 1: ");
    ck_assert_msg(tu_lines_with(run.output, "cooperative seed ", OK_END) == 3, "not three right sorts:\n%s",
                  run.output);
    free(run.output);
}
END_TEST

/* ---- What a refused spawn leaves to the spawner ---------------------------------------------- */

/* 64 ranges from the kernel's 6 levels, spawned while every group stays in the kernel (qsort.cl's
 * barrier after the spawns): the queue (16) and the host's list (16) and one gathering run hold
 * 33, so at least 31 spawns find the queue full, and their groups sort those ranges. */
START_TEST(full_queue_sorted_by_spawner)
{
    tu_process run = run_qsort("--n", "20000", "--mode", "standalone", "--levels", "6", "--cutoff", "256", NULL);
    tu_assert_run(&run, "--levels 6", 0, OK_END);
    ck_assert_msg(tu_sum_before(run.output, " full, ") >= 20, "the queue was not full 20 times:\n%s", run.output);
    free(run.output);
}
END_TEST

/* --max-depth 2: the kernel's two ranges go to sort_part (depth 1), whose four sides go to
 * sort_part again (depth 2, 7500 keys each); those may spawn no deeper, and sort their eight
 * sides themselves. Six spawns: the queue never fills. */
START_TEST(depth_limit_sorted_by_spawner)
{
    tu_process run = run_qsort("--n", "30000", "--mode", "standalone", "--levels", "1", "--cutoff", "256",
                               "--max-depth", "2", NULL);
    tu_assert_run(&run, "--max-depth 2", 0,
                  "6 sort_part + 0 small_sort runs spawned, depth 2; refused: 0 full, 0 too deep; 8 past --max-depth, "
                  "0 sorted inline: keys equal to the CPU's sort: ok");
    free(run.output);
}
END_TEST

/* ---- scripts/qsort-study ---------------------------------------------------------------------- */

/* The study's smoke test: --quick sorts 4096 keys of two distributions once in each form and
 * writes its CSV (a row per distribution and form), its report and its plot; its times are not
 * checked (PoCL measures nothing), coop-qsort checks every sort. */
START_TEST(study_script_quick)
{
    static const tu_study_file files[] = {
        {.name = "qsort.csv",
         .start = "dist,n,form,sorts,median_ms,min_ms,max_ms,cpu_qsort_ms,sort_part_runs,small_sort_runs,full,"
                  "too_deep,max_depth\nuniform,4096,standalone,1,",
         .lines = {{"few-unique,4096,cooperative,1,", 1}, {"few-unique,4096,radix,1,", 1}}},
        {.name = "report.md",
         .contains = {"| dist | keys | standalone | cooperative (matmult task) | radix | CPU qsort |"}},
        {.name = "qsort.png"},
    };
    tu_run_study("scripts/qsort-study", WORKERS, "[2/2] few-unique 4096 ... standalone ", files,
                 sizeof files / sizeof files[0]);
}
END_TEST

/* ---- Arguments -------------------------------------------------------------------------------- */

START_TEST(bad_arguments)
{
    static const struct {
        const char *args[4], *message;
    } cases[] = {
        {{"--n", "0"}, "--n: '0' is out of range; expected a whole number from 1 to 67108864"},
        {{"--n", "67108865"}, "--n: '67108865' is out of range; expected a whole number from 1 to 67108864"},
        {{"--dist", "gauss"}, "--dist: 'gauss' is not a choice; expected uniform, sorted, reversed, few-unique or "
                              "equal"},
        {{"--mode", "chain"}, "--mode: 'chain' is not a choice; expected all, standalone, cooperative or radix"},
        {{"--levels", "9"}, "--levels: '9' is out of range; expected a whole number from 0 to 8"},
        {{"--cutoff", "2049"}, "--cutoff: '2049' is out of range; expected a whole number from 1 to 2048"},
        {{"--max-depth", "9"}, "--max-depth: '9' is out of range; expected a whole number from 0 to 8"},
        {{"--task-groups", "0"}, "--task-groups: '0' is out of range; expected a whole number from 1 to 1024"},
        {{"--seed", "x"}, "--seed: 'x' is not a whole number"},
        {{"--mode", "standalone", "--chaos", "3"}, "--chaos needs --mode cooperative or all"},
        {{"--local-size", "2"}, "--local-size: '2' is out of range; expected a whole number from 3 to 256"},
        {{"--size", "5"}, "unknown option '--size'"},
        {{"--levels", "1", "--levels", "2"}, "--levels: given twice ('1', then '2'); give it once"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_process run = run_qsort(cases[i].args[0], cases[i].args[1], cases[i].args[2], cases[i].args[3], NULL);
        tu_assert_run(&run, cases[i].message, 1, cases[i].message);
        ck_assert_msg(strstr(run.output, "Usage: coop-qsort") != NULL, "no usage:\n%s", run.output);
        free(run.output);
    }
}
END_TEST

static Suite *qsort_suite(void)
{
    Suite *suite = suite_create("qsort");
    /* a case run alone builds the programs first: minutes on a busy machine with PoCL */
    TCase *sorts = tu_tcase("sorts", 900);
    tcase_add_test(sorts, every_distribution);
    tcase_add_test(sorts, smallest_recursion_spawns_each_procedure);
    tcase_add_test(sorts, radix_baseline_sorts);
    tcase_add_test(sorts, json_has_every_sort);
    suite_add_tcase(suite, sorts);
    TCase *chaos = tu_tcase("chaos", 900);
    tcase_add_test(chaos, cooperative_under_chaos);
    suite_add_tcase(suite, chaos);
    TCase *refused = tu_tcase("refused", 900);
    tcase_add_test(refused, full_queue_sorted_by_spawner);
    tcase_add_test(refused, depth_limit_sorted_by_spawner);
    suite_add_tcase(suite, refused);
    TCase *script = tu_tcase("script", 900);
    tcase_add_test(script, study_script_quick);
    suite_add_tcase(suite, script);
    TCase *arguments = tu_tcase("arguments", 60);
    tcase_add_test(arguments, bad_arguments);
    suite_add_tcase(suite, arguments);
    return suite;
}

int main(void)
{
    return tu_run(qsort_suite());
}
