"""View keys: the one place that makes and reads the names of a picture's boxes and frames.

Every node of a picture (a ``ViewNode``) has a key, and the same key travels everywhere: it is the
DOT node name, the SVG group's ``id`` and ``data-mslab-node``, what the widgets highlight and what a
click sends back. Keys are built from IR names, never from ids or addresses, so one network always
gives the same keys. The kinds of node key:

    ==========  ==================================  ============================================
    kind        key                                 what the box shows
    ==========  ==================================  ============================================
    ``node``    ``%7``                              one op (its output's IR name)
    ``box``     ``box:network/_backbone/fc1``       a collapsed Cell call (``box:`` + a frame key)
    ``hidden``  ``hidden:%3``                       a stub for a value whose node a phase filter hides
    ``input``   ``input:x``                         a graph input
    ``param``   ``param:fc1.weight``                a Parameter
    ``const``   ``const:const0``                    a constant
    ``output``  ``output:0``                        the graph's i-th output
    ==========  ==================================  ============================================

Frames (Cell-call clusters) have keys too: a Cell scope (``network/fc1``), with ``#2`` for its second
call when it is called several times; ``backward`` for autodiff's frame; ``∇`` + a forward frame for
the gradient of that Cell call; ``<frame>/update:<param>`` for one optimizer update. The front-end
reads key kinds in one place as well (``mslabKeyKind`` in widgets/graph_core.js).
"""
NODE, BOX, HIDDEN, INPUT, PARAM, CONST, OUTPUT = "node", "box", "hidden", "input", "param", "const", "output"
_PREFIXED = (BOX, HIDDEN, INPUT, PARAM, CONST, OUTPUT)  # kinds written "<kind>:<payload>"

GRAD = "\u2207"  # the nabla sign of a gradient frame: "∇fc1" is the gradient of Cell call "fc1"
BACKWARD_FRAME = "backward"  # the frame autodiff's nodes sit in
_UPDATE = "/update:"
_CLUSTER = "cluster_"  # Graphviz draws a subgraph as a frame only when its name starts with this


# ---- node keys -----------------------------------------------------------------------------------
def node_key(name):
    """The key of one op: its output's IR name (``%7``)."""
    return name


def box_key(frame):
    """The key of a collapsed Cell call: ``box:`` + the frame key it stands for."""
    return f"{BOX}:{frame}"


def hidden_key(name):
    """The key of the faded stub shown for node ``name`` when a phase filter hides it."""
    return f"{HIDDEN}:{name}"


def value_key(v):
    """The key of a graph Value: its node's IR name, or ``input:x`` / ``param:fc1.weight`` / ``const:const0``."""
    return node_key(v.name) if v.kind == "node" else f"{v.kind}:{v.name}"


def output_key(i):
    """The key of the graph's ``i``-th output oval."""
    return f"{OUTPUT}:{i}"


def parse(key):
    """``(kind, payload)`` of a node key: ``"box:fc1"`` -> ``("box", "fc1")``, ``"output:0"`` -> ``("output", 0)``,
    ``"%7"`` -> ``("node", "%7")``."""
    kind, sep, rest = key.partition(":")
    if not sep or kind not in _PREFIXED:
        return NODE, key
    return kind, int(rest) if kind == OUTPUT else rest


# ---- frame keys ----------------------------------------------------------------------------------
def scope_frame(scope, call=None):
    """The frame of one call of Cell scope ``scope`` (``call`` numbers it when the Cell runs several times)."""
    return scope if call is None else f"{scope}#{call}"


def grad_frame(frame):
    """The backward frame mirroring forward frame ``frame`` (``∇fc1``)."""
    return GRAD + frame


def update_frame(base, param):
    """The frame (or box) of the optimizer update of ``param`` inside frame ``base``."""
    return f"{base}{_UPDATE}{param}"


def frame_of(key):
    """The frame a key stands for: ``box:fc1`` -> ``fc1`` (a frame key is returned as it is)."""
    kind, payload = parse(key)
    return payload if kind == BOX else key


def cell_frame(key):
    """The forward Cell-call or update frame a box or frame key opens and folds (``box:∇fc1`` -> ``fc1``);
    None for autodiff's ``backward`` frame, which is no Cell call."""
    key = frame_of(key)
    if key.startswith(GRAD):  # a gradient frame opens and folds with its forward Cell call
        key = key[len(GRAD):]
    return key if key and key != BACKWARD_FRAME else None


def cluster_id(frame):
    """The DOT subgraph name of a frame (what the SVG's cluster ``<title>`` says)."""
    return _CLUSTER + frame


def frame_of_cluster(title):
    """The frame key back from a DOT subgraph name (``cluster_fc1`` -> ``fc1``)."""
    return title[len(_CLUSTER):] if title.startswith(_CLUSTER) else title
