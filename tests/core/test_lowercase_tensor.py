"""``ms.tensor`` (lowercase) and ops.matmul with a 1-D operand.

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np

import mslab as ms
from mslab import Tensor, ops


def test_matmul_with_a_1d_operand_and_lowercase_tensor():
    a = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    assert ops.matmul(Tensor(np.ones(3, np.float32)), a).asnumpy().tolist() == [6.0, 9.0]  # MindSpore 2.10
    assert ops.matmul(a.T, Tensor(np.ones(3, np.float32))).asnumpy().tolist() == [6.0, 9.0]
    assert float(ops.matmul(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))) == 3.0
    t = ms.tensor([1, 2])
    assert type(t) is Tensor and str(t.dtype) == "Int64" and str(ms.tensor(1.5).dtype) == "Float32"
    assert ms.common.tensor.tensor is ms.tensor
