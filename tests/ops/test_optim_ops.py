"""optim_ops: ApplyMomentum and SGD, the update kernels nn.Momentum and nn.SGD call once per weight, against
MindSpore 2.10's numbers, against the element-wise ops they replace (bit for bit), in both modes."""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn, ops
from mslab.ops import operations as P
from mslab.ops import optim_ops

W, ACC, G = [1.0, -2.0], [0.5, 0.25], [0.3, -0.7]


def param(values, name):
    return Parameter(Tensor(np.array(values, np.float32)), name=name)


def f32(x):
    return Tensor(np.float32(x))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_apply_momentum_as_mindspore(mode):
    ms.set_context(mode=mode)
    try:
        w, a = param(W, "w"), param(ACC, "a")
        out = ms.jit(lambda g: P.ApplyMomentum()(w, a, f32(0.1), g, f32(0.9)))(Tensor(np.array(G, np.float32)))
        # observed on MindSpore 2.10 CPU: out and w [0.925, -1.9525], a [0.75, -0.475]
        np.testing.assert_allclose(w.asnumpy(), [0.925, -1.9525], rtol=1e-6)
        np.testing.assert_allclose(a.asnumpy(), [0.75, -0.475], rtol=1e-6)
        np.testing.assert_array_equal(out.asnumpy(), w.asnumpy())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_apply_momentum_nesterov_follows_mindspores_cpu_kernel():
    # MindSpore 2.10's CPU kernel ignores use_nesterov (observed: w [0.925, -1.9525], as without it); mslab follows
    # the kernel (../shared/SPEC.md, decided 2026-11-27), not the documented w - g * lr - acc * momentum * lr
    w, a = param(W, "w"), param(ACC, "a")
    P.ApplyMomentum(use_nesterov=True)(w, a, f32(0.1), Tensor(np.array(G, np.float32)), f32(0.9))
    np.testing.assert_allclose(w.asnumpy(), [0.925, -1.9525], rtol=1e-6)


# observed on MindSpore 2.10 CPU, P.SGD(dampening, weight_decay, nesterov)(p, g, lr 0.1, accum, momentum 0.9, stat)
SGD_CASES = [  # dampening, weight_decay, nesterov, stat before, p after, accum after
    (0.0, 0.0, False, 1.0, [0.97, -1.93], [0.3, -0.7]),
    (0.2, 0.0, False, 0.0, [0.931, -1.9665], [0.69, -0.335]),
    (0.0, 0.01, False, 0.0, [0.924, -1.9505], [0.76, -0.49499997]),
    (0.0, 0.0, True, 0.0, [0.90250003, -1.88725], [0.75, -0.475]),
]


@pytest.mark.parametrize("dampening,weight_decay,nesterov,stat0,p_after,acc_after", SGD_CASES)
def test_sgd_kernel_as_mindspore(dampening, weight_decay, nesterov, stat0, p_after, acc_after):
    p, acc, stat = param(W, "p"), param(ACC, "acc"), param([stat0, stat0], "stat")
    out = P.SGD(dampening, weight_decay, nesterov)(p, Tensor(np.array(G, np.float32)), f32(0.1), acc, f32(0.9), stat)
    np.testing.assert_allclose(p.asnumpy(), p_after, rtol=1e-6)
    np.testing.assert_allclose(acc.asnumpy(), acc_after, rtol=1e-6)
    np.testing.assert_array_equal(stat.asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())


def test_sgd_kernel_without_momentum_leaves_its_state_alone():
    p, acc, stat = param(W, "p"), param(ACC, "acc"), param([1.0, 1.0], "stat")
    P.SGD()(p, Tensor(np.array(G, np.float32)), f32(0.1), acc, f32(0.0), stat)
    # observed on MindSpore 2.10 CPU: p [0.97, -1.93], accum [0.5, 0.25] and stat [1, 1] unchanged
    np.testing.assert_allclose(p.asnumpy(), [0.97, -1.93], rtol=1e-6)
    np.testing.assert_array_equal(acc.asnumpy(), ACC)
    np.testing.assert_array_equal(stat.asnumpy(), [1.0, 1.0])


# observed on MindSpore 2.10 CPU: nn.SGD on Dense(2, 1) (weight [[0.5, -0.3]], bias 0), MSELoss, lr 0.1, two steps
NN_SGD = {  # (momentum, dampening, nesterov): [(weight, accum of the weight) after step 1, after step 2]
    (0.0, 0.0, False): [([0.07000002264976501, 0.09999999403953552], [0.0, 0.0], 1.0),
                        ([0.1379999965429306, 0.2639999985694885], [0.0, 0.0], 1.0)],
    (0.9, 0.1, False): [([0.07000002264976501, 0.09999999403953552], [4.299999713897705, -4.0], 0.0),
                        ([-0.2557999789714813, 0.6075999736785889], [3.257999897003174, -5.075999736785889], 0.0)],
    (0.9, 0.0, True): [([-0.3169999122619629, 0.4599999785423279], [4.299999713897705, -4.0], 0.0),
                       ([0.31547993421554565, 0.6920400261878967], [-1.2919995784759521, -3.116000175476074], 0.0)],
}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("hyper", list(NN_SGD))
def test_nn_sgd_steps_as_mindspore(mode, hyper):
    ms.set_context(mode=mode)
    try:
        momentum, dampening, nesterov = hyper
        net = nn.Dense(2, 1, weight_init=Tensor(np.array([[0.5, -0.3]], np.float32)), bias_init="zeros")
        opt = nn.SGD(net.trainable_params(), 0.1, momentum=momentum, dampening=dampening, nesterov=nesterov)
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        x, y = Tensor(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)), Tensor(np.array([[1.0], [0.0]], np.float32))
        for weight, accum, stat in NN_SGD[hyper]:
            train(x, y)
            np.testing.assert_allclose(net.weight.asnumpy(), [weight], rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(opt.accum[0].asnumpy(), [accum], rtol=1e-5, atol=1e-6)
            np.testing.assert_array_equal(opt.stat[0].asnumpy(), [[stat, stat]])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_momentum_equals_the_element_wise_update_bit_for_bit(nesterov):
    rng = np.random.default_rng(0)
    w0, v0, g = (rng.standard_normal((3, 4)).astype(np.float32) for _ in range(3))
    lr, m = f32(0.05), f32(0.9)
    w, v = param(w0, "w"), param(v0, "v")
    P.ApplyMomentum(use_nesterov=nesterov)(w, v, lr, Tensor(g), m)
    v_new = ops.add(ops.mul(Tensor(v0), m), Tensor(g))
    w_new = ops.sub(Tensor(w0), ops.mul(lr, v_new))  # nesterov too: MindSpore 2.10's CPU kernel ignores it
    np.testing.assert_array_equal(v.asnumpy(), v_new.asnumpy())
    np.testing.assert_array_equal(w.asnumpy(), w_new.asnumpy())


def test_one_update_node_per_weight_and_clear_errors():
    net = nn.Dense(3, 2)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    g = ms.trace(train, Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
    assert [n.op for n in g.nodes if n.op == "ApplyMomentum"] == ["ApplyMomentum"] * 2
    with pytest.raises(TypeError, match="ApplyMomentum writes its input 0 in place, so it must be a Parameter"):
        P.ApplyMomentum()(Tensor(np.ones(2, np.float32)), param(ACC, "a"), f32(0.1), Tensor(np.ones(2, np.float32)),
                          f32(0.9))
    with pytest.raises(ms.errors.OpError, match="gradient has shape \\(3,\\) but the variable has shape \\(2,\\)"):
        P.ApplyMomentum()(param(W, "w"), param(ACC, "a"), f32(0.1), Tensor(np.ones(3, np.float32)), f32(0.9))


def test_every_primitive_of_the_family_is_tested():
    assert set(optim_ops.__all__) == {"ApplyMomentum", "SGD"}


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_nn_sgd_parameters_as_mindspore(momentum):
    net = nn.Dense(2, 1)
    opt = nn.SGD(net.trainable_params(), 0.1, momentum=momentum)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    # observed on MindSpore 2.10 CPU: the same names in this order, momentum a float32 Parameter (0.0 / 0.9)
    assert [p.name for p in train.get_parameters()] == ["weight", "bias", "global_step", "learning_rate", "momentum",
                                                        "accum.weight", "accum.bias", "stat.weight", "stat.bias"]
    np.testing.assert_allclose(opt.momentum.asnumpy(), np.float32(momentum))
