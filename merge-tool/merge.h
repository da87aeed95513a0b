/* merge.h: the data of one run of coop-merge, which its passes fill in turn (see the README's
 * "Source layout"): parse.c reads the files and their tokens, analyse*.c find the functions,
 * calls, sites and the cooperative kernel's statements, validate.c decides what is rejected,
 * rewrite*.c record edits on the files' text and emit.c assembles the program. Types only: each
 * pass's functions are in its own header, and a file includes only the headers of its pass and
 * of the passes before it (tests/test_merge.c checks the order). */
#ifndef COOP_MERGE_H
#define COOP_MERGE_H

#include "text.h"

#include <clang-c/Index.h>

/* ---- Edits ------------------------------------------------------------------------------ */

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
    int has_nul;                  /* it holds a NUL byte (the first at nul_offset): it is not parsed */
    unsigned nul_offset;
    CXCursor *ctx_decls;          /* declarations of helpers that take the context (analysis) */
    size_t ctx_decl_count, ctx_decl_capacity;
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
    MT_ID_SHARED_NUM_GROUPS,      /* shared_num_groups, the language's: M read once per group */
    MT_ID_SPAWN_TASK              /* spawn_task, the language's: a task run asked for on the device */
};

/* A place in a function's body that the rewrites change, in the order the body is walked. */
enum mt_site_kind {
    MT_SITE_ID,                   /* an id call (`id`) */
    MT_SITE_VOTE,                 /* global_barrier_any() outside the cooperative kernel */
    MT_SITE_BARRIER,              /* global_barrier() outside the cooperative kernel */
    MT_SITE_HELPER_CALL,          /* a call of a helper that takes the context (`index` in mt_merge.funcs) */
    MT_SITE_LOCAL_USE             /* a use of a `local` variable (`index` in mt_func.locals) */
};

typedef struct mt_site {
    enum mt_site_kind kind;
    CXCursor cursor;
    enum mt_id_call id;
    size_t index;
} mt_site;

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
    char *entry_name;             /* coop_local_<kernel>_<name> (the rewrite names it) */
    char *entry_decl;             /* its declaration in the entry (the rewrite writes it) */
    char *param_decl;             /* the kernel function's pointer parameter (the rewrite writes it) */
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
    unsigned header_end;          /* a kernel: where its header ends before the body's `{` (0: not found) */
    mt_site *sites;
    size_t site_count, site_capacity;
} mt_func;

/* ---- A run ------------------------------------------------------------------------------- */

/* Cooperative kernels one megakernel holds: coop_layout.h's COOP_MAX_KERNELS, libcoop's kernel
 * blocks (docs/DESIGN.md section 17). */
#define COOP_MERGE_MAX_KERNELS 4

typedef struct mt_options {
    const char *coop_path;        /* the first cooperative kernel's file */
    const char **coop_paths;      /* every cooperative kernel's file, in order (coop_count) */
    size_t coop_count;
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
    mt_file *files;               /* files[0 .. coop_count) are the cooperative kernels', then the
                                     tasks', then headers */
    size_t file_count;            /* all of them */
    size_t input_count;           /* the input files among them */
    mt_func *funcs;
    size_t func_count, func_capacity;
    int has_coop;                 /* the cooperative kernel's file holds a kernel */
    size_t coop;                  /* index of the cooperative kernel in funcs that the coop-specific
                                     steps (control flow, data flow, their checks) work on now */
    size_t *coops;                /* every cooperative kernel, in file order (coops[0] == the first) */
    size_t coop_count, coop_capacity;
    size_t *tasks;                /* task kernels, in task order */
    size_t task_count, task_capacity;
    char *entry_name;
    struct mt_control *control;   /* the statements of funcs[coop] (analyse.h) */
    struct mt_control **controls; /* each cooperative kernel's, as coops */
    struct mt_finding *findings;  /* what the data flow over them found (analyse.h) */
    size_t finding_count, finding_capacity;
    int errors;
    int warnings;
    mt_spans spans;               /* of the merged program, for the errors of its self-check */
    char **barrier_sites;         /* "file:line:col: global_barrier()" of site 1, 2, ... (coop_at) */
    size_t barrier_site_count, barrier_site_capacity;
} mt_merge;

#endif
