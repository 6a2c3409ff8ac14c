"""LossPlot: live loss (and metric) curves, as a Model.train callback or from a hand-written loop.

    plot = LossPlot()
    display(plot)
    model.train(2, ds, callbacks=[plot])        # a Callback: reads cb_params.net_outputs each step
    # or, in your own loop:
    for step in range(100):
        loss = train_net(x, y)
        plot.update(step, loss=loss)            # any named series: plot.update(step, loss=l, acc=a)
    plot.finish()                               # the final static figure (Model.train does this itself)

The browser draws the curves (widgets/loss_plot.js, on a canvas): Python only streams the new points, at
most every ``min_interval`` seconds (20 times a second by default), as small custom messages, so a step
costs a list append and, now and then, one message. Which axis and colour a series gets is decided here,
by ``mslab.lab.viz.loss_curve.series_style`` (a name containing "loss": the left axis; accuracy, an eval metric
per epoch: the right one), and sent in the ``styles`` trait: the browser draws what it is told. ``finish()``
stores every point in the widget's state and replaces the output's static form by the final curve as SVG
(drawn by matplotlib after the cell has run, by the same ``loss_figure`` as ``mslab.lab.viz``), which is what
nbconvert HTML and a notebook saved without widget state show.
"""
import time
import uuid

import anywidget
import numpy as np
import traitlets as t

from mslab.core.tensor import Tensor
from mslab.lab.viz.loss_curve import figure_png, figure_svg, loss_figure, series_style
from mslab.lab.widgets._assets import CSS, FRONTEND
from mslab.train.callback import Callback


def _scalar(x):
    if isinstance(x, (tuple, list)):
        x = x[0]
    if isinstance(x, Tensor):
        x = x.asnumpy()
    return float(np.asarray(x).reshape(-1)[0])


class LossPlot(anywidget.AnyWidget, Callback):
    """``LossPlot(title="training", min_interval=0.05, logy=False)``: curves that grow while training runs.

    ``min_interval``: the least time between two batches of points sent to the browser (0: every update).
    The browser redraws once per batch that arrives (at most once per animation frame).
    """

    _esm = FRONTEND / "loss_plot.js"
    _css = CSS
    title = t.Unicode("training").tag(sync=True)
    logy = t.Bool(False).tag(sync=True)
    data = t.Dict().tag(sync=True)  # {name: [steps, values]}: every point, stored at finish() (and on request)
    styles = t.Dict().tag(sync=True)  # {name: {axis: "loss" | "metric", color}}: loss_curve.series_style
    finished = t.Bool(False).tag(sync=True)
    uid = t.Unicode("").tag(sync=True)  # the front-end keeps the streamed points per uid (set before the model opens)

    def __init__(self, title="training", min_interval=0.05, logy=False, **kwargs):
        # uid is in the state the front-end gets with the model, before initialize runs
        super().__init__(title=title, logy=logy, uid=uuid.uuid4().hex, **kwargs)
        self.min_interval = float(min_interval)
        self.series = {}
        self.sends = 0  # batches of points streamed to the browser
        self._pending = {}
        self._last_send = None
        self._display_ids = []
        self._static_pending = False
        self.on_msg(self._on_msg)

    # ---- data --------------------------------------------------------------------------------
    def update(self, step, **values):
        """Add one point per named value at ``step``; stream the new points if ``min_interval`` has passed."""
        x = int(step) if float(step).is_integer() else float(step)
        new = [name for name in values if name not in self.series]
        if new:  # a new series' style reaches the browser before its first points
            self.styles = {**self.styles, **{name: series_style(name, len(self.series) + i)
                                             for i, name in enumerate(new)}}
        for name, v in values.items():
            y = _scalar(v)
            for store in (self.series, self._pending):
                xs, ys = store.setdefault(name, ([], []))
                xs.append(x)
                ys.append(y)
        self.finished = False
        now = time.monotonic()
        if self._last_send is None or now - self._last_send >= self.min_interval:
            self.flush(now)
        return self

    def flush(self, now=None):
        """Send the points not yet sent (update() calls this at a bounded rate)."""
        if self._pending:
            self.send({"type": "points", "series": {k: [xs, ys] for k, (xs, ys) in self._pending.items()}})
            self._pending = {}
            self.sends += 1
        self._last_send = time.monotonic() if now is None else now

    def finish(self):
        """Send the last points, store every point in the widget state and show the final static curve."""
        self.flush()
        self.data = {k: [list(xs), list(ys)] for k, (xs, ys) in self.series.items()}
        self.finished = True
        if self._display_ids:
            # Drawing the static SVG takes matplotlib ~0.2 s: in a kernel it waits until the cell has
            # run, so the training loop (and whatever follows in the cell) is not charged for it.
            from IPython import get_ipython
            ip = get_ipython()
            if ip is None or not hasattr(ip, "events"):
                self._update_static()
            elif not self._static_pending:
                self._static_pending = True
                ip.events.register("post_execute", self._update_static_once)
        return self

    def _update_static_once(self):
        from IPython import get_ipython
        get_ipython().events.unregister("post_execute", self._update_static_once)
        self._static_pending = False
        self._update_static()

    def _update_static(self):
        """Replace every output showing this plot by its current bundle (the final curve as SVG)."""
        from IPython.display import update_display
        data, meta = self._repr_mimebundle_()
        for display_id in self._display_ids:
            update_display(data, raw=True, metadata=meta, display_id=display_id)

    def _on_msg(self, _widget, content, _buffers=None):
        if content.get("type") == "hello":  # a view opened after points were streamed: send them all
            self.data = {k: [list(xs), list(ys)] for k, (xs, ys) in self.series.items()}

    # ---- Callback hooks ----------------------------------------------------------------------
    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("net_outputs") is not None:
            self.update(cb["cur_step_num"], loss=cb["net_outputs"])

    def on_train_end(self, run_context):
        self.finish()

    # ---- display -----------------------------------------------------------------------------
    def png(self):
        return figure_png(loss_figure(self.series, self.title, self.logy))

    def svg(self):
        """The curves as SVG text, the same every run (what the static output shows)."""
        return figure_svg(loss_figure(self.series, self.title, self.logy))

    def static(self):
        from IPython.display import SVG
        return SVG(self.svg())

    def __repr__(self):
        names = list(self.series)
        points = max((len(xs) for xs, _ in self.series.values()), default=0)
        last = max((xs[-1] for xs, _ in self.series.values() if xs), default=None)
        return f"LossPlot(series={names}, points={points}, last_step={last})"

    def _repr_mimebundle_(self, **kwargs):
        out = super()._repr_mimebundle_(**kwargs)
        data, meta = out if isinstance(out, tuple) else (out, {})
        data = dict(data or {})
        data["text/plain"] = repr(self)
        if self.series:
            data["image/svg+xml"] = self.svg()
        return data, meta

    def _ipython_display_(self):
        """Display with an id, so that finish() can replace the static form by the final curve."""
        from IPython.display import display
        data, meta = self._repr_mimebundle_()
        handle = display(data, raw=True, metadata=meta, display_id=True)
        if handle is not None:
            self._display_ids.append(handle.display_id)
