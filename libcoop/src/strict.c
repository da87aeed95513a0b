/* Strict parsing of numbers and names (strict.h). */
#include "strict.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { QUOTED_CHARS = 64 };

void coop_parse_quote(const char *text, char *out, size_t size)
{
    size_t used = 0;
    if (!size)
        return;
    out[0] = '\0';
    for (size_t i = 0; text && text[i]; i++) {
        unsigned char c = (unsigned char)text[i];
        char piece[8];
        if (i == QUOTED_CHARS) {
            snprintf(piece, sizeof piece, "...");
        } else if (c >= 0x20 && c < 0x7f) {
            piece[0] = (char)c;
            piece[1] = '\0';
        } else {
            snprintf(piece, sizeof piece, "\\x%02x", c);
        }
        size_t length = strlen(piece);
        if (used + length + 1 > size)
            break;
        memcpy(out + used, piece, length + 1);
        used += length;
        if (i == QUOTED_CHARS)
            break;
    }
}

/* "NAME: 'TEXT' <reason>; expected <what>", the what formatted from `fmt`. */
static int fail(char *message, size_t size, const char *name, const char *text, const char *reason,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fail(char *message, size_t size, const char *name, const char *text, const char *reason,
                const char *fmt, ...)
{
    if (!message || !size)
        return -1;
    char quoted[4 * QUOTED_CHARS + 8];
    coop_parse_quote(text, quoted, sizeof quoted);
    int used = snprintf(message, size, "%s: '%s' %s; expected ", name ? name : "value", quoted, reason);
    if (used >= 0 && (size_t)used < size) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(message + used, size - (size_t)used, fmt, args);
        va_end(args);
    }
    return -1;
}

int coop_parse_unsigned(const char *name, const char *text, uint64_t min, uint64_t max, uint64_t *value,
                        char *message, size_t size)
{
    const char *what = "a whole number from %llu to %llu";
    unsigned long long low = min, high = max;
    if (!text || !*text)
        return fail(message, size, name, text, "is empty", what, low, high);
    if (text[0] == '-' && text[1] >= '0' && text[1] <= '9')
        return fail(message, size, name, text, "is negative", what, low, high);
    uint64_t number = 0;
    int overflow = 0;
    for (const char *at = text; *at; at++) {
        if (*at < '0' || *at > '9')
            return fail(message, size, name, text, "is not a whole number", what, low, high);
        unsigned digit = (unsigned)(*at - '0');
        if (number > (UINT64_MAX - digit) / 10)
            overflow = 1;
        else
            number = number * 10 + digit;
    }
    if (overflow || number < min || number > max)
        return fail(message, size, name, text, "is out of range", what, low, high);
    *value = number;
    return 0;
}

/* digits [. digits] [e [sign] digits], with a digit before or after the point. */
static int decimal_syntax(const char *text)
{
    const char *at = text;
    size_t digits = 0;
    while (*at >= '0' && *at <= '9')
        at++, digits++;
    if (*at == '.')
        for (at++; *at >= '0' && *at <= '9'; at++)
            digits++;
    if (!digits)
        return 0;
    if (*at == 'e' || *at == 'E') {
        at++;
        if (*at == '+' || *at == '-')
            at++;
        if (*at < '0' || *at > '9')
            return 0;
        while (*at >= '0' && *at <= '9')
            at++;
    }
    return *at == '\0';
}

int coop_parse_positive(const char *name, const char *text, double max, double *value, char *message,
                        size_t size)
{
    const char *what = "a number greater than 0 and at most %g";
    if (!text || !*text)
        return fail(message, size, name, text, "is empty", what, max);
    if (text[0] == '-' && decimal_syntax(text + 1))
        return fail(message, size, name, text, "is negative", what, max);
    if (!decimal_syntax(text))
        return fail(message, size, name, text, "is not a number", what, max);
    errno = 0;
    double number = strtod(text, NULL);
    /* ERANGE: beyond a double, or so small that it reads as 0 */
    if (errno == ERANGE || !isfinite(number) || !(number > 0.0) || number > max)
        return fail(message, size, name, text, "is out of range", what, max);
    *value = number;
    return 0;
}

int coop_parse_choice(const char *name, const char *text, const char *const *choices, size_t count,
                      size_t *index, char *message, size_t size)
{
    for (size_t i = 0; text && i < count; i++) {
        if (!strcmp(text, choices[i])) {
            *index = i;
            return 0;
        }
    }
    char list[COOP_PARSE_MESSAGE_BYTES / 2];
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < count && used < sizeof list; i++) {
        int written = snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : i + 1 == count ? " or " : ", ",
                               choices[i]);
        if (written < 0)
            break;
        used += (size_t)written;
    }
    return fail(message, size, name, text, text && *text ? "is not a choice" : "is empty", "%s", list);
}
