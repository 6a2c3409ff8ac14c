"""The plain path is the path: one training step, with the speed layer off, runs through the files the lessons name.

A call profiler (``sys.setprofile``) watches one ``TrainOneStepCell`` step, the README's first taste, and lists the
Python functions it entered. With ``ms.lab.plain()`` a PYNATIVE step must go primitive -> tape -> ``backprop`` ->
the bprop rule of every primitive the forward ran, on every step (not only the first); a GRAPH step must go
trace -> autodiff -> passes -> executor. With the speed layer on, the same PYNATIVE step replays its backward
instead: the contrast shows the switch is what decides.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import mslab as ms
from mslab import fast, nn

MSLAB = Path(ms.__file__).resolve().parent


def _first_taste():
    ms.set_seed(0)
    net = nn.Dense(1, 1)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    x = ms.Tensor(np.linspace(-1, 1, 16, dtype=np.float32).reshape(16, 1))
    return train, x, 2 * x + 3


def _walk(fn):
    """``(files, functions)`` entered while ``fn()`` runs: paths relative to mslab/, and (path, qualname) pairs."""
    calls = set()

    def profile(frame, event, arg):
        if event == "call":
            path = Path(frame.f_code.co_filename)
            if path.is_relative_to(MSLAB):
                calls.add((path.relative_to(MSLAB).as_posix(), frame.f_code.co_qualname))

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return {f for f, _ in calls}, calls


def _forward_primitives(train, x, y):
    """The primitives of the forward a step differentiates: its loss network's."""
    with ms.record() as tape:  # mslab only: the primitives that run, as a graph
        train.network(x, y)
    return {type(n.prim) for n in tape.graph.nodes}


@pytest.fixture
def pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_plain_pynative_step_runs_tape_backprop_and_every_rule(pynative):
    train, x, y = _first_taste()
    with ms.lab.plain():
        train(x, y)  # a first step: a speed layer would compile its backward on the second sighting
        train(x, y)
        files, functions = _walk(lambda: train(x, y))
        used = _forward_primitives(train, x, y)
    for f in ["nn/cell.py", "ops/primitive.py", "ir/tape.py", "autodiff/grad_operation.py", "autodiff/backprop.py",
              "nn/optim/momentum.py"]:
        assert f in files, f
    assert not any(f.startswith("fast/") for f in files), sorted(f for f in files if f.startswith("fast/"))
    rules = {q.split(".")[0] for _, q in functions if q.endswith(".bprop")}
    differentiable = {p.__name__ for p in used if p.differentiable}
    assert {"MatMul", "BiasAdd"} <= differentiable
    missing = differentiable - rules - _inherited_rules(used, rules)
    assert not missing, f"bprop rules not run on a plain step: {sorted(missing)}"


def _inherited_rules(used, rules):
    """Primitives whose rule is defined on a base class that ran (TensorAdd runs Add.bprop)."""
    return {p.__name__ for p in used if any(b.__name__ in rules and "bprop" in vars(b) for b in p.__mro__[1:])}


def test_with_the_speed_layer_the_same_step_replays_its_backward(pynative):
    train, x, y = _first_taste()
    was = fast.enabled()
    fast.set_enabled(True)  # also when the suite runs with MSLAB_PLAIN=1
    try:
        train(x, y)
        train(x, y)
        files, _ = _walk(lambda: train(x, y))
    finally:
        fast.set_enabled(was)
    assert "fast/backward_replay.py" in files
    assert "autodiff/backprop.py" not in files


def test_a_plain_graph_step_traces_differentiates_passes_and_executes():
    train, x, y = _first_taste()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with ms.lab.plain():
            files, _ = _walk(lambda: train(x, y))  # the first call compiles
            again, _ = _walk(lambda: train(x, y))  # later calls run the compiled graph
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for f in ["ir/tracer.py", "ir/frontend.py", "autodiff/backprop.py", "ir/passes.py", "runtime/executor.py",
              "runtime/compiled.py"]:
        assert f in files, f
    assert "fast/fusion.py" not in files
    assert "autodiff/backprop.py" not in again and "runtime/compiled.py" in again
