"""array_ops: shape changes, indexing, joining, gathering, constants. Each differentiable primitive's bprop
against central differences (both modes); GRAPH == PYNATIVE for every primitive; values against numpy."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mslab as ms
from mslab import ops
from mslab.common.tensor import Parameter, Tensor
from mslab.errors import GraphModeError, OpError
from mslab.ops import array_ops, index_ops, shape_ops
from mslab.ops import functional as F
from mslab.testing import check_grad, check_modes

SETTINGS = settings(max_examples=15, deadline=None)
seeds = st.integers(0, 2**31 - 1)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)
shapes1 = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)
float_dtypes = st.sampled_from([np.float16, np.float32, np.float64])


def vals(seed, shape, lo=-2.0, hi=2.0, dtype=np.float64):
    return np.asarray(np.random.default_rng(seed).uniform(lo, hi, shape), dtype)


def T(a):
    return Tensor(a)


def modes_and_dtype(fn, *args, dtype=None, shape=None):
    outs = check_modes(fn, *args)
    if dtype is not None:
        assert all(o.dtype == dtype for o in outs), [o.dtype for o in outs]
    if shape is not None:
        assert outs[0].shape == tuple(shape)
    return outs


# ---- Reshape, Cast, BroadcastTo, Select, ZerosLike/OnesLike, Fill, Depend, Assign (the core's ops) -------
@SETTINGS
@given(shape=shapes, seed=seeds, dtype=float_dtypes)
def test_reshape(shape, seed, dtype):
    x = vals(seed, shape)
    fn = lambda x: F.reshape(x, (-1,))
    check_grad(fn, x)
    check_grad(lambda x: F.reshape(x, (1,) + tuple(reversed(shape))), x)
    (out,) = modes_and_dtype(fn, T(x.astype(dtype)), dtype=dtype, shape=(x.size,))
    np.testing.assert_array_equal(out, x.astype(dtype).reshape(-1))


def test_reshape_returns_a_copy_not_a_view_of_a_parameter():
    """A view would change when an optimizer's Assign writes the parameter after the read."""
    w = Parameter(T(np.ones((2, 2), np.float32)), name="w")
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        w.set_data(T(np.ones((2, 2), np.float32)))

        def f(x):
            r = F.reshape(w, (4,))
            return F.depend(r, F.assign(w, x))
        out = ms.jit(f)(T(np.zeros((2, 2), np.float32))) if mode == ms.GRAPH_MODE else f(T(np.zeros((2, 2),
                                                                                                    np.float32)))
        np.testing.assert_array_equal(out.asnumpy(), np.ones(4, np.float32))


@SETTINGS
@given(shape=shapes, seed=seeds, src=float_dtypes, dst=st.sampled_from([np.float16, np.float32, np.float64,
                                                                         np.int32, np.bool_]))
def test_cast(shape, seed, src, dst):
    x = vals(seed, shape, dtype=src)
    (out,) = modes_and_dtype(lambda x: F.cast(x, dst), T(x), dtype=dst, shape=shape)
    np.testing.assert_array_equal(out, x.astype(dst))
    check_grad(lambda x: F.cast(F.cast(x, ms.float32), ms.float64) * 3.0, vals(seed, shape), eps=1e-2,
               atol=1e-4, rtol=1e-4)


@SETTINGS
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=1, min_dims=0, max_dims=3, max_side=3), seed=seeds)
def test_broadcast_to(shapes, seed):
    (s,), target = shapes
    x = vals(seed, s)
    fn = lambda x: F.broadcast_to(x, target)
    check_grad(fn, x)
    (out,) = modes_and_dtype(fn, T(x.astype(np.float32)), dtype=np.float32, shape=target)
    assert out.flags.writeable


@SETTINGS
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, max_side=3), seed=seeds,
       dtype=float_dtypes)
def test_select(shapes, seed, dtype):
    (sc, sx, sy), out_shape = shapes
    cond = vals(seed, sc) > 0
    fn = lambda c, x, y: F.select(c, x, y)
    check_grad(fn, cond, vals(seed + 1, sx), vals(seed + 2, sy))
    x, y = vals(seed + 1, sx, dtype=dtype), vals(seed + 2, sy, dtype=dtype)
    (out,) = modes_and_dtype(fn, T(cond), T(x), T(y), dtype=dtype, shape=out_shape)
    np.testing.assert_array_equal(out, np.where(cond, x, y))


@SETTINGS
@given(shape=shapes, seed=seeds, dtype=float_dtypes)
def test_zeros_like_ones_like_fill(shape, seed, dtype):
    x = T(vals(seed, shape, dtype=dtype))
    z, o, f = modes_and_dtype(lambda x: (F.zeros_like(x), F.ones_like(x), F.fill(dtype, shape, 2.5)), x,
                              dtype=dtype)
    np.testing.assert_array_equal(z, np.zeros(shape, dtype))
    np.testing.assert_array_equal(o, np.ones(shape, dtype))
    np.testing.assert_array_equal(f, np.full(shape, 2.5, dtype))
    check_grad(lambda x: F.zeros_like(x) + F.ones_like(x) * x, vals(seed, shape))


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_depend(shape, seed):
    fn = lambda a, b: F.depend(a * 2.0, b * 3.0)
    check_grad(fn, vals(seed, shape), vals(seed + 1, shape))
    modes_and_dtype(fn, T(vals(seed, shape, dtype=np.float32)), T(vals(seed + 1, shape, dtype=np.float32)),
                    dtype=np.float32)


def test_assign_in_both_modes():
    p = Parameter(T(np.zeros((2, 3), np.float32)), name="p")

    def f(x):
        F.assign(p, x * 2.0)
        return p + 0.0
    x = T(vals(0, (2, 3), dtype=np.float32))
    (out,) = check_modes(f, x)
    np.testing.assert_array_equal(out, x.asnumpy() * 2)
    np.testing.assert_array_equal(p.asnumpy(), x.asnumpy() * 2)


# ---- Transpose, ExpandDims, Squeeze, Flatten, Tile ----------------------------------------------------------
@SETTINGS
@given(data=st.data(), shape=shapes, seed=seeds, dtype=float_dtypes)
def test_transpose(data, shape, seed, dtype):
    perm = tuple(data.draw(st.permutations(range(len(shape)))))
    x = vals(seed, shape)
    fn = lambda x: ops.Transpose()(x, perm)
    check_grad(fn, x)
    (out,) = modes_and_dtype(fn, T(x.astype(dtype)), dtype=dtype)
    np.testing.assert_array_equal(out, np.transpose(x.astype(dtype), perm))
    np.testing.assert_array_equal(T(x).T.asnumpy(), x.T)
    np.testing.assert_array_equal(T(x).transpose(*perm).asnumpy(), np.transpose(x, perm)) if perm else None


def test_transpose_errors():
    x = T(np.ones((2, 3)))
    with pytest.raises(OpError, match="Transpose.*permutation"):
        ops.transpose(x, (0, 0))
    with pytest.raises(OpError, match="rank 2"):
        ops.transpose(x, (0, 1, 2))
    np.testing.assert_array_equal(ops.transpose(x, (-1, 0)).shape, (3, 2))


@SETTINGS
@given(data=st.data(), shape=shapes, seed=seeds, dtype=float_dtypes)
def test_expand_dims(data, shape, seed, dtype):
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    x = vals(seed, shape)
    fn = lambda x: ops.ExpandDims()(x, axis)
    check_grad(fn, x)
    (out,) = modes_and_dtype(fn, T(x.astype(dtype)), dtype=dtype)
    np.testing.assert_array_equal(out, np.expand_dims(x.astype(dtype), axis))
    assert T(x).expand_dims(axis).shape == out.shape


@SETTINGS
@given(data=st.data(), shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=2), seed=seeds)
def test_squeeze(data, shape, seed):
    ones = [i for i, s in enumerate(shape) if s == 1]
    axis = data.draw(st.just(()) | st.lists(st.sampled_from(ones), unique=True).map(tuple)) if ones else ()
    x = vals(seed, shape)
    fn = lambda x: ops.Squeeze(axis)(x)
    check_grad(fn, x)
    (out,) = modes_and_dtype(fn, T(x.astype(np.float32)), dtype=np.float32)
    np.testing.assert_array_equal(out, np.squeeze(x.astype(np.float32), axis if axis != () else None))
    assert T(x).squeeze(axis).shape == out.shape
    assert F.squeeze(T(x)).shape == np.squeeze(x).shape


def test_squeeze_of_a_non_unit_axis_is_an_error():
    with pytest.raises(OpError, match="Squeeze.*size is 3"):
        ops.Squeeze(1)(T(np.ones((1, 3))))
    assert ops.Squeeze(0)(T(np.ones((1, 3)))).shape == (3,)


@SETTINGS
@given(shape=shapes1, seed=seeds, dtype=float_dtypes)
def test_flatten(shape, seed, dtype):
    x = vals(seed, shape)
    check_grad(ops.Flatten(), x)
    (out,) = modes_and_dtype(ops.Flatten(), T(x.astype(dtype)), dtype=dtype)
    np.testing.assert_array_equal(out, x.astype(dtype).reshape(shape[0], -1))
    assert F.flatten(T(x), start_dim=0).shape == (x.size,)


@SETTINGS
@given(data=st.data(), shape=shapes, seed=seeds, dtype=float_dtypes)
def test_tile(data, shape, seed, dtype):
    extra = data.draw(st.integers(0, 1))
    multiples = tuple(data.draw(st.lists(st.integers(1, 3), min_size=len(shape) + extra,
                                         max_size=len(shape) + extra)))
    x = vals(seed, shape)
    fn = lambda x: ops.Tile()(x, multiples)
    check_grad(fn, x)
    (out,) = modes_and_dtype(fn, T(x.astype(dtype)), dtype=dtype)
    np.testing.assert_array_equal(out, np.tile(x.astype(dtype), multiples))


def test_tile_with_too_few_multiples_is_an_error():
    with pytest.raises(OpError, match="Tile.*fewer"):
        ops.tile(T(np.ones((2, 3))), (2,))


# ---- GetItem (x[index]) and its scatter GetItemGrad ----------------------------------------------------------
@st.composite
def indices(draw, shape, tensors=False):
    """A valid numpy-style index for ``shape``: ints, slices with steps, None, one Ellipsis, int lists."""
    items, axis, ellipsis, n_list = [], 0, False, None
    while axis < len(shape) and len(items) < 5:
        kind = draw(st.sampled_from(["int", "slice", "slice", "none", "list", "ellipsis", "stop"]))
        n = shape[axis]
        if kind == "stop":
            break
        if kind == "int":
            items.append(draw(st.integers(-n, n - 1)))
            axis += 1
        elif kind == "slice":
            bound = st.none() | st.integers(-n - 1, n + 1)
            items.append(slice(draw(bound), draw(bound), draw(st.none() | st.sampled_from([1, 2, -1, -2]))))
            axis += 1
        elif kind == "none":
            items.append(None)
        elif kind == "list":
            n_list = n_list or draw(st.integers(1, 4))
            lst = draw(st.lists(st.integers(-n, n - 1), min_size=n_list, max_size=n_list))
            items.append(T(np.array(lst, np.int32)) if tensors and draw(st.booleans()) else lst)
            axis += 1
        elif not ellipsis:
            items.append(Ellipsis)
            ellipsis = True
            axis = len(shape) - draw(st.integers(0, len(shape) - axis))
    if ellipsis:  # items after an Ellipsis index the LAST axes: cover every axis left, or they shift
        items.extend(slice(None) for _ in range(len(shape) - axis))
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


def _np_index(index):
    conv = lambda i: i.asnumpy() if isinstance(i, Tensor) else np.array(i) if isinstance(i, list) else i
    return tuple(conv(i) for i in index) if isinstance(index, tuple) else conv(index)


@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds, dtype=float_dtypes)
def test_getitem(data, shape, seed, dtype):
    index = data.draw(indices(shape, tensors=True))
    x = vals(seed, shape)
    fn = lambda x: x[index]
    expected = x.astype(dtype)[_np_index(index)]
    (out,) = modes_and_dtype(fn, T(x.astype(dtype)), dtype=dtype, shape=expected.shape)
    np.testing.assert_array_equal(out, expected)
    check_grad(fn, x)


@SETTINGS
@given(shape=shapes1, seed=seeds, n=st.integers(1, 5))
def test_getitem_with_an_index_tensor_input_repeats_add_up(shape, seed, n):
    idx = np.random.default_rng(seed).integers(-shape[0], shape[0], n).astype(np.int64)
    fn = lambda x, i: x[i] * 2.0
    check_grad(fn, vals(seed, shape), idx)
    check_grad(lambda x, i: x[..., i[0]], vals(seed, shape), idx % shape[-1])
    check_modes(fn, T(vals(seed, shape, dtype=np.float32)), T(idx))
    g = ops.GradOperation()(lambda x: x[[0, 0, 0]].sum())(T(np.zeros(shape)))
    assert g.asnumpy().reshape(shape[0], -1)[0, 0] == 3.0


def test_getitem_forms():
    x = T(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    a = x.asnumpy()
    np.testing.assert_array_equal(x[1].asnumpy(), a[1])
    np.testing.assert_array_equal(x[-1, ::-2, 1:].asnumpy(), a[-1, ::-2, 1:])
    np.testing.assert_array_equal(x[..., None, 2].asnumpy(), a[..., None, 2])
    np.testing.assert_array_equal(x[[1, 0], :, [0, 3]].asnumpy(), a[[1, 0], :, [0, 3]])
    np.testing.assert_array_equal(x[:, [True, False, True]].asnumpy(), a[:, [0, 2]])
    np.testing.assert_array_equal(x[T(np.int64(1))].asnumpy(), a[1])
    assert [t.shape for t in x] == [(3, 4), (3, 4)]
    assert x[0, 0, 0].shape == () and isinstance(x[0, 0, 0].asnumpy(), np.ndarray)


def test_getitem_copies():
    x = T(np.zeros((2, 2), np.float32))
    y = x[0]
    y[0] = 5.0
    assert x.asnumpy()[0, 0] == 0.0


def test_getitem_errors():
    x = T(np.ones((2, 3)))
    with pytest.raises(OpError, match="GetItem.*out of bounds"):
        x[5]
    with pytest.raises(OpError, match="GetItem"):
        x[0, 0, 0]
    with pytest.raises(TypeError, match="index"):
        x["a"]
    with pytest.raises(TypeError, match="integer"):
        x[T(np.array([0.5]))]
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(GraphModeError, match="boolean"):
        ms.jit(lambda x, m: x[m])(T(np.ones(3)), T(np.array([True, False, True])))


def test_getitem_ir_text_shows_the_index():
    text = str(ms.trace(lambda x: x[0, 1:, ::2, None, ...], T(np.ones((2, 3, 4)))))
    assert "GetItem(%x, [0, 1:, ::2, None, ...])" in text


@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds)
def test_getitem_grad_kernel(data, shape, seed):
    index = data.draw(indices(shape))
    spec, tensors = index_ops.normalize_index(index)
    out_shape = np.zeros(shape)[_np_index(index)].shape
    idx = [t.asnumpy() for t in tensors]
    fn = lambda d, *ts: F.getitem_grad(d, ts, spec, shape)
    check_grad(fn, vals(seed, out_shape), *idx)
    (out,) = modes_and_dtype(fn, T(vals(seed, out_shape, dtype=np.float32)), *[T(i) for i in idx],
                             dtype=np.float32, shape=shape)
    expected = np.zeros(shape, np.float32)
    np.add.at(expected, _np_index(index), vals(seed, out_shape, dtype=np.float32))
    np.testing.assert_array_equal(out, expected)


# ---- Concat, Stack, Split ---------------------------------------------------------------------------------
@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds, dtype=float_dtypes)
def test_concat(data, shape, seed, dtype):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    arrays = [vals(seed + i, shape[:axis % len(shape)] + (n,) + shape[axis % len(shape) + 1:])
              for i, n in enumerate(sizes)]
    fn = lambda *xs: ops.Concat(axis)(xs)
    check_grad(fn, *arrays)
    (out,) = modes_and_dtype(fn, *[T(a.astype(dtype)) for a in arrays], dtype=dtype)
    np.testing.assert_array_equal(out, np.concatenate([a.astype(dtype) for a in arrays], axis))
    np.testing.assert_array_equal(F.concat([T(a) for a in arrays], axis).asnumpy(), np.concatenate(arrays, axis))


def test_concat_errors():
    a, b = T(np.ones((2, 3), np.float32)), T(np.ones((3, 3), np.float32))
    with pytest.raises(OpError, match="Concat.*input 1 has shape \\(3, 3\\)"):
        ops.Concat(1)((a, b))
    with pytest.raises(TypeError, match="Concat.*one dtype"):
        ops.Concat(0)((a, T(np.ones((2, 3), np.float64))))
    with pytest.raises(TypeError, match="tuple"):
        ops.Concat(0)(a)


@SETTINGS
@given(data=st.data(), shape=shapes, seed=seeds, dtype=float_dtypes)
def test_stack(data, shape, seed, dtype):
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    n = data.draw(st.integers(1, 3))
    arrays = [vals(seed + i, shape) for i in range(n)]
    fn = lambda *xs: ops.Stack(axis)(xs)
    check_grad(fn, *arrays)
    (out,) = modes_and_dtype(fn, *[T(a.astype(dtype)) for a in arrays], dtype=dtype)
    np.testing.assert_array_equal(out, np.stack([a.astype(dtype) for a in arrays], axis))
    with pytest.raises(OpError, match="Stack.*one shape"):
        ops.stack([T(arrays[0]), T(np.ones((4,) + shape))])


@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds)
def test_split(data, shape, seed):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    dim = shape[axis]
    size = data.draw(st.integers(1, dim))
    x = vals(seed, shape)
    fn = lambda x: F.split(x, size, axis)
    check_grad(fn, x)
    outs = check_modes(fn, T(x.astype(np.float32)))
    expected = np.split(x.astype(np.float32), list(range(size, dim, size)), axis)
    assert len(outs) == len(expected)
    for o, e in zip(outs, expected):
        np.testing.assert_array_equal(o, e)


def test_split_primitive_and_sections():
    x = T(np.arange(12, dtype=np.float32).reshape(2, 6))
    parts = ops.Split(1, 3)(x)
    assert [p.shape for p in parts] == [(2, 2)] * 3
    np.testing.assert_array_equal(parts[2].asnumpy(), x.asnumpy()[:, 4:])
    assert [p.shape for p in F.split(x, [1, 5], 1)] == [(2, 1), (2, 5)]
    assert [p.shape for p in F.split(x, axis=1, output_num=2)] == [(2, 3), (2, 3)]
    with pytest.raises(ValueError, match="equal parts"):
        ops.Split(1, 4)(x)


# ---- Gather, OneHot ------------------------------------------------------------------------------------------
@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds, dtype=float_dtypes)
def test_gather(data, shape, seed, dtype):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    ishape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3))
    idx = np.random.default_rng(seed).integers(0, n, ishape).astype(np.int32)
    x = vals(seed, shape)
    fn = lambda p, i: ops.Gather()(p, i, axis)
    check_grad(fn, x, idx)
    (out,) = modes_and_dtype(fn, T(x.astype(dtype)), T(idx), dtype=dtype)
    np.testing.assert_array_equal(out, np.take(x.astype(dtype), idx, axis))


@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds, dtype=float_dtypes)
def test_gather_nd(data, shape, seed, dtype):
    k = data.draw(st.integers(1, len(shape)))
    lead = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3))
    rng = np.random.default_rng(seed)
    idx = np.stack([rng.integers(0, n, lead) for n in shape[:k]], -1).astype(np.int32)  # repeats scatter-add
    x = vals(seed, shape)
    check_grad(ops.GatherNd(), x, idx)
    (out,) = modes_and_dtype(ops.GatherNd(), T(x.astype(dtype)), T(idx), dtype=dtype)
    np.testing.assert_array_equal(out, x.astype(dtype)[tuple(np.moveaxis(idx, -1, 0))])


def test_gather_nd_needs_integer_indices_of_fitting_depth():
    with pytest.raises(TypeError, match="GatherNd.*integer"):
        ops.gather_nd(T(np.ones((2, 2))), T(np.array([[0.0]])))
    with pytest.raises(ValueError, match="GatherNd"):
        ops.gather_nd(T(np.ones((2, 2))), T(np.zeros((1, 3), np.int32)))


def test_gather_needs_integer_indices():
    with pytest.raises(TypeError, match="Gather.*integer"):
        ops.gather(T(np.ones(3)), T(np.array([0.0])), 0)


@SETTINGS
@given(shape=shapes, seed=seeds, depth=st.integers(1, 4), data=st.data())
def test_one_hot(shape, seed, depth, data):
    axis = data.draw(st.integers(-1, len(shape)))
    idx = np.random.default_rng(seed).integers(-1, depth + 1, shape).astype(np.int32)
    on, off = T(np.float32(2.0)), T(np.float32(-1.0))
    fn = lambda i: ops.OneHot(axis)(i, depth, on, off)
    (out,) = modes_and_dtype(fn, T(idx), dtype=np.float32)
    expected = np.where(idx[..., None] == np.arange(depth), np.float32(2), np.float32(-1))
    np.testing.assert_array_equal(out, np.moveaxis(expected, -1, axis))
    (ints,) = check_modes(lambda i: F.one_hot(i, depth), T(idx))
    assert ints.dtype == np.int64 and ints.max(initial=0) <= 1


def test_one_hot_has_no_gradient_and_needs_int_indices():
    assert not ops.OneHot.differentiable
    with pytest.raises(TypeError, match="OneHot.*integer"):
        ops.one_hot(T(np.array([0.0])), 3, 1.0, 0.0)


# ---- constants, Identity, StopGradient, clip_by_value, Size/Rank ----------------------------------------------
@SETTINGS
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3),
       dtype=st.sampled_from([ms.float16, ms.float32, ms.float64, ms.int32, ms.bool_]))
def test_zeros_ones(shape, dtype):
    z, o = modes_and_dtype(lambda: (ops.Zeros()(shape, dtype), ops.Ones()(shape, dtype)), dtype=dtype.np)
    np.testing.assert_array_equal(z, np.zeros(shape, dtype.np))
    np.testing.assert_array_equal(o, np.ones(shape, dtype.np))
    assert F.zeros(3).dtype == ms.float32 and F.ones((2, 2)).shape == (2, 2)


@SETTINGS
@given(shape=shapes, seed=seeds, dtype=float_dtypes)
def test_identity(shape, seed, dtype):
    check_grad(ops.Identity(), vals(seed, shape))
    x = vals(seed, shape, dtype=dtype)
    (out,) = modes_and_dtype(F.identity, T(x), dtype=dtype)
    np.testing.assert_array_equal(out, x)


@SETTINGS
@given(shape=shapes, seed=seeds, dtype=float_dtypes)
def test_stop_gradient(shape, seed, dtype):
    x = vals(seed, shape)
    fn = lambda x: x * F.stop_gradient(x * 3.0)
    (out,) = modes_and_dtype(fn, T(x.astype(dtype)), dtype=dtype)
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        g = ops.GradOperation()(lambda x: fn(x).sum())(T(x))
        np.testing.assert_allclose(g.asnumpy(), 3.0 * x)  # d/dx (x * c) with c held constant
        g = ops.GradOperation()(lambda x: F.stop_gradient(x).sum())(T(x))
        np.testing.assert_array_equal(g.asnumpy(), np.zeros(shape))


@SETTINGS
@given(shape=shapes, seed=seeds, dtype=float_dtypes)
def test_clip_by_value(shape, seed, dtype):
    x = vals(seed, shape, -3.0, 3.0)
    x = np.where(np.abs(np.abs(x) - 1.0) < 0.05, x + 0.1, x)  # away from the bounds (kinks)
    fn = lambda x: ops.clip_by_value(x, -1.0, T(np.float64(1.0)))
    check_grad(fn, x)
    xs = T(x.astype(dtype))
    (out,) = modes_and_dtype(lambda x: ops.clip_by_value(x, -1, 1.0), xs, dtype=dtype)
    np.testing.assert_array_equal(out, np.clip(x.astype(dtype), -1, 1))
    np.testing.assert_array_equal(xs.clip(-1, 1).asnumpy(), out)
    np.testing.assert_array_equal(ops.clip_by_value(xs, None, 0.0).asnumpy(), np.minimum(x.astype(dtype), 0))


def test_tuple_to_array_and_scalar_to_tensor():
    a = check_modes(lambda: ops.tuple_to_array((1, 2, 3)))[0]
    assert a.dtype == np.int64 and list(a) == [1, 2, 3]
    b = check_modes(lambda: ops.tuple_to_array((1.5, 2)))[0]
    assert b.dtype == np.float32 and list(b) == [1.5, 2.0]
    c = check_modes(lambda: ops.scalar_to_tensor(3))[0]
    assert c.dtype == np.float32 and c.shape == () and c == 3.0
    d = check_modes(lambda: ops.ScalarToTensor()(7, ms.int32))[0]
    assert d.dtype == np.int32
    with pytest.raises(TypeError):
        ops.tuple_to_array(T(np.ones(2)))
    with pytest.raises(ValueError):
        ops.tuple_to_array(())


def test_size_rank_shape_are_python_values_in_both_modes():
    x = T(np.ones((2, 3, 4), np.float32))
    assert ops.Size()(x) == 24 and ops.Rank()(x) == 3 and ops.Shape()(x) == (2, 3, 4)
    assert ops.size(x) == 24 and ops.rank(x) == 3
    (out,) = check_modes(lambda x: x * ops.Size()(x) + ops.Rank()(x), x)
    assert out.flat[0] == 27.0


# ---- every primitive of the family is covered above -----------------------------------------------------------
def test_every_array_primitive_is_tested():
    covered = {
        "Assign", "BroadcastTo", "Cast", "Concat", "DType", "Depend", "ExpandDims", "Fill", "Flatten", "Gather",
        "GatherNd", "GatherV2", "GetItem", "GetItemGrad", "Identity", "OneHot", "Ones", "OnesLike", "Rank", "Reshape",
        "ScalarToTensor",
        "Select", "SetItem", "Shape", "Size", "Split", "Squeeze", "Stack", "StopGradient", "Tile", "Transpose",
        "TupleToArray", "Zeros", "ZerosLike",
    }
    primitives = {n for m in (array_ops, shape_ops, index_ops) for n in m.__all__ if n[0].isupper()}
    assert primitives <= covered, primitives - covered
