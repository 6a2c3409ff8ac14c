"""``mindspore.ops.function``: the package MindSpore's functional forms are defined in (``ops.function.broadcast_to``).

Code written against MindSpore 2.x sometimes imports from here (``from mindspore.ops.function import
broadcast_to``); it offers the same functions as ``mindspore.ops`` (``ops.broadcast_to``), without the
primitive classes.
"""
from mslab.core import missing_names as _missing_names
from mslab.ops import functional as _functional

globals().update({name: value for name, value in vars(_functional).items()
                  if not name.startswith("_") and callable(value) and not isinstance(value, type)})

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
