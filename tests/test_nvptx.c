/* test_nvptx.c: every kernel program the project ships compiles for NVIDIA's target, so that the
 * NVIDIA-only code of libcoop's kernel headers (inline PTX, COOP_COLD out-of-line paths, the cold
 * context copies, warp-aggregated atomics, the %globaltimer trace clock) cannot rot unseen on a
 * machine without the GPU. make check otherwise builds kernels only for PoCL.
 *
 * Each program is compiled by clang's OpenCL front end for nvptx64-nvidia-nvcl to PTX (-O2 -S),
 * with libcoop's kernel headers in front of it (as libcoop prepends them) and the defines
 * libcoop/src/program.c's target_options() passes for COOP_TARGET_NVIDIA; megakernels (those
 * that call coop_schedule) also traced, with COOP_TRACING=1, as coop_mega_run builds them for a
 * traced run. -Dasm=__asm__: NVIDIA's front end takes GNU `asm` in OpenCL C, clang's only the
 * reserved spelling. What this cannot check: the text of the inline PTX instructions, which only
 * ptxas reads (clang checks the asm's operands and constraints, not the instruction strings;
 * scripts/trace-cost runs ptxas where CUDA is installed). A failure names the file, the options
 * and clang's diagnostics, which are printed in full on standard output. */
#include "testutil.h"

#include <glob.h>
#include <sys/stat.h>

#define HEADERS_DIR "libcoop/include"

/* libcoop's NVIDIA build options (program.c, target_options: -cl-std=CL2.0, the target, parallel
 * spinning, the compute capability; COOP_CTRL_IN_CHAN=0 since NVIDIA's channel is not
 * fine-grained SVM), for an H100/H200 (sm_90). */
static const char *const nvidia_options[] = {
    "-x", "cl", "-cl-std=CL2.0", "--target=nvptx64-nvidia-nvcl", "-Xclang", "-finclude-default-header",
    "-cl-kernel-arg-info", "-Dasm=__asm__", "-DCOOP_TARGET_NVIDIA=1", "-DCOOP_PARALLEL_SPIN=1", "-DCOOP_NV_SM=90",
    "-DCOOP_CTRL_IN_CHAN=0", "-O2", "-S",
    /* the include paths the programs are built with (their -I options, or embed.sh -i) */
    "-Ikernels", "-Ikernels/lib", "-Ikernels/tasks", "-Ikernels/generated", "-Itests/kernels", "-Imerge-tool/bench"};
enum { NVIDIA_OPTION_COUNT = sizeof nvidia_options / sizeof nvidia_options[0], MAX_EXTRA = 4 };

/* clang with the NVPTX back end: $CLANG, else Debian's clang-14 (scripts/install-deps.sh). */
static const char *find_clang(void)
{
    static const char *const candidates[] = {"/usr/lib/llvm-14/bin/clang", "/usr/bin/clang-14", "/usr/bin/clang"};
    const char *chosen = getenv("CLANG");
    if (chosen && *chosen)
        return chosen;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (access(candidates[i], X_OK) == 0)
            return candidates[i];
    ck_abort_msg("no clang found (Debian's clang-14: scripts/install-deps.sh; or set CLANG)");
    return NULL;
}

/* Failures found so far, for one assertion at the end of a test. */
typedef struct failures {
    unsigned count;
    char names[2048];
} failures;

/* Compiles `path` with `extra` options (space-separated, MAX_EXTRA at most) and the kernel header
 * of `headers` (a folder holding coop_kernel.h and the files it includes: coop_layout.h,
 * coop_device/, coop_request.h); the PTX goes to `ptx` (NULL: discarded). Returns 1 if it
 * compiled, else prints clang's diagnostics, counts the failure and returns 0; *diagnostics (unless
 * NULL) gets clang's output (malloc'ed). */
static int compile(const char *path, const char *extra, const char *headers, const char *ptx, failures *f,
                   char **diagnostics)
{
    static char kernel[512];
    snprintf(kernel, sizeof kernel, "%s/coop_kernel.h", headers);
    char words[256];
    snprintf(words, sizeof words, "%s", extra);
    char *argv[NVIDIA_OPTION_COUNT + MAX_EXTRA + 16];
    size_t n = 0;
    argv[n++] = (char *)find_clang();
    for (size_t i = 0; i < NVIDIA_OPTION_COUNT; i++)
        argv[n++] = (char *)nvidia_options[i];
    size_t extras = 0;
    for (char *word = strtok(words, " "); word; word = strtok(NULL, " ")) {
        ck_assert_msg(++extras <= MAX_EXTRA, "%s: more than %d extra options in '%s'", path, MAX_EXTRA, extra);
        argv[n++] = word;
    }
    /* libcoop prepends the header's text (build/gen/kernel_header.c); -include keeps its files'
     * own names in the diagnostics */
    argv[n++] = "-include";
    argv[n++] = kernel;
    argv[n++] = (char *)path;
    argv[n++] = "-o";
    argv[n++] = (char *)(ptx ? ptx : "/dev/null");
    argv[n] = NULL;
    tu_process run = tu_run_process(argv);
    int ok = run.status == 0;
    if (!ok) {
        printf("== NVPTX: %s [%s] does not compile (clang exit status %d):\n%s\n", path, extra, run.status,
               run.output);
        fflush(stdout);
        size_t used = strlen(f->names);
        snprintf(f->names + used, sizeof f->names - used, "%s%s%s%s%s", f->count ? "; " : "", path,
                 *extra ? " [" : "", extra, *extra ? "]" : "");
        f->count++;
    }
    if (diagnostics)
        *diagnostics = run.output;
    else
        free(run.output);
    return ok;
}

static int contains(const char *path, const char *needle)
{
    char *text = tu_read_file(path, NULL);
    int found = strstr(text, needle) != NULL;
    free(text);
    return found;
}

/* Compiles every file `pattern` matches (at least one must) that contains `marker` (NULL: every
 * one), megakernels traced too. */
static void compile_all(const char *pattern, const char *marker)
{
    glob_t found;
    ck_assert_msg(glob(pattern, 0, NULL, &found) == 0 && found.gl_pathc > 0, "no file matches %s", pattern);
    failures f = {0};
    size_t compiled = 0;
    for (size_t i = 0; i < found.gl_pathc; i++) {
        const char *path = found.gl_pathv[i];
        if (marker && !contains(path, marker))
            continue;
        compiled++;
        compile(path, "", HEADERS_DIR, NULL, &f, NULL);
        if (contains(path, "coop_schedule("))
            compile(path, "-DCOOP_TRACING=1", HEADERS_DIR, NULL, &f, NULL);
    }
    printf("%s: %zu files compiled for NVPTX, %u compiles failed\n", pattern, compiled, f.count);
    ck_assert_msg(compiled > 0, "no file of %s contains %s", pattern, marker);
    globfree(&found);
    ck_assert_msg(f.count == 0, "%u compiles for NVPTX failed (diagnostics on standard output): %s", f.count,
                  f.names);
}

/* The programs coop-merge made (coop-bench, coop-demo, coop-ws, coop-chaos, sched-bench,
 * components): kernels/generated/merges.txt. */
START_TEST(generated_programs_compile)
{
    compile_all("kernels/generated/*.cl", NULL);
}
END_TEST

/* The apps' ordinary kernels: coop-bench's multikernel steps, coop-lbvh's chain, coop-path's naive
 * and host-driven wavefront kernels. */
START_TEST(step_kernels_compile)
{
    compile_all("apps/*/*_step.cl", NULL);
    compile_all("apps/path/path_plain.cl", NULL);
}
END_TEST

/* The tests' own megakernels and persistent kernels (those with COOP_PARAMS; the others there are
 * coop-merge's inputs, in the cooperative language, which tests build merged). */
START_TEST(test_kernels_compile)
{
    compile_all("tests/kernels/*.cl", "COOP_PARAMS");
}
END_TEST

/* Programs built with options of their own: the litmus tests (coop-litmus builds both
 * variants), the barrier self-test in every form barrier-bench builds, coop-bench's and
 * coop-demo's plain task kernels, sched-bench's ordinary kernels (queued.cl, the device clock's
 * stamps), merge-bench's hand-written megakernel, coop-lbvh's three forms with 8-bit digits;
 * and libcoop's own knobs that select other NVIDIA code: a GPU older than sm_80 (no redux.sync)
 * and the slow paths inlined (COOP_NV_INLINE, no cold context copies), and the barrier sites
 * (COOP_SITES). */
START_TEST(programs_with_options_compile)
{
    static const struct {
        const char *path, *options;
    } programs[] = {
        {"kernels/litmus.cl", "-DLITMUS_FENCED=0 -DLITMUS_LINE_WORDS=32"},
        {"kernels/litmus.cl", "-DLITMUS_FENCED=1 -DLITMUS_LINE_WORDS=32"},
        {"libcoop/src/selftest.cl", ""},
        {"libcoop/src/selftest.cl", "-DCOOP_BARRIER_VOTE=1"},
        {"libcoop/src/selftest.cl", "-DCOOP_BARRIER_VOTE=2"},
        {"libcoop/src/selftest.cl", "-DCOOP_BARRIER_EXTRA_ATOMIC=1"},
        {"libcoop/src/channel.cl", ""},
        {"kernels/tasks/plain.cl", ""},
        {"benchmarks/sched/queued.cl", ""},
        {"merge-tool/bench/hand.cl", ""},
        {"merge-tool/bench/hand.cl", "-DCOOP_TRACING=1"},
        {"kernels/generated/bfs_mega.cl", "-DCOOP_SITES=1"},
        {"tests/kernels/scheduler.cl", "-UCOOP_NV_SM -DCOOP_NV_SM=70"},
        {"tests/kernels/scheduler.cl", "-DCOOP_NV_INLINE=1"},
        {"tests/kernels/scheduler.cl", "-DCOOP_NV_INLINE=1 -DCOOP_TRACING=1"},
        {"tests/kernels/scheduler.cl", "-DCOOP_TEST_GIVE_BACK_LATE=1"},
        {"tests/kernels/scheduler.cl", "-DCOOP_TEST_SWEEP_HOLDS_TOKENS=1"},
        {"tests/kernels/scheduler.cl", "-DCOOP_CHECKS=1"},
        {"tests/kernels/scheduler.cl", "-DCOOP_CHECKS=1 -DCOOP_TRACING=1"},
        /* several cooperative kernels (docs/DESIGN.md section 17), as program.c builds them */
        {"tests/merge/expected/two_kernels.cl", "-DCOOP_KERNELS=2"},
        {"tests/merge/expected/two_kernels.cl", "-DCOOP_KERNELS=2 -DCOOP_CHECKS=1"},
        {"tests/merge/expected/two_kernels.cl", "-DCOOP_KERNELS=2 -DCOOP_NV_INLINE=1"},
        {"tests/merge/expected/two_kernels.cl", "-DCOOP_KERNELS=2 -DCOOP_TRACING=1"},
        {"kernels/generated/multi_mega.cl", "-DCOOP_KERNELS=2"},
        {"kernels/generated/multi_mega.cl", "-DCOOP_KERNELS=2 -DCOOP_TRACING=1"},
        /* coop-lbvh --digit-bits 8 */
        {"kernels/generated/lbvh_standalone.cl", "-DLBVH_RADIX_BITS=8"},
        {"kernels/generated/lbvh_matmult_mega.cl", "-DLBVH_RADIX_BITS=8"},
        {"apps/lbvh/lbvh_step.cl", "-DLBVH_RADIX_BITS=8"},
    };
    failures f = {0};
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
        compile(programs[i].path, programs[i].options, HEADERS_DIR, NULL, &f, NULL);
    ck_assert_msg(f.count == 0, "%u compiles for NVPTX failed (diagnostics on standard output): %s", f.count,
                  f.names);
}
END_TEST

/* The compile above really takes the NVIDIA paths: the PTX has the header's acquire loads and
 * acquire-release atomics, and the out-of-line slow paths as functions of their own. */
START_TEST(ptx_has_the_nvidia_paths)
{
    char ptx[] = "/tmp/test_nvptx-XXXXXX";
    int fd = mkstemp(ptx);
    ck_assert_int_ge(fd, 0);
    close(fd);
    failures f = {0};
    int ok = compile("tests/kernels/scheduler.cl", "", HEADERS_DIR, ptx, &f, NULL);
    char *text = ok ? tu_read_file(ptx, NULL) : NULL;
    unlink(ptx);
    ck_assert_msg(ok, "tests/kernels/scheduler.cl does not compile for NVPTX (diagnostics on standard output)");
    ck_assert_ptr_nonnull(strstr(text, ".entry reduce_mega("));
    ck_assert_ptr_nonnull(strstr(text, "ld.acquire.gpu.global.u32"));
    ck_assert_ptr_nonnull(strstr(text, "atom.acq_rel.gpu.global.cas.b32"));
    ck_assert_ptr_nonnull(strstr(text, "atom.release.gpu.global.add.u64")); /* the barrier's arrival */
    ck_assert_ptr_nonnull(strstr(text, "coop_offer_kill_slow"));             /* COOP_COLD: out of line */
    free(text);
}
END_TEST

/* A mistake inside the NVIDIA-only part of the kernel header fails the compile, with the
 * header's file and line in the diagnostics: a copy of the header's files with an undeclared name
 * right after the first `#if defined(COOP_TARGET_NVIDIA)` of coop_device/atomics.h (code no PoCL
 * build compiles). */
START_TEST(an_error_in_nvidia_code_is_found)
{
    char dir[] = "/tmp/test_nvptx-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char device[64];
    snprintf(device, sizeof device, "%s/coop_device", dir);
    ck_assert_int_eq(mkdir(device, 0700), 0);
    glob_t found;
    ck_assert_int_eq(glob(HEADERS_DIR "/coop_device/*.h", 0, NULL, &found), 0);
    const char *tops[] = {HEADERS_DIR "/coop_kernel.h", HEADERS_DIR "/coop_layout.h", HEADERS_DIR "/coop_request.h"};
    size_t count = 3 + found.gl_pathc;
    char **copies = calloc(count, sizeof *copies);
    ck_assert_ptr_nonnull(copies);
    int planted = 0;
    for (size_t i = 0; i < count; i++) {
        const char *from = i < 3 ? tops[i] : found.gl_pathv[i - 3];
        copies[i] = malloc(512);
        ck_assert_ptr_nonnull(copies[i]);
        snprintf(copies[i], 512, "%s/%s", dir, from + strlen(HEADERS_DIR "/"));
        char *text = tu_read_file(from, NULL);
        FILE *out = fopen(copies[i], "w");
        ck_assert_ptr_nonnull(out);
        char *at = strstr(from, "/coop_device/atomics.h") ? strstr(text, "#if defined(COOP_TARGET_NVIDIA)") : NULL;
        char *line_end = at ? strchr(at, '\n') : NULL;
        if (line_end) {
            fwrite(text, 1, (size_t)(line_end + 1 - text), out);
            fputs("inline uint coop_planted_mistake(void) { return coop_no_such_name; }\n", out);
            fputs(line_end + 1, out);
            planted = 1;
        } else {
            fputs(text, out);
        }
        fclose(out);
        free(text);
    }
    globfree(&found);
    ck_assert_msg(planted, "coop_device/atomics.h has no '#if defined(COOP_TARGET_NVIDIA)' line");
    failures f = {0};
    printf("(a planted mistake; the failure below is expected)\n");
    char *diagnostics = NULL;
    int ok = compile("libcoop/src/selftest.cl", "", dir, NULL, &f, &diagnostics);
    for (size_t i = 0; i < count; i++) {
        unlink(copies[i]);
        free(copies[i]);
    }
    free(copies);
    rmdir(device);
    rmdir(dir);
    ck_assert_msg(!ok, "a header with an undeclared name in its NVIDIA code compiled for NVPTX");
    ck_assert_uint_eq(f.count, 1);
    ck_assert_msg(strstr(diagnostics, "atomics.h:") && strstr(diagnostics, "coop_no_such_name"),
                  "clang's diagnostics do not name the header and the mistake:\n%s", diagnostics);
    free(diagnostics);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("nvptx");
    /* generated_programs_compile runs clang on every generated program one after the other: about
     * 30 s on two quiet cores, six times that beside 4 CPU hogs and two other make checks, most of
     * a 300 s limit; a hang is still caught, later */
    TCase *tc = tu_tcase("nvptx", 900);
    tcase_add_test(tc, generated_programs_compile);
    tcase_add_test(tc, step_kernels_compile);
    tcase_add_test(tc, test_kernels_compile);
    tcase_add_test(tc, programs_with_options_compile);
    tcase_add_test(tc, ptx_has_the_nvidia_paths);
    tcase_add_test(tc, an_error_in_nvidia_code_is_found);
    suite_add_tcase(suite, tc);
    return tu_run(suite);
}
