"""Issue #19: RowTensor and COOTensor as MindSpore 2.10 offers them on CPU.

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, common


def _coo(indices, values=(1.0, 2.0), shape=(3, 4), dtype=ms.int32):
    return ms.COOTensor(Tensor(indices, dtype), Tensor(list(values), ms.float32), shape)


def test_import_paths():
    # observed on MindSpore 2.10: mindspore.common.RowTensor is mindspore.RowTensor (COOTensor too)
    assert common.RowTensor is ms.RowTensor and common.COOTensor is ms.COOTensor


def test_row_tensor_attributes_and_print():
    r = ms.RowTensor(Tensor([0, 2], ms.int32), Tensor([[1.0, 2.0], [3.0, 4.0]], ms.float32), (4, 2))
    assert r.indices.asnumpy().tolist() == [0, 2] and r.dense_shape == (4, 2)
    assert r.values.asnumpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert not hasattr(r, "to_dense")  # observed: AttributeError 'RowTensor' object has no attribute 'to_dense'
    # observed on MindSpore 2.10 CPU, print(r):
    assert repr(r) == ("RowTensor(shape=[4, 2], dtype=Float32, indices=Tensor(shape=[2], dtype=Int32, value=[0 2]), "
                       "values=Tensor(shape=[2, 2], dtype=Float32, value=\n[[ 1.00000000e+00  2.00000000e+00]\n"
                       " [ 3.00000000e+00  4.00000000e+00]]))")
    assert ms.RowTensor(row_tensor=r).dense_shape == (4, 2)  # observed: (4, 2)
    with pytest.raises(TypeError, match="For RowTensor, 'indices' must be a Tensor"):
        ms.RowTensor(np.array([0, 2]), np.ones((2, 2)), (4, 2))  # MindSpore: segmentation fault


def test_coo_tensor_attributes_to_dense_and_print():
    c = _coo([[0, 1], [1, 2]])
    assert c.shape == (3, 4) and c.dtype == ms.float32
    # observed on MindSpore 2.10 CPU
    assert c.to_dense().asnumpy().tolist() == [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    assert repr(c) == ("COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(shape=[2, 2], dtype=Int32, value=\n"
                       "[[0 1]\n [1 2]]), values=Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  "
                       "2.00000000e+00]))")
    indices, values, shape = c.to_tuple()
    assert indices is c.indices and values is c.values and shape == (3, 4)
    assert ms.COOTensor(coo_tensor=c).values.asnumpy().tolist() == [1.0, 2.0]


def test_coo_tensor_duplicates_add_and_small_methods():
    dup = _coo([[0, 1], [0, 1], [2, 3]], (1.0, 2.0, 5.0), dtype=ms.int64)
    # observed on MindSpore 2.10 CPU: [[0. 3. 0. 0.] [0. 0. 0. 0.] [0. 0. 0. 5.]]
    assert dup.to_dense().asnumpy().tolist() == [[0.0, 3.0, 0.0, 0.0], [0.0] * 4, [0.0, 0.0, 0.0, 5.0]]
    c = _coo([[0, 1]], (-1.5,))
    # observed on MindSpore 2.10 CPU: [1.5] [-1] 4 1 2, and astype(float64).dtype Float64
    assert c.abs().values.asnumpy().tolist() == [1.5]
    assert c.astype(ms.int32).values.asnumpy().tolist() == [-1]
    assert (c.itemsize, c.size, c.ndim) == (4, 1, 2)
    assert c.astype(ms.float64).dtype == ms.float64


@pytest.mark.parametrize("make, kind, message", [
    # observed on MindSpore 2.10 CPU, each in its own process
    (lambda: _coo([0, 1]), ValueError,
     "For COOTensor, 'indices' must be a 2-dimensional tensor, but got a 1-dimensional tensor."),
    (lambda: ms.COOTensor(Tensor([[0, 1]], ms.int32), Tensor([[1.0]], ms.float32), (3, 4)), ValueError,
     "For COOTensor, 'values' must be a 1-dimensional tensor, but got a 2-dimensional tensor."),
    (lambda: _coo([[0, 1], [1, 1]], (1.0,)), ValueError,
     "For COOTensor, 'indices.shape[0]' must be euqal to 'values.shape[0]', but got 'indices.shape[0]' = 2 and "
     "'values.shape[0]' = 1."),
    (lambda: _coo([[0, 1]], (1.0,), dtype=ms.float32), TypeError,
     "For COOTensor, the type of 'indices' must be one of [int16, int32, int64], but got Float32."),
    (lambda: ms.COOTensor(np.array([[0, 1]]), Tensor([1.0], ms.float32), (3, 4)), TypeError,
     "For SparseTensors, 'indices' must be Tensor, but got <class 'numpy.ndarray'>."),
    (lambda: _coo([[0, 1]], (1.0,), shape=(3, 4, 5)), ValueError,
     "For COOTensor, the length of 'shape' must be 2, but got (3, 4, 5)."),
    (lambda: _coo([[5, 1]], (1.0,)).to_dense(), RuntimeError,
     "For 'TensorScatterAdd', the 0-th value of 'indices'[5, 1] is out of range[3, 4]."),
])
def test_coo_tensor_errors(make, kind, message):
    with pytest.raises(kind) as err:
        make()
    assert str(err.value) == message
