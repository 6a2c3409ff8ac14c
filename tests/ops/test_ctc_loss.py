"""P.CTCLoss (issue #19): loss and gradient outputs as MindSpore 2.10 returns them (observed on MindSpore 2.10 CPU;
docs/mindspore_observed/randimg.md), the loss's gradient by central differences, GRAPH == PYNATIVE."""
import numpy as np
import pytest

from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import ctc_ops
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

X = np.random.RandomState(0).randn(3, 2, 4).astype(np.float32)  # (T, N, C); class 3 is the blank
IDX = np.array([[0, 0], [0, 1], [1, 0]], np.int64)  # sample 0: labels [1, 2]; sample 1: [1]
VALS = np.array([1, 2, 1], np.int32)
SEQ = np.array([3, 3], np.int32)
GRAD = [[[0.30096766352653503, -0.35768458247184753, 0.1372341364622116, -0.0805169939994812],
         [0.6287441849708557, -0.17844544351100922, 0.2512013614177704, -0.7015000581741333]],
        [[0.11495472490787506, -0.46292802691459656, 0.057078950107097626, 0.2908945381641388],
         [0.34387198090553284, -0.3855212926864624, 0.2504088580608368, -0.20875950157642365]],
        [[0.6307817101478577, 0.11532134562730789, -0.7849777340888977, 0.038874875754117966],
         [0.016050977632403374, -0.44872552156448364, 0.48940759897232056, -0.05673312395811081]]]


def run(idx=IDX, vals=VALS, seq=SEQ, **kw):
    return P.CTCLoss(**kw)(Tensor(X), Tensor(np.array(idx, np.int64)), Tensor(np.array(vals, np.int32)),
                           Tensor(np.array(seq, np.int32)))


def close(got, expected):
    np.testing.assert_allclose(got.asnumpy(), np.array(expected, np.float32), rtol=1e-5, atol=1e-6)


def test_ctc_loss_matches_mindspore():
    loss, grad = run()
    # observed on MindSpore 2.10 CPU
    assert str(loss.dtype) == "Float32" and grad.shape == (3, 2, 4)
    close(loss, [3.4448413848876953, 3.9633126258850098])
    close(grad, GRAD)
    close(run(preprocess_collapse_repeated=True)[0], [3.4448413848876953, 3.9633126258850098])
    close(run(ignore_longer_outputs_than_inputs=True)[0], [3.4448413848876953, 3.9633126258850098])
    loss, grad = run(ctc_merge_repeated=False)
    close(loss, [3.617356777191162, 4.634096145629883])
    close(grad[:, 0], [[0.30096766352653503, -0.2512314021587372, 0.1372341364622116, -0.18697041273117065],
                       [0.11495472490787506, -0.47965678572654724, 0.12178117781877518, 0.24292120337486267],
                       [0.6307817101478577, 0.11532134562730789, -0.7809500694274902, 0.034846946597099304]])


def test_ctc_loss_repeats_and_lengths_match_mindspore():
    rep = ([[0, 0], [0, 1], [1, 0]], [1, 1, 2])  # sample 0: [1, 1]; sample 1: [2]
    # observed on MindSpore 2.10 CPU
    close(run(*rep)[0], [5.330405235290527, 2.7498066425323486])
    close(run(*rep, preprocess_collapse_repeated=True)[0], [2.956557035446167, 2.7498066425323486])
    loss, grad = run(*rep, ctc_merge_repeated=False)
    close(loss, [4.105733871459961, 4.089491367340088])
    close(grad[2], [[0.6307817101478577, -0.8305986523628235, 0.19362986087799072, 0.0061866529285907745],
                    [0.016050977632403374, 0.39638185501098633, -0.057834625244140625, -0.3545979857444763]])
    close(run(IDX, [1, 3, 1])[0], [2.956557035446167, 3.9633126258850098])  # a blank label value is dropped
    # sample 1 with 2 frames: frames past its length get a zero gradient
    loss, grad = run([[1, 0], [0, 1], [0, 0]], [1, 2, 1], seq=[3, 2])  # unsorted indices
    close(loss, [3.4448413848876953, 3.507174253463745])
    close(grad[:, 1], [[0.6287441849708557, -0.4581511318683624, 0.2512013614177704, -0.4217943549156189],
                       [0.34387198090553284, -0.5450870990753174, 0.2504088580608368, -0.049193546175956726],
                       [0.0, 0.0, 0.0, 0.0]])
    two = ([[0, 0], [1, 0], [1, 1]], [2, 1, 1], [3, 2])  # sample 1: [1, 1] cannot fit 2 frames
    for kw in ({}, dict(ignore_longer_outputs_than_inputs=True)):
        loss, grad = run(*two, **kw)
        close(loss, [2.538405179977417, np.inf])
        assert not grad.asnumpy()[:, 1].any()
    loss, grad = run(*two, ctc_merge_repeated=False)
    close(loss, [2.8126816749572754, 5.015714645385742])
    close(grad[:2, 1], [[0.6287441849708557, -0.9634424448013306, 0.2512013614177704, 0.08349687606096268],
                        [0.34387198090553284, -0.8185632824897766, 0.2504088580608368, 0.2242824286222458]])
    close(run([[0, 0], [1, 0], [1, 1]], [2, 1, 2], [3, 2])[0], [2.538405179977417, 4.693526744842529])
    long = ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]], [1, 2, 1, 2, 0])  # 4 labels in 3 frames
    with pytest.raises((RuntimeError, ValueError), match="sequence length: 3 and label length: 4"):
        run(*long)
    loss, grad = run(*long, ignore_longer_outputs_than_inputs=True)
    close(loss, [np.inf, 3.167348861694336])
    assert not grad.asnumpy()[:, 0].any()


def test_ctc_loss_gradient_matches_mindspore():
    x, idx, vals, seq = Tensor(X), Tensor(IDX), Tensor(VALS), Tensor(SEQ)
    # observed on MindSpore 2.10 CPU: d loss / d inputs = the gradient output times dloss, per sample
    close(ops.grad(lambda x: P.CTCLoss()(x, idx, vals, seq)[0].sum())(x), GRAD)
    sens = Tensor(np.array([1.0, 2.0], np.float32))
    g = ops.GradOperation(sens_param=True)(lambda x: P.CTCLoss()(x, idx, vals, seq)[0])(x, sens)
    close(g[:, 1], [[1.2574883699417114, -0.35689088702201843, 0.5024027228355408, -1.4030001163482666],
                    [0.6877439618110657, -0.7710425853729248, 0.5008177161216736, -0.4175190031528473],
                    [0.03210195526480675, -0.8974510431289673, 0.9788151979446411, -0.11346624791622162]])


@pytest.mark.parametrize("kw", [{}, dict(ctc_merge_repeated=False), dict(preprocess_collapse_repeated=True)])
def test_ctc_loss_central_differences_and_modes(kw):
    x = np.random.default_rng(1).standard_normal((5, 3, 4))
    idx = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0]], np.int64)
    vals = np.array([1, 1, 0, 2, 0, 2], np.int32)
    seq = np.array([5, 4, 2], np.int32)
    args = (Tensor(idx), Tensor(vals), Tensor(seq))
    check_grad(lambda x: ctc_ops.CTCLossValue(**kw)(x, *args), x)
    check_modes(lambda x: P.CTCLoss(**kw)(x, *args), Tensor(x.astype(np.float32)))
    check_modes(lambda x: ctc_ops.CTCLossGradient(**kw)(x, *args), Tensor(x))


@pytest.mark.parametrize("inputs, error, message", [  # observed on MindSpore 2.10 CPU
    ((np.ones((3, 2), np.float32), IDX[:1], VALS[:1], SEQ), ValueError, "the inputs rank must be equal to 3"),
    ((np.ones((3, 2, 4), np.int32), IDX, VALS, SEQ), TypeError, "argument\\[inputs\\] must be a type of"),
    ((X, IDX.astype(np.int32), VALS, SEQ), TypeError, "argument\\[labels_indices\\] must be a type of "
                                                      "\\{Tensor\\[Int64\\]\\}, but got Tensor\\[Int32\\]"),
    ((X, IDX, VALS, np.array([3], np.int32)), ValueError, "input batch_size must be same with 'sequence_length'"),
    ((X, IDX, VALS, np.array([4, 2], np.int32)), (RuntimeError, ValueError), "'max_time': 3 and 'sequence_length': 4"),
    ((X, IDX, VALS, np.array([3, 0], np.int32)), (RuntimeError, ValueError), "'sequence_length' must be greater than"),
])
def test_ctc_loss_errors(inputs, error, message):
    with pytest.raises(error, match=message):  # kernel RuntimeErrors are OpErrors (ValueErrors) in mslab
        P.CTCLoss()(*(Tensor(a) for a in inputs))


def test_every_ctc_primitive_is_tested():
    source = open(__file__).read().split("def test_every_ctc")[0]
    assert all(n in source for n in ctc_ops.__all__)
