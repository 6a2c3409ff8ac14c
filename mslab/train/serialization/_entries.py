"""What ``save_checkpoint`` saves: ``[(name, value)]`` from a Cell, a list, a dict and ``append_dict``.

A value is a numpy array (a parameter's numbers) or a str (``append_dict={"note": "hello"}``), as in
MindSpore, where ``append_dict`` numbers become Tensors first (an int is Int64, a float Float32).
"""
import numpy as np

from mslab.core.tensor import Parameter, Tensor
from mslab.nn.cell import Cell

__all__ = ["entries_of"]

_OWNER = "For 'save_checkpoint'"


def _array(name, data):
    """``data`` as a numpy array of a dtype a checkpoint holds; a str stays a str."""
    if isinstance(data, str):
        return data
    if isinstance(data, Tensor):
        arr = data.asnumpy()
    elif isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, (bool, int, float, np.number, np.bool_)):
        arr = Tensor(data).asnumpy()  # MindSpore makes a Tensor of it: an int is Int64, a float Float32
    else:
        raise TypeError(f"{_OWNER}, the value of {name!r} is a {type(data).__name__}; give a Parameter, a Tensor, "
                        "a numpy array, a number or a str")
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{_OWNER}, {name!r} has dtype {arr.dtype}, which a checkpoint cannot hold")
    return arr if arr.flags.c_contiguous else arr.copy(order="C")


def _from_list(items):
    for i, item in enumerate(items):
        if isinstance(item, Parameter):
            yield item.name, item
        elif isinstance(item, dict) and "name" in item and "data" in item:
            if not isinstance(item["name"], str):
                raise TypeError(f"{_OWNER}, when save_obj is a list of dict items, the name in dict should be "
                                f"string, but got {type(item['name'])} (item {i}).")
            yield item["name"], item["data"]
        else:
            raise TypeError(f"{_OWNER}, list item {i} must be a Parameter or a dict {{'name': str, 'data': Tensor}}, "
                            f"got {type(item).__name__}")


def _from_dict(mapping):
    for name, value in mapping.items():
        if not isinstance(name, str):
            raise TypeError(f"{_OWNER}, when save_obj is a dict its keys must be str (parameter names), "
                            f"got {type(name).__name__}")
        yield name, value


def entries_of(save_obj, append_dict=None, choice_func=None):
    """``[(name, array or str)]`` in saving order; refuses two entries with one name."""
    if isinstance(save_obj, Cell):
        named = ((p.name, p) for _, p in save_obj.parameters_and_names())
    elif isinstance(save_obj, dict):
        named = _from_dict(save_obj)
    elif isinstance(save_obj, (list, tuple)):
        named = _from_list(save_obj)
    else:
        raise TypeError(f"{_OWNER}, the parameter 'save_obj' must be nn.Cell, list or dict, "
                        f"but got {type(save_obj)}.")
    out = [(name, value) for name, value in named if choice_func is None or choice_func(name)]
    if append_dict is not None:
        if not isinstance(append_dict, dict):
            raise TypeError(f"{_OWNER}, the argument 'append_dict' must be dict, but got {type(append_dict)}.")
        out.extend(_from_dict(append_dict))
    seen = set()
    for name, _ in out:
        if name in seen:
            raise ValueError(f"{_OWNER}, two entries are named {name!r}; names in a checkpoint must be unique")
        seen.add(name)
    return [(name, _array(name, value)) for name, value in out]
