"""Sparse tensors as MindSpore 2.10 offers them on CPU: ``RowTensor`` (rows of a dense tensor) and ``COOTensor``.

``COOTensor(indices, values, shape)``: a 2-D dense tensor given by its non-zero entries, ``indices`` an
``[N, 2]`` int tensor of (row, column) pairs and ``values`` the ``[N]`` entries; ``to_dense()`` adds the
entries into zeros (duplicates add up, as MindSpore's TensorScatterAdd does). ``RowTensor(indices, values,
dense_shape)``: the rows ``indices`` of a dense tensor hold ``values`` (a sparse gradient of a Gather);
MindSpore 2.10 gives it only the three attributes (no ``to_dense``) and warns that it is deprecated.

Checks and messages are MindSpore's (observed on CPU). Left out: ``COOTensor.coalesce`` (MindSpore's CPU
kernel wants int64 indices and gave wrong sums for unsorted ones), ``add`` and ``to_csr``.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core import log
from mslab.core.tensor import Tensor
from mslab.ops.host_ops import graph_print_text

__all__ = ["RowTensor", "COOTensor"]

_INDEX_DTYPES = (np.int16, np.int32, np.int64)


def _show(t):
    return graph_print_text(t.asnumpy())


class RowTensor:
    """Rows ``indices`` of a ``dense_shape`` tensor hold ``values``: ``values[i]`` is row ``indices[i]``."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        log.warning("'RowTensor' is deprecated from version 1.7 and will be removed in a future version.")
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        # MindSpore crashes the process on numpy inputs (observed: segmentation fault); a clear error instead
        for name, value in (("indices", indices), ("values", values)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For RowTensor, '{name}' must be a Tensor, but got {type(value)}.")
        if not isinstance(shape, tuple):
            raise TypeError(f"For RowTensor, 'shape' must be a tuple, but got {type(shape)}.")
        self.indices, self.values, self.dense_shape = indices, values, shape

    def __repr__(self):
        return (f"RowTensor(shape={list(self.dense_shape)}, dtype={self.values.dtype}, "
                f"indices={_show(self.indices)}, values={_show(self.values)})")


class COOTensor:
    """A 2-D tensor of ``shape`` whose entries at ``indices`` (``[N, 2]``) are ``values`` (``[N]``), zeros elsewhere."""

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        for name, value in (("indices", indices), ("values", values)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For SparseTensors, '{name}' must be Tensor, but got {type(value)}.")
        if indices.ndim != 2:
            raise ValueError(f"For COOTensor, 'indices' must be a 2-dimensional tensor, but got a "
                             f"{indices.ndim}-dimensional tensor.")
        if values.ndim != 1:
            raise ValueError(f"For COOTensor, 'values' must be a 1-dimensional tensor, but got a "
                             f"{values.ndim}-dimensional tensor.")
        if indices.shape[0] != values.shape[0]:
            raise ValueError(f"For COOTensor, 'indices.shape[0]' must be euqal to 'values.shape[0]', but got "
                             f"'indices.shape[0]' = {indices.shape[0]} and 'values.shape[0]' = {values.shape[0]}.")
        if indices.asnumpy().dtype.type not in _INDEX_DTYPES:
            raise TypeError(f"For COOTensor, the type of 'indices' must be one of [int16, int32, int64], "
                            f"but got {indices.dtype}.")
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError(f"For COOTensor, the length of 'shape' must be 2, but got {shape}.")
        self.indices, self.values, self.shape = indices, values, shape

    dtype = property(lambda self: self.values.dtype, doc="The values' dtype.")
    ndim = property(lambda self: len(self.shape), doc="2: a COOTensor is a matrix.")
    size = property(lambda self: self.values.shape[0], doc="How many entries are stored (not the dense size).")
    itemsize = property(lambda self: self.values.asnumpy().itemsize, doc="Bytes per value.")

    def to_tuple(self):
        """``(indices, values, shape)``."""
        return self.indices, self.values, self.shape

    def to_dense(self):
        """The dense matrix: zeros with each value added at its (row, column); out-of-range is an error."""
        idx, vals = self.indices.asnumpy(), self.values.asnumpy()
        for k, (row, col) in enumerate(idx):
            if not (0 <= row < self.shape[0] and 0 <= col < self.shape[1]):
                raise RuntimeError(f"For 'TensorScatterAdd', the {k}-th value of 'indices'[{row}, {col}] is out of "
                                   f"range[{self.shape[0]}, {self.shape[1]}].")
        dense = np.zeros(self.shape, vals.dtype)
        np.add.at(dense, (idx[:, 0], idx[:, 1]), vals)
        return Tensor(dense)

    def astype(self, dt):
        """The same entries with values cast to ``dt``."""
        return COOTensor(self.indices, Tensor(self.values.asnumpy().astype(mstype.to_numpy(dt))), self.shape)

    def abs(self):
        """Entry-wise absolute value."""
        return COOTensor(self.indices, Tensor(np.abs(self.values.asnumpy())), self.shape)

    def __repr__(self):
        return (f"COOTensor(shape={list(self.shape)}, dtype={self.dtype}, indices={_show(self.indices)}, "
                f"values={_show(self.values)})")
