/* outfile.c: files written whole or not at all. A regular target (or one that does not exist
 * yet) is written to a temporary file beside it and renamed over it only once complete, keeping
 * an existing file's mode; anything else (a device such as /dev/null, a pipe) is written in
 * place. On failure the temporary goes and the target is as it was: nothing the program did not
 * create is ever removed. The host programs link their own copy (host/common/), as strict.c. */
#ifndef COOP_OUTFILE_H
#define COOP_OUTFILE_H

#include <stdio.h>

typedef struct coop_outfile {
    FILE *stream;               /* write here */
    const char *path;           /* the target, as given */
    char *temporary;            /* the file written, renamed to path at the end; NULL: in place */
} coop_outfile;

/* Opens `path` for writing; 0, or an errno (the target's folder, a folder as the target...). */
int coop_outfile_open(coop_outfile *file, const char *path);
/* Flushes, syncs and closes the stream, and renames the temporary over the target; 0, or the
 * errno of the first write, flush, sync, close or rename that failed (ENOSPC for a full disk),
 * in which case the target is as it was. */
int coop_outfile_commit(coop_outfile *file);
/* Closes the stream and removes the temporary; the target is as it was. */
void coop_outfile_abandon(coop_outfile *file);

#endif
