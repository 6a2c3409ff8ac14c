"""Evaluate a graph node by node: the shortest possible interpreter (a loop over an environment, as in JAX).

The executor (``mslab.runtime``) compiles graphs into fast straight-line code; this is what a
control-flow primitive falls back on when it is run without the executor (eagerly), and it reads as
the definition of what a graph means: inputs, parameters and constants in the environment, then each
node's ``compute`` on the values it reads, in recorded order.
"""
from mslab.ir.node import Value


def run_graph(graph, arrays):
    """The output arrays of ``graph`` for input ``arrays`` (Parameters are read as they are now)."""
    env = dict(zip(graph.inputs, arrays))
    for v in graph.params:
        env[v] = v.handle._data
    for v in graph.consts:
        env[v] = v.array
    for n in graph.nodes:
        env[n.out] = n.prim.compute(*[env[v] if type(v) is Value else v for v in n.inputs])
    return [env[v] for v in graph.outputs]
