/* parse.c: the first pass. Reads the input files, parses them with libclang and tokenizes them
 * and the headers they include; and the queries on locations, tokens and cursors that the
 * later passes share (parse.h). */
#include "parse.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef COOP_MERGE_CLANG_INCLUDE
#define COOP_MERGE_CLANG_INCLUDE "/usr/lib/llvm-14/lib/clang/14.0.6/include"
#endif

#define PRELUDE_PATH "/coop-merge/prelude.h"

/* What the cooperative kernel language adds to OpenCL C, so that user files parse as written.
 * The annotations let the analysis find kernels and transmit variables on the AST. */
static const char prelude[] =
    "void offer_kill(void);\n"
    "void offer_fork(void);\n"
    "void global_barrier(void);\n"
    "void resizing_global_barrier(void);\n"
    "int global_barrier_any(int flag);\n"
    "int resizing_global_barrier_any(int flag);\n"
    "uint get_task_arg(uint index);\n"
    "uint shared_num_groups(void);\n"
    /* spawn_task("TASK", workgroups, words...): one declaration per count of words up to 32, so
     * that a call with too many words parses and validation names it */
    "#define COOP_SPAWN(words) int __attribute__((overloadable)) spawn_task(constant char *task, "
    "uint workgroups words);\n"
    "#define COOP_W1 , uint\n#define COOP_W2 COOP_W1 COOP_W1\n#define COOP_W4 COOP_W2 COOP_W2\n"
    "#define COOP_W8 COOP_W4 COOP_W4\n#define COOP_W16 COOP_W8 COOP_W8\n"
    "COOP_SPAWN() COOP_SPAWN(COOP_W1) COOP_SPAWN(COOP_W2) COOP_SPAWN(COOP_W2 COOP_W1)\n"
    "COOP_SPAWN(COOP_W4) COOP_SPAWN(COOP_W4 COOP_W1) COOP_SPAWN(COOP_W4 COOP_W2)\n"
    "COOP_SPAWN(COOP_W4 COOP_W2 COOP_W1) COOP_SPAWN(COOP_W8) COOP_SPAWN(COOP_W8 COOP_W1)\n"
    "COOP_SPAWN(COOP_W8 COOP_W2) COOP_SPAWN(COOP_W8 COOP_W2 COOP_W1)\n"
    "COOP_SPAWN(COOP_W8 COOP_W4) COOP_SPAWN(COOP_W8 COOP_W4 COOP_W1)\n"
    "COOP_SPAWN(COOP_W8 COOP_W4 COOP_W2) COOP_SPAWN(COOP_W8 COOP_W4 COOP_W2 COOP_W1)\n"
    "COOP_SPAWN(COOP_W16) COOP_SPAWN(COOP_W16 COOP_W1) COOP_SPAWN(COOP_W16 COOP_W2)\n"
    "COOP_SPAWN(COOP_W16 COOP_W2 COOP_W1) COOP_SPAWN(COOP_W16 COOP_W4)\n"
    "COOP_SPAWN(COOP_W16 COOP_W4 COOP_W1) COOP_SPAWN(COOP_W16 COOP_W4 COOP_W2)\n"
    "COOP_SPAWN(COOP_W16 COOP_W4 COOP_W2 COOP_W1) COOP_SPAWN(COOP_W16 COOP_W8)\n"
    "COOP_SPAWN(COOP_W16 COOP_W8 COOP_W1) COOP_SPAWN(COOP_W16 COOP_W8 COOP_W2)\n"
    "COOP_SPAWN(COOP_W16 COOP_W8 COOP_W2 COOP_W1) COOP_SPAWN(COOP_W16 COOP_W8 COOP_W4)\n"
    "COOP_SPAWN(COOP_W16 COOP_W8 COOP_W4 COOP_W1)\n"
    "COOP_SPAWN(COOP_W16 COOP_W8 COOP_W4 COOP_W2)\n"
    "COOP_SPAWN(COOP_W16 COOP_W8 COOP_W4 COOP_W2 COOP_W1) COOP_SPAWN(COOP_W16 COOP_W16)\n"
    "#undef COOP_SPAWN\n#undef COOP_W1\n#undef COOP_W2\n#undef COOP_W4\n#undef COOP_W8\n#undef COOP_W16\n"
    "#define SPAWN_OK 0\n"
    "#define SPAWN_FULL 1\n"
    "#define SPAWN_TOO_DEEP 2\n"
    "#define SPAWN_NO_WORK 3\n"
    /* libcoop's device library, callable from any kernel as written (no context) */
    "uint coop_atomic_inc(volatile global uint *counter);\n"
    "uint coop_atomic_add_index(volatile global uint *counter, uint count);\n"
    "void coop_atomic_add_sum(volatile global uint *counter, uint value);\n"
    /* libcoop's memory model (coop_device/atomics.h): atomics between groups, correct on PoCL and NVIDIA */
    "uint coop_load_relaxed(global uint *p);\n"
    "uint coop_load_acquire(global uint *p);\n"
    "void coop_store_relaxed(global uint *p, uint v);\n"
    "void coop_store_release(global uint *p, uint v);\n"
    "uint coop_fetch_add(global uint *p, uint v);\n"
    "void coop_fetch_add_relaxed(global uint *p, uint v);\n"
    "uint coop_cas(global uint *p, uint expected, uint desired);\n"
    "void coop_group_sync(void);\n"
    "#define transmit __attribute__((annotate(\"coop_transmit\")))\n"
    "#pragma clang diagnostic push\n"
    "#pragma clang diagnostic ignored \"-Wkeyword-macro\"\n"
    "#define kernel __kernel\n"
    "#define __kernel __kernel __attribute__((annotate(\"coop_kernel\")))\n"
    "#pragma clang diagnostic pop\n";

static const char *clang_include_dir(void)
{
    const char *dir = getenv("COOP_MERGE_CLANG_INCLUDE");
    return dir && *dir ? dir : COOP_MERGE_CLANG_INCLUDE;
}

static char *read_file(const char *path, size_t *size)
{
    FILE *stream = fopen(path, "rb");
    if (!stream)
        return NULL;
    mt_buf buf = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, stream)) > 0)
        mt_buf_addn(&buf, chunk, got);
    int failed = ferror(stream);
    fclose(stream);
    if (failed) {
        mt_buf_free(&buf);
        return NULL;
    }
    if (!buf.data)
        mt_buf_add(&buf, "");
    *size = buf.length;
    return buf.data;
}

/* How the input files are parsed: as OpenCL C 2.0 (compile.c says how each platform builds the
 * merged program). */
static const char *const input_args[] = {"-cl-std=CL2.0", "--target=spir64-unknown-unknown", NULL};

/* Arguments for libclang: the target's, the default header, the prelude, the user's -I and -D. */
const char **mt_clang_arguments(const mt_merge *merge, const char *const *target, const char *prelude_path,
                                int *count)
{
    const mt_options *o = &merge->options;
    size_t capacity = 24 + 2 * (o->include_count + o->define_count + merge->file_count);
    const char **args = mt_alloc(capacity * sizeof *args);
    int n = 0;
    args[n++] = "-x";
    args[n++] = "cl";
    for (size_t i = 0; target[i]; i++)
        args[n++] = target[i];
    args[n++] = "-Xclang";
    args[n++] = "-finclude-default-header";
    args[n++] = "-isystem";
    args[n++] = clang_include_dir();
    args[n++] = "-include";
    args[n++] = prelude_path;
    for (size_t i = 0; i < o->include_count; i++) {
        args[n++] = "-I";
        args[n++] = o->includes[i];
    }
    for (size_t i = 0; i < o->define_count; i++) {
        args[n++] = "-D";
        args[n++] = o->defines[i];
    }
    *count = n;
    return args;
}

/* Prints the translation unit's diagnostics as clang does; returns how many were errors. */
static int report_diagnostics(CXTranslationUnit tu, const char *rename_from, const char *rename_to)
{
    int errors = 0;
    unsigned count = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < count; i++) {
        CXDiagnostic diagnostic = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity severity = clang_getDiagnosticSeverity(diagnostic);
        if (severity >= CXDiagnostic_Warning) {
            CXString text = clang_formatDiagnostic(diagnostic, CXDiagnostic_DisplaySourceLocation |
                                                                   CXDiagnostic_DisplayColumn |
                                                                   CXDiagnostic_DisplayOption);
            const char *line = clang_getCString(text);
            size_t from = rename_from ? strlen(rename_from) : 0;
            if (rename_from && !strncmp(line, rename_from, from))
                fprintf(stderr, "%s%s\n", rename_to, line + from);
            else
                fprintf(stderr, "%s\n", line);
            clang_disposeString(text);
        }
        if (severity >= CXDiagnostic_Error)
            errors++;
        clang_disposeDiagnostic(diagnostic);
    }
    return errors;
}

static void tokenize(mt_file *file)
{
    CXSourceLocation begin = clang_getLocationForOffset(file->tu, file->file, 0);
    CXSourceLocation end = clang_getLocationForOffset(file->tu, file->file, (unsigned)file->size);
    CXToken *tokens = NULL;
    unsigned count = 0;
    clang_tokenize(file->tu, clang_getRange(begin, end), &tokens, &count);
    file->tokens = mt_alloc((count ? count : 1) * sizeof *file->tokens);
    size_t kept = 0;
    for (unsigned i = 0; i < count; i++) {
        CXSourceRange range = clang_getTokenExtent(file->tu, tokens[i]);
        int in_start = 0, in_end = 0;
        unsigned from = mt_offset(file, clang_getRangeStart(range), &in_start);
        unsigned to = mt_offset(file, clang_getRangeEnd(range), &in_end);
        if (!in_start || !in_end || to < from || to > file->size)
            continue;
        CXString spelling = clang_getTokenSpelling(file->tu, tokens[i]);
        file->tokens[kept++] = (mt_token){.begin = from, .end = to, .kind = clang_getTokenKind(tokens[i]),
                                          .spelling = mt_strdup(clang_getCString(spelling))};
        clang_disposeString(spelling);
    }
    file->token_count = kept;
    clang_disposeTokens(file->tu, tokens, count);
}

/* An #include that a translation unit went through: which file, from where. */
typedef struct inclusion {
    CXFile header;
    CXSourceLocation site;
} inclusion;

typedef struct inclusion_list {
    inclusion *items;
    size_t count, capacity;
} inclusion_list;

static void list_inclusion(CXFile header, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    inclusion_list *list = data;
    if (depth == 0)
        return; /* the file itself */
    inclusion found = {.header = header, .site = stack[0]};
    MT_PUSH(list->items, list->count, list->capacity, found);
}

/* The header file with this unique id, loaded already (SIZE_MAX if none). */
static size_t find_header(const mt_merge *merge, CXFile header)
{
    CXFileUniqueID id;
    if (clang_getFileUniqueID(header, &id))
        return SIZE_MAX;
    for (size_t i = merge->input_count; i < merge->file_count; i++) {
        CXFileUniqueID other;
        if (!clang_getFileUniqueID(merge->files[i].file, &other) && !memcmp(&id, &other, sizeof id))
            return i;
    }
    return SIZE_MAX;
}

/* Whether coop-merge rewrites an included file: not the prelude, not a system header. */
static int rewritten_header(CXTranslationUnit tu, CXFile header)
{
    CXString name = clang_getFileName(header);
    const char *text = clang_getCString(name);
    int ours = text && (!strcmp(text, PRELUDE_PATH) || !strcmp(text, MT_KERNEL_HEADER_PATH));
    clang_disposeString(name);
    return !ours && !clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, header, 0));
}

/* Loads the headers input file `unit` includes (once over all units: a header another unit
 * included first belongs to that one) and records every #include line of the unit's files. */
static void load_headers(mt_merge *merge, size_t unit)
{
    CXTranslationUnit tu = merge->files[unit].tu;
    inclusion_list list = {0};
    clang_getInclusions(tu, list_inclusion, &list);
    for (size_t i = 0; i < list.count; i++) {
        if (!rewritten_header(tu, list.items[i].header) || find_header(merge, list.items[i].header) != SIZE_MAX)
            continue;
        CXString name = clang_getFileName(list.items[i].header);
        mt_file header = {.path = mt_strdup(clang_getCString(name)), .owner = unit, .tu = tu,
                          .file = list.items[i].header};
        clang_disposeString(name);
        header.text = read_file(header.path, &header.size);
        if (!header.text) {
            fprintf(stderr, "coop-merge: cannot read %s: %s\n", header.path, strerror(errno ? errno : EIO));
            free((char *)header.path);
            merge->errors++;
            continue;
        }
        merge->files = mt_grow(merge->files, (merge->file_count + 1) * sizeof *merge->files);
        merge->files[merge->file_count++] = header;
        tokenize(&merge->files[merge->file_count - 1]);
    }
    for (size_t i = 0; i < list.count; i++) {
        size_t header = find_header(merge, list.items[i].header);
        CXFile from = NULL;
        unsigned offset = 0;
        clang_getExpansionLocation(list.items[i].site, &from, NULL, NULL, &offset);
        mt_file *includer = NULL;
        for (size_t f = 0; f < merge->file_count && from && !includer; f++)
            if (merge->files[f].tu == tu && clang_File_isEqual(merge->files[f].file, from))
                includer = &merge->files[f];
        if (header == SIZE_MAX || !includer || offset > includer->size)
            continue;
        mt_include line = {.begin = offset, .end = offset, .header = header};
        while (line.begin > 0 && includer->text[line.begin - 1] != '\n')
            line.begin--;
        while (line.end < includer->size && includer->text[line.end] != '\n')
            line.end++;
        MT_PUSH(includer->includes, includer->include_count, includer->include_capacity, line);
    }
    free(list.items);
}

/* The file (input or header) of the translation unit of `unit` where a cursor is written, or
 * NULL (another unit's header, a system header, the prelude). */
mt_file *mt_file_of(mt_merge *merge, const mt_file *unit, CXCursor cursor)
{
    CXFile where = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(cursor), &where, NULL, NULL, NULL);
    for (size_t f = 0; f < merge->file_count && where; f++)
        if (merge->files[f].tu == unit->tu && clang_File_isEqual(merge->files[f].file, where))
            return &merge->files[f];
    return NULL;
}

/* Makes room for the input files (the cooperative kernels' first, then the tasks'). */
void mt_open(mt_merge *merge)
{
    const mt_options *o = &merge->options;
    size_t coops = o->coop_count ? o->coop_count : 1;
    merge->file_count = merge->input_count = coops + (o->standalone ? 0 : o->task_count);
    merge->files = mt_alloc(merge->file_count * sizeof *merge->files);
    merge->index = clang_createIndex(0, 0);
    for (size_t i = 0; i < merge->file_count; i++) {
        mt_file *file = &merge->files[i];
        file->path = i < coops ? (o->coop_count ? o->coop_paths[i] : o->coop_path) : o->task_paths[i - coops];
        file->is_coop = i < coops;
        file->owner = i;
    }
}

/* Reads an input file and marks a NUL byte in it (has_nul). Returns 0 if it was read. */
int mt_read(mt_merge *merge, size_t input)
{
    mt_file *file = &merge->files[input];
    file->text = read_file(file->path, &file->size);
    if (!file->text) {
        fprintf(stderr, "coop-merge: cannot read %s: %s\n", file->path, strerror(errno ? errno : EIO));
        merge->errors++;
        return -1;
    }
    const char *nul = memchr(file->text, '\0', file->size);
    file->has_nul = nul != NULL;
    file->nul_offset = nul ? (unsigned)(nul - file->text) : 0;
    return 0;
}

/* Parses an input file that was read; clang's diagnostics are printed. */
void mt_parse(mt_merge *merge, size_t input)
{
    mt_file *file = &merge->files[input];
    int arg_count = 0;
    const char **args = mt_clang_arguments(merge, input_args, PRELUDE_PATH, &arg_count);
    struct CXUnsavedFile unsaved[2] = {
        {.Filename = PRELUDE_PATH, .Contents = prelude, .Length = sizeof prelude - 1},
        {.Filename = file->path, .Contents = file->text, .Length = (unsigned long)file->size},
    };
    enum CXErrorCode code = clang_parseTranslationUnit2(merge->index, file->path, args, arg_count, unsaved, 2,
                                                        CXTranslationUnit_None, &file->tu);
    free(args);
    if (code != CXError_Success || !file->tu) {
        fprintf(stderr, "coop-merge: %s: libclang could not parse the file (error %d)\n", file->path, (int)code);
        file->tu = NULL;
        merge->errors++;
        return;
    }
    merge->errors += report_diagnostics(file->tu, NULL, NULL);
    file->file = clang_getFile(file->tu, file->path);
    if (!file->file) {
        fprintf(stderr, "coop-merge: %s: libclang lost the file\n", file->path);
        merge->errors++;
        return;
    }
    tokenize(file);
}

/* Loads the headers the input files include, once every input parsed without errors. Returns
 * 0 on success: every error so far (the inputs' too) has been printed otherwise. */
int mt_parse_headers(mt_merge *merge)
{
    for (size_t i = 0; i < merge->input_count && !merge->errors; i++)
        load_headers(merge, i);
    return merge->errors ? -1 : 0;
}

void mt_unload(mt_merge *merge)
{
    for (size_t i = 0; i < merge->file_count; i++) {
        mt_file *file = &merge->files[i];
        for (size_t t = 0; t < file->token_count; t++)
            free(file->tokens[t].spelling);
        free(file->tokens);
        for (size_t e = 0; e < file->edit_count; e++)
            free(file->edits[e].text);
        free(file->edits);
        free(file->includes);
        free(file->ctx_decls);
        if (file->tu && file->owner == i)
            clang_disposeTranslationUnit(file->tu);
        if (i >= merge->input_count)
            free((char *)file->path);
        free(file->text);
    }
    free(merge->files);
    if (merge->index)
        clang_disposeIndex(merge->index);
    merge->files = NULL;
    merge->index = NULL;
}

/* The offset of a location in `file`, taken where the text was written (a macro's use, not its
 * definition); *in_file says whether it is in that file at all. */
unsigned mt_offset(const mt_file *file, CXSourceLocation location, int *in_file)
{
    CXFile where = NULL;
    unsigned line = 0, column = 0, offset = 0;
    clang_getExpansionLocation(location, &where, &line, &column, &offset);
    if (in_file)
        *in_file = where && file->file && clang_File_isEqual(where, file->file);
    return offset;
}

/* The byte range of a cursor in its file (macro uses count as written). */
void mt_extent(const mt_file *file, CXCursor cursor, unsigned *begin, unsigned *end)
{
    CXSourceRange range = clang_getCursorExtent(cursor);
    *begin = mt_offset(file, clang_getRangeStart(range), NULL);
    *end = mt_offset(file, clang_getRangeEnd(range), NULL);
    if (*end < *begin)
        *end = *begin;
}

/* The first token at or after `offset` (token_count if none). */
size_t mt_token_at(const mt_file *file, unsigned offset)
{
    size_t low = 0, high = file->token_count;
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (file->tokens[middle].begin < offset)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

int mt_token_is(const mt_file *file, size_t token, const char *spelling)
{
    return token < file->token_count && !strcmp(file->tokens[token].spelling, spelling);
}

/* Whether an offset lies on a #define line (or its continuation lines). */
static int in_definition(const mt_file *file, unsigned offset)
{
    unsigned line = offset;
    for (;;) {
        while (line > 0 && file->text[line - 1] != '\n')
            line--;
        if (line < 2 || file->text[line - 2] != '\\')
            break;
        line--; /* the previous line ends with a backslash: it continues into this one */
    }
    while (line < offset && (file->text[line] == ' ' || file->text[line] == '\t'))
        line++;
    return file->text[line] == '#';
}

/* Whether the cursor's text is in the file as written, not produced by a macro: its range lies in
 * the file and its first token is the cursor's own name (for references and calls). The byte
 * range goes to *begin and *end. */
int mt_plain_range(const mt_file *file, CXCursor cursor, unsigned *begin, unsigned *end)
{
    CXSourceRange range = clang_getCursorExtent(cursor);
    int in_begin = 0, in_end = 0;
    *begin = mt_offset(file, clang_getRangeStart(range), &in_begin);
    *end = mt_offset(file, clang_getRangeEnd(range), &in_end);
    CXFile spelled = NULL, spelled_last = NULL;
    unsigned spelled_offset = 0, spelled_end = 0;
    clang_getSpellingLocation(clang_getRangeStart(range), &spelled, NULL, NULL, &spelled_offset);
    clang_getSpellingLocation(clang_getRangeEnd(range), &spelled_last, NULL, NULL, &spelled_end);
    if (!in_begin || !in_end || !spelled || !clang_File_isEqual(spelled, file->file))
        return 0;
    if (spelled_offset != *begin) {
        /* written as a macro's argument (`MIN(get_global_id(0), n)`): its own text is rewritten;
         * text in a macro's definition is not (each use may need another rewrite) */
        if (!spelled_last || !clang_File_isEqual(spelled_last, file->file) || spelled_end <= spelled_offset ||
            in_definition(file, spelled_offset))
            return 0;
        *begin = spelled_offset;
        *end = spelled_end;
    } else if (*end <= *begin) {
        return 0;
    }
    size_t token = mt_token_at(file, *begin);
    if (token >= file->token_count || file->tokens[token].begin != *begin)
        return 0;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_DeclRefExpr || kind == CXCursor_CallExpr) {
        char *name = mt_spelling(cursor);
        int same = !strcmp(name, file->tokens[token].spelling);
        free(name);
        if (!same)
            return 0;
    }
    return 1;
}

/* Where a statement really ends: its range, plus the `;` that clang leaves out of expression,
 * return, break, continue, goto and do statements. */
unsigned mt_statement_end(const mt_file *file, CXCursor statement)
{
    unsigned begin, end;
    mt_expression_range(file, statement, &begin, &end);
    size_t next = mt_token_at(file, end);
    if (next == 0 || end == begin)
        return end;
    const mt_token *last = &file->tokens[next - 1];
    if (last->end == end && (!strcmp(last->spelling, "}") || !strcmp(last->spelling, ";")))
        return end;
    if (mt_token_is(file, next, ";"))
        return file->tokens[next].end;
    return end;
}

/* The byte range of an expression. clang ends some OpenCL vector literals, `(float4)(x)`, before
 * their last `)`; the range is extended until its brackets balance. */
void mt_expression_range(const mt_file *file, CXCursor expression, unsigned *begin, unsigned *end)
{
    mt_extent(file, expression, begin, end);
    int depth = 0;
    size_t token = mt_token_at(file, *begin);
    for (; token < file->token_count && file->tokens[token].end <= *end; token++) {
        const char *text = file->tokens[token].spelling;
        depth += !strcmp(text, "(") || !strcmp(text, "[") || !strcmp(text, "{");
        depth -= !strcmp(text, ")") || !strcmp(text, "]") || !strcmp(text, "}");
    }
    for (; depth > 0 && token < file->token_count; token++, depth--) {
        const char *text = file->tokens[token].spelling;
        if (strcmp(text, ")") && strcmp(text, "]") && strcmp(text, "}"))
            break;
        *end = file->tokens[token].end;
    }
}

typedef struct body_search {
    CXCursor body;
    int found;
} body_search;

static enum CXChildVisitResult find_body(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    body_search *search = data;
    if (clang_getCursorKind(cursor) != CXCursor_CompoundStmt)
        return CXChildVisit_Continue;
    search->body = cursor;
    search->found = 1;
    return CXChildVisit_Break;
}

/* The body (CompoundStmt) of a function definition; 0 if it has none. */
int mt_function_body(CXCursor function, CXCursor *body)
{
    body_search search = {.found = 0};
    clang_visitChildren(function, find_body, &search);
    *body = search.body;
    return search.found;
}

/* Whether two cursors are the same node (cursors reached on different walks may differ in
 * libclang's private fields, so clang_equalCursors is not enough). */
int mt_same(CXCursor a, CXCursor b)
{
    return clang_getCursorKind(a) == clang_getCursorKind(b) &&
           clang_equalLocations(clang_getCursorLocation(a), clang_getCursorLocation(b)) &&
           clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

char *mt_spelling(CXCursor cursor)
{
    CXString name = clang_getCursorSpelling(cursor);
    char *copy = mt_strdup(clang_getCString(name) ? clang_getCString(name) : "");
    clang_disposeString(name);
    return copy;
}

static int declared_in(CXCursor declaration, const char *path_suffix, int system)
{
    CXSourceLocation location = clang_getCursorLocation(clang_getCanonicalCursor(declaration));
    if (system)
        return clang_Location_isInSystemHeader(location);
    CXFile file = NULL;
    clang_getExpansionLocation(location, &file, NULL, NULL, NULL);
    if (!file)
        return 0;
    CXString name = clang_getFileName(file);
    const char *text = clang_getCString(name);
    int match = text && !strcmp(text, path_suffix);
    clang_disposeString(name);
    return match;
}

/* Whether a declaration is one of the prelude's primitives. */
int mt_in_prelude(CXCursor declaration)
{
    return declared_in(declaration, PRELUDE_PATH, 0);
}

/* Whether a function is an OpenCL built-in: declared by OpenCL's header, or implicitly by clang
 * at its first use (then its declaration is nothing but the name where it was used). */
int mt_is_builtin(CXCursor function)
{
    if (declared_in(function, NULL, 1))
        return 1;
    CXCursor first = clang_getCanonicalCursor(function);
    if (clang_isCursorDefinition(first))
        return 0;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(first);
    CXToken *tokens = NULL;
    unsigned count = 0;
    clang_tokenize(tu, clang_getCursorExtent(first), &tokens, &count);
    clang_disposeTokens(tu, tokens, count);
    return count == 1;
}

/* The line and column (from 1) of an offset in a file. */
void mt_line_column(const mt_file *file, unsigned offset, unsigned *line, unsigned *column)
{
    *line = 1;
    unsigned line_start = 0;
    for (unsigned i = 0; i < offset && i < file->size; i++)
        if (file->text[i] == '\n') {
            (*line)++;
            line_start = i + 1;
        }
    *column = offset - line_start + 1;
}
