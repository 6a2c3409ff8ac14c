"""What LossPlot costs a training loop: lesson 00's training (LeNet-5, the shipped digits, 2 epochs of
Model.train in GRAPH mode) with and without the LossPlot callback, in a real Jupyter kernel.

The kernel is started with nbclient, so every batch of points LossPlot streams really goes out as a
comm message over ZeroMQ to a client, as in JupyterLab (the browser's drawing is not in the kernel's time).
The two variants take turns; each run builds a fresh network and dataset (the same seed), so both do the
same work, including compiling the training graph. Prints the medians and the overhead.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/loss_plot_overhead.py --repeats 7
"""
import argparse
import json
import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent

SETUP = """
import sys, time, statistics
sys.path.insert(0, {bench!r})
import mslab as ms
from mslab import nn
from mslab.widgets import LossPlot
from lenet_digits import LeNet5, create_dataset
from IPython.display import display
ms.set_context(mode=ms.GRAPH_MODE)

def run(with_plot):
    ms.set_seed(1)
    net = LeNet5()
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9))
    data = create_dataset("train")
    callbacks = []
    if with_plot:
        plot = LossPlot(title="overhead")
        display(plot)
        callbacks = [plot]
    t0 = time.perf_counter()
    model.train(2, data, callbacks=callbacks)
    took = time.perf_counter() - t0
    return took, (plot.sends if with_plot else 0)
run(False); run(True)   # warm-up: imports, kernels, first compile
"""

MEASURE = """
times = {{"without": [], "with": []}}
sends = []
for _ in range({repeats}):
    times["without"].append(run(False)[0])
    took, n = run(True)
    times["with"].append(took); sends.append(n)
print(json.dumps({{"times": times, "sends": sends}}))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP.format(bench=str(ROOT / "benchmarks"))),
                nbformat.v4.new_code_cell("import json\n" + MEASURE.format(repeats=args.repeats))]
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    out = next(o for o in nb.cells[1].outputs if o.get("name") == "stdout")
    res = json.loads(out["text"].strip().splitlines()[-1])
    med = {k: sorted(v)[len(v) // 2] for k, v in res["times"].items()}
    overhead = med["with"] / med["without"] - 1
    print(f"lesson 00's training (2 epochs, Model.train, GRAPH mode), medians of {args.repeats} runs each:")
    print(f"  without LossPlot: {med['without'] * 1e3:.0f} ms")
    print(f"  with LossPlot:    {med['with'] * 1e3:.0f} ms ({res['sends'][0]} batches of points streamed, "
          f"{res['sends'][0] / med['with']:.1f} per second)")
    print(f"  overhead: {overhead:+.1%} (target < 5%)")
    print("  all runs (s):", {k: [round(x, 3) for x in v] for k, v in res["times"].items()})


if __name__ == "__main__":
    main()
