"""``mindspore.parallel.auto_parallel.AutoParallel``: a network wrapped with its parallel settings.

MindSpore 2.10's new parallel interface: ``net = AutoParallel(net, parallel_mode="semi_auto")``, then
``net.dataset_strategy("full_batch")``, ``net.hsdp()``, ``net.pipeline(stages=2)``, ... and train
``net`` as usual. The settings tell MindSpore's graph compiler how to split the network across devices.
On one CPU process MindSpore 2.10 runs the network unchanged (observed: same numbers as the bare
network), and so does mslab, which keeps the settings and checks them with MindSpore's messages but
does not act on them: mslab splits only the data (data parallel over MPI, mslab.communication).
"""
import os

from mslab.communication.management import get_group_size, get_rank
from mslab.nn.cell import Cell
from mslab.parallel.shard import Layout

__all__ = ["AutoParallel"]

_MODES = ["semi_auto", "sharding_propagation", "recursive_programming"]
_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _check_path(file_path, json_only=False):
    if not isinstance(file_path, str):
        raise TypeError(f"the argument 'file_path' must be str, but got the type : {type(file_path)} .")
    if json_only:
        if not os.path.isabs(file_path):
            raise KeyError("the argument 'file_path' must be an absolute path.")
        if os.path.splitext(file_path)[1] != ".json":
            raise KeyError("File type must be .json")
    return file_path


def _check_bool(method, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For 'AutoParallel.{method}', the argument '{name}' must be bool type, but got the type : "
                        f"{type(value)}.")


class AutoParallel(Cell):
    """``network`` with parallel settings; calling it calls ``network`` (nothing is split on one process)."""

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        self.network = network
        if parallel_mode not in _MODES:
            raise ValueError(f"the argument 'parallel_mode' must be one of {_MODES}, but got the value : "
                             f"{parallel_mode} .")
        self._parallel_mode = parallel_mode
        self._global_rank, self._device_num = get_rank(), get_group_size()
        self._settings = {"init_param_in_compile": True, "dataset_strategy": "data_parallel", "full_batch": False,
                          "enable_parallel_optimizer": False, "optimizer_weight_shard_size": -1,
                          "parallel_optimizer_threshold": 64, "pipeline_stages": 1, "gradients_mean": False,
                          "loss_repeated_mean": True, "gradient_fp32_sync": True, "comm_fusion": {}}

    def construct(self, *args, **kwargs):
        return self.network(*args, **kwargs)

    # ---- strategy files: their paths are kept (MindSpore writes them when it compiles a split graph)
    def load_param_strategy_file(self, file_path):
        self._settings["load_strategy_file"] = _check_path(file_path)

    def save_param_strategy_file(self, file_path):
        self._settings["save_strategy_file"] = _check_path(file_path)

    def save_operator_strategy_file(self, file_path):
        self._settings["save_operator_strategy_file"] = _check_path(file_path, json_only=True)

    def load_operator_strategy_file(self, file_path):
        self._settings["load_operator_strategy_file"] = _check_path(file_path, json_only=True)

    def set_group_ckpt_save_file(self, file_path):
        self._settings["group_ckpt_save_file"] = _check_path(file_path)

    def dump_local_norm(self, file_path):
        self._settings["dump_local_norm"] = True
        self._settings["dump_local_norm_path"] = _check_path(file_path)

    def transformer_opt(self, file_path):
        self._settings["transformer_opt"] = file_path

    # ---- how data, optimizer state and stages are split
    def dataset_strategy(self, config):
        """``"data_parallel"`` (each device reads its share), ``"full_batch"`` or a tuple of splits/Layouts."""
        if config is None:
            raise ValueError("dataset_strategy is none in config!")
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError("For 'AutoParallel.dataset_strategy', the argument 'config' must be 'full_batch' or "
                                 f"'data_parallel', but got the value : {config}.")
            self._settings["full_batch"] = config == "full_batch"
        elif not isinstance(config, tuple):
            raise TypeError("For 'AutoParallel.dataset_strategy', the argument 'config' must be str or tuple type, "
                            f"but got the type : {type(config)}.")
        else:
            for element in config:
                if isinstance(element, tuple):
                    bad = [d for d in element if not isinstance(d, int)]
                    if bad:
                        raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must "
                                        f"be int type, but got the type : {type(bad[0])} .")
                elif not isinstance(element, Layout):
                    raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must be "
                                    f"tuple or Layout, but got the type : {type(element)} .")
        self._settings["dataset_strategy"] = config

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Shard optimizer state (and weights) across data-parallel devices (ZeRO-style)."""
        self._settings["enable_parallel_optimizer"] = True
        if not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
            raise ValueError(f"shard_size must be a positive integer or -1, but got {shard_size}.")
        if not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be a positive integer or 0, but got {threshold}.")
        if optimizer_level not in ["level1", "level2", "level3"]:
            raise ValueError(f"Optimizer level should in ['level1', 'level2', 'level3'], but got {optimizer_level}")
        self._settings.update(optimizer_weight_shard_size=shard_size, parallel_optimizer_threshold=threshold,
                              optimizer_level=optimizer_level)

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """Split the layers into ``stages`` pipeline stages run by ``scheduler``."""
        if not isinstance(stages, int):
            raise TypeError(f"For 'AutoParallel.pipeline', the argument 'stages' must be int type, but got the type "
                            f": {type(stages)}.")
        if stages <= 0:
            raise ValueError(f"For 'AutoParallel.pipeline', the argument 'stages' must be larger than zero, but got "
                             f"value: {stages}.")
        _check_bool("pipeline", "output_broadcast", output_broadcast)
        _check_bool("pipeline", "interleave", interleave)
        if not isinstance(scheduler, str):
            raise TypeError(f"For 'AutoParallel.pipeline', the argument 'scheduler' must be str type, but got the "
                            f"type : {type(scheduler)}.")
        if scheduler not in _SCHEDULERS:
            names = "/".join(f"'{s}'" for s in _SCHEDULERS)
            raise ValueError(f"For 'AutoParallel.pipeline', the argument 'scheduler' must be {names} , but got the "
                             f"value : {scheduler}.")
        self._settings.update(pipeline_stages=stages, pipeline_result_broadcast=output_broadcast,
                              pipeline_interleave=interleave, pipeline_scheduler=scheduler)

    def get_pipeline_stages(self):
        return self._settings["pipeline_stages"]

    def comm_fusion(self, config):
        if not isinstance(config, dict):
            raise TypeError(f"The parameter '{config}' must be {dict}, but got {type(config)}.")
        self._settings["comm_fusion"] = config

    # ---- switches
    def no_init_parameters_in_compile(self):
        self._settings["init_param_in_compile"] = False

    def disable_strategy_file_only_for_trainable_params(self):
        self._settings["only_trainable_params"] = False

    def enable_fp32_communication(self):
        self._settings["force_fp32_communication"] = True

    def print_local_norm(self):
        self._settings["dump_local_norm"] = True

    def enable_device_local_norm(self):
        self._settings["dump_device_local_norm"] = True

    def enable_gradients_mean(self):
        self._settings["gradients_mean"] = True

    def disable_gradient_fp32_sync(self):
        self._settings["gradient_fp32_sync"] = False

    def disable_loss_repeated_mean(self):
        self._settings["loss_repeated_mean"] = False
