"""RMSProp, Adagrad, AdaMax, Adadelta: MindSpore's numbers for two steps, state names, a numpy
reference over several steps, and GRAPH == PYNATIVE bit for bit inside TrainOneStepCell.

Two-step numbers and state names observed on MindSpore 2.10 CPU (docs/mindspore_observed/fidelity.md
section 11): parameter [1.0, 2.0], gradient [0.1, -0.2], learning rate 0.1."""
import numpy as np
import pytest

import mslab as ms
import mslab.nn as nn
from mslab import Parameter, Tensor
from mslab.testing import in_mode

OBSERVED = {  # name: (make, after 1 step, after 2 steps, per-weight state names in MindSpore's order)
    "RMSProp": (lambda ps: nn.RMSProp(ps, learning_rate=0.1), [0.98946494, 2.0210352], [0.97836685, 2.043154],
                ["mean_square.w", "moment.w"]),
    "RMSProp(centered=True, momentum=0.9)": (
        lambda ps: nn.RMSProp(ps, learning_rate=0.1, centered=True, momentum=0.9),
        [0.98946434, 2.0210397], [0.96888167, 2.0621138], ["mean_grad.w", "mean_square.w", "moment.w"]),
    "Adagrad": (lambda ps: nn.Adagrad(ps, learning_rate=0.1), [0.9698489, 2.0534523], [0.9409813, 2.1005926],
                ["accum.w"]),
    "AdaMax": (lambda ps: nn.AdaMax(ps, learning_rate=0.1), [0.9, 2.1], [0.8, 2.1999998],
               ["moment1.w", "moment2.w"]),
    "Adadelta": (lambda ps: nn.Adadelta(ps, learning_rate=0.1), [0.9996839, 2.0003161], [0.99935967, 2.0006406],
                 ["accum.w", "accum_update.w"]),
}


@pytest.mark.parametrize("name", list(OBSERVED))
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_two_steps_as_mindspore(name, mode):
    make, step1, step2, state = OBSERVED[name]
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    opt = make([w])
    g = (Tensor(np.array([0.1, -0.2], np.float32)),)
    with in_mode(mode):
        opt(g)
        np.testing.assert_allclose(w.asnumpy(), step1, rtol=1e-6)
        opt(g)
        np.testing.assert_allclose(w.asnumpy(), step2, rtol=1e-6)
    names = [p.name for p in opt.get_parameters()]
    assert [n for n in names if "." in n] == state
    assert {"global_step", "learning_rate", "w"} <= set(names)
    assert ("beta1_power" in names) == (name == "AdaMax")


def ref_rmsprop(w, grads, lr, decay=0.9, momentum=0.0, eps=1e-10, centered=False):
    s, gm, mom = np.ones_like(w), np.zeros_like(w), np.zeros_like(w)
    for g in grads:
        s = decay * s + (1 - decay) * g * g
        gm = decay * gm + (1 - decay) * g
        mom = momentum * mom + lr * g / np.sqrt((s - gm * gm if centered else s) + eps)
        w = w - mom
    return w


def ref_adagrad(w, grads, lr, accum=0.1):
    a = np.full_like(w, accum)
    for g in grads:
        a = a + g * g
        w = w - lr * g / np.sqrt(a)
    return w


def ref_adamax(w, grads, lr, b1=0.9, b2=0.999, eps=1e-8):
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        m = b1 * m + (1 - b1) * g
        v = np.maximum(b2 * v, np.abs(g))
        w = w - lr / (1 - b1 ** t) * m / (v + eps)
    return w


def ref_adadelta(w, grads, lr, rho=0.9, eps=1e-6):
    a, au = np.zeros_like(w), np.zeros_like(w)
    for g in grads:
        a = rho * a + (1 - rho) * g * g
        u = np.sqrt(au + eps) / np.sqrt(a + eps) * g
        au = rho * au + (1 - rho) * u * u
        w = w - lr * u
    return w


CASES = [
    (lambda ps: nn.RMSProp(ps, 0.01, decay=0.8, momentum=0.5, epsilon=1e-6), lambda w, gs: ref_rmsprop(
        w, gs, 0.01, 0.8, 0.5, 1e-6)),
    (lambda ps: nn.RMSProp(ps, 0.01, centered=True), lambda w, gs: ref_rmsprop(w, gs, 0.01, centered=True)),
    (lambda ps: nn.Adagrad(ps, accum=0.5, learning_rate=0.05), lambda w, gs: ref_adagrad(w, gs, 0.05, 0.5)),
    (lambda ps: nn.AdaMax(ps, 0.01, beta1=0.8, beta2=0.99), lambda w, gs: ref_adamax(w, gs, 0.01, 0.8, 0.99)),
    (lambda ps: nn.Adadelta(ps, 0.5, rho=0.8), lambda w, gs: ref_adadelta(w, gs, 0.5, 0.8)),
]


@pytest.mark.parametrize("make, ref", CASES)
def test_matches_numpy_reference(make, ref):
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((3, 2)).astype(np.float32)
    grads = [rng.standard_normal((3, 2)).astype(np.float32) for _ in range(4)]
    w = Parameter(Tensor(w0.copy()), name="fc.weight")
    opt = make([w])
    for g in grads:
        opt((Tensor(g),))
    want = ref(w0.astype(np.float64), [g.astype(np.float64) for g in grads])
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-5, atol=1e-6)


def train_three_steps(make_opt, mode):
    rng = np.random.default_rng(1)
    x = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    y = Tensor(rng.standard_normal((4, 2)).astype(np.float32))
    with in_mode(mode):
        net = nn.Dense(3, 2, Tensor(rng.standard_normal((2, 3)).astype(np.float32)), "zeros")
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), make_opt(net.trainable_params()))
        train.set_train()
        losses = [train(x, y).asnumpy() for _ in range(3)]
    return losses, [p.asnumpy() for p in train.get_parameters()]


@pytest.mark.parametrize("make, _ref", CASES)
def test_graph_equals_pynative_in_train_one_step_cell(make, _ref):
    l_py, p_py = train_three_steps(make, ms.PYNATIVE_MODE)
    l_gr, p_gr = train_three_steps(make, ms.GRAPH_MODE)
    assert l_py[2] < l_py[0]
    for a, b in zip(l_py + p_py, l_gr + p_gr):
        np.testing.assert_array_equal(a, b)


def test_optimizer_phase_and_bad_arguments():
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    g = ms.trace(nn.Adadelta([w]), (Tensor(np.ones(2, np.float32)),))
    assert g.nodes and all(n.phase == "optimizer" for n in g.nodes)
    with pytest.raises(ValueError, match="decay"):
        nn.RMSProp([w], decay=1.5)
    with pytest.raises(ValueError, match="beta1"):
        nn.AdaMax([w], beta1=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        nn.Adadelta([w], epsilon=0.0)
