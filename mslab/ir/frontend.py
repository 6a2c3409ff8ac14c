"""GRAPH mode's front end: a function's *source*, rewritten so that control flow on tensors can become graph nodes.

MindSpore compiles ``construct`` (and ``@jit`` functions) from their source (``capture_mode="ast"``), not
by running them once. mslab does the same in two steps. This module is the first: it parses the
function and rewrites each ``if``/``while`` whose condition may be a tensor into a call that receives the
branches or the loop body as functions of the variables they assign::

    if x.sum() > 0:                      def __then_1(x):
        x = x * 2                            x = x * 2
    y = x + 1                                return (x,)
                          becomes        def __else_1(x):
                                             return (x,)
                                         (x,) = __ms__.if_(x.sum() > 0, __then_1, __else_1, (x,), ('x',))
                                         y = x + 1

The second step happens while the converted function is recorded: ``__ms__.if_`` looks at the
condition. A Python value (a shape, an attribute, ``self.training``) is a *constant condition*: it
simply calls one branch, and the graph shows no control flow. A tensor is a *variable condition*:
both branches are recorded as subgraphs of one If node, and the graph decides when it runs.

The rewrite also turns ``and``/``or``/``not`` and ``a if c else b`` into calls that work on tensors,
``print(...)`` into a graph print, ``float(t)``/``int(t)`` into casts, and expressions that need
Python on the host (numpy on tensors, ``asnumpy()``) into JIT Fallback calls (``__ms__.host``). Other
calls go through ``__ms__.call``, which converts the user's own functions the same way.

A ``return`` inside ``if`` is handled by moving the code after the ``if`` into the branch that does
not return; ``break``/``continue`` become a flag carried by the loop. A loop that contains ``return``
is left as Python (its conditions must then be Python values).
"""
import ast
import builtins
import copy
import inspect
import os
import sysconfig
import textwrap
import types

HELPERS = "__ms__"
_MSLAB_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_LIBRARY_DIRS = tuple({sysconfig.get_paths()[k] + os.sep for k in ("stdlib", "purelib", "platlib")})
_HOST_METHODS = {"asnumpy", "numpy", "item", "tolist"}


# ---- what is worth converting ----------------------------------------------------------------------------
def is_user_function(fn):
    """True for a plain Python function written by the user (not mslab's, not a library's, not a lambda)."""
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType) or fn.__name__ == "<lambda>":
        return False
    filename = fn.__code__.co_filename
    return not filename.startswith(_MSLAB_DIR) and not filename.startswith(_LIBRARY_DIRS)


_converted_code = {}  # original code object -> converted code object, or None (nothing to convert / no source)


def convert(fn, helpers):
    """``fn`` with its source converted (a new function with the same globals and closure), or ``fn`` itself.

    ``helpers`` is the namespace the converted code calls as ``__ms__`` (``mslab.autodiff.graph_syntax``);
    it is passed in because the runtime helpers live in a layer above this one. Bound methods stay bound.
    """
    if isinstance(fn, types.MethodType):
        inner = convert(fn.__func__, helpers)
        return fn if inner is fn.__func__ else types.MethodType(inner, fn.__self__)
    if not is_user_function(fn):
        return fn  # a lambda, or mslab's or a library's own code: it runs as Python
    code = fn.__code__
    if code not in _converted_code:
        _converted_code[code] = _convert_code(fn)
    new_code = _converted_code[code]
    if new_code is None:
        return fn
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    cells[HELPERS] = types.CellType(helpers)
    closure = tuple(cells[name] for name in new_code.co_freevars)
    new = types.FunctionType(new_code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__wrapped__ = fn
    new.__qualname__ = fn.__qualname__
    return new


def _convert_code(fn):
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None  # no source (built in a string, or a C function): it runs as Python
    source = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if not tree.body or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    func = tree.body[0]
    ast.increment_lineno(tree, first - 1)
    func.decorator_list = []
    # Inside the maker below, the function's own name must not become a local: a recursive call means
    # the global function, as in the original.
    own_name, func.name = func.name, "__ms_converted__"
    local_names = _function_locals(func)
    func.body = _Converter(fn.__globals__, local_names, func).function_body(func.body)
    # A maker function whose locals are fn's free variables and the helpers: compiled inside it, the
    # converted function gets them as free variables, so fn's own closure cells can be handed over.
    free = list(fn.__code__.co_freevars)
    maker = _funcdef("__ms_maker__", [], [ast.Assign(targets=[ast.Name(n, ast.Store())], value=ast.Constant(None))
                                          for n in [HELPERS, *free]]
                     + [func, ast.Return(ast.Name(func.name, ast.Load()))])
    module = ast.Module(body=[maker], type_ignores=[])
    ast.copy_location(maker, func)
    ast.fix_missing_locations(module)
    compiled = compile(module, fn.__code__.co_filename, "exec")
    maker_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    code = next(c for c in maker_code.co_consts if isinstance(c, types.CodeType) and c.co_name == func.name)
    names = {"co_qualname": fn.__code__.co_qualname} if hasattr(fn.__code__, "co_qualname") else {}  # 3.11+
    return code.replace(co_name=own_name, **names)


def _funcdef(name, params, body):
    node = ast.FunctionDef(name=name, args=_params(params), body=body, decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        node.type_params = []
    return node


def _params(names):
    return ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], kwonlyargs=[], kw_defaults=[], defaults=[])


def _thunk(body):
    """``lambda: body``."""
    return ast.Lambda(_params([]), body)


# ---- static facts about statements -------------------------------------------------------------------------
def _function_locals(func):
    """Parameter names and every name the function assigns (its local variables)."""
    a = func.args
    names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
    for stmt in func.body:
        names |= _assigned(stmt)
    return names


def _assigned(node):
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


def _contains(stmts, kinds, into_loops):
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


def _always_exits(stmts, kinds):
    """Every path through the block ends in a statement of ``kinds`` (return; or break/continue in a loop)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, kinds):
        return True
    if isinstance(last, ast.If):
        return _always_exits(last.body, kinds) and _always_exits(last.orelse, kinds)
    return False


def _push_continuations(stmts, kinds):
    """Move what follows an ``if`` that may exit into the branches that do not, until exits are last.

    ``if c: return a`` followed by ``rest`` becomes ``if c: return a`` / ``else: rest``. Afterwards
    every exit (``kinds``) is the last statement of its path, so each branch can become a function.
    """
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.If):
            s.body = _push_continuations(s.body, kinds)
            s.orelse = _push_continuations(s.orelse, kinds)
            rest = stmts[i + 1:]
            if rest and _contains([s], kinds, into_loops=False):
                for attr in ("body", "orelse"):
                    branch = getattr(s, attr)
                    if not _always_exits(branch, kinds):
                        setattr(s, attr, _push_continuations(branch + copy.deepcopy(rest), kinds))
                out.append(s)
                return out
        out.append(s)
        if isinstance(s, kinds):
            return out  # code after an exit never runs
    return out


def _end_with(stmts, make_exit):
    """Add an exit to every path of the block that does not already end in one."""
    if not stmts:
        return [make_exit()]
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Break, ast.Continue, ast.Raise)):
        return stmts
    if isinstance(last, ast.If):
        last.body = _end_with(last.body, make_exit)
        last.orelse = _end_with(last.orelse, make_exit)
        return stmts
    return stmts + [make_exit()]


# ---- the rewrite -------------------------------------------------------------------------------------------
def _at(node, where):
    """``node`` (and its new sub-nodes) placed exactly on ``where``'s span, so a call shows that source line."""
    for n in ast.walk(node):
        if not hasattr(n, "lineno") or n is node:
            ast.copy_location(n, where)
    return node


def _h(attr):
    return ast.Attribute(ast.Name(HELPERS, ast.Load()), attr, ast.Load())


def _call(attr, *args):
    return ast.Call(_h(attr), list(args), [])


def _names_tuple(names, ctx):
    return ast.Tuple([ast.Name(n, ctx()) for n in names], ctx())


def _str_tuple(names):
    return ast.Tuple([ast.Constant(n) for n in names], ast.Load())


class _Converter:
    """Rewrites one function's statements (see the module docstring)."""

    def __init__(self, globals_, local_names, func):
        self.globals = globals_
        self.locals = set(local_names)
        self.params = {x.arg for x in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f"__{stem}_{self.count}"

    # -- blocks
    def function_body(self, stmts):
        stmts = _push_continuations(stmts, ast.Return)
        if _contains(stmts, ast.Return, into_loops=False) and not _always_exits(stmts, ast.Return):
            stmts = _end_with(stmts, lambda: ast.Return(ast.Constant(None)))
        return self.block(stmts)

    def block(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.statement(s))
        return out or [ast.Pass()]

    def statement(self, s):
        if isinstance(s, ast.If):
            return self.if_statement(s)
        if isinstance(s, ast.While):
            return self.while_statement(s)
        if isinstance(s, ast.For):
            return self.for_statement(s)
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [s]
        if isinstance(s, (ast.With, ast.AsyncWith)):
            s.items = [self.expr_node(i) for i in s.items]
            s.body = self.block(s.body)
            return [s]
        if isinstance(s, ast.Try):
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse) if s.orelse else []
            s.finalbody = self.block(s.finalbody) if s.finalbody else []
            for handler in s.handlers:
                handler.body = self.block(handler.body)
            return [s]
        return [self.expr_node(s)]

    def _carried_loads(self, names):
        """The current value of each name, or ``__ms__.UNDEFINED`` for one not assigned yet."""
        elts = []
        for n in names:
            if n in self.params:
                elts.append(ast.Name(n, ast.Load()))
            else:
                elts.append(_call("load", _thunk(ast.Name(n, ast.Load()))))
        return ast.Tuple(elts, ast.Load())

    def _function(self, name, params, body):
        return _funcdef(name, params, body)

    # -- if
    def if_statement(self, s):
        jumps = (ast.Return, ast.Break, ast.Continue)
        returns = _always_exits(s.body, ast.Return) and _always_exits(s.orelse, ast.Return)
        if not returns and _contains([s], jumps, into_loops=False):
            # An exit the rewrite could not move to the end of its path (inside a loop that returns):
            # keep the Python `if`; its condition must then be a Python value.
            s.test = self.expr(s.test)
            s.body, s.orelse = self.block(s.body), self.block(s.orelse) if s.orelse else []
            return [s]
        carried = sorted(_assigned(s.body) | _assigned(s.orelse))
        then_name, else_name = self.fresh("then"), self.fresh("else")
        if returns:
            then_body, else_body = self.block(s.body), self.block(s.orelse)
        else:
            ret = ast.Return(_names_tuple(carried, ast.Load))
            then_body = self.block(s.body) + [copy.deepcopy(ret)]
            else_body = (self.block(s.orelse) if s.orelse else []) + [ret]
        defs = [self._function(then_name, carried, then_body), self._function(else_name, carried, else_body)]
        call = _call("if_", self.expr(s.test), ast.Name(then_name, ast.Load()), ast.Name(else_name, ast.Load()),
                     self._carried_loads(carried), _str_tuple(carried))
        if returns:
            tail = ast.Return(call)
        elif carried:
            tail = ast.Assign(targets=[_names_tuple(carried, ast.Store)], value=call)
        else:
            tail = ast.Expr(call)
        self.locals |= {then_name, else_name}
        # The call sits on the `if` line (its condition's span): a node it records shows that line.
        return [ast.copy_location(d, s) for d in defs] + [_at(tail, s.test)]

    # -- loops
    def _flag_jumps(self, body, flag):
        """``break`` -> ``flag = True`` and ``continue`` -> ``pass``, after moving later code into the other path."""
        body = _push_continuations(body, (ast.Break, ast.Continue))

        class Jumps(ast.NodeTransformer):
            def visit_Break(self, node):
                return ast.copy_location(ast.Assign(targets=[ast.Name(flag, ast.Store())], value=ast.Constant(True)),
                                         node)

            def visit_Continue(self, node):
                return ast.copy_location(ast.Pass(), node)

            def generic_visit(self, node):
                if isinstance(node, (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                     ast.ClassDef)):
                    return node  # their own break/continue
                return super().generic_visit(node)

        return [Jumps().visit(b) for b in body]

    def while_statement(self, s):
        if _contains(s.body, ast.Return, into_loops=True) or (s.orelse and _contains(s.body, ast.Break, False)):
            s.test = self.expr(s.test)
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse) if s.orelse else []
            return [s]
        pre = []
        test = s.test
        body = s.body
        if _contains(body, (ast.Break, ast.Continue), into_loops=False):
            flag = self.fresh("break")
            self.locals.add(flag)
            body = self._flag_jumps(body, flag)
            pre.append(ast.Assign(targets=[ast.Name(flag, ast.Store())], value=ast.Constant(False)))
            test = ast.BoolOp(ast.And(), [ast.UnaryOp(ast.Not(), ast.Name(flag, ast.Load())), test])
        carried = sorted(_assigned(body))
        cond_name, body_name = self.fresh("cond"), self.fresh("body")
        cond_def = self._function(cond_name, carried, [ast.Return(self.expr(test))])
        body_def = self._function(body_name, carried, self.block(body) + [ast.Return(_names_tuple(carried, ast.Load))])
        call = _call("while_", ast.Name(cond_name, ast.Load()), ast.Name(body_name, ast.Load()),
                     self._carried_loads(carried), _str_tuple(carried))
        tail = ast.Assign(targets=[_names_tuple(carried, ast.Store)], value=call) if carried else ast.Expr(call)
        self.locals |= {cond_name, body_name}
        out = [ast.copy_location(x, s) for x in pre + [cond_def, body_def]] + [_at(tail, s.test)]
        if s.orelse:
            out += self.block(s.orelse)
        return out

    def for_statement(self, s):
        """A ``for`` loop stays a Python loop (a tensor's first axis or a range have a known length), so it
        unrolls while recording; its body is converted. A ``break`` under a tensor condition becomes a flag
        that guards the iterations after it."""
        s.iter = self.expr(s.iter)
        if _contains(s.body, ast.Return, into_loops=True) or (s.orelse and _contains(s.body, ast.Break, False)):
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse) if s.orelse else []
            return [s]
        if not _contains(s.body, (ast.Break, ast.Continue), into_loops=False):
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse) if s.orelse else []
            return [s]
        flag = self.fresh("break")
        self.locals.add(flag)
        body = self._flag_jumps(s.body, flag)
        stop = ast.If(test=ast.Compare(ast.Name(flag, ast.Load()), [ast.Is()], [ast.Constant(True)]),
                      body=[ast.Break()], orelse=[])
        guarded = ast.If(test=ast.UnaryOp(ast.Not(), ast.Name(flag, ast.Load())), body=body, orelse=[])
        ast.copy_location(guarded, s)
        s.body = [ast.copy_location(stop, s)] + self.block([guarded])
        s.orelse = self.block(s.orelse) if s.orelse else []
        init = ast.copy_location(ast.Assign(targets=[ast.Name(flag, ast.Store())], value=ast.Constant(False)), s)
        return [init, s]

    # -- expressions
    def expr(self, node):
        return _Expressions(self).visit(node)

    def expr_node(self, stmt):
        return _Expressions(self).visit(stmt)


class _Expressions(ast.NodeTransformer):
    """Expression rewrites: and/or/not, conditional expressions, print, float/int/bool, host code, calls."""

    def __init__(self, conv):
        self.conv = conv

    def _global(self, name):
        """The object a name refers to when it is not a local variable (for recognising numpy and print)."""
        if name in self.conv.locals:
            return None
        if name in self.conv.globals:
            return self.conv.globals[name]
        return getattr(builtins, name, None)

    def _is_numpy(self, node):
        while isinstance(node, ast.Attribute):
            node = node.value
        if isinstance(node, ast.Name):
            obj = self._global(node.id)
            return isinstance(obj, types.ModuleType) and obj.__name__.split(".")[0] == "numpy"
        return False

    def _needs_host(self, node):
        """Whether an expression has no graph form: numpy called on values, or a tensor's numbers read."""
        for n in ast.walk(node):
            if isinstance(n, ast.Lambda):
                return False
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Attribute) and f.attr in _HOST_METHODS and not self._is_numpy(f.value):
                    return True
                if self._is_numpy(f) and n.args:
                    return True
        return False

    def _is_tensor_class(self, func):
        obj = None
        if isinstance(func, ast.Name):
            obj = self._global(func.id)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            mod = self._global(func.value.id)
            obj = getattr(mod, func.attr, None) if isinstance(mod, types.ModuleType) else None
        return isinstance(obj, type) and obj.__name__ in ("Tensor", "Parameter") and \
            obj.__module__.startswith("mslab")

    def _host(self, node):
        """``__ms__.host(kind, source, lambda <locals>: <expr>, (<locals>))``: run on the host when the graph runs."""
        names = sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                        and n.id in self.conv.locals})
        source = ast.unparse(node)
        kind = "asnumpy" if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                                and n.func.attr in _HOST_METHODS for n in ast.walk(node)) else "numpy"
        fn = ast.Lambda(_params(names), node)
        call = _call("host", ast.Constant(kind), ast.Constant(source), fn, _names_tuple(names, ast.Load))
        return ast.copy_location(call, node)

    def visit(self, node):
        if isinstance(node, ast.expr) and not isinstance(node, ast.Lambda) and self._needs_host(node):
            if isinstance(node, ast.Call) and self._is_tensor_class(node.func):
                node.args = [self.visit(a) for a in node.args]  # Tensor(host value) brings it into the graph
                return node
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                return super().visit(node)
            if not isinstance(node, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Attribute, ast.Compare)):
                return super().visit(node)
            return self._host(node)
        return super().visit(node)

    def visit_Lambda(self, node):
        return node

    def visit_ListComp(self, node):
        return node

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        thunks = [_thunk(v) for v in node.values]
        return ast.copy_location(_call("and_" if isinstance(node.op, ast.And) else "or_", *thunks), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call("not_", node.operand), node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        call = _call("ifexp", node.test, _thunk(node.body), _thunk(node.orelse))
        return ast.copy_location(call, node)

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id not in self.conv.locals and f.id not in self.conv.globals:
            if f.id == "print":
                node.func = _h("print_")
                return node
            if f.id in ("float", "int", "bool") and len(node.args) == 1 and not node.keywords:
                return ast.copy_location(_call("scalar", ast.Name(f.id, ast.Load()), node.args[0]), node)
            if f.id in ("super", "isinstance", "len", "range", "enumerate", "zip", "type", "getattr", "hasattr",
                        "tuple", "list", "dict", "min", "max", "abs", "sum", "print", "iter", "next", "reversed"):
                return node
        if isinstance(f, ast.Attribute) and f.attr.startswith("__") or (isinstance(f, ast.Name) and f.id == HELPERS):
            return node
        node.func = _h("call")
        node.args = [f] + node.args
        return node
