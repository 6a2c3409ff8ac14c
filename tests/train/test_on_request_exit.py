"""Issue #19: train.callback.OnRequestExit. Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import os
import signal

import numpy as np
import pytest

import mslab as ms
from mslab import nn, train
from mslab.train.callback import OnRequestExit

W = np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], np.float32)


class _SignalAtStep2(train.Callback):
    def __init__(self):
        self.losses = []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.losses.append(float(cb.net_outputs.asnumpy()))
        if cb.cur_step_num == 2:
            os.kill(os.getpid(), signal.SIGTERM)


@pytest.mark.filterwarnings("ignore:export. mslab wrote its own graph text")  # the .mindir is mslab's text graph
@pytest.mark.parametrize("save_mindir", [False, True])
def test_signal_saves_at_the_end_without_stopping(tmp_path, save_mindir):
    np.random.seed(0)
    x = np.random.randn(8, 3).astype(np.float32)
    y = np.random.randn(8, 2).astype(np.float32)
    data = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2)
    net = nn.Dense(3, 2, weight_init=ms.Tensor(W), bias_init="zeros")
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    callback = OnRequestExit(directory=str(tmp_path), save_mindir=save_mindir)
    assert os.listdir(tmp_path) == ["rank_0"]  # observed: the folder exists once the callback is built
    kill = _SignalAtStep2()
    previous = signal.getsignal(signal.SIGTERM)
    try:
        model.train(1, data, callbacks=[callback, kill], dataset_sink_mode=False)
    finally:
        signal.signal(signal.SIGTERM, previous)
    # observed on MindSpore 2.10 CPU: all four steps run (3.4235198 1.6331518 1.3522692 0.85265577), exit True,
    # then rank_0 holds Net_train.ckpt (and Net_train.mindir with save_mindir)
    np.testing.assert_allclose(kill.losses, [3.4235198, 1.6331518, 1.3522692, 0.85265577], rtol=1e-6)
    assert callback.exit is True
    expected = ["Net_train.ckpt", "Net_train.mindir"] if save_mindir else ["Net_train.ckpt"]
    assert sorted(os.listdir(tmp_path / "rank_0")) == expected
    saved = ms.load_checkpoint(str(tmp_path / "rank_0" / "Net_train.ckpt"))
    np.testing.assert_allclose(saved["weight"].asnumpy(), [[0.3182816803455353, -0.24879425764083862,
                                                            0.08559980988502502],
                                                           [-0.027863873168826103, 0.1515076458454132,
                                                            -0.5104197263717651]], rtol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    # observed on MindSpore 2.10 CPU, each in its own process
    ({"save_ckpt": 1}, "The parameter 'save_ckpt' must be isinstance of <class 'bool'>, but got 1."),
    ({"sig": "x"}, "The parameter 'sig' must be isinstance of <class 'int'>, but got x."),
    ({"sig": signal.SIGKILL}, "Not support send exit request by signal SIGKILL."),
])
def test_on_request_exit_argument_errors(tmp_path, kwargs, message):
    with pytest.raises(ValueError) as err:
        OnRequestExit(directory=str(tmp_path), **kwargs)
    assert str(err.value) == message


# ---- profiler.DynamicProfilerMonitor ----------------------------------------------------------------------------
def test_dynamic_profiler_monitor_keeps_the_config_file(tmp_path, capsys):
    from mslab.profiler import DynamicProfilerMonitor
    from mslab.profiler.dynamic import DEFAULT_CONFIG

    with pytest.warns(UserWarning, match="collects nothing"):
        monitor = DynamicProfilerMonitor(cfg_path=str(tmp_path / "cfg"), output_path=str(tmp_path / "out"))
    path = tmp_path / "cfg" / "profiler_config.json"
    # observed on MindSpore 2.10 CPU: "[Dynamic Profiler] Init config json file: <cfg>/profiler_config.json"
    # and this file (start_step and stop_step -1: nothing is profiled)
    assert f"[Dynamic Profiler] Init config json file: {path}" in capsys.readouterr().out
    assert list(monitor.config()) == list(DEFAULT_CONFIG) and monitor.config()["start_step"] == -1
    assert DEFAULT_CONFIG["activities"] == ["CPU", "NPU"] and DEFAULT_CONFIG["prof_path"] == "./"
    assert [monitor.step() for _ in range(3)] == [None] * 3  # observed: step() returns None
    assert not (tmp_path / "out").exists()  # no window was set: MindSpore writes nothing either


def test_dynamic_profiler_monitor_needs_cfg_path():
    from mslab.profiler import DynamicProfilerMonitor

    # observed on MindSpore 2.10 CPU
    with pytest.raises(TypeError, match="If you set 'MSMONITOR_USE_DAEMON' to not 1, The cfg_path must be a string."):
        DynamicProfilerMonitor()
