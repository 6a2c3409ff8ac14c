"""ops.Custom and ops.constexpr (issue #19), as MindSpore 2.10 on CPU (observed on MindSpore 2.10 CPU;
docs/mindspore_observed/randimg.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.ops import custom_ops
from mslab.ops.primitive import constexpr as primitive_constexpr
from mslab.testing import check_grad, check_modes, in_mode

X = Tensor(np.array([1., 2.], np.float32))
Y = Tensor(np.array([3., 4.], np.float32))


def add(a, b):
    return a + b


def test_pyfunc_matches_mindspore():
    # observed on MindSpore 2.10 CPU
    c = ops.Custom(add, out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="pyfunc")
    assert c(X, Y).asnumpy().tolist() == [4.0, 6.0]
    assert ops.Custom(add, out_shape=(2,), out_dtype=ms.float32)(X, Y).asnumpy().tolist() == [4.0, 6.0]  # default
    seen = []
    ops.Custom(lambda a: seen.append((type(a), a.dtype, a.flags.writeable)) or a * 3, out_shape=(2,),
               out_dtype=ms.float32, func_type="pyfunc")(X)
    assert seen == [(np.ndarray, np.float32, True)]
    p, q = ops.Custom(lambda a: (a, a * 2), out_shape=((2,), (2,)), out_dtype=(ms.float32, ms.float32),
                      func_type="pyfunc")(X)
    assert p.asnumpy().tolist() == [1.0, 2.0] and q.asnumpy().tolist() == [2.0, 4.0]
    reshaped = ops.Custom(lambda a: a.reshape(1, 2), out_shape=(2,), out_dtype=ms.float32, func_type="pyfunc")(X)
    assert reshaped.shape == (2,)
    ints = ops.Custom(lambda a: a.astype(np.int32), out_shape=(2,), out_dtype=ms.int32, func_type="pyfunc")(X)
    assert ints.dtype == ms.int32 and ints.asnumpy().tolist() == [1, 2]
    for fn, out_shape in ((lambda a: 7.0, ()), (lambda a: np.array(7.0, np.float32), ())):
        out = ops.Custom(fn, out_shape=out_shape, out_dtype=ms.float32, func_type="pyfunc")(X)
        assert out.shape == (1,) and out.asnumpy().tolist() == [7.0]  # () becomes (1,), as MindSpore gives
    total = ops.Custom(lambda a: a.sum(), out_shape=lambda s: (), out_dtype=lambda d: d, func_type="pyfunc")(X)
    assert total.shape == (1,) and total.asnumpy().tolist() == [3.0]


def test_pyfunc_gradient():
    def bprop(a, b, out, dout):
        assert isinstance(a, Tensor) and isinstance(dout, Tensor)  # Tensors, as in MindSpore
        return dout * b, dout * a
    c = ops.Custom(lambda a, b: a * b, out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="pyfunc",
                   bprop=bprop)
    ga, gb = ops.grad(lambda a, b: c(a, b).sum(), (0, 1))(X, Y)
    assert ga.asnumpy().tolist() == [3.0, 4.0] and gb.asnumpy().tolist() == [1.0, 2.0]  # observed on MindSpore
    check_grad(c, np.array([0.5, -1.5, 2.0]), np.array([1.0, 2.0, -3.0]))
    check_modes(lambda a, b: c(a, b) * 2.0, X, Y)
    plain = ops.Custom(lambda a: a * 3, out_shape=(2,), out_dtype=ms.float32, func_type="pyfunc")
    with pytest.raises(RuntimeError, match="Custom's bprop not defined"):  # as MindSpore 2.10's message
        ops.grad(lambda a: plain(a).sum())(X)


def test_pyfunc_in_graph_mode_runs_each_time():
    calls = []
    c = ops.Custom(lambda a: calls.append(1) or a + 1, out_shape=lambda a: a, out_dtype=lambda a: a,
                   func_type="pyfunc")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.c = c

        def construct(self, a, b):
            return self.c(a) * b

    with in_mode(ms.GRAPH_MODE):
        net = Net()
        assert net(X, Y).asnumpy().tolist() == [6.0, 12.0]
        net(X, Y)
    assert len(calls) >= 2


@pytest.mark.parametrize("func, kwargs, error, message", [  # messages observed on MindSpore 2.10 CPU
    (add, dict(out_shape=(2,), out_dtype=ms.float32, func_type="aot"), TypeError, "'func' must be of type str"),
    ("./x.so:f", dict(out_shape=(2,), out_dtype=ms.float32, func_type="tbe"), TypeError,
     "'func' must be of type function, but got <class 'str'>"),
    (add, dict(out_shape=(2,), out_dtype=ms.float32, func_type="hybrid"), TypeError,
     "'func' must be a function decorated by kernel"),
    ("./x.so:f", dict(out_shape=(2,), out_dtype=ms.float32, func_type="akg"), TypeError, "is not a callable object"),
    (add, dict(out_shape=(2,), out_dtype=ms.float32, func_type="aicpu"), ValueError,
     "the registration information must be set, but current is None"),
    (add, dict(out_shape=(2,), out_dtype=ms.float32, func_type="julia"), ValueError,
     "'func_type' must be one of \\['hybrid', 'akg', 'tbe', 'aicpu', 'aot', 'pyfunc'\\], but got julia"),
    (add, dict(out_dtype=ms.float32, func_type="pyfunc"), TypeError,
     "'out_shape' must be one of \\[tuple, list, function\\], but got <class 'NoneType'>"),
    (add, dict(out_shape=(2,), func_type="pyfunc"), TypeError,
     "'out_dtype' must be one of \\[mindspore.dtype, tuple, list, function\\], but got <class 'NoneType'>"),
])
def test_custom_argument_errors(func, kwargs, error, message):
    with pytest.raises(error, match=message):
        ops.Custom(func, **kwargs)


def test_compiled_kernels_raise_when_called():
    # MindSpore 2.10 CPU: RuntimeError "couldn't find the AOT binary file"; mslab cannot load any binary
    c = ops.Custom("./x.so:f", out_shape=(2,), out_dtype=ms.float32, func_type="aot")
    with pytest.raises(RuntimeError, match="mslab cannot run"):
        c(X)
    with pytest.raises(RuntimeError, match="func_type='akg'"):
        ops.Custom(add, out_shape=(2,), out_dtype=ms.float32, func_type="akg")(X, Y)


def test_pyfunc_result_errors():
    wide = ops.Custom(lambda a: a.astype(np.float64), out_shape=(2,), out_dtype=ms.float32, func_type="pyfunc")
    with pytest.raises(TypeError, match="returned float64\\[2\\], but out_shape/out_dtype say Float32\\[2\\]"):
        wide(X)  # MindSpore 2.10: RuntimeError "memcpy failed"
    with pytest.raises(TypeError, match="returned None"):
        ops.Custom(lambda a: None, out_shape=(2,), out_dtype=ms.float32, func_type="pyfunc")(X)


def test_constexpr_matches_mindspore():
    @ops.constexpr
    def tup(n, k):
        return tuple(range(n)) * k

    # observed on MindSpore 2.10 CPU
    assert repr(tup) == "Prim[tup]<constexpr_prim=True>" and tup(3, 2) == (0, 1, 2, 0, 1, 2)
    assert ops.constexpr(reuse_result=False)(lambda x: x * 2)(4) == 8
    assert primitive_constexpr(lambda a: a + 1)(1) == 2
    assert primitive_constexpr(get_instance=False)(lambda a: a + 1)()(1) == 2

    @ops.constexpr
    def double_first(s):
        return s[0] * 2

    class Net(nn.Cell):
        def construct(self, x):
            return ops.reshape(x, (double_first(x.shape), -1))

    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        with in_mode(mode):
            assert Net()(Tensor(np.ones((2, 4), np.float32))).shape == (4, 2)


def test_registration_information_matches_mindspore():
    # observed on MindSpore 2.10 CPU
    info = (ops.CustomRegOp("add").input(0, "x").input(1, "y", "required").output(0, "z")
            .dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default, ops.DataType.F32_Default)
            .attr("alpha", "required", "float", value="1.0").target("CPU").get_op_info())
    assert info == {"op_name": "add", "inputs": [{"index": 0, "name": "x", "paramType": "required"},
                                                 {"index": 1, "name": "y", "paramType": "required"}],
                    "outputs": [{"index": 0, "name": "z", "paramType": "required"}],
                    "attr": [{"name": "alpha", "paramType": "required", "type": "float", "value": "1.0"}],
                    "fusion_type": "", "dtype_format": [(("float32", "DefaultFormat"),) * 3], "target": "CPU"}
    assert ops.CustomRegOp().get_op_info() == {"op_name": "Custom", "inputs": [], "outputs": [], "attr": [],
                                               "fusion_type": "", "dtype_format": [], "target": "UnKnown"}

    @ops.custom_info_register(info)
    def plus(a, b):
        return a + b
    assert plus.reg_info == (info,) and plus.__wrapped__(1, 2) == 3
    c = ops.Custom(plus, out_shape=(2,), out_dtype=ms.float32, func_type="pyfunc", reg_info=info)
    assert c(X, X).asnumpy().tolist() == [2.0, 4.0]
    names = [n for n in dir(ops.DataType) if not n.startswith("_")]
    assert len(names) == 204
    assert (ops.DataType.F32_Default, ops.DataType.I64_Default, ops.DataType.None_Default, ops.DataType.None_None,
            ops.DataType.F32_Default_List, ops.DataType.I8_NC1HWC0, ops.DataType.BOOL_None) == (
        ("float32", "DefaultFormat"), ("int64", "DefaultFormat"), ("", "DefaultFormat"), ("", ""),
        ("float32", "DefaultFormat", "list"), ("int8", "NC1HWC0"), ("bool", ""))
    with pytest.raises(TypeError, match="0 value must be int"):
        ops.CustomRegOp("a").input("0", "x")
    with pytest.raises(ValueError, match="the sum of input tensors and output tensors, but got 1 vs 0"):
        ops.CustomRegOp("a").dtype_format(("float32",))


def test_every_custom_primitive_is_tested():
    source = open(__file__).read().split("def test_every_custom")[0]
    assert all(n in source for n in custom_ops.__all__)
