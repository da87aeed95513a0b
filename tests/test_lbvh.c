/* test_lbvh.c: coop-lbvh (host/coop-lbvh.c with apps/lbvh/), run as a subprocess on PoCL with two
 * workers: a few thousand triangles, uniform, clustered and from an .obj file, built in each form
 * (standalone, cooperative beside the matmult task, the chain of one launch per pass) equal the
 * CPU's tree, and random rays find the same closest hits through it as through every triangle;
 * the cooperative build stays right under chaos seeds with the periodic task on four workers,
 * kills happening over the seeds. Malformed .obj lines are refused with the file and line. The checks
 * themselves (apps/lbvh/lbvh_ref.c, linked in) find a tree with one box, child or leaf wrong, and
 * a ray that a tree with a box too small misses. scripts/lbvh-build runs its --quick subset (it
 * needs python3-matplotlib, as test_scripts' scripts do).
 *
 * coop-lbvh exits 2 on a wrong tree, so exit status 0 is the equality check. Run from the
 * repository root. */
#include "testutil.h"

#include "lbvh/lbvh_ref.h"

#include <stdlib.h>
#include <unistd.h>

#define LBVH "build/bin/coop-lbvh"

/* The chaos case runs on more PoCL workers than the others, so that the groups killed and forked
 * between passes change the number that splits the work among more than two. */
enum { WORKERS = 2, CHAOS_WORKERS = 4, CHAOS_SEEDS = 8 };

#define run_lbvh(...) tu_run_program(LBVH, "make " LBVH, WORKERS, __VA_ARGS__)

static const char *const OK_END = "equal every triangle's: ok";

/* The line of `output` that begins with `start` (a copy, to free), or NULL. */
static char *line_starting(const char *output, const char *start)
{
    for (const char *line = output; *line;) {
        const char *eol = strchr(line, '\n');
        size_t length = eol ? (size_t)(eol - line) : strlen(line);
        if (!strncmp(line, start, strlen(start)))
            return strndup(line, length);
        line += length + (eol != NULL);
    }
    return NULL;
}

/* Asserts that `output` has the line "FORM passes (CLOCK, ms): bounds MS morton MS count0 MS
 * scatter0 MS ... hierarchy MS fit MS", with `passes` radix passes, every time a number of at least
 * 0; or, where `clockless` allows it, "FORM passes: no device clock". */
static void assert_passes(const char *output, const char *form, const char *clock, unsigned passes, int clockless)
{
    char start[64];
    snprintf(start, sizeof start, "%s passes", form);
    char *line = line_starting(output, start);
    ck_assert_msg(line != NULL, "no '%s' line:\n%s", start, output);
    char expected[96];
    snprintf(expected, sizeof expected, "%s: no device clock", start);
    if (clockless && !strcmp(line, expected)) {
        free(line);
        return;
    }
    snprintf(expected, sizeof expected, "%s (%s, ms):", start, clock);
    ck_assert_msg(!strncmp(line, expected, strlen(expected)), "'%s' does not start '%s'", line, expected);
    const char *at = line + strlen(expected);
    for (unsigned k = 0; k < 2 * passes + 4; k++) {
        char name[16];
        if (k < 2)
            snprintf(name, sizeof name, "%s", k ? "morton" : "bounds");
        else if (k == 2 * passes + 2)
            snprintf(name, sizeof name, "hierarchy");
        else if (k == 2 * passes + 3)
            snprintf(name, sizeof name, "fit");
        else
            snprintf(name, sizeof name, "%s%u", (k - 2) % 2 ? "scatter" : "count", (k - 2) / 2);
        ck_assert_msg(*at == ' ' && !strncmp(at + 1, name, strlen(name)) && at[1 + strlen(name)] == ' ',
                      "pass %u is not '%s' in '%s'", k, name, line);
        at += 2 + strlen(name);
        char *end = NULL;
        double ms = strtod(at, &end);
        ck_assert_msg(end != at && ms >= 0, "pass %s has no time in '%s'", name, line);
        at = end;
    }
    ck_assert_msg(*at == '\0', "'%s' has more than %u passes", line, 2 * passes + 4);
    free(line);
}

/* The fit's rounds on the CPU's tree of `scene` (uniform:N or clustered:N, seed 1 as coop-lbvh's):
 * a node is boxed in the round of its subtree's height, and the last round boxes the root and
 * appends nothing, so the root's height + 1. */
static unsigned expected_rounds(const char *scene)
{
    unsigned n = (unsigned)strtoul(strchr(scene, ':') + 1, NULL, 10);
    float *tris = malloc((size_t)n * 9 * sizeof *tris);
    lbvh_tree tree = {0};
    ck_assert(tris != NULL && lbvh_tree_alloc(&tree, n) == 0);
    if (!strncmp(scene, "uniform", 7))
        lbvh_scene_uniform(tris, n, 1);
    else
        lbvh_scene_clustered(tris, n, 1);
    ck_assert(lbvh_ref_build(tris, &tree) == 0);
    unsigned nodes = 2 * n - 1, *height = calloc(nodes, sizeof *height), root_height = 0;
    ck_assert(height != NULL);
    /* internal nodes are not numbered children after parents: relax until nothing changes */
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = 0; i + 1 < n; i++) {
            unsigned h = 1 + (height[tree.child[2 * i]] > height[tree.child[2 * i + 1]] ? height[tree.child[2 * i]]
                                                                                      : height[tree.child[2 * i + 1]]);
            if (h != height[i])
                height[i] = h, changed = 1;
        }
    }
    root_height = height[0];
    free(height);
    lbvh_tree_free(&tree);
    free(tris);
    return root_height + 1;
}

/* Asserts that every form's build line of `output` gives `rounds` fit rounds, and the chain
 * 2 x radix_passes + 3 + rounds launches (a launch per pass before the fit, one per round). */
static void assert_rounds(const char *output, const char *scene, unsigned rounds, unsigned radix_passes)
{
    static const char *const starts[] = {"standalone: ", "cooperative seed 0: ", "chain: "};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        char *line = line_starting(output, starts[i]);
        ck_assert_msg(line != NULL, "%s: no '%s' line:\n%s", scene, starts[i], output);
        char expected[64];
        snprintf(expected, sizeof expected, " groups, %u fit rounds", rounds);
        ck_assert_msg(strstr(line, expected) != NULL, "%s: '%s' lacks '%s'", scene, line, expected);
        snprintf(expected, sizeof expected, ", %u launches", 2 * radix_passes + 3 + rounds);
        ck_assert_msg(i < 2 || strstr(line, expected) != NULL, "%s: '%s' lacks '%s'", scene, line, expected);
        free(line);
    }
}

/* ---- The three forms ------------------------------------------------------------------------ */

START_TEST(uniform_every_form)
{
    tu_process run = run_lbvh("--gen", "uniform:3000", "--rays", "300", NULL);
    tu_assert_run(&run, "uniform:3000", 0, "lbvh: 3000 triangles (uniform)");
    ck_assert_msg(tu_lines_with(run.output, "standalone: ", OK_END) == 1, "no standalone tree:\n%s", run.output);
    ck_assert_msg(tu_lines_with(run.output, "cooperative seed 0: ", OK_END) == 1, "no cooperative tree:\n%s",
                  run.output);
    ck_assert_msg(tu_lines_with(run.output, "chain: ", OK_END) == 1, "no chain tree:\n%s", run.output);
    free(run.output);
}
END_TEST

/* Each build's passes, named in order, timed by the device clock (the persistent forms, where the
 * device has one) or by the chain's profiling events; with --repeat, each pass's median too. */
START_TEST(passes_timed_in_order)
{
    tu_process run = run_lbvh("--gen", "uniform:2000", "--rays", "20", "--repeat", "2", NULL);
    tu_assert_run(&run, "uniform:2000", 0, "lbvh: 2000 triangles (uniform)");
    ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 6, "not six right trees:\n%s", run.output);
    assert_passes(run.output, "standalone", "device clock", 8, 1);
    assert_passes(run.output, "cooperative", "device clock", 8, 1);
    assert_passes(run.output, "chain", "profiling events", 8, 0);
    assert_passes(run.output, "chain median", "profiling events", 8, 0);
    ck_assert_msg(tu_lines_with(run.output, "chain passes (profiling events, ms): bounds ", "") == 2,
                  "not a passes line a chain build:\n%s", run.output);
    free(run.output);
}
END_TEST

/* Clustered spheres: most Morton codes repeat, so the hierarchy's ties by position decide. */
START_TEST(clustered_every_form)
{
    tu_process run = run_lbvh("--gen", "clustered:4000", "--rays", "300", NULL);
    tu_assert_run(&run, "clustered:4000", 0, "lbvh: 4000 triangles (clustered)");
    ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 3, "not three right trees:\n%s", run.output);
    free(run.output);
}
END_TEST

/* One triangle (the root is its leaf: one round) and two (the leaves, then the root). */
START_TEST(smallest_scenes)
{
    static const char *const scenes[] = {"uniform:1", "uniform:2", "clustered:5"};
    static const unsigned rounds[] = {1, 2, 0};
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        tu_process run = run_lbvh("--gen", scenes[i], "--rays", "50", NULL);
        tu_assert_run(&run, scenes[i], 0, "lbvh: ");
        ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 3, "%s: not three right trees:\n%s", scenes[i],
                      run.output);
        assert_rounds(run.output, scenes[i], rounds[i] ? rounds[i] : expected_rounds(scenes[i]), 8);
        free(run.output);
    }
}
END_TEST

/* The fit runs as a wavefront, a round a level: every form prints its rounds, the CPU tree's
 * height + 1 (many for a real scene), and the chain launches once per round. */
START_TEST(fit_rounds_printed)
{
    static const char *const scenes[] = {"uniform:3000", "clustered:4000"};
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        tu_process run = run_lbvh("--gen", scenes[i], "--rays", "20", NULL);
        tu_assert_run(&run, scenes[i], 0, "lbvh: ");
        ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 3, "%s: not three right trees:\n%s", scenes[i],
                      run.output);
        unsigned rounds = expected_rounds(scenes[i]);
        ck_assert_msg(rounds > 10, "%s: the CPU's tree has height %u", scenes[i], rounds - 1);
        assert_rounds(run.output, scenes[i], rounds, 8);
        free(run.output);
    }
}
END_TEST

/* 8-bit digits: four radix passes, the same trees, in every form. */
START_TEST(eight_bit_digits)
{
    tu_process run = run_lbvh("--gen", "clustered:3000", "--digit-bits", "8", "--rays", "100", "--local-size", "32",
                              NULL);
    tu_assert_run(&run, "--digit-bits 8", 0, "lbvh: 3000 triangles (clustered), local size 32, at most ");
    ck_assert_msg(strstr(run.output, " groups (auto), 8-bit digits\n") != NULL, "not 8-bit digits:\n%s", run.output);
    ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 3, "not three right trees:\n%s", run.output);
    assert_rounds(run.output, "clustered:3000", expected_rounds("clustered:3000"), 4);
    assert_passes(run.output, "standalone", "device clock", 4, 1);
    assert_passes(run.output, "cooperative", "device clock", 4, 1);
    assert_passes(run.output, "chain", "profiling events", 4, 0);
    free(run.output);
}
END_TEST

/* --groups caps the persistent forms' groups; without it a scene of fewer triangles than 8 a
 * work-item gets one group; more than can be co-resident is an error. */
START_TEST(groups_chosen_or_given)
{
    tu_process run = run_lbvh("--gen", "uniform:100", "--mode", "standalone", "--local-size", "32", "--rays", "20",
                              NULL);
    /* a group per 2 x 32 triangles: 2 (as many as the workers' compute units, the floor) */
    tu_assert_run(&run, "uniform:100, auto", 0,
                  "lbvh: 100 triangles (uniform), local size 32, at most 2 groups (auto)");
    ck_assert_msg(tu_lines_with(run.output, "standalone: ", OK_END) == 1 && strstr(run.output, " on 2 groups, "),
                  "not one right tree on 2 groups:\n%s", run.output);
    free(run.output);
    run = run_lbvh("--gen", "clustered:2000", "--groups", "1", "--local-size", "32", "--rays", "20", NULL);
    tu_assert_run(&run, "--groups 1", 0, "at most 1 groups (--groups), 4-bit digits");
    ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 3, "not three right trees:\n%s", run.output);
    ck_assert_msg(strstr(run.output, "\nstandalone: ") && strstr(strstr(run.output, "\nstandalone: "), " on 1 groups, "),
                  "the standalone build is not on 1 group:\n%s", run.output);
    free(run.output);
    run = run_lbvh("--gen", "uniform:50", "--groups", "65536", "--rays", "0", NULL);
    tu_assert_run(&run, "--groups 65536", 1, "coop-lbvh: --groups 65536: at most ");
    ck_assert_msg(strstr(run.output, " groups can be co-resident at local size ") != NULL && !strstr(run.output, "Usage"),
                  "--groups 65536:\n%s", run.output);
    free(run.output);
}
END_TEST

/* --json: every build's figures and each form's median; a failed write is an error. */
START_TEST(json_has_every_build)
{
    char path[] = "/tmp/test_lbvh-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    tu_process run = run_lbvh("--gen", "uniform:500", "--mode", "chain", "--repeat", "3", "--rays", "20", "--json",
                              path, NULL);
    tu_assert_run(&run, "--json", 0, "chain: median ");
    free(run.output);
    char *json = tu_read_file(path, NULL);
    unlink(path);
    ck_assert_msg(strstr(json, "\"program\": \"coop-lbvh\"") && strstr(json, "\"triangles\": 500,") &&
                      strstr(json, "\"median_ms\": {\"standalone\": null, \"cooperative\": null, \"chain\": "),
                  "--json lacks the scene or the medians:\n%s", json);
    unsigned builds = 0;
    for (const char *at = strstr(json, "{\"form\": \"chain\""); at; at = strstr(at + 1, "{\"form\": \"chain\""))
        builds++;
    ck_assert_msg(builds == 3, "--json has %u chain builds, not 3:\n%s", builds, json);
    ck_assert_msg(!strstr(json, "\"check\": \"wrong\""), "a wrong build:\n%s", json);
    char rounds[48];
    snprintf(rounds, sizeof rounds, "\"fit_rounds\": %u, \"check\"", expected_rounds("uniform:500"));
    ck_assert_msg(strstr(json, rounds), "--json lacks '%s':\n%s", rounds, json);
    ck_assert_msg(strstr(json, "\"passes\": [\"bounds\", \"morton\", \"count0\", \"scatter0\", \"count1\", ") &&
                      strstr(json, "\"count7\", \"scatter7\", \"hierarchy\", \"fit\"],"),
                  "--json lacks the passes' names in order:\n%s", json);
    unsigned timed = 0;
    for (const char *at = strstr(json, "\"pass_clock\": \"profiling events\", \"pass_ms\": {\"bounds\": "); at;
         at = strstr(at + 1, "\"pass_clock\": \"profiling events\", \"pass_ms\": {\"bounds\": "))
        timed++;
    ck_assert_msg(timed == 3, "--json has %u chain builds with their passes' times, not 3:\n%s", timed, json);
    ck_assert_msg(strstr(json, "\"median_pass_ms\": {\"standalone\": null, \"cooperative\": null, \"chain\": "
                               "{\"bounds\": "),
                  "--json lacks the chain's median passes:\n%s", json);
    free(json);
    run = run_lbvh("--gen", "uniform:50", "--mode", "chain", "--rays", "0", "--json", "/dev/full", NULL);
    tu_assert_run(&run, "--json /dev/full", 1, "coop-lbvh: cannot write /dev/full: No space left on device");
    free(run.output);
}
END_TEST

/* ---- Under chaos, beside the periodic task ------------------------------------------------- */

START_TEST(cooperative_under_chaos)
{
    char seeds[16];
    snprintf(seeds, sizeof seeds, "%d", CHAOS_SEEDS);
    tu_process run = tu_run_program(LBVH, "make " LBVH, CHAOS_WORKERS, "--gen", "clustered:3000", "--mode",
                                    "cooperative", "--chaos", "1", "--seeds", seeds, "--rays", "100", "--local-size",
                                    "32", NULL);
    tu_assert_run(&run, "cooperative --chaos 1", 0, "cooperative seed 1: ");
    ck_assert_msg(tu_lines_with(run.output, "cooperative seed ", OK_END) == CHAOS_SEEDS, "not %d right trees:\n%s",
                  CHAOS_SEEDS, run.output);
    ck_assert_msg(tu_sum_before(run.output, " kills") > 0, "no kill over %d chaos seeds:\n%s", CHAOS_SEEDS, run.output);
    ck_assert_msg(strstr(run.output, "\ncooperative: median ") != NULL, "no median over the seeds:\n%s", run.output);
    free(run.output);
}
END_TEST

/* ---- .obj files ------------------------------------------------------------------------------ */

/* Writes `text` to a new temporary file whose path goes to `path` (a mkstemp template). */
static void write_temp(char *path, const char *text)
{
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* A 40 x 40 grid of quads over a bumpy height field: faces of four vertices with texture and
 * normal indices, negative indices, comments, groups and normals, all read. */
START_TEST(obj_file_every_form)
{
    enum { SIDE = 40 };
    size_t capacity = 1 << 20, length = 0;
    char *text = malloc(capacity);
    ck_assert_ptr_nonnull(text);
    length += (size_t)snprintf(text + length, capacity - length, "# a height field\nmtllib none.mtl\no field\n");
    for (unsigned y = 0; y <= SIDE; y++)
        for (unsigned x = 0; x <= SIDE; x++)
            length += (size_t)snprintf(text + length, capacity - length, "v %u %u %.3f\nvn 0 0 1\n", x, y,
                                       ((x * 7 + y * 3) % 5) * 0.25);
    length += (size_t)snprintf(text + length, capacity - length, "vt 0 0\ng quads\ns off\n");
    for (unsigned y = 0; y < SIDE; y++)
        for (unsigned x = 0; x < SIDE; x++) {
            unsigned a = y * (SIDE + 1) + x + 1, b = a + 1, c = a + SIDE + 2, d = a + SIDE + 1;
            if ((x + y) % 2)
                length += (size_t)snprintf(text + length, capacity - length, "f %u/1/%u %u//%u %u/1 %u\n", a, a, b,
                                           b, c, d);
            else
                length += (size_t)snprintf(text + length, capacity - length, "f %u %u %u %u\n", a, b, c, d);
        }
    /* the last triangle again, by negative indices */
    length += (size_t)snprintf(text + length, capacity - length, "f -3 -2 -1\n");
    ck_assert_uint_lt(length, capacity);
    char path[] = "/tmp/test_lbvh-XXXXXX";
    write_temp(path, text);
    free(text);
    tu_process run = run_lbvh("--obj", path, "--rays", "300", NULL);
    unlink(path);
    char expected[96];
    snprintf(expected, sizeof expected, "lbvh: %u triangles (%s)", 2 * SIDE * SIDE + 1, path);
    tu_assert_run(&run, "--obj", 0, expected);
    ck_assert_msg(tu_lines_with(run.output, "", OK_END) == 3, "not three right trees:\n%s", run.output);
    free(run.output);
}
END_TEST

/* Each malformed .obj is refused, status 1, naming its file and line; nothing is built. */
START_TEST(obj_malformed_refused)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv 1 x 2\n", ":5: v: 'x' is not a number"},
        {"v 0 0\n", ":1: v: 2 numbers; expected x y z (then w, r g b, or w r g b)"},
        {"v 0 0 0\nv 1 0 nan\n", ":2: v: 'nan' is not a finite float"},
        {"v 0 0 0\nv 1 0 0\n# two so far\nf 1 2 3\n", ":4: f: vertex 3 is not defined (2 vertices before this line)"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", ":4: f: vertex -4 is not defined (3 vertices before this line)"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", ":4: f: 2 vertices; a face has at least 3"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2 0\n", ":4: f: vertex index 0 in '0': indices count from 1 (or back "
                                                  "from -1)"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 three\n", ":4: f: 'three' is no vertex index"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nbogus 1\n", ":5: unknown statement 'bogus'"},
        {"# no faces\nv 1 2 3\n", ": no faces"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[] = "/tmp/test_lbvh-XXXXXX";
        write_temp(path, cases[i].text);
        tu_process run = run_lbvh("--obj", path, "--mode", "chain", NULL);
        unlink(path);
        char expected[256];
        snprintf(expected, sizeof expected, "coop-lbvh: %s%s\n", path, cases[i].message);
        tu_assert_run(&run, path, 1, expected);
        ck_assert_msg(strstr(run.output, "chain:") == NULL, "case %zu built a tree:\n%s", i, run.output);
        free(run.output);
    }
    tu_process run = run_lbvh("--obj", "/nonexistent/scene.obj", NULL);
    tu_assert_run(&run, "a missing file", 1, "coop-lbvh: /nonexistent/scene.obj: No such file or directory\n");
    free(run.output);
}
END_TEST

START_TEST(bad_arguments)
{
    static const struct {
        const char *args[6], *message;
    } cases[] = {
        {{"--gen", "cubes:5"}, "--gen: 'cubes' is not a choice; expected uniform or clustered"},
        {{"--gen", "uniform"}, "--gen 'uniform': expected KIND:N, KIND uniform or clustered"},
        {{"--gen", "uniform:0"}, "--gen: '0' is out of range; expected a whole number from 1 to 16777216"},
        {{"--gen", "uniform:5", "--obj", "x.obj"}, "give the scene: --gen KIND:N or --obj FILE, one of them"},
        {{"--mode", "chain"}, "give the scene: --gen KIND:N or --obj FILE, one of them"},
        {{"--gen", "uniform:5", "--local-size", "257"}, "--local-size: '257' is out of range; expected a whole number "
                                                        "from 1 to 256"},
        {{"--gen", "uniform:5", "--mode", "chain", "--chaos", "3"}, "--chaos and --task need --mode cooperative or "
                                                                    "all"},
        {{"--gen", "uniform:5", "--groups", "0"}, "--groups: '0' is out of range; expected a whole number from 1 to "
                                                  "65536"},
        {{"--gen", "uniform:5", "--mode", "chain", "--groups", "2"}, "--groups needs --mode standalone, cooperative or "
                                                                     "all (the chain keeps a group per --local-size "
                                                                     "triangles)"},
        {{"--gen", "uniform:5", "--digit-bits", "6"}, "--digit-bits: '6' is not a choice; expected 4 or 8"},
        {{"--repeat", "2", "--seeds", "3"}, "--seeds '3': --seeds and --repeat are one option; give it once"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_process run = run_lbvh(cases[i].args[0], cases[i].args[1], cases[i].args[2], cases[i].args[3], cases[i].args[4],
                                  cases[i].args[5], NULL);
        tu_assert_run(&run, cases[i].message, 1, cases[i].message);
        ck_assert_msg(strstr(run.output, "Usage: coop-lbvh") != NULL, "no usage:\n%s", run.output);
        free(run.output);
    }
}
END_TEST

/* ---- scripts/lbvh-build ------------------------------------------------------------------------ */

/* The benchmark script's smoke test: --quick builds 2,000 triangles of each kind once in each form
 * and writes its CSVs (a row per scene and form; a row per scene, timed form and pass), its
 * report and its plot; its times are not checked (PoCL measures nothing, and its persistent forms
 * have no device clock), coop-lbvh checks every tree. */
START_TEST(benchmark_script_quick)
{
    static const tu_study_file files[] = {
        {.name = "lbvh-build.csv",
         .start = "scene,triangles,form,builds,median_ms,min_ms,max_ms\nuniform:2000,2000,standalone,1,",
         .lines = {{"clustered:2000,2000,chain,1,", 1}}},
        {.name = "report.md",
         .contains = {"| scene | triangles | standalone | cooperative (matmult task) | chain |",
                      "\nclustered 2000:\n\n| pass | standalone | cooperative (matmult task) | chain |\n"
                      "| --- | ---: | ---: | ---: |\n| bounds | ",
                      "\n| scatter7 | "}},
        {.name = "lbvh-build.png"},
        {.name = "lbvh-passes.csv", .start = "scene,triangles,form,pass,median_ms\n",
         .lines = {{"clustered:2000,2000,chain,", 20}, {"clustered:2000,2000,chain,hierarchy,", 1}}},
    };
    tu_run_study("scripts/lbvh-build", WORKERS, "[2/2] clustered:2000 ... standalone ", files,
                 sizeof files / sizeof files[0]);
}
END_TEST

/* ---- The checks themselves ------------------------------------------------------------------ */

typedef struct scene {
    float *tris;
    lbvh_tree tree, copy;
} scene;

static scene scene_open(unsigned n)
{
    scene s = {.tris = malloc((size_t)n * 9 * sizeof(float))};
    ck_assert_ptr_nonnull(s.tris);
    lbvh_scene_clustered(s.tris, n, 7);
    ck_assert_int_eq(lbvh_tree_alloc(&s.tree, n), 0);
    ck_assert_int_eq(lbvh_tree_alloc(&s.copy, n), 0);
    ck_assert_int_eq(lbvh_ref_build(s.tris, &s.tree), 0);
    return s;
}

/* The copy made equal to the CPU's tree again. */
static void scene_reset(scene *s)
{
    unsigned n = s->tree.n;
    memcpy(s->copy.keys, s->tree.keys, n * sizeof *s->tree.keys);
    memcpy(s->copy.ids, s->tree.ids, n * sizeof *s->tree.ids);
    memcpy(s->copy.child, s->tree.child, (2 * (size_t)n - 2) * sizeof *s->tree.child);
    memcpy(s->copy.parent, s->tree.parent, (2 * (size_t)n - 1) * sizeof *s->tree.parent);
    memcpy(s->copy.box, s->tree.box, (2 * (size_t)n - 1) * 6 * sizeof *s->tree.box);
}

static void scene_close(scene *s)
{
    lbvh_tree_free(&s->tree);
    lbvh_tree_free(&s->copy);
    free(s->tris);
}

START_TEST(checks_find_a_wrong_tree)
{
    scene s = scene_open(2000);
    scene_reset(&s);
    ck_assert_uint_eq(lbvh_ref_compare(&s.tree, &s.copy, s.tris, NULL, 0), 0);
    unsigned hits = 0;
    ck_assert_uint_eq(lbvh_ref_rays(s.tris, &s.copy, 500, 3, NULL, 0, &hits), 0);
    ck_assert_uint_gt(hits, 250);
    /* one bound of an internal node a little too large */
    s.copy.box[5 * 6 + 3] += 1e-3f;
    ck_assert_uint_gt(lbvh_ref_compare(&s.tree, &s.copy, s.tris, NULL, 0), 0);
    /* two leaves swapped */
    scene_reset(&s);
    uint32_t id = s.copy.ids[10];
    s.copy.ids[10] = s.copy.ids[1900];
    s.copy.ids[1900] = id;
    ck_assert_uint_gt(lbvh_ref_compare(&s.tree, &s.copy, s.tris, NULL, 0), 0);
    /* a child that is another node's */
    scene_reset(&s);
    s.copy.child[7] = s.copy.child[9];
    ck_assert_uint_gt(lbvh_ref_compare(&s.tree, &s.copy, s.tris, NULL, 0), 0);
    scene_close(&s);
}
END_TEST

START_TEST(rays_find_a_box_too_small)
{
    scene s = scene_open(2000);
    scene_reset(&s);
    /* every leaf's box squeezed to a point: the walk finds no hit, the brute force finds them */
    unsigned leaves = s.copy.n - 1;
    for (unsigned k = 0; k < s.copy.n; k++)
        for (unsigned a = 0; a < 3; a++)
            s.copy.box[(size_t)(leaves + k) * 6 + 3 + a] = s.copy.box[(size_t)(leaves + k) * 6 + a] = -100.0f;
    unsigned hits = 0;
    ck_assert_uint_gt(lbvh_ref_rays(s.tris, &s.copy, 200, 3, NULL, 0, &hits), 100);
    scene_close(&s);
}
END_TEST

static Suite *lbvh_suite(void)
{
    Suite *suite = suite_create("lbvh");
    /* a case run alone builds the programs first: minutes on a busy machine with PoCL */
    TCase *forms = tu_tcase("forms", 900);
    tcase_add_test(forms, uniform_every_form);
    tcase_add_test(forms, clustered_every_form);
    tcase_add_test(forms, smallest_scenes);
    tcase_add_test(forms, fit_rounds_printed);
    tcase_add_test(forms, json_has_every_build);
    tcase_add_test(forms, passes_timed_in_order);
    TCase *options = tu_tcase("options", 900);
    tcase_add_test(options, eight_bit_digits);
    tcase_add_test(options, groups_chosen_or_given);
    suite_add_tcase(suite, options);
    suite_add_tcase(suite, forms);
    TCase *chaos = tu_tcase("chaos", 900);
    tcase_add_test(chaos, cooperative_under_chaos);
    suite_add_tcase(suite, chaos);
    TCase *obj = tu_tcase("obj", 900);
    tcase_add_test(obj, obj_file_every_form);
    tcase_add_test(obj, obj_malformed_refused);
    suite_add_tcase(suite, obj);
    TCase *script = tu_tcase("script", 900);
    tcase_add_test(script, benchmark_script_quick);
    suite_add_tcase(suite, script);
    TCase *arguments = tu_tcase("arguments", 60);
    tcase_add_test(arguments, bad_arguments);
    suite_add_tcase(suite, arguments);
    TCase *checks = tu_tcase("checks", 60);
    tcase_add_test(checks, checks_find_a_wrong_tree);
    tcase_add_test(checks, rays_find_a_box_too_small);
    suite_add_tcase(suite, checks);
    return suite;
}

int main(void)
{
    return tu_run(lbvh_suite());
}
