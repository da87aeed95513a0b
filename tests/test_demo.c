/* test_demo.c: coop-demo (host/coop-demo.c), `make demo`'s program, run as a subprocess on PoCL
 * with two workers in its quick form: a tiny generated grid and a few frames in each mode. It
 * must end with status 0 and print the comparison table with every search equal to the CPU
 * reference, and write a CSV with its header and frames of both runs and a PNG frame; bad
 * arguments end with status 1 and the usage.
 *
 * Build it first (the lead's Makefile includes host/coop-demo.mk):
 * make -f Makefile -f host/coop-demo.mk build/bin/coop-demo */
#include "testutil.h"
#include "trace_check.h"

#include <unistd.h>

#define DEMO "build/bin/coop-demo"
#define CSV_HEADER "mode,frame,due_s,response_ms,period_ms,missed\n"

enum { WORKERS = 2, PATH_BYTES = 256 };

/* Runs coop-demo with the arguments given (NULL-terminated), standard output and error together. */
#define run_demo(...) tu_run_program(DEMO, "make -f Makefile -f host/coop-demo.mk " DEMO, WORKERS, __VA_ARGS__)

static void assert_output(const tu_process *run, const char *fragment)
{
    ck_assert_msg(strstr(run->output, fragment) != NULL, "coop-demo's output lacks \"%s\":\n%s", fragment,
                  run->output);
}

/* Checks one CSV row: mode, frame number, due time, response time, period, missed flag; counts
 * the row for its mode. */
static void check_row(const char *row, unsigned *cooperative, unsigned *baseline)
{
    char mode[32];
    unsigned frame = 0;
    double due_s = 0, response_ms = 0, period_ms = 0;
    int missed = -1, consumed = 0;
    int fields = sscanf(row, "%31[^,],%u,%lf,%lf,%lf,%d%n", mode, &frame, &due_s, &response_ms, &period_ms, &missed,
                        &consumed);
    ck_assert_msg(fields == 6 && row[consumed] == '\0', "CSV row \"%s\" is not mode,frame,due_s,response_ms,"
                  "period_ms,missed", row);
    ck_assert_msg(!strcmp(mode, "cooperative") || !strcmp(mode, "no-cooperation"), "CSV row \"%s\": unknown mode", row);
    ck_assert_msg(response_ms > 0 && period_ms == 40.0, "CSV row \"%s\": response or period wrong", row);
    ck_assert_msg(missed == (response_ms > period_ms), "CSV row \"%s\": missed flag disagrees", row);
    if (!strcmp(mode, "cooperative"))
        ck_assert_uint_eq(frame, (*cooperative)++);
    else
        ck_assert_uint_eq(frame, (*baseline)++);
}

static char scratch[PATH_BYTES];

static void scratch_create(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/test_demo.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void scratch_remove(void)
{
    static const char *const names[] = {"frame.png", "responsiveness.csv", "trace.json"};
    char path[PATH_BYTES + 32];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", scratch, names[i]);
        unlink(path);
    }
    rmdir(scratch);
}

/* The quick demo runs both modes, checks every search and writes its files. */
START_TEST(test_quick_demo)
{
    scratch_create();
    char trace[PATH_BYTES + 32];
    snprintf(trace, sizeof trace, "%s/trace.json", scratch);
    tu_process run = run_demo("--quick", "--gen", "grid:16:16", "--period-ms", "40", "--out", scratch, "--trace", trace,
                              NULL);
    ck_assert_msg(run.status == 0, "coop-demo --quick: exit status %d; output:\n%s", run.status, run.output);
    static const char *const fragments[] = {"cooperative", "no cooperation", "frame response median (ms)",
                                            "frame response p99 (ms)", "frame response max (ms)",
                                            "frames missed (> 40 ms)", "BFS time (s)", "BFS results checked"};
    for (size_t i = 0; i < sizeof fragments / sizeof fragments[0]; i++)
        assert_output(&run, fragments[i]);
    /* Both runs made the same searches, and the table says all of them equal the reference. */
    const char *checked = strstr(run.output, "BFS results checked");
    unsigned equal[2] = {0, 0}, total[2] = {0, 0};
    ck_assert_int_eq(sscanf(checked, "BFS results checked %u/%u equal %u/%u equal", &equal[0], &total[0], &equal[1],
                            &total[1]), 4);
    ck_assert_uint_gt(total[0], 0);
    ck_assert_uint_eq(total[0], total[1]);
    ck_assert_uint_eq(equal[0], total[0]);
    ck_assert_uint_eq(equal[1], total[1]);

    char path[PATH_BYTES + 32];
    size_t size = 0;
    snprintf(path, sizeof path, "%s/responsiveness.csv", scratch);
    char *csv = tu_read_file(path, &size);
    ck_assert_msg(!strncmp(csv, CSV_HEADER, strlen(CSV_HEADER)), "CSV header wrong:\n%s", csv);
    unsigned cooperative = 0, baseline = 0;
    for (char *row = strtok(csv + strlen(CSV_HEADER), "\n"); row; row = strtok(NULL, "\n"))
        check_row(row, &cooperative, &baseline);
    ck_assert_msg(cooperative >= 1 && baseline >= 1, "CSV has %u cooperative and %u baseline frames", cooperative,
                  baseline);
    free(csv);

    snprintf(path, sizeof path, "%s/frame.png", scratch);
    char *png = tu_read_file(path, &size);
    ck_assert_uint_gt(size, 8);
    ck_assert_msg(!memcmp(png, "\x89PNG\r\n\x1a\n", 8), "%s does not start with the PNG signature", path);
    free(png);

    /* --trace: the cooperative run's first events (its buffers may fill), a valid trace */
    assert_output(&run, "  trace: ");
    tc_trace t = tc_load(trace);
    tc_check_spans(&t, "coop-demo --trace");
    tc_check_members(&t, "coop-demo --trace");
    tc_free(&t);
    free(run.output);
    scratch_remove();
}
END_TEST

/* Bad arguments: status 1, the reason and the usage. */
START_TEST(test_bad_arguments)
{
    static const struct {
        const char *args[3];
        const char *fragment;
    } cases[] = {
        {{"--bogus", NULL}, "option '--bogus': unknown"},
        {{"extra", NULL}, "argument 'extra': unexpected"},
        {{"--period-ms", "0", NULL}, "--period-ms: '0' is out of range"},
        {{"--seconds", "-1", NULL}, "--seconds: '-1' is negative"},
        {{"--frame", "64", NULL}, "--frame '64'"},
        {{"--out", NULL}, "--out: needs a value"},
        {{"--graph", "g.gr", "--gen"}, "--gen: needs a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_process run = run_demo(cases[i].args[0], cases[i].args[1], cases[i].args[2], NULL);
        ck_assert_msg(run.status == 1, "case %zu: exit status %d; output:\n%s", i, run.status, run.output);
        assert_output(&run, cases[i].fragment);
        assert_output(&run, "Usage: coop-demo");
        free(run.output);
    }
    tu_process run = run_demo("--graph", "tests/data/no-such-graph.gr", NULL);
    ck_assert_msg(run.status == 1, "missing graph: exit status %d; output:\n%s", run.status, run.output);
    assert_output(&run, "tests/data/no-such-graph.gr");
    free(run.output);
}
END_TEST

static Suite *demo_suite(void)
{
    Suite *suite = suite_create("demo");
    TCase *tcase = tu_tcase("demo", 420);     /* coop-demo allows its plain kernel 300 s (busy machines) */
    tcase_add_test(tcase, test_quick_demo);
    tcase_add_test(tcase, test_bad_arguments);
    suite_add_tcase(suite, tcase);
    return suite;
}

int main(void)
{
    return tu_run(demo_suite());
}
