"""Graphviz never gets a picture it cannot lay out within a box, memory and time budget (issue: a flat graph of
5,000 nodes took ``dot`` to ~5 GB over ~21 s, or ended in an uncaught "out of memory")."""
import subprocess

import numpy as np
import pytest

import mslab as ms
from mslab import ops
from mslab.lab import viz
from mslab.lab.viz import render
from mslab.lab.widgets import GraphView

pytestmark = pytest.mark.skipif(not viz.have_dot(), reason="Graphviz dot is not installed")


def flat_graph(n):
    """A graph of 2n nodes and no Cells: nothing for the picture to fold."""
    def f(x):
        for _ in range(n):
            x = ops.sin(x) * 1.01
        return x
    return ms.trace(f, ms.Tensor(np.ones((2, 4), np.float32)))


def test_a_picture_over_the_box_budget_never_starts_dot(monkeypatch):
    def no_dot(*args, **kwargs):
        raise AssertionError("dot was started")

    monkeypatch.setattr(subprocess, "run", no_dot)
    dot = viz.to_dot(flat_graph(2500))
    with pytest.raises(viz.GraphvizTooLarge, match=r"about 12505 boxes.*DOT_MAX_BOXES = 3000.*collapse_depth=1"):
        viz.render_dot(dot)


def test_dot_out_of_its_memory_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(render, "DOT_MAX_BOXES", 10 ** 6)
    monkeypatch.setattr(render, "DOT_MEMORY", 200 * 1024 ** 2)
    dot = viz.to_dot(flat_graph(2500))
    with pytest.raises(viz.GraphvizTooLarge, match=r"ran out of the memory it is given \(200 MiB.*DOT_MEMORY\)"):
        viz.render_dot(dot, timeout=60)


def test_a_small_picture_still_renders_under_the_memory_limit():
    assert "<svg" in viz.render_dot(viz.to_dot(flat_graph(3)))


def test_graph_view_of_5000_nodes_falls_back_to_text_without_starting_dot(monkeypatch):
    def no_dot(*args, **kwargs):
        raise AssertionError("dot was started")

    monkeypatch.setattr(subprocess, "run", no_dot)
    svg = GraphView(flat_graph(2500)).svg
    assert "mslab-nodot" in svg and "DOT_MAX_BOXES" in svg and "%4999" in svg  # the message, then the IR text
