"""Object-detection primitives (``P.NMSWithMask``, ``P.BoundingBoxEncode``/``Decode``, ``P.IOU``, ``P.CheckValid``,
``P.RandomChoiceWithMask``, ``P.ROIAlign``) with MindSpore's numbers, GRAPH == PYNATIVE, and ROIAlign's gradient
against central differences.

Every expected number was observed on MindSpore 2.10 CPU (docs/mindspore_observed/detect.md, the name in each
comment is the line of its output)."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mslab as ms
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import detection_ops, nms_ops, roi_align_ops
from mslab.ops import operations as P
from mslab.ops.primitive import Primitive
from mslab.testing import check_grad, check_modes


def T(values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


def close(t, expected, rtol=1e-6):
    np.testing.assert_allclose(t.asnumpy(), np.array(expected, t.asnumpy().dtype), rtol=rtol, atol=1e-7)


def grad_error(fn, *args):
    with pytest.raises(RuntimeError, match=r"Illegal primitive \w+'s bprop not defined"):
        ms.grad(fn, grad_position=tuple(range(len(args))))(*args)


DOC_BOXES = np.array([[100.0, 100.0, 50.0, 68.0, 0.63], [150.0, 75.0, 165.0, 115.0, 0.55],
                      [12.0, 190.0, 288.0, 200.0, 0.9], [28.0, 130.0, 106.0, 172.0, 0.3]], np.float32)
DOC_BOXES[:, 2:4] += DOC_BOXES[:, 0:2]
B2 = T([[0, 0, 10, 10, 0.5], [1, 1, 11, 11, 0.9], [20, 20, 30, 30, 0.7], [0, 0, 10, 10, 0.9], [2, 2, 9, 9, 0.1]])


# ---- NMSWithMask ---------------------------------------------------------------------------------------------------
def test_nms_with_mask_outputs():
    boxes, index, mask = P.NMSWithMask(0.1)(Tensor(DOC_BOXES))     # nms_doc[0..2]
    close(boxes, [[12.0, 190.0, 300.0, 390.0, 0.9], [100.0, 100.0, 150.0, 168.0, 0.63],
                  [150.0, 75.0, 315.0, 190.0, 0.55], [28.0, 130.0, 134.0, 302.0, 0.3]])
    assert (boxes.dtype, index.dtype, mask.dtype) == (ms.float32, ms.int32, ms.bool_)
    assert index.asnumpy().tolist() == [0, 1, 2, 3]                 # positions in the sorted boxes
    assert mask.asnumpy().tolist() == [True, True, True, False]
    for thr, expected in ((0.5, [True, False, True, False, True]), (0.0, [True, False, True, False, False]),
                          (1.0, [True] * 5)):                         # nms_mask_<thr>: suppress when iou > thr
        assert P.NMSWithMask(thr)(B2)[2].asnumpy().tolist() == expected
    close(P.NMSWithMask(0.5)(B2)[0], [[1.0, 1.0, 11.0, 11.0, 0.9], [0.0, 0.0, 10.0, 10.0, 0.9],
                                      [20.0, 20.0, 30.0, 30.0, 0.7], [0.0, 0.0, 10.0, 10.0, 0.5],
                                      [2.0, 2.0, 9.0, 9.0, 0.1]])        # nms_b2_boxes
    zero_area = P.NMSWithMask(0.5)(T([[1, 1, 1, 1, 0.5], [1, 1, 1, 1, 0.4], [0, 0, 2, 2, 0.3]]))[2]
    assert zero_area.asnumpy().tolist() == [True, True, True]        # 0 / 0 is not > threshold
    assert [o.dtype for o in P.NMSWithMask(0.5)(Tensor(DOC_BOXES.astype(np.float16)))] == [
        ms.float16, ms.int32, ms.bool_]
    assert [o.shape for o in P.NMSWithMask(0.5)(T(np.zeros((0, 5))))] == [(0, 5), (0,), (0,)]


def test_nms_ties_follow_the_bitonic_sort():
    scores = [0.5, 0.9, 0.5, 0.7, 0.5, 0.9, 0.5]
    ties = T([[k, 0, k + 1, 1, s] for k, s in enumerate(scores)])
    # nms_ties_x0: not a stable sort (that would give 1, 5, 3, 0, 2, 4, 6)
    assert P.NMSWithMask(0.5)(ties)[0].asnumpy()[:, 0].tolist() == [1, 5, 3, 6, 4, 2, 0]
    check_modes(lambda b: P.NMSWithMask(0.5)(b), ties)
    check_modes(lambda b: P.NMSWithMask(0.3)(b), B2)


def test_nms_errors_and_no_gradient():
    with pytest.raises(TypeError, match="'iou_threshold' should be 'float'"):  # nms_int_threshold
        P.NMSWithMask(1)
    with pytest.raises(ValueError, match=r"must have shape \(N, 5\)"):          # nms_4_columns
        P.NMSWithMask(0.5)(T(np.zeros((3, 4))))
    with pytest.raises(TypeError, match="Float16, Float32"):                    # nms_int32
        P.NMSWithMask(0.5)(T(np.zeros((3, 5)), np.int32))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):                              # nms_grad
        with ms.core.context.in_mode(mode):
            grad_error(lambda b: P.NMSWithMask(0.5)(b)[0].sum(), B2)


# ---- BoundingBoxEncode / BoundingBoxDecode ------------------------------------------------------------------------
A = T([[0, 0, 9, 9], [10, 20, 30, 60], [5, 5, 14, 24]])
G = T([[1, 2, 12, 8], [8, 25, 33, 50], [6, 4, 10, 30]])
MEANS, STDS = (0.1, 0.2, 0.0, -0.1), (0.1, 0.1, 0.2, 0.2)
ENCODED = [[1.0, -1.5, 0.911608, -1.2833749], [-0.7619048, -2.609756, 1.0678707, -1.7773777],
           [-2.5, -0.75, -3.465736, 2.000523]]                        # encode_means_stds


def test_bounding_box_encode_decode():
    close(P.BoundingBoxEncode()(T([[2, 2, 2, 3], [2, 2, 2, 3]]), T([[1, 2, 1, 4], [1, 2, 1, 4]])),
          [[-1.0, 0.25, 0.0, 0.4054651], [-1.0, 0.25, 0.0, 0.4054651]])                    # encode_doc
    close(P.BoundingBoxEncode(MEANS, STDS)(A, G), ENCODED)
    close(ops.bounding_box_encode(A, G, MEANS, STDS), ENCODED)                              # encode_functional
    decode = P.BoundingBoxDecode(max_shape=(768, 1280), means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                                 wh_ratio_clip=0.016)
    close(decode(T([[4, 1, 2, 1], [2, 2, 2, 3]]), T([[3, 1, 2, 2], [1, 2, 1, 4]])),
          [[4.194528, 0.0, 0.0, 5.194528], [2.1408591, 0.0, 3.8591409, 60.59815]])          # decode_doc
    back = [[1.0, 2.0, 12.0, 8.0], [8.0, 25.0, 25.0, 40.0], [6.0, 4.0, 10.0, 30.0]]          # decode_roundtrip
    close(P.BoundingBoxDecode((40, 25), MEANS, STDS, 0.5)(A, T(ENCODED)), back)           # x clipped to 25
    close(ops.bounding_box_decode(A, T(ENCODED), (40, 25), MEANS, STDS, 0.5), back)         # decode_functional
    deltas = T([[0.1, -0.2, 3.0, -3.0], [0.5, 0.5, 0.1, 0.2], [-1, -1, -0.5, 0.3]])
    close(P.BoundingBoxDecode(max_shape=(40, 25), wh_ratio_clip=0.2)(A, deltas),            # decode_clip
          [[0.0, 2.0, 25.0, 3.0], [19.395706, 35.961243, 25.0, 40.0], [0.0, 0.0, 2.0326533, 7.4985886]])
    half = P.BoundingBoxDecode(max_shape=(40, 25))(Tensor(A.asnumpy().astype(np.float16)),
                                                   Tensor(np.array(ENCODED, np.float16)))
    assert half.dtype == ms.float16                                                          # decode_fp16
    close(half, [[2.562, 0.0, 25.0, 0.0], [0.0, 0.0, 25.0, 0.0], [0.0, 0.0, 0.0, 40.0]], rtol=1e-3)
    check_modes(lambda a, g: P.BoundingBoxDecode((40, 25), MEANS, STDS)(a, P.BoundingBoxEncode(MEANS, STDS)(a, g)),
                A, G)


def test_bounding_box_attribute_and_input_errors():
    for make, kind, text in (
            (lambda: P.BoundingBoxEncode(means=[0.0, 0.0, 0.0, 0.0]), TypeError, "'means' should be 'tuple'"),
            (lambda: P.BoundingBoxEncode(means=(0, 0, 0, 0)), TypeError, r"'means\[0\]' should be 'float'"),
            (lambda: P.BoundingBoxEncode(means=(0.0, 0.0, 0.0)), ValueError, "'means len' must be 4"),
            (lambda: P.BoundingBoxDecode(max_shape=(768,)), ValueError, "'max_shape len' must be 2"),
            (lambda: P.BoundingBoxDecode(max_shape=[768, 1280]), TypeError, "'max_shape' should be 'tuple'"),
            (lambda: P.BoundingBoxDecode((768, 1280), wh_ratio_clip=1), TypeError, "'wh_ratio_clip' should be"),
            (lambda: P.BoundingBoxDecode(), TypeError, "max_shape")):
        with pytest.raises(kind, match=text):                   # encode_means_*, decode_max_shape_*, decode_wh_*
            make()
    z = np.zeros((3, 4))
    with pytest.raises(ValueError, match=r"groundtruth_box must have shape \(3, 4\)"):    # encode_rows_differ
        P.BoundingBoxEncode()(T(z), T(z[:2]))
    with pytest.raises(ValueError, match=r"anchor_box must have shape"):                  # encode_5_columns
        P.BoundingBoxEncode()(T(np.zeros((3, 5))), T(np.zeros((3, 5))))
    with pytest.raises(TypeError, match="Float16, Float32"):                              # encode_int32
        P.BoundingBoxEncode()(T(z, np.int32), T(z, np.int32))
    with pytest.raises(TypeError, match="one dtype"):                                     # encode_mixed
        P.BoundingBoxEncode()(T(z), T(z, np.float16))
    with pytest.raises(ValueError, match="anchor_box must have shape"):                   # decode_rank3
        P.BoundingBoxDecode(max_shape=(4, 4))(T(np.zeros((2, 3, 4))), T(np.zeros((2, 3, 4))))
    with pytest.raises(ValueError, match="max_shape is None"):   # MindSpore: RuntimeError "Error GetValue ..."
        P.BoundingBoxDecode(max_shape=None)(A, A)
    grad_error(lambda a, g: P.BoundingBoxEncode()(a, g).sum(), A, G)                       # encode_grad
    grad_error(lambda a, d: P.BoundingBoxDecode(max_shape=(40, 25))(a, d).sum(), A, T(ENCODED))  # decode_grad


# ---- IOU ----------------------------------------------------------------------------------------------------------
def test_iou_layout_modes_and_zero_gradient():
    gt = G[:2]
    close(P.IOU()(A, gt), [[0.5206612, 0.0, 0.12698413], [0.0, 0.55095863, 0.0]])    # iou: (M gt, N anchors)
    close(P.IOU("iof")(A, gt), [[0.75, 0.0, 0.3809524], [0.0, 0.8076923, 0.0]])       # iof
    close(ops.iou(A, gt, "iof"), [[0.75, 0.0, 0.3809524], [0.0, 0.8076923, 0.0]])     # ops_iou_iof
    close(P.IOU()(T([[0, 0, 0, 0], [3, 3, 1, 1]]), T([[0, 0, 0, 0], [5, 5, 2, 2], [0, 0, -1, -1]])),
          [[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]])                                         # iou_degenerate: +1 pixel
    half = P.IOU()(Tensor(A.asnumpy().astype(np.float16)), Tensor(gt.asnumpy().astype(np.float16)))
    assert half.dtype == ms.float16
    close(half, [[0.5205, 0.0, 0.127], [0.0, 0.551, 0.0]], rtol=1e-3)                   # iou_fp16
    close(P.IOU()(Tensor(A.asnumpy().astype(np.float64)), Tensor(gt.asnumpy().astype(np.float64))),
          [[0.5206611570243631, 0.0, 0.1269841269840766], [0.0, 0.5509586276487839, 0.0]], rtol=1e-12)  # iou_fp64
    check_modes(lambda a, g: (P.IOU()(a, g), P.IOU("iof")(a, g)), A, gt)
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):                                      # iou_grad[0], iou_grad[1]
        with ms.core.context.in_mode(mode):
            da, dg = ms.grad(lambda a, g: P.IOU()(a, g).sum(), grad_position=(0, 1))(A, gt)
        assert not da.asnumpy().any() and da.shape == (3, 4) and not dg.asnumpy().any() and dg.shape == (2, 4)
    with pytest.raises(KeyError, match="only 'iou' or 'iof'"):                          # iou_mode_giou
        P.IOU("giou")
    with pytest.raises(ValueError, match=r"anchor_boxes must have shape \(N, 4\)"):     # iou_5_columns
        P.IOU()(T(np.zeros((3, 5))), gt)
    with pytest.raises(TypeError, match="Float16, Float32, Float64"):                   # iou_int32
        P.IOU()(T(np.zeros((3, 4)), np.int32), T(np.zeros((3, 4)), np.int32))
    with pytest.raises(TypeError, match="one dtype"):                                   # iou_mixed
        P.IOU()(T(np.zeros((3, 4))), T(np.zeros((3, 4)), np.float16))


# ---- CheckValid ---------------------------------------------------------------------------------------------------
def test_check_valid():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check = P.CheckValid()
    assert check(Tensor(np.linspace(0, 6, 12).reshape(3, 4).astype(np.float32)), T([2, 1, 3])).asnumpy().tolist() == [
        True, False, False]                                                                # check_valid_doc
    boxes = T([[0, 0, 10, 10], [-0.5, 0, 5, 5], [0, 0, 29, 19], [0, 0, 29.5, 19], [0, 0, 29, 19.01], [1, 1, 0, 0],
               [3, -1e-9, 4, 4]])
    edges = [True, False, True, False, False, True, False]                                 # check_valid_edges
    assert check(boxes, T([10, 15, 2])).asnumpy().tolist() == edges                        # x1 <= 15*2-1, y1 <= 19
    assert ops.check_valid(boxes, T([10, 15, 2])).asnumpy().tolist() == edges              # ops_check_valid
    assert check(T([[0, 0, 10, 10], [0, 0, 30, 20]], np.uint8), T([10, 15, 2], np.uint8)).asnumpy().tolist() == [
        True, False]                                                                       # check_valid_uint8
    assert check(T([[0, 0, 10, 10], [-1, 0, 30, 20]], np.int16), T([10, 15, 2], np.int16)).asnumpy().tolist() == [
        True, False]                                                                       # check_valid_int16
    (out,) = check_modes(lambda b, m: check(b, m), boxes, T([10, 15, 2]))
    assert out.dtype == np.bool_ and out.tolist() == edges
    with pytest.raises(ValueError, match=r"img_metas must be \(height, width, ratio\)"):  # check_valid_metas4
        check(boxes, T([10, 15, 2, 4]))
    with pytest.raises(ValueError, match=r"bboxes must have shape \(N, 4\)"):             # check_valid_5_columns
        check(T(np.zeros((3, 5))), T([10, 15, 2]))
    with pytest.raises(TypeError, match="Int16, UInt8"):                                  # check_valid_int32
        check(T(np.zeros((3, 4)), np.int32), T([10, 15, 2], np.int32))


def test_check_valid_warns_once_that_it_is_deprecated():
    detection_ops.CheckValid._warned = False
    with pytest.warns(DeprecationWarning, match="'CheckValid' is deprecated from version 2.10.0"):
        P.CheckValid()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        P.CheckValid()                                                   # once, as MindSpore's decorator


# ---- RandomChoiceWithMask -----------------------------------------------------------------------------------------
X = np.zeros((4, 5), bool)
X[[0, 0, 1, 2, 3, 3, 3], [1, 4, 2, 0, 0, 3, 4]] = True
TRUE_AT = {(0, 1), (0, 4), (1, 2), (2, 0), (3, 0), (3, 3), (3, 4)}


def test_random_choice_with_mask_layout():
    index, mask = P.RandomChoiceWithMask(count=5, seed=1)(Tensor(X))           # rcwm_dtypes
    assert (index.dtype, mask.dtype, index.shape, mask.shape) == (ms.int32, ms.bool_, (5, 2), (5,))
    rows = [tuple(r) for r in index.asnumpy().tolist()]
    assert len(set(rows)) == 5 and set(rows) <= TRUE_AT and mask.asnumpy().all()
    index, mask = P.RandomChoiceWithMask(count=10, seed=1)(Tensor(X))          # rcwm_count10_*: all 7, then padding
    assert {tuple(r) for r in index.asnumpy()[:7].tolist()} == TRUE_AT
    assert index.asnumpy()[7:].tolist() == [[0, 0]] * 3 and mask.asnumpy().tolist() == [True] * 7 + [False] * 3
    x3 = np.zeros((2, 3, 4), bool)
    x3[0, 1, 2] = x3[1, 2, 3] = x3[1, 0, 1] = x3[0, 2, 0] = True
    # rcwm_rank3_index: MindSpore writes flat index i as (i // 12, 0, i % 12), as here
    index = P.RandomChoiceWithMask(count=4, seed=5)(Tensor(x3))[0].asnumpy().tolist()
    assert sorted(index) == [[0, 0, 6], [0, 0, 8], [1, 0, 1], [1, 0, 11]]
    x1 = np.array([0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1], bool)           # rcwm_rank1_index: shape (6, 1)
    index = P.RandomChoiceWithMask(count=6, seed=5)(Tensor(x1))[0].asnumpy()
    assert index.shape == (6, 1) and set(index[:, 0].tolist()) <= set(np.flatnonzero(x1).tolist())
    assert [t.shape for t in P.RandomChoiceWithMask()(Tensor(X))] == [(256, 2), (256,)]  # rcwm_default_shapes
    assert not P.RandomChoiceWithMask(count=3, seed=1)(Tensor(np.zeros((2, 2), bool)))[1].asnumpy().any()
    check_modes(lambda x: P.RandomChoiceWithMask(count=6, seed=2)(x), Tensor(X))


def test_random_choice_with_mask_seeding():
    op = P.RandomChoiceWithMask(count=5, seed=1)          # rcwm_seed1_call1/call2/new_op: a new op repeats the
    first, second = op(Tensor(X))[0].asnumpy(), op(Tensor(X))[0].asnumpy()  # first draw; later calls differ
    assert first.tolist() != second.tolist()
    assert P.RandomChoiceWithMask(count=5, seed=1)(Tensor(X))[0].asnumpy().tolist() == first.tolist()
    assert P.RandomChoiceWithMask(count=5, seed=3, seed2=7)(Tensor(X))[0].asnumpy().tolist() != \
        P.RandomChoiceWithMask(count=5, seed=0, seed2=7)(Tensor(X))[0].asnumpy().tolist()  # both seeds count
    calls = [ops.choice_with_mask(Tensor(X), 5, seed=3)[0].asnumpy().tolist() for _ in range(3)]
    assert calls[0] != calls[1] != calls[2]               # choice_with_mask_seed3_3calls
    ms.set_seed(4)
    again = [ops.choice_with_mask(Tensor(X), 5)[0].asnumpy().tolist() for _ in range(2)]
    ms.set_seed(4)                                         # choice_with_mask_after_set_seed_repeats
    assert [ops.choice_with_mask(Tensor(X), 5)[0].asnumpy().tolist() for _ in range(2)] == again
    assert again[0] != again[1]


def test_random_choice_with_mask_errors():
    with pytest.raises(ValueError, match="'count' must be int and must > 0"):            # rcwm_count0
        P.RandomChoiceWithMask(count=0)
    with pytest.raises(TypeError, match="'count' should be 'int'"):                      # rcwm_count_float
        P.RandomChoiceWithMask(count=2.0)
    with pytest.raises(TypeError, match="needs a Bool input, got Float32"):               # rcwm_float_input
        P.RandomChoiceWithMask()(T(X))
    assert P.RandomChoiceWithMask(count=3, seed=-1)(Tensor(X))[0].shape == (3, 2)   # "Other runs": no error
    for shape in ((), (1, 1, 1, 1, 1, 2)):                                               # rcwm_rank0, rcwm_rank6
        with pytest.raises(ValueError, match="rank must be between 1 and 5"):
            P.RandomChoiceWithMask()(Tensor(np.ones(shape, bool)))


# ---- ROIAlign -----------------------------------------------------------------------------------------------------
FEAT = (np.arange(2 * 2 * 4 * 5, dtype=np.float32).reshape(2, 2, 4, 5) % 7) / 4
ROIS = np.array([[0, 0.5, 0.4, 3.2, 2.9], [1, 1.0, 0.0, 6.0, 5.0], [0, -2, -1, 1, 1.5], [1, 0.0, 1.0, 0.0, 3.0],
                 [1, 2.5, 2.0, 2.7, 2.2]], np.float32)
KEEP = [0, 1, 2, 4]      # row 3 has x0 = x1 = 0: MindSpore skips it and leaves its output unwritten
POOLED = {  # roi_align(<attributes>), rows KEEP
    (2, 2, 1.0, 2, 1): [[[[0.88974607, 0.574795], [0.70937496, 1.0387793]], [[1.0792285, 0.6469726],
                                                                             [0.45937496, 0.9218749]]],
                        [[[0.8515625, 0.3125], [0.1875, 0.1875]], [[0.79296875, 0.515625], [0.171875, 0.125]]],
                        [[[0.09765625, 0.37695312], [0.46875, 1.0097656]], [[0.7109375, 0.5644531], [0.34375, 0.9375]]],
                        [[[0.8, 0.9499999], [0.51250005, 0.6625]], [[0.55, 0.6999999], [0.26250002, 0.41250002]]]],
    (2, 2, 1.0, 2, 0): [[[[0.9713867, 0.41406253], [0.8978418, 1.2109375]], [[1.0501269, 0.73554677],
                                                                             [0.65625, 0.97652346]]],
                        [[[0.92089844, 0.3203125], [0.15625, 0.1875]], [[0.7939453, 0.5234375], [0.1953125, 0.125]]],
                        [[[0.0, 0.078125], [0.46484375, 1.0078125]], [[0.75, 1.03125], [0.53125, 1.0209961]]],
                        [[[0.8125, 0.9375], [0.5625, 0.6875]], [[0.5625, 0.6875], [0.3125, 0.4375]]]],
    (1, 2, 0.5, 0, 1): [[[[np.nan, np.nan]], [[np.nan, np.nan]]], [[[0.7395833, 0.8958333]], [[0.78125, 0.71875]]],
                        [[[0.46875, 0.59375]], [[1.3125, 0.890625]]], [[[np.nan, np.nan]], [[np.nan, np.nan]]]],
    (2, 3, 1.0, 1, 1): [[[[1.2436459, 0.43124998, 0.45885423], [0.52916664, 0.8375, 1.1458333]],
                         [[1.1416665, 1.0059376, 0.48958322], [0.27916664, 0.5875, 0.89583325]]],
                        [[[1.0, 0.625, 0.0], [0.0, 0.0, 0.0]], [[0.75, 1.25, 0.0], [0.0, 0.0, 0.0]]],
                        [[[0.0, 1.4901161e-08, 0.33333337], [0.0, 0.9375, 1.0520833]],
                         [[0.0, 1.4999999, 0.08333337], [0.0, 0.6875, 1.0208334]]],
                        [[[0.775, 0.8750001, 0.975], [0.47500008, 0.57500017, 0.6750001]],
                         [[0.52500004, 0.6250001, 0.7250001], [0.22500008, 0.3250001, 0.42500007]]]],
}
# roi_align_grad_features(2, 2, 1.0, 2, 1), equal to MindSpore's (2, 2, 1.0, 2, 0) gradient
GRAD_FEATURES = [
    [[[-0.21246094, -0.043671884, -0.039863285, -0.021835946, -0.014980465],
      [0.15351562, -0.099218756, -0.17441404, -0.15117192, -0.1037109],
      [0.27457032, 0.08976564, -0.024492174, -0.04031252, -0.027656246],
      [0.015625, 0.015625, 0.045019533, 0.21332037, 0.14634761]],
     [[-0.5258203, -0.16726562, -0.07703125, -0.04367189, -0.02996093],
      [-0.036328122, 0.36484376, 0.22812498, -0.30234385, -0.2074218],
      [0.075058594, 0.2766797, 0.14923827, -0.19148442, -0.13136713],
      [-0.0035351617, -0.20550783, -0.17220703, 0.0, 0.0]]],
    [[[0.0, 0.0078125, 0.0234375, 0.0234375, 0.0703125], [0.0, 0.0234375, 0.0703125, 0.0703125, 0.2109375],
      [0.0, 0.0234375, 0.09531249, 0.3053125, 0.30093747], [0.0, -0.0546875, 0.010937437, 0.100937545, -0.40718746]],
     [[0.0, 0.0, 0.0, 0.0, 0.03125], [0.0, 0.0, 0.0, 0.0, 0.09375], [0.0, 0.0, -0.057499975, -0.15499999, 0.14375],
      [0.0, 0.0625, 0.24499997, 0.94250005, 0.19374998]]]]
DOUT = (np.arange(5 * 2 * 2 * 2, dtype=np.float32).reshape(5, 2, 2, 2) % 5 - 2) / 2


def test_roi_align_forward():
    out = P.ROIAlign(2, 2, 0.5, 2)(T([[[[1.0, 2.0], [3.0, 4.0]]]]), T([[0, 0.2, 0.3, 0.2, 0.3]]))
    close(out, [[[[1.7749999, 2.025], [2.275, 2.525]]]])                                  # roi_align_doc
    for attrs, expected in POOLED.items():
        out = P.ROIAlign(*attrs)(Tensor(FEAT), Tensor(ROIS))
        np.testing.assert_allclose(out.asnumpy()[KEEP], expected, rtol=2e-6, atol=1e-7)   # NaN where MindSpore's is
        assert not out.asnumpy()[3].any()                                                 # mslab: zeros
        check_modes(lambda f, r, a=attrs: P.ROIAlign(*a)(f, r), Tensor(FEAT), Tensor(ROIS))
    assert P.ROIAlign(2, 2, 1.0, 2)(Tensor(FEAT.astype(np.float16)), Tensor(ROIS.astype(np.float16))).dtype == \
        ms.float16                                                                         # roi_align_fp16


@pytest.mark.parametrize("attrs", [(2, 2, 1.0, 2, 1), (2, 2, 1.0, 2, 0), (2, 2, 0.5, 0, 1)])
def test_roi_align_gradient_is_mindspores(attrs):
    def loss(f, r):
        return (P.ROIAlign(*attrs)(f, r) * Tensor(DOUT)).sum()
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        with ms.core.context.in_mode(mode):
            dx, drois = ms.grad(loss, grad_position=(0, 1))(Tensor(FEAT), Tensor(ROIS))
        assert not drois.asnumpy().any()                                    # roi_align_grad_rois<attrs> all zero
        if attrs[3] > 0:                                                    # roi_align_grad_features<attrs>
            np.testing.assert_allclose(dx.asnumpy(), GRAD_FEATURES, rtol=2e-6, atol=1e-7)
        else:  # sample_num 0: image 0's regions are smaller than a bin (forward NaN) and give nothing back
            np.testing.assert_allclose(dx.asnumpy(), [np.zeros((2, 4, 5)), [
                [[0.0, 0.09375, 0.09375, 0.1875, 0.0], [0.0, 0.28125, 0.28125, 0.5625, 0.0],
                 [0.0, -0.5625, -0.28125, -0.28125, 0.0], [0.0, -0.1875, -0.09375, -0.09375, 0.0]],
                [[0.0, 0.0, 0.03125, 0.09375, 0.0], [0.0, 0.0, 0.09375, 0.28125, 0.0],
                 [0.0, 0.5625, 0.0, -0.5625, 0.0], [0.0, 0.1875, 0.0, -0.1875, 0.0]]]], rtol=1e-6)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.sampled_from([0.5, 1.0]))
def test_roi_align_gradient_against_central_differences(seed, pooled_h, pooled_w, sample_num, scale):
    rng = np.random.default_rng(seed)
    features = rng.standard_normal((2, 2, 5, 6))
    starts = rng.uniform(-2, 8, (4, 2))
    rois = np.concatenate([rng.integers(0, 2, (4, 1)), starts, starts + rng.uniform(0.5, 6, (4, 2))], 1)
    rois_t = Tensor(rois)
    check_grad(lambda f: P.ROIAlign(pooled_h, pooled_w, scale, sample_num)(f, rois_t), features)
    dout = rng.standard_normal((4, 2, pooled_h, pooled_w))
    grad = roi_align_ops.ROIAlignGrad((2, 2, 5, 6), pooled_h, pooled_w, scale, sample_num)
    check_grad(lambda d: grad(d, rois_t), dout)                           # ROIAlignGrad differentiates too
    rois32 = Tensor(rois.astype(np.float32))
    check_modes(lambda d: grad(d, rois32), Tensor(dout.astype(np.float32)))


def test_roi_align_errors():
    for make, kind, text in ((lambda: P.ROIAlign(2, 2, 1, 2), TypeError, "'spatial_scale' should be 'float'"),
                             (lambda: P.ROIAlign(2.0, 2, 1.0, 2), TypeError, "'pooled_height' should be 'int'"),
                             (lambda: P.ROIAlign(2, 2, 1.0, 2, 2), ValueError, r"'roi_end_mode' must be in range"),
                             (lambda: P.ROIAlign(0, 2, 1.0, 2), ValueError, "must be positive")):
        with pytest.raises(kind, match=text):          # roi_align_scale_int, _pooled_float, _end_mode2, _pooled0
            make()
    roi_align = P.ROIAlign(2, 2, 1.0, 2)
    with pytest.raises(ValueError, match=r"rois must be \(R, 5\) rows"):                  # roi_align_rois_4_columns
        roi_align(Tensor(FEAT), T(np.zeros((3, 4))))
    with pytest.raises(ValueError, match=r"rois must be \(R, 5\) rows"):                  # roi_align_rois_rank1
        roi_align(Tensor(FEAT), T(np.zeros(5)))
    with pytest.raises(ValueError, match=r"features must be \(N, C, H, W\)"):             # MindSpore: garbage
        roi_align(Tensor(FEAT[0]), Tensor(ROIS))
    with pytest.raises(TypeError, match="one dtype"):                                     # MindSpore: garbage
        roi_align(Tensor(FEAT), Tensor(ROIS.astype(np.float16)))
    with pytest.raises(ValueError, match="names image 2, but features has 2 images"):
        roi_align(Tensor(FEAT), T([[2, 0, 0, 1, 1]]))


def test_names_and_every_detection_primitive_is_tested():
    assert ops.NMSWithMask is P.NMSWithMask and ops.ROIAlign is P.ROIAlign and ops.IOU is P.IOU
    assert ops.functional.iou is ops.iou and ops.functional.choice_with_mask is ops.choice_with_mask
    primitives = {n for m in (detection_ops, nms_ops, roi_align_ops) for n, v in vars(m).items()
                  if isinstance(v, type) and issubclass(v, Primitive) and v is not Primitive}
    assert primitives == {"BoundingBoxEncode", "BoundingBoxDecode", "IOU", "CheckValid", "RandomChoiceWithMask",
                          "NMSSort", "NMSMask", "ROIAlign", "ROIAlignGrad"}
