"""``mindspore.nn.utils``: ``no_init_parameters``, building a network without drawing its weights yet."""
from contextlib import contextmanager

from mslab.core import missing_names as _missing_names
from mslab.core.tensor import Parameter

__all__ = ["no_init_parameters"]


@contextmanager
def no_init_parameters():
    """Inside ``with no_init_parameters():``, parameters made from initializers are not drawn yet.

    As MindSpore 2.10 (which sets ``Parameter.init_param = False`` for the block): such a parameter
    has its shape and dtype, ``has_init`` is True, and its numbers are drawn on first use: when a Cell
    holding it is called (all of that Cell's parameters, in order), on ``asnumpy()``, or by
    ``net.init_parameters_data()``. Loading numbers into it (``set_data``, ``load_param_into_net``)
    draws nothing. So random initializers draw from the generator at that later moment, as in
    MindSpore. A parameter made from a Tensor of numbers is concrete at once.

    One difference: MindSpore's optimizer built *after* the block on such parameters fails at its first
    step (TypeError "init_data must be set Tensor.init, init can't be None"); mslab's works.
    """
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = True


__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
