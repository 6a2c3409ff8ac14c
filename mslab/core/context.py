"""Execution context: GRAPH_MODE or PYNATIVE_MODE, and the device target.

Mirrors ``mindspore.set_context`` / ``mindspore.get_context``. In MindSpore 2.x the default mode is
PYNATIVE_MODE (eager); GRAPH_MODE compiles a Cell's ``construct`` into a graph before running it.
mslab always computes on the CPU with numpy; asking for "Ascend" or "GPU" is accepted and noted once.
``runtime_num_threads`` is the BLAS thread count (mslab.core.threads chooses it when mslab is imported).
The target still matters for one thing, as in MindSpore: dataset sink mode. On "CPU" (the default)
MindSpore cannot sink, so ``Model.train(..., dataset_sink_mode=True)`` trains step by step; on a device
target mslab simulates the device and its data queue (``model.transfer_counts``).
"""
import contextlib
import warnings

from mslab.core import comm, missing_names, threads

GRAPH_MODE = 0
PYNATIVE_MODE = 1

# jit_syntax_level: how much Python GRAPH mode accepts. LAX (the default) runs Python that has no graph
# form on the host (JIT Fallback); STRICT refuses it. Plain ints, as in MindSpore 2.10 (observed).
STRICT = 0
COMPATIBLE = 1
LAX = 2
_SYNTAX_LEVELS = (STRICT, COMPATIBLE, LAX)

_KNOWN_TARGETS = ("CPU", "GPU", "Ascend")
_context = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    "save_graphs": False,
    "save_graphs_path": ".",
    "enable_graph_kernel": False,
    "max_call_depth": 1000,
    "jit_level": "O0",
    "jit_syntax_level": LAX,
    "graph_cache_size": 16,  # mslab only: compiled graphs kept per Cell / jit function (least recently used go)
    # Set when mslab is imported (mslab/__init__.py), once numpy's BLAS is loaded for threadpoolctl to find.
    threads.KEY: None,
}
_warned_target = False


_recursion_limit: int | None = None  # set_recursion_limit's value; None: the context's max_call_depth


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """``mindspore.set_recursion_limit``: how deeply a compiled graph's function calls may nest. Over it, compiling
    raises "Exceed function call depth limit ..."; it takes precedence over ``max_call_depth`` (observed on
    MindSpore 2.10, whose ``get_context("max_call_depth")`` keeps its own value)."""
    global _recursion_limit
    if isinstance(recursion_limit, bool) or not isinstance(recursion_limit, int) or recursion_limit <= 0:
        raise ValueError(f"The input value must be int and must > 0, but got '{recursion_limit}' with type "
                         f"'{type(recursion_limit).__name__}'.")
    _recursion_limit = recursion_limit


def call_depth_limit() -> int:
    """How deeply traced function calls may nest: ``set_recursion_limit``'s value, else ``max_call_depth``."""
    return _recursion_limit if _recursion_limit is not None else int(_context["max_call_depth"])  # type: ignore[call-overload]


def set_context(**kwargs):
    """Set context keys, e.g. ``set_context(mode=GRAPH_MODE, device_target="CPU")``.

    Every key MindSpore 2.10 accepts is accepted (its many tuning keys are kept, and change no result
    here); any other raises MindSpore's ValueError, so a misspelt key does not go unnoticed. mslab's own
    keys are those of the defaults below that MindSpore lacks: ``graph_cache_size`` (compiled graphs kept
    per Cell or jit function). ``runtime_num_threads=n`` sets numpy's BLAS threads (0: mslab's own choice);
    ``get_context`` returns the count in effect, which is the environment's when OPENBLAS_NUM_THREADS or
    OMP_NUM_THREADS is set.
    """
    global _warned_target
    for key, value in kwargs.items():
        if key not in _context and key not in missing_names.context_keys()["set_context"]:
            if key in missing_names.context_keys()["through_ascend_config"]:
                raise ValueError(f"Please set '{key}' through parameter ascend_config")  # MindSpore 2.10's words
            raise _unknown_key("set_context", key)
        if key == "mode":
            if value not in (GRAPH_MODE, PYNATIVE_MODE):
                raise ValueError(f"set_context: mode must be GRAPH_MODE (0) or PYNATIVE_MODE (1), got {value!r}")
        elif key == "jit_syntax_level":
            if value not in _SYNTAX_LEVELS:
                raise ValueError(f"set_context: jit_syntax_level must be mslab.STRICT (0), COMPATIBLE (1) or LAX (2), "
                                 f"got {value!r}")
        elif key == "device_target":
            if value not in _KNOWN_TARGETS:
                raise ValueError(f"set_context: device_target must be one of {_KNOWN_TARGETS}, got {value!r}")
            if value != "CPU" and not _warned_target:
                _warned_target = True
                warnings.warn(f"mslab computes on the CPU with numpy; device_target={value!r} is accepted: the "
                              "numbers are the same, and dataset sink mode runs on a simulated device.", stacklevel=2)
        elif key == threads.KEY:
            value = threads.set_count(value)  # the count in effect: a user's OPENBLAS_NUM_THREADS wins
        _context[key] = value


def device_can_sink():
    """Whether dataset sink mode sinks: only on a device target (MindSpore on "CPU" ignores it)."""
    return _context["device_target"] != "CPU"


def get_context(key):
    """Return one context value, e.g. ``get_context("mode")``.

    A MindSpore key mslab does not act on, never set, has MindSpore 2.10's value on a fresh CPU process
    (``get_context("op_timeout")`` is 900); another key raises MindSpore's ValueError.
    """
    if key in _context:
        return _context[key]
    theirs = missing_names.context_keys()["get_context"]
    if key not in theirs:
        raise _unknown_key("get_context", key)
    return theirs[key]


def _unknown_key(api, key):
    """MindSpore 2.10's error for a context key it does not have, naming mslab's own keys as well."""
    ours = sorted(set(_context) - set(missing_names.context_keys()["set_context"]))
    argument = "keyword argument" if api == "set_context" else "argument"
    return ValueError(f"For 'context.{api}', the {argument} {key} is not recognized! For detailed usage of "
                      f"'{api}', please refer to the Mindspore official website. (mslab also has its own keys: "
                      f"{', '.join(ours)}.)")


@contextlib.contextmanager
def in_mode(mode):
    """Run a block in another mode and switch back: ``with in_mode(GRAPH_MODE): net(x)``."""
    saved = _context["mode"]
    set_context(mode=mode)
    try:
        yield
    finally:
        _context["mode"] = saved


def is_graph_mode():
    """True when Cells and ``jit`` functions are compiled into graphs."""
    return _context["mode"] == GRAPH_MODE


class ParallelMode:
    """Names of MindSpore's parallel modes; mslab runs STAND_ALONE and DATA_PARALLEL (over MPI)."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    # The order MindSpore 2.10 lists them in (observed on CPU).
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


# Settings mslab keeps but does not act on (one process, or data parallel over MPI), but for parameter_broadcast
# (TrainOneStepCell reads it): MindSpore 2.10's defaults, observed on CPU, so code that reads them before setting
# them gets the same answers.
_AUTO_PARALLEL_DEFAULTS = {
    "global_rank": 0, "full_batch": False, "enable_parallel_optimizer": False, "pipeline_stages": 1,
    "grad_accumulation_step": 1, "loss_repeated_mean": True, "parameter_broadcast": False,
    "strategy_ckpt_save_file": "", "strategy_ckpt_load_file": "", "dataset_strategy": "data_parallel",
    "gradient_fp32_sync": True, "enable_all_reduce_fusion": False, "optimizer_weight_shard_size": -1,
    "search_mode": "recursive_programming",
}

# device_num None: not set, so it is the number of ranks (MindSpore's get_group_size() after init).
_auto_parallel = {"parallel_mode": ParallelMode.STAND_ALONE, "gradients_mean": False, "device_num": None}


def set_auto_parallel_context(**kwargs):
    """Record data-parallel settings (``parallel_mode``, ``gradients_mean``, ``device_num``).

    ``parallel_mode`` must be one of ``ParallelMode.MODE_LIST``, lower case, as in MindSpore 2.10.
    """
    mode = kwargs.get("parallel_mode", ParallelMode.STAND_ALONE)
    if mode not in ParallelMode.MODE_LIST:
        raise ValueError("The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                         "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', but got "
                         f"the value : {mode}.")
    _auto_parallel.update(kwargs)


def get_auto_parallel_context(key):
    """Return one auto-parallel setting (``device_num`` defaults to the number of ranks)."""
    if key == "device_num" and _auto_parallel[key] is None:
        return comm.size()
    if key not in _auto_parallel and key in _AUTO_PARALLEL_DEFAULTS:
        return _AUTO_PARALLEL_DEFAULTS[key]
    return _auto_parallel[key]


def reset_auto_parallel_context():
    """Back to stand-alone, every setting at its default."""
    _auto_parallel.clear()
    _auto_parallel.update(parallel_mode=ParallelMode.STAND_ALONE, gradients_mean=False, device_num=None)
