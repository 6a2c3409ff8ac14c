"""``mindspore.boost.GradientAccumulation``: two batches make one Momentum update, as MindSpore 2.10 computes it
(losses, weights, counter and sums recorded from MindSpore 2.10 CPU, the same in PYNATIVE and GRAPH mode)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, boost, nn, ops
from mslab.boost.grad_accumulation import gradient_accumulation_op, gradient_clear_op
from mslab.core.context import in_mode
from mslab.core.missing_names import NotInMslabYet


class Step(nn.Cell):
    def __init__(self, net, opt):
        super().__init__()
        self.net, self.weights = net, opt.parameters
        self.grad = ops.GradOperation(get_by_list=True)
        self.acc = boost.GradientAccumulation(2, opt)

    def construct(self, x, y):
        loss = self.net(x, y)
        grads = self.grad(self.net, self.weights)(x, y)
        return self.acc(loss, grads)


# MindSpore 2.10, per step (printed to 6 decimals): loss, dense.weight, _accumulation_step, the weight's accumulated
# gradient
MS_STEPS = [
    (0.8658, [0.10000000149011612, -0.20000000298023224, 0.30000001192092896], 1,
     [-0.13500000536441803, -0.2280000001192093, -0.32100000977516174]),
    (0.657, [0.1738000065088272, -0.1088000014424324, 0.40860000252723694], 0, [0.0, 0.0, 0.0]),
    (0.473067, [0.1738000065088272, -0.1088000014424324, 0.40860000252723694], 1,
     [-0.09196200221776962, -0.1603740006685257, -0.22878600656986237]),
    (0.165015, [0.27834799885749817, 0.022247999906539917, 0.5661489963531494], 0, [0.0, 0.0, 0.0]),
    (0.116459, [0.27834799885749817, 0.022247999906539917, 0.5661489963531494], 1,
     [-0.027827000245451927, -0.059379998594522476, -0.09093199670314789]),
]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_two_batches_make_one_update_as_mindspore(mode):
    with in_mode(mode):
        dense = nn.Dense(3, 1, weight_init=Tensor(np.array([[0.1, -0.2, 0.3]], np.float32)), bias_init="zeros")
        net = nn.WithLossCell(dense, nn.MSELoss())
        step = Step(net, nn.Momentum(dense.trainable_params(), 0.1, 0.9))
        x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
        y = Tensor(np.ones((2, 1), np.float32))
        for i, (loss, weight, count, summed) in enumerate(MS_STEPS):
            got = step(x[i % 2 * 2: i % 2 * 2 + 2], y)
            assert round(float(got.asnumpy()), 6) == loss
            np.testing.assert_allclose(dense.weight.asnumpy()[0], weight, atol=1e-6)
            assert int(step.acc._accumulation_step.asnumpy()) == count
            np.testing.assert_allclose(step.acc._grad_accumulation[0].asnumpy()[0], summed, atol=1e-6)


def test_the_rules_and_the_rest_of_boost():
    acc = ms.Parameter(Tensor(np.zeros(2, np.float32)), name="acc")
    gradient_accumulation_op(4, acc, Tensor(np.array([2.0, -4.0], np.float32)))
    np.testing.assert_array_equal(acc.asnumpy(), [0.5, -1.0])
    gradient_clear_op(acc)
    np.testing.assert_array_equal(acc.asnumpy(), [0.0, 0.0])
    with pytest.raises(NotInMslabYet, match=r"`mindspore.boost.LessBN` exists in MindSpore 2.10 but mslab does not"):
        boost.LessBN()
