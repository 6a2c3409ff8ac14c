"""TrainStepSession: stepping through one training step gives exactly what a plain call gives."""
import numpy as np
import pytest

import mslab as ms
from mslab import context
from mslab.common.tensor import ParameterTuple
from mslab.lab.stepping import (
    BACKWARD_S,
    FORWARD_S,
    GRAD_REDUCE,
    OPTIMIZER_S,
    RETURN,
    SENS,
    TrainStepSession,
)
from mslab.ops import GradOperation
from mslab.testing.modes import in_mode

MODES = [pytest.param(context.GRAPH_MODE, id="graph"), pytest.param(context.PYNATIVE_MODE, id="pynative")]


def data():
    r = np.random.RandomState(7)
    return ms.Tensor(r.randn(5, 3).astype(np.float32)), ms.Tensor(r.randn(5, 2).astype(np.float32))


def params(cell):
    return {p.name: p._data.copy() for p in cell.get_parameters()}


def assert_same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("opt", ["momentum", "adam", "sgd"])
def test_stepping_to_the_end_equals_one_plain_call(mode, opt, make_train_step):
    context.set_context(mode=mode)
    x, y = data()
    plain = make_train_step(opt)
    loss = plain(x, y).asnumpy()
    cell = make_train_step(opt)
    s = TrainStepSession(cell, x, y)
    while not s.done:
        s.next_stage()
    assert_same(params(cell), params(plain))  # bit for bit, optimizer state included
    np.testing.assert_array_equal(s.loss, loss)


@pytest.mark.parametrize("mode", MODES)
def test_node_by_node_equals_stage_by_stage(mode, make_train_step):
    context.set_context(mode=mode)
    x, y = data()
    a, b = make_train_step(), make_train_step()
    sa, sb = TrainStepSession(a, x, y), TrainStepSession(b, x, y)
    n = 0
    while not sa.done:
        sa.next_node()
        n += 1
    sb.run_to_end()
    assert n == len(sa.order)
    assert_same(params(a), params(b))


@pytest.mark.parametrize("mode", MODES)
def test_gradients_equal_grad_operation(mode, make_train_step):
    context.set_context(mode=mode)
    x, y = data()
    ref = make_train_step()
    weights = ParameterTuple(ref.network.trainable_params())
    sens = ms.Tensor(np.array(1.0, np.float32))
    expect = GradOperation(get_by_list=True, sens_param=True)(ref.network, weights)(x, y, sens)
    s = TrainStepSession(make_train_step(), x, y)
    s.next_stage().next_stage()
    assert all(g is None for g in s.gradients.values())  # not computed yet
    s.run_to_end()
    got = s.gradients
    assert list(got) == [w.name for w in weights]
    for w, e in zip(weights, expect):
        np.testing.assert_array_equal(got[w.name], e.asnumpy(), err_msg=w.name)


@pytest.mark.parametrize("mode", MODES)
def test_previous_restores_parameters(mode, make_train_step):
    context.set_context(mode=mode)
    x, y = data()
    cell = make_train_step()
    start = params(cell)
    s = TrainStepSession(cell, x, y)
    assert_same(params(cell), start)  # creating a session changes nothing (PYNATIVE undoes its recording)
    s.run_to_end()
    end = params(cell)
    assert any(not np.array_equal(end[k], start[k]) for k in start)
    s.previous()
    assert s.stage.name == OPTIMIZER_S
    s.previous()  # back before the optimizer: weights as they were
    assert s.stage.name in (GRAD_REDUCE, BACKWARD_S)
    assert_same(params(cell), start)
    assert s.gradients["fc1.weight"] is not None
    s.next_stage()
    s.next_stage()
    s.next_stage()
    assert s.done
    assert_same(params(cell), end)
    s.reset()
    assert s.position == 0 and s.stage is None and s.loss is None
    assert_same(params(cell), start)


@pytest.mark.parametrize("mode", MODES)
def test_half_way_through_the_optimizer(mode, make_train_step):
    context.set_context(mode=mode)
    x, y = data()
    plain = make_train_step()
    plain(x, y)
    cell = make_train_step()
    start = params(cell)
    s = TrainStepSession(cell, x, y)
    opt = s.stage_nodes(OPTIMIZER_S)
    s.goto(opt[len(opt) // 2].index + 1)
    now, after = params(cell), params(plain)
    assert np.array_equal(now["fc1.weight"], after["fc1.weight"])  # updated first
    assert np.array_equal(now["fc2.bias"], start["fc2.bias"])  # not yet
    s.previous_node()
    s.next_node()
    s.run_to_end()
    assert_same(params(cell), after)


def test_stages_graph_mode(make_train_step):
    context.set_context(mode=context.GRAPH_MODE)
    x, y = data()
    s = TrainStepSession(make_train_step(), x, y)
    assert [st.name for st in s.stages] == [FORWARD_S, SENS, BACKWARD_S, GRAD_REDUCE, OPTIMIZER_S, RETURN]
    assert [n.op for n in s.stage_nodes(SENS)] == ["Fill"]
    assert s.stage_nodes(SENS)[0] in s.folded  # computed when the graph was compiled
    assert [n.op for n in s.stage_nodes(RETURN)] == ["Depend"]
    assert all(n.phase == "backward" for n in s.stage_nodes(BACKWARD_S))
    assert s.stages[3].nodes == []  # one device: grad_reducer is the identity
    assert all(st.explanation for st in s.stages)
    assert repr(s) == "TrainStepSession(TrainOneStepCell, mode=GRAPH, nodes=26, position=0, stage='start')"


def test_stages_pynative_tape_has_one_forward_too(make_train_step):
    x, y = data()
    s = TrainStepSession(make_train_step(), x, y, mode=context.PYNATIVE_MODE)
    names = [st.name for st in s.stages]
    assert names == [FORWARD_S, SENS, BACKWARD_S, GRAD_REDUCE, OPTIMIZER_S, RETURN]
    assert sum(n.op == "MatMul" for n in s.stage_nodes(FORWARD_S)) == 2  # fc1, fc2: once each


@pytest.mark.parametrize("mode", MODES)
def test_values_are_real(mode, make_train_step):
    context.set_context(mode=mode)
    x, y = data()
    cell = make_train_step(sens=2.0)
    net = cell.network.backbone_network
    with in_mode(context.PYNATIVE_MODE):
        expect_out = net(x).asnumpy()
    s = TrainStepSession(cell, x, y)
    s.next_stage()
    logits = [n for n in s.stage_nodes(FORWARD_S) if n.scope.endswith("fc2")][-1]
    np.testing.assert_allclose(s.value(logits), expect_out, rtol=1e-6)
    assert s.sens is None
    s.next_stage()
    assert float(s.sens) == 2.0
    s.run_to_end()
    for name, (before, after, delta) in s.parameters.items():
        np.testing.assert_array_equal(after - before, delta, err_msg=name)
        assert not np.array_equal(before, after)


def test_not_a_training_step(two_layer_net):
    x, _ = data()
    with pytest.raises(ValueError, match="not a training step"):
        TrainStepSession(two_layer_net, x)


@pytest.mark.parametrize("mode", MODES)
def test_grad_reducer_is_its_own_stage(mode, make_train_step):
    context.set_context(mode=mode)
    context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True, device_num=1)
    try:
        x, y = data()
        plain = make_train_step()
        plain(x, y)
        cell = make_train_step()
        s = TrainStepSession(cell, x, y)
        reduce = s.stage_nodes(GRAD_REDUCE)
        assert reduce and all(n.scope == "grad_reducer" for n in reduce)
        s.run_to_end()
        assert_same(params(cell), params(plain))
        # the gradient shown is what the optimizer read: the reducer's output
        assert {g.node for g in s.grad_vs} <= set(reduce)
    finally:
        context.reset_auto_parallel_context()



@pytest.mark.parametrize("mode", MODES)
def test_session_starts_from_the_current_weights_after_outside_training(mode, make_train_step):
    """The network is trained after the session was made (a later cell under Run All): stepping must
    start from the weights as they are now, exactly like a plain call would."""
    context.set_context(mode=mode)
    x, y = data()
    cell = make_train_step()
    s = TrainStepSession(cell, x, y)
    cell(x, y)  # trained elsewhere
    twin = make_train_step()
    twin(x, y)
    loss = twin(x, y).asnumpy()  # the second step, from the same weights the session must now start from
    while not s.done:
        s.next_stage()
    assert_same(params(cell), params(twin))
    np.testing.assert_array_equal(s.loss, loss)
