/* validate.c: the third pass, and the only place coop-merge rejects an input or warns about one.
 *
 * A rejection is an error diagnostic at a place in an input file (file:line:col, the rule the
 * input breaks, and a note with a hint) that makes coop-merge refuse to merge: the language's
 * rules (merge-tool/README.md, "Rejected") and whatever coop-merge could not rewrite as written
 * (ids, calls, primitives and variables written by macros). The warnings are the language's
 * rules left to the author ("The language"); -Werror makes them rejections. The earlier passes
 * only record facts (parse.c: a NUL byte; analyse*.c: functions, calls, sites, the cooperative
 * kernel's statements and the data flow's findings); this pass judges them, in the order in
 * which the facts arise, and stops after each stage that found errors, since the later facts
 * assume the earlier rules hold.
 *
 * Not rejections, and so reported where they happen: a bad command line and I/O errors (main.c,
 * parse.c), clang's own diagnostics on the input files (parse.c) and on the merged program
 * (compile.c, after emit), and coop-merge's internal errors (edit.c). */
#include "validate.h"

#include "coop_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LangAS numbering as libclang 14 reports it for OpenCL address spaces. */
enum { ADDRESS_SPACE_LOCAL = 2, ADDRESS_SPACE_CONSTANT = 3 };

/* ---- Reporting ----------------------------------------------------------------------------- */

static void report(mt_merge *merge, const mt_file *file, unsigned offset, int warning, const char *hint,
                   const char *format, va_list args)
{
    unsigned line, column;
    mt_line_column(file, offset, &line, &column);
    /* -Werror: a warning stops the merge like an error */
    int error = !warning || merge->options.warnings_are_errors;
    fprintf(stderr, "%s:%u:%u: %s: ", file->path, line, column, error ? "error" : "warning");
    vfprintf(stderr, format, args);
    if (warning && error)
        fputs(" [-Werror]", stderr);
    fputc('\n', stderr);
    if (hint)
        fprintf(stderr, "%s:%u:%u: note: %s\n", file->path, line, column, hint);
    if (error)
        merge->errors++;
    else
        merge->warnings++;
}

/* report() at a cursor: its offset in `file`, or the file's start when it lies elsewhere. */
static void report_at(mt_merge *merge, const mt_file *file, CXCursor cursor, int warning, const char *hint,
                      const char *format, va_list args)
{
    int in_file = 0;
    unsigned offset = mt_offset(file, clang_getCursorLocation(cursor), &in_file);
    report(merge, file, in_file ? offset : 0, warning, hint, format, args);
}

/* Reports what the language leaves to the author and the input most likely gets wrong (an error
 * with -Werror). */
__attribute__((format(printf, 5, 6))) static void warn_at(mt_merge *merge, const mt_file *file, CXCursor cursor,
                                                           const char *hint, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report_at(merge, file, cursor, 1, hint, format, args);
    va_end(args);
}

/* Reports a rejected input: where, the rule it breaks, and a hint (may be NULL). */
__attribute__((format(printf, 5, 6))) static void reject(mt_merge *merge, const mt_file *file, unsigned offset,
                                                          const char *hint, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(merge, file, offset, 0, hint, format, args);
    va_end(args);
}

__attribute__((format(printf, 5, 6))) static void reject_at(mt_merge *merge, const mt_file *file, CXCursor cursor,
                                                             const char *hint, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report_at(merge, file, cursor, 0, hint, format, args);
    va_end(args);
}

/* ---- The input files ------------------------------------------------------------------------ */

int mt_validate_text(mt_merge *merge, const mt_file *file)
{
    if (!file->has_nul)
        return 0;
    reject(merge, file, file->nul_offset, "OpenCL C source is text: remove the byte", "NUL byte in the file");
    return -1;
}

/* ---- Program scope and kernels -------------------------------------------------------------- */

typedef struct top_check {
    mt_merge *merge;
    mt_file *file;
} top_check;

static enum CXChildVisitResult check_top(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    top_check *check = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    mt_file *where;
    if (!mt_top_level_file(check->merge, check->file, cursor, &where))
        return CXChildVisit_Continue;
    if (kind == CXCursor_VarDecl && where && mt_is_transmit(cursor))
        reject_at(check->merge, where, cursor, "declare it in the root scope of the cooperative kernel",
                  "'transmit' on a program-scope variable: transmit variables live in the cooperative "
                  "kernel's root scope");
    if (kind != CXCursor_FunctionDecl || mt_is_builtin(cursor) || !mt_in_prelude(cursor))
        return CXChildVisit_Continue;
    if (clang_isCursorDefinition(cursor) || where) {
        char *name = mt_spelling(cursor);
        reject_at(check->merge, where ? where : check->file, cursor, "rename the function",
                  "'%s' is a cooperative primitive of coop-merge's language and cannot be declared "
                  "or defined", name);
        free(name);
    }
    return CXChildVisit_Continue;
}

/* Exactly one kernel in each cooperative kernel's file, at least one in each task file, and no
 * two cooperative kernels of one name (the host tells them apart by index, the program by name). */
static void check_kernels(mt_merge *merge)
{
    size_t coop_files = 0;
    while (coop_files < merge->input_count && merge->files[coop_files].is_coop)
        coop_files++;
    for (size_t i = 0; i < merge->func_count; i++) {
        const mt_func *func = &merge->funcs[i];
        if (!func->is_kernel || !func->in_user_file || func->is_coop || func->file->owner >= coop_files)
            continue;
        mt_file *coop_file = &merge->files[func->file->owner];
        const char *first = "";
        for (size_t k = 0; k < merge->coop_count; k++)
            if (merge->funcs[merge->coops[k]].file->owner == func->file->owner)
                first = merge->funcs[merge->coops[k]].name;
        reject_at(merge, coop_file, func->def, "put the other kernels in a task file (--task FILE)",
                  "second kernel '%s' in the cooperative kernel's file: it must hold exactly one kernel "
                  "(the first is '%s')", func->name, first);
    }
    for (size_t f = 0; f < coop_files; f++) {
        int any = 0;
        for (size_t k = 0; k < merge->coop_count; k++)
            any |= merge->funcs[merge->coops[k]].file->owner == f;
        if (!any)
            reject(merge, &merge->files[f], 0, "declare the cooperative kernel as 'kernel void NAME(...)'",
                   "no kernel function in the cooperative kernel's file: it must hold exactly one kernel");
    }
    for (size_t f = coop_files; f < merge->input_count; f++) {
        int any = 0;
        for (size_t t = 0; t < merge->task_count; t++)
            any |= merge->funcs[merge->tasks[t]].file->owner == f;
        if (!any)
            reject(merge, &merge->files[f], 0, "every kernel of a task file becomes a task",
                   "no kernel function in task file %s", merge->files[f].path);
    }
}

/* ---- Variables ------------------------------------------------------------------------------- */

typedef struct var_walk {
    mt_merge *merge;
    const mt_func *func;
    CXCursor body;
    CXCursor *root_decls;         /* VarDecls of the body's own DeclStmts */
    size_t root_count, root_capacity;
} var_walk;

static int is_root_decl(const var_walk *walk, CXCursor var)
{
    for (size_t i = 0; i < walk->root_count; i++)
        if (mt_same(walk->root_decls[i], var))
            return 1;
    return 0;
}

static enum CXChildVisitResult collect_roots(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    var_walk *walk = data;
    if (clang_getCursorKind(cursor) == CXCursor_VarDecl)
        MT_PUSH(walk->root_decls, walk->root_count, walk->root_capacity, cursor);
    return CXChildVisit_Continue;
}

static void check_var(var_walk *walk, CXCursor var)
{
    const mt_func *func = walk->func;
    mt_file *file = func->file;
    CXType type = clang_getCursorType(var);
    unsigned space = clang_getAddressSpace(type);
    int transmit = mt_is_transmit(var);
    if (!transmit && (clang_getCursorKind(var) != CXCursor_VarDecl || !func->is_kernel ||
                      space != ADDRESS_SPACE_CONSTANT))
        return;
    char *name = mt_spelling(var);
    if (transmit) {
        if (!func->is_coop)
            reject_at(walk->merge, file, var, "declare transmit variables in the cooperative kernel only",
                      "'transmit' variable '%s' outside the cooperative kernel (in %s '%s')", name,
                      func->is_kernel ? "task kernel" : "helper function", func->name);
        else if (clang_getCursorKind(var) == CXCursor_ParmDecl || !is_root_decl(walk, var))
            reject_at(walk->merge, file, var, "declare it at the top level of the kernel's body",
                      "'transmit' variable '%s' is not declared in the cooperative kernel's root scope", name);
        else if (space == ADDRESS_SPACE_LOCAL || space == ADDRESS_SPACE_CONSTANT)
            reject_at(walk->merge, file, var, "transmit variables are private: drop the address space",
                      "'transmit' variable '%s' is in %s memory", name,
                      space == ADDRESS_SPACE_LOCAL ? "local" : "constant");
        else if (clang_isConstQualifiedType(type))
            reject_at(walk->merge, file, var, "drop 'const' or make it an ordinary variable",
                      "'transmit' variable '%s' is const, but a forked group assigns it when it resumes",
                      name);
    } else {
        reject_at(walk->merge, file, var, "declare it at program scope",
                  "constant variable '%s' declared inside kernel '%s': kernels become ordinary functions, "
                  "which cannot hold constant variables", name, func->name);
    }
    free(name);
}

static enum CXChildVisitResult walk_vars(CXCursor cursor, CXCursor parent, CXClientData data)
{
    var_walk *walk = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_DeclStmt && clang_getCursorKind(parent) == CXCursor_CompoundStmt &&
        clang_equalRanges(clang_getCursorExtent(parent), clang_getCursorExtent(walk->body)))
        clang_visitChildren(cursor, collect_roots, walk);
    if (kind == CXCursor_VarDecl || kind == CXCursor_ParmDecl)
        check_var(walk, cursor);
    return CXChildVisit_Recurse;
}

static void check_vars(mt_merge *merge, const mt_func *func)
{
    CXCursor body;
    if (!mt_function_body(func->def, &body))
        return;
    var_walk walk = {.merge = merge, .func = func, .body = body};
    int params = clang_Cursor_getNumArguments(func->def);
    for (int i = 0; i < params; i++)
        check_var(&walk, clang_Cursor_getArgument(func->def, (unsigned)i));
    clang_visitChildren(body, walk_vars, &walk);
    free(walk.root_decls);
}

/* ---- Calls ------------------------------------------------------------------------------------ */

enum { UNSEEN = 0, ON_PATH, DONE };

/* Depth-first search for a cycle; reports the call that closes one. */
static int find_recursion(mt_merge *merge, size_t at, unsigned char *state)
{
    state[at] = ON_PATH;
    mt_func *func = &merge->funcs[at];
    for (size_t i = 0; i < func->call_count; i++) {
        size_t callee = func->calls[i].callee;
        if (state[callee] == ON_PATH) {
            reject_at(merge, func->file, func->calls[i].call,
                      "OpenCL C has no recursion: write it as a loop",
                      "recursive call: '%s' calls '%s', which is already being called", func->name,
                      merge->funcs[callee].name);
            return 1;
        }
        if (state[callee] == UNSEEN && find_recursion(merge, callee, state))
            return 1;
    }
    state[at] = DONE;
    return 0;
}

/* The first primitive a function calls itself, by number. */
static const char *primitive_name(const mt_func *func)
{
    for (int p = MT_PRIM_KILL; p <= MT_PRIM_RESIZE_VOTE; p++)
        if (func->direct_primitives & (1 << p))
            return mt_primitive_name((enum mt_primitive)p);
    return "a primitive";
}

static void check_calls(mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        if (!func->in_user_file) {
            if (func->needs_ctx || func->direct_primitives)
                reject_at(merge, func->file, func->def,
                          "define the function in one of the files given to coop-merge",
                          "'%s', defined in an included file, uses work-group ids or cooperative primitives; "
                          "coop-merge rewrites only the files it is given", func->name);
            continue;
        }
        int fork_or_kill = func->direct_primitives & ~(1 << MT_PRIM_BARRIER | 1 << MT_PRIM_VOTE);
        if (!func->is_kernel && fork_or_kill)
            reject_at(merge, func->file, func->first_primitive,
                      "call offer_kill(), offer_fork() and resizing_global_barrier() in the cooperative "
                      "kernel itself",
                      "%s() in helper function '%s': coop-merge cannot leave or resume a helper function",
                      primitive_name(func), func->name);
        if (func->is_coop && func->reaches_task_arg)
            reject_at(merge, func->file, func->direct_task_arg ? func->first_task_arg : func->def,
                      "pass the value as a kernel argument; get_task_arg() reads a task's plan (coop_task_plan.args)",
                      "get_task_arg() in the cooperative kernel '%s'%s: only tasks have plan arguments",
                      func->name, func->direct_task_arg ? "" : " (through a helper it calls)");
        if (func->is_kernel && !func->is_coop && func->direct_primitives)
            reject_at(merge, func->file, func->first_primitive,
                      "only the cooperative kernel may use cooperative primitives",
                      "task kernel '%s' calls %s()", func->name, primitive_name(func));
        for (size_t c = 0; c < func->call_count; c++) {
            const mt_func *callee = &merge->funcs[func->calls[c].callee];
            if (callee->is_kernel)
                reject_at(merge, func->file, func->calls[c].call,
                          "move the shared code into a helper function that both kernels call",
                          "'%s' calls kernel '%s': a kernel cannot be called in a megakernel", func->name,
                          callee->name);
            else if (func->is_kernel && !func->is_coop && callee->reaches_primitive)
                reject_at(merge, func->file, func->calls[c].call,
                          "only the cooperative kernel may use cooperative primitives",
                          "task kernel '%s' calls '%s', which uses a cooperative primitive", func->name,
                          callee->name);
        }
    }
    unsigned char *state = mt_alloc(merge->func_count ? merge->func_count : 1);
    for (size_t i = 0; i < merge->func_count; i++)
        if (state[i] == UNSEEN && find_recursion(merge, i, state))
            break;
    free(state);
}

typedef struct name_check {
    mt_merge *merge;
    const mt_func *func;
} name_check;

/* The rewritten functions declare `ctx`; the cooperative kernel also coop_transmit_, coop_exit_
 * and coop_resuming_. A user variable of one of those names would clash. */
static enum CXChildVisitResult check_name(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    name_check *check = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind != CXCursor_VarDecl && kind != CXCursor_ParmDecl)
        return CXChildVisit_Recurse;
    static const char *const coop_names[] = {"coop_transmit_", "coop_exit_", "coop_resuming_"};
    char *name = mt_spelling(cursor);
    int clash = !strcmp(name, "ctx");
    for (size_t i = 0; check->func->is_coop && i < sizeof coop_names / sizeof *coop_names; i++)
        clash |= !strcmp(name, coop_names[i]);
    if (clash)
        reject_at(check->merge, check->func->file, cursor, "rename the variable",
                  "'%s' in '%s' would clash with the name coop-merge gives the %s", name, check->func->name,
                  strcmp(name, "ctx") ? "cooperative kernel's own state" : "libcoop context it passes down");
    free(name);
    return CXChildVisit_Recurse;
}

static void check_reserved_names(mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++) {
        const mt_func *func = &merge->funcs[i];
        if (!func->in_user_file || !func->needs_ctx)
            continue;
        name_check check = {.merge = merge, .func = func};
        clang_visitChildren(func->def, check_name, &check);
    }
}

/* Every function defined twice among the files, and kernel names, must be unique in the merged
 * program. */
static void check_names(mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++)
        for (size_t j = 0; j < i; j++) {
            const mt_func *a = &merge->funcs[j], *b = &merge->funcs[i];
            if (a->file != b->file && (a->in_user_file || b->in_user_file) && !strcmp(a->name, b->name))
                reject_at(merge, b->file, b->def,
                          "the files are joined into one program: rename one of them, or define it once in a "
                          "header with an include guard",
                          "'%s' is also defined in %s", b->name, a->file->path);
        }
}


/* ---- Warnings --------------------------------------------------------------------------------- */

static void warn_finding(mt_merge *merge, const mt_finding *finding)
{
    const mt_file *file = finding->coop->file;
    unsigned line, column;
    mt_line_column(file, mt_offset(file, clang_getCursorLocation(finding->offer), NULL), &line, &column);
    if (finding->kind == MT_FINDING_UNTRANSMITTED) {
        char *name = mt_spelling(finding->at);
        warn_at(merge, file, finding->at,
                "declare it 'transmit' in the kernel's root scope, or assign it after the fork point "
                "before reading it",
                "'%s' is read after the fork point at line %u before it is assigned, but a group forked "
                "there does not receive it (it is not transmit): it has no value there",
                name, line);
        free(name);
        return;
    }
    char *reader = finding->callee
                       ? mt_printf("the call to '%s', which reads the number of groups,", finding->callee->name)
                       : mt_printf("%s", finding->read);
    const char *offer = mt_primitive_name(mt_primitive_of(finding->offer));
    if (finding->backward)
        warn_at(merge, file, finding->at,
                "read it only between two global barriers that no offer_kill() or offer_fork() lies "
                "between (merge-tool/README.md, \"The language\")",
                "%s comes before %s() (line %u) with no global barrier between them: a group that is "
                "already there may be killed or forked while this one distributes work by it",
                reader, offer, line);
    else
        warn_at(merge, file, finding->at,
                "read it only between two global barriers that no offer_kill() or offer_fork() lies "
                "between (merge-tool/README.md, \"The language\")",
                "%s comes after %s() (line %u) with no global barrier between them: groups killed or "
                "forked there change it, so the groups may distribute work by different numbers",
                reader, offer, line);
    free(reader);
}

/* ---- What the rewrites change ----------------------------------------------------------------- */

typedef struct dimension_walk {
    CXCursor found;               /* a variable's use or a call in the dimension, or null */
} dimension_walk;

static enum CXChildVisitResult find_named(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    dimension_walk *walk = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    enum CXCursorKind referenced = clang_getCursorKind(clang_getCursorReferenced(cursor));
    if (kind == CXCursor_CallExpr ||
        (kind == CXCursor_DeclRefExpr && (referenced == CXCursor_VarDecl || referenced == CXCursor_ParmDecl))) {
        walk->found = cursor;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* get_group_id(0) and get_num_groups(0) are replaced whole, their argument with them, and one with
 * another dimension stays as written: a transmit or local variable or a helper call inside the
 * dimension (in sizeof, say) would lose its own rewrite or keep a name the megakernel lacks. */
static void check_dimension(mt_merge *merge, const mt_file *file, CXCursor call, const char *name)
{
    dimension_walk walk = {.found = clang_getNullCursor()};
    clang_visitChildren(clang_Cursor_getArgument(call, 0), find_named, &walk);
    if (clang_Cursor_isNull(walk.found))
        find_named(clang_Cursor_getArgument(call, 0), clang_getNullCursor(), &walk);
    if (clang_Cursor_isNull(walk.found))
        return;
    char *what = mt_spelling(clang_getCursorReferenced(walk.found));
    reject_at(merge, file, walk.found, "write the dimension as a number (0 in a persistent kernel)",
              "%s '%s' in the dimension of %s(): coop-merge rewrites the call without its argument",
              clang_getCursorKind(walk.found) == CXCursor_CallExpr ? "call to" : "variable", what, name);
    free(what);
}

/* spawn_task("NAME", workgroups, words...): a task kernel of the megakernel, named by a string
 * literal; at most COOP_TASK_ARGS words; only where a scheduler runs what it asks for (in a
 * megakernel of several cooperative kernels, each kernel block's queue is served). */
static void check_spawn(mt_merge *merge, const mt_file *file, CXCursor call)
{
    int words = clang_Cursor_getNumArguments(call) - 2;
    char *name = NULL;
    long task = mt_spawned_task(merge, call, &name);
    if (merge->options.standalone)
        reject_at(merge, file, call, "merge it without --standalone: a megakernel's scheduler runs spawned tasks",
                  "spawn_task() in a standalone kernel: it has no tasks to run");
    else if (!name)
        reject_at(merge, file, clang_Cursor_getArgument(call, 0),
                  "write the task kernel's name in quotes: spawn_task(\"NAME\", workgroups, ...)",
                  "spawn_task()'s first argument is not a string literal");
    else if (task < 0)
        reject_at(merge, file, clang_Cursor_getArgument(call, 0),
                  "a task is a kernel of a file given with --task",
                  "spawn_task(\"%s\"): the megakernel has no task kernel '%s'", name, name);
    else if (words > (int)COOP_TASK_ARGS)
        reject_at(merge, file, clang_Cursor_getArgument(call, 2 + COOP_TASK_ARGS),
                  "a task run has COOP_TASK_ARGS (16) argument words: pass more through a buffer",
                  "spawn_task(\"%s\") with %d argument words: at most 16", name, words);
    free(name);
}

static void check_id_call(mt_merge *merge, const mt_file *file, CXCursor call, enum mt_id_call id)
{
    unsigned begin, end;
    if (!mt_plain_call(file, call, &begin, &end)) {
        char *name = mt_spelling(call);
        reject_at(merge, file, call, "call it directly in the kernel's text",
                  "%s() inside a macro: coop-merge rewrites calls only where they are written", name);
        free(name);
        return;
    }
    if (id == MT_ID_SPAWN_TASK) {
        check_spawn(merge, file, call);
        return;
    }
    long long value;
    if (id == MT_ID_TASK_ARG && mt_constant_argument(call, &value) && (value < 0 || value >= COOP_TASK_ARGS))
        reject_at(merge, file, call, "coop_task_plan.args has COOP_TASK_ARGS words: use 0 .. 15",
                  "get_task_arg(%lld): no such task argument", value);
    if (id != MT_ID_GROUP_ID && id != MT_ID_NUM_GROUPS)
        return;
    const char *name = id == MT_ID_GROUP_ID ? "get_group_id" : "get_num_groups";
    if (!mt_constant_argument(call, &value))
        reject_at(merge, file, call, "use a constant dimension (0 in a persistent kernel)",
                  "%s() with a dimension that is not a constant", name);
    else
        check_dimension(merge, file, call, name);
}

static void check_site(mt_merge *merge, const mt_func *func, const mt_site *site)
{
    const mt_file *file = func->file;
    unsigned begin, end;
    switch (site->kind) {
    case MT_SITE_ID:
        check_id_call(merge, file, site->cursor, site->id);
        break;
    case MT_SITE_VOTE:
        if (!mt_plain_call(file, site->cursor, &begin, &end))
            reject_at(merge, file, site->cursor, "call it directly in the function's text",
                      "global_barrier_any() inside a macro");
        break;
    case MT_SITE_BARRIER:
        if (!mt_plain_range(file, site->cursor, &begin, &end))
            reject_at(merge, file, site->cursor, "call it directly in the function's text",
                      "global_barrier() inside a macro");
        break;
    case MT_SITE_HELPER_CALL:
        if (!mt_plain_call(file, site->cursor, &begin, &end))
            reject_at(merge, file, site->cursor, "call it directly in the kernel's text",
                      "call to '%s' inside a macro: coop-merge must add the context argument where the call is "
                      "written", merge->funcs[site->index].name);
        break;
    case MT_SITE_LOCAL_USE:
        if (!mt_plain_range(file, site->cursor, &begin, &end))
            reject_at(merge, file, site->cursor, "use the variable directly in the kernel's text",
                      "local variable '%s' used inside a macro: coop-merge moves it to the megakernel and must "
                      "rewrite every use", func->locals[site->index].name);
        break;
    }
}

static void check_sites(mt_merge *merge)
{
    for (size_t f = 0; f < merge->file_count; f++)
        for (size_t d = 0; d < merge->files[f].ctx_decl_count; d++) {
            CXCursor decl = merge->files[f].ctx_decls[d];
            size_t token;
            if (mt_ctx_parameter_token(&merge->files[f], decl, &token))
                continue;
            char *name = mt_spelling(decl);
            reject_at(merge, &merge->files[f], decl, "write the function's name and parameter list without macros",
                      "cannot add the context parameter to '%s'", name);
            free(name);
        }
    for (size_t i = 0; i < merge->func_count; i++) {
        const mt_func *func = &merge->funcs[i];
        if (!func->in_user_file)
            continue;
        if (func->is_kernel && !func->header_end)
            reject_at(merge, func->file, func->def, "write the kernel's header and braces without macros",
                      "cannot find the body of kernel '%s'", func->name);
        for (size_t s = 0; s < func->site_count; s++)
            check_site(merge, func, &func->sites[s]);
    }
}

/* ---- The cooperative kernel's statements ------------------------------------------------------ */

static void check_for_headers(const mt_control *c, const mt_stmt *s)
{
    if (s->header_unfound)
        reject(c->merge, c->file, s->begin, "write the for loop's header without macros",
               "cannot find the parts of this for loop's header");
    for (size_t i = 0; i < s->count; i++)
        check_for_headers(c, s->items[i]);
}

typedef struct var_check {
    const mt_control *c;
    const mt_stmt *point;
    int reported;
} var_check;

/* A loop around a fork point may only be controlled by transmit variables (and parameters and
 * program-scope data), since nothing else survives into a forked group. */
static enum CXChildVisitResult check_control_var(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    var_check *check = data;
    if (check->reported || clang_getCursorKind(cursor) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor var = clang_getCursorReferenced(cursor);
    if (clang_getCursorKind(var) != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(var) ||
        mt_is_transmit_var(check->c, var))
        return CXChildVisit_Recurse;
    char *name = mt_spelling(var);
    char *hint = mt_printf("declare '%s' with 'transmit' in the kernel's root scope", name);
    reject(check->c->merge, check->c->file, check->point->begin, hint,
           "%s() in a loop whose control variable '%s' is not transmit: a forked group could not resume the "
           "loop", mt_primitive_name(check->point->primitive), name);
    free(hint);
    free(name);
    check->reported = 1;
    return CXChildVisit_Break;
}

static void check_resumable_loop(const mt_control *c, const mt_stmt *point, const mt_stmt *loop)
{
    var_check check = {.c = c, .point = point};
    CXCursor parts[2];
    size_t part_count = 0;
    if (loop->has_cond)
        parts[part_count++] = loop->cond;
    if (loop->kind == MT_ST_FOR) {
        /* the increment is the last child before the body that is neither init nor cond */
        mt_children children = mt_children_of(loop->cursor);
        for (size_t i = 0; i < children.count; i++) {
            unsigned begin, end;
            mt_extent(c->file, children.items[i], &begin, &end);
            if (begin > loop->second_semicolon && (!loop->count || begin < loop->items[0]->begin))
                parts[part_count++] = children.items[i];
        }
        free(children.items);
    }
    for (size_t i = 0; i < part_count && !check.reported; i++) {
        check_control_var(parts[i], clang_getNullCursor(), &check);
        if (!check.reported)
            clang_visitChildren(parts[i], check_control_var, &check);
    }
    if (!check.reported && loop->has_cond && mt_effects_of(c, loop->cond).writes)
        reject(c->merge, c->file, point->begin,
               "compute the condition into a transmit variable inside the loop",
               "%s() in a loop whose condition has side effects: a forked group would repeat them",
               mt_primitive_name(point->primitive));
}

static void check_tree(const mt_control *c, const mt_stmt *s)
{
    if (s->point && s->in_switch)
        reject(c->merge, c->file, s->begin, "move it out of the switch (an if/else chain works)",
               "%s() inside a switch statement: coop-merge cannot resume a forked group there",
               mt_primitive_name(s->primitive));
    if (s->point && !s->in_switch)
        for (const mt_stmt *up = s->parent; up; up = up->parent)
            if (up->kind == MT_ST_WHILE || up->kind == MT_ST_DO || up->kind == MT_ST_FOR)
                check_resumable_loop(c, s, up);
    for (size_t i = 0; i < s->count; i++)
        check_tree(c, s->items[i]);
}

static enum CXChildVisitResult check_statement_calls(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    const mt_control *c = data;
    enum mt_primitive primitive = mt_primitive_of(cursor);
    if (!primitive)
        return CXChildVisit_Recurse;
    for (size_t i = 0; i < c->statement_call_count; i++)
        if (mt_same(c->statement_calls[i], cursor))
            return CXChildVisit_Continue;
    int vote = primitive == MT_PRIM_VOTE || primitive == MT_PRIM_RESIZE_VOTE;
    const char *name = mt_primitive_name(primitive);
    char *hint = vote ? mt_printf("write 'VARIABLE = %s(FLAG);' as a statement by itself", name)
                      : mt_printf("write '%s();' as a statement by itself", name);
    reject_at(c->merge, c->file, cursor, hint, "%s() must be a statement of its own", name);
    free(hint);
    return CXChildVisit_Continue;
}


/* ---- What the cooperative kernel's rewrite changes -------------------------------------------- */

static void check_primitive(const mt_control *c, const mt_stmt *s)
{
    unsigned begin, end;
    size_t name, close;
    int plain = s->primitive == MT_PRIM_VOTE || s->primitive == MT_PRIM_RESIZE_VOTE
                    ? mt_plain_range(c->file, s->call, &begin, &end) &&
                          mt_vote_tokens(c->file, begin, end, &name, &close)
                    : mt_plain_range(c->file, s->cursor, &begin, &end);
    if (!plain)
        reject(c->merge, c->file, s->begin, "call it directly in the kernel's text", "%s() inside a macro",
               mt_primitive_name(s->primitive));
}

/* `transmit T a = {...};` becomes an assignment of a compound literal, which needs a type that
 * can be named and assigned. */
static void check_transmit_decl(const mt_control *c, const mt_stmt *s)
{
    mt_children vars = mt_children_of(s->cursor);
    for (size_t i = 0; i < vars.count; i++) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(vars.items[i]);
        if (clang_Cursor_isNull(init) || clang_getCursorKind(init) != CXCursor_InitListExpr)
            continue;
        char *name = mt_spelling(vars.items[i]);
        CXCursor record = mt_record_of(vars.items[i]);
        if (clang_getCursorType(vars.items[i]).kind == CXType_ConstantArray)
            reject_at(c->merge, c->file, vars.items[i], "assign the elements in statements of their own",
                      "transmit array '%s' has an initializer list, which cannot be assigned", name);
        else if (!clang_Cursor_isNull(record) && clang_Cursor_isAnonymous(record))
            reject_at(c->merge, c->file, vars.items[i],
                      "name the struct (typedef struct { ... } NAME;) or assign the members in statements of "
                      "their own",
                      "transmit variable '%s' of a struct defined in its own declaration has an initializer "
                      "list, which cannot be assigned to it", name);
        free(name);
    }
    free(vars.items);
}

static void check_guard(const mt_control *c, const mt_stmt *s)
{
    mt_guard guard = mt_guard_of(c, s);
    if (!guard.needed || guard.splittable)
        return;
    char *name = mt_spelling(guard.var);
    char *hint = mt_printf("declare '%s' on its own and assign it in a separate statement", name);
    reject_at(c->merge, c->file, guard.var, hint,
              "the initializer of '%s' reads memory or has side effects, and a group that skips this part "
              "of the kernel (forked, on its way to its fork point, or killed) passes this declaration",
              name);
    free(hint);
    free(name);
}

/* `for (uint i = 0; ...)` around a fork point assigns the transmitted i: its name must be
 * written in the header. */
static void check_transmit_init(const mt_control *c, const mt_stmt *s)
{
    mt_children vars = mt_children_of(s->init);
    for (size_t i = 0; i < vars.count; i++) {
        unsigned name_at;
        size_t name;
        if (!mt_is_transmit_var(c, vars.items[i]) || mt_loop_var_token(c->file, vars.items[i], &name_at, &name))
            continue;
        reject_at(c->merge, c->file, vars.items[i], "write the loop's header without macros",
                  "cannot find the name of the loop's variable");
        break;
    }
    free(vars.items);
}

/* In the order rewrite_control.c's rewrite_tree meets the statements. */
static void check_rewrites(const mt_control *c, const mt_stmt *s)
{
    if (s->kind == MT_ST_PRIMITIVE)
        check_primitive(c, s);
    else if (s->kind == MT_ST_DECL && s->transmit_decl && !c->standalone)
        check_transmit_decl(c, s);
    if (!c->standalone && s->kind == MT_ST_COMPOUND)
        for (size_t i = 0; i < s->count; i++) {
            const mt_stmt *item = s->items[i];
            if ((item->may_resume || item->may_exit) && item->kind == MT_ST_DECL && !item->transmit_decl &&
                !item->empty)
                check_guard(c, item);
        }
    if (!c->standalone && s->kind == MT_ST_FOR && s->has_init && s->init_is_decl && mt_declares_transmit(c, s->init))
        check_transmit_init(c, s);
    for (size_t i = 0; i < s->count; i++)
        check_rewrites(c, s->items[i]);
}

/* The transmit struct is declared first in the kernel and handed to a forked group whole. */
static void check_transmit_struct(const mt_control *c)
{
    long long offset = 0;
    for (size_t i = 0; i < c->transmit_count; i++) {
        CXType type = clang_getCursorType(c->transmits[i]);
        long long size = clang_Type_getSizeOf(type), align = clang_Type_getAlignOf(type);
        if (size > 0 && align > 0)
            offset = (offset + align - 1) / align * align + size;
        CXCursor record = mt_record_of(c->transmits[i]);
        if (!clang_Cursor_isNull(record) && !clang_Cursor_isAnonymous(record) && mt_type_in_kernel(c, record))
            reject_at(c->merge, c->file, c->transmits[i], "define the struct at program scope",
                      "transmit variable '%s' has a struct type defined inside the kernel, which the transmit "
                      "state (declared first in the kernel) cannot name", c->transmit_names[i]);
    }
    const long long limit = 4 * 64; /* COOP_TRANSMIT_WORDS words */
    if (offset > limit)
        reject_at(c->merge, c->file, c->transmits[0], "keep large state in global memory and transmit an index",
                  "transmit variables take %lld bytes; libcoop hands at most %lld bytes to a forked group",
                  offset, limit);
}

static void check_cooperative_rewrites(const mt_control *c)
{
    for (size_t i = 0; i < c->transmit_site_count; i++) {
        CXCursor site = c->transmit_sites[i];
        unsigned begin, end;
        if (c->standalone && !mt_transmit_word(c->file, site, &begin, &end)) {
            reject_at(c->merge, c->file, site, "write 'transmit' directly in the declaration",
                      "'transmit' inside a macro");
        } else if (!c->standalone && !mt_plain_range(c->file, site, &begin, &end)) {
            char *name = mt_spelling(clang_getCursorReferenced(site));
            reject_at(c->merge, c->file, site, "use the variable directly in the kernel's text",
                      "transmit variable '%s' used inside a macro: coop-merge must rewrite every use", name);
            free(name);
        }
    }
    check_rewrites(c, c->body);
    if (!c->standalone && c->transmit_count)
        check_transmit_struct(c);
}

/* ---- The pass ---------------------------------------------------------------------------------- */

/* The rules on one cooperative kernel's statements. */
static void check_cooperative(mt_merge *merge, const mt_control *c)
{
    check_for_headers(c, c->body);
    clang_visitChildren(c->body->cursor, check_statement_calls, (CXClientData)c);
    if (c->has_goto && c->points && !c->standalone)
        reject_at(merge, c->file, c->func->def, "use structured control flow (loops, if, break, continue)",
                  "goto or label in a cooperative kernel with fork points: coop-merge cannot resume through "
                  "them");
    if (!c->standalone)
        check_tree(c, c->body);
    if (!merge->errors)
        check_cooperative_rewrites(c);
}

int mt_validate(mt_merge *merge)
{
    for (size_t f = 0; f < merge->input_count; f++) {
        top_check check = {.merge = merge, .file = &merge->files[f]};
        clang_visitChildren(clang_getTranslationUnitCursor(merge->files[f].tu), check_top, &check);
    }
    check_kernels(merge);
    if (merge->errors)
        return -1;
    for (size_t i = 0; i < merge->func_count; i++)
        check_vars(merge, &merge->funcs[i]);
    check_calls(merge);
    check_names(merge);
    check_reserved_names(merge);
    if (merge->errors)
        return -1;
    for (size_t i = 0; i < merge->finding_count; i++)
        warn_finding(merge, &merge->findings[i]);
    check_sites(merge);
    if (merge->errors)
        return -1;
    for (size_t k = 0; k < merge->coop_count; k++)
        if (merge->controls && merge->controls[k]) {
            merge->coop = merge->coops[k];
            merge->control = merge->controls[k];
            check_cooperative(merge, merge->controls[k]);
        }
    if (merge->coop_count) {
        merge->coop = merge->coops[0];
        merge->control = merge->controls ? merge->controls[0] : NULL;
    }
    return merge->errors ? -1 : 0;
}
