/* test_ws.c: coop-ws (host/coop-ws.c with kernels/lib/ws_deque.h, apps/octree/octree.cl and
 * apps/game/game.cl), run as a subprocess on PoCL with two workers: octree and game, standalone
 * and cooperative, equal their CPU references; the cooperative megakernels stay right under 20
 * chaos seeds each with a periodic task, and kills and forks happen over the seeds; bad
 * arguments end with status 1 and a message. The deque itself is tested on its own: a kernel
 * that builds a binary tree of tasks through ws_push / ws_next_task counts every node once, and
 * ws_layout.h's WS_QUEUE_WORDS is the size of what a kernel fills.
 *
 * coop-ws checks every run against its CPU reference and exits 2 on a difference, so exit
 * status 0 is the equality check. Build it first (the lead's Makefile includes host/coop-ws.mk):
 * make -f Makefile -f host/coop-ws.mk build/bin/coop-ws. Run from the repository root. */
#include "testutil.h"
#include "trace_check.h"
#include "ws_tree_standalone.h"

#include "coop/kernels/ws_layout.h" /* the queue's words and size, as the kernel has them */

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#define WS "build/bin/coop-ws"

enum { WORKERS = 2, CHAOS_SEEDS = 20 };

/* Runs coop-ws with the arguments given (NULL-terminated), standard output and error together. */
#define run_ws(...) tu_run_program(WS, "make -f Makefile -f host/coop-ws.mk " WS, WORKERS, __VA_ARGS__)

/* ---- Both apps, both modes ------------------------------------------------------------------ */

/* --trace: the last run's timeline, a valid trace whose counts are its report's. */
START_TEST(game_trace)
{
    char path[] = "/tmp/test_ws-trace.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    tu_process run = run_ws("game", "--depth", "3", "--task", "light", "--chaos", "2", "--seeds", "2", "--trace",
                            path, NULL);
    tu_assert_run(&run, "game --trace", 0, "trace: ");
    tu_assert_run(&run, "game --trace", 0, " 0 dropped)\n");
    tc_check_file(path, "coop-ws --trace");
    unlink(path);
    free(run.output);
    run = run_ws("game", "--mode", "standalone", "--trace", path, NULL);
    tu_assert_run(&run, "game --mode standalone --trace", 1, "--chaos, --task and --trace need --mode cooperative");
    free(run.output);
}
END_TEST

START_TEST(octree_standalone)
{
    tu_process run = run_ws("octree", "--points", "3000", "--mode", "standalone", NULL);
    tu_assert_run(&run, "octree standalone", 0, "octree standalone seed 0: ");
    ck_assert_ptr_nonnull(strstr(run.output, ": ok\n"));
    free(run.output);
}
END_TEST

START_TEST(octree_cooperative)
{
    tu_process run = run_ws("octree", "--points", "3000", "--leaf-max", "8", "--mode", "cooperative", NULL);
    tu_assert_run(&run, "octree cooperative", 0, "octree cooperative seed 0: ");
    ck_assert_ptr_nonnull(strstr(run.output, ": ok\n"));
    free(run.output);
}
END_TEST

START_TEST(game_standalone)
{
    tu_process run = run_ws("game", "--depth", "4", "--mode", "standalone", NULL);
    tu_assert_run(&run, "game standalone", 0, "game standalone seed 0: value ");
    ck_assert_ptr_nonnull(strstr(run.output, ": ok\n"));
    free(run.output);
}
END_TEST

START_TEST(game_cooperative)
{
    tu_process run = run_ws("game", "--depth", "4", NULL);
    tu_assert_run(&run, "game cooperative", 0, "game cooperative seed 0: value ");
    ck_assert_ptr_nonnull(strstr(run.output, ": ok\n"));
    free(run.output);
}
END_TEST

/* --repeat runs the app several times and prints the median; --json writes every run. */
START_TEST(repeat_and_json)
{
    char path[] = "/tmp/test_ws_jsonXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    tu_process run = run_ws("game", "--depth", "3", "--mode", "standalone", "--repeat", "3", "--json", path, NULL);
    tu_assert_run(&run, "game --repeat 3 --json", 0, "time median ");
    ck_assert_ptr_nonnull(strstr(run.output, " ms over 3 runs (min "));
    ck_assert_ptr_nonnull(strstr(run.output, "0 of 3 runs wrong\n"));
    free(run.output);
    size_t size = 0;
    char *text = tu_read_file(path, &size);
    unlink(path);
    ck_assert_uint_gt(size, 0);
    ck_assert_msg(strstr(text, "\"app\": \"game\",\n  \"mode\": \"standalone\"") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "\"depth\": 3,") != NULL, "%s", text);
    /* three runs, each with its time, its figures and its check */
    unsigned runs = 0;
    for (const char *at = strstr(text, "{\"seed\": 0, \"time_ms\": "); at; at = strstr(at + 1, "{\"seed\": 0, \"time_ms\": "))
        runs++;
    ck_assert_uint_eq(runs, 3);
    unsigned ok = 0;
    for (const char *at = strstr(text, "\"check\": \"ok\"}"); at; at = strstr(at + 1, "\"check\": \"ok\"}"))
        ok++;
    ck_assert_uint_eq(ok, 3);
    ck_assert_msg(strstr(text, "\"result\": \"value ") != NULL, "%s", text);
    free(text);
}
END_TEST

/* ---- Chaos ------------------------------------------------------------------------------------ */

/* Runs `app` with `size_option` `size` under CHAOS_SEEDS chaos seeds with the light task, every
 * run checked, and again with the next seeds (up to four times as many) until kills, forks and
 * tasks have all happened. Whether they do is timing: a fork needs a killed group idle again
 * when one is offered, and a kill or a task needs a second group, which discovery may not find
 * on a busy machine (one group is then correct, and coop-ws runs on it). */
static void assert_chaos(const char *app, const char *size_option, const char *size)
{
    unsigned kills = 0, forks = 0, tasks = 0, first = 1;
    for (; first <= 4 * CHAOS_SEEDS && !(kills && forks && tasks); first += CHAOS_SEEDS) {
        char first_text[16], seeds_text[16], what[64];
        snprintf(first_text, sizeof first_text, "%u", first);
        snprintf(seeds_text, sizeof seeds_text, "%u", (unsigned)CHAOS_SEEDS);
        snprintf(what, sizeof what, "%s under chaos seeds %u..%u", app, first, first + CHAOS_SEEDS - 1);
        tu_process run = run_ws(app, size_option, size, "--chaos", first_text, "--seeds", seeds_text, "--task",
                                "light", NULL);
        tu_assert_run(&run, what, 0, "0 of 20 runs wrong");
        kills += tu_sum_before(run.output, " kills");
        forks += tu_sum_before(run.output, " forks");
        tasks += tu_sum_before(run.output, " tasks:");
        free(run.output);
    }
    ck_assert_msg(kills > 0 && forks > 0 && tasks > 0, "%s: %u kills, %u forks, %u tasks over seeds 1..%u", app,
                  kills, forks, tasks, first - 1);
}

START_TEST(octree_under_chaos)
{
    assert_chaos("octree", "--points", "6000");
}
END_TEST

START_TEST(game_under_chaos)
{
    assert_chaos("game", "--depth", "5");
}
END_TEST

/* ---- Bad arguments ---------------------------------------------------------------------------- */

START_TEST(bad_arguments)
{
    static const char *const cases[][4] = {
        {"tree", NULL},
        {"game", "--depth", "9", NULL},
        {"octree", "--points", "0", NULL},
        {"game", "--mode", "multikernel", NULL},
        {"game", "--mode", "standalone", "--chaos"},
        {"octree", "--task", "heavy", NULL},
    };
    static const char *const messages[] = {"APP: 'tree' is not a choice; expected octree or game",
                                           "--depth: '9' is out of range; expected a whole number from 1 to 7",
                                           "--points: '0' is out of range",
                                           "--mode: 'multikernel' is not a choice; expected cooperative or standalone",
                                           "--chaos: needs a value",
                                           "--task: 'heavy' is not a choice; expected none or light"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_process run = run_ws(cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL);
        tu_assert_run(&run, cases[i][0], 1, messages[i]);
        tu_assert_run(&run, cases[i][0], 1, "Usage: coop-ws");
        free(run.output);
    }
    tu_process run = run_ws("game", "--mode", "standalone", "--chaos", "3", NULL);
    tu_assert_run(&run, "chaos without cooperation", 1, "--chaos, --task and --trace need --mode cooperative");
    free(run.output);
}
END_TEST

/* ---- The deque on its own --------------------------------------------------------------------- */

/* A binary tree of tasks (tests/kernels/ws_tree.cl, its standalone form as coop-merge makes it):
 * every task must run once. */
START_TEST(deque_counts_every_task_once)
{
    enum { NODES = 4095, LOCAL = 16 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    size_t size = 0;
    char *source = tu_read_file("kernels/generated/ws_tree_standalone.cl", &size);
    ck_assert_ptr_nonnull(source);
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, WS_TREE_STANDALONE_NAME, &program);
    cl_uint groups = coop_launch_groups(ctx, LOCAL), limit = NODES;
    size_t words = WS_QUEUE_WORDS((size_t)groups, 8u, NODES); /* ws_tree.cl's deques have 8 slots */
    cl_mem queue = tu_buffer(ctx, words), seen = tu_buffer(ctx, NODES);
    cl_uint one = 1;
    /* Task 0 seeded in the shared deque: outstanding 1, its tail 1 (slot 0 holds 0 already). */
    clEnqueueWriteBuffer(coop_context_queue(ctx), queue, CL_TRUE, WS_OUTSTANDING * 4, 4, &one, 0, NULL, NULL);
    clEnqueueWriteBuffer(coop_context_queue(ctx), queue, CL_TRUE, (WS_DEQUE_BASE(8u, (size_t)groups) + WS_TAIL) * 4, 4,
                         &one, 0, NULL, NULL);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, WS_TREE_STANDALONE_ARG_ws_tree_queue_words, queue));
    TU_ASSERT_OK(ctx,
                 coop_kernel_set_arg(kernel, WS_TREE_STANDALONE_ARG_ws_tree_queue_groups, sizeof groups, &groups));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, WS_TREE_STANDALONE_ARG_ws_tree_limit, sizeof limit, &limit));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, WS_TREE_STANDALONE_ARG_ws_tree_seen, seen));
    coop_launch launch = {.local_size = LOCAL};
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, NULL));
    static cl_uint counts[NODES], header[WS_HEADER_WORDS];
    tu_read(ctx, seen, counts, NODES);
    tu_read(ctx, queue, header, WS_HEADER_WORDS);
    for (unsigned i = 0; i < NODES; i++)
        ck_assert_msg(counts[i] == 1, "task %u ran %u times", i, counts[i]);
    ck_assert_uint_eq(header[WS_OUTSTANDING], 0);
    ck_assert_uint_eq(header[WS_OVERFLOWED], 0);
    ck_assert_uint_gt(header[WS_SPILLS], 0);
    clReleaseMemObject(queue);
    clReleaseMemObject(seen);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
    free(source);
}
END_TEST

/* ws_layout.h's WS_QUEUE_WORDS is the buffer the kernel needs, to the word: a kernel that fills
 * every deque (the groups' and the shared one) through ws_insert writes the buffer's last word,
 * so one word fewer would be overrun, and no word after it (guard words stay as they were). The
 * hosts had copied the formula from a comment in ws_deque.h. */
START_TEST(queue_words_is_what_the_kernel_fills)
{
    static const char source[] =
        "#include \"ws_deque.h\"\n"
        "kernel void ws_fill(global uint *words, uint groups, uint capacity, uint shared_capacity)\n"
        "{\n"
        "    if (get_global_id(0) != 0)\n"
        "        return;\n"
        "    ws_queue q = ws_queue_make(words, groups, capacity, shared_capacity);\n"
        "    uint task = 1;\n"
        "    for (uint deque = 0; deque <= groups; deque++)\n"
        "        while (ws_insert(&q, deque, task))\n"
        "            task++;\n"
        "    words[WS_OUTSTANDING] = task - 1;\n"
        "}\n";
    enum { GROUPS = 3, CAPACITY = 5, SHARED = 7, GUARD = 64 };
    const cl_uint guard = 0xdeadbeefu, groups = GROUPS, capacity = CAPACITY, shared = SHARED;
    const size_t words = WS_QUEUE_WORDS((size_t)GROUPS, CAPACITY, SHARED);
    char here[PATH_MAX], options[PATH_MAX + 32];
    ck_assert_ptr_nonnull(getcwd(here, sizeof here));
    snprintf(options, sizeof options, "-I %s/kernels/lib", here);
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, options, "ws_fill", &program);
    cl_uint host[WS_QUEUE_WORDS(GROUPS, CAPACITY, SHARED) + GUARD] = {0};
    for (size_t i = words; i < words + GUARD; i++)
        host[i] = guard;
    cl_mem queue = tu_buffer(ctx, words + GUARD);
    tu_write(ctx, queue, host, words + GUARD);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, queue));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 1, sizeof groups, &groups));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 2, sizeof capacity, &capacity));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 3, sizeof shared, &shared));
    size_t global = 1;
    cl_int err = clEnqueueNDRangeKernel(coop_context_queue(ctx), coop_kernel_cl(kernel), 1, NULL, &global, &global, 0,
                                        NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueNDRangeKernel: %s", coop_cl_error_name(err));
    tu_read(ctx, queue, host, words + GUARD);
    ck_assert_uint_eq(host[WS_OUTSTANDING], GROUPS * CAPACITY + SHARED);
    cl_uint task = 1;
    for (unsigned deque = 0; deque <= GROUPS; deque++) {
        size_t base = WS_DEQUE_BASE(CAPACITY, deque);
        unsigned slots = deque < GROUPS ? CAPACITY : SHARED;
        ck_assert_msg(host[base + WS_TAIL] == slots, "deque %u: tail %u, expected %u", deque, host[base + WS_TAIL],
                      slots);
        for (unsigned slot = 0; slot < slots; slot++, task++)
            ck_assert_msg(host[base + WS_SLOTS + slot] == task, "deque %u slot %u holds %u, expected %u", deque, slot,
                          host[base + WS_SLOTS + slot], task);
    }
    for (size_t i = words; i < words + GUARD; i++)
        ck_assert_msg(host[i] == guard, "word %zu, past WS_QUEUE_WORDS = %zu, was written (%#x)", i, words, host[i]);
    ck_assert_uint_eq(host[words - 1], GROUPS * CAPACITY + SHARED); /* the last word is the last task's */
    clReleaseMemObject(queue);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

static Suite *ws_suite(void)
{
    Suite *suite = suite_create("ws");
    TCase *apps = tu_tcase("apps", 120);
    tcase_add_test(apps, octree_standalone);
    tcase_add_test(apps, octree_cooperative);
    tcase_add_test(apps, game_standalone);
    tcase_add_test(apps, game_cooperative);
    tcase_add_test(apps, repeat_and_json);
    tcase_add_test(apps, game_trace);
    suite_add_tcase(suite, apps);
    TCase *chaos = tu_tcase("chaos", 180);
    tcase_add_test(chaos, octree_under_chaos);
    tcase_add_test(chaos, game_under_chaos);
    suite_add_tcase(suite, chaos);
    TCase *arguments = tu_tcase("arguments", 60);
    tcase_add_test(arguments, bad_arguments);
    suite_add_tcase(suite, arguments);
    TCase *deque = tu_tcase("deque", 120);
    tcase_add_test(deque, deque_counts_every_task_once);
    tcase_add_test(deque, queue_words_is_what_the_kernel_fills);
    suite_add_tcase(suite, deque);
    return suite;
}

int main(void)
{
    return tu_run(ws_suite());
}
