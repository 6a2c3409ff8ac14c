"""LeNet5 trained with Model.train on the shipped digits reaches 90% test accuracy (issue: data pipelines)."""
import importlib.util
from pathlib import Path

import mslab as ms

_spec = importlib.util.spec_from_file_location(
    "lenet_digits", Path(__file__).resolve().parents[2] / "benchmarks" / "lenet_digits.py")
lenet_digits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lenet_digits)


def test_lenet5_reaches_90_percent_on_shipped_digits():
    history = lenet_digits.train_lenet_on_digits(epochs=10, mode=ms.GRAPH_MODE)
    best = max(acc for _, acc, _ in history)
    assert best >= 0.9, history
    assert history[-1][1] >= 0.9, history  # and it stays there at the end of training
