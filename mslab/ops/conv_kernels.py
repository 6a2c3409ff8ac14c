"""Numpy kernels behind the convolution and pooling primitives of ``nn_ops`` (NCHW layout).

Convolution is im2col plus one BLAS matmul: a strided *view* of the padded input lists, for every
output pixel, the input pixels its kernel window covers (no copy); reshaping that view into a matrix
copies it once, and one matmul with the weights does all the multiply-adds. The backward kernels use
the same windows: the filter gradient is a matmul of ``dout`` with the columns, the input gradient a
matmul giving per-window gradients that are added back into the image (col2im) with a loop over the
kernel positions only (kh * kw iterations, each a whole-array add), never over batch or pixels.

Pooling loops over kernel positions too: the max of a window is the running maximum of kh * kw
strided slices, and the argmax (first maximum, in row-major window order, as PyTorch and MindSpore)
is tracked alongside, so MaxPoolGrad routes each window's gradient to exactly one input position. The
common 2x2 windows at stride 2 take whole-array steps instead (``_max_pool_grad_2x2``): numpy runs four
strided slices of a small image in many short loops.

float16 inputs are computed in float32 and rounded back (numpy has no fast float16 matmul).

These kernels serve every stride. The speed layer may install kernels of its own for stride 1, the common
case (``mslab.core.hooks.stride1_convolution``: ``mslab.fast.conv_wide_kernels``, contiguous "wide" columns
built a few images at a time); they compute the same sums in another order, so the last bits may differ.
"""
import functools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from mslab.core import hooks


def compute_dtype(dtype):
    """The dtype a kernel computes in: float16 in float32 (rounded back after), any other as it is."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype


# ---- attribute normalisation ------------------------------------------------------------------------
def pair(value, what):
    """An int or a tuple of 2 (or MindSpore's 4, ``(1, 1, h, w)``) ints -> ``(h, w)``."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        out = (int(value), int(value))
    elif isinstance(value, (tuple, list)) and len(value) in (2, 4) and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        out = (int(value[-2]), int(value[-1]))
    else:
        raise ValueError(f"{what} must be an int or a tuple of 2 ints, got {value!r}")
    if min(out) < 1:
        raise ValueError(f"{what} must be positive, got {value!r}")
    return out


def four_pads(pad):
    """``pad`` as an int (all sides), 2 ints (top/bottom, left/right) or 4 ints (top, bottom, left, right)."""
    if isinstance(pad, (int, np.integer)) and not isinstance(pad, bool):
        out = (int(pad),) * 4
    elif isinstance(pad, (tuple, list)) and len(pad) == 2:
        out = (int(pad[0]), int(pad[0]), int(pad[1]), int(pad[1]))
    elif isinstance(pad, (tuple, list)) and len(pad) == 4:
        out = tuple(int(p) for p in pad)
    else:
        raise ValueError(f"pad must be an int or a tuple of 4 ints (top, bottom, left, right), got {pad!r}")
    if min(out) < 0:
        raise ValueError(f"pad must be non-negative, got {pad!r}")
    return out


def pad_mode_of(pad_mode, allowed):
    mode = str(pad_mode).lower()
    if mode not in allowed:
        raise ValueError(f"pad_mode must be one of {', '.join(repr(a) for a in allowed)}, got {pad_mode!r}")
    return mode


def _same(size, k, s, d):
    """TF/MindSpore "same": output ceil(size / stride); the odd padding pixel goes bottom/right."""
    out = -(-size // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def window_geometry(shape, kernel, stride, dilation, pad_mode, pad):
    """``(pads, (OH, OW))`` of a kh x kw window sliding over the last two axes of ``shape``.

    ``pads`` is (top, bottom, left, right). Raises ValueError (with the sizes) if no window fits.
    """
    H, W = shape[-2], shape[-1]
    (kh, kw), (sh, sw), (dh, dw) = kernel, stride, dilation
    if pad_mode == "same":
        pads = _same(H, kh, sh, dh) + _same(W, kw, sw, dw)
    elif pad_mode == "pad":
        pads = pad
    else:
        pads = (0, 0, 0, 0)
    eh, ew = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    Hp, Wp = H + pads[0] + pads[1], W + pads[2] + pads[3]
    if Hp < eh or Wp < ew:
        raise ValueError(f"the {kh}x{kw} window (dilation {dh}x{dw}, so {eh}x{ew} pixels) does not fit in the "
                         f"{Hp}x{Wp} (padded) input of shape {tuple(shape)} with pad_mode {pad_mode!r}")
    return pads, ((Hp - eh) // sh + 1, (Wp - ew) // sw + 1)


# ---- shared helpers ---------------------------------------------------------------------------------
def pad4(x, pads, value=0):
    """Pad the last two axes of an NCHW array by (top, bottom, left, right) with ``value``."""
    t, b, l, r = pads
    if not (t or b or l or r):
        return x
    return np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)), constant_values=value)


def windows(xp, kernel, stride, dilation, out_hw):
    """Read-only view (N, C, kh, kw, OH, OW) of the windows of padded ``xp`` (no copy)."""
    N, C = xp.shape[:2]
    sN, sC, sH, sW = xp.strides
    (kh, kw), (sh, sw), (dh, dw) = kernel, stride, dilation
    OH, OW = out_hw
    return as_strided(xp, (N, C, kh, kw, OH, OW), (sN, sC, sH * dh, sW * dw, sH * sh, sW * sw), writeable=False)


def _tap(p, q, stride, dilation, out_hw):
    """The slice of the padded image that kernel position (p, q) reads for all output pixels."""
    (sh, sw), (dh, dw), (OH, OW) = stride, dilation, out_hw
    return (slice(None), slice(None), slice(p * dh, p * dh + sh * (OH - 1) + 1, sh),
            slice(q * dw, q * dw + sw * (OW - 1) + 1, sw))


def _crop(xp, pads, shape):
    t, _, l, _ = pads
    return xp[:, :, t:t + shape[2], l:l + shape[3]]


# ---- convolution ------------------------------------------------------------------------------------
def conv2d(x, w, stride, dilation, pads, out_hw):
    """out[n, o] = sum_{c, p, q} w[o, c, p, q] * xpad[n, c, i*sh + p*dh, j*sw + q*dw]."""
    if stride == (1, 1) and hooks.stride1_convolution is not None:
        return hooks.stride1_convolution.conv2d(x, w, dilation, pads, out_hw)
    dt, ct = x.dtype, compute_dtype(x.dtype)
    N, C = x.shape[:2]
    O, _, kh, kw = w.shape
    OH, OW = out_hw
    w2 = w.astype(ct, copy=False).reshape(O, C * kh * kw)
    xp = pad4(x.astype(ct, copy=False), pads)
    cols = windows(xp, (kh, kw), stride, dilation, out_hw).reshape(N, C * kh * kw, OH * OW)  # im2col (a copy)
    return np.matmul(w2, cols).reshape(N, O, OH, OW).astype(dt, copy=False)  # one batched matmul


def conv2d_filter_grad(dout, x, w_shape, stride, dilation, pads):
    """dW[o, c, p, q] = sum_{n, i, j} dout[n, o, i, j] * xpad[n, c, i*sh + p*dh, j*sw + q*dw]."""
    if stride == (1, 1) and hooks.stride1_convolution is not None:
        return hooks.stride1_convolution.conv2d_filter_grad(dout, x, w_shape, dilation, pads)
    dt, ct = dout.dtype, compute_dtype(dout.dtype)
    O, C, kh, kw = w_shape
    N, _, OH, OW = dout.shape
    # The product is taken as cols @ dout^T, giving dW transposed: OpenBLAS runs this orientation of the
    # long inner dimension (every pixel of the batch) up to twice as fast as dout @ cols^T.
    xp = pad4(x.astype(ct, copy=False), pads)
    cols = windows(xp, (kh, kw), stride, dilation, (OH, OW)).transpose(1, 2, 3, 0, 4, 5).reshape(C * kh * kw, -1)
    d2 = dout.astype(ct, copy=False).transpose(1, 0, 2, 3).reshape(O, N * OH * OW)
    return np.matmul(cols, d2.T).T.reshape(O, C, kh, kw).astype(dt, copy=False)


def conv2d_input_grad(dout, w, x_shape, stride, dilation, pads):
    """dX: each window's gradient (W^T @ dout) added back where the window read (col2im)."""
    if stride == (1, 1) and hooks.stride1_convolution is not None:
        return hooks.stride1_convolution.conv2d_input_grad(dout, w, x_shape, dilation, pads)
    dt, ct = dout.dtype, compute_dtype(dout.dtype)
    N, C, H, W = x_shape
    O, _, kh, kw = w.shape
    OH, OW = dout.shape[2:]
    Hp, Wp = H + pads[0] + pads[1], W + pads[2] + pads[3]
    w2 = w.astype(ct, copy=False).transpose(2, 3, 1, 0).reshape(kh * kw * C, O)
    d2 = dout.astype(ct, copy=False).transpose(1, 0, 2, 3).reshape(O, N * OH * OW)
    dcols = np.matmul(w2, d2).reshape(kh, kw, C, N, OH, OW)
    dxp = np.zeros((C, N, Hp, Wp), ct)
    for p in range(kh):
        for q in range(kw):
            dxp[_tap(p, q, stride, dilation, (OH, OW))] += dcols[p, q]
    return np.ascontiguousarray(_crop(dxp, pads, (C, N, H, W)).transpose(1, 0, 2, 3), dtype=dt)


# ---- pooling ------------------------------------------------------------------------------------------
def _taps(kernel):
    kh, kw = kernel
    return [(p, q) for p in range(kh) for q in range(kw)]


def max_pool(x, kernel, stride, pads, out_hw):
    """Window maxima (N, C, OH, OW): the running maximum of the kh * kw strided slices."""
    xp = pad4(x, pads, -np.inf)
    best = None
    for p, q in _taps(kernel):
        v = xp[_tap(p, q, stride, (1, 1), out_hw)]
        best = v.copy() if best is None else np.maximum(best, v, out=best)
    return best


def _routes(x, out, kernel, stride, pads, out_hw):
    """For each kernel position, the windows whose (first, row-major) maximum sits there: (tap, bool mask).

    A window's maximum is found by comparing with the forward's ``out``; ``hit > taken`` keeps only the
    first position that holds it, so every window routes to exactly one input.
    """
    xp = pad4(x, pads, -np.inf)
    taken = None
    for p, q in _taps(kernel):
        sl = _tap(p, q, stride, (1, 1), out_hw)
        hit = xp[sl] == out
        if taken is None:
            route, taken = hit, hit.copy()
        else:
            route = hit > taken
            taken |= hit
        yield sl, route


_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def bitwise_routing(dtype):
    """Whether max_pool_grad's non-overlapping path (dout's bits ANDed into place, +0 elsewhere) serves ``dtype``."""
    return np.dtype(dtype).kind == "f" and np.dtype(dtype).itemsize in _UINT


@functools.lru_cache(maxsize=16)
def _top_rows(n_windows_rows, half_width):
    """Flat read-only bool mask over the horizontal pairs of an image batch: True in each window's top row."""
    top = np.zeros((n_windows_rows, 2, half_width), bool)
    top[:, 0] = True
    top.flags.writeable = False
    return top.reshape(-1)


def _first_hits_2x2(hit):
    """Keep, in each 2x2 window of the (N, C, H, W) bool ``hit`` (contiguous, H and W even), only the first True in
    row-major order, in place, with whole-array integer operations and no loop over windows. A window's two
    horizontal neighbours are one uint16 (the left one the low byte), cleared of the right one where the left is
    set; then, in the flat array of pairs, the pair above a bottom pair sits W/2 places earlier: the bottom pair
    is cleared where that one has a hit (top pairs are left alone)."""
    N, C, H, W = hit.shape
    pairs = hit.view(np.uint16).reshape(-1)  # values 0, 1 (left), 256 (right), 257 (both)
    pairs &= ~(pairs << 8)  # 257 -> 1
    r = W // 2
    keep = pairs[:-r] == 0
    keep |= _top_rows(N * C * H // 2, r)[r:]
    below = pairs[r:].view(np.int16)
    np.bitwise_and(below, np.negative(keep.view(np.int8)), out=below)  # keep -> -1: all ones once widened


_TWICE = {2: (np.uint16, np.uint32, 0x10001), 4: (np.uint32, np.uint64, 0x100000001)}


def _repeat_2x2(a):
    """(N, C, OH, OW) -> (N, C, 2*OH, 2*OW), every element repeated over a 2x2 block. For 2- and 4-byte items each
    element's bits are multiplied into both halves of an integer twice as wide (the element twice, side by side,
    in one long loop), then each row is copied twice; ``np.repeat`` along the last axis copies element by element."""
    N, C, OH, OW = a.shape
    twice = _TWICE.get(a.dtype.itemsize)
    if twice is None:
        return a.repeat(2, axis=3).repeat(2, axis=2)
    narrow, wide, ones = twice
    pairs = np.ascontiguousarray(a).view(narrow).astype(wide)
    pairs *= wide(ones)
    return pairs.view(a.dtype).reshape(N * C * OH, 1, 2 * OW).repeat(2, axis=1).reshape(N, C, 2 * OH, 2 * OW)


def _max_pool_grad_2x2(x, out, dout):
    """max_pool_grad for 2x2 windows at stride 2 tiling x exactly: on whole arrays of x's size (out and dout
    repeated over their windows), which numpy runs in long contiguous loops, rather than four strided slices."""
    hit = x == _repeat_2x2(out)
    _first_hits_2x2(hit)
    dx = _repeat_2x2(dout)  # a fresh array: masked in place, dout's bits where routed, +0 elsewhere
    bits = dx.view(_INT[dx.dtype.itemsize])
    np.bitwise_and(bits, np.negative(hit.view(np.int8)), out=bits)  # True -> -1, all ones once widened to bits
    return dx


def max_pool_grad(x, out, dout, kernel, stride, pads, out_hw):
    """Each window's dout goes to its argmax input position (accumulated where windows overlap)."""
    N, C, H, W = x.shape
    if (kernel == stride == (2, 2) and out_hw == (H // 2, W // 2) and H % 2 == W % 2 == 0 and not any(pads)
            and bitwise_routing(dout.dtype) and x.flags.c_contiguous and dout.shape == out.shape):
        return _max_pool_grad_2x2(x, out, dout)
    u = _UINT.get(dout.dtype.itemsize)
    if (bitwise_routing(dout.dtype) and not any(pads) and stride[0] >= kernel[0]
            and stride[1] >= kernel[1] and dout.shape == out.shape):
        # Windows do not overlap (LeNet's 2x2, stride 2): every input position gets dout from at most one
        # window, so each kernel position writes its slice once: dout's bits ANDed with the route mask
        # (dout where routed, +0 elsewhere; no branch per element, no multiply).
        exact = stride == kernel and out_hw[0] * stride[0] == H and out_hw[1] * stride[1] == W
        dx = np.empty(x.shape, dout.dtype) if exact else np.zeros(x.shape, dout.dtype)
        d = np.ascontiguousarray(dout).view(u)
        dxu = dx.view(u)
        for sl, route in _routes(x, out, kernel, stride, pads, out_hw):
            bits = route.astype(u)
            np.negative(bits, out=bits)
            np.bitwise_and(d, bits, out=dxu[sl])
        return dx
    dxp = np.zeros((N, C, H + pads[0] + pads[1], W + pads[2] + pads[3]), dout.dtype)
    overlap = stride[0] < kernel[0] or stride[1] < kernel[1]
    for sl, route in _routes(x, out, kernel, stride, pads, out_hw):
        if overlap:
            dxp[sl] += dout * route
        else:
            dxp[sl] = dout * route
    return np.ascontiguousarray(_crop(dxp, pads, x.shape))


def max_pool_grad_grad(x, out, grad, kernel, stride, pads, out_hw):
    """The gradient ``grad`` (shape of x) read at each window's argmax: (N, C, OH, OW)."""
    gp = pad4(grad, pads)
    res = np.zeros(out.shape, grad.dtype)
    for sl, route in _routes(x, out, kernel, stride, pads, out_hw):
        res += gp[sl] * route
    return res


def pool_counts(shape, kernel, stride, pads, out_hw, include_pad, dtype):
    """How many elements each average-pool window divides by, shape (OH, OW)."""
    H, W = shape[-2:]
    ones = np.ones((1, 1, H, W), dtype)
    op = pad4(ones, pads, 1 if include_pad else 0)
    cnt = np.zeros((1, 1) + tuple(out_hw), dtype)
    for p, q in _taps(kernel):
        cnt += op[_tap(p, q, stride, (1, 1), out_hw)]
    return cnt[0, 0]


def avg_pool(x, kernel, stride, pads, out_hw, include_pad):
    dt, ct = x.dtype, compute_dtype(x.dtype)
    xp = pad4(x.astype(ct, copy=False), pads)
    acc = None
    for p, q in _taps(kernel):
        v = xp[_tap(p, q, stride, (1, 1), out_hw)]
        acc = v.copy() if acc is None else np.add(acc, v, out=acc)
    acc /= pool_counts(x.shape, kernel, stride, pads, out_hw, include_pad, ct)
    return acc.astype(dt, copy=False)


def avg_pool_grad(x_shape, dout, kernel, stride, pads, out_hw, include_pad):
    dt, ct = dout.dtype, compute_dtype(dout.dtype)
    N, C, H, W = x_shape
    g = dout.astype(ct) / pool_counts(x_shape, kernel, stride, pads, out_hw, include_pad, ct)
    dxp = np.zeros((N, C, H + pads[0] + pads[1], W + pads[2] + pads[3]), ct)
    # MindSpore 2.10's CPU kernel adds a window's share into dx windows row by row going down and, within a
    # row, right to left: for one dx element that is kernel rows last to first, columns first to last. Float
    # addition is not associative, so this order is what makes its numbers equal to the last bit.
    kh, kw = kernel
    for p in reversed(range(kh)):
        for q in range(kw):
            dxp[_tap(p, q, stride, (1, 1), out_hw)] += g
    return np.ascontiguousarray(_crop(dxp, pads, x_shape), dtype=dt)
