/* strict.h: strict parsing of numbers and names, the one parser behind libcoop's environment
 * variables (env.c) and every program's options. Not part of the public API: strict.c is
 * compiled into libcoop (hidden) and, as its own object, into the programs.
 *
 * A value is the whole text: no sign, no space, nothing after the number. A failure writes
 * "NAME: 'TEXT' <reason>; expected <what is accepted>" into `message` (which may be NULL),
 * naming the option or variable and the accepted range. */
#ifndef COOP_STRICT_H
#define COOP_STRICT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any message below (a quoted value is cut at 64 characters). */
#define COOP_PARSE_MESSAGE_BYTES 384

/* A whole decimal number from min to max ("0042" is 42). Returns 0, or -1 after writing why. */
int coop_parse_unsigned(const char *name, const char *text, uint64_t min, uint64_t max, uint64_t *value,
                        char *message, size_t size);

/* A decimal number greater than 0 and at most max ("20", "0.5", "1e3"; no "inf", "nan" or hex).
 * Returns 0, or -1 after writing why. */
int coop_parse_positive(const char *name, const char *text, double max, double *value, char *message,
                        size_t size);

/* One of the `count` names in `choices`, exactly; *index gets its position. Returns 0, or -1
 * after writing why (the message lists the choices). */
int coop_parse_choice(const char *name, const char *text, const char *const *choices, size_t count,
                      size_t *index, char *message, size_t size);

/* Writes `text` into `out` as a message shows it: non-printing bytes as \xNN, cut at 64
 * characters with "...". */
void coop_parse_quote(const char *text, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
