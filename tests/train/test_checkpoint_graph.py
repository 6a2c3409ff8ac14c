"""ModelCheckpoint writes the graph file once in GRAPH mode and none in PYNATIVE mode.

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np

import mslab as ms
from mslab import nn


def _train_with_checkpoints(directory, mode):
    import mslab.dataset as ds
    from mslab import Model
    from mslab.train.callback import CheckpointConfig, ModelCheckpoint
    ms.set_context(mode=mode)
    try:
        x = np.random.RandomState(0).randn(8, 2).astype(np.float32)
        data = ds.NumpySlicesDataset({"x": x, "y": x.sum(1, keepdims=True)}, shuffle=False).batch(4)
        net = nn.Dense(2, 1)
        model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
        cfg = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=3)
        model.train(2, data, callbacks=[ModelCheckpoint(prefix="lin", directory=str(directory), config=cfg)])
        first = sorted(p.name for p in directory.iterdir())
        model.train(1, data, callbacks=[ModelCheckpoint(prefix="lin", directory=str(directory), config=cfg)])
        return first, sorted(p.name for p in directory.iterdir())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_model_checkpoint_writes_the_graph_once_in_graph_mode(tmp_path):
    first, second = _train_with_checkpoints(tmp_path, ms.GRAPH_MODE)
    # observed on MindSpore 2.10 CPU: the same file names (its .meta holds a binary GraphProto)
    assert first == ["lin-1_2.ckpt", "lin-2_1.ckpt", "lin-2_2.ckpt", "lin-graph.meta"]
    assert second == first + ["lin_1-1_1.ckpt", "lin_1-1_2.ckpt", "lin_1-graph.meta"]
    meta = tmp_path / "lin-graph.meta"
    assert meta.stat().st_mode & 0o777 == 0o600
    text = meta.read_text()
    assert text.startswith("# mslab IR: the graph GRAPH mode compiled for TrainOneStepCell")
    assert "graph TrainOneStepCell(%data: f32[4, 2], %label: f32[4, 1])" in text
    assert "MatMul(%data, %weight)" in text and "SGD(%weight, " in text  # nn.SGD: one SGD node per weight


def test_model_checkpoint_writes_no_graph_in_pynative_mode(tmp_path):
    first, second = _train_with_checkpoints(tmp_path, ms.PYNATIVE_MODE)
    assert first == ["lin-1_2.ckpt", "lin-2_1.ckpt", "lin-2_2.ckpt"]  # observed on MindSpore 2.10 CPU
    assert second == first + ["lin_1-1_1.ckpt", "lin_1-1_2.ckpt"]
