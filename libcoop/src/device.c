/* Device probing and selection. */
#include "internal.h"
#include "strict.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COOP_MAX_PLATFORMS 16
#define COOP_MAX_DEVICES 64

static void device_string(cl_device_id device, cl_device_info param, char *out, size_t size)
{
    out[0] = '\0';
    if (clGetDeviceInfo(device, param, size, out, NULL) != CL_SUCCESS)
        out[0] = '\0';
    out[size - 1] = '\0';
}

/* 1 if the device lists extension `name`, 0 if not, -1 if memory ran out reading the list. */
static int has_extension(cl_device_id device, const char *name)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return 0;
    char *list = malloc(size + 1);
    if (!list)
        return -1;
    int found = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, list, NULL) == CL_SUCCESS) {
        list[size] = '\0';
        size_t length = strlen(name);
        for (char *at = strstr(list, name); at; at = strstr(at + 1, name)) {
            int starts = at == list || at[-1] == ' ';
            int ends = at[length] == ' ' || at[length] == '\0';
            if (starts && ends) {
                found = 1;
                break;
            }
        }
    }
    free(list);
    return found;
}

static int contains_nocase(const char *haystack, const char *needle)
{
    size_t length = strlen(needle);
    for (const char *at = haystack; *at; at++) {
        size_t i = 0;
        while (i < length && at[i] &&
               tolower((unsigned char)at[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == length)
            return 1;
    }
    return length == 0;
}

/* "OpenCL C 2.0 ..." -> 200; 0 if unreadable. */
static int c_version_number(const char *text)
{
    int major = 0, minor = 0;
    if (sscanf(text, "OpenCL C %d.%d", &major, &minor) != 2)
        return 0;
    return major * 100 + minor * 10;
}

/* "OpenCL 3.0 PoCL 5.0+debian ..." -> 5; 0 if the version names no PoCL release. */
static int pocl_major(const char *version)
{
    const char *at = strstr(version, "PoCL ");
    int major = 0;
    return at && sscanf(at, "PoCL %d", &major) == 1 ? major : 0;
}

const char *coop_device_refusal(const coop_device_info *info)
{
    if (pocl_major(info->version) == 5)
        return "PoCL 5's work-group compiler aborts on most megakernels built without optimization "
               "(the isAutomaticLocal and region-entry assertions) and runs some optimized ones wrong "
               "(docs/TESTING.md, the smith campaigns): use PoCL 3 (Debian 12's pocl-opencl-icd)";
    return NULL;
}

static coop_target classify(const coop_device_info *info)
{
    if (contains_nocase(info->platform, "Portable Computing Language") ||
        contains_nocase(info->version, "PoCL")) {
        /* PoCL's "basic" driver runs one workgroup after another: nothing may wait for another
         * group there. */
        int sequential = strncmp(info->name, "basic", 5) == 0;
        return info->svm_atomics && !sequential && !coop_device_refusal(info) ? COOP_TARGET_POCL
                                                                              : COOP_TARGET_UNSUPPORTED;
    }
    if (contains_nocase(info->vendor, "NVIDIA"))
        return COOP_TARGET_NVIDIA;
    if (c_version_number(info->c_version) >= 200 && info->atomic_acq_rel &&
        (info->atomic_scopes & COOP_SCOPE_DEVICE))
        return COOP_TARGET_CL20;
    return COOP_TARGET_UNSUPPORTED;
}

coop_status coop_probe_device(cl_platform_id platform, cl_device_id device, coop_device_info *info)
{
    char platform_name[sizeof info->platform];
    if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL) != CL_SUCCESS)
        platform_name[0] = '\0';
    platform_name[sizeof platform_name - 1] = '\0';
    memcpy(info->platform, platform_name, sizeof platform_name);
    device_string(device, CL_DEVICE_NAME, info->name, sizeof info->name);
    device_string(device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
    device_string(device, CL_DEVICE_VERSION, info->version, sizeof info->version);
    device_string(device, CL_DEVICE_OPENCL_C_VERSION, info->c_version, sizeof info->c_version);

    cl_device_type type = 0;
    cl_uint units = 0;
    size_t max_local = 0;
    cl_device_svm_capabilities svm = 0;
    cl_device_atomic_capabilities atomics = 0;
    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_local, &max_local, NULL);
    if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) != CL_SUCCESS)
        svm = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof atomics, &atomics, NULL) != CL_SUCCESS)
        atomics = 0;

    info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    info->compute_units = units;
    info->max_local_size = max_local;
    info->svm_coarse = (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0;
    info->svm_fine_buffer = (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
    info->svm_fine_system = (svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) != 0;
    info->svm_atomics = (svm & CL_DEVICE_SVM_ATOMICS) != 0;
    info->atomic_scopes = ((atomics & CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP) ? COOP_SCOPE_WORK_GROUP : 0) |
                          ((atomics & CL_DEVICE_ATOMIC_SCOPE_DEVICE) ? COOP_SCOPE_DEVICE : 0) |
                          ((atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) ? COOP_SCOPE_ALL_DEVICES : 0);
    info->atomic_acq_rel = (atomics & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0;
    int create_buffer = has_extension(device, "cl_nv_create_buffer");
    int attributes = has_extension(device, "cl_nv_device_attribute_query");
    if (create_buffer < 0 || attributes < 0)
        return COOP_ERR_NO_MEMORY; /* a device probed without its extensions would pick another channel */
    info->nv_create_buffer = create_buffer;
    info->nv_compute_capability = 0;
    if (attributes) {
        /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV / _MINOR_NV */
        cl_uint major = 0, minor = 0;
        if (clGetDeviceInfo(device, 0x4000, sizeof major, &major, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(device, 0x4001, sizeof minor, &minor, NULL) == CL_SUCCESS)
            info->nv_compute_capability = major * 10 + minor;
    }
    info->target = classify(info);
    if (info->svm_fine_buffer && info->svm_atomics)
        info->channel = COOP_CHANNEL_SVM;
    else if (info->nv_create_buffer)
        info->channel = COOP_CHANNEL_NVHOST;
    else
        info->channel = COOP_CHANNEL_QUEUE;
    return COOP_OK;
}

/* All devices of all platforms, with their handles. */
typedef struct device_table {
    size_t count;
    cl_platform_id platforms[COOP_MAX_DEVICES];
    cl_device_id devices[COOP_MAX_DEVICES];
    coop_device_info info[COOP_MAX_DEVICES];
} device_table;

static coop_status enumerate(device_table *table)
{
    cl_platform_id platforms[COOP_MAX_PLATFORMS];
    cl_uint platform_count = 0;
    table->count = 0;
    if (clGetPlatformIDs(COOP_MAX_PLATFORMS, platforms, &platform_count) != CL_SUCCESS || platform_count == 0)
        return COOP_ERR_NO_PLATFORM;
    if (platform_count > COOP_MAX_PLATFORMS)
        platform_count = COOP_MAX_PLATFORMS;
    for (cl_uint p = 0; p < platform_count; p++) {
        cl_device_id devices[COOP_MAX_DEVICES];
        cl_uint device_count = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, COOP_MAX_DEVICES, devices, &device_count) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < device_count && d < COOP_MAX_DEVICES && table->count < COOP_MAX_DEVICES; d++) {
            size_t slot = table->count++;
            table->platforms[slot] = platforms[p];
            table->devices[slot] = devices[d];
            memset(&table->info[slot], 0, sizeof table->info[slot]);
            if (coop_probe_device(platforms[p], devices[d], &table->info[slot]) == COOP_ERR_NO_MEMORY)
                return COOP_ERR_NO_MEMORY;
            table->info[slot].platform_index = p;
            table->info[slot].device_index = d;
        }
    }
    return table->count ? COOP_OK : COOP_ERR_NO_PLATFORM;
}

coop_status coop_list_devices(coop_device_info **out, size_t *count)
{
    if (!out || !count)
        return COOP_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *count = 0;
    device_table *table = malloc(sizeof *table);
    if (!table)
        return COOP_ERR_NO_MEMORY;
    coop_status status = enumerate(table);
    if (status == COOP_OK) {
        *out = malloc(table->count * sizeof **out);
        if (*out) {
            memcpy(*out, table->info, table->count * sizeof **out);
            *count = table->count;
        } else {
            status = COOP_ERR_NO_MEMORY;
        }
    }
    free(table);
    return status;
}

/* A device or platform selector: a decimal index, or else a case-insensitive substring of the
 * name. `source` names where it came from, for messages. */
typedef struct selector {
    const char *text;          /* NULL: anything matches */
    const char *source;
    int is_index;
    unsigned index;
} selector;

/* The option if given, else the environment variable; digits only make an index (strictly: an
 * index too large for 32 bits is an error, not a name). */
static coop_status read_selector(coop_context *ctx, const char *option, const char *option_name, coop_env_var var,
                                 selector *out)
{
    *out = (selector){.text = option && *option ? option : coop_env_text(var),
                      .source = option && *option ? option_name : coop_env_name(var)};
    if (!out->text || strspn(out->text, "0123456789") != strlen(out->text))
        return COOP_OK;
    uint64_t index = 0;
    char why[COOP_PARSE_MESSAGE_BYTES];
    if (coop_parse_unsigned(out->source, out->text, 0, UINT32_MAX, &index, why, sizeof why) != 0)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "%s (an index, or a part of the name)", why);
    out->is_index = 1;
    out->index = (unsigned)index;
    return COOP_OK;
}

static int selector_matches(const selector *sel, unsigned index, const char *name)
{
    if (!sel->text)
        return 1;
    return sel->is_index ? sel->index == index : contains_nocase(name, sel->text);
}

/* "  [P.D] platform: device (target, channel)" for each device, into a malloc'ed string. */
static char *describe_devices(const device_table *table)
{
    size_t size = 1 + table->count * (sizeof table->info[0].platform + sizeof table->info[0].name + 64);
    char *text = malloc(size);
    if (!text)
        return NULL;
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < table->count; i++) {
        const coop_device_info *info = &table->info[i];
        used += (size_t)snprintf(text + used, size - used, "\n  [%u.%u] %s: %s (%s)", info->platform_index,
                                 info->device_index, info->platform, info->name, coop_target_name(info->target));
    }
    return text;
}

/* Reads the selection (options first, then the environment) and marks in `matched` the devices it
 * names: device indices count within the selected platform(s) when a platform is named, else
 * across all devices, as `coop-info` lists them. Without a device selector every device of the
 * platforms matches. *candidates: the devices the platform selector lets through. */
static coop_status match_devices(coop_context *ctx, const device_table *table, const coop_options *options,
                                 selector *platform_sel, selector *device_sel, unsigned char *matched,
                                 unsigned *candidates)
{
    coop_status status = read_selector(ctx, options ? options->platform : NULL, "options->platform",
                                       COOP_ENV_PLATFORM, platform_sel);
    if (status == COOP_OK)
        status = read_selector(ctx, options ? options->device : NULL, "options->device", COOP_ENV_DEVICE,
                               device_sel);
    if (status != COOP_OK)
        return status;
    *candidates = 0;
    for (size_t i = 0; i < table->count; i++) {
        const coop_device_info *info = &table->info[i];
        matched[i] = 0;
        if (!selector_matches(platform_sel, info->platform_index, info->platform))
            continue;
        unsigned index = platform_sel->text ? info->device_index : (*candidates);
        (*candidates)++;
        matched[i] = (unsigned char)selector_matches(device_sel, index, info->name);
    }
    return COOP_OK;
}

coop_status coop_match_devices(const coop_options *options, coop_device_info **out, size_t *count, char *message,
                               size_t size)
{
    if (message && size)
        message[0] = '\0';
    if (!out || !count)
        return COOP_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *count = 0;
    /* a context of its own only to hold the message */
    coop_context scratch = {0};
    device_table *table = malloc(sizeof *table);
    if (!table)
        return COOP_ERR_NO_MEMORY;
    unsigned char matched[COOP_MAX_DEVICES];
    selector platform_sel, device_sel;
    unsigned candidates = 0;
    coop_status status = COOP_OK;
    /* the channel selects no device, but a context made with these options would refuse it */
    if (options && (unsigned)options->channel > COOP_CHANNEL_QUEUE)
        status = coop_fail(&scratch, COOP_ERR_INVALID_ARGUMENT,
                           "coop_match_devices: options->channel = %d is not a coop_channel_kind "
                           "(COOP_CHANNEL_AUTO .. COOP_CHANNEL_QUEUE)", (int)options->channel);
    else if ((status = enumerate(table)) == COOP_ERR_NO_MEMORY)
        coop_fail(&scratch, status, "out of memory listing devices");
    else if (status != COOP_OK)
        coop_fail(&scratch, status, "no OpenCL platform or device found: is an ICD (e.g. pocl-opencl-icd) installed?");
    if (status == COOP_OK)
        status = match_devices(&scratch, table, options, &platform_sel, &device_sel, matched, &candidates);
    size_t found = 0;
    for (size_t i = 0; status == COOP_OK && i < table->count; i++)
        found += matched[i];
    if (status == COOP_OK && !found)
        status = coop_fail(&scratch, COOP_ERR_DEVICE_NOT_FOUND, "no OpenCL device matches platform '%s' device '%s'",
                           platform_sel.text ? platform_sel.text : "*", device_sel.text ? device_sel.text : "*");
    if (status == COOP_OK && !(*out = malloc(found * sizeof **out)))
        status = COOP_ERR_NO_MEMORY;
    for (size_t i = 0; status == COOP_OK && i < table->count; i++)
        if (matched[i])
            (*out)[(*count)++] = table->info[i];
    if (message && size && scratch.message)
        snprintf(message, size, "%s", scratch.message);
    free(scratch.message);
    free(table);
    return status;
}

coop_status coop_select_device(coop_context *ctx, const coop_options *options)
{
    device_table *table = malloc(sizeof *table);
    if (!table)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory listing devices");
    coop_status status = enumerate(table);
    if (status != COOP_OK) {
        free(table);
        if (status == COOP_ERR_NO_MEMORY)
            return coop_fail(ctx, status, "out of memory listing devices");
        return coop_fail(ctx, status, "no OpenCL platform or device found: is an ICD (e.g. pocl-opencl-icd) installed?");
    }
    unsigned char matched[COOP_MAX_DEVICES];
    selector platform_sel, device_sel;
    unsigned candidates = 0;
    status = match_devices(ctx, table, options, &platform_sel, &device_sel, matched, &candidates);
    if (status != COOP_OK) {
        free(table);
        return status;
    }
    /* The first match; without a device selector, the first that can run cooperative kernels. */
    long chosen = -1;
    for (size_t i = 0; i < table->count && chosen < 0; i++)
        if (matched[i] && (device_sel.text || table->info[i].target != COOP_TARGET_UNSUPPORTED))
            chosen = (long)i;
    if (chosen < 0) {
        char *list = describe_devices(table);
        if (device_sel.text || !candidates)
            status = coop_fail(ctx, COOP_ERR_DEVICE_NOT_FOUND,
                               "no OpenCL device matches platform '%s' device '%s'; devices:%s",
                               platform_sel.text ? platform_sel.text : "*", device_sel.text ? device_sel.text : "*",
                               list ? list : "");
        else {
            /* a device refused by its release says why (the list says only "unsupported") */
            const char *why = NULL;
            for (size_t i = 0; i < table->count && !why; i++)
                if (matched[i])
                    why = coop_device_refusal(&table->info[i]);
            status = coop_fail(ctx, COOP_ERR_DEVICE_UNSUPPORTED,
                               "no device can run cooperative kernels (OpenCL C 2.0 acquire/release "
                               "atomics, PoCL with SVM atomics, or NVIDIA); devices:%s%s%s", list ? list : "",
                               why ? "; " : "", why ? why : "");
        }
        free(list);
        free(table);
        return status;
    }
    ctx->info = table->info[chosen];
    ctx->platform = table->platforms[chosen];
    ctx->device = table->devices[chosen];
    free(table);
    if (ctx->info.target == COOP_TARGET_UNSUPPORTED && coop_device_refusal(&ctx->info))
        return coop_fail(ctx, COOP_ERR_DEVICE_UNSUPPORTED, "device '%s' (%s, %s) is not supported: %s", ctx->info.name,
                         ctx->info.platform, ctx->info.version, coop_device_refusal(&ctx->info));
    if (ctx->info.target == COOP_TARGET_UNSUPPORTED)
        return coop_fail(ctx, COOP_ERR_DEVICE_UNSUPPORTED,
                         "device '%s' (%s) cannot run cooperative kernels: it has %s and no "
                         "acquire/release atomics at device scope, or runs its workgroups one at a time",
                         ctx->info.name, ctx->info.platform, ctx->info.c_version);
    return COOP_OK;
}

const char *coop_target_name(coop_target target)
{
    switch (target) {
    case COOP_TARGET_POCL: return "pocl";
    case COOP_TARGET_NVIDIA: return "nvidia";
    case COOP_TARGET_CL20: return "opencl-c-2.0";
    default: return "unsupported";
    }
}
