"""Top-level aliases: ms.DynamicLossScaleManager, ms.FixedLossScaleManager, ms.Metric are the same objects as
their amp / train names. Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""

import mslab as ms
from mslab import amp, train


def test_top_level_aliases():
    # observed on MindSpore 2.10: ms.DynamicLossScaleManager is ms.amp.DynamicLossScaleManager (and the others)
    assert ms.DynamicLossScaleManager is amp.DynamicLossScaleManager
    assert ms.FixedLossScaleManager is amp.FixedLossScaleManager
    assert ms.Metric is train.Metric
