/* test_scripts.c: the evaluation scripts (scripts/overhead, scripts/responsiveness,
 * scripts/scaling with scripts/common.py) as a smoke test: each runs with --quick on PoCL with two
 * workers into a scratch folder and must end with status 0, writing its CSV files with the
 * expected header and one row per cell, its markdown report and its PNG plots. Their numbers are
 * not checked (a quick run on a CPU measures nothing) beyond the graphs' sizes and scaling's TEPS
 * being above 0; coop-bench checks every run's result itself, so status 0 also
 * says every app and task computed the right thing. Bad options end with a usage message.
 * scripts/timeline draws a trace coop-bench --trace wrote, and refuses a file that is not one;
 * scripts/alternatives tabulates preempt-bench's and sched-bench's saved outputs.
 * scripts/embed.sh -i pastes in what a kernel includes, from beside it or from its -I folders.
 * scripts/loaded-check counts its runs (a stand-in command for make check) in clones of the
 * checkout, and ends its hogs and runs when it ends, SIGTERM included.
 *
 * The scripts drive build/bin/coop-bench (make -f Makefile -f host/coop-bench.mk
 * build/bin/coop-bench) and need /usr/bin/python3 with matplotlib (python3-matplotlib). */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH "build/bin/coop-bench"

enum {
    WORKERS = 2,
    PATH_BYTES = 512
};

/* Runs `argv` (NULL-terminated) on PoCL, collecting its output. */
static tu_process run_script(char *const argv[])
{
    tu_env(WORKERS);
    setenv("COOP_PLATFORM", TU_POCL_PLATFORM, 1);
    return tu_run_process(argv);
}

static void assert_status(const tu_process *run, const char *what, int status, const char *fragment)
{
    ck_assert_msg(run->status == status, "%s: exit status %d, expected %d; output:\n%s", what, run->status, status,
                  run->output);
    ck_assert_msg(strstr(run->output, fragment) != NULL, "%s: output lacks \"%s\":\n%s", what, fragment,
                  run->output);
}

/* Runs `argv` on PoCL and asserts its exit status and a fragment of its output. */
static void assert_run(char *const argv[], const char *what, int status, const char *fragment)
{
    tu_process run = run_script(argv);
    assert_status(&run, what, status, fragment);
    free(run.output);
}

/* assert_run with status 0 and every fragment of the NULL-terminated `fragments` in the output. */
static void assert_run_says(char *const argv[], const char *what, const char *const fragments[])
{
    tu_process run = run_script(argv);
    assert_status(&run, what, 0, fragments[0]);
    for (const char *const *fragment = fragments + 1; *fragment; fragment++)
        ck_assert_msg(strstr(run.output, *fragment) != NULL, "%s: output lacks \"%s\":\n%s", what, *fragment,
                      run.output);
    free(run.output);
}

/* ---- Scratch folder ----------------------------------------------------------------------- */

static char scratch[PATH_BYTES];

static void scratch_create(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/test_scripts.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(scratch));
}

/* The scripts write plain files only. */
static void scratch_remove(void)
{
    DIR *folder = opendir(scratch);
    if (folder) {
        char path[2 * PATH_BYTES];
        for (struct dirent *entry = readdir(folder); entry; entry = readdir(folder)) {
            if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", scratch, entry->d_name);
                unlink(path);
            }
        }
        closedir(folder);
    }
    rmdir(scratch);
}

static char *read_text(const char *name)
{
    char path[2 * PATH_BYTES];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return tu_read_file(path, NULL);
}

/* The file is a PNG image (its signature). */
static void assert_png(const char *name)
{
    char *data = read_text(name);
    ck_assert_msg(!memcmp(data, "\x89PNG\r\n\x1a\n", 8), "%s is not a PNG image", name);
    free(data);
}

/* Lines of a text, not counting an empty last one. */
static unsigned count_lines(const char *text)
{
    unsigned lines = 0;
    for (const char *at = text; *at; at++)
        lines += *at == '\n';
    return lines + (*text && text[strlen(text) - 1] != '\n');
}

/* Commas in line `index` (0: the header) of a CSV text; -1 if the line does not exist. */
static int line_commas(const char *text, unsigned index)
{
    const char *line = text;
    for (unsigned i = 0; i < index && line; i++) {
        line = strchr(line, '\n');
        line = line && line[1] ? line + 1 : NULL;
    }
    if (!line)
        return -1;
    int commas = 0;
    for (; *line && *line != '\n'; line++)
        commas += *line == ',';
    return commas;
}

/* A CSV file with exactly this header and `rows` rows, each with as many fields. */
static void assert_csv(const char *name, const char *header, unsigned rows)
{
    char *text = read_text(name);
    size_t header_length = strlen(header);
    ck_assert_msg(!strncmp(text, header, header_length) && text[header_length] == '\n',
                  "%s: the header is not\n%s\n but:\n%.400s", name, header, text);
    ck_assert_msg(count_lines(text) == rows + 1, "%s: %u rows, expected %u:\n%s", name, count_lines(text) - 1, rows,
                  text);
    int fields = line_commas(text, 0);
    for (unsigned row = 1; row <= rows; row++)
        ck_assert_msg(line_commas(text, row) == fields, "%s: row %u has %d fields, the header %d:\n%s", name, row,
                      line_commas(text, row) + 1, fields + 1, text);
    free(text);
}

static void assert_contains(const char *name, const char *fragment)
{
    char *text = read_text(name);
    ck_assert_msg(strstr(text, fragment) != NULL, "%s lacks \"%s\":\n%s", name, fragment, text);
    free(text);
}

static void assert_bench_built(void)
{
    struct stat info;
    ck_assert_msg(stat(BENCH, &info) == 0, BENCH " is missing: build it with make -f Makefile -f host/coop-bench.mk "
                  BENCH);
}

/* ---- The scripts -------------------------------------------------------------------------- */

/* Runs `script --quick --out SCRATCH`, which must end with status 0 after printing `last`. */
static void run_quick(const char *script, const char *last)
{
    assert_bench_built();
    char what[PATH_BYTES];
    snprintf(what, sizeof what, "%s --quick", script);
    char *argv[] = {(char *)script, "--quick", "--out", scratch, NULL};
    tu_process run = run_script(argv);
    assert_status(&run, what, 0, last);
    free(run.output);
}

/* Every value of a CSV text's column `column` (0: the first) is a number above 0. */
static void assert_column_positive(const char *name, unsigned column)
{
    char *text = read_text(name);
    unsigned row = 0;
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const char *field = line + 1;
        for (unsigned i = 0; i < column && field; i++) {
            field = strchr(field, ',');
            field = field ? field + 1 : NULL;
        }
        row++;
        ck_assert_msg(field && strtod(field, NULL) > 0, "%s: row %u's column %u is not above 0:\n%s", name, row,
                      column, text);
    }
    free(text);
}

START_TEST(overhead_quick)
{
    run_quick("scripts/overhead", "[30/30] sssp-bf rmat:10:8 multikernel");
    /* the five apps on two generated inputs; three modes each */
    assert_csv("overhead.csv", "app,input,nodes,arcs,rounds,groups,members,standalone_ms,cooperative_ms,"
               "multikernel_ms,overhead,multikernel_speedup,kills,forks,standalone_us_per_round,"
               "cooperative_us_per_round", 10);
    assert_column_positive("overhead.csv", 14); /* standalone us per round */
    assert_column_positive("overhead.csv", 15); /* cooperative us per round */
    assert_contains("overhead.csv", "\nbfs,grid:30:30,900,3480,59,");
    assert_contains("overhead.csv", "\nsssp,rmat:10:8,1024,");
    assert_contains("overhead.csv", "\nmis,grid:30:30,900,3480,");
    assert_contains("overhead.csv", "\nsssp-bf,rmat:10:8,1024,");
    assert_csv("overhead-runs.csv", "app,input,mode,run,time_ms,rounds", 30);
    assert_contains("overhead.md", "# Overhead of cooperation");
    assert_contains("overhead.md", "| all |");
    assert_contains("overhead.md", "| sssp | grid:30:30 | 900 |");
    assert_contains("overhead.md", "| standalone us / round | cooperative us / round |");
    assert_png("overhead.png");
    assert_png("multikernel.png");
}
END_TEST

START_TEST(responsiveness_quick)
{
    run_quick("scripts/responsiveness", "[16/16] bfs render baseline");
    /* bfs with four tasks: two shares taken and the no-cooperation baseline each */
    assert_csv("responsiveness.csv", "app,task,mode,take,size,period_ms,groups_taken,tasks,missed_periods,"
               "gather_us_median,gather_us_p99,exec_us_median,response_us_median,response_us_p99,time_ms,searches,"
               "standalone_ms,standalone_groups,standalone_all_groups_ms,cooperative_no_task_ms,slowdown,"
               "slowdown_all_groups,slowdown_no_task,preemption_model,slowdown_over_model,"
               "preemption_model_whole_device,slowdown_over_whole_device_model", 12);
    const char *cells[] = {"\nbfs,light,cooperative,quarter,", "\nbfs,medium,cooperative,all-but-one,",
                           "\nbfs,heavy,baseline,,", "\nbfs,render,cooperative,quarter,"};
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
        assert_contains("responsiveness.csv", cells[i]);
    /* Every timed task run: the quick grid outlasts the host's first look, when a cooperative cell
     * submits its first task. */
    static const char tasks_header[] =
        "app,task,mode,take,run,groups,request_ms,gather_us,exec_us,response_us,deadline_met\n";
    char *tasks = read_text("responsiveness-tasks.csv");
    ck_assert_msg(!strncmp(tasks, tasks_header, strlen(tasks_header)), "responsiveness-tasks.csv: header:\n%.200s",
                  tasks);
    ck_assert_msg(strstr(tasks, ",cooperative,quarter,0,") || strstr(tasks, ",cooperative,all-but-one,0,"),
                  "responsiveness-tasks.csv has no cooperative task run:\n%s", tasks);
    free(tasks);
    assert_contains("responsiveness.md", "## Tasks");
    assert_contains("responsiveness.md", "## bfs");
    /* --quick: every run but the first makes two searches (the least), so it restarts once */
    assert_contains("responsiveness.md", "every run below makes 2 searches");
    /* the baseline is the standalone kernel at its best group count, beside the other two */
    assert_contains("responsiveness.md", "standalone at its best group count (");
    assert_contains("responsiveness.md", "standalone on every co-resident group ");
    assert_contains("responsiveness.md", "| slowdown | against cooperative without tasks |");
    assert_contains("responsiveness.md", "| render | quarter |");
    assert_contains("responsiveness.md", "no cooperation");
    assert_contains("responsiveness.md", "## Targets");
    assert_png("responsiveness-response.png");
    assert_png("responsiveness-gather.png");
    assert_png("responsiveness-slowdown.png");
}
END_TEST

/* Writes `text` to `name` in the scratch folder. */
static void write_scratch(const char *name, const char *text)
{
    char path[2 * PATH_BYTES];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fputs(text, out);
    ck_assert_int_eq(fclose(out), 0);
}

/* sched-bench's output at one share, as the H200 printed it (its gather run's lines only), and
 * `queued`, the queued figure's lines (a sched-bench before it printed none: ""). */
static void write_sched(const char *name, unsigned taken, const char *gather, const char *response,
                        const char *app_line, const char *queued)
{
    char text[4096];
    snprintf(text, sizeof text,
             "sched-bench on NVIDIA H200 (NVIDIA CUDA), channel nvhost, local size 256, unit 2000 iterations, 5 "
             "runs per figure\n"
             "units    plain   246.227 ms on 1056 groups   cooperative   253.557 ms on  791 members   overhead  "
             "+2.98%%\n"
             "gather   258 tasks taking %u of 791 members every 1.00 ms (device-timed); kills 1 forks 1; mean "
             "members 787.0\n"
             "         gather   %s\n"
             "         exec     median     12.70 us   p99     31.36 us   max     43.42 us\n"
             "         response %s\n%s%s",
             taken, gather, response, app_line, queued);
    write_scratch(name, text);
}

/* sched-bench's queued figure as it prints it (the numbers made up, H200-like): one launch alone,
 * then the task on a second queue beside one launch and beside chains of ~100 us and ~1 ms. */
static const char queued_lines[] =
    "queued   alone: 1 launch of 21120000 units on 1056 groups   247.000 ms (median of 5 runs; event-timed), a "
    "unit every 12.35 us on each group\n"
    "queued   no-cooperation: 1 launch of 21120000 units on 1056 groups; 248 tasks of 264 workgroups on a second "
    "queue every 1.00 ms (event-timed)\n"
    "         start    median 123456.00 us   p99 245000.00 us   max 246000.00 us\n"
    "         exec     median     15.00 us   p99     16.00 us   max     17.00 us\n"
    "         response median 123471.00 us   p99 245016.00 us   max 246017.00 us\n"
    "         deadlines met 1 of 248; units not run exactly once: 0\n"
    "         app run    247.500 ms with the tasks\n"
    "queued   chain100us: 2134 launches of 9900 units on 1056 groups; 262 tasks of 264 workgroups on a second "
    "queue every 1.00 ms (event-timed)\n"
    "         start    median     60.00 us   p99    130.00 us   max    140.00 us\n"
    "         exec     median     12.00 us   p99     14.00 us   max     15.00 us\n"
    "         response median     72.00 us   p99    144.00 us   max    150.00 us\n"
    "         device clock: START to the first group's start median 1.00 us, p99 2.00 us; first start to last "
    "end median 11.00 us, p99 13.00 us\n"
    "         deadlines met 262 of 262; units not run exactly once: 0\n"
    "         app run    262.000 ms with the tasks\n"
    "queued   chain1ms: 214 launches of 99000 units on 1056 groups; 249 tasks of 264 workgroups on a second queue "
    "every 1.00 ms (event-timed)\n"
    "         start    median    500.00 us   p99   1000.00 us   max   1010.00 us\n"
    "         exec     median     12.00 us   p99     14.00 us   max     15.00 us\n"
    "         response median    512.00 us   p99   1014.00 us   max   1020.00 us\n"
    "         deadlines met 200 of 249; units not run exactly once: 0\n"
    "         app run    249.000 ms with the tasks\n";

/* scripts/alternatives on saved outputs (--from): the table, the targets in words, every
 * way that beats ours named, and a missing figure named with its file. Outputs of a sched-bench
 * before the queued figure leave its rows out and say so; with it, they are rows of their own,
 * against the one launch alone, and beat ours where they do. */
START_TEST(alternatives_from_saved_outputs)
{
    write_scratch("preempt.txt", "preempt-bench on NVIDIA H200: 132 SMs, 8 blocks per SM of 256 threads (1056 "
                  "blocks), 21120000 units of 2000 iterations\nmps        unavailable: no nvidia-cuda-mps-control on "
                  "this machine\n");
    write_scratch("preempt.csv",
                  "way,share,sms,app_blocks,task_blocks,app_ms,slowdown,start_median_us,start_p99_us,exec_median_us,"
                  "exec_p99_us,response_median_us,response_p99_us,tasks,wrong\n"
                  "alone,-,132,1056,0,178.105,1.0000,0.00,0.00,0.00,0.00,0.00,0.00,0,0\n"
                  "chain100us,quarter,132,1056,264,187.029,1.0501,54.27,119.55,8.67,9.38,62.72,128.00,187,0\n"
                  "chain100us,half,132,1056,528,187.244,1.0513,59.90,124.16,9.57,10.66,69.12,133.63,188,0\n"
                  "green,quarter,92,736,264,255.503,1.4346,10.24,29.95,4.67,4.70,14.85,34.56,256,0\n"
                  "green,half,60,480,528,391.985,2.2009,16.38,27.14,5.28,5.34,21.76,32.26,392,0\n");
    const char *app_quarter = "         app run    257.646 ms with the tasks\n";
    write_sched("sched-quarter.txt", 197, "median     24.51 us   p99     42.02 us   max     44.03 us",
                "median     67.93 us   p99     95.02 us   max    107.70 us", app_quarter, "");
    write_sched("sched-half.txt", 395, "median     53.60 us   p99     89.63 us   max     98.14 us",
                "median    102.50 us   p99    144.85 us   max    147.79 us", "", queued_lines);
    char *argv[] = {"scripts/alternatives", "--from", scratch, "--out", scratch, NULL};
    /* sched-half.txt lacks the gather run's app time (the queued rows' do not stand in): refused, naming
     * the file and what it lacks */
    tu_process run = run_script(argv);
    ck_assert_msg(run.status == 1 && strstr(run.output, "sched-half.txt: no match for 'app run"),
                  "alternatives on an output without the app's time: status %d:\n%s", run.status, run.output);
    free(run.output);
    const char *app_half = "         app run    271.788 ms with the tasks\n";
    write_sched("sched-half.txt", 395, "median     53.60 us   p99     89.63 us   max     98.14 us",
                "median    102.50 us   p99    144.85 us   max    147.79 us", app_half, "");
    assert_run(argv, "alternatives --from", 0, "alternatives: wrote ");
    assert_csv("alternatives.csv", "side,way,share,app_ms,slowdown,start_median_us,start_p99_us,exec_median_us,"
               "exec_p99_us,response_median_us,response_p99_us,tasks", 9);
    assert_contains("alternatives.md", "# Cooperative kernels against the CUDA alternatives, NVIDIA H200");
    assert_contains("alternatives.md", "- MPS: unavailable: no nvidia-cuda-mps-control on this machine.");
    assert_contains("alternatives.md", "the task got quarter: 40 SMs of 132; half: 72 SMs of 132");
    assert_contains("alternatives.md", "| OpenCL | cooperative | quarter | 257.6 | 1.046 | 24.5 / 42.0 | 12.7 / 31.4 "
                    "| 67.9 / 95.0 | 258 |");
    assert_contains("alternatives.md", "| OpenCL | cooperative without tasks | - | 253.6 | 1.030 |");
    assert_contains("alternatives.md", "- quarter: our response p99 95.0 us against green contexts' 34.6 us + 20 us: "
                    "target missed.");
    assert_contains("alternatives.md", "- quarter: our app slowdown +4.6% against half the 100 us chain's +5.0%: "
                    "target missed.");
    assert_contains("alternatives.md", "- quarter: CUDA green beats ours on task response p99 ");
    assert_contains("alternatives.md", "- half: CUDA chain100us beats ours on task response p99 and app slowdown ");
    assert_contains("alternatives.md", "- Not measured (these sched-bench outputs have no queued figure");
    assert_png("alternatives.png");

    /* the queued figure: its rows after the CUDA ones, the ways that beat ours named by side */
    write_sched("sched-quarter.txt", 197, "median     24.51 us   p99     42.02 us   max     44.03 us",
                "median     67.93 us   p99     95.02 us   max    107.70 us", app_quarter, queued_lines);
    write_sched("sched-half.txt", 395, "median     53.60 us   p99     89.63 us   max     98.14 us",
                "median    102.50 us   p99    144.85 us   max    147.79 us", app_half, queued_lines);
    assert_run(argv, "alternatives --from, with the queued figure", 0, "alternatives: wrote ");
    assert_csv("alternatives.csv", "side,way,share,app_ms,slowdown,start_median_us,start_p99_us,exec_median_us,"
               "exec_p99_us,response_median_us,response_p99_us,tasks", 16);
    assert_contains("alternatives.md", "| OpenCL | alone (plain persistent) | - | 246.2 | 1.000 |");
    assert_contains("alternatives.md", "| OpenCL | alone (one launch) | - | 247.0 | 1.003 |");
    assert_contains("alternatives.md", "| OpenCL | no cooperation | quarter | 247.5 | 1.002 | 123456.0 / 245000.0 | "
                    "15.0 / 16.0 | 123471.0 / 245016.0 | 248 |\n| OpenCL | no cooperation | half |");
    assert_contains("alternatives.md", "| OpenCL | chain100us | half | 262.0 | 1.061 | 60.0 / 130.0 | 12.0 / 14.0 | "
                    "72.0 / 144.0 | 262 |\n| OpenCL | chain1ms | quarter | 249.0 | 1.008 |");
    assert_contains("alternatives.md", "| OpenCL | cooperative | quarter | 257.6 | 1.046 |");
    assert_contains("alternatives.md", "- OpenCL without cooperation: sched-bench's queued figure");
    assert_contains("alternatives.md", "- quarter: OpenCL no cooperation beats ours on app slowdown (response p99 "
                    "245016.0 us, slowdown 1.002; ours 95.0 us, 1.046).");
    assert_contains("alternatives.md", "- half: OpenCL chain100us beats ours on task response p99 and app slowdown ");
    char *report = read_text("alternatives.md");
    ck_assert_msg(strstr(report, "Not measured") == NULL, "alternatives.md still says a row is not measured:\n%s",
                  report);
    free(report);
    assert_png("alternatives.png");
}
END_TEST

START_TEST(scaling_quick)
{
    run_quick("scripts/scaling", "[30/30] sssp-bf grid:20:20 multikernel");
    /* the five apps in three modes on two generated inputs */
    assert_csv("scaling.csv", "app,mode,input,nodes,arcs,traversed_arcs,time_ms,teps,load_ms,rounds", 30);
    assert_contains("scaling.csv", "\nbfs,standalone,rmat:8:4,256,1498,1496,");
    assert_contains("scaling.csv", "\ncolor,cooperative,rmat:8:4,256,1498,1498,");
    assert_contains("scaling.csv", "\nsssp,multikernel,grid:20:20,400,1520,1520,");
    assert_contains("scaling.csv", "\nmis,standalone,grid:20:20,400,1520,1520,");
    assert_column_positive("scaling.csv", 7);   /* teps */
    assert_column_positive("scaling.csv", 9);   /* rounds */
    assert_contains("scaling.md", "# Scaling");
    assert_contains("scaling.md", "## Growth");
    assert_contains("scaling.md", "| sssp-bf | multikernel | grid:20:20 | 400 | 1520 | 1520 |");
    assert_png("scaling.png");

    char *bad_input[] = {"scripts/scaling", "--inputs", "rmat:8:4,cube:3", "--out", scratch, NULL};
    assert_run(bad_input, "scripts/scaling --inputs rmat:8:4,cube:3", 2,
               "--inputs: 'cube:3' is not an rmat:... or grid:... spec");
}
END_TEST

/* Writes the header and the rows of scaling.csv (in the scratch folder) whose input starts with
 * `family` into the scratch file `name`. */
static void split_scaling_csv(const char *family, const char *name)
{
    char *text = read_text("scaling.csv"), path[2 * PATH_BYTES];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    unsigned line = 0;
    for (char *at = text, *end; *at; at = end + 1, line++) {
        end = strchr(at, '\n');
        ck_assert_ptr_nonnull(end);
        const char *input = at;
        for (int comma = 0; comma < 2 && input; comma++)
            input = strchr(input, ',') ? strchr(input, ',') + 1 : NULL;
        if (line == 0 || (input && !strncmp(input, family, strlen(family))))
            fwrite(at, 1, (size_t)(end - at) + 1u, out);
    }
    ck_assert_int_eq(fclose(out), 0);
    free(text);
}

/* --from-csv: a quick run's rows split into two files (the R-MAT inputs, the grids, as two GPU
 * calls would leave them) make the same CSV, report and plot again, with nothing measured. */
/* Without --out or --report a script writes into scratch/<script>/<device>/ of its tree, which git
 * ignores, and nothing into benchmarks/results/: run from a copy of scripts/, so that what it writes
 * lands in that copy's tree. */
START_TEST(default_folder_is_scratch)
{
    assert_bench_built();
    char root[PATH_BYTES], bench[2 * PATH_BYTES], script[2 * PATH_BYTES], path[2 * PATH_BYTES];
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    snprintf(bench, sizeof bench, "%s/" BENCH, root);
    snprintf(script, sizeof script, "%s/scripts/scaling", scratch);
    char *copy[] = {"/bin/cp", "-r", "scripts", scratch, NULL};
    assert_run(copy, "cp -r scripts", 0, "");
    char *argv[] = {script, "--quick", "--inputs", "grid:20:20", "--bench", bench, NULL};
    assert_run(argv, "scripts/scaling --quick without --out", 0, "/scratch/scaling/pocl-");
    snprintf(path, sizeof path, "%s/benchmarks", scratch);
    struct stat info;
    ck_assert_msg(stat(path, &info) != 0, "scripts/scaling without --out wrote into %s", path);
    /* scratch_remove removes plain files only */
    char scripts_copy[2 * PATH_BYTES], scratch_copy[2 * PATH_BYTES];
    snprintf(scripts_copy, sizeof scripts_copy, "%s/scripts", scratch);
    snprintf(scratch_copy, sizeof scratch_copy, "%s/scratch", scratch);
    char *remove[] = {"/bin/rm", "-r", scripts_copy, scratch_copy, NULL};
    assert_run(remove, "rm -r the copy", 0, "");
}
END_TEST

START_TEST(scaling_from_csv)
{
    run_quick("scripts/scaling", "[30/30] sssp-bf grid:20:20 multikernel");
    split_scaling_csv("rmat", "part-rmat.csv");
    split_scaling_csv("grid", "part-grid.csv");
    char parts[4 * PATH_BYTES + 2], out[2 * PATH_BYTES];
    snprintf(parts, sizeof parts, "%s/part-rmat.csv,%s/part-grid.csv", scratch, scratch);
    snprintf(out, sizeof out, "%s/merged", scratch);
    char *merge[] = {"scripts/scaling", "--from-csv", parts, "--measured-on", "the test's PoCL", "--out", out, NULL};
    assert_run(merge, "scripts/scaling --from-csv", 0, "from 30 rows");
    char *before = read_text("scaling.csv"), *after = read_text("merged/scaling.csv");
    ck_assert_msg(!strcmp(before, after), "the merged CSV differs from the run's:\n%s\n---\n%s", before, after);
    free(before);
    free(after);
    assert_contains("merged/scaling.md", "- Device: the test's PoCL");
    assert_contains("merged/scaling.md", "part-grid.csv` (measured earlier)");
    assert_contains("merged/scaling.md", "| sssp-bf | multikernel | grid:20:20 | 400 | 1520 | 1520 |");
    assert_png("merged/scaling.png");

    char *no_device[] = {"scripts/scaling", "--from-csv", parts, "--out", out, NULL};
    assert_run(no_device, "scripts/scaling --from-csv without --measured-on", 2,
               "--from-csv needs --out (where to write) and --measured-on (the device, for the report)");
    char *missing[] = {"scripts/scaling", "--from-csv", "/nonexistent/scaling.csv", "--measured-on", "x", "--out", out,
                       NULL};
    assert_run(missing, "scripts/scaling --from-csv /nonexistent/scaling.csv", 2,
               "--from-csv: [Errno 2] No such file or directory: '/nonexistent/scaling.csv'");
}
END_TEST

/* ---- Timeline ------------------------------------------------------------------------------ */

START_TEST(timeline_draws_a_trace)
{
    assert_bench_built();
    char trace[2 * PATH_BYTES], png[2 * PATH_BYTES];
    snprintf(trace, sizeof trace, "%s/bfs.json", scratch);
    snprintf(png, sizeof png, "%s/picture.png", scratch);
    char *bench[] = {BENCH, "bfs", "--gen", "grid:16:16", "--task", "light", "--period-ms", "1", "--trace", trace,
                     NULL};
    assert_run(bench, "coop-bench --trace", 0, "trace of the last run: ");

    char *named[] = {"scripts/timeline", trace, png, NULL};
    assert_run(named, "scripts/timeline TRACE PNG", 0, "wrote ");
    assert_png("picture.png");
    char *defaults[] = {"scripts/timeline", trace, "--from", "0", NULL};
    assert_run(defaults, "scripts/timeline TRACE", 0, "bfs.png");
    assert_png("bfs.png");

    char *not_a_trace[] = {"scripts/timeline", "README.md", png, NULL};
    assert_run(not_a_trace, "scripts/timeline README.md", 1, "timeline: README.md: not JSON");
}
END_TEST

/* ---- Round cost --------------------------------------------------------------------------- */

/* scripts/round-cost on a trace of bfs on a grid (no task: the same members at every barrier): one
 * CSV row per round, each round its critical work plus its barrier; and its refusals. */
START_TEST(round_cost_of_a_trace)
{
    assert_bench_built();
    char trace[2 * PATH_BYTES], csv[2 * PATH_BYTES];
    snprintf(trace, sizeof trace, "%s/bfs.json", scratch);
    snprintf(csv, sizeof csv, "%s/rounds.csv", scratch);
    char *bench[] = {BENCH, "bfs", "--gen", "grid:16:16", "--trace", trace, NULL};
    assert_run(bench, "coop-bench --trace", 0, "trace of the last run: ");

    char *cost[] = {"scripts/round-cost", trace, "--csv", csv, "--skip", "1", NULL};
    static const char *const report[] = {"rounds (barriers ", "bfs_mega on ", "\nwork ", "\nbarrier ",
                                         "arrived last most often: group ", NULL};
    assert_run_says(cost, "scripts/round-cost TRACE --csv CSV", report);
    char *text = read_text("rounds.csv");
    ck_assert_msg(!strncmp(text, "barrier,round_us,work_us,barrier_us,spread_us,last_group\n", 57),
                  "rounds.csv's header:\n%.200s", text);
    /* bfs from a corner of a 16 x 16 grid: 31 levels, a barrier each; the first is skipped */
    ck_assert_msg(count_lines(text) >= 20, "rounds.csv has %u rows:\n%s", count_lines(text) - 1, text);
    for (const char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        double round_us, work_us, barrier_us;
        ck_assert_int_eq(sscanf(line, "%*u,%lf,%lf,%lf,", &round_us, &work_us, &barrier_us), 3);
        ck_assert_msg(round_us >= 0 && barrier_us >= 0 && fabs(round_us - work_us - barrier_us) < 1e-3,
                      "a round is its work plus its barrier: %.60s", line);
    }
    free(text);

    char *not_a_trace[] = {"scripts/round-cost", "README.md", NULL};
    assert_run(not_a_trace, "scripts/round-cost README.md", 1, "round-cost: README.md: not JSON");
    char *too_many[] = {"scripts/round-cost", trace, "--skip", "100000", NULL};
    assert_run(too_many, "scripts/round-cost --skip 100000", 1, "no two successive barriers that every group reached");
    char *negative[] = {"scripts/round-cost", trace, "--skip", "-1", NULL};
    assert_run(negative, "scripts/round-cost --skip -1", 2, "--skip: -1 is not a count");
}
END_TEST

/* scripts/round-cost on coop-multi's trace of three cooperative kernels: --kernel K times kernel
 * K's barriers alone (each kernel numbers its own); the work-stealing tree (kernel 2) has none,
 * nor has a kernel the trace lacks. */
START_TEST(round_cost_of_one_kernel)
{
    struct stat info;
    ck_assert_msg(stat("build/bin/coop-multi", &info) == 0,
                  "build/bin/coop-multi is missing: make -f Makefile -f host/coop-multi.mk build/bin/coop-multi");
    char trace[2 * PATH_BYTES];
    snprintf(trace, sizeof trace, "%s/trace.json", scratch);
    /* a group per kernel, whose start discovery waits for on a busy machine */
    char *multi[] = {"build/bin/coop-multi", "--quick", "--groups", "3", "--out", scratch, "--timeline", "/nonexistent",
                     NULL};
    tu_env(3);
    setenv("COOP_PLATFORM", TU_POCL_PLATFORM, 1);
    tu_process run = tu_run_process(multi);
    assert_status(&run, "coop-multi --quick --groups 3", 0, "no picture: /nonexistent");
    free(run.output);
    static const char *const names[] = {"bfs_searches", "sssp_searches"};
    for (unsigned k = 0; k < 2; k++) {
        char kernel[8], says[64];
        snprintf(kernel, sizeof kernel, "%u", k);
        snprintf(says, sizeof says, "(kernel %u: %s) on ", k, names[k]);
        char *cost[] = {"scripts/round-cost", trace, "--kernel", kernel, NULL};
        const char *const report[] = {says, "rounds (barriers ", "\nbarrier ", NULL};
        assert_run_says(cost, "scripts/round-cost TRACE --kernel K", report);
    }
    char *tree[] = {"scripts/round-cost", trace, "--kernel", "2", NULL};
    assert_run(tree, "scripts/round-cost --kernel 2", 1, "no global barrier of kernel 2 in the trace");
    char *absent[] = {"scripts/round-cost", trace, "--kernel", "3", NULL};
    assert_run(absent, "scripts/round-cost --kernel 3", 1, "no global barrier of kernel 3 in the trace");
}
END_TEST

/* ---- Gather cost --------------------------------------------------------------------------- */

/* scripts/gather-cost on a trace of sched-bench's gather run (tasks that take a group from the
 * unit loop by a kill): one CSV row per task, each one's phases in order (the last park before the
 * last kill before the task starts); and its refusals. */
START_TEST(gather_cost_of_a_trace)
{
    char trace[2 * PATH_BYTES], csv[2 * PATH_BYTES], quiet[2 * PATH_BYTES];
    snprintf(trace, sizeof trace, "%s/gather.json", scratch);
    snprintf(csv, sizeof csv, "%s/tasks.csv", scratch);
    snprintf(quiet, sizeof quiet, "%s/no-task.json", scratch);
    char *bench[] = {"build/bin/sched-bench", "--quick", "--tasks", "6", NULL};
    tu_env(WORKERS);
    setenv("COOP_PLATFORM", TU_POCL_PLATFORM, 1);
    setenv("COOP_TRACE_FILE", trace, 1);
    tu_process run = tu_run_process(bench);
    unsetenv("COOP_TRACE_FILE");
    assert_status(&run, "COOP_TRACE_FILE=... sched-bench --quick --tasks 6", 0, "units not run exactly once: 0");
    free(run.output);

    char *cost[] = {"scripts/gather-cost", trace, "--csv", csv, "--slow", "1000", NULL};
    static const char *const report[] = {" tasks; clock ", "sched_units_mega on ", "\n  kills us ", "\n  sweeps ",
                                         NULL};
    assert_run_says(cost, "scripts/gather-cost TRACE --csv CSV --slow 1000", report);
    char *text = read_text("tasks.csv");
    ck_assert_msg(!strncmp(text, "request,groups,idle,sweeps,offers_us,kills_us,gather_us\n", 56),
                  "tasks.csv's header:\n%.200s", text);
    ck_assert_msg(count_lines(text) >= 2, "tasks.csv has no task:\n%s", text);
    unsigned swept = 0;
    for (const char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        unsigned request, groups, idle, sweeps;
        double offers_us, kills_us, gather_us;
        ck_assert_int_eq(sscanf(line, "%u,%u,%u,%u,%lf,%lf,%lf", &request, &groups, &idle, &sweeps, &offers_us,
                                &kills_us, &gather_us),
                         7);
        ck_assert_msg(groups >= 1 && idle <= groups && sweeps <= groups - idle, "a task's groups: %.60s", line);
        ck_assert_msg(0 <= offers_us && offers_us <= kills_us && kills_us <= gather_us,
                      "a task's phases out of order: %.60s", line);
        swept += sweeps;
    }
    ck_assert_msg(swept > 0, "no task took a group by a kill:\n%s", text);
    free(text);

    char *plain[] = {BENCH, "bfs", "--gen", "grid:8:8", "--trace", quiet, NULL};
    assert_run(plain, "coop-bench --trace", 0, "trace of the last run: ");
    char *no_task[] = {"scripts/gather-cost", quiet, NULL};
    assert_run(no_task, "scripts/gather-cost on a run without tasks", 1, "no task started within the trace");
    char *not_a_trace[] = {"scripts/gather-cost", "README.md", NULL};
    assert_run(not_a_trace, "scripts/gather-cost README.md", 1, "gather-cost: README.md: not JSON");
    char *zero[] = {"scripts/gather-cost", trace, "--slow", "0", NULL};
    assert_run(zero, "scripts/gather-cost --slow 0", 2, "--slow: 0.0 is not a time above 0");
}
END_TEST

/* ---- embed.sh ----------------------------------------------------------------------------- */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

/* An app's step includes its own header, found beside it, which includes the kernel library's,
 * found in a -I folder; a header beside the includer wins over one of the same name there. */
START_TEST(embed_finds_includes_in_folders)
{
    char kernel[2 * PATH_BYTES], beside[2 * PATH_BYTES], lib[2 * PATH_BYTES], lib_header[3 * PATH_BYTES],
        lib_shadow[3 * PATH_BYTES];
    snprintf(kernel, sizeof kernel, "%s/step.cl", scratch);
    snprintf(beside, sizeof beside, "%s/app.h", scratch);
    snprintf(lib, sizeof lib, "%s/lib", scratch);
    snprintf(lib_header, sizeof lib_header, "%s/expand.h", lib);
    snprintf(lib_shadow, sizeof lib_shadow, "%s/app.h", lib);
    ck_assert_int_eq(mkdir(lib, 0755), 0);
    write_text(kernel, "#include \"app.h\"\nkernel void step(void) { app_round(); }\n");
    write_text(beside, "#include \"expand.h\"\ninline void app_round(void) { expand(); }\n");
    write_text(lib_header, "inline void expand(void) {}\n");
    write_text(lib_shadow, "#error the header beside the kernel comes first\n");

    char *folders[] = {"/bin/sh", "scripts/embed.sh", "-i", "-I", lib, "step_source", kernel, NULL};
    tu_process run = tu_run_process(folders);
    assert_status(&run, "embed.sh -i -I lib", 0, "const char step_source[] =");
    const char *expand = strstr(run.output, "inline void expand(void) {}");
    const char *round = strstr(run.output, "inline void app_round(void)");
    const char *step = strstr(run.output, "kernel void step(void)");
    ck_assert_msg(expand && round && step && expand < round && round < step,
                  "embed.sh -i -I lib: not the library's header, the app's, then the kernel:\n%s", run.output);
    ck_assert_msg(!strstr(run.output, "#error") && !strstr(run.output, "#include"),
                  "embed.sh -i -I lib: an include left or the wrong app.h:\n%s", run.output);
    free(run.output);

    /* Without the folder the header is looked for beside the file that includes it, and named so. */
    char missing[4 * PATH_BYTES];
    snprintf(missing, sizeof missing, "embed.sh: cannot read %s/expand.h", scratch);
    char *no_folder[] = {"/bin/sh", "scripts/embed.sh", "-i", "step_source", kernel, NULL};
    assert_run(no_folder, "embed.sh -i without -I", 1, missing);
    char *no_name[] = {"/bin/sh", "scripts/embed.sh", "-i", "-I", NULL};
    assert_run(no_name, "embed.sh -i -I", 1, "embed.sh: -I needs a folder");

    char *remove[] = {"/bin/rm", "-r", lib, NULL};
    assert_run(remove, "rm -r lib", 0, "");
}
END_TEST

/* ---- Bad options -------------------------------------------------------------------------- */

START_TEST(bad_options)
{
    char *unknown[] = {"scripts/overhead", "--fast", NULL};
    assert_run(unknown, "scripts/overhead --fast", 2, "unrecognized arguments: --fast");

    char *bad_groups[] = {"scripts/overhead", "--quick", "--groups", "0", "--out", scratch, NULL};
    assert_run(bad_groups, "scripts/overhead --groups 0", 2, "--groups: '0' is neither a count above 0 nor auto");
    char *sweep_groups[] = {"scripts/overhead", "--quick", "--sweep", "--groups", "3", "--out", scratch, NULL};
    assert_run(sweep_groups, "scripts/overhead --sweep --groups 3", 2, "--sweep: --groups is auto");

    /* Experiments go to scratch/ unless --report asks for the tree's report folder: one or the other. */
    char *both[] = {"scripts/scaling", "--quick", "--out", scratch, "--report", NULL};
    assert_run(both, "scripts/scaling --out DIR --report", 2, "argument --report: not allowed with argument --out");

    char *no_bench[] = {"scripts/responsiveness", "--quick", "--bench", "/nonexistent/coop-bench", "--out", scratch,
                        NULL};
    assert_run(no_bench, "scripts/responsiveness --bench /nonexistent/coop-bench", 1,
               "/nonexistent/coop-bench is missing");

    char *no_input[] = {"scripts/responsiveness", "--input", "no-such-graph.gr", "--out", scratch, NULL};
    assert_run(no_input, "scripts/responsiveness --input no-such-graph.gr", 1, "input no-such-graph.gr not found");
}
END_TEST

/* ---- scripts/loaded-check ----------------------------------------------------------------- */

/* The loaded-check output folder `name` in the scratch folder, and its removal (it holds clones). */
static void loaded_folder(char *path, size_t bytes, const char *name)
{
    snprintf(path, bytes, "%s/%s", scratch, name);
}

static void loaded_remove(const char *path)
{
    char command[3 * PATH_BYTES];
    snprintf(command, sizeof command, "rm -rf '%s'", path);
    ck_assert_int_eq(system(command), 0);
}

/* The pids the summary's first line names as the hogs ("(pids 12 34)"); returns how many. */
static unsigned hog_pids(const char *summary, pid_t *pids, unsigned most)
{
    const char *at = strstr(summary, "(pids ");
    ck_assert_msg(at != NULL, "summary names no hogs:\n%s", summary);
    unsigned count = 0;
    for (at += strlen("(pids "); count < most && *at >= '0' && *at <= '9';) {
        char *end;
        pids[count++] = (pid_t)strtol(at, &end, 10);
        at = *end == ' ' ? end + 1 : end;
    }
    return count;
}

static void assert_gone(pid_t pid, const char *what)
{
    errno = 0;
    ck_assert_msg(kill(pid, 0) == -1 && errno == ESRCH, "%s: process %d still there", what, (int)pid);
}

/* Three runs over two lanes, each in a clone of the checkout, beside two hogs: each run's line in
 * the summary with its tests' line, "3 of 3 runs green", and the hogs ended with the script. The
 * runs stay in the caller's session (with autogroup scheduling a session of their own would share
 * the CPUs with the hogs as one more process, not as many). */
START_TEST(loaded_check_counts_green_runs)
{
    char out[2 * PATH_BYTES];
    loaded_folder(out, sizeof out, "green");
    char *argv[] = {"scripts/loaded-check", "--runs", "3", "--lanes", "2", "--hogs", "2", "--out", out, "--command",
                    "test -f Makefile -a -d .git && echo session $(cut -d' ' -f6 /proc/$$/stat) && "
                    "echo '7 passed, 0 failed'", NULL};
    assert_run(argv, "scripts/loaded-check --runs 3 --lanes 2 --hogs 2", 0, "3 of 3 runs green");
    char *summary = read_text("green/summary.txt");
    ck_assert_msg(strstr(summary, "3 runs of 'test -f Makefile") != NULL && count_lines(summary) == 4,
                  "summary:\n%s", summary);
    unsigned lines = 0;
    for (const char *at = summary; (at = strstr(at, ": exit status 0, ")) != NULL; at++)
        lines++;
    ck_assert_msg(lines == 3 && strstr(summary, "lane 1 run 1: ") && strstr(summary, "lane 2 run 1: "),
                  "summary:\n%s", summary);
    ck_assert_msg(strstr(summary, "[7 passed, 0 failed]") != NULL, "summary:\n%s", summary);
    char *log = read_text("green/logs/lane-1-run-1.log");
    char session[32];
    snprintf(session, sizeof session, "session %d\n", (int)getsid(0));
    ck_assert_msg(strstr(log, session) != NULL, "a run not in the caller's %s:\n%s", session, log);
    free(log);
    pid_t pids[4];
    ck_assert_uint_eq(hog_pids(summary, pids, 4), 2);
    for (unsigned i = 0; i < 2; i++)
        assert_gone(pids[i], "a hog after the script ended");
    free(summary);
    loaded_remove(out);
}
END_TEST

/* A run whose command fails is counted so (exit status 1), its tests' line kept. */
START_TEST(loaded_check_counts_failed_runs)
{
    char out[2 * PATH_BYTES];
    loaded_folder(out, sizeof out, "red");
    char *argv[] = {"scripts/loaded-check", "--runs", "2", "--hogs", "0", "--out", out, "--command",
                    "echo '6 passed, 1 failed'; exit 1", NULL};
    assert_run(argv, "scripts/loaded-check --command 'exit 1'", 1, "0 of 2 runs green");
    char *summary = read_text("red/summary.txt");
    ck_assert_msg(strstr(summary, "lane 1 run 2: exit status 1, ") && strstr(summary, "[6 passed, 1 failed]"),
                  "summary:\n%s", summary);
    free(summary);
    loaded_remove(out);
}
END_TEST

/* SIGTERM ends the runs under way (their whole process trees) and the hogs, with status 130. */
START_TEST(loaded_check_ends_everything_on_sigterm)
{
    char out[2 * PATH_BYTES], pids_path[3 * PATH_BYTES];
    loaded_folder(out, sizeof out, "interrupted");
    snprintf(pids_path, sizeof pids_path, "%s/pids", out);
    /* each run's shell writes its pid beside the clones, then becomes a sleep that outlasts the test */
    char *argv[] = {"scripts/loaded-check", "--runs", "4", "--lanes", "2", "--hogs", "2", "--out", out, "--command",
                    "echo $$ >> ../pids; exec sleep 600", NULL};
    pid_t child = tu_start_silent(argv);
    /* both lanes' runs started (a busy machine may take a while to clone and start them) */
    char *pids_text = NULL;
    for (int tries = 0; tries < 1200; tries++) {
        free(pids_text);
        pids_text = access(pids_path, R_OK) == 0 ? tu_read_file(pids_path, NULL) : NULL;
        if (pids_text && count_lines(pids_text) >= 2)
            break;
        nanosleep(&(struct timespec){.tv_nsec = 50000000}, NULL);
    }
    ck_assert_msg(pids_text && count_lines(pids_text) == 2, "the two lanes' runs did not start within 60 s");
    ck_assert_int_eq(kill(child, SIGTERM), 0);
    int status;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130, "loaded-check ended with status %#x", status);
    char *summary = read_text("interrupted/summary.txt");
    pid_t hogs[4];
    ck_assert_uint_eq(hog_pids(summary, hogs, 4), 2);
    for (unsigned i = 0; i < 2; i++)
        assert_gone(hogs[i], "a hog after SIGTERM");
    ck_assert_msg(count_lines(summary) == 1, "an interrupted run was recorded:\n%s", summary);
    for (const char *at = pids_text; *at;) {
        char *end;
        pid_t pid = (pid_t)strtol(at, &end, 10);
        assert_gone(pid, "a run's process after SIGTERM");
        at = *end ? end + 1 : end;
    }
    free(summary);
    free(pids_text);
    loaded_remove(out);
}
END_TEST

START_TEST(loaded_check_bad_arguments)
{
    char *runs[] = {"scripts/loaded-check", "--runs", "0", NULL};
    assert_run(runs, "scripts/loaded-check --runs 0", 2, "argument --runs: '0' is out of range; expected 1 to 1000");
    char *hogs[] = {"scripts/loaded-check", "--hogs", "four", NULL};
    assert_run(hogs, "scripts/loaded-check --hogs four", 2, "argument --hogs: 'four' is not a whole number");
    char out[2 * PATH_BYTES];
    loaded_folder(out, sizeof out, "never");
    char *rev[] = {"scripts/loaded-check", "--rev", "no-such-commit", "--out", out, NULL};
    assert_run(rev, "scripts/loaded-check --rev no-such-commit", 2, "--rev no-such-commit: not a commit of ");
    ck_assert_msg(access(out, F_OK) != 0, "a refused run created %s", out);
    /* a folder holding anything is never written into */
    char file[3 * PATH_BYTES];
    snprintf(file, sizeof file, "%s/keep.txt", scratch);
    FILE *keep = fopen(file, "w");
    ck_assert_ptr_nonnull(keep);
    fclose(keep);
    char *full[] = {"scripts/loaded-check", "--out", scratch, NULL};
    assert_run(full, "scripts/loaded-check --out (a folder holding a file)", 2, "is not empty; name a new folder");
    ck_assert_int_eq(access(file, F_OK), 0);
}
END_TEST

static Suite *scripts_suite(void)
{
    Suite *suite = suite_create("scripts");
    TCase *quick = tu_tcase("quick", 180);
    tcase_add_checked_fixture(quick, scratch_create, scratch_remove);
    tcase_add_test(quick, overhead_quick);
    tcase_add_test(quick, responsiveness_quick);
    tcase_add_test(quick, alternatives_from_saved_outputs);
    tcase_add_test(quick, bad_options);
    tcase_add_test(quick, timeline_draws_a_trace);
    tcase_add_test(quick, round_cost_of_a_trace);
    tcase_add_test(quick, round_cost_of_one_kernel);
    tcase_add_test(quick, gather_cost_of_a_trace);
    tcase_add_test(quick, scaling_quick);
    tcase_add_test(quick, scaling_from_csv);
    tcase_add_test(quick, default_folder_is_scratch);
    suite_add_tcase(suite, quick);

    TCase *loaded = tu_tcase("loaded", 120);
    tcase_add_checked_fixture(loaded, scratch_create, scratch_remove);
    tcase_add_test(loaded, loaded_check_counts_green_runs);
    tcase_add_test(loaded, loaded_check_counts_failed_runs);
    tcase_add_test(loaded, loaded_check_ends_everything_on_sigterm);
    tcase_add_test(loaded, loaded_check_bad_arguments);
    suite_add_tcase(suite, loaded);

    TCase *embed = tu_tcase("embed", 30);
    tcase_add_checked_fixture(embed, scratch_create, scratch_remove);
    tcase_add_test(embed, embed_finds_includes_in_folders);
    suite_add_tcase(suite, embed);
    return suite;
}

int main(void)
{
    return tu_run(scripts_suite());
}
