"""Make mslab's shipped handwritten digits (mslab/dataset/data/digits/) in MNIST's IDX format.

Source: the UCI ML Repository "Optical Recognition of Handwritten Digits" data (E. Alpaydin and
C. Kaynak, 1998, CC BY 4.0), in the copy scikit-learn distributes (sklearn.datasets.load_digits:
1797 images of 8x8 pixels, values 0..16). Pixels are scaled to uint8 0..255 (v * 255 / 16,
rounded), then a permutation seeded with 0 splits them into 1497 training and 300 test digits.

scikit-learn is needed only to run this script once, never by mslab. Run it from a scratch venv:

    python3 -m venv /tmp/skvenv && /tmp/skvenv/bin/pip install scikit-learn
    /tmp/skvenv/bin/python scripts/make_digits.py            # from the repository root

The script writes only the IDX files (no mslab import), so it runs with numpy + scikit-learn alone.
"""
import pathlib
import struct
import sys

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "mslab" / "dataset" / "data" / "digits"
N_TEST = 300
SEED = 0


def write_idx(path, array):
    """IDX: 00 00, type code 0x08 (uint8), ndim, big-endian uint32 dims, then the bytes in C order."""
    array = np.ascontiguousarray(array, np.uint8)
    header = bytes([0, 0, 0x08, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape)
    path.write_bytes(header + array.tobytes())


def main():
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = np.rint(digits.images * (255.0 / 16.0)).astype(np.uint8)   # (1797, 8, 8), 0..255
    labels = digits.target.astype(np.uint8)                              # (1797,), 0..9
    order = np.random.default_rng(SEED).permutation(len(images))
    test, train = order[:N_TEST], order[N_TEST:]
    OUT.mkdir(parents=True, exist_ok=True)
    for prefix, idx in (("train", np.sort(train)), ("t10k", np.sort(test))):
        write_idx(OUT / f"{prefix}-images-idx3-ubyte", images[idx])
        write_idx(OUT / f"{prefix}-labels-idx1-ubyte", labels[idx])
        counts = np.bincount(labels[idx], minlength=10)
        print(f"{prefix}: {len(idx)} digits, per class {counts.tolist()}")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    sys.exit(main())
