"""Small builders of Python syntax trees for the graph front end (``mslab.ir.frontend``).

The converted code calls its helpers through one name, ``__ms__`` (``HELPERS``): ``__ms__.if_(...)``.
"""
import ast

HELPERS = "__ms__"


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
