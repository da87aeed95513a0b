/* rewrite_control.c: the rewrite of the cooperative kernel's control flow and transmit variables.
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
 * on with the loop (after `VAR = resizing_global_barrier_any(FLAG);`, with VAR set to the vote's
 * outcome, which the forking group learnt only after it transmitted VAR), and the body is left as
 * written (find_tail_point).
 *
 * PoCL compiles a workgroup barrier inside a conditional by copying the code after the
 * conditional once for each way through it, so that every such conditional on a path doubles
 * the code after it. The primitives a group walks past are therefore not skipped by a
 * conditional: they take coop_skip_ and run their workgroup barriers either way (coop_fork_at,
 * coop_resize_at, coop_kill_at, coop_global_barrier_unless). Only the kernel's own statements
 * are skipped, so the only such conditionals left are those around the kernel's own barriers
 * (a helper's, or its own barrier() in a statement that cannot push the skip inside). Each of
 * those, and each of the kernel's own `if`s and loops that holds a workgroup barrier, is followed
 * by coop_pocl_join(), a workgroup barrier on PoCL, in the megakernel and the standalone form:
 * without it PoCL got the code between the statement's last barrier and the next one wrong (it
 * ran with local id 0 in every work-item, or in none), or its compiler failed an assertion.
 *
 * The analysis's tree (analyse_control.c) mirrors the statements of the kernel's body and holds
 * the plan; all rewriting is insertions around their source ranges and replacements of the
 * primitive calls, laid out on the kernel's own lines where they can be (emit_wraps).
 */
#include "rewrite.h"

#include "edit.h"

#include <stdlib.h>
#include <string.h>

/* `if (condition) {` ... `}` around the statements [begin, end) of a block at `depth`. */
typedef struct wrapping {
    unsigned begin, end;
    int depth, inner;
    int join;                     /* they hold a workgroup barrier: coop_pocl_join() after */
    char *condition;
} wrapping;


/* The text the control flow's rewrite lays out last: wraps around statements, and the clears in
 * front of the while loops a forked group resumes at. */
typedef struct layout {
    wrapping *wraps;
    size_t wrap_count, wrap_capacity;
    const mt_stmt **clears;
    size_t clear_count, clear_capacity;
    const mt_stmt **unjoined;     /* statements that get no join in front of them (rewrite_block) */
    size_t unjoined_count, unjoined_capacity;
} layout;

/* `transmit T a = x, b;` becomes `coop_transmit_.a = x;` (nothing if no initializer). */
static void rewrite_transmit_decl(const mt_control *c, const mt_stmt *s)
{
    mt_file *file = c->file;
    mt_children vars = mt_children_of(s->cursor);
    unsigned at = s->begin;
    int assigned = 0;
    for (size_t i = 0; i < vars.count; i++) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(vars.items[i]);
        if (clang_Cursor_isNull(init))
            continue;
        unsigned begin, end;
        mt_expression_range(file, init, &begin, &end);
        mt_buf text = {0};
        mt_buf_printf(&text, "%scoop_transmit_.%s = ", assigned ? "; " : "", mt_transmit_name(c, vars.items[i]));
        /* an initializer list becomes a compound literal (validation let only named structs through) */
        if (clang_getCursorKind(init) == CXCursor_InitListExpr) {
            char *declarator = mt_declarator(clang_getCursorType(vars.items[i]), "");
            size_t length = strlen(declarator);
            while (length && declarator[length - 1] == ' ')
                declarator[--length] = '\0';
            mt_buf_printf(&text, "(%s)", declarator);
            free(declarator);
        }
        mt_edit_add(file, at, begin, MT_RANK_REPLACE, text.data);
        mt_buf_free(&text);
        at = end;
        assigned = 1;
    }
    free(vars.items);
    if (assigned)
        mt_edit_add(file, at, s->end, MT_RANK_REPLACE, ";");
    else
        mt_remove(file, s->begin, s->end);
}

/* The transmit struct's members (validation checked that they fit and that their types can be
 * named there). */
static char *transmit_struct(const mt_control *c)
{
    mt_buf members = {0};
    for (size_t i = 0; i < c->transmit_count; i++) {
        CXType type = clang_getCursorType(c->transmits[i]);
        const char *name = c->transmit_names[i];
        CXCursor record = mt_record_of(c->transmits[i]);
        int anonymous = !clang_Cursor_isNull(record) && clang_Cursor_isAnonymous(record);
        if (!anonymous) {
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
    }
    char *text = mt_printf("struct {%s } coop_transmit_;", members.data ? members.data : "");
    mt_buf_free(&members);
    return text;
}

/* ---- Rewriting --------------------------------------------------------------------------- */

static int open_rank(const mt_stmt *s, int inner)
{
    return 4 * s->depth + inner;
}

static int close_rank(const mt_stmt *s, int inner)
{
    return MT_RANK_CLOSE - (4 * s->depth + inner);
}

/* "coop_skip_ == 2" or "(coop_skip_ >= 2 & coop_skip_ <= 4)" for the points of s. */
static char *point_test(const mt_stmt *s)
{
    if (s->first_point == s->last_point)
        return mt_printf("coop_skip_ == %u", s->first_point);
    return mt_printf("(coop_skip_ >= %u & coop_skip_ <= %u)", s->first_point, s->last_point);
}

static const char *fork_arguments(const mt_control *c)
{
    return c->transmit_count ? "&coop_transmit_, sizeof coop_transmit_" : "0, 0";
}

/* The text that replaces a primitive's call (up to its `;`). */
static char *primitive_text(const mt_control *c, const mt_stmt *s)
{
    const char *args = fork_arguments(c);
    int barrier = s->primitive == MT_PRIM_BARRIER || s->primitive == MT_PRIM_RESIZE;
    char *at = barrier ? mt_barrier_site(c->merge, c->file, s->begin, s->primitive) : mt_strdup("");
    char *text;
    if (c->standalone) /* kill and fork never happen */
        text = barrier ? mt_printf("%scoop_global_barrier(ctx)", at) : mt_strdup("");
    else if (s->primitive == MT_PRIM_BARRIER)
        text = mt_printf("%s%s", at, s->may_resume || s->may_exit ? "coop_global_barrier_unless(ctx, coop_skip_)"
                                                                  : "coop_global_barrier(ctx)");
    else if (s->primitive == MT_PRIM_KILL)
        text = mt_strdup("coop_kill_at(ctx, &coop_skip_)");
    else if (s->primitive == MT_PRIM_FORK)
        text = mt_printf("coop_fork_at(ctx, &coop_skip_, %u, %s)", s->point, args);
    else if (s->primitive == MT_PRIM_RESIZE)
        text = mt_printf("%scoop_resize_at(ctx, &coop_skip_, %u, %s)", at, s->point, args);
    else
        text = mt_strdup("");
    free(at);
    return text;
}

/* `VAR = global_barrier_any(FLAG);` and its resizing form: the call's name and arguments change
 * around FLAG, which stays as written. */
static void rewrite_vote(const mt_control *c, const mt_stmt *s, unsigned begin, unsigned end)
{
    mt_file *file = c->file;
    size_t name, close;
    mt_vote_tokens(file, begin, end, &name, &close);
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
    char *at = mt_barrier_site(c->merge, file, file->tokens[name].begin, s->primitive);
    char *call = mt_printf("(%s%s", at, function);
    mt_edit_add(file, file->tokens[name].begin, file->tokens[name].end, MT_RANK_REPLACE, call);
    mt_edit_add(file, file->tokens[name + 1].end, file->tokens[name + 1].end, 0, open);
    mt_edit_add(file, file->tokens[close].begin, file->tokens[close].begin, 0, after);
    mt_edit_add(file, file->tokens[close].end, file->tokens[close].end, MT_RANK_CLOSE, ")");
    free(call);
    free(at);
    free(before);
    free(open);
    free(after);
    free(target);
}

static void rewrite_primitive(const mt_control *c, const mt_stmt *s)
{
    mt_file *file = c->file;
    unsigned begin, end;
    if (s->primitive == MT_PRIM_VOTE || s->primitive == MT_PRIM_RESIZE_VOTE) {
        mt_plain_range(file, s->call, &begin, &end);
        rewrite_vote(c, s, begin, end);
        return;
    }
    mt_plain_range(file, s->cursor, &begin, &end);
    char *text = primitive_text(c, s);
    if (!*text && s->parent && s->parent->kind == MT_ST_COMPOUND)
        mt_remove(file, s->begin, s->end);
    else
        mt_edit_add(file, begin, end, MT_RANK_REPLACE, text);
    free(text);
}

static void wrap(layout *l, const mt_stmt *block, const mt_stmt *first, const mt_stmt *last, int inner, int join,
                 const char *condition)
{
    wrapping w = {.begin = first->begin, .end = last->end, .depth = block->depth, .inner = inner, .join = join,
                  .condition = mt_strdup(condition)};
    MT_PUSH(l->wraps, l->wrap_count, l->wrap_capacity, w);
}

/* A declaration in a block a forked group walks through: its initializer runs again there, which
 * is harmless for plain arithmetic; anything else runs only when not resuming. */
static void guard_declaration(const mt_control *c, const mt_stmt *s)
{
    mt_guard guard = mt_guard_of(c, s);
    if (!guard.needed)
        return;
    char *name = mt_spelling(guard.var);
    char *text = mt_printf("; if (!coop_skip_) %s = ", name);
    mt_edit_add(c->file, c->file->tokens[guard.name_token].end, guard.init_begin, MT_RANK_REPLACE, text);
    free(text);
    free(name);
    if (guard.const_token) {
        unsigned end = c->file->tokens[guard.const_token].end;
        while (end < c->file->size && c->file->text[end] == ' ')
            end++;
        mt_edit_add(c->file, c->file->tokens[guard.const_token].begin, end, MT_RANK_REPLACE, "");
    }
    if (mt_holds_barrier(c->merge, c->file, s->cursor))
        mt_edit_add(c->file, s->end, s->end, MT_JOIN_RANK, " coop_pocl_join();");
}

/* Whether a statement is skipped by wrapping it in if (!coop_skip_) where a group may reach it
 * with coop_skip_ set (the statements that are neither primitives nor hold the fork point). */
static int wrappable(const mt_stmt *s)
{
    if (s->transmit_decl)
        return !s->empty;
    return !mt_resumes(s) && s->kind != MT_ST_DECL && s->kind != MT_ST_PRIMITIVE && s->kind != MT_ST_LABEL &&
           !s->empty && !s->pushed;
}

/* A case label's statement (the rest of the case follows it in the switch's block). */
static void rewrite_label(const mt_control *c, layout *l, const mt_stmt *label)
{
    const mt_stmt *child = label->count ? label->items[0] : NULL;
    if (!child || !(child->may_resume || child->may_exit))
        return;
    if (child->kind == MT_ST_LABEL)
        rewrite_label(c, l, child);
    else if (wrappable(child))
        wrap(l, label, child, child, 2, mt_holds_barrier(c->merge, c->file, child->cursor), "!coop_skip_");
}

/* Wraps each run of statements of a block that a group may reach with coop_skip_ set in
 * if (!coop_skip_); primitives and the statements that hold fork points are walked instead
 * (see the top of this file). Declarations stay in their block (guard_declaration). */
/* Whether a statement of block's run [first, last] holds a workgroup barrier. */
static int run_holds_barrier(const mt_control *c, const mt_stmt *block, const mt_stmt *first, const mt_stmt *last)
{
    int in_run = 0;
    for (size_t i = 0; i < block->count; i++) {
        in_run |= block->items[i] == first;
        if (in_run && mt_holds_barrier(c->merge, c->file, block->items[i]->cursor))
            return 1;
        if (block->items[i] == last)
            break;
    }
    return 0;
}

static void rewrite_block(const mt_control *c, layout *l, const mt_stmt *block)
{
    const mt_stmt *run_first = NULL, *run_last = NULL;
    int run_barrier = 0;
    for (size_t i = 0; i <= block->count; i++) {
        const mt_stmt *item = i < block->count ? block->items[i] : NULL;
        int skipped = item && (item->may_resume || item->may_exit);
        if (skipped && item->kind == MT_ST_DECL && !item->transmit_decl && !item->empty)
            guard_declaration(c, item);
        if (skipped && item->kind == MT_ST_LABEL)
            rewrite_label(c, l, item);
        if (skipped && wrappable(item)) {
            if (!run_first)
                run_first = item;
            run_last = item;
            /* a join after a run that a jump leaves too: without one, after `if (c) continue;`
             * first in a loop holding a fork point, PoCL's work-group compiler took the run's
             * `if (get_local_id(0) == 0)` in every work-item (smith seed 117) */
            run_barrier |= mt_holds_barrier(c->merge, c->file, item->cursor) || mt_holds_jump(item);
            continue;
        }
        if (item && item->empty && run_first)
            continue;
        /* no join between a run that only jumps and an `if` or loop of the kernel's own right
         * after it that holds a workgroup barrier, neither the run's nor the one a loop gets in
         * front of it (join_loop): with one there, after `if (n2 > 0u) break;` in a loop, before
         * an `if` around a loop of resizing votes, PoCL's compiler failed "Incoming edges to
         * non-entry block!" (smith seed 90108), and so it did after `if (i0 % 3u == 1u) break;`
         * before a loop of resizing barriers (seed 90202); the standalone form, whose run is not
         * wrapped, compiles with that join */
        if (run_first && run_barrier && item && (item->kind == MT_ST_IF || mt_is_loop(item)) &&
            mt_holds_barrier(c->merge, c->file, item->cursor) && !run_holds_barrier(c, block, run_first, run_last)) {
            run_barrier = 0;
            MT_PUSH(l->unjoined, l->unjoined_count, l->unjoined_capacity, item);
        }
        if (run_first)
            wrap(l, block, run_first, run_last, 2, run_barrier, "!coop_skip_");
        run_first = run_last = NULL;
        run_barrier = 0;
    }
}

/* The bytes of a for loop's init: an expression, or a declaration up to the header's `;`. */
static void init_range(const mt_control *c, const mt_stmt *s, unsigned *begin, unsigned *end)
{
    mt_expression_range(c->file, s->init, begin, end);
    if (s->init_is_decl)
        *end = s->first_semicolon;
}

/* `VAR = ` and the vote's outcome when a tail loop's fork point is `VAR =
 * resizing_global_barrier_any(FLAG);` (a group forked there takes the outcome, which its forking
 * group learnt only after it transmitted VAR), followed by `, `; else "". */
static char *resumed_vote(const mt_control *c, const mt_stmt *loop)
{
    const mt_stmt *point = loop->tail;
    if (!point || point->primitive != MT_PRIM_RESIZE_VOTE || !point->has_target)
        return mt_strdup("");
    char *target = mt_render(c->file, point->target_begin, point->target_end);
    char *text = mt_printf("%s = coop_resume_vote(ctx), ", target);
    free(target);
    return text;
}

/* A forked group resumes a loop whose body ends with its fork point by going on with the loop:
 * a for loop runs its increment instead of its init, a while loop just tests its condition (after
 * the vote's outcome, when the point votes). */
static void resume_at_loop(const mt_control *c, layout *l, const mt_stmt *s)
{
    mt_file *file = c->file;
    if (s->kind == MT_ST_WHILE) {
        MT_PUSH(l->clears, l->clear_count, l->clear_capacity, s);
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
    char *vote = resumed_vote(c, s);
    char *resumed = mt_printf("coop_skip_ == %u ? (void)(%s%scoop_skip_ = 0) : coop_skip_ ? (void)0 : (void)",
                              s->first_point, vote, increment ? increment : "");
    free(vote);
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

/* `for (uint i = 0; ...)` around a fork point: i is transmitted (mt_is_implicit_transmit), so
 * the header assigns coop_transmit_.i instead of declaring it. */
static void rewrite_transmit_init(const mt_control *c, const mt_stmt *s)
{
    mt_file *file = c->file;
    mt_children vars = mt_children_of(s->init);
    for (size_t i = 0; i < vars.count; i++) {
        if (!mt_is_transmit_var(c, vars.items[i]))
            continue;
        unsigned name_at;
        size_t name;
        mt_loop_var_token(file, vars.items[i], &name_at, &name);
        if (i == 0) { /* the type goes */
            unsigned begin, end;
            mt_extent(file, s->init, &begin, &end);
            mt_edit_add(file, begin, name_at, MT_RANK_REPLACE, "");
        }
        char *member = mt_printf("coop_transmit_.%s", mt_transmit_name(c, vars.items[i]));
        mt_edit_add(file, name_at, file->tokens[name].end, MT_RANK_REPLACE, member);
        free(member);
    }
    free(vars.items);
}

static void rewrite_loop(const mt_control *c, layout *l, const mt_stmt *s)
{
    mt_file *file = c->file;
    int walks_in = mt_resumes(s) && !s->resume_here;
    /* a loop that holds an exit, or that a killed group reaches (a tail loop is not wrapped),
     * stops once coop_skip_ is set */
    int stops = !walks_in && (s->exits || (s->may_exit && mt_resumes(s)) || s->pushed);
    if (s->kind == MT_ST_FOR && s->has_init && s->init_is_decl && mt_declares_transmit(c, s->init))
        rewrite_transmit_init(c, s);
    if (s->resume_here)
        resume_at_loop(c, l, s);
    if (!walks_in && !stops)
        return;
    unsigned cond_begin, cond_end;
    if (s->has_cond) {
        mt_expression_range(file, s->cond, &cond_begin, &cond_end);
    } else {
        cond_begin = cond_end = s->second_semicolon;
    }
    /* a condition with side effects must not run once the group stops: && then */
    int short_circuit = stops && s->has_cond && mt_effects_of(c, s->cond).writes;
    mt_buf prefix = {0}, suffix = {0};
    mt_buf_add(&suffix, "");
    if (walks_in && s->kind == MT_ST_DO) {
        mt_buf_add(&prefix, "(!coop_skip_ & ");
    } else if (walks_in) {
        char *test = point_test(s);
        int single = s->first_point == s->last_point;
        mt_buf_printf(&prefix, "(%s%s%s | (!coop_skip_ & ", single ? "(" : "", test, single ? ")" : "");
        free(test);
    } else if (short_circuit) {
        mt_buf_add(&prefix, "!coop_skip_ && ");
    }
    int boolean = s->has_cond && mt_is_boolean(c, s->cond);
    mt_buf_add(&prefix, !s->has_cond ? "1" : boolean ? "(" : "!!(");
    mt_buf_add(&suffix, s->has_cond ? ")" : "");
    if (walks_in)
        mt_buf_add(&suffix, s->kind == MT_ST_DO ? ")" : "))");
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
    if (s->kind == MT_ST_FOR && s->has_init && (walks_in || (s->pushed && !s->init_is_decl))) {
        unsigned begin, end;
        init_range(c, s, &begin, &end);
        mt_edit_add(file, begin, begin, open_rank(s, 0), "coop_skip_ ? (void)0 : (void)(");
        mt_edit_add(file, end, end, close_rank(s, 0), ")");
    }
}

static void rewrite_if(const mt_control *c, const mt_stmt *s)
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
    if (!mt_resumes(s) || !s->has_cond)
        return;
    unsigned begin, end;
    mt_expression_range(file, s->cond, &begin, &end);
    const mt_stmt *then = s->count > 0 ? s->items[0] : NULL;
    char *test = then && mt_resumes(then) ? point_test(then) : mt_strdup("0");
    char *prefix = mt_printf("coop_skip_ ? %s : (", test);
    mt_edit_add(file, begin, begin, open_rank(s, 0), prefix);
    mt_edit_add(file, end, end, close_rank(s, 0), ")");
    free(prefix);
    free(test);
    if (s->has_else && s->count > 1 && !mt_resumes(s->items[1]))
        mt_edit_add(file, s->items[1]->begin, s->items[1]->begin, open_rank(s, 0), "if (!coop_skip_) ");
}

static void rewrite_tree(const mt_control *c, layout *l, const mt_stmt *s)
{
    switch (s->kind) {
    case MT_ST_PRIMITIVE:
        rewrite_primitive(c, s);
        break;
    case MT_ST_RETURN:
        if (!c->standalone)
            mt_edit_add(c->file, s->begin, s->end, MT_RANK_REPLACE, "coop_skip_ = COOP_SKIP_EXIT;");
        break;
    case MT_ST_DECL:
        if (s->transmit_decl && !c->standalone)
            rewrite_transmit_decl(c, s);
        break;
    default:
        break;
    }
    if (!c->standalone) {
        if (s->kind == MT_ST_COMPOUND)
            rewrite_block(c, l, s);
        else if (s->kind == MT_ST_WHILE || s->kind == MT_ST_DO || s->kind == MT_ST_FOR)
            rewrite_loop(c, l, s);
        else if (s->kind == MT_ST_IF)
            rewrite_if(c, s);
    }
    int join_in_front = 1;
    for (size_t i = 0; i < l->unjoined_count; i++)
        join_in_front &= l->unjoined[i] != s;
    mt_join_statement(c, s, join_in_front);
    for (size_t i = 0; i < s->count; i++)
        rewrite_tree(c, l, s->items[i]);
}

/* Standalone: `transmit` goes, the variables stay ordinary ones. Otherwise each use of a transmit
 * variable names its member of coop_transmit_. */
static void rewrite_transmit_sites(const mt_control *c)
{
    for (size_t i = 0; i < c->transmit_site_count; i++) {
        CXCursor site = c->transmit_sites[i];
        unsigned begin, end;
        if (c->standalone) {
            mt_transmit_word(c->file, site, &begin, &end);
            while (end < c->file->size && c->file->text[end] == ' ')
                end++;
            mt_edit_add(c->file, begin, end, MT_RANK_REPLACE, "");
        } else {
            mt_plain_range(c->file, site, &begin, &end);
            char *text = mt_printf("coop_transmit_.%s", mt_transmit_name(c, clang_getCursorReferenced(site)));
            mt_edit_add(c->file, begin, end, MT_RANK_REPLACE, text);
            free(text);
        }
    }
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

static void emit_wraps(const mt_control *c, const layout *l)
{
    mt_file *file = c->file;
    int *own_lines = mt_alloc((l->wrap_count ? l->wrap_count : 1) * sizeof *own_lines);
    for (size_t i = 0; i < l->wrap_count; i++)
        own_lines[i] = on_own_lines(file, &l->wraps[i]);
    for (size_t i = 0; i < l->wrap_count; i++) {
        const wrapping *w = &l->wraps[i];
        unsigned enclosing = 0;
        for (size_t j = 0; j < l->wrap_count; j++)
            enclosing += own_lines[j] && encloses(&l->wraps[j], w);
        int nesting = (int)enclosing;
        for (size_t j = 0; j < l->wrap_count; j++)
            nesting += !own_lines[j] && encloses(&l->wraps[j], w);
        if (!own_lines[i]) {
            char *open = mt_printf("if (%s) { ", w->condition);
            mt_edit_add(file, w->begin, w->begin, nesting, open);
            mt_edit_add(file, w->end, w->end, MT_RANK_CLOSE - nesting, w->join ? " } coop_pocl_join();" : " }");
            free(open);
            continue;
        }
        char *original = mt_indent_at(file, w->begin);
        char *indent = mt_padded(original, enclosing);
        unsigned first = line_start(file, w->begin), last = line_end(file, w->end);
        char *open = mt_printf("%sif (%s) {\n", indent, w->condition);
        char *close = w->join ? mt_printf("\n%s}\n%scoop_pocl_join();", indent, indent) : mt_printf("\n%s}", indent);
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
static void emit_clears(const mt_control *c, const layout *l)
{
    mt_file *file = c->file;
    for (size_t i = 0; i < l->clear_count; i++) {
        const mt_stmt *s = l->clears[i];
        char *vote = resumed_vote(c, s), *clear;
        /* a killed group reaches it too, unless no exit comes before */
        if (*vote)
            clear = mt_printf("if (coop_skip_ == %u) (void)(%scoop_skip_ = 0);", s->first_point, vote);
        else
            clear = s->may_exit ? mt_printf("if (coop_skip_ == %u) coop_skip_ = 0;", s->first_point)
                                : mt_strdup("coop_skip_ = 0;");
        free(vote);
        if (s->parent && s->parent->kind != MT_ST_COMPOUND) {
            char *open = mt_printf("{ %s ", clear);
            mt_edit_add(file, s->begin, s->begin, 1000, open);
            mt_edit_add(file, s->end, s->end, MT_RANK_CLOSE - 1000, " }");
            free(open);
            free(clear);
            continue;
        }
        char *original = mt_indent_at(file, s->begin);
        unsigned enclosing = 0;
        wrapping site = {.begin = s->begin, .end = s->end, .depth = 1 << 20};
        for (size_t j = 0; j < l->wrap_count; j++)
            enclosing += on_own_lines(file, &l->wraps[j]) && encloses(&l->wraps[j], &site);
        char *indent = mt_padded(original, enclosing);
        char *text = *original ? mt_printf("%s\n%s", clear, indent) : mt_printf("%s ", clear);
        mt_edit_add(file, s->begin, s->begin, 1000, text);
        free(text);
        free(clear);
        free(indent);
        free(original);
    }
}

static void add_prologue(const mt_control *c)
{
    if (c->standalone || (!c->transmit_count && !c->points && !c->exits))
        return;
    const mt_stmt *body = c->body;
    char *indent = body->count ? mt_indent_at(c->file, body->items[0]->begin) : mt_strdup("    ");
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
    const mt_control *c = merge->control;
    layout l = {0};
    if (!c)
        return;
    rewrite_transmit_sites(c);
    rewrite_tree(c, &l, c->body);
    emit_clears(c, &l);
    emit_wraps(c, &l);
    add_prologue(c);
    for (size_t i = 0; i < l.wrap_count; i++)
        free(l.wraps[i].condition);
    free(l.wraps);
    free(l.clears);
    free(l.unjoined);
}
