/* barrier-bench: global-barrier latency (microseconds per barrier, with a data check after each)
 * for 1, 2 and 4 groups per compute unit at local sizes 128 and 256. Where the CUDA comparison
 * program gridsync-bench was built (make CUDA=1) and a CUDA device exists, it runs
 * cooperative_groups grid.sync() on the same grid and prints libcoop / grid.sync. Options:
 * barrier_bench_cli's help. */
#include "cli.h"
#include "coop.h"
#include "device.h"
#include "errors.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cli barrier_bench_cli = {
    "barrier-bench",
    "Usage: barrier-bench [--barriers N] [--quick] [--vote] [--options \"BUILD OPTIONS\"]\n"
    "Measures libcoop's global-barrier latency, against CUDA's grid.sync() where it can.\n"
    "\n"
    "For 1, 2 and 4 groups per compute unit at local sizes 128 and 256: microseconds per global\n"
    "barrier, each followed by a data check. Where gridsync-bench sits beside it (built with\n"
    "make CUDA=1) and a CUDA device exists, grid.sync() on the same grid and the ratio.\n"
    "\n"
    "Options:\n"
    "  --barriers N      barriers per point, 1 to 10000000 (default 10000)\n"
    "  --quick           1000 barriers per point\n"
    "  --vote            every barrier a vote (coop_global_barrier_any), its outcome checked\n"
    "  --options \"...\"  extra kernel build options (e.g. -cl-nv-maxrregcount=32)\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every data check passed\n"
    "  1  a bad option or environment value, or a device or OpenCL error\n"
    "  2  a data check failed (a read after a barrier missed a write made before it, or a vote\n"
    "     had the wrong outcome)\n",
};

/* Runs gridsync-bench from this program's folder; returns microseconds per sync or -1. */
static double gridsync_us(unsigned grid, size_t block, unsigned barriers, unsigned *failures)
{
    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0)
        return -1.0;
    self[length] = '\0';
    char command[PATH_MAX + 64];
    snprintf(command, sizeof command, "%s/gridsync-bench %u %zu %u 2>/dev/null", dirname(self), grid, block, barriers);
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return -1.0;
    char line[256];
    double us = -1.0;
    while (fgets(line, sizeof line, pipe)) {
        const char *at = strstr(line, "us_per_sync=");
        const char *fail = strstr(line, "failures=");
        if (at && fail) {
            us = atof(at + strlen("us_per_sync="));
            *failures = (unsigned)atoi(fail + strlen("failures="));
        }
    }
    pclose(pipe);
    return us;
}

int main(int argc, char **argv)
{
    const cli *c = &barrier_bench_cli;
    unsigned barriers = 10000;
    const char *extra = "";
    int vote = 0;
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        if (cli_info_option(c, argv[i]))
            return CLI_EXIT_OK;
        if (!strcmp(argv[i], "--quick")) {
            barriers = 1000;
        } else if (!strcmp(argv[i], "--vote")) {
            vote = 1;
        } else if (!strcmp(argv[i], "--options")) {
            if (!(extra = cli_value(c, argc, argv, &i, &seen)))
                return CLI_EXIT_ERROR;
        } else if (!strcmp(argv[i], "--barriers")) {
            if (!(value = cli_value(c, argc, argv, &i, &seen)) ||
                cli_unsigned(c, "--barriers", value, 1, 10000000, &barriers) != 0)
                return CLI_EXIT_ERROR;
        } else {
            cli_fail(c, "unknown option '%s'", argv[i]);
            return CLI_EXIT_ERROR;
        }
    }
    char options[1024];
    snprintf(options, sizeof options, "%s%s%s", extra, vote && *extra ? " " : "", vote ? "-DCOOP_BARRIER_VOTE=1" : "");
    extra = options;
    coop_context *ctx = NULL;
    if (device_open(barrier_bench_cli.name, NULL, &ctx) != 0)
        return CLI_EXIT_ERROR;
    coop_status status = COOP_OK;
    const coop_device_info *info = coop_context_device(ctx);
    printf("barrier-bench on %s (%s), %u compute units, %u barriers per point%s%s\n", info->name,
           info->platform, info->compute_units, barriers, *extra ? ", options " : "", extra);
    printf("%6s %8s %7s %8s %12s %10s %12s %9s\n", "local", "per-CU", "groups", "disc-ms", "barrier-us", "failures",
           "gridsync-us", "ratio");
    int failed = 0;
    const size_t locals[] = {128, 256};
    const unsigned per_unit[] = {1, 2, 4};
    for (size_t l = 0; l < 2 && status == COOP_OK; l++) {
        for (size_t p = 0; p < 3 && status == COOP_OK; p++) {
            coop_barrier_params params = {.local_size = locals[l],
                                          .max_groups = info->compute_units * per_unit[p],
                                          .barriers = barriers,
                                          .build_options = extra};
            coop_barrier_result result = {0};
            status = coop_measure_barrier(ctx, &params, &result);
            if (status != COOP_OK)
                break;
            unsigned cuda_failures = 0;
            double cuda_us = gridsync_us(result.groups, locals[l], barriers, &cuda_failures);
            printf("%6zu %8u %7u %8.3f %12.3f %10u", locals[l], per_unit[p], result.groups, result.discovery_ms,
                   result.us_per_barrier, result.failures + cuda_failures);
            if (cuda_us > 0)
                printf(" %12.3f %9.2f\n", cuda_us, result.us_per_barrier / cuda_us);
            else
                printf(" %12s %9s\n", "-", "-");
            if (result.groups < info->compute_units * per_unit[p])
                printf("       (only %u groups are co-resident at local size %zu)\n", result.groups, locals[l]);
            failed |= result.failures + cuda_failures != 0;
        }
    }
    printf("ratio = libcoop barrier / grid.sync (below 1: libcoop faster)\n");
    int rc = failed ? CLI_EXIT_CHECK : CLI_EXIT_OK;
    if (status != COOP_OK)
        rc = error_coop(barrier_bench_cli.name, ctx, status, NULL);
    coop_context_release(ctx);
    return rc;
}
