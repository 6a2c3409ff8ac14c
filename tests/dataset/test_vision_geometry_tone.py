"""Pad, rotation, affine and tone transforms (vision.geometry, vision.tone, vision.warp) against MindSpore 2.10.

The image is ``(arange(90) * 7 % 256)`` as uint8 of shape (5, 6, 3); channel 0 of each result below
(the whole result for a 2-D image) was printed by MindSpore 2.10 on CPU (observed on MindSpore 2.10 CPU).
Random transforms are given ranges of one value, so MindSpore's random draws do not matter.
"""
import numpy as np
import pytest
from PIL import Image

import mslab
import mslab.dataset as ds
import mslab.dataset.vision as V

IMG = (np.arange(5 * 6 * 3) * 7 % 256).astype(np.uint8).reshape(5, 6, 3)
G = (np.arange(64).reshape(8, 8) * 13 % 256).astype(np.uint8)

OBSERVED = {  # expression -> channel 0 of its output (observed on MindSpore 2.10 CPU)
    'V.AutoContrast()(IMG)':
        [[0, 21, 42, 63, 85, 106], [127, 148, 170, 191, 212, 233], [254, 17, 38, 59, 80, 102],
         [123, 144, 165, 187, 208, 229], [250, 13, 34, 55, 76, 98]],
    'V.AutoContrast()(IMG[...,0])':
        [[0, 21, 42, 63, 85, 106], [127, 148, 170, 191, 212, 233], [254, 17, 38, 59, 80, 102],
         [123, 144, 165, 187, 208, 229], [250, 13, 34, 55, 76, 98]],
    'V.AutoContrast(cutoff=10.0)(IMG)':
        [[0, 0, 25, 51, 77, 103], [129, 155, 181, 207, 233, 255], [255, 0, 21, 47, 73, 99],
         [125, 151, 177, 203, 229, 255], [255, 0, 16, 42, 68, 94]],
    'V.AutoContrast(ignore=[0])(IMG)':
        [[0, 8, 30, 53, 75, 98], [120, 142, 165, 187, 210, 232], [254, 4, 26, 49, 71, 93],
         [116, 138, 161, 183, 205, 228], [250, 0, 22, 44, 67, 89]],
    'V.Equalize()(IMG)':
        [[0, 26, 53, 79, 106, 132], [149, 167, 185, 202, 220, 237], [255, 18, 44, 70, 97, 123],
         [141, 158, 176, 193, 211, 229], [246, 9, 35, 62, 88, 114]],
    'V.Equalize()(IMG[...,0])':
        [[0, 26, 53, 79, 106, 132], [149, 167, 185, 202, 220, 237], [255, 18, 44, 70, 97, 123],
         [141, 158, 176, 193, 211, 229], [246, 9, 35, 62, 88, 114]],
    'V.Invert()(IMG)':
        [[255, 234, 213, 192, 171, 150], [129, 108, 87, 66, 45, 24], [3, 238, 217, 196, 175, 154],
         [133, 112, 91, 70, 49, 28], [7, 242, 221, 200, 179, 158]],
    'V.Invert()(IMG.astype(np.float32))':
        [[255, 234, 213, 192, 171, 150], [129, 108, 87, 66, 45, 24], [3, 238, 217, 196, 175, 154],
         [133, 112, 91, 70, 49, 28], [7, 242, 221, 200, 179, 158]],
    'V.Pad((1,2))(IMG)':
        [[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 21, 42, 63, 84, 105, 0],
         [0, 126, 147, 168, 189, 210, 231, 0], [0, 252, 17, 38, 59, 80, 101, 0], [0, 122, 143, 164, 185, 206, 227, 0],
         [0, 248, 13, 34, 55, 76, 97, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]],
    'V.Pad((1,2,3,0), fill_value=9)(IMG)':
        [[9, 9, 9, 9, 9, 9, 9, 9, 9, 9], [9, 9, 9, 9, 9, 9, 9, 9, 9, 9], [9, 0, 21, 42, 63, 84, 105, 9, 9, 9],
         [9, 126, 147, 168, 189, 210, 231, 9, 9, 9], [9, 252, 17, 38, 59, 80, 101, 9, 9, 9],
         [9, 122, 143, 164, 185, 206, 227, 9, 9, 9], [9, 248, 13, 34, 55, 76, 97, 9, 9, 9]],
    'V.Pad(1)(IMG)':
        [[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 21, 42, 63, 84, 105, 0], [0, 126, 147, 168, 189, 210, 231, 0],
         [0, 252, 17, 38, 59, 80, 101, 0], [0, 122, 143, 164, 185, 206, 227, 0], [0, 248, 13, 34, 55, 76, 97, 0],
         [0, 0, 0, 0, 0, 0, 0, 0]],
    'V.Pad(1)(IMG[...,0])':
        [[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 21, 42, 63, 84, 105, 0], [0, 126, 147, 168, 189, 210, 231, 0],
         [0, 252, 17, 38, 59, 80, 101, 0], [0, 122, 143, 164, 185, 206, 227, 0], [0, 248, 13, 34, 55, 76, 97, 0],
         [0, 0, 0, 0, 0, 0, 0, 0]],
    'V.Pad(2, padding_mode=V.Border.EDGE)(IMG)':
        [[0, 0, 0, 21, 42, 63, 84, 105, 105, 105], [0, 0, 0, 21, 42, 63, 84, 105, 105, 105],
         [0, 0, 0, 21, 42, 63, 84, 105, 105, 105], [126, 126, 126, 147, 168, 189, 210, 231, 231, 231],
         [252, 252, 252, 17, 38, 59, 80, 101, 101, 101], [122, 122, 122, 143, 164, 185, 206, 227, 227, 227],
         [248, 248, 248, 13, 34, 55, 76, 97, 97, 97], [248, 248, 248, 13, 34, 55, 76, 97, 97, 97],
         [248, 248, 248, 13, 34, 55, 76, 97, 97, 97]],
    'V.Pad(2, padding_mode=V.Border.REFLECT)(IMG)':
        [[38, 17, 252, 17, 38, 59, 80, 101, 80, 59], [168, 147, 126, 147, 168, 189, 210, 231, 210, 189],
         [42, 21, 0, 21, 42, 63, 84, 105, 84, 63], [168, 147, 126, 147, 168, 189, 210, 231, 210, 189],
         [38, 17, 252, 17, 38, 59, 80, 101, 80, 59], [164, 143, 122, 143, 164, 185, 206, 227, 206, 185],
         [34, 13, 248, 13, 34, 55, 76, 97, 76, 55], [164, 143, 122, 143, 164, 185, 206, 227, 206, 185],
         [38, 17, 252, 17, 38, 59, 80, 101, 80, 59]],
    'V.Pad(2, padding_mode=V.Border.SYMMETRIC)(IMG)':
        [[147, 126, 126, 147, 168, 189, 210, 231, 231, 210], [21, 0, 0, 21, 42, 63, 84, 105, 105, 84],
         [21, 0, 0, 21, 42, 63, 84, 105, 105, 84], [147, 126, 126, 147, 168, 189, 210, 231, 231, 210],
         [17, 252, 252, 17, 38, 59, 80, 101, 101, 80], [143, 122, 122, 143, 164, 185, 206, 227, 227, 206],
         [13, 248, 248, 13, 34, 55, 76, 97, 97, 76], [13, 248, 248, 13, 34, 55, 76, 97, 97, 76],
         [143, 122, 122, 143, 164, 185, 206, 227, 227, 206]],
    'V.RandomAffine((-60,-60), translate=(0.1,0.1,0.1,0.1))(IMG)':
        [[0, 0, 84, 231, 101, 0], [0, 0, 63, 210, 80, 227], [0, 42, 168, 59, 185, 206], [21, 21, 168, 38, 185, 55],
         [0, 126, 17, 143, 34, 34]],
    'V.RandomAffine((0,0), scale=(0.5,0.5))(IMG)':
        [[0, 0, 0, 0, 0, 0], [0, 0, 42, 84, 0, 0], [0, 252, 38, 80, 0, 0], [0, 248, 34, 76, 0, 0], [0, 0, 0, 0, 0, 0]],
    'V.RandomAffine((0,0), scale=(2,2))(IMG)':
        [[147, 168, 168, 189, 189, 210], [17, 38, 38, 59, 59, 80], [17, 38, 38, 59, 59, 80],
         [143, 164, 164, 185, 185, 206], [143, 164, 164, 185, 185, 206]],
    'V.RandomAffine((0,0), shear=(0,0,20,20))(IMG)':
        [[0, 0, 42, 63, 210, 231], [0, 21, 168, 189, 80, 101], [126, 147, 38, 59, 206, 227],
         [252, 17, 164, 185, 76, 97], [122, 143, 34, 55, 0, 0]],
    'V.RandomAffine((0,0), shear=(20,20,0,0))(IMG)':
        [[0, 0, 21, 42, 63, 84], [126, 147, 168, 189, 210, 231], [252, 17, 38, 59, 80, 101],
         [122, 143, 164, 185, 206, 227], [13, 34, 55, 76, 97, 0]],
    'V.RandomAffine((0,0), shear=(20,20,0,0), resample=V.Inter.BILINEAR)(IMG)':
        [[0, 6, 27, 48, 69, 90], [79, 139, 160, 181, 202, 223], [252, 17, 38, 59, 80, 101],
         [130, 151, 172, 193, 214, 142], [79, 28, 49, 70, 91, 27]],
    'V.RandomAffine((0,0), translate=(-0.3,-0.3,0,0))(IMG)':
        [[42, 63, 84, 105, 0, 0], [168, 189, 210, 231, 0, 0], [38, 59, 80, 101, 0, 0], [164, 185, 206, 227, 0, 0],
         [34, 55, 76, 97, 0, 0]],
    'V.RandomAffine((0,0), translate=(0.0,0.0))(IMG)':
        [[0, 21, 42, 63, 84, 105], [126, 147, 168, 189, 210, 231], [252, 17, 38, 59, 80, 101],
         [122, 143, 164, 185, 206, 227], [248, 13, 34, 55, 76, 97]],
    'V.RandomAffine((0,0), translate=(0.2,0.2,0.4,0.4))(IMG)':
        [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 21, 42, 63, 84], [0, 126, 147, 168, 189, 210],
         [0, 252, 17, 38, 59, 80]],
    'V.RandomAffine((30,30))(IMG)':
        [[0, 126, 147, 42, 63, 0], [252, 17, 168, 168, 63, 84], [122, 143, 38, 59, 210, 231],
         [13, 34, 185, 185, 80, 101], [0, 34, 55, 206, 227, 0]],
    'V.RandomAffine((45,45), scale=(1.5,1.5), shear=(10,10,-15,-15), fill_value=(1,2,3), resample=V.Inter.BILINEAR)'
    '(IMG)':
        [[132, 67, 75, 160, 93, 40], [124, 96, 37, 127, 148, 80], [90, 151, 84, 93, 178, 135],
         [57, 141, 138, 71, 145, 189], [39, 108, 193, 126, 111, 195]],
    'V.RandomAffine(0, scale=(1.3, 1.3), resample=V.Inter.BILINEAR)(IMG)':
        [[71, 87, 104, 119, 136, 152], [134, 126, 142, 158, 174, 191], [120, 24, 41, 56, 73, 89],
         [131, 123, 139, 155, 171, 188], [124, 81, 98, 113, 130, 146]],
    'V.RandomAffine(0, shear=(15, 15), resample=V.Inter.BILINEAR)(IMG)':
        [[0, 10, 31, 52, 73, 94], [91, 141, 162, 183, 204, 225], [252, 17, 38, 59, 80, 101],
         [128, 149, 170, 191, 212, 163], [123, 24, 45, 66, 87, 45]],
    'V.RandomAffine(0, translate=(0.1, 0.1, 0, 0), resample=V.Inter.BILINEAR)(IMG)':
        [[0, 9, 30, 51, 72, 93], [51, 135, 156, 177, 198, 219], [102, 157, 26, 47, 68, 89],
         [50, 131, 152, 173, 194, 215], [101, 153, 22, 43, 64, 85]],
    'V.RandomAffine(0, translate=(0.5, 0.5), resample=V.Inter.BILINEAR)(IMG)':
        [[0, 0, 0, 0, 21, 42], [0, 0, 0, 126, 147, 168], [0, 0, 0, 252, 17, 38], [0, 0, 0, 122, 143, 164],
         [0, 0, 0, 248, 13, 34]],
    'V.RandomColor((0.5,0.5))(IMG)':
        [[3, 24, 45, 66, 87, 108], [129, 150, 171, 192, 213, 234], [165, 20, 41, 62, 83, 104],
         [125, 146, 167, 188, 209, 230], [236, 16, 37, 58, 79, 100]],
    'V.RandomColor((2.0,2.0))(IMG)':
        [[0, 15, 36, 57, 78, 99], [120, 141, 162, 183, 204, 225], [255, 11, 32, 53, 74, 95],
         [116, 137, 158, 179, 200, 221], [255, 7, 28, 49, 70, 91]],
    'V.RandomPosterize((4,4))(IMG)':
        [[0, 16, 32, 48, 80, 96], [112, 144, 160, 176, 208, 224], [240, 16, 32, 48, 80, 96],
         [112, 128, 160, 176, 192, 224], [240, 0, 32, 48, 64, 96]],
    'V.RandomPosterize(2)(IMG)':
        [[0, 0, 0, 0, 64, 64], [64, 128, 128, 128, 192, 192], [192, 0, 0, 0, 64, 64], [64, 128, 128, 128, 192, 192],
         [192, 0, 0, 0, 64, 64]],
    'V.RandomRotation((-20,-20), expand=True, resample=V.Inter.BILINEAR, fill_value=(5,6,7))(IMG)':
        [[7, 6, 8, 14, 8, 7, 7], [7, 100, 95, 75, 54, 49, 32], [53, 207, 72, 136, 177, 153, 129],
         [87, 133, 93, 70, 86, 150, 172], [191, 67, 98, 163, 171, 148, 57], [7, 9, 25, 53, 113, 177, 34],
         [7, 7, 7, 7, 33, 51, 7]],
    'V.RandomRotation((180,180))(IMG)':
        [[97, 76, 55, 34, 13, 248], [227, 206, 185, 164, 143, 122], [101, 80, 59, 38, 17, 252],
         [231, 210, 189, 168, 147, 126], [105, 84, 63, 42, 21, 0]],
    'V.RandomRotation((30,30))(IMG)':
        [[0, 42, 63, 210, 231, 0], [21, 42, 189, 189, 80, 101], [126, 147, 38, 59, 206, 227],
         [252, 17, 164, 164, 55, 76], [0, 122, 143, 34, 55, 0]],
    'V.RandomRotation((30,30))(IMG.astype(np.float32))':
        [[0, 42, 63, 210, 231, 0], [21, 42, 189, 189, 80, 101], [126, 147, 38, 59, 206, 227],
         [252, 17, 164, 164, 55, 76], [0, 122, 143, 34, 55, 0]],
    'V.RandomRotation((30,30), center=(0,0))(IMG)':
        [[0, 147, 168, 59, 59, 206], [126, 126, 17, 38, 185, 206], [0, 252, 143, 164, 34, 55], [0, 0, 248, 13, 0, 0],
         [0, 0, 248, 0, 0, 0]],
    'V.RandomRotation((30,30), expand=True)(IMG)':
        [[0, 0, 0, 0, 105, 0, 0, 0], [0, 0, 0, 63, 84, 231, 0, 0], [0, 21, 42, 189, 210, 101, 101, 0],
         [0, 147, 147, 38, 59, 206, 227, 0], [0, 252, 17, 164, 185, 76, 76, 0], [0, 252, 122, 143, 34, 55, 0, 0],
         [0, 0, 248, 13, 0, 0, 0, 0]],
    'V.RandomRotation((30,30), expand=True, center=(1,1))(IMG)':
        [[0, 0, 0, 63, 84, 231, 0, 0], [0, 21, 42, 189, 189, 80, 101, 0], [0, 0, 147, 168, 59, 80, 227, 0],
         [0, 126, 17, 38, 164, 185, 76, 97], [0, 0, 122, 143, 34, 55, 0, 0], [0, 0, 248, 13, 0, 0, 0, 0],
         [0, 0, 0, 0, 0, 0, 0, 0]],
    'V.RandomRotation((30,30), fill_value=9)(IMG)':
        [[9, 42, 63, 210, 231, 9], [21, 42, 189, 189, 80, 101], [126, 147, 38, 59, 206, 227],
         [252, 17, 164, 164, 55, 76], [9, 122, 143, 34, 55, 9]],
    'V.RandomRotation((30,30), resample=V.Inter.AREA)(IMG)':
        [[1, 24, 68, 150, 223, 56], [16, 83, 164, 149, 103, 125], [102, 118, 72, 89, 171, 187],
         [173, 96, 108, 157, 110, 69], [66, 129, 83, 37, 27, 2]],
    'V.RandomRotation((30,30), resample=V.Inter.BILINEAR)(IMG)':
        [[1, 24, 68, 150, 223, 56], [16, 83, 164, 149, 103, 125], [102, 118, 72, 89, 171, 187],
         [173, 96, 108, 157, 110, 69], [66, 129, 83, 37, 27, 2]],
    'V.RandomRotation((45,45), expand=True)(IMG)':
        [[0, 0, 0, 0, 105, 0, 0, 0], [0, 0, 0, 84, 231, 231, 0, 0], [0, 0, 63, 189, 210, 101, 227, 0],
         [0, 21, 168, 189, 59, 206, 97, 97], [0, 126, 147, 38, 185, 55, 76, 0], [0, 126, 252, 143, 34, 55, 0, 0],
         [0, 0, 122, 248, 13, 0, 0, 0], [0, 0, 0, 248, 0, 0, 0, 0]],
    'V.RandomRotation((90,90))(IMG)':
        [[105, 231, 101, 227, 97, 0], [84, 210, 80, 206, 76, 0], [63, 189, 59, 185, 55, 0], [42, 168, 38, 164, 34, 0],
         [21, 147, 17, 143, 13, 0]],
    'V.RandomRotation((90,90), expand=True)(IMG)':
        [[105, 231, 101, 227, 97], [84, 210, 80, 206, 76], [63, 189, 59, 185, 55], [42, 168, 38, 164, 34],
         [21, 147, 17, 143, 13], [0, 126, 252, 122, 248]],
    'V.RandomSharpness((0.5,0.5))(IMG)':
        [[0, 21, 42, 63, 84, 105], [126, 128, 138, 160, 180, 231], [252, 56, 68, 88, 110, 101],
         [122, 133, 134, 156, 176, 227], [248, 13, 34, 55, 76, 97]],
    'V.RandomSharpness((2.0,2.0))(IMG)':
        [[0, 21, 42, 63, 84, 105], [126, 186, 227, 248, 255, 231], [252, 0, 0, 0, 21, 101],
         [122, 163, 223, 244, 255, 227], [248, 13, 34, 55, 76, 97]],
    'V.RandomSolarize((100,100))(IMG)':
        [[0, 21, 42, 63, 84, 150], [129, 108, 87, 66, 45, 24], [3, 17, 38, 59, 80, 154], [133, 112, 91, 70, 49, 28],
         [7, 13, 34, 55, 76, 97]],
}


@pytest.mark.parametrize("expr", sorted(OBSERVED))
def test_same_pixels_as_mindspore(expr):
    out = eval(expr)
    assert out.dtype == (np.float32 if "float32" in expr else np.uint8)
    assert (out[..., 0] if out.ndim == 3 else out).tolist() == OBSERVED[expr]


def test_shapes_observed_on_mindspore():
    # observed on MindSpore 2.10 CPU: expand=True grows 5x6 to 7x8 (30 degrees), 8x8 (45), 6x5 (90)
    assert V.RandomRotation((30, 30), expand=True)(IMG).shape == (7, 8, 3)
    assert V.RandomRotation((45, 45), expand=True)(IMG).shape == (8, 8, 3)
    assert V.RandomRotation((90, 90), expand=True)(IMG).shape == (6, 5, 3)
    assert V.RandomRotation((-20, -20), expand=True)(IMG).shape == (7, 7, 3)
    assert V.RandomRotation(30)(np.zeros((5, 6, 4), np.uint8)).shape == (5, 6, 4)
    assert V.RandomAffine(30)(np.zeros((5, 6, 4), np.uint8)).shape == (5, 6, 4)
    assert V.Pad((1, 2, 3, 0))(IMG).shape == (7, 10, 3)


def test_more_images_observed_on_mindspore():
    # observed on MindSpore 2.10 CPU on the 8x8 image G = arange(64) * 13 % 256
    mslab.set_seed(0)
    assert V.RandomSharpness((0.5, 0.5))(G)[2].tolist() == [208, 192, 204, 208, 44, 46, 60, 43]
    assert V.RandomSharpness((0.3, 0.3))(np.stack([G] * 3, -1))[2, :, 0].tolist() == [
        208, 180, 193, 192, 59, 58, 71, 43]
    assert V.Equalize()(G)[0].tolist() == [0, 16, 32, 49, 65, 77, 89, 101]
    assert V.AutoContrast(cutoff=5.0)(G)[2].tolist() == [217, 231, 246, 255, 0, 5, 19, 34]
    rgb = np.stack([G, G[::-1], G.T], -1)
    assert V.RandomColor((0.3, 0.3))(rgb)[0, :, 1].tolist() == [154, 174, 194, 194, 32, 32, 52, 73]
    # Solarize((100, 200)) inverts levels in [100, 200]; a one-level range (100, 100) inverts 100 and up
    assert V.RandomSolarize((100, 100))(IMG)[1, :, 0].tolist() == [129, 108, 87, 66, 45, 24]


def test_fill_values_per_channel_as_mindspore():
    # observed on MindSpore 2.10 CPU: Rotate passes the fill to OpenCV in reverse order, Affine and Pad do not
    assert V.RandomRotation((30, 30), fill_value=(5, 6, 7))(IMG)[0, 0].tolist() == [7, 6, 5]
    assert V.RandomAffine((30, 30), fill_value=(5, 6, 7))(IMG)[0, 0].tolist() == [5, 6, 7]
    assert V.Pad(1, fill_value=(5, 6, 7))(IMG)[0, 0].tolist() == [5, 6, 7]
    assert V.RandomRotation((30, 30), fill_value=(5, 6, 7))(IMG[..., 0])[0, 0] == 7
    four = np.zeros((5, 6, 4), np.uint8)
    assert V.RandomRotation((30, 30), fill_value=(5, 6, 7))(four)[0, 0].tolist() == [7, 6, 5, 0]


def test_grayscale_is_a_pillow_transform():
    pil = V.ToPIL()(IMG)
    grey = V.Grayscale()(pil)
    assert grey.mode == "L"  # observed on MindSpore 2.10 CPU, with these grey levels
    assert np.asarray(grey)[2].tolist() == [78, 23, 44, 65, 86, 107]
    assert V.Grayscale(3)(pil).mode == "RGB" and np.asarray(V.Grayscale(3)(pil)).shape == (5, 6, 3)
    with pytest.raises(TypeError, match="img should be PIL image"):
        V.Grayscale()(IMG)
    with pytest.raises(ValueError, match="should be either 1 or 3. Got 2"):
        V.Grayscale(2)


def test_bad_arguments_raise_mindspores_errors():
    with pytest.raises(ValueError, match=r"Input degrees is not within the required interval of \[0, 16777216\]"):
        V.RandomRotation(-5)
    with pytest.raises(ValueError, match=r"degrees should be in \(min,max\) format. Got \(max,min\)."):
        V.RandomRotation((10, 5))
    with pytest.raises(TypeError, match="translate should be a list or tuple of length 2 or 4"):
        V.RandomAffine(0, translate=(0.3,))
    with pytest.raises(RuntimeError, match="Rotate: input tensor is not in shape of <H,W> or <H,W,C>"):
        V.RandomRotation(30)(np.zeros((2, 3, 4, 3), np.uint8))
    with pytest.raises(RuntimeError, match="Invert"):
        V.Invert()(IMG[..., 0])
    with pytest.raises(NotImplementedError, match="CUBIC is not supported"):
        V.RandomRotation((30, 30), resample=V.Inter.BICUBIC)(IMG)


def test_random_erasing_erases_one_rectangle_of_chw_images():
    x = np.arange(3 * 8 * 10, dtype=np.float32).reshape(3, 8, 10) - 100
    mslab.set_seed(0)
    out = V.RandomErasing(prob=1.0, value=7)(x)
    erased = (out == 7).all(axis=0)
    rows, cols = np.flatnonzero(erased.any(1)), np.flatnonzero(erased.any(0))
    assert out.dtype == np.float32 and out.shape == x.shape and erased.sum() > 0
    assert erased.sum() == len(rows) * len(cols)  # one rectangle, as MindSpore erased 4x6 of it
    assert V.RandomErasing(prob=0.0)(x) is x or (V.RandomErasing(prob=0.0)(x) == x).all()


def test_random_transforms_repeat_under_a_seed_and_run_in_map():
    data = ds.NumpySlicesDataset({"image": np.stack([IMG] * 4)}, shuffle=False)

    def run():
        mslab.set_seed(3)  # a transform seeds its generator on first use, from the dataset seed
        ops = [V.RandomRotation(40), V.RandomAffine(20, translate=(-0.2, 0.2), scale=(0.8, 1.2), shear=10),
               V.RandomPosterize((2, 8)), V.RandomSolarize((50, 200)), V.RandomColor(), V.RandomSharpness(),
               V.Pad(2, padding_mode=V.Border.REFLECT), V.AutoContrast(), V.Equalize(), V.Invert()]
        return [r[0] for r in data.map(ops).create_tuple_iterator(output_numpy=True, num_epochs=1)]
    a, b = run(), run()
    assert all((x == y).all() for x, y in zip(a, b)) and a[0].shape == (9, 10, 3) and a[0].dtype == np.uint8


def test_a_pil_image_file_round_trip_through_the_new_transforms(tmp_path):
    path = tmp_path / "x.png"
    Image.fromarray(IMG).save(path)
    img = V.Decode()(np.fromfile(path, np.uint8))
    assert V.RandomRotation((90, 90))(img)[..., 0].tolist() == OBSERVED["V.RandomRotation((90,90))(IMG)"]


def test_gaussian_blur_as_mindspore():
    # observed on MindSpore 2.10 CPU (uint8 bit for bit: OpenCV's fixed point)
    assert V.GaussianBlur(3)(IMG)[..., 0].tolist() == [
        [70, 81, 102, 123, 144, 155], [107, 101, 107, 128, 149, 160], [137, 110, 99, 120, 141, 152],
        [135, 111, 103, 124, 145, 156], [134, 107, 96, 117, 138, 149]]
    assert V.GaussianBlur(3, 1.5)(IMG)[..., 0].tolist() == [
        [91, 99, 120, 141, 162, 170], [90, 92, 89, 110, 131, 139], [125, 126, 117, 138, 159, 167],
        [116, 113, 85, 106, 127, 135], [123, 123, 114, 135, 156, 164]]
    assert V.GaussianBlur((3, 5), (1.0, 2.0))(IMG)[..., 0].tolist() == [
        [102, 97, 97, 118, 139, 148], [106, 105, 110, 131, 152, 162], [111, 102, 95, 116, 137, 147],
        [129, 118, 108, 129, 150, 159], [127, 111, 93, 114, 135, 145]]
    assert V.GaussianBlur(5)(IMG[..., 0]).tolist() == [
        [91, 94, 106, 124, 143, 150], [102, 102, 109, 126, 144, 151], [116, 111, 109, 122, 140, 148],
        [122, 114, 110, 122, 140, 148], [121, 112, 108, 120, 138, 145]]
    out = V.GaussianBlur(3)(IMG.astype(np.float32))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out[0, :3, 0], [70.26431274414062, 81.22655487060547, 102.22655487060547], rtol=1e-6)
    with pytest.raises(ValueError, match="Input kernel_size is not an odd value."):
        V.GaussianBlur(2)
    with pytest.raises(ValueError, match=r"Input kernel_size is not within the required interval of \[1, 16777216\]"):
        V.GaussianBlur(0)
    with pytest.raises(ValueError, match=r"Input sigma is not within the required interval of \[0, 16777216\]"):
        V.GaussianBlur(3, -1)
