/* json_text.h: a JSON string literal, the one escaper behind libcoop's trace files (trace.c) and
 * the programs' --json output (host/common/json.c). Not part of the public API; header only, so
 * that libcoop and the programs each compile their own copy and neither links the other's. */
#ifndef COOP_JSON_TEXT_H
#define COOP_JSON_TEXT_H

#include <stdio.h>

/* Writes `text` as a JSON string literal: quotes and backslashes escaped, control characters as
 * \uXXXX, every other byte as it is (UTF-8 passes through). */
static inline void coop_json_text(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(out, "\\u%04x", *c);
        else
            fputc(*c, out);
    }
    fputc('"', out);
}

#endif
