"""Checks the MindIR files mslab's export writes on real MindSpore 2.10 (CPU); test_export_mindir.py records what it
printed. Step 1, in mslab's venv from the repository: ``python tests/train/mindir_files/check_mslab_exports.py
write DIR`` exports the tests' networks into DIR (with their inputs). Step 2, in a venv with mindspore==2.10.0 (never
mslab's), from outside the repository: ``python check_mslab_exports.py run DIR`` loads each file with
``mindspore.load`` + ``nn.GraphCell``, prints its outputs and keeps them in DIR/mslab_exports_in_mindspore.npz (the
copy beside this script is what the tests compare with)."""
import sys
from pathlib import Path

import numpy as np


def write(directory):
    sys.path.insert(0, str(Path(__file__).parents[1]))
    import test_export_mindir as t

    for name in sorted(t.NETS):
        net, xs, _ = t.export(name, directory)
        np.savez(directory / f"{name}_inputs.npz", *[x.asnumpy() for x in xs])
        print(name, [o.tolist() for o in t.outputs(net(*xs))])


def flat(y):
    return [t for item in y for t in flat(item)] if isinstance(y, tuple) else [y]


def structure(y):
    return tuple(structure(t) for t in y) if isinstance(y, tuple) else type(y).__name__


def run(directory):
    import mindspore as ms
    from mindspore import nn

    kept = {}
    for path in sorted(directory.glob("*.mindir")):
        saved = np.load(directory / f"{path.stem}_inputs.npz")
        y = nn.GraphCell(ms.load(str(path)))(*[ms.Tensor(saved[k]) for k in saved.files])
        for i, o in enumerate(flat(y)):
            kept[f"{path.stem}_{i}"] = o.asnumpy()
            print(path.stem, i, o)
        print(path.stem, "returns", structure(y))
    np.savez(directory / "mslab_exports_in_mindspore.npz", **kept)
    lenet = nn.GraphCell(ms.load(str(directory / "lenet.mindir")))
    print("lenet batch 3:", lenet(ms.Tensor(np.ones((3, 1, 32, 32), np.float32))).shape)


if __name__ == "__main__":
    {"write": write, "run": run}[sys.argv[1]](Path(sys.argv[2]))
