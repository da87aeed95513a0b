/* analyze.c: finds the kernels, helpers, calls, primitives, transmit and local variables on the
 * AST, and rejects what coop-merge cannot merge. */
#include "merge.h"

#include <stdlib.h>
#include <string.h>

/* LangAS numbering as libclang 14 reports it for OpenCL address spaces. */
enum { ADDRESS_SPACE_LOCAL = 2, ADDRESS_SPACE_CONSTANT = 3 };

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

static int has_annotation(CXCursor cursor, const char *annotation);

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

typedef struct collect {
    mt_merge *merge;
    mt_file *file;
} collect;

static enum CXChildVisitResult collect_top(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    collect *c = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    /* the file (input or header) it is written in; NULL: a system header, or a header that
     * another input file included first and whose functions were collected from there */
    mt_file *where = mt_file_of(c->merge, c->file, cursor);
    if (!where && !clang_Location_isInSystemHeader(clang_getCursorLocation(cursor)) && !mt_in_prelude(cursor))
        return CXChildVisit_Continue;
    if (kind == CXCursor_VarDecl && where && mt_is_transmit(cursor))
        mt_error_at(c->merge, where, cursor, "declare it in the root scope of the cooperative kernel",
                    "'transmit' on a program-scope variable: transmit variables live in the cooperative "
                    "kernel's root scope");
    if (kind != CXCursor_FunctionDecl || mt_is_builtin(cursor))
        return CXChildVisit_Continue;
    if (mt_in_prelude(cursor)) {
        if (clang_isCursorDefinition(cursor) || where) {
            char *name = mt_spelling(cursor);
            mt_error_at(c->merge, where ? where : c->file, cursor, "rename the function",
                        "'%s' is a cooperative primitive of coop-merge's language and cannot be declared "
                        "or defined", name);
            free(name);
        }
        return CXChildVisit_Continue;
    }
    if (!clang_isCursorDefinition(cursor))
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
    CXCursor body;
    CXCursor *root_decls;         /* VarDecls of the body's own DeclStmts */
    size_t root_count, root_capacity;
} body_walk;

static int is_root_decl(const body_walk *walk, CXCursor var)
{
    for (size_t i = 0; i < walk->root_count; i++)
        if (mt_same(walk->root_decls[i], var))
            return 1;
    return 0;
}

static enum CXChildVisitResult collect_roots(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    body_walk *walk = data;
    if (clang_getCursorKind(cursor) == CXCursor_VarDecl)
        MT_PUSH(walk->root_decls, walk->root_count, walk->root_capacity, cursor);
    return CXChildVisit_Continue;
}

static void add_local(mt_func *func, CXCursor var, CXCursor stmt)
{
    mt_local local = {.name = mt_spelling(var), .decl = var, .stmt = stmt};
    local.entry_name = mt_printf("coop_local_%s_%s", func->name, local.name);
    CXType type = clang_getCursorType(var);
    local.entry_decl = mt_declarator(type, local.entry_name);
    char *pointer = mt_printf("(*%s)", local.name);
    local.param_decl = mt_declarator(type, pointer);
    free(pointer);
    MT_PUSH(func->locals, func->local_count, func->local_capacity, local);
}

static void check_var(body_walk *walk, CXCursor var, CXCursor parent)
{
    mt_func *func = walk->func;
    mt_file *file = func->file;
    CXType type = clang_getCursorType(var);
    unsigned space = clang_getAddressSpace(type);
    if (mt_is_transmit(var)) {
        char *name = mt_spelling(var);
        if (!func->is_coop)
            mt_error_at(walk->merge, file, var, "declare transmit variables in the cooperative kernel only",
                        "'transmit' variable '%s' outside the cooperative kernel (in %s '%s')", name,
                        func->is_kernel ? "task kernel" : "helper function", func->name);
        else if (clang_getCursorKind(var) == CXCursor_ParmDecl || !is_root_decl(walk, var))
            mt_error_at(walk->merge, file, var, "declare it at the top level of the kernel's body",
                        "'transmit' variable '%s' is not declared in the cooperative kernel's root scope", name);
        else if (space == ADDRESS_SPACE_LOCAL || space == ADDRESS_SPACE_CONSTANT)
            mt_error_at(walk->merge, file, var, "transmit variables are private: drop the address space",
                        "'transmit' variable '%s' is in %s memory", name,
                        space == ADDRESS_SPACE_LOCAL ? "local" : "constant");
        else if (clang_isConstQualifiedType(type))
            mt_error_at(walk->merge, file, var, "drop 'const' or make it an ordinary variable",
                        "'transmit' variable '%s' is const, but a forked group assigns it when it resumes",
                        name);
        free(name);
        return;
    }
    if (clang_getCursorKind(var) != CXCursor_VarDecl || !func->is_kernel)
        return;
    if (space == ADDRESS_SPACE_LOCAL) {
        add_local(func, var, parent);
    } else if (space == ADDRESS_SPACE_CONSTANT) {
        char *name = mt_spelling(var);
        mt_error_at(walk->merge, file, var, "declare it at program scope",
                    "constant variable '%s' declared inside kernel '%s': kernels become ordinary functions, "
                    "which cannot hold constant variables", name, func->name);
        free(name);
    }
}

static enum CXChildVisitResult walk_body(CXCursor cursor, CXCursor parent, CXClientData data)
{
    body_walk *walk = data;
    mt_func *func = walk->func;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_DeclStmt && clang_getCursorKind(parent) == CXCursor_CompoundStmt &&
        clang_equalRanges(clang_getCursorExtent(parent), clang_getCursorExtent(walk->body)))
        clang_visitChildren(cursor, collect_roots, walk);
    if (kind == CXCursor_VarDecl || kind == CXCursor_ParmDecl)
        check_var(walk, cursor, parent);
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
    body_walk walk = {.merge = merge, .func = func, .body = body};
    int params = clang_Cursor_getNumArguments(func->def);
    for (int i = 0; i < params; i++)
        check_var(&walk, clang_Cursor_getArgument(func->def, (unsigned)i), func->def);
    clang_visitChildren(body, walk_body, &walk);
    free(walk.root_decls);
}

/* ---- The call graph ---------------------------------------------------------------------- */

enum { UNSEEN = 0, ON_PATH, DONE };

/* Depth-first search for a cycle; reports the call that closes one. */
static int find_recursion(mt_merge *merge, size_t at, unsigned char *state)
{
    state[at] = ON_PATH;
    mt_func *func = &merge->funcs[at];
    for (size_t i = 0; i < func->call_count; i++) {
        size_t callee = func->calls[i].callee;
        if (state[callee] == ON_PATH) {
            mt_error_at(merge, func->file, func->calls[i].call,
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

static const char *primitive_name(const mt_func *func)
{
    for (int p = MT_PRIM_KILL; p <= MT_PRIM_RESIZE_VOTE; p++)
        if (func->direct_primitives & (1 << p))
            return primitive_names[p];
    return "a primitive";
}

static void check_calls(mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        if (!func->in_user_file) {
            if (func->needs_ctx || func->direct_primitives)
                mt_error_at(merge, func->file, func->def,
                            "define the function in one of the files given to coop-merge",
                            "'%s', defined in an included file, uses work-group ids or cooperative primitives; "
                            "coop-merge rewrites only the files it is given", func->name);
            continue;
        }
        int fork_or_kill = func->direct_primitives & ~(1 << MT_PRIM_BARRIER | 1 << MT_PRIM_VOTE);
        if (!func->is_kernel && fork_or_kill)
            mt_error_at(merge, func->file, func->first_primitive,
                        "call offer_kill(), offer_fork() and resizing_global_barrier() in the cooperative "
                        "kernel itself",
                        "%s() in helper function '%s': coop-merge cannot leave or resume a helper function",
                        primitive_name(func), func->name);
        if (func->is_coop && func->reaches_task_arg)
            mt_error_at(merge, func->file, func->direct_task_arg ? func->first_task_arg : func->def,
                        "pass the value as a kernel argument; get_task_arg() reads a task's plan (coop_task_plan.args)",
                        "get_task_arg() in the cooperative kernel '%s'%s: only tasks have plan arguments",
                        func->name, func->direct_task_arg ? "" : " (through a helper it calls)");
        if (func->is_kernel && !func->is_coop && func->direct_primitives)
            mt_error_at(merge, func->file, func->first_primitive,
                        "only the cooperative kernel may use cooperative primitives",
                        "task kernel '%s' calls %s()", func->name, primitive_name(func));
        for (size_t c = 0; c < func->call_count; c++) {
            const mt_func *callee = &merge->funcs[func->calls[c].callee];
            if (callee->is_kernel)
                mt_error_at(merge, func->file, func->calls[c].call,
                            "move the shared code into a helper function that both kernels call",
                            "'%s' calls kernel '%s': a kernel cannot be called in a megakernel", func->name,
                            callee->name);
            else if (func->is_kernel && !func->is_coop && callee->reaches_primitive)
                mt_error_at(merge, func->file, func->calls[c].call,
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
        mt_error_at(check->merge, check->func->file, cursor, "rename the variable",
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
                mt_error_at(merge, b->file, b->def,
                            "the files are joined into one program: rename one of them, or define it once in a "
                            "header with an include guard",
                            "'%s' is also defined in %s", b->name, a->file->path);
        }
}

static void find_kernels(mt_merge *merge)
{
    mt_file *coop_file = &merge->files[0];
    int coop_found = 0;
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        if (!func->is_kernel || !func->in_user_file)
            continue;
        if (&merge->files[func->file->owner] != coop_file) {
            func->task = (unsigned)merge->task_count;
            MT_PUSH(merge->tasks, merge->task_count, merge->task_capacity, i);
            continue;
        }
        if (coop_found) {
            mt_error_at(merge, coop_file, func->def,
                        "put the other kernels in a task file (--task FILE)",
                        "second kernel '%s' in the cooperative kernel's file: it must hold exactly one kernel "
                        "(the first is '%s')", func->name, merge->funcs[merge->coop].name);
            continue;
        }
        coop_found = 1;
        merge->coop = i;
        func->is_coop = 1;
    }
    if (!coop_found)
        mt_error(merge, coop_file, 0, "declare the cooperative kernel as 'kernel void NAME(...)'",
                 "no kernel function in the cooperative kernel's file: it must hold exactly one kernel");
    for (size_t f = 1; f < merge->input_count; f++) {
        int any = 0;
        for (size_t t = 0; t < merge->task_count; t++)
            any |= merge->funcs[merge->tasks[t]].file->owner == f;
        if (!any)
            mt_error(merge, &merge->files[f], 0, "every kernel of a task file becomes a task",
                     "no kernel function in task file %s", merge->files[f].path);
    }
}

/* Finds everything the rewrites need and rejects unsupported input. Returns 0 if the input can
 * be merged; the errors have been reported otherwise. */
int mt_analyze(mt_merge *merge)
{
    for (size_t f = 0; f < merge->input_count; f++) {
        collect c = {.merge = merge, .file = &merge->files[f]};
        clang_visitChildren(clang_getTranslationUnitCursor(merge->files[f].tu), collect_top, &c);
    }
    find_kernels(merge);
    if (merge->errors)
        return -1;
    for (size_t i = 0; i < merge->func_count; i++)
        walk_function(merge, &merge->funcs[i]);
    close_over_calls(merge);
    check_calls(merge);
    check_names(merge);
    check_reserved_names(merge);
    return merge->errors ? -1 : 0;
}
