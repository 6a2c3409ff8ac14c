"""Batch normalisation layers, as ``mindspore.nn``: BatchNorm1d, BatchNorm2d, BatchNorm3d (and InstanceNorm2d,
which MindSpore 2.10 cannot run on CPU).

In training (``net.set_train()``) each channel is normalised with the batch's mean and (biased)
variance, and the moving statistics are updated in place:

    moving = momentum * moving + (1 - momentum) * batch_statistic

by one ``BatchNorm`` primitive (``mslab.ops.batch_norm_ops``; a side effect kept in GRAPH mode too), as
MindSpore runs one BatchNorm kernel. As in MindSpore, the moving variance takes
the *unbiased* batch variance (times N / (N - 1), N values per channel), and the parameters are created
moving statistics first: ``moving_mean, moving_variance, gamma, beta`` (named ``mean`` and ``variance``
until a parent Cell names them by attribute path). In eval the moving statistics are used.
Then ``y = gamma * (x - mean) / sqrt(var + eps) + beta``.
"""
from mslab.core import comm
from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, initializer
from mslab.nn.cell import Cell
from mslab.ops import functional as F
from mslab.ops.array_ops import Shape
from mslab.ops.batch_norm_ops import BatchNorm
from mslab.ops.shape_ops import Reshape

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "InstanceNorm2d"]


class _BatchNorm(Cell):
    _ranks = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCHW",
                 dtype=None):
        super().__init__()
        name = type(self).__name__
        if isinstance(num_features, bool) or not isinstance(num_features, int):  # MindSpore 2.10's messages
            raise TypeError(f"For '{name}', the type of 'num_features' should be 'int', but got type "
                            f"'{type(num_features).__name__}'.")
        if num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be at least 1, but got {num_features}.")
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"For '{name}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{name}', the 'use_batch_statistics' must be a boolean value or None, but got "
                             f"{use_batch_statistics}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', mslab supports data_format='NCHW' only, got {data_format!r}")
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.use_batch_statistics = use_batch_statistics
        kw = {} if dtype is None else {"dtype": dtype}
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, **kw), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, **kw), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, **kw), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, **kw), name="beta", requires_grad=affine)
        self._train_norm = BatchNorm(epsilon=eps, momentum=momentum)

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) not in self._ranks or shape[1] != self.num_features:
            raise ValueError(f"{type(self).__name__}: input must have rank {' or '.join(map(str, self._ranks))} "
                             f"with {self.num_features} channels in axis 1, got shape {shape}")
        stat_shape = (1, self.num_features) + (1,) * (len(shape) - 2)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if use_batch:  # one fused kernel, as MindSpore's BatchNorm: statistics, output and the moving update
            return self._train_norm(x, self.gamma, self.beta, self.moving_mean, self.moving_variance)
        mean = F.reshape(self.moving_mean, stat_shape)
        var = F.reshape(self.moving_variance, stat_shape)
        y = F.div(F.sub(x, mean), F.sqrt(F.add(var, self.eps)))
        return F.add(F.mul(y, F.reshape(self.gamma, stat_shape)), F.reshape(self.beta, stat_shape))

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma!r}, "
                f"beta={self.beta!r}, moving_mean={self.moving_mean!r}, moving_variance={self.moving_variance!r}")


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs over every axis but the channel axis 1."""

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) inputs over N, H and W for each channel."""

    _ranks = (4,)


class BatchNorm3d(Cell):
    """Batch normalisation of (N, C, D, H, W) inputs over N, D, H and W for each channel.

    As MindSpore 2.10 builds it: a BatchNorm2d named ``bn2d`` (so the parameters are ``bn2d.moving_mean``,
    ``bn2d.moving_variance``, ``bn2d.gamma``, ``bn2d.beta``) applied to x reshaped to (N, C, D * H, W), which
    pools the same values per channel; the result is reshaped back.
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, dtype=mstype.float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics, "NCHW", dtype)
        self.shape = Shape()
        self.reshape = Reshape()

    def construct(self, x):
        shape = self.shape(x)
        if len(shape) != 5:  # MindSpore 2.10's message (observed)
            raise ValueError(f"For 'BatchNorm3d', the in_shape must have 5 dims, but got {len(shape)}.")
        y = self.bn2d(self.reshape(x, (shape[0], shape[1], shape[2] * shape[3], shape[4])))
        return self.reshape(y, shape)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, H, W) inputs whose batch statistics would be gathered
    from every device (``mindspore.nn.SyncBatchNorm``).

    In one process, as on a CPU, it is BatchNorm over the local batch (what MindSpore 2.10 computes
    there). mslab does not gather the statistics across MPI processes: built under ``mpiexec`` with
    more than one process it raises NotImplementedError rather than normalise each device alone.
    """

    _ranks = (2, 4)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, process_groups=None,
                 dtype=mstype.float32):
        if comm.size() > 1:
            raise NotImplementedError(f"SyncBatchNorm: mslab does not synchronise batch statistics across its "
                                      f"{comm.size()} processes; use BatchNorm2d (per-process statistics)")
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)
        self.process_groups = process_groups


class InstanceNorm2d(Cell):
    """``InstanceNorm2d(num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init='ones', beta_init='zeros')``.

    Would normalise each sample's channel over its H x W positions. MindSpore 2.10 runs it with an
    InstanceNorm kernel that exists for Ascend and GPU only: on CPU the layer builds (parameters
    ``mean``, ``variance``, ``gamma``, ``beta``) and a call raises RuntimeError "Unsupported op
    [InstanceNorm] on CPU"; mslab does the same. ``nn.GroupNorm(C, C)`` computes instance normalisation.
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        for arg, value, kind in (("num_features", num_features, int), ("eps", eps, float),
                                 ("momentum", momentum, float), ("affine", affine, bool)):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"For 'InstanceNorm2d', the type of '{arg}' should be '{kind.__name__}', but got "
                                f"type '{type(value).__name__}'.")
        if num_features < 1:
            raise ValueError(f"For 'InstanceNorm2d', the 'num_features' must be at least 1, but got {num_features}.")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For 'InstanceNorm2d', the 'momentum' must be a number in range [0, 1], but got "
                             f"{momentum}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.moving_mean = Parameter(initializer("zeros", (num_features,), dtype), name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", (num_features,), dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, (num_features,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_features,), dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        raise RuntimeError("Unsupported op [InstanceNorm] on CPU: MindSpore 2.10 has an InstanceNorm kernel for "
                           "Ascend and GPU only, so nn.InstanceNorm2d cannot run on CPU (mslab mirrors MindSpore on "
                           "CPU). nn.GroupNorm(num_groups=C, num_channels=C) normalises each channel the same way.")
