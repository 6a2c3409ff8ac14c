"""MindSpore's normalisation primitives with their tuple outputs: ``P.LayerNorm`` and ``P.BatchNorm`` /
``ops.BatchNorm``, built on mslab's ops (so their gradients and GRAPH mode are those ops').

    P.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta) -> (y, mean, variance)
        mean, variance (biased) over the axes from begin_norm_axis on, kept as size-1 axes;
        y = (x - mean) / sqrt(variance + epsilon) * gamma + beta      (gamma, beta: x.shape[begin_params_axis:])

    P.BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1)(x, scale, bias, mean, variance)
        -> (y, batch_mean, batch_variance, reserve_space_1, reserve_space_2)       x: (N, C, ...), the rest (C,)
        inference: y = (x - mean) / sqrt(variance + epsilon) * scale + bias, and four zero (C,) tensors
        training:  y normalised with the batch's statistics (one fused kernel, ``batch_norm_ops.BatchNorm``);
                   mean <- (1 - momentum) * mean + momentum * batch mean, variance likewise with the unbiased
                   batch variance (``momentum`` is the weight of the NEW statistic, unlike nn.BatchNorm2d's);
                   outputs 1 and 2 are zeros, 3 and 4 the batch mean and biased variance.

All as observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsthree.md), zeros included.
"""
from mslab.core.op_registry import op_table
from mslab.ops import batch_norm_ops

__all__ = ["LayerNorm", "BatchNorm"]


class LayerNorm:
    """``P.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta) -> (y, mean, variance)``."""

    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        for what, v in (("begin_norm_axis", begin_norm_axis), ("begin_params_axis", begin_params_axis)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For 'LayerNorm', the '{what}' must be an int, but got {type(v).__name__}.")
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, float(epsilon)

    def __call__(self, x, gamma, beta):
        rank = len(x.shape)
        norm_axis, params_axis = self.begin_norm_axis % rank, self.begin_params_axis % rank
        want = tuple(x.shape[params_axis:])
        if tuple(gamma.shape) != want or tuple(beta.shape) != want:  # MindSpore 2.10's message (observed)
            raise ValueError(f"For 'LayerNorm', gamma or beta shape must match input shape, but got input shape: "
                             f"{tuple(x.shape)}, gamma shape: {tuple(gamma.shape)}, beta shape: {tuple(beta.shape)} "
                             f"(both must be x.shape[begin_params_axis:] = {want}).")
        axes = tuple(range(norm_axis, rank))
        mean = op_table.reduce_mean(x, axes, True)
        centered = op_table.sub(x, mean)
        variance = op_table.reduce_mean(op_table.square(centered), axes, True)
        y = op_table.div(centered, op_table.sqrt(op_table.add(variance, self.epsilon)))
        return op_table.add(op_table.mul(y, gamma), beta), mean, variance

    def __repr__(self):
        return (f"LayerNorm(begin_norm_axis={self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, "
                f"epsilon={self.epsilon})")


class BatchNorm:
    """``P.BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1, data_format='NCHW')(x, scale, bias, mean,
    variance)`` -> 5 tensors (see the module docstring)."""

    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        if data_format != "NCHW":
            raise ValueError(f"For 'BatchNorm', mslab supports data_format='NCHW' only, but got {data_format!r}.")
        self.is_training, self.epsilon, self.momentum = bool(is_training), float(epsilon), float(momentum)
        # the fused training kernel weighs the OLD statistic by its momentum
        self._train = batch_norm_ops.BatchNorm(epsilon=self.epsilon, momentum=1.0 - self.momentum)

    def __call__(self, x, scale, bias, mean, variance):
        if len(x.shape) < 2:
            raise ValueError(f"For 'BatchNorm', the input must be (N, C, ...), but got shape {tuple(x.shape)}.")
        zeros = op_table.zeros_like(op_table.stop_gradient(scale))
        if self.is_training:
            y = self._train(x, scale, bias, mean, variance)
            axes = (0,) + tuple(range(2, len(x.shape)))
            data = op_table.stop_gradient(x)
            batch_mean = op_table.reduce_mean(data, axes)
            stat = (1, x.shape[1]) + (1,) * (len(x.shape) - 2)
            batch_var = op_table.reduce_mean(op_table.square(op_table.sub(data, op_table.reshape(batch_mean, stat))),
                                             axes)
            return y, zeros, zeros, batch_mean, batch_var
        stat = (1, x.shape[1]) + (1,) * (len(x.shape) - 2)
        y = op_table.div(op_table.sub(x, op_table.reshape(mean, stat)),
                         op_table.sqrt(op_table.add(op_table.reshape(variance, stat), self.epsilon)))
        y = op_table.add(op_table.mul(y, op_table.reshape(scale, stat)), op_table.reshape(bias, stat))
        return y, zeros, zeros, zeros, zeros

    def __repr__(self):
        return f"BatchNorm(is_training={self.is_training}, epsilon={self.epsilon}, momentum={self.momentum})"


op_table.register(globals(), [])
