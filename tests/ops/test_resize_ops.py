"""Image resizing (issue #19): ResizeNearestNeighbor, ResizeBilinearV2, AdaptiveAvgPool2D, ops.interpolate.

Expected numbers are MindSpore 2.10's (observed on MindSpore 2.10 CPU; snippets and output in
docs/mindspore_observed/randimg.md). Every primitive and backward kernel passes check_grad (central
differences, both modes) and check_modes (GRAPH == PYNATIVE).
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import operations as P
from mslab.ops import resize_ops
from mslab.testing import check_grad, check_modes

X3 = np.array([[[1., 2., 4., 7.]], [[0., -1., 3., 5.]]], np.float32)  # (2, 1, 4)
X4 = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4) ** 1.5
X24 = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
X57 = np.arange(70, dtype=np.float32).reshape(1, 2, 5, 7) ** 1.2
S2, S3 = 2.8284270763397217, 5.196152687072754  # 2 ** 1.5, 3 ** 1.5


def close(got, expected, rtol=2e-6):
    np.testing.assert_allclose(got.asnumpy(), np.array(expected, np.float32), rtol=rtol, atol=2e-6)


# ---- ResizeNearestNeighbor -------------------------------------------------------------------------------
def test_resize_nearest_matches_mindspore():
    x = Tensor(X24)
    # observed on MindSpore 2.10 CPU
    out = ops.ResizeNearestNeighbor((5, 7), False)(x)
    assert out.shape == (1, 2, 5, 7)
    assert out.asnumpy()[0, 0].tolist() == [[0, 0, 1, 1, 2, 2, 3], [0, 0, 1, 1, 2, 2, 3], [4, 4, 5, 5, 6, 6, 7],
                                            [4, 4, 5, 5, 6, 6, 7], [8, 8, 9, 9, 10, 10, 11]]
    out = ops.ResizeNearestNeighbor((5, 7), True)(x)
    assert out.asnumpy()[0, 1].tolist() == [[12, 13, 13, 14, 14, 15, 15], [16, 17, 17, 18, 18, 19, 19],
                                            [16, 17, 17, 18, 18, 19, 19], [20, 21, 21, 22, 22, 23, 23],
                                            [20, 21, 21, 22, 22, 23, 23]]
    assert ops.ResizeNearestNeighbor((2, 3), False)(x).asnumpy().tolist() == [
        [[[0, 1, 2], [4, 5, 6]], [[12, 13, 14], [16, 17, 18]]]]
    assert ops.ResizeNearestNeighbor((2, 3), True)(x).asnumpy().tolist() == [
        [[[0, 2, 3], [8, 10, 11]], [[12, 14, 15], [20, 22, 23]]]]
    assert ops.ResizeNearestNeighbor([2, 2])(x).shape == (1, 2, 2, 2)
    ints = P.ResizeNearestNeighbor((2, 2))(Tensor(np.arange(16, dtype=np.int32).reshape(1, 1, 4, 4)))
    assert str(ints.dtype) == "Int32" and ints.asnumpy().tolist() == [[[[0, 2], [8, 10]]]]


def test_resize_nearest_gradient_matches_mindspore():
    x = Tensor(X24)
    g = ops.grad(lambda x: ops.ResizeNearestNeighbor((5, 7), False)(x).sum())(x)
    assert g.asnumpy()[0, 0].tolist() == [[4, 4, 4, 2], [4, 4, 4, 2], [2, 2, 2, 1]]  # observed on MindSpore 2.10 CPU
    w = Tensor(np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3))
    g = ops.grad(lambda x: (ops.ResizeNearestNeighbor((2, 3), True)(x) * w).sum())(x)
    assert g.asnumpy().tolist() == [[[[0, 0, 1, 2], [0, 0, 0, 0], [3, 0, 4, 5]],
                                     [[6, 0, 7, 8], [0, 0, 0, 0], [9, 0, 10, 11]]]]


def test_resize_nearest_errors():
    with pytest.raises(ValueError, match="image rank must be equal to 4, but got 3"):
        ops.ResizeNearestNeighbor((2, 2))(Tensor(np.ones((2, 1, 4), np.float32)))
    with pytest.raises(TypeError, match="'size' should be one of"):
        ops.ResizeNearestNeighbor(3)


@settings(max_examples=8, deadline=None)
@given(h=st.integers(1, 4), w=st.integers(1, 4), oh=st.integers(1, 6), ow=st.integers(1, 6), ac=st.booleans())
def test_resize_nearest_grad_and_modes(h, w, oh, ow, ac):
    x = np.random.default_rng(h * 7 + w).standard_normal((2, 1, h, w))
    f = ops.ResizeNearestNeighbor((oh, ow), ac)
    check_grad(f, x)
    check_modes(f, Tensor(x.astype(np.float32)))
    d = np.random.default_rng(1).standard_normal((2, 1, oh, ow))
    check_grad(lambda x, d: resize_ops.ResizeNearestNeighborGrad((oh, ow), ac)(x, d), x, d, positions=[1])
    check_modes(lambda x, d: resize_ops.ResizeNearestNeighborGrad((oh, ow), ac)(x, d), Tensor(x), Tensor(d))


# ---- ResizeBilinearV2 and interpolate -----------------------------------------------------------------------
def test_resize_bilinear_v2_matches_mindspore():
    x = Tensor(X4)
    # observed on MindSpore 2.10 CPU: the default (legacy) coordinates, s = i * in / out
    close(P.ResizeBilinearV2()(x, (5, 6))[0, 0, :2], [
        [0.0, 0.6666666865348816, 1.60947585105896, S2, 4.4069108963012695, S3],
        [4.800000190734863, 6.338802814483643, 8.055314064025879, 9.94953441619873, 12.11025619506836,
         13.190616607666016]])
    assert P.ResizeBilinearV2()(x, Tensor(np.array([5, 6], np.int32))).shape == (1, 1, 5, 6)
    with pytest.raises(ValueError, match="half_pixel_centers must be false when align_corners is true"):
        P.ResizeBilinearV2(align_corners=True, half_pixel_centers=True)


BICUBIC = {  # ResizeBicubic(align_corners, half_pixel_centers)(X4, (5, 6))[0, 0, :2], observed on MindSpore 2.10 CPU
    (False, False): [[0.0, 0.48237940669059753, 1.554734706878662, S2, 4.553023338317871, 5.459233283996582],
                     [3.3132855892181396, 4.520089149475098, 6.4505085945129395, 8.259415626525879, 10.568183898925781,
                      11.754950523376465]],
    (True, False): [[0.0, 0.41416069865226746, 1.361280918121338, 2.30289888381958, 3.9455366134643555, S3],
                    [2.6286797523498535, 3.5612597465515137, 5.177619457244873, 6.482861042022705, 8.617875099182129,
                     10.174209594726562]],
    (False, True): [[-0.6592433452606201, -0.3111632466316223, 0.45854651927948, 1.6056920289993286,
                     3.2274067401885986, 4.338604927062988],
                    [2.040942430496216, 2.8200275897979736, 4.218539714813232, 5.807343482971191, 7.876796722412109,
                     9.256823539733887]]}


def test_resize_bicubic_matches_mindspore():
    x = Tensor(X4)
    for (ac, hp), expected in BICUBIC.items():
        close(P.ResizeBicubic(ac, hp)(x, Tensor(np.array([5, 6], np.int32)))[0, 0, :2], expected)
    # interpolate's 'bicubic' is ResizeBicubic with half-pixel centres, or align_corners (observed)
    close(ops.interpolate(x, size=(5, 6), mode="bicubic")[0, 0, :2], BICUBIC[(False, True)])
    close(ops.interpolate(x, size=(5, 6), mode="bicubic", align_corners=True)[0, 0, :2], BICUBIC[(True, False)])
    close(ops.interpolate(x, size=(2, 3), mode="bicubic"),
          [[[[1.332893967628479, 3.5708136558532715, 7.055815696716309],
             [20.45611572265625, 26.414241790771484, 32.878990173339844]]]])
    w = Tensor(np.arange(30, dtype=np.float32).reshape(1, 1, 5, 6))
    g = ops.grad(lambda x: (ops.interpolate(x, size=(5, 6), mode="bicubic") * w).sum())(x)
    close(g, [[[[5.344117164611816, 8.857953071594238, 12.620429039001465, 16.884502410888672],
                [30.66676902770996, 33.241310119628906, 36.917598724365234, 41.94277572631836],
                [57.42742919921875, 59.18340301513672, 62.94588088989258, 68.96781158447266]]]], rtol=1e-5)
    with pytest.raises(ValueError, match="bicubic only support '\\[4\\]'D, but got 3D"):
        ops.interpolate(Tensor(X3), size=5, mode="bicubic")


@pytest.mark.parametrize("ac, hp", [(False, False), (True, False), (False, True)])
def test_resize_bicubic_grad_and_modes(ac, hp):
    x = np.random.default_rng(5).standard_normal((1, 2, 3, 4))
    for size in ((5, 7), (2, 2)):
        f = lambda x, s=size: P.ResizeBicubic(ac, hp)(x, s)  # noqa: E731
        check_grad(f, x)
        check_modes(f, Tensor(x.astype(np.float32)))


BILINEAR = [  # interpolate(X4, size=(5, 6), mode="bilinear"), observed on MindSpore 2.10 CPU
    [0.0, 0.5, 1.3047380447387695, 2.5236895084381104, 4.012290000915527, S3],
    [3.200000286102295, 4.136068344116211, 5.489418983459473, 7.158550262451172, 9.050813674926758,
     10.525794982910156],
    [8.0, 9.590169906616211, 11.766439437866211, 14.11083984375, 16.608598709106445, 18.5202579498291],
    [16.776451110839844, 18.72429656982422, 21.36885643005371, 24.15572738647461, 27.075138092041016,
     29.297828674316406],
    [22.627416610717773, 24.813709259033203, 27.770463943481445, 30.852313995361328, 34.052825927734375,
     36.482872009277344]]
BILINEAR_AC = [  # the same with align_corners=True
    [0.0, 0.6000000238418579, 1.3656854629516602, 2.4627418518066406, 3.775517463684082, S3],
    [4.0, 5.254101753234863, 6.6246724128723145, 8.228179931640625, 10.000892639160156, 11.858205795288086],
    [8.0, 9.908204078674316, 11.883659362792969, 13.993618965148926, 16.226266860961914, 18.5202579498291],
    [15.313708305358887, 17.579586029052734, 19.90410614013672, 22.34592056274414, 24.896541595458984,
     27.501564025878906],
    [22.627416610717773, 25.250967025756836, 27.9245548248291, 30.69822120666504, 33.56681442260742,
     36.482872009277344]]


def test_interpolate_matches_mindspore():
    x3, x4 = Tensor(X3), Tensor(X4)
    # all observed on MindSpore 2.10 CPU
    close(ops.interpolate(x3, size=6, mode="nearest"), [[[1, 1, 2, 4, 4, 7]], [[0, 0, -1, 3, 3, 5]]])
    close(ops.interpolate(x3, size=7, mode="linear"), [
        [[1.0, 1.3571429252624512, 1.9285714626312256, 3.0, 4.214285850524902, 5.9285712242126465, 7.0]],
        [[0.0, -0.3571428656578064, -0.9285714030265808, 1.0, 3.142857074737549, 4.285714149475098, 5.0]]])
    close(ops.interpolate(x3, size=7, mode="linear", align_corners=True),
          [[[1.0, 1.5, 2.0, 3.0, 4.0, 5.5, 7.0]], [[0.0, -0.5, -1.0, 1.0, 3.0, 4.0, 5.0]]])
    close(ops.interpolate(x3, size=(6,), mode="linear", recompute_scale_factor=None),
          [[[1.0, 1.5, 2.3333332538604736, 3.6666667461395264, 5.5, 7.0]],
           [[0.0, -0.5, -0.33333349227905273, 2.3333334922790527, 4.0, 5.0]]])
    close(ops.interpolate(x3, size=2, mode="area"), [[[1.5, 5.5]], [[-0.5, 4.0]]])
    close(ops.interpolate(x3, size=6, mode="nearest-exact"), [[[1, 2, 2, 4, 7, 7]], [[0, -1, -1, 3, 5, 5]]])
    close(ops.interpolate(x4, size=(5, 6), mode="bilinear"), [[BILINEAR]])
    close(ops.interpolate(x4, size=(5, 6), mode="bilinear", align_corners=True), [[BILINEAR_AC]])
    close(ops.interpolate(x4, size=(2, 3), mode="bilinear"),
          [[[[2.257514238357544, 4.6703200340271, 8.071908950805664],
             [19.64965057373047, 25.21820068359375, 31.225400924682617]]]])
    close(ops.interpolate(x4, size=(5, 6)), [[[[0, 0, 1, S2, S2, S3]] * 2 + [
        [8.0, 8.0, 11.180339813232422, 14.696938514709473, 14.696938514709473, 18.5202579498291]] * 2 + [
        [22.627416610717773, 22.627416610717773, 27.0, 31.62277603149414, 31.62277603149414, 36.482872009277344]]]])
    close(ops.interpolate(x4, size=(2, 3), mode="nearest"),
          [[[[0.0, 1.0, S2], [8.0, 11.180339813232422, 14.696938514709473]]]])
    close(ops.interpolate(x4, size=(2, 2), mode="area"),
          [[[[5.0450849533081055, 10.310443878173828], [17.20193862915039, 25.330711364746094]]]])
    close(ops.interpolate(x4, size=(2, 2), mode="nearest-exact"), [[[[1.0, S3], [27.0, 36.482872009277344]]]])
    close(ops.interpolate(x4, size=5, mode="bilinear")[0, 0, 0],
          [0.0, 0.7000000476837158, 1.9142135381698608, 3.5387446880340576, S3])
    out = ops.interpolate(x4, scale_factor=(1.7, 1.3), mode="bilinear", recompute_scale_factor=True)
    close(out[0, 0, 1], [3.200000286102295, 4.510495662689209, 6.323984146118164, 8.460821151733398,
                         10.525794982910156])
    out = ops.interpolate(x4, scale_factor=(1.7, 1.3), mode="area")
    close(out[0, 0, 1], [4.0, 5.045080184936523, 7.4264302253723145, 10.310440063476562, 11.858209609985352],
          rtol=1e-5)
    close(ops.interpolate(x3, scale_factor=1.5, mode="linear", recompute_scale_factor=True),
          [[[1.0, 1.5, 2.3333332538604736, 3.6666667461395264, 5.5, 7.0]],
           [[0.0, -0.5, -0.33333349227905273, 2.3333334922790527, 4.0, 5.0]]])
    out = ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.float64)), size=(3, 3), mode="bilinear")
    assert str(out.dtype) == "Float64" and out.asnumpy().tolist() == [[[[1.0] * 3] * 3]]


def test_interpolate_gradients_match_mindspore():
    x4 = Tensor(X4)
    w = Tensor(np.arange(30, dtype=np.float32).reshape(1, 1, 5, 6))
    expected = {  # observed on MindSpore 2.10 CPU
        ("bilinear", False): [[6.199999809265137, 9.666664123535156, 13.13333511352539, 16.599998474121094],
                              [33.29999542236328, 37.19999313354492, 41.10000228881836, 44.999996185302734],
                              [53.000003814697266, 56.46665954589844, 59.9333381652832, 63.400001525878906]],
        ("bilinear", True): [[4.800000190734863, 8.999999046325684, 12.600000381469727, 14.100000381469727],
                             [34.39999771118164, 43.999996185302734, 48.79999923706055, 46.80000305175781],
                             [46.79999923706055, 56.999996185302734, 60.599998474121094, 56.100006103515625]],
        ("nearest", None): [[14, 10, 26, 16], [62, 34, 74, 40], [49, 26, 55, 29]]}
    for (mode, ac), exp in expected.items():
        g = ops.grad(lambda x, m=mode, a=ac: (ops.interpolate(x, size=(5, 6), mode=m, align_corners=a) * w).sum())(x4)
        close(g, [[exp]], rtol=1e-5)
    w1 = Tensor(np.arange(14, dtype=np.float32).reshape(2, 1, 7))
    expected = {("linear", False): [[[0.785714328289032, 3.7142856121063232, 7.000000476837158, 9.5]],
                                    [[12.785714149475098, 16.214284896850586, 19.5, 21.5]]],
                ("linear", True): [[[0.5, 4.0, 8.0, 8.5]], [[11.0, 18.0, 22.0, 19.0]]],
                ("nearest", None): [[[1.0, 5.0, 9.0, 6.0]], [[15.0, 19.0, 23.0, 13.0]]]}
    for (mode, ac), exp in expected.items():
        g = ops.grad(lambda x, m=mode, a=ac: (ops.interpolate(x, size=7, mode=m, align_corners=a) * w1).sum())(
            Tensor(X3))
        close(g, exp, rtol=1e-5)


@pytest.mark.parametrize("kwargs, error, message", [  # messages observed on MindSpore 2.10 CPU
    (dict(size=(5, 6), mode="foo"), ValueError, "'mode' must be in"),
    (dict(scale_factor=(2.0, 1.5), mode="bilinear"), ValueError,
     "'scale_factor' option cannot currently be set with the mode = bilinear and dim = 4D"),
    (dict(scale_factor=(2.0, 2.0), mode="nearest-exact"), ValueError, "mode = nearest-exact and dim = 4D"),
    (dict(scale_factor=2, mode="area", recompute_scale_factor=True), TypeError, "'scale_factor' must be float"),
    (dict(size=(5, 6), mode="nearest", align_corners=True), ValueError,
     "'align_corners' option cannot currently be set with the mode = nearest, and dim = 4D"),
    (dict(size=(2, 2), mode="area", align_corners=False), ValueError, "mode = area, and dim = 4D"),
    (dict(size=(5, 6), mode="linear"), ValueError, "linear only support '\\[3\\]'D, but got 4D"),
    (dict(size=(5, 6), mode="trilinear"), ValueError, "trilinear only support '\\[5\\]'D, but got 4D"),
    (dict(size=(5, 6), scale_factor=2.0, mode="bilinear"), ValueError, "cannot be set simultaneously"),
    (dict(mode="bilinear"), ValueError, "cannot be both empty"),
    (dict(size=(5, 6), mode="bilinear", recompute_scale_factor=True), ValueError, "explicit 'size'"),
])
def test_interpolate_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        ops.interpolate(Tensor(X4), **kwargs)


def test_interpolate_error_cases_of_other_ranks():
    with pytest.raises(NotImplementedError, match="mslab does not implement it yet"):
        ops.interpolate(Tensor(np.ones((1, 1, 2, 2, 2), np.float32)), size=(3, 3, 3), mode="nearest")
    with pytest.raises(ValueError, match="bilinear only support '\\[4\\]'D, but got 3D"):
        ops.interpolate(Tensor(X3), size=5, mode="bilinear")
    with pytest.raises(ValueError, match="divisible by output size 3, but got 4"):
        ops.interpolate(Tensor(X3), size=3, mode="area")
    with pytest.raises(TypeError):  # MindSpore 2.10 raises a TypeError (with an empty message) for ints
        ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.int32)), size=(3, 3), mode="bilinear")


@pytest.mark.parametrize("mode, ac", [("bilinear", False), ("bilinear", True), ("bicubic", False), ("area", None),
                                      ("nearest", None)])
def test_interpolate_grad_and_modes(mode, ac):
    x = np.random.default_rng(3).standard_normal((2, 2, 3, 5))
    for size in ((5, 4), (2, 2), (1, 7)):
        f = lambda x, s=size: ops.interpolate(x, size=s, mode=mode, align_corners=ac)  # noqa: E731
        check_grad(f, x)
        check_modes(f, Tensor(x.astype(np.float32)))


@pytest.mark.parametrize("grad_cls, attrs", [
    (resize_ops.ResizeBilinearGrad, dict(size=(4, 6))),
    (resize_ops.ResizeBicubicGrad, dict(size=(4, 6), half_pixel_centers=True)),
    (resize_ops.AdaptiveAvgPool2DGrad, dict(output_size=(2, 3)))])
def test_backward_kernels_grad_and_modes(grad_cls, attrs):
    x = np.random.default_rng(0).standard_normal((1, 2, 3, 5))
    d = np.random.default_rng(1).standard_normal((1, 2) + tuple(attrs.get("size", attrs.get("output_size"))))
    f = lambda x, d: grad_cls(**attrs)(x, d)  # noqa: E731
    check_grad(f, x, d, positions=[1])
    check_modes(f, Tensor(x), Tensor(d))


# ---- AdaptiveAvgPool2D -------------------------------------------------------------------------------------
def test_adaptive_avg_pool2d_matches_mindspore():
    x = Tensor(X57)
    # observed on MindSpore 2.10 CPU
    expected = [[[[13.010269165039062, 16.53352928161621, 20.30069923400879],
                  [41.16513442993164, 45.634429931640625, 50.182762145996094]],
                 [[91.4332046508789, 96.54166412353516, 101.69636535644531],
                  [128.1106719970703, 133.5125732421875, 138.95150756835938]]]]
    close(ops.AdaptiveAvgPool2D((2, 3))(x), expected)
    close(ops.adaptive_avg_pool2d(x, (2, 3)), expected)
    close(ops.AdaptiveAvgPool2D((2, 3))(x[0]), expected[0])
    close(ops.AdaptiveAvgPool2D(3)(x)[0, 0, 0], [6.620026111602783, 9.816250801086426, 13.328411102294922])
    assert ops.AdaptiveAvgPool2D((None, 3))(x).shape == (1, 2, 5, 3)
    close(ops.AdaptiveAvgPool2D((None, 3))(x)[0, 0, 0], [1.0991321802139282, 3.7708740234375, 6.920831680297852])
    close(ops.AdaptiveAvgPool2D((2, None))(x)[0, 0, 0, :3], [11.354490280151367, 12.96910572052002,
                                                             14.707210540771484])
    close(ops.AdaptiveAvgPool2D((7, 9))(x)[0, 0, 1, :4], [5.165206432342529, 5.864036560058594, 7.34743595123291,
                                                          8.962533950805664])
    close(ops.adaptive_avg_pool2d(x, 1), [[[[31.3797550201416]], [[115.12826538085938]]]])
    w = Tensor(np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3))
    g = ops.grad(lambda x: (ops.AdaptiveAvgPool2D((2, 3))(x) * w).sum())(x)
    close(g[0, 0, 2], [0.3333333432674408, 0.3333333432674408, 0.8888888955116272, 0.5555555820465088,
                       1.3333333730697632, 0.7777777910232544, 0.7777777910232544])
    close(g[0, 1, 2], [1.6666666269302368, 1.6666666269302368, 3.555555582046509, 1.8888888359069824, 4.0,
                       2.1111111640930176, 2.1111111640930176])


def test_adaptive_avg_pool2d_errors():
    with pytest.raises(TypeError, match="must be a type of .*Tensor\\[Int32\\]"):
        ops.AdaptiveAvgPool2D((2, 3))(Tensor(np.ones((1, 1, 4, 4), np.int32)))
    with pytest.raises(ValueError, match="the dim of x must be in \\[3,4\\], but got 1"):
        ops.AdaptiveAvgPool2D((2, 3))(Tensor(np.ones((4,), np.float32)))
    with pytest.raises(ValueError, match="'length of output_size' must be int and must = 2"):
        ops.AdaptiveAvgPool2D((1, 2, 3))


@settings(max_examples=8, deadline=None)
@given(h=st.integers(1, 6), w=st.integers(1, 6), oh=st.integers(1, 5), ow=st.integers(1, 5))
def test_adaptive_avg_pool2d_grad_and_modes(h, w, oh, ow):
    x = np.random.default_rng(h + 10 * w).standard_normal((1, 2, h, w))
    f = ops.AdaptiveAvgPool2D((oh, ow))
    check_grad(f, x)
    check_modes(f, Tensor(x.astype(np.float32)))


def test_every_resize_primitive_is_tested():
    source = open(__file__).read().split("def test_every_resize")[0]
    untested = [n for n in resize_ops.__all__ if n[0].isupper() and n not in source]
    assert not untested
