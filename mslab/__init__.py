"""mslab: a small, honest MindSpore-compatible deep-learning engine on numpy, for learning.

``import mslab as ms`` offers MindSpore's names (Tensor, Parameter, set_context, GRAPH_MODE, jit,
grad, value_and_grad, nn, ops, ...) plus what lets a learner look inside: ``trace`` (the graph a call
compiles to) and ``record`` (the PYNATIVE tape).
"""
# MindSpore's module paths (mslab.common.api, mslab.ops.function.array_func, ...) before any mslab module loads.
from mslab import module_tree  # isort: skip
# mslab.ops first: it is MindSpore's ops namespace, and it offers GradOperation from the autodiff layer,
# so importing it completes the engine (core, ir, ops, autodiff) before the API modules build on it.
from mslab import ops  # isort: skip
# mslab.fast, the speed layer, installs its hooks into the engine (mslab.core.hooks) unless MSLAB_PLAIN=1.
from mslab import common, dataset, fast, nn, train
from mslab.amp import DynamicLossScaleManager, FixedLossScaleManager
from mslab.autodiff.grad_operation import get_grad, grad, value_and_grad
from mslab.common.device import set_device
from mslab.common.run_check import run_check
from mslab.common.sparse_tensor import COOTensor, RowTensor
from mslab.core import dtype
from mslab.core import missing_names as _missing_names
from mslab.core.context import (
    COMPATIBLE,
    GRAPH_MODE,
    LAX,
    PYNATIVE_MODE,
    STRICT,
    ParallelMode,
    get_auto_parallel_context,
    get_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
    set_context,
    set_recursion_limit,
)
from mslab.core.dtype import (
    bool_,
    dtype_to_nptype,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from mslab.core.seed import get_seed, set_seed
from mslab.core.tensor import Parameter, ParameterTuple, Tensor, tensor
from mslab.ir.tape import record
from mslab.parallel.pipeline_shared import sync_pipeline_shared_parameters
from mslab.parallel.ps_context import get_ps_context, reset_ps_context, set_ps_context
from mslab.profiler import Profiler
from mslab.runtime.compiled import jit, jit_class, ms_function, trace
from mslab.runtime.lazy_inline import lazy_inline
from mslab.train import (
    Callback,
    CheckpointConfig,
    DatasetHelper,
    EarlyStopping,
    History,
    LearningRateScheduler,
    LossMonitor,
    Metric,
    Model,
    ModelCheckpoint,
    RunContext,
    SummaryCollector,
    TimeMonitor,
    connect_network_with_dataset,
)
from mslab.train.data_sink import data_sink
from mslab.train.serialization import (
    export,
    load,
    load_checkpoint,
    load_distributed_checkpoint,
    load_param_into_net,
    save_checkpoint,
)
from mslab.train.summary import SummaryRecord

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error; mslab.numpy loads on first use

__version__ = "0.1.0"

# BLAS threads from the CPUs this process may use (mslab.core.threads); only now is numpy's BLAS loaded.
set_context(runtime_num_threads=0)
