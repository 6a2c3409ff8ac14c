"""``mindspore.run_check()``: check the installation by multiplying two small tensors.

MindSpore 2.10 prints (observed on CPU)::

    MindSpore version:  2.10.0
    The result of multiplication calculation is correct, MindSpore has been installed on platform [CPU] successfully!

mslab prints the same two lines about itself, after checking the product as well (MindSpore only
checks that the multiplication runs). On failure both print "... running check failed." and the error.
"""
import sys

import numpy as np

from mslab.core.context import get_context
from mslab.core.tensor import Tensor
from mslab.ops.math_ops import Mul

__all__ = ["run_check"]


def _check_mul():
    print("mslab version: ", sys.modules["mslab"].__version__)
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    y = Tensor(np.array([4.0, 5.0, 6.0], np.float32))
    product = Mul()(x, y).asnumpy()
    if not np.array_equal(product, [4.0, 10.0, 18.0]):
        raise RuntimeError(f"[1, 2, 3] * [4, 5, 6] gave {product.tolist()}, not [4.0, 10.0, 18.0]")
    print("The result of multiplication calculation is correct, mslab has been installed on platform "
          f"[{get_context('device_target')}] successfully!")


def run_check():
    """Print mslab's version and whether a multiplication runs and is right (MindSpore's two lines)."""
    try:
        _check_mul()
    except Exception as e:  # noqa: BLE001 -- as MindSpore: report any failure instead of raising
        print("mslab running check failed.")
        print(str(e))
