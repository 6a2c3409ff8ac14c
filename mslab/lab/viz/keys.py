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
reads key kinds in one place as well (``keyKind`` in widgets/graph_view.js).

A control-flow node (If, While, WhileGrad) is drawn as a frame holding its subgraphs, and each subgraph
is a picture of its own inside it: its keys are the keys above behind a *subgraph prefix*, the control
node's key and the subgraph's label in brackets. ``%2[then]%0`` is op ``%0`` of the then-branch of If
``%2``; ``%2[then]input:x`` that branch's input ``x``; ``%4[body]%1[else]%0`` nests. Frames: ``%2[If]``
around the whole node, ``%2[then]`` around one subgraph (a frame key that ends in ``]``). An empty
subgraph shows a note, ``%2[else]note``.
"""
import re

NODE, BOX, HIDDEN, INPUT, PARAM, CONST, OUTPUT = "node", "box", "hidden", "input", "param", "const", "output"
_PREFIXED = (BOX, HIDDEN, INPUT, PARAM, CONST, OUTPUT)  # kinds written "<kind>:<payload>"

GRAD = "\u2207"  # the nabla sign of a gradient frame: "∇fc1" is the gradient of Cell call "fc1"
BACKWARD_FRAME = "backward"  # the frame autodiff's nodes sit in
_UPDATE = "/update:"
_CLUSTER = "cluster_"  # Graphviz draws a subgraph as a frame only when its name starts with this
_SUB = re.compile(r"^((?:%\d+\[[^\]]+\])+)(.*)$")  # "%2[then]%4[body]" + the inner key


# ---- node keys -----------------------------------------------------------------------------------
def node_key(name):
    """The key of one op: its output's IR name (``%7``)."""
    return name


def box_key(frame):
    """The key of a collapsed Cell call: ``box:`` + the frame key it stands for (after a subgraph prefix:
    ``%2[then]box:opt``)."""
    prefix, frame = split_sub(frame)
    return f"{prefix}{BOX}:{frame}"


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
    """The backward frame mirroring forward frame ``frame`` (``∇fc1``; ``%2[then]∇fc1`` inside a subgraph)."""
    prefix, frame = split_sub(frame)
    return prefix + GRAD + frame


def update_frame(base, param):
    """The frame (or box) of the optimizer update of ``param`` inside frame ``base``."""
    return f"{base}{_UPDATE}{param}"


def frame_of(key):
    """The frame a key stands for: ``box:fc1`` -> ``fc1``, ``%2[then]box:opt`` -> ``%2[then]opt`` (a frame key
    is returned as it is)."""
    prefix, inner = split_sub(key)
    kind, payload = parse(inner)
    return prefix + payload if kind == BOX else key


def cell_frame(key):
    """The forward Cell-call or update frame a box or frame key opens and folds (``box:∇fc1`` -> ``fc1``);
    None for autodiff's ``backward`` frame and for control-flow frames, which are no Cell calls."""
    prefix, key = split_sub(frame_of(key))
    if key.startswith(GRAD):  # a gradient frame opens and folds with its forward Cell call
        key = key[len(GRAD):]
    return prefix + key if key and key != BACKWARD_FRAME else None


def cluster_id(frame):
    """The DOT subgraph name of a frame (what the SVG's cluster ``<title>`` says)."""
    return _CLUSTER + frame


def frame_of_cluster(title):
    """The frame key back from a DOT subgraph name (``cluster_fc1`` -> ``fc1``)."""
    return title[len(_CLUSTER):] if title.startswith(_CLUSTER) else title


# ---- subgraphs of control-flow nodes -------------------------------------------------------------
def sub_prefix(node_key, label):
    """The prefix of every key inside subgraph ``label`` of control node ``node_key``: ``%2[then]``
    (also the key of that subgraph's frame)."""
    return f"{node_key}[{label}]"


def control_frame(node_key, op):
    """The frame around a whole control-flow node and its subgraphs: ``%2[If]``."""
    return f"{node_key}[{op}]"


def split_sub(key):
    """``(subgraph prefix, inner key)``: ``"%2[then]%0"`` -> ``("%2[then]", "%0")``; ``("", key)`` outside subgraphs."""
    m = _SUB.match(key)
    return (m.group(1), m.group(2)) if m else ("", key)
