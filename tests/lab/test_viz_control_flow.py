"""Views of control flow on tensors (issue #10): If / While / WhileGrad drawn as frames around their
subgraphs, host (JIT Fallback) nodes in their own style, and StepThrough showing the branch that ran and
a loop's iteration count. (The front end reads source, so the functions and Cells live in this file.)"""
import numpy as np
import pytest

import mslab as ms
import mslab.viz as viz
from mslab import Tensor, nn
from mslab.amp import all_finite
from mslab.lab.stepping import OPTIMIZER_S, TrainStepSession
from mslab.lab.viz import keys
from mslab.lab.viz.dot import LEGEND, STYLES
from mslab.lab.widgets.graph_view import GraphView
from mslab.lab.widgets.step_through import StepThrough

needs_dot = pytest.mark.skipif(not viz.have_dot(), reason="Graphviz dot is not installed")
ONES = Tensor(np.ones(3, np.float32))


def if_while(x):
    if x.sum() > 0:
        x = x * 2
    while x.sum() < 100:
        x = x + 10
    return x


def loop_with_if(x):
    while x.sum() < 50:
        if x.sum() > 20:
            x = x * 3
        else:
            x = x + 5
    return x


def host_code(x):
    y = x * 3
    print("y is", y)
    return Tensor(np.exp(y.asnumpy())) + y


class OnesDense(nn.Cell):
    """A Dense(3, 2) of ones with a zero bias, so each output is the row sum of the input: branches are predictable."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")


class Gate(OnesDense):
    """``if`` on the value of a Dense layer's output: the then-branch doubles it, the else-branch negates it."""

    def construct(self, x):
        y = self.fc(x)
        if y.sum() > 0:
            y = y * 2
        else:
            y = -y
        return y


class Doubling(OnesDense):
    """``while`` on a tensor: double the Dense layer's output until its absolute sum reaches 50."""

    def construct(self, x):
        y = self.fc(x)
        while y.abs().sum() < 50:
            y = y * 2
        return y


class SkipStep(nn.Cell):
    """Seed 001's Trainer step as a Cell: ``if all_finite(grads): self.opt(grads)``."""

    def __init__(self, net, opt):
        super().__init__()
        self.opt = opt
        self.grad_fn = ms.value_and_grad(net, None, opt.parameters)

    def construct(self, x, y):
        loss, grads = self.grad_fn(x, y)
        state = all_finite(grads)
        if state:
            self.opt(grads)
        return loss


def edges(dot):
    """``{(src, dst): attribute text}`` of every arrow in a DOT text."""
    out = {}
    for line in dot.splitlines():
        line = line.strip()
        if " -> " in line and line.startswith('"') and not line.startswith('"lane'):
            src, rest = line.split(" -> ", 1)
            dst, attrs = rest.split(" [", 1)
            out[(src.strip('"'), dst.strip('"'))] = attrs
    return out


def view_keys(graph, **options):
    view = viz.GraphPicture(graph, **options).view
    return view, [n.key for n in view.nodes], {c.key: c for c in view.clusters}


# ---- pictures ---------------------------------------------------------------------------------------------
def test_if_and_while_are_frames_around_their_subgraphs():
    g = ms.trace(if_while, ONES)
    view, ks, clusters = view_keys(g)
    assert len(ks) == len(set(ks))
    assert {k: (c.label, c.parent, c.kind) for k, c in clusters.items() if k.endswith("]")} == {
        "%2[If]": ("If %2:  if x.sum() > 0:", None, "control"),
        "%2[then]": ("then", "%2[If]", "branch"), "%2[else]": ("else", "%2[If]", "branch"),
        "%4[While]": ("While %4:  while x.sum() < 100:", None, "control"),
        "%4[cond]": ("cond", "%4[While]", "branch"), "%4[body]": ("body", "%4[While]", "branch")}
    assert view.node("%2[then]%0").title == "Mul" and view.node("%2[then]%0").cluster == "%2[then]"
    assert view.node("%4[body]%0").title == "Add" and view.node("%4[cond]%1").title == "Less"
    dot = viz.to_dot(g)
    assert "compound=true" in dot and 'subgraph "cluster_%2[then]"' in dot and 'subgraph "cluster_%4[body]"' in dot
    e = edges(dot)
    # the condition goes into the If's box; the box picks a frame; x flows into both branches' inputs
    assert ("%1", "%2") in e
    assert 'label="true"' in e[("%2", "%2[then]input:x")] and 'lhead="cluster_%2[then]"' in e[("%2", "%2[then]input:x")]
    assert 'label="false"' in e[("%2", "%2[else]input:x")]
    assert ("input:x", "%2[then]input:x") in e and ("input:x", "%2[else]input:x") in e
    # each branch's result goes to the TupleGetItem outside (the else-branch returns its input unchanged)
    assert ("%2[then]%0", "%3") in e and ("%2[else]input:x", "%3") in e
    # the loop: carried value in, condition decides the body, the body's result carried round and out
    assert ("%3", "%4[cond]input:arg0") in e and ("%3", "%4[body]input:arg0") in e
    assert 'label="true"' in e[("%4[cond]%1", "%4[body]input:arg0")]
    assert 'label="next iteration"' in e[("%4[body]%0", "%4[body]input:arg0")]
    assert ("%4[body]%0", "%5") in e


def test_backward_if_and_while_grad_draw_too():
    g = ms.trace(ms.grad(if_while), ONES)
    view, ks, clusters = view_keys(g)
    assert len(ks) == len(set(ks))
    backward = {k: c.label for k, c in clusters.items() if k.endswith("]") and k not in ("%2[If]", "%2[then]",
                                                                                        "%2[else]", "%4[While]",
                                                                                        "%4[cond]", "%4[body]")}
    assert backward == {"%8[WhileGrad]": "WhileGrad %8:  while x.sum() < 100:", "%8[body backward]": "body backward",
                        "%10[If]": "If %10:  if x.sum() > 0:", "%10[then]": "then", "%10[else]": "else"}
    # autodiff's If over the branches' backward graphs sits in the backward frame, its nodes are backward
    assert clusters["%10[If]"].parent == keys.BACKWARD_FRAME
    assert view.node("%10[then]%0").kind == "backward" and view.node("%10").kind == "backward"
    assert "(pruned)" not in view.node("%10[then]%0").lines[-1]  # its forward node is in the forward branch
    e = {(x.src, x.dst): x for x in view.edges}
    assert ("%1", "%10") in e  # the backward If reads the forward condition
    assert e[("%7", "%8")].label == "list"  # the WhileGrad reads the kept iterations (its body: only the gradient)
    assert e[("%8[body backward]input:arg1", "%8[body backward]input:arg1")].kind == "loop"  # d carried round
    assert ("%8[body backward]input:arg1", "%9") in e


@needs_dot
def test_control_flow_pictures_render(tmp_path):
    for g in (ms.trace(if_while, ONES), ms.trace(ms.grad(if_while), ONES), ms.trace(loop_with_if, ONES)):
        svg = viz.to_svg(g)
        assert 'id="%2[then]%0"' in svg or 'id="%0[body]%0"' in svg
    viz.GraphPicture(ms.trace(if_while, ONES)).save(tmp_path / "if_while.png")
    assert (tmp_path / "if_while.png").read_bytes()[:4] == b"\x89PNG"


def test_nested_control_flow_keys_nest():
    g = ms.trace(loop_with_if, ONES)
    view, ks, clusters = view_keys(g)
    assert len(ks) == len(set(ks))
    inner_if = next(k for k in clusters if k.endswith("[If]"))
    assert inner_if.startswith("%0[body]") and clusters[inner_if].parent == "%0[body]"
    prefix = inner_if[:-len("[If]")]
    assert {clusters[prefix + "[then]"].label, clusters[prefix + "[else]"].label} == {"then", "else"}
    assert view.node(prefix + "[then]%0").title == "Mul" and view.node(prefix + "[else]%0").title == "Add"
    assert keys.split_sub(prefix + "[then]%0") == (prefix + "[then]", "%0")
    assert keys.cell_frame(inner_if) is None and keys.cell_frame(prefix + "[then]") is None


def test_branch_inside_a_cell_keeps_one_set_of_cell_frames():
    net = nn.WithLossCell(Gate(), nn.MSELoss())
    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 2), np.float32))
    view, _, clusters = view_keys(ms.trace(net, x, y), collapse_depth=None)
    assert clusters["%4[If]"].parent == "_backbone"
    assert view.node("%4[then]%0").cluster == "%4[then]"
    # the branch's nodes are in the Cell the If is in: no second "_backbone" frame inside the branch
    assert not [k for k in clusters if k.startswith("%") and not k.endswith("]")]


def test_empty_branch_says_nothing_runs():
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    cell = SkipStep(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    x, y = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
    view, _, clusters = view_keys(ms.trace(cell, x, y))
    if_key = next(k[:-len("[If]")] for k in clusters if k.endswith("[If]"))
    note = view.node(keys.sub_prefix(if_key, "else") + "note")
    assert note.title == "nothing runs" and note.kind == "note"
    then = [n for n in view.nodes if n.cluster and n.cluster.startswith(keys.sub_prefix(if_key, "then"))]
    assert {n.kind for n in then} >= {"optimizer", "parameter"}


def test_host_nodes_have_their_own_style_and_legend_entry():
    g = ms.trace(host_code, ONES)
    view = viz.GraphPicture(g).view
    kinds = {n.title: n.kind for n in view.nodes}
    # print is a graph Print operator in MindSpore (it works under STRICT too), not JIT Fallback
    assert kinds["Print"] == "forward" and kinds["PyExecute"] == "host" and kinds["Mul"] == "forward"
    assert ("host", "host (JIT Fallback)") in LEGEND and STYLES["host"] != STYLES["forward"]
    dot = viz.to_dot(g)
    assert ">host (JIT Fallback)</font>" in dot
    fill = STYLES["host"][1]
    assert all(f'fillcolor="{fill}"' in line for line in dot.splitlines() if "<b>PyExecute</b>" in line)
    assert "phase: forward (host)" in view.node(next(n.key for n in view.nodes if n.title == "PyExecute")).tooltip
    assert "host (JIT Fallback)" not in viz.to_dot(ms.trace(if_while, ONES))  # only when there are host nodes


# ---- stepping ---------------------------------------------------------------------------------------------
def train(net):
    return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))


def plain_step(make, x, y, mode):
    """The weights after one plain call of the training Cell (what stepping must reproduce)."""
    ms.set_context(mode=mode)
    try:
        cell = make()
        cell(x, y)
        return {p.name: p.asnumpy().copy() for p in cell.get_parameters()}
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def control_node(session, op):
    return next(n for n in session.graph.nodes if n.op == op)


@pytest.mark.parametrize("sign, branch", [(1, "then"), (-1, "else")])
def test_step_through_reports_the_branch_that_ran(sign, branch):
    x = Tensor(sign * np.arange(1, 13, dtype=np.float32).reshape(4, 3))
    y = Tensor(np.zeros((4, 2), np.float32))
    s = TrainStepSession(train(Gate()), x, y, mode=ms.GRAPH_MODE)
    node = control_node(s, "If")
    assert s.branch(node) is None
    s.next_stage()  # forward
    assert s.branch(node) == branch and s.iterations(node) is None
    taken, other = node.prim.then_graph, node.prim.else_graph
    if branch == "else":
        taken, other = other, taken
    assert all(s.has_run(n) for n in taken.nodes) and not any(s.has_run(n) for n in other.nodes)
    inner = taken.nodes[0]
    fc = np.full((4, 2), 6.0 * sign) + np.array([[0], [9], [18], [27]]) * sign  # ones weight: row sums
    np.testing.assert_allclose(s.value(inner), fc * 2 if branch == "then" else -fc)
    s.run_to_end()
    now = {p.name: p.asnumpy() for p in s.cell.get_parameters()}
    for name, w in plain_step(lambda: train(Gate()), x, y, ms.GRAPH_MODE).items():
        np.testing.assert_array_equal(now[name], w)
    s.reset()
    assert s.branch(node) is None


def test_step_through_counts_loop_iterations():
    x = Tensor(np.full((1, 3), 0.5, np.float32))  # fc gives [1.5, 1.5]; doubled 5 times: |sum| 3 -> 96
    s = TrainStepSession(train(Doubling()), x, Tensor(np.zeros((1, 2), np.float32)), mode=ms.GRAPH_MODE)
    s.run_to_end()
    loops = {n.op: s.iterations(n) for n in s.control.runs}
    assert loops == {"While": 5, "WhileGrad": 5}
    assert s.control.runs[control_node(s, "While")].summary() == "5 iterations"
    body = control_node(s, "While").prim.body_graph.nodes[0]
    np.testing.assert_allclose(s.value(body), [[48, 48]])  # the last iteration's value: 24 * 2


def test_optimizer_inside_an_if_is_the_optimizer_stage():
    def make():
        ms.set_seed(0)
        net = nn.Dense(3, 2)
        return SkipStep(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))

    r = np.random.RandomState(3)
    x, y = Tensor(r.randn(4, 3).astype(np.float32)), Tensor(r.randn(4, 2).astype(np.float32))
    g = TrainStepSession(make(), x, y, mode=ms.GRAPH_MODE)
    p = TrainStepSession(make(), x, y, mode=ms.PYNATIVE_MODE)
    assert [n.op for n in g.stage_nodes(OPTIMIZER_S)] == ["If"]
    g.run_to_end()
    p.run_to_end()
    assert g.branch(control_node(g, "If")) == "then"
    for name, grad in g.gradients.items():
        np.testing.assert_allclose(grad, p.gradients[name], rtol=1e-6)
    bad = Tensor(np.where(np.arange(12).reshape(4, 3) == 0, np.inf, x.asnumpy()).astype(np.float32))
    s = TrainStepSession(make(), bad, y, mode=ms.GRAPH_MODE)
    before = {k: v.copy() for k, v in s.snapshot.items()}
    with np.errstate(invalid="ignore"):  # inf * 0 in the gradients: the overflow all_finite reports
        s.run_to_end()
    assert s.branch(control_node(s, "If")) == "else"  # overflow: the update is skipped
    for prm in s.params:
        np.testing.assert_array_equal(prm._data, before[id(prm)])


def test_step_through_widget_highlights_the_branch_and_lists_it():
    x = Tensor(-np.ones((4, 3), np.float32))
    st = StepThrough(train(Gate()), x, Tensor(np.zeros((4, 2), np.float32)), mode=ms.GRAPH_MODE)
    assert st.values["control"] == []
    st.next_stage()
    if_key = next(k for k in st.pane.highlighted if k.endswith("[else]"))[:-len("[else]")]
    assert if_key + "[else]%0" in st.pane.highlighted and not [k for k in st.pane.highlighted if "[then]" in k]
    assert st.values["control"][0] == {"key": if_key, "op": "If", "source": st.values["control"][0]["source"],
                                       "branch": "else", "iterations": None, "text": "took else"}
    assert "if y.sum() > 0:" in st.values["control"][0]["source"]
    html = st.static_html()
    assert f'data-mslab-control="{if_key}"' in html and "took else" in html
    st.pane.handle_message({"type": "click", "key": if_key + "[else]%0"})
    assert st.pane.inspector["title"] == "Neg" and st.pane.inspector["value"]["numbers"][0] == 3.0
    st.pane.handle_message({"type": "click", "key": if_key + "[then]%0"})
    assert st.pane.inspector["title"] == "Mul" and "value" not in st.pane.inspector  # the branch that did not run
    st.pane.handle_message({"type": "click", "key": if_key})
    assert ["ran", "took else"] in st.pane.inspector["fields"]
    if viz.have_dot():
        # what static_html shows (the browser marks the live SVG)
        svg = st.pane.drawing.svg(st.pane.highlighted, st.pane.current)
        assert 'class="cluster mslab-highlight" data-mslab-cluster="' + if_key + '[else]"' in svg


def test_pynative_session_of_a_branching_network_matches_graph():
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    y = Tensor(np.zeros((4, 2), np.float32))
    s = TrainStepSession(train(Gate()), x, y, mode=ms.PYNATIVE_MODE)
    assert [st.name for st in s.stages][:2] == ["forward", "sens"]  # the tape's condition ops are forward too
    s.run_to_end()
    now = {p.name: p.asnumpy() for p in s.cell.get_parameters()}
    for name, w in plain_step(lambda: train(Gate()), x, y, ms.GRAPH_MODE).items():
        np.testing.assert_allclose(now[name], w, rtol=1e-6)


def test_cell_calls_inside_a_branch_open_and_fold():
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    # Adam updates each weight op by op (Momentum and SGD use one node per weight): a box of several ops
    cell = SkipStep(nn.WithLossCell(net, nn.MSELoss()), nn.Adam(net.trainable_params(), 0.1))
    view = GraphView(ms.trace(cell, Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))),
                     collapse_depth="leaves")
    box = next(n.key for n in view.drawing.view.nodes if n.collapsed and n.key.endswith("box:opt/update:bias"))
    prefix = keys.split_sub(box)[0]
    assert prefix.endswith("[then]") and keys.cell_frame(box) == prefix + "opt/update:bias"
    view.handle_message({"type": "expand", "key": box})  # a click on the box inside the then-branch
    assert view.inspector["title"] == "update bias" and view.inspector["collapsible"]
    assert box not in [n.key for n in view.drawing.view.nodes]
    view.handle_message({"type": "collapse", "key": prefix + "opt/update:bias"})  # a click on its frame
    assert view.selected == box and box in [n.key for n in view.drawing.view.nodes]


def test_graph_view_run_shows_values_inside_the_branch_that_ran():
    view = GraphView(ms.trace(if_while, ONES)).run(ONES)
    view.select("%2[then]%0")
    assert view.inspector["title"] == "Mul" and view.inspector["value"]["numbers"] == [2.0, 2.0, 2.0]
    assert ["ran", "took then"] in view.select("%2").inspector["fields"]
    assert ["ran", "4 iterations"] in view.select("%4").inspector["fields"]  # sum 6 -> 36 -> 66 -> 96 -> 126
    view.select("%2[else]input:x")
    assert view.inspector["title"] == "x" and "value" not in view.inspector  # the else-branch never ran
