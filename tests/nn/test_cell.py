"""Cell behaviour from SPEC.md: registration, naming, walking, modes, repr, input checks."""
import types
from collections import OrderedDict

import numpy as np
import pytest

from mslab import Parameter, ParameterTuple, Tensor, context, nn, ops
from mslab.common import dtype as mstype
from mslab.testing import check_modes


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)

    def construct(self, x):
        return self.fc(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.ones(1, np.float32)))
        self.layers = nn.SequentialCell([Block(), Block()])
        self.heads = nn.CellList([nn.Dense(2, 1), nn.Dense(2, 1)])

    def construct(self, x):
        h = self.layers(x) * self.scale
        return self.heads[0](h) + self.heads[1](h)


EXPECTED_NAMES = ["scale", "layers.0.fc.weight", "layers.0.fc.bias", "layers.1.fc.weight", "layers.1.fc.bias",
                  "heads.0.weight", "heads.0.bias", "heads.1.weight", "heads.1.bias"]


def test_parameter_names_and_order():
    net = Net()
    assert [name for name, _ in net.parameters_and_names()] == EXPECTED_NAMES
    assert [p.name for p in net.get_parameters()] == EXPECTED_NAMES
    assert [p.name for p in net.trainable_params()] == EXPECTED_NAMES


def test_dense_parameter_names_and_repr(linear_net):
    net = linear_net
    assert [p.name for p in net.trainable_params()] == ["fc.weight", "fc.bias"]
    assert repr(net.fc.weight) == "Parameter (name=fc.weight, shape=(1, 1), dtype=Float32, requires_grad=True)"
    assert repr(net) == "LinearNet(\n  (fc): Dense(input_channels=1, output_channels=1, has_bias=True)\n)"
    assert repr(nn.Dense(2, 3, activation=nn.ReLU())).startswith(
        "Dense(\n  input_channels=2, output_channels=3, has_bias=True, activation=ReLU()\n")  # as MindSpore 2.10
    assert repr(nn.Dense(2, 3, has_bias=False)) == "Dense(input_channels=2, output_channels=3)"


def test_nested_repr():
    text = repr(Net())
    assert text.startswith("Net(\n  (layers): SequentialCell(\n    (0): Block(\n      (fc): Dense(")
    assert "  (heads): CellList(\n    (0): Dense(input_channels=2, output_channels=1, has_bias=True)" in text


def test_wrapper_without_auto_prefix_keeps_names(linear_net):
    class Wrapper(nn.Cell):
        def __init__(self, network):
            super().__init__(auto_prefix=False)
            self.network = network

        def construct(self, x):
            return self.network(x)

    net = linear_net
    w = Wrapper(net)
    assert [p.name for p in w.trainable_params()] == ["fc.weight", "fc.bias"]


def test_trainable_params_skip_frozen():
    net = Net()
    net.scale.requires_grad = False
    assert isinstance(net.trainable_params(), list)
    assert [p.name for p in net.trainable_params()] == EXPECTED_NAMES[1:]
    assert [p.name for p in net.get_parameters()] == EXPECTED_NAMES
    bn = nn.BatchNorm1d(3)
    assert [p.name for p in bn.trainable_params()] == ["gamma", "beta"]
    assert [p.name for p in bn.get_parameters()] == ["mean", "variance", "gamma", "beta"]  # as MindSpore 2.10


def test_get_parameters_is_generator(linear_net):
    gen = Net().get_parameters()
    assert isinstance(gen, types.GeneratorType)
    assert all(isinstance(p, Parameter) for p in gen)
    opt_params = list(filter(lambda x: x.requires_grad, linear_net.get_parameters()))  # seed idiom
    assert len(opt_params) == 2


def test_shared_parameter_listed_once():
    class Tied(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 2)
            self.b = self.a

        def construct(self, x):
            return self.b(self.a(x))

    assert len(list(Tied().get_parameters())) == 2


def test_cells_and_names_and_name_cells():
    net = Net()
    items = list(net.cells_and_names())
    assert items[0] == ("", net)
    names = [n for n, _ in items]
    assert names == ["", "layers", "layers.0", "layers.0.fc", "layers.1", "layers.1.fc", "heads", "heads.0",
                     "heads.1"]
    children = net.name_cells()
    assert isinstance(children, OrderedDict)
    assert list(children) == ["layers", "heads"]
    assert children["layers"] is net.layers
    assert isinstance(net.layers[1], Block) and len(net.heads) == 2


def test_set_train_propagates_and_returns_self():
    net = Net()
    assert net.training is False
    assert all(c.training is False for _, c in net.cells_and_names())
    assert net.set_train() is net
    assert all(c.training is True for _, c in net.cells_and_names())
    assert net.set_train(False) is net
    assert all(c.training is False for _, c in net.cells_and_names())
    assert net.set_grad() is net and net.requires_grad


def test_parameter_tuple_registered(linear_net):
    class Holder(nn.Cell):
        def __init__(self, params):
            super().__init__(auto_prefix=False)
            self.params = ParameterTuple(params)

        def construct(self):
            return self.params[0]

    net = linear_net
    h = Holder(net.trainable_params())
    assert [p.name for p in h.get_parameters()] == ["fc.weight", "fc.bias"]
    with pytest.raises(TypeError):
        ParameterTuple([Tensor(np.ones(1))])


def test_numpy_input_raises_type_error_naming_the_cell(linear_net):
    net = linear_net
    with pytest.raises(TypeError, match="LinearNet"):
        net(np.ones((2, 1), np.float32))
    context.set_context(mode=context.GRAPH_MODE)
    with pytest.raises(TypeError, match="LinearNet"):
        net(np.ones((2, 1), np.float32))


def test_graph_equals_pynative_for_small_network():
    net = Net()
    x = Tensor(np.random.default_rng(0).standard_normal((4, 2)).astype(np.float32))
    out = check_modes(lambda x: net(x), x)
    assert out[0].shape == (4, 1)
    # calling the Cell itself in each mode agrees too
    eager = net(x).asnumpy()
    context.set_context(mode=context.GRAPH_MODE)
    np.testing.assert_array_equal(net(x).asnumpy(), eager)


def test_graph_mode_sees_parameter_updates(linear_net):
    net = linear_net
    x = Tensor(np.ones((2, 1), np.float32))
    context.set_context(mode=context.GRAPH_MODE)
    net(x)
    net.fc.weight.set_data(Tensor(np.full((1, 1), 3.0, np.float32)))
    net.fc.bias.set_data(Tensor(np.zeros(1, np.float32)))
    np.testing.assert_array_equal(net(x).asnumpy(), np.full((2, 1), 3.0, np.float32))


def test_construct_with_ops_primitives_seed_style():
    class ReLUReduceMeanDense(nn.Cell):
        def __init__(self, kernel, bias, in_channel, num_class):
            super().__init__()
            self.relu = ops.ReLU()
            self.mean = ops.ReduceMean(keep_dims=False)
            self.dense = nn.Dense(in_channel, num_class, kernel, bias)

        def construct(self, x):
            x = self.relu(x)
            x = self.mean(x, (2, 3))
            return self.dense(x)

    weight = Tensor(np.ones((5, 8), np.float32))
    bias = Tensor(np.ones((5,), np.float32))
    net = ReLUReduceMeanDense(weight, bias, 8, 5)
    assert [p.name for p in net.get_parameters()] == ["dense.weight", "dense.bias"]
    x = np.random.default_rng(1).standard_normal((3, 8, 2, 2)).astype(np.float32)
    out = check_modes(lambda t: net(t), Tensor(x))[0]
    expected = np.maximum(x, 0).mean(axis=(2, 3)) @ np.ones((8, 5)) + 1
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    assert net.dense.weight.dtype == mstype.float32
