"""Loss and metric curves: the one rule for which series is a loss, and the one static picture of them.

``is_loss`` decides the axis of every series (``series_style``: axis and colour), for the matplotlib figure
here and for the live LossPlot widget, which sends each series' style to the browser: the JavaScript
(widgets/loss_plot.js) only draws what it is told.
matplotlib is imported when a figure is made, never when mslab.lab.viz is imported. The Figure is built
without pyplot, so no global state or GUI backend is touched; ``figure_svg`` gives SVG text that
is the same every run (no date, fixed element ids) for notebooks compared by nbval.
"""
COLORS = ("#1d4ed8", "#dc2626", "#15803d", "#7c3aed", "#b45309", "#0891b2")  # series i, in order
LOSS, METRIC = "loss", "metric"  # the two axes: losses left, every other series (accuracy, ...) right


def is_loss(name):
    """Whether series ``name`` is a loss (drawn on the left axis): its name contains "loss"."""
    return "loss" in name.lower()


def axis_of(name):
    """``"loss"`` (left axis, solid line) or ``"metric"`` (right axis, dashed line with dots)."""
    return LOSS if is_loss(name) else METRIC


def series_style(name, index):
    """How series number ``index`` is drawn: ``{"axis": axis_of(name), "color": one of COLORS}``."""
    return {"axis": axis_of(name), "color": COLORS[index % len(COLORS)]}


def _points(curve):
    """``(steps, values)`` of a curve given as values alone (steps 1, 2, ...) or as a pair of lists."""
    if isinstance(curve, tuple) and len(curve) == 2:
        xs, ys = curve
        return list(xs), [float(y) for y in ys]
    ys = [float(y) for y in curve]
    return list(range(1, len(ys) + 1)), ys


def loss_figure(series, title="training", logy=False, size=(6.0, 3.2)):
    """A matplotlib Figure of the curves ``{name: (steps, values)}`` (or ``{name: values}``, steps 1, 2, ...):
    losses on the left axis, metrics on a right axis (``axis_of``); ``logy``: a log-scale loss axis."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=96)
    ax = fig.add_subplot(1, 1, 1)
    ax2 = None
    handles = []
    curves = {name: _points(curve) for name, curve in series.items()}
    for i, (name, (xs, ys)) in enumerate(curves.items()):
        style = series_style(name, i)
        if style["axis"] == LOSS:
            target, line = ax, {}
        else:
            ax2 = ax2 or ax.twinx()
            target, line = ax2, {"linestyle": "--", "marker": "o", "markersize": 3}
        handles += target.plot(xs, ys, color=style["color"], label=name, linewidth=1.4, **line)
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    if ax2 is not None:
        ax2.set_ylabel("metric")
    ax.set_title(title, fontsize=10)
    if logy and all(min(ys) > 0 for name, (_, ys) in curves.items() if ys and is_loss(name)):
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    if handles:
        ax.legend(handles, [h.get_label() for h in handles], loc="upper right", fontsize=8)
    fig.tight_layout()
    return fig


def figure_svg(fig):
    """SVG text of a Figure, identical run to run (no date metadata, fixed ids)."""
    import io

    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "mslab", "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


def figure_png(fig):
    """PNG bytes of a Figure, identical run to run (no software or time in the metadata)."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()
