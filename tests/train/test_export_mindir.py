"""ms.export(..., file_format="MINDIR") writes a MindIR file: mslab loads it back with the same outputs (both modes),
and real MindSpore 2.10 (CPU) loaded the files these tests write and printed the outputs recorded here
(mindir_files/check_mslab_exports.py did it). The file mirrors MindSpore's own export of the same LeNet5
(mindir_files/lenet.mindir): the same ops, in the same order, in the same primitive forms."""
import os
from pathlib import Path

import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.train.mindir import schema
from mslab.train.mindir.writing import MindIRWriteError, model_of

FILES = Path(__file__).parent / "mindir_files"

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1, self.relu, self.fc2 = nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1, self.fc2, self.fc3 = nn.Dense(16 * 5 * 5, 120), nn.Dense(120, 84), nn.Dense(84, num_class)
        self.relu, self.max_pool2d, self.flatten = nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2), nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class Mixed(nn.Cell):
    """Most ops the writer knows: padded, strided and dilated convolutions, both poolings with 'same', batch norm
    (inference), softmax, reductions, concat, element-wise maths; two outputs."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(2, 4, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
        self.c2 = nn.Conv2d(4, 4, 3, pad_mode="same", dilation=2)
        self.bn = nn.BatchNorm2d(4)
        self.mp, self.ap = nn.MaxPool2d(3, 2, pad_mode="same"), nn.AvgPool2d(3, 1, pad_mode="same")
        self.sm, self.sig, self.tanh = nn.Softmax(), nn.Sigmoid(), nn.Tanh()

    def construct(self, x):
        y = self.ap(self.mp(self.bn(self.c2(self.c1(x)))))  # (2, 4, 4, 4)
        f = ops.reshape(y, (2, 64))
        g = ops.transpose(self.sm(f), (1, 0))  # (64, 2)
        h = ops.ReduceMean(keep_dims=True)(g, 1) + ops.ReduceMax(keep_dims=True)(g, (0, 1))
        k = self.sig(g) + self.tanh(h)
        m = ops.concat((k, k), 0)
        n = ops.exp(m) + ops.sqrt(ops.abs(m)) - ops.neg(m) * ops.square(m) / (ops.log(ops.abs(m) + 1) + 2.0)
        low = ops.ReduceMin(keep_dims=True)(m, 1)
        return ops.maximum(n, ops.ReduceSum(keep_dims=True)(n, 0) * 0.01), ops.minimum(m, low)


class More(nn.Cell):
    """Embedding, casts, GELU, LeakyReLU, ReLU6, Dropout (inference), LogSoftmax, Tile, AddN, Stack, Gather and
    BroadcastTo; two inputs."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.gelu, self.lrelu, self.relu6 = nn.GELU(), nn.LeakyReLU(0.2), nn.ReLU6()
        self.lsm, self.drop = nn.LogSoftmax(), nn.Dropout(p=0.5)

    def construct(self, idx, x):
        e = self.emb(idx)  # (2, 3, 4)
        a = ops.cast(x, ms.float16)
        a = ops.cast(ops.cast(a, ms.int32), ms.float32) + ops.cast(a, ms.float32)
        c = ops.squeeze(ops.expand_dims(a, 1), 1)
        d = self.gelu(c) + self.lrelu(c) + self.relu6(c) + ops.pow(c, 2.0) + self.drop(c)
        f = self.lsm(d) + ops.tile(ops.reshape(e, (6, 4)), (1, 2)).sum() + ops.AddN()((c, c, c))
        g = ops.reshape(ops.stack((f, f), 0), (4, 4))
        return g + ops.gather(f, ms.Tensor([1, 0], ms.int32), 0).sum() + ops.broadcast_to(ops.ReduceMean()(f), (4, 4))


class Slices(nn.Cell):
    """Basic indexing (ints, slices, ``...``: MindSpore's StridedSlice) and a grouped convolution (mslab slices it
    into one convolution per group)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 6)
        self.conv = nn.Conv2d(2, 4, 3, group=2)

    def construct(self, x):
        y = self.fc(x)  # (3, 5, 6)
        a, b, c = y[:, -1], y[1:, 0:5:2, 3], y[..., 1:4]  # (3, 6), (2, 3), (3, 5, 3)
        z = self.conv(ops.reshape(y[:2], (1, 2, 5, 6)))  # (1, 4, 5, 6)
        return a[:2, :3] + b + c[0, :2] + y[-1, 1, 2:5] + z[0, 1:3, 0, ::2]


class Layers(nn.Cell):
    """LayerNorm, Conv1d, ELU, PReLU, MaxPool1d, AdaptiveAvgPool2d, BatchNorm1d, SiLU, HSwish (mslab writes the ops
    they are made of), BatchMatMul, comparisons, logic, Select, trigonometry and friends."""

    def __init__(self):
        super().__init__()
        self.ln, self.conv1d, self.ap = nn.LayerNorm((8,)), nn.Conv1d(3, 4, 3, has_bias=True), nn.AdaptiveAvgPool2d(1)
        self.elu, self.prelu, self.silu, self.hswish = nn.ELU(), nn.PReLU(), nn.SiLU(), nn.HSwish()
        self.mp1, self.bn1 = nn.MaxPool1d(2, 2), nn.BatchNorm1d(4)

    def construct(self, x):  # (2, 3, 8)
        y = self.mp1(self.elu(self.conv1d(self.ln(x))) + self.prelu(self.conv1d(x)))  # (2, 4, 4)
        w = self.bn1(ops.reshape(self.ap(ops.reshape(y, (2, 4, 4, 1))), (2, 4)))  # (2, 4)
        v = ops.BatchMatMul(transpose_b=True)(y, y) + ops.BatchMatMul()(y, ops.transpose(y, (0, 2, 1)))  # (2, 4, 4)
        c = ops.select(v > 0.1, ops.sin(v), ops.cos(v))
        c += ops.select(ops.logical_and(v <= 0.3, ops.logical_not(v == 0.0)), ops.erf(v), ops.floor(v))
        c += ops.select(ops.logical_or(v < -0.2, v >= 0.5), ops.reciprocal(ops.abs(v) + 1), ops.rsqrt(ops.abs(v) + 1))
        c += ops.sign(v) * ops.select(v != 0.1, v, v)
        return c + ops.reshape(self.silu(w) + self.hswish(w), (2, 4, 1))


def quickstart():
    """The network of MindSpore's save_load tutorial (beginner/save_load.md), exported there with ones((1, 1, 28, 28))
    and run again through ms.load + nn.GraphCell."""
    return nn.SequentialCell(nn.Flatten(), nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
                             nn.Dense(512, 10))


class Rnn(nn.Cell):
    """An LSTM (unrolled; its zero first state is a Constant) and nested tuple results."""

    def __init__(self):
        super().__init__()
        self.lstm, self.fc = nn.LSTM(4, 3, batch_first=True), nn.Dense(3, 2)

    def construct(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1]) + ops.ones((2, 2), ms.float32), (h, c)


def fixed(net):
    """``net`` with weights drawn from numpy's generator (the same in mslab and in the recording), eval mode."""
    rng = np.random.default_rng(7)
    for p in net.get_parameters():
        values = rng.normal(scale=0.3, size=p.shape).astype(np.float32)
        if p.name.endswith("moving_variance"):
            values = np.abs(values) + 0.5
        p.set_data(ms.Tensor(values))
    net.set_train(False)
    return net


def inputs(name):
    """The network's inputs, a tuple."""
    rng = np.random.default_rng(0)
    if name == "more":
        return ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32)), ms.Tensor(rng.normal(size=(2, 4)), ms.float32)
    if name == "quickstart":
        return (ms.Tensor(np.ones((1, 1, 28, 28), np.float32)),)
    shape = {"mlp": (2, 4), "lenet": (2, 1, 32, 32), "mixed": (2, 2, 16, 16), "slices": (3, 5, 4),
             "layers": (2, 3, 8), "rnn": (2, 5, 4)}[name]
    return (ms.Tensor(rng.normal(size=shape).astype(np.float32)),)


NETS = {"mlp": MLP, "lenet": LeNet5, "mixed": Mixed, "more": More, "slices": Slices, "layers": Layers,
        "quickstart": quickstart, "rnn": Rnn}


def export(name, directory):
    net = fixed(NETS[name]())
    xs = inputs(name)
    ms.export(net, *xs, file_name=str(directory / name), file_format="MINDIR")
    return net, xs, str(directory / f"{name}.mindir")


def outputs(y):
    """The tensors of a result (tuples nest), in order, as arrays."""
    return [a for t in y for a in outputs(t)] if isinstance(y, tuple) else [y.asnumpy()]


def mindspore_outputs(name):
    """What MindSpore 2.10 CPU's ``nn.GraphCell(ms.load(file))(x)`` returned for the file ``export(name)`` writes."""
    kept = np.load(FILES / "mslab_exports_in_mindspore.npz")
    return [kept[f"{name}_{i}"] for i in range(sum(k.startswith(name + "_") for k in kept.files))]


@pytest.mark.parametrize("name", sorted(NETS))
def test_export_then_load_gives_the_networks_outputs_in_both_modes(name, tmp_path):
    net, xs, path = export(name, tmp_path)
    expected = outputs(net(*xs))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        got = outputs(nn.GraphCell(ms.load(path))(*xs))
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(NETS))
def test_real_mindspore_ran_the_exported_file_with_these_outputs(name, tmp_path):
    _, xs, path = export(name, tmp_path)
    got = outputs(nn.GraphCell(ms.load(path))(*xs))
    for g, recorded in zip(got, mindspore_outputs(name), strict=True):
        np.testing.assert_allclose(g, recorded, rtol=1e-5, atol=1e-5)
    if name == "mlp":  # as MindSpore printed them
        np.testing.assert_allclose(got[0], [[-0.33168942, 0.03938979, 0.45504206],
                                            [-0.4546709, 0.18018517, 0.5477135]], rtol=1e-6)


def test_export_in_graph_mode_writes_the_same_file(tmp_path):
    _, _, first = export("lenet", tmp_path)
    ms.set_context(mode=ms.GRAPH_MODE)
    (tmp_path / "graph").mkdir()
    _, _, second = export("lenet", tmp_path / "graph")
    assert Path(first).read_bytes() == Path(second).read_bytes()


def model(path):
    m = schema.ModelProto()
    m.ParseFromString(Path(path).read_bytes())
    return m


def computing(m):
    """(op, prim_type) of the nodes that compute, in order: MindSpore's bookkeeping (Load, UpdateState, Depend and
    the MakeTuple of the weights it read) left out."""
    table = {p.name: p for p in m.primitives}
    ops_ = []
    for node in m.graph.node:
        if node.op_type.startswith("REF::"):
            p = table[node.op_type[5:]]
            if p.op_type not in ("Load", "UpdateState", "Depend", "MakeTuple"):
                ops_.append((p.op_type, p.prim_type))
    return ops_


def test_the_file_mirrors_mindspores_own_export_of_lenet5(tmp_path):
    mine, theirs = model(export("lenet", tmp_path)[2]), model(FILES / "lenet.mindir")
    assert computing(mine) == computing(theirs)  # Conv2D, MaxPool: PRIMITIVE; the others PRIMITIVE_FUNCTION
    conv = {p.op_type + str(p.attribute[2].i): p for p in theirs.primitives if p.op_type == "Conv2D"}
    for p in mine.primitives:
        if p.op_type in ("Conv2D", "MaxPool"):
            reference = conv[p.op_type + str(p.attribute[2].i)] if p.op_type == "Conv2D" else next(
                q for q in theirs.primitives if q.op_type == "MaxPool")
            assert {a.name: a.SerializeToString() for a in p.attribute} == {
                a.name: a.SerializeToString() for a in reference.attribute}
            assert p.instance_name == reference.instance_name
    short = lambda names: [n.split(":", 1)[1] for n in names]  # noqa: E731
    assert short(p.name for p in mine.graph.parameter) == short(p.name for p in theirs.graph.parameter)
    assert [p.ref_key for p in mine.graph.parameter] == [p.ref_key for p in theirs.graph.parameter]
    assert [tuple(i.tensor[0].dims) for i in mine.graph.input] == [(2, 1, 32, 32)]
    domains = [n.domain for n in mine.graph.node if n.domain]
    assert domains[:3] == ["Default/conv1-Conv2d/Conv2D-op0", "Default/relu-ReLU/ReLU-op0",
                           "Default/max_pool2d-MaxPool2d/MaxPool-op0"]


def test_a_flatten_runs_any_batch_size(tmp_path):
    _, _, path = export("lenet", tmp_path)  # exported with batch 2; MindSpore 2.10 ran it with batch 3 too
    assert nn.GraphCell(ms.load(path))(ms.Tensor(np.ones((3, 1, 32, 32), np.float32))).shape == (3, 10)


def test_the_file_is_read_only_and_replaced_by_a_new_export(tmp_path):
    _, _, path = export("mlp", tmp_path)
    assert oct(os.stat(path).st_mode) == "0o100400"  # as MindSpore 2.10 makes its export (observed)
    export("mlp", tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["mlp.mindir"]  # no temporary file left


class WithRound(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)

    def construct(self, x):
        return ops.round(self.fc(x))


class Inner(nn.Cell):
    def construct(self, x):
        return ops.cumsum(x, 0)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = nn.SequentialCell([nn.Dense(4, 4), Inner()])

    def construct(self, x):
        return self.block(x)


class Reversed(nn.Cell):
    def construct(self, x):
        return x[::-1] * 2


class SameNames(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        self.b = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")

    def construct(self, x):
        return x * self.a + self.b


def test_two_weights_of_one_name_are_refused(tmp_path):
    with pytest.raises(MindIRWriteError, match="several Parameters of SameNames are named 'w'"):
        ms.export(SameNames(), ms.Tensor(np.ones(2, np.float32)), file_name=str(tmp_path / "s"), file_format="MINDIR")
    assert os.listdir(tmp_path) == []


def test_an_index_strided_slice_cannot_say_is_named(tmp_path):
    with pytest.raises(MindIRWriteError, match=r"GetItem \[::-1\] \(MindIR: StridedSlice of ints, '...' and slices of "
                                               r"positive step only\) in Reversed.construct"):
        ms.export(Reversed(), ms.Tensor(np.ones(3, np.float32)), file_name=str(tmp_path / "r"), file_format="MINDIR")


def test_an_op_the_writer_lacks_is_named_with_its_cell_and_nothing_is_written(tmp_path):
    x = ms.Tensor(np.ones((2, 4), np.float32))
    with pytest.raises(MindIRWriteError, match=r"cannot write these operators to MindIR yet: Round in "
                                               r"WithRound.construct, test_export_mindir.py:\d+  return "
                                               r"ops.round\(self.fc\(x\)\)\. It writes:"):
        ms.export(WithRound(), x, file_name=str(tmp_path / "round"), file_format="MINDIR")
    with pytest.raises(NotImplementedError, match=r"CumSum in Cell 'block/1' \(Inner\)"):
        ms.export(Outer(), x, file_name=str(tmp_path / "cumsum"), file_format="MINDIR")
    assert os.listdir(tmp_path) == []


def test_onnx_stays_mslabs_text_with_its_warning(tmp_path):
    with pytest.warns(UserWarning, match="not MindSpore's ONNX protobuf"):
        ms.export(MLP(), ms.Tensor(np.ones((2, 4), np.float32)), file_name=str(tmp_path / "m"), file_format="ONNX")
    assert (tmp_path / "m.onnx").read_text(encoding="utf-8").startswith("# mslab graph export")


def test_a_training_network_is_written_as_mslabs_graph_text_with_a_warning(tmp_path):
    net = nn.Dense(3, 2)
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    x, y = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.zeros((2, 2), np.float32))
    with pytest.warns(UserWarning, match="computes gradients or updates weights: mslab writes MindIR for inference "
                                         "networks only"):
        ms.export(train_net, x, y, file_name=str(tmp_path / "train"), file_format="MINDIR")
    with pytest.raises(RuntimeError, match="graph text mslab's export writes"):
        ms.load(str(tmp_path / "train.mindir"))
    with pytest.raises(MindIRWriteError, match="TrainOneStepCell computes gradients or updates weights"):
        model_of(ms.trace(train_net, x, y), train_net)


def test_a_network_returning_its_input_unchanged_is_refused():
    net = nn.Dropout(p=0.5)
    net.set_train(False)
    with pytest.raises(MindIRWriteError, match="Dropout returns its input x unchanged, computed by no op"):
        model_of(ms.trace(net, ms.Tensor(np.ones(3, np.float32))), net)


def test_nested_tuples_come_back_nested(tmp_path):
    net, xs, path = export("rnn", tmp_path)
    y = nn.GraphCell(ms.load(path))(*xs)  # MindSpore 2.10 returned (Tensor, (Tensor, Tensor)) for this file too
    assert isinstance(y, tuple) and isinstance(y[1], tuple) and [t.shape for t in y[1]] == [(1, 2, 3), (1, 2, 3)]


def test_an_exported_file_reads_back_as_mslab_ir_for_graph_view(tmp_path):
    _, _, path = export("lenet", tmp_path)
    ops_ = [n.op for n in ms.load(path).to_ir().nodes]  # what GraphView draws for a loaded MindIR graph
    assert ops_.count("Conv2D") == 2 and ops_.count("MatMul") == 3 and "Flatten" in ops_
