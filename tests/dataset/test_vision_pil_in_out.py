"""Eager vision transforms keep a Pillow image a Pillow image where MindSpore 2.10 does (``dataset/eager.md``).

MindSpore runs a transform's Pillow version (``_execute_py``) on a Pillow image when it has one; the table
below is what MindSpore 2.10 CPU returned for a 12x10 RGB Pillow image (observed), and the pixels of the
deterministic ones were compared with MindSpore's, all equal (observed: Resize with every interpolation,
CenterCrop, Pad in every mode, Invert, Equalize, AutoContrast, the flips, on RGB and grey images).
"""
import numpy as np
import pytest
from PIL import Image

import mslab.dataset.vision as vision

ARR = np.random.default_rng(0).integers(0, 256, (12, 10, 3)).astype(np.uint8)

KEEPS_PIL = {  # transform -> what MindSpore 2.10 returned for the Pillow image: (mode, size) of a Pillow image
    "Resize((6, 5))": ("RGB", (5, 6)), "CenterCrop(4)": ("RGB", (4, 4)), "Pad(2)": ("RGB", (14, 16)),
    "RandomCrop(4)": ("RGB", (4, 4)), "RandomHorizontalFlip(1.0)": ("RGB", (10, 12)),
    "RandomVerticalFlip(1.0)": ("RGB", (10, 12)), "RandomResizedCrop(4)": ("RGB", (4, 4)),
    "RandomColorAdjust(0.5, 0.5, 0.5, 0.1)": ("RGB", (10, 12)), "RandomRotation(30)": ("RGB", (10, 12)),
    "RandomAffine(10)": ("RGB", (10, 12)), "Invert()": ("RGB", (10, 12)), "Equalize()": ("RGB", (10, 12)),
    "AutoContrast()": ("RGB", (10, 12)), "RandomColor()": ("RGB", (10, 12)), "RandomSharpness()": ("RGB", (10, 12)),
    "Grayscale()": ("L", (10, 12)),
}

GIVES_ARRAY = {  # transform -> (dtype, shape) of the numpy array MindSpore 2.10 returned for the Pillow image
    "RandomPosterize(4)": ("uint8", (12, 10, 3)), "RandomSolarize((0, 100))": ("uint8", (12, 10, 3)),
    "Crop((0, 0), 4)": ("uint8", (4, 4, 3)), "CutOut(2)": ("uint8", (12, 10, 3)),
    "RandomResize(4)": ("uint8", (4, 4, 3)), "GaussianBlur(3)": ("uint8", (12, 10, 3)),
    "Rescale(1 / 255, 0)": ("float32", (12, 10, 3)), "Normalize([0.0, 0, 0], [1.0, 1, 1])": ("float32", (12, 10, 3)),
    "HWC2CHW()": ("uint8", (3, 12, 10)), "ToTensor()": ("float32", (3, 12, 10)),
}


@pytest.mark.parametrize("op", sorted(KEEPS_PIL))
def test_pillow_in_pillow_out(op):
    out = eval(f"vision.{op}")(Image.fromarray(ARR))
    assert isinstance(out, Image.Image) and (out.mode, out.size) == KEEPS_PIL[op]
    if op != "Grayscale()":  # and a numpy image gives a numpy image (MindSpore: ndarray uint8 of the same shape)
        arr = eval(f"vision.{op}")(ARR)
        assert isinstance(arr, np.ndarray) and arr.shape == np.asarray(out).shape


@pytest.mark.parametrize("op", sorted(GIVES_ARRAY))
def test_pillow_in_array_out(op):
    out = eval(f"vision.{op}")(Image.fromarray(ARR))
    assert isinstance(out, np.ndarray) and (str(out.dtype), out.shape) == GIVES_ARRAY[op]


def test_random_erasing_refuses_pillow():
    with pytest.raises(TypeError, match="img should be NumPy array. Got <class 'PIL.Image.Image'>."):  # MindSpore
        vision.RandomErasing(1.0)(Image.fromarray(ARR))


IMG = (np.arange(5 * 6 * 3) * 7 % 256).astype(np.uint8).reshape(5, 6, 3)


def test_pillow_pixels_are_mindsporess():
    pil = Image.fromarray(IMG)
    resized = np.asarray(vision.Resize((3, 4))(pil))[..., 0].tolist()
    assert resized == PIL_RESIZED
    # MindSpore's Pillow CenterCrop starts at round((6 - 3) / 2) = 2 where its array version starts at 1
    assert np.asarray(vision.CenterCrop(3)(pil))[..., 0].tolist() == [[168, 189, 210], [38, 59, 80], [164, 185, 206]]
    padded = vision.Pad([1, 2, 3, 4], fill_value=(10, 20, 30))(pil)
    assert padded.size == (10, 11) and padded.getpixel((0, 0)) == (10, 20, 30) and padded.getpixel((1, 2)) == (0, 7, 14)
    assert vision.Resize(7)(pil).size == (8, 7)  # the shorter side becomes 7, the other int(7 * 6 / 5)


PIL_RESIZED = [[62, 91, 122, 151], [150, 90, 121, 150], [147, 85, 116, 145]]  # MindSpore 2.10 (observed)


def test_compose_on_the_python_path_returns_a_tuple():
    import mslab.dataset.transforms as T

    pil = Image.fromarray(ARR)
    out = T.Compose([vision.Resize((6, 5)), vision.CenterCrop(4)])(pil)
    assert isinstance(out, tuple) and len(out) == 1 and out[0].size == (4, 4)  # MindSpore: (<PIL image 4x4>,)
    out = T.Compose([vision.Resize((6, 5)), vision.CenterCrop(4)])(ARR)
    assert isinstance(out, np.ndarray) and out.shape == (4, 4, 3)  # MindSpore: the array itself
    out = T.Compose([vision.ToPIL(), vision.Resize((6, 5)), vision.ToTensor()])(ARR)
    assert isinstance(out, tuple) and out[0].shape == (3, 6, 5)  # MindSpore: ToPIL is Python only: a tuple
    assert isinstance(T.RandomApply([vision.Resize((6, 5))], prob=1.0)(pil), Image.Image)  # MindSpore: an Image
    assert isinstance(T.RandomChoice([vision.Resize((6, 5))])(pil), Image.Image)  # MindSpore: an Image
