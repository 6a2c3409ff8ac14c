"""CompilePipeline: the graph after each stage of GRAPH-mode compilation, what "graph mode compiles" means.

    CompilePipeline(train_net, x, y)      # any Cell or function GRAPH mode can compile

The stages are the ones a GRAPH-mode call really goes through (mslab/runtime/compiled.py and executor.py):

1. **recorded**: tracing runs ``construct`` on symbolic tensors and records each primitive (the forward
   nodes; a TrainOneStepCell runs its network twice, once for the loss and once inside GradOperation);
2. **after autodiff**: GradOperation, met while tracing, appends the backward nodes (one bprop per forward
   node) and the optimizer's update nodes;
3. **after CSE**: common-subexpression elimination merges nodes that apply the same op to the same values
   (the twice-recorded forward becomes one);
4. **after DCE and folding**: dead-code elimination drops nodes nobody uses; the executor then computes
   the nodes whose inputs are all known at compile time once (folding), e.g. the ``sens`` of 1.0;
5. **schedule**: the renumbered graph as the executor runs it, one line of generated Python per node.

Each picture is a GraphView (a child widget, ``cp.panes[i]``; pan, zoom and click as anywhere else) and
outlines in orange the nodes the next pass removes, merges or folds. The passes are replayed
from ``mslab.ir.passes.PIPELINE`` (what ``optimize`` runs) on fresh traces: tracing is deterministic,
so node names match across stages.
"""
from html import escape

import anywidget
import traitlets as t

from mslab.core.tensor import Tensor
from mslab.ir.passes import PIPELINE
from mslab.lab.widgets._assets import CSS, FRONTEND
from mslab.lab.widgets._graph import STATIC_CSS
from mslab.lab.widgets.graph_view import GraphView
from mslab.runtime.compiled import trace
from mslab.runtime.executor import Executor

_to_json = anywidget.WidgetTrait().metadata["to_json"]  # a child widget as the reference its front-end reads
PASS_TITLES = {"cse": "after CSE", "dce": "after DCE and folding"}


def _names(graph):
    return [n.out.name for n in graph.nodes]


def _stage(key, title, graph, count, note, highlight=(), phases=None, code=""):
    return {"key": key, "title": title, "count": count, "note": note, "code": code,
            "highlighted": list(highlight), "graph": graph, "phases": phases}


def pipeline_stages(fn, *inputs):
    """The stages of compiling ``fn(*inputs)``: dicts with key, title, node count, note, highlighted IR names,
    the graph (and the phases to draw) and (last stage) the generated code."""
    name = getattr(fn, "__name__", None) or type(fn).__name__
    raw = trace(fn, *inputs, name=name, optimize_graph=False)
    forward = [n for n in raw.nodes if n.phase == "forward"]
    added = len(raw.nodes) - len(forward)
    before = _names(raw)
    # Each pass is replayed on a fresh trace with the passes before it, so every stage keeps its own graph.
    after = []
    for i in range(len(PIPELINE)):
        g = trace(fn, *inputs, name=name, optimize_graph=False)
        for _, run_pass in PIPELINE[:i + 1]:
            run_pass(g)
        after.append(g)
    gone = []
    prev = before
    for g in after:
        kept = set(_names(g))
        gone.append([n for n in prev if n not in kept])
        prev = _names(g)
    last = after[-1]
    folded = [n.out.name for n in Executor(last).folded]
    stages = [_stage("recorded", "recorded (forward)", raw, len(forward),
                     f"tracing ran construct and recorded {len(forward)} forward primitives", phases=("forward",))]
    stages.append(_stage("autodiff", "after autodiff", raw, len(raw.nodes),
                         f"autodiff and the optimizer added {added} nodes (backward and updates); "
                         f"outlined: the {len(gone[0])} that CSE merges next", highlight=gone[0]))
    verbs = {"cse": "merged", "dce": "removed"}
    for i, ((pname, _), g) in enumerate(zip(PIPELINE, after)):
        nxt = gone[i + 1] if i + 1 < len(gone) else folded
        what = "DCE removes next" if i + 1 < len(gone) else "the executor folds (computes once, at compile time)"
        stages.append(_stage(pname, PASS_TITLES.get(pname, f"after {pname}"), g, len(g.nodes),
                             f"{pname.upper()} {verbs.get(pname, 'removed')} {len(gone[i])} nodes; "
                             f"outlined: the {len(nxt)} that {what}", highlight=nxt))
    final = trace(fn, *inputs, name=name)  # what a GRAPH-mode call compiles: optimize() ran
    ex = Executor(final)
    stages.append(_stage("schedule", "schedule", final, len(ex.schedule),
                         f"renumbered; {len(ex.folded)} nodes folded, {len(ex.schedule)} run per call, "
                         + ("each one line of the generated function below" if ex.n_lines == len(ex.schedule) else
                            f"in {ex.n_lines} lines of the generated function below (fused pairs share one)"),
                         code=ex.code))
    return stages


def _pane(stage):
    """The GraphView of one stage: every Cell open, the nodes the next pass changes outlined."""
    graph = stage["graph"]
    return GraphView(graph, phases=stage["phases"], collapse_depth=None,
                     title=f"{graph.name}: {stage['title']}").highlight(stage["highlighted"])


class CompilePipeline(anywidget.AnyWidget):
    """``CompilePipeline(fn, *inputs)``: the graph after each compilation stage, with a stage selector."""

    _esm = FRONTEND / "compile_pipeline.js"
    _css = CSS
    stages = t.List(t.Dict()).tag(sync=True)  # key, title, count, note, code, highlighted: one per stage
    panes = t.List().tag(sync=True, to_json=lambda panes, _owner: [_to_json(p, None) for p in panes])
    index = t.Int(0).tag(sync=True)
    graph_name = t.Unicode("").tag(sync=True)

    def __init__(self, fn, *inputs, stage=1, **kwargs):
        super().__init__(**kwargs)
        if not callable(fn):
            raise TypeError(f"CompilePipeline: expected a Cell or function to compile, got {type(fn).__name__}")
        bad = [type(a).__name__ for a in inputs if not isinstance(a, (Tensor, int, float, bool, tuple, list))]
        if bad:
            raise TypeError(f"CompilePipeline: inputs must be mslab Tensors (or Python constants), got {bad}")
        self.graph_name = getattr(fn, "__name__", None) or type(fn).__name__
        stages = pipeline_stages(fn, *inputs)
        self.panes = [_pane(s) for s in stages]  # the GraphView of each stage's picture, in order
        self.stages = [{k: v for k, v in s.items() if k not in ("graph", "phases")} for s in stages]
        self.show(stage)

    @property
    def counts(self):
        """``{stage key: node count}``, in order."""
        return {s["key"]: s["count"] for s in self.stages}

    def show(self, stage):
        """Select a stage by position or key (``"cse"``), as a click on its button does."""
        keys = [s["key"] for s in self.stages]
        if isinstance(stage, str):
            if stage not in keys:
                raise ValueError(f"CompilePipeline: no stage {stage!r}; the stages are {keys}")
            stage = keys.index(stage)
        if not 0 <= stage < len(keys):
            raise ValueError(f"CompilePipeline: stage {stage} is out of range 0..{len(keys) - 1}")
        self.index = stage
        return self

    def counts_html(self):
        rows = "".join(f"<tr><td>{i + 1}. {escape(s['title'])}</td><td>{s['count']}</td><td>{escape(s['note'])}</td>"
                       f"</tr>" for i, s in enumerate(self.stages))
        return f"<table><tr><th>stage</th><th>nodes</th><th>what happened</th></tr>{rows}</table>"

    def static_html(self):
        """The counts table and the final picture (for nbconvert HTML and notebooks without widget state)."""
        last = self.stages[-1]
        return (f'<div class="mslab-static"><style>{STATIC_CSS}</style>'
                f"<p><b>Compiling {escape(self.graph_name)}</b>: nodes after each stage</p>{self.counts_html()}"
                f"<p>{escape(last['title'])}:</p>{self.panes[-1].drawing.svg(self.panes[-1].highlighted)}</div>")

    def static(self):
        from IPython.display import HTML
        return HTML(self.static_html())

    def __repr__(self):
        counts = ", ".join(f"{k}={v}" for k, v in self.counts.items())
        return f"CompilePipeline({self.graph_name}: {counts})"

    def _repr_mimebundle_(self, **kwargs):
        data, meta = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, meta
