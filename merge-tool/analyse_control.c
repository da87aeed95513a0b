/* analyse_control.c: the cooperative kernel's statements as a tree (mt_stmt), with its fork
 * points numbered in order, its transmit variables, what evaluating an expression may do, and the
 * plan of how a forked or killed group walks through the statements (whether each is reached with
 * coop_skip_ set: may_resume, may_exit; skipped whole or inside its own control flow: pushed).
 * rewrite_control.c turns the plan into text; the form it takes is described there. */
#include "analyse.h"

#include <stdlib.h>
#include <string.h>

int mt_holds_points(const mt_stmt *s)
{
    return s->first_point != 0;
}

/* Whether a forked group walks into this statement on its way to its fork point. */
int mt_resumes(const mt_stmt *s)
{
    return mt_holds_points(s) && !s->no_resume;
}

/* ---- Building the statement tree --------------------------------------------------------- */

static enum mt_stmt_kind kind_of(CXCursor cursor)
{
    switch (clang_getCursorKind(cursor)) {
    case CXCursor_CompoundStmt: return MT_ST_COMPOUND;
    case CXCursor_IfStmt: return MT_ST_IF;
    case CXCursor_WhileStmt: return MT_ST_WHILE;
    case CXCursor_DoStmt: return MT_ST_DO;
    case CXCursor_ForStmt: return MT_ST_FOR;
    case CXCursor_SwitchStmt: return MT_ST_SWITCH;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
    case CXCursor_LabelStmt: return MT_ST_LABEL;
    case CXCursor_DeclStmt: return MT_ST_DECL;
    case CXCursor_ReturnStmt: return MT_ST_RETURN;
    case CXCursor_NullStmt: return MT_ST_NULL;
    default: return mt_primitive_of(cursor) ? MT_ST_PRIMITIVE : MT_ST_OTHER;
    }
}

static mt_stmt *build(mt_control *c, CXCursor cursor, mt_stmt *parent);

/* `VAR = global_barrier_any(FLAG);` (or its resizing form): a primitive statement whose call
 * is the assignment's right side, VAR a variable. */
static int vote_assignment(mt_control *c, mt_stmt *s)
{
    if (clang_getCursorKind(s->cursor) != CXCursor_BinaryOperator)
        return 0;
    mt_children children = mt_children_of(s->cursor);
    int found = 0;
    if (children.count == 2 && clang_getCursorKind(children.items[0]) == CXCursor_DeclRefExpr) {
        CXCursor call = mt_unwrap_call(children.items[1]);
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
static int vote_declaration(mt_stmt *s)
{
    if (clang_getCursorKind(s->cursor) != CXCursor_DeclStmt)
        return 0;
    mt_children vars = mt_children_of(s->cursor);
    int found = 0;
    if (vars.count == 1 && clang_getCursorKind(vars.items[0]) == CXCursor_VarDecl && !mt_is_transmit(vars.items[0])) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(vars.items[0]);
        CXCursor call = clang_Cursor_isNull(init) ? init : mt_unwrap_call(init);
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

static void add_item(mt_control *c, mt_stmt *s, CXCursor cursor)
{
    mt_stmt *item = build(c, cursor, s);
    MT_PUSH(s->items, s->count, s->capacity, item);
}

/* Splits a for statement's children into init, cond, inc and body by where its header's `;`s
 * and `)` are. */
static void build_for(mt_control *c, mt_stmt *s, const mt_children *children)
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
        s->header_unfound = 1;
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

static mt_stmt *build(mt_control *c, CXCursor cursor, mt_stmt *parent)
{
    mt_stmt *s = mt_alloc(sizeof *s);
    s->cursor = cursor;
    s->kind = kind_of(cursor);
    s->parent = parent;
    s->depth = parent ? parent->depth + 1 : 0;
    s->in_switch = parent && (parent->in_switch || parent->kind == MT_ST_SWITCH);
    unsigned end;
    mt_extent(c->file, cursor, &s->begin, &end);
    s->end = mt_statement_end(c->file, cursor);
    if ((s->kind == MT_ST_OTHER && vote_assignment(c, s)) || (s->kind == MT_ST_DECL && vote_declaration(s)))
        s->kind = MT_ST_PRIMITIVE;
    mt_children children = mt_children_of(cursor);
    switch (s->kind) {
    case MT_ST_COMPOUND:
        for (size_t i = 0; i < children.count; i++)
            add_item(c, s, children.items[i]);
        break;
    case MT_ST_IF:
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
    case MT_ST_WHILE:
    case MT_ST_SWITCH:
        if (children.count >= 2) {
            s->has_cond = 1;
            s->cond = children.items[0];
            add_item(c, s, children.items[children.count - 1]);
        }
        break;
    case MT_ST_DO:
        if (children.count >= 2) {
            s->has_cond = 1;
            s->cond = children.items[1];
            add_item(c, s, children.items[0]);
        }
        break;
    case MT_ST_FOR:
        build_for(c, s, &children);
        break;
    case MT_ST_LABEL:
        if (clang_getCursorKind(cursor) == CXCursor_LabelStmt)
            c->has_goto = 1;
        if (children.count >= 1)
            add_item(c, s, children.items[children.count - 1]);
        break;
    case MT_ST_PRIMITIVE:
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
    case MT_ST_RETURN:
        s->exits = c->exits = 1;
        break;
    case MT_ST_NULL:
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
        const mt_stmt *item = s->items[i];
        s->exits |= item->exits;
        if (mt_holds_points(item)) {
            if (!s->first_point)
                s->first_point = item->first_point;
            s->last_point = item->last_point;
        }
    }
    return s;
}

static void free_tree(mt_stmt *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        free_tree(s->items[i]);
    free(s->items);
    free(s);
}

/* ---- Expressions ------------------------------------------------------------------------- */

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
    mt_effects *e = data;
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
        mt_children children = mt_children_of(cursor);
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
        mt_children children = mt_children_of(cursor);
        if (children.count) {
            unsigned base_begin, base_end;
            mt_extent(file, children.items[0], &base_begin, &base_end);
            e->reads_memory |= mt_token_is(file, mt_token_at(file, base_end), "->");
        }
        free(children.items);
        break;
    }
    case CXCursor_CallExpr:
        /* spawn_task() writes the spawn queue: an effect, unlike the other id calls */
        if (!mt_id_call_of(cursor) || mt_id_call_of(cursor) == MT_ID_SPAWN_TASK) {
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
int mt_is_boolean(const mt_control *c, CXCursor expression)
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
    mt_children children = mt_children_of(expression);
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

mt_effects mt_effects_of(const mt_control *c, CXCursor expression)
{
    mt_effects e = {.merge = c->merge, .file = c->file};
    find_effects(expression, clang_getNullCursor(), &e);
    clang_visitChildren(expression, find_effects, &e);
    return e;
}

/* (By the name's location: the declaration's extent differs between walks when it defines a
 * struct, `transmit struct { ... } s`.) */
int mt_is_transmit_var(const mt_control *c, CXCursor var)
{
    for (size_t i = 0; i < c->transmit_count; i++)
        if (clang_getCursorKind(var) == CXCursor_VarDecl &&
            clang_equalLocations(clang_getCursorLocation(c->transmits[i]), clang_getCursorLocation(var)))
            return 1;
    return 0;
}

/* ---- Transmit variables ------------------------------------------------------------------ */

static enum CXChildVisitResult collect_transmits(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    mt_control *c = data;
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
const char *mt_transmit_name(const mt_control *c, CXCursor var)
{
    for (size_t i = 0; i < c->transmit_count; i++)
        if (clang_equalLocations(clang_getCursorLocation(c->transmits[i]), clang_getCursorLocation(var)))
            return c->transmit_names[i];
    return "";
}

int mt_declares_transmit(const mt_control *c, CXCursor declaration)
{
    mt_children children = mt_children_of(declaration);
    int transmit = 0;
    for (size_t i = 0; i < children.count; i++)
        transmit |= mt_is_transmit_var(c, children.items[i]);
    free(children.items);
    return transmit;
}

static int decl_is_local(const mt_control *c, const mt_stmt *s)
{
    for (size_t i = 0; i < c->func->local_count; i++)
        if (mt_same(c->func->locals[i].stmt, s->cursor))
            return 1;
    return 0;
}

static void mark_declarations(mt_control *c, mt_stmt *s)
{
    if (s->kind == MT_ST_DECL) {
        if (decl_is_local(c, s)) {
            s->empty = 1;
        } else if (mt_declares_transmit(c, s->cursor)) {
            s->transmit_decl = 1;
            mt_children vars = mt_children_of(s->cursor);
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

/* Whether a type is declared inside the cooperative kernel's body. */
int mt_type_in_kernel(const mt_control *c, CXCursor type)
{
    int in_file = 0;
    unsigned at = mt_offset(c->file, clang_getCursorLocation(type), &in_file);
    return in_file && at > c->body->begin && at < c->body->end;
}

static void mark_no_resume(mt_stmt *s)
{
    s->no_resume = 1;
    for (size_t i = 0; i < s->count; i++)
        mark_no_resume(s->items[i]);
}

static mt_stmt *find_point(mt_stmt *s)
{
    if (s->point)
        return s;
    for (size_t i = 0; i < s->count; i++)
        if (mt_holds_points(s->items[i]))
            return find_point(s->items[i]);
    return NULL;
}

/* The usual cooperative loop ends its body with its only fork point (`...; resizing_global_barrier();`).
 * Resuming right after that point is going on with the loop, so nothing in the body needs to know
 * about resumption and the fork point's barrier stays out of any conditional (a conditional around
 * a barrier costs measurably on NVIDIA). Finds such a loop and marks it. */
static void find_tail_point(mt_control *c)
{
    if (c->points != 1)
        return;
    mt_stmt *point = find_point(c->body), *child = point;
    for (mt_stmt *up = child ? child->parent : NULL; up; child = up, up = up->parent) {
        if (up->kind == MT_ST_COMPOUND) {
            size_t last = up->count;
            while (last > 0 && up->items[last - 1]->empty)
                last--;
            if (!last || up->items[last - 1] != child)
                return;
        } else if (up->kind == MT_ST_WHILE || up->kind == MT_ST_FOR) {
            up->resume_here = 1;
            up->tail = point;
            for (size_t i = 0; i < up->count; i++)
                mark_no_resume(up->items[i]);
            return;
        } else if (up->kind != MT_ST_IF) {
            return;
        }
    }
}

static void plan(mt_control *c, mt_stmt *s, int resume, int exit);

/* A statement that holds a workgroup barrier would make a conditional around it when skipped
 * whole (`if (!coop_skip_) { ... }`), and PoCL copies the code after such a conditional for each
 * way through it. Where its own control flow can skip it instead, the skip goes there: a block's
 * statements one by one, an if's condition (`!coop_skip_ && (c)`), a loop's condition (no pass);
 * a barrier statement itself just runs. */
static int pushable(const mt_control *c, const mt_stmt *s)
{
    if (!mt_holds_barrier(c->merge, c->file, s->cursor))
        return 0;
    switch (s->kind) {
    case MT_ST_COMPOUND:
    case MT_ST_IF:
        return 1;
    case MT_ST_WHILE:
        return !s->has_cond || !mt_effects_of(c, s->cond).writes;
    case MT_ST_FOR: {
        if (s->has_cond && mt_effects_of(c, s->cond).writes)
            return 0;
        if (!s->has_init || !s->init_is_decl)
            return 1;
        /* a declaration in the header runs anyway: plain arithmetic only */
        mt_effects e = mt_effects_of(c, s->init);
        return !e.writes && !e.reads_memory;
    }
    case MT_ST_OTHER:
        return mt_is_group_barrier(s->cursor);
    default:
        return 0;
    }
}

/* A block's statements in order from the state at its start; see plan(). */
static void plan_block(mt_control *c, mt_stmt *block, int resume, int exit)
{
    /* after its last fork point a block that holds every point runs with no point to resume */
    int every_point = block->first_point == 1 && block->last_point == c->points;
    size_t last_holder = 0;
    for (size_t i = 0; i < block->count; i++)
        if (mt_resumes(block->items[i]))
            last_holder = i;
    for (size_t i = 0; i < block->count; i++) {
        mt_stmt *item = block->items[i];
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
static void plan(mt_control *c, mt_stmt *s, int resume, int exit)
{
    s->may_resume = resume;
    s->may_exit = exit;
    if ((resume || exit) && !mt_resumes(s) && s->kind != MT_ST_LABEL && !c->standalone && pushable(c, s)) {
        s->pushed = 1;
        if (s->kind == MT_ST_COMPOUND) {
            plan_block(c, s, resume, exit);
        } else {
            /* a loop's body and an if's then run only unskipped; the else runs either way */
            for (size_t i = 0; i < s->count; i++)
                plan(c, s->items[i], s->kind == MT_ST_IF && i == 1 ? resume : 0,
                     s->kind == MT_ST_IF && i == 1 ? exit : 0);
        }
        return;
    }
    if (s->kind == MT_ST_LABEL) {
        if (s->count)
            plan(c, s->items[0], resume, exit);
        return;
    }
    if (!mt_resumes(s)) {
        if (s->kind == MT_ST_COMPOUND)
            plan_block(c, s, 0, 0);
        else
            for (size_t i = 0; i < s->count; i++)
                plan(c, s->items[i], 0, 0);
        return;
    }
    switch (s->kind) {
    case MT_ST_COMPOUND:
        plan_block(c, s, resume, exit);
        break;
    case MT_ST_WHILE:
    case MT_ST_FOR:
    case MT_ST_DO:
        /* a loop is entered for its points (a do loop always), a tail loop already resumed */
        for (size_t i = 0; i < s->count; i++)
            plan(c, s->items[i], s->resume_here ? 0 : resume, s->kind == MT_ST_DO ? exit : 0);
        break;
    case MT_ST_IF:
        /* the branch that holds the point; without one, the else branch (under if (!coop_skip_)
         * unless it holds points) */
        for (size_t i = 0; i < s->count; i++) {
            int walked = mt_resumes(s->items[i]);
            plan(c, s->items[i], walked ? resume : 0, walked && i == 1 ? exit : 0);
        }
        break;
    default:
        for (size_t i = 0; i < s->count; i++)
            plan(c, s->items[i], resume, exit);
        break;
    }
}


/* ---- What the rewrites need to know ---------------------------------------------------------- */

/* A declaration that a skipping group passes: whether its initializer must not run again, and
 * whether it can be split into a declaration and a guarded assignment. */
mt_guard mt_guard_of(const mt_control *c, const mt_stmt *s)
{
    mt_guard guard = {.var = clang_getNullCursor()};
    mt_children vars = mt_children_of(s->cursor);
    CXCursor init = vars.count ? clang_Cursor_getVarDeclInitializer(vars.items[0]) : clang_getNullCursor();
    mt_effects e = clang_Cursor_isNull(init) ? (mt_effects){0} : mt_effects_of(c, init);
    guard.needed = !clang_Cursor_isNull(init) && (vars.count != 1 || e.writes || e.reads_memory);
    if (!guard.needed) {
        free(vars.items);
        return guard;
    }
    CXCursor var = guard.var = vars.items[0];
    CXType type = clang_getCursorType(var);
    char *name = mt_spelling(var);
    int in_file = 0;
    unsigned name_at = mt_offset(c->file, clang_getCursorLocation(var), &in_file);
    guard.name_token = mt_token_at(c->file, name_at);
    unsigned init_end;
    mt_expression_range(c->file, init, &guard.init_begin, &init_end);
    /* the variable's own `const` (the last one before its name with no `*` after it) goes */
    if (clang_isConstQualifiedType(type))
        for (size_t t = mt_token_at(c->file, s->begin); t < guard.name_token; t++) {
            if (mt_token_is(c->file, t, "const"))
                guard.const_token = t;
            else if (mt_token_is(c->file, t, "*"))
                guard.const_token = 0;
        }
    guard.splittable = vars.count == 1 && in_file && (!clang_isConstQualifiedType(type) || guard.const_token) &&
                       type.kind != CXType_ConstantArray && clang_getCursorKind(init) != CXCursor_InitListExpr &&
                       mt_token_is(c->file, guard.name_token, name) &&
                       mt_token_is(c->file, guard.name_token + 1, "=");
    free(name);
    free(vars.items);
    return guard;
}

/* The name and the closing `)` of a vote's call written as [begin, end); 0 if it is not
 * written `NAME(...)` there. */
int mt_vote_tokens(const mt_file *file, unsigned begin, unsigned end, size_t *name, size_t *close)
{
    *name = mt_token_at(file, begin);
    *close = mt_token_at(file, end) - 1;
    return mt_token_is(file, *name + 1, "(") && mt_token_is(file, *close, ")");
}

/* The name of a for loop's variable as written in its header: its offset and token. */
int mt_loop_var_token(const mt_file *file, CXCursor var, unsigned *name_at, size_t *name)
{
    int in_file = 0;
    *name_at = mt_offset(file, clang_getCursorLocation(var), &in_file);
    *name = mt_token_at(file, *name_at);
    return in_file && *name < file->token_count && file->tokens[*name].begin == *name_at;
}

/* The places the transmit variables' rewrite changes: each use, or (standalone, where they stay
 * ordinary variables) each `transmit` annotation. */
static enum CXChildVisitResult find_transmit_sites(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    mt_control *c = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (c->standalone ? kind == CXCursor_AnnotateAttr
                      : kind == CXCursor_DeclRefExpr && mt_is_transmit_var(c, clang_getCursorReferenced(cursor)))
        MT_PUSH(c->transmit_sites, c->transmit_site_count, c->transmit_site_capacity, cursor);
    return c->standalone && kind == CXCursor_AnnotateAttr ? CXChildVisit_Continue : CXChildVisit_Recurse;
}

/* ---- The pass's part -------------------------------------------------------------------------- */

void mt_analyse_control(mt_merge *merge)
{
    mt_func *func = &merge->funcs[merge->coop];
    CXCursor body;
    if (!mt_function_body(func->def, &body))
        return;
    mt_control *c = mt_alloc(sizeof *c);
    *c = (mt_control){.merge = merge, .func = func, .file = func->file, .standalone = merge->options.standalone};
    c->body = build(c, body, NULL);
    clang_visitChildren(c->body->cursor, collect_transmits, c);
    clang_visitChildren(c->body->cursor, find_transmit_sites, c);
    mark_declarations(c, c->body);
    if (!c->standalone) {
        find_tail_point(c);
        plan(c, c->body, c->points != 0, 0);
    }
    merge->control = c;
}

void mt_control_free(mt_control *c)
{
    free_tree(c->body);
    for (size_t i = 0; i < c->transmit_count; i++)
        free(c->transmit_names[i]);
    free(c->transmit_names);
    free(c->transmits);
    free(c->statement_calls);
    free(c->transmit_sites);
    free(c);
}

/* The word `transmit` of a transmit variable's annotation, [begin, end); 0 if a macro wrote it. */
int mt_transmit_word(const mt_file *file, CXCursor annotation, unsigned *begin, unsigned *end)
{
    mt_extent(file, annotation, begin, end);
    size_t token = mt_token_at(file, *begin);
    return mt_token_is(file, token, "transmit") && file->tokens[token].end == *end;
}
