"""MindSpore's argument checks (``mindspore._checkparam``), which model code calls in its own ``__init__``.

``validator.check_positive_int(n, "n", "MyCell")`` returns ``n`` or raises with MindSpore 2.10's message:
TypeError when the kind is wrong (``bool`` is not an ``int`` here), ValueError when the value is out of
range. The relation constants are the same integers as MindSpore's (``EQ == 1`` ... ``INC_BOTH == 10``).
"""
import math
import operator

import numpy as np

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6          # one-value relations: ==, !=, <, <=, >, >=
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10  # ranges: (), [), (], []
IN, NOT_IN = 11, 12                                # membership

_ONE = {EQ: ("=", operator.eq), NE: ("!=", operator.ne), LT: ("<", operator.lt), LE: ("<=", operator.le),
        GT: (">", operator.gt), GE: (">=", operator.ge),
        IN: ("in", lambda a, b: a in b), NOT_IN: ("not in", lambda a, b: a not in b)}
# (left bracket, right bracket, include lower, include upper)
_RANGE = {INC_NEITHER: ("(", ")", False, False), INC_LEFT: ("[", ")", True, False),
          INC_RIGHT: ("(", "]", False, True), INC_BOTH: ("[", "]", True, True)}

__all__ = ["EQ", "NE", "LT", "LE", "GT", "GE", "INC_NEITHER", "INC_LEFT", "INC_RIGHT", "INC_BOTH", "IN", "NOT_IN",
           "check_int", "check_positive_int", "check_non_negative_int", "check_float", "check_positive_float",
           "check_non_negative_float", "check_bool", "check_int_range", "check_float_range", "check_number_range"]


def _subject(arg_name, prim_name, space=""):
    """MindSpore's message head: "For 'Cell', the 'x'" or "The input value"."""
    head = f"For '{prim_name}', the {space}" if prim_name else f"The {space}"
    return head + (f"'{arg_name}'" if arg_name else "input value")


def _check_number(arg_value, value, rel, arg_type, arg_name, prim_name):
    """``arg_value`` is an ``arg_type`` (not bool), finite, and ``arg_value <rel> value``."""
    who = _subject(arg_name, prim_name)
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{who} must be {arg_type.__name__}, but got '{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{who} must be a legal value, but got '{arg_value}'.")
    symbol, holds = _ONE[rel]
    is_bool = isinstance(arg_value, bool)
    if is_bool or not holds(arg_value, value):
        msg = (f"{who} must be {arg_type.__name__} and must {symbol} {value}, "
               f"but got '{arg_value}' with type '{type(arg_value).__name__}'.")
        raise TypeError(msg) if is_bool else ValueError(msg)
    return arg_value


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    """``arg_value <rel> value`` for an int: ``check_int(n, 0, GE, "n")`` means n >= 0."""
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    """An int > 0 (``True`` is refused with a TypeError)."""
    return _check_number(arg_value, 0, GT, int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    """An int >= 0."""
    return _check_number(arg_value, 0, GE, int, arg_name, prim_name)


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    """``arg_value <rel> value`` for a Python float (an int is a TypeError, as in MindSpore)."""
    return _check_number(arg_value, value, rel, float, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    """A float > 0."""
    return _check_number(arg_value, 0, GT, float, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    """A float >= 0."""
    return _check_number(arg_value, 0, GE, float, arg_name, prim_name)


def check_bool(arg_value, arg_name=None, prim_name=None):
    """A real ``bool`` (1 and 0 are refused)."""
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_subject(arg_name, prim_name)} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_number_range(arg_value, lower_limit, upper_limit, rel, value_type, arg_name=None, prim_name=None):
    """``lower <= arg_value < upper`` (or the bounds ``rel`` names) for a ``value_type`` or numpy scalar."""
    who = _subject(arg_name, prim_name)
    if not isinstance(arg_value, (np.ndarray, np.generic, value_type)) or isinstance(arg_value, bool):
        # MindSpore's message has two spaces before "but"; kept so the text matches.
        raise TypeError(f"{who} must be '{value_type.__name__}',  but got '{type(arg_value).__name__}'.")
    left, right, inc_lower, inc_upper = _RANGE[rel]
    above = arg_value >= lower_limit if inc_lower else arg_value > lower_limit
    below = arg_value <= upper_limit if inc_upper else arg_value < upper_limit
    if not (above and below):
        raise ValueError(f"{who} must be in range of {left}{lower_limit}, {upper_limit}{right}, "
                         f"but got {arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value


def check_int_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """An int within ``[lower, upper)`` or the bounds ``rel`` (INC_LEFT, ...) names."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """A float within ``[lower, upper)`` or the bounds ``rel`` (INC_LEFT, ...) names."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name, prim_name)
