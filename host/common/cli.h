/* cli.h: what every program's command line shares: its exit statuses, --help and --version, and
 * option values read with the strict parser (libcoop/src/strict.c), a bad one reported as
 * "PROGRAM: OPTION: 'VALUE' is ...; expected ..." followed by the usage line. */
#ifndef CLI_H
#define CLI_H

#include "coop.h"

#include <stddef.h>

/* Exit statuses of every program (README, "Programs"): 0 success; 1 the program could not do
 * its job (a bad option or environment value, an unreadable input, a device or OpenCL error);
 * 2 a check failed (a result differs from the CPU's, a weak outcome despite the fences, a
 * barrier's data check). */
enum { CLI_EXIT_OK = 0, CLI_EXIT_ERROR = 1, CLI_EXIT_CHECK = 2 };

/* The most work-items per group an option accepts: more than any device allows. The device's own
 * limit is checked once the device is known, and libcoop refuses what the kernel cannot run. */
#define CLI_MAX_LOCAL_SIZE 65536u

/* The "Environment" section of the --help of a program whose device COOP_PLATFORM and
 * COOP_DEVICE choose. */
#define CLI_HELP_ENVIRONMENT                                                       \
    "Environment:\n"                                                               \
    "  COOP_PLATFORM, COOP_DEVICE  the device (an index, or a part of the name)\n" \
    "  and the other variables libcoop reads (README, \"Environment variables\")\n"

/* A program's name and its --help text: first the usage ("Usage: NAME ...", continued on indented
 * lines), then a one-line summary (the man page's NAME line), then the rest. */
typedef struct cli {
    const char *name;
    const char *help;
} cli;

/* 1 if `arg` is --help or -h (help on standard output) or --version ("NAME (libcoop) X.Y.Z"),
 * which the caller then exits 0 for; else 0. */
int cli_info_option(const cli *c, const char *arg);

/* 1 if one of argv[1] .. argv[argc - 1] is an info option, which cli_info_option() has answered
 * (the first one): the caller exits 0 before it reads the other options; else 0. */
int cli_info_requested(const cli *c, int argc, char **argv);

/* Prints "NAME: <message>", the usage and where to find more on standard error; returns -1. */
int cli_fail(const cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_fail() with "OPTION 'VALUE': WHY", or "OPTION: WHY" when value is NULL; returns -1. */
int cli_bad_argument(const cli *c, const char *option, const char *value, const char *why);

/* Option values, strictly: 0, or -1 after cli_fail with the parser's message. */
int cli_unsigned(const cli *c, const char *option, const char *text, unsigned min, unsigned max, unsigned *value);
int cli_positive(const cli *c, const char *option, const char *text, double max, double *value);
int cli_choice(const cli *c, const char *option, const char *text, const char *const *choices, size_t count,
               size_t *index);

/* A choice of "all" (choices[0]) or one of the forms choices[1] .. choices[count - 1]: form[f] is
 * 1 for the form choices[f + 1] if it was chosen, or with "all", else 0. 0, or -1 after cli_fail;
 * *index, unless NULL, gets the index of the choice. */
int cli_forms(const cli *c, const char *option, const char *text, const char *const *choices, size_t count,
              int *form, size_t *index);

/* A group count to take, as coop_take_parse() reads it: 0, or -1 after cli_fail. */
int cli_take(const cli *c, const char *option, const char *text, coop_take *take, unsigned *count);

/* The options with a value that one command line has given so far, for cli_value(): zero it
 * before the first. More than any program has, and a repeat is refused before it is recorded. */
enum { CLI_MAX_VALUE_OPTIONS = 64 };
typedef struct cli_seen {
    const char *option[CLI_MAX_VALUE_OPTIONS], *value[CLI_MAX_VALUE_OPTIONS];
    size_t count;
} cli_seen;

/* The value after option argv[*i] (advancing *i), or NULL after cli_fail when there is none or
 * the option was given before (rather than silently taking the last). */
const char *cli_value(const cli *c, int argc, char **argv, int *i, cli_seen *seen);

/* An option that takes a value: its name and, for a whole number from min to max, where the
 * number goes (NULL: the caller reads the value). Two entries with the same `number` are one
 * option under two names (--seeds and --repeat), which a command line gives once. */
typedef struct cli_option {
    const char *name;
    unsigned *number;
    unsigned min, max;
} cli_option;

/* Reads option argv[*i], one of the `count` in `options`, and its value with cli_value()
 * (advancing *i); stores a number where its entry says. Returns the entry's index, with *value
 * set; -1 after cli_fail for an unknown option, a missing, repeated or bad value, or the second
 * name of one option. */
int cli_read_option(const cli *c, const cli_option *options, size_t count, int argc, char **argv, int *i,
                    cli_seen *seen, const char **value);

#endif
