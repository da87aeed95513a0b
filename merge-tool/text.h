/* text.h: strings and memory for every pass of coop-merge (the bottom of its include order). */
#ifndef COOP_MERGE_TEXT_H
#define COOP_MERGE_TEXT_H

#include <stdarg.h>
#include <stddef.h>

/* A growable, always NUL-terminated string. */
typedef struct mt_buf {
    char *data;
    size_t length, capacity;
} mt_buf;

void mt_buf_addn(mt_buf *buf, const char *text, size_t length);
void mt_buf_add(mt_buf *buf, const char *text);
void mt_buf_printf(mt_buf *buf, const char *format, ...) __attribute__((format(printf, 2, 3)));
void mt_buf_free(mt_buf *buf);

/* malloc/realloc/strdup that end the process with a message when memory runs out. */
void *mt_alloc(size_t bytes);
void *mt_grow(void *block, size_t bytes);
char *mt_strdup(const char *text);
char *mt_strndup(const char *text, size_t length);
char *mt_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Appends one element to a dynamic array (items, count, capacity are lvalues). */
#define MT_PUSH(items, count, capacity, value)                                              \
    do {                                                                                    \
        if ((count) == (capacity)) {                                                        \
            (capacity) = (capacity) ? 2 * (capacity) : 8;                                   \
            (items) = mt_grow((items), (capacity) * sizeof *(items));                       \
        }                                                                                   \
        (items)[(count)++] = (value);                                                       \
    } while (0)

#endif
