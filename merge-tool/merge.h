/* merge.h: coop-merge's internal interface (one header for the tool's files).
 *
 * coop-merge parses a cooperative kernel file and task files with libclang, each as its own
 * translation unit with a small prelude (source.c), checks them (analyze.c), records the
 * rewrites as edits on source ranges of the files' own text (rewrite.c for calls, ids, locals
 * and kernel headers; control.c for the cooperative kernel's kill, fork and resume control
 * flow), and assembles the megakernel and the host header (emit.c). Edits are applied by
 * text.c. Nothing works on the kernel text except through cursors, source ranges and tokens.
 */
#ifndef COOP_MERGE_H
#define COOP_MERGE_H

#include <clang-c/Index.h>
#include <stdarg.h>
#include <stddef.h>

/* ---- Text ------------------------------------------------------------------------------- */

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

/* One replacement of the bytes [begin, end) of a file by `text` (begin == end: an insertion).
 * Insertions at one offset are applied in increasing `rank`: wrappers that open use their
 * nesting depth (outer first), wrappers that close use MT_RANK_CLOSE minus it (inner first). */
typedef struct mt_edit {
    unsigned begin, end;
    int rank;
    unsigned sequence;
    char *text;
} mt_edit;

#define MT_RANK_CLOSE (-1000000)
#define MT_RANK_REPLACE 1000000

/* Where the bytes [out_begin, out_end) of the merged program come from: the text of `file` from
 * offset `from` (original) or text coop-merge inserted at `from` (not original). */
typedef struct mt_span {
    size_t out_begin, out_end;
    const struct mt_file *file;
    unsigned from;
    int original;
} mt_span;

typedef struct mt_spans {
    mt_span *items;
    size_t count, capacity;
} mt_spans;

/* ---- Sources ---------------------------------------------------------------------------- */

typedef struct mt_token {
    unsigned begin, end;
    CXTokenKind kind;
    char *spelling;
} mt_token;

/* An #include directive of a file: the bytes [begin, end) of its line, and the header. */
typedef struct mt_include {
    unsigned begin, end;
    size_t header;                /* index in mt_merge.files */
} mt_include;

/* An input file, or a header one includes (not a system header): a header is rewritten like
 * the input files and takes the place of its first #include in the merged program. */
typedef struct mt_file {
    const char *path;             /* as given on the command line, or as the #include found it */
    char *text;
    size_t size;
    int is_coop;                  /* the cooperative kernel's file */
    size_t owner;                 /* the input file whose translation unit holds it (itself for one) */
    mt_include *includes;
    size_t include_count, include_capacity;
    CXTranslationUnit tu;         /* the owner's */
    CXFile file;
    mt_token *tokens;             /* every token of the file, in order */
    size_t token_count;
    mt_edit *edits;
    size_t edit_count, edit_capacity;
} mt_file;

/* ---- Functions ---------------------------------------------------------------------------- */

enum mt_primitive {
    MT_PRIM_NONE = 0,
    MT_PRIM_KILL,                 /* offer_kill() */
    MT_PRIM_FORK,                 /* offer_fork() */
    MT_PRIM_BARRIER,              /* global_barrier() */
    MT_PRIM_RESIZE,               /* resizing_global_barrier() */
    MT_PRIM_VOTE,                 /* VAR = global_barrier_any(FLAG) */
    MT_PRIM_RESIZE_VOTE           /* VAR = resizing_global_barrier_any(FLAG) */
};

enum mt_id_call {
    MT_ID_NONE = 0,
    MT_ID_GROUP_ID,               /* get_group_id */
    MT_ID_NUM_GROUPS,             /* get_num_groups */
    MT_ID_GLOBAL_ID,              /* get_global_id */
    MT_ID_GLOBAL_SIZE,            /* get_global_size */
    MT_ID_TASK_ARG,               /* get_task_arg, the language's: a task's plan argument */
    MT_ID_SHARED_NUM_GROUPS       /* shared_num_groups, the language's: M read once per group */
};

typedef struct mt_call {
    CXCursor call;                /* the CallExpr */
    size_t callee;                /* index in mt_merge.funcs */
} mt_call;

typedef struct mt_param {
    char *name;
    char *text;                   /* the declaration as written, name included */
    unsigned name_offset;         /* where the name sits in `text` */
    char *entry_name;             /* its name among the megakernel's parameters */
} mt_param;

/* A `local` variable of a kernel, moved to the megakernel entry and passed as a pointer. */
typedef struct mt_local {
    char *name;
    char *entry_name;             /* coop_local_<kernel>_<name> */
    char *entry_decl;             /* its declaration in the entry */
    char *param_decl;             /* the kernel function's pointer parameter */
    CXCursor decl;
    CXCursor stmt;                /* its DeclStmt */
} mt_local;

typedef struct mt_func {
    char *name;
    char *usr;
    mt_file *file;
    CXCursor def;
    int is_kernel, is_coop, in_user_file;
    unsigned task;                /* task index, for task kernels */
    int needs_ctx;                /* uses ids or primitives, or calls one that does */
    int direct_primitives;        /* bit (1 << mt_primitive) for each primitive it calls itself */
    CXCursor first_primitive;     /* one direct primitive call, for messages */
    int reaches_primitive;        /* it or a function it calls uses a primitive */
    int has_barrier;              /* it or a function it calls holds a workgroup barrier (or a primitive) */
    int direct_task_arg;          /* calls get_task_arg() itself (first_task_arg: one such call) */
    CXCursor first_task_arg;
    int reaches_task_arg;         /* it or a function it calls reads a task argument */
    mt_call *calls;
    size_t call_count, call_capacity;
    mt_param *params;
    size_t param_count, param_capacity;
    mt_local *locals;
    size_t local_count, local_capacity;
} mt_func;

/* ---- A run ------------------------------------------------------------------------------- */

typedef struct mt_options {
    const char *coop_path;
    const char **task_paths;
    size_t task_count;
    const char *out_path;         /* NULL or "-": standard output */
    const char *header_path;
    const char *prefix;           /* of the host header's names (NULL: the entry's name, in capitals) */
    int standalone;
    int warnings_are_errors;      /* -Werror */
    const char **includes;
    size_t include_count;
    const char **defines;
    size_t define_count;
} mt_options;

typedef struct mt_merge {
    mt_options options;
    CXIndex index;
    mt_file *files;               /* files[0] is the cooperative kernel's, then the tasks', then headers */
    size_t file_count;            /* all of them */
    size_t input_count;           /* the input files among them */
    mt_func *funcs;
    size_t func_count, func_capacity;
    size_t coop;                  /* index of the cooperative kernel in funcs */
    size_t *tasks;                /* task kernels, in task order */
    size_t task_count, task_capacity;
    char *entry_name;
    int errors;
    int warnings;
    mt_spans spans;               /* of the merged program, for the errors of its self-check */
} mt_merge;

/* source.c */
int mt_load(mt_merge *merge);
void mt_unload(mt_merge *merge);
unsigned mt_offset(const mt_file *file, CXSourceLocation location, int *in_file);
int mt_plain_range(const mt_file *file, CXCursor cursor, unsigned *begin, unsigned *end);
void mt_extent(const mt_file *file, CXCursor cursor, unsigned *begin, unsigned *end);
size_t mt_token_at(const mt_file *file, unsigned offset);
int mt_token_is(const mt_file *file, size_t token, const char *spelling);
unsigned mt_statement_end(const mt_file *file, CXCursor statement);
void mt_remove(mt_file *file, unsigned begin, unsigned end);
void mt_expression_range(const mt_file *file, CXCursor expression, unsigned *begin, unsigned *end);
char *mt_spelling(CXCursor cursor);
int mt_same(CXCursor a, CXCursor b);
int mt_function_body(CXCursor function, CXCursor *body);
int mt_in_prelude(CXCursor declaration);
int mt_is_builtin(CXCursor declaration);
void mt_error(mt_merge *merge, const mt_file *file, unsigned offset, const char *hint, const char *format, ...)
    __attribute__((format(printf, 5, 6)));
void mt_warning_at(mt_merge *merge, const mt_file *file, CXCursor cursor, const char *hint, const char *format, ...)
    __attribute__((format(printf, 5, 6)));
void mt_error_at(mt_merge *merge, const mt_file *file, CXCursor cursor, const char *hint, const char *format, ...)
    __attribute__((format(printf, 5, 6)));
int mt_compile_check(mt_merge *merge, const char *text);
mt_file *mt_file_of(mt_merge *merge, const mt_file *unit, CXCursor cursor);

/* analyze.c */
enum mt_primitive mt_primitive_of(CXCursor call);
enum mt_id_call mt_id_call_of(CXCursor call);
mt_func *mt_callee(mt_merge *merge, const mt_file *file, CXCursor call);
int mt_is_transmit(CXCursor var);
CXCursor mt_record_of(CXCursor var);
int mt_is_implicit_transmit(mt_merge *merge, CXCursor var);
int mt_is_group_barrier(CXCursor call);
int mt_holds_barrier(mt_merge *merge, const mt_file *file, CXCursor statement);
int mt_analyze(mt_merge *merge);

/* text.c */
void mt_edit_add(mt_file *file, unsigned begin, unsigned end, int rank, const char *text);
int mt_edits_apply(const mt_file *file, mt_buf *out, mt_spans *spans);
char *mt_render(const mt_file *file, unsigned begin, unsigned end);

/* rewrite.c */
char *mt_declarator(CXType type, const char *name);
void mt_rewrite(mt_merge *merge);

/* control.c */
void mt_rewrite_cooperative(mt_merge *merge);

/* lint.c */
void mt_lint(mt_merge *merge);

/* emit.c */
int mt_emit(mt_merge *merge, mt_buf *program, mt_buf *header);

#endif
