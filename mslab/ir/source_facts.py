"""Static facts about a function's statements, for the graph front end (``mslab.ir.frontend``).

Which names a block assigns (a branch's carried variables), whether it contains or always ends in a
``return``/``break``/``continue``, and the rewrite that moves the code after an ``if`` that may exit
into the branch that does not, so that every exit ends its path.
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
