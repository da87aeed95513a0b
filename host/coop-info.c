/* coop-info: lists OpenCL devices, what they offer cooperative kernels, and measures the
 * channel round trip, the discovered occupancy and the global-barrier latency on each. */
#include "cli.h"
#include "coop.h"
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct measurements {
    coop_status status;
    char error[1024];
    coop_channel_kind channel;
    double roundtrip_us;
    coop_barrier_result barrier;
} measurements;

static const cli coop_info_cli = {
    "coop-info",
    "Usage: coop-info [--json] [--local-size L] [--barriers N] [--rounds N]\n"
    "Lists the OpenCL devices and measures what each offers cooperative kernels.\n"
    "\n"
    "For every device that COOP_PLATFORM and COOP_DEVICE select (all by default): its capabilities\n"
    "and, where it can run cooperative kernels, the channel round trip, the co-resident groups\n"
    "that discovery finds, how long discovery took and the global-barrier latency.\n"
    "\n"
    "Options:\n"
    "  --json            write JSON instead of text\n"
    "  --local-size L    work-items per group for the measurements, 1 to 65536 and at most what\n"
    "                    the device allows (default 256)\n"
    "  --barriers N      global barriers to time, 1 to 10000000 (default 1000)\n"
    "  --rounds N        channel round trips to time, 1 to 1000000 (default 200)\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    "Environment:\n"
    "  COOP_PLATFORM, COOP_DEVICE  limit the list (an index, or a part of the name)\n"
    "  COOP_CHANNEL                the channel backend: svm, nvhost, queue or auto\n"
    "  and the other variables libcoop reads (README, \"Environment variables\")\n"
    "\n"
    "Exit status:\n"
    "  0  every selected device was listed (one that cannot run cooperative kernels says why)\n"
    "  1  a bad option or environment value, no OpenCL device, or a measurement timed out\n"
    "  2  a global barrier's data check failed on a device\n",
};

static void measure(const coop_device_info *info, size_t local_size, unsigned barriers, unsigned rounds,
                    measurements *m)
{
    char platform[16], device[16];
    snprintf(platform, sizeof platform, "%u", info->platform_index);
    snprintf(device, sizeof device, "%u", info->device_index);
    coop_options options = {.platform = platform, .device = device, .channel = COOP_CHANNEL_AUTO};
    coop_context *ctx = NULL;
    memset(m, 0, sizeof *m);
    if (local_size > info->max_local_size) {
        m->status = COOP_ERR_INVALID_ARGUMENT;
        snprintf(m->error, sizeof m->error, "--local-size %zu is more than the device allows (%zu)", local_size,
                 info->max_local_size);
        return;
    }
    m->status = coop_context_create(&options, &ctx);
    if (m->status == COOP_OK) {
        m->channel = coop_context_channel(ctx);
        double min_us = 0.0;
        m->status = coop_channel_roundtrip(ctx, rounds, &m->roundtrip_us, &min_us);
    }
    if (m->status == COOP_OK) {
        coop_barrier_params params = {.local_size = local_size, .barriers = barriers};
        m->status = coop_measure_barrier(ctx, &params, &m->barrier);
    }
    if (m->status != COOP_OK)
        snprintf(m->error, sizeof m->error, "%s: %s", coop_strerror(m->status), coop_context_message(ctx));
    coop_context_release(ctx);
}

static void print_json(const coop_device_info *info, const measurements *m, int first)
{
    printf("%s\n    {\"platform\": ", first ? "" : ",");
    json_string(stdout, info->platform);
    printf(", \"name\": ");
    json_string(stdout, info->name);
    printf(", \"compute_units\": %u, \"svm_fine_grain\": %s, \"svm_atomics\": %s, \"target\": \"%s\"",
           info->compute_units, info->svm_fine_buffer ? "true" : "false", info->svm_atomics ? "true" : "false",
           coop_target_name(info->target));
    if (m->status != COOP_OK) {
        printf(", \"channel\": null, \"error\": ");
        json_string(stdout, m->error);
        printf("}");
        return;
    }
    printf(", \"channel\": \"%s\", \"channel_roundtrip_us\": %.2f, \"local_size\": %zu, \"occupancy\": %u"
           ", \"discovery_ms\": %.3f, \"barrier_us\": %.3f, \"barrier_failures\": %u}",
           coop_channel_name(m->channel), m->roundtrip_us, m->barrier.local_size, m->barrier.groups,
           m->barrier.discovery_ms, m->barrier.us_per_barrier, m->barrier.failures);
}

static void print_text(const coop_device_info *info, const measurements *m)
{
    printf("[%u.%u] %s: %s\n", info->platform_index, info->device_index, info->platform, info->name);
    printf("  vendor %s; %s; %s\n", info->vendor, info->version, info->c_version);
    printf("  %s, %u compute units, max local size %zu\n", info->is_gpu ? "GPU" : "not a GPU", info->compute_units,
           info->max_local_size);
    printf("  SVM: coarse buffer %s, fine buffer %s, fine system %s, atomics %s\n", info->svm_coarse ? "yes" : "no",
           info->svm_fine_buffer ? "yes" : "no", info->svm_fine_system ? "yes" : "no",
           info->svm_atomics ? "yes" : "no");
    printf("  atomic scopes:%s%s%s%s; acquire/release %s; cl_nv_create_buffer %s\n",
           info->atomic_scopes & COOP_SCOPE_WORK_GROUP ? " work-group" : "",
           info->atomic_scopes & COOP_SCOPE_DEVICE ? " device" : "",
           info->atomic_scopes & COOP_SCOPE_ALL_DEVICES ? " all-devices" : "", info->atomic_scopes ? "" : " none",
           info->atomic_acq_rel ? "yes" : "no", info->nv_create_buffer ? "yes" : "no");
    printf("  memory-model target: %s\n", coop_target_name(info->target));
    if (m->status != COOP_OK) {
        printf("  cooperative kernels: no (%s)\n\n", m->error);
        return;
    }
    printf("  channel: %s, round trip %.2f us (mean)\n", coop_channel_name(m->channel), m->roundtrip_us);
    printf("  occupancy at local size %zu: %u groups (discovery %.3f ms)\n", m->barrier.local_size, m->barrier.groups,
           m->barrier.discovery_ms);
    printf("  global barrier: %.3f us per barrier over %u barriers (%s-timed), %u data-check failures\n\n",
           m->barrier.us_per_barrier, m->barrier.barriers, m->barrier.device_timed ? "device" : "host",
           m->barrier.failures);
}

int main(int argc, char **argv)
{
    const cli *c = &coop_info_cli;
    int json = 0;
    unsigned local_size = 256, barriers = 1000, rounds = 200;
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        if (cli_info_option(c, arg))
            return CLI_EXIT_OK;
        if (!strcmp(arg, "--json")) {
            json = 1;
            continue;
        }
        if (strcmp(arg, "--local-size") && strcmp(arg, "--barriers") && strcmp(arg, "--rounds")) {
            cli_fail(c, "unknown option '%s'", arg);
            return CLI_EXIT_ERROR;
        }
        if (!(value = cli_value(c, argc, argv, &i, &seen)))
            return CLI_EXIT_ERROR;
        int bad = !strcmp(arg, "--local-size") ? cli_unsigned(c, arg, value, 1, CLI_MAX_LOCAL_SIZE, &local_size)
                  : !strcmp(arg, "--barriers") ? cli_unsigned(c, arg, value, 1, 10000000, &barriers)
                                               : cli_unsigned(c, arg, value, 1, 1000000, &rounds);
        if (bad)
            return CLI_EXIT_ERROR;
    }
    /* the devices COOP_PLATFORM and COOP_DEVICE select, as libcoop selects them */
    coop_device_info *devices = NULL;
    size_t count = 0;
    char why[512];
    coop_status status = coop_match_devices(NULL, &devices, &count, why, sizeof why);
    if (status != COOP_OK) {
        fprintf(stderr, "coop-info: %s: %s\n", coop_strerror(status), why);
        return CLI_EXIT_ERROR;
    }
    if (json)
        printf("{\"devices\": [");
    int rc = CLI_EXIT_OK;
    for (size_t i = 0; i < count; i++) {
        measurements m;
        measure(&devices[i], local_size, barriers, rounds, &m);
        if (json)
            print_json(&devices[i], &m, i == 0);
        else
            print_text(&devices[i], &m);
        if (m.status == COOP_OK && m.barrier.failures && rc == CLI_EXIT_OK)
            rc = CLI_EXIT_CHECK;
        if (m.status == COOP_ERR_INVALID_ARGUMENT)
            rc = CLI_EXIT_ERROR; /* an option or environment value the device cannot take */
        if (m.status == COOP_ERR_TIMEOUT) {
            /* A kernel that timed out may still be running; its device cannot be reused. */
            fprintf(stderr, "coop-info: stopping after a timeout on %s\n", devices[i].name);
            rc = CLI_EXIT_ERROR;
            break;
        }
    }
    if (json)
        printf("\n]}\n");
    free(devices);
    return rc;
}
