"""LossPlot: live loss (and metric) curves, as a Model.train callback or from a hand-written loop.

    plot = LossPlot()
    display(plot)
    model.train(2, ds, callbacks=[plot])        # a Callback: reads cb_params.net_outputs each step
    # or, in your own loop:
    for step in range(100):
        loss = train_net(x, y)
        plot.update(step, loss=loss)            # any named series: plot.update(step, loss=l, acc=a)
    plot.finish()                               # the final static figure (Model.train does this itself)

The figure is drawn with matplotlib's Agg canvas (no pyplot state, no inline-backend output) into an
Image widget, at most every ``min_interval`` seconds; no clear_output loop. Outside a live kernel the
output shows the text repr and the final figure as a PNG.
"""
import time

import ipywidgets as widgets
import numpy as np

from mslab.core.tensor import Tensor
from mslab.train.callback import Callback

COLORS = ("#1d4ed8", "#dc2626", "#15803d", "#7c3aed", "#b45309", "#0891b2")


def _scalar(x):
    if isinstance(x, (tuple, list)):
        x = x[0]
    if isinstance(x, Tensor):
        x = x.asnumpy()
    return float(np.asarray(x).reshape(-1)[0])


def figure_png(series, title="training", logy=False, size=(5.5, 3.0), dpi=96):
    """PNG bytes of the curves ``{name: (steps, values)}`` (deterministic: no timestamps in the metadata)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=size, dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    for i, (name, (xs, ys)) in enumerate(series.items()):
        ax.plot(xs, ys, color=COLORS[i % len(COLORS)], label=name, linewidth=1.4)
    ax.set_xlabel("step")
    ax.set_title(title, fontsize=10)
    if logy and all(min(ys) > 0 for _, ys in series.values() if ys):
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    if series:
        ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    import io
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


class LossPlot(widgets.VBox, Callback):
    """``LossPlot(title="training", min_interval=0.25, logy=False)``: curves that grow while training runs.

    Redraws wait at least ``min_interval`` seconds and four times as long as the last draw took, so
    on a slow machine the plot costs at most about a fifth of the training time (``min_interval=0``
    draws on every update).
    """

    def __init__(self, title="training", min_interval=0.25, logy=False, **kwargs):
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="560px"))
        self.status = widgets.HTML("<i>waiting for the first step</i>")
        super().__init__(children=[self.image, self.status], **kwargs)
        self.add_class("mslab-loss-plot")
        self.title = title
        self.min_interval = float(min_interval)
        self.logy = logy
        self.series = {}
        self.draws = 0
        self._last_draw = None
        self._draw_cost = 0.0
        self._dirty = False
        self.finished = False

    # ---- data --------------------------------------------------------------------------------
    def update(self, step, **values):
        """Add one point per named value at ``step``; redraw if ``min_interval`` has passed."""
        for name, v in values.items():
            xs, ys = self.series.setdefault(name, ([], []))
            xs.append(int(step) if float(step).is_integer() else float(step))
            ys.append(_scalar(v))
        self._dirty = True
        self.finished = False
        now = time.monotonic()
        # Drawing must not dominate training: wait at least min_interval, and 4x what a draw costs.
        gap = max(self.min_interval, 4 * self._draw_cost) if self.min_interval > 0 else 0.0
        if self._last_draw is None or now - self._last_draw >= gap:
            self.redraw()
        return self

    def redraw(self):
        """Draw the figure now (update() calls this at a bounded rate)."""
        started = time.monotonic()
        self.image.value = figure_png(self.series, self.title, self.logy)
        last = ", ".join(f"{k} = {ys[-1]:.6g}" for k, (_, ys) in self.series.items() if ys)
        steps = max((xs[-1] for xs, _ in self.series.values() if xs), default=0)
        self.status.value = f"step {steps}: {last}" + (" (finished)" if self.finished else "")
        self._last_draw = time.monotonic()
        self._draw_cost = self._last_draw - started
        self._dirty = False
        self.draws += 1

    def finish(self):
        """The final redraw: the figure then holds every point."""
        self.finished = True
        self.redraw()
        return self

    # ---- Callback hooks ----------------------------------------------------------------------
    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("net_outputs") is not None:
            self.update(cb["cur_step_num"], loss=cb["net_outputs"])

    def on_train_end(self, run_context):
        self.finish()

    # ---- display -----------------------------------------------------------------------------
    def png(self):
        return figure_png(self.series, self.title, self.logy)

    def static(self):
        from IPython.display import Image
        return Image(self.png())

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
            data["image/png"] = self.png()
        return data, meta
