"""The stride-1 convolution kernels build their columns a few images at a time: with chunks far smaller
than a batch (every image its own chunk, odd batch sizes), dilation and uneven padding they must still
give the direct sums (forward, filter gradient) and the adjoint of the forward (input gradient)."""
import numpy as np
import pytest

from mslab.ops import conv_kernels as K
from mslab.ops import conv_wide_kernels as wide

CASES = [  # N, C, H, W, O, kh, kw, dilation, pads (top, bottom, left, right)
    (5, 3, 7, 6, 4, 3, 2, (1, 2), (1, 0, 2, 1)),
    (3, 2, 5, 5, 3, 1, 1, (1, 1), (0, 0, 0, 0)),
    (7, 1, 9, 8, 2, 5, 3, (2, 1), (2, 2, 1, 1)),
    # O <= C: the input gradient is a convolution of dout; padding beyond the kernel's reach crops dout instead
    (4, 5, 6, 5, 3, 3, 3, (1, 2), (1, 2, 0, 1)),
    (2, 3, 5, 6, 2, 3, 2, (1, 1), (3, 0, 1, 4)),
    (3, 4, 6, 7, 4, 3, 3, (1, 1), (1, 1, 1, 1)),  # "same": rows share their padding
    (2, 3, 4, 1, 2, 5, 5, (1, 1), (2, 2, 2, 2)),  # the window reaches past a shared row: both paddings kept
]


@pytest.mark.parametrize("small_gemm", [0, wide.SMALL_GEMM])  # 0: no GEMM counts as small (the big layers' paths)
@pytest.mark.parametrize("chunk_bytes", [1, 3000, 1 << 30])
@pytest.mark.parametrize("case", CASES)
def test_chunked_columns_give_the_direct_sums(monkeypatch, chunk_bytes, small_gemm, case):
    monkeypatch.setattr(wide, "CHUNK_BYTES", chunk_bytes)
    monkeypatch.setattr(wide, "SMALL_GEMM", small_gemm)
    N, C, H, W, O, kh, kw, dil, pads = case
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((N, C, H, W)), rng.standard_normal((O, C, kh, kw))
    _, out_hw = K.window_geometry(x.shape, (kh, kw), (1, 1), dil, "pad", pads)
    win = K.windows(K.pad4(x, pads), (kh, kw), (1, 1), dil, out_hw)
    out = K.conv2d(x, w, (1, 1), dil, pads, out_hw)
    np.testing.assert_allclose(out, np.einsum("ncpqij,ocpq->noij", win, w), rtol=1e-12, atol=1e-12)
    d = rng.standard_normal(out.shape)
    np.testing.assert_allclose(K.conv2d_filter_grad(d, x, w.shape, (1, 1), dil, pads),
                               np.einsum("ncpqij,noij->ocpq", win, d), rtol=1e-12, atol=1e-12)
    dx = K.conv2d_input_grad(d, w, x.shape, (1, 1), dil, pads)
    e = rng.standard_normal(x.shape)  # <conv(e), d> == <e, dx>: dx is the adjoint of the forward applied to d
    np.testing.assert_allclose((K.conv2d(e, w, (1, 1), dil, pads, out_hw) * d).sum(), (e * dx).sum(), rtol=1e-10)
    fused = wide.conv2d_grads(d, x, w, dil, pads)  # GRAPH mode's two backward nodes at once: the same bits
    dw = K.conv2d_filter_grad(d, x, w.shape, (1, 1), dil, pads)
    assert [a.tobytes() for a in fused] == [dx.tobytes(), dw.tobytes()]


def test_float16_is_computed_in_float32_and_rounded_back():
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((2, 3, 6, 6)).astype(np.float16), rng.standard_normal((4, 3, 3, 3)).astype(np.float16)
    out = K.conv2d(x, w, (1, 1), (1, 1), (1, 1, 1, 1), (6, 6))
    ref = K.conv2d(x.astype(np.float32), w.astype(np.float32), (1, 1), (1, 1), (1, 1, 1, 1), (6, 6))
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, ref.astype(np.float16))
