"""Parameters as MindSpore 2.10 prints and shares them: names, ParameterTuple, asnumpy / value / data,
set_data, and the names unnamed Parameters get.

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn, ops


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 1)
        self.seq = nn.SequentialCell([nn.Dense(1, 1), nn.ReLU()])

    def construct(self, x):
        return self.seq(self.fc(x))


def test_print_parameter_names_it(capsys):
    net = _Net()
    w = net.fc.weight
    print(w)
    print((w, net.fc.bias))
    print(net.trainable_params()[:2])
    p2 = Parameter(Tensor(np.array([1, 2], np.int32)), name="q", requires_grad=False)
    print(f"{p2}")
    # observed on MindSpore 2.10 CPU
    assert capsys.readouterr().out.splitlines() == [
        "Parameter (name=fc.weight, shape=(1, 2), dtype=Float32, requires_grad=True)",
        "(Parameter (name=fc.weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
        "Parameter (name=fc.bias, shape=(1,), dtype=Float32, requires_grad=True))",
        "[Parameter (name=fc.weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
        "Parameter (name=fc.bias, shape=(1,), dtype=Float32, requires_grad=True)]",
        "Parameter (name=q, shape=(2,), dtype=Int32, requires_grad=False)",
    ]
    assert repr(w) == str(w)


def test_parameter_tuple_prints_as_a_tuple():
    net = nn.Dense(2, 1)
    pt = ms.ParameterTuple(net.trainable_params())
    # observed on MindSpore 2.10 CPU (print, repr and str alike; an optimizer's .parameters too)
    expected = ("(Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
                "Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True))")
    assert repr(pt) == str(pt) == expected
    assert str(nn.SGD(net.trainable_params(), 0.1).parameters) == expected


def test_parameter_numbers_through_asnumpy_value_and_data(capsys):
    p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    print(p.asnumpy())
    print(p.value())
    print(p.data)
    print(p + 1)
    assert capsys.readouterr().out.splitlines() == ["[1. 2.]", "[1. 2.]", "[1. 2.]", "[2. 3.]"]  # MindSpore 2.10
    assert type(p.data) is Tensor and type(p.value()) is Tensor


def test_parameter_data_shares_storage_until_set_data():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    d, v = p.data, p.value()
    ops.assign(p, Tensor(np.array([7.0, 8.0], np.float32)))
    assert d.asnumpy().tolist() == [7.0, 8.0] and v.asnumpy().tolist() == [1.0, 1.0]  # observed on MindSpore 2.10
    d[1] = 9.0
    assert p.asnumpy().tolist() == [7.0, 9.0]
    p.set_data(Tensor(np.array([5.0, 6.0], np.float32)))
    assert d.asnumpy().tolist() == [7.0, 9.0]  # set_data gives the Parameter new storage


def test_unnamed_parameters_count_as_mindspore_names_them():
    a = Parameter(Tensor(3.0, ms.float32))
    b = Parameter(Tensor(3.0, ms.float32))
    # observed on MindSpore 2.10 CPU: Parameter#2, Parameter#3 in a fresh process (the counter is process-wide)
    assert a.name.startswith("Parameter#") and int(b.name[10:]) == int(a.name[10:]) + 1
    # observed on MindSpore 2.10 CPU: None or '' generates a name, spaces are stripped, a non-str is a ValueError
    assert Parameter(Tensor(3.0, ms.float32), name="").name.startswith("Parameter#")
    a.name = "  q  "
    assert a.name == "q"
    a.name = None
    assert a.name.startswith("Parameter#")
    with pytest.raises(ValueError, match="The type of the Parameter's name should be 'string' or 'None', but got "
                                         "<class 'int'>."):
        a.name = 3
