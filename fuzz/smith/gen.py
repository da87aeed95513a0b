"""gen.py: writes one random cooperative kernel in the paper's language per seed (docs/TESTING.md).

A program is a tree of statements drawn from a seeded random.Random, so it is the same for the
same seed on every machine. Every statement has a number (its place in a walk of the whole tree);
`drop` removes the statements so numbered (with what they hold), which is how the minimizer
shrinks a program without ever writing one the generator could not have written.

The program's results do not depend on the schedule: control flow is the same in every group
(conditions read only loop counters, kernel arguments and votes; a branch on the local or group
id holds only barrier-free work); output words are added to with atomics, exactly once per
dynamic execution of a statement, either by work spread over the groups between two global
barriers with no offer between them, or by group 0 alone (never killed, never forked). The same
tree is interpreted here, jumps followed, to give the expected words.
"""

import random

MASK = 0xFFFFFFFF
LOCAL_WORDS = 32  # each local array; the local size is at most this
ARGS = 3          # the kernel's loop-bound arguments n0 .. n2


class Node:
    def __init__(self, kind, **fields):
        self.kind = kind
        self.id = -1
        self.body = []
        self.orelse = []
        self.__dict__.update(fields)


class Program:
    """What one seed gives: the tree, the helpers and tasks it uses, and the launch."""

    def __init__(self, seed, shapes=True):
        self.seed = seed
        r = random.Random(seed)
        self.r = r
        # The shapes added after the first campaigns (jumps in a loop's middle, do-while, else-if
        # chains, branches on the ids around barriers) draw from their own stream, so that a seed's
        # statements stay the ones it had before them; without `shapes` the program is the one
        # the seed gave before them.
        self.shapes = random.Random("shapes %d" % seed) if shapes else None
        self.local_size = r.choice([8, 16])
        self.max_groups = r.choice([2, 3, 4])
        self.args = [r.randint(1, 3) for _ in range(ARGS)]
        self.width = r.randint(17, 70)          # W: words a spread statement covers
        self.counters = 0
        self.accs = [r.randint(0, 9) for _ in range(r.randint(0, 2))]
        self.votes = 0
        self.locals = r.randint(1, 2)
        self.helpers = self._helpers()
        self.statements = 0
        self.budget = r.randint(3, 14)
        # PoCL's compile time grows fast with the workgroup barriers a kernel holds (a global
        # barrier holds some, a helper two): this caps them.
        self.weight = 0
        self.max_weight = r.randint(2, 7)
        self.body = self._block(0, [], 1)
        self.tasks = self._tasks()
        nodes = []
        self._number(self.body, nodes)
        self.nodes = nodes

    # ---- Generation -----------------------------------------------------------------------

    def _helpers(self):
        """Helpers: kind, where (header or .cl) and a constant. Each holds workgroup barriers."""
        r = self.r
        helpers = []
        for i in range(r.randint(0, 4)):
            kind = r.choice(["share", "lsum", "rot", "spread", "pair"])
            where = "cl" if kind == "pair" else r.choice(["h", "cl"])
            helpers.append({"name": "%s_%d" % (kind, i), "kind": kind, "where": where, "c": r.randint(1, 9)})
        if any(h["kind"] == "pair" for h in helpers):
            helpers.append({"name": "share_h", "kind": "share", "where": "h", "c": 1})
        return helpers

    def _expr(self, scope, extra=None, r=None):
        """A uniform value: terms over loop counters in scope and accumulators, and a constant."""
        r = r or self.r
        terms = []
        names = list(scope) + ["a%d" % i for i in range(len(self.accs))]
        for name in r.sample(names, min(len(names), r.randint(0, 2))):
            terms.append((r.randint(1, 7), name))
        if extra and r.random() < 0.7:
            terms.append((r.randint(1, 5), extra))
        return {"terms": terms, "c": r.randint(0, 40)}

    def _cond(self, scope, r=None):
        r = r or self.r
        if scope and r.random() < 0.7:
            return {"var": r.choice(scope), "mod": r.randint(2, 3), "eq": r.randint(0, 1)}
        return {"arg": r.randrange(ARGS), "gt": r.randint(0, 2)}

    def _bound(self):
        r = self.r
        if r.random() < 0.5:
            return {"arg": r.randrange(ARGS)}
        return {"const": r.randint(0, 3)}

    def _block(self, depth, scope, trips):
        r = self.r
        block = []
        for _ in range(r.randint(1, 4)):
            if self.statements >= self.budget:
                break
            self.statements += 1
            block.extend(self._around(self._statement(depth, scope, trips), scope))
        return block

    def _around(self, node, scope):
        """The node, often between branches on the local or group id around barrier-free work
        when it holds a barrier: the shape of PoCL's work-group compiler faults so far."""
        s = self.shapes
        if not s or not holds_barrier(node):
            return [node]
        nodes = [node]
        if s.random() < 0.25:
            nodes.insert(0, self._branch(scope))
        if s.random() < 0.25:
            nodes.append(self._branch(scope))
        return nodes

    def _branch(self, scope):
        s = self.shapes
        on = s.choice(["lid", "gid"])
        node = Node("branch", on=on, expr=self._expr(scope, "lid", s))
        if on == "lid":
            node.below = s.randint(1, self.local_size - 1)
            node.other = s.randint(1, 9) if s.random() < 0.5 else None
        else:
            node.mod, node.eq = 2, s.randint(0, 1)
        return node

    def _statement(self, depth, scope, trips):
        r = self.r
        heavy = self.weight < self.max_weight
        choices = ["group0"] * 2 + ["private", "acc"]
        if heavy:
            choices += ["prim"] * 3 + ["spread"] * 2 + ["vote"] + (["call"] * 3 if self.helpers else [])
        if depth < 3 and trips < 30:
            choices += ["loop"] * 4 + ["if"]
        kind = r.choice(choices)
        self.weight += {"prim": 1, "spread": 2, "vote": 1, "call": 1}.get(kind, 0)
        if kind == "prim":
            return Node("prim", prim=r.choice(["offer_kill", "offer_fork", "global_barrier",
                                               "resizing_global_barrier"]))
        if kind == "spread":
            spreaders = [h for h in self.helpers if h["kind"] == "spread"]
            how = r.choice(["global_id", "shared"] + (["helper"] if spreaders else []))
            return Node("spread", lead=r.choice(["global_barrier", "resizing_global_barrier"]), how=how,
                        helper=r.choice(spreaders) if how == "helper" else None, expr=self._expr(scope, "w"))
        if kind == "group0":
            return Node("group0", expr=self._expr(scope, "lid"))
        if kind == "private":
            return Node("private", expr=self._expr(scope), k=r.randint(2, 5))
        if kind == "acc" and self.accs:
            return Node("acc", acc=r.randrange(len(self.accs)), expr=self._expr(scope))
        if kind in ("acc", "vote"):
            self.votes += 1
            return Node("vote", var=self.votes - 1, resizing=r.random() < 0.5, cond=self._cond(scope))
        if kind == "call":
            callable_ = [h for h in self.helpers if h["kind"] != "spread"]
            if not callable_:
                return Node("group0", expr=self._expr(scope, "lid"))
            return Node("call", helper=r.choice(callable_), local=r.randrange(self.locals), expr=self._expr(scope))
        if kind == "if":
            node = Node("if", cond=self._cond(scope))
            node.body = self._block(depth + 1, scope, trips)
            if r.random() < 0.4:
                node.orelse = self._block(depth + 1, scope, trips)
            self._chain(node, scope)
            return node
        loop = r.choice(["for", "for", "while", "while1", "vote_loop"])
        self.counters += 1
        var = "i%d" % (self.counters - 1)
        bound = self._bound()
        node = Node("loop", loop=loop, var=var, bound=bound)
        if loop == "vote_loop":
            self.votes += 1
            node.vote = self.votes - 1
            node.resizing = r.random() < 0.6
        node.body = self._block(depth + 1, scope + [var], trips * 3)
        # the paper's round: a loop whose body ends with an offer or a resizing barrier, often
        # after a helper holding workgroup barriers (issue 39's miscompile: such a call in a loop
        # with a fork point, inside a loop with another)
        if self.weight < self.max_weight and r.random() < 0.4:
            self.weight += 1
            callable_ = [h for h in self.helpers if h["kind"] != "spread"]
            if callable_ and r.random() < 0.5:
                self.weight += 1
                call = Node("call", helper=r.choice(callable_), local=r.randrange(self.locals),
                            expr=self._expr(scope + [var]))
                node.body.extend(self._around(call, scope + [var]))
            prim = Node("prim", prim=r.choice(["resizing_global_barrier", "offer_fork", "offer_kill"]))
            node.body.extend(self._around(prim, scope + [var]))
        self._loop_shapes(node, scope + [var])
        return node

    def _chain(self, node, scope):
        """Often turns `else { A B }` into `else if (c) { A } else { B }` (or `else if (c) { A B }`),
        and so on down the else; an `if` without an else may first give the end of its body to an
        `else if`."""
        s = self.shapes
        if not s:
            return
        if not node.orelse and len(node.body) > 1 and s.random() < 0.4:
            cut = s.randint(1, len(node.body) - 1)
            node.body, node.orelse = node.body[:cut], node.body[cut:]
            node = self._link(node, scope, len(node.orelse))
        while node.orelse and s.random() < 0.5:
            node = self._link(node, scope, s.randint(1, len(node.orelse)))

    def _link(self, node, scope, cut):
        """Makes the first `cut` statements of the node's else an `else if`; returns that `if`."""
        rest = node.orelse
        link = Node("if", cond=self._cond(scope, self.shapes), chain=True)
        link.body, link.orelse = rest[:cut], rest[cut:]
        node.orelse = [link]
        return link

    def _loop_shapes(self, node, scope):
        """Often makes a while loop a do-while, and puts an `if (c) break;` (or `continue;` in a
        for loop, where the increment is not skipped) before some statement of the body."""
        s = self.shapes
        if not s:
            return
        if node.loop in ("while", "while1") and s.random() < 0.35:
            node.loop = "do"
        if node.body and s.random() < 0.4:
            jump = "continue" if node.loop == "for" and s.random() < 0.5 else "break"
            at = s.randint(1 if len(node.body) > 1 else 0, len(node.body) - 1)
            node.body.insert(at, Node("jump", jump=jump, cond=self._cond(scope, s)))

    def _tasks(self):
        r = self.r
        tasks = [{"name": "smith_task0", "kind": "args", "groups": r.randint(2, 6),
                  "args": [r.randint(0, 99), r.randint(0, 99)], "c": r.randint(1, 9)}]
        if r.random() < 0.5:
            tasks.append({"name": "smith_task1", "kind": "local", "groups": r.randint(1, 4),
                          "args": [r.randint(0, 99), 0], "c": r.randint(1, 9)})
        return tasks

    def _number(self, block, nodes):
        for node in block:
            node.id = len(nodes)
            nodes.append(node)
            self._number(node.body, nodes)
            self._number(node.orelse, nodes)


# ---- Dropping statements ------------------------------------------------------------------

def drop(program, ids):
    """Removes the statements numbered `ids` (and what they hold) from the program's tree."""
    ids = set(ids)

    def keep(block):
        out = []
        for node in block:
            if node.id in ids:
                continue
            node.body = keep(node.body)
            node.orelse = keep(node.orelse)
            out.append(node)
        return out

    program.body = keep(program.body)
    return program


def walk(block):
    for node in block:
        yield node
        yield from walk(node.body)
        yield from walk(node.orelse)


def holds_barrier(node):
    """Whether the statement reaches a workgroup barrier (every global barrier and offer does)."""
    if node.kind in ("prim", "spread", "vote", "call") or getattr(node, "loop", None) == "vote_loop":
        return True
    return any(holds_barrier(n) for n in node.body + node.orelse)


# ---- Output regions -----------------------------------------------------------------------

def layout(program):
    """Gives each statement that writes output its first word in `out`; returns the word count."""
    words = 0
    for node in walk(program.body):
        size = {"spread": program.width, "group0": program.local_size, "private": 1,
                "call": program.local_size, "vote": program.local_size,
                "branch": program.local_size}.get(node.kind, 0)
        node.base = words
        words += size
    return max(words, 1)


# ---- Rendering --------------------------------------------------------------------------

def render_expr(e, extra_name=None):
    parts = ["%du * %s" % (coef, extra_name if name in ("w", "lid") else name) for coef, name in e["terms"]]
    parts.append("%du" % e["c"])
    return "(" + " + ".join(parts) + ")"


def render_cond(c):
    if "var" in c:
        return "%s %% %du == %du" % (c["var"], c["mod"], c["eq"])
    return "n%d > %du" % (c["arg"], c["gt"])


def render_bound(b):
    return "n%d" % b["arg"] if "arg" in b else "%du" % b["const"]


HELPER_BODIES = {
    "share": """uint {name}(local uint *s, uint v)
{{
    if (get_local_id(0) == 0)
        s[0] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}}
""",
    "lsum": """uint {name}(local uint *s, uint v)
{{
    s[get_local_id(0)] = v + {c}u * (uint)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = 0;
    for (uint j = 0; j < get_local_size(0); j++)
        sum += s[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    return sum;
}}
""",
    "rot": """uint {name}(local uint *s, uint v)
{{
    s[get_local_id(0)] = v * ((uint)get_local_id(0) + {c}u);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[(get_local_id(0) + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}}
""",
    "spread": """void {name}(global uint *out, uint base, uint width, uint v)
{{
    for (uint w = get_global_id(0); w < width; w += get_global_size(0))
        atomic_add(&out[base + w], v + {c}u * w);
}}
""",
    "pair": """uint {name}(local uint *s, uint v)
{{
    uint first = share_h(s, v);
    return first + {c}u * share_h(s, v + 1u);
}}
""",
}


def helper_source(h):
    return HELPER_BODIES[h["kind"]].format(name=h["name"], c=h["c"])


def used_helpers(program):
    names = set()
    for node in walk(program.body):
        h = getattr(node, "helper", None)
        if h:
            names.add(h["name"])
            if h["kind"] == "pair":
                names.add("share_h")
    return [h for h in program.helpers if h["name"] in names]


PLAIN_PRELUDE = """/* The cooperative kernel below as plain OpenCL, for one group (fuzz/smith/smith-run.c runs it
 * so): no libcoop. With one group a global barrier is a workgroup barrier, an offer does nothing
 * and a vote is the group's. Whether the platform runs the user's kernel right, apart from
 * coop-merge's rewriting. */
#define transmit
#define offer_kill() ((void)0)
#define offer_fork() ((void)0)
#define global_barrier() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#define resizing_global_barrier() global_barrier()
#define global_barrier_any(x) plain_any(plain_vote, (x))
#define resizing_global_barrier_any(x) plain_any(plain_vote, (x))
#define shared_num_groups() get_num_groups(0)

int plain_any(local int *vote, int x)
{
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        vote[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x)
        vote[0] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    int any = vote[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return any;
}
"""


def render(program, plain=False):
    """The cooperative kernel's file, the header's (or None) and the tasks' file. With `plain`, the
    kernel's file is the same kernel as plain OpenCL for one group, the header's helpers in it."""
    words = layout(program)
    helpers = used_helpers(program)
    header = [h for h in helpers if h["where"] == "h"]
    inline = [h for h in helpers if h["where"] == "cl"]
    lines = []
    emit = lines.append
    emit("/* smith seed %d: a generated cooperative kernel (fuzz/smith/gen.py). */" % program.seed)
    if plain:
        emit(PLAIN_PRELUDE)
        for h in header:
            emit(helper_source(h))
    elif header:
        emit('#include "smith_helpers.h"')
    emit("")
    for h in inline:
        emit(helper_source(h))
    emit("kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)")
    emit("{")
    if plain:
        emit("    local int plain_vote[1];")
    for i in range(program.locals):
        emit("    local uint s%d[%d];" % (i, LOCAL_WORDS))
    for i, value in enumerate(program.accs):
        emit("    transmit uint a%d = %du;" % (i, value))
    counters = [node for node in walk(program.body) if node.kind == "loop"]
    for node in counters:
        if node.loop != "for":
            emit("    transmit uint %s;" % node.var)
    votes = sorted({node.var for node in walk(program.body) if node.kind == "vote"} |
                   {node.vote for node in counters if node.loop == "vote_loop"})
    for v in votes:
        emit("    transmit int v%d;" % v)
    _render_block(program, program.body, 1, emit)
    emit("}")
    kernel = "\n".join(lines) + "\n"
    header_text = None
    if header:
        header_text = "/* smith seed %d: helpers in an included header. */\n" % program.seed
        header_text += "\n".join(helper_source(h) for h in header)
    return kernel, header_text, render_tasks(program), words


def _render_block(program, block, depth, emit):
    pad = "    " * depth
    for node in block:
        k = node.kind
        if k == "prim":
            emit("%s%s();" % (pad, node.prim))
        elif k == "spread":
            emit("%s%s();" % (pad, node.lead))
            value = render_expr(node.expr, "w")
            if node.how == "global_id":
                emit("%sfor (uint w = get_global_id(0); w < width; w += get_global_size(0))" % pad)
                emit("%s    atomic_add(&out[%du + w], %s);" % (pad, node.base, value))
            elif node.how == "shared":
                emit("%s{" % pad)
                emit("%s    uint m = shared_num_groups();" % pad)
                emit("%s    for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;"
                     % pad)
                emit("%s         w += m * get_local_size(0))" % pad)
                emit("%s        atomic_add(&out[%du + w], %s);" % (pad, node.base, value))
                emit("%s}" % pad)
            else:
                emit("%s%s(out, %du, width, %s);" % (pad, node.helper["name"], node.base,
                                                     render_expr(node.expr, "0u")))
            emit("%sglobal_barrier();" % pad)
        elif k == "group0":
            emit("%sif (get_group_id(0) == 0)" % pad)
            emit("%s    atomic_add(&out[%du + get_local_id(0)], %s);" % (pad, node.base,
                                                                       render_expr(node.expr, "(uint)get_local_id(0)")))
        elif k == "private":
            emit("%s{" % pad)
            emit("%s    uint p = %s;" % (pad, render_expr(node.expr)))
            emit("%s    p = p * %du + 1u;" % (pad, node.k))
            emit("%s    if (get_group_id(0) == 0 && get_local_id(0) == 0)" % pad)
            emit("%s        atomic_add(&out[%du], p);" % (pad, node.base))
            emit("%s}" % pad)
        elif k == "acc":
            emit("%sa%d += %s;" % (pad, node.acc, render_expr(node.expr)))
        elif k == "vote":
            fn = "resizing_global_barrier_any" if node.resizing else "global_barrier_any"
            emit("%sv%d = %s(get_local_id(0) == 0 && %s);" % (pad, node.var, fn, render_cond(node.cond)))
            emit("%sif (get_group_id(0) == 0)" % pad)
            emit("%s    atomic_add(&out[%du + get_local_id(0)], (uint)v%d + 1u);" % (pad, node.base, node.var))
        elif k == "call":
            emit("%s{" % pad)
            emit("%s    uint h = %s(s%d, %s);" % (pad, node.helper["name"], node.local, render_expr(node.expr)))
            emit("%s    if (get_group_id(0) == 0)" % pad)
            emit("%s        atomic_add(&out[%du + get_local_id(0)], h);" % (pad, node.base))
            emit("%s}" % pad)
        elif k == "if":
            emit("%sif (%s) {" % (pad, render_cond(node.cond)))
            _render_block(program, node.body, depth + 1, emit)
            while len(node.orelse) == 1 and getattr(node.orelse[0], "chain", False):
                node = node.orelse[0]
                emit("%s} else if (%s) {" % (pad, render_cond(node.cond)))
                _render_block(program, node.body, depth + 1, emit)
            if node.orelse:
                emit("%s} else {" % pad)
                _render_block(program, node.orelse, depth + 1, emit)
            emit("%s}" % pad)
        elif k == "jump":
            emit("%sif (%s)" % (pad, render_cond(node.cond)))
            emit("%s    %s;" % (pad, node.jump))
        elif k == "branch":
            value = render_expr(node.expr, "(uint)get_local_id(0)")
            if node.on == "lid":
                emit("%sif (get_local_id(0) < %du) {" % (pad, node.below))
                emit("%s    if (get_group_id(0) == 0)" % pad)
                emit("%s        atomic_add(&out[%du + get_local_id(0)], %s);" % (pad, node.base, value))
                if node.other is not None:
                    emit("%s} else if (get_group_id(0) == 0) {" % pad)
                    emit("%s    atomic_add(&out[%du + get_local_id(0)], %du);" % (pad, node.base, node.other))
                emit("%s}" % pad)
            else:
                emit("%sif (get_group_id(0) == 0) {" % pad)
                emit("%s    if (get_local_id(0) %% %du == %du)" % (pad, node.mod, node.eq))
                emit("%s        atomic_add(&out[%du + get_local_id(0)], %s);" % (pad, node.base, value))
                emit("%s}" % pad)
        elif k == "loop":
            v, bound = node.var, render_bound(node.bound)
            if node.loop == "for":
                emit("%sfor (uint %s = 0; %s < %s; %s++) {" % (pad, v, v, bound, v))
                _render_block(program, node.body, depth + 1, emit)
                emit("%s}" % pad)
            elif node.loop == "while":
                emit("%s%s = 0;" % (pad, v))
                emit("%swhile (%s < %s) {" % (pad, v, bound))
                _render_block(program, node.body, depth + 1, emit)
                emit("%s    %s++;" % (pad, v))
                emit("%s}" % pad)
            elif node.loop == "while1":
                emit("%s%s = 0;" % (pad, v))
                emit("%swhile (1) {" % pad)
                _render_block(program, node.body, depth + 1, emit)
                emit("%s    %s++;" % (pad, v))
                emit("%s    if (%s >= %s)" % (pad, v, bound))
                emit("%s        break;" % pad)
                emit("%s}" % pad)
            elif node.loop == "do":
                emit("%s%s = 0;" % (pad, v))
                emit("%sdo {" % pad)
                _render_block(program, node.body, depth + 1, emit)
                emit("%s    %s++;" % (pad, v))
                emit("%s} while (%s < %s);" % (pad, v, bound))
            else:
                fn = "resizing_global_barrier_any" if node.resizing else "global_barrier_any"
                emit("%s%s = 0;" % (pad, v))
                emit("%sv%d = 1;" % (pad, node.vote))
                emit("%swhile (v%d) {" % (pad, node.vote))
                _render_block(program, node.body, depth + 1, emit)
                emit("%s    %s++;" % (pad, v))
                emit("%s    v%d = %s(get_local_id(0) == 0 && %s < %s);" % (pad, node.vote, fn, v, bound))
                emit("%s}" % pad)


def render_tasks(program):
    out = ["/* smith seed %d: tasks reading their plan's arguments. */" % program.seed]
    for t in program.tasks:
        if t["kind"] == "args":
            out.append("""kernel void {name}(global uint *tout0, uint tn0)
{{
    uint g = get_global_id(0);
    if (g < tn0)
        tout0[g] = get_task_arg(0) * {c}u + g * 3u + get_task_arg(1);
}}
""".format(name=t["name"], c=t["c"]))
        else:
            out.append("""kernel void {name}(global uint *tout1)
{{
    local uint t[{words}];
    uint g = get_global_id(0);
    t[get_local_id(0)] = g + get_task_arg(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    tout1[g] = t[(get_local_id(0) + 1) % get_local_size(0)] * {c}u;
}}
""".format(name=t["name"], c=t["c"], words=LOCAL_WORDS))
    return "\n".join(out)


# ---- The reference: the program interpreted --------------------------------------------------

def value(e, env, extra=0):
    total = e["c"]
    for coef, name in e["terms"]:
        total += coef * (extra if name in ("w", "lid") else env[name])
    return total & MASK


def cond_true(c, env, program):
    if "var" in c:
        return env[c["var"]] % c["mod"] == c["eq"]
    return program.args[c["arg"]] > c["gt"]


def bound_value(b, program):
    return program.args[b["arg"]] if "arg" in b else b["const"]


def helper_value(h, v, lid, L):
    k, c = h["kind"], h["c"]
    if k == "share":
        return v & MASK
    if k == "lsum":
        return (L * v + c * L * (L - 1) // 2) & MASK
    if k == "rot":
        return (v * ((lid + 1) % L + c)) & MASK
    if k == "pair":
        return (v + c * (v + 1)) & MASK
    raise ValueError(k)


def expected(program, words):
    """The output words a run must leave: the program executed once, as one group would."""
    out = [0] * words
    L = program.local_size
    env = {"a%d" % i: v for i, v in enumerate(program.accs)}

    def add(i, v):
        out[i] = (out[i] + v) & MASK

    def run(block):
        """Runs the block; returns the jump ("break" or "continue") that left it, or None."""
        for node in block:
            k = node.kind
            if k == "jump":
                if cond_true(node.cond, env, program):
                    return node.jump
            elif k == "branch":
                for lid in range(L):
                    if node.on == "lid" and lid < node.below:
                        add(node.base + lid, value(node.expr, env, lid))
                    elif node.on == "lid" and node.other is not None:
                        add(node.base + lid, node.other)
                    elif node.on == "gid" and lid % node.mod == node.eq:
                        add(node.base + lid, value(node.expr, env, lid))
            elif k == "spread":
                for w in range(program.width):
                    if node.how == "helper":
                        add(node.base + w, value(node.expr, env, 0) + node.helper["c"] * w)
                    else:
                        add(node.base + w, value(node.expr, env, w))
            elif k == "group0":
                for lid in range(L):
                    add(node.base + lid, value(node.expr, env, lid))
            elif k == "private":
                add(node.base, (value(node.expr, env) * node.k + 1) & MASK)
            elif k == "acc":
                env["a%d" % node.acc] = (env["a%d" % node.acc] + value(node.expr, env)) & MASK
            elif k == "vote":
                for lid in range(L):
                    add(node.base + lid, 1 + (1 if cond_true(node.cond, env, program) else 0))
            elif k == "call":
                v = value(node.expr, env)
                for lid in range(L):
                    add(node.base + lid, helper_value(node.helper, v, lid, L))
            elif k == "if":
                jump = run(node.body if cond_true(node.cond, env, program) else node.orelse)
                if jump:
                    return jump
            elif k == "loop":
                n = bound_value(node.bound, program)
                trips = n if node.loop in ("for", "while") else max(n, 1)
                for i in range(trips):
                    env[node.var] = i
                    if run(node.body) == "break":
                        break
                env.pop(node.var, None)
        return None

    run(program.body)
    return out


def task_expected(program, task):
    L = program.local_size
    n = task["groups"] * L
    a0, a1 = task["args"]
    if task["kind"] == "args":
        return [(a0 * task["c"] + g * 3 + a1) & MASK for g in range(n)]
    return [(((g - g % L) + (g % L + 1) % L + a0) * task["c"]) & MASK for g in range(n)]


def spec(program, words):
    """The runner's instructions (fuzz/smith/smith-run.c reads them)."""
    lines = ["size %d %d" % (program.local_size, program.max_groups)]
    lines.append("buffer smith out %d" % words)
    for i, n in enumerate(program.args):
        lines.append("uint smith n%d %d" % (i, n))
    lines.append("uint smith width %d" % program.width)
    lines.append("expect smith out " + " ".join(str(v) for v in expected(program, words)))
    for p, t in enumerate(program.tasks):
        words_t = t["groups"] * program.local_size
        param = "tout0" if t["kind"] == "args" else "tout1"
        if t["kind"] == "args":
            lines.append("uint %s tn0 %d" % (t["name"], words_t))
        lines.append("buffer %s %s %d" % (t["name"], param, words_t))
        lines.append("task %s %d %d %d %s" % (t["name"], t["groups"], t["args"][0], t["args"][1],
                                              "periodic" if p == 0 else "once"))
        lines.append("expect %s %s %s" % (t["name"], param, " ".join(str(v) for v in task_expected(program, t))))
    return "\n".join(lines) + "\n"


def generate(seed, dropped=(), shapes=True):
    """(program, files): files maps a file name to its text."""
    program = drop(Program(seed, shapes), dropped)
    kernel, header, tasks, words = render(program)
    files = {"smith.cl": kernel, "smith_task.cl": tasks, "smith.spec": spec(program, words),
             "plain.cl": render(program, plain=True)[0]}
    if header:
        files["smith_helpers.h"] = header
    return program, files
