/* text.c: strings and the edit list that turns a file's text into its rewritten text. */
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *mt_alloc(size_t bytes)
{
    void *block = calloc(1, bytes ? bytes : 1);
    if (!block) {
        fputs("coop-merge: out of memory\n", stderr);
        exit(2);
    }
    return block;
}

void *mt_grow(void *block, size_t bytes)
{
    void *grown = realloc(block, bytes ? bytes : 1);
    if (!grown) {
        fputs("coop-merge: out of memory\n", stderr);
        exit(2);
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

void mt_edit_add(mt_file *file, unsigned begin, unsigned end, int rank, const char *text)
{
    mt_edit edit = {.begin = begin, .end = end, .rank = begin == end ? rank : MT_RANK_REPLACE,
                    .sequence = (unsigned)file->edit_count, .text = mt_strdup(text)};
    MT_PUSH(file->edits, file->edit_count, file->edit_capacity, edit);
}

static int edit_order(const void *a, const void *b)
{
    const mt_edit *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->sequence < y->sequence ? -1 : x->sequence > y->sequence;
}

/* Applies the file's edits to its text. Two replacements of one range with one text count
 * once (a declaration with several declarators reaches the same range twice); any other overlap
 * is a bug in coop-merge and fails. */
static void add_span(mt_spans *spans, size_t out_begin, size_t out_end, const mt_file *file, unsigned from,
                     int original)
{
    if (!spans || out_end == out_begin)
        return;
    mt_span span = {.out_begin = out_begin, .out_end = out_end, .file = file, .from = from, .original = original};
    MT_PUSH(spans->items, spans->count, spans->capacity, span);
}

int mt_edits_apply(const mt_file *file, mt_buf *out, mt_spans *spans)
{
    mt_edit *edits = mt_alloc((file->edit_count ? file->edit_count : 1) * sizeof *edits);
    if (file->edit_count)
        memcpy(edits, file->edits, file->edit_count * sizeof *edits);
    qsort(edits, file->edit_count, sizeof *edits, edit_order);
    unsigned at = 0;
    int ok = 1;
    const mt_edit *last = NULL;
    for (size_t i = 0; i < file->edit_count && ok; i++) {
        const mt_edit *edit = &edits[i];
        if (last && last->begin != last->end && edit->begin == last->begin && edit->end == last->end &&
            !strcmp(edit->text, last->text))
            continue;
        if (edit->begin < at || edit->end > file->size) {
            fprintf(stderr, "coop-merge: internal error: overlapping rewrites at offset %u of %s\n", edit->begin,
                    file->path);
            ok = 0;
            break;
        }
        size_t mark = out->length;
        mt_buf_addn(out, file->text + at, edit->begin - at);
        add_span(spans, mark, out->length, file, at, 1);
        mark = out->length;
        mt_buf_add(out, edit->text);
        add_span(spans, mark, out->length, file, edit->begin, 0);
        at = edit->end;
        last = edit;
    }
    if (ok) {
        size_t mark = out->length;
        mt_buf_addn(out, file->text + at, file->size - at);
        add_span(spans, mark, out->length, file, at, 1);
    }
    free(edits);
    return ok;
}

/* The text of [begin, end) with the edits that lie inside it applied (for code that must appear
 * twice, like a for loop's increment). */
char *mt_render(const mt_file *file, unsigned begin, unsigned end)
{
    mt_file part = {.path = file->path, .text = file->text + begin, .size = end - begin};
    for (size_t i = 0; i < file->edit_count; i++) {
        const mt_edit *e = &file->edits[i];
        int inside = e->begin == e->end ? e->begin > begin && e->begin < end : e->begin >= begin && e->end <= end;
        if (inside) {
            mt_edit copy = *e;
            copy.begin -= begin;
            copy.end -= begin;
            MT_PUSH(part.edits, part.edit_count, part.edit_capacity, copy);
        }
    }
    mt_buf out = {0};
    mt_buf_add(&out, "");
    mt_edits_apply(&part, &out, NULL);
    free(part.edits);
    return out.data;
}
