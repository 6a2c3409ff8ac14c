"""``mindspore.parallel.Layout``: names for the axes of a device grid, and how a tensor maps onto them.

``Layout((2, 4), ("dp", "mp"))`` describes 8 devices as a 2 x 4 grid; calling it with one axis name
per tensor dimension, ``layout("dp", "mp")``, gives a copy whose ``tensor_map`` says which grid axis
splits each dimension, counted from the last grid axis (``"mp"`` -> 0, ``"dp"`` -> 1, ``"None"`` -> -1,
not split). MindSpore's semi-auto parallel compiler reads it; on one process nothing is split. The
checks and messages are MindSpore 2.10's (mindspore/parallel/shard.py).
"""
import copy
import math

__all__ = ["Layout"]


class Layout:
    """A device grid with named axes; ``layout(*axis_names)`` maps a tensor's dimensions onto it."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        for size in device_matrix:
            if not isinstance(size, int):
                raise TypeError(f"The element of device_matrix must be int type, but got:{type(size)}")
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f"The element of alias_name must be str type, but got:{type(name)}")
            if not name:
                raise ValueError("The element of alias_name can not be empty.")
            if name == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if "interleaved_parallel" in alias_name and alias_name.index("interleaved_parallel") != len(alias_name) - 1:
            raise ValueError(f"When alias_name {alias_name} contains keyword 'interleaved_parallel', it should be at "
                             "the last dim of alias_name, which means the virtual sharding.")
        n_devices = math.prod(device_matrix)
        if rank_list is None:
            rank_list = list(range(n_devices))
        elif not isinstance(rank_list, list):
            raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
        else:
            for rank in rank_list:
                if not isinstance(rank, int):
                    raise TypeError(f"The rank_list should be a 1-D list of int, but got {type(rank).__name__}.")
            if len(rank_list) != n_devices:
                raise ValueError("The length of rank_list should be equal to the product of device_matrix, "
                                 f"but got {len(rank_list)} and {n_devices}.")
        self._device_shape, self._alias_name, self._rank_list = device_matrix, alias_name, rank_list
        self._tensor_map = None

    def _axis(self, name, used):
        """The grid axis a name splits along, counted from the last axis (MindSpore's tensor_map)."""
        if name == "None":
            return -1
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in used:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        used.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        """A copy of this layout mapping each tensor dimension to the named axis (a tuple: several axes)."""
        used = []
        self._tensor_map = tuple(tuple(self._axis(n, used) for n in item) if isinstance(item, tuple)
                                 else self._axis(item, used) for item in tensor_map)
        return copy.deepcopy(self)

    def to_dict(self):
        """``{"device_matrix", "tensor_map", "interleaved_parallel", "alias_name", "rank_list"}``."""
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": "interleaved_parallel" in self._alias_name,
                "alias_name": self._alias_name, "rank_list": self._rank_list}
