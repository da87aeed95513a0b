/*
 * graph_text.c - the graph readers' and generators' messages and numbers: error text into the
 * caller's buffer, input quoted for a message, and strict decimal parsing.
 */
#include "graph_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void graph_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void graph_quote(char *dst, size_t cap, const char *src, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t out = 0;

    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)src[i];
        if (out + 8 >= cap) {
            memcpy(dst + out, "...", 3);
            out += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            dst[out++] = (char)c;
        } else {
            dst[out++] = '\\';
            dst[out++] = 'x';
            dst[out++] = hex[c >> 4];
            dst[out++] = hex[c & 15];
        }
    }
    dst[out] = '\0';
}

enum number_status graph_parse_u64(const char *s, size_t len, uint64_t *value)
{
    uint64_t v = 0;

    if (len == 0)
        return NUMBER_BAD;
    for (size_t i = 0; i < len; i++) {
        unsigned digit = (unsigned)(unsigned char)s[i] - '0';
        if (digit > 9)
            return NUMBER_BAD;
        if (v > (UINT64_MAX - digit) / 10) {
            for (i++; i < len; i++)
                if ((unsigned)(unsigned char)s[i] - '0' > 9)
                    return NUMBER_BAD;
            return NUMBER_TOO_LARGE;
        }
        v = v * 10 + digit;
    }
    *value = v;
    return NUMBER_OK;
}
