"""Every module path of MindSpore 2.10 imports in mslab (mslab/module_tree.py), its names resolving to mslab's
own objects, or to the clear NotInMslabYet error when used (not when imported)."""
import importlib
import json
import subprocess
import sys

import pytest

import mslab
import mslab.nn as nn
import mslab.ops as ops
from mslab.core import missing_names
from mslab.core.missing_names import MissingName, NotInMslabYet


def test_the_captured_tree_is_mindspore_2_10s():
    index = json.loads(missing_names.TREE.read_text())
    names = json.loads(missing_names.TREE_NAMES.read_text())
    assert index["mindspore_version"] == names["mindspore_version"] == "2.10.0"
    tree = missing_names.module_tree()
    assert len(tree) == 657  # importable module paths of MindSpore 2.10 CPU (scripts/capture_mindspore_modules.py)
    # observed on MindSpore 2.10: packages and plain modules, public and the private ones its tests import
    assert tree["mindspore.ops.function"] is True and tree["mindspore.ops.function.array_func"] is False
    assert tree["mindspore.ops.operations.math_ops"] is False and tree["mindspore.ops.operations._grad_ops"] is False
    assert tree["mindspore.common.api"] is False and tree["mindspore.rewrite"] is True
    api = missing_names.module_names()["mindspore.common.api"]
    assert api["jit"][:2] == ["function", "mindspore"] and "_cell_graph_executor" in api
    assert missing_names.module_names()["mindspore.common.parameter"]["_Buffer"] == ["class"]


def test_every_module_path_imports():
    failed = []
    for path in missing_names.module_tree():
        try:
            importlib.import_module("mslab" + path[len("mindspore"):])
        except Exception as e:  # noqa: BLE001 -- collect them all, to report every path that fails
            failed.append(f"{path}: {type(e).__name__}: {e}")
    assert not failed, "\n".join(failed)


def test_every_name_resolves_or_says_mslab_lacks_it():
    found, lacking, wrong = 0, 0, []
    for path, names in missing_names.module_names().items():
        module = importlib.import_module("mslab" + path[len("mindspore"):])
        for name in names:
            try:
                getattr(module, name)
                found += 1
            except NotInMslabYet:
                lacking += 1
            except Exception as e:  # noqa: BLE001
                wrong.append(f"{path}.{name}: {type(e).__name__}: {e}")
    assert not wrong, "\n".join(wrong[:20])
    assert found > 3000 and found + lacking == 21598


def test_names_resolve_to_mslabs_own_objects():
    from mslab.common.api import jit
    from mslab.ops.function.array_func import concat
    from mslab.ops.function.math_func import matmul
    from mslab.ops.operations.math_ops import MatMul
    from mslab.ops.operations.nn_ops import ReLU

    assert concat is ops.concat and matmul is ops.matmul
    assert MatMul is ops.operations.MatMul and ReLU is ops.operations.ReLU
    assert jit is mslab.jit
    from mslab.nn.layer.container import SequentialCell  # MindSpore's file, not mslab's: an alias module

    assert SequentialCell is nn.SequentialCell


def test_mslabs_own_files_keep_working_and_become_packages_where_mindspores_are():
    import mslab.ops.function as function

    assert function.__file__.endswith("function.py") and function.__path__ == []
    import mslab.ops.function.array_func as array_func

    assert "alias of mindspore.ops.function.array_func" in repr(array_func)  # no memory address: notebooks stay stable
    assert function.array_func is array_func
    assert array_func.__all__ and "concat" in array_func.__all__


def test_a_missing_name_imports_and_raises_the_clear_error_on_use():
    from mslab.ops.operations.math_ops import Zeta  # MindSpore 2.10 has it, mslab not yet

    assert isinstance(Zeta, MissingName)
    assert repr(Zeta) == "<mindspore.ops.operations.math_ops.Zeta: not in mslab yet>"
    message = (r"`mindspore\.ops\.operations\.math_ops\.Zeta` exists in MindSpore 2\.10 but mslab does not "
               r"implement it yet; see docs/api_coverage\.md")
    with pytest.raises(NotInMslabYet, match=message):
        Zeta()
    with pytest.raises(NotInMslabYet, match=message):
        Zeta.add_prim_attr("x", 1)


def test_a_subclass_of_a_missing_class_is_defined_and_fails_when_made():
    from mslab.ops.operations.math_ops import Zeta

    class MyZeta(Zeta):
        pass

    with pytest.raises(NotInMslabYet, match="Zeta` exists in MindSpore 2.10"):
        MyZeta()


def test_attribute_access_still_raises_so_hasattr_works():
    import mslab.ops.operations._grad_ops as G

    assert not hasattr(G, "ReluGrad") and not hasattr(nn, "RNN")
    with pytest.raises(NotInMslabYet, match=r"mindspore\.ops\.operations\._grad_ops\.ReluGrad"):
        G.ReluGrad  # noqa: B018
    with pytest.raises(AttributeError, match="neither in MindSpore 2.10 nor in mslab"):
        importlib.import_module("mslab.ops.function.array_func").concatt  # noqa: B018
    with pytest.raises(ImportError, match="cannot import name 'concatt'"):  # a typo still fails at import
        from mslab.ops.function.array_func import concatt  # noqa: F401


def test_a_file_importing_many_names_runs_the_parts_mslab_has(tmp_path):
    script = tmp_path / "uses_many.py"
    script.write_text(
        "import numpy as np\n"
        "import mslab as ms\n"
        "from mslab import Tensor, bfloat16\n"
        "from mslab.common.api import _cell_graph_executor, jit\n"
        "from mslab.common.parameter import _Buffer, Parameter\n"
        "from mslab.ops.operations import _grad_ops as G\n"
        "from mslab.ops.operations.math_ops import Zeta, MatMul\n"
        "from mslab.ops.functional import vmap\n"
        "print(MatMul()(Tensor(np.eye(2, dtype=np.float32)), Tensor(np.ones((2, 2), np.float32))))\n"
        "try:\n"
        "    Zeta()\n"
        "except AttributeError as e:\n"
        "    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[[1. 1.]", " [1. 1.]]",
                                "NotInMslabYet `mindspore.ops.operations.math_ops.Zeta` exists in MindSpore 2.10 "
                                "but mslab does not implement it yet; see docs/api_coverage.md"]


def test_import_mslab_reads_the_small_index_only():
    code = ("import mslab, mslab.core.missing_names as m; "
            "print(m.module_names.cache_info().currsize, m.mindspore_names.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "0"]


def test_a_package_keeps_its_function_when_a_submodule_of_that_name_imports():
    # MindSpore 2.10: `import mindspore.run_check` leaves mindspore.run_check the function; `import
    # mindspore.ops.function.grad.grad_func as g` is an ImportError ("cannot import name 'grad_func' from 'grad'")
    importlib.import_module("mslab.run_check")
    assert callable(mslab.run_check) and not isinstance(mslab.run_check, type(mslab))
    from mslab.run_check import run_check

    assert run_check is mslab.run_check
