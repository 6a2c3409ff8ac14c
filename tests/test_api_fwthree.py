"""Issue #19, framework names: _checkparam, top-level aliases, lazy_inline, add_flags, set_ps_context,
create_group, load (MindIR), sync_pipeline_shared_parameters. Messages observed on MindSpore 2.10 CPU
(docs/mindspore_observed/fwthree.md)."""
import pytest

import mslab as ms
from mslab import _checkparam as V
from mslab import amp, nn, train
from mslab.communication import create_group, init, release
from mslab.ops.composite import add_flags


def test_checkparam_constants_are_mindspores():
    # observed on MindSpore 2.10 CPU: 8 9 10 7 1 2 3 4 5 6
    assert (V.INC_LEFT, V.INC_RIGHT, V.INC_BOTH, V.INC_NEITHER) == (8, 9, 10, 7)
    assert (V.EQ, V.NE, V.LT, V.LE, V.GT, V.GE, V.IN, V.NOT_IN) == (1, 2, 3, 4, 5, 6, 11, 12)


def test_checkparam_accepts_and_returns():
    assert V.check_positive_int(3, "x", "Cell") == 3
    assert V.check_bool(False, "flag") is False
    assert V.check_float_range(0.0, 0.0, 1.0, V.INC_LEFT, "p", "Dropout") == 0.0
    assert V.check_int_range(1, 0, 1, V.INC_BOTH) == 1


@pytest.mark.parametrize("call, kind, message", [
    # observed on MindSpore 2.10 CPU, each in its own process
    (lambda: V.check_positive_int(0, "x", "Cell"), ValueError,
     "For 'Cell', the 'x' must be int and must > 0, but got '0' with type 'int'."),
    (lambda: V.check_positive_int(-1), ValueError,
     "The input value must be int and must > 0, but got '-1' with type 'int'."),
    (lambda: V.check_positive_int(1.5, "x"), TypeError, "The 'x' must be int, but got 'float'"),
    (lambda: V.check_positive_int(True, "x"), TypeError,
     "The 'x' must be int and must > 0, but got 'True' with type 'bool'."),
    (lambda: V.check_bool(1, "flag", "Net"), TypeError, "For 'Net', the 'flag' must be a bool, but got int."),
    (lambda: V.check_bool(1), TypeError, "The input value must be a bool, but got int."),
    (lambda: V.check_float_range(1.0, 0.0, 1.0, V.INC_LEFT, "p", "Dropout"), ValueError,
     "For 'Dropout', the 'p' must be in range of [0.0, 1.0), but got 1.0 with type 'float'."),
    (lambda: V.check_float_range(2, 0.0, 1.0, V.INC_LEFT, "p", "Dropout"), TypeError,
     "For 'Dropout', the 'p' must be 'float',  but got 'int'."),
    (lambda: V.check_float_range(-0.1, 0.0, 1.0, V.INC_BOTH, "p"), ValueError,
     "The 'p' must be in range of [0.0, 1.0], but got -0.1 with type 'float'."),
    (lambda: V.check_positive_float(0.0, "lr"), ValueError,
     "The 'lr' must be float and must > 0, but got '0.0' with type 'float'."),
])
def test_checkparam_errors_are_mindspores(call, kind, message):
    with pytest.raises(kind) as err:
        call()
    assert str(err.value) == message


def test_top_level_aliases():
    # observed on MindSpore 2.10: ms.DynamicLossScaleManager is ms.amp.DynamicLossScaleManager (and the others)
    assert ms.DynamicLossScaleManager is amp.DynamicLossScaleManager
    assert ms.FixedLossScaleManager is amp.FixedLossScaleManager
    assert ms.Metric is train.Metric


class _Block(nn.Cell):
    @ms.lazy_inline
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


def test_lazy_inline_records_arguments_and_changes_nothing():
    block = _Block(3)
    # observed on MindSpore 2.10 CPU: [3. 6.] lazy_inline_Bdict_values([3]) (class B there)
    assert block.cell_init_args == "lazy_inline__Blockdict_values([3])"
    assert block(ms.Tensor([1.0, 2.0])).asnumpy().tolist() == [3.0, 6.0]

    class Front(nn.Cell):
        @ms.lazy_inline(policy="front")
        def __init__(self):
            super().__init__()

        def construct(self, x):
            return x + 1

    assert Front().no_inline is False
    assert Front()(ms.Tensor([1.0])).asnumpy().tolist() == [2.0]


def test_add_flags_marks_the_function():
    def f(x):
        return x

    # observed on MindSpore 2.10: returns f itself with f._func_graph_flags == {'a': True, 'b': 1}
    assert add_flags(f, a=True, b=1) is f
    assert f._func_graph_flags == {"a": True, "b": 1}
    assert add_flags(defer=True)(f) is f and f._func_graph_flags["defer"] is True


def test_ps_context_stored_and_read_back():
    # observed on MindSpore 2.10 CPU: the default is False, then True after set_ps_context(enable_ps=True)
    assert ms.get_ps_context("enable_ps") is False
    ms.context.set_ps_context(enable_ps=True, config_file_path="x")
    try:
        assert ms.get_ps_context("enable_ps") is True and ms.get_ps_context("config_file_path") == "x"
        assert ms.get_ps_context("scheduler_port") == 6667
    finally:
        ms.reset_ps_context()
    with pytest.raises(ValueError, match="Set PS context keyword foo is not recognized!"):
        ms.set_ps_context(foo=1)
    with pytest.raises(ValueError, match="Get PS context keyword foo is not recognized!"):
        ms.get_ps_context("foo")


def test_create_group_needs_init_then_names_the_world():
    # observed on MindSpore 2.10 CPU (no launcher): RuntimeError before init()
    with pytest.raises(RuntimeError, match="Distributed Communication has not been inited"):
        create_group("g", [0, 1])
    init()
    try:
        create_group("all", [0])
        assert ms.communication.get_group_size("all") == 1
        with pytest.raises(ValueError, match="only groups of every rank"):
            create_group("pair", [0, 1])
    finally:
        release()


def test_load_mindir_raises_mindspores_errors(tmp_path):
    # observed on MindSpore 2.10 CPU, each in its own process
    with pytest.raises(ValueError, match=r"must be string, but got <class 'int'>"):
        ms.load(3)
    with pytest.raises(ValueError, match=r"should end with '.mindir'"):
        ms.load(str(tmp_path / "net.txt"))
    with pytest.raises(ValueError, match=r"\(MindIR file\) does not exist"):
        ms.load(str(tmp_path / "none.mindir"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"not a mindir")
    with pytest.raises(RuntimeError, match="Load MindIR failed. mslab cannot read MindIR files"):
        ms.load(str(bad))


def test_sync_pipeline_shared_parameters_does_nothing_on_one_process():
    net = nn.Dense(2, 2)
    before = net.weight.asnumpy().copy()
    assert ms.sync_pipeline_shared_parameters(net) is None  # observed on MindSpore 2.10 CPU: None
    assert (net.weight.asnumpy() == before).all()
