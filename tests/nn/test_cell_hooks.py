"""Cell attributes and forward hooks (register_forward_pre_hook / register_forward_hook, always-call hooks).

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 1)
        self.seq = nn.SequentialCell([nn.Dense(1, 1), nn.ReLU()])

    def construct(self, x):
        return self.seq(self.fc(x))


def test_cell_attributes():
    net = _Net()
    # observed on MindSpore 2.10 CPU (there the class was named Net, and cls_name was "Net")
    assert (net.cls_name, net.fc.cls_name, net.seq.cls_name) == ("_Net", "Dense", "SequentialCell")
    assert (net.param_prefix, net.fc.param_prefix) == ("", "")
    net.update_cell_prefix()
    assert [net.param_prefix, net.fc.param_prefix, net.seq.param_prefix, net.seq[0].param_prefix] == \
        ["", "fc", "seq", "seq.0"]
    assert net.get_flags() == {}
    net.add_flags(a=1)
    assert net.get_flags() == {"a": 1}
    assert net.cell_type is None
    net.update_cell_type("abc")
    assert net.cell_type == "abc"
    seen = []
    assert net.apply(lambda c: seen.append(c.cls_name)) is net
    assert seen == ["Dense", "Dense", "ReLU", "SequentialCell", "_Net"]  # children first, as MindSpore


class _HookNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(x) * 2


def test_forward_hooks_pynative(capsys):
    net = _HookNet()
    x = Tensor(np.array([[1.0, 2.0]], np.float32))

    def pre(cell, inputs):
        print("pre", cell.cls_name, [i.shape for i in inputs])
        return (inputs[0] + 1,)

    def post(cell, inputs, output):
        print("post", cell.cls_name, output.asnumpy().tolist())
        return output * 10

    h1, h2 = net.fc.register_forward_pre_hook(pre), net.fc.register_forward_hook(post)
    assert net(x).asnumpy().tolist() == [[100.0]]
    assert type(h1).__name__ == "HookHandle"
    h1.remove()
    h2.remove()
    assert net(x).asnumpy().tolist() == [[6.0]]
    net.fc.register_forward_hook(post)
    assert ms.grad(net)(x).asnumpy().tolist() == [[20.0, 20.0]]  # the gradient flows through the hook
    # observed on MindSpore 2.10 CPU: the same lines and numbers
    assert capsys.readouterr().out.splitlines() == ["pre Dense [(1, 2)]", "post Dense [[5.0]]", "post Dense [[3.0]]"]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_forward_hooks_in_both_modes(mode):
    ms.set_context(mode=mode)
    try:
        net = _HookNet()
        x = Tensor(np.array([[1.0, 2.0]], np.float32))
        h1 = net.fc.register_forward_pre_hook(lambda cell, inputs: (inputs[0] + 1,))
        h2 = net.fc.register_forward_hook(lambda cell, inputs, output: output * 10)
        assert net(x).asnumpy().tolist() == [[100.0]]  # observed on MindSpore 2.10 CPU, both modes
        h3 = net.fc.register_forward_hook(lambda cell, args, kwargs, output: output - 1, with_kwargs=True,
                                          prepend=True)
        # PYNATIVE on MindSpore 2.10: [[80.]] (its GRAPH mode kept the graph compiled before h3: [[100.]])
        assert net(x).asnumpy().tolist() == [[80.0]]
        for h in (h1, h2, h3):
            h.remove()
        assert net(x).asnumpy().tolist() == [[6.0]]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_always_call_hook_runs_when_construct_raises():
    class Broken(nn.Cell):
        def construct(self, x):
            raise ValueError("broken")

    seen = []
    net = Broken()
    net.register_forward_hook(lambda cell, args, output: seen.append(output), always_call=True)
    with pytest.raises(ValueError, match="broken"):
        net(Tensor(np.ones(1, np.float32)))
    assert seen == [None]
