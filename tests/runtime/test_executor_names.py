"""The executor's generated code names its variables after IR values and its kernels after nodes."""
import re

import numpy as np

import mslab as ms
from mslab import nn
from mslab.runtime.executor import Executor, kernel_name


class TwoDense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3)
        self.fc2 = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc2(ms.ops.relu(self.fc1(x)))


def _executor():
    ms.set_seed(0)
    return Executor(ms.trace(TwoDense(), ms.Tensor(np.ones((5, 4), np.float32))))


def test_generated_code_names_buffers_after_ir_values():
    ex = _executor()
    text = ex.graph.text()
    assert "%fc1.weight" in text and "%x" in text and "%0 = MatMul" in text
    code = ex.code
    assert code.startswith("def run(x, fc1_weight, fc1_bias, fc2_weight, fc2_bias):")
    assert "    _0 = k_0_fc1_MatMul(x, fc1_weight)  # %0 = MatMul\n" in code
    # every node result is a variable named after its IR value: %i -> _i
    for n in ex.graph.nodes:
        assert re.search(rf"\b_{n.index} = k_{n.index}_\w*{n.op}\(", code), n


def test_generated_code_still_runs_and_names_every_kernel_once():
    ex = _executor()
    out = ex.run([np.ones((5, 4), np.float32)])[0]
    assert out.shape == (5, 2)
    kernels = re.findall(r"= (k_\w+)\(", ex.code)
    assert len(kernels) == len(set(kernels)) == len(ex.schedule)


def test_kernel_names_keep_short_cell_paths_only():
    ex = _executor()
    first = ex.graph.nodes[0]
    assert kernel_name([first]) == "k_0_fc1_MatMul"
    first.scope = "network/_backbone/a_rather_long_cell_name/fc1"
    assert kernel_name([first]) == "k_0_fc1_MatMul"  # too long: only its last Cell
    first.scope = ""
    assert kernel_name([first]) == "k_0_MatMul"
