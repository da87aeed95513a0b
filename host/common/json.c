/* Small helpers for the programs' --json output. */
#include "json.h"

#include <math.h>

void json_string(FILE *out, const char *text)
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

void json_number(FILE *out, double value)
{
    if (isnan(value))
        fprintf(out, "null");
    else
        fprintf(out, "%.6g", value);
}
