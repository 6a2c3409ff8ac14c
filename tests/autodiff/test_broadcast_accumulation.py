"""Broadcasting is undone once, where backprop accumulates gradients, and ``needs`` reaches only the rules
that declare it (mslab/autodiff/backprop.py)."""
import functools

import numpy as np
import pytest

import mslab as ms
from mslab import ops
from mslab.core import context
from mslab.core.context import in_mode
from mslab.core.tensor import Tensor
from mslab.ops import GradOperation, math_ops, matmul_ops

X_SHAPE, Y_SHAPE = (3, 1, 4), (2, 4)  # broadcast together to (3, 2, 4): x repeats along 1, y along 0

# name -> (the mslab op, the same op in numpy)
BINARY = {
    "Add": (lambda x, y: x + y, np.add),
    "Sub": (lambda x, y: x - y, np.subtract),
    "Mul": (lambda x, y: x * y, np.multiply),
    "RealDiv": (lambda x, y: x / y, np.true_divide),
    "Pow": (lambda x, y: x ** y, np.power),
    "Maximum": (ops.maximum, np.maximum),
}


def _inputs():
    rng = np.random.default_rng(25)
    x = rng.uniform(0.5, 2.0, X_SHAPE)  # positive: x ** y and log x are smooth there
    y = rng.uniform(0.5, 2.0, Y_SHAPE)
    w = rng.standard_normal(np.broadcast_shapes(X_SHAPE, Y_SHAPE))  # every output element weighs in the loss
    return x, y, w


def _numeric_grads(f_np, x, y, w, eps=1e-6):
    """d sum(w * f(x, y)) / dx and / dy by central differences, in numpy alone."""
    def loss(a, b):
        return float(np.sum(w * f_np(a, b)))

    grads = []
    for i, arr in enumerate((x, y)):
        g = np.zeros_like(arr)
        for k in np.ndindex(arr.shape):
            up, down = arr.copy(), arr.copy()
            up[k] += eps
            down[k] -= eps
            args_up = (up, y) if i == 0 else (x, up)
            args_down = (down, y) if i == 0 else (x, down)
            g[k] = (loss(*args_up) - loss(*args_down)) / (2 * eps)
        grads.append(g)
    return grads


def _bprop_grads(f, x, y, w, mode):
    weights = Tensor(w)
    with in_mode(mode):
        grads = GradOperation(get_all=True)(lambda a, b: (f(a, b) * weights).sum())(Tensor(x), Tensor(y))
    return [g.asnumpy() for g in grads]


@pytest.mark.parametrize("name", sorted(BINARY))
def test_a_broadcast_input_gets_its_gradient_summed_back_in_both_modes(name):
    f, f_np = BINARY[name]
    x, y, w = _inputs()
    expected = _numeric_grads(f_np, x, y, w)
    eager = _bprop_grads(f, x, y, w, context.PYNATIVE_MODE)
    graph = _bprop_grads(f, x, y, w, context.GRAPH_MODE)
    for got, want, shape in zip(eager, expected, (X_SHAPE, Y_SHAPE)):
        assert got.shape == shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    for e, g in zip(eager, graph):
        assert e.dtype == g.dtype
        np.testing.assert_array_equal(g, e)  # GRAPH == PYNATIVE, bit for bit


def test_a_binary_rule_leaves_its_gradients_in_the_output_shape():
    x, y = Tensor(np.ones(X_SHAPE, np.float32)), Tensor(np.full(Y_SHAPE, 2.0, np.float32))
    out = x * y
    dx, dy = math_ops.Mul().bprop(x, y, out, ops.ones_like(out))
    assert tuple(dx.shape) == tuple(dy.shape) == (3, 2, 4)  # backprop sums them, not the rule


def test_the_gradient_is_summed_once_per_broadcast_input():
    x, y = Tensor(np.ones(X_SHAPE, np.float32)), Tensor(np.full(Y_SHAPE, 2.0, np.float32))
    grad = GradOperation(get_all=True)(lambda a, b: (a * b).sum())
    with ms.record() as tape:
        dx, dy = grad(x, y)
    backward = [n.prim.name for n in tape.graph.nodes if n.phase == "backward"]
    assert backward.count("ReduceSum") == 2  # one for x (over axis 1), one for y (over axis 0)
    np.testing.assert_array_equal(dx.asnumpy(), np.full(X_SHAPE, 4.0, np.float32))
    np.testing.assert_array_equal(dy.asnumpy(), np.full(Y_SHAPE, 3.0, np.float32))


def _spy(monkeypatch, cls, calls):
    """Wrap ``cls.bprop`` so each call's keyword arguments land in ``calls`` (the signature stays the rule's)."""
    rule = cls.bprop

    @functools.wraps(rule)
    def bprop(self, *args, **kwargs):
        calls.append((cls.__name__, kwargs))
        return rule(self, *args, **kwargs)

    monkeypatch.setattr(cls, "bprop", bprop)


def test_needs_reaches_only_the_rules_that_declare_it(monkeypatch):
    calls = []
    _spy(monkeypatch, math_ops.Mul, calls)
    _spy(monkeypatch, matmul_ops.MatMul, calls)
    x = Tensor(np.ones((2, 3), np.float32))
    w = Tensor(np.ones((3, 4), np.float32))
    scale = Tensor(np.full((2, 4), 0.5, np.float32))
    dx = GradOperation()(lambda a, b, s: (ops.matmul(a, b) * s).sum())(x, w, scale)  # d/dx only
    assert ("Mul", {}) in calls
    assert ("MatMul", {"needs": (True, False)}) in calls  # w's gradient is not wanted: no product for it
    np.testing.assert_array_equal(dx.asnumpy(), np.full((2, 3), 2.0, np.float32))
