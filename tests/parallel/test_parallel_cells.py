"""Issue #19: parallel.nn.Pipeline / GradAccumulation / MicroBatchInterleaved and load_distributed_checkpoint on
one CPU process. Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.parallel.nn import GradAccumulation, MicroBatchInterleaved, Pipeline

W = np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], np.float32)


def _data():
    np.random.seed(0)
    return (ms.Tensor(np.random.randn(4, 3).astype(np.float32)), ms.Tensor(np.random.randn(4, 2).astype(np.float32)))


def _loss_net():
    return nn.WithLossCell(nn.Dense(3, 2, weight_init=ms.Tensor(W), bias_init="zeros"), nn.MSELoss())


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("wrap", [lambda n: Pipeline(n, 2), lambda n: GradAccumulation(n, 2),
                                  lambda n: MicroBatchInterleaved(n, 2), lambda n: nn.PipelineCell(n, 2)])
def test_micro_batches_add_the_slice_outputs(mode, wrap):
    x, y = _data()
    ms.set_context(mode=mode)
    try:
        cell = wrap(_loss_net())
        loss = cell(x, y)
        dw, db = ms.grad(cell, grad_position=None, weights=cell.trainable_params())(x, y)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # observed on MindSpore 2.10 CPU: plain loss 0.95650923; each wrapper 1.9130185 and these gradients
    np.testing.assert_allclose(loss.asnumpy(), 1.9130185, rtol=1e-6)
    np.testing.assert_allclose(dw.asnumpy(), [[-1.95764935, -0.786315024, 0.422329515],
                                              [2.82343960, 1.95671284, -0.792579174]], rtol=1e-5)
    np.testing.assert_allclose(db.asnumpy(), [-1.26090527, 1.53442466], rtol=1e-5)


@pytest.mark.parametrize("make, kind, message", [
    # observed on MindSpore 2.10 CPU, each in its own process
    (lambda: Pipeline(nn.Dense(3, 2), 0), ValueError,
     "For 'PipelineCell', the argument 'micro_size' must be large than 0, but got 0."),
    (lambda: GradAccumulation(nn.Dense(3, 2), 1.5), TypeError,
     "For 'GradAccumulation', the argument 'micro_size' must be integer, but got the type : <class 'float'>."),
    (lambda: MicroBatchInterleaved(nn.Dense(3, 2), 0), ValueError,
     "For 'MicroBatchInterleaved', the argument 'interleave_num' must be large than 0, but got 0."),
    (lambda: Pipeline(nn.Dense(3, 2), 2)(ms.Tensor(np.ones((3, 3), np.float32))), ValueError,
     "For micro batch initialization, the 0th dimension shape of input(3) must be divided by micro size(2)"),
    (lambda: Pipeline(3, 2), TypeError,
     "For 'PipelineCell', the argument 'network' must cell type, but got the type : <class 'int'>."),
])
def test_micro_batch_errors(make, kind, message):
    with pytest.raises(kind) as err:
        make()
    assert str(err.value) == message


def test_pipeline_stage_config_marks_cells():
    net = nn.SequentialCell([nn.Dense(3, 3), nn.Dense(3, 2)])
    Pipeline(net, 2, stage_config={"0": 0, "1": 1})
    assert (net[0].pipeline_stage, net[1].pipeline_stage) == (0, 1)
    with pytest.raises(KeyError, match="stage_config"):
        Pipeline(net, 2, stage_config={"nope": 1})


def test_load_distributed_checkpoint_needs_a_strategy_file(tmp_path):
    net = nn.Dense(2, 2)
    ckpt = str(tmp_path / "r0.ckpt")
    ms.save_checkpoint(net, ckpt)
    # observed on MindSpore 2.10 CPU, each in its own process
    with pytest.raises(ValueError) as err:
        ms.load_distributed_checkpoint(net, [ckpt])
    assert str(err.value) == ("For 'build_searched_strategy', no such strategy file: . Please check whether the "
                              "'strategy_filename' exists.")
    missing = str(tmp_path / "nothere.ckpt")
    with pytest.raises(ValueError) as err:
        ms.load_distributed_checkpoint(net, [missing])
    assert str(err.value) == (f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and make "
                              f"sure the {missing} at index 0 is a valid checkpoint file, it must be a string ending "
                              f"with '.ckpt', and the checkpoint file it represents must be exist and not empty.")
    with pytest.raises(TypeError):
        ms.load_distributed_checkpoint(net)  # observed: TypeError 'NoneType' object is not iterable
    strategy = tmp_path / "strategy.ckpt"
    strategy.write_bytes(b"\x00")
    with pytest.raises(NotImplementedError, match="cannot read the parallel strategy file"):
        ms.load_distributed_checkpoint(net, [ckpt], train_strategy_filename=str(strategy))
