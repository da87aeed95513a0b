/* The programs' shared command-line handling (cli.h). */
#include "cli.h"

#include "coop_layout.h"
#include "strict.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int cli_info_option(const cli *c, const char *arg)
{
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
        fputs(c->help, stdout);
        return 1;
    }
    if (!strcmp(arg, "--version")) {
        printf("%s (libcoop) %s\n", c->name, coop_version());
        return 1;
    }
    return 0;
}

int cli_fail(const cli *c, const char *fmt, ...)
{
    fprintf(stderr, "%s: ", c->name);
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    /* the usage: the first line and the indented ones that continue it */
    size_t usage = strcspn(c->help, "\n");
    while (c->help[usage] == '\n' && c->help[usage + 1] == ' ')
        usage += 1 + strcspn(c->help + usage + 1, "\n");
    fprintf(stderr, "\n%.*s\nTry '%s --help' for more information.\n", (int)usage, c->help, c->name);
    return -1;
}

int cli_bad_argument(const cli *c, const char *option, const char *value, const char *why)
{
    if (value)
        return cli_fail(c, "%s '%s': %s", option, value, why);
    return cli_fail(c, "%s: %s", option, why);
}

int cli_unsigned(const cli *c, const char *option, const char *text, unsigned min, unsigned max, unsigned *value)
{
    char why[COOP_PARSE_MESSAGE_BYTES];
    uint64_t number = 0;
    if (coop_parse_unsigned(option, text, min, max, &number, why, sizeof why) != 0)
        return cli_fail(c, "%s", why);
    *value = (unsigned)number;
    return 0;
}

int cli_positive(const cli *c, const char *option, const char *text, double max, double *value)
{
    char why[COOP_PARSE_MESSAGE_BYTES];
    return coop_parse_positive(option, text, max, value, why, sizeof why) == 0 ? 0 : cli_fail(c, "%s", why);
}

int cli_choice(const cli *c, const char *option, const char *text, const char *const *choices, size_t count,
               size_t *index)
{
    char why[COOP_PARSE_MESSAGE_BYTES];
    return coop_parse_choice(option, text, choices, count, index, why, sizeof why) == 0 ? 0
                                                                                       : cli_fail(c, "%s", why);
}

int cli_take(const cli *c, const char *option, const char *text, coop_take *take, unsigned *count)
{
    if (coop_take_parse(text, take, count) == 0)
        return 0;
    char quoted[COOP_PARSE_MESSAGE_BYTES];
    coop_parse_quote(text, quoted, sizeof quoted);
    return cli_fail(c, "%s: '%s' is not a choice; expected one, quarter, half, all-but-one or a group count from 1 "
                       "to %u", option, quoted, COOP_MAX_GROUPS);
}

const char *cli_value(const cli *c, int argc, char **argv, int *i, cli_seen *seen)
{
    const char *option = argv[*i];
    if (*i + 1 >= argc) {
        cli_fail(c, "%s: needs a value", option);
        return NULL;
    }
    const char *value = argv[++*i];
    for (size_t k = 0; k < seen->count; k++)
        if (!strcmp(seen->option[k], option)) {
            cli_fail(c, "%s: given twice ('%s', then '%s'); give it once", option, seen->value[k], value);
            return NULL;
        }
    if (seen->count < CLI_MAX_VALUE_OPTIONS) {
        seen->option[seen->count] = option;
        seen->value[seen->count++] = value;
    }
    return value;
}
