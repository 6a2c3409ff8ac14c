"""The rows issue #16 added to ``bench.py``: convolution-heavy and deep networks, eager mode against PyTorch,
time to 90% on the shipped digits, StepThrough from Python, and peak memory.

``measure(frameworks, quick)`` returns the figures that are not step timings (those come from
``bench.bench_steps`` with ``deep_nets``); ``rows(res, frameworks, fmt_time, fmt_ratio, verdict)`` the
table rows. A PyTorch column reads "not installed" where PyTorch is missing, and its target "n/a".
"""
import lab_costs
import lenet_digits

STEP_ROWS = (
    ("cnn", "VGG-style CNN step (3x32x32, batch 32, 3x3 convs 64/128, BatchNorm, ReLU, pooling, residual add)",
     "graph", 1.2),
    ("lenet128", "LeNet5 step, batch 128", "graph", 1.0),
    ("mlp200", "200-layer Dense(32)+ReLU MLP step (batch 32, MSELoss, SGD)", "pynative", 1.3),
)
EAGER = (("linear", "LinearNet"), ("lenet", "LeNet b32"), ("mlp200", "MLP-200"))


def time_to_90(frameworks):
    """Seconds of training (test passes included) until LeNet5 first reaches 90% test accuracy, per framework."""
    import mslab as ms

    out = {}
    for key, mode in (("graph", ms.GRAPH_MODE), ("pynative", ms.PYNATIVE_MODE)):
        hist = lenet_digits.train_lenet_on_digits(10, mode, stop_at=0.9)
        out[key] = hist[-1][2] if hist[-1][1] >= 0.9 else "not reached"
    if "torch" in frameworks:
        import lenet_digits_torch
        hist = lenet_digits_torch.train_lenet_on_digits_torch(10, stop_at=0.9)
        out["torch"] = hist[-1][2] if hist[-1][1] >= 0.9 else "not reached"
    return out


def measure(frameworks, quick=False):
    reps = 1 if quick else 3
    res = {"to90": time_to_90(frameworks), "stepthrough": {}, "memory": {}}
    for which in ("lenet", "cnn"):
        for mode in ("graph", "pynative"):
            res["stepthrough"][which, mode] = lab_costs.stepthrough(which, mode, reps)
    for mode in ("graph", "pynative"):
        res["memory"][mode] = lab_costs.peak_memory("mslab", mode)
    if "torch" in frameworks:
        res["memory"]["torch"] = lab_costs.peak_memory("torch")
    res["threads"] = lab_costs.blas_thread_gain("torch" in frameworks, repeats=3 if quick else 7)
    return res


def rows(res, frameworks, fmt_time, fmt_ratio, verdict):
    """Table rows in bench.py's columns: workload, GRAPH, PYNATIVE, PyTorch, GRAPH/PyTorch, PYNATIVE/GRAPH,
    MindSpore, target, met."""
    torch = "torch" in frameworks
    missing = "not installed"
    out = []
    for key, label, judged, bound in STEP_ROWS:
        r = res[key]
        t = r.get("torch")
        ratio = r[judged] / t if t else None
        out.append([label, fmt_time(r["graph"]), fmt_time(r["pynative"]), fmt_time(t) if t else missing,
                    fmt_ratio(r["graph"] / t if t else None), fmt_ratio(r["pynative"] / r["graph"]), "",
                    f"{judged.upper()} <= {bound}x PyTorch", verdict(None if ratio is None else ratio <= bound)])
    eager = [(label, res[k]["pynative"] / res[k]["torch"] if torch else None) for k, label in EAGER]
    out.append(["PYNATIVE / PyTorch eager: " + ", ".join(f"{label} {fmt_ratio(r) or 'n/a'}" for label, r in eager),
                "", "", "" if torch else missing, "", "", "", "PYNATIVE <= 1.3x PyTorch on each",
                verdict(None if not torch else all(r <= 1.3 for _, r in eager))])
    to90 = res["to90"]
    t90 = to90.get("torch", missing)
    ok = None if not isinstance(t90, float) else isinstance(to90["graph"], float) and to90["graph"] <= t90
    out.append(["LeNet5 on the shipped digits: training time to 90% test accuracy (batch 32, Momentum)",
                fmt_time(to90["graph"]), fmt_time(to90["pynative"]), fmt_time(t90), "", "", "",
                "GRAPH <= PyTorch", verdict(ok)])
    st = res["stepthrough"]
    for which, label, bound in (("lenet", "LeNet5 b32", 0.03), ("cnn", "VGG-style CNN", 0.15)):
        g, p = st[which, "graph"], st[which, "pynative"]
        out.append([f"StepThrough on {label}: slowest of {g[2]} stage advances (TrainStepSession.next_stage)",
                    fmt_time(g[1]), fmt_time(p[1]), "", "", "", "", f"<= {fmt_time(bound)}",
                    verdict(max(g[1], p[1]) <= bound)])
        out.append([f"StepThrough on {label}: creating the session (GRAPH compiles; PYNATIVE runs the step)",
                    fmt_time(g[0]), fmt_time(p[0]), "", "", "", "", "<= 300 ms", verdict(max(g[0], p[0]) <= 0.3)])
    mem = res["memory"]

    def mb(m, traced=True):
        rss = f"RSS +{m['rss_growth'] / 2**20:.0f} MB"
        return f"{m['traced'] / 2**20:.0f} MB traced, {rss}" if traced else rss

    tm = mem.get("torch")
    ok = None if tm is None else max(mem["graph"]["rss_growth"], mem["pynative"]["rss_growth"]) <= tm["rss_growth"]
    out.append(["peak memory of 100 LeNet5 steps at batch 128 (tracemalloc peak; growth of peak RSS)",
                mb(mem["graph"]), mb(mem["pynative"]), mb(tm, traced=False) if tm else missing, "", "", "",
                "<= PyTorch's", verdict(ok)])
    gain = res["threads"]
    tg = gain.get("torch")
    out.append(["VGG-style CNN step: gain from a second BLAS thread (1-thread time / 2-thread time)",
                f"{gain['graph']:.2f}x", "", f"{tg:.2f}x" if tg else missing, "", "", "",
                "GRAPH's gain >= PyTorch's", verdict(None if tg is None else gain["graph"] >= tg)])
    return out
