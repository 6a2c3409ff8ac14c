"""StepThrough: one real training step of a TrainOneStepCell, stage by stage, in GRAPH or PYNATIVE mode.

    st = StepThrough(train_net, x, y)          # nothing has run yet; the weights are untouched
    st                                         # Next stage / Previous / Run to end / Next node buttons
    st.next_stage(); st.values["loss"]         # the same, from Python

The stages (forward, sens, backward, grad reduce, optimizer, return; the same in both modes)
are derived from the graph by ``mslab.lab.stepping.TrainStepSession``, which also does the running:
GRAPH mode steps the compiled graph with ``Executor.steps`` (the weights really change when the
optimizer stage runs), PYNATIVE mode walks the tape recorded around one real call. This widget only
shows: the stage's nodes highlighted in the combined graph, a plain-words explanation, and the values
(loss, sens, each weight's gradient, each weight before and after, and the change).

The graph is a GraphView, a child widget (``st.pane``) that this widget drives (``highlight``, values);
widgets/step_through.js draws the controls and the values panel around it.

Control flow on tensors (GRAPH mode): once an If has run, the branch it took is highlighted (its frame
and the nodes inside it) and the values panel says "took then"; a While says how many iterations it ran.
"""
from html import escape

import anywidget
import traitlets as t

from mslab.core import context
from mslab.lab.stages import EMPTY, OPTIMIZER_S, optimizer_text
from mslab.lab.stepping import TrainStepSession
from mslab.lab.widgets import _values
from mslab.lab.widgets._assets import CSS, FRONTEND
from mslab.lab.widgets.graph_view import GraphView

ACTIONS = ("next-stage", "previous", "run-to-end", "next-node", "previous-node", "reset")
PARAM_FIELDS = ("gradient", "before", "after", "delta")  # the columns of the parameters table, in order


class StepThrough(anywidget.AnyWidget):
    """``StepThrough(train_cell, *inputs, mode=None, collapse_depth="auto")``: walk one training step."""

    _esm = FRONTEND / "step_through.js"
    _css = CSS
    pane = anywidget.WidgetTrait().tag(sync=True)  # the GraphView of the step's graph
    stages = t.List(t.Dict()).tag(sync=True)
    stage_index = t.Int(-1).tag(sync=True)
    position = t.Int(0).tag(sync=True)
    total = t.Int(0).tag(sync=True)
    mode = t.Unicode("").tag(sync=True)
    explanation = t.Unicode("").tag(sync=True)
    values = t.Dict().tag(sync=True)

    def __init__(self, train_cell, *inputs, mode=None, collapse_depth="auto", **kwargs):
        session = TrainStepSession(train_cell, *inputs, mode=mode)
        mode = "GRAPH" if session.mode == context.GRAPH_MODE else "PYNATIVE"
        pane = GraphView(session.graph, collapse_depth=collapse_depth, values=session,
                         title=f"{type(train_cell).__name__} ({mode} mode)")
        super().__init__(pane=pane, mode=mode, total=len(session.order), **kwargs)
        self.session = session
        self.on_msg(lambda _widget, content, _buffers=None: self.handle_message(content))
        self._sync()

    # ---- commands --------------------------------------------------------------------------------
    def next_stage(self):
        """Run the next stage (or finish the one node-stepping stopped in)."""
        return self._do(self.session.next_stage)

    def previous(self):
        """Back to the end of the previous stage (weights restored, the step replayed up to there)."""
        return self._do(self.session.previous)

    def run_to_end(self):
        return self._do(self.session.run_to_end)

    def next_node(self):
        return self._do(self.session.next_node)

    def previous_node(self):
        return self._do(self.session.previous_node)

    def reset(self):
        return self._do(self.session.reset)

    def goto_stage(self, index):
        """Jump to the end of stage ``index`` (-1: the start)."""
        index = max(-1, min(int(index), len(self.session.stages) - 1))
        if index < 0:
            return self.reset()
        st = self.session.stages[index]
        return self._do(lambda: self.session.goto(st.stop, cursor=index))

    def _do(self, fn):
        fn()
        self._sync()
        return self

    def handle_message(self, content):
        """Act on one message of the controls: a step button or a stage chip (the pane handles its own)."""
        kind = content.get("type")
        if kind == "step" and content.get("action") in ACTIONS:
            getattr(self, content["action"].replace("-", "_"))()
        elif kind == "goto-stage":
            self.goto_stage(content.get("index", -1))

    # ---- state -----------------------------------------------------------------------------------
    def _sync(self):
        s = self.session
        k = s.stage_index
        self.stages = [{"name": st.name, "nodes": len(st.nodes),
                        "state": "active" if j == k else ("done" if j < k else "todo")}
                       for j, st in enumerate(s.stages)]
        self.stage_index = k
        self.position = s.position
        if k < 0:
            self.explanation = ("Nothing has run yet. Press Next stage to run the forward pass; the weights are "
                                "as they were before the step.")
        else:
            st = s.stages[k]
            extra = optimizer_text(getattr(s.cell, "optimizer", None)) if st.name == OPTIMIZER_S else ""
            self.explanation = " ".join(filter(None, [st.explanation, extra,
                                                      "" if st.nodes else EMPTY.get(st.name, "(no nodes)")]))
        stage_nodes = s.stages[k].nodes if k >= 0 else []
        cur = s.current_node
        self.pane.highlight(stage_nodes + self._branches_run(stage_nodes), [cur] if cur is not None else [])
        self.values = self._values()
        self.pane.refresh_inspector()

    def _branches_run(self, nodes):
        """What to outline for the control-flow nodes among ``nodes`` that ran: the frame of the branch (or loop
        body) that ran and the nodes that ran in it, nested control flow included."""
        runs = self.session.control.runs
        out, todo = [], [n for n in nodes if n in runs]
        while todo:
            run = runs[todo.pop()]
            out += [self.pane.drawing.branch_frame(run.node, run.branch), *run.inner]
            todo += [m for m in run.inner if m in runs]
        return out

    def _control(self):
        """One row per control-flow node that has run: which branch, how many iterations."""
        keys_for = self.pane.drawing.keys_for
        return [{"key": keys_for([n])[0] if keys_for([n]) else n.out.name, "op": n.op,
                 "source": n.source, "branch": r.branch, "iterations": r.iterations, "text": r.summary()}
                for n, r in self.session.control.runs.items()]

    def _values(self):
        s = self.session
        k = s.stage_index
        out = {"mode": self.mode, "position": s.position, "total": len(s.order),
               "stage": s.stages[k].name if k >= 0 else "start",
               "loss": _values.summary(s.loss), "sens": _values.summary(s.sens)}
        cur = s.current_node
        out["node"] = None if cur is None else {
            "name": cur.out.name, "op": cur.op, "scope": cur.scope, "source": cur.source,
            "folded": cur in s.folded, "value": _values.summary(s.value(cur))}
        out["control"] = self._control()
        out["params"] = [{"name": name, **{f: _values.summary(a) for f, a in zip(PARAM_FIELDS, arrays)},
                          "updated": bool((arrays[-1] != 0).any())} for name, arrays in self._param_arrays()]
        shown = s.stages[k].nodes[:60] if k >= 0 else []
        out["stage_nodes"] = [[n.out.name, n.op, _values.text(s.value(n)) if s.has_run(n) else "(not run)"]
                              for n in shown]
        return out

    def _param_arrays(self):
        """``(name, (gradient, before, after, delta))`` per trainable weight, as numpy arrays (gradient may be None)."""
        grads = self.session.gradients
        return [(name, (grads.get(name), *bnd)) for name, bnd in self.session.parameters.items()]

    # ---- display ---------------------------------------------------------------------------------
    def static_html(self):
        """The current state as static HTML: stages, explanation, values table and the highlighted graph."""
        session = self.session
        chips = " | ".join(("<b>" if s["state"] == "active" else "") + escape(s["name"]) +
                           ("</b>" if s["state"] == "active" else "") for s in self.stages)
        rows = "".join(f"<tr><td>{escape(name)}</td>" + "".join(
            f"<td>{escape(_values.text(a, bare_one=True))}</td>" for a in arrays) + "</tr>"
            for name, arrays in self._param_arrays())
        table = ('<table data-mslab-role="values"><tr><th>parameter</th>'
                 + "".join(f"<th>{f}</th>" for f in PARAM_FIELDS) + f"</tr>{rows}</table>")
        head = (f"<p>{chips}</p><p>{escape(self.explanation)}</p>"
                f"<p>loss: {escape(_values.text(session.loss, bare_one=True))}; "
                f"sens: {escape(_values.text(session.sens, bare_one=True))}; "
                f"node {session.position} of {len(session.order)}</p>")
        head += "".join(f'<p data-mslab-control="{escape(c["key"], quote=True)}">{escape(c["op"])} {escape(c["key"])}: '
                        f'{escape(c["text"])}</p>' for c in self._control())
        return (f'<div class="mslab-static">{head}{table}'
                f'{self.pane.static_html()}</div>')

    def static(self):
        from IPython.display import HTML
        return HTML(self.static_html())

    def __repr__(self):
        st = self.values.get("stage", "start")
        return (f"StepThrough({type(self.session.cell).__name__}, mode={self.mode}, stage={st!r}, "
                f"node={self.position}/{self.total})")

    def _repr_mimebundle_(self, **kwargs):
        data, meta = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, meta

