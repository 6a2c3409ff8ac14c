"""Framework names around the engine: Print, Ascend-only status ops, Tensor.from_numpy, mindspore.runtime,
mindspore.log, SummaryRecord, jit_class, Profiler, run_check, data_sink, export.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import os
import re

import numpy as np
import pytest

import mslab as ms
import mslab.dataset as ds
from mslab import nn, ops
from mslab import runtime as ms_runtime
from mslab.ops import operations as P
from mslab.train.summary import SummaryRecord


@pytest.fixture(autouse=True)
def restore_context():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    ms_runtime._memory.clear()


# ---- Print -------------------------------------------------------------------------------------------
def test_print_in_pynative_shows_tensors_as_mindspore(capsys):
    p = P.Print()
    assert P.Print is ops.Print
    p(ms.Tensor(np.array([[1.5, 2], [3, 4]], np.float32)))
    p(ms.Tensor(np.array([1, 2, 3], np.int32)))
    p(ms.Tensor(np.array(2.5, np.float32)))
    p(ms.Tensor(np.array([True, False])))
    assert p("a", 1, 2.5, (1, 2)) is None
    p(ms.Tensor(np.arange(12, dtype=np.float64).reshape(2, 2, 3)))
    p(ms.Tensor(np.array([0.1, 2.5], np.float32)))
    # observed on MindSpore 2.10 CPU
    assert capsys.readouterr().out == """\
Tensor(shape=[2, 2], dtype=Float32, value=
[[ 1.50000000e+00,  2.00000000e+00],
 [ 3.00000000e+00,  4.00000000e+00]])
Tensor(shape=[3], dtype=Int32, value= [1, 2, 3])
Tensor(shape=[], dtype=Float32, value= 2.5)
Tensor(shape=[2], dtype=Bool, value= [ True, False])
a
1
2.5
(1, 2)
Tensor(shape=[2, 2, 3], dtype=Float64, value=
[[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00],
  [ 3.00000000e+00,  4.00000000e+00,  5.00000000e+00]],
 [[ 6.00000000e+00,  7.00000000e+00,  8.00000000e+00],
  [ 9.00000000e+00,  1.00000000e+01,  1.10000000e+01]]])
Tensor(shape=[2], dtype=Float32, value= [ 1.00000001e-01,  2.50000000e+00])
"""


# ---- Ascend-only float-status ops ------------------------------------------------------------------------
class StatusNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.alloc, self.get, self.clear = P.NPUAllocFloatStatus(), P.NPUGetFloatStatus(), P.NPUClearFloatStatus()

    def construct(self, x):
        s = self.clear(self.alloc())
        y = x * 2
        return y, self.get(s)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_float_status_ops_are_unsupported_on_cpu(mode):
    ms.set_context(mode=mode)
    x = ms.Tensor(np.array([1.0, np.inf, 2], np.float32))
    # observed on MindSpore 2.10 CPU: built fine, RuntimeError when run (at compile time in GRAPH mode)
    with pytest.raises(RuntimeError, match=re.escape("Unsupported op [NPUAllocFloatStatus] on CPU")):
        StatusNet()(x)
    for name, args in [("FloatStatus", (x,)), ("NPUAllocFloatStatus", ()),
                       ("NPUClearFloatStatus", (ms.Tensor(np.zeros(8, np.float32)),)),
                       ("NPUGetFloatStatus", (ms.Tensor(np.zeros(8, np.float32)),))]:
        with pytest.raises(RuntimeError, match=re.escape(f"Unsupported op [{name}] on CPU")):
            getattr(P, name)()(*args)


# ---- Tensor.from_numpy -------------------------------------------------------------------------------
def test_tensor_from_numpy_shares_memory():
    a = np.array([1.0, 2.0], np.float32)
    t = ms.Tensor.from_numpy(a)
    a[0] = 9
    # observed on MindSpore 2.10 CPU: [9. 2.]; an int64 array stays Int64
    np.testing.assert_array_equal(t.asnumpy(), [9.0, 2.0])
    assert ms.Tensor.from_numpy(np.array([[1, 2], [3, 4]], np.int64)).dtype == ms.int64
    with pytest.raises(TypeError, match="Expected a NumPy array."):
        ms.Tensor.from_numpy([1, 2])


# ---- mindspore.runtime ---------------------------------------------------------------------------------
def test_runtime_set_memory_checks_and_sets_once():
    # observed on MindSpore 2.10 CPU
    with pytest.raises(ValueError, match=re.escape("The '2' is illegal, it must be match regular")):
        ms.runtime.set_memory(max_size="2")
    with pytest.raises(ValueError, match=re.escape("The '0GB' is illegal")):
        ms.runtime.set_memory(init_size="0GB")
    with pytest.raises(ValueError, match=re.escape("The optimize_level must be one of ['O0', 'O1'], but got O2.")):
        ms.runtime.set_memory(optimize_level="O2")
    ms.runtime.set_memory(max_size="4GB")
    with pytest.raises(RuntimeError, match="The 'set_memory' can not be set repeatedly."):
        ms.runtime.set_memory(max_size="4GB")


def test_runtime_streams_on_cpu_log_an_error(capsys):
    # observed on MindSpore 2.10 CPU: ERROR "CPU device is not supported. Please use correct device", None
    assert ms.runtime.synchronize() is None
    assert ms.runtime.current_stream() is None
    assert ms.runtime.launch_blocking() is None
    err = capsys.readouterr().err.splitlines()
    message = "CPU device is not supported. Please use correct device"
    assert len(err) == 2 and all(line.startswith("[ERROR] ME(") and line.endswith(message) for line in err)


# ---- mindspore.log -------------------------------------------------------------------------------------
def test_log_format_and_default_level(capsys):
    ms.log.warning("warn %s", "x")
    ms.log.info("info")
    ms.log.error("err")
    err = capsys.readouterr().err.splitlines()
    # observed on MindSpore 2.10 CPU:
    # [WARNING] ME(31941:140335904537472,MainProcess):2026-11-24-05:51:32.687.000 [/tmp/obs_infra/o8.py:19] warn x
    pattern = (r"\[(WARNING|ERROR)\] ME\(\d+:\d+,MainProcess\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d+\.\d+ "
               r"\[(.+):(\d+)\] (.*)")
    parsed = [re.fullmatch(pattern, line).groups() for line in err]
    assert [(lvl, msg) for lvl, _, _, msg in parsed] == [("WARNING", "warn x"), ("ERROR", "err")]
    assert parsed[0][1] == __file__
    assert ms.log.get_level() == "2" and ms.log.get_log_config() == {"GLOG_v": "2", "GLOG_logtostderr": "1"}


# ---- SummaryRecord -------------------------------------------------------------------------------------
def test_summary_record_writes_json_lines(tmp_path, capsys):
    with SummaryRecord(str(tmp_path)) as sr:
        sr.add_value("scalar", "loss", ms.Tensor(1.5))
        sr.add_value("histogram", "w", ms.Tensor(np.array([1.0, 2.0], np.float32)))
        assert sr.record(1) is True
        sr.add_value("scalar", "loss", ms.Tensor(0.5))
        assert sr.record(2) is True
        # observed on MindSpore 2.10 CPU: the messages below
        with pytest.raises(ValueError, match='the parameter "name" type should be str'):
            sr.add_value("scalar", "", ms.Tensor(1.0))
        with pytest.raises(TypeError, match='the parameter "value" expect to be Tensor, but got float'):
            sr.add_value("scalar", "a", 1.0)
        with pytest.raises(ValueError, match="no such \"plugin\" of 'bogus'"):
            sr.add_value("bogus", "a", ms.Tensor(1.0))
        with pytest.raises(TypeError, match="The type of 'step' should be 'int', but got type 'bool'."):
            sr.record(True)
        path = sr.file_info["file_path"]
    assert re.fullmatch(r"events\.out\.events\.summary\.\d+\..*_MS", os.path.basename(path))
    assert SummaryRecord.read(path) == [{"step": 1, "scalar": {"loss": 1.5}, "histogram": {"w": [1.0, 2.0]}},
                                        {"step": 2, "scalar": {"loss": 0.5}}]
    assert sr.record(3) is False  # closed: MindSpore logs an ERROR and returns False (observed)
    assert "The record writer is closed" in capsys.readouterr().err


# ---- jit_class, Profiler, run_check ----------------------------------------------------------------------
def test_jit_class_in_graph_mode():
    @ms.jit_class
    class Scale:
        def __init__(self):
            self.a = 2.0

        def f(self, x):
            return x * self.a

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.s = Scale()

        def construct(self, x):
            return self.s.f(x)

    ms.set_context(mode=ms.GRAPH_MODE)
    assert Scale().f(3) == 6.0
    np.testing.assert_array_equal(Net()(ms.Tensor(np.array([1.0], np.float32))).asnumpy(), [2.0])  # observed: [2.]
    with pytest.raises(TypeError, match="Decorator jit_class can only be used for class type, but got"):
        ms.jit_class(lambda x: x)
    with pytest.raises(TypeError, match="Decorator jit_class is used for user-defined classes and cannot be used "
                                        "for nn.Cell"):
        ms.jit_class(type("D", (nn.Cell,), {}))


def test_profiler_collects_nothing(tmp_path):
    with pytest.warns(UserWarning, match="Profiler collects nothing"):
        prof = ms.Profiler(output_path=str(tmp_path))
    prof.start()
    prof.step()
    prof.stop()
    prof.analyse()
    assert os.listdir(tmp_path) == []


def test_run_check_prints_two_lines(capsys):
    ms.run_check()
    # observed on MindSpore 2.10 CPU: "MindSpore version:  2.10.0" and "The result of multiplication calculation
    # is correct, MindSpore has been installed on platform [CPU] successfully!"; mslab names itself
    assert capsys.readouterr().out == (
        f"mslab version:  {ms.__version__}\n"
        "The result of multiplication calculation is correct, mslab has been installed on platform [CPU] "
        "successfully!\n")


# ---- data_sink ---------------------------------------------------------------------------------------------
def sink_data():
    data = {"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": np.arange(6, dtype=np.float32)}
    return ds.NumpySlicesDataset(data, shuffle=False).batch(2)


def test_data_sink_refuses_cpu_as_mindspore():
    # observed on MindSpore 2.10 CPU
    with pytest.raises(ValueError, match="Data sinking supports ascend or gpu device target, but device target is "
                                         "CPU."):
        ms.data_sink(lambda x, y: x, sink_data())
    with pytest.raises(TypeError, match="For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                                        "'float'."):
        ms.data_sink(lambda x, y: x, sink_data(), sink_size=1.5)
    with pytest.raises(ValueError, match="The 'sink_size' must be positive, but got sink_size 0."):
        ms.data_sink(lambda x, y: x, sink_data(), sink_size=0)


@pytest.mark.filterwarnings("ignore:mslab computes on the CPU")
def test_data_sink_on_a_simulated_device_runs_batches_in_turn():
    ms.set_context(device_target="Ascend")
    step = ms.data_sink(lambda x, y: x.sum() + y.sum(), sink_data(), sink_size=1)
    # batches sum to 7, 27, 47, then a new epoch (MindSpore's documented semantics; its CPU refuses to sink)
    assert [float(step().asnumpy()) for _ in range(4)] == [7.0, 27.0, 47.0, 7.0]
    two = ms.data_sink(lambda x, y: x.sum() + y.sum(), sink_data(), sink_size=2)
    assert [float(two().asnumpy()) for _ in range(3)] == [27.0, 7.0, 47.0]  # the last of each two batches


# ---- export -------------------------------------------------------------------------------------------------
def test_export_writes_mslab_graph_text_under_mindspores_name(tmp_path):
    net = nn.Dense(2, 3)
    x = ms.Tensor(np.ones((1, 2), np.float32))
    base = str(tmp_path / "net")
    with pytest.warns(UserWarning, match="not MindSpore's MINDIR protobuf"):
        ms.export(net, x, file_name=base, file_format="MINDIR")
        ms.export(net, x, file_name=base, file_format="MINDIR")  # again: replaced, as MindSpore does
        ms.export(net, x, file_name=base + ".mindir", file_format="MINDIR")
    with pytest.warns(UserWarning, match="not MindSpore's ONNX protobuf"):
        ms.export(net, x, file_name=base, file_format="ONNX")
    # observed on MindSpore 2.10 CPU: ['net.mindir', 'net.onnx'], mode 0o100400
    assert sorted(os.listdir(tmp_path)) == ["net.mindir", "net.onnx"]
    assert oct(os.stat(base + ".mindir").st_mode) == "0o100400"
    text = open(base + ".mindir", encoding="utf-8").read()
    assert text.startswith("# mslab graph export") and "MatMul(%x, %weight)" in text
    # observed on MindSpore 2.10 CPU
    with pytest.raises(ValueError, match="Only support export file in 'AIR' format with Ascend backend."):
        ms.export(net, x, file_name=base, file_format="AIR")
    with pytest.raises(ValueError, match=re.escape("For 'export', 'file_format' must be one of ['AIR', 'ONNX', "
                                                   "'MINDIR'], but got BOGUS.")):
        ms.export(net, x, file_name=base, file_format="BOGUS")


def test_profiler_schedule_and_markers():
    from mslab import profiler

    s = profiler.schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=0)
    A = profiler.ProfilerAction
    # observed on MindSpore 2.10 CPU
    assert repr(s) == "Schedule(wait=1, active=2, warmup=1, repeat=1, skip_first=0)"
    assert [s(i) for i in range(6)] == [A.NONE, A.WARM_UP, A.RECORD, A.RECORD_AND_SAVE, A.NONE, A.NONE]
    assert [a.value for a in profiler.ProfilerActivity] == ["NPU", "GPU", "CPU"]
    assert [a.value for a in profiler.ProfilerLevel] == ["LevelNone", "Level0", "Level1", "Level2"]
    assert profiler.mstx.range_start("x") == 0 and profiler.mstx.mark("m") is None
    with pytest.warns(UserWarning, match="collects nothing"):
        with profiler.profile(activities=[profiler.ProfilerActivity.CPU], schedule=s,
                              on_trace_ready=profiler.tensorboard_trace_handler("./unused")) as prof:
            prof.step()


# ---- no_init_parameters, constexpr ----------------------------------------------------------------------
def test_no_init_parameters_builds_the_same_values():
    from mslab.nn.utils import no_init_parameters

    ms.set_seed(1)
    with no_init_parameters():
        lazy = nn.Dense(2, 3)
    lazy_weight = lazy.weight.asnumpy()  # drawn now, on first use
    ms.set_seed(1)
    eager = nn.Dense(2, 3)
    # observed on MindSpore 2.10 CPU: the deferred values equal the eager ones when nothing else is drawn between
    np.testing.assert_array_equal(lazy_weight, eager.weight.asnumpy())
    assert ms.nn.utils.no_init_parameters is no_init_parameters


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_constexpr_runs_on_constants(mode):
    @ops.constexpr
    def times(a, b):
        return a * b

    @ops.constexpr(reuse_result=False)
    def twice(a):
        return (a, a)

    # observed on MindSpore 2.10 CPU: 6 and (4, 4)
    assert times(2, 3) == 6 and twice(4) == (4, 4)

    class Net(nn.Cell):
        def construct(self, x):
            return x * times(x.shape[0], 2)

    ms.set_context(mode=mode)
    np.testing.assert_array_equal(Net()(ms.Tensor(np.ones(3, np.float32))).asnumpy(), [6.0, 6.0, 6.0])
    from mslab.ops.primitive import constexpr
    assert constexpr is ops.constexpr
