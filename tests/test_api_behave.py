"""Behaviour found by running real MindSpore programs (issue 19): printing Parameters, Cell attributes,
integer gradients, ``return_ids``, and initialisers drawing from numpy's global generator.

Every expected value was observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn, ops
from mslab.common.initializer import HeUniform, Normal, TruncatedNormal, XavierUniform, initializer


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


def test_cell_attributes():
    net = _Net()
    # observed on MindSpore 2.10 CPU (there the class was named Net, and cls_name was "Net")
    assert (net.cls_name, net.fc.cls_name, net.seq.cls_name) == ("_Net", "Dense", "SequentialCell")
    assert (net.param_prefix, net.fc.param_prefix) == ("", "")
    net.update_cell_prefix()
    assert [net.param_prefix, net.fc.param_prefix, net.seq.param_prefix, net.seq[0].param_prefix] == \
        ["", "fc", "seq", "seq.0"]
    assert net.get_flags() == {}
    net.add_flags(a=1)
    assert net.get_flags() == {"a": 1}
    assert net.cell_type is None
    net.update_cell_type("abc")
    assert net.cell_type == "abc"
    seen = []
    assert net.apply(lambda c: seen.append(c.cls_name)) is net
    assert seen == ["Dense", "Dense", "ReLU", "SequentialCell", "_Net"]  # children first, as MindSpore


class _IntNet(nn.Cell):
    def construct(self, x, y, z):
        return y * (z + 3 * (x + y))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_integer_inputs_get_integer_gradients(mode):
    ms.set_context(mode=mode)
    try:
        args = [Tensor(np.array(v, np.int32)) for v in (1, 2, 3)]
        g = ops.GradOperation(get_all=True)(_IntNet())(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [(int(t.asnumpy()), str(t.dtype)) for t in g] == [(6, "Int32"), (18, "Int32"), (2, "Int32")]  # MS 2.10


def test_matmul_with_a_1d_operand_and_lowercase_tensor():
    a = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    assert ops.matmul(Tensor(np.ones(3, np.float32)), a).asnumpy().tolist() == [6.0, 9.0]  # MindSpore 2.10
    assert ops.matmul(a.T, Tensor(np.ones(3, np.float32))).asnumpy().tolist() == [6.0, 9.0]
    assert float(ops.matmul(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))) == 3.0
    t = ms.tensor([1, 2])
    assert type(t) is Tensor and str(t.dtype) == "Int64" and str(ms.tensor(1.5).dtype) == "Float32"
    assert ms.common.tensor.tensor is ms.tensor


def test_return_ids_and_get_grad():
    w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")
    v = Parameter(Tensor(np.array([5.0], np.float32)), name="v")

    def f(a, b):
        return (a * w * b + v).sum()

    a, b = Tensor(np.array([3.0], np.float32)), Tensor(np.array([4.0], np.float32))

    def plain(x):
        return tuple(plain(i) for i in x) if isinstance(x, tuple) else x if isinstance(x, (int, str)) else \
            x.asnumpy().tolist()

    # observed on MindSpore 2.10 CPU
    assert plain(ms.grad(f, 0, return_ids=True)(a, b)) == (0, [8.0])
    assert plain(ms.grad(f, (0, 1), return_ids=True)(a, b)) == ((0, [8.0]), (1, [6.0]))
    assert plain(ms.grad(f, None, weights=[w, v], return_ids=True)(a, b)) == (("w", [12.0]), ("v", [1.0]))
    out = ms.grad(f, (0, 1), weights=[w, v], return_ids=True)(a, b)
    assert plain(out) == (((0, [8.0]), (1, [6.0])), (("w", [12.0]), ("v", [1.0])))
    assert ms.get_grad(out, 1).asnumpy().tolist() == [6.0] and ops.get_grad(out, v).asnumpy().tolist() == [1.0]
    with pytest.raises(RuntimeError, match="Can not find the gradient for position or Parameter 5"):
        ms.get_grad(out, 5)
    assert plain(ms.grad(f, None, weights=w, return_ids=True)(a, b)) == ("w", [12.0])
    assert plain(ms.grad(f, 0, weights=w)(a, b)) == ([8.0], [12.0])  # one Parameter: its gradient alone
    assert ops.functional.grad is ms.grad and ops.functional.get_grad is ms.get_grad


def test_functional_grad():
    assert float(ops.functional.grad(lambda a: a * a)(Tensor(np.float32(3.0)))) == 6.0  # MindSpore 2.10


# np.random.rand(3) after np.random.seed(0) and building each, observed on MindSpore 2.10 CPU: every random
# initialiser takes one draw from numpy's global generator.
AFTER_ONE = [0.715189, 0.602763, 0.544883]
AFTER_TWO = [0.602763, 0.544883, 0.423655]
AFTER_NONE = [0.548814, 0.715189, 0.602763]


@pytest.mark.parametrize("make, after", [
    (lambda: nn.Conv2d(1, 2, 3, has_bias=True), AFTER_TWO),
    (lambda: nn.Conv2d(1, 2, 3), AFTER_ONE),
    (lambda: nn.Dense(4, 3), AFTER_TWO),
    (lambda: nn.BatchNorm2d(3), AFTER_NONE),
    (lambda: nn.LayerNorm((3,)), AFTER_NONE),
    (lambda: nn.Embedding(5, 2), AFTER_ONE),
    (lambda: nn.Dense(4, 3, weight_init=XavierUniform(), bias_init="zeros"), AFTER_ONE),
    (lambda: nn.Dense(4, 3, weight_init=Normal(0.1)), AFTER_TWO),
    (lambda: nn.Dense(4, 3, weight_init="xavier_uniform", bias_init="normal"), AFTER_TWO),
    (lambda: initializer(TruncatedNormal(0.02), [2, 3], ms.float32), AFTER_ONE),
    (lambda: initializer(HeUniform(), [2, 3], ms.float32), AFTER_ONE),
    (lambda: initializer("he_uniform", [2, 3], ms.float32), AFTER_ONE),
])
def test_initialisers_draw_once_from_numpy(make, after):
    np.random.seed(0)
    make()
    assert np.random.rand(3).round(6).tolist() == after


def test_set_seed_seeds_numpy_and_the_weights():
    ms.set_seed(3)
    a = nn.Dense(2, 2).weight.asnumpy()
    assert np.random.rand(3).round(6).tolist() == [0.290905, 0.510828, 0.892947]  # observed on MindSpore 2.10
    ms.set_seed(3)
    assert (nn.Dense(2, 2).weight.asnumpy() == a).all()


def _train_with_checkpoints(directory, mode):
    import mslab.dataset as ds
    from mslab import Model
    from mslab.train.callback import CheckpointConfig, ModelCheckpoint
    ms.set_context(mode=mode)
    try:
        x = np.random.RandomState(0).randn(8, 2).astype(np.float32)
        data = ds.NumpySlicesDataset({"x": x, "y": x.sum(1, keepdims=True)}, shuffle=False).batch(4)
        net = nn.Dense(2, 1)
        model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
        cfg = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=3)
        model.train(2, data, callbacks=[ModelCheckpoint(prefix="lin", directory=str(directory), config=cfg)])
        first = sorted(p.name for p in directory.iterdir())
        model.train(1, data, callbacks=[ModelCheckpoint(prefix="lin", directory=str(directory), config=cfg)])
        return first, sorted(p.name for p in directory.iterdir())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_model_checkpoint_writes_the_graph_once_in_graph_mode(tmp_path):
    first, second = _train_with_checkpoints(tmp_path, ms.GRAPH_MODE)
    # observed on MindSpore 2.10 CPU: the same file names (its .meta holds a binary GraphProto)
    assert first == ["lin-1_2.ckpt", "lin-2_1.ckpt", "lin-2_2.ckpt", "lin-graph.meta"]
    assert second == first + ["lin_1-1_1.ckpt", "lin_1-1_2.ckpt", "lin_1-graph.meta"]
    meta = tmp_path / "lin-graph.meta"
    assert meta.stat().st_mode & 0o777 == 0o600
    text = meta.read_text()
    assert text.startswith("# mslab IR: the graph GRAPH mode compiled for TrainOneStepCell")
    assert "graph TrainOneStepCell(%data: f32[4, 2], %label: f32[4, 1])" in text
    assert "MatMul(%data, %weight)" in text and "SGD(%weight, " in text  # nn.SGD: one SGD node per weight


def test_model_checkpoint_writes_no_graph_in_pynative_mode(tmp_path):
    first, second = _train_with_checkpoints(tmp_path, ms.PYNATIVE_MODE)
    assert first == ["lin-1_2.ckpt", "lin-2_1.ckpt", "lin-2_2.ckpt"]  # observed on MindSpore 2.10 CPU
    assert second == first + ["lin_1-1_1.ckpt", "lin_1-1_2.ckpt"]


class _HookNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(x) * 2


def test_forward_hooks_pynative(capsys):
    net = _HookNet()
    x = Tensor(np.array([[1.0, 2.0]], np.float32))

    def pre(cell, inputs):
        print("pre", cell.cls_name, [i.shape for i in inputs])
        return (inputs[0] + 1,)

    def post(cell, inputs, output):
        print("post", cell.cls_name, output.asnumpy().tolist())
        return output * 10

    h1, h2 = net.fc.register_forward_pre_hook(pre), net.fc.register_forward_hook(post)
    assert net(x).asnumpy().tolist() == [[100.0]]
    assert type(h1).__name__ == "HookHandle"
    h1.remove()
    h2.remove()
    assert net(x).asnumpy().tolist() == [[6.0]]
    net.fc.register_forward_hook(post)
    assert ms.grad(net)(x).asnumpy().tolist() == [[20.0, 20.0]]  # the gradient flows through the hook
    # observed on MindSpore 2.10 CPU: the same lines and numbers
    assert capsys.readouterr().out.splitlines() == ["pre Dense [(1, 2)]", "post Dense [[5.0]]", "post Dense [[3.0]]"]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_forward_hooks_in_both_modes(mode):
    ms.set_context(mode=mode)
    try:
        net = _HookNet()
        x = Tensor(np.array([[1.0, 2.0]], np.float32))
        h1 = net.fc.register_forward_pre_hook(lambda cell, inputs: (inputs[0] + 1,))
        h2 = net.fc.register_forward_hook(lambda cell, inputs, output: output * 10)
        assert net(x).asnumpy().tolist() == [[100.0]]  # observed on MindSpore 2.10 CPU, both modes
        h3 = net.fc.register_forward_hook(lambda cell, args, kwargs, output: output - 1, with_kwargs=True,
                                          prepend=True)
        # PYNATIVE on MindSpore 2.10: [[80.]] (its GRAPH mode kept the graph compiled before h3: [[100.]])
        assert net(x).asnumpy().tolist() == [[80.0]]
        for h in (h1, h2, h3):
            h.remove()
        assert net(x).asnumpy().tolist() == [[6.0]]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_always_call_hook_runs_when_construct_raises():
    class Broken(nn.Cell):
        def construct(self, x):
            raise ValueError("broken")

    seen = []
    net = Broken()
    net.register_forward_hook(lambda cell, args, output: seen.append(output), always_call=True)
    with pytest.raises(ValueError, match="broken"):
        net(Tensor(np.ones(1, np.float32)))
    assert seen == [None]


class _DataNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")

    def construct(self, x):
        return (self.w.data * x).sum()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_no_gradient_through_parameter_data(mode):
    ms.set_context(mode=mode)
    try:
        net = _DataNet()
        x = Tensor(np.array([3.0], np.float32))
        assert float(net(x)) == 6.0
        (g,) = ms.grad(net, None, net.trainable_params())(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert g.asnumpy().tolist() == [0.0]  # observed on MindSpore 2.10 CPU, both modes


def test_lstm_weights_are_mindspores_numbers():
    np.random.seed(0)
    lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True)
    got = {p.name: p.asnumpy() for p in lstm.get_parameters()}
    # observed on MindSpore 2.10 CPU after np.random.seed(0): its LSTM draws from np.random.uniform directly
    assert list(got) == ["weight_ih_l0", "weight_ih_l0_reverse", "weight_ih_l1", "weight_ih_l1_reverse",
                         "weight_hh_l0", "weight_hh_l0_reverse", "weight_hh_l1", "weight_hh_l1_reverse",
                         "bias_ih_l0", "bias_ih_l0_reverse", "bias_ih_l1", "bias_ih_l1_reverse",
                         "bias_hh_l0", "bias_hh_l0_reverse", "bias_hh_l1", "bias_hh_l1_reverse"]
    np.testing.assert_allclose(got["weight_ih_l0"].ravel()[:3], [0.056365, 0.248479, 0.118661], atol=1e-6)
    np.testing.assert_allclose(got["weight_hh_l1_reverse"].ravel()[:3], [0.296502, 0.15711, -0.300199], atol=1e-6)
    np.testing.assert_allclose(got["bias_hh_l1_reverse"].ravel()[:3], [0.547624, 0.566202, -0.105015], atol=1e-6)
    np.testing.assert_allclose([got[n].sum() for n in ("weight_ih_l1", "bias_ih_l1_reverse")], [-3.60227, -3.73734],
                               atol=1e-5)
    assert np.random.rand(2).round(6).tolist() == [0.246063, 0.665859]
