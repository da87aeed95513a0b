/* rewrite_text.c: text that the rewrites (rewrite_functions.c, rewrite_control.c, rewrite_joins.c)
 * write: declarators for clang's types, the barrier sites the watchdog names, and indentation. */
#include "rewrite.h"

#include <stdlib.h>
#include <string.h>

/* clang spells a private variable's type with its implicit address space ("__private int");
 * a declaration must not say it. Removes the word from a type spelling clang produced. */
static char *without_private(const char *spelling)
{
    static const char word[] = "__private";
    mt_buf buf = {0};
    const char *at = spelling;
    for (const char *hit; (hit = strstr(at, word));) {
        int starts = hit == spelling || hit[-1] == ' ' || hit[-1] == '*' || hit[-1] == '(';
        int ends = hit[sizeof word - 1] == '\0' || hit[sizeof word - 1] == ' ' || hit[sizeof word - 1] == ')';
        size_t skip = sizeof word - 1 + (hit[sizeof word - 1] == ' ');
        mt_buf_addn(&buf, at, (size_t)(hit - at));
        if (!(starts && ends))
            mt_buf_addn(&buf, hit, sizeof word - 1);
        at = hit + (starts && ends ? skip : sizeof word - 1);
    }
    mt_buf_add(&buf, at);
    size_t length = buf.length;
    while (length && buf.data[length - 1] == ' ')
        buf.data[--length] = '\0';
    return buf.data;
}

/* A declaration of `name` with the given type: arrays become declarator suffixes
 * ("__local float tile[16][17]"); the private address space is left implicit. */
char *mt_declarator(CXType type, const char *name)
{
    mt_buf suffix = {0};
    mt_buf_add(&suffix, "");
    while (type.kind == CXType_ConstantArray) {
        mt_buf_printf(&suffix, "[%lld]", clang_getArraySize(type));
        type = clang_getArrayElementType(type);
    }
    CXString spelling = clang_getTypeSpelling(type);
    char *base = without_private(clang_getCString(spelling));
    clang_disposeString(spelling);
    char *text = mt_printf("%s %s%s", base, name, suffix.data);
    free(base);
    mt_buf_free(&suffix);
    return text;
}

/* `coop_at(ctx, N), ` for the global barrier whose call starts at `offset` of `file`: it becomes
 * site N of the program's coop-site lines (emit.c), which the watchdog names for the groups that
 * wait there. */
char *mt_barrier_site(mt_merge *merge, const mt_file *file, unsigned offset, enum mt_primitive primitive)
{
    unsigned line, column;
    mt_line_column(file, offset, &line, &column);
    char *site = mt_printf("%s:%u:%u: %s()", file->path, line, column, mt_primitive_name(primitive));
    MT_PUSH(merge->barrier_sites, merge->barrier_site_count, merge->barrier_site_capacity, site);
    return mt_printf("coop_at(ctx, %zu), ", merge->barrier_site_count);
}

/* The indentation of the line where `offset` is, for text inserted before it. */
char *mt_indent_at(const mt_file *file, unsigned offset)
{
    unsigned line = offset;
    while (line > 0 && file->text[line - 1] != '\n')
        line--;
    unsigned end = line;
    while (end < offset && (file->text[end] == ' ' || file->text[end] == '\t'))
        end++;
    return end == offset ? mt_strndup(file->text + line, end - line) : mt_strdup("");
}

/* `indent` and `levels` more levels of four spaces. */
char *mt_padded(const char *indent, unsigned levels)
{
    mt_buf text = {0};
    mt_buf_add(&text, indent);
    for (unsigned i = 0; i < levels; i++)
        mt_buf_add(&text, "    ");
    return text.data;
}
