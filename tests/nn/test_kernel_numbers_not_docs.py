"""Where MindSpore 2.10's CPU kernels compute something other than its documentation says, mslab gives the kernel's
numbers and warns once (issue 28; ../shared/SPEC.md, decided 2026-11-27): FTRL's l1 term, Momentum's ignored
use_nesterov, NaturalExpDecayLR's exponent, LeakyReLU's slope at 0; and Adam, which does match its documentation,
to MindSpore's float32 last digits; and the slopes of ReLU6, HSwish, HSigmoid and ELU at their kinks.
Every number below was printed by MindSpore 2.10 CPU (docs/mindspore_observed/wrongvals.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Parameter, Tensor
from mslab.ops import kernel_differences
from mslab.ops.kernel_differences import KernelDiffersFromDocs
from mslab.testing import check_modes

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


@pytest.fixture
def first_warning():
    """Forget which differences were already announced, so the test sees the one warning it expects."""
    def forget(case):
        kernel_differences._warned.discard(case)
    return forget


def steps(opt_of, w0, grads, mode):
    """The weights after each optimizer step (one optimizer call per gradient), in ``mode``."""
    ms.set_context(mode=mode)
    try:
        w = Parameter(Tensor(np.array(w0, np.float32)), name="w")
        opt = opt_of([w])
        rows = []
        for g in grads:
            opt((Tensor(np.array(g, np.float32)),))
            rows.append(w.asnumpy().tolist())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return rows, opt


# ---- FTRL -----------------------------------------------------------------------------------------------------
FTRL_W0 = [0.05, -0.03, 0.02, 0.0, 1.0, -1.0]
FTRL_G = [[0.3, -0.2, 0.01, -0.5, 2.0, 0.7], [-0.1, 0.4, 0.02, 0.1, -1.0, 0.3]]
# MindSpore 2.10 CPU, nn.FTRL([w], l1=0.5) (both modes): w after each step. The documented formula would give
# 0.011890862 for the first weight after step 1 (linear is -5.683 there, so sign(linear) * l1 is -0.5, not 0.5).
FTRL_L1 = [[0.014185018837451935, -0.0027745438273996115, 0.0, 0.0, 0.8430854082107544, -0.5885668992996216],
           [0.014408626593649387, -0.003504840424284339, 0.0, 0.0, 0.8435282111167908, -0.5889307260513306]]
# nn.FTRL([w], learning_rate=0.1, l1=0.01, l2=0.01)
FTRL_LR = [[-0.052563197910785675, 0.05120578035712242, 0.0, 0.08591528236865997, 0.744811475276947,
            -0.676375687122345],
           [-0.030302073806524277, -0.02155819907784462, -0.006259341724216938, 0.06930398941040039,
            0.7890530228614807, -0.7126678824424744]]


@pytest.mark.parametrize("mode", MODES)
def test_ftrl_follows_mindspores_cpu_kernel(mode, first_warning):
    first_warning("FTRL")
    with pytest.warns(KernelDiffersFromDocs, match=r"FTRL: .*\(l1 - linear\) / quadratic"):
        rows, opt = steps(lambda ps: nn.FTRL(ps, l1=0.5), FTRL_W0, FTRL_G, mode)
    np.testing.assert_allclose(rows, FTRL_L1, rtol=1e-6, atol=1e-9)
    rows, _ = steps(lambda ps: nn.FTRL(ps, learning_rate=0.1, l1=0.01, l2=0.01), FTRL_W0, FTRL_G, mode)
    np.testing.assert_allclose(rows, FTRL_LR, rtol=1e-5, atol=1e-8)


def test_ftrl_without_l1_is_the_documented_formula_and_does_not_warn(recwarn, first_warning):
    first_warning("FTRL")
    rows, opt = steps(lambda ps: nn.FTRL(ps, l2=0.1), FTRL_W0, FTRL_G[:1], ms.PYNATIVE_MODE)
    # observed on MindSpore 2.10 CPU: nn.FTRL([w], l2=0.1), one step
    np.testing.assert_allclose(rows[0], [0.01303196046501398, -0.004108653869479895, -2.1600997570203617e-05,
                                         0.0008448686567135155, 0.8427552580833435, -0.5890644788742065], rtol=1e-6)
    np.testing.assert_allclose(opt.moments[0].asnumpy(), [0.19, 0.14, 0.1001, 0.35, 4.1, 0.59], rtol=1e-6)
    assert not [w for w in recwarn if issubclass(w.category, KernelDiffersFromDocs)]


# ---- Adam: MindSpore's float32 1 - beta ---------------------------------------------------------------------
ADAM_G = [[1e-4, 0.3, -2.0], [2e-4, -0.1, 0.5], [0.0, 0.2, 0.1]]


@pytest.mark.parametrize("mode", MODES)
def test_adam_gives_mindspores_float32_numbers(mode):
    rows, opt = steps(lambda ps: nn.Adam(ps, learning_rate=0.001), [0.05, -0.5, 1.0], ADAM_G, mode)
    # observed on MindSpore 2.10 CPU, both modes: w after 3 steps, and moment1 after them (1 - 0.9 in float32 is
    # 0.100000024, so one step of g = 1e-4 leaves moment1 at 1.0000002e-05, not 1e-05)
    assert rows == [[0.049003154039382935, -0.5009999871253967, 1.0010000467300415],
                    [0.04803933948278427, -0.5014002323150635, 1.0014694929122925],
                    [0.047294311225414276, -0.5020033121109009, 1.0018010139465332]]
    assert opt.moment1[0].asnumpy().tolist() == [2.610000410641078e-05, 0.035300008952617645, -0.10700001567602158]
    rows, _ = steps(lambda ps: nn.Adam(ps, learning_rate=0.01, beta1=0.8, beta2=0.99, eps=1e-3, use_nesterov=True),
                    [0.05, -0.5, 1.0], ADAM_G, mode)
    assert rows[-1] == [0.04937293380498886, -0.5260299444198608, 1.021156668663025]


@pytest.mark.parametrize("mode", MODES)
def test_adam_weight_decay_gives_mindspores_float32_numbers(mode):
    rows, _ = steps(lambda ps: nn.AdamWeightDecay(ps, learning_rate=0.001), [0.05, -0.5, 1.0], ADAM_G, mode)
    # observed on MindSpore 2.10 CPU, w after each step
    assert rows == [[0.047597456723451614, -0.5031619668006897, 1.0031622648239136],
                    [0.044004037976264954, -0.5048625469207764, 1.0051573514938354],
                    [0.040768545120954514, -0.5078477263450623, 1.006798267364502]]
    rows, _ = steps(lambda ps: nn.AdamWeightDecay(ps, learning_rate=0.01, weight_decay=0.1), [0.05, -0.5, 1.0], ADAM_G,
                    mode)
    np.testing.assert_allclose(rows[-1], [-0.04238041117787361, -0.5768988728523254, 1.0649021863937378], rtol=1e-6)


# ---- Momentum(use_nesterov=True) ------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_momentum_nesterov_updates_as_without_it(mode, first_warning):
    grads = [[0.3, -0.2], [0.1, 0.4]]
    first_warning("Momentum(use_nesterov=True)")
    with pytest.warns(KernelDiffersFromDocs, match=r"Momentum\(use_nesterov=True\): .*ignores use_nesterov"):
        rows, _ = steps(lambda ps: nn.Momentum(ps, 0.1, 0.9, use_nesterov=True), [1.0, -1.0], grads, mode)
    # observed on MindSpore 2.10 CPU, both modes, with and without use_nesterov (SGD's nesterov does change them)
    assert rows == [[0.9700000286102295, -0.9800000190734863], [0.9330000281333923, -1.0019999742507935]]
    rows, _ = steps(lambda ps: nn.SGD(ps, 0.1, momentum=0.9, nesterov=True), [1.0, -1.0], grads, mode)
    np.testing.assert_allclose(rows, [[0.9430000185966492, -0.9620000123977661],
                                      [0.8997000455856323, -1.0218000411987305]], rtol=1e-6)


# ---- NaturalExpDecayLR ----------------------------------------------------------------------------------------
# MindSpore 2.10 CPU: nn.NaturalExpDecayLR(0.1, 0.9, 4, is_stair)(Tensor(step, int32)) for steps 0..9
NATURAL = {False: [0.10000000149011612, 0.04065696895122528, 0.01652989163994789, 0.006720553617924452,
                   0.0027323728427290916, 0.0011108998442068696, 0.0004516583576332778, 0.0001836305600591004,
                   7.465861563105136e-05, 3.035394001926761e-05],
           True: [0.1] * 4 + [0.0027323728427290916] * 4 + [7.465861563105136e-05] * 2}


@pytest.mark.parametrize("is_stair", [False, True])
def test_natural_exp_decay_lr_computes_what_mindspore_does(is_stair, first_warning):
    first_warning("NaturalExpDecayLR")
    with pytest.warns(KernelDiffersFromDocs, match="NaturalExpDecayLR: .*documentation has p = step / decay_steps"):
        sched = nn.NaturalExpDecayLR(0.1, 0.9, 4, is_stair=is_stair)
    got = [float(sched(Tensor(s, ms.int32)).asnumpy()) for s in range(10)]
    np.testing.assert_allclose(got, NATURAL[is_stair], rtol=2e-6)
    check_modes(sched, Tensor(6, ms.int32))
    # the list form agrees with MindSpore's nn.dynamic_lr.natural_exp_decay_lr (observed)
    assert nn.dynamic_lr.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True)[4] == pytest.approx(0.016529888822158657)


# ---- activations at their kinks -------------------------------------------------------------------------------
X_KINKS = np.array([-3.0, 0.0, 3.0, 6.0, -6.0, 1.0], np.float32)
# MindSpore 2.10 CPU, both modes: ms.grad of cell(x).sum() at X_KINKS
SLOPES = [(lambda: nn.LeakyReLU(), [0.2, 0.6, 1.0, 1.0, 0.2, 1.0]),
          (lambda: nn.LeakyReLU(0.01), [0.01, 0.505, 1.0, 1.0, 0.01, 1.0]),
          (lambda: nn.LeakyReLU(1.5), [1.5, 1.25, 1.0, 1.0, 1.5, 1.0]),
          (lambda: nn.ReLU6(), [0.0, 0.0, 1.0, 1.0, 0.0, 1.0]),
          (lambda: nn.HSwish(), [-0.5, 0.5, 1.5, 1.0, 0.0, 0.8333333134651184]),
          (lambda: nn.HSigmoid(), [0.0, 0.1666666716337204, 0.0, 0.0, 0.0, 0.1666666716337204]),
          (lambda: nn.ELU(), [0.049787044525146484, 1.0, 1.0, 1.0, 0.00247877836227417, 1.0])]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make, slope", SLOPES)
def test_activation_slopes_at_kinks_are_mindspores(mode, make, slope):
    cell = make()

    def total(t):
        return cell(t).sum()

    ms.set_context(mode=mode)
    try:
        g = ms.grad(total)(Tensor(X_KINKS))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(g.asnumpy(), slope, rtol=1e-6, atol=1e-7)


def test_activation_values_unchanged_at_kinks():
    x = Tensor(X_KINKS)
    # observed on MindSpore 2.10 CPU
    assert nn.ReLU6()(x).asnumpy().tolist() == [0.0, 0.0, 3.0, 6.0, 0.0, 1.0]
    assert nn.HSwish()(x).asnumpy().tolist() == [0.0, 0.0, 3.0, 6.0, 0.0, 0.6666666865348816]
    assert nn.HSigmoid()(x).asnumpy().tolist() == [0.0, 0.5, 1.0, 1.0, 0.0, 0.6666666865348816]
    assert str(nn.HSwish()(x).asnumpy()[0]) == "0.0"   # not -0.0
    np.testing.assert_allclose(nn.ELU()(x).asnumpy(), [-0.9502129554748535, 0.0, 3.0, 6.0, -0.9975212216377258, 1.0],
                               rtol=1e-6)


def test_leaky_relu_warns_once_naming_the_slope_at_zero(first_warning):
    first_warning("LeakyReLU")
    with pytest.warns(KernelDiffersFromDocs, match=r"LeakyReLU: .*\(1 \+ alpha\) / 2"):
        nn.LeakyReLU(0.1)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.LeakyReLU(0.3)   # the second one is quiet
    assert ops.maximum is not None
