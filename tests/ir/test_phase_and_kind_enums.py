"""Phases, value kinds and step stages are enums whose members are their strings, and print as them."""
import numpy as np

import mslab as ms
from mslab import nn
from mslab.ir.graph import BACKWARD, Phase, ValueKind
from mslab.lab.stages import STAGES, StepStage


def test_members_are_their_strings():
    assert Phase.BACKWARD == "backward" and BACKWARD is Phase.BACKWARD
    assert {"backward": 1}[Phase.BACKWARD] == 1  # same hash as the string
    assert ValueKind("param") is ValueKind.PARAM
    assert [str(p) for p in Phase] == ["forward", "backward", "optimizer", "other"]


def test_members_print_as_their_strings():
    for member in (Phase.FORWARD, ValueKind.CONST, StepStage.GRAD_REDUCE):
        assert str(member) == f"{member}" == f"{member:}" == member.value
        assert repr(member) == repr(member.value)
    assert f"{Phase.OTHER:>8}|" == "   other|"


def test_stages_in_run_order():
    assert STAGES == ("forward", "sens", "backward", "grad reduce", "optimizer", "return")


def test_recorded_graphs_carry_members():
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    graph = ms.trace(net, ms.Tensor(np.ones((4, 3), np.float32)))
    assert {type(n.phase) for n in graph.nodes} == {Phase}
    assert [v.kind for v in graph.inputs + graph.params] == [ValueKind.INPUT] + [ValueKind.PARAM] * 2
    assert "# forward" in graph.text()
