/* text.c: strings and memory (text.h). */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *mt_alloc(size_t bytes)
{
    void *block = calloc(1, bytes ? bytes : 1);
    if (!block) {
        fputs("coop-merge: out of memory\n", stderr);
        exit(1);
    }
    return block;
}

void *mt_grow(void *block, size_t bytes)
{
    void *grown = realloc(block, bytes ? bytes : 1);
    if (!grown) {
        fputs("coop-merge: out of memory\n", stderr);
        exit(1);
    }
    return grown;
}

char *mt_strndup(const char *text, size_t length)
{
    char *copy = mt_alloc(length + 1);
    memcpy(copy, text, length);
    copy[length] = '\0';
    return copy;
}

char *mt_strdup(const char *text)
{
    return mt_strndup(text, strlen(text));
}

void mt_buf_addn(mt_buf *buf, const char *text, size_t length)
{
    if (buf->length + length + 1 > buf->capacity) {
        size_t capacity = buf->capacity ? buf->capacity : 256;
        while (capacity < buf->length + length + 1)
            capacity *= 2;
        buf->data = mt_grow(buf->data, capacity);
        buf->capacity = capacity;
    }
    memcpy(buf->data + buf->length, text, length);
    buf->length += length;
    buf->data[buf->length] = '\0';
}

void mt_buf_add(mt_buf *buf, const char *text)
{
    mt_buf_addn(buf, text, strlen(text));
}

/* nonnull: gcc 12 with -fsanitize=undefined (which keeps a null path for `format` open) otherwise
 * stops -Werror builds at vsnprintf with "null format string". */
__attribute__((nonnull(2))) static void buf_vprintf(mt_buf *buf, const char *format, va_list args)
{
    va_list copy;
    va_copy(copy, args);
    int length = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (length < 0)
        return;
    char *text = mt_alloc((size_t)length + 1);
    vsnprintf(text, (size_t)length + 1, format, args);
    mt_buf_addn(buf, text, (size_t)length);
    free(text);
}

void mt_buf_printf(mt_buf *buf, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    buf_vprintf(buf, format, args);
    va_end(args);
}

void mt_buf_free(mt_buf *buf)
{
    free(buf->data);
    *buf = (mt_buf){0};
}

char *mt_printf(const char *format, ...)
{
    mt_buf buf = {0};
    va_list args;
    va_start(args, format);
    buf_vprintf(&buf, format, args);
    va_end(args);
    if (!buf.data)
        mt_buf_add(&buf, "");
    return buf.data;
}
