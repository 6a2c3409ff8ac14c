"""Loss and metric curves as a matplotlib Figure (what the live loss-plot widget draws).

matplotlib is imported when a figure is made, never when mslab.lab.viz is imported. The Figure is built
without pyplot, so no global state or GUI backend is touched; ``figure_svg`` gives SVG text that
is the same every run (no date, fixed element ids) for notebooks compared by nbval.
"""


def loss_figure(losses=None, metrics=None, steps=None, title="training", xlabel="step", figsize=(6.0, 3.2),
                log_y=False):
    """A Figure with the loss curve and, on a second axis, metric curves.

    ``losses``: a list of numbers (or a dict ``{"train": [...], "eval": [...]}`` of curves);
    ``metrics``: a dict ``{"accuracy": [...]}`` drawn against the right-hand axis;
    ``steps``: x positions for the losses (default 1, 2, ...). Each metric list may be shorter
    (e.g. one value per epoch); it is spread evenly over the same x range.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, dpi=100)
    ax = fig.add_subplot(1, 1, 1)
    curves = losses if isinstance(losses, dict) else ({"loss": losses} if losses is not None else {})
    xmax = 1
    for name, ys in curves.items():
        ys = [float(y) for y in ys]
        xs = list(steps) if steps is not None and len(steps) == len(ys) else list(range(1, len(ys) + 1))
        ax.plot(xs, ys, label=name, linewidth=1.4)
        if xs:
            xmax = max(xmax, xs[-1])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("loss")
    if log_y:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if metrics:
        ax2 = ax.twinx()
        for i, (name, ys) in enumerate(metrics.items()):
            ys = [float(y) for y in ys]
            n = len(ys)
            xs = [xmax * (k + 1) / n for k in range(n)] if n else []
            ax2.plot(xs, ys, label=name, linestyle="--", marker="o", markersize=3, color=f"C{i + len(curves)}")
        ax2.set_ylabel("metric")
        h2, l2 = ax2.get_legend_handles_labels()
        handles, labels = handles + h2, labels + l2
    if handles:
        ax.legend(handles, labels, loc="upper right", fontsize=8)
    if title:
        ax.set_title(title)
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
