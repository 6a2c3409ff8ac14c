"""Wrappers that turn a network into a training or evaluation step (``mindspore.nn.wrap.cell_wrapper``).

``WithLossCell(net, loss_fn)`` computes the loss; ``TrainOneStepCell(loss_net, optimizer)`` adds the
backward pass and the update. In GRAPH mode one call of TrainOneStepCell compiles to one graph holding
the forward nodes, the backward nodes autodiff derived from them, and the optimizer's nodes::

    print(mslab.trace(train_net, x, y))      # phases: forward, backward, optimizer
"""
from mslab.autodiff.grad_operation import GradOperation, LossAndGrads
from mslab.core import comm
from mslab.core import dtype as mstype
from mslab.core.context import ParallelMode, get_auto_parallel_context
from mslab.core.tensor import ParameterTuple, Tensor
from mslab.nn.cell import Cell
from mslab.nn.optim.optimizer import Optimizer, all_or_nothing
from mslab.nn.wrap.grad_reducer import DistributedGradReducer, broadcast_parameters
from mslab.ops import functional as F


def _identity(grads):
    return grads


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``: a network joined to its loss (``nn.WithLossCell``)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        """The network without the loss."""
        return self._backbone


class WithEvalCell(Cell):
    """Returns ``(loss, outputs, label)`` for metrics (``nn.WithEvalCell``)."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = F.cast(label, mstype.float32)
            outputs = F.cast(outputs, mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """The gradients of ``loss_fn(network(data), label)`` w.r.t. the trainable weights (``nn.WithGradCell``)."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.sens = sens
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.network_with_loss = WithLossCell(network, loss_fn) if loss_fn is not None else network

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        loss = self.network_with_loss(*inputs)
        sens = F.fill(loss.dtype, loss.shape, self.sens)
        return self.grad(self.network_with_loss, self.weights)(*inputs, sens)


def _check_sens(sens):
    if sens is None or isinstance(sens, Tensor):
        return sens
    if isinstance(sens, bool) or not isinstance(sens, (int, float)):
        raise TypeError(f"TrainOneStepCell: sens must be a number, got {type(sens).__name__}")
    return float(sens)


class TrainOneStepCell(Cell):
    """One training step: forward, backward (sens-weighted), gradient reduction, optimizer update.

    ``TrainOneStepCell(network, optimizer, sens=None)`` where ``network`` returns the loss; no ``sens`` means
    1.0 (MindSpore 2.10 then takes ``_no_sens_impl``, a GradOperation without sens: the same gradients). Calling it
    returns the loss computed BEFORE the update (``ops.depend`` orders the update after it). MindSpore
    writes the step in four lines::

        loss = self.network(*inputs)                                   # 1. forward
        sens = ops.fill(loss.dtype, loss.shape, self.sens)             # 2. the backward's seed
        grads = self.grad(self.network, self.weights)(*inputs, sens)   # 3. backward
        grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))                 # 4. update, then return the loss

    and runs the two calls of the network as ONE forward pass. mslab says so directly: steps 1-3 are
    one ``self.grad_with_loss`` call that records the forward once, fills sens from its loss
    (``fill_sens``), and runs the backward over that recording. BatchNorm's moving statistics thus
    advance once per step and Dropout draws one mask, as in MindSpore.
    """

    def __init__(self, network, optimizer, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.grad_with_loss = LossAndGrads(self.fill_sens)
        self.sens = 1.0 if sens is None else _check_sens(sens)
        self.reducer_flag = False
        self.grad_reducer = _identity
        self.parallel_mode = get_auto_parallel_context("parallel_mode")
        self.reducer_flag = self.parallel_mode in (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)
        if self.reducer_flag:
            self.mean = get_auto_parallel_context("gradients_mean")
            self.degree = int(get_auto_parallel_context("device_num") or 1)
            self.grad_reducer = DistributedGradReducer(self.weights, self.mean, self.degree)
        self._broadcast_done = False

    def set_sens(self, value):
        """Change the backward scale (a number); the next GRAPH-mode call recompiles with it."""
        self.sens = _check_sens(value)

    def _step_guard(self):
        # Around each eager call (traced into a bigger graph, its caller guards the step instead).
        if self.reducer_flag and not self._broadcast_done:
            self._broadcast_done = True
            self._broadcast_if_asked()
        if isinstance(self.optimizer, Optimizer):
            self.optimizer.check_can_step()  # a learning-rate list that has run out raises before the step
        return all_or_nothing()  # a step that raises part-way (even on KeyboardInterrupt) leaves every weight as it was

    def _broadcast_if_asked(self):
        """Before the first step under ``parameter_broadcast=True``: every parameter (the network's weights
        and the optimizer's state) becomes rank 0's. MindSpore 2.10 does it when it compiles the network and,
        by default (``parameter_broadcast=False``), not at all: ranks that must start equal set one seed."""
        if get_auto_parallel_context("parameter_broadcast") and comm.size() > 1:
            broadcast_parameters([p for _, p in self.parameters_and_names() if not p.layerwise_parallel])

    def fill_sens(self, loss):
        """Step 2, the backward's seed: ``fill(loss.dtype, loss.shape, self.sens)`` (d loss / d loss)."""
        return F.fill(loss.dtype, loss.shape, self.sens)

    def construct(self, *inputs):
        # 1-3. one forward pass: the loss, then sens = fill_sens(loss), then the weights' gradients
        loss, grads = self.grad_with_loss(self.network, self.weights)(*inputs)
        grads = self.grad_reducer(grads)
        loss = F.depend(loss, self.optimizer(grads))
        return loss
