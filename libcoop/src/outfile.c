/* Files written whole or not at all (outfile.h). */
#define _XOPEN_SOURCE 700 /* mkstemp, fchmod, fsync */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int coop_outfile_open(coop_outfile *file, const char *path)
{
    memset(file, 0, sizeof *file);
    file->path = path;
    struct stat info;
    int exists = stat(path, &info) == 0;
    if (exists && S_ISDIR(info.st_mode))
        return EISDIR;
    if (exists && !S_ISREG(info.st_mode)) {
        file->stream = fopen(path, "w");
        return file->stream ? 0 : errno;
    }
    /* `.NAME.XXXXXX` in the target's folder, so that the rename stays on one file system */
    const char *slash = strrchr(path, '/');
    size_t folder = slash ? (size_t)(slash - path) + 1 : 0;
    file->temporary = malloc(strlen(path) + 9);
    if (!file->temporary)
        return ENOMEM;
    sprintf(file->temporary, "%.*s.%s.XXXXXX", (int)folder, path, path + folder);
    int fd = mkstemp(file->temporary);
    if (fd < 0) {
        int error = errno;
        free(file->temporary);
        file->temporary = NULL;
        return error;
    }
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
        unlink(file->temporary);
        free(file->temporary);
        file->temporary = NULL;
        return error;
    }
    return 0;
}

int coop_outfile_commit(coop_outfile *file)
{
    if (!file->stream)
        return EBADF;
    errno = 0;
    int error = 0;
    if (fflush(file->stream) != 0 || ferror(file->stream))
        error = errno ? errno : EIO;
    if (!error && file->temporary && fsync(fileno(file->stream)) != 0)
        error = errno;
    if (fclose(file->stream) != 0 && !error)
        error = errno ? errno : EIO;
    file->stream = NULL;
    if (!error && file->temporary && rename(file->temporary, file->path) != 0)
        error = errno;
    if (error && file->temporary)
        unlink(file->temporary);
    free(file->temporary);
    file->temporary = NULL;
    return error;
}

void coop_outfile_abandon(coop_outfile *file)
{
    if (file->stream)
        fclose(file->stream);
    file->stream = NULL;
    if (file->temporary)
        unlink(file->temporary);
    free(file->temporary);
    file->temporary = NULL;
}
