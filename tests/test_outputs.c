/* test_outputs.c: the files the programs write (host/common/output.c over libcoop/src/outfile.c)
 * are written whole or not at all. A full device says "No space left on device" and exits 1; a
 * folder that takes no new file, a run that fails and a run ended by SIGINT or SIGTERM leave the
 * old file as it was and no temporary file beside it; /dev/null stays a device. coop-bench's
 * --output is opened before the runs (the old program truncated it there: a failed or interrupted
 * run left it empty), its --json and coop-ws's --json at the end. Build the programs first (make). */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>

#define BENCH "build/bin/coop-bench"
#define WS "build/bin/coop-ws"
#define CHAOS "build/bin/coop-chaos"
#define BUILD_HOW "make"

enum { WORKERS = 2, PATH_BYTES = 256 };

/* A fresh folder under /tmp that anyone may enter (a dropped-privileges run reads through it). */
static void make_folder(char *path)
{
    snprintf(path, PATH_BYTES, "/tmp/test_outputs.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(path));
    ck_assert_int_eq(chmod(path, 0755), 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    ck_assert_msg(file != NULL, "cannot write %s", path);
    fputs(text, file);
    ck_assert_int_eq(fclose(file), 0);
}

/* The folder's entries other than those named (up to a NULL), one per line; "" if none. */
static char *other_entries(const char *folder, ...)
{
    static char found[4096];
    found[0] = '\0';
    DIR *dir = opendir(folder);
    ck_assert_ptr_nonnull(dir);
    for (struct dirent *entry; (entry = readdir(dir));) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        int named = 0;
        va_list names;
        va_start(names, folder);
        for (const char *name = va_arg(names, const char *); name && !named; name = va_arg(names, const char *))
            named = !strcmp(name, entry->d_name);
        va_end(names);
        if (!named && strlen(found) + strlen(entry->d_name) + 2 < sizeof found) {
            strcat(found, entry->d_name);
            strcat(found, "\n");
        }
    }
    closedir(dir);
    return found;
}

static void assert_text(const char *path, const char *expected)
{
    char *text = tu_read_file(path, NULL);
    ck_assert_msg(text && !strcmp(text, expected), "%s holds '%.60s', expected '%s'", path, text ? text : "(none)",
                  expected);
    free(text);
}

static void assert_character_device(const char *path)
{
    struct stat info;
    ck_assert_msg(lstat(path, &info) == 0 && S_ISCHR(info.st_mode), "%s is no longer a device", path);
}

static void remove_folder(const char *folder)
{
    char command[PATH_BYTES + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    ck_assert_int_eq(system(command), 0);
}

/* ---- Full devices, /dev/null --------------------------------------------------------------- */

static const struct {
    const char *program, *args[12], *message;
} to_full[] = {
    {BENCH, {"bfs", "--gen", "grid:8:8", "--output", "/dev/full"},
     "coop-bench: cannot write /dev/full: No space left on device"},
    {BENCH, {"bfs", "--gen", "grid:8:8", "--json", "/dev/full"},
     "coop-bench: cannot write /dev/full: No space left on device"},
    {BENCH, {"bfs", "--gen", "grid:8:8", "--mode", "cooperative", "--trace", "/dev/full"},
     "trace '/dev/full': could not be written: No space left on device"},
    {WS, {"octree", "--points", "3000", "--mode", "standalone", "--json", "/dev/full"},
     "coop-ws: cannot write /dev/full: No space left on device"},
    {WS, {"game", "--depth", "3", "--trace", "/dev/full"},
     "trace '/dev/full': could not be written: No space left on device"},
};
enum { TO_FULL = sizeof to_full / sizeof to_full[0] };

/* A full device as an output: status 1, the file and the reason named (coop-ws said nothing, the
 * old coop-bench "write failed" without the reason), and the device still there. */
START_TEST(full_device_names_the_reason)
{
    if (access("/dev/full", W_OK) != 0) {
        printf("full_device_names_the_reason: /dev/full: %s; not tried\n", strerror(errno));
        return;
    }
    const char *const *args = to_full[_i].args;
    tu_process run = tu_run_program(to_full[_i].program, BUILD_HOW, WORKERS, args[0], args[1], args[2], args[3],
                                    args[4], args[5], args[6], args[7], NULL);
    ck_assert_msg(run.status == 1 && strstr(run.output, to_full[_i].message), "%s %s ...: status %d, expected 1 and "
                  "\"%s\":\n%s", to_full[_i].program, args[0], run.status, to_full[_i].message, run.output);
    free(run.output);
    assert_character_device("/dev/full");
}
END_TEST

/* /dev/null takes every output and stays a device (nothing is renamed over it nor removed). */
START_TEST(dev_null_survives)
{
    if (access("/dev/null", W_OK) != 0)
        return;
    tu_process run = tu_run_program(BENCH, BUILD_HOW, WORKERS, "bfs", "--gen", "grid:8:8", "--mode", "cooperative",
                                    "--output", "/dev/null", "--json", "/dev/null", "--trace", "/dev/null", NULL);
    ck_assert_msg(run.status == 0, "coop-bench: status %d:\n%s", run.status, run.output);
    free(run.output);
    run = tu_run_program(WS, BUILD_HOW, WORKERS, "game", "--depth", "3", "--json", "/dev/null", "--trace",
                         "/dev/null", NULL);
    ck_assert_msg(run.status == 0, "coop-ws: status %d:\n%s", run.status, run.output);
    free(run.output);
    assert_character_device("/dev/null");
}
END_TEST

/* ---- Folders that take no new file, failed runs --------------------------------------------- */

/* Runs argv with nobody's rights when this process is root (for whom a read-only mode does not
 * stop writing), standard output and error collected. */
static tu_process run_unprivileged(char *const argv[])
{
    return tu_run_process_as(argv, 1);
}

/* A folder where no file can be made: the old output stays, the message says why (the old
 * program opened the file itself, which may be writable: with a folder of mode 0555 and a file
 * of 0666 it was truncated in place, not replaced). */
START_TEST(read_only_folder_keeps_the_old_file)
{
    char folder[PATH_BYTES], path[2 * PATH_BYTES];
    make_folder(folder);
    snprintf(path, sizeof path, "%s/out.txt", folder);
    write_text(path, "old\n");
    ck_assert_int_eq(chmod(path, 0666), 0);
    ck_assert_int_eq(chmod(folder, 0555), 0);
    tu_env(WORKERS);
    char *argv[] = {BENCH, "bfs", "--gen", "grid:8:8", "--output", path, NULL};
    tu_process run = run_unprivileged(argv);
    char expected[3 * PATH_BYTES];
    snprintf(expected, sizeof expected, "coop-bench: cannot write %s: cannot create a temporary file beside it: "
             "Permission denied", path);
    ck_assert_msg(run.status == 1 && strstr(run.output, expected), "status %d, expected 1 and \"%s\":\n%s",
                  run.status, expected, run.output);
    free(run.output);
    assert_text(path, "old\n");
    const char *left = other_entries(folder, "out.txt", NULL);
    ck_assert_msg(!*left, "left in %s:\n%s", folder, left);
    ck_assert_int_eq(chmod(folder, 0755), 0);
    remove_folder(folder);
}
END_TEST

/* A run that fails after its output was opened (no such device) leaves the old output whole. */
START_TEST(failed_run_keeps_the_old_output)
{
    char folder[PATH_BYTES], output[2 * PATH_BYTES], json[2 * PATH_BYTES];
    make_folder(folder);
    snprintf(output, sizeof output, "%s/out.txt", folder);
    snprintf(json, sizeof json, "%s/out.json", folder);
    write_text(output, "old output\n");
    write_text(json, "old json\n");
    tu_env(WORKERS);
    setenv("COOP_DEVICE", "no-such-device", 1);
    char *argv[] = {BENCH, "bfs", "--gen", "grid:8:8", "--output", output, "--json", json, NULL};
    tu_process run = tu_run_process(argv);
    unsetenv("COOP_DEVICE");
    ck_assert_msg(run.status == 1 && strstr(run.output, "no-such-device"), "status %d, expected 1:\n%s", run.status,
                  run.output);
    free(run.output);
    assert_text(output, "old output\n");
    assert_text(json, "old json\n");
    const char *left = other_entries(folder, "out.txt", "out.json", NULL);
    ck_assert_msg(!*left, "left in %s:\n%s", folder, left);
    remove_folder(folder);
}
END_TEST

/* ---- Signals -------------------------------------------------------------------------------- */

/* Whether `folder` holds a file whose name starts with `prefix`. */
static int holds(const char *folder, const char *prefix)
{
    DIR *dir = opendir(folder);
    ck_assert_ptr_nonnull(dir);
    int found = 0;
    for (struct dirent *entry; !found && (entry = readdir(dir));)
        found = !strncmp(entry->d_name, prefix, strlen(prefix));
    closedir(dir);
    return found;
}

/* Whether the file at `path` no longer holds `old`. */
static int changed(const char *path, const char *old)
{
    char *text = tu_read_file(path, NULL);
    int differs = !text || strcmp(text, old) != 0;
    free(text);
    return differs;
}

/* Waits until the program is writing (its temporary `prefix`... is in `folder`, or it changed
 * `path` from `old` in place), however long a busy machine takes to get there, then sends
 * `signal_number`; the program must die of it. */
static void interrupt_while_writing(pid_t child, const char *folder, const char *prefix, const char *path,
                                    const char *old, int signal_number)
{
    int status = 0;
    for (unsigned polls = 0; !holds(folder, prefix) && !changed(path, old); polls++) {
        pid_t ended = waitpid(child, &status, WNOHANG);
        ck_assert_msg(ended == 0, "the program ended (status %d) before %s/%s... appeared", status, folder, prefix);
        if (polls > 6000) { /* 10 minutes */
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            ck_abort_msg("no %s/%s... after 10 minutes", folder, prefix);
        }
        nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
    }
    ck_assert_int_eq(kill(child, signal_number), 0);
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == signal_number, "the program ended with status %#x, "
                  "not by signal %d", (unsigned)status, signal_number);
}

/* SIGINT while coop-bench runs (100000 runs: it is still running when the signal comes): the old
 * --output stays and its temporary goes (the old program left it empty). */
START_TEST(sigint_keeps_the_old_output)
{
    char folder[PATH_BYTES], output[2 * PATH_BYTES];
    make_folder(folder);
    snprintf(output, sizeof output, "%s/out.txt", folder);
    write_text(output, "old output\n");
    tu_env(WORKERS);
    char *argv[] = {BENCH, "bfs", "--gen", "grid:16:16", "--repeat", "100000", "--output", output, NULL};
    interrupt_while_writing(tu_start_silent(argv), folder, ".out.txt.", output, "old output\n", SIGINT);
    assert_text(output, "old output\n");
    const char *left = other_entries(folder, "out.txt", NULL);
    ck_assert_msg(!*left, "left in %s:\n%s", folder, left);
    remove_folder(folder);
}
END_TEST

/* SIGTERM while a trace (COOP_TRACE_FILE, libcoop's writer) is being written: its temporary goes;
 * the trace is the old file or a whole one from an earlier run, never part of one. */
START_TEST(sigterm_removes_a_trace_being_written)
{
    char folder[PATH_BYTES], trace[2 * PATH_BYTES];
    make_folder(folder);
    snprintf(trace, sizeof trace, "%s/trace.json", folder);
    write_text(trace, "old trace\n");
    tu_env(WORKERS);
    setenv("COOP_TRACE_FILE", trace, 1);
    char *argv[] = {CHAOS, "--seeds", "1000000", "--rounds", "20", "--elements", "256", NULL};
    pid_t child = tu_start_silent(argv);
    unsetenv("COOP_TRACE_FILE");
    interrupt_while_writing(child, folder, ".trace.json.", trace, "old trace\n", SIGTERM);
    size_t size = 0;
    char *text = tu_read_file(trace, &size);
    ck_assert_msg(!strcmp(text, "old trace\n") || (size > 4 && text[0] == '{' && !strcmp(text + size - 4, "\n]}\n")),
                  "%s holds part of a trace: '%.40s' ... '%s'", trace, text, size > 20 ? text + size - 20 : text);
    free(text);
    const char *left = other_entries(folder, "trace.json", NULL);
    ck_assert_msg(!*left, "left in %s:\n%s", folder, left);
    remove_folder(folder);
}
END_TEST

static Suite *outputs_suite(void)
{
    Suite *suite = suite_create("outputs");
    TCase *devices = tu_tcase("devices", 300);
    tcase_add_loop_test(devices, full_device_names_the_reason, 0, TO_FULL);
    tcase_add_test(devices, dev_null_survives);
    suite_add_tcase(suite, devices);
    TCase *failures = tu_tcase("failures", 120);
    tcase_add_test(failures, read_only_folder_keeps_the_old_file);
    tcase_add_test(failures, failed_run_keeps_the_old_output);
    suite_add_tcase(suite, failures);
    TCase *signals = tu_tcase("signals", 1300);
    tcase_add_test(signals, sigint_keeps_the_old_output);
    tcase_add_test(signals, sigterm_removes_a_trace_being_written);
    suite_add_tcase(suite, signals);
    return suite;
}

int main(void)
{
    return tu_run(outputs_suite());
}
