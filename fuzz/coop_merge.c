/* fuzz/coop_merge.c: a fuzz target for coop-merge (merge-tool/), for libFuzzer (make fuzz) and
 * for fuzz/replay.c (make check, make sanitize).
 *
 * The input is a cooperative kernel file, optionally followed by task files, each introduced by
 * a line "//@task"; an input whose first line is "//@standalone" is merged with --standalone.
 * The files are written to a temporary folder and coop-merge's own main() runs on them in the
 * process, so that the fuzzer sees the whole pipeline as a user runs it: parse, analyse,
 * validate, rewrite, emit, the check that the result compiles, and the writing of both outputs. main() is taken
 * from merge-tool/main.c under another name rather than called through an interface of its own,
 * which the tool does not have. Rejected inputs are fine; crashes, sanitizer reports, leaks and
 * hangs are what the fuzzer looks for. */
#define _XOPEN_SOURCE 700 /* merge-tool/main.c's, before any header */
/* libFuzzer keeps its own signal handlers (SIGINT ends a campaign with its report) */
#include "output.h"
#define output_catch_signals() ((void)0)
#define main coop_merge_main
#include "../merge-tool/main.c"
#undef main
#undef output_catch_signals

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_TASKS = 8 };

static const char task_marker[] = "\n//@task\n";
static const char standalone_marker[] = "//@standalone\n";

/* The folder the files are written to, made at the first input and removed at exit. */
static char directory[256];

static void remove_directory(void)
{
    rmdir(directory);
}

static void write_part(const char *path, const uint8_t *data, size_t size)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0)
        abort();
}

/* The first occurrence of `marker` in data[0, size), or NULL. */
static const uint8_t *find_marker(const uint8_t *data, size_t size, const char *marker)
{
    size_t length = strlen(marker);
    for (size_t at = 0; at + length <= size; at++)
        if (!memcmp(data + at, marker, length))
            return data + at;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!directory[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(directory, sizeof directory, "%s/fuzz-merge.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(directory))
            abort();
        atexit(remove_directory);
    }
    enum { PATH_BYTES = sizeof directory + 32 };
    static char paths[MAX_TASKS + 3][PATH_BYTES];
    char *argv[2 * MAX_TASKS + 8];
    int argc = 0, files = 0;
    argv[argc++] = "coop-merge";
    if (size >= strlen(standalone_marker) && !memcmp(data, standalone_marker, strlen(standalone_marker)))
        argv[argc++] = "--standalone";

    /* The cooperative kernel's file, then a task file after each marker. */
    const uint8_t *part = data, *end = data + size;
    for (int task = 0; task <= MAX_TASKS; task++) {
        const uint8_t *marker = task < MAX_TASKS ? find_marker(part, (size_t)(end - part), task_marker) : NULL;
        const uint8_t *part_end = marker ? marker + 1 : end; /* the part keeps its last newline */
        snprintf(paths[files], PATH_BYTES, task ? "%s/task%d.cl" : "%s/coop.cl", directory, task);
        write_part(paths[files], part, (size_t)(part_end - part));
        if (task)
            argv[argc++] = "--task";
        argv[argc++] = paths[files++];
        if (!marker)
            break;
        part = marker + strlen(task_marker);
    }
    snprintf(paths[files], PATH_BYTES, "%s/out.cl", directory);
    argv[argc++] = "-o";
    argv[argc++] = paths[files++];
    snprintf(paths[files], PATH_BYTES, "%s/out.h", directory);
    argv[argc++] = "--host-header";
    argv[argc++] = paths[files++];
    argv[argc] = NULL;

    coop_merge_main(argc, argv);
    for (int i = 0; i < files; i++)
        unlink(paths[i]);
    return 0;
}
