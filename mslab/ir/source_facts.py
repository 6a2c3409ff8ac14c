"""Static facts about a function's statements, for the graph front end (``mslab.ir.frontend``).

Which names a block assigns, which names are *live* at a point (their value may still be read), whether
a block contains or always ends in a ``return``/``break``/``continue``, and the rewrite that moves the
code after an ``if`` that may exit into the branch that does not, so that every exit ends its path.

A branch or a loop body carries out only the names it assigns that are live after it (or, for a loop,
at its head: read by the condition or by the next iteration). A variable used only inside, such as
``_`` in ``for _ in range(n)`` or a counter reset at the top of an outer loop, needs no value before.
"""
import ast
import copy


def function_locals(func):
    """Parameter names and every name the function assigns (its local variables)."""
    a = func.args
    names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
    for stmt in func.body:
        names |= assigned(stmt)
    return names


def assigned(node):
    """Names a statement (or list of them) assigns, not counting nested functions, classes and lambdas."""
    out = set()

    def visit(n):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
            return
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        for c in ast.iter_child_nodes(n):
            visit(c)

    for n in (node if isinstance(node, list) else [node]):
        visit(n)
    return out


def contains(stmts, kinds, into_loops):
    """Whether a statement list contains a node of ``kinds`` (outside nested functions; loops if asked)."""
    def visit(n):
        if isinstance(n, kinds):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        if not into_loops and isinstance(n, (ast.For, ast.While)):
            return False
        return any(visit(c) for c in ast.iter_child_nodes(n))
    return any(visit(s) for s in stmts)


def always_exits(stmts, kinds):
    """Every path through the block ends in a statement of ``kinds`` (return; or break/continue in a loop)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, kinds):
        return True
    if isinstance(last, ast.If):
        return always_exits(last.body, kinds) and always_exits(last.orelse, kinds)
    return False


def push_continuations(stmts, kinds):
    """Move what follows an ``if`` that may exit into the branches that do not, until exits are last.

    ``if c: return a`` followed by ``rest`` becomes ``if c: return a`` / ``else: rest``. Afterwards
    every exit (``kinds``) is the last statement of its path, so each branch can become a function.
    """
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.If):
            s.body = push_continuations(s.body, kinds)
            s.orelse = push_continuations(s.orelse, kinds)
            rest = stmts[i + 1:]
            if rest and contains([s], kinds, into_loops=False):
                for attr in ("body", "orelse"):
                    branch = getattr(s, attr)
                    if not always_exits(branch, kinds):
                        setattr(s, attr, push_continuations(branch + copy.deepcopy(rest), kinds))
                out.append(s)
                return out
        out.append(s)
        if isinstance(s, kinds):
            return out  # code after an exit never runs
    return out


def returns_to_breaks(stmts, fresh):
    """Rewrite each ``return`` inside a loop as "note which return it was, ``break``", and put
    ``if returned == k: return value_k`` after the loop; inner loops first, so a return leaves loop after loop.

    A loop then exits only through its condition or a ``break``, which the front end knows how to turn into
    graph control flow. After the break nothing else in the loop runs (a ``for`` loop's variable too is set
    only in the iterations before it), so the returned expression is computed after the loop, on the same
    variables. ``fresh(stem)`` makes a new variable name.
    """
    out = []
    for s in stmts:
        for attr in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, attr, None), list) and not isinstance(s, _NESTED_SCOPES):
                setattr(s, attr, returns_to_breaks(getattr(s, attr), fresh))
        for handler in getattr(s, "handlers", []):
            handler.body = returns_to_breaks(handler.body, fresh)
        if not isinstance(s, (ast.For, ast.While)) or not contains(s.body, ast.Return, into_loops=False):
            out.append(s)
            continue
        flag = fresh("returned")
        rewrite = _ReturnsToBreaks(flag)
        s.body = rewrite.visit_block(s.body)
        init = [ast.Assign(targets=[ast.Name(flag, ast.Store())], value=ast.Constant(0))]
        after = [ast.If(test=ast.Compare(ast.Name(flag, ast.Load()), [ast.Eq()], [ast.Constant(k + 1)]),
                        body=[ast.Return(value)], orelse=[]) for k, value in enumerate(rewrite.values)]
        out += [ast.copy_location(x, s) for x in init] + [s] + [ast.copy_location(x, s) for x in after]
    return out


_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class _ReturnsToBreaks(ast.NodeTransformer):
    """The k-th ``return v`` of a loop -> ``flag = k; break`` (not inside nested loops or functions); ``values``
    collects what each returns, to return after the loop."""

    def __init__(self, flag):
        self.flag = flag
        self.values = []

    def visit_block(self, stmts):
        out = []
        for s in stmts:
            r = self.visit(s)
            out += r if isinstance(r, list) else [r]
        return out

    def visit_Return(self, node):
        self.values.append(node.value if node.value is not None else ast.Constant(None))
        stmts = [ast.Assign(targets=[ast.Name(self.flag, ast.Store())], value=ast.Constant(len(self.values))),
                 ast.Break()]
        return [ast.copy_location(x, node) for x in stmts]

    def generic_visit(self, node):
        if isinstance(node, (ast.For, ast.While, *_NESTED_SCOPES)):
            return node
        return super().generic_visit(node)


def end_with(stmts, make_exit):
    """Add an exit to every path of the block that does not already end in one."""
    if not stmts:
        return [make_exit()]
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Break, ast.Continue, ast.Raise)):
        return stmts
    if isinstance(last, ast.If):
        last.body = end_with(last.body, make_exit)
        last.orelse = end_with(last.orelse, make_exit)
        return stmts
    return stmts + [make_exit()]


# ---- liveness: which names may still be read -------------------------------------------------------------
def reads(node):
    """Names a statement or expression reads anywhere inside it (nested functions and lambdas included)."""
    nodes = node if isinstance(node, list) else [node]
    out = {n.id for x in nodes for n in ast.walk(x) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    for x in nodes:
        if isinstance(x, ast.AugAssign) and isinstance(x.target, ast.Name):
            out.add(x.target.id)  # ``x += 1`` reads x
    return out


def escaping(stmts):
    """Names live everywhere: read by a nested function, lambda or generator (whenever it runs), or declared
    ``global``/``nonlocal`` (their value outlives the function)."""
    delayed = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.GeneratorExp)
    nodes = [n for s in stmts for n in ast.walk(s)]
    return {name for n in nodes if isinstance(n, delayed) for name in reads(n)} | \
        {name for n in nodes if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}


def _kills(s):
    """Names a simple statement surely assigns before anything after it runs (``x += 1`` reads x first)."""
    if isinstance(s, ast.Assign):
        return assigned(s.targets)
    if isinstance(s, ast.AnnAssign) and s.value is not None:
        return assigned(s.target)
    if isinstance(s, (ast.Import, ast.ImportFrom, ast.Delete)):
        return assigned(s)
    return set()


def live_before(stmts, live_out, jump_live=frozenset()):
    """Names live at the start of a block, given those live after it (``jump_live``: at a break/continue)."""
    live = set(live_out)
    for s in reversed(stmts):
        live = _live_before_statement(s, live, jump_live)
    return live


def live_after_each(stmts, live_out, jump_live=frozenset()):
    """For each statement of a block, the names live right after it."""
    afters, live = [], set(live_out)
    for s in reversed(stmts):
        afters.append(live)
        live = _live_before_statement(s, live, jump_live)
    return afters[::-1]


def loop_head_live(loop, live_out, jump_live=frozenset()):
    """Names live at a loop's head (before its condition, or before the next item is taken): the fixed point
    of "live after the loop, or read by the condition, or live at the start of the body"."""
    head = set(live_out) | live_before(loop.orelse, live_out, jump_live)
    while True:
        body_in = live_before(loop.body, head, head)  # a break/continue jumps to the head or out: both in head
        if isinstance(loop, ast.While):
            new = head | reads(loop.test) | body_in
        else:
            new = head | reads(loop.target) | (body_in - assigned(loop.target))
        if new == head:
            return head
        head = new


def _live_before_statement(s, live, jump_live):
    if isinstance(s, ast.If):
        return reads(s.test) | live_before(s.body, live, jump_live) | live_before(s.orelse, live, jump_live)
    if isinstance(s, ast.While):
        return loop_head_live(s, live, jump_live)
    if isinstance(s, (ast.For, ast.AsyncFor)):
        return loop_head_live(s, live, jump_live) | reads(s.iter)
    if isinstance(s, (ast.Break, ast.Continue)):
        return set(jump_live)
    if isinstance(s, (ast.Return, ast.Raise)):
        return reads(s)
    if isinstance(s, (ast.With, ast.AsyncWith)):
        return reads(s.items) | live_before(s.body, live, jump_live)
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (live - {s.name}) | reads(s)
    if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Pass, ast.Import, ast.ImportFrom,
                      ast.Delete, ast.Assert, ast.Global, ast.Nonlocal)):
        return (live - _kills(s)) | reads(s)
    return set(live) | set(jump_live) | reads(s)  # anything else (try, match): everything it reads, nothing killed
