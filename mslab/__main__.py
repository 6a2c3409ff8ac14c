"""``python -m mslab``: run MindSpore code unchanged on mslab.

    python -m mslab run script.py [args]   run a script whose ``import mindspore`` loads mslab
    python -m mslab kernel -f CONNECTION    the Jupyter kernel "MindSpore (mslab)" (its kernel.json calls this)

Both install ``mslab.mindspore_alias`` first (in this process only), then run the script as ``python script.py``
would (``__name__ == "__main__"``, ``sys.argv`` = the script and its arguments, the script's folder first on
``sys.path``), or start ipykernel. ``make lab`` installs the kernel spec (mslab/_data/kernels/mindspore-mslab).
"""
from __future__ import annotations

import os
import runpy
import sys

from mslab import mindspore_alias

USAGE = __doc__.split("\n\n")[1].replace("``", "")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print("usage:\n" + USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "run" and rest:
        mindspore_alias.install()
        script = rest[0]
        sys.argv = list(rest)
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
        runpy.run_path(script, run_name="__main__")
        return 0
    if command == "kernel":
        mindspore_alias.install()
        from ipykernel.kernelapp import launch_new_instance  # the lab extra's ipykernel
        sys.argv = [sys.argv[0], *rest]
        launch_new_instance()
        return 0
    print(f"python -m mslab: unknown command {' '.join(args)!r}\nusage:\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
