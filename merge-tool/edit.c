/* edit.c: the edit list that turns a file's text into its rewritten text (edit.h). */
#include "edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mt_edit_add(mt_file *file, unsigned begin, unsigned end, int rank, const char *text)
{
    mt_edit edit = {.begin = begin, .end = end, .rank = begin == end ? rank : MT_RANK_REPLACE,
                    .sequence = (unsigned)file->edit_count, .text = mt_strdup(text)};
    MT_PUSH(file->edits, file->edit_count, file->edit_capacity, edit);
}

/* Removes [begin, end); when that is all its line holds, the line goes too. */
void mt_remove(mt_file *file, unsigned begin, unsigned end)
{
    unsigned first = begin, after = end;
    while (first > 0 && (file->text[first - 1] == ' ' || file->text[first - 1] == '\t'))
        first--;
    while (after < file->size && (file->text[after] == ' ' || file->text[after] == '\t' || file->text[after] == '\r'))
        after++;
    if ((first == 0 || file->text[first - 1] == '\n') && (after == file->size || file->text[after] == '\n'))
        mt_edit_add(file, first, after < file->size ? after + 1 : after, MT_RANK_REPLACE, "");
    else
        mt_edit_add(file, begin, end, MT_RANK_REPLACE, "");
}

/* By position; at one position, insertions before a replacement that starts there (text inserted
 * at a replaced statement's start, such as the brace a loop body without braces gets, goes before
 * it; text meant after it is inserted at its end), then by rank, then in the order added. */
static int edit_order(const void *a, const void *b)
{
    const mt_edit *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    if ((x->begin == x->end) != (y->begin == y->end))
        return x->begin == x->end ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->sequence < y->sequence ? -1 : x->sequence > y->sequence;
}

static void add_span(mt_spans *spans, size_t out_begin, size_t out_end, const mt_file *file, unsigned from,
                     int original)
{
    if (!spans || out_end == out_begin)
        return;
    mt_span span = {.out_begin = out_begin, .out_end = out_end, .file = file, .from = from, .original = original};
    MT_PUSH(spans->items, spans->count, spans->capacity, span);
}

/* Applies the file's edits to its text. Two replacements of one range with one text count
 * once (a declaration with several declarators reaches the same range twice); any other overlap
 * is a bug in coop-merge and fails. */
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
