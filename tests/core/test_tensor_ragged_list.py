"""A ragged nested list is refused with MindSpore's TypeError, not numpy's "inhomogeneous shape" ValueError."""
import re

import numpy as np
import pytest

from mslab import Tensor


@pytest.mark.parametrize("data", [[[1, 2], [3]], [[1.0, 2.0], [3.0]], [1, [2, 3]], [[[1, 2], [3, 4]], [[5, 6]]]])
def test_a_ragged_list_is_mindspores_type_error(data):
    # MindSpore 2.10 (CPU), for each of these lists: TypeError "For Tensor, the input_data is [[1, 2], [3]] that
    # contain unsupported element."
    with pytest.raises(TypeError, match=rf"^For Tensor, the input_data is {re.escape(str(data))} that "
                                        r"contain unsupported element\."):
        Tensor(data)


def test_rectangular_lists_still_make_tensors():
    assert Tensor([[1, 2], [3, 4]]).shape == (2, 2)
    assert Tensor([Tensor(np.ones(2, np.float32)), Tensor(np.zeros(2, np.float32))]).shape == (2, 2)
