"""``mindspore.common.api``: jit and ``_cell_graph_executor``, as MindSpore's own tests use them."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.common.api import _cell_graph_executor, _pynative_executor, jit
from mslab.core.missing_names import NotInMslabYet
from mslab.runtime import cell_call


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        return self.dense(x) * 2


def test_jit_is_mslabs():
    assert jit is ms.jit


def test_compile_compiles_the_cells_graph_as_graph_mode_does():
    net, x = Scaled(), Tensor(np.ones((4, 3), np.float32))
    assert ms.get_context("mode") == ms.PYNATIVE_MODE  # compile works in any mode, as in MindSpore
    phase, new = _cell_graph_executor.compile(net, x)
    # MindSpore 2.10: ('predict.<key>.<id>.0', True), then the same phase and False
    assert phase.startswith("predict.") and new is True
    assert _cell_graph_executor.compile(net, x) == (phase, False)
    assert _cell_graph_executor.has_compiled(phase)
    assert len(cell_call.compiled_graphs(net)) == 1
    ms.set_context(mode=ms.GRAPH_MODE)
    out = net(x)  # the GRAPH-mode call runs the graph compile made
    assert len(cell_call.compiled_graphs(net)) == 1
    np.testing.assert_array_equal(_cell_graph_executor(net, x, phase="predict").asnumpy(), out.asnumpy())


def test_a_new_input_shape_compiles_another_graph():
    net = Scaled()
    first, _ = _cell_graph_executor.compile(net, Tensor(np.ones((4, 3), np.float32)), phase="train")
    second, new = _cell_graph_executor.compile(net, Tensor(np.ones((5, 3), np.float32)), phase="train")
    assert new and first != second and second.startswith("train.")


def test_running_a_phase_never_compiled_is_a_key_error_as_in_mindspore():
    with pytest.raises(KeyError, match="graph is not exist"):
        _cell_graph_executor(Scaled(), Tensor(np.ones((4, 3), np.float32)), phase="predict")


def test_pynative_sync_has_nothing_to_wait_for_and_other_internals_say_so():
    assert _pynative_executor.sync() is None
    with pytest.raises(NotInMslabYet, match="does not offer `set_grad_flag`"):
        _pynative_executor.set_grad_flag(True)
    with pytest.raises(NotInMslabYet, match="does not offer `get_func_graph_proto`"):
        _cell_graph_executor.get_func_graph_proto("predict")
