"""mslab._checkparam (MindSpore's validator module): its constants, what it accepts and returns, its errors.
Messages observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import pytest

from mslab import _checkparam as V


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
