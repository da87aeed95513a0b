/*
 * graph_text.h - messages and numbers for the graph readers and generators (graph_text.c).
 * Private to host/common/graph*.c.
 */
#ifndef GRAPH_TEXT_H
#define GRAPH_TEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __GNUC__
#define PRINTF_LIKE(fmt_pos, arg_pos) __attribute__((format(printf, fmt_pos, arg_pos)))
#else
#define PRINTF_LIKE(fmt_pos, arg_pos)
#endif

enum {
    /* Room for a piece of input quoted in a message. */
    QUOTE_BYTES = 48,
};

/* Writes the message to err (at most errlen bytes, NUL-terminated); nothing when err is NULL or
 * errlen 0. */
void graph_set_err(char *err, size_t errlen, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* Copies text from the input into dst for an error message: printable ASCII
 * kept, anything else as \xNN, long text cut with "...". */
void graph_quote(char *dst, size_t cap, const char *src, size_t len);

enum number_status { NUMBER_OK, NUMBER_BAD, NUMBER_TOO_LARGE };

/* The decimal number s[0..len) (digits only) in *value: NUMBER_BAD for anything else or nothing,
 * NUMBER_TOO_LARGE past 2^64-1. */
enum number_status graph_parse_u64(const char *s, size_t len, uint64_t *value);

#endif
