/* analyse_functions.c: what the analysis pass (analyse.h) finds of the functions: the kernels,
 * helpers, calls, primitives, ids, barriers, transmit and local variables, and the places the
 * rewrites change; and the cursor helpers the pass's other files share. */
#include "analyse.h"

#include <stdlib.h>
#include <string.h>

static const char *const primitive_names[] = {
    [MT_PRIM_KILL] = "offer_kill",
    [MT_PRIM_FORK] = "offer_fork",
    [MT_PRIM_BARRIER] = "global_barrier",
    [MT_PRIM_RESIZE] = "resizing_global_barrier",
    [MT_PRIM_VOTE] = "global_barrier_any",
    [MT_PRIM_RESIZE_VOTE] = "resizing_global_barrier_any",
};

static const char *const id_names[] = {
    [MT_ID_GROUP_ID] = "get_group_id",
    [MT_ID_NUM_GROUPS] = "get_num_groups",
    [MT_ID_GLOBAL_ID] = "get_global_id",
    [MT_ID_GLOBAL_SIZE] = "get_global_size",
};

const char *mt_primitive_name(enum mt_primitive primitive)
{
    return primitive_names[primitive];
}

enum mt_primitive mt_primitive_of(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return MT_PRIM_NONE;
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl || !mt_in_prelude(callee))
        return MT_PRIM_NONE;
    char *name = mt_spelling(callee);
    enum mt_primitive found = MT_PRIM_NONE;
    for (int p = MT_PRIM_KILL; p <= MT_PRIM_RESIZE_VOTE; p++)
        if (!strcmp(name, primitive_names[p]))
            found = (enum mt_primitive)p;
    free(name);
    return found;
}

enum mt_id_call mt_id_call_of(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return MT_ID_NONE;
    /* OpenCL's built-ins have no definition (clang declares most of them implicitly). */
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl ||
        !clang_Cursor_isNull(clang_getCursorDefinition(callee)))
        return MT_ID_NONE;
    char *name = mt_spelling(callee);
    if (mt_in_prelude(callee)) {
        enum mt_id_call own = !strcmp(name, "get_task_arg")        ? MT_ID_TASK_ARG
                              : !strcmp(name, "shared_num_groups") ? MT_ID_SHARED_NUM_GROUPS
                              : !strcmp(name, "spawn_task")        ? MT_ID_SPAWN_TASK
                                                                   : MT_ID_NONE;
        free(name);
        return own;
    }
    enum mt_id_call found = MT_ID_NONE;
    for (int i = MT_ID_GROUP_ID; i <= MT_ID_GLOBAL_SIZE; i++)
        if (!strcmp(name, id_names[i]))
            found = (enum mt_id_call)i;
    free(name);
    return found;
}

static char *usr_of(CXCursor cursor)
{
    CXString usr = clang_getCursorUSR(cursor);
    char *copy = mt_strdup(clang_getCString(usr) ? clang_getCString(usr) : "");
    clang_disposeString(usr);
    return copy;
}

/* The user function a call goes to (defined in this file, else in another input file). */
mt_func *mt_callee(mt_merge *merge, const mt_file *file, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl || mt_in_prelude(callee) ||
        mt_is_builtin(callee))
        return NULL;
    char *usr = usr_of(callee);
    mt_func *found = NULL;
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        if (strcmp(func->usr, usr))
            continue;
        if (func->file == file || !found)
            found = func;
    }
    free(usr);
    return found;
}

static enum CXChildVisitResult first_child(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    *(CXCursor *)data = cursor;
    return CXChildVisit_Break;
}

typedef struct annotation_search {
    const char *annotation;
    int found;
} annotation_search;

static enum CXChildVisitResult find_annotation(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    annotation_search *search = data;
    if (clang_getCursorKind(cursor) == CXCursor_AnnotateAttr) {
        char *text = mt_spelling(cursor);
        search->found |= !strcmp(text, search->annotation);
        free(text);
    }
    return CXChildVisit_Continue;
}

static int has_annotation(CXCursor cursor, const char *annotation)
{
    annotation_search search = {.annotation = annotation};
    clang_visitChildren(cursor, find_annotation, &search);
    return search.found;
}

int mt_is_transmit(CXCursor var)
{
    return has_annotation(var, "coop_transmit");
}

typedef struct loop_search {
    CXCursor var;
    int found;                    /* the variable's for loop holds a fork point */
} loop_search;

static enum CXChildVisitResult find_fork_point(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum mt_primitive primitive = mt_primitive_of(cursor);
    if (primitive == MT_PRIM_FORK || primitive == MT_PRIM_RESIZE || primitive == MT_PRIM_RESIZE_VOTE) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_var_loop(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    loop_search *search = data;
    if (clang_getCursorKind(cursor) != CXCursor_ForStmt)
        return CXChildVisit_Recurse;
    /* the variable's declaration is the loop's first child, before the header's first `;` */
    CXSourceRange loop = clang_getCursorExtent(cursor);
    CXSourceLocation at = clang_getCursorLocation(search->var);
    unsigned loop_begin, var_at;
    clang_getExpansionLocation(clang_getRangeStart(loop), NULL, NULL, NULL, &loop_begin);
    clang_getExpansionLocation(at, NULL, NULL, NULL, &var_at);
    CXCursor init = clang_getNullCursor();
    clang_visitChildren(cursor, first_child, &init);
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        unsigned begin, end;
        clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(init)), NULL, NULL, NULL, &begin);
        clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(init)), NULL, NULL, NULL, &end);
        if (var_at >= begin && var_at < end && begin > loop_begin) {
            clang_visitChildren(cursor, find_fork_point, &search->found);
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Whether a variable is declared in the header of a for loop that holds a fork point (`for
 * (uint i = 0; ...) { ...; resizing_global_barrier(); }`): transmitted, as if it were declared
 * transmit. */
int mt_is_implicit_transmit(mt_merge *merge, CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl || merge->options.standalone)
        return 0;
    CXCursor body;
    if (!mt_function_body(merge->funcs[merge->coop].def, &body))
        return 0;
    loop_search search = {.var = var};
    clang_visitChildren(body, find_var_loop, &search);
    return search.found;
}

/* Whether a call is one of OpenCL's workgroup barriers or collectives (which hold one), or
 * libcoop's coop_group_sync(). */
int mt_is_group_barrier(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return 0;
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl)
        return 0;
    int builtin = mt_is_builtin(callee), prelude = !builtin && mt_in_prelude(callee);
    if (!builtin && !prelude)
        return 0;
    char *name = mt_spelling(callee);
    int barrier = builtin ? !strcmp(name, "barrier") || !strncmp(name, "work_group_", 11)
                          : !strcmp(name, "coop_group_sync");
    free(name);
    return barrier;
}

typedef struct barrier_search {
    mt_merge *merge;
    const mt_file *file;
    int found;
} barrier_search;

static enum CXChildVisitResult find_barrier(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    barrier_search *search = data;
    if (clang_getCursorKind(cursor) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    mt_func *callee = mt_callee(search->merge, search->file, cursor);
    if (mt_is_group_barrier(cursor) || mt_primitive_of(cursor) || (callee && callee->has_barrier)) {
        search->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether a statement holds a workgroup barrier: its own, a primitive's or a helper's. */
int mt_holds_barrier(mt_merge *merge, const mt_file *file, CXCursor statement)
{
    barrier_search search = {.merge = merge, .file = file};
    if (find_barrier(statement, clang_getNullCursor(), &search) == CXChildVisit_Recurse)
        clang_visitChildren(statement, find_barrier, &search);
    return search.found;
}

/* The struct or union type of a variable (through arrays), or the null cursor. */
CXCursor mt_record_of(CXCursor var)
{
    CXType type = clang_getCursorType(var);
    while (type.kind == CXType_ConstantArray)
        type = clang_getArrayElementType(type);
    CXCursor record = clang_getTypeDeclaration(clang_getCanonicalType(type));
    enum CXCursorKind kind = clang_getCursorKind(record);
    return kind == CXCursor_StructDecl || kind == CXCursor_UnionDecl ? record : clang_getNullCursor();
}

/* ---- Collecting functions --------------------------------------------------------------- */

static void add_param(mt_func *func, const mt_file *file, CXCursor parm)
{
    unsigned begin, end;
    mt_extent(file, parm, &begin, &end);
    int in_file = 0;
    unsigned name_at = mt_offset(file, clang_getCursorLocation(parm), &in_file);
    mt_param param = {.name = mt_spelling(parm), .text = mt_strndup(file->text + begin, end - begin)};
    param.name_offset = in_file && name_at >= begin && name_at < end ? name_at - begin : (unsigned)(end - begin);
    MT_PUSH(func->params, func->param_count, func->param_capacity, param);
}

/* Whether a top-level declaration of input `unit`'s translation unit is the unit's to look at:
 * *where is the file (input or header) it is written in, or NULL for a system header or the
 * prelude; 0 for a header that another input file included first (looked at from there). */
int mt_top_level_file(mt_merge *merge, const mt_file *unit, CXCursor cursor, mt_file **where)
{
    *where = mt_file_of(merge, unit, cursor);
    return *where || clang_Location_isInSystemHeader(clang_getCursorLocation(cursor)) || mt_in_prelude(cursor);
}

typedef struct collect {
    mt_merge *merge;
    mt_file *file;
} collect;

static enum CXChildVisitResult collect_top(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    collect *c = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    mt_file *where;
    if (!mt_top_level_file(c->merge, c->file, cursor, &where))
        return CXChildVisit_Continue;
    if (kind != CXCursor_FunctionDecl || mt_is_builtin(cursor) || mt_in_prelude(cursor) ||
        !clang_isCursorDefinition(cursor))
        return CXChildVisit_Continue;
    mt_func func = {.name = mt_spelling(cursor), .usr = usr_of(cursor), .file = where ? where : c->file,
                    .def = cursor, .in_user_file = where != NULL,
                    .is_kernel = has_annotation(cursor, "coop_kernel")};
    int params = where ? clang_Cursor_getNumArguments(cursor) : 0;
    for (int i = 0; i < params; i++)
        add_param(&func, where, clang_Cursor_getArgument(cursor, (unsigned)i));
    mt_merge *merge = c->merge;
    MT_PUSH(merge->funcs, merge->func_count, merge->func_capacity, func);
    return CXChildVisit_Continue;
}

/* ---- Walking function bodies ------------------------------------------------------------- */

typedef struct body_walk {
    mt_merge *merge;
    mt_func *func;
} body_walk;

/* LangAS numbering as libclang 14 reports it for OpenCL address spaces. */
enum { ADDRESS_SPACE_LOCAL = 2 };

/* A kernel's `local` variables (not transmit ones, which validation rejects there). */
static void find_local(mt_func *func, CXCursor var, CXCursor stmt)
{
    if (!func->is_kernel || mt_is_transmit(var) ||
        clang_getAddressSpace(clang_getCursorType(var)) != ADDRESS_SPACE_LOCAL)
        return;
    mt_local local = {.name = mt_spelling(var), .decl = var, .stmt = stmt};
    MT_PUSH(func->locals, func->local_count, func->local_capacity, local);
}

static enum CXChildVisitResult walk_body(CXCursor cursor, CXCursor parent, CXClientData data)
{
    body_walk *walk = data;
    mt_func *func = walk->func;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_VarDecl)
        find_local(func, cursor, parent);
    if (kind == CXCursor_CallExpr) {
        enum mt_primitive primitive = mt_primitive_of(cursor);
        if (primitive) {
            if (!func->direct_primitives)
                func->first_primitive = cursor;
            func->direct_primitives |= 1 << primitive;
        } else if (mt_is_group_barrier(cursor)) {
            func->has_barrier = 1;
        } else if (mt_id_call_of(cursor)) {
            func->needs_ctx = 1;
            if (mt_id_call_of(cursor) == MT_ID_TASK_ARG && !func->direct_task_arg) {
                func->first_task_arg = cursor;
                func->direct_task_arg = func->reaches_task_arg = 1;
            }
        } else {
            mt_func *callee = mt_callee(walk->merge, func->file, cursor);
            if (callee) {
                mt_call call = {.call = cursor, .callee = (size_t)(callee - walk->merge->funcs)};
                MT_PUSH(func->calls, func->call_count, func->call_capacity, call);
            }
        }
    }
    return CXChildVisit_Recurse;
}

static void walk_function(mt_merge *merge, mt_func *func)
{
    CXCursor body;
    if (!mt_function_body(func->def, &body))
        return;
    body_walk walk = {.merge = merge, .func = func};
    clang_visitChildren(body, walk_body, &walk);
}

/* ---- The call graph ---------------------------------------------------------------------- */

/* Fills needs_ctx and reaches_primitive through the calls (to a fixed point). */
static void close_over_calls(mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        func->needs_ctx |= func->direct_primitives != 0 || func->is_kernel;
        func->reaches_primitive = func->direct_primitives != 0;
        func->has_barrier |= func->reaches_primitive;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < merge->func_count; i++) {
            mt_func *func = &merge->funcs[i];
            for (size_t c = 0; c < func->call_count; c++) {
                const mt_func *callee = &merge->funcs[func->calls[c].callee];
                if (callee->needs_ctx && !func->needs_ctx)
                    changed = func->needs_ctx = 1;
                if (callee->reaches_primitive && !func->reaches_primitive)
                    changed = func->reaches_primitive = 1;
                if (callee->reaches_task_arg && !func->reaches_task_arg)
                    changed = func->reaches_task_arg = 1;
                if (callee->has_barrier && !func->has_barrier)
                    changed = func->has_barrier = 1;
            }
        }
    }
}


/* A cooperative kernel is the first kernel of its file; every kernel of a task file is a task.
 * has_coop: every cooperative kernel's file has one. */
static void find_kernels(mt_merge *merge)
{
    size_t files = 0;
    while (files < merge->input_count && merge->files[files].is_coop)
        files++;
    for (size_t f = 0; f < files; f++)
        for (size_t i = 0; i < merge->func_count; i++) {
            mt_func *func = &merge->funcs[i];
            if (func->is_kernel && func->in_user_file && func->file->owner == f) {
                func->is_coop = 1;
                MT_PUSH(merge->coops, merge->coop_count, merge->coop_capacity, i);
                break;
            }
        }
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        if (func->is_kernel && func->in_user_file && !merge->files[func->file->owner].is_coop) {
            func->task = (unsigned)merge->task_count;
            MT_PUSH(merge->tasks, merge->task_count, merge->task_capacity, i);
        }
    }
    merge->has_coop = merge->coop_count == files;
    merge->coop = merge->coop_count ? merge->coops[0] : 0;
}

/* ---- The places the rewrites change -------------------------------------------------------- */

/* Whether a call is written in the file as `name(`, not produced by a macro. */
int mt_plain_call(const mt_file *file, CXCursor call, unsigned *begin, unsigned *end)
{
    return mt_plain_range(file, call, begin, end) && mt_token_is(file, mt_token_at(file, *begin) + 1, "(");
}

/* The value of a call's first argument, if it is an integer constant. */
int mt_constant_argument(CXCursor call, long long *value)
{
    CXEvalResult result = clang_Cursor_Evaluate(clang_Cursor_getArgument(call, 0));
    int constant = result && clang_EvalResult_getKind(result) == CXEval_Int;
    *value = constant ? clang_EvalResult_getAsLongLong(result) : -1;
    if (result)
        clang_EvalResult_dispose(result);
    return constant;
}

static enum CXChildVisitResult find_string_literal(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(cursor) == CXCursor_StringLiteral) {
        *(CXCursor *)data = cursor;
        return CXChildVisit_Break;
    }
    /* through the implicit conversions around the literal only */
    return clang_getCursorKind(cursor) == CXCursor_UnexposedExpr ? CXChildVisit_Recurse : CXChildVisit_Break;
}

long mt_spawned_task(const mt_merge *merge, CXCursor call, char **name)
{
    *name = NULL;
    CXCursor argument = clang_Cursor_getArgument(call, 0), literal = clang_getNullCursor();
    if (clang_getCursorKind(argument) == CXCursor_StringLiteral)
        literal = argument;
    else if (clang_getCursorKind(argument) == CXCursor_UnexposedExpr)
        clang_visitChildren(argument, find_string_literal, &literal);
    if (clang_Cursor_isNull(literal))
        return -1;
    char *text = mt_spelling(literal);
    size_t length = strlen(text);
    if (length < 2 || text[0] != '"' || text[length - 1] != '"') {
        free(text);
        return -1;
    }
    text[length - 1] = '\0';
    *name = mt_strdup(text + 1);
    free(text);
    for (size_t t = 0; t < merge->task_count; t++)
        if (!strcmp(merge->funcs[merge->tasks[t]].name, *name))
            return (long)t;
    return -1;
}

/* Whether a function's declaration is written as `name(` in the file (its name's token). */
int mt_ctx_parameter_token(const mt_file *file, CXCursor decl, size_t *name_token)
{
    int in_file = 0;
    unsigned name_at = mt_offset(file, clang_getCursorLocation(decl), &in_file);
    size_t token = mt_token_at(file, name_at);
    char *name = mt_spelling(decl);
    int plain = in_file && token + 1 < file->token_count && file->tokens[token].begin == name_at &&
                !strcmp(file->tokens[token].spelling, name) && mt_token_is(file, token + 1, "(");
    free(name);
    *name_token = token;
    return plain;
}

typedef struct decl_walk {
    mt_merge *merge;
    mt_file *file;
} decl_walk;

/* The declarations and definitions written in a file of helpers that take the context. */
static enum CXChildVisitResult find_ctx_decls(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    decl_walk *walk = data;
    if (clang_getCursorKind(cursor) != CXCursor_FunctionDecl)
        return CXChildVisit_Continue;
    int in_file = 0;
    mt_offset(walk->file, clang_getCursorLocation(cursor), &in_file);
    if (!in_file)
        return CXChildVisit_Continue;
    CXString usr = clang_getCursorUSR(cursor);
    const char *text = clang_getCString(usr);
    for (size_t i = 0; text && i < walk->merge->func_count; i++) {
        const mt_func *func = &walk->merge->funcs[i];
        if (!func->is_kernel && func->needs_ctx && !strcmp(func->usr, text)) {
            mt_file *file = walk->file;
            MT_PUSH(file->ctx_decls, file->ctx_decl_count, file->ctx_decl_capacity, cursor);
            break;
        }
    }
    clang_disposeString(usr);
    return CXChildVisit_Continue;
}

/* Where a kernel's header ends: the token before its body's `{` (0 when the body's `{` is not a
 * token of the file). */
static unsigned header_end(const mt_func *func)
{
    const mt_file *file = func->file;
    CXCursor body;
    int found = mt_function_body(func->def, &body);
    unsigned body_begin = 0, body_end = 0;
    if (found)
        mt_extent(file, body, &body_begin, &body_end);
    size_t brace = mt_token_at(file, body_begin);
    if (!found || brace == 0 || brace >= file->token_count || file->tokens[brace].begin != body_begin)
        return 0;
    return file->tokens[brace - 1].end;
}

/* By the declarator's location alone: libclang gives the second and later declarators of one
 * declaration (`local uint a[4], b[4];`) another extent when they are reached from a use. */
static const mt_local *local_of(const mt_func *func, CXCursor var)
{
    for (size_t i = 0; i < func->local_count; i++)
        if (clang_getCursorKind(var) == CXCursor_VarDecl &&
            clang_equalLocations(clang_getCursorLocation(func->locals[i].decl), clang_getCursorLocation(var)))
            return &func->locals[i];
    return NULL;
}

static void add_site(mt_func *func, enum mt_site_kind kind, CXCursor cursor, enum mt_id_call id, size_t index)
{
    mt_site site = {.kind = kind, .cursor = cursor, .id = id, .index = index};
    MT_PUSH(func->sites, func->site_count, func->site_capacity, site);
}

/* An id call's arguments are rewritten only where the call itself stays (get_global_id(i)). */
static enum CXChildVisitResult find_sites(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    body_walk *walk = data;
    mt_func *func = walk->func;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_CallExpr) {
        enum mt_id_call id = mt_id_call_of(cursor);
        if (id) {
            add_site(func, MT_SITE_ID, cursor, id, 0);
            return id == MT_ID_GROUP_ID || id == MT_ID_NUM_GROUPS || id == MT_ID_SHARED_NUM_GROUPS
                       ? CXChildVisit_Continue
                       : CXChildVisit_Recurse;
        }
        if (mt_primitive_of(cursor) == MT_PRIM_VOTE && !func->is_coop) {
            add_site(func, MT_SITE_VOTE, cursor, MT_ID_NONE, 0);
            return CXChildVisit_Recurse;
        }
        if (mt_primitive_of(cursor) == MT_PRIM_BARRIER && !func->is_coop) {
            add_site(func, MT_SITE_BARRIER, cursor, MT_ID_NONE, 0);
            return CXChildVisit_Continue;
        }
        const mt_func *callee = mt_callee(walk->merge, func->file, cursor);
        if (callee && callee->needs_ctx && !callee->is_kernel)
            add_site(func, MT_SITE_HELPER_CALL, cursor, MT_ID_NONE, (size_t)(callee - walk->merge->funcs));
    } else if (kind == CXCursor_DeclRefExpr && func->local_count) {
        const mt_local *local = local_of(func, clang_getCursorReferenced(cursor));
        if (local)
            add_site(func, MT_SITE_LOCAL_USE, cursor, MT_ID_NONE, (size_t)(local - func->locals));
    }
    return CXChildVisit_Recurse;
}

static void find_rewrites(mt_merge *merge)
{
    for (size_t f = 0; f < merge->file_count; f++) {
        decl_walk walk = {.merge = merge, .file = &merge->files[f]};
        clang_visitChildren(clang_getTranslationUnitCursor(merge->files[f].tu), find_ctx_decls, &walk);
    }
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        CXCursor body;
        if (!func->in_user_file)
            continue;
        if (func->is_kernel)
            func->header_end = header_end(func);
        if (!mt_function_body(func->def, &body))
            continue;
        body_walk walk = {.merge = merge, .func = func};
        clang_visitChildren(body, find_sites, &walk);
    }
}

/* ---- Children ------------------------------------------------------------------------------ */

static enum CXChildVisitResult add_child(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    mt_children *list = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (!clang_isAttribute(kind) && kind != CXCursor_TypeRef)
        MT_PUSH(list->items, list->count, list->capacity, cursor);
    return CXChildVisit_Continue;
}

mt_children mt_children_of(CXCursor cursor)
{
    mt_children list = {0};
    clang_visitChildren(cursor, add_child, &list);
    return list;
}

/* The call under implicit conversions and parentheses, if the expression is one. */
CXCursor mt_unwrap_call(CXCursor expression)
{
    while (clang_getCursorKind(expression) == CXCursor_UnexposedExpr ||
           clang_getCursorKind(expression) == CXCursor_ParenExpr) {
        mt_children children = mt_children_of(expression);
        CXCursor inner = children.count == 1 ? children.items[0] : clang_getNullCursor();
        free(children.items);
        if (clang_Cursor_isNull(inner))
            break;
        expression = inner;
    }
    return expression;
}

/* ---- The functions' part of the pass ---------------------------------------------------- */

int mt_analyse_functions(mt_merge *merge)
{
    for (size_t f = 0; f < merge->input_count; f++) {
        collect c = {.merge = merge, .file = &merge->files[f]};
        clang_visitChildren(clang_getTranslationUnitCursor(merge->files[f].tu), collect_top, &c);
    }
    find_kernels(merge);
    if (!merge->has_coop)
        return 0;
    for (size_t i = 0; i < merge->func_count; i++)
        walk_function(merge, &merge->funcs[i]);
    close_over_calls(merge);
    find_rewrites(merge);
    return 1;
}
