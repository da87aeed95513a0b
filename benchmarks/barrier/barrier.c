/* barrier-bench: global-barrier latency (microseconds per barrier, with a data check after each)
 * for 1, 2 and 4 groups per compute unit at local sizes 128 and 256. Where the CUDA comparison
 * program gridsync-bench was built (nvcc found) and a CUDA device exists, it runs
 * cooperative_groups grid.sync() on the same grid and prints libcoop / grid.sync.
 *
 *   barrier-bench [--barriers N] [--quick] [--options "BUILD OPTIONS"]
 * COOP_DEVICE etc. select the device; --options adds kernel build options. */
#include "coop.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    unsigned barriers = 10000;
    const char *extra = "";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            barriers = 1000;
        } else if (!strcmp(argv[i], "--options") && i + 1 < argc) {
            extra = argv[++i];
        } else if (!strcmp(argv[i], "--barriers") && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            barriers = (unsigned)atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: barrier-bench [--barriers N] [--quick] [--options \"BUILD OPTIONS\"]\n");
            return 2;
        }
    }
    coop_context *ctx = NULL;
    coop_status status = coop_context_create(NULL, &ctx);
    if (status != COOP_OK) {
        fprintf(stderr, "barrier-bench: %s: %s\n", coop_strerror(status), coop_context_message(ctx));
        coop_context_release(ctx);
        return 2;
    }
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
    if (status != COOP_OK) {
        fprintf(stderr, "barrier-bench: %s: %s\n", coop_strerror(status), coop_context_message(ctx));
        failed = 1;
    }
    printf("ratio = libcoop barrier / grid.sync (below 1: libcoop faster)\n");
    coop_context_release(ctx);
    return failed ? 1 : 0;
}
