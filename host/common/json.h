/* Small helpers for the programs' --json output. */
#ifndef COOP_JSON_H
#define COOP_JSON_H

#include <stdio.h>

/* Writes `text` as a JSON string literal (quotes, backslashes and control characters escaped):
 * libcoop's escaper, coop_json_text (libcoop/src/json_text.h). */
void json_string(FILE *out, const char *text);

/* Writes `value` as a JSON number (%.6g), or null for NAN. */
void json_number(FILE *out, double value);

#endif
