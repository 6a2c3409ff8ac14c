"""TrainOneStepCell, WithLossCell/WithEvalCell, loss scaling, DistributedGradReducer, amp, HyperMap & co."""
import numpy as np
import pytest

import mslab as ms
import mslab.nn as nn
import mslab.ops as ops
from mslab import Parameter, Tensor, amp, context
from mslab.testing import in_mode

f32 = np.float32
X = Tensor(np.random.default_rng(0).standard_normal((4, 3)).astype(f32))
Y = Tensor(np.random.default_rng(1).standard_normal((4, 2)).astype(f32))
BOTH = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        r = np.random.default_rng(5)
        self.fc = nn.Dense(3, 2, Tensor(r.standard_normal((2, 3)).astype(f32)), Tensor(np.zeros(2, f32)))

    def construct(self, x):
        return self.fc(x)


def train_net(loss_fn=None, opt=None, sens=1.0):
    net = Net()
    loss_net = nn.WithLossCell(net, loss_fn or nn.MSELoss())
    opt = (opt or (lambda ps: nn.SGD(ps, 0.1)))(net.trainable_params())
    return net, loss_net, nn.TrainOneStepCell(loss_net, opt, sens=sens)


@pytest.mark.parametrize("mode", BOTH)
def test_returns_the_loss_before_the_update(mode):
    with in_mode(mode):
        net, loss_net, train = train_net(opt=lambda ps: nn.Momentum(ps, 0.1, 0.9))
        before = loss_net(X, Y).asnumpy()
        w0 = net.fc.weight.asnumpy()
        got = train(X, Y).asnumpy()
        after = loss_net(X, Y).asnumpy()
    np.testing.assert_allclose(got, before, rtol=1e-6)
    assert after < before
    assert not np.array_equal(net.fc.weight.asnumpy(), w0)


def test_names_stay_those_of_the_network():
    net, loss_net, train = train_net(opt=lambda ps: nn.Momentum(ps, 0.1, 0.9))
    assert [p.name for p in loss_net.trainable_params()] == ["fc.weight", "fc.bias"]
    assert loss_net.backbone_network is net
    names = [p.name for p in train.get_parameters()]
    assert names[:2] == ["fc.weight", "fc.bias"] and "moments.fc.weight" in names


@pytest.mark.parametrize("mode", BOTH)
def test_vector_loss_gets_vector_sens(mode):
    with in_mode(mode):
        net_v, _, train_v = train_net(nn.MSELoss(reduction="none"))
        net_s, _, train_s = train_net(nn.MSELoss(reduction="sum"))
        loss = train_v(X, Y)
        train_s(X, Y)
    assert loss.shape == (4, 2)
    np.testing.assert_allclose(net_v.fc.weight.asnumpy(), net_s.fc.weight.asnumpy(), rtol=1e-5)


@pytest.mark.parametrize("mode", BOTH)
def test_sens_scales_the_gradients(mode):
    with in_mode(mode):
        net_a, _, train_a = train_net(opt=lambda ps: nn.SGD(ps, 0.1), sens=3.0)
        net_b, _, train_b = train_net(opt=lambda ps: nn.SGD(ps, 0.3))
        train_a(X, Y)
        train_b(X, Y)
        np.testing.assert_allclose(net_a.fc.weight.asnumpy(), net_b.fc.weight.asnumpy(), rtol=1e-5)
        train_a.set_sens(1.0)  # from the same weights, now the same step as lr 0.1
        train_b.optimizer.learning_rate.set_data(Tensor(np.array(0.1, f32)))
        train_a(X, Y)
        train_b(X, Y)
    np.testing.assert_allclose(net_a.fc.weight.asnumpy(), net_b.fc.weight.asnumpy(), rtol=1e-5)
    with pytest.raises(TypeError, match="sens"):
        train_a.set_sens("big")


def test_trace_shows_forward_backward_and_optimizer_with_one_forward():
    _, _, train = train_net(opt=lambda ps: nn.Momentum(ps, 0.1, 0.9))
    g = ms.trace(train, X, Y)
    phases = {n.phase for n in g.nodes}
    assert {"forward", "backward", "optimizer"} <= phases
    forward_matmuls = [n for n in g.nodes if n.phase == "forward" and n.op == "MatMul"]
    assert len(forward_matmuls) == 1  # one forward pass gives the loss and the gradients
    text = str(g)
    # one ApplyMomentum per weight writes it and its moment, as MindSpore's nn.Momentum
    assert "ApplyMomentum(%fc.weight, %moments.fc.weight, %learning_rate," in text
    assert g.nodes[-1].op == "Depend"


def test_with_eval_cell():
    net = Net()
    eval_net = nn.WithEvalCell(net, nn.MSELoss())
    loss, out, label = eval_net(X, Y)
    np.testing.assert_allclose(out.asnumpy(), net(X).asnumpy())
    assert label is Y or np.array_equal(label.asnumpy(), Y.asnumpy())
    np.testing.assert_allclose(loss.asnumpy(), ((out.asnumpy() - Y.asnumpy()) ** 2).mean(), rtol=1e-6)
    loss16, _, _ = nn.WithEvalCell(net, nn.MSELoss(), add_cast_fp32=True)(X, Y)
    assert loss16.dtype == ms.float32


# ---- loss scaling -------------------------------------------------------------------------------
class Linear(nn.Cell):
    """loss = sum(w * x): the gradient of w is x, exactly, so overflow is easy to provoke with x = inf."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0, 3.0], f32)), name="w")

    def construct(self, x):
        return ops.reduce_sum(self.w * x)


CLEAN = Tensor(np.array([1.0, 1.0, 1.0], f32))
INF = Tensor(np.array([1.0, np.inf, 1.0], f32))


def scale_cell(update_cell, opt=None):
    net = Linear()
    opt = opt(net.trainable_params()) if opt else nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, opt, nn.TrainOneStepWithLossScaleCell(net, opt, scale_sense=update_cell)


@pytest.mark.parametrize("mode", BOTH)
def test_fixed_loss_scale_matches_plain_training(mode):
    with in_mode(mode):
        net, _, cell = scale_cell(nn.FixedLossScaleUpdateCell(1024.0))
        ref = Linear()
        plain = nn.TrainOneStepCell(ref, nn.Momentum(ref.trainable_params(), 0.1, 0.9))
        for _ in range(2):
            loss, overflow, scale = cell(CLEAN)
            plain(CLEAN)
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 1024.0
    np.testing.assert_allclose(net.w.asnumpy(), ref.w.asnumpy(), rtol=1e-6)


def run_dynamic(mode, inputs, scale=16.0, window=2):
    with in_mode(mode), np.errstate(all="ignore"):
        net, opt, cell = scale_cell(nn.DynamicLossScaleUpdateCell(scale, 2, window))
        out = []
        for x in inputs:
            w = net.w.asnumpy()
            m = opt.moments[0].asnumpy()
            _, overflow, used = cell(x)
            out.append((bool(overflow.asnumpy()), float(used.asnumpy()), not np.array_equal(w, net.w.asnumpy()),
                        not np.array_equal(m, opt.moments[0].asnumpy())))
        return out, float(cell.scale_sense.asnumpy()), net.w.asnumpy()


def test_dynamic_loss_scale_overflow_skips_and_halves_then_grows():
    seq = [CLEAN, CLEAN, INF, CLEAN, CLEAN, CLEAN]
    results = {}
    for mode in BOTH:
        results[mode] = run_dynamic(mode, seq)
    steps, final, _ = results[ms.PYNATIVE_MODE]
    # (overflow, scale used this step, weights changed, momentum changed)
    assert steps == [(False, 16.0, True, True), (False, 16.0, True, True), (True, 32.0, False, False),
                     (False, 16.0, True, True), (False, 16.0, True, True), (False, 32.0, True, True)]
    assert final == 32.0
    steps_g, final_g, w_g = results[ms.GRAPH_MODE]
    assert steps_g == steps and final_g == final
    np.testing.assert_array_equal(w_g, results[ms.PYNATIVE_MODE][2])


@pytest.mark.parametrize("mode", BOTH)
def test_scale_never_drops_below_one(mode):
    steps, final, _ = run_dynamic(mode, [INF, INF], scale=1.5, window=100)
    assert [s[:3] for s in steps] == [(True, 1.5, False), (True, 1.0, False)]
    assert final == 1.0


@pytest.mark.parametrize("mode", BOTH)
def test_loss_scale_with_a_tensor_still_skips_overflow(mode):
    with in_mode(mode), np.errstate(all="ignore"):
        net, _, cell = scale_cell(Tensor(np.array([8.0], f32)))
        _, overflow, scale = cell(INF)
        assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 8.0
        np.testing.assert_array_equal(net.w.asnumpy(), [1.0, 2.0, 3.0])
        cell.set_sense_scale(Tensor(np.array(4.0, f32)))
        _, overflow, scale = cell(CLEAN)
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 4.0
    assert not np.array_equal(net.w.asnumpy(), [1.0, 2.0, 3.0])


def test_loss_scale_graph_has_the_optimizer_selects():
    _, _, cell = scale_cell(nn.DynamicLossScaleUpdateCell(16.0, 2, 2))
    g = ms.trace(cell, CLEAN)
    opt_ops = [n.op for n in g.nodes if n.phase == "optimizer"]
    assert "Select" in opt_ops and "Assign" in opt_ops


# ---- gradient reduction, amp ----------------------------------------------------------------------
def test_distributed_grad_reducer_mean_divides_by_degree():
    params = Net().trainable_params()
    grads = tuple(Tensor(np.full(p.shape, 6.0, f32)) for p in params)
    out = nn.DistributedGradReducer(params, mean=True, degree=3)(grads)
    assert all(np.allclose(g.asnumpy(), 2.0) for g in out)
    out = nn.DistributedGradReducer(params, mean=False, degree=3)(grads)
    assert all(np.allclose(g.asnumpy(), 6.0) for g in out)
    with pytest.raises(ValueError):
        nn.DistributedGradReducer(params, degree=0)


def test_distributed_grad_reducer_mean_none_reads_gradients_mean_from_the_context():
    params = Net().trainable_params()  # MindSpore 2.10: mean=None is the context's gradients_mean (default False)
    assert nn.DistributedGradReducer(params, degree=3).mean is False
    context.set_auto_parallel_context(gradients_mean=True)
    try:
        assert nn.DistributedGradReducer(params, degree=3).mean is True
    finally:
        context.reset_auto_parallel_context()


def test_data_parallel_context_uses_the_reducer():
    context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                      device_num=1)
    try:
        net, _, train = train_net()
        assert isinstance(train.grad_reducer, nn.DistributedGradReducer)
    finally:
        context.reset_auto_parallel_context()
    ref, _, plain = train_net()
    train(X, Y)
    plain(X, Y)
    np.testing.assert_allclose(net.fc.weight.asnumpy(), ref.fc.weight.asnumpy(), rtol=1e-6)


def test_amp_scalers_and_all_finite():
    s = amp.StaticLossScaler(8.0)
    np.testing.assert_allclose(s.scale(Tensor(np.array(2.0, f32))).asnumpy(), 16.0)
    un = s.unscale((Tensor(np.array([16.0], f32)), Tensor(np.array([8.0], f32))))
    assert [float(t.asnumpy()[0]) for t in un] == [2.0, 1.0]
    assert bool(amp.all_finite((CLEAN, CLEAN)).asnumpy())
    assert not bool(amp.all_finite((CLEAN, INF)).asnumpy())
    assert not bool(amp.all_finite(Tensor(np.array([np.nan], f32))).asnumpy())
    d = amp.DynamicLossScaler(scale_value=16.0, scale_factor=2, scale_window=2)
    for finite, want in [(True, 16.0), (True, 32.0), (False, 16.0), (True, 16.0), (True, 32.0)]:
        d.adjust(Tensor(np.array(finite)))
        assert float(d.scale_value.asnumpy()) == want
    mgr = amp.DynamicLossScaleManager(2 ** 10, 2, 100)
    assert isinstance(mgr.get_update_cell(), nn.DynamicLossScaleUpdateCell)
    assert amp.FixedLossScaleManager(128, drop_overflow_update=False).get_update_cell() is None


# ---- HyperMap, MultitypeFuncGraph, partial --------------------------------------------------------
def test_multitype_func_graph_dispatches_on_kinds():
    add = ops.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def _(x, y):
        return ("numbers", x + y)

    @add.register("Tensor", "Tensor")
    def _(x, y):
        return ("tensors", ops.add(x, y))

    assert add(1, 2) == ("numbers", 3)
    kind, t = add(CLEAN, CLEAN)
    assert kind == "tensors" and t.asnumpy().tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(TypeError, match="no function registered for \\(Number, Tensor\\)"):
        add(1, CLEAN)


def test_hyper_map_and_partial():
    scale = ops.MultitypeFuncGraph("scale")

    @scale.register("Number", "Tensor")
    def _(k, t):
        return t * k

    hm = ops.HyperMap()
    out = hm(ops.partial(scale, 2.0), (CLEAN, (CLEAN, CLEAN)))
    assert isinstance(out, tuple) and out[0].asnumpy().tolist() == [2.0, 2.0, 2.0]
    assert isinstance(out[1], tuple) and out[1][1].asnumpy().tolist() == [2.0, 2.0, 2.0]
    pairs = ops.HyperMap(ops.add)((CLEAN, CLEAN), (CLEAN, CLEAN))
    assert [p.asnumpy().tolist() for p in pairs] == [[2.0] * 3] * 2
    with pytest.raises(ValueError, match="different lengths"):
        hm(ops.add, (CLEAN,), (CLEAN, CLEAN))
    assert ops.Map()(lambda a: a, (1, 2)) == (1, 2)
