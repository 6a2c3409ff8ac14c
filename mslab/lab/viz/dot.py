"""View model -> DOT text, the language of Graphviz.

All colours and shapes live in ``STYLES`` (one row per kind of node) and ``CLUSTER_STYLES``; the
text is built in the View's order with keys made of IR names, so the same View always gives the
same DOT, character for character.
"""
from html import escape

from mslab.lab.viz import keys

# kind -> (shape, fill, border, font colour, extra style)
STYLES = {
    "input": ("ellipse", "#dbeafe", "#1d4ed8", "#1e3a8a", ""),
    "parameter": ("box", "#fef3c7", "#b45309", "#78350f", "rounded"),
    "constant": ("box", "#f3f4f6", "#9ca3af", "#4b5563", "rounded"),
    "forward": ("box", "#dcfce7", "#15803d", "#14532d", ""),
    "backward": ("box", "#fee2e2", "#b91c1c", "#7f1d1d", ""),
    "optimizer": ("box", "#ede9fe", "#6d28d9", "#4c1d95", ""),
    "host": ("box", "#ffedd5", "#c2410c", "#7c2d12", "diagonals"),  # JIT Fallback: the graph leaves the device
    "other": ("box", "#f3f4f6", "#6b7280", "#374151", ""),
    "output": ("ellipse", "#e0f2fe", "#0369a1", "#0c4a6e", "bold"),
    "hidden": ("box", "#ffffff", "#9ca3af", "#6b7280", "dashed"),
    "note": ("plaintext", "#ffffff", "#ffffff", "#9ca3af", ""),  # "nothing runs" in an empty branch
}
LEGEND = [("input", "input"), ("parameter", "parameter"), ("constant", "constant"), ("forward", "forward"),
          ("backward", "backward"), ("optimizer", "optimizer"), ("host", "host (JIT Fallback)"),
          ("hidden", "not shown"), ("output", "output")]
# cluster kind -> (fill, border, label colour)
CLUSTER_STYLES = {
    "scope": ("#f8fafc", "#94a3b8", "#334155"),
    "backward": ("#fff7f7", "#fca5a5", "#991b1b"),
    "optimizer": ("#faf7ff", "#c4b5fd", "#5b21b6"),
    "control": ("#fffbeb", "#d97706", "#92400e"),  # an If / While node around its subgraphs
    "branch": ("#ffffff", "#f59e0b", "#b45309"),  # one subgraph: then / else, cond / body
}
EDGE_STYLES = {
    "data": 'color="#64748b", fontcolor="#475569"',
    "assign": 'color="#7c3aed", fontcolor="#6d28d9", style=dashed, constraint=false',
    "grad_of": 'color="#ef4444", style=dotted, arrowhead=empty, constraint=false',
    "control": 'color="#94a3b8", style=dotted, arrowhead=odot',
    "saved": 'color="#cbd5e1", fontcolor="#94a3b8"',
    "backward": 'color="#b91c1c", fontcolor="#991b1b", dir=back',
    "branch": 'color="#d97706", fontcolor="#b45309", style=bold, fontsize=8',
    "loop": 'color="#d97706", fontcolor="#b45309", style=dashed, constraint=false',
}
FONT = "Helvetica"


def quote(s):
    """A DOT double-quoted string."""
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _html_label(title, lines, bold=True):
    head = f"<b>{escape(title)}</b>" if bold else escape(title)
    rest = "".join(f'<br/><font point-size="8">{escape(x)}</font>' for x in lines)
    return f"<{head}{rest}>"


def _node_line(vn, indent):
    shape, fill, border, font, extra = STYLES.get(vn.kind, STYLES["other"])
    style = ["filled"] + ([extra] if extra else [])
    if vn.communication:  # messages between ranks: the phase's colours, a shape of their own
        shape, style = "octagon", style + ["bold"]
    attrs = [f"label={_html_label(vn.title, vn.lines, vn.kind not in ('constant', 'hidden', 'note'))}",
             f"shape={'box3d' if vn.collapsed else shape}", f'style="{",".join(style)}"',
             f'fillcolor="{fill}"', f'color="{border}"', f'fontcolor="{font}"',
             f"tooltip={quote(vn.tooltip or vn.title)}",
             # Graphviz renames nodes called "%N" (its own anonymous ids) in the SVG; an explicit id keeps the key.
             f"id={quote(vn.key)}"]
    if vn.collapsed:
        attrs.append("penwidth=1.5")
    return f"{indent}{quote(vn.key)} [{', '.join(attrs)}];"


def _legend(view):
    kinds = {vn.kind for vn in view.nodes}
    cells = []
    for kind, text in LEGEND:
        if kind in kinds:
            _, fill, border, font, _ = STYLES[kind]
            cells.append(f'<td bgcolor="{fill}" color="{border}" border="1"><font color="{font}">{text}</font></td>')
    if any(vn.collapsed for vn in view.nodes):
        cells.append('<td border="1" color="#64748b">3D box = a collapsed Cell call</td>')
    title = f"<td><b>{escape(view.name)}</b></td>"
    return f'<<table border="0" cellspacing="4" cellpadding="3"><tr>{title}{"".join(cells)}</tr></table>>'


def view_to_dot(view, rankdir="TB", legend=True):
    """DOT text for a View (see ``mslab.lab.viz.walk``)."""
    out = [f"digraph {quote(view.name)} {{"]
    graph_attrs = [f"rankdir={rankdir}", f'fontname="{FONT}"', "fontsize=10", "nodesep=0.22", "ranksep=0.32",
                   "newrank=true", 'bgcolor="white"'] + (["compound=true"] if any(e.lhead for e in view.edges) else [])
    if legend:
        graph_attrs += [f"label={_legend(view)}", "labelloc=b", "labeljust=l"]
    out.append(f"  graph [{', '.join(graph_attrs)}];")
    out.append(f'  node [fontname="{FONT}", fontsize=10, margin="0.10,0.04", height=0.3, penwidth=1];')
    out.append(f'  edge [fontname="{FONT}", fontsize=7, arrowsize=0.6, penwidth=0.9];')

    children = {}
    for c in view.clusters:
        children.setdefault(c.parent, []).append(c)
    members = {}
    for vn in view.nodes:
        members.setdefault(vn.cluster, []).append(vn)

    def emit(cluster_key, indent):
        for vn in members.get(cluster_key, []):
            out.append(_node_line(vn, indent))
        for c in children.get(cluster_key, []):
            fill, border, font = CLUSTER_STYLES.get(c.kind, CLUSTER_STYLES["scope"])
            style = "rounded,filled" + (",dashed" if c.kind == "branch" else "")
            top = " labelloc=t;" if c.kind in ("control", "branch") else ""  # read before the subgraph's nodes
            out.append(f"{indent}subgraph {quote(keys.cluster_id(c.key))} {{")
            out.append(f'{indent}  label={_html_label(c.label, [], True)}; tooltip={quote(c.tooltip or c.label)};')
            out.append(f'{indent}  style="{style}"; fillcolor="{fill}"; color="{border}"; '
                       f'fontcolor="{font}"; fontsize=9; labeljust=l; margin=6;{top}')
            emit(c.key, indent + "  ")
            out.append(f"{indent}}}")

    emit(None, "  ")
    kind_of = {vn.key: vn.kind for vn in view.nodes}
    for e in view.edges:
        src, dst, kind = e.src, e.dst, e.kind
        if kind == "data" and kind_of.get(dst) == "backward":
            if kind_of.get(src) == "backward":
                # Laid out against the arrow: the backward chain climbs back up beside the forward
                # chain (the textbook U of backprop); drawn with the arrowhead where the data goes.
                src, dst, kind = dst, src, "backward"
            elif kind_of.get(src) in ("forward", "hidden"):
                kind = "saved"  # a forward activation the backward pass reads
        attrs = [EDGE_STYLES[kind]]
        if e.label:
            attrs.insert(0, f"label={quote(e.label)}")
        if e.lhead:
            attrs.append(f"lhead={quote(keys.cluster_id(e.lhead))}")
        out.append(f"  {quote(src)} -> {quote(dst)} [{', '.join(attrs)}];")
    if view.lanes:
        # Invisible anchors in one row keep the phase columns in reading order: forward | backward | optimizer.
        anchors = [f"lane{i}" for i in range(len(view.lanes))]
        out.append("  {rank=same; " + " ".join(f'"{a}" [style=invis, label="", width=0, height=0];' for a in anchors)
                   + "}")
        out.append("  " + " -> ".join(f'"{a}"' for a in anchors) + " [style=invis];")
        for a, k in zip(anchors, view.lanes):
            out.append(f'  "{a}" -> {quote(k)} [style=invis];')
    out.append("}")
    return "\n".join(out) + "\n"
