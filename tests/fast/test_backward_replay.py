"""PYNATIVE backward replay (mslab.fast.backward_replay): a repeated step's backward, compiled once, gives
bit for bit what the bprop rules give one by one, and never hides what a learner (or a hook) watches."""
import contextlib
import weakref

import numpy as np
import pytest

import mslab
from mslab import Parameter, Tensor, fast, nn, ops
from mslab.core import hooks
from mslab.fast import backward_replay
from mslab.fast.backward_replay import BackwardPlans
from mslab.ops.primitive import Primitive

pytestmark = pytest.mark.skipif(not fast.enabled(), reason="the speed layer is off (MSLAB_PLAIN)")


@pytest.fixture(autouse=True)
def _pynative():
    mslab.set_context(mode=mslab.PYNATIVE_MODE)
    yield


@contextlib.contextmanager
def rule_by_rule():
    """Inside the block no backward is replayed: every rule runs on its own (the rest of the speed layer stays)."""
    saved, hooks.backward_replay = hooks.backward_replay, None
    try:
        yield
    finally:
        hooks.backward_replay = saved


def _plans(train):
    """The compiled backwards of a TrainOneStepCell's gradient function."""
    return train.grad_with_loss._last.kept.get("backward_plans")


class _ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.drop = nn.Dropout(p=0.3)
        self.flat = nn.Flatten()
        self.fc = nn.Dense(4 * 3 * 3, 3)

    def construct(self, x):
        h = self.pool(self.relu(self.bn(self.conv(x))))
        return self.fc(self.drop(self.flat(h)))


class _SliceNet(nn.Cell):
    """Slices (constant arguments Python 3.11 cannot hash) and a tensor used twice (its gradients add up)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)

    def construct(self, x):
        h = self.fc(x)
        return h[:, 0:2] * h[:, 2:4] + h[:, 1:3]


def _train(make_net, loss, x, y, steps):
    mslab.set_seed(7)
    net = make_net()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    train.set_train()
    losses = [train(x, y).asnumpy().item() for _ in range(steps)]
    return train, losses, {p.name: p.asnumpy().copy() for p in net.trainable_params()}


_rng = np.random.default_rng(0)
CASES = {
    "dense": (lambda: nn.Dense(3, 2), nn.MSELoss(), Tensor(_rng.standard_normal((8, 3)).astype(np.float32)),
              Tensor(_rng.standard_normal((8, 2)).astype(np.float32))),
    "conv_bn_dropout": (_ConvNet, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                        Tensor(_rng.standard_normal((6, 1, 8, 8)).astype(np.float32)),
                        Tensor(np.array([0, 1, 2, 0, 1, 2], np.int32))),
    "slices": (_SliceNet, nn.MSELoss(), Tensor(_rng.standard_normal((5, 4)).astype(np.float32)),
               Tensor(_rng.standard_normal((5, 2)).astype(np.float32))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_replayed_training_run_equals_the_rule_by_rule_run_bit_for_bit(case):
    make_net, loss, x, y = CASES[case]
    train, losses, weights = _train(make_net, loss, x, y, steps=6)
    plans = _plans(train)
    assert len(plans.plans) == 1 and all(p is not backward_replay._UNREPLAYABLE for p in plans.plans.values())
    with rule_by_rule():
        train_ref, losses_ref, weights_ref = _train(make_net, loss, x, y, steps=6)
    assert _plans(train_ref) is None
    assert losses == losses_ref
    for name in weights:
        np.testing.assert_array_equal(weights[name], weights_ref[name], err_msg=name)


def test_the_plan_is_compiled_the_second_time_a_structure_is_met_and_run_from_then_on(monkeypatch):
    runs = []
    real_run = backward_replay._Plan.run
    monkeypatch.setattr(backward_replay._Plan, "run", lambda self, *a: runs.append(1) or real_run(self, *a))
    make_net, loss, x, y = CASES["dense"]
    train, _, _ = _train(make_net, loss, x, y, steps=1)
    assert not _plans(train).plans and not runs  # met once: rule by rule
    train(x, y)
    assert len(_plans(train).plans) == 1 and len(runs) == 1  # met again: compiled, and this step replays it
    train(x, y)
    assert len(runs) == 2


def test_each_batch_size_is_a_structure_with_its_own_plan():
    make_net, loss, x, y = CASES["dense"]
    net_with_loss = nn.WithLossCell(make_net(), loss)
    weights = net_with_loss.trainable_params()
    replayed = mslab.grad(net_with_loss, grad_position=None, weights=weights)
    reference = mslab.grad(net_with_loss, grad_position=None, weights=weights)
    batches = [(x, y), (Tensor(x.asnumpy()[:4]), Tensor(y.asnumpy()[:4]))]
    for i in range(8):
        a, b = batches[i % 2]
        with rule_by_rule():
            expected = reference(a, b)
        for g, e in zip(replayed(a, b), expected):
            np.testing.assert_array_equal(g.asnumpy(), e.asnumpy())
    assert len(replayed.kept["backward_plans"].plans) == 2


def test_under_record_the_backward_primitives_run_and_are_recorded_on_every_step():
    make_net, loss, x, y = CASES["dense"]
    train, _, _ = _train(make_net, loss, x, y, steps=4)  # replaying by now
    with mslab.record() as tape:
        train(x, y)
    ops_seen = [n.prim.name for n in tape.graph.nodes if n.phase == "backward"]
    assert "MatMul" in ops_seen and "BiasAddGrad" in ops_seen


def test_a_backward_hook_runs_on_every_step():
    seen = []

    class Hooked(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)
            self.hook = ops.HookBackward(lambda grads: seen.append(grads[0].shape))

        def construct(self, x):
            return self.hook(self.fc(x))

    _, loss, x, y = CASES["dense"]
    train, _, _ = _train(Hooked, loss, x, y, steps=5)
    assert len(seen) == 5
    assert not _plans(train).plans  # a structure with a hook in it is never compiled


def test_a_cells_own_bprop_runs_on_every_step():
    calls = []

    class Doubled(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            calls.append(1)
            return (dout * 2,)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc, self.double = nn.Dense(3, 2), Doubled()

        def construct(self, x):
            return self.double(self.fc(x))

    _, loss, x, y = CASES["dense"]
    _train(Net, loss, x, y, steps=4)
    assert len(calls) == 4


def test_a_gradient_of_a_gradient_stays_right_when_called_again():
    def cube(x):
        return (x * x * x).sum()

    second = mslab.grad(mslab.grad(cube))
    x = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
    for _ in range(4):
        np.testing.assert_allclose(second(x).asnumpy(), 6 * x.asnumpy(), rtol=1e-6)


def test_a_rule_that_needs_numbers_keeps_its_structure_on_the_rule_by_rule_path():
    class Clipped(Primitive):
        """An identity whose bprop reads the gradient's numbers (so it cannot be traced)."""

        bprop_replayable = True  # claimed; the trace fails and the structure falls back

        def infer(self, x):
            return tuple(x.shape), x.dtype

        def compute(self, x):
            return x

        def bprop(self, x, out, dout, needs):
            return (Tensor(np.clip(dout.asnumpy(), -0.1, 0.1)),)

    clip = Clipped()
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    fn = mslab.value_and_grad(lambda x: (clip(x * w) * 3).sum(), grad_position=None, weights=w)
    x = Tensor(np.array([1.0, 1.0], np.float32))
    for _ in range(3):
        np.testing.assert_allclose(fn(x)[1].asnumpy(), [0.1, 0.1])
    assert list(fn.kept["backward_plans"].plans.values()) == [backward_replay._UNREPLAYABLE]


def test_primitives_made_outside_mslab_are_not_replayed_unless_they_say_so():
    class Mine(Primitive):
        pass

    assert Mine.bprop_replayable is False
    assert ops.MatMul.bprop_replayable is True
    assert ops.Custom.bprop_replayable is False


def test_a_new_primitive_on_every_call_gives_up_on_keys_and_stays_right(monkeypatch):
    monkeypatch.setattr(backward_replay, "MISSES_BEFORE_GIVING_UP", 5)
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    fn = mslab.grad(lambda x: ops.ReduceSum()(ops.Mul()(x, w)), grad_position=None, weights=w)
    x = Tensor(np.array([3.0, 4.0], np.float32))
    for _ in range(8):
        np.testing.assert_array_equal(fn(x).asnumpy(), [3.0, 4.0])
    assert fn.kept["backward_plans"].given_up and not fn.kept["backward_plans"].plans


def test_a_replayed_step_keeps_no_activation_alive():
    kept = []

    class Spy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)

        def construct(self, x):
            h = self.fc(x)
            kept.append(weakref.ref(h._data))
            return h

    _, loss, x, y = CASES["dense"]
    train, _, _ = _train(Spy, loss, x, y, steps=4)
    assert isinstance(_plans(train), BackwardPlans) and _plans(train).plans
    assert all(r() is None for r in kept)


def test_more_structures_in_turn_than_plans_kept_stop_the_compiling(monkeypatch):
    monkeypatch.setattr(backward_replay, "PLANS_KEPT", 2)
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    fn = mslab.grad(lambda x: (x * w).sum(), grad_position=None, weights=w)
    xs = [Tensor(np.ones((n, 2), np.float32)) for n in range(1, 6)]  # five batch sizes, in turn
    for i in range(40):
        x = xs[i % 5]
        np.testing.assert_array_equal(fn(x).asnumpy(), [x.shape[0]] * 2)
    assert fn.kept["backward_plans"].given_up and fn.kept["backward_plans"].compiles == 2
