"""The stride-1 convolution kernels of the speed layer (mslab.fast.conv_wide_kernels) build their columns a few
images at a time: with chunks far smaller than a batch (every image its own chunk, odd batch sizes), dilation and
uneven padding they must still give the direct sums (forward, filter gradient) and the adjoint of the forward
(input gradient)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, fast, ops
from mslab.fast import conv_wide_kernels as wide
from mslab.ops import conv_kernels as K

needs_speed_layer = pytest.mark.skipif(not fast.enabled(), reason="the speed layer is off (MSLAB_PLAIN)")


@pytest.fixture(params=[True, False], ids=["wide", "im2col"])
def either_kernels(request):
    """The test runs with the speed layer's wide kernels and with the plain im2col ones: both must hold."""
    was = fast.enabled()
    fast.set_enabled(request.param)
    yield
    fast.set_enabled(was)

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


@needs_speed_layer
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


def test_float16_is_computed_in_float32_and_rounded_back(either_kernels):
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((2, 3, 6, 6)).astype(np.float16), rng.standard_normal((4, 3, 3, 3)).astype(np.float16)
    out = K.conv2d(x, w, (1, 1), (1, 1), (1, 1, 1, 1), (6, 6))
    ref = K.conv2d(x.astype(np.float32), w.astype(np.float32), (1, 1), (1, 1), (1, 1, 1, 1), (6, 6))
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, ref.astype(np.float16))


@needs_speed_layer
@pytest.mark.parametrize("shape, w_shape, pads", [
    ((1, 1, 6, 6), (1, 1, 3, 3), (1, 1, 1, 1)),      # 'same': junk columns read the next row's first pixel
    ((2, 6, 14, 14), (16, 6, 5, 5), (0, 0, 0, 0)),   # LeNet's second convolution (per-image GEMMs)
    ((2, 3, 8, 8), (4, 3, 3, 3), (1, 1, 1, 1)),
])
def test_filter_gradient_of_an_image_with_inf_has_no_nan_from_junk_columns(shape, w_shape, pads):
    """A junk column times dout's zero must add nothing even where the image holds an inf: entries whose true
    sum is finite stay finite (an inf * 0 there would have made them NaN)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    x[0, 0, 2, -1] = np.inf  # the last pixel of a row: the next row's junk columns would read it
    kh, kw = w_shape[2:]
    t, b, l, r = pads
    OH, OW = shape[2] + t + b - kh + 1, shape[3] + l + r - kw + 1
    dout = rng.standard_normal((shape[0], w_shape[0], OH, OW)).astype(np.float32)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (t, b), (l, r)))
    ref = np.zeros(w_shape)
    with np.errstate(all="ignore"):  # inf * 0 inside the sums, as in a kernel run under quiet_kernels
        dw = wide.conv2d_filter_grad(dout, x, w_shape, (1, 1), pads)
        for p in range(kh):
            for q in range(kw):
                ref[:, :, p, q] = np.einsum("nohw,nchw->oc", dout, xp[:, :, p:p + OH, q:q + OW])
    np.testing.assert_array_equal(np.isnan(dw), np.isnan(ref))
    finite = np.isfinite(ref)
    assert finite.any() and not finite.all()
    np.testing.assert_allclose(dw[finite], ref[finite], rtol=1e-4, atol=1e-4)


@needs_speed_layer
@pytest.mark.parametrize("shape, w_shape, pads", [
    ((1, 1, 5, 5), (1, 1, 3, 3), (0, 0, 0, 0)),      # the full convolution of zero-padded dout (O <= C)
    ((2, 6, 14, 14), (16, 6, 5, 5), (0, 0, 0, 0)),   # col2im over junk columns (O > C)
    ((2, 8, 9, 9), (4, 8, 3, 3), (1, 1, 1, 1)),
])
def test_input_gradient_with_an_inf_weight_has_no_nan_from_padding(shape, w_shape, pads):
    """Pixels no window puts the inf weight on keep finite gradients (the fast paths' inf * 0 on dout's padding
    or junk columns would have made them NaN)."""
    rng = np.random.default_rng(1)
    w = rng.standard_normal(w_shape).astype(np.float32)
    w[0, 0, 1, 1] = np.inf
    kh, kw = w_shape[2:]
    t, b, l, r = pads
    OH, OW = shape[2] + t + b - kh + 1, shape[3] + l + r - kw + 1
    dout = rng.standard_normal((shape[0], w_shape[0], OH, OW)).astype(np.float32)
    ref = np.zeros((shape[0], shape[1], shape[2] + t + b, shape[3] + l + r))
    with np.errstate(all="ignore"):
        dx = wide.conv2d_input_grad(dout, w, shape, (1, 1), pads)
        for p in range(kh):
            for q in range(kw):
                ref[:, :, p:p + OH, q:q + OW] += np.einsum("oc,nohw->nchw", w[:, :, p, q].astype(np.float64), dout)
    ref = ref[:, :, t:t + shape[2], l:l + shape[3]]
    np.testing.assert_array_equal(np.isnan(dx), np.isnan(ref))
    finite = np.isfinite(ref)
    assert finite.any() and not finite.all()
    np.testing.assert_allclose(dx[finite], ref[finite], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_conv2d_gradients_with_inf_as_mindspore(mode, either_kernels):
    """Both gradients of Conv2D beside an inf, as MindSpore 2.10 computes them: finite wherever the true sum is."""
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        w = np.ones((1, 1, 3, 3), np.float32)
        w[0, 0, 1, 1] = np.inf
        conv = ops.Conv2D(1, 3, pad_mode="valid")
        gx = ops.GradOperation(get_all=True)(lambda x, w: conv(x, w).sum())(
            Tensor(np.ones((1, 1, 5, 5), np.float32)), Tensor(w))[0].asnumpy()[0, 0]
        x = np.ones((1, 1, 6, 6), np.float32)
        x[0, 0, 2, 5] = np.inf
        same = ops.Conv2D(1, 3, pad_mode="same")
        gw = ops.GradOperation(get_all=True)(lambda x, w: same(x, w).sum())(
            Tensor(x), Tensor(np.ones((1, 1, 3, 3), np.float32)))[1].asnumpy()[0, 0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    inf = np.inf
    # observed on MindSpore 2.10 CPU (PYNATIVE), the same two calls:
    np.testing.assert_array_equal(gx, [[1, 2, 3, 2, 1], [2, inf, inf, inf, 2], [3, inf, inf, inf, 3],
                                       [2, inf, inf, inf, 2], [1, 2, 3, 2, 1]])
    np.testing.assert_array_equal(gw, [[25, inf, inf], [30, inf, inf], [25, inf, inf]])
