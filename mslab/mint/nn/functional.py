"""``mindspore.mint.nn.functional``: activations under PyTorch's names and arguments."""
from mslab.core import missing_names as _missing_names
from mslab.ops import functional as F

__all__ = ["relu"]


def relu(input, inplace=False):  # noqa: A002 - MindSpore's argument name
    """max(input, 0) elementwise. ``inplace=True`` (overwrite input) is refused: mslab's tensors are values."""
    if inplace:
        raise NotImplementedError("mint.nn.functional.relu(inplace=True): mslab does not write into a Tensor in "
                                  "place; use inplace=False (the default) and keep the result")
    return F.relu(input)


__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
