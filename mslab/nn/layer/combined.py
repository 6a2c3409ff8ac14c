"""Combined layers, as ``mindspore.nn.Conv2dBnAct``: a convolution, optional batch norm and activation."""
from mslab.nn.cell import Cell
from mslab.nn.layer.activation import LeakyReLU
from mslab.nn.layer.basic import _make_activation
from mslab.nn.layer.conv import Conv2d
from mslab.nn.layer.normalization import BatchNorm2d

__all__ = ["Conv2dBnAct"]


class Conv2dBnAct(Cell):
    """``conv -> batchnorm (if has_bn) -> activation (if given)`` as one Cell (``mindspore.nn.Conv2dBnAct``).

    The children are named ``conv``, ``batchnorm`` (BatchNorm2d(out_channels, eps, momentum), momentum
    0.997 by default) and ``activation`` (a name for get_activation, "leakyrelu" taking ``alpha``, a
    Cell or a primitive). ``weight_init`` defaults to "normal", as in MindSpore; ``after_fake`` is
    kept for quantisation-aware training and has no effect here.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros", has_bn=False, momentum=0.997,
                 eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        for name, value in (("has_bn", has_bn), ("after_fake", after_fake)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'Conv2dBnAct', the '{name}' must be bool, but got {type(value).__name__}")
        self.has_bn, self.has_act, self.after_fake = has_bn, activation is not None, after_fake
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = LeakyReLU(alpha) if activation == "leakyrelu" else _make_activation(activation,
                                                                                              "Conv2dBnAct")

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
