/* errors.h: how every program reports a failure: one line on standard error, "PROGRAM: ...",
 * and CLI_EXIT_ERROR returned for the caller to pass up (cli.h's exit statuses). Failures of
 * libcoop and OpenCL are told as "PROGRAM: WHAT: MESSAGE". */
#ifndef ERRORS_H
#define ERRORS_H

#include "coop.h"

/* Prints "PROGRAM: <message>"; returns CLI_EXIT_ERROR. */
int error_report(const char *program, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROGRAM: WHAT: <coop_strerror(status)>: <coop_context_message(ctx)>", without "WHAT: "
 * when what is NULL; returns CLI_EXIT_ERROR. */
int error_coop(const char *program, const coop_context *ctx, coop_status status, const char *what);

/* Prints "PROGRAM: WHAT: <coop_cl_error_name(err)>"; returns CLI_EXIT_ERROR. */
int error_cl(const char *program, cl_int err, const char *what);

/* error_coop(), then the process exits at once with CLI_EXIT_ERROR, removing the temporaries of
 * the outputs being written (output.h): for a failure while a persistent kernel may still be
 * running (a timeout), which releasing the context would wait for. */
_Noreturn void error_coop_exit(const char *program, const coop_context *ctx, coop_status status, const char *what);

#endif
