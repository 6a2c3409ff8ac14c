"""GRAPH mode: tracing, the graph-mode rules as clear errors, compile caching, IR text, executor."""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn, ops
from mslab.errors import ExecutionError, OpError
from mslab.runtime.cell_call import compiled_graphs
from mslab.runtime.executor import Executor


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")

    def construct(self, x):
        return ops.relu(x * self.w) - 1.0


def test_graph_mode_equals_pynative_and_caches():
    x = Tensor(np.array([[-1.0, 2.0]], np.float32))
    net = Scale()
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    assert np.array_equal(net(x).asnumpy(), eager)
    net(x)
    assert len(compiled_graphs(net)) == 1  # one signature, compiled once
    net(Tensor(np.ones((3, 2), np.float32)))
    assert len(compiled_graphs(net)) == 2  # a new shape compiles again
    net.w.set_data(Tensor(np.array([3.0], np.float32)))
    assert np.array_equal(net(x).asnumpy(), [[-1.0, 5.0]])  # parameters are read when the graph runs



def test_control_flow_on_shapes_and_constants_unrolls():
    class Unrolled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.repeat = 3

        def construct(self, x):
            for _ in range(self.repeat):
                x = x * 2.0
            if x.shape[0] > 1:
                x = x + 1.0
            return x

    x = Tensor(np.ones((2, 1), np.float32))
    eager = Unrolled()(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    g = ms.trace(Unrolled(), x)
    assert [n.op for n in g.nodes] == ["Mul", "Mul", "Mul", "Add"]
    assert np.array_equal(Unrolled()(x).asnumpy(), eager)


def test_numpy_input_to_cell_is_a_type_error():
    with pytest.raises(TypeError, match="Scale: input 0 is a numpy array"):
        Scale()(np.ones(2, np.float32))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_shape_mismatch_names_op_cell_and_shapes(mode):
    class Bad(nn.Cell):
        def construct(self, x, y):
            return ops.matmul(x, y)

    ms.set_context(mode=mode)
    with pytest.raises(OpError) as e:
        Bad()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)))
    msg = str(e.value)
    assert "MatMul" in msg and "Bad" in msg and "(2, 3)" in msg


def test_dtype_mismatch_is_a_type_error():
    with pytest.raises(TypeError, match="MatMul"):
        ops.matmul(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float64)))


def test_ir_text_is_stable_and_readable():
    g = ms.trace(Scale(), Tensor(np.ones((1, 2), np.float32)))
    lines = g.text().splitlines()
    assert lines[0] == "graph Scale(%x: f32[1, 2]) {"
    assert lines[1] == "  # parameters: %w: f32[1]"
    assert lines[2].startswith("  %0 = Mul(%x, %w) : f32[1, 2]    # forward  test_graph_mode.py:")
    assert lines[3].startswith("  %1 = ReLU(%0) : f32[1, 2]    # forward")
    assert lines[4].startswith("  %2 = Sub(%1, 1.0) : f32[1, 2]    # forward")
    assert lines[-2:] == ["  return (%2)", "}"]
    assert g.text() == ms.trace(Scale(), Tensor(np.ones((1, 2), np.float32))).text()


def test_executor_steps_expose_every_value_and_match_run():
    net = Scale()
    x = np.array([[-1.0, 2.0]], np.float32)
    g = ms.trace(ops.GradOperation(get_by_list=True)(net, ms.ParameterTuple(net.trainable_params())), Tensor(x))
    ex = Executor(g)
    final = ex.run([x])
    seen = []
    for node, env in ex.steps([x]):
        seen.append((node.op, env[node].copy()))
    assert [op for op, _ in seen] == [n.op for n in ex.folded] + [s[-1].op for s in ex.schedule]
    out_node = g.outputs[0].node
    assert any(np.array_equal(v, final[0]) for op, v in seen if op == out_node.op)
    relu = [v for op, v in seen if op == "ReLU"][0]
    np.testing.assert_array_equal(relu, [[0.0, 4.0]])


def test_execution_error_names_node_and_source():
    class Reshaper(nn.Cell):
        def construct(self, x):
            return ops.reshape(x, (2, 3))

    ms.set_context(mode=ms.GRAPH_MODE)
    g = ms.trace(Reshaper(), Tensor(np.ones(6, np.float32)))
    ex = Executor(g)
    with pytest.raises(ExecutionError) as e:
        ex.run([np.ones(5, np.float32)])  # the wrong size slipped past tracing
    msg = str(e.value)
    assert "%0 (Reshape)" in msg and "test_graph_mode.py" in msg and "float32[5]" in msg


def test_jit_function_and_inlining():
    @ms.jit
    def f(x, y):
        return ops.exp(x) * y

    x, y = Tensor(np.array([0.0, 1.0], np.float32)), Tensor(np.array([2.0, 3.0], np.float32))
    np.testing.assert_array_equal(f(x, y).asnumpy(), np.exp(x.asnumpy()) * y.asnumpy())
    assert np.array_equal(ms.ms_function(lambda a, b: a * b)(x, y).asnumpy(), [0.0, 3.0])  # the 1.x name
    g = ms.trace(lambda a: f(a, a), x)  # a jit function inside a trace is inlined
    assert [n.op for n in g.nodes] == ["Exp", "Mul"]


def test_cse_merges_repeated_forward():
    net = Scale()

    def twice(x):
        return net(x) + net(x)

    g = ms.trace(twice, Tensor(np.ones(2, np.float32)))
    assert [n.op for n in g.nodes] == ["Mul", "ReLU", "Sub", "Add"]


def test_tape_records_eager_primitives():
    net = Scale()
    with ms.record() as tape:
        net(Tensor(np.ones(2, np.float32)))
    assert [n.op for n in tape.graph.nodes] == ["Mul", "ReLU", "Sub"]
    assert tape.graph.params[0].name == "w"


def test_parameters_passed_to_a_graph_call_stay_parameters():
    """optimizer(accumulators) at top level in GRAPH mode: a ParameterTuple argument is read (and written)
    as Parameters, not turned into graph inputs."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(2, 1)
    opt = nn.SGD(net.trainable_params(), 0.1)
    acc = ms.ParameterTuple(Parameter(Tensor(np.ones(p.shape, np.float32)), name="acc." + p.name)
                            for p in net.trainable_params())
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    opt(acc)
    for b, p in zip(before, net.trainable_params()):
        np.testing.assert_allclose(b - p.asnumpy(), 0.1, rtol=1e-6)
    acc[0].set_data(Tensor(np.full(acc[0].shape, 2.0, np.float32)))
    opt(acc)  # the same graph reads the accumulators' new values
    np.testing.assert_allclose(before[0] - net.trainable_params()[0].asnumpy(), 0.3, rtol=1e-6)
