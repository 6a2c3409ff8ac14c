"""LearningRateScheduler: change the optimizer's learning rate after steps, with a function of (lr, step)."""
import math

import numpy as np

from mslab.core import log
from mslab.core.tensor import Parameter
from mslab.train.callback._callback import Callback


def _optimizer_of(cb_params):
    opt = cb_params.get("optimizer")
    if opt is None:
        net = cb_params.get("train_network")
        opt = getattr(net, "optimizer", None)
    if opt is None:
        raise ValueError("LearningRateScheduler: the training has no optimizer (give Model an optimizer)")
    return opt


class LearningRateScheduler(Callback):
    """After every step, ``lr = learning_rate_function(lr, cur_step_num)``, written into the optimizer.

    Works with a fixed learning rate (a float given to the optimizer, held in the Parameter
    ``optimizer.learning_rate``). The new value is written with ``Parameter.set_data``; compiled GRAPH
    mode graphs read the Parameter when they run, so the next step uses it. Logs the change at INFO level, as
    MindSpore 2.10 does (``At step 3, learning_rate change to 0.05``: seen with ``GLOG_v=1``, not by default).
    """

    def __init__(self, learning_rate_function):
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError("LearningRateScheduler: learning_rate_function must be callable as fn(lr, cur_step)")
        self.learning_rate_function = learning_rate_function

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        opt = _optimizer_of(cb_params)
        lr_param = getattr(opt, "learning_rate", None)
        if not isinstance(lr_param, Parameter) or lr_param.asnumpy().ndim != 0:
            raise TypeError("LearningRateScheduler needs a fixed learning rate (a float given to the optimizer); "
                            "this optimizer's rate is a list or a schedule, which already changes by itself")
        lr = float(lr_param.asnumpy())
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            lr_param.set_data(np.asarray(new_lr, dtype=lr_param.asnumpy().dtype))
            log.info(f"At step {cb_params.cur_step_num}, learning_rate change to {new_lr}")
