/* control.c: the cooperative kernel's control flow.
 *
 * One variable, coop_skip_, says whether a group runs the kernel's statements (0), walks to the
 * fork point it was forked at (its number, 1, 2, ...), or walks to the end of the function after
 * it was killed or returned (COOP_SKIP_EXIT). The function never returns early: PoCL miscompiles
 * some returns and breaks out of loops that hold barriers, so a group leaves through structured
 * control flow only.
 *
 * A forked group starts the function with coop_skip_ set to its point and its transmit variables
 * restored, and walks down to the point without jumping: every block around the point skips its
 * statements under if (!coop_skip_), loops around it are entered without their init and without
 * testing their condition, an if around it takes the branch that holds it, and the point itself
 * clears coop_skip_ instead of forking again. Any statement that holds fork points but not the
 * one being resumed skips itself the same way. A killed group (offer_kill,
 * resizing_global_barrier) or one that returns walks to the end: the statements after the exit
 * run under if (!coop_skip_), the loops around it test !coop_skip_. Loop conditions use & and |
 * rather than && and ?: : PoCL's barrier handling fails on loops that exit from more than one
 * block. In the usual shape, a loop whose body ends with the only fork point, resuming is going
 * on with the loop, and the body is left as written (find_tail_point).
 *
 * PoCL compiles a workgroup barrier inside a conditional by copying the code after the
 * conditional once for each way through it, so that every such conditional on a path doubles
 * the code after it. The primitives a group walks past are therefore not skipped by a
 * conditional: they take coop_skip_ and run their workgroup barriers either way (coop_fork_at,
 * coop_resize_at, coop_kill_at, coop_global_barrier_unless). Only the kernel's own statements
 * are skipped, so the only such conditionals left are those around the kernel's own barriers.
 *
 * The tree built here mirrors the statements of the kernel's body; all rewriting is insertions
 * around their source ranges and replacements of the primitive calls.
 */
#include "merge.h"

#include <stdlib.h>
#include <string.h>

enum stmt_kind {
    ST_OTHER = 0,
    ST_COMPOUND,
    ST_IF,
    ST_WHILE,
    ST_DO,
    ST_FOR,
    ST_SWITCH,
    ST_LABEL,                     /* case, default or a goto label */
    ST_DECL,
    ST_PRIMITIVE,                 /* a statement that is one primitive call */
    ST_RETURN,
    ST_NULL
};

typedef struct stmt stmt;
struct stmt {
    CXCursor cursor;
    enum stmt_kind kind;
    unsigned begin, end;          /* the whole statement, its `;` included */
    stmt *parent;
    stmt **items;                 /* compound: its statements; if: then, else; loops: body */
    size_t count, capacity;
    int depth;
    int has_cond, has_else;
    CXCursor cond;
    /* for loops */
    int has_init, init_is_decl;
    CXCursor init;
    unsigned second_semicolon;
    enum mt_primitive primitive;
    CXCursor call;                /* the primitive's call (in `VAR = global_barrier_any(FLAG);` too) */
    int has_target;               /* that statement's VAR, [target_begin, target_end); none in a
                                     declaration `T VAR = global_barrier_any(FLAG);` */
    unsigned target_begin, target_end;
    unsigned point;               /* fork point number of a fork statement */
    unsigned first_point, last_point; /* fork points it holds (numbered in order): first..last */
    int in_switch;
    int resume_here;              /* a loop whose body ends with the only fork point: see find_tail_point */
    int no_resume;                /* inside such a loop's body: nothing there resumes */
    int has_inc;
    CXCursor inc;
    unsigned first_semicolon;
    int empty;                    /* rewritten to nothing */
    int exits;                    /* holds a kill point or a return */
    int may_resume, may_exit;     /* reached with coop_skip_ a fork point's number / COOP_SKIP_EXIT */
    int pushed;                   /* skipped inside its own control flow, not wrapped (see plan) */
    int transmit_decl;
};

typedef struct control {
    mt_merge *merge;
    mt_func *func;
    mt_file *file;
    int standalone;
    stmt *body;
    unsigned points;
    int exits;                    /* holds a kill point or a return */
    int has_goto;
    CXCursor *transmits;          /* the transmit variables, in order (with a for loop's own around a
                                     fork point: mt_is_implicit_transmit) */
    char **transmit_names;        /* their names in coop_transmit_ (two loops may both declare i) */
    size_t transmit_count, transmit_capacity;
    CXCursor *statement_calls;    /* primitive calls that are statements of their own */
    size_t statement_call_count, statement_call_capacity;
    struct wrapping *wraps;       /* if (...) { ... } around statements, emitted last */
    size_t wrap_count, wrap_capacity;
    const struct stmt **clears;   /* while loops a forked group resumes at */
    size_t clear_count, clear_capacity;
} control;

/* `if (condition) {` ... `}` around the statements [begin, end) of a block at `depth`. */
typedef struct wrapping {
    unsigned begin, end;
    int depth, inner;
    char *condition;
} wrapping;


static int holds_points(const stmt *s)
{
    return s->first_point != 0;
}

/* Whether a forked group walks into this statement on its way to its fork point. */
static int resumes(const stmt *s)
{
    return holds_points(s) && !s->no_resume;
}

/* ---- Building the statement tree --------------------------------------------------------- */

typedef struct child_list {
    CXCursor *items;
    size_t count, capacity;
} child_list;

static enum CXChildVisitResult list_child(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    child_list *list = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (clang_isAttribute(kind) || kind == CXCursor_TypeRef)
        return CXChildVisit_Continue;
    MT_PUSH(list->items, list->count, list->capacity, cursor);
    return CXChildVisit_Continue;
}

static child_list children_of(CXCursor cursor)
{
    child_list list = {0};
    clang_visitChildren(cursor, list_child, &list);
    return list;
}

static enum stmt_kind kind_of(CXCursor cursor)
{
    switch (clang_getCursorKind(cursor)) {
    case CXCursor_CompoundStmt: return ST_COMPOUND;
    case CXCursor_IfStmt: return ST_IF;
    case CXCursor_WhileStmt: return ST_WHILE;
    case CXCursor_DoStmt: return ST_DO;
    case CXCursor_ForStmt: return ST_FOR;
    case CXCursor_SwitchStmt: return ST_SWITCH;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
    case CXCursor_LabelStmt: return ST_LABEL;
    case CXCursor_DeclStmt: return ST_DECL;
    case CXCursor_ReturnStmt: return ST_RETURN;
    case CXCursor_NullStmt: return ST_NULL;
    default: return mt_primitive_of(cursor) ? ST_PRIMITIVE : ST_OTHER;
    }
}

static stmt *build(control *c, CXCursor cursor, stmt *parent);

/* The call under implicit conversions and parentheses, if the expression is one. */
static CXCursor unwrap_call(CXCursor expression)
{
    while (clang_getCursorKind(expression) == CXCursor_UnexposedExpr ||
           clang_getCursorKind(expression) == CXCursor_ParenExpr) {
        child_list children = children_of(expression);
        CXCursor inner = children.count == 1 ? children.items[0] : clang_getNullCursor();
        free(children.items);
        if (clang_Cursor_isNull(inner))
            break;
        expression = inner;
    }
    return expression;
}

/* `VAR = global_barrier_any(FLAG);` (or its resizing form): a primitive statement whose call
 * is the assignment's right side, VAR a variable. */
static int vote_assignment(control *c, stmt *s)
{
    if (clang_getCursorKind(s->cursor) != CXCursor_BinaryOperator)
        return 0;
    child_list children = children_of(s->cursor);
    int found = 0;
    if (children.count == 2 && clang_getCursorKind(children.items[0]) == CXCursor_DeclRefExpr) {
        CXCursor call = unwrap_call(children.items[1]);
        enum mt_primitive primitive = mt_primitive_of(call);
        unsigned begin, end;
        mt_extent(c->file, children.items[0], &begin, &end);
        if ((primitive == MT_PRIM_VOTE || primitive == MT_PRIM_RESIZE_VOTE) &&
            mt_token_is(c->file, mt_token_at(c->file, end), "=") &&
            mt_plain_range(c->file, children.items[0], &s->target_begin, &s->target_end)) {
            s->call = call;
            s->primitive = primitive;
            s->has_target = found = 1;
        }
    }
    free(children.items);
    return found;
}

/* `T VAR = global_barrier_any(FLAG);` (or its resizing form): one private variable, not
 * transmit, initialised by the call. */
static int vote_declaration(stmt *s)
{
    if (clang_getCursorKind(s->cursor) != CXCursor_DeclStmt)
        return 0;
    child_list vars = children_of(s->cursor);
    int found = 0;
    if (vars.count == 1 && clang_getCursorKind(vars.items[0]) == CXCursor_VarDecl && !mt_is_transmit(vars.items[0])) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(vars.items[0]);
        CXCursor call = clang_Cursor_isNull(init) ? init : unwrap_call(init);
        enum mt_primitive primitive = clang_Cursor_isNull(call) ? MT_PRIM_NONE : mt_primitive_of(call);
        if (primitive == MT_PRIM_VOTE || primitive == MT_PRIM_RESIZE_VOTE) {
            s->call = call;
            s->primitive = primitive;
            found = 1;
        }
    }
    free(vars.items);
    return found;
}

static void add_item(control *c, stmt *s, CXCursor cursor)
{
    stmt *item = build(c, cursor, s);
    MT_PUSH(s->items, s->count, s->capacity, item);
}

/* Splits a for statement's children into init, cond, inc and body by where its header's `;`s
 * and `)` are. */
static void build_for(control *c, stmt *s, const child_list *children)
{
    mt_file *file = c->file;
    size_t token = mt_token_at(file, s->begin);
    size_t open = token + 1, close = 0, semicolons[2] = {0, 0};
    int depth = 0, found = 0;
    for (size_t t = open; t < file->token_count && file->tokens[t].begin < s->end; t++) {
        const char *text = file->tokens[t].spelling;
        if (!strcmp(text, "(") || !strcmp(text, "[") || !strcmp(text, "{"))
            depth++;
        else if (!strcmp(text, ")") || !strcmp(text, "]") || !strcmp(text, "}"))
            depth--;
        else if (!strcmp(text, ";") && depth == 1 && found < 2)
            semicolons[found++] = t;
        if (depth == 0) {
            close = t;
            break;
        }
    }
    if (!mt_token_is(file, token, "for") || !mt_token_is(file, open, "(") || found != 2 || !close) {
        mt_error(c->merge, file, s->begin, "write the for loop's header without macros",
                 "cannot find the parts of this for loop's header");
        return;
    }
    unsigned first_semicolon = file->tokens[semicolons[0]].begin;
    s->first_semicolon = first_semicolon;
    s->second_semicolon = file->tokens[semicolons[1]].begin;
    unsigned close_at = file->tokens[close].begin;
    for (size_t i = 0; i < children->count; i++) {
        unsigned begin, end;
        mt_extent(file, children->items[i], &begin, &end);
        if (begin < first_semicolon && !s->has_init) {
            s->has_init = 1;
            s->init = children->items[i];
            s->init_is_decl = clang_getCursorKind(children->items[i]) == CXCursor_DeclStmt;
        } else if (begin > first_semicolon && begin < s->second_semicolon && !s->has_cond) {
            s->has_cond = 1;
            s->cond = children->items[i];
        } else if (begin > s->second_semicolon && begin < close_at && !s->has_inc) {
            s->has_inc = 1;
            s->inc = children->items[i];
        } else if (begin > close_at) {
            add_item(c, s, children->items[i]);
        }
    }
}

static stmt *build(control *c, CXCursor cursor, stmt *parent)
{
    stmt *s = mt_alloc(sizeof *s);
    s->cursor = cursor;
    s->kind = kind_of(cursor);
    s->parent = parent;
    s->depth = parent ? parent->depth + 1 : 0;
    s->in_switch = parent && (parent->in_switch || parent->kind == ST_SWITCH);
    unsigned end;
    mt_extent(c->file, cursor, &s->begin, &end);
    s->end = mt_statement_end(c->file, cursor);
    if ((s->kind == ST_OTHER && vote_assignment(c, s)) || (s->kind == ST_DECL && vote_declaration(s)))
        s->kind = ST_PRIMITIVE;
    child_list children = children_of(cursor);
    switch (s->kind) {
    case ST_COMPOUND:
        for (size_t i = 0; i < children.count; i++)
            add_item(c, s, children.items[i]);
        break;
    case ST_IF:
        if (children.count >= 2) {
            s->has_cond = 1;
            s->cond = children.items[0];
            add_item(c, s, children.items[1]);
            if (children.count >= 3) {
                s->has_else = 1;
                add_item(c, s, children.items[2]);
            }
        }
        break;
    case ST_WHILE:
    case ST_SWITCH:
        if (children.count >= 2) {
            s->has_cond = 1;
            s->cond = children.items[0];
            add_item(c, s, children.items[children.count - 1]);
        }
        break;
    case ST_DO:
        if (children.count >= 2) {
            s->has_cond = 1;
            s->cond = children.items[1];
            add_item(c, s, children.items[0]);
        }
        break;
    case ST_FOR:
        build_for(c, s, &children);
        break;
    case ST_LABEL:
        if (clang_getCursorKind(cursor) == CXCursor_LabelStmt)
            c->has_goto = 1;
        if (children.count >= 1)
            add_item(c, s, children.items[children.count - 1]);
        break;
    case ST_PRIMITIVE:
        if (!s->has_target && s->primitive != MT_PRIM_VOTE && s->primitive != MT_PRIM_RESIZE_VOTE) {
            s->primitive = mt_primitive_of(cursor);
            s->call = cursor;
        }
        MT_PUSH(c->statement_calls, c->statement_call_count, c->statement_call_capacity, s->call);
        if (s->primitive == MT_PRIM_FORK || s->primitive == MT_PRIM_RESIZE || s->primitive == MT_PRIM_RESIZE_VOTE)
            s->point = s->first_point = s->last_point = ++c->points;
        if (s->primitive == MT_PRIM_KILL || s->primitive == MT_PRIM_RESIZE || s->primitive == MT_PRIM_RESIZE_VOTE)
            s->exits = c->exits = 1;
        break;
    case ST_RETURN:
        s->exits = c->exits = 1;
        break;
    case ST_NULL:
        s->empty = 1;
        break;
    default:
        if (clang_getCursorKind(cursor) == CXCursor_GotoStmt ||
            clang_getCursorKind(cursor) == CXCursor_IndirectGotoStmt)
            c->has_goto = 1;
        break;
    }
    free(children.items);
    for (size_t i = 0; i < s->count; i++) {
        const stmt *item = s->items[i];
        s->exits |= item->exits;
        if (holds_points(item)) {
            if (!s->first_point)
                s->first_point = item->first_point;
            s->last_point = item->last_point;
        }
    }
    return s;
}

static void free_tree(stmt *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        free_tree(s->items[i]);
    free(s->items);
    free(s);
}

/* ---- Expressions ------------------------------------------------------------------------- */

typedef struct effects {
    mt_merge *merge;
    const mt_file *file;
    int writes;                   /* assignments, ++/--, calls that may write or synchronise */
    int reads_memory;             /* subscripts, *p, p->f */
} effects;

/* OpenCL built-ins that change memory or synchronise; every other built-in only computes. */
static int builtin_has_effects(const char *name)
{
    static const char *const prefixes[] = {"atomic", "atom_", "vstore", "write_image", "async_", "wait_group",
                                           "barrier", "work_group", "sub_group", "mem_fence", "read_mem_fence",
                                           "write_mem_fence", "prefetch", "printf", "enqueue", "commit_",
                                           "reserve_", "write_pipe", "read_pipe"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            return 1;
    return 0;
}

static enum CXChildVisitResult find_effects(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    effects *e = data;
    const mt_file *file = e->file;
    unsigned begin, end;
    mt_extent(file, cursor, &begin, &end);
    size_t first = mt_token_at(file, begin);
    size_t last = mt_token_at(file, end);
    last = last ? last - 1 : 0;
    switch (clang_getCursorKind(cursor)) {
    case CXCursor_CompoundAssignOperator:
        e->writes = 1;
        break;
    case CXCursor_BinaryOperator: {
        child_list children = children_of(cursor);
        if (children.count) {
            unsigned lhs_begin, lhs_end;
            mt_extent(file, children.items[0], &lhs_begin, &lhs_end);
            e->writes |= mt_token_is(file, mt_token_at(file, lhs_end), "=");
        }
        free(children.items);
        break;
    }
    case CXCursor_UnaryOperator:
        if (mt_token_is(file, first, "++") || mt_token_is(file, first, "--") || mt_token_is(file, last, "++") ||
            mt_token_is(file, last, "--"))
            e->writes = 1;
        if (mt_token_is(file, first, "*"))
            e->reads_memory = 1;
        break;
    case CXCursor_ArraySubscriptExpr:
        e->reads_memory = 1;
        break;
    case CXCursor_MemberRefExpr: {
        child_list children = children_of(cursor);
        if (children.count) {
            unsigned base_begin, base_end;
            mt_extent(file, children.items[0], &base_begin, &base_end);
            e->reads_memory |= mt_token_is(file, mt_token_at(file, base_end), "->");
        }
        free(children.items);
        break;
    }
    case CXCursor_CallExpr:
        if (!mt_id_call_of(cursor)) {
            CXCursor callee = clang_getCursorReferenced(cursor);
            char *name = mt_spelling(callee);
            /* libcoop's device library, declared in the prelude, is atomics and barriers */
            if (mt_callee(e->merge, file, cursor) || builtin_has_effects(name) || mt_in_prelude(callee))
                e->writes = 1;
            free(name);
        }
        break;
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

/* Whether an expression is already 0 or 1: a comparison, && or ||, or !. */
static int is_boolean(const control *c, CXCursor expression)
{
    static const char *const operators[] = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"};
    const mt_file *file = c->file;
    enum CXCursorKind kind = clang_getCursorKind(expression);
    unsigned begin, end;
    mt_extent(file, expression, &begin, &end);
    if (kind == CXCursor_UnaryOperator)
        return mt_token_is(file, mt_token_at(file, begin), "!");
    if (kind != CXCursor_BinaryOperator)
        return 0;
    child_list children = children_of(expression);
    int boolean = 0;
    if (children.count) {
        unsigned lhs_begin, lhs_end;
        mt_extent(file, children.items[0], &lhs_begin, &lhs_end);
        size_t op = mt_token_at(file, lhs_end);
        for (size_t i = 0; i < sizeof operators / sizeof *operators; i++)
            boolean |= mt_token_is(file, op, operators[i]);
    }
    free(children.items);
    return boolean;
}

static effects effects_of(const control *c, CXCursor expression)
{
    effects e = {.merge = c->merge, .file = c->file};
    find_effects(expression, clang_getNullCursor(), &e);
    clang_visitChildren(expression, find_effects, &e);
    return e;
}

/* ---- Checks ------------------------------------------------------------------------------ */

static const char *primitive_call(enum mt_primitive primitive)
{
    switch (primitive) {
    case MT_PRIM_KILL: return "offer_kill()";
    case MT_PRIM_FORK: return "offer_fork()";
    case MT_PRIM_BARRIER: return "global_barrier()";
    case MT_PRIM_RESIZE: return "resizing_global_barrier()";
    case MT_PRIM_VOTE: return "global_barrier_any()";
    case MT_PRIM_RESIZE_VOTE: return "resizing_global_barrier_any()";
    default: return "a primitive";
    }
}

typedef struct var_check {
    control *c;
    const stmt *point;
    const stmt *loop;
    int reported;
} var_check;

/* (By the name's location: the declaration's extent differs between walks when it defines a
 * struct, `transmit struct { ... } s`.) */
static int is_transmit_var(const control *c, CXCursor var)
{
    for (size_t i = 0; i < c->transmit_count; i++)
        if (clang_getCursorKind(var) == CXCursor_VarDecl &&
            clang_equalLocations(clang_getCursorLocation(c->transmits[i]), clang_getCursorLocation(var)))
            return 1;
    return 0;
}

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
        is_transmit_var(check->c, var))
        return CXChildVisit_Recurse;
    char *name = mt_spelling(var);
    char *hint = mt_printf("declare '%s' with 'transmit' in the kernel's root scope", name);
    mt_error(check->c->merge, check->c->file, check->point->begin, hint,
             "%s in a loop whose control variable '%s' is not transmit: a forked group could not resume the "
             "loop", primitive_call(check->point->primitive), name);
    free(hint);
    free(name);
    check->reported = 1;
    return CXChildVisit_Break;
}

static void check_resumable_loop(control *c, const stmt *point, const stmt *loop)
{
    var_check check = {.c = c, .point = point, .loop = loop};
    CXCursor parts[2];
    size_t part_count = 0;
    if (loop->has_cond)
        parts[part_count++] = loop->cond;
    if (loop->kind == ST_FOR) {
        /* the increment is the last child before the body that is neither init nor cond */
        child_list children = children_of(loop->cursor);
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
    if (!check.reported && loop->has_cond && effects_of(c, loop->cond).writes)
        mt_error(c->merge, c->file, point->begin,
                 "compute the condition into a transmit variable inside the loop",
                 "%s in a loop whose condition has side effects: a forked group would repeat them",
                 primitive_call(point->primitive));
}

static void check_tree(control *c, const stmt *s)
{
    if (s->point && s->in_switch)
        mt_error(c->merge, c->file, s->begin, "move it out of the switch (an if/else chain works)",
                 "%s inside a switch statement: coop-merge cannot resume a forked group there",
                 primitive_call(s->primitive));
    if (s->point && !s->in_switch)
        for (const stmt *up = s->parent; up; up = up->parent)
            if (up->kind == ST_WHILE || up->kind == ST_DO || up->kind == ST_FOR)
                check_resumable_loop(c, s, up);
    for (size_t i = 0; i < s->count; i++)
        check_tree(c, s->items[i]);
}

typedef struct call_check {
    control *c;
} call_check;

static enum CXChildVisitResult check_statement_calls(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    call_check *check = data;
    control *c = check->c;
    enum mt_primitive primitive = mt_primitive_of(cursor);
    if (!primitive)
        return CXChildVisit_Recurse;
    for (size_t i = 0; i < c->statement_call_count; i++)
        if (mt_same(c->statement_calls[i], cursor))
            return CXChildVisit_Continue;
    int vote = primitive == MT_PRIM_VOTE || primitive == MT_PRIM_RESIZE_VOTE;
    char *hint = vote ? mt_printf("write 'VARIABLE = %.*s(FLAG);' as a statement by itself",
                                  (int)strlen(primitive_call(primitive)) - 2, primitive_call(primitive))
                      : mt_printf("write '%s;' as a statement by itself", primitive_call(primitive));
    mt_error_at(c->merge, c->file, cursor, hint, "%s must be a statement of its own",
                primitive_call(primitive));
    free(hint);
    return CXChildVisit_Continue;
}

/* ---- Transmit variables ------------------------------------------------------------------ */

static enum CXChildVisitResult collect_transmits(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    control *c = data;
    if (clang_getCursorKind(cursor) != CXCursor_VarDecl ||
        !(mt_is_transmit(cursor) || mt_is_implicit_transmit(c->merge, cursor)))
        return CXChildVisit_Recurse;
    char *base = mt_spelling(cursor), *name = mt_strdup(base);
    for (unsigned n = 2;; n++) {
        size_t i = 0;
        while (i < c->transmit_count && strcmp(c->transmit_names[i], name))
            i++;
        if (i == c->transmit_count)
            break;
        free(name);
        name = mt_printf("%s_%u", base, n);
    }
    free(base);
    size_t capacity = c->transmit_capacity;
    MT_PUSH(c->transmits, c->transmit_count, c->transmit_capacity, cursor);
    if (capacity != c->transmit_capacity)
        c->transmit_names = mt_grow(c->transmit_names, c->transmit_capacity * sizeof *c->transmit_names);
    c->transmit_names[c->transmit_count - 1] = name;
    return CXChildVisit_Recurse;
}

/* A transmit variable's member of coop_transmit_. */
static const char *transmit_name(const control *c, CXCursor var)
{
    for (size_t i = 0; i < c->transmit_count; i++)
        if (clang_equalLocations(clang_getCursorLocation(c->transmits[i]), clang_getCursorLocation(var)))
            return c->transmit_names[i];
    return "";
}

static int decl_declares_transmit(const control *c, CXCursor declaration)
{
    child_list children = children_of(declaration);
    int transmit = 0;
    for (size_t i = 0; i < children.count; i++)
        transmit |= is_transmit_var(c, children.items[i]);
    free(children.items);
    return transmit;
}

static int decl_is_transmit(const control *c, const stmt *s)
{
    child_list children = children_of(s->cursor);
    int transmit = 0;
    for (size_t i = 0; i < children.count; i++)
        transmit |= is_transmit_var(c, children.items[i]);
    free(children.items);
    return transmit;
}

static int decl_is_local(const control *c, const stmt *s)
{
    for (size_t i = 0; i < c->func->local_count; i++)
        if (mt_same(c->func->locals[i].stmt, s->cursor))
            return 1;
    return 0;
}

static void mark_declarations(control *c, stmt *s)
{
    if (s->kind == ST_DECL) {
        if (decl_is_local(c, s)) {
            s->empty = 1;
        } else if (decl_is_transmit(c, s)) {
            s->transmit_decl = 1;
            child_list vars = children_of(s->cursor);
            int any_init = 0;
            for (size_t i = 0; i < vars.count; i++)
                any_init |= !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(vars.items[i]));
            free(vars.items);
            s->empty = !any_init;
        }
    }
    for (size_t i = 0; i < s->count; i++)
        mark_declarations(c, s->items[i]);
}

/* `transmit T a = x, b;` becomes `coop_transmit_.a = x;` (nothing if no initializer). */
static void rewrite_transmit_decl(control *c, const stmt *s)
{
    mt_file *file = c->file;
    child_list vars = children_of(s->cursor);
    unsigned at = s->begin;
    int assigned = 0;
    for (size_t i = 0; i < vars.count; i++) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(vars.items[i]);
        if (clang_Cursor_isNull(init))
            continue;
        char *name = mt_spelling(vars.items[i]);
        unsigned begin, end;
        mt_expression_range(file, init, &begin, &end);
        mt_buf text = {0};
        mt_buf_printf(&text, "%scoop_transmit_.%s = ", assigned ? "; " : "", transmit_name(c, vars.items[i]));
        if (clang_getCursorKind(init) == CXCursor_InitListExpr) {
            CXType type = clang_getCursorType(vars.items[i]);
            if (type.kind == CXType_ConstantArray) {
                mt_error_at(c->merge, file, vars.items[i], "assign the elements in statements of their own",
                            "transmit array '%s' has an initializer list, which cannot be assigned", name);
            } else if (!clang_Cursor_isNull(mt_record_of(vars.items[i])) &&
                       clang_Cursor_isAnonymous(mt_record_of(vars.items[i]))) {
                mt_error_at(c->merge, file, vars.items[i],
                            "name the struct (typedef struct { ... } NAME;) or assign the members in statements of "
                            "their own",
                            "transmit variable '%s' of a struct defined in its own declaration has an initializer "
                            "list, which cannot be assigned to it", name);
            } else {
                char *declarator = mt_declarator(type, "");
                size_t length = strlen(declarator);
                while (length && declarator[length - 1] == ' ')
                    declarator[--length] = '\0';
                mt_buf_printf(&text, "(%s)", declarator);
                free(declarator);
            }
        }
        mt_edit_add(file, at, begin, MT_RANK_REPLACE, text.data);
        mt_buf_free(&text);
        free(name);
        at = end;
        assigned = 1;
    }
    free(vars.items);
    if (assigned)
        mt_edit_add(file, at, s->end, MT_RANK_REPLACE, ";");
    else
        mt_remove(file, s->begin, s->end);
}

typedef struct transmit_uses {
    control *c;
} transmit_uses;

static enum CXChildVisitResult rewrite_transmit_uses(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    control *c = ((transmit_uses *)data)->c;
    if (clang_getCursorKind(cursor) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor var = clang_getCursorReferenced(cursor);
    if (!is_transmit_var(c, var))
        return CXChildVisit_Recurse;
    char *name = mt_spelling(var);
    unsigned begin, end;
    if (mt_plain_range(c->file, cursor, &begin, &end)) {
        char *text = mt_printf("coop_transmit_.%s", transmit_name(c, var));
        mt_edit_add(c->file, begin, end, MT_RANK_REPLACE, text);
        free(text);
    } else {
        mt_error_at(c->merge, c->file, cursor, "use the variable directly in the kernel's text",
                    "transmit variable '%s' used inside a macro: coop-merge must rewrite every use", name);
    }
    free(name);
    return CXChildVisit_Recurse;
}

/* Whether a type is declared inside the cooperative kernel's body. */
static int local_type(const control *c, CXCursor type)
{
    int in_file = 0;
    unsigned at = mt_offset(c->file, clang_getCursorLocation(type), &in_file);
    return in_file && at > c->body->begin && at < c->body->end;
}

/* The transmit struct's members; rejects state larger than libcoop can hand to a new group. */
static char *transmit_struct(control *c)
{
    mt_buf members = {0};
    long long offset = 0;
    for (size_t i = 0; i < c->transmit_count; i++) {
        CXType type = clang_getCursorType(c->transmits[i]);
        long long size = clang_Type_getSizeOf(type), align = clang_Type_getAlignOf(type);
        if (size > 0 && align > 0)
            offset = (offset + align - 1) / align * align + size;
        char *name = mt_strdup(c->transmit_names[i]);
        CXCursor record = mt_record_of(c->transmits[i]);
        int anonymous = !clang_Cursor_isNull(record) && clang_Cursor_isAnonymous(record);
        if (!clang_Cursor_isNull(record) && !anonymous && local_type(c, record)) {
            mt_error_at(c->merge, c->file, c->transmits[i], "define the struct at program scope",
                        "transmit variable '%s' has a struct type defined inside the kernel, which the transmit "
                        "state (declared first in the kernel) cannot name", name);
        } else if (!anonymous) {
            char *declarator = mt_declarator(type, name);
            mt_buf_printf(&members, " %s;", declarator);
            free(declarator);
        } else {
            /* `transmit struct { ... } s`: the definition, then the name */
            unsigned begin, end;
            mt_extent(c->file, record, &begin, &end);
            char *definition = mt_render(c->file, begin, end);
            mt_buf_printf(&members, " %s %s", definition, name);
            for (CXType t = type; t.kind == CXType_ConstantArray; t = clang_getArrayElementType(t))
                mt_buf_printf(&members, "[%lld]", clang_getArraySize(t));
            mt_buf_add(&members, ";");
            free(definition);
        }
        free(name);
    }
    const long long limit = 4 * 64; /* COOP_TRANSMIT_WORDS words */
    if (offset > limit) {
        mt_error_at(c->merge, c->file, c->transmits[0], "keep large state in global memory and transmit an index",
                    "transmit variables take %lld bytes; libcoop hands at most %lld bytes to a forked group",
                    offset, limit);
    }
    char *text = mt_printf("struct {%s } coop_transmit_;", members.data ? members.data : "");
    mt_buf_free(&members);
    return text;
}

/* ---- Rewriting --------------------------------------------------------------------------- */

static int open_rank(const stmt *s, int inner)
{
    return 4 * s->depth + inner;
}

static int close_rank(const stmt *s, int inner)
{
    return MT_RANK_CLOSE - (4 * s->depth + inner);
}

/* "coop_skip_ == 2" or "(coop_skip_ >= 2 & coop_skip_ <= 4)" for the points of s. */
static char *point_test(const stmt *s)
{
    if (s->first_point == s->last_point)
        return mt_printf("coop_skip_ == %u", s->first_point);
    return mt_printf("(coop_skip_ >= %u & coop_skip_ <= %u)", s->first_point, s->last_point);
}

static const char *fork_arguments(const control *c)
{
    return c->transmit_count ? "&coop_transmit_, sizeof coop_transmit_" : "0, 0";
}

/* The indentation of the line where `offset` is, for text inserted before it. */
static char *indent_at(const mt_file *file, unsigned offset)
{
    unsigned line = offset;
    while (line > 0 && file->text[line - 1] != '\n')
        line--;
    unsigned end = line;
    while (end < offset && (file->text[end] == ' ' || file->text[end] == '\t'))
        end++;
    return end == offset ? mt_strndup(file->text + line, end - line) : mt_strdup("");
}

/* The text that replaces a primitive's call (up to its `;`). */
static char *primitive_text(const control *c, const stmt *s)
{
    const char *args = fork_arguments(c);
    if (c->standalone) /* kill and fork never happen */
        return mt_strdup(s->primitive == MT_PRIM_BARRIER || s->primitive == MT_PRIM_RESIZE ? "coop_global_barrier(ctx)"
                                                                                          : "");
    switch (s->primitive) {
    case MT_PRIM_BARRIER:
        return mt_strdup(s->may_resume || s->may_exit ? "coop_global_barrier_unless(ctx, coop_skip_)"
                                                      : "coop_global_barrier(ctx)");
    case MT_PRIM_KILL:
        return mt_strdup("coop_kill_at(ctx, &coop_skip_)");
    case MT_PRIM_FORK:
        return mt_printf("coop_fork_at(ctx, &coop_skip_, %u, %s)", s->point, args);
    case MT_PRIM_RESIZE:
        return mt_printf("coop_resize_at(ctx, &coop_skip_, %u, %s)", s->point, args);
    default:
        return mt_strdup("");
    }
}

/* `VAR = global_barrier_any(FLAG);` and its resizing form: the call's name and arguments change
 * around FLAG, which stays as written. */
static void rewrite_vote(control *c, const stmt *s, unsigned begin, unsigned end)
{
    mt_file *file = c->file;
    size_t name = mt_token_at(file, begin), close = mt_token_at(file, end) - 1;
    if (!mt_token_is(file, name + 1, "(") || !mt_token_is(file, close, ")")) {
        mt_error(c->merge, file, s->begin, "call it directly in the kernel's text", "%s inside a macro",
                 primitive_call(s->primitive));
        return;
    }
    char *target = s->has_target ? mt_render(file, s->target_begin, s->target_end) : mt_strdup("0");
    const char *function;
    char *before, *after;
    if (c->standalone || (s->primitive == MT_PRIM_VOTE && !s->may_resume && !s->may_exit)) {
        function = "coop_global_barrier_any";
        before = mt_strdup("");
        after = mt_strdup("");
    } else if (s->primitive == MT_PRIM_VOTE) {
        function = "coop_vote_at";
        before = mt_strdup("coop_skip_, ");
        after = mt_printf(", %s", target);
    } else {
        function = "coop_resize_vote_at";
        before = mt_printf("&coop_skip_, %u, ", s->point);
        after = mt_printf(", %s, %s", target, fork_arguments(c));
    }
    char *open = mt_printf("ctx, %s", before);
    mt_edit_add(file, file->tokens[name].begin, file->tokens[name].end, MT_RANK_REPLACE, function);
    mt_edit_add(file, file->tokens[name + 1].end, file->tokens[name + 1].end, 0, open);
    mt_edit_add(file, file->tokens[close].begin, file->tokens[close].begin, 0, after);
    free(before);
    free(open);
    free(after);
    free(target);
}

static void rewrite_primitive(control *c, const stmt *s)
{
    mt_file *file = c->file;
    unsigned begin, end;
    if (s->primitive == MT_PRIM_VOTE || s->primitive == MT_PRIM_RESIZE_VOTE) {
        if (mt_plain_range(file, s->call, &begin, &end))
            rewrite_vote(c, s, begin, end);
        else
            mt_error(c->merge, file, s->begin, "call it directly in the kernel's text", "%s inside a macro",
                     primitive_call(s->primitive));
        return;
    }
    if (!mt_plain_range(file, s->cursor, &begin, &end)) {
        mt_error(c->merge, file, s->begin, "call it directly in the kernel's text", "%s inside a macro",
                 primitive_call(s->primitive));
        return;
    }
    char *text = primitive_text(c, s);
    if (!*text && s->parent && s->parent->kind == ST_COMPOUND)
        mt_remove(file, s->begin, s->end);
    else
        mt_edit_add(file, begin, end, MT_RANK_REPLACE, text);
    free(text);
}

static void wrap(control *c, const stmt *block, const stmt *first, const stmt *last, int inner, const char *condition)
{
    wrapping w = {.begin = first->begin, .end = last->end, .depth = block->depth, .inner = inner,
                  .condition = mt_strdup(condition)};
    MT_PUSH(c->wraps, c->wrap_count, c->wrap_capacity, w);
}

/* A declaration in a block a forked group walks through: its initializer runs again there, which
 * is harmless for plain arithmetic; anything else runs only when not resuming. */
static void guard_declaration(control *c, const stmt *s)
{
    child_list vars = children_of(s->cursor);
    CXCursor init = vars.count ? clang_Cursor_getVarDeclInitializer(vars.items[0]) : clang_getNullCursor();
    if (clang_Cursor_isNull(init)) {
        free(vars.items);
        return;
    }
    effects e = effects_of(c, init);
    if (vars.count == 1 && !e.writes && !e.reads_memory) {
        free(vars.items);
        return;
    }
    CXCursor var = vars.items[0];
    CXType type = clang_getCursorType(var);
    char *name = mt_spelling(var);
    int in_file = 0;
    unsigned name_at = mt_offset(c->file, clang_getCursorLocation(var), &in_file);
    size_t name_token = mt_token_at(c->file, name_at);
    unsigned init_begin, init_end;
    mt_expression_range(c->file, init, &init_begin, &init_end);
    /* the variable's own `const` (the last one before its name with no `*` after it) goes */
    size_t const_token = 0;
    if (clang_isConstQualifiedType(type))
        for (size_t t = mt_token_at(c->file, s->begin); t < name_token; t++) {
            if (mt_token_is(c->file, t, "const"))
                const_token = t;
            else if (mt_token_is(c->file, t, "*"))
                const_token = 0;
        }
    int splittable = vars.count == 1 && in_file && (!clang_isConstQualifiedType(type) || const_token) &&
                     type.kind != CXType_ConstantArray && clang_getCursorKind(init) != CXCursor_InitListExpr &&
                     mt_token_is(c->file, name_token, name) && mt_token_is(c->file, name_token + 1, "=");
    if (splittable) {
        char *text = mt_printf("; if (!coop_skip_) %s = ", name);
        mt_edit_add(c->file, c->file->tokens[name_token].end, init_begin, MT_RANK_REPLACE, text);
        free(text);
        if (const_token) {
            unsigned end = c->file->tokens[const_token].end;
            while (end < c->file->size && c->file->text[end] == ' ')
                end++;
            mt_edit_add(c->file, c->file->tokens[const_token].begin, end, MT_RANK_REPLACE, "");
        }
    } else {
        char *hint = mt_printf("declare '%s' on its own and assign it in a separate statement", name);
        mt_error_at(c->merge, c->file, var, hint,
                    "the initializer of '%s' reads memory or has side effects, and a group that skips this part "
                    "of the kernel (forked, on its way to its fork point, or killed) passes this declaration",
                    name);
        free(hint);
    }
    free(name);
    free(vars.items);
}

/* Whether a statement is skipped by wrapping it in if (!coop_skip_) where a group may reach it
 * with coop_skip_ set (the statements that are neither primitives nor hold the fork point). */
static int wrappable(const stmt *s)
{
    if (s->transmit_decl)
        return !s->empty;
    return !resumes(s) && s->kind != ST_DECL && s->kind != ST_PRIMITIVE && s->kind != ST_LABEL && !s->empty &&
           !s->pushed;
}

/* A case label's statement (the rest of the case follows it in the switch's block). */
static void rewrite_label(control *c, const stmt *label)
{
    const stmt *child = label->count ? label->items[0] : NULL;
    if (!child || !(child->may_resume || child->may_exit))
        return;
    if (child->kind == ST_LABEL)
        rewrite_label(c, child);
    else if (wrappable(child))
        wrap(c, label, child, child, 2, "!coop_skip_");
}

/* Wraps each run of statements of a block that a group may reach with coop_skip_ set in
 * if (!coop_skip_); primitives and the statements that hold fork points are walked instead
 * (see the top of this file). Declarations stay in their block (guard_declaration). */
static void rewrite_block(control *c, const stmt *block)
{
    const stmt *run_first = NULL, *run_last = NULL;
    for (size_t i = 0; i <= block->count; i++) {
        const stmt *item = i < block->count ? block->items[i] : NULL;
        int skipped = item && (item->may_resume || item->may_exit);
        if (skipped && item->kind == ST_DECL && !item->transmit_decl && !item->empty)
            guard_declaration(c, item);
        if (skipped && item->kind == ST_LABEL)
            rewrite_label(c, item);
        if (skipped && wrappable(item)) {
            if (!run_first)
                run_first = item;
            run_last = item;
            continue;
        }
        if (item && item->empty && run_first)
            continue;
        if (run_first)
            wrap(c, block, run_first, run_last, 2, "!coop_skip_");
        run_first = run_last = NULL;
    }
}

/* The bytes of a for loop's init: an expression, or a declaration up to the header's `;`. */
static void init_range(const control *c, const stmt *s, unsigned *begin, unsigned *end)
{
    mt_expression_range(c->file, s->init, begin, end);
    if (s->init_is_decl)
        *end = s->first_semicolon;
}

/* A forked group resumes a loop whose body ends with its fork point by going on with the loop:
 * a for loop runs its increment instead of its init, a while loop just tests its condition. */
static void resume_at_loop(control *c, const stmt *s)
{
    mt_file *file = c->file;
    if (s->kind == ST_WHILE) {
        MT_PUSH(c->clears, c->clear_count, c->clear_capacity, s);
        return;
    }
    char *increment = NULL;
    if (s->has_inc) {
        unsigned begin, end;
        mt_expression_range(file, s->inc, &begin, &end);
        char *text = mt_render(file, begin, end);
        increment = mt_printf("%s, ", text);
        free(text);
    }
    char *resumed = mt_printf("coop_skip_ == %u ? (void)(%scoop_skip_ = 0) : coop_skip_ ? (void)0 : (void)",
                              s->first_point, increment ? increment : "");
    if (s->has_init) {
        unsigned begin, end;
        init_range(c, s, &begin, &end);
        char *prefix = mt_printf("%s(", resumed);
        mt_edit_add(file, begin, begin, open_rank(s, 0), prefix);
        mt_edit_add(file, end, end, close_rank(s, 0), ")");
        free(prefix);
    } else {
        char *text = mt_printf("%s0", resumed);
        mt_edit_add(file, s->first_semicolon, s->first_semicolon, open_rank(s, 0), text);
        free(text);
    }
    free(resumed);
    free(increment);
}

static void mark_no_resume(stmt *s)
{
    s->no_resume = 1;
    for (size_t i = 0; i < s->count; i++)
        mark_no_resume(s->items[i]);
}

static stmt *find_point(stmt *s)
{
    if (s->point)
        return s;
    for (size_t i = 0; i < s->count; i++)
        if (holds_points(s->items[i]))
            return find_point(s->items[i]);
    return NULL;
}

/* The usual cooperative loop ends its body with its only fork point (`...; resizing_global_barrier();`).
 * Resuming right after that point is going on with the loop, so nothing in the body needs to know
 * about resumption and the fork point's barrier stays out of any conditional (a conditional around
 * a barrier costs measurably on NVIDIA). Finds such a loop and marks it. */
static void find_tail_point(control *c)
{
    if (c->points != 1)
        return;
    stmt *child = find_point(c->body);
    for (stmt *up = child ? child->parent : NULL; up; child = up, up = up->parent) {
        if (up->kind == ST_COMPOUND) {
            size_t last = up->count;
            while (last > 0 && up->items[last - 1]->empty)
                last--;
            if (!last || up->items[last - 1] != child)
                return;
        } else if (up->kind == ST_WHILE || up->kind == ST_FOR) {
            up->resume_here = 1;
            for (size_t i = 0; i < up->count; i++)
                mark_no_resume(up->items[i]);
            return;
        } else if (up->kind != ST_IF) {
            return;
        }
    }
}

static void plan(control *c, stmt *s, int resume, int exit);

/* A statement that holds a workgroup barrier would make a conditional around it when skipped
 * whole (`if (!coop_skip_) { ... }`), and PoCL copies the code after such a conditional for each
 * way through it. Where its own control flow can skip it instead, the skip goes there: a block's
 * statements one by one, an if's condition (`!coop_skip_ && (c)`), a loop's condition (no pass);
 * a barrier statement itself just runs. */
static int pushable(const control *c, const stmt *s)
{
    if (!mt_holds_barrier(c->merge, c->file, s->cursor))
        return 0;
    switch (s->kind) {
    case ST_COMPOUND:
    case ST_IF:
        return 1;
    case ST_WHILE:
        return !s->has_cond || !effects_of(c, s->cond).writes;
    case ST_FOR: {
        if (s->has_cond && effects_of(c, s->cond).writes)
            return 0;
        if (!s->has_init || !s->init_is_decl)
            return 1;
        /* a declaration in the header runs anyway: plain arithmetic only */
        effects e = effects_of(c, s->init);
        return !e.writes && !e.reads_memory;
    }
    case ST_OTHER:
        return mt_is_group_barrier(s->cursor);
    default:
        return 0;
    }
}

/* A block's statements in order from the state at its start; see plan(). */
static void plan_block(control *c, stmt *block, int resume, int exit)
{
    /* after its last fork point a block that holds every point runs with no point to resume */
    int every_point = block->first_point == 1 && block->last_point == c->points;
    size_t last_holder = 0;
    for (size_t i = 0; i < block->count; i++)
        if (resumes(block->items[i]))
            last_holder = i;
    for (size_t i = 0; i < block->count; i++) {
        stmt *item = block->items[i];
        plan(c, item, resume, exit);
        exit |= item->exits;
        if (every_point && i == last_holder)
            resume = 0;
    }
}

/* Marks whether a group may reach each statement with coop_skip_ set to a fork point's number
 * (it walks to its point) or to COOP_SKIP_EXIT (killed, or returned), given that state at s. A
 * statement that holds no point the group walks to is skipped as a whole, so the statements in
 * it run only with coop_skip_ clear. */
static void plan(control *c, stmt *s, int resume, int exit)
{
    s->may_resume = resume;
    s->may_exit = exit;
    if ((resume || exit) && !resumes(s) && s->kind != ST_LABEL && !c->standalone && pushable(c, s)) {
        s->pushed = 1;
        if (s->kind == ST_COMPOUND) {
            plan_block(c, s, resume, exit);
        } else {
            /* a loop's body and an if's then run only unskipped; the else runs either way */
            for (size_t i = 0; i < s->count; i++)
                plan(c, s->items[i], s->kind == ST_IF && i == 1 ? resume : 0, s->kind == ST_IF && i == 1 ? exit : 0);
        }
        return;
    }
    if (s->kind == ST_LABEL) {
        if (s->count)
            plan(c, s->items[0], resume, exit);
        return;
    }
    if (!resumes(s)) {
        if (s->kind == ST_COMPOUND)
            plan_block(c, s, 0, 0);
        else
            for (size_t i = 0; i < s->count; i++)
                plan(c, s->items[i], 0, 0);
        return;
    }
    switch (s->kind) {
    case ST_COMPOUND:
        plan_block(c, s, resume, exit);
        break;
    case ST_WHILE:
    case ST_FOR:
    case ST_DO:
        /* a loop is entered for its points (a do loop always), a tail loop already resumed */
        for (size_t i = 0; i < s->count; i++)
            plan(c, s->items[i], s->resume_here ? 0 : resume, s->kind == ST_DO ? exit : 0);
        break;
    case ST_IF:
        /* the branch that holds the point; without one, the else branch (under if (!coop_skip_)
         * unless it holds points) */
        for (size_t i = 0; i < s->count; i++) {
            int walked = resumes(s->items[i]);
            plan(c, s->items[i], walked ? resume : 0, walked && i == 1 ? exit : 0);
        }
        break;
    default:
        for (size_t i = 0; i < s->count; i++)
            plan(c, s->items[i], resume, exit);
        break;
    }
}

/* `for (uint i = 0; ...)` around a fork point: i is transmitted (mt_is_implicit_transmit), so
 * the header assigns coop_transmit_.i instead of declaring it. */
static void rewrite_transmit_init(control *c, const stmt *s)
{
    mt_file *file = c->file;
    child_list vars = children_of(s->init);
    for (size_t i = 0; i < vars.count; i++) {
        if (!is_transmit_var(c, vars.items[i]))
            continue;
        int in_file = 0;
        unsigned name_at = mt_offset(file, clang_getCursorLocation(vars.items[i]), &in_file);
        size_t name = mt_token_at(file, name_at);
        if (!in_file || name >= file->token_count || file->tokens[name].begin != name_at) {
            mt_error_at(c->merge, file, vars.items[i], "write the loop's header without macros",
                        "cannot find the name of the loop's variable");
            break;
        }
        if (i == 0) { /* the type goes */
            unsigned begin, end;
            mt_extent(file, s->init, &begin, &end);
            mt_edit_add(file, begin, name_at, MT_RANK_REPLACE, "");
        }
        char *member = mt_printf("coop_transmit_.%s", transmit_name(c, vars.items[i]));
        mt_edit_add(file, name_at, file->tokens[name].end, MT_RANK_REPLACE, member);
        free(member);
    }
    free(vars.items);
}

static void rewrite_loop(control *c, const stmt *s)
{
    mt_file *file = c->file;
    int walks_in = resumes(s) && !s->resume_here;
    /* a loop that holds an exit, or that a killed group reaches (a tail loop is not wrapped),
     * stops once coop_skip_ is set */
    int stops = !walks_in && (s->exits || (s->may_exit && resumes(s)) || s->pushed);
    if (s->kind == ST_FOR && s->has_init && s->init_is_decl && decl_declares_transmit(c, s->init))
        rewrite_transmit_init(c, s);
    if (s->resume_here)
        resume_at_loop(c, s);
    if (!walks_in && !stops)
        return;
    unsigned cond_begin, cond_end;
    if (s->has_cond) {
        mt_expression_range(file, s->cond, &cond_begin, &cond_end);
    } else {
        cond_begin = cond_end = s->second_semicolon;
    }
    /* a condition with side effects must not run once the group stops: && then */
    int short_circuit = stops && s->has_cond && effects_of(c, s->cond).writes;
    mt_buf prefix = {0}, suffix = {0};
    mt_buf_add(&suffix, "");
    if (walks_in && s->kind == ST_DO) {
        mt_buf_add(&prefix, "(!coop_skip_ & ");
    } else if (walks_in) {
        char *test = point_test(s);
        int single = s->first_point == s->last_point;
        mt_buf_printf(&prefix, "(%s%s%s | (!coop_skip_ & ", single ? "(" : "", test, single ? ")" : "");
        free(test);
    } else if (short_circuit) {
        mt_buf_add(&prefix, "!coop_skip_ && ");
    }
    int boolean = s->has_cond && is_boolean(c, s->cond);
    mt_buf_add(&prefix, !s->has_cond ? "1" : boolean ? "(" : "!!(");
    mt_buf_add(&suffix, s->has_cond ? ")" : "");
    if (walks_in)
        mt_buf_add(&suffix, s->kind == ST_DO ? ")" : "))");
    else if (!short_circuit)
        mt_buf_add(&suffix, " & !coop_skip_");
    if (s->has_cond) {
        mt_edit_add(file, cond_begin, cond_begin, open_rank(s, 0), prefix.data);
        mt_edit_add(file, cond_end, cond_end, close_rank(s, 0), suffix.data);
    } else {
        /* for (init;; inc): the condition goes between the two `;` */
        mt_buf whole = {0};
        int spaced = cond_begin > 0 && file->text[cond_begin - 1] == ';';
        mt_buf_printf(&whole, "%s%s%s", spaced ? " " : "", prefix.data, suffix.data);
        mt_edit_add(file, cond_begin, cond_begin, open_rank(s, 0), whole.data);
        mt_buf_free(&whole);
    }
    mt_buf_free(&prefix);
    mt_buf_free(&suffix);
    if (s->kind == ST_FOR && s->has_init && (walks_in || (s->pushed && !s->init_is_decl))) {
        unsigned begin, end;
        init_range(c, s, &begin, &end);
        mt_edit_add(file, begin, begin, open_rank(s, 0), "coop_skip_ ? (void)0 : (void)(");
        mt_edit_add(file, end, end, close_rank(s, 0), ")");
    }
}

static void rewrite_if(control *c, const stmt *s)
{
    mt_file *file = c->file;
    if (s->pushed && s->has_cond) {
        unsigned begin, end;
        mt_expression_range(file, s->cond, &begin, &end);
        mt_edit_add(file, begin, begin, open_rank(s, 0), "!coop_skip_ && (");
        mt_edit_add(file, end, end, close_rank(s, 0), ")");
        if (s->has_else && s->count > 1 && !s->items[1]->pushed)
            mt_edit_add(file, s->items[1]->begin, s->items[1]->begin, open_rank(s, 0), "if (!coop_skip_) ");
        return;
    }
    if (!resumes(s) || !s->has_cond)
        return;
    unsigned begin, end;
    mt_expression_range(file, s->cond, &begin, &end);
    const stmt *then = s->count > 0 ? s->items[0] : NULL;
    char *test = then && resumes(then) ? point_test(then) : mt_strdup("0");
    char *prefix = mt_printf("coop_skip_ ? %s : (", test);
    mt_edit_add(file, begin, begin, open_rank(s, 0), prefix);
    mt_edit_add(file, end, end, close_rank(s, 0), ")");
    free(prefix);
    free(test);
    if (s->has_else && s->count > 1 && !resumes(s->items[1]))
        mt_edit_add(file, s->items[1]->begin, s->items[1]->begin, open_rank(s, 0), "if (!coop_skip_) ");
}

static void rewrite_tree(control *c, const stmt *s)
{
    switch (s->kind) {
    case ST_PRIMITIVE:
        rewrite_primitive(c, s);
        break;
    case ST_RETURN:
        if (!c->standalone)
            mt_edit_add(c->file, s->begin, s->end, MT_RANK_REPLACE, "coop_skip_ = COOP_SKIP_EXIT;");
        break;
    case ST_DECL:
        if (s->transmit_decl && !c->standalone)
            rewrite_transmit_decl(c, s);
        break;
    default:
        break;
    }
    if (!c->standalone) {
        if (s->kind == ST_COMPOUND)
            rewrite_block(c, s);
        else if (s->kind == ST_WHILE || s->kind == ST_DO || s->kind == ST_FOR)
            rewrite_loop(c, s);
        else if (s->kind == ST_IF)
            rewrite_if(c, s);
    }
    for (size_t i = 0; i < s->count; i++)
        rewrite_tree(c, s->items[i]);
}

/* Standalone: `transmit` goes, the variables stay ordinary ones. */
static enum CXChildVisitResult remove_transmit_words(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    control *c = data;
    if (clang_getCursorKind(cursor) != CXCursor_AnnotateAttr)
        return CXChildVisit_Recurse;
    unsigned begin, end;
    mt_extent(c->file, cursor, &begin, &end);
    size_t token = mt_token_at(c->file, begin);
    if (!mt_token_is(c->file, token, "transmit") || c->file->tokens[token].end != end) {
        mt_error_at(c->merge, c->file, cursor, "write 'transmit' directly in the declaration",
                    "'transmit' inside a macro");
        return CXChildVisit_Continue;
    }
    while (end < c->file->size && c->file->text[end] == ' ')
        end++;
    mt_edit_add(c->file, begin, end, MT_RANK_REPLACE, "");
    return CXChildVisit_Continue;
}

/* ---- Emitting the wraps and fork statements ---------------------------------------------- */

static int encloses(const wrapping *outer, const wrapping *inner)
{
    if (outer == inner || outer->begin > inner->begin || outer->end < inner->end)
        return 0;
    if (outer->begin == inner->begin && outer->end == inner->end)
        return outer->depth < inner->depth || (outer->depth == inner->depth && outer->inner < inner->inner);
    return 1;
}

static unsigned line_start(const mt_file *file, unsigned offset)
{
    while (offset > 0 && file->text[offset - 1] != '\n')
        offset--;
    return offset;
}

static unsigned line_end(const mt_file *file, unsigned offset)
{
    while (offset < file->size && file->text[offset] != '\n')
        offset++;
    return offset;
}

/* A wrap goes on lines of its own when its statements start a line and nothing but a comment
 * follows them on their last line. */
static int on_own_lines(const mt_file *file, const wrapping *w)
{
    for (unsigned at = line_start(file, w->begin); at < w->begin; at++)
        if (file->text[at] != ' ' && file->text[at] != '\t')
            return 0;
    size_t next = mt_token_at(file, w->end);
    return next >= file->token_count || file->tokens[next].begin > line_end(file, w->end);
}

static int blank_line(const mt_file *file, unsigned start)
{
    for (unsigned at = start; at < file->size && file->text[at] != '\n'; at++)
        if (file->text[at] != ' ' && file->text[at] != '\t' && file->text[at] != '\r')
            return 0;
    return 1;
}

/* Whether a line start lies in text that a replacement removes or rewrites. */
static int replaced(const mt_file *file, unsigned offset)
{
    for (size_t i = 0; i < file->edit_count; i++) {
        const mt_edit *e = &file->edits[i];
        if (e->begin < e->end && e->begin <= offset && offset < e->end && (e->begin < offset || !e->text[0]))
            return 1;
    }
    return 0;
}

static char *padded(const char *indent, unsigned levels)
{
    mt_buf text = {0};
    mt_buf_add(&text, indent);
    for (unsigned i = 0; i < levels; i++)
        mt_buf_add(&text, "    ");
    return text.data;
}

static void emit_wraps(control *c)
{
    mt_file *file = c->file;
    int *own_lines = mt_alloc((c->wrap_count ? c->wrap_count : 1) * sizeof *own_lines);
    for (size_t i = 0; i < c->wrap_count; i++)
        own_lines[i] = on_own_lines(file, &c->wraps[i]);
    for (size_t i = 0; i < c->wrap_count; i++) {
        const wrapping *w = &c->wraps[i];
        unsigned enclosing = 0;
        for (size_t j = 0; j < c->wrap_count; j++)
            enclosing += own_lines[j] && encloses(&c->wraps[j], w);
        int nesting = (int)enclosing;
        for (size_t j = 0; j < c->wrap_count; j++)
            nesting += !own_lines[j] && encloses(&c->wraps[j], w);
        if (!own_lines[i]) {
            char *open = mt_printf("if (%s) { ", w->condition);
            mt_edit_add(file, w->begin, w->begin, nesting, open);
            mt_edit_add(file, w->end, w->end, MT_RANK_CLOSE - nesting, " }");
            free(open);
            continue;
        }
        char *original = indent_at(file, w->begin);
        char *indent = padded(original, enclosing);
        unsigned first = line_start(file, w->begin), last = line_end(file, w->end);
        char *open = mt_printf("%sif (%s) {\n", indent, w->condition);
        char *close = mt_printf("\n%s}", indent);
        mt_edit_add(file, first, first, nesting, open);
        mt_edit_add(file, last, last, MT_RANK_CLOSE - nesting, close);
        for (unsigned line = first; line < last; line = line_end(file, line) + 1)
            if (!blank_line(file, line) && !replaced(file, line))
                mt_edit_add(file, line, line, MT_RANK_REPLACE - 1, "    ");
        free(close);
        free(open);
        free(indent);
        free(original);
    }
    free(own_lines);
}

/* `coop_skip_ = 0;` in front of each while loop that a forked group resumes at. */
static void emit_clears(control *c)
{
    mt_file *file = c->file;
    for (size_t i = 0; i < c->clear_count; i++) {
        const stmt *s = c->clears[i];
        /* a killed group reaches it too, unless no exit comes before */
        char *clear = s->may_exit ? mt_printf("if (coop_skip_ == %u) coop_skip_ = 0;", s->first_point)
                                  : mt_strdup("coop_skip_ = 0;");
        if (s->parent && s->parent->kind != ST_COMPOUND) {
            char *open = mt_printf("{ %s ", clear);
            mt_edit_add(file, s->begin, s->begin, 1000, open);
            mt_edit_add(file, s->end, s->end, MT_RANK_CLOSE - 1000, " }");
            free(open);
            free(clear);
            continue;
        }
        char *original = indent_at(file, s->begin);
        unsigned enclosing = 0;
        wrapping site = {.begin = s->begin, .end = s->end, .depth = 1 << 20};
        for (size_t j = 0; j < c->wrap_count; j++)
            enclosing += on_own_lines(file, &c->wraps[j]) && encloses(&c->wraps[j], &site);
        char *indent = padded(original, enclosing);
        char *text = *original ? mt_printf("%s\n%s", clear, indent) : mt_printf("%s ", clear);
        mt_edit_add(file, s->begin, s->begin, 1000, text);
        free(text);
        free(clear);
        free(indent);
        free(original);
    }
}

static void add_prologue(control *c)
{
    if (c->standalone || (!c->transmit_count && !c->points && !c->exits))
        return;
    const stmt *body = c->body;
    char *indent = body->count ? indent_at(c->file, body->items[0]->begin) : mt_strdup("    ");
    if (!*indent) {
        free(indent);
        indent = mt_strdup("    ");
    }
    mt_buf text = {0};
    mt_buf_add(&text, "\n");
    if (c->transmit_count) {
        char *members = transmit_struct(c);
        mt_buf_printf(&text, "%s%s\n", indent, members);
        free(members);
    }
    if (c->points) {
        mt_buf_printf(&text, "%suint coop_skip_ = coop_resume_point(ctx);\n", indent);
        if (c->transmit_count)
            mt_buf_printf(&text, "%sif (coop_skip_)\n%s    coop_transmit_restore(ctx, &coop_transmit_, "
                                 "sizeof coop_transmit_);\n", indent, indent);
    } else if (c->exits) {
        mt_buf_printf(&text, "%suint coop_skip_ = 0;\n", indent);
    }
    /* after the body's `{`, keeping what followed it */
    if (text.length && text.data[text.length - 1] == '\n')
        text.data[--text.length] = '\0';
    mt_edit_add(c->file, body->begin + 1, body->begin + 1, -1, text.data);
    mt_buf_free(&text);
    free(indent);
}

void mt_rewrite_cooperative(mt_merge *merge)
{
    mt_func *func = &merge->funcs[merge->coop];
    control c = {.merge = merge, .func = func, .file = func->file, .standalone = merge->options.standalone};
    CXCursor body;
    if (!mt_function_body(func->def, &body))
        return;
    c.body = build(&c, body, NULL);
    clang_visitChildren(c.body->cursor, collect_transmits, &c);
    call_check calls = {.c = &c};
    clang_visitChildren(c.body->cursor, check_statement_calls, &calls);
    if (c.has_goto && c.points && !c.standalone)
        mt_error_at(merge, c.file, func->def, "use structured control flow (loops, if, break, continue)",
                    "goto or label in a cooperative kernel with fork points: coop-merge cannot resume through "
                    "them");
    mark_declarations(&c, c.body);
    if (!c.standalone) {
        check_tree(&c, c.body);
        find_tail_point(&c);
        plan(&c, c.body, c.points != 0, 0);
    }
    if (!merge->errors) {
        if (c.standalone) {
            clang_visitChildren(c.body->cursor, remove_transmit_words, &c);
        } else {
            transmit_uses uses = {.c = &c};
            clang_visitChildren(c.body->cursor, rewrite_transmit_uses, &uses);
        }
        rewrite_tree(&c, c.body);
        emit_clears(&c);
        emit_wraps(&c);
        add_prologue(&c);
    }
    free_tree(c.body);
    for (size_t i = 0; i < c.wrap_count; i++)
        free(c.wraps[i].condition);
    free(c.wraps);
    free(c.clears);
    for (size_t i = 0; i < c.transmit_count; i++)
        free(c.transmit_names[i]);
    free(c.transmit_names);
    free(c.transmits);
    free(c.statement_calls);
}
