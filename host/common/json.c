/* Small helpers for the programs' --json output. */
#include "json.h"

#include "json_text.h" /* libcoop/src: the escaper libcoop's trace files use too */

#include <math.h>

void json_string(FILE *out, const char *text)
{
    coop_json_text(out, text);
}

void json_number(FILE *out, double value)
{
    if (isnan(value))
        fprintf(out, "null");
    else
        fprintf(out, "%.6g", value);
}
