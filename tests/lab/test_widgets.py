"""Widgets: built for a small network, driven by simulated front-end messages; values are the engine's."""
import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mslab as ms
from mslab import context, nn
from mslab.lab.values import NO_VALUES, ValueSource
from mslab.lab.viz.loss_curve import COLORS, loss_figure
from mslab.lab.widgets import (
    ComparePanel,
    CompilePipeline,
    GraphView,
    LossPlot,
    StepThrough,
    TapeView,
    _assets,
    _graph,
    compare_panel,
)
from mslab.lab.widgets.step_through import ACTIONS
from mslab.viz import have_dot

pytestmark = pytest.mark.skipif(not have_dot(), reason="Graphviz dot is needed to draw the graphs")


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(4, 2)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def make():
    ms.set_seed(0)
    net = Net()
    return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))


def data():
    r = np.random.RandomState(7)
    return ms.Tensor(r.randn(5, 3).astype(np.float32)), ms.Tensor(r.randn(5, 2).astype(np.float32))


def no_address(text):
    return not re.search(r"0x[0-9a-fA-F]{6,}", text)


def test_import_mslab_does_not_import_widgets():
    code = ("import sys, mslab; assert 'anywidget' not in sys.modules; "
            "assert not any(m.startswith(('mslab.widgets', 'mslab.lab')) for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_each_widget_loads_one_self_contained_module_file():
    """anywidget gets each ``_esm`` as a file (hot reload with ANYWIDGET_HMR=1): one ES module per widget."""
    d = _assets.frontend_dir()
    widgets = {GraphView: "graph_view.js", StepThrough: "step_through.js", TapeView: "tape_view.js",
               LossPlot: "loss_plot.js", CompilePipeline: "compile_pipeline.js"}
    for cls, name in widgets.items():
        esm = str(cls.__dict__["_esm"])  # anywidget made the Path a FileContents (watched under ANYWIDGET_HMR=1)
        assert (d / name).is_file() and esm == (d / name).read_text(encoding="utf-8"), cls.__name__
        assert esm.startswith(f"// {name}") and esm.count("export default") == 1
        assert "mslab" not in " ".join(re.findall(r"^(?:function|const|class) (\w+)", esm, re.M)).lower()
    assert (d / "mslab.css").is_file() and not (d / "graph_core.js").exists()
    assert "function mountGraph" in str(GraphView.__dict__["_esm"])


def test_graph_view_click_expand_highlight():
    x, y = data()
    v = GraphView(ms.trace(make(), x, y))
    assert repr(v) == "GraphView(graph='TrainOneStepCell', nodes=26, collapsed_depth='auto')"
    assert 'data-mslab-node="%8"' in v.svg and 'data-mslab-node="param:fc1.weight"' in v.svg
    assert 'data-mslab-cluster="network/_backbone"' in v.svg
    # collapsed Cell call: click shows its members; expand opens just that Cell (see test_graph_view_per_cell_...)
    v.handle_message({"type": "click", "key": "box:network/_backbone/fc1"})
    assert v.inspector["expandable"] and [m[1] for m in v.inspector["members"]] == ["MatMul", "BiasAdd"]
    v.handle_message({"type": "cluster", "key": "network/_backbone"})
    assert v.inspector["collapsible"]
    v.handle_message({"type": "depth", "value": "none"})
    # a node: op, attributes, shape, dtype, scope, source
    v.handle_message({"type": "click", "key": "%0"})
    fields = dict(v.inspector["fields"])
    assert fields["op"] == "MatMul" and fields["transpose_b"] == "True" and fields["shape"] == "[5, 4]"
    # the source is the learner's line that called the Dense, not Dense's own code
    assert fields["Cell scope"] == "network/_backbone/fc1"
    line = inspect.getsourcelines(Net.construct)[1] + 1  # construct's return line
    assert fields["source"] == f"test_widgets.py:{line}  return self.fc2(self.relu(self.fc1(x)))"
    assert "value" not in v.inspector  # nothing has run
    v.highlight(["%0", "%1"])
    assert v.highlighted == ["%0", "%1"]
    html = v._repr_mimebundle_()[0]["text/html"]  # the static fallback shows the highlight too
    assert 'class="node mslab-highlight" data-mslab-node="%0"' in html and no_address(html)
    v.highlight([])
    assert v.highlighted == []


def node_keys(svg):
    return re.findall(r'data-mslab-node="([^"]*)"', svg)


def test_graph_view_per_cell_expand_and_collapse():
    x, y = data()
    v = GraphView(ms.trace(make(), x, y))
    before = node_keys(v.svg)
    assert "box:network/_backbone/fc1" in before and "box:network/_backbone/fc2" in before
    # a click on fc1's box opens fc1 only: its MatMul and BiasAdd appear, fc2 and the loss stay boxes
    v.handle_message({"type": "expand", "key": "box:network/_backbone/fc1"})
    after = node_keys(v.svg)
    fc1 = [n.out.name for n in v.graph.nodes if n.scope == "network/_backbone/fc1" and n.phase == "forward"]
    assert len(fc1) == 2 and set(fc1) <= set(after) and len(after) > len(before)
    boxes = {k for k in before if k.startswith("box:")}
    opened = {"box:network/_backbone/fc1", "box:\u2207network/_backbone/fc1"}  # its gradient opens alongside
    assert {k for k in after if k.startswith("box:")} == boxes - opened and set(before) - opened <= set(after)
    assert 'data-mslab-cluster="network/_backbone/fc1"' in v.svg
    assert v.collapse_depth == "auto"  # the menu's baseline is unchanged
    assert v.inspector["key"] == "network/_backbone/fc1" and v.inspector["collapsible"]  # the Cell, now a frame
    # a click on fc1's frame folds it back: the same picture as before
    v.handle_message({"type": "collapse", "key": "network/_backbone/fc1"})
    assert node_keys(v.svg) == before and 'data-mslab-cluster="network/_backbone/fc1"' not in v.svg
    assert v.selected == "box:network/_backbone/fc1" and v.inspector["title"] == "fc1"
    # folding a frame the depth rule leaves open, then opening it again
    v.collapse("network/_backbone")
    keys = node_keys(v.svg)
    assert "box:network/_backbone" in keys and "box:network/_loss_fn" in keys and "%0" not in keys
    v.expand("box:network/_backbone")
    assert node_keys(v.svg) == before
    # a frame that is no Cell call is only described; the depth menu resets the per-Cell choices
    v.handle_message({"type": "collapse", "key": "backward"})
    assert v.inspector["key"] == "backward" and not v.inspector["collapsible"] and node_keys(v.svg) == before
    v.expand("box:network/_backbone/fc1")
    v.set_collapse_depth(None)
    assert v.drawing.expanded == set() and "%0" in node_keys(v.svg)
    v.collapse("network/_backbone/fc2")
    assert "box:network/_backbone/fc2" in node_keys(v.svg) and "%0" in node_keys(v.svg)


def test_step_through_highlight_follows_expand_and_collapse():
    context.set_context(mode=context.GRAPH_MODE)
    x, y = data()
    st = StepThrough(make(), x, y)
    st.next_stage()
    fwd = {n.out.name for n in st.session.stages[0].nodes}
    pane = st.pane  # the GraphView child: clicks on the graph go to it
    assert "box:network/_backbone/fc1" in pane.highlighted
    pane.handle_message({"type": "expand", "key": "box:network/_backbone/fc1"})
    fc1 = [n.out.name for n in st.session.graph.nodes if n.scope == "network/_backbone/fc1" and n.phase == "forward"]
    assert set(fc1) <= set(pane.highlighted) and "box:network/_backbone/fc1" not in pane.highlighted
    assert all(k.startswith("box:") or k in fwd for k in pane.highlighted)
    assert all(f'class="node mslab-highlight" data-mslab-node="{k}"' in pane.svg for k in fc1)
    st.next_node()  # the stepping cursor lands on a node or on the box that holds it
    cur = st.session.current_node
    assert pane.current in pane.drawing.keys_for([cur])
    pane.handle_message({"type": "collapse", "key": "network/_backbone/fc1"})
    shown = set(node_keys(pane.svg))
    assert not set(fc1) & shown and set(pane.highlighted) <= shown and pane.current in shown | {""}
    assert pane.current in pane.drawing.keys_for([cur])
    st.reset()
    st.next_stage()
    assert "box:network/_backbone/fc1" in pane.highlighted and not set(fc1) & set(pane.highlighted)


def test_graph_view_values_after_run():
    x, y = data()
    net = Net()
    v = GraphView(ms.trace(net, x), collapse_depth=None)
    v.run(x)
    v.select("%0")
    expect = x.asnumpy() @ net.fc1.weight.asnumpy().T
    got = np.array(v.inspector["value"]["numbers"]).reshape(5, 4)
    np.testing.assert_allclose(got, expect, rtol=1e-5, atol=1e-6)
    assert np.array(v.inspector["value"]["matrix"]).shape == (5, 4)  # heat-map data
    assert "gradient" not in v.inspector  # a run knows no gradients: RunValues says so with None


def test_every_value_source_declares_the_protocol():
    """The graph panes read numbers only through mslab.lab.values.ValueSource; each source declares it."""
    x, y = data()
    st = StepThrough(make(), x, y)
    tv = TapeView(make().network, x, y)
    gv = GraphView(ms.trace(Net(), x)).run(x)
    for pane in (st.pane, tv.tape, tv.backward, gv):
        assert isinstance(pane.drawing.values, ValueSource)
    assert tv.backward.drawing.values is NO_VALUES and NO_VALUES.gradient(tv.backward.graph.inputs[0]) is None


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE], ids=["graph", "pynative"])
def test_step_through_values_are_the_engines(mode):
    context.set_context(mode=mode)
    x, y = data()
    plain = make()
    plain_loss = float(plain(x, y).asnumpy())
    cell = make()
    st = StepThrough(cell, x, y)
    name = "GRAPH" if mode == context.GRAPH_MODE else "PYNATIVE"
    assert repr(st) == f"StepThrough(TrainOneStepCell, mode={name}, stage='start', node=0/{st.total})"
    assert st.values["loss"] is None and st.stage_index == -1
    st.handle_message({"type": "step", "action": "next-stage"})
    assert st.values["stage"] == "forward" and st.stages[0]["state"] == "active"
    assert float(st.session.loss) == plain_loss  # exact; the panel gets 8 significant digits
    assert st.values["loss"]["numbers"] == [pytest.approx(plain_loss, rel=1e-7)]
    fwd = {n.out.name for n in st.session.stages[0].nodes}
    assert st.pane.highlighted and all(k.startswith("box:") or k in fwd for k in st.pane.highlighted)
    st.handle_message({"type": "step", "action": "next-stage"})
    assert st.values["stage"] == "sens" and st.values["sens"]["numbers"] == [1.0]
    st.handle_message({"type": "step", "action": "run-to-end"})
    assert st.values["stage"] == "return" and st.position == st.total
    for p, q in zip(cell.get_parameters(), plain.get_parameters()):
        np.testing.assert_array_equal(p.asnumpy(), q.asnumpy())
    row = st.values["params"][0]
    assert row["name"] == "fc1.weight" and row["updated"]
    np.testing.assert_allclose(np.array(row["after"]["numbers"]) - np.array(row["before"]["numbers"]),
                               row["delta"]["numbers"], atol=1e-6)
    grad = st.session.gradients["fc1.weight"]
    np.testing.assert_allclose(row["gradient"]["numbers"], grad.ravel(), rtol=1e-5)
    # inspector shows the weight's gradient; previous restores the weights
    st.pane.handle_message({"type": "click", "key": "param:fc1.weight"})
    assert st.pane.inspector["gradient"]["shape"] == [4, 3]
    st.handle_message({"type": "step", "action": "previous"})
    st.handle_message({"type": "step", "action": "previous"})
    assert not any(p["updated"] for p in st.values["params"])
    st.handle_message({"type": "goto-stage", "index": 0})
    assert st.values["stage"] == "forward"
    st.handle_message({"type": "step", "action": "next-node"})
    assert st.values["node"]["op"] == "Fill" and st.pane.current
    for action in ACTIONS:
        st.handle_message({"type": "step", "action": action})
    html = st._repr_mimebundle_()[0]["text/html"]
    assert 'data-mslab-role="values"' in html and no_address(html) and no_address(repr(st))


def test_tape_view_side_by_side():
    x, y = data()
    tv = TapeView(make().network, x, y)
    assert repr(tv) == "TapeView(WithLossCell, tape_nodes=8, backward_nodes=12)"
    assert "data-mslab-node" in tv.tape.svg and "data-mslab-node" in tv.backward.svg
    tv.tape.handle_message({"type": "depth", "value": "none"})
    tv.tape.handle_message({"type": "click", "key": "%0"})
    assert tv.tape.inspector["value"]["shape"] == [5, 4]  # the tape's real recorded value
    tv.backward.handle_message({"type": "click", "key": "%10"})
    assert dict(tv.backward.inspector["fields"])["phase"] == "backward"
    # the panes are child widgets: the front-end gets references to their models, not copies of their traits
    state = tv.get_state()
    assert state["tape"].endswith(tv.tape.model_id) and state["backward"].endswith(tv.backward.model_id)
    assert not any(k.startswith(("tape_svg", "graph_")) for k in state)
    assert "structure" in tv.caption


def test_loss_plot_callback_and_update():
    ms.set_seed(0)
    net = nn.Dense(3, 1)
    r = np.random.RandomState(0)
    X = r.randn(32, 3).astype(np.float32)
    Y = X.sum(1, keepdims=True)
    ds = ms.dataset.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(8)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    plot = LossPlot(min_interval=3600)  # bounded rate: the first batch of points, then the rest at finish
    sent = []
    plot.send = sent.append
    model.train(2, ds, callbacks=[plot])
    assert repr(plot) == "LossPlot(series=['loss'], points=8, last_step=8)"
    assert plot.sends == 2 and plot.finished
    assert sent[0] == {"type": "points", "series": {"loss": [[1], [plot.series["loss"][1][0]]]}}
    assert sent[1]["series"]["loss"][0] == [2, 3, 4, 5, 6, 7, 8]  # only the points not sent yet
    assert plot.data == {"loss": [list(range(1, 9)), plot.series["loss"][1]]}  # the widget state holds all
    hand = LossPlot(min_interval=0)
    hand.send = lambda msg: None
    for step in range(3):
        hand.update(step, loss=ms.Tensor(np.float32(1.0 / (step + 1))), acc=step / 3)
    assert hand.series["acc"][1] == [0.0, 1 / 3, 2 / 3] and hand.sends == 3
    # Python decides each series' axis and colour (the one is_loss rule); the browser only draws them
    assert hand.styles == {"loss": {"axis": "loss", "color": COLORS[0]}, "acc": {"axis": "metric", "color": COLORS[1]}}
    hand.update(3, val_loss=0.5)
    assert hand.styles["val_loss"] == {"axis": "loss", "color": COLORS[2]}
    js = str(LossPlot.__dict__["_esm"])
    assert "includes(\"loss\")" not in js and "COLORS" not in js
    data, _ = hand._repr_mimebundle_()
    assert data["text/plain"] == "LossPlot(series=['loss', 'acc', 'val_loss'], points=3, last_step=3)"
    svg = data["image/svg+xml"]
    assert svg == hand.svg() and svg.startswith("<?xml") and "<path" in svg  # the static curve, deterministic
    assert hand.png().startswith(b"\x89PNG")
    # the static picture is mslab.lab.viz's loss_figure: losses on the left axis, the metric on the right one
    fig = loss_figure(hand.series)
    left, right = fig.get_axes()
    assert [line.get_label() for line in left.get_lines()] == ["loss", "val_loss"]
    assert [line.get_label() for line in right.get_lines()] == ["acc"]


def test_loss_plot_finish_replaces_static_output(monkeypatch):
    """A displayed LossPlot's output is updated at finish: a saved notebook shows the final curve."""
    from IPython import display as ipd
    shown, updated = [], []

    class Handle:
        display_id = "abc"

    monkeypatch.setattr(ipd, "display", lambda *a, **k: shown.append((a, k)) or Handle())
    monkeypatch.setattr(ipd, "update_display", lambda *a, **k: updated.append((a, k)))
    plot = LossPlot()
    plot.send = lambda msg: None
    plot._ipython_display_()
    assert shown[0][1]["display_id"] is True and "image/svg+xml" not in shown[0][0][0]
    plot.update(1, loss=2.0).update(2, loss=1.0).finish()
    (bundle,), kw = updated[0]
    assert kw["display_id"] == "abc" and "image/svg+xml" in bundle
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_compare_panel_without_torch_or_tensorflow(monkeypatch):
    monkeypatch.setattr(compare_panel, "have_torch", lambda: False)
    monkeypatch.setattr(compare_panel, "have_tensorflow", lambda: False)
    p = ComparePanel()
    assert repr(p).startswith("ComparePanel(concepts=['dataset', 'network', 'loss', 'optimizer'")
    assert "not installed here" in p.result.value
    res = p.run()
    assert res["available"] is False and res["agree"] is None
    assert "pip install torch==2.13.0" in p.result.value and "pip install tensorflow-cpu" in p.result.value
    assert "Run 1" in p.result.value and "Run 2" in (p.run() and p.result.value)  # each press answers
    assert p.button.layout.width == "auto"  # the label is not cut off
    assert len(p.tabs.children) == 6 and all(len(t.children) == 3 for t in p.tabs.children)
    assert "TrainOneStepCell" in p.code("training step") and "backward()" in p.code("training step", "PyTorch")
    assert "text/html" in p._repr_mimebundle_()[0]


def test_compare_panel_mslab_code_runs():
    """The mslab tab code is real code: the network/loss/optimizer/step tabs run as written."""
    ns = {}
    exec(compare_panel.CODE["network"]["mslab"], ns)
    x, y = data()
    ns.update(x=x, y=y, nn=nn, net=ns["Net"]())
    exec(compare_panel.CODE["optimizer"]["mslab"], ns)
    exec(compare_panel.CODE["training step"]["mslab"].replace("# or", "# "), ns)
    exec(compare_panel.CODE["autodiff"]["mslab"], ns)
    assert len(ns["grads"]) == 4


def test_compare_panel_with_torch():
    pytest.importorskip("torch")
    res = ComparePanel().run()
    assert res["available"] and res["agree"]
    assert res["rows"][0][0] == "loss" and len(res["rows"]) == 9


def test_compare_panel_with_tensorflow_beside_torch():
    pytest.importorskip("torch")
    if not compare_panel.have_tensorflow():
        pytest.skip("TensorFlow is not installed")
    p = ComparePanel()
    res = p.run()
    tf_res = res["tensorflow"]
    assert tf_res["available"] and tf_res["agree"] and res["agree"]
    assert [w for w, _ in tf_res["rows"]] == [w for w, _ in res["rows"]]  # the same nine comparisons
    assert "max |mslab - TensorFlow|" in p.result.value and "mslab, PyTorch and TensorFlow agree" in p.result.value


def test_graph_view_inspector_values_for_weights_and_boxes_and_layout_choice():
    """Weights have numbers before any run; after a run a folded Cell shows its output value; LR layout redraws."""
    x, _ = data()
    net = Net()
    v = GraphView(ms.trace(net, x), collapse_depth="leaves")
    v.select("param:fc1.weight")
    np.testing.assert_allclose(np.array(v.inspector["value"]["numbers"]).reshape(4, 3), net.fc1.weight.asnumpy(),
                               rtol=1e-6)
    v.run(x)
    v.handle_message({"type": "click", "key": "box:fc2"})  # a box: expanding it is what a click does ...
    v.collapse("fc2")  # ... and folding it back selects it
    assert v.selected == "box:fc2"
    got = np.array(v.inspector["value"]["numbers"]).reshape(5, 2)
    np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-5, atol=1e-6)  # the Cell call's output
    svg = v.svg
    v.handle_message({"type": "rankdir", "value": "LR"})
    assert v.rankdir == "LR" and v.svg != svg and "rankdir=LR" in v.drawing.picture.dot
    with pytest.raises(ValueError, match="layout must be 'TB'"):
        v.drawing.set_rankdir("BT")


def test_graph_view_folds_coarser_when_graphviz_runs_out_of_time(monkeypatch):
    """Over the time budget the picture falls back to depth 1 and a notice says why."""
    real = _graph.render_dot

    def slow_unless_depth_1(dot, fmt="svg", timeout=None):
        if "box:network" not in dot:
            raise _graph.GraphvizTimeout("too slow")
        return real(dot, fmt)

    monkeypatch.setattr(_graph, "render_dot", slow_unless_depth_1)
    x, y = data()
    v = GraphView(ms.trace(make(), x, y), collapse_depth=None)
    assert v.collapse_depth == "1" and "folded into one box (depth 1)" in v.notice
    assert 'data-mslab-node="box:network"' in v.svg
    v.set_collapse_depth(1)
    assert v.notice == ""


def test_depth_change_unselects_a_node_the_new_picture_lacks():
    x, _ = data()
    v = GraphView(ms.trace(Net(), x), collapse_depth=None)
    v.select("%0")
    v.set_collapse_depth(1)
    assert v.selected == "" and v.inspector == {}


# the lessons' LeNet5 (benchmarks/lenet_digits.py): a flat network, every Cell one level deep
_spec = importlib.util.spec_from_file_location("lenet_digits", Path(__file__).resolve().parents[2] / "benchmarks"
                                               / "lenet_digits.py")
lenet_digits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lenet_digits)


def _picture_keys(view):
    """What a fold choice draws: the keys of its boxes, ops and Cell frames."""
    return frozenset(vn.key for vn in view.drawing.view.nodes) | frozenset("frame:" + c.key
                                                                         for c in view.drawing.view.clusters)


def _pictures_of_every_choice(view):
    pictures = []
    for option in view.depth_options:
        view.handle_message({"type": "depth", "value": option})
        assert view.collapse_depth == option
        pictures.append(_picture_keys(view))
    return pictures


def test_fold_menu_on_lenet_offers_only_distinct_pictures():
    """On flat LeNet "auto", "leaves" and 1 all fold each layer into a box: the menu offers one of them."""
    ms.set_seed(0)
    x = ms.Tensor(np.zeros((2, 1, 32, 32), np.float32))
    v = GraphView(ms.trace(lenet_digits.LeNet5(), x))
    assert v.depth_options == ["auto", "none"]
    pictures = _pictures_of_every_choice(v)
    assert len(set(pictures)) == len(pictures)
    # a choice the menu leaves out still works from Python, and the menu shows it while it is in force
    v.set_collapse_depth("leaves")
    assert v.depth_options == ["auto", "none", "leaves"] and v.collapse_depth == "leaves"
    assert _picture_keys(v) == pictures[0]


def test_fold_menu_on_a_nested_network_offers_each_depth():
    """A training step nests Cells three deep (TrainOneStepCell > WithLossCell > Net > fc1): every depth differs."""
    x, y = data()
    v = GraphView(ms.trace(make(), x, y))
    assert v.depth_options == ["auto", "none", "1", "2", "3"]
    pictures = _pictures_of_every_choice(v)
    assert len(set(pictures)) == len(pictures)
    steps = StepThrough(make(), x, y)
    assert steps.pane.depth_options == ["auto", "none", "1", "2", "3"]
