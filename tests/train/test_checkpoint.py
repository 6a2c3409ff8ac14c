"""Checkpoints: round trip, atomic writes, checked loads that change nothing on error.

MindSpore's own files, damaged files and crashes are in train/test_checkpoint_files.py.
"""
import os

import numpy as np
import pytest

import mslab as ms
import mslab.nn as nn
from mslab import Parameter, Tensor
from mslab.train import serialization


class Net(nn.Cell):
    def __init__(self, out=2, seed=0):
        super().__init__()
        r = np.random.default_rng(seed)
        self.fc = nn.Dense(3, out, Tensor(r.standard_normal((out, 3)).astype(np.float32)),
                           Tensor(r.standard_normal(out).astype(np.float32)))
        self.step = Parameter(Tensor(np.array([seed], np.int32)), name="step", requires_grad=False)

    def construct(self, x):
        return self.fc(x)


def test_round_trip(tmp_path):
    net = Net(seed=1)
    path = tmp_path / "net"
    ms.save_checkpoint(net, str(path), append_dict={"epoch_num": 3})
    assert (tmp_path / "net.ckpt").exists()
    params = ms.load_checkpoint(str(tmp_path / "net.ckpt"))
    assert list(params) == ["step", "fc.weight", "fc.bias", "epoch_num"]
    assert isinstance(params["fc.weight"], Parameter) and params["fc.weight"].name == "fc.weight"
    # a checkpoint holds no requires_grad: loaded Parameters are trainable, as in MindSpore
    assert params["step"].dtype == ms.int32 and params["step"].requires_grad
    other = Net(seed=2)
    not_loaded, ckpt_not_loaded = ms.load_param_into_net(other, params)
    assert not_loaded == [] and ckpt_not_loaded == ["epoch_num"]
    for a, b in zip(net.get_parameters(), other.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    assert float(params["epoch_num"].asnumpy()) == 3


def test_lists_dicts_filters_and_training_state(tmp_path):
    path = str(tmp_path / "l.ckpt")
    ms.save_checkpoint([{"name": "a", "data": Tensor(np.ones(2, np.float32))}, Parameter(Tensor(2.0), name="b")], path)
    assert sorted(ms.load_checkpoint(path)) == ["a", "b"]
    assert list(ms.load_checkpoint(path, filter_prefix="a")) == ["b"]
    assert list(ms.load_checkpoint(path, specify_prefix="a")) == ["a"]
    net = Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    ms.save_checkpoint(train, path)
    names = list(ms.load_checkpoint(path))
    assert "moments.fc.weight" in names and "fc.weight" in names
    with pytest.raises(ValueError, match="unique"):
        ms.save_checkpoint([Parameter(Tensor(1.0), name="x"), Parameter(Tensor(1.0), name="x")], path)


def test_load_into_net_directly(tmp_path):
    path = str(tmp_path / "n.ckpt")
    ms.save_checkpoint(Net(seed=4), path)
    net = Net(seed=5)
    ms.load_checkpoint(path, net=net)
    assert net.step.asnumpy().tolist() == [4]


def test_failure_mid_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = str(tmp_path / "keep.ckpt")
    ms.save_checkpoint(Net(seed=1), path)
    before = open(path, "rb").read()

    def broken(f, entries, crc_check=False):
        f.write(b"half a checkpoint")
        raise OSError("disk full")

    monkeypatch.setattr(serialization, "write_ckpt", broken)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint(Net(seed=2), path)
    assert open(path, "rb").read() == before
    assert os.listdir(tmp_path) == ["keep.ckpt"]  # no temporary file left behind
    monkeypatch.undo()
    assert ms.load_checkpoint(path)["step"].asnumpy().tolist() == [1]


def test_mismatch_raises_and_changes_nothing(tmp_path):
    path = str(tmp_path / "m.ckpt")
    ms.save_checkpoint(Net(out=4, seed=1), path)
    net = Net(out=2, seed=2)
    before = [p.asnumpy() for p in net.get_parameters()]
    with pytest.raises(RuntimeError, match=r"fc\.weight.*\(2, 3\).*\(4, 3\)"):
        ms.load_checkpoint(path, net=net)
    for b, p in zip(before, net.get_parameters()):
        np.testing.assert_array_equal(b, p.asnumpy())  # 'step' matched but was not written either
    params = {"fc.weight": Parameter(Tensor(np.zeros((2, 3), np.int32)), name="fc.weight")}
    with pytest.raises(RuntimeError, match="Int32"):
        ms.load_param_into_net(net, params)
    half = {"fc.weight": Parameter(Tensor(np.zeros((2, 3), np.float16)), name="fc.weight"),
            "fc.bias": Parameter(Tensor(np.zeros(2, np.float32)), name="fc.bias")}
    with pytest.warns(UserWarning, match="type convert from Float16 to Float32"), \
            pytest.warns(UserWarning, match=r"\['step'\] are not loaded"):
        ms.load_param_into_net(net, half)  # float16 -> float32 is converted unless strict_load
    assert net.fc.weight.dtype == ms.float32 and not net.fc.weight.asnumpy().any()
    with pytest.raises(RuntimeError, match="Float16"):
        ms.load_param_into_net(net, half, strict_load=True)
    with pytest.raises(TypeError, match="should be a 'str' and 'Parameter'"):  # as MindSpore: no bare Tensors
        ms.load_param_into_net(net, {"fc.bias": Tensor(np.zeros(2, np.float32))})
