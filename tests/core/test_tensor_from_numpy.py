"""Tensor.from_numpy shares memory with the numpy array.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""

import numpy as np
import pytest

import mslab as ms

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_tensor_from_numpy_shares_memory():
    a = np.array([1.0, 2.0], np.float32)
    t = ms.Tensor.from_numpy(a)
    a[0] = 9
    # observed on MindSpore 2.10 CPU: [9. 2.]; an int64 array stays Int64
    np.testing.assert_array_equal(t.asnumpy(), [9.0, 2.0])
    assert ms.Tensor.from_numpy(np.array([[1, 2], [3, 4]], np.int64)).dtype == ms.int64
    with pytest.raises(TypeError, match="Expected a NumPy array."):
        ms.Tensor.from_numpy([1, 2])
