"""``mindspore.export(net, *inputs, file_format="MINDIR")``: mslab's traced graph written as a MindIR file that
MindSpore's ``load`` + ``nn.GraphCell`` runs.

The file mirrors what MindSpore 2.10 writes for the same network (compared field by field with its exports):

* the main ``graph``: ``input`` (``<graph>:x`` with shape and dtype), ``parameter`` (``<graph>:fc1.weight``, the
  weights' bytes, ``ref_key`` the Parameter's name), ``node`` in run order, ``output``;
* a ``Constant`` node for every value a node needs that is not a tensor flowing in: a constant tensor (also one an
  op makes from constants only, such as ``ops.zeros((2, 3))``: made now, as MindSpore folds it), or a setting such
  as MatMul's ``transpose_b`` (shared by value, as MindSpore's ``ValueNode_*``);
* every other node applies ``REF::<op>:<k>``, an entry of the model's ``primitives`` table. MindSpore 2.10 writes
  most ops as ``PRIMITIVE_FUNCTION`` (settings are the last inputs of the node, in the order of its functional
  signature: ``MatMul(x, w, transpose_a, transpose_b)``) and a few as ``PRIMITIVE`` (settings are attributes of
  the table entry: Conv2D, MaxPool). ``_FUNCTIONS`` and ``_PRIMITIVES`` below say which, op by op;
* the model's ``model_version`` ("2.10.0": the MindSpore version whose format the file follows) and
  ``mind_ir_version`` (3), without which MindSpore 2.10 refuses the file or misreads its PRIMITIVE_FUNCTION nodes
  (observed); ``producer_name`` says who wrote it: mslab;
* each node's ``shape`` attribute (its output's dims and dtype), which MindSpore's loader reads;
* a tuple (Concat's inputs, a network's tuple result, tuples nested) made by ``MakeTuple`` nodes;
* ``domain``, MindSpore's scope text (``Default/fc1-Dense/MatMul-op0``): where in the network the node came from.

MindSpore also writes side-effect bookkeeping (a ``Load`` per weight read, ``UpdateState``, ``Depend``); its
loader runs a file without it (checked on MindSpore 2.10 CPU), so mslab leaves it out. An op the writer has no
MindIR form for is an error naming the op, its Cell and source line, raised before any file is written.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Tensor
from mslab.ir.graph import Graph, Node, Value, ValueKind
from mslab.nn.layer.basic import Flatten
from mslab.train.mindir import schema

__all__ = ["MindIRWriteError", "function_settings", "is_training", "model_of", "type_ids",
           "writable_ops"]

_T = schema.AttributeType
_DATA_TYPE = {np.dtype(np.float32): 1, np.dtype(np.uint8): 2, np.dtype(np.int8): 3, np.dtype(np.uint16): 4,
              np.dtype(np.int16): 5, np.dtype(np.int32): 6, np.dtype(np.int64): 7, np.dtype(np.bool_): 9,
              np.dtype(np.float16): 10, np.dtype(np.float64): 11, np.dtype(np.uint32): 12, np.dtype(np.uint64): 13}
_FORMAT_VERSION = "2.10.0"  # the MindSpore release whose MindIR files this writer mirrors (its model_version)
_FORMAT = {"NCHW": 0, "NHWC": 1}  # MindSpore's Format enum, as a PRIMITIVE_FUNCTION's data_format input
_PAD_MODE = {"PAD": 0, "SAME": 1, "VALID": 2}  # MindSpore's PadMode enum (AvgPool's pad_mode input)


class MindIRWriteError(NotImplementedError):
    """A network mslab cannot write as MindIR (an op without a MindIR form here, a training graph, ...); nothing
    was written."""


# ---- how each op is written --------------------------------------------------------------------------------------
# A setting: (name of the mslab primitive's attribute, how MindSpore 2.10 writes it as a Constant input).
def _tuple(v: Any) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


_FUNCTIONS: dict[str, tuple[str, list[tuple[str, Callable]]]] = {
    # mslab op: (MindSpore's instance_name, settings after the node's own inputs), as MindSpore 2.10 writes them
    "MatMul": ("matmul", [("transpose_a", bool), ("transpose_b", bool)]),
    "BatchMatMul": ("", [("transpose_a", bool), ("transpose_b", bool)]),
    "BiasAdd": ("bias_add", [("data_format", _FORMAT.__getitem__)]),
    "ReLU": ("relu", []), "Sigmoid": ("sigmoid", []), "Tanh": ("tanh", []),
    "Softmax": ("softmax", [("axis", _tuple)]),
    "AvgPool": ("avg_pool", [("kernel_size", tuple), ("strides", tuple), ("pad_mode", lambda m: _PAD_MODE[m.upper()]),
                             ("data_format", _FORMAT.__getitem__)]),
    "ReduceMean": ("", [("keep_dims", bool)]), "ReduceSum": ("", [("keep_dims", bool), ("skip_mode", bool)]),
    "ReduceMax": ("", [("keep_dims", bool)]), "ReduceMin": ("", [("keep_dims", bool)]),
    "Concat": ("", [("axis", int)]), "AddN": ("", []),
    "LogSoftmax": ("log_softmax", [("axis", int)]), "Squeeze": ("", [("axis", _tuple)]),
    "Gather": ("gather", [("batch_dims", int)]), "BroadcastTo": ("", [("shape", tuple)]),
    "StridedSlice": ("", [(m, int) for m in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                             "shrink_axis_mask")]),  # x[...]: mslab's GetItem (_strided_slice)
    "Log": ("", []), "Cast": ("", []),  # Cast's dtype input is written as MindSpore's TypeId number (_TYPE_ID)
    **{op: ("", []) for op in ("Add", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Pow", "Exp", "Sqrt", "Abs",
                               "Neg", "Square", "Reshape", "Transpose", "Flatten", "ExpandDims", "Tile", "Sin", "Cos",
                               "Erf", "Floor", "Reciprocal", "Rsqrt", "Sign", "Greater", "Less", "GreaterEqual",
                               "LessEqual", "Equal", "NotEqual", "LogicalNot", "LogicalAnd", "LogicalOr", "Select")},
}
# made from constants only: written as the Constant they make, as MindSpore does
_FOLDED = {"Zeros", "Ones", "Fill", "ScalarToTensor"}
_TUPLE_INPUT = {"Concat", "AddN", "Stack"}  # ops MindSpore gives their tensors as one tuple, made by MakeTuple
# MindSpore's TypeId of a dtype, as Cast's dst_type input (observed on MindSpore 2.10's exports)
_TYPE_ID = {"Bool": 30, "Int8": 32, "Int16": 33, "Int32": 34, "Int64": 35, "UInt8": 37, "UInt16": 38, "UInt32": 39,
            "UInt64": 40, "Float16": 42, "Float32": 43, "Float64": 44}
_DEFAULTS = {"skip_mode": False, "batch_dims": 0}  # settings MindSpore has and mslab's primitive does not keep
# attributes MindSpore 2.10 writes on these PRIMITIVE_FUNCTION entries
_ENTRY_ATTRS = {"Log": {"base": -1.0, "scale": 1.0, "shift": 0.0, "cust_aicpu": "Log"},
                "Cast": {"output_names": ["output"], "input_names": ["x", "dst_type"]},
                "AddN": {"output_names": ["sum"], "input_names": ["inputs"]}}


def _conv2d_attrs(node: Node) -> dict[str, Any]:
    a = node.prim.attrs
    four = lambda v: (1, 1) + _tuple(v)[-2:] if len(_tuple(v)) <= 2 else tuple(v)  # noqa: E731
    return {"kernel_size": _tuple(a["kernel_size"]), "mode": a["mode"], "out_channel": a["out_channel"],
            "input_names": ["x", "w"], "pad": tuple(a["pad"]), "pad_mode": a["pad_mode"].lower(),
            "format": a["data_format"], "pad_list": _pad_list(node), "groups": a["group"], "stride": four(a["stride"]),
            "group": a["group"], "dilation": four(a["dilation"]), "output_names": ["output"]}


def _pad_list(node: Node) -> tuple:
    """Conv2D's ``pad_list`` (top, bottom, left, right) as MindSpore infers it: the padding ``same`` needs."""
    a = node.prim.attrs
    mode = a["pad_mode"].lower()
    if mode == "pad":
        return tuple(a["pad"])
    if mode == "valid":
        return (0, 0, 0, 0)
    pads = []
    for size, k, s, d in zip(node.inputs[0].shape[-2:], _tuple(a["kernel_size"]), _tuple(a["stride"])[-2:],
                             _tuple(a["dilation"])[-2:]):
        total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
        pads += [total // 2, total - total // 2]
    return tuple(pads)


def _maxpool_attrs(node: Node) -> dict[str, Any]:
    a = node.prim.attrs
    return {"pad_mode": a["pad_mode"].upper(), "output_names": ["output"],
            "kernel_size": (1, 1) + _tuple(a["kernel_size"])[-2:], "format": a["data_format"],
            "strides": (1, 1) + _tuple(a["strides"])[-2:], "input_names": ["x"]}


def _stack_attrs(node: Node) -> dict[str, Any]:
    return {"output_names": ["y"], "input_names": ["x"], "num": len(node.tensor_inputs()),
            "axis": node.prim.attrs["axis"]}


# mslab op: (MindSpore's instance_name, the entry's attributes), for the ops MindSpore 2.10 writes as PRIMITIVE
_PRIMITIVES: dict[str, tuple[str, Callable[[Node], dict[str, Any]]]] = {
    "Conv2D": ("conv2d", _conv2d_attrs), "MaxPool": ("max_pool", _maxpool_attrs), "Stack": ("", _stack_attrs)}


def function_settings(op: str) -> list[str] | None:
    """The settings MindSpore 2.10 appends to a PRIMITIVE_FUNCTION node of ``op``, in order (None if unknown here):
    the reader splits such a node's inputs with it."""
    spec = _FUNCTIONS.get(op)
    return None if spec is None else [name for name, _ in spec[1]]


def writable_ops() -> list[str]:
    """The ops this writer has a MindIR form for."""
    return sorted([*_FUNCTIONS, *_PRIMITIVES])


def _type_name(dtype: Any) -> str | None:
    """mslab's name of a dtype (``Float32``) given as a numpy dtype or an mslab type, None if it is neither."""
    try:
        return mstype.from_numpy(mstype.to_numpy(dtype)).name
    except TypeError:
        return None


def type_ids() -> dict[int, str]:
    """MindSpore's TypeId number -> the dtype's name (``43 -> "Float32"``), for the reader's Cast."""
    return {v: k for k, v in _TYPE_ID.items()}


# ---- values as protobuf ------------------------------------------------------------------------------------------
def _tensor_info(proto: Any, shape: tuple, dtype: np.dtype, where: str) -> None:
    proto.dims.extend(int(d) for d in shape)
    data_type = _DATA_TYPE.get(np.dtype(dtype))
    if data_type is None:
        raise MindIRWriteError(f"export(file_format='MINDIR'): {where} has element type {dtype}, which mslab does not "
                               "write to MindIR")
    proto.data_type = data_type


def _fill(a: Any, v: Any) -> None:
    """Set attribute ``a`` to the Python value ``v`` as MindSpore writes one: bool, int64, float, string, tuple/list
    of those, or a tensor."""
    if isinstance(v, (bool, np.bool_)):
        a.type, a.i = _T["BOOL"], int(v)
    elif isinstance(v, (int, np.integer)):
        a.type, a.i = _T["INT64"], int(v)
    elif isinstance(v, (float, np.floating)):
        a.type, a.f = _T["FLOAT"], float(v)
    elif isinstance(v, str):
        a.type, a.s = _T["STRING"], v.encode("utf-8")
    elif isinstance(v, (tuple, list)):  # items as MindSpore writes them: each in its repeated field
        a.type = _T["TUPLE"] if isinstance(v, tuple) else _T["LIST"]
        for item in v:
            sub = a.values.add()
            _fill(sub, item)
            if sub.type == _T["INT64"] or sub.type == _T["BOOL"]:
                sub.ClearField("i")
                sub.ints.append(int(item))
            elif sub.type == _T["STRING"]:
                sub.ClearField("s")
                sub.strings.append(item.encode("utf-8"))
            elif sub.type == _T["FLOAT"]:
                sub.ClearField("f")
                sub.floats.append(float(item))
    elif isinstance(v, np.ndarray):
        a.type = _T["TENSORS"]
        t = a.tensors.add()
        _tensor_info(t, v.shape, v.dtype, "a constant")
        t.name = "value0"
        t.raw_data = np.ascontiguousarray(v).astype(v.dtype.newbyteorder("<")).tobytes()
    else:
        raise MindIRWriteError(f"export(file_format='MINDIR'): mslab cannot write the constant {v!r} "
                               f"({type(v).__name__}) to MindIR")


class _Tuple:
    """A tuple a MakeTuple node makes (Concat's inputs, a network's tuple result): its items, Values or _Tuples."""

    def __init__(self, items: list[Any]) -> None:
        self.items, self.name = items, "tuple"


def _describe(a: Any, item: Any, where: str) -> None:
    """Fill ``a`` with ``item``'s dims and dtype (TENSORS), or a TUPLE of its items' for a tuple."""
    if isinstance(item, _Tuple):
        a.type = _T["TUPLE"]
        for sub in item.items:
            _describe(a.values.add(), sub, where)
        return
    a.type = _T["TENSORS"]
    _tensor_info(a.tensors.add(), item.shape, item.dtype, where)


def _shape_attribute(a: Any, value: Value | _Tuple) -> None:
    """A node's ``shape`` attribute: its output's dims and dtype (a TUPLE of them for a tuple output)."""
    a.name = "shape"
    _describe(a, value, f"node {value.name}")


# ---- the graph ---------------------------------------------------------------------------------------------------
def _cell_at(net: Any, scope: str) -> Any:
    """The Cell at scope path ``fc1`` / ``block/conv`` under ``net`` (``net`` itself for ''), or None."""
    cell = net
    for part in filter(None, scope.split("/")):
        cell = getattr(cell, "_cells", {}).get(part)
        if cell is None:
            return None
    return cell


def _is_flatten(cell: Any, node: Node) -> bool:
    """Whether ``node`` is the Reshape of an ``nn.Flatten`` with its default dims (``(N, ...) -> (N, -1)``), which
    MindSpore 2.10 writes as one ``Flatten`` node instead of a reshape to a fixed batch size."""
    x = node.inputs[0]
    return (type(cell) is Flatten and (cell.start_dim, cell.end_dim) == (1, -1) and isinstance(x, Value)
            and len(x.shape) >= 2 and tuple(node.out.shape) == (x.shape[0], int(np.prod(x.shape[1:]))))


def _strided_slice(node: Node) -> tuple[tuple, tuple, tuple, int] | None:
    """``x[index]`` (mslab's GetItem) as MindSpore's StridedSlice: ``(begin, end, strides, shrink_axis_mask)`` with
    every bound explicit, for ints, ``...`` and slices of positive step; None for any other index (tensors,
    ``None``, negative steps: MindSpore 2.10's CPU kernel differs from numpy there, docs/mindspore_observed)."""
    x, spec = node.inputs[0], node.inputs[-1]
    items = [i.to_slice() if hasattr(i, "to_slice") else i for i in spec]  # mslab's hashable slices -> slices
    if len(node.inputs) != 2 or not isinstance(x, Value) or None in items or items.count(Ellipsis) > 1:
        return None
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (len(x.shape) - len(items) + 1)
    begin, end, strides, shrink = [], [], [], 0
    for axis, (size, item) in enumerate(zip(x.shape, items)):
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not -size <= item < size:
                return None
            begin.append(int(item) % size)
            end.append(int(item) % size + 1)
            strides.append(1)
            shrink |= 1 << axis
        elif isinstance(item, slice):
            start, stop, step = item.indices(size)
            if step <= 0:
                return None
            begin.append(start)
            end.append(max(stop, start))
            strides.append(step)
        else:
            return None
    return tuple(begin), tuple(end), tuple(strides), shrink


def _foldable(node: Node) -> bool:
    """Whether ``node`` makes a tensor from constants only (``ops.zeros((2, 3))``, an LSTM's first state)."""
    if node.op == "ZerosLike":  # only its input's shape and dtype matter: MindSpore 2.10 folds it too (observed)
        return True
    return node.op in _FOLDED and all(not isinstance(v, Value) or v.kind == ValueKind.CONST for v in node.inputs)


def _where(net: Any, node: Node) -> str:
    cell = _cell_at(net, node.scope)
    what = f"Cell '{node.scope}' ({type(cell).__name__})" if node.scope else f"{type(net).__name__}.construct"
    return what + (f", {node.source.strip()}" if node.source else "")


def is_training(graph: Graph) -> bool:
    """Whether the graph computes gradients or updates weights (a TrainOneStepCell's), not only a forward pass."""
    return any(node.phase != "forward" or node.written_parameter is not None for node in graph.nodes)


def _check(graph: Graph, net: Any) -> None:
    """Every reason the graph cannot be written, before anything is: ops without a MindIR form, training nodes."""
    if is_training(graph):
        raise MindIRWriteError(f"export(file_format='MINDIR'): {type(net).__name__} computes gradients or updates "
                               "weights; mslab writes MindIR for inference networks only: export the network "
                               "itself. Nothing was written.")
    names = [v.name for v in graph.params]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise MindIRWriteError(f"export(file_format='MINDIR'): several Parameters of {type(net).__name__} are named "
                               f"{', '.join(map(repr, twice))}; a MindIR file names each weight once: give them "
                               "distinct names. Nothing was written.")
    problems: dict[str, None] = {}  # in order, each once
    for node in graph.nodes:
        if _foldable(node):
            continue
        if node.op == "GetItem":
            if _strided_slice(node) is None:
                problems[f"GetItem {node.inputs[-1]!r} (MindIR: StridedSlice of ints, '...' and slices of positive "
                         f"step only) in {_where(net, node)}"] = None
        elif node.op not in _FUNCTIONS and node.op not in _PRIMITIVES:
            problems[f"{node.op} in {_where(net, node)}"] = None
        elif node.op == "Cast" and _type_name(node.inputs[1]) not in _TYPE_ID:
            problems[f"Cast to {node.inputs[1]} in {_where(net, node)}"] = None
        elif node.op in _FUNCTIONS:
            settings = dict(_FUNCTIONS[node.op][1])
            given = {**_DEFAULTS, **node.prim.attrs}
            odd = {k: v for k, v in node.prim.attrs.items() if k not in settings}
            for name, encode in settings.items():
                try:
                    encode(given[name])
                except (KeyError, TypeError, ValueError, AttributeError):
                    odd[name] = given.get(name)
            if odd:
                problems[f"{node.op} with {odd} (no MindIR input for that here) in {_where(net, node)}"] = None
    if problems:
        raise MindIRWriteError("export(file_format='MINDIR'): mslab cannot write these operators to MindIR yet: "
                               + "; ".join(problems) + f". It writes: {', '.join(writable_ops())}. Nothing was "
                               "written.")
    unchanged = [f"{v.kind} {v.name}" for v in graph.outputs if v.kind != ValueKind.NODE]
    if _output(graph) is None or unchanged:
        what = (f"its {', '.join(unchanged)} unchanged, computed by no op" if unchanged else
                f"a structure other than tuples ({len(graph.outputs)} tensors)")
        raise MindIRWriteError("export(file_format='MINDIR'): mslab writes networks that return a tensor or tuples "
                               f"of tensors, each computed by an op; {type(net).__name__} returns {what}. Nothing was "
                               "written.")


def _output(graph: Graph) -> Value | _Tuple | None:
    """What the network returns: its output Value, a _Tuple of them (tuples nest), or None for anything else."""
    outs = iter(graph.outputs)

    def item(tree: Any) -> Value | _Tuple | None:
        if tree == ("T",):
            return next(outs, None)
        if isinstance(tree, tuple) and len(tree) == 2 and tree[0] is tuple and tree[1]:
            items = [item(t) for t in tree[1]]
            return None if any(i is None for i in items) else _Tuple(items)
        return None
    result = item(graph.output_tree)
    return result if next(outs, None) is None else None


class _Writer:
    def __init__(self, graph: Graph, net: Any) -> None:
        self.graph, self.net = graph, net
        self.model = schema.ModelProto()
        self.prefix = f"{type(net).__module__.replace('.', '_')}_{type(net).__name__}_construct"
        self.names: dict[int, str] = {}  # id(Value) -> its name in the file
        self.constants: dict[tuple, str] = {}  # (type, repr) of a setting -> its Constant node
        self.entries: dict[tuple, str] = {}  # (op, attributes) -> its primitives-table name
        self.counter = 0
        self.op_counts: dict[tuple[str, str], int] = {}

    def next(self) -> int:
        self.counter += 1
        return self.counter

    def write(self) -> Any:
        m, g = self.model, self.model.graph
        m.ir_version, m.producer_name, m.model_version = "1.1", "mslab", _FORMAT_VERSION
        m.little_endian, m.mind_ir_version = True, 3
        g.name = self.prefix
        for v in self.graph.inputs:
            info = g.input.add()
            info.name = self.names[id(v)] = f"{self.prefix}:{v.name}"
            _tensor_info(info.tensor.add(), v.shape, v.dtype, f"input {v.name}")
        for v in self.graph.params:
            array = np.asarray(v.handle.asnumpy())
            t = g.parameter.add()
            t.name = self.names[id(v)] = f"{self.prefix}:{v.name}"
            _tensor_info(t, array.shape, array.dtype, f"parameter {v.name}")
            t.raw_data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
            t.ref_key = v.name
        for node in self.graph.nodes:
            self.node(node)
        out = _output(self.graph)
        info = g.output.add()
        info.name = self.arg(out)
        if isinstance(out, Value):
            _tensor_info(info.tensor.add(), out.shape, out.dtype, "the output")
        else:  # a tuple: MindSpore makes it with MakeTuple nodes and describes it in the output's attr_info
            info.denotation = "Tuple"
            _describe(info.attr_info, out, "the output")
        return m

    def constant(self, v: Any) -> str:
        """The name of the Constant node holding ``v`` (made on first use, shared after)."""
        if isinstance(v, Value):
            key: tuple = ("tensor", id(v))
            value: Any = np.asarray(v.array)
        elif isinstance(v, np.ndarray):
            key, value = ("array", v.dtype.str, v.shape, v.tobytes()), v
        else:
            key, value = (type(v).__name__, repr(v)), v
        name = self.constants.get(key)
        if name is None:
            name = self.constants[key] = f"ValueNode_{self.next()}"
            node = self.model.graph.node.add()
            node.output.append(name)
            node.name, node.op_type = name, "Constant"
            a = node.attribute.add()
            a.name = "value"
            _fill(a, value)
        return name

    def arg(self, v: Any) -> str:
        if isinstance(v, _Named):
            return v.name
        if isinstance(v, _Tuple):  # a MakeTuple node of its items
            make = self.entry("MakeTuple", "", {}, False)
            return self.apply("MakeTuple", make, [self.arg(i) for i in v.items], v, "")
        if isinstance(v, Value):
            return self.constant(v) if v.kind == ValueKind.CONST else self.names[id(v)]
        return self.constant(tuple(v) if isinstance(v, list) else v)

    def entry(self, op: str, instance: str, attrs: dict[str, Any], function: bool) -> str:
        """The primitives-table name (``MatMul:4``) of ``op`` with these attributes (one entry per distinct set)."""
        key = (op, repr(sorted(attrs.items())), function)
        name = self.entries.get(key)
        if name is None:
            name = self.entries[key] = f"{op}:{self.next()}"
            p = self.model.primitives.add()
            p.name, p.op_type, p.instance_name = name, op, instance
            p.prim_type = 2 if function else 1
            for k, v in attrs.items():
                a = p.attribute.add()
                a.name = k
                _fill(a, v)
        return name

    def apply(self, op: str, entry: str, args: list[str], out: Value | _Tuple, scope: str) -> str:
        node = self.model.graph.node.add()
        node.input.extend(args)
        k = self.next()
        name = f"{self.prefix}:CNode_{k}:{k}"
        node.output.append(name)
        node.name, node.op_type = name, f"REF::{entry}"
        _shape_attribute(node.attribute.add(), out)
        node.domain = self.domain(op, scope)
        return name

    def domain(self, op: str, scope: str) -> str:
        """MindSpore's scope text: ``Default/fc1-Dense/MatMul-op0`` (the Cells' names and classes, the op's count)."""
        parts, cell = ["Default"], self.net
        for part in filter(None, scope.split("/")):
            cell = getattr(cell, "_cells", {}).get(part) if cell is not None else None
            parts.append(f"{part}-{type(cell).__name__}" if cell is not None else part)
        count = self.op_counts.get((scope, op), 0)
        self.op_counts[(scope, op)] = count + 1
        return "/".join(parts + [f"{op}-op{count}"])

    def node(self, node: Node) -> None:
        op, inputs = node.op, list(node.inputs)
        if _foldable(node):  # run it now: its tensor becomes a Constant node
            if node.op == "ZerosLike":
                self.names[id(node.out)] = self.constant(np.zeros(node.out.shape, node.out.dtype))
                return
            made = node.prim(*[Tensor(v.array) if isinstance(v, Value) else v for v in inputs])
            self.names[id(node.out)] = self.constant(made.asnumpy())
            return
        masks: dict[str, int] = {}
        if op == "GetItem":
            begin, end, strides, shrink = _strided_slice(node)  # type: ignore[misc]  # _check made sure
            op, inputs = "StridedSlice", [inputs[0], begin, end, strides]
            masks = {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": shrink}
        if op == "Reshape" and _is_flatten(_cell_at(self.net, node.scope), node):
            op, inputs = "Flatten", inputs[:1]  # MindSpore writes nn.Flatten as its Flatten op: any batch size runs
        if op in _TUPLE_INPUT:  # MindSpore's Concat takes one tuple of tensors: a MakeTuple node makes it
            items = _Tuple([v for v in inputs if isinstance(v, Value)])
            make = self.entry("MakeTuple", "", {}, False)
            inputs = [_Named(self.apply("MakeTuple", make, [self.arg(v) for v in items.items], items, node.scope))]
        if op in _PRIMITIVES:
            instance, attrs_of = _PRIMITIVES[op]
            entry = self.entry(op, instance, attrs_of(node), False)
            args = [self.arg(v) for v in inputs]
        else:
            instance, settings = _FUNCTIONS.get(op, ("", []))
            entry = self.entry(op, instance, _ENTRY_ATTRS.get(op, {}), True)
            if op == "Cast":
                inputs = [inputs[0], _TYPE_ID[_type_name(inputs[1])]]
            args = [self.arg(v) for v in inputs]
            if op.startswith("Reduce") and len(args) > 1 and not isinstance(inputs[1], Value):
                args[1] = self.constant(_tuple(inputs[1]))  # MindSpore writes a reduction's axis as a tuple
            given = {**_DEFAULTS, **node.prim.attrs, **masks}
            args += [self.constant(encode(given[name])) for name, encode in settings]
        self.names[id(node.out)] = self.apply(op, entry, args, node.out, node.scope)


class _Named:
    """A node input already written under ``name`` (Concat's MakeTuple)."""

    def __init__(self, name: str) -> None:
        self.name = name


def model_of(graph: Graph, net: Any) -> Any:
    """The ModelProto of a traced forward graph (``mslab.trace(net, *inputs)``); MindIRWriteError before any
    output is made if an op has no MindIR form here."""
    _check(graph, net)
    return _Writer(graph, net).write()
