"""Expression rewrites of the graph front end: and/or/not, ``a if c else b``, print, float/int/bool,
Python that needs the host (JIT Fallback), and calls of the user's own functions (converted too)."""
import ast
import builtins
import types

from mslab.ir.syntax_builders import HELPERS, _call, _h, _names_tuple, _params, _thunk

_HOST_METHODS = {"asnumpy", "numpy", "item", "tolist"}


class Expressions(ast.NodeTransformer):
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
