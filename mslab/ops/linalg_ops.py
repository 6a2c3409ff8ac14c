"""Linear algebra: ``ops.pinv``, the Moore-Penrose pseudo-inverse of a matrix (or a batch of them).

For A = U diag(s) Vᵀ (the singular value decomposition), pinv(A) = V diag(1/s) Uᵀ, where singular values
at or below a cutoff count as zero (their 1/s is replaced by 0). So pinv(A) solves least squares:
x = pinv(A) b minimises |A x - b|, and for an invertible A it is the inverse.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, instance

__all__ = []


def _t(x):
    return op_table.swapaxes(x, -1, -2)


class _Pinv(Primitive):
    """pinv(x) over the last two axes: (..., M, N) -> (..., N, M), computed in float64 from numpy's SVD.

    Singular values s <= max(atol, rtol * max(s)) are dropped. The gradient (Golub & Pereyra, valid while
    the rank stays the same) with P = pinv(A) and G = dout:
        dA = -Pᵀ G Pᵀ + (I - A P) Gᵀ P Pᵀ + Pᵀ P Gᵀ (I - P A)
    """

    n_tensors = 1

    def __init__(self, atol, rtol, hermitian):
        super().__init__(atol=atol, rtol=rtol, hermitian=hermitian)

    def infer(self, x):
        if x.dtype not in (np.float32, np.float64):
            raise TypeError(f"For 'pinv', the 'x' should be one of [mindspore.float32, mindspore.float64], but got "
                            f"'mindspore.{str(mstype.from_numpy(x.dtype)).lower()}'.")
        if len(x.shape) < 2:
            raise ValueError(f"For 'pinv', the dimension of 'x' should be at least 2, got shape {tuple(x.shape)}")
        return tuple(x.shape[:-2]) + (x.shape[-1], x.shape[-2]), x.dtype

    def compute(self, x):
        a = x.astype(np.float64)
        if self.hermitian:  # eigenvalues of the lower triangle; |w| are the singular values
            w, v = np.linalg.eigh(a)
            s, left, right = np.abs(w), v * np.sign(np.where(w == 0, 1, w))[..., None, :], v
        else:
            left, s, right_h = np.linalg.svd(a, full_matrices=False)
            right = np.swapaxes(right_h, -1, -2)
        top = s.max(-1, keepdims=True) if s.shape[-1] else np.zeros(s.shape[:-1] + (1,))
        cutoff = np.maximum(self.atol, self.rtol * top)
        s_inv = np.where(s > cutoff, 1.0 / np.where(s > cutoff, s, 1.0), 0.0)
        return ((right * s_inv[..., None, :]) @ np.swapaxes(left, -1, -2)).astype(x.dtype)

    def bprop(self, x, out, dout):
        p, pt, gt = out, _t(out), _t(dout)
        term1 = -(pt @ dout @ pt)
        k = gt @ (p @ pt)
        term2 = k - x @ (p @ k)
        low = pt @ p @ gt
        term3 = low - low @ p @ x
        return (term1 + term2 + term3,)


def _tolerance(value, what):
    if value is None:
        return None
    if isinstance(value, Tensor):
        value = value.asnumpy().item()  # a constant tolerance
    return float(value)


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The pseudo-inverse of ``x`` (..., M, N) -> (..., N, M) (``ops.pinv``; Float32 or Float64 only).

    Singular values at or below max(atol, rtol * largest) count as zero. As MindSpore: atol defaults to 0,
    and rtol to eps * max(M, N) when atol is not given (positive), else to 0. With ``hermitian=True`` x is
    taken as symmetric (only its lower triangle is read) and an eigendecomposition replaces the SVD.
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'pinv', 'x' must be a Tensor, got {type(x).__name__}")
    atol, rtol = _tolerance(atol, "atol"), _tolerance(rtol, "rtol")
    if rtol is None:
        eps = float(np.finfo(np.float32 if x.dtype == mstype.float32 else np.float64).eps)
        rtol = eps * max(x.shape[-2:], default=1) if atol is None or atol <= 0 else 0.0
    return instance(_Pinv, max(atol or 0.0, 0.0), rtol, bool(hermitian))(x)


__all__ += ["pinv"]
op_table.register(globals(), __all__)
