"""Graph, Node and Value: the recorded form of a computation.

A ``Graph`` has input values, parameter values, constant values, nodes in the order they ran
(which is a topological order, and the order side effects happen in) and output values.
A ``Node`` is one primitive applied to values; it knows its Cell scope, the source line that
created it and its phase (forward, backward, optimizer). The GRAPH-mode tracer builds graphs from
``construct``; the PYNATIVE tape builds the same structure while running eagerly.
"""
from mslab.core import dtype as mstype

FORWARD, BACKWARD, OPTIMIZER, OTHER = "forward", "backward", "optimizer", "other"


class Value:
    """One tensor in a graph: a graph input, a Parameter, a constant, or a node's output.

    ``handle`` is the Tensor that stands for it while recording (symbolic while tracing, concrete on
    the tape, the Parameter itself for parameters); autodiff calls bprop rules with handles.
    """

    __slots__ = ("kind", "name", "shape", "dtype", "node", "handle", "array", "__weakref__")

    def __init__(self, kind, name, shape, dtype, node=None, handle=None, array=None):
        self.kind = kind  # "input" | "param" | "const" | "node"
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype  # numpy dtype
        self.node = node
        self.handle = handle
        self.array = array  # constants only

    @property
    def type_str(self):
        """``f32[16, 1]``-style type, the short form the IR text uses."""
        t = mstype.from_numpy(self.dtype).name
        short = {"Float": "f", "Int": "i", "UInt": "u", "Bool": "bool"}
        for k, v in short.items():
            if t.startswith(k):
                t = v + t[len(k):]
                break
        return f"{t}[{', '.join(str(s) for s in self.shape)}]"

    def __repr__(self):
        return f"<Value {self.name} {self.type_str}>"


class Node:
    """One primitive applied to values, with what a learner needs to find it again.

    ``inputs`` holds Values (tensor inputs) and plain Python constants (attributes given at call time,
    such as a reduction axis) in call order.
    """

    __slots__ = ("prim", "inputs", "out", "scope", "source", "phase", "grad_of", "stage", "index")

    def __init__(self, prim, inputs, scope="", source="", phase=FORWARD, grad_of=None, stage=None):
        self.prim = prim
        self.inputs = list(inputs)
        self.out = None
        self.scope = scope
        self.source = source
        self.phase = phase
        self.grad_of = grad_of
        self.stage = stage
        self.index = -1

    @property
    def name(self):
        return self.out.name

    @property
    def op(self):
        return self.prim.name

    def tensor_inputs(self):
        return [v for v in self.inputs if isinstance(v, Value)]

    def __repr__(self):
        return f"<Node {self.out.name} = {self.prim.name}>"


class Graph:
    """A recorded computation: inputs, parameters, constants, nodes (in run order) and outputs.

    ``print(graph)`` shows the IR text, one line per node (see ``mslab.ir.printer``).
    """

    def __init__(self, name="graph"):
        self.name = name
        self.inputs = []
        self.params = []
        self.consts = []
        self.nodes = []
        self.outputs = []
        self.output_tree = None  # how to rebuild construct's return structure from the outputs
        self._param_values = {}
        self._const_values = {}
        self._const_keepalive = []

    # ---- building ---------------------------------------------------------------------------
    def add_input(self, name, shape, dtype, handle=None):
        v = Value("input", name, shape, dtype, handle=handle)
        self.inputs.append(v)
        return v

    def param_value(self, param):
        """The value standing for a Parameter (one per Parameter, read when the graph runs)."""
        v = self._param_values.get(id(param))
        if v is None:
            v = Value("param", param.name, param.shape, param._data.dtype, handle=param)
            self._param_values[id(param)] = v
            self.params.append(v)
        return v

    def const_value(self, tensor):
        """The value standing for a constant Tensor captured by the graph."""
        arr = tensor._data
        # Small constants (lifted Python numbers) are shared by value, so repeated code merges under CSE.
        key = (arr.dtype.str, arr.shape, arr.tobytes()) if arr.size <= 16 else id(tensor)
        v = self._const_values.get(key)
        if v is None:
            v = Value("const", f"const{len(self.consts)}", arr.shape, arr.dtype, handle=tensor, array=arr)
            self._const_values[key] = v
            self._const_keepalive.append(tensor)  # ids of large constants must stay unique while tracing
            self.consts.append(v)
        return v

    def add_node(self, node, shape, dtype, handle=None):
        node.index = len(self.nodes)
        node.out = Value("node", f"%{node.index}", shape, dtype, node=node, handle=handle)
        self.nodes.append(node)
        return node.out

    def renumber(self):
        """Give nodes consecutive names %0, %1, ... after passes removed some (names stay stable)."""
        for i, n in enumerate(self.nodes):
            n.index = i
            n.out.name = f"%{i}"

    # ---- reading ----------------------------------------------------------------------------
    def nodes_in_phase(self, phase):
        return [n for n in self.nodes if n.phase == phase]

    @property
    def forward_nodes(self):
        return self.nodes_in_phase(FORWARD)

    @property
    def backward_nodes(self):
        return self.nodes_in_phase(BACKWARD)

    @property
    def optimizer_nodes(self):
        return self.nodes_in_phase(OPTIMIZER)

    def users(self):
        """Map each value to the nodes that read it."""
        out = {}
        for n in self.nodes:
            for v in n.inputs:
                if isinstance(v, Value):
                    out.setdefault(v, []).append(n)
        return out

    def text(self, phase=None):
        """The IR text; ``phase='backward'`` keeps only that phase's nodes."""
        from mslab.ir.printer import graph_text
        return graph_text(self, phase)

    def __str__(self):
        return self.text()

    def __repr__(self):
        counts = {}
        for n in self.nodes:
            counts[n.phase] = counts.get(n.phase, 0) + 1
        parts = ", ".join(f"{k} {v}" for k, v in counts.items())
        return (f"<Graph {self.name}: {len(self.inputs)} inputs, {len(self.params)} parameters, "
                f"{len(self.nodes)} nodes ({parts})>")
