"""GradOperation, grad and value_and_grad: every variant, in both modes, with identical results."""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, ParameterTuple, Tensor, nn, ops
from mslab.testing import in_mode

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


class Affine(nn.Cell):
    """out = sum((x @ w + b) * y): small enough to differentiate by hand."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array([0.5, -0.5], np.float32)), name="b")

    def construct(self, x, y):
        return ops.reduce_sum((ops.matmul(x, self.w) + self.b) * y)


X = np.array([[1.0, -1.0], [2.0, 0.5]], np.float32)
Y = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
W = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
DX = Y @ W.T  # d/dx sum((xW + b) * y)
DY = X @ W + np.array([0.5, -0.5], np.float32)
DW = X.T @ Y
DB = Y.sum(0)


def _np(t):
    return t.asnumpy()


@pytest.mark.parametrize("mode", MODES)
def test_grad_operation_variants(mode):
    with in_mode(mode):
        net = Affine()
        x, y = Tensor(X), Tensor(Y)
        weights = ParameterTuple(net.trainable_params())
        np.testing.assert_allclose(_np(ops.GradOperation()(net)(x, y)), DX)
        gx, gy = ops.GradOperation(get_all=True)(net)(x, y)
        np.testing.assert_allclose(_np(gx), DX)
        np.testing.assert_allclose(_np(gy), DY)
        gw, gb = ops.GradOperation(get_by_list=True)(net, weights)(x, y)
        np.testing.assert_allclose(_np(gw), DW)
        np.testing.assert_allclose(_np(gb), DB)
        (gx, gy), (gw, gb) = ops.GradOperation(get_all=True, get_by_list=True)(net, weights)(x, y)
        np.testing.assert_allclose(_np(gb), DB)
        sens = Tensor(np.float32(3.0))
        gw3, _ = ops.GradOperation(get_by_list=True, sens_param=True)(net, weights)(x, y, sens)
        np.testing.assert_allclose(_np(gw3), 3 * DW)


def test_modes_agree_bit_for_bit():
    results = []
    for mode in MODES:
        with in_mode(mode):
            net = Affine()
            weights = ParameterTuple(net.trainable_params())
            out = ops.GradOperation(get_all=True, get_by_list=True)(net, weights)(Tensor(X), Tensor(Y))
            results.append([t.asnumpy() for group in out for t in group])
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("mode", MODES)
def test_grad_and_value_and_grad(mode):
    def f(x, y):
        return ops.reduce_sum(x * x * y), x + y

    with in_mode(mode):
        x, y = Tensor(X), Tensor(Y)
        g = ms.grad(f, grad_position=0, has_aux=True)(x, y)
        np.testing.assert_allclose(_np(g[0]), 2 * X * Y)
        np.testing.assert_allclose(_np(g[1][0]), X + Y)
        gs = ms.grad(lambda a, b: ops.reduce_sum(a * b), grad_position=(0, 1))(x, y)
        np.testing.assert_allclose(_np(gs[0]), Y)
        np.testing.assert_allclose(_np(gs[1]), X)
        value, grads = ms.value_and_grad(lambda a: ops.reduce_sum(a * a))(x)
        np.testing.assert_allclose(_np(value), (X * X).sum())
        np.testing.assert_allclose(_np(grads), 2 * X)
        net = Affine()
        weights = net.trainable_params()
        (gi, gw) = ms.grad(net, grad_position=0, weights=weights)(x, y)
        np.testing.assert_allclose(_np(gi), DX)
        np.testing.assert_allclose(_np(gw[0]), DW)
        only_w = ms.grad(net, grad_position=None, weights=weights)(x, y)
        np.testing.assert_allclose(_np(only_w[1]), DB)


@pytest.mark.parametrize("mode", MODES)
def test_value_used_twice_accumulates(mode):
    with in_mode(mode):
        g = ms.grad(lambda a: ops.reduce_sum(a * a + ops.exp(a) * a))(Tensor(X))
        np.testing.assert_allclose(_np(g), 2 * X + np.exp(X) * (1 + X), rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_unused_input_gets_zeros_and_int_input(mode):
    with in_mode(mode):
        gx, gy = ops.GradOperation(get_all=True)(lambda a, b: ops.reduce_sum(a * 2.0))(Tensor(X), Tensor(Y))
        np.testing.assert_array_equal(_np(gy), np.zeros_like(Y))
        labels = Tensor(np.array([1, 0], np.int32))
        gl = ops.GradOperation(get_all=True)(lambda a, b: ops.reduce_sum(a * 2.0))(Tensor(X), labels)[1]
        assert gl.dtype == ms.int32 and not gl.asnumpy().any()


def test_vector_output_default_sens_is_ones():
    g = ops.GradOperation()(lambda a: a * 3.0)(Tensor(X))
    np.testing.assert_array_equal(_np(g), np.full_like(X, 3.0))
    sens = Tensor(np.array([[1.0, 0.0], [0.0, 2.0]], np.float32))
    g = ops.GradOperation(sens_param=True)(lambda a: a * 3.0)(Tensor(X), sens)
    np.testing.assert_array_equal(_np(g), 3 * sens.asnumpy())


def test_grad_inside_construct_graph_mode():
    """GradNetWrtX from seed 004: GradOperation called inside another Cell's construct."""
    class GradNetWrtX(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad_op = ops.GradOperation()

        def construct(self, x, y):
            gradient_function = self.grad_op(self.net)
            return gradient_function(x, y)

    for mode in MODES:
        with in_mode(mode):
            np.testing.assert_allclose(GradNetWrtX(Affine())(Tensor(X), Tensor(Y)).asnumpy(), DX)


def test_backward_graph_is_derived_from_forward():
    net = Affine()
    g = ms.trace(ops.GradOperation(get_by_list=True)(net, ParameterTuple(net.trainable_params())), Tensor(X), Tensor(Y))
    fwd = [n.op for n in g.forward_nodes]
    assert fwd == ["MatMul", "Add", "Mul", "ReduceSum"]
    back = g.backward_nodes
    assert back and all(n.phase == "backward" for n in back)
    # every backward node (but the sens) names the forward node it differentiates
    assert {n.grad_of.op for n in back if n.grad_of is not None} == {"MatMul", "Add", "Mul", "ReduceSum"}
    assert [v.name for v in g.inputs] == ["x", "y"]


def test_gradient_sums_are_labelled_with_the_node_whose_rule_made_them():
    """A value read twice gets two gradients; the Add that sums them belongs to the rule that produced the second
    (its backward node names that forward node), as every node a bprop rule adds does."""

    def twice(x):
        y = ops.mul(x, x)
        return ops.reduce_sum(ops.add(ops.exp(y), ops.sin(y)), ())

    g = ms.trace(ops.GradOperation()(twice), Tensor(X))
    sums = [n for n in g.backward_nodes if n.op == "Add"]
    assert sums and all(n.grad_of is not None for n in sums)
    assert {n.grad_of.op for n in sums} <= {"Exp", "Sin", "Mul"}


def test_weight_values_kept_between_calls_follow_the_parameter():
    """A gradient function keeps its weights' tape values from call to call; a Parameter given new numbers of
    another shape (set_data) gets a new value, so its gradient has the new shape."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    w = ms.Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")

    def f(x):
        return ops.reduce_sum(ops.mul(x, w), ())

    grad = ops.GradOperation(get_by_list=True)(f, ms.ParameterTuple([w]))
    g1 = grad(Tensor(np.full((2, 3), 2.0, np.float32)))[0]
    w.set_data(Tensor(np.ones((4,), np.float32)), slice_shape=True)
    g2 = grad(Tensor(np.arange(4, dtype=np.float32)))[0]
    assert g1.shape == (2, 3) and np.all(g1.asnumpy() == 2.0)
    assert g2.shape == (4,) and g2.asnumpy().tolist() == [0.0, 1.0, 2.0, 3.0]
