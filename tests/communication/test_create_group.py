"""communication.create_group needs init() first, then names the world group.
Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import pytest

import mslab as ms
from mslab.communication import create_group, init, release


def test_create_group_needs_init_then_names_the_world():
    release()  # start outside any process group: test_communication.py, run before this file, leaves one open
    # observed on MindSpore 2.10 CPU (no launcher): RuntimeError before init()
    with pytest.raises(RuntimeError, match="Distributed Communication has not been inited"):
        create_group("g", [0, 1])
    init()
    try:
        create_group("all", [0])
        assert ms.communication.get_group_size("all") == 1
        with pytest.raises(ValueError, match="only groups of every rank"):
            create_group("pair", [0, 1])
    finally:
        release()
