"""mindspore-lab's model zoo mindcv 0.3.0 runs on mslab: ``create_model(name, num_classes=10)`` draws MindSpore's
initial weights for the same seed, and two training steps give MindSpore 2.10's losses, in both modes.

mindcv is never a dependency of mslab; the test runs when mindcv is importable, e.g. installed beside the repository
with ``pip install --no-deps --target ~/mindcv-pkgs mindcv==0.3.0`` (its other requirements, numpy, PyYAML and tqdm,
are mslab's or the venv's) and ``PYTHONPATH=~/mindcv-pkgs``. mindcv imports ``mindspore``; here that name is an alias
of ``mslab`` (``python -m mslab run``'s import alias, removed again after the module).

The reference numbers come from the same steps on MindSpore 2.10 CPU with mindcv 0.3.0 (identical in PYNATIVE and
GRAPH mode): ``ms.set_seed(1)``, the model, an input of standard normal numbers (``np.random.RandomState(0)``) of
(2, 3, 64, 64) (convnext_tiny: 32 x 32; vgg11 and vit_b_32_224 need (1, 3, 224, 224)), labels 0, 1,
``nn.CrossEntropyLoss``, ``nn.Momentum(lr=0.01, momentum=0.9)``, ``TrainOneStepCell`` in training mode with the
dropout layers (Dropout, DropPath) switched to eval mode: their masks come from MindSpore's device generator, which
mslab does not reproduce.
The sum of |w| over every parameter checks the initial weights. mindcv's own training step (EMA of the weights,
gradient clipping) is checked the same way.

vgg11 (133M parameters) and vit_b_32_224 (88M) take minutes to create and train on a CPU, in MindSpore as here; they
run with ``MSLAB_MINDCV_LARGE=1``.
"""
import functools
import importlib
import importlib.util
import os
import sys

import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.mindspore_alias import MindSporeAlias

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mindcv") is None,
                                reason="mindcv is not importable (pip install --no-deps --target DIR mindcv==0.3.0, "
                                       "then PYTHONPATH=DIR)")

# name: (image size, batch, sum of |w| over all parameters, the two losses) from MindSpore 2.10
MINDSPORE = {
    "resnet18": (64, 2, 229590.92955441267, [2.414365530014038, 0.19555044174194336]),
    "mobilenet_v2_100": (64, 2, 169873.74573617146, [2.355343818664551, 1.590505838394165]),
    "vgg11": (224, 1, 1114720.1837843754, [2.3757691383361816, 0.7012370824813843]),
    "densenet121": (64, 2, 667529.0381777951, [2.3984203338623047, 1.6183373928070068]),
    "efficientnet_b0": (64, 2, 302219.68657267315, [3.7758538722991943, 5.551806449890137]),
    "convnext_tiny": (32, 2, 451726.8610706315, [2.1992712020874023, 9.775161743164062e-05]),
    "vit_b_32_224": (224, 1, 1427375.2703425689, [1.2859187126159668, 0.00024890899658203125]),
    "squeezenet1_0": (64, 2, 51012.04155448063, [2.3032145500183105, 0.9796526432037354]),
}
LARGE = {"vgg11", "vit_b_32_224"}
DROPOUT_LAYERS = ("Dropout", "DropPath", "PatchDropout")


def _ours(name):
    return name.split(".")[0] in ("mindspore", "mindcv")


@pytest.fixture(scope="module")
def mindcv():
    saved = {name: sys.modules.pop(name) for name in list(sys.modules) if _ours(name)}
    finder = MindSporeAlias()  # what `python -m mslab run` installs, here for this module only
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module("mindcv.models")
        importlib.import_module("mindcv.utils.trainer_factory")
        yield sys.modules["mindcv"]
    finally:
        sys.meta_path.remove(finder)
        for name in [name for name in sys.modules if _ours(name)]:
            del sys.modules[name]
        sys.modules.update(saved)
        _created.cache_clear()


@functools.lru_cache(maxsize=1)  # one model at a time: the two modes train the same initial weights
def _created(create_model, name):
    ms.set_seed(1)
    net = create_model(name, num_classes=10)
    return net, {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def _switch_off_dropout(net):
    for _, cell in net.cells_and_names():
        if type(cell).__name__ in DROPOUT_LAYERS:
            cell.set_train(False)


@pytest.mark.parametrize("name", list(MINDSPORE))
@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
def test_mindcv_model_trains_two_steps_with_mindspore_losses(mindcv, name, mode):
    if name in LARGE and os.environ.get("MSLAB_MINDCV_LARGE") != "1":
        pytest.skip(f"{name} takes minutes to create and train on a CPU: set MSLAB_MINDCV_LARGE=1")
    size, batch, abs_sum, losses = MINDSPORE[name]
    net, initial = _created(mindcv.models.create_model, name)
    for p in net.get_parameters():  # the second mode starts from the same weights and statistics
        p.set_data(Tensor(initial[p.name]))
    assert sum(float(np.abs(w).astype(np.float64).sum()) for w in initial.values()) == pytest.approx(abs_sum,
                                                                                                     rel=1e-6)
    ms.set_context(mode=getattr(ms, f"{mode}_MODE"))
    x = Tensor(np.random.RandomState(0).standard_normal((batch, 3, size, size)).astype(np.float32))
    y = Tensor(np.arange(batch, dtype=np.int32))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9))
    step.set_train()
    _switch_off_dropout(net)
    got = [float(step(x, y).asnumpy()) for _ in range(2)]
    # The first loss to float32 precision; the second after an update whose gradients went through BatchNorm over
    # two samples, which magnifies float32 rounding (mobilenet_v2's gradients differ from MindSpore's by up to 5e-4
    # of their largest value, its second loss by 8e-4); small second losses (convnext 1e-4, vit 2.5e-4) to 1e-6
    assert got[0] == pytest.approx(losses[0], rel=2e-4)
    assert got[1] == pytest.approx(losses[1], rel=2e-3, abs=1e-6)


@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
def test_mindcv_train_step_with_ema_and_gradient_clipping(mindcv, mode):
    """mindcv's own training step (``create_trainer(..., ema=True, clip_grad=True)`` builds its TrainStep, a
    TrainOneStepWithLossScaleCell subclass) for squeezenet1_0, three steps, as above."""
    ms.set_context(mode=getattr(ms, f"{mode}_MODE"))
    ms.set_seed(1)
    net = mindcv.models.create_model("squeezenet1_0", num_classes=10)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    model = mindcv.utils.trainer_factory.create_trainer(net, nn.CrossEntropyLoss(), opt, {"acc"}, amp_level="O0",
                                                        amp_cast_list=None, loss_scale_type="fixed",
                                                        loss_scale=1.0, ema=True, clip_grad=True)
    step = model._train_network
    step.set_train()
    _switch_off_dropout(net)
    x = Tensor(np.random.RandomState(0).standard_normal((2, 3, 64, 64)).astype(np.float32))
    y = Tensor(np.arange(2, dtype=np.int32))
    got = [float(step(x, y).asnumpy()) for _ in range(3)]
    # MindSpore 2.10 (both modes): the losses, the EMA's update count, sum |w| of the first convolution's weight
    assert got == pytest.approx([2.3032145500183105, 0.9796527624130249, 0.737882137298584], rel=2e-4)
    assert float(step.updates.asnumpy()) == 3.0
    assert float(np.abs(net.trainable_params()[0].asnumpy()).sum()) == pytest.approx(1441.12353515625, rel=1e-5)
