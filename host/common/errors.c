/* The programs' failure reports (errors.h). */
#include "errors.h"

#include "cli.h"
#include "outfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int error_report(const char *program, const char *fmt, ...)
{
    fprintf(stderr, "%s: ", program);
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    return CLI_EXIT_ERROR;
}

int error_coop(const char *program, const coop_context *ctx, coop_status status, const char *what)
{
    if (what)
        return error_report(program, "%s: %s: %s", what, coop_strerror(status), coop_context_message(ctx));
    return error_report(program, "%s: %s", coop_strerror(status), coop_context_message(ctx));
}

int error_cl(const char *program, cl_int err, const char *what)
{
    return error_report(program, "%s: %s", what, coop_cl_error_name(err));
}

void error_coop_exit(const char *program, const coop_context *ctx, coop_status status, const char *what)
{
    error_coop(program, ctx, status, what);
    fflush(NULL);
    /* no output is completed after this: the files being written go, the old ones stay */
    coop_outfile_remove_temporaries();
    _Exit(CLI_EXIT_ERROR);
}
