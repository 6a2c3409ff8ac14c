"""``Optimizer.target`` as in MindSpore 2.10: the device the update would run on; the base class refuses to set it,
subclasses that allow it check the value with ``_set_base_target`` (messages observed on MindSpore 2.10 CPU)."""
import pytest

from mslab import nn


class HostOptimizer(nn.Momentum):
    """Like mindcv's Adan: a subclass whose setter accepts a target."""

    @nn.Optimizer.target.setter
    def target(self, value):
        self._set_base_target(value)


def test_target_is_the_context_device():
    opt = nn.Momentum(nn.Dense(2, 1).trainable_params(), 0.1, 0.9)
    assert opt.target == "CPU"
    with pytest.raises(NotImplementedError, match="'Momentum', the property 'target' cannot be set"):
        opt.target = "CPU"


def test_a_subclass_setter_checks_the_value_as_mindspore():
    opt = HostOptimizer(nn.Dense(2, 1).trainable_params(), 0.1, 0.9)
    opt.target = "CPU"
    assert opt.target == "CPU"
    with pytest.raises(ValueError, match=r"^For 'Optimizer', the property 'target' cannot be set to 'GPU' or "
                                         r"'Ascend' in the 'CPU' environment\.$"):
        opt.target = "GPU"
    with pytest.raises(TypeError, match=r"^For 'Optimizer', the property 'target' must be string, but got "
                                        r"<class 'int'>$"):
        opt.target = 3
    with pytest.raises(ValueError, match=r"must be one of \['CPU', 'Ascend' ,'GPU'\], but got TPU$"):
        opt.target = "TPU"
