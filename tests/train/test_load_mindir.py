"""ms.load + nn.GraphCell: MindIR files written by real MindSpore 2.10 (CPU; mindir_files/make_mindir_files.py)
run in mslab with MindSpore's outputs, in both modes; bad paths and damaged files give MindSpore's errors."""
from pathlib import Path

import numpy as np
import pytest

import mslab as ms
from mslab import nn

FILES = Path(__file__).parent / "mindir_files"


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_mlp_exported_by_mindspore_runs_with_its_output(mode):
    net = nn.GraphCell(ms.load(str(FILES / "mlp.mindir")))
    out = net(ms.Tensor(np.ones((2, 4), np.float32))).asnumpy()
    # MindSpore 2.10 printed these for the exported network on the same input
    np.testing.assert_allclose(out, [[0.14744988, -0.49129778, 0.15978977]] * 2, rtol=1e-6)
    assert [p.name for p in net.get_parameters()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]


def test_lenet_exported_by_mindspore_runs_with_its_output(mode):
    io = np.load(FILES / "lenet_io.npz")
    out = nn.GraphCell(ms.load(str(FILES / "lenet.mindir")))(ms.Tensor(io["x"])).asnumpy()
    np.testing.assert_allclose(out, io["y"], rtol=1e-5, atol=1e-6)


def test_any_batch_size_runs(mode):
    net = nn.GraphCell(ms.load(str(FILES / "mlp.mindir")))  # exported with batch 2; MindSpore runs batch 3 too
    assert net(ms.Tensor(np.ones((3, 4), np.float32))).shape == (3, 3)


def test_the_loaded_graph_reads_as_its_ops():
    text = ms.load(str(FILES / "lenet.mindir")).text()
    assert "Conv2D(x, CNode_17:1)" in text and text.count("MatMul(") == 3 and "return " in text


def test_params_init_replaces_the_files_weights():
    graph = ms.load(str(FILES / "mlp.mindir"))
    zeros = {"fc2.weight": ms.Tensor(np.zeros((3, 8), np.float32)), "fc2.bias": ms.Tensor(np.zeros(3, np.float32))}
    out = nn.GraphCell(graph, params_init=zeros)(ms.Tensor(np.ones((2, 4), np.float32))).asnumpy()
    np.testing.assert_array_equal(out, np.zeros((2, 3), np.float32))


def test_graph_mode_traces_the_loaded_graph_into_mslab_ir():
    x = ms.Tensor(np.load(FILES / "lenet_io.npz")["x"])
    graph = ms.trace(nn.GraphCell(ms.load(str(FILES / "lenet.mindir"))), x)
    assert [n.op for n in graph.nodes].count("Conv2D") == 2


def test_load_mindir_raises_mindspores_errors(tmp_path):
    # observed on MindSpore 2.10 CPU, each in its own process
    with pytest.raises(ValueError, match=r"must be string, but got <class 'int'>"):
        ms.load(3)
    with pytest.raises(ValueError, match=r"should end with '.mindir'"):
        ms.load(str(tmp_path / "net.txt"))
    with pytest.raises(ValueError, match=r"\(MindIR file\) does not exist"):
        ms.load(str(tmp_path / "none.mindir"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"not a mindir")
    with pytest.raises(RuntimeError, match="Load MindIR failed. .*bad.mindir"):
        ms.load(str(bad))


def test_a_truncated_file_names_itself(tmp_path):
    cut = tmp_path / "cut.mindir"
    cut.write_bytes((FILES / "lenet.mindir").read_bytes()[:50_000])
    with pytest.raises(RuntimeError, match="Load MindIR failed. .*cut.mindir"):
        ms.load(str(cut))


def test_the_graph_text_older_mslab_exports_wrote_is_refused_with_what_it_is(tmp_path):
    (tmp_path / "dense.mindir").write_text("# mslab graph export, format requested: MINDIR. ...\n")
    with pytest.raises(RuntimeError, match="Load MindIR failed. .*graph text mslab's export writes"):
        ms.load(str(tmp_path / "dense.mindir"))


def test_an_op_mslab_lacks_is_named(tmp_path):
    from mslab.train.mindir import schema
    model = schema.ModelProto()
    model.ParseFromString((FILES / "mlp.mindir").read_bytes())
    for prim in model.primitives:
        if prim.op_type == "BiasAdd":
            prim.op_type = "NoSuchOp"
    odd = tmp_path / "odd.mindir"
    odd.write_bytes(model.SerializeToString())
    with pytest.raises(RuntimeError, match="Load MindIR failed. .*odd.mindir: node .* applies the operator NoSuchOp, "
                                           "which mslab does not have"):
        ms.load(str(odd))


def test_graph_view_draws_a_loaded_mindir_graph():
    from mslab.lab.viz import have_dot
    from mslab.widgets import GraphView
    if not have_dot():
        pytest.skip("Graphviz dot is not installed")
    view = GraphView(ms.load(str(FILES / "lenet.mindir")), collapse_depth="none")
    assert "Conv2D" in view.svg and "fc3.weight" in view.svg
