/* Files written whole or not at all (outfile.h). */
#define _XOPEN_SOURCE 700 /* mkstemp, fchmod, fsync, realpath */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporaries being written, for coop_outfile_remove_temporaries(). Process-wide, because a
 * signal handler reaches nothing else; a handler may read a lock-free atomic (C11 7.14.1.1). A
 * program writes a few files at once: one beyond the list is written whole all the same, and
 * only left behind by a signal. */
enum { LIST_SLOTS = 16 };
static _Atomic(char *) temporaries[LIST_SLOTS];
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the temporaries' list must be lock-free for a signal handler");

static void enlist(coop_outfile *file)
{
    for (unsigned i = 0; i < LIST_SLOTS; i++) {
        char *empty = NULL;
        if (atomic_compare_exchange_strong(&temporaries[i], &empty, file->temporary)) {
            file->listed = i + 1;
            return;
        }
    }
}

/* After the temporary was renamed or removed, before its name is freed. */
static void unlist(coop_outfile *file)
{
    if (file->listed)
        atomic_store(&temporaries[file->listed - 1], NULL);
    file->listed = 0;
}

void coop_outfile_remove_temporaries(void)
{
    for (unsigned i = 0; i < LIST_SLOTS; i++) {
        char *name = atomic_load(&temporaries[i]);
        if (name)
            unlink(name);
    }
}

/* Forgets the temporary (removing it first where `remove`). */
static void drop_temporary(coop_outfile *file, int remove)
{
    if (file->temporary && remove)
        unlink(file->temporary);
    unlist(file);
    free(file->temporary);
    file->temporary = NULL;
    free(file->target);
    file->target = NULL;
}

/* A failure at `step` with `error`, everything made so far removed. */
static int fail(coop_outfile *file, coop_outfile_step step, int error)
{
    if (file->stream)
        fclose(file->stream);
    file->stream = NULL;
    drop_temporary(file, 1);
    file->failed = step;
    return error;
}

/* Whether the folder of `target`, its first `length` bytes (0: the working folder), is missing:
 * then that is the reason, not the temporary file beside the target. */
static int folder_missing(const char *target, size_t length)
{
    char *folder = length ? strndup(target, length) : strdup(".");
    struct stat info;
    int missing = folder && stat(folder, &info) != 0 && (errno == ENOENT || errno == ENOTDIR);
    free(folder);
    return missing;
}

int coop_outfile_open(coop_outfile *file, const char *path)
{
    memset(file, 0, sizeof *file);
    file->path = path;
    struct stat info;
    int exists = stat(path, &info) == 0;
    if (!exists && errno != ENOENT)
        return errno;
    if (!exists && lstat(path, &info) == 0)
        return fail(file, COOP_OUTFILE_DANGLING, ENOENT);
    if (exists && S_ISDIR(info.st_mode))
        return EISDIR;
    if (exists && !S_ISREG(info.st_mode)) {
        file->stream = fopen(path, "w");
        return file->stream ? 0 : errno;
    }
    /* a link's file is replaced, not the link: the rename goes where the link points */
    file->target = exists ? realpath(path, NULL) : strdup(path);
    if (!file->target)
        return exists ? errno : ENOMEM;
    /* `.NAME.XXXXXX` in the target's folder, so that the rename stays on one file system */
    const char *slash = strrchr(file->target, '/');
    size_t folder = slash ? (size_t)(slash - file->target) + 1 : 0;
    file->temporary = malloc(strlen(file->target) + 9);
    if (!file->temporary)
        return fail(file, COOP_OUTFILE_WRITE, ENOMEM);
    sprintf(file->temporary, "%.*s.%s.XXXXXX", (int)folder, file->target, file->target + folder);
    int fd = mkstemp(file->temporary);
    if (fd < 0) {
        int error = errno;
        free(file->temporary);
        file->temporary = NULL;
        return fail(file, folder_missing(file->target, folder) ? COOP_OUTFILE_WRITE : COOP_OUTFILE_TEMPORARY, error);
    }
    enlist(file);
    /* an existing file's mode, else what creating it would give (0666 less the umask) */
    mode_t mode = 0666;
    if (exists) {
        mode = info.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode &= ~mask;
    }
    if (fchmod(fd, mode) != 0 || !(file->stream = fdopen(fd, "w"))) {
        int error = errno;
        close(fd);
        return fail(file, COOP_OUTFILE_TEMPORARY, error);
    }
    return 0;
}

int coop_outfile_close(coop_outfile *file)
{
    if (!file->stream)
        return EBADF;
    /* each call's own errno, taken at once: a stale one gave the wrong reason */
    errno = 0;
    int error = 0;
    if (fflush(file->stream) != 0 || ferror(file->stream))
        error = errno ? errno : EIO;
    errno = 0;
    if (!error && file->temporary && fsync(fileno(file->stream)) != 0)
        error = errno;
    errno = 0;
    if (fclose(file->stream) != 0 && !error)
        error = errno ? errno : EIO;
    file->stream = NULL;
    return error ? fail(file, COOP_OUTFILE_WRITE, error) : 0;
}

int coop_outfile_commit(coop_outfile *file)
{
    int error = file->stream ? coop_outfile_close(file) : 0;
    if (error)
        return error;
    if (file->temporary && rename(file->temporary, file->target) != 0)
        return fail(file, COOP_OUTFILE_REPLACE, errno);
    drop_temporary(file, 0);
    return 0;
}

void coop_outfile_abandon(coop_outfile *file)
{
    if (file->stream)
        fclose(file->stream);
    file->stream = NULL;
    drop_temporary(file, 1);
}

const char *coop_outfile_reason(const coop_outfile *file, int error, char *text, size_t size)
{
    static const char *const steps[] = {
        [COOP_OUTFILE_WRITE] = "",
        [COOP_OUTFILE_DANGLING] = "it is a symbolic link to nothing",
        [COOP_OUTFILE_TEMPORARY] = "cannot create a temporary file beside it: ",
        [COOP_OUTFILE_REPLACE] = "cannot rename the temporary file over it: ",
    };
    if (file->failed == COOP_OUTFILE_DANGLING)
        snprintf(text, size, "%s", steps[file->failed]);
    else
        snprintf(text, size, "%s%s", steps[file->failed], strerror(error));
    return text;
}
