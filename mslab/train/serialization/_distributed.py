"""``load_distributed_checkpoint``: merge the checkpoint slices that the ranks of a sharded run saved.

It needs the training run's strategy file (how each parameter was cut across devices), which only
MindSpore's auto-parallel writes. Observed on MindSpore 2.10 CPU: the file names are checked first (each
a string ending in ``.ckpt`` naming an existing, non-empty file; ValueError otherwise), then without a
strategy file it raises ValueError "For 'build_searched_strategy', no such strategy file: ..." even for
one rank's checkpoint. mslab raises the same errors; given an existing strategy file it raises
NotImplementedError, since mslab has no auto-parallel and cannot read that protobuf. For a checkpoint a
single process saved, use ``load_checkpoint`` and ``load_param_into_net``.
"""
import os

__all__ = ["load_distributed_checkpoint"]


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode="AES-GCM",
                                format="ckpt", unified_safetensors_dir=None, dst_safetensors_dir=None, rank_id=None,
                                output_format="safetensors", name_map=None, max_process_num=64,
                                return_param_dict=False):
    """MindSpore's checks, then ValueError (no strategy file) or NotImplementedError (mslab reads none)."""
    del network, predict_strategy, strict_load, dec_key, dec_mode, format, unified_safetensors_dir
    del dst_safetensors_dir, rank_id, output_format, name_map, max_process_num, return_param_dict
    for index, name in enumerate(checkpoint_filenames):  # None: TypeError, as in MindSpore
        if not (isinstance(name, str) and name.endswith(".ckpt") and os.path.isfile(name)
                and os.path.getsize(name) > 0):
            raise ValueError(f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and make sure "
                             f"the {name} at index {index} is a valid checkpoint file, it must be a string ending with "
                             f"'.ckpt', and the checkpoint file it represents must be exist and not empty.")
    strategy = train_strategy_filename or ""
    if not os.path.isfile(strategy):
        raise ValueError(f"For 'build_searched_strategy', no such strategy file: {strategy}. Please check whether the "
                         f"'strategy_filename' exists.")
    raise NotImplementedError(f"load_distributed_checkpoint: mslab cannot read the parallel strategy file {strategy!r} "
                              f"(it has no auto-parallel); load a single process's checkpoint with load_checkpoint "
                              f"and load_param_into_net")
