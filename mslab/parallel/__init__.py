"""``mindspore.parallel``: what distributed-training code imports, on one CPU process or MPI ranks.

mslab runs stand-alone or data parallel (``mpiexec``; mslab.communication). The names model code reaches
for to describe tensor sharding across devices (``Layout``, ``AutoParallel``) exist and check their
arguments as MindSpore 2.10 does; like MindSpore on a single CPU process, they leave the computation as it is.
"""
from mslab.core import missing_names as _missing_names
from mslab.parallel import nn
from mslab.parallel.auto_parallel import AutoParallel
from mslab.parallel.pipeline_shared import sync_pipeline_shared_parameters
from mslab.parallel.ps_context import get_ps_context, reset_ps_context, set_ps_context
from mslab.parallel.shard import Layout

__all__ = ["AutoParallel", "Layout", "sync_pipeline_shared_parameters", "set_ps_context", "get_ps_context",
           "reset_ps_context"]

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
