/* analyse.h: the second pass (analyse.c, analyse_functions.c, analyse_control.c,
 * analyse_flow.c). It finds on the AST what the later passes need and records it as facts,
 * deciding nothing: the kernels, helpers and calls, what each function uses (ids, primitives,
 * barriers, task arguments, local variables), the places the rewrites change, the cooperative
 * kernel's statements with their fork points and the way a forked or killed group walks through
 * them, and what the data flow over them finds for the warnings. Validation (validate.h) judges
 * these facts. */
#ifndef COOP_MERGE_ANALYSE_H
#define COOP_MERGE_ANALYSE_H

#include "parse.h"

/* ---- The pass ------------------------------------------------------------------------------ */

/* Fills merge->funcs, tasks, coop, the files' ctx_decls, merge->control and merge->findings.
 * Without a cooperative kernel (has_coop 0) only the functions are found. */
void mt_analyse(mt_merge *merge);
void mt_analysis_free(mt_merge *merge);

/* ---- Functions and calls (analyse_functions.c) -------------------------------------------- */

/* Finds the functions, and of them what the later passes need; 0 without a cooperative kernel. */
int mt_analyse_functions(mt_merge *merge);

enum mt_primitive mt_primitive_of(CXCursor call);
const char *mt_primitive_name(enum mt_primitive primitive); /* "offer_kill", ... */
enum mt_id_call mt_id_call_of(CXCursor call);
mt_func *mt_callee(mt_merge *merge, const mt_file *file, CXCursor call);
int mt_top_level_file(mt_merge *merge, const mt_file *unit, CXCursor cursor, mt_file **where);
int mt_is_transmit(CXCursor var);
CXCursor mt_record_of(CXCursor var);
int mt_is_implicit_transmit(mt_merge *merge, CXCursor var);
int mt_is_group_barrier(CXCursor call);
int mt_holds_barrier(mt_merge *merge, const mt_file *file, CXCursor statement);
int mt_plain_call(const mt_file *file, CXCursor call, unsigned *begin, unsigned *end);
int mt_constant_argument(CXCursor call, long long *value);
/* spawn_task("NAME", ...): the task it names, as a malloc'ed NAME in *name (NULL: the first
 * argument is no string literal); returns its task index, or -1 for no such task. */
long mt_spawned_task(const mt_merge *merge, CXCursor call, char **name);
int mt_ctx_parameter_token(const mt_file *file, CXCursor decl, size_t *name_token);

/* A cursor's children, without attributes and type references. */
typedef struct mt_children {
    CXCursor *items;
    size_t count, capacity;
} mt_children;

mt_children mt_children_of(CXCursor cursor);
CXCursor mt_unwrap_call(CXCursor expression);

/* ---- The cooperative kernel's statements (analyse_control.c) ------------------------------------ */

enum mt_stmt_kind {
    MT_ST_OTHER = 0,
    MT_ST_COMPOUND,
    MT_ST_IF,
    MT_ST_WHILE,
    MT_ST_DO,
    MT_ST_FOR,
    MT_ST_SWITCH,
    MT_ST_LABEL,                  /* case, default or a goto label */
    MT_ST_DECL,
    MT_ST_PRIMITIVE,              /* a statement that is one primitive call */
    MT_ST_RETURN,
    MT_ST_NULL
};

/* One statement of the cooperative kernel's body, and what a group that skips it needs. */
typedef struct mt_stmt mt_stmt;
struct mt_stmt {
    CXCursor cursor;
    enum mt_stmt_kind kind;
    unsigned begin, end;          /* the whole statement, its `;` included */
    mt_stmt *parent;
    mt_stmt **items;              /* compound: its statements; if: then, else; loops: body */
    size_t count, capacity;
    int depth;
    int has_cond, has_else;
    CXCursor cond;
    /* for loops */
    int header_unfound;           /* the parts of its header were not found (written with macros) */
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
    const mt_stmt *tail;          /* that fork point's statement, in such a loop */
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

typedef struct mt_control {
    mt_merge *merge;
    mt_func *func;
    mt_file *file;
    int standalone;
    mt_stmt *body;
    unsigned points;
    int exits;                    /* holds a kill point or a return */
    int has_goto;
    CXCursor *transmits;          /* the transmit variables, in order (with a for loop's own around a
                                     fork point: mt_is_implicit_transmit) */
    char **transmit_names;        /* their names in coop_transmit_ (two loops may both declare i) */
    size_t transmit_count, transmit_capacity;
    CXCursor *statement_calls;    /* primitive calls that are statements of their own */
    size_t statement_call_count, statement_call_capacity;
    CXCursor *transmit_sites;     /* uses of the transmit variables (standalone: their `transmit` words) */
    size_t transmit_site_count, transmit_site_capacity;
} mt_control;

/* What evaluating an expression may do. */
typedef struct mt_effects {
    mt_merge *merge;
    const mt_file *file;
    int writes;                   /* assignments, ++/--, calls that may write or synchronise */
    int reads_memory;             /* subscripts, *p, p->f */
} mt_effects;

/* How a declaration that a skipping group passes keeps its initializer from running again:
 * `T x = init;` becomes `T x; if (!coop_skip_) x = init;` (splittable), its own `const` going. */
typedef struct mt_guard {
    int needed;                   /* its initializer reads memory or has side effects */
    int splittable;
    CXCursor var;
    size_t name_token, const_token; /* const_token 0: no `const` to remove */
    unsigned init_begin;
} mt_guard;

void mt_analyse_control(mt_merge *merge);
void mt_control_free(mt_control *c);
int mt_holds_points(const mt_stmt *s);
int mt_resumes(const mt_stmt *s);
mt_effects mt_effects_of(const mt_control *c, CXCursor expression);
int mt_is_boolean(const mt_control *c, CXCursor expression);
int mt_is_transmit_var(const mt_control *c, CXCursor var);
const char *mt_transmit_name(const mt_control *c, CXCursor var);
int mt_declares_transmit(const mt_control *c, CXCursor declaration);
mt_guard mt_guard_of(const mt_control *c, const mt_stmt *s);
int mt_vote_tokens(const mt_file *file, unsigned begin, unsigned end, size_t *name, size_t *close);
int mt_loop_var_token(const mt_file *file, CXCursor var, unsigned *name_at, size_t *name);
int mt_type_in_kernel(const mt_control *c, CXCursor type);
int mt_transmit_word(const mt_file *file, CXCursor annotation, unsigned *begin, unsigned *end);

/* ---- The data flow over the cooperative kernel (analyse_flow.c) ---------------------------------- */

enum mt_finding_kind {
    MT_FINDING_GROUP_READ,        /* the number of groups read between an offer and a global barrier */
    MT_FINDING_UNTRANSMITTED      /* a variable read after a fork point before it is assigned */
};

typedef struct mt_finding {
    enum mt_finding_kind kind;
    CXCursor at;                  /* the read call, or the variable's declaration */
    CXCursor offer;               /* the offer_kill() or offer_fork(), or the fork point */
    int backward;                 /* a read before the offer (after it otherwise) */
    const char *read;             /* the id call read ("get_num_groups()"), or NULL: */
    const mt_func *callee;        /* the helper called that reads it */
    const mt_func *coop;          /* the cooperative kernel it is about */
} mt_finding;

void mt_analyse_flow(mt_merge *merge);

#endif
