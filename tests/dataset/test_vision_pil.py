"""Decode, crops, flips and colour jitter (mslab.dataset.vision.pil_transforms) against MindSpore 2.10.

The image is ``(arange(90) * 7 % 256)`` as uint8 of shape (5, 6, 3); channel 0 of each result below
was printed by MindSpore 2.10 on CPU (observed on MindSpore 2.10 CPU).
"""
import io

import numpy as np
import pytest
from PIL import Image

import mslab
import mslab.dataset as ds
import mslab.dataset.vision as V

IMG = (np.arange(5 * 6 * 3) * 7 % 256).astype(np.uint8).reshape(5, 6, 3)

OBSERVED = {  # transform -> channel 0 of its output on IMG (observed on MindSpore 2.10 CPU)
    "CenterCrop(3)": [[147, 168, 189], [17, 38, 59], [143, 164, 185]],
    "CenterCrop((2, 3))": [[147, 168, 189], [17, 38, 59]],
    "CenterCrop((4, 4))": [[21, 42, 63, 84], [147, 168, 189, 210], [17, 38, 59, 80], [143, 164, 185, 206]],
    "CenterCrop(8)": [[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 21, 42, 63, 84, 105, 0],
                      [0, 126, 147, 168, 189, 210, 231, 0], [0, 252, 17, 38, 59, 80, 101, 0],
                      [0, 122, 143, 164, 185, 206, 227, 0], [0, 248, 13, 34, 55, 76, 97, 0], [0, 0, 0, 0, 0, 0, 0, 0]],
    "RandomHorizontalFlip(1.0)": [[105, 84, 63, 42, 21, 0], [231, 210, 189, 168, 147, 126], [101, 80, 59, 38, 17, 252],
                                  [227, 206, 185, 164, 143, 122], [97, 76, 55, 34, 13, 248]],
    "RandomVerticalFlip(1.0)": [[248, 13, 34, 55, 76, 97], [122, 143, 164, 185, 206, 227], [252, 17, 38, 59, 80, 101],
                                [126, 147, 168, 189, 210, 231], [0, 21, 42, 63, 84, 105]],
    "RandomCrop((7, 8), padding=1, fill_value=9)": [
        [9, 9, 9, 9, 9, 9, 9, 9], [9, 0, 21, 42, 63, 84, 105, 9], [9, 126, 147, 168, 189, 210, 231, 9],
        [9, 252, 17, 38, 59, 80, 101, 9], [9, 122, 143, 164, 185, 206, 227, 9], [9, 248, 13, 34, 55, 76, 97, 9],
        [9, 9, 9, 9, 9, 9, 9, 9]],
    "RandomCrop((6, 9), padding=(1, 0, 2, 1))": [
        [0, 0, 21, 42, 63, 84, 105, 0, 0], [0, 126, 147, 168, 189, 210, 231, 0, 0], [0, 252, 17, 38, 59, 80, 101, 0, 0],
        [0, 122, 143, 164, 185, 206, 227, 0, 0], [0, 248, 13, 34, 55, 76, 97, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0]],
    "RandomColorAdjust(brightness=(0.5, 0.5))": [[0, 10, 21, 32, 42, 52], [63, 74, 84, 94, 105, 116],
                                                 [126, 8, 19, 30, 40, 50], [61, 72, 82, 92, 103, 114],
                                                 [124, 6, 17, 28, 38, 48]],
    "RandomColorAdjust(contrast=(0.5, 0.5))": [[58, 68, 79, 90, 100, 110], [121, 132, 142, 152, 163, 174],
                                               [184, 66, 77, 88, 98, 108], [119, 130, 140, 150, 161, 172],
                                               [182, 64, 75, 86, 96, 106]],
    "RandomColorAdjust(saturation=(0.5, 0.5))": [[3, 24, 45, 66, 87, 108], [129, 150, 171, 192, 213, 234],
                                                 [165, 20, 41, 62, 83, 104], [125, 146, 167, 188, 209, 230],
                                                 [236, 16, 37, 58, 79, 100]],
    "RandomColorAdjust()": IMG[..., 0].tolist(),
}


@pytest.mark.parametrize("transform", sorted(OBSERVED))
def test_same_pixels_as_mindspore(transform):
    out = eval(f"V.{transform}")(IMG)
    assert out.dtype == np.uint8 and out.shape[2] == 3
    assert out[..., 0].tolist() == OBSERVED[transform]


def test_hue_within_one_level_of_mindspore():
    out = V.RandomColorAdjust(hue=(0.1, 0.1))(IMG)
    observed = [[1, 22, 43, 64, 85, 106], [127, 148, 169, 190, 211, 232], [252, 18, 39, 60, 81, 102],
                [123, 144, 165, 186, 207, 228], [100, 14, 35, 56, 77, 98]]  # observed on MindSpore 2.10 CPU
    assert np.abs(out[..., 0].astype(int) - observed).max() <= 1


def test_grey_images_and_pil_images():
    assert V.RandomHorizontalFlip(1.0)(IMG[..., 0])[:, 0].tolist() == [105, 231, 101, 227, 97]  # observed
    assert V.CenterCrop(3)(IMG[..., 0])[:, 0].tolist() == [147, 17, 143]  # observed
    pil = V.ToPIL()(IMG)
    out = V.CenterCrop(3)(pil)  # a Pillow image stays one, cropped by MindSpore's Pillow code: from round(3 / 2) = 2
    observed = [[168, 189, 210], [38, 59, 80], [164, 185, 206]]  # observed on MindSpore 2.10 CPU
    assert isinstance(out, Image.Image) and np.asarray(out)[..., 0].tolist() == observed


def png_bytes(arr):
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG")
    return np.frombuffer(buf.getvalue(), np.uint8)


def test_decode_and_bad_bytes():
    data = png_bytes(IMG)
    np.testing.assert_array_equal(V.Decode()(data), IMG)
    assert isinstance(V.Decode(to_pil=True)(data), Image.Image)
    with pytest.raises(RuntimeError, match="Decode: cannot decode the image"):
        V.Decode()(np.frombuffer(b"not an image", np.uint8))
    with pytest.raises(TypeError, match="raw bytes"):
        V.Decode()(IMG)


def test_random_crops_stay_inside_and_have_the_size():
    for _ in range(20):
        out = V.RandomCrop((3, 4))(IMG)
        assert out.shape == (3, 4, 3)
        r, c = np.argwhere(IMG[..., 0] == out[0, 0, 0])[0]
        np.testing.assert_array_equal(IMG[r:r + 3, c:c + 4], out)
    assert V.RandomCrop((7, 6), pad_if_needed=True)(IMG).shape == (7, 6, 3)
    with pytest.raises(RuntimeError, match="larger than the"):  # MindSpore: RuntimeError too
        V.RandomCrop((7, 6))(IMG)
    for _ in range(20):
        assert V.RandomResizedCrop((4, 4))(IMG).shape == (4, 4, 3)
    box = V.RandomResizedCrop(4, scale=(1.0, 1.0), ratio=(1.2, 1.2)).crop_box(5, 6)
    assert box == (0, 0, 5, 6)  # the whole 5x6 image has area 30 and ratio 1.2
    assert V.RandomCropDecodeResize((3, 4))(png_bytes(IMG)).shape == (3, 4, 3)


def test_random_transforms_repeat_under_set_seed():
    def run():
        mslab.set_seed(3)
        pipeline = [V.RandomCrop((3, 3)), V.RandomHorizontalFlip(), V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)]
        data = ds.NumpySlicesDataset({"image": np.stack([IMG] * 4)}, shuffle=False).map(pipeline, ["image"])
        return [r[0] for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    for a, b in zip(run(), run()):
        np.testing.assert_array_equal(a, b)


def test_flip_probability_is_about_right():
    flip = V.RandomHorizontalFlip(0.3)
    flips = sum(not np.array_equal(flip(IMG), IMG) for _ in range(1000))
    assert 240 < flips < 360
