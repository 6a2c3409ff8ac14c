"""Running MindSpore code unchanged (issue 27): ``python -m mslab run script.py`` and the Jupyter kernel
"MindSpore (mslab)" make ``import mindspore`` load mslab, through an import alias in that process only."""
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from mslab import mindspore_alias

ROOT = Path(__file__).resolve().parents[2]
KERNEL_DIR = ROOT / "mslab" / "_data" / "kernels" / "mindspore-mslab"

SCRIPT = textwrap.dedent("""\
    import sys
    import numpy as np
    import mindspore
    import mindspore.nn as nn
    from mindspore import ops, Tensor
    from mindspore.common.initializer import One
    print(sys.argv[1:], __name__)
    net = nn.Dense(2, 1, weight_init=One(), bias_init="zeros")
    x = Tensor(np.array([[1.0, 2.0]], np.float32))
    print(net(x))
    print(ops.grad(lambda a: (a * a).sum())(x))
    print(ops.matmul(x, x.T))
""")
# what MindSpore 2.10 CPU printed for SCRIPT run as `python script.py a 1`
MINDSPORE_PRINTS = "['a', '1'] __main__\n[[3.]]\n[[2. 4.]]\n[[5.]]\n"


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_a_script_runs_unchanged_and_prints_mindspore_numbers(tmp_path):
    script = tmp_path / "tutorial.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, "-m", "mslab", "run", str(script), "a", "1"], capture_output=True,
                          text=True, env=_env(), cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == MINDSPORE_PRINTS


def test_the_alias_gives_mslab_modules_themselves():
    code = ("from mslab import mindspore_alias; mindspore_alias.install(); mindspore_alias.install()\n"
            "import mindspore, mindspore.nn, mslab, mslab.nn\n"
            "from mindspore import ops\n"
            "from mindspore.nn import Dense\n"
            "print(mindspore is mslab, mindspore.nn is mslab.nn, ops is mslab.ops, Dense is mslab.nn.Dense)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True True True True\n"


def test_no_mindspore_package_on_the_path_and_a_real_one_is_not_mixed_in(monkeypatch):
    assert not (ROOT / "mindspore").exists() and not (ROOT / "mindspore.py").exists()
    assert not mindspore_alias.installed()  # the test process itself is not aliased
    monkeypatch.setitem(sys.modules, "mindspore", types.ModuleType("mindspore"))  # as if the real one were imported
    with pytest.raises(ImportError, match="a real MindSpore is already imported"):
        mindspore_alias.install()


def test_usage():
    done = subprocess.run([sys.executable, "-m", "mslab"], capture_output=True, text=True, env=_env(), timeout=300)
    assert done.returncode == 2 and "python -m mslab run script.py [args]" in done.stdout


def test_kernel_spec_names_an_existing_module_and_make_lab_installs_it():
    spec = json.loads((KERNEL_DIR / "kernel.json").read_text())
    assert spec["display_name"] == "MindSpore (mslab)" and spec["language"] == "python"
    python, flag, module, command = spec["argv"][:4]
    # "python": Jupyter starts it with its own interpreter (the venv's)
    assert (python, flag, command) == ("python", "-m", "kernel") and "{connection_file}" in spec["argv"]
    assert importlib.util.find_spec(module) is not None and importlib.util.find_spec(module + ".__main__")
    makefile = (ROOT / "Makefile").read_text()
    assert "kernelspec install --sys-prefix --name mindspore-mslab mslab/_data/kernels/mindspore-mslab" in makefile


def test_the_kernel_imports_mindspore_as_mslab():
    manager = pytest.importorskip("jupyter_client.manager")
    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", "PYTHONPATH")}
    os.environ["JUPYTER_PATH"] = str(KERNEL_DIR.parents[1])
    os.environ["PYTHONPATH"] = _env()["PYTHONPATH"]
    try:
        km, kc = manager.start_new_kernel(kernel_name="mindspore-mslab", startup_timeout=120)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        out = []
        reply = kc.execute_interactive("import mindspore\nfrom mindspore import ops\nprint(mindspore.__name__, "
                                       "ops.__name__)", timeout=120,
                                       output_hook=lambda m: out.append(m["content"].get("text", "")))
        assert reply["content"]["status"] == "ok" and "".join(out) == "mslab mslab.ops\n"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
