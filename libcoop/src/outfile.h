/* outfile.c: files written whole or not at all. A regular target (or one that does not exist
 * yet) is written to a temporary file beside it and renamed over it only once complete, keeping
 * an existing file's mode; a link to a regular file is written through (the file is replaced, the
 * link stays). Anything else (a device such as /dev/null, a pipe) is written in place. On failure
 * the temporary goes and the target is as it was: nothing the program did not create is ever
 * removed. The temporaries being written are listed for coop_outfile_remove_temporaries(), which
 * a program's signal handler calls (host/common/output.c).
 * The host programs and coop-merge link their own copy (host/common/outfile.o), as strict.c; a
 * program linked with libcoop.a then shares it with libcoop's trace writer, and so does the list. */
#ifndef COOP_OUTFILE_H
#define COOP_OUTFILE_H

#include <stdio.h>

/* The step of a failure that is not the write itself, for coop_outfile_reason(). */
typedef enum coop_outfile_step {
    COOP_OUTFILE_WRITE,         /* opening in place, writing, flushing, syncing, closing */
    COOP_OUTFILE_DANGLING,      /* the target is a symbolic link to nothing */
    COOP_OUTFILE_TEMPORARY,     /* the temporary file beside the target could not be made */
    COOP_OUTFILE_REPLACE        /* the complete temporary could not be renamed over the target */
} coop_outfile_step;

typedef struct coop_outfile {
    FILE *stream;               /* write here */
    const char *path;           /* the target, as given */
    char *target;               /* the file the temporary replaces: path, its links resolved */
    char *temporary;            /* the file written, renamed to target at the end; NULL: in place */
    unsigned listed;            /* 1 + the temporary's place in the signal handler's list; 0: none */
    coop_outfile_step failed;   /* after a failure: where */
} coop_outfile;

/* Opens `path` for writing; 0, or an errno (EISDIR for a folder, ENOENT for a link to nothing,
 * the temporary's own reason for a folder that takes no new file...). */
int coop_outfile_open(coop_outfile *file, const char *path);
/* Flushes, syncs and closes the stream, the temporary still beside the target: 0, or the errno of
 * the first write, flush, sync or close that failed (ENOSPC for a full disk), the temporary then
 * removed and the target as it was. For writing several files whole before replacing any. */
int coop_outfile_close(coop_outfile *file);
/* coop_outfile_close() if the stream is open, then renames the temporary over the target; 0, or
 * the errno of what failed, in which case the target is as it was. */
int coop_outfile_commit(coop_outfile *file);
/* Closes the stream and removes the temporary; the target is as it was. Harmless after a
 * failure, a commit, or a second time. */
void coop_outfile_abandon(coop_outfile *file);
/* The reason for a message "cannot write PATH: REASON" after `error` from the calls above:
 * strerror(error), after the step that failed where that is not the write itself. Written into
 * `text` (`size` bytes); returns text. */
const char *coop_outfile_reason(const coop_outfile *file, int error, char *text, size_t size);
/* Removes every temporary file being written, with async-signal-safe calls only: for a signal
 * handler, before the process ends. */
void coop_outfile_remove_temporaries(void);

#endif
