/* rewrite_joins.c: where coop-merge puts coop_pocl_join(), a workgroup barrier on PoCL and nothing
 * on NVIDIA, around the kernel's own statements that hold a workgroup barrier (see the top of
 * rewrite_control.c for why). Each rule answers a reduced smith finding in tests/merge/smith/: the
 * places PoCL's work-group compiler ran wrong without a join, and those where a join made it
 * worse. It only inserts text; rewrite_control.c calls it for each statement of the tree. */
#include "rewrite.h"

#include "edit.h"

#include <stdlib.h>

int mt_is_loop(const mt_stmt *s)
{
    return s->kind == MT_ST_WHILE || s->kind == MT_ST_DO || s->kind == MT_ST_FOR;
}

typedef struct exit_search {
    int found;
} exit_search;

/* Finds a `break` or `continue` that leaves the loop being searched (not one of an inner loop's
 * or a switch's). */
static enum CXChildVisitResult find_exit(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    exit_search *search = data;
    switch (clang_getCursorKind(cursor)) {
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        search->found = 1;
        return CXChildVisit_Break;
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_ForStmt:
    case CXCursor_SwitchStmt:
        return CXChildVisit_Continue;
    default:
        return CXChildVisit_Recurse;
    }
}

/* Whether a loop is left by a `break` or `continue` of its own. */
static int left_by_jump(const mt_stmt *loop)
{
    if (!loop->count)
        return 0;
    CXCursor body = loop->items[0]->cursor;
    enum CXCursorKind kind = clang_getCursorKind(body);
    if (kind == CXCursor_BreakStmt || kind == CXCursor_ContinueStmt)
        return 1;
    exit_search search = {0};
    clang_visitChildren(body, find_exit, &search);
    return search.found;
}

/* Whether a statement after `s` in the same block holds a workgroup barrier. */
static int barrier_follows(const mt_control *c, const mt_stmt *s)
{
    const mt_stmt *block = s->parent;
    if (!block || block->kind != MT_ST_COMPOUND)
        return 0;
    int after = 0;
    for (size_t i = 0; i < block->count; i++) {
        if (after && mt_holds_barrier(c->merge, c->file, block->items[i]->cursor))
            return 1;
        after |= block->items[i] == s;
    }
    return 0;
}

/* Whether `s` is inside a loop. */
static int in_loop(const mt_stmt *s)
{
    for (const mt_stmt *up = s->parent; up; up = up->parent)
        if (mt_is_loop(up))
            return 1;
    return 0;
}

/* Whether `s` is in a branch of an `if` with no loop in between. */
static int in_branch(const mt_stmt *s)
{
    for (const mt_stmt *up = s->parent; up && !mt_is_loop(up); up = up->parent)
        if (up->kind == MT_ST_IF)
            return 1;
    return 0;
}

/* Where PoCL got worse with a join than without one, so none goes there: after a loop inside a
 * loop that a `break` or `continue` leaves (its compiler failed "Incoming edges to non-entry
 * block!" on a join between an inner loop and the `if (...) break;` of a `while (1)` around it,
 * smith seed 147) unless a later statement of its block holds a barrier (without a join between
 * two such inner loops its compiler failed the same assertion, seed 23158), and inside an `if`'s
 * branch within the same loop (a join after a loop in an `else` crashed it, seed 223): the `if`
 * itself is joined. A loop that a jump leaves is joined after: that join once lost a write before
 * the `break` (seed 228), which the joins last in a loop's body and before its jumps now keep
 * right, and without it a branch on the local id after the loop ran wrong (seed 105 with the
 * generator's later shapes). An `if` in a loop that a jump leaves is joined all the same: without
 * a join, the code after the last workgroup barrier in its branch, rejoining the path that skipped
 * the branch, lost `if (get_local_id(0) == 0)` writes there (seeds 50025, after an offer_kill, and
 * 50046, after a helper's barriers). */
static int no_join_here(const mt_control *c, const mt_stmt *s)
{
    if (in_branch(s))
        return 1;
    if (s->kind == MT_ST_IF || barrier_follows(c, s))
        return 0;
    for (const mt_stmt *up = s->parent; up; up = up->parent)
        if (mt_is_loop(up) && left_by_jump(up))
            return 1;
    return 0;
}

/* The kernel's own `if` or loop that holds a workgroup barrier gets coop_pocl_join() after it
 * (see the top of this file); one in an `if`'s branch is joined with that `if`, and one that is a
 * loop's body without braces gets them. None goes inside a loop that a jump leaves, and none
 * after a `do`-`while`, whose body ends with a join already: with one there, PoCL's work-group
 * compiler lost a group's `if (get_local_id(0) % 2u == 0u)` writes after the loop in the
 * standalone form (smith seed 118 with the generator's later shapes). */
static void join_after(const mt_control *c, const mt_stmt *s, int holds)
{
    if (!s->parent || s->parent->kind == MT_ST_IF || !holds || s->kind == MT_ST_DO ||
        no_join_here(c, s))
        return;
    if (s->parent->kind == MT_ST_COMPOUND) {
        /* on a line of its own where the `if` ends its line */
        unsigned after = s->end;
        while (after < c->file->size && (c->file->text[after] == ' ' || c->file->text[after] == '\t'))
            after++;
        char *indent = mt_indent_at(c->file, s->begin);
        char *text = after == c->file->size || c->file->text[after] == '\n' ? mt_printf("\n%scoop_pocl_join();", indent)
                                                                            : mt_strdup(" coop_pocl_join();");
        mt_edit_add(c->file, s->end, s->end, MT_JOIN_RANK, text);
        free(text);
        free(indent);
    } else {
        mt_edit_add(c->file, s->begin, s->begin, -MT_JOIN_RANK, "{ ");
        mt_edit_add(c->file, s->end, s->end, MT_JOIN_RANK, " coop_pocl_join(); }");
    }
}

/* The kernel's own `if` that holds a workgroup barrier and is in no loop gets coop_pocl_join()
 * before it too: PoCL's compiler crashed running a megakernel whose `if` around a voting barrier
 * came right after the transmit restore's barriers (smith seed 330), and ran right with a
 * barrier in front of it. In a loop's body such a join made its compiler fail an assertion
 * (seed 111), so none goes there. */
static void join_before(const mt_control *c, const mt_stmt *s, int holds)
{
    if (!s->parent || s->parent->kind != MT_ST_COMPOUND || !holds ||
        no_join_here(c, s))
        return;
    for (const mt_stmt *up = s->parent; up; up = up->parent)
        if (mt_is_loop(up))
            return;
    char *indent = mt_indent_at(c->file, s->begin);
    char *text = mt_printf("coop_pocl_join();\n%s", indent);
    mt_edit_add(c->file, s->begin, s->begin, -MT_JOIN_RANK, text);
    free(text);
    free(indent);
}

/* A loop that holds a workgroup barrier gets coop_pocl_join() before it and first in its body:
 * the barriers PoCL's compiler itself adds around a loop with barriers when it can prove the
 * loop uniform, which it cannot for the merged loops (their conditions read coop_skip_). Without
 * them it ran the code between a barrier and the next one wrong in a loop left by `break`:
 * `if (get_local_id(0) == 0)` first in the body, after the loop's previous vote, was taken in
 * every work-item (smith seed 6155), or after a voting barrier first in the body in none
 * (seed 6011). One goes last in the body too, where PoCL puts a barrier of its own at a uniform
 * loop's latch: without it, after an inner `while (1)` left by `break` (where no join may go:
 * seed 228), `if (get_local_id(0) == 0)` at the end of the body was taken in every work-item
 * (seed 60235). Unlike the joins after a statement, these go into loops a jump leaves too. None
 * goes before a loop in an `if`'s branch: after an `if` holding a voting barrier in an `else`,
 * such a join made its compiler fail "Incoming edges to non-entry block!" (seed 60116), nor
 * right after a wrapped run that only jumps (`in_front`: seed 90202, rewrite_block). */
static void join_loop(const mt_control *c, const mt_stmt *s, int holds, int in_front)
{
    if (!s->parent || !s->count || !holds)
        return;
    if (in_front && s->parent->kind == MT_ST_COMPOUND && !in_branch(s)) {
        char *indent = mt_indent_at(c->file, s->begin);
        char *text = mt_printf("coop_pocl_join();\n%s", indent);
        mt_edit_add(c->file, s->begin, s->begin, -MT_JOIN_RANK, text);
        free(text);
        free(indent);
    }
    const mt_stmt *body = s->items[0];
    if (body->kind == MT_ST_COMPOUND) {
        char *outer = mt_indent_at(c->file, s->begin);
        char *indent = body->count ? mt_indent_at(c->file, body->items[0]->begin) : mt_padded(outer, 1);
        char *text = mt_printf("\n%scoop_pocl_join();", indent);
        mt_edit_add(c->file, body->begin + 1, body->begin + 1, -MT_JOIN_RANK, text);
        free(text);
        /* and last: on a line of its own before the `}` where the `}` has one */
        unsigned close = body->end - 1, line = close;
        while (line > body->begin && (c->file->text[line - 1] == ' ' || c->file->text[line - 1] == '\t'))
            line--;
        if (line > body->begin && c->file->text[line - 1] == '\n') {
            text = mt_printf("%scoop_pocl_join();\n", indent);
            mt_edit_add(c->file, line, line, MT_JOIN_RANK, text);
        } else {
            text = mt_strdup(" coop_pocl_join(); ");
            mt_edit_add(c->file, close, close, MT_JOIN_RANK, text);
        }
        free(text);
        free(indent);
        free(outer);
    } else {
        mt_edit_add(c->file, body->begin, body->begin, -MT_JOIN_RANK, "{ coop_pocl_join(); ");
        mt_edit_add(c->file, body->end, body->end, MT_JOIN_RANK, " coop_pocl_join(); }");
    }
}

/* A statement that holds a workgroup barrier in an `if`'s branch, followed there by statements
 * that hold none, gets coop_pocl_join() last in the branch. PoCL 3.1 ran a plain OpenCL kernel of
 * that shape wrong, `if (n) { for (...) barrier(...); if (get_local_id(0) < 2u) { ... } else if
 * (get_group_id(0) == 0) { ... } }`: the `if`-`else if` added nothing, or the group ran for ever
 * (smith seed 14); a barrier last in the branch made it right, one right after the loop or after
 * the `if` did not. A global barrier there instead of the loop, followed by
 * `if (coop_group_id(ctx) == 0) { if (get_local_id(0) % 2u == 1u) ... }`, lost the odd work-items'
 * writes in that `if` and after the branch in the megakernel (seed 80155); the join last in the
 * branch made it right there too. */
static void join_branch_tail(const mt_control *c, const mt_stmt *s)
{
    const mt_stmt *block = s->parent;
    if (!block || block->kind != MT_ST_COMPOUND || !block->parent || block->parent->kind != MT_ST_IF ||
        block->items[block->count - 1] == s || !mt_holds_barrier(c->merge, c->file, s->cursor) ||
        barrier_follows(c, s))
        return;
    /* on a line of its own before the branch's `}` where the `}` has one */
    unsigned close = block->end - 1, line = close;
    while (line > block->begin && (c->file->text[line - 1] == ' ' || c->file->text[line - 1] == '\t'))
        line--;
    if (line > block->begin && c->file->text[line - 1] == '\n') {
        char *indent = mt_indent_at(c->file, s->begin);
        char *text = mt_printf("%scoop_pocl_join();\n", indent);
        mt_edit_add(c->file, line, line, MT_JOIN_RANK, text);
        free(text);
        free(indent);
    } else {
        mt_edit_add(c->file, close, close, MT_JOIN_RANK, " coop_pocl_join(); ");
    }
}

/* An `if` that holds a workgroup barrier gets coop_pocl_join() first in each branch that holds
 * one. In the megakernel, after a helper's barriers and the join after them, `if (c) { if
 * (coop_group_id(ctx) == 0) { if (get_local_id(0) % 2u == 0u) ... } v = resizing_global_barrier_any(...);
 * ... }` in a loop took that branch on the local id in every work-item of group 0, under every
 * chaos seed (smith seed 71327); the user's kernel as plain OpenCL, with a workgroup vote for the
 * global one, and the standalone form ran right. A join first in the branch, or before the `if`,
 * made it right; before the `if` such a join made PoCL's compiler fail an assertion in a loop
 * (seed 111), so it goes into the branch, but not before a loop there (seed 60116, join_loop).
 * Only for an `if` in a loop and in no other `if`'s branch: in `else if (n0 > 0u) { if (n1 > 2u)
 * { <a loop of global barriers> } else if (n0 > 2u) { if (get_local_id(0) < 7u) ... } }` outside
 * loops, such a join first in the outer branch made PoCL take that `if` in every work-item, or
 * crash, in both forms (seed 70007). */
static void join_branch_head(const mt_control *c, const mt_stmt *s, int holds)
{
    if (s->kind != MT_ST_IF || !holds || !in_loop(s) || in_branch(s))
        return;
    for (size_t i = 0; i < s->count; i++) {
        const mt_stmt *branch = s->items[i];
        if (branch->kind != MT_ST_COMPOUND || !branch->count || mt_is_loop(branch->items[0]) ||
            !mt_holds_barrier(c->merge, c->file, branch->cursor))
            continue;
        char *indent = mt_indent_at(c->file, branch->items[0]->begin);
        char *text = mt_printf("\n%scoop_pocl_join();", indent);
        mt_edit_add(c->file, branch->begin + 1, branch->begin + 1, -MT_JOIN_RANK, text);
        free(text);
        free(indent);
    }
}

/* Whether a statement is or holds a `break` or `continue` of the loop around it. */
int mt_holds_jump(const mt_stmt *s)
{
    enum CXCursorKind kind = clang_getCursorKind(s->cursor);
    if (kind == CXCursor_BreakStmt || kind == CXCursor_ContinueStmt)
        return 1;
    if (mt_is_loop(s) || s->kind == MT_ST_SWITCH)
        return 0;
    exit_search search = {0};
    clang_visitChildren(s->cursor, find_exit, &search);
    return search.found;
}

/* A statement that leaves a loop holding a workgroup barrier by `break` or `continue` gets
 * coop_pocl_join() before it: in the code between a barrier and a `break` PoCL's compiler took
 * `if (get_local_id(0) == 0)` in no work-item (smith seed 20234, after a global barrier, and
 * 6011), and a barrier in front of the jump made it right. Not right after a loop, where such a
 * join made its compiler fail an assertion (seed 147). A jump that is an `if`'s branch without
 * braces gets them and a join of its own, as one in braces has: with the join only before the
 * `if (...) continue;`, PoCL 3.1 ran a plain OpenCL kernel wrong, whose body went on with
 * `if (get_local_id(0) % 2u == 1u)` writes, a helper's barriers and a barrier last: every
 * work-item took that `if` (smith seed 80160). */
static void join_before_jump(const mt_control *c, const mt_stmt *s)
{
    if (!s->parent || !mt_holds_jump(s))
        return;
    if (s->parent->kind == MT_ST_IF) {
        enum CXCursorKind kind = clang_getCursorKind(s->cursor);
        if (kind != CXCursor_BreakStmt && kind != CXCursor_ContinueStmt)
            return;
    } else if (s->parent->kind != MT_ST_COMPOUND) {
        return;
    }
    const mt_stmt *loop = s->parent;
    while (loop && !mt_is_loop(loop)) {
        if (loop->kind == MT_ST_SWITCH)
            return;
        loop = loop->parent;
    }
    if (!loop || !mt_holds_barrier(c->merge, c->file, loop->cursor))
        return;
    for (size_t i = 1; i < s->parent->count; i++)
        if (s->parent->items[i] == s && mt_is_loop(s->parent->items[i - 1]))
            return;
    /* on the jump's line: the wraps around it re-indent its lines, not text inserted in them */
    if (s->parent->kind == MT_ST_IF) {
        mt_edit_add(c->file, s->begin, s->begin, -MT_JOIN_RANK, "{ coop_pocl_join(); ");
        mt_edit_add(c->file, s->end, s->end, MT_JOIN_RANK, " }");
    } else {
        mt_edit_add(c->file, s->begin, s->begin, -MT_JOIN_RANK, "coop_pocl_join(); ");
    }
}

/* Every join that statement `s` gets, in an order that keeps the output stable; none in front of
 * it unless `in_front`. */
void mt_join_statement(const mt_control *c, const mt_stmt *s, int in_front)
{
    /* whether it holds a workgroup barrier: a walk of its subtree, taken once for all rules */
    int holds = (s->kind == MT_ST_IF || mt_is_loop(s)) && mt_holds_barrier(c->merge, c->file, s->cursor);
    if (s->kind == MT_ST_IF) {
        if (in_front)
            join_before(c, s, holds);
        join_branch_head(c, s, holds);
    }
    if (mt_is_loop(s))
        join_loop(c, s, holds, in_front);
    join_branch_tail(c, s);
    join_before_jump(c, s);
    if (s->kind == MT_ST_IF || mt_is_loop(s))
        join_after(c, s, holds);
}
