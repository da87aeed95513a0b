/* fuzz/replay.c: runs a fuzz target (LLVMFuzzerTestOneInput) on files without libFuzzer, so that
 * `make check` and `make sanitize` replay the seed corpus and every past crash through the
 * targets built with gcc and its AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 *   replay-graph FILE_OR_FOLDER...     (folders are walked recursively)
 *
 * Each input runs in its own process, with what it prints kept back unless it fails: then the
 * input's name and its output (the sanitizer's report, say) are shown. A run that takes longer
 * than REPLAY_TIMEOUT_S counts as failed. Prints "replay-graph: N inputs, N failed" and exits 1
 * if any failed. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { REPLAY_TIMEOUT_S = 120 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct tally {
    const char *program;
    unsigned inputs, failed;
} tally;

static uint8_t *read_input(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t capacity = 4096, length = 0;
    uint8_t *data = malloc(capacity);
    for (size_t got = 1; data && got > 0;) {
        if (length == capacity) {
            uint8_t *larger = realloc(data, capacity *= 2);
            if (!larger) {
                free(data);
                data = NULL;
                break;
            }
            data = larger;
        }
        got = fread(data + length, 1, capacity - length, file);
        length += got;
    }
    if (ferror(file)) {
        free(data);
        data = NULL;
    }
    fclose(file);
    *size = length;
    return data;
}

/* Runs the target on the file at `path` in a child whose output goes to a temporary file. */
static void replay_file(tally *t, const char *path)
{
    char log_path[] = "/tmp/replay.XXXXXX";
    int log_fd = mkstemp(log_path);
    if (log_fd < 0) {
        fprintf(stderr, "%s: cannot make a temporary file: %s\n", t->program, strerror(errno));
        exit(1);
    }
    unlink(log_path);
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "%s: fork: %s\n", t->program, strerror(errno));
        exit(1);
    }
    if (child == 0) {
        dup2(log_fd, STDOUT_FILENO);
        dup2(log_fd, STDERR_FILENO);
        alarm(REPLAY_TIMEOUT_S);
        size_t size = 0;
        uint8_t *data = read_input(path, &size);
        if (!data) {
            fprintf(stderr, "cannot read %s: %s\n", path, strerror(errno));
            _exit(2);
        }
        LLVMFuzzerTestOneInput(data, size);
        free(data);
        exit(0);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    t->inputs++;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        t->failed++;
        if (WIFSIGNALED(status))
            fprintf(stderr, "%s: %s: killed by signal %d%s\n", t->program, path, WTERMSIG(status),
                    WTERMSIG(status) == SIGALRM ? " (took too long)" : "");
        else
            fprintf(stderr, "%s: %s: exit status %d\n", t->program, path, WEXITSTATUS(status));
        char chunk[4096];
        ssize_t got;
        lseek(log_fd, 0, SEEK_SET);
        while ((got = read(log_fd, chunk, sizeof chunk)) > 0)
            fwrite(chunk, 1, (size_t)got, stderr);
    }
    close(log_fd);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void replay_path(tally *t, const char *path)
{
    struct stat info;
    if (stat(path, &info) != 0) {
        fprintf(stderr, "%s: %s: %s\n", t->program, path, strerror(errno));
        t->failed++;
        return;
    }
    if (!S_ISDIR(info.st_mode)) {
        replay_file(t, path);
        return;
    }
    struct dirent **entries = NULL;
    int count = scandir(path, &entries, NULL, by_name);
    for (int i = 0; i < count; i++) {
        if (entries[i]->d_name[0] != '.') {
            size_t length = strlen(path) + strlen(entries[i]->d_name) + 2;
            char *child = malloc(length);
            if (!child) {
                fprintf(stderr, "%s: out of memory\n", t->program);
                exit(1);
            }
            snprintf(child, length, "%s/%s", path, entries[i]->d_name);
            replay_path(t, child);
            free(child);
        }
        free(entries[i]);
    }
    free(entries);
}

int main(int argc, char **argv)
{
    const char *slash = strrchr(argv[0], '/');
    tally t = {.program = slash ? slash + 1 : argv[0]};
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", t.program);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        replay_path(&t, argv[i]);
    printf("%s: %u inputs, %u failed\n", t.program, t.inputs, t.failed);
    return t.failed ? 1 : 0;
}
