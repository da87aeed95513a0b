/* coop-info: lists OpenCL devices, what they offer cooperative kernels, and measures the
 * channel round trip, the discovered occupancy and the global-barrier latency on each. */
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

static void usage(FILE *out)
{
    fprintf(out, "usage: coop-info [--json] [--local-size L] [--barriers N] [--rounds N]\n"
                 "Lists OpenCL devices and measures, on each that can run cooperative kernels: the\n"
                 "channel round trip, the co-resident groups for local size L (default 256), the time\n"
                 "discovery took and the global-barrier latency. COOP_PLATFORM / COOP_DEVICE limit\n"
                 "the list; COOP_CHANNEL picks the channel backend.\n");
}

static int parse_count(const char *text, unsigned long *out)
{
    char *end = NULL;
    unsigned long value = strtoul(text, &end, 10);
    if (!*text || *end || value == 0)
        return 0;
    *out = value;
    return 1;
}

static void measure(const coop_device_info *info, size_t local_size, unsigned barriers, unsigned rounds,
                    measurements *m)
{
    char platform[16], device[16];
    snprintf(platform, sizeof platform, "%u", info->platform_index);
    snprintf(device, sizeof device, "%u", info->device_index);
    coop_options options = {.platform = platform, .device = device, .channel = COOP_CHANNEL_AUTO};
    coop_context *ctx = NULL;
    memset(m, 0, sizeof *m);
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

static int selected(const coop_device_info *info, unsigned position)
{
    const char *platform = getenv("COOP_PLATFORM");
    const char *device = getenv("COOP_DEVICE");
    char index[16];
    if (platform && *platform) {
        snprintf(index, sizeof index, "%u", info->platform_index);
        if (strcmp(platform, index) != 0 && !strstr(info->platform, platform))
            return 0;
        position = info->device_index;
    }
    if (device && *device) {
        snprintf(index, sizeof index, "%u", position);
        return strcmp(device, index) == 0 || strstr(info->name, device) != NULL;
    }
    return 1;
}

int main(int argc, char **argv)
{
    int json = 0;
    unsigned long local_size = 256, barriers = 1000, rounds = 200;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        unsigned long *target = !strcmp(arg, "--local-size") ? &local_size
                                : !strcmp(arg, "--barriers")  ? &barriers
                                : !strcmp(arg, "--rounds")    ? &rounds
                                                              : NULL;
        if (!strcmp(arg, "--json")) {
            json = 1;
        } else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 0;
        } else if (target && i + 1 < argc && parse_count(argv[i + 1], target)) {
            i++;
        } else {
            fprintf(stderr, "coop-info: bad argument '%s'%s\n", arg, target ? " (needs a positive number)" : "");
            usage(stderr);
            return 1;
        }
    }
    coop_device_info *devices = NULL;
    size_t count = 0;
    coop_status status = coop_list_devices(&devices, &count);
    if (status != COOP_OK) {
        fprintf(stderr, "coop-info: %s\n", coop_strerror(status));
        return 1;
    }
    if (json)
        printf("{\"devices\": [");
    int shown = 0;
    for (size_t i = 0; i < count; i++) {
        if (!selected(&devices[i], (unsigned)i))
            continue;
        measurements m;
        measure(&devices[i], local_size, (unsigned)barriers, (unsigned)rounds, &m);
        if (json)
            print_json(&devices[i], &m, !shown);
        else
            print_text(&devices[i], &m);
        shown++;
        if (m.status == COOP_ERR_TIMEOUT) {
            /* A kernel that timed out may still be running; its device cannot be reused. */
            fprintf(stderr, "coop-info: stopping after a timeout on %s\n", devices[i].name);
            break;
        }
    }
    if (json)
        printf("\n]}\n");
    free(devices);
    if (!shown) {
        fprintf(stderr, "coop-info: no device matches COOP_PLATFORM/COOP_DEVICE\n");
        return 1;
    }
    return 0;
}
