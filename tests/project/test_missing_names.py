"""A MindSpore name mslab lacks raises a clear error; a misspelt one gets a did-you-mean."""
import json
import subprocess
import sys

import pytest

import mslab
import mslab.nn as nn
import mslab.ops as ops
from mslab.core import missing_names
from mslab.core.missing_names import NotInMslabYet


def test_data_file_is_mindspore_2_10():
    data = json.loads(missing_names.DATA.read_text())
    assert data["mindspore_version"] == "2.10.0"
    names = data["namespaces"]
    # a few names observed in MindSpore 2.10 (scripts/capture_mindspore_names.py)
    assert names["mindspore.nn"]["LSTM"] == "class"
    assert names["mindspore.ops.operations"]["TensorAdd"] == "class"
    assert names["mindspore"]["numpy"] == "module"
    assert "c_transforms" not in names["mindspore.dataset.vision"]  # the 1.x path is gone in 2.10


def test_mindspore_name_mslab_lacks_says_so():
    with pytest.raises(NotInMslabYet, match=r"`mindspore\.nn\.RNN` exists in MindSpore 2\.10 but mslab does "
                                            r"not implement it yet; see docs/api_coverage\.md"):
        nn.RNN  # noqa: B018


def test_it_is_an_attribute_error_so_hasattr_and_getattr_default_work():
    assert issubclass(NotInMslabYet, AttributeError)
    assert not hasattr(nn, "RNN")
    assert getattr(nn, "RNN", None) is None
    assert hasattr(nn, "Dense")


@pytest.mark.parametrize("module, name, suggestion", [
    (nn, "Dence", "`Dense`"), (nn, "relu", "`ReLU`"), (mslab, "Tensr", "`Tensor`"), (ops, "Relu", "`ReLU`"),
])
def test_unknown_name_gets_a_did_you_mean(module, name, suggestion):
    with pytest.raises(AttributeError, match="did you mean") as e:
        getattr(module, name)
    assert not isinstance(e.value, NotInMslabYet)
    assert suggestion in str(e.value) and "neither in MindSpore 2.10 nor in mslab" in str(e.value)


def test_private_names_raise_a_plain_attribute_error():
    with pytest.raises(AttributeError) as e:
        nn.__wrapped__  # noqa: B018
    assert type(e.value) is AttributeError


def test_import_mslab_does_not_read_the_name_list():
    code = "import mslab, mslab.core.missing_names as m; print(m.mindspore_names.cache_info().currsize)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


def test_submodules_load_on_first_use_as_mindspore_imports_them_with_the_package():
    code = "import sys, mslab; assert 'mslab.context' not in sys.modules; print(mslab.context.GRAPH_MODE)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"
