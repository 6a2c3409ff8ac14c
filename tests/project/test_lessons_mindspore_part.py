"""Every lesson's MindSpore part (its code without the ``# mslab only`` lines) uses nothing only mslab has.

Lesson 00 promises that dropping the lines marked ``# mslab only`` leaves a program that runs on MindSpore;
``lesson_mindspore_part.py`` (beside this file) takes them out and lists what remains that MindSpore 2.10 lacks.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lesson_mindspore_part as part  # noqa: E402


@pytest.mark.parametrize("lesson", part.LESSONS, ids=lambda p: p.name[:2])
def test_the_lesson_without_its_mslab_only_lines_uses_only_mindspore(lesson):
    assert part.findings(lesson) == []


def test_the_check_finds_what_only_mslab_has(tmp_path):
    lesson = tmp_path / "99_example.py"
    lesson.write_text(
        "# %% [markdown]\n# text with ms.trace in it is fine\n\n"
        "# %%\nimport mslab as ms\nimport mslab.dataset as ds\nfrom mslab import nn\n"
        "from mslab.widgets import LossPlot  # mslab only\n\n"
        "# %%\ngraph = ms.trace(nn.Dense(2, 2), ms.Tensor([[1.0, 2.0]]))  # mslab only\nprint(graph.nodes)\n"
        "plot = LossPlot()\nprint(ds.digits_path(), model.transfer_counts)\nprint(open('ck/net-graph.meta').read())\n\n"
        "# %%\n# mslab only (the whole cell)\nimport mslab.viz as viz\nviz.forward_graph(ms.record())\n\n"
        "# %%\nwith ms.record() as tape:  # mslab only\n    y = 2\n")
    assert part.findings(lesson) == [
        "99_example.py:12: uses graph, made only on lines marked # mslab only",
        "99_example.py:13: uses LossPlot, made only on lines marked # mslab only",
        "99_example.py:14: reads .transfer_counts, which only mslab's objects have",
        "99_example.py:14: uses ds.digits_path, which MindSpore 2.10 lacks",
        "99_example.py:15: reads ck/net-graph.meta, which MindSpore writes as binary protobuf, not text",
        "99_example.py:24: the cell does not parse once its mslab-only lines are dropped (unexpected indent)",
    ]


def test_the_mindspore_part_is_spelled_mindspore():
    script = part.mindspore_script(part.LESSONS[0])
    assert "import mindspore as ms" in script and "mslab" not in script
