/* spawn-bench: how soon a task spawned on the device starts (spawn_task, docs/DESIGN.md section
 * 10.2). The cooperative kernel benchmarks/spawn/spawner.cl (one member) spawns runs of the task
 * benchmarks/spawn/spawned.cl one after another, each once the last has started, so that each
 * finds the queue empty and idle groups waiting; the report's records give each run's wait from
 * its spawn to its request and its gather, whose sum is its spawn-to-start time. Options:
 * spawn_bench_cli's help. */
#include "buffers.h"
#include "cli.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "spawner_mega.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char spawner_mega_source[];

static const cli spawn_bench_cli = {
    "spawn-bench",
    "Usage: spawn-bench [--runs N] [--workgroups W] [--local-size L]\n"
    "Measures how soon a task spawned on the device starts.\n"
    "\n"
    "A cooperative kernel of one member spawns N runs of a task of W workgroups with spawn_task(),\n"
    "one after another, each once the last has started; the other groups wait idle for them.\n"
    "Prints the median and the 99th percentile of each run's spawn-to-start time (its wait from\n"
    "the spawn to its request, then its gather), and of the two parts. On a device with a clock\n"
    "(NVIDIA) the device times every part; elsewhere the wait counts only from when the host took\n"
    "the run from the device's queue, and the line says so.\n"
    "\n"
    "Options:\n"
    "  --runs N          spawned runs, 1 to 100000 (default 1000 on a GPU, 200 on a CPU)\n"
    "  --workgroups W    workgroups of each run, 1 to 4095 (default 1)\n"
    "  --local-size L    work-items per group (default 256 on a GPU, 64 on a CPU)\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every spawned run started\n"
    "  1  a bad option or environment value, or a device or OpenCL error\n"
    "  2  a spawn was refused or a run did not start (a record is missing)\n",
};

/* Median and 99th percentile of n values (sorted in place), printed as one line. */
static void print_line(const char *what, double *values, size_t n)
{
    printf("%-22s %10.2f %10.2f\n", what, stats_quantile(values, n, 0.5), stats_quantile(values, n, 0.99));
}

int main(int argc, char **argv)
{
    const cli *c = &spawn_bench_cli;
    unsigned runs = 0, workgroups = 1, local = 0;
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        if (cli_info_option(c, argv[i]))
            return CLI_EXIT_OK;
        if (!strcmp(argv[i], "--runs")) {
            if (!(value = cli_value(c, argc, argv, &i, &seen)) || cli_unsigned(c, "--runs", value, 1, 100000, &runs))
                return CLI_EXIT_ERROR;
        } else if (!strcmp(argv[i], "--workgroups")) {
            if (!(value = cli_value(c, argc, argv, &i, &seen)) ||
                cli_unsigned(c, "--workgroups", value, 1, 4095, &workgroups))
                return CLI_EXIT_ERROR;
        } else if (!strcmp(argv[i], "--local-size")) {
            if (!(value = cli_value(c, argc, argv, &i, &seen)) ||
                cli_unsigned(c, "--local-size", value, 1, CLI_MAX_LOCAL_SIZE, &local))
                return CLI_EXIT_ERROR;
        } else {
            cli_fail(c, "unknown option '%s'", argv[i]);
            return CLI_EXIT_ERROR;
        }
    }
    coop_context *ctx = NULL;
    if (device_open(c->name, NULL, &ctx) != 0)
        return CLI_EXIT_ERROR;
    const coop_device_info *info = coop_context_device(ctx);
    size_t local_size = local ? local : device_default_local_size(info);
    if (!runs)
        runs = info->is_gpu ? 1000 : 200;
    int rc = device_check_local_size(c->name, info, local_size);
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    if (rc == 0)
        rc = device_build(c->name, ctx, spawner_mega_source, SPAWNER_MEGA_NAME, &program, &kernel);
    cl_int err = CL_SUCCESS;
    cl_mem done = rc == 0 ? buffer_create(ctx, (runs + 1) * sizeof(cl_uint), NULL, &err) : NULL;
    if (rc == 0 && err == CL_SUCCESS)
        err = buffer_fill_words(coop_context_queue(ctx), done, 0, runs + 1);
    if (rc == 0 && err != CL_SUCCESS)
        rc = error_cl(c->name, err, "buffer");
    coop_status status = COOP_OK;
    coop_mega_report report = {0};
    if (rc == 0) {
        cl_uint words[2] = {runs, workgroups};
        status = coop_kernel_set_buffer(kernel, SPAWNER_MEGA_ARG_spawner_done, done);
        if (status == COOP_OK)
            status = coop_kernel_set_buffer(kernel, SPAWNER_MEGA_ARG_spawned_done, done);
        if (status == COOP_OK)
            status = coop_kernel_set_arg(kernel, SPAWNER_MEGA_ARG_spawner_runs, sizeof words[0], &words[0]);
        if (status == COOP_OK)
            status = coop_kernel_set_arg(kernel, SPAWNER_MEGA_ARG_spawner_workgroups, sizeof words[1], &words[1]);
        /* one member: the other groups are idle, ready for each spawned run */
        coop_mega_params params = {.launch = {.local_size = local_size}, .members = 1};
        if (status == COOP_OK)
            status = coop_mega_run(kernel, &params, NULL, 0, &report);
        if (status != COOP_OK)
            rc = error_coop(c->name, ctx, status, "spawner");
    }
    if (rc == 0) {
        double *total = calloc(3 * (report.record_count ? report.record_count : 1), sizeof *total);
        double *wait = total + report.record_count, *gather = wait + report.record_count;
        size_t n = 0, device_timed = 0;
        for (size_t k = 0; total && k < report.record_count; k++) {
            const coop_task_record *r = &report.records[k];
            if (!r->spawned)
                continue;
            wait[n] = r->spawn_wait_us;
            gather[n] = r->gather_us;
            total[n] = wait[n] + gather[n];
            device_timed += r->device_timed;
            n++;
        }
        printf("spawn-bench on %s (%s), %u groups (one member%s), local size %zu, %u runs of %u workgroup%s\n",
               info->name, info->platform, report.groups, report.agent ? ", one agent" : "", local_size, runs,
               workgroups, workgroups == 1 ? "" : "s");
        if (!total) {
            fprintf(stderr, "%s: out of memory\n", c->name);
            rc = CLI_EXIT_ERROR;
        } else {
            printf("%-22s %10s %10s\n", "microseconds", "median", "p99");
            print_line("spawn to start", total, n);
            print_line("  spawn to request", wait, n);
            print_line("  gather", gather, n);
            if (device_timed < n)
                printf("(timed by the host for %zu runs: the wait counts from when the host took the run)\n",
                       n - device_timed);
            if (n != runs) {
                fprintf(stderr, "%s: %zu of %u spawned runs have records\n", c->name, n, runs);
                rc = CLI_EXIT_CHECK;
            }
        }
        free(total);
    }
    coop_mega_report_free(&report);
    buffers_release(&done, 1);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
    return rc;
}
