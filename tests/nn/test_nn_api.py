"""nn activations and losses added for MindSpore 2.x code (GELU, ELU, SiLU, HSigmoid, SmoothL1Loss,
HuberLoss, BCELoss, CrossEntropyLoss, NLLLoss): MindSpore's numbers, GRAPH == PYNATIVE, gradients.

Expected numbers observed on MindSpore 2.10 CPU (docs/mindspore_observed/fidelity.md section 11; the
checks noted beside a test are in api_additions.md sections 3 and 4)."""
import numpy as np
import pytest

from mslab import Tensor, nn, ops
from mslab.testing import check_grad, check_modes


def T(values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


A = [-2.0, -0.5, 0.0, 1.0, 3.0]
ACTIVATIONS = [
    (nn.GELU(), [-0.04540229, -0.154286, 0.0, 0.841192, 2.9963627]),          # tanh approximation by default
    (nn.GELU(approximate=False), [-0.04550028, -0.15426877, 0.0, 0.8413447, 2.9959502]),
    (nn.ELU(), [-0.8646648, -0.3934695, 0.0, 1.0, 3.0]),
    (nn.SiLU(), [-0.23840573, -0.18877032, 0.0, 0.7310589, 2.8577223]),
    (nn.HSigmoid(), [0.16666667, 0.41666666, 0.5, 0.6666667, 1.0]),
]


@pytest.mark.parametrize("cell, want", ACTIVATIONS, ids=lambda c: repr(c) if isinstance(c, nn.Cell) else "")
def test_activations(cell, want):
    np.testing.assert_allclose(cell(T(A)).asnumpy(), want, rtol=3e-6, atol=1e-7)
    check_modes(lambda x: cell(x), T(A))
    check_grad(lambda x: cell(x), np.array([-2.0, -0.5, 0.3, 1.0, 2.5, -40.0, 40.0]))  # away from kinks


def test_activation_names_and_elu_alpha():
    """Checked on MindSpore 2.10 CPU: get_activation knows these names; ELU(alpha=0.5) is refused."""
    for name, cls in [("gelu", nn.GELU), ("elu", nn.ELU), ("silu", nn.SiLU), ("hsigmoid", nn.HSigmoid)]:
        assert type(nn.get_activation(name)) is cls
    with pytest.raises(ValueError, match="alpha must be 1.0"):
        nn.ELU(alpha=0.5)
    assert repr(nn.GELU()) == "GELU()" and repr(nn.CrossEntropyLoss()) == "CrossEntropyLoss()"


P, TGT = [0.0, 1.0, 3.0], [0.5, 3.0, 3.2]
LOGITS = [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]


def test_regression_losses():
    out = nn.SmoothL1Loss()(T(P), T(TGT))                      # reduction 'none' by default
    np.testing.assert_allclose(out.asnumpy(), [0.125, 1.5, 0.02000001], rtol=1e-6)
    np.testing.assert_allclose(nn.HuberLoss()(T(P), T(TGT)).asnumpy(), 0.54833335, rtol=1e-6)
    out = nn.HuberLoss(delta=0.5, reduction="none")(T(P), T(TGT))
    np.testing.assert_allclose(out.asnumpy(), [0.125, 0.875, 0.02000001], rtol=1e-6)
    with pytest.raises(ValueError, match="SmoothL1Loss"):
        nn.SmoothL1Loss()(T(P), T([1.0, 2.0]))


def test_classification_losses():
    np.testing.assert_allclose(nn.BCELoss()(T([0.9, 0.2, 0.6]), T([1.0, 0.0, 0.0])).asnumpy(), 0.41493165, rtol=1e-6)
    # checked on MindSpore 2.10 CPU: the logs are clamped at log(1e-12), and weights multiply
    out = nn.BCELoss(reduction="none")(T([0.0, 1.0, 0.5]), T([1.0, 0.0, 1.0]))
    np.testing.assert_allclose(out.asnumpy(), [27.631021, 27.631021, 0.6931472], rtol=1e-6)
    out = nn.BCELoss(weight=T([1.0, 2.0, 3.0]))(T([0.9, 0.2, 0.6]), T([1.0, 0.0, 0.0]))
    np.testing.assert_allclose(out.asnumpy(), 1.1001734, rtol=1e-6)
    labels = T([0, 1], np.int32)
    np.testing.assert_allclose(nn.CrossEntropyLoss()(T(LOGITS), labels).asnumpy(), 0.3185395, rtol=3e-6)
    out = nn.CrossEntropyLoss(label_smoothing=0.1)(T(LOGITS), labels)
    np.testing.assert_allclose(out.asnumpy(), 0.43687284, rtol=3e-6)
    logp = ops.log_softmax(T(LOGITS), 1)
    np.testing.assert_allclose(nn.NLLLoss()(logp, labels).asnumpy(), 0.31853908, rtol=3e-6)
    # MindSpore's CPU log_softmax is a few float32 ulps off (its cross_entropy above gives 0.41702962 for the same)
    np.testing.assert_allclose(nn.NLLLoss(reduction="none")(logp, labels).asnumpy(), [0.4170278, 0.22005033], rtol=1e-5)


@pytest.mark.parametrize("make", [lambda: nn.SmoothL1Loss(0.5, "mean"), lambda: nn.HuberLoss("sum", 0.7),
                                  lambda: nn.BCELoss(reduction="mean")])
def test_elementwise_loss_grads_and_modes(make):
    loss = make()
    p, t = np.array([[0.2, 0.9, 0.4], [0.7, 0.1, 0.55]]), np.array([[0.0, 1.0, 1.0], [0.3, 0.8, 0.0]])
    check_grad(lambda p: loss(p, Tensor(t)), p)
    check_modes(lambda p, t: loss(p, t), T(p), T(t))


@pytest.mark.parametrize("make", [lambda: nn.CrossEntropyLoss(), lambda: nn.CrossEntropyLoss(T([1.0, 2.0, 0.5]), 1),
                                  lambda: nn.CrossEntropyLoss(reduction="sum", label_smoothing=0.3),
                                  lambda: nn.NLLLoss(T([1.0, 2.0, 0.5]))])
def test_class_loss_grads_and_modes(make):
    loss = make()
    x, labels = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.0, -1.0, 0.2]]), T([0, 1, 2], np.int32)
    check_grad(lambda x: loss(x, labels), x)
    check_modes(lambda x: loss(x, labels), T(x))


def test_cross_entropy_gradient_is_softmax_minus_onehot_over_n():
    x = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
    g = ops.GradOperation()(lambda x: nn.CrossEntropyLoss()(x, T([0, 1], np.int32)))(Tensor(x)).asnumpy()
    soft = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    np.testing.assert_allclose(g, (soft - np.eye(3)[[0, 1]]) / 2, rtol=1e-6)
