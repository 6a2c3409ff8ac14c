"""``mindspore.nn.utils``: ``no_init_parameters``.

MindSpore 2.10 can build a network without filling its Parameters (``with no_init_parameters():
net = Net()``): each Parameter keeps its initializer (``has_init`` is True) and draws its numbers when
first used or by ``net.init_parameters_data()``, so a large model loaded from a checkpoint never
spends time and memory on random weights. mslab's Parameters hold their numbers from the start, so
here the block changes nothing: the values are those the same code gives without it. They are also
MindSpore's values unless other random numbers are drawn between building the network and first
using it: MindSpore draws the deferred values then, later in the random stream (observed on CPU).
"""
import contextlib

from mslab.core import missing_names as _missing_names

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters():
    """Build Parameters without initialising them (MindSpore); mslab initialises them anyway (see above)."""
    yield


__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
