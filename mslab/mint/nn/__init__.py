"""``mindspore.mint.nn``: layers under PyTorch's names (``mint.nn.ReLU`` is ``nn.ReLU``, as in MindSpore) and
``mint.nn.functional``."""
from mslab.core import missing_names as _missing_names
from mslab.mint.nn import functional
from mslab.nn import ReLU

__all__ = ["functional", "ReLU"]

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
