/* test_device.c: device listing, the capability probe and device selection
 * (libcoop/src/device.c, through coop_list_devices() and coop_context_create()). */
#include "testutil.h"

#include <unistd.h>

/* The PoCL CPU device ("pthread-<cpu>") in a device list, or NULL. */
static const coop_device_info *find_pocl(const coop_device_info *devices, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strstr(devices[i].platform, TU_POCL_PLATFORM) && strncmp(devices[i].name, "pthread", 7) == 0)
            return &devices[i];
    return NULL;
}

/* Creates a context with `options` (may be NULL) and asserts that it selected the PoCL device. */
static void assert_selects_pocl(const coop_options *options)
{
    coop_context *ctx = NULL;
    TU_ASSERT_OK(ctx, coop_context_create(options, &ctx));
    const coop_device_info *info = coop_context_device(ctx);
    ck_assert_str_eq(info->platform, TU_POCL_PLATFORM);
    ck_assert_msg(strncmp(info->name, "pthread", 7) == 0, "selected '%s'", info->name);
    coop_context_release(ctx);
}

/* Asserts that `options` select nothing, and that the message names the selection that failed
 * (`selection`) and lists the devices that exist. */
static void assert_not_found(const coop_options *options, const char *selection)
{
    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    const coop_device_info *pocl = find_pocl(devices, count);
    ck_assert_ptr_nonnull(pocl);

    coop_context *ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(options, &ctx), COOP_ERR_DEVICE_NOT_FOUND, selection);
    const char *message = coop_context_message(ctx);
    ck_assert_ptr_nonnull(strstr(message, "devices:"));
    char entry[sizeof pocl->platform + sizeof pocl->name + 32];
    snprintf(entry, sizeof entry, "[%u.%u] %s: %s (pocl)", pocl->platform_index, pocl->device_index, pocl->platform,
             pocl->name);
    ck_assert_msg(strstr(message, entry) != NULL, "the list lacks \"%s\": %s", entry, message);
    coop_context_release(ctx);
    free(devices);
}

START_TEST(list_finds_pocl_with_its_capabilities)
{
    tu_env(3);
    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    ck_assert_uint_ge(count, 1);
    ck_assert_ptr_nonnull(devices);
    const coop_device_info *pocl = find_pocl(devices, count);
    ck_assert_msg(pocl != NULL, "no PoCL pthread device among %zu devices", count);

    ck_assert_uint_eq(pocl->compute_units, 3); /* POCL_MAX_PTHREAD_COUNT */
    ck_assert_int_eq(pocl->is_gpu, 0);
    ck_assert_uint_ge(pocl->max_local_size, 256);
    ck_assert_msg(strncmp(pocl->c_version, "OpenCL C ", 9) == 0, "c_version '%s'", pocl->c_version);
    ck_assert_msg(strstr(pocl->version, "PoCL") != NULL, "version '%s'", pocl->version);
    ck_assert_int_eq(pocl->svm_coarse, 1);
    ck_assert_int_eq(pocl->svm_fine_buffer, 1);
    ck_assert_int_eq(pocl->svm_fine_system, 0);
    ck_assert_int_eq(pocl->svm_atomics, 1);
    ck_assert_int_eq(pocl->atomic_acq_rel, 1);
    ck_assert_uint_ne(pocl->atomic_scopes & COOP_SCOPE_DEVICE, 0);
    ck_assert_int_eq(pocl->nv_create_buffer, 0);
    ck_assert_int_eq(pocl->target, COOP_TARGET_POCL);
    ck_assert_int_eq(pocl->channel, COOP_CHANNEL_SVM);
    ck_assert_str_eq(coop_target_name(pocl->target), "pocl");
    ck_assert_str_eq(coop_channel_name(pocl->channel), "svm");

    /* Indices: platforms in order, devices counted from 0 within each platform. */
    for (size_t i = 1; i < count; i++) {
        const coop_device_info *previous = &devices[i - 1], *info = &devices[i];
        if (info->platform_index == previous->platform_index)
            ck_assert_uint_eq(info->device_index, previous->device_index + 1);
        else
            ck_assert_uint_gt(info->platform_index, previous->platform_index);
    }
    ck_assert_uint_eq(devices[0].device_index, 0);
    free(devices);
}
END_TEST

START_TEST(context_probe_matches_the_list)
{
    tu_env(2);
    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    const coop_device_info *listed = find_pocl(devices, count);
    ck_assert_ptr_nonnull(listed);

    coop_context *ctx = tu_context(2);
    const coop_device_info *info = coop_context_device(ctx);
    ck_assert_str_eq(info->name, listed->name);
    ck_assert_str_eq(info->platform, listed->platform);
    ck_assert_uint_eq(info->platform_index, listed->platform_index);
    ck_assert_uint_eq(info->device_index, listed->device_index);
    ck_assert_uint_eq(info->compute_units, 2);
    ck_assert_int_eq(info->target, COOP_TARGET_POCL);
    ck_assert_int_eq(info->channel, COOP_CHANNEL_SVM);
    ck_assert_int_eq(coop_context_channel(ctx), COOP_CHANNEL_SVM);
    ck_assert_ptr_nonnull(coop_context_cl(ctx));
    ck_assert_ptr_nonnull(coop_context_queue(ctx));
    ck_assert_str_eq(coop_context_message(ctx), "");
    coop_context_release(ctx);
    free(devices);
}
END_TEST

START_TEST(default_selection_is_the_first_supported_device)
{
    tu_env(2);
    assert_selects_pocl(NULL);
    coop_options options = {0};
    assert_selects_pocl(&options);
}
END_TEST

START_TEST(select_by_index)
{
    tu_env(2);
    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    const coop_device_info *pocl = find_pocl(devices, count);
    ck_assert_ptr_nonnull(pocl);
    char platform[16], device[16], position[16];
    snprintf(platform, sizeof platform, "%u", pocl->platform_index);
    snprintf(device, sizeof device, "%u", pocl->device_index);
    snprintf(position, sizeof position, "%zu", (size_t)(pocl - devices));

    /* With a platform, the index counts within it; without, across all devices. */
    coop_options options = {.platform = platform, .device = device};
    assert_selects_pocl(&options);
    options = (coop_options){.device = position};
    assert_selects_pocl(&options);
    options = (coop_options){.platform = platform};
    assert_selects_pocl(&options);
    free(devices);
}
END_TEST

START_TEST(select_by_substring_ignores_case)
{
    tu_env(2);
    coop_options options = {.device = "PThReAd"};
    assert_selects_pocl(&options);
    options = (coop_options){.platform = "portable COMPUTING", .device = "pthread"};
    assert_selects_pocl(&options);
    options = (coop_options){.platform = "language"};
    assert_selects_pocl(&options);
}
END_TEST

START_TEST(select_by_environment)
{
    tu_env(2);
    setenv("COOP_DEVICE", "PTHREAD", 1);
    assert_selects_pocl(NULL);
    setenv("COOP_PLATFORM", "computing LANGUAGE", 1);
    assert_selects_pocl(NULL);
    unsetenv("COOP_DEVICE");
    assert_selects_pocl(NULL);

    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    const coop_device_info *pocl = find_pocl(devices, count);
    ck_assert_ptr_nonnull(pocl);
    char index[16];
    snprintf(index, sizeof index, "%u", pocl->platform_index);
    setenv("COOP_PLATFORM", index, 1);
    snprintf(index, sizeof index, "%u", pocl->device_index);
    setenv("COOP_DEVICE", index, 1);
    assert_selects_pocl(NULL);
    free(devices);
}
END_TEST

/* A selection in the options wins over the environment. */
START_TEST(options_override_the_environment)
{
    tu_env(2);
    setenv("COOP_DEVICE", "no-such-device", 1);
    setenv("COOP_PLATFORM", "no-such-platform", 1);
    coop_options options = {.platform = TU_POCL_PLATFORM, .device = "pthread"};
    assert_selects_pocl(&options);
}
END_TEST

START_TEST(no_match_by_options_lists_the_devices)
{
    tu_env(2);
    coop_options options = {.device = "no-such-device"};
    assert_not_found(&options, "device 'no-such-device'");
    options = (coop_options){.platform = "no-such-platform"};
    assert_not_found(&options, "platform 'no-such-platform'");
    options = (coop_options){.device = "63"};
    assert_not_found(&options, "device '63'");
    /* A device that exists, on a platform that does not hold it. */
    options = (coop_options){.platform = "NVIDIA CUDA", .device = "pthread"};
    assert_not_found(&options, "platform 'NVIDIA CUDA' device 'pthread'");
}
END_TEST

START_TEST(no_match_by_environment_lists_the_devices)
{
    tu_env(2);
    setenv("COOP_DEVICE", "Quadro-9000", 1);
    assert_not_found(NULL, "device 'Quadro-9000'");
    unsetenv("COOP_DEVICE");
    setenv("COOP_PLATFORM", "42", 1);
    assert_not_found(NULL, "platform '42'");
}
END_TEST

/* coop_match_devices lists what a selection names, by libcoop's own rules (coop-info used to
 * match names case-sensitively on its own): all devices without one, the PoCL device by a name
 * in any case, none for a name nothing has, and a malformed index is refused with the reason. */
START_TEST(match_devices_follows_the_selection)
{
    tu_env(2);
    coop_device_info *all = NULL, *matched = NULL;
    size_t all_count = 0, count = 0;
    char why[256];
    ck_assert_int_eq(coop_list_devices(&all, &all_count), COOP_OK);
    ck_assert_int_eq(coop_match_devices(NULL, &matched, &count, why, sizeof why), COOP_OK);
    ck_assert_uint_eq(count, all_count);
    free(matched);
    setenv("COOP_DEVICE", "PTHREAD", 1);
    ck_assert_int_eq(coop_match_devices(NULL, &matched, &count, why, sizeof why), COOP_OK);
    ck_assert_uint_ge(count, 1);
    for (size_t i = 0; i < count; i++)
        ck_assert_ptr_nonnull(strstr(matched[i].name, "pthread"));
    free(matched);
    coop_options options = {.device = "no-such-device"};
    matched = (coop_device_info *)1;
    ck_assert_int_eq(coop_match_devices(&options, &matched, &count, why, sizeof why), COOP_ERR_DEVICE_NOT_FOUND);
    ck_assert_ptr_null(matched);
    ck_assert_uint_eq(count, 0);
    ck_assert_str_eq(why, "no OpenCL device matches platform '*' device 'no-such-device'");
    setenv("COOP_DEVICE", "4294967296", 1);
    ck_assert_int_eq(coop_match_devices(NULL, &matched, &count, why, sizeof why), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(why, "COOP_DEVICE: '4294967296' is out of range; expected a whole number from 0 to 4294967295 "
                          "(an index, or a part of the name)");
    ck_assert_int_eq(coop_match_devices(NULL, NULL, &count, NULL, 0), COOP_ERR_INVALID_ARGUMENT);
    free(all);
}
END_TEST

/* The ICD loader finds no platform at all. */
START_TEST(no_platform)
{
    char empty[] = "/tmp/test_device.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(empty));
    tu_env(2);
    setenv("OCL_ICD_VENDORS", empty, 1);

    coop_device_info *devices = (coop_device_info *)1;
    size_t count = 99;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_ERR_NO_PLATFORM);
    ck_assert_ptr_null(devices);
    ck_assert_uint_eq(count, 0);

    coop_context *ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(NULL, &ctx), COOP_ERR_NO_PLATFORM, "no OpenCL platform or device");
    coop_context_release(ctx);
    rmdir(empty);
}
END_TEST

/* A platform with no device (PoCL told to load a driver that does not exist). */
START_TEST(platform_without_devices)
{
    tu_env(2);
    setenv("POCL_DEVICES", "no-such-driver", 1);
    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_ERR_NO_PLATFORM);
    coop_context *ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(NULL, &ctx), COOP_ERR_NO_PLATFORM, "is an ICD");
    coop_context_release(ctx);
}
END_TEST

/* PoCL 5 is refused by its release, with the reason (its compiler aborts on or miscompiles
 * generated megakernels, docs/TESTING.md); the PoCL here (3), a later PoCL and NVIDIA are not. */
START_TEST(pocl_5_is_refused_by_its_release)
{
    static const struct {
        const char *platform, *version;
        int refused;
    } cases[] = {
        {TU_POCL_PLATFORM, "OpenCL 3.0 PoCL 5.0+debian  Linux, None+Asserts, RELOC, SPIR-V, LLVM 16.0.6", 1},
        {TU_POCL_PLATFORM, "OpenCL 3.0 PoCL 5.1  Linux, Release, RELOC, LLVM 17", 1},
        {TU_POCL_PLATFORM, "OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, LLVM 15.0.6", 0},
        {TU_POCL_PLATFORM, "OpenCL 3.0 PoCL 6.0  Linux, Release", 0},
        {"NVIDIA CUDA", "OpenCL 3.0 CUDA", 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        coop_device_info info = {.svm_atomics = 1};
        snprintf(info.platform, sizeof info.platform, "%s", cases[c].platform);
        snprintf(info.version, sizeof info.version, "%s", cases[c].version);
        const char *why = coop_device_refusal(&info);
        ck_assert_msg(!why == !cases[c].refused, "'%s': %s", cases[c].version, why ? why : "not refused");
        if (why)
            ck_assert_msg(strstr(why, "PoCL 5") && strstr(why, "PoCL 3"), "'%s': %s", cases[c].version, why);
    }
    /* the PoCL here is not refused: a context opens on it */
    coop_device_info *devices = NULL;
    size_t count = 0;
    tu_env(2);
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    for (size_t i = 0; i < count; i++)
        if (strstr(devices[i].platform, TU_POCL_PLATFORM) && strncmp(devices[i].name, "basic", 5) != 0)
            ck_assert_msg(devices[i].target == COOP_TARGET_POCL, "%s (%s) is not a PoCL target", devices[i].name,
                          devices[i].version);
    free(devices);
}
END_TEST

/* PoCL's "basic" driver runs one workgroup after another, so nothing may wait for another group:
 * the probe marks it unsupported, and a context refuses it by name, whether it is the only
 * device (default selection) or selected explicitly. */
START_TEST(basic_driver_is_unsupported)
{
    tu_env(2);
    setenv("POCL_DEVICES", "basic", 1);
    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    const coop_device_info *basic = NULL;
    for (size_t i = 0; i < count; i++)
        if (strstr(devices[i].platform, TU_POCL_PLATFORM) && strncmp(devices[i].name, "basic", 5) == 0)
            basic = &devices[i];
    ck_assert_msg(basic != NULL, "no PoCL basic device among %zu devices", count);
    ck_assert_int_eq(basic->target, COOP_TARGET_UNSUPPORTED);

    coop_context *ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(NULL, &ctx), COOP_ERR_DEVICE_UNSUPPORTED, basic->name);
    ck_assert_ptr_nonnull(strstr(coop_context_message(ctx), "(unsupported)"));
    coop_context_release(ctx);

    coop_options options = {.platform = TU_POCL_PLATFORM, .device = "basic"};
    ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(&options, &ctx), COOP_ERR_DEVICE_UNSUPPORTED, basic->name);
    ck_assert_ptr_nonnull(strstr(coop_context_message(ctx), "one at a time"));
    coop_context_release(ctx);
    free(devices);
}
END_TEST

static Suite *device_suite(void)
{
    Suite *suite = suite_create("device");
    TCase *probe = tu_tcase("probe", 60);
    tcase_add_test(probe, list_finds_pocl_with_its_capabilities);
    tcase_add_test(probe, context_probe_matches_the_list);
    tcase_add_test(probe, no_platform);
    tcase_add_test(probe, platform_without_devices);
    tcase_add_test(probe, basic_driver_is_unsupported);
    tcase_add_test(probe, pocl_5_is_refused_by_its_release);
    suite_add_tcase(suite, probe);

    TCase *select = tu_tcase("selection", 60);
    tcase_add_test(select, default_selection_is_the_first_supported_device);
    tcase_add_test(select, select_by_index);
    tcase_add_test(select, select_by_substring_ignores_case);
    tcase_add_test(select, select_by_environment);
    tcase_add_test(select, options_override_the_environment);
    tcase_add_test(select, no_match_by_options_lists_the_devices);
    tcase_add_test(select, no_match_by_environment_lists_the_devices);
    tcase_add_test(select, match_devices_follows_the_selection);
    suite_add_tcase(suite, select);
    return suite;
}

int main(void)
{
    return tu_run(device_suite());
}
