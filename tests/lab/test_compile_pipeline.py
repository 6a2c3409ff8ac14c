"""CompilePipeline: the stages are what GRAPH mode really does to LeNet's training step (trace, autodiff,
CSE, DCE, folding, schedule), with the nodes each pass removes outlined; GraphView accepts every menu depth."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.ir import passes
from mslab.lab.widgets import CompilePipeline, GraphView
from mslab.runtime.compiled import trace
from mslab.runtime.executor import Executor
from mslab.viz import have_dot

pytestmark = pytest.mark.skipif(not have_dot(), reason="Graphviz dot is needed to draw the graphs")

_NETS = Path(__file__).resolve().parents[2] / "benchmarks" / "nets.py"
_spec = importlib.util.spec_from_file_location("nets", _NETS)
nets = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nets)


@pytest.fixture(scope="module")
def lenet():
    train, inputs = nets.ms_lenet_train_cell("mslab")
    return train, inputs, CompilePipeline(train, *inputs)


def test_stages_on_lenet_training_step(lenet):
    train, (x, y), cp = lenet
    assert [s["key"] for s in cp.stages] == ["recorded", "autodiff", "cse", "dce", "schedule"]
    raw = trace(train, x, y, optimize_graph=False)
    final = trace(train, x, y)
    ex = Executor(final)
    counts = cp.counts
    # nn.TrainOneStepCell records its forward once: CSE has nothing to merge (a MindSpore-style cell
    # that calls the network twice is checked below)
    assert counts["recorded"] == sum(n.phase == "forward" for n in raw.nodes) == 19
    assert counts["autodiff"] == len(raw.nodes) == 51  # the optimizer: global_step's AssignAdd, 8 ApplyMomentum
    assert counts["cse"] == 51 and counts["dce"] == 51 == len(final.nodes)
    assert counts["schedule"] == len(ex.schedule) == len(final.nodes) - len(ex.folded) == 47
    assert len(cp.stages[1]["highlighted"]) == 0
    assert len(cp.stages[3]["highlighted"]) == len(ex.folded) == 4
    assert cp.stages[-1]["code"] == ex.code and cp.stages[-1]["code"].startswith("def run(")
    # fused lines (the speed layer, mslab.fast): LeNet's two MaxPoolGrad + ReluGrad pairs, the second convolution's
    # two backward nodes; the plain executor writes one line per node
    assert cp.stages[-1]["note"].endswith("in 44 lines of the generated function below (fused pairs share one)"
                                          if ms.fast.enabled() else "each one line of the generated function below")
    assert len({pane.svg for pane in cp.panes}) == 5  # each stage its own picture, a GraphView child widget
    assert [pane.highlighted for pane in cp.panes][3] and cp.get_state()["panes"][0].endswith(cp.panes[0].model_id)
    assert repr(cp) == "CompilePipeline(TrainOneStepCell: recorded=19, autodiff=51, cse=51, dce=51, schedule=47)"


def test_stage_selector_and_static(lenet):
    cp = lenet[2]
    assert cp.index == 1
    assert cp.show("cse").index == 2 and cp.show(0).index == 0
    with pytest.raises(ValueError, match="no stage 'fold'"):
        cp.show("fold")
    with pytest.raises(ValueError, match="out of range"):
        cp.show(9)
    html = cp._repr_mimebundle_()[0]["text/html"]
    assert "<table>" in html and "<td>51</td>" in html and "<svg" in html


def test_dce_removes_unused_node():
    """A node nobody uses is removed by DCE and outlined in the CSE-stage picture."""
    def f(x):
        unused = ms.ops.exp(x)  # noqa: F841
        return x * 2

    cp = CompilePipeline(f, ms.Tensor(np.ones((2, 2), np.float32)))
    assert cp.counts["cse"] == 2 and cp.counts["dce"] == 1
    assert cp.stages[2]["highlighted"] == ["%0"]
    assert "DCE removes next" in cp.stages[2]["note"]


def test_pipeline_is_what_optimize_runs():
    assert [name for name, _ in passes.PIPELINE] == ["cse", "dce"]
    with pytest.raises(TypeError, match="CompilePipeline: inputs must be mslab Tensors"):
        CompilePipeline(lambda x: x, np.ones(2))


def test_graph_view_every_depth_option():
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    g = trace(net, ms.Tensor(np.ones((1, 3), np.float32)))
    for depth in ["none", None, "leaves", "auto", "1", 1]:
        v = GraphView(g, collapse_depth=depth)
        assert v.collapse_depth == ("none" if depth is None else str(depth))
    with pytest.raises(ValueError, match="collapse depth must be"):
        GraphView(g, collapse_depth="deep")


def test_cse_merges_the_second_forward_of_a_mindspore_style_step():
    class SeedStep(nn.Cell):
        """Seed 004's TrainOneStepCell construct: the network is called twice."""

        def __init__(self, network, optimizer):
            super().__init__(auto_prefix=False)
            self.network, self.optimizer = network, optimizer
            self.weights = optimizer.parameters
            self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

        def construct(self, data, label):
            loss = self.network(data, label)
            sens = ops.fill(loss.dtype, loss.shape, 1.0)
            grads = self.grad(self.network, self.weights)(data, label, sens)
            return ops.depend(loss, self.optimizer(grads))

    net = nn.Dense(3, 2)
    step = SeedStep(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    x, y = ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 2), np.float32))
    cp = CompilePipeline(step, x, y)
    assert cp.counts["cse"] < cp.counts["autodiff"]  # the recorded second forward is merged away
    assert len(cp.stages[1]["highlighted"]) == cp.counts["autodiff"] - cp.counts["cse"]
