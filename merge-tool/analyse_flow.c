/* analyse_flow.c: data flow over the cooperative kernel's statements, finding what the language
 * leaves to the author (the rules in merge-tool/README.md, "The language"): validation warns
 * about each finding (mt_finding), and -Werror makes the warnings errors.
 *
 * - The number of groups (get_num_groups, get_global_size, and get_global_id, which spreads work
 *   over them) changes at an offer_kill() or offer_fork() of any group. A group that reads it
 *   after an offer and before the next global barrier, or after a global barrier and before an
 *   offer, may see another value than a group that has already passed the offer: work distributed
 *   by it is lost or done twice. (A resizing barrier changes it only at the barrier itself.)
 * - A forked group receives the transmit variables only: a variable a forked group reads after
 *   its fork point before assigning it has no value there, unless the declarations it walks past
 *   give it one again (a declaration whose initializer is plain arithmetic, and nothing else
 *   assigns the variable). */
#include "analyse.h"

#include <stdlib.h>
#include <string.h>

typedef struct lint lint;

/* ---- The statements ---------------------------------------------------------------------- */

/* The primitive a statement is (`offer_kill();`, `x = global_barrier_any(f);`,
 * `int x = global_barrier_any(f);`...), or none. */
static enum mt_primitive statement_primitive(CXCursor statement)
{
    enum mt_primitive primitive = mt_primitive_of(statement);
    enum CXCursorKind kind = clang_getCursorKind(statement);
    if (primitive || (kind != CXCursor_BinaryOperator && kind != CXCursor_DeclStmt))
        return primitive;
    mt_children list = mt_children_of(statement);
    if (kind == CXCursor_BinaryOperator && list.count == 2)
        primitive = mt_primitive_of(mt_unwrap_call(list.items[1]));
    if (kind == CXCursor_DeclStmt && list.count == 1) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(list.items[0]);
        if (!clang_Cursor_isNull(init))
            primitive = mt_primitive_of(mt_unwrap_call(init));
    }
    free(list.items);
    return primitive == MT_PRIM_VOTE || primitive == MT_PRIM_RESIZE_VOTE ? primitive : MT_PRIM_NONE;
}

static int is_fork_point(enum mt_primitive p)
{
    return p == MT_PRIM_FORK || p == MT_PRIM_RESIZE || p == MT_PRIM_RESIZE_VOTE;
}

static int is_barrier(enum mt_primitive p)
{
    return p == MT_PRIM_BARRIER || p == MT_PRIM_RESIZE || p == MT_PRIM_VOTE || p == MT_PRIM_RESIZE_VOTE;
}

/* A for statement's parts, told apart by where its header's `;`s are. */
typedef struct for_parts {
    CXCursor init, cond, inc, body; /* null when absent */
} for_parts;

static for_parts for_parts_of(const mt_file *file, CXCursor statement)
{
    for_parts parts = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
    unsigned begin, end;
    mt_extent(file, statement, &begin, &end);
    unsigned semicolons[2] = {0, 0}, close = end;
    int depth = 0, found = 0;
    for (size_t t = mt_token_at(file, begin) + 1; t < file->token_count && file->tokens[t].begin < end; t++) {
        const char *text = file->tokens[t].spelling;
        depth += !strcmp(text, "(") || !strcmp(text, "[") || !strcmp(text, "{");
        depth -= !strcmp(text, ")") || !strcmp(text, "]") || !strcmp(text, "}");
        if (!strcmp(text, ";") && depth == 1 && found < 2)
            semicolons[found++] = file->tokens[t].begin;
        if (depth == 0) {
            close = file->tokens[t].begin;
            break;
        }
    }
    mt_children list = mt_children_of(statement);
    for (size_t i = 0; i < list.count; i++) {
        unsigned b, e;
        mt_extent(file, list.items[i], &b, &e);
        if (found == 2 && b < semicolons[0])
            parts.init = list.items[i];
        else if (found == 2 && b > semicolons[0] && b < semicolons[1])
            parts.cond = list.items[i];
        else if (found == 2 && b > semicolons[1] && b < close)
            parts.inc = list.items[i];
        else
            parts.body = list.items[i];
    }
    free(list.items);
    return parts;
}

/* ---- The analyses ------------------------------------------------------------------------- */

/* The data-flow state: for the number of groups, whether an offer lies (forward: behind; backward:
 * ahead) with no global barrier between, and which; for transmission, the variables that are
 * live (read before they are assigned on some path ahead). */
typedef struct state {
    int offer;
    CXCursor where;
    unsigned char *live;
} state;

/* A loop's last fixed point in one direction: the state it was entered with, and its head's. */
typedef struct loop_memo {
    CXCursor loop;
    int backward, seen;
    state in, head;
} loop_memo;

struct lint {
    mt_merge *merge;
    mt_func *func;
    mt_file *file;
    unsigned char *reads_groups;  /* per function: it (or what it calls) reads the number of groups */
    unsigned *found;              /* offsets of the read calls found already */
    size_t found_count, found_capacity;
    CXCursor *vars;               /* the kernel's own variables a forked group does not receive */
    unsigned char *rebuilt;       /* per variable: a walking group's declaration gives it its value again */
    size_t var_count, var_capacity;
    CXCursor *points;             /* fork points, and the variables live after each (the union over passes) */
    unsigned char **live_after;
    size_t point_count, point_capacity;
    loop_memo *memos;
    size_t memo_count, memo_capacity;
};

static state state_new(const lint *l)
{
    state s = {.offer = 0, .where = clang_getNullCursor(), .live = mt_alloc(l->var_count + 1)};
    return s;
}

static state state_copy(const lint *l, const state *from)
{
    state s = *from;
    s.live = mt_alloc(l->var_count + 1);
    memcpy(s.live, from->live, l->var_count);
    return s;
}

/* into |= other; returns whether it changed */
static int state_join(const lint *l, state *into, const state *other)
{
    int changed = 0;
    if (other->offer && !into->offer) {
        into->offer = 1;
        into->where = other->where;
        changed = 1;
    }
    for (size_t v = 0; v < l->var_count; v++)
        if (other->live[v] && !into->live[v])
            changed = into->live[v] = 1;
    return changed;
}

static void state_free(state *s)
{
    free(s->live);
    s->live = NULL;
}

/* Whether a's offer and live variables are among b's. */
static int state_bits_leq(const lint *l, const state *a, const state *b)
{
    if (a->offer && !b->offer)
        return 0;
    for (size_t v = 0; v < l->var_count; v++)
        if (a->live[v] && !b->live[v])
            return 0;
    return 1;
}

static loop_memo *memo_of(lint *l, CXCursor loop, int backward)
{
    for (size_t i = 0; i < l->memo_count; i++)
        if (l->memos[i].backward == backward && mt_same(l->memos[i].loop, loop))
            return &l->memos[i];
    loop_memo memo = {.loop = loop, .backward = backward};
    MT_PUSH(l->memos, l->memo_count, l->memo_capacity, memo);
    return &l->memos[l->memo_count - 1];
}

static int var_index(const lint *l, CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl)
        return -1;
    for (size_t v = 0; v < l->var_count; v++)
        if (clang_equalLocations(clang_getCursorLocation(l->vars[v]), clang_getCursorLocation(var)))
            return (int)v;
    return -1;
}

/* ---- Reads of the number of groups ---- */

typedef struct group_read_walk {
    lint *l;
    const state *s;
    int backward;
} group_read_walk;

/* Whether an id call reads M (directly, or through the global size or a global id). */
static int reads_m(enum mt_id_call id)
{
    return id == MT_ID_NUM_GROUPS || id == MT_ID_SHARED_NUM_GROUPS || id == MT_ID_GLOBAL_SIZE ||
           id == MT_ID_GLOBAL_ID;
}

static int reads_groups(lint *l, CXCursor call, const char **what, const mt_func **reader)
{
    enum mt_id_call id = mt_id_call_of(call);
    if (reads_m(id)) {
        *what = id == MT_ID_NUM_GROUPS          ? "get_num_groups()"
                : id == MT_ID_SHARED_NUM_GROUPS ? "shared_num_groups()"
                : id == MT_ID_GLOBAL_SIZE       ? "get_global_size()"
                                                : "get_global_id()";
        return 1;
    }
    mt_func *callee = mt_callee(l->merge, l->file, call);
    if (callee && l->reads_groups[callee - l->merge->funcs]) {
        *reader = callee;
        return 1;
    }
    return 0;
}

/* One finding per read call (a loop's passes meet it again). */
static void find_group_read(lint *l, CXCursor call, const state *s, int backward)
{
    int in_file = 0;
    unsigned at = mt_offset(l->file, clang_getCursorLocation(call), &in_file);
    for (size_t i = 0; i < l->found_count; i++)
        if (l->found[i] == at)
            return;
    MT_PUSH(l->found, l->found_count, l->found_capacity, at);
    mt_finding finding = {.kind = MT_FINDING_GROUP_READ, .at = call, .offer = s->where, .backward = backward,
                          .coop = &l->merge->funcs[l->merge->coop]};
    reads_groups(l, call, &finding.read, &finding.callee);
    mt_merge *merge = l->merge;
    MT_PUSH(merge->findings, merge->finding_count, merge->finding_capacity, finding);
}

static enum CXChildVisitResult find_group_reads(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    group_read_walk *walk = data;
    if (clang_getCursorKind(cursor) == CXCursor_CallExpr) {
        const char *what = NULL;
        const mt_func *callee = NULL;
        if (reads_groups(walk->l, cursor, &what, &callee) && walk->s->offer)
            find_group_read(walk->l, cursor, walk->s, walk->backward);
    }
    return CXChildVisit_Recurse;
}

static void check_group_reads(lint *l, CXCursor expression, const state *s, int backward)
{
    group_read_walk walk = {.l = l, .s = s, .backward = backward};
    find_group_reads(expression, clang_getNullCursor(), &walk);
    clang_visitChildren(expression, find_group_reads, &walk);
}

/* ---- Variables read and assigned ---- */

typedef struct access_walk {
    lint *l;
    unsigned char *uses, *defs;
} access_walk;

/* A DeclRefExpr is a definition only as the whole left side of a plain `=`; anything else that
 * names the variable (a member, an element, its address, ++, +=) reads it. */
static enum CXChildVisitResult find_accesses(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    access_walk *walk = data;
    lint *l = walk->l;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_BinaryOperator) {
        mt_children list = mt_children_of(cursor);
        unsigned lhs_begin, lhs_end;
        int assigns = 0;
        if (list.count == 2) {
            mt_extent(l->file, list.items[0], &lhs_begin, &lhs_end);
            assigns = mt_token_is(l->file, mt_token_at(l->file, lhs_end), "=");
        }
        int v = assigns && clang_getCursorKind(list.items[0]) == CXCursor_DeclRefExpr
                    ? var_index(l, clang_getCursorReferenced(list.items[0]))
                    : -1;
        if (v >= 0) {
            /* the right side is read first */
            clang_visitChildren(list.items[1], find_accesses, walk);
            find_accesses(list.items[1], cursor, walk);
            walk->defs[v] = 1;
            free(list.items);
            return CXChildVisit_Continue;
        }
        free(list.items);
    } else if (kind == CXCursor_DeclRefExpr) {
        int v = var_index(l, clang_getCursorReferenced(cursor));
        if (v >= 0 && !walk->defs[v])
            walk->uses[v] = 1;
    } else if (kind == CXCursor_VarDecl) {
        int v = var_index(l, cursor);
        clang_visitChildren(cursor, find_accesses, walk);
        if (v >= 0)
            walk->defs[v] = 1; /* declared (and maybe initialized) here: nothing flows past it */
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

/* live_in = uses + (live_out - defs), for an expression or a simple statement. */
static void transfer_live(lint *l, CXCursor expression, unsigned char *live)
{
    if (!l->var_count)
        return;
    unsigned char *uses = mt_alloc(l->var_count), *defs = mt_alloc(l->var_count);
    access_walk walk = {.l = l, .uses = uses, .defs = defs};
    if (find_accesses(expression, clang_getNullCursor(), &walk) == CXChildVisit_Recurse)
        clang_visitChildren(expression, find_accesses, &walk);
    for (size_t v = 0; v < l->var_count; v++)
        live[v] = uses[v] || (live[v] && !defs[v]);
    free(uses);
    free(defs);
}

/* ---- One statement, either way ---- */

static void flow(lint *l, CXCursor statement, state *s, int backward);

static void flow_expression(lint *l, CXCursor expression, state *s, int backward)
{
    if (clang_Cursor_isNull(expression))
        return;
    check_group_reads(l, expression, s, backward);
    if (backward)
        transfer_live(l, expression, s->live);
}

static void record_point(lint *l, CXCursor point, const state *s)
{
    for (size_t i = 0; i < l->point_count; i++)
        if (clang_equalLocations(clang_getCursorLocation(l->points[i]), clang_getCursorLocation(point))) {
            for (size_t v = 0; v < l->var_count; v++)
                l->live_after[i][v] |= s->live[v];
            return;
        }
    unsigned char *live = mt_alloc(l->var_count + 1);
    memcpy(live, s->live, l->var_count);
    MT_PUSH(l->points, l->point_count, l->point_capacity, point);
    size_t capacity = l->point_capacity;
    l->live_after = mt_grow(l->live_after, capacity * sizeof *l->live_after);
    l->live_after[l->point_count - 1] = live;
}

/* A simple statement: its reads, then (a primitive) its event. Backward, the other way round. */
static void flow_simple(lint *l, CXCursor statement, state *s, int backward)
{
    enum mt_primitive primitive = statement_primitive(statement);
    if (!primitive) {
        flow_expression(l, statement, s, backward);
        return;
    }
    if (!backward)
        check_group_reads(l, statement, s, 0);
    if (backward && is_fork_point(primitive))
        record_point(l, statement, s);
    /* a resizing barrier kills and forks too, but decides at the barrier itself */
    if (is_barrier(primitive)) {
        s->offer = 0;
    } else if (primitive == MT_PRIM_KILL || primitive == MT_PRIM_FORK) {
        s->offer = 1;
        s->where = statement;
    }
    if (backward) {
        check_group_reads(l, statement, s, 1);
        transfer_live(l, statement, s->live);
    }
}

/* A loop: `head` runs before every pass (the condition, and a for loop's increment after it),
 * `body` in every pass; `body_first` when the body comes before the head. The state at its head
 * is the least fixed point of head = in | pass(head), reached by passes that each join their end
 * into the head. A loop keeps the fixed point it reached last (memo_of): entered again with the
 * same state, as a loop nested in another is at each of the outer loop's passes, it is not
 * walked again; entered with more, its passes start from that point, which lies below the new
 * one. So a body is walked a number of times bounded by the state's height, not by the product
 * of the enclosing loops' passes (exponential in the depth of the nest). */
static void flow_loop(lint *l, CXCursor loop, CXCursor cond, CXCursor inc, CXCursor body, int body_first, state *s,
                      int backward)
{
    loop_memo *memo = memo_of(l, loop, backward);
    if (memo->seen && state_bits_leq(l, s, &memo->in) && state_bits_leq(l, &memo->in, s)) {
        state_join(l, s, &memo->head);
        return;
    }
    state head = state_copy(l, s);
    if (memo->seen && state_bits_leq(l, &memo->in, s))
        state_join(l, &head, &memo->head);
    for (int changed = 1; changed;) {
        state at = state_copy(l, &head);
        if (!backward) {
            if (!body_first)
                flow_expression(l, cond, &at, 0);
            flow(l, body, &at, 0);
            flow_expression(l, inc, &at, 0);
            if (body_first)
                flow_expression(l, cond, &at, 0);
        } else {
            /* from the loop's end: the next pass's head, then the body */
            if (body_first)
                flow_expression(l, cond, &at, 1);
            flow_expression(l, inc, &at, 1);
            flow(l, body, &at, 1);
            if (!body_first)
                flow_expression(l, cond, &at, 1);
        }
        changed = state_join(l, &head, &at);
        state_free(&at);
    }
    /* leaving: forward through the condition once more; backward the head joins the exit */
    if (!backward)
        flow_expression(l, cond, &head, 0);
    memo = memo_of(l, loop, backward); /* the passes' inner loops may have moved it */
    state_free(&memo->in);
    state_free(&memo->head);
    memo->seen = 1;
    memo->in = state_copy(l, s);
    memo->head = state_copy(l, &head);
    state_join(l, s, &head);
    state_free(&head);
}

static void flow(lint *l, CXCursor statement, state *s, int backward)
{
    if (clang_Cursor_isNull(statement))
        return;
    mt_children list = mt_children_of(statement);
    switch (clang_getCursorKind(statement)) {
    case CXCursor_CompoundStmt:
        for (size_t i = 0; i < list.count; i++)
            flow(l, list.items[backward ? list.count - 1 - i : i], s, backward);
        break;
    case CXCursor_IfStmt: {
        if (list.count < 2)
            break;
        if (!backward)
            flow_expression(l, list.items[0], s, 0);
        state other = state_copy(l, s);
        flow(l, list.items[1], s, backward);
        if (list.count > 2)
            flow(l, list.items[2], &other, backward);
        state_join(l, s, &other);
        state_free(&other);
        if (backward)
            flow_expression(l, list.items[0], s, 1);
        break;
    }
    case CXCursor_WhileStmt:
        if (list.count >= 2)
            flow_loop(l, statement, list.items[0], clang_getNullCursor(), list.items[list.count - 1], 0, s,
                      backward);
        break;
    case CXCursor_DoStmt:
        if (list.count >= 2)
            flow_loop(l, statement, list.items[1], clang_getNullCursor(), list.items[0], 1, s, backward);
        break;
    case CXCursor_ForStmt: {
        for_parts parts = for_parts_of(l->file, statement);
        if (!backward)
            flow_expression(l, parts.init, s, 0);
        flow_loop(l, statement, parts.cond, parts.inc, parts.body, 0, s, backward);
        if (backward)
            flow_expression(l, parts.init, s, 1);
        break;
    }
    case CXCursor_SwitchStmt: {
        if (list.count < 2)
            break;
        if (!backward)
            flow_expression(l, list.items[0], s, 0);
        state skipped = state_copy(l, s);
        flow(l, list.items[list.count - 1], s, backward);
        state_join(l, s, &skipped);
        state_free(&skipped);
        if (backward)
            flow_expression(l, list.items[0], s, 1);
        break;
    }
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
    case CXCursor_LabelStmt:
        if (list.count)
            flow(l, list.items[list.count - 1], s, backward);
        break;
    default:
        flow_simple(l, statement, s, backward);
        break;
    }
    free(list.items);
}

/* ---- Setting up ---------------------------------------------------------------------------- */

typedef struct setup_walk {
    lint *l;
    mt_func *func;
    int found;
} setup_walk;

static enum CXChildVisitResult find_own_group_reads(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    setup_walk *walk = data;
    if (reads_m(mt_id_call_of(cursor))) {
        walk->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Which helpers read the number of groups, themselves or through the functions they call. */
static void find_group_readers(lint *l)
{
    mt_merge *merge = l->merge;
    l->reads_groups = mt_alloc(merge->func_count + 1);
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        CXCursor body;
        if (func->is_kernel || !func->in_user_file || !mt_function_body(func->def, &body))
            continue;
        setup_walk walk = {.l = l, .func = func};
        clang_visitChildren(body, find_own_group_reads, &walk);
        l->reads_groups[i] = (unsigned char)walk.found;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < merge->func_count; i++)
            for (size_t c = 0; c < merge->funcs[i].call_count && !merge->funcs[i].is_kernel; c++)
                if (l->reads_groups[merge->funcs[i].calls[c].callee] && !l->reads_groups[i])
                    changed = l->reads_groups[i] = 1;
    }
}

typedef struct effect_walk {
    lint *l;
    int pure;
} effect_walk;

/* Plain arithmetic: no memory read through a pointer, element or member, no call but built-ins. */
static enum CXChildVisitResult find_impure(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    effect_walk *walk = data;
    switch (clang_getCursorKind(cursor)) {
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr:
        walk->pure = 0;
        return CXChildVisit_Break;
    case CXCursor_UnaryOperator: {
        unsigned begin, end;
        mt_extent(walk->l->file, cursor, &begin, &end);
        size_t t = mt_token_at(walk->l->file, begin);
        if (mt_token_is(walk->l->file, t, "*") || mt_token_is(walk->l->file, t, "++") ||
            mt_token_is(walk->l->file, t, "--")) {
            walk->pure = 0;
            return CXChildVisit_Break;
        }
        break;
    }
    case CXCursor_CallExpr: {
        CXCursor callee = clang_getCursorReferenced(cursor);
        if (!mt_is_builtin(callee) || mt_in_prelude(callee)) {
            walk->pure = 0;
            return CXChildVisit_Break;
        }
        break;
    }
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

typedef struct var_walk {
    lint *l;
    CXCursor body;
} var_walk;

/* The variables a forked group does not receive: the kernel's own, but its transmit and local
 * ones, and a for loop's own variable around a fork point (transmitted for it). */
static enum CXChildVisitResult find_vars(CXCursor cursor, CXCursor parent, CXClientData data)
{
    var_walk *walk = data;
    lint *l = walk->l;
    if (clang_getCursorKind(cursor) != CXCursor_VarDecl)
        return CXChildVisit_Recurse;
    (void)parent;
    unsigned space = clang_getAddressSpace(clang_getCursorType(cursor));
    if (mt_is_transmit(cursor) || space == 2 /* local */ || space == 3 /* constant */ ||
        mt_is_implicit_transmit(l->merge, cursor))
        return CXChildVisit_Continue;
    MT_PUSH(l->vars, l->var_count, l->var_capacity, cursor);
    return CXChildVisit_Continue;
}

typedef struct assign_walk {
    lint *l;
    unsigned char *assigned;
} assign_walk;

/* Variables written anywhere but in their declaration. */
static enum CXChildVisitResult find_assignments(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    assign_walk *walk = data;
    lint *l = walk->l;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    int v = var_index(l, clang_getCursorReferenced(cursor));
    if (v < 0)
        return CXChildVisit_Continue;
    /* a name that is followed by an assignment operator, or next to ++ / -- or & */
    unsigned begin, end;
    mt_extent(l->file, cursor, &begin, &end);
    size_t at = mt_token_at(l->file, begin), after = mt_token_at(l->file, end);
    static const char *const writes[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                                         "++", "--"};
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++)
        if (mt_token_is(l->file, after, writes[i]) ||
            (i >= 11 && at > 0 && mt_token_is(l->file, at - 1, writes[i])))
            walk->assigned[v] = 1;
    if (at > 0 && mt_token_is(l->file, at - 1, "&"))
        walk->assigned[v] = 1;
    return CXChildVisit_Continue;
}

static void find_rebuilt(lint *l, CXCursor body)
{
    unsigned char *assigned = mt_alloc(l->var_count + 1);
    assign_walk walk = {.l = l, .assigned = assigned};
    clang_visitChildren(body, find_assignments, &walk);
    l->rebuilt = mt_alloc(l->var_count + 1);
    for (size_t v = 0; v < l->var_count; v++) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(l->vars[v]);
        if (assigned[v] || clang_Cursor_isNull(init))
            continue;
        effect_walk pure = {.l = l, .pure = 1};
        find_impure(init, clang_getNullCursor(), &pure);
        if (pure.pure)
            clang_visitChildren(init, find_impure, &pure);
        l->rebuilt[v] = (unsigned char)pure.pure;
    }
    free(assigned);
}

/* Whether a variable's scope holds a fork point: its declaration's block encloses the point. */
static int in_scope(const lint *l, CXCursor var, CXCursor point)
{
    unsigned var_at = mt_offset(l->file, clang_getCursorLocation(var), NULL);
    unsigned point_at = mt_offset(l->file, clang_getCursorLocation(point), NULL);
    CXCursor scope = clang_getCursorLexicalParent(var);
    unsigned begin = 0, end = 0;
    if (!clang_Cursor_isNull(scope))
        mt_extent(l->file, scope, &begin, &end);
    return var_at < point_at && (clang_Cursor_isNull(scope) || (point_at >= begin && point_at < end));
}

/* One finding per variable, at the first fork point that needs it. */
static void find_untransmitted(lint *l)
{
    unsigned char *has_finding = mt_alloc(l->var_count + 1);
    /* the points in the order they are written (the backward pass met the last first) */
    for (size_t i = 1; i < l->point_count; i++)
        for (size_t j = i; j > 0 && mt_offset(l->file, clang_getCursorLocation(l->points[j]), NULL) <
                                        mt_offset(l->file, clang_getCursorLocation(l->points[j - 1]), NULL);
             j--) {
            CXCursor point = l->points[j];
            unsigned char *live = l->live_after[j];
            l->points[j] = l->points[j - 1];
            l->live_after[j] = l->live_after[j - 1];
            l->points[j - 1] = point;
            l->live_after[j - 1] = live;
        }
    mt_merge *merge = l->merge;
    for (size_t p = 0; p < l->point_count; p++)
        for (size_t v = 0; v < l->var_count; v++) {
            if (has_finding[v] || !l->live_after[p][v] || l->rebuilt[v] || !in_scope(l, l->vars[v], l->points[p]))
                continue;
            has_finding[v] = 1;
            mt_finding finding = {.kind = MT_FINDING_UNTRANSMITTED, .at = l->vars[v], .offer = l->points[p],
                                  .coop = l->func};
            MT_PUSH(merge->findings, merge->finding_count, merge->finding_capacity, finding);
        }
    free(has_finding);
}

void mt_analyse_flow(mt_merge *merge)
{
    mt_func *func = &merge->funcs[merge->coop];
    CXCursor body;
    if (!mt_function_body(func->def, &body))
        return;
    lint l = {.merge = merge, .func = func, .file = func->file};
    find_group_readers(&l);
    var_walk vars = {.l = &l, .body = body};
    clang_visitChildren(body, find_vars, &vars);
    find_rebuilt(&l, body);
    state forward = state_new(&l), backward = state_new(&l);
    flow(&l, body, &forward, 0);
    flow(&l, body, &backward, 1);
    find_untransmitted(&l);
    state_free(&forward);
    state_free(&backward);
    for (size_t p = 0; p < l.point_count; p++)
        free(l.live_after[p]);
    free(l.live_after);
    for (size_t m = 0; m < l.memo_count; m++) {
        state_free(&l.memos[m].in);
        state_free(&l.memos[m].head);
    }
    free(l.memos);
    free(l.points);
    free(l.vars);
    free(l.rebuilt);
    free(l.found);
    free(l.reads_groups);
}
