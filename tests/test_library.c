/* test_library.c: libcoop as a library (the Makefile's lib and install targets, coop.pc.in,
 * version.c): its version, the symbols libcoop.so exports (exactly the functions coop.h
 * declares), its soname and links, `make install` into a temporary prefix and a program outside
 * the tree built against it with nothing but `pkg-config --cflags --libs coop` (it calls OpenCL
 * too), the man pages installed beside the programs, and gridsync-bench (CUDA) built only when
 * asked. Run from the repository root after `make`. */
#include "testutil.h"

#include "coop/kernels/ws_layout.h" /* what the installed copy must give a program outside the tree */

#define LIBSO "build/lib/libcoop.so"

/* Runs `command` with /bin/sh and returns its output and status. */
static tu_process shell(const char *command)
{
    char *argv[] = {"/bin/sh", "-c", (char *)command, NULL};
    return tu_run_process(argv);
}

START_TEST(version_macros_and_function_agree)
{
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", COOP_VERSION_MAJOR, COOP_VERSION_MINOR, COOP_VERSION_PATCH);
    ck_assert_str_eq(text, COOP_VERSION_STRING);
    ck_assert_str_eq(coop_version(), COOP_VERSION_STRING);
}
END_TEST

/* The names of the functions coop.h declares (each declaration starts "COOP_API"), one per line
 * and sorted, into `out`. */
static void public_functions(char *out, size_t size)
{
    char *header = tu_read_file("libcoop/include/coop.h", NULL);
    char *names[256];
    size_t count = 0;
    for (char *at = strstr(header, "\nCOOP_API "); at; at = strstr(at + 1, "\nCOOP_API ")) {
        char *paren = strchr(at, '(');
        ck_assert_ptr_nonnull(paren);
        char *start = paren;
        while (start > at && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                              (start[-1] >= '0' && start[-1] <= '9')))
            start--;
        ck_assert_uint_lt(count, 256);
        names[count++] = strndup(start, (size_t)(paren - start));
    }
    free(header);
    ck_assert_uint_ge(count, 30);
    for (size_t i = 1; i < count; i++) /* insertion sort, as `sort` orders them in the C locale */
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *swap = names[j];
            names[j] = names[j - 1];
            names[j - 1] = swap;
        }
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        used += (size_t)snprintf(out + used, size - used, "%s\n", names[i]);
        free(names[i]);
    }
}

/* What libcoop.so exports is the public API, no more (23 internal coop_* functions were) and no
 * less. */
START_TEST(exports_are_the_public_api)
{
    static char expected[16384];
    public_functions(expected, sizeof expected);
    tu_process run = shell("LC_ALL=C nm -D --defined-only " LIBSO " | awk '{print $3}' | LC_ALL=C sort");
    ck_assert_msg(run.status == 0, "nm failed:\n%s", run.output);
    ck_assert_msg(strcmp(run.output, expected) == 0, "libcoop.so exports:\n%s\ncoop.h declares:\n%s", run.output,
                  expected);
    free(run.output);
}
END_TEST

/* libcoop.so -> libcoop.so.MAJOR -> libcoop.so.MAJOR.MINOR.PATCH, whose soname is libcoop.so.MAJOR. */
START_TEST(soname_and_links)
{
    char link[64], expected[64];
    ssize_t length = readlink(LIBSO, link, sizeof link - 1);
    ck_assert_int_gt(length, 0);
    link[length] = '\0';
    snprintf(expected, sizeof expected, "libcoop.so.%d", COOP_VERSION_MAJOR);
    ck_assert_str_eq(link, expected);
    length = readlink("build/lib/libcoop.so.0", link, sizeof link - 1);
    ck_assert_int_gt(length, 0);
    link[length] = '\0';
    ck_assert_str_eq(link, "libcoop.so." COOP_VERSION_STRING);
    tu_process run = shell("readelf -d " LIBSO);
    ck_assert_int_eq(run.status, 0);
    char soname[96];
    snprintf(soname, sizeof soname, "Library soname: [libcoop.so.%d]", COOP_VERSION_MAJOR);
    ck_assert_msg(strstr(run.output, soname) != NULL, "readelf -d " LIBSO ":\n%s", run.output);
    free(run.output);
}
END_TEST

/* Writes `text` to `path`. */
static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    ck_assert_ptr_nonnull(file);
    ck_assert_int_eq(fputs(text, file), strlen(text) ? 1 : 0);
    ck_assert_int_eq(fclose(file), 0);
}

static const char outside_program[] =
    "#include <coop.h>\n"
    "#include <coop/kernels/ws_layout.h>\n"
    "#include <stdio.h>\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "    printf(\"header %s, library %s\\n\", COOP_VERSION_STRING, coop_version());\n"
    "    printf(\"a queue of %zu words\\n\", WS_QUEUE_WORDS((size_t)3, 5u, 7u));\n"
    "    coop_context *ctx = NULL;\n"
    "    if (coop_context_create(NULL, &ctx) != COOP_OK) {\n"
    "        fprintf(stderr, \"%s\\n\", coop_context_message(ctx));\n"
    "        return 1;\n"
    "    }\n"
    "    cl_int err = CL_SUCCESS;\n"
    "    cl_mem buffer = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE, 64, NULL, &err);\n"
    "    if (err != CL_SUCCESS)\n"
    "        return 1;\n"
    "    clReleaseMemObject(buffer);\n"
    "    coop_context_release(ctx);\n"
    "    puts(\"context and buffer made\");\n"
    "    return 0;\n"
    "}\n";

/* A cooperative kernel outside the tree on the kernel library, as a user writes one. */
static const char outside_kernel[] =
    "#include \"ws_deque.h\"\n"
    "\n"
    "kernel void steal(global uint *queue_words, uint groups, uint limit, global uint *seen)\n"
    "{\n"
    "    local uint slots[WS_SLOT_WORDS];\n"
    "    transmit ws_queue q = ws_queue_make(queue_words, groups, 8u, limit);\n"
    "    transmit uint done = 0;\n"
    "    while (!done) {\n"
    "        uint task;\n"
    "        uint got = ws_next_task(&q, slots, &task);\n"
    "        done = got == WS_DONE;\n"
    "        if (got == WS_GOT && get_local_id(0) == 0) {\n"
    "            seen[task]++;\n"
    "            if (2u * task + 1u < limit)\n"
    "                ws_push(&q, get_group_id(0), 2u * task + 1u);\n"
    "            ws_task_done(&q);\n"
    "        }\n"
    "        offer_kill();\n"
    "        offer_fork();\n"
    "    }\n"
    "}\n";

/* A program that builds the merged kernel from its text, embedded with the installed embed.sh as
 * the README says. */
static const char embedding_program[] =
    "#include <coop.h>\n"
    "#include <stdio.h>\n"
    "\n"
    "#include \"steal_mega.h\"\n"
    "\n"
    "extern const char steal_mega_source[];\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "    coop_context *ctx = NULL;\n"
    "    coop_program *program = NULL;\n"
    "    coop_kernel *kernel = NULL;\n"
    "    if (coop_context_create(NULL, &ctx) != COOP_OK ||\n"
    "        coop_program_create(ctx, steal_mega_source, NULL, &program) != COOP_OK ||\n"
    "        coop_kernel_create(program, STEAL_MEGA_NAME, &kernel) != COOP_OK) {\n"
    "        fprintf(stderr, \"%s\\n\", coop_context_message(ctx));\n"
    "        return 1;\n"
    "    }\n"
    "    printf(\"%s built, %d arguments\\n\", STEAL_MEGA_NAME, STEAL_MEGA_ARG_COUNT);\n"
    "    coop_kernel_release(kernel);\n"
    "    coop_program_release(program);\n"
    "    coop_context_release(ctx);\n"
    "    return 0;\n"
    "}\n";

/* make install into a fresh prefix, then a program outside the tree that uses libcoop, OpenCL
 * and the kernel library's host header ws_layout.h, built with pkg-config alone (`pkg-config
 * --libs coop` gave -lcoop only, and the link failed with "DSO missing from command line"), and
 * run against the installed library. */
START_TEST(install_and_link_with_pkg_config)
{
    tu_env(2);
    char prefix[] = "/tmp/test_library.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(prefix));
    /* a make of its own, not a job of the make that may be running the tests */
    unsetenv("MAKEFLAGS");
    unsetenv("MFLAGS");
    unsetenv("MAKELEVEL");
    char command[1024];
    snprintf(command, sizeof command, "make -s install PREFIX=%s COOP_NO_DEPS=1 2>&1", prefix);
    tu_process run = shell(command);
    ck_assert_msg(run.status == 0, "%s: exit status %d:\n%s", command, run.status, run.output);
    free(run.output);

    static const char *const installed[] = {"lib/libcoop.a",
                                            ("lib/libcoop.so." COOP_VERSION_STRING),
                                            "lib/libcoop.so.0",
                                            "lib/libcoop.so",
                                            "include/coop.h",
                                            "include/coop_kernel.h",
                                            "lib/pkgconfig/coop.pc",
                                            "bin/coop-info",
                                            "bin/coop-bench",
                                            "share/man/man1/coop-info.1",
                                            "share/man/man1/coop-bench.1",
                                            "share/man/man1/coop-chaos.1"};
    for (size_t i = 0; i < sizeof installed / sizeof installed[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", prefix, installed[i]);
        struct stat info;
        ck_assert_msg(stat(path, &info) == 0, "make install did not install %s", installed[i]);
    }
    /* a man page for every installed program, made from its --help */
    snprintf(command, sizeof command,
             "cd %s && for p in bin/*; do test -s share/man/man1/${p#bin/}.1 || echo \"no page for $p\"; done", prefix);
    run = shell(command);
    ck_assert_msg(run.status == 0 && run.output[0] == '\0', "%s", run.output);
    free(run.output);
    char page[256];
    snprintf(page, sizeof page, "%s/share/man/man1/coop-info.1", prefix);
    char *text = tu_read_file(page, NULL);
    ck_assert_msg(strstr(text, ".SH OPTIONS") && strstr(text, "\\-\\-local\\-size"), "coop-info.1:\n%s", text);
    free(text);

    char source[256];
    snprintf(source, sizeof source, "%s/outside.c", prefix);
    write_text(source, outside_program);
    snprintf(command, sizeof command,
             "cd %s && export PKG_CONFIG_PATH=%s/lib/pkgconfig && "
             "cc -std=c11 -Wall -Wextra -Werror -o outside outside.c $(pkg-config --cflags --libs coop) && "
             "readelf -d outside | grep NEEDED && LD_LIBRARY_PATH=%s/lib ./outside",
             prefix, prefix, prefix);
    run = shell(command);
    ck_assert_msg(run.status == 0, "%s: exit status %d:\n%s", command, run.status, run.output);
    char queue[64];
    snprintf(queue, sizeof queue, "a queue of %zu words\n", WS_QUEUE_WORDS((size_t)3, 5u, 7u));
    const char *const expected[] = {"Shared library: [libcoop.so.0]", "Shared library: [libOpenCL.so.1]",
                                    "header " COOP_VERSION_STRING ", library " COOP_VERSION_STRING "\n", queue,
                                    "context and buffer made\n"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        ck_assert_msg(strstr(run.output, expected[i]) != NULL, "output lacks \"%s\":\n%s", expected[i], run.output);
    free(run.output);

    /* The kernel library is installed, and the installed coop-merge finds it with no -I (it said
     * "fatal error: 'ws_deque.h' file not found"); an -I of the user's comes first. */
    snprintf(command, sizeof command,
             "cd kernels/lib && for h in *.h; do cmp $h %s/include/coop/kernels/$h || echo \"$h not installed\"; done",
             prefix);
    run = shell(command);
    ck_assert_msg(run.status == 0 && run.output[0] == '\0', "%s", run.output);
    free(run.output);
    snprintf(source, sizeof source, "%s/steal.cl", prefix);
    write_text(source, outside_kernel);
    snprintf(command, sizeof command,
             "cd %s && bin/coop-merge steal.cl -o steal_mega.cl --host-header steal_mega.h 2>&1", prefix);
    run = shell(command);
    ck_assert_msg(run.status == 0 && run.output[0] == '\0', "%s: exit status %d:\n%s", command, run.status, run.output);
    free(run.output);
    char banner[512], path[256];
    snprintf(path, sizeof path, "%s/steal_mega.cl", prefix);
    text = tu_read_file(path, NULL);
    snprintf(banner, sizeof banner, "include/coop/kernels/ws_deque.h ---- */"); /* the installed copy */
    ck_assert_msg(strstr(text, banner) && strstr(text, "kernel void steal_mega("), "steal_mega.cl lacks %s:\n%.2000s",
                  banner, text);
    free(text);
    snprintf(command, sizeof command,
             "cd %s && mkdir mine && printf '#define WS_SLOT_WORDS 8u\\n' > mine/ws_deque.h && "
             "printf '#include \"ws_deque.h\"\\nkernel void fill(global uint *out)\\n"
             "{\\n    out[get_global_id(0)] = WS_SLOT_WORDS;\\n}\\n' > fill.cl && "
             "bin/coop-merge fill.cl -I %s/mine -o - 2>&1",
             prefix, prefix);
    run = shell(command);
    snprintf(banner, sizeof banner, "%s/mine/ws_deque.h ---- */", prefix);
    ck_assert_msg(run.status == 0 && strstr(run.output, banner), "%s: exit status %d:\n%s", command, run.status,
                  run.output);
    free(run.output);

    /* The merged program reaches a program of the user's as the README says: embedded by the
     * installed embed.sh (the tutorial's components_mega_source is made so), built by libcoop. */
    snprintf(source, sizeof source, "%s/embedding.c", prefix);
    write_text(source, embedding_program);
    snprintf(command, sizeof command,
             "cd %s && export PKG_CONFIG_PATH=%s/lib/pkgconfig && "
             "sh share/coop/embed.sh steal_mega_source steal_mega.cl > steal_mega_source.c && "
             "cc -std=c11 -Wall -Wextra -Werror -o embedding embedding.c steal_mega_source.c "
             "$(pkg-config --cflags --libs coop) && LD_LIBRARY_PATH=%s/lib ./embedding 2>&1",
             prefix, prefix, prefix);
    run = shell(command);
    ck_assert_msg(run.status == 0 && !strcmp(run.output, "steal_mega built, 4 arguments\n"),
                  "%s: exit status %d:\n%s", command, run.status, run.output);
    free(run.output);
    snprintf(command, sizeof command, "rm -rf %s", prefix);
    run = shell(command);
    free(run.output);
}
END_TEST

/* gridsync-bench and preempt-bench (CUDA) are built with make CUDA=1 only, not wherever nvcc happens to exist (this
 * machine has one and no GPU). A dry run lists what would be built. */
START_TEST(cuda_only_when_asked)
{
    unsetenv("MAKEFLAGS");
    unsetenv("MFLAGS");
    unsetenv("MAKELEVEL");
    tu_process run = shell("make -n -B COOP_NO_DEPS=1 programs 2>&1");
    ck_assert_msg(run.status == 0, "make -n failed:\n%s", run.output);
    ck_assert_msg(strstr(run.output, "gridsync") == NULL, "make builds gridsync-bench unasked:\n%s", run.output);
    ck_assert_msg(strstr(run.output, "preempt") == NULL, "make builds preempt-bench unasked:\n%s", run.output);
    free(run.output);
    run = shell("make -n -B COOP_NO_DEPS=1 CUDA=1 NVCC=no-such-nvcc programs 2>&1");
    ck_assert_msg(run.status == 0, "make -n CUDA=1 failed:\n%s", run.output);
    ck_assert_msg(strstr(run.output, "no-such-nvcc -O2") && strstr(run.output, "build/bin/gridsync-bench"),
                  "make CUDA=1 does not build gridsync-bench:\n%s", run.output);
    ck_assert_msg(strstr(run.output, "build/bin/preempt-bench benchmarks/preempt/preempt-bench.cu"),
                  "make CUDA=1 does not build preempt-bench:\n%s", run.output);
    free(run.output);
}
END_TEST

/* Installing Debian packages is `make deps`, and only the targets that run something do it first:
 * plain make (and lib, programs, install) installed missing packages as a side effect. A dry run
 * prints the step without running it, and runs nothing else either: check's recipe line called
 * $(MAKE), which make runs even in a dry run, so `make -n check` ran the tests (this one too, and
 * so on down: the dry run here runs only this binary, which then fails at once). */
/* The end of a long output, for a failure's message (Check's are limited). */
static const char *last_lines(const char *output)
{
    size_t length = strlen(output);
    return length > 4000 ? output + length - 4000 : output;
}

START_TEST(packages_only_for_targets_that_run)
{
    ck_assert_msg(getenv("COOP_TEST_DRY_RUN") == NULL, "make -n check ran the tests");
    setenv("COOP_TEST_DRY_RUN", "1", 1);
    unsetenv("MAKEFLAGS");
    unsetenv("MFLAGS");
    unsetenv("MAKELEVEL");
    unsetenv("COOP_NO_DEPS");
    static const char *const builds[] = {"make -n", "make -n lib", "make -n programs", "make -n install PREFIX=/none"};
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
        char command[128];
        snprintf(command, sizeof command, "%s 2>&1", builds[i]);
        tu_process run = shell(command);
        ck_assert_msg(run.status == 0, "%s failed:\n%s", builds[i], last_lines(run.output));
        ck_assert_msg(strstr(run.output, "install-deps") == NULL, "%s installs packages:\n%s", builds[i],
                      last_lines(run.output));
        free(run.output);
    }
    static const char *const runs[] = {"make -n deps", "make -n demo", "make -n fuzz FUZZ_SECONDS=1",
                                       "make -n smith SECONDS=1", "make -n sanitize",
                                       "make -n check TEST_BINS=build/tests/test_library"};
    static const char step[] = "sh scripts/install-deps.sh\n";
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char command[128];
        snprintf(command, sizeof command, "%s 2>&1", runs[i]);
        tu_process run = shell(command);
        ck_assert_msg(run.status == 0, "%s failed:\n%s", runs[i], last_lines(run.output));
        ck_assert_msg(strncmp(run.output, step, strlen(step)) == 0, "%s does not install packages first:\n%s", runs[i],
                      last_lines(run.output));
        ck_assert_msg(strstr(run.output + strlen(step), "install-deps") == NULL, "%s installs packages twice:\n%s",
                      runs[i], last_lines(run.output));
        free(run.output);
    }
    /* the dry run printed the tests' command and ran no test (a test prints "[ ... s] name:0") */
    tu_process run = shell("make -n check TEST_BINS=build/tests/test_library 2>&1");
    ck_assert_msg(strstr(run.output, "sh tests/run-tests.sh build/tests/test_library") != NULL &&
                      strstr(run.output, " s] ") == NULL,
                  "make -n check:\n%s", last_lines(run.output));
    free(run.output);
    run = shell("make -n check COOP_NO_DEPS=1 TEST_BINS=build/tests/test_library 2>&1");
    ck_assert_msg(run.status == 0 && strstr(run.output, "install-deps") == NULL, "make -n check COOP_NO_DEPS=1:\n%s",
                  last_lines(run.output));
    free(run.output);
}
END_TEST

static Suite *library_suite(void)
{
    Suite *suite = suite_create("library");
    TCase *shape = tcase_create("shape");
    tcase_add_test(shape, version_macros_and_function_agree);
    tcase_add_test(shape, exports_are_the_public_api);
    tcase_add_test(shape, soname_and_links);
    suite_add_tcase(suite, shape);
    TCase *install = tu_tcase("install", 300);
    tcase_add_test(install, install_and_link_with_pkg_config);
    tcase_add_test(install, cuda_only_when_asked);
    tcase_add_test(install, packages_only_for_targets_that_run);
    suite_add_tcase(suite, install);
    return suite;
}

int main(void)
{
    return tu_run(library_suite());
}
