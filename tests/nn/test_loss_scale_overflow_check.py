"""TrainOneStepWithLossScaleCell's overflow-check methods under MindSpore 2.10's names and signatures, which
subclasses (mindcv's TrainStep) call: ``start_overflow_check(pre_cond, compute_input)`` and
``get_overflow_status(status, compute_output)``."""
import numpy as np

from mslab import Tensor, nn


def make_cell():
    net = nn.Dense(2, 1)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, nn.FixedLossScaleUpdateCell(2.0))


def test_start_overflow_check_gives_a_zero_status_and_the_input():
    status, same = make_cell().start_overflow_check(Tensor(1.0), Tensor(2.0))
    # MindSpore 2.10 CPU printed: [0 0 0 0 0 0 0 0] 2.0
    assert status.dtype == np.int32 and status.asnumpy().tolist() == [0] * 8
    assert float(same.asnumpy()) == 2.0


def test_get_overflow_status_looks_at_the_gradients():
    # (MindSpore 2.10 cannot run this on a CPU: its check uses an Ascend operator; mslab runs it anywhere)
    cell = make_cell()
    status, _ = cell.start_overflow_check(Tensor(1.0), Tensor(2.0))
    assert bool(cell.get_overflow_status(status, (Tensor(np.array([1.0, np.inf], np.float32)),)).asnumpy())
    assert not bool(cell.get_overflow_status(status, (Tensor(np.array([1.0, 2.0], np.float32)),)).asnumpy())
