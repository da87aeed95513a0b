/* output.h: the files a program writes, whole or not at all (libcoop/src/outfile.h, whose copy
 * every program links), with the program's messages: "PROGRAM: cannot write PATH: REASON", the
 * reason the failing call's own ("No space left on device" for a full disk). */
#ifndef OUTPUT_H
#define OUTPUT_H

#include "outfile.h"

/* Makes SIGHUP, SIGINT, SIGPIPE and SIGTERM (those not ignored) remove every temporary file being
 * written, the program's and libcoop's trace, before the signal ends the process as it would
 * have: the old outputs stay as they were. Call it first in main. */
void output_catch_signals(void);

/* coop_outfile_open(); 0, or CLI_EXIT_ERROR after the message. */
int output_open(coop_outfile *file, const char *program, const char *path);

/* coop_outfile_close(): the file written, not yet in place; 0, or CLI_EXIT_ERROR after the
 * message (the target as it was). */
int output_close(coop_outfile *file, const char *program);

/* coop_outfile_commit(): the file in place; 0, or CLI_EXIT_ERROR after the message (the target
 * as it was). */
int output_commit(coop_outfile *file, const char *program);

#endif
