"""ms.run_check prints MindSpore's two lines.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""

import pytest

import mslab as ms

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_run_check_prints_two_lines(capsys):
    ms.run_check()
    # observed on MindSpore 2.10 CPU: "MindSpore version:  2.10.0" and "The result of multiplication calculation
    # is correct, MindSpore has been installed on platform [CPU] successfully!"; mslab names itself
    assert capsys.readouterr().out == (
        f"mslab version:  {ms.__version__}\n"
        "The result of multiplication calculation is correct, mslab has been installed on platform [CPU] "
        "successfully!\n")
