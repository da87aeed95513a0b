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

int cli_info_requested(const cli *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (cli_info_option(c, argv[i]))
            return 1;
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

int cli_forms(const cli *c, const char *option, const char *text, const char *const *choices, size_t count,
              int *form, size_t *index)
{
    size_t choice = 0;
    if (cli_choice(c, option, text, choices, count, &choice) != 0)
        return -1;
    for (size_t f = 0; f + 1 < count; f++)
        form[f] = choice == 0 || choice == f + 1;
    if (index)
        *index = choice;
    return 0;
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

static int cli_given(const cli_seen *seen, const char *option)
{
    for (size_t k = 0; k < seen->count; k++)
        if (!strcmp(seen->option[k], option))
            return 1;
    return 0;
}

int cli_read_option(const cli *c, const cli_option *options, size_t count, int argc, char **argv, int *i,
                    cli_seen *seen, const char **value)
{
    const char *option = argv[*i];
    size_t k = 0;
    while (k < count && strcmp(option, options[k].name))
        k++;
    if (k == count)
        return cli_fail(c, "unknown option '%s'", option);
    *value = cli_value(c, argc, argv, i, seen);
    if (!*value)
        return -1;
    if (!options[k].number)
        return (int)k;
    for (size_t other = 0; other < count; other++)
        if (other != k && options[other].number == options[k].number && cli_given(seen, options[other].name))
            return cli_fail(c, "%s '%s': %s and %s are one option; give it once", option, *value,
                            options[other < k ? other : k].name, options[other < k ? k : other].name);
    if (cli_unsigned(c, option, *value, options[k].min, options[k].max, options[k].number) != 0)
        return -1;
    return (int)k;
}
