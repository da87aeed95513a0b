/* test_path.c: coop-path (host/coop-path.c with apps/path/), run as a subprocess on PoCL with two
 * workers at small sizes: every method's image (naive, megaloop, wavefront-host,
 * wavefront-barrier, queue; the cooperative three standalone and beside the matmult task) equals
 * the CPU's at every pixel, at sizes that fill no group evenly too; the cooperative methods stay
 * right under chaos seeds with the periodic task on four workers, kills happening over the seeds.
 * The room scene (long paths of varied length) equals the CPU by every method, under chaos too.
 * The picker's rule, --json and --image give what they say; bad arguments are refused with their
 * message. The check itself (apps/path/path_ref.c, linked in) finds a pixel one level off, naming
 * it, the method, what it got and what it expected. scripts/path-study runs its --quick subset (it
 * needs python3-matplotlib, as test_scripts' scripts do).
 *
 * coop-path exits 2 on a wrong image, so exit status 0 is the equality check. Run from the
 * repository root. */
#include "testutil.h"

#include "path/path_ref.h"

#include <stdlib.h>
#include <unistd.h>

#define PATH "build/bin/coop-path"

enum { WORKERS = 2, CHAOS_WORKERS = 4 };

#define run_path(...) tu_run_program(PATH, "make " PATH, WORKERS, __VA_ARGS__)

static const char *const OK_END = " pixels checked equal the CPU's: ok";

/* ---- Every method ---------------------------------------------------------------------------- */

START_TEST(every_method_equals_the_cpu)
{
    tu_process run = run_path("--width", "64", "--height", "32", "--spp", "2", "--depth", "8", NULL);
    tu_assert_run(&run, "64 x 32", 0,
                  "path: spheres, 64 x 32 pixels, 2 spp, depth 8, local size 64, 4096 paths a wave, 2048 pixels "
                  "checked\n");
    static const char *const starts[] = {"naive: ",
                                         "megaloop standalone: ",
                                         "megaloop cooperative seed 0: ",
                                         "wavefront-host: ",
                                         "wavefront-barrier standalone: ",
                                         "wavefront-barrier cooperative seed 0: ",
                                         "queue standalone: ",
                                         "queue cooperative seed 0: "};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        ck_assert_msg(tu_lines_with(run.output, starts[i], "2048 pixels checked equal the CPU's: ok") == 1,
                      "no right \"%s\" image:\n%s", starts[i], run.output);
    /* one wave holds every path of both samples, so a launch per bounce of the longest path */
    unsigned launches = tu_sum_before(run.output, " launches");
    ck_assert_msg(launches >= 1 && launches <= 8, "wavefront-host: %u launches, not 1 to 8:\n%s", launches,
                  run.output);
    free(run.output);
}
END_TEST

/* The room (paths of 1 to 32 segments, Russian roulette): every method, standalone, equals the
 * CPU; each cooperative one beside the task under a chaos seed. */
START_TEST(room_equals_the_cpu)
{
    tu_process run = run_path("--scene", "room", "--width", "24", "--height", "12", "--spp", "3", "--depth", "32",
                              "--mode", "standalone", NULL);
    tu_assert_run(&run, "room", 0, "path: room, 24 x 12 pixels, 3 spp, depth 32, ");
    static const char *const starts[] = {"naive: ", "megaloop standalone: ", "wavefront-host: ",
                                         "wavefront-barrier standalone: ", "queue standalone: "};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        ck_assert_msg(tu_lines_with(run.output, starts[i], "288 pixels checked equal the CPU's: ok") == 1,
                      "no right \"%s\" image of the room:\n%s", starts[i], run.output);
    free(run.output);
    static const char *const methods[] = {"megaloop", "wavefront-barrier", "queue"};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        run = tu_run_program(PATH, "make " PATH, CHAOS_WORKERS, "--scene", "room", "--width", "24", "--height", "12",
                             "--spp", "2", "--depth", "32", "--method", methods[i], "--mode", "cooperative", "--chaos",
                             "23", "--local-size", "16", NULL);
        char start[64];
        snprintf(start, sizeof start, "%s cooperative seed 23: ", methods[i]);
        tu_assert_run(&run, methods[i], 0, start);
        ck_assert_msg(tu_lines_with(run.output, start, "288 pixels checked equal the CPU's: ok") == 1,
                      "%s: no right image of the room under chaos:\n%s", methods[i], run.output);
        free(run.output);
    }
}
END_TEST

/* The wavefront methods on the room with waves of 37 paths (of 864): the survivors of a wave
 * share it with new paths of later samples; the barrier form under chaos beside the task too. */
START_TEST(room_small_waves)
{
    tu_process run = tu_run_program(PATH, "make " PATH, CHAOS_WORKERS, "--scene", "room", "--width", "24", "--height",
                                    "12", "--spp", "3", "--depth", "32", "--method", "wavefront-barrier",
                                    "--wave-paths", "37", "--chaos", "31", "--local-size", "16", NULL);
    tu_assert_run(&run, "wavefront-barrier, 37 paths a wave", 0, ", 37 paths a wave, 288 pixels checked\n");
    ck_assert_msg(tu_lines_with(run.output, "wavefront-barrier ", "288 pixels checked equal the CPU's: ok") == 2,
                  "wavefront-barrier: not two right images:\n%s", run.output);
    free(run.output);
    run = run_path("--scene", "room", "--width", "24", "--height", "12", "--spp", "3", "--depth", "32", "--method",
                   "wavefront-host", "--wave-paths", "37", NULL);
    tu_assert_run(&run, "wavefront-host, 37 paths a wave", 0, "288 pixels checked equal the CPU's: ok");
    /* 864 paths of 9 segments on average, at most 37 a launch */
    unsigned launches = tu_sum_before(run.output, " launches");
    ck_assert_msg(launches > 864 * 4 / 37, "wavefront-host: %u launches for waves of 37 paths:\n%s", launches,
                  run.output);
    free(run.output);
}
END_TEST

/* Paths that fit one pass of the device's work-items (64 at local size 64) are the last wave at
 * once: one launch traces each to its end (path.h, path_wave_last), however long the room's paths
 * run; the barrier form does the same before its first barrier. */
START_TEST(last_wave_at_once)
{
    tu_process run = run_path("--scene", "room", "--width", "8", "--height", "8", "--spp", "1", "--depth", "32",
                              "--method", "wavefront-host", "--local-size", "64", NULL);
    tu_assert_run(&run, "8 x 8, wavefront-host", 0, "wavefront-host: ");
    ck_assert_msg(tu_lines_with(run.output, "wavefront-host: ",
                                ", 1 launches: 64 pixels checked equal the CPU's: ok") == 1,
                  "wavefront-host: not one launch for 64 paths:\n%s", run.output);
    free(run.output);
    run = run_path("--scene", "room", "--width", "8", "--height", "8", "--spp", "1", "--depth", "32", "--method",
                   "wavefront-barrier", "--local-size", "64", NULL);
    tu_assert_run(&run, "8 x 8, wavefront-barrier", 0, "wavefront-barrier standalone: ");
    ck_assert_msg(tu_lines_with(run.output, "wavefront-barrier ", "64 pixels checked equal the CPU's: ok") == 2,
                  "wavefront-barrier: not two right images:\n%s", run.output);
    free(run.output);
}
END_TEST

/* The room's image is the room's: lit (the light reaches most pixels within 32 segments), and
 * not the spheres' image. */
START_TEST(room_reference)
{
    enum { W = 16, H = 8, SPP = 16, DEPTH = 32 };
    uint32_t pixels[W * H], room[W * H * 3], spheres[W * H * 3];
    unsigned count = path_ref_checked(W, H, pixels);
    path_ref_expect(PATH_REF_ROOM, W, H, SPP, DEPTH, pixels, count, room);
    path_ref_expect(PATH_REF_SPHERES, W, H, SPP, DEPTH, pixels, count, spheres);
    unsigned lit = 0, same = 0;
    for (unsigned p = 0; p < W * H; p++) {
        lit += room[3 * p] + room[3 * p + 1] + room[3 * p + 2] != 0;
        same += !memcmp(room + 3 * p, spheres + 3 * p, 3 * sizeof *room);
    }
    ck_assert_msg(lit > W * H / 2, "the room is dark: %u of %u pixels lit", lit, W * H);
    ck_assert_msg(same == 0, "%u pixels of the room equal the spheres'", same);
}
END_TEST

/* Sizes that fill no group evenly, one pixel, one segment, waves of a few paths (topped up from
 * the next samples many times): the edges of every method's split. */
START_TEST(odd_sizes)
{
    static const char *const sizes[][6] = {
        {"37", "5", "3", "5", "16", "50"},
        {"1", "1", "1", "1", "8", "1"},
        {"7", "3", "4", "64", "3", "5"},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        tu_process run = run_path("--width", sizes[i][0], "--height", sizes[i][1], "--spp", sizes[i][2], "--depth",
                                  sizes[i][3], "--local-size", sizes[i][4], "--wave-paths", sizes[i][5], "--mode",
                                  "standalone", NULL);
        tu_assert_run(&run, sizes[i][0], 0, "path: ");
        ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 5, "%s x %s: not five right images:\n%s", sizes[i][0],
                      sizes[i][1], run.output);
        free(run.output);
    }
}
END_TEST

/* --json: every run's figures and the medians; --image: the picture; a failed write is an error. */
START_TEST(json_and_image)
{
    char json_path[] = "/tmp/test_path-XXXXXX", image_path[] = "/tmp/test_path-XXXXXX";
    int fd = mkstemp(json_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    fd = mkstemp(image_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    tu_process run = run_path("--width", "16", "--height", "8", "--spp", "2", "--depth", "4", "--method", "queue",
                              "--mode", "standalone", "--repeat", "3", "--json", json_path, "--image", image_path,
                              NULL);
    tu_assert_run(&run, "--json", 0, "queue standalone: median ");
    free(run.output);
    char *json = tu_read_file(json_path, NULL);
    unlink(json_path);
    ck_assert_msg(strstr(json, "\"program\": \"coop-path\"") && strstr(json, "\"width\": 16,") &&
                      strstr(json, "\"spp\": 2,") && strstr(json, "\"scene\": \"spheres\",") &&
                      strstr(json, "\"wave_paths\": 256,") && strstr(json, "\"pick\": \"naive\"") &&
                      strstr(json, "\"queue standalone\": ") && strstr(json, "\"naive\": null"),
                  "--json lacks the configuration, the pick or the medians:\n%s", json);
    unsigned runs = 0;
    for (const char *at = strstr(json, "{\"method\": \"queue\""); at; at = strstr(at + 1, "{\"method\": \"queue\""))
        runs++;
    ck_assert_msg(runs == 3, "--json has %u queue runs, not 3:\n%s", runs, json);
    ck_assert_msg(!strstr(json, "\"check\": \"wrong\""), "a wrong run:\n%s", json);
    free(json);
    size_t size = 0;
    char *image = tu_read_file(image_path, &size);
    unlink(image_path);
    ck_assert_msg(size == strlen("P6\n16 8\n255\n") + 16 * 8 * 3 && !strncmp(image, "P6\n16 8\n255\n", 12),
                  "--image is not a 16 x 8 PPM (%zu bytes)", size);
    free(image);
    run = run_path("--width", "8", "--height", "8", "--spp", "1", "--depth", "2", "--method", "naive", "--json",
                   "/dev/full", NULL);
    tu_assert_run(&run, "--json /dev/full", 1, "coop-path: cannot write /dev/full: No space left on device");
    free(run.output);
}
END_TEST

/* ---- Under chaos, beside the periodic task --------------------------------------------------- */

START_TEST(cooperative_under_chaos)
{
    static const char *const methods[] = {"megaloop", "wavefront-barrier", "queue"};
    unsigned kills = 0;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        tu_process run = tu_run_program(PATH, "make " PATH, CHAOS_WORKERS, "--width", "48", "--height", "24",
                                        "--spp", "2", "--depth", "6", "--method", methods[i], "--mode", "cooperative",
                                        "--chaos", "11", "--seeds", "3", "--local-size", "16", NULL);
        tu_assert_run(&run, methods[i], 0, " cooperative seed 11: ");
        char start[64];
        snprintf(start, sizeof start, "%s cooperative seed ", methods[i]);
        ck_assert_msg(tu_lines_with(run.output, start, "1152 pixels checked equal the CPU's: ok") == 3,
                      "%s: not three right images:\n%s", methods[i], run.output);
        kills += tu_sum_before(run.output, " kills");
        free(run.output);
    }
    ck_assert_msg(kills > 0, "no kill over three methods and three chaos seeds each");
}
END_TEST

/* ---- scripts/path-study ---------------------------------------------------------------------- */

/* The study's smoke test: --quick runs both scenes at 64x32, 1 and 2 spp, depth 4, once each, and
 * writes its CSV (a row per configuration, method and form), its report and its plot; its times
 * are not checked (PoCL measures nothing), coop-path checks every image. */
START_TEST(study_script_quick)
{
    static const tu_study_file files[] = {
        {.name = "path-study.csv",
         .start = "scene,width,height,spp,depth,method,form,runs,median_ms,min_ms,max_ms,pick,best\n"
                  "spheres,64,32,1,4,naive,plain,1,",
         .lines = {{"room,64,32,2,4,queue,standalone,1,", 1}, {"spheres,64,32,", 10}, {"room,64,32,", 10}}},
        {.name = "report.md",
         .contains = {"| scene | size | spp | depth | naive | megaloop standalone | wavefront-host | "
                      "wavefront-barrier standalone | queue standalone | best | pick | pick / best |",
                      "The picker is within 10% of the best in ",
                      "A 1-nearest-neighbour model (scene, log paths over lanes, log spp, log depth;"}},
        {.name = "path-study.png"},
    };
    tu_run_study("scripts/path-study", WORKERS, "[4/4] room, 64x32, 2 spp, depth 4 ... naive ", files,
                 sizeof files / sizeof files[0]);
}
END_TEST

/* ---- The picker ------------------------------------------------------------------------------ */

/* The rule's branches (coop-path.c, pick()) at 132 compute units (270,336 lanes), and the
 * compute units' part: fewer paths than lanes go to naive. */
START_TEST(picker_rule)
{
    static const struct {
        const char *scene, *width, *height, *spp, *depth, *units, *line;
    } cases[] = {
        {"room", "256", "256", "2", "32", "132", "pick: naive (room, 256 x 256, 2 spp, depth 32, 132 compute units)\n"},
        {"room", "256", "256", "2", "32", "16",
         "pick: wavefront-barrier (room, 256 x 256, 2 spp, depth 32, 16 compute units)\n"},
        {"spheres", "2048", "1024", "1", "32", "132",
         "pick: naive (spheres, 2048 x 1024, 1 spp, depth 32, 132 compute units)\n"},
        {"room", "2048", "1024", "8", "8", "132",
         "pick: naive (room, 2048 x 1024, 8 spp, depth 8, 132 compute units)\n"},
        {"room", "2048", "1024", "32", "32", "132",
         "pick: wavefront-host (room, 2048 x 1024, 32 spp, depth 32, 132 compute units)\n"},
        {"room", "2048", "1024", "8", "32", "132",
         "pick: wavefront-host (room, 2048 x 1024, 8 spp, depth 32, 132 compute units)\n"},
        {"spheres", "2048", "1024", "8", "32", "132",
         "pick: wavefront-host (spheres, 2048 x 1024, 8 spp, depth 32, 132 compute units)\n"},
        {"spheres", "1024", "512", "2", "32", "132",
         "pick: naive (spheres, 1024 x 512, 2 spp, depth 32, 132 compute units)\n"},
        {"room", "1024", "512", "1", "32", "132",
         "pick: wavefront-barrier (room, 1024 x 512, 1 spp, depth 32, 132 compute units)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_process run = run_path("--pick", "--scene", cases[i].scene, "--width", cases[i].width, "--height",
                                  cases[i].height, "--spp", cases[i].spp, "--depth", cases[i].depth,
                                  "--compute-units", cases[i].units, NULL);
        tu_assert_run(&run, cases[i].line, 0, cases[i].line);
        free(run.output);
    }
}
END_TEST

/* ---- Arguments ------------------------------------------------------------------------------- */

START_TEST(bad_arguments)
{
    static const struct {
        const char *args[6], *message;
    } cases[] = {
        {{"--spp", "0"}, "--spp: '0' is out of range; expected a whole number from 1 to 255"},
        {{"--depth", "65"}, "--depth: '65' is out of range; expected a whole number from 1 to 64"},
        {{"--width", "16385"}, "--width: '16385' is out of range; expected a whole number from 1 to 16384"},
        {{"--method", "recursive"}, "--method: 'recursive' is not a choice; expected all, naive, megaloop, "
                                    "wavefront-host, wavefront-barrier or queue"},
        {{"--scene", "cornell"}, "--scene: 'cornell' is not a choice; expected spheres or room"},
        {{"--wave-paths", "0"}, "--wave-paths: '0' is out of range; expected a whole number from 1 to 2147483648"},
        {{"--method", "queue", "--wave-paths", "64"}, "--wave-paths goes with the wavefront methods (wavefront-host, "
                                                      "wavefront-barrier)"},
        {{"--width", "16384", "--height", "16384", "--spp", "9"}, "16384 x 16384 pixels x 9 samples is more than "
                                                                  "2147483648 paths"},
        {{"--method", "naive", "--chaos", "3"}, "--chaos and --task need a cooperative method (megaloop, "
                                                "wavefront-barrier or queue) and --mode cooperative or all"},
        {{"--method", "queue", "--mode", "standalone", "--task", "none"}, "--chaos and --task need a cooperative "
                                                                          "method"},
        {{"--method", "wavefront-host", "--mode", "standalone"}, "--mode chooses the forms of megaloop, "
                                                                 "wavefront-barrier and queue; --method "
                                                                 "wavefront-host has one form"},
        {{"--compute-units", "4"}, "--compute-units goes with --pick"},
        {{"--pick", "--wave-paths", "64"}, "--pick takes only --scene"},
        {{"--pick", "--method", "queue"}, "--pick takes only --scene, --width, --height, --spp, --depth and "
                                          "--compute-units"},
        {{"--seeds", "2", "--repeat", "3"}, "--repeat '3': --seeds and --repeat are one option; give it once"},
        {{"--rays", "5"}, "unknown option '--rays'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_process run = run_path(cases[i].args[0], cases[i].args[1], cases[i].args[2], cases[i].args[3],
                                  cases[i].args[4], cases[i].args[5], NULL);
        char expected[256];
        snprintf(expected, sizeof expected, "coop-path: %s", cases[i].message);
        tu_assert_run(&run, cases[i].message, 1, expected);
        ck_assert_msg(strstr(run.output, "Usage: coop-path") != NULL, "no usage:\n%s", run.output);
        ck_assert_msg(strstr(run.output, "pixels checked") == NULL, "case %zu ran:\n%s", i, run.output);
        free(run.output);
    }
}
END_TEST

/* ---- The check itself ------------------------------------------------------------------------ */

/* The CPU's image at every pixel, then one channel of one pixel a level off: the check names it. */
START_TEST(check_finds_a_wrong_pixel)
{
    enum { W = 24, H = 12, SPP = 3, DEPTH = 6 };
    uint32_t pixels[W * H], expected[W * H * 3], image[W * H * 3];
    unsigned count = path_ref_checked(W, H, pixels);
    ck_assert_uint_eq(count, W * H);
    path_ref_expect(PATH_REF_SPHERES, W, H, SPP, DEPTH, pixels, count, expected);
    memcpy(image, expected, sizeof image);
    ck_assert_uint_eq(path_ref_compare(image, W, pixels, count, expected, "naive", stdout, 10), 0);
    unsigned lit = 0;
    for (unsigned i = 0; i < W * H * 3; i++)
        lit += expected[i] != 0;
    ck_assert_msg(lit > W * H, "the CPU's image is mostly black: %u channels lit", lit);
    uint32_t sum[3];
    path_ref_pixel(PATH_REF_SPHERES, W, H, SPP, DEPTH, 5 * W + 7, sum);
    ck_assert_msg(!memcmp(sum, expected + 3 * (5 * W + 7), sizeof sum), "path_ref_pixel differs from the image");
    image[3 * (5 * W + 7) + 1] += 1;
    char *text = NULL;
    size_t length = 0;
    FILE *out = open_memstream(&text, &length);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(path_ref_compare(image, W, pixels, count, expected, "queue", out, 10), 1);
    fclose(out);
    char line[160];
    snprintf(line, sizeof line, "queue: pixel (7, 5): got %u %u %u, expected %u %u %u\n", sum[0], sum[1] + 1, sum[2],
             sum[0], sum[1], sum[2]);
    ck_assert_str_eq(text, line);
    free(text);
}
END_TEST

/* Above 4096 pixels: 1000 distinct pixels, in order, the corners among them, the same every time. */
START_TEST(checked_pixels_sampled)
{
    static uint32_t pixels[PATH_REF_SAMPLED], again[PATH_REF_SAMPLED];
    unsigned count = path_ref_checked(2048, 1024, pixels);
    ck_assert_uint_eq(count, PATH_REF_SAMPLED);
    ck_assert_uint_eq(path_ref_checked(2048, 1024, again), PATH_REF_SAMPLED);
    ck_assert_msg(!memcmp(pixels, again, sizeof pixels), "two calls pick different pixels");
    for (unsigned i = 1; i < count; i++)
        ck_assert_msg(pixels[i - 1] < pixels[i], "pixels %u and %u out of order: %u, %u", i - 1, i, pixels[i - 1],
                      pixels[i]);
    ck_assert_uint_eq(pixels[0], 0);
    ck_assert_uint_eq(pixels[count - 1], 2048 * 1024 - 1);
}
END_TEST

static Suite *path_suite(void)
{
    Suite *suite = suite_create("path");
    /* a case run alone builds the programs first: minutes on a busy machine with PoCL */
    TCase *methods = tu_tcase("methods", 900);
    tcase_add_test(methods, every_method_equals_the_cpu);
    tcase_add_test(methods, room_equals_the_cpu);
    tcase_add_test(methods, room_small_waves);
    tcase_add_test(methods, last_wave_at_once);
    tcase_add_test(methods, odd_sizes);
    tcase_add_test(methods, json_and_image);
    suite_add_tcase(suite, methods);
    TCase *chaos = tu_tcase("chaos", 900);
    tcase_add_test(chaos, cooperative_under_chaos);
    suite_add_tcase(suite, chaos);
    TCase *script = tu_tcase("script", 900);
    tcase_add_test(script, study_script_quick);
    suite_add_tcase(suite, script);
    TCase *arguments = tu_tcase("arguments", 60);
    tcase_add_test(arguments, picker_rule);
    tcase_add_test(arguments, bad_arguments);
    suite_add_tcase(suite, arguments);
    TCase *checks = tu_tcase("checks", 60);
    tcase_add_test(checks, check_finds_a_wrong_pixel);
    tcase_add_test(checks, room_reference);
    tcase_add_test(checks, checked_pixels_sampled);
    suite_add_tcase(suite, checks);
    return suite;
}

int main(void)
{
    return tu_run(path_suite());
}
