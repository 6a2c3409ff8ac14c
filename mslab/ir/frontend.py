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
not return; ``break``/``continue`` become a flag carried by the loop, and a ``return`` inside a loop
becomes a flag, the value and a ``break`` (``if returned: return value`` follows the loop). A branch or
loop carries only the variables it assigns that are still read after it (a liveness analysis,
``source_facts.live_before``).
"""
import ast
import copy
import inspect
import linecache
import os
import sysconfig
import textwrap
import types

from mslab.core.errors import GraphModeError
from mslab.ir import source_facts as facts
from mslab.ir.frontend_expressions import Expressions
from mslab.ir.provenance import short_file
from mslab.ir.syntax_builders import HELPERS, _at, _call, _funcdef, _names_tuple, _str_tuple, _thunk

_MSLAB_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_LIBRARY_DIRS = tuple({sysconfig.get_paths()[k] + os.sep for k in ("stdlib", "purelib", "platlib")})


# ---- what is worth converting ----------------------------------------------------------------------------
def is_user_function(fn):
    """True for a plain Python function written by the user (not mslab's, not a library's, not a lambda)."""
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType) or fn.__name__ == "<lambda>":
        return False
    filename = fn.__code__.co_filename
    return not filename.startswith(_MSLAB_DIR) and not filename.startswith(_LIBRARY_DIRS)


# (file, original code object) -> converted code object, or None (nothing to convert / no source). The file is
# part of the key because code objects compare equal without it: the same method on the same line of two files
# would share one conversion, and its nodes would name the other file as their source.
_converted_code: dict[tuple[str, types.CodeType], types.CodeType | None] = {}


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
    key = (code.co_filename, code)
    if key not in _converted_code:
        _converted_code[key] = _convert_code(fn)
    new_code = _converted_code[key]
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
    local_names = facts.function_locals(func)
    func.body = _Converter(fn.__globals__, local_names, func, fn.__code__.co_filename).function_body(func.body)
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


def _is_attribute_store(s):
    """``name.attr = value`` or ``name.attr += value`` (one target, on a plain name such as ``self``)."""
    target = s.targets[0] if isinstance(s, ast.Assign) and len(s.targets) == 1 else getattr(s, "target", None)
    return isinstance(s, (ast.Assign, ast.AugAssign)) and isinstance(target, ast.Attribute) and \
        isinstance(target.value, ast.Name)


class _Converter:
    """Rewrites one function's statements (see the module docstring)."""

    def __init__(self, globals_, local_names, func, filename):
        self.globals = globals_
        self.filename = filename
        self.locals = set(local_names)
        self.params = {x.arg for x in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
        self.count = 0
        self.escaping = facts.escaping(func.body)  # read by nested functions: live wherever they may run
        self.jump_live = frozenset()  # names live at a break/continue of the loop being converted

    def refuse_loop_else(self, loop):
        """MindSpore 2.10 compiles no ``for ... else`` or ``while ... else`` (RuntimeError, the same words)."""
        if loop.orelse:
            kind = "while" if isinstance(loop, ast.While) else "for"
            line = linecache.getline(self.filename, loop.lineno).strip()
            where = f"{short_file(self.filename)}:{loop.lineno}  {line}"
            raise GraphModeError(f"The '{kind}...else...' statement is not supported now.\n  at {where}")

    def fresh(self, stem):
        self.count += 1
        return f"__{stem}_{self.count}"

    # -- blocks
    def function_body(self, stmts):
        stmts = facts.returns_to_breaks(stmts, self.fresh)
        self.locals |= facts.assigned(stmts)
        stmts = facts.push_continuations(stmts, ast.Return)
        if facts.contains(stmts, ast.Return, into_loops=False) and not facts.always_exits(stmts, ast.Return):
            stmts = facts.end_with(stmts, lambda: ast.Return(ast.Constant(None)))
        return self.block(stmts, set())

    def block(self, stmts, live_out):
        """Convert a block; ``live_out``: the names whose values may be read after it."""
        out = []
        for s, live in zip(stmts, facts.live_after_each(stmts, live_out, self.jump_live)):
            out.extend(self.statement(s, live | self.escaping))
        return out or [ast.Pass()]

    def statement(self, s, live):
        if isinstance(s, ast.If):
            return self.if_statement(s, live)
        if isinstance(s, ast.While):
            return self.while_statement(s, live)
        if isinstance(s, ast.For):
            return self.for_statement(s, live)
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [s]
        if isinstance(s, (ast.With, ast.AsyncWith)):
            s.items = [self.expr_node(i) for i in s.items]
            s.body = self.block(s.body, live)
            return [s]
        if isinstance(s, ast.Try):
            # Any statement of the try may jump to a handler or to the finally: everything counts as live.
            everything = live | facts.reads(s) | self.jump_live
            s.body = self.block(s.body, everything)
            s.orelse = self.block(s.orelse, everything) if s.orelse else []
            s.finalbody = self.block(s.finalbody, everything) if s.finalbody else []
            for handler in s.handlers:
                handler.body = self.block(handler.body, everything)
            return [s]
        if _is_attribute_store(s):
            return [self.attribute_store(s)]
        if self.item_store_base(s) is not None:
            return [self.item_store(s)]
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
            return [self.augmented_name(s)]
        return [self.expr_node(s)]

    def augmented_name(self, s):
        """``x += v`` -> ``x = __ms__.augmented(x, __ms__.operand(x) + v)``: when ``x`` holds a Parameter,
        MindSpore's graph also writes the result into it (an Assign)."""
        name = s.target.id
        value = ast.BinOp(_call("operand", ast.Name(name, ast.Load())), s.op, self.expr(s.value))
        call = _call("augmented", ast.Name(name, ast.Load()), value)
        return _at(ast.Assign(targets=[ast.Name(name, ast.Store())], value=call), s)

    def attribute_store(self, s):
        """``self.w = v`` -> ``__ms__.setattr_(self, 'w', v)`` and ``self.w += v`` -> ``__ms__.setattr_(self,
        'w', __ms__.operand(self.w) + v)``: writes into a Parameter held there (MindSpore's Assign) instead
        of replacing it by a graph value."""
        target = s.targets[0] if isinstance(s, ast.Assign) else s.target
        value = self.expr(s.value)
        if isinstance(s, ast.AugAssign):
            current = ast.Attribute(copy.deepcopy(target.value), target.attr, ast.Load())
            value = ast.BinOp(_call("operand", self.expr(current)), s.op, value)
        call = _call("setattr_", target.value, ast.Constant(target.attr), value)
        return _at(ast.Expr(call), s)

    def item_store_base(self, s):
        """The local variable ``x`` of ``x[i] = v`` or ``x[i] += v`` (None for any other statement)."""
        target = s.targets[0] if isinstance(s, ast.Assign) and len(s.targets) == 1 else getattr(s, "target", None)
        if isinstance(s, (ast.Assign, ast.AugAssign)) and isinstance(target, ast.Subscript) and \
                isinstance(target.value, ast.Name) and target.value.id in self.locals:
            return target.value.id
        return None

    def item_store(self, s):
        """``x[i] = v`` -> ``x = __ms__.setitem(x, i, v)`` (``x[i] += v``: the value is ``x[i] + v``): a tensor
        being traced gets a new value, as in MindSpore's graph; a list or dict is changed in place."""
        target = s.targets[0] if isinstance(s, ast.Assign) else s.target
        name, index = target.value.id, self.expr(target.slice)
        value = self.expr(s.value)
        if isinstance(s, ast.AugAssign):
            current = ast.Subscript(ast.Name(name, ast.Load()), copy.deepcopy(index), ast.Load())
            value = ast.BinOp(current, s.op, value)
        call = _call("setitem", ast.Name(name, ast.Load()), index, value)
        return _at(ast.Assign(targets=[ast.Name(name, ast.Store())], value=call), s)

    def assigned(self, stmts):
        """The names a block assigns, with the local ``x`` of each ``x[i] = v`` (which gives ``x`` a new value)."""
        items = {n.value.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Subscript)
                 and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) and n.value.id in self.locals}
        return facts.assigned(stmts) | items

    def loop_block(self, body, head_live):
        """Convert a loop's body: live after it (and at its break/continue) is what is live at the loop's head."""
        saved, self.jump_live = self.jump_live, frozenset(head_live)
        try:
            return self.block(body, head_live)
        finally:
            self.jump_live = saved

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
    def if_statement(self, s, live):
        jumps = (ast.Return, ast.Break, ast.Continue)
        returns = facts.always_exits(s.body, ast.Return) and facts.always_exits(s.orelse, ast.Return)
        if not returns and facts.contains([s], jumps, into_loops=False):
            # An exit the rewrite could not move to the end of its path (a return inside a `try`):
            # keep the Python `if`; its condition must then be a Python value.
            s.test = self.expr(s.test)
            s.body, s.orelse = self.block(s.body, live), self.block(s.orelse, live) if s.orelse else []
            return [s]
        assigned = self.assigned(s.body) | self.assigned(s.orelse)
        # The branches give back what they assign that is read later (``results``); they receive those and
        # what they assign after reading it (``x += 1``). A name used only inside a branch stays inside.
        results = [] if returns else sorted(assigned & live)
        branch_live = facts.live_before(s.body, live, self.jump_live) | facts.live_before(s.orelse, live,
                                                                                           self.jump_live)
        carried = sorted(assigned & (set(results) | branch_live | self.escaping))
        then_name, else_name = self.fresh("then"), self.fresh("else")
        if returns:
            then_body, else_body = self.block(s.body, live), self.block(s.orelse, live)
        else:
            ret = ast.Return(_names_tuple(results, ast.Load))
            then_body = self.block(s.body, live) + [copy.deepcopy(ret)]
            else_body = (self.block(s.orelse, live) if s.orelse else []) + [ret]
        defs = [self._function(then_name, carried, then_body), self._function(else_name, carried, else_body)]
        call = _call("if_", self.condition(s.test), ast.Name(then_name, ast.Load()), ast.Name(else_name, ast.Load()),
                     self._carried_loads(carried), _str_tuple(results))
        if returns:
            tail = ast.Return(call)
        elif results:
            tail = ast.Assign(targets=[_names_tuple(results, ast.Store)], value=call)
        else:
            tail = ast.Expr(call)
        self.locals |= {then_name, else_name}
        # The call sits on the `if` line (its condition's span): a node it records shows that line.
        return [ast.copy_location(d, s) for d in defs] + [_at(tail, s.test)]

    # -- loops
    def _flag_jumps(self, body, flag):
        """``break`` -> ``flag = True`` and ``continue`` -> ``pass``, after moving later code into the other path."""
        body = facts.push_continuations(body, (ast.Break, ast.Continue))

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

    def while_statement(self, s, live):
        self.refuse_loop_else(s)
        pre = []
        test = s.test
        body = s.body
        if facts.contains(body, (ast.Break, ast.Continue), into_loops=False):
            flag = self.fresh("break")
            self.locals.add(flag)
            body = self._flag_jumps(body, flag)
            pre.append(ast.Assign(targets=[ast.Name(flag, ast.Store())], value=ast.Constant(False)))
            test = ast.BoolOp(ast.And(), [ast.UnaryOp(ast.Not(), ast.Name(flag, ast.Load())), test])
        # Carried around the loop: what the body assigns that is live at the loop's head (read by the
        # condition, by the next iteration before it assigns it, or after the loop).
        head = facts.loop_head_live(ast.While(test, body, []), live, self.jump_live) | self.escaping
        carried = sorted(self.assigned(body) & head)
        cond_name, body_name = self.fresh("cond"), self.fresh("body")
        cond_def = self._function(cond_name, carried, [ast.Return(self.expr(test))])
        body_def = self._function(body_name, carried,
                                  self.loop_block(body, head) + [ast.Return(_names_tuple(carried, ast.Load))])
        call = _call("while_", ast.Name(cond_name, ast.Load()), ast.Name(body_name, ast.Load()),
                     self._carried_loads(carried), _str_tuple(carried))
        tail = ast.Assign(targets=[_names_tuple(carried, ast.Store)], value=call) if carried else ast.Expr(call)
        self.locals |= {cond_name, body_name}
        return [ast.copy_location(x, s) for x in pre + [cond_def, body_def]] + [_at(tail, s.test)]

    def for_statement(self, s, live):
        """A ``for`` loop stays a Python loop (a tensor's first axis or a range have a known length), so it
        unrolls while recording; its body is converted. A ``break`` under a tensor condition becomes a flag
        that guards the iterations after it; the loop's variable is set inside the guard, so after the loop
        it holds the item of the iteration that broke out, as in Python."""
        self.refuse_loop_else(s)
        s.iter = self.expr(s.iter)
        if not facts.contains(s.body, (ast.Break, ast.Continue), into_loops=False):
            s.body = self.loop_block(s.body, facts.loop_head_live(s, live, self.jump_live))
            return [s]
        flag = self.fresh("break")
        self.locals.add(flag)
        item = self.fresh("item")
        self.locals.add(item)
        bind = ast.copy_location(ast.Assign(targets=[s.target], value=ast.Name(item, ast.Load())), s)
        s.target = ast.Name(item, ast.Store())
        body = [bind] + self._flag_jumps(s.body, flag)
        stop = ast.If(test=ast.Compare(ast.Name(flag, ast.Load()), [ast.Is()], [ast.Constant(True)]),
                      body=[ast.Break()], orelse=[])
        guarded = ast.If(test=ast.UnaryOp(ast.Not(), ast.Name(flag, ast.Load())), body=body, orelse=[])
        ast.copy_location(guarded, s)
        s.body = [ast.copy_location(stop, s), guarded]
        head = facts.loop_head_live(s, live, self.jump_live)
        s.body = [s.body[0]] + self.loop_block([guarded], head)
        init = ast.copy_location(ast.Assign(targets=[ast.Name(flag, ast.Store())], value=ast.Constant(False)), s)
        return [init, s]

    # -- expressions
    def condition(self, node):
        """An ``if`` test: ``__ms__.condition(test)``, folded when it depends on constants only. (Not a
        ``while`` test: a loop counter started from a constant would unroll the whole loop.)"""
        return ast.copy_location(_call("condition", self.expr(node)), node)

    def expr(self, node):
        return Expressions(self).visit(node)

    def expr_node(self, stmt):
        return Expressions(self).visit(stmt)
