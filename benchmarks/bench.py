"""Side-by-side timings: mslab GRAPH mode, mslab PYNATIVE mode and PyTorch CPU eager, in one process.

    python benchmarks/bench.py                 # print the table (about two minutes, plus the lessons)
    python benchmarks/bench.py --readme README.md   # also rewrite README's performance section
    make bench                                 # the same, README included

Every figure is the median of several repeats after a warm-up; the frameworks take turns within each
repeat, so a neighbour's load hits all of them alike. MindSpore's figures are added when it happens to
be installed (it is never required), and so is PyTorch's (``pip install -e '.[torch]'``).

BLAS threads: by default numpy's OpenBLAS and PyTorch both run one thread (OPENBLAS_NUM_THREADS=1,
torch.set_num_threads(1)). On a small shared machine a multithreaded OpenBLAS stalls whenever another
process is busy; one thread each keeps the comparison fair and repeatable. ``--blas-threads 0`` leaves
the settings alone (mslab then chooses its own count; benchmarks/threads.py times that choice).
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, set on some machines for old OpenBLAS builds, slow a current
numpy down: this command unsets both (for itself and its subprocesses only) unless ``--keep-coretype``
is given, and reports the kernel OpenBLAS then picked.
"""
import argparse
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--readme", help="rewrite the section between the bench markers of this file with the table")
    p.add_argument("--blas-threads", type=int, default=1, help="BLAS/torch threads (0: mslab's choice)")
    p.add_argument("--keep-coretype", action="store_true", help="keep OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE if set")
    p.add_argument("--repeats", type=int, default=7, help="timed repeats per workload (median reported)")
    p.add_argument("--quick", action="store_true", help="fewer, shorter repeats (a smoke run)")
    p.add_argument("--no-nbval", action="store_true", help="skip running the lessons under nbval")
    p.add_argument("--no-torch", action="store_true", help="leave PyTorch out even when installed")
    return p.parse_args(argv)


ARGS = parse_args() if __name__ == "__main__" else parse_args([])
ENV_NOTES = []
if __name__ == "__main__":
    # Both must happen before numpy (and so OpenBLAS) is loaded.
    if not ARGS.keep_coretype:
        was = {k: os.environ.pop(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
        if was:
            ENV_NOTES.append("unset for this run: " + ", ".join(f"{k}={v}" for k, v in was.items()))
    if ARGS.blas_threads > 0:
        for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[k] = str(ARGS.blas_threads)

import importlib.util  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)
import deep_nets  # noqa: E402
import nets  # noqa: E402
import round_two  # noqa: E402


def have(module):
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


# ---- timing ---------------------------------------------------------------------------------------------
def calibrate(fn, target=0.05):
    """How many calls make a timed block of about ``target`` seconds (at least 1)."""
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    return max(1, int(target / max(one, 1e-7)))


def time_side_by_side(entries, repeats, warmup_s=0.3, block_s=0.1):
    """``entries``: {name: (step, before)}; returns {name: median seconds per call}.

    Each repeat times one block of every entry in turn (the frameworks share the machine's state).
    """
    numbers = {}
    for name, (step, before) in entries.items():
        before()
        deadline = time.perf_counter() + warmup_s
        while time.perf_counter() < deadline:
            step()
        numbers[name] = calibrate(step, block_s)
    samples = {name: [] for name in entries}
    for _ in range(repeats):
        for name, (step, before) in entries.items():
            before()
            n = numbers[name]
            t0 = time.perf_counter()
            for _ in range(n):
                step()
            samples[name].append((time.perf_counter() - t0) / n)
    return {name: float(np.median(s)) for name, s in samples.items()}


def subprocess_seconds(code, repeats):
    """Median wall time that ``code`` reports (it prints seconds) in fresh interpreters.

    Bytecode caches are allowed (PYTHONDONTWRITEBYTECODE is dropped) and written by an untimed first
    run, as on any machine after the first import; pip-installed packages come with theirs.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = []
    for i in range(repeats + 1):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
        if i == 0 and r.returncode == 0:
            continue
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}")
        out.append(float(r.stdout.strip().splitlines()[-1]))
    return float(np.median(out))


IMPORT_CODE = "import time; t = time.perf_counter(); import {m}; print(time.perf_counter() - t)"


# ---- workloads --------------------------------------------------------------------------------------------
def no_op():
    pass


def bench_steps(which, repeats, frameworks, workloads=nets):
    """GRAPH, PYNATIVE and PyTorch (MindSpore too, if installed) steps of ``workloads``' workload ``which``."""
    entries = {}
    g_step, g_before = workloads.ms_step("mslab", which, "graph")
    entries["graph"] = (g_step, g_before)
    p_step, p_before = workloads.ms_step("mslab", which, "pynative")
    entries["pynative"] = (p_step, p_before)
    if "torch" in frameworks:
        entries["torch"] = (workloads.torch_step(which), no_op)
    if "mindspore" in frameworks:
        for mode in ("graph", "pynative"):
            entries[f"ms_{mode}"] = workloads.ms_step("mindspore", which, mode)
    scale = 0.5 if ARGS.quick else 1.0
    res = time_side_by_side(entries, repeats, warmup_s=0.3 * scale, block_s=0.1 * scale)
    import mslab
    mslab.set_context(mode=mslab.PYNATIVE_MODE)
    return res


def bench_control_flow(which, repeats, frameworks):
    """The control-flow workloads (benchmarks/control_flow.py), GRAPH and PYNATIVE beside PyTorch eager."""
    import control_flow

    entries = {"graph": control_flow.mslab_step(which, "graph"), "pynative": control_flow.mslab_step(which, "pynative")}
    if "torch" in frameworks:
        entries["torch"] = (control_flow.torch_step(which), no_op)
    scale = 0.5 if ARGS.quick else 1.0
    res = time_side_by_side(entries, repeats, warmup_s=0.3 * scale, block_s=0.1 * scale)
    import mslab
    mslab.set_context(mode=mslab.PYNATIVE_MODE)
    return res


def first_call(name, repeats):
    """Seconds of the first GRAPH-mode call of a fresh LeNet TrainOneStepCell: trace, autodiff, compile, run."""
    ms = importlib.import_module(name)
    ms.set_context(mode=ms.GRAPH_MODE)
    times = []
    for i in range(repeats + 1):  # the first round warms imports and BLAS up; it is not counted
        train, inputs = nets.ms_lenet_train_cell(name)
        t0 = time.perf_counter()
        train(*inputs)
        if i:
            times.append(time.perf_counter() - t0)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return float(np.median(times))


def svg_render(repeats):
    """Seconds to draw LeNet's combined training graph (forward, backward, optimizer) as SVG, or a reason."""
    if not have("mslab.viz"):
        return "n/a (not built yet)"
    import mslab
    viz = importlib.import_module("mslab.viz")
    if not (hasattr(viz, "training_graph") and hasattr(viz, "to_svg")):
        return "n/a (not built yet)"
    if hasattr(viz, "have_dot") and not viz.have_dot():
        return "n/a (Graphviz dot missing)"
    render_mod = sys.modules.get("mslab.lab.viz.render")
    mslab.set_context(mode=mslab.GRAPH_MODE)
    times = []
    for i in range(repeats + 1):
        cache = getattr(render_mod, "_CACHE", None)
        if hasattr(cache, "clear"):
            cache.clear()  # time a real render, not the SVG cache
        train, inputs = nets.ms_lenet_train_cell("mslab")
        t0 = time.perf_counter()
        svg = viz.to_svg(viz.training_graph(train, *inputs))
        if i:
            times.append(time.perf_counter() - t0)
        if "<svg" not in svg:
            return "n/a (no SVG produced)"
    mslab.set_context(mode=mslab.PYNATIVE_MODE)
    return float(np.median(times))


def nbval_run():
    """Seconds to run every lesson under nbval (once), or a reason why not."""
    nb_dir = os.path.join(ROOT, "notebooks")
    lessons = sorted(f for f in os.listdir(nb_dir) if f.endswith(".ipynb")) if os.path.isdir(nb_dir) else []
    if not lessons:
        return "n/a (not built yet)", ""
    if not have("nbval"):
        return "n/a (nbval not installed)", ""
    cmd = [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-p", "no:cacheprovider"]
    if os.path.exists(os.path.join(ROOT, "tests", "nbval_sanitize.cfg")):
        cmd += ["--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]
    # The notebook kernels start in notebooks/: point them at this tree's mslab, not whichever one is installed.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    t0 = time.perf_counter()
    r = subprocess.run(cmd + ["notebooks/"], capture_output=True, text=True, cwd=ROOT, env=env)
    dt = time.perf_counter() - t0
    found = re.findall(r"(\d+ (?:passed|failed|error|errors|skipped))", r.stdout)
    summary = ", ".join(found[-3:]) if found else f"exit {r.returncode}"
    if r.returncode != 0:
        return f"FAILED ({summary})", ""
    return dt, f"{len(lessons)} lessons: {summary}"


# ---- the table ------------------------------------------------------------------------------------------------
def fmt_time(s):
    if not isinstance(s, float):
        return s
    if s < 1e-3:
        return f"{s * 1e3:.3f} ms"
    if s < 1.0:
        return f"{s * 1e3:.1f} ms" if s < 0.1 else f"{s * 1e3:.0f} ms"
    return f"{s:.2f} s"


def fmt_ratio(r):
    return "" if r is None else f"{r:.2f}x"


def verdict(ok):
    return "n/a" if ok is None else ("yes" if ok else "**NO**")


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.+)$", f.read(), re.M)
            cpu = m.group(1).strip() if m else cpu
    except OSError:
        cpu = platform.processor() or cpu
    lines = [f"{os.cpu_count()} cores, {cpu}; Python {platform.python_version()}, numpy {np.__version__}"]
    try:
        from threadpoolctl import threadpool_info
        blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if blas:
            b = blas[0]
            lines[0] += (f", {b.get('internal_api')} {b.get('version')} ({b.get('architecture')} kernels, "
                         f"{b.get('num_threads')} thread{'s' if b.get('num_threads') != 1 else ''})")
    except ImportError:
        pass
    return lines


def build_table(res, frameworks):
    torch_v = res.get("torch_version")
    ms_v = res.get("mindspore_version")
    head = ["workload", "mslab GRAPH", "mslab PYNATIVE", f"PyTorch {torch_v} CPU" if torch_v else "PyTorch",
            "GRAPH / PyTorch", "PYNATIVE / GRAPH", f"MindSpore {ms_v} (graph / pynative)" if ms_v else "MindSpore",
            "target", "met"]
    rows = []
    missing_torch = "not installed" if "torch" not in frameworks else None

    def ms_pair(r):
        if "mindspore" not in frameworks:
            return "not installed"
        return f"{fmt_time(r['ms_graph'])} / {fmt_time(r['ms_pynative'])}"

    lin, le = res["linear"], res["lenet"]
    t_lin = lin.get("torch")
    r_lin = lin["graph"] / t_lin if t_lin else None
    rp_lin = lin["pynative"] / lin["graph"]
    rows.append(["LinearNet TrainOneStepCell step (batch 16, MSELoss, Momentum)", fmt_time(lin["graph"]),
                 fmt_time(lin["pynative"]), fmt_time(t_lin) if t_lin else missing_torch, fmt_ratio(r_lin),
                 fmt_ratio(rp_lin), ms_pair(lin), "GRAPH <= 1.0x PyTorch; PYNATIVE >= 1.5x GRAPH",
                 verdict(None if r_lin is None else (r_lin <= 1.0 and rp_lin >= 1.5))])
    t_le = le.get("torch")
    r_le = le["graph"] / t_le if t_le else None
    rows.append(["LeNet5 step (batch 32, 1x32x32, sparse softmax-xent mean, Momentum 0.01/0.9)",
                 fmt_time(le["graph"]), fmt_time(le["pynative"]), fmt_time(t_le) if t_le else missing_torch,
                 fmt_ratio(r_le), fmt_ratio(le["pynative"] / le["graph"]), ms_pair(le), "GRAPH <= 1.5x PyTorch",
                 verdict(None if r_le is None else r_le <= 1.5)])
    for key, label in (("cf_while", "`while` on a tensor around 50 training steps (MLP 8-32-1, SGD; one call)"),
                       ("cf_if", "training step with `if all_finite(grads): opt(grads)` (seed 001's step, MLP)")):
        cf = res[key]
        t_cf = cf.get("torch")
        rows.append([label, fmt_time(cf["graph"]), fmt_time(cf["pynative"]), fmt_time(t_cf) if t_cf else missing_torch,
                     fmt_ratio(cf["graph"] / t_cf if t_cf else None), fmt_ratio(cf["pynative"] / cf["graph"]), "",
                     "GRAPH faster than PYNATIVE", verdict(cf["graph"] < cf["pynative"])])
    fc = res["first_call"]
    rows.append(["LeNet5 first GRAPH call (trace + autodiff + compile + run)", fmt_time(fc), "", "", "", "",
                 fmt_time(res.get("ms_first_call", "not installed")), "< 50 ms", verdict(fc < 0.05)])
    imp = res["import"]
    rows.append(["`import mslab` (fresh interpreter)", fmt_time(imp), "",
                 f"`import torch`: {fmt_time(res['torch_import'])}" if "torch_import" in res else "", "", "",
                 fmt_time(res.get("ms_import", "not installed")), "< 0.5 s", verdict(imp < 0.5)])
    svg = res["svg"]
    rows.append(["LeNet combined training graph to SVG (mslab.viz + Graphviz dot)", fmt_time(svg), "", "", "", "",
                 "", "< 1 s", verdict(svg < 1.0 if isinstance(svg, float) else None)])
    rows += round_two.rows(res, frameworks, fmt_time, fmt_ratio, verdict)
    nb, nb_note = res["nbval"]
    rows.append([f"all lessons under nbval{f' ({nb_note})' if nb_note else ''}", fmt_time(nb), "", "", "", "", "",
                 "< 3 min", verdict(nb < 180 if isinstance(nb, float) else (False if "FAILED" in str(nb) else None))])
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * len(head)) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def describe_settings(res):
    threads = (f"BLAS threads: OPENBLAS_NUM_THREADS={ARGS.blas_threads} for numpy"
               + (f", torch.set_num_threads({ARGS.blas_threads})" if "torch_version" in res else "")
               if ARGS.blas_threads > 0 else "BLAS threads: as configured by the environment")
    notes = [threads + ".", "OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE: " + ("; ".join(ENV_NOTES) if ENV_NOTES else
             ("kept as set" if ARGS.keep_coretype else "not set")) + "."]
    if res.get("load") is not None:
        notes.append(f"Wall-clock times on a shared machine: load average {res['load']:.1f} when the run began "
                     f"({os.cpu_count()} cores); other processes slow every column alike, so read the ratios.")
    notes.append(f"Medians of {ARGS.repeats} repeats after a warm-up; frameworks take turns within each repeat. "
                 "The first-call, import and SVG rows are medians of fresh runs; imports are timed in new "
                 "interpreters with bytecode caches in place (the first, untimed import writes them).")
    return notes


def main():
    frameworks = []
    res = {"load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}
    if have("torch") and not ARGS.no_torch:
        import torch
        if ARGS.blas_threads > 0:
            torch.set_num_threads(ARGS.blas_threads)
        frameworks.append("torch")
        res["torch_version"] = torch.__version__.split("+")[0]
    if have("mindspore"):
        import mindspore
        frameworks.append("mindspore")
        res["mindspore_version"] = mindspore.__version__
    import mslab  # noqa: F401  (after the thread settings)

    reps = 3 if ARGS.quick else ARGS.repeats
    ARGS.repeats = reps
    print("timing LinearNet steps ...", file=sys.stderr)
    res["linear"] = bench_steps("linear", reps, frameworks)
    print("timing LeNet5 steps ...", file=sys.stderr)
    res["lenet"] = bench_steps("lenet", reps, frameworks)
    for which in ("cnn", "lenet128", "mlp200"):
        print(f"timing {which} steps ...", file=sys.stderr)
        res[which] = bench_steps(which, reps, frameworks, deep_nets)
    print("timing control flow (while, if) ...", file=sys.stderr)
    res["cf_while"] = bench_control_flow("while", reps, frameworks)
    res["cf_if"] = bench_control_flow("if", reps, frameworks)
    print("timing first GRAPH calls ...", file=sys.stderr)
    res["first_call"] = first_call("mslab", reps)
    if "mindspore" in frameworks:
        res["ms_first_call"] = first_call("mindspore", 3)
    print("time to 90% on the digits, StepThrough, peak memory ...", file=sys.stderr)
    res.update(round_two.measure(frameworks, ARGS.quick))
    print("timing imports ...", file=sys.stderr)
    res["import"] = subprocess_seconds(IMPORT_CODE.format(m="mslab"), reps)
    if "torch" in frameworks:
        res["torch_import"] = subprocess_seconds(IMPORT_CODE.format(m="torch"), 3)
    if "mindspore" in frameworks:
        res["ms_import"] = subprocess_seconds(IMPORT_CODE.format(m="mindspore"), 3)
    print("timing SVG rendering ...", file=sys.stderr)
    res["svg"] = svg_render(3 if ARGS.quick else 5)
    if ARGS.no_nbval:
        res["nbval"] = ("skipped (--no-nbval)", "")
    else:
        print("running the lessons under nbval ...", file=sys.stderr)
        res["nbval"] = nbval_run()

    lines = build_table(res, frameworks)
    about = ["Machine: " + "; ".join(machine()) + "."] + describe_settings(res)
    text = "\n".join(lines + [""] + ["- " + a for a in about])
    print(text)
    if ARGS.readme:
        update_readme(ARGS.readme, text)
    return 0


def update_readme(path, text):
    with open(path) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{path} has no {BEGIN} ... {END} section to rewrite")
    start = doc.index(BEGIN) + len(BEGIN)
    stop = doc.index(END)
    cmd = "make bench"
    body = f"\n<!-- generated by `{cmd}` (benchmarks/bench.py); do not edit by hand -->\n{text}\n"
    with open(path, "w") as f:
        f.write(doc[:start] + body + doc[stop:])
    print(f"rewrote the performance section of {path}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
