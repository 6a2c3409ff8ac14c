"""Seed 001's training flow (init_env + train_net with Model.train), data parallel on MPI ranks.

    mpiexec -n 2 python examples/train_dp.py      # 2 ranks, each on its shard of the shipped digits
    python examples/train_dp.py                   # one process: "run standalone!"

Adapted from the seed only where marked "mslab:": the device (mslab's CPU trains data parallel over
MPI, so the CPU branch no longer forces one device, and device_num comes from the launcher), the data
(the shipped digits, sharded with num_shards/shard_id, in seed train.md's pipeline), the network
(seed train.md's LeNet5 from benchmarks/), where checkpoints go, and the optimizer handed to Model (the seed forgets
it). LossMonitor and TimeMonitor print from rank 0.
"""
import os
import sys
import tempfile
from pathlib import Path

import mslab as ms
import mslab.dataset as ds
import mslab.dataset.transforms as transforms
import mslab.dataset.vision as vision
from mslab import nn
from mslab.communication.management import get_group_size, get_rank, init
from mslab.train import CheckpointConfig, LossMonitor, Model, ModelCheckpoint, TimeMonitor

# mslab: the seed's `from src.model import Net`: seed train.md's LeNet5, as the benchmarks define it
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from lenet_digits import LeNet5 as Net  # noqa: E402


class Config:
    """The seed's yaml settings (seed, device_target, context_mode, device_num, device_id) and training's."""

    seed = 1
    device_target = "None"
    context_mode = "graph"  # should be in ['graph', 'pynative']
    # mslab: as many devices as the launcher started ranks (mpiexec sets PMI_SIZE, Open MPI its own)
    device_num = int(os.environ.get("PMI_SIZE") or os.environ.get("OMPI_COMM_WORLD_SIZE") or 1)
    device_id = 0
    lr = 0.002
    weight_decay = 0.0
    epoch = 3
    batch_size = 32
    output_dir = os.path.join(tempfile.gettempdir(), "mslab_train_dp")  # mslab: checkpoints out of the repo


config = Config()


def init_env(cfg):
    """初始化运行时环境."""
    ms.set_seed(cfg.seed)
    # 如果device_target设置是None，利用框架自动获取device_target，否则使用设置的。
    if cfg.device_target != "None":
        if cfg.device_target not in ["Ascend", "GPU", "CPU"]:
            raise ValueError(f"Invalid device_target: {cfg.device_target}, "
                             f"should be in ['None', 'Ascend', 'GPU', 'CPU']")
        ms.set_context(device_target=cfg.device_target)

    # 配置运行模式，支持图模式和PYNATIVE模式
    if cfg.context_mode not in ["graph", "pynative"]:
        raise ValueError(f"Invalid context_mode: {cfg.context_mode}, "
                         f"should be in ['graph', 'pynative']")
    context_mode = ms.GRAPH_MODE if cfg.context_mode == "graph" else ms.PYNATIVE_MODE
    ms.set_context(mode=context_mode)

    cfg.device_target = ms.get_context("device_target")
    # mslab: the seed's CPU branch set device_num = 1 here; mslab's CPU trains data parallel over MPI.

    # 设置运行时使用的卡
    if hasattr(cfg, "device_id") and isinstance(cfg.device_id, int):
        ms.set_context(device_id=cfg.device_id)

    if cfg.device_num > 1:
        # init方法用于多卡的初始化，不区分Ascend和GPU，get_group_size和get_rank方法只能在init后使用
        init()
        print("run distribute!", flush=True)
        group_size = get_group_size()
        if cfg.device_num != group_size:
            raise ValueError(f"the setting device_num: {cfg.device_num} not equal to the real group_size: {group_size}")
        cfg.rank_id = get_rank()
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        if hasattr(cfg, "all_reduce_fusion_config"):
            ms.set_auto_parallel_context(all_reduce_fusion_config=cfg.all_reduce_fusion_config)
    else:
        cfg.device_num = 1
        cfg.rank_id = 0
        print("run standalone!", flush=True)


def create_dataset(cfg, is_train=True):
    """mslab: seed train.md's pipeline on the shipped digits; each rank reads its shard."""
    data = ds.MnistDataset(ds.digits_path(), usage="train" if is_train else "test",
                           num_shards=cfg.device_num, shard_id=cfg.rank_id)
    data = data.map(operations=[vision.Resize((32, 32)), vision.Rescale(1.0 / 255.0, 0.0), vision.HWC2CHW()],
                    input_columns="image")
    data = data.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(cfg.batch_size, drop_remainder=is_train)


def train_net():
    # 初始化运行时环境
    init_env(config)
    # 构造数据集对象
    dataset = create_dataset(config, is_train=True)
    # 网络模型，和任务有关
    net = Net()
    # 损失函数，和任务有关
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    # 优化器实现，和任务有关
    optimizer = nn.Adam(net.trainable_params(), config.lr, weight_decay=config.weight_decay)
    # 封装成Model (mslab: the seed builds the optimizer but does not pass it; a Model without one runs the
    # loss and leaves the weights as they are, on MindSpore 2.10 too, so it is passed here)
    model = Model(net, loss_fn=loss, optimizer=optimizer, metrics={'top_1_accuracy', 'top_5_accuracy'})
    # checkpoint保存
    config_ck = CheckpointConfig(save_checkpoint_steps=dataset.get_dataset_size(),
                                 keep_checkpoint_max=5)
    ckpt_cb = ModelCheckpoint(prefix="lenet", directory=os.path.join(config.output_dir, f"rank_{config.rank_id}"),
                              config=config_ck)
    # 模型训练 (mslab: the monitors print from rank 0 only)
    callbacks = [ckpt_cb] + ([LossMonitor(), TimeMonitor()] if config.rank_id == 0 else [])
    model.train(config.epoch, dataset, callbacks=callbacks)


if __name__ == '__main__':
    train_net()
