"""``mindspore.load(file)``: a MindIR file MindSpore exported, read into a graph mslab runs (``nn.GraphCell``).

A MindIR file is one protobuf ``ModelProto`` (schema: ``mslab.train.mindir.schema``). Its main ``graph`` holds:

* ``input``: the graph's inputs, each with a shape and dtype (``<graph>:x``);
* ``parameter``: the weights, each a tensor with its bytes (``<graph>:fc1.weight``);
* ``node``: the computation in order. A ``Constant`` node holds a value (a bool, a number, a tuple, a monad);
  any other node applies a primitive to earlier names: ``op_type`` ``REF::MatMul:4`` points at the entry
  ``MatMul:4`` of the model's ``primitives`` table, which says the op (``MatMul``), its attributes, and how it
  takes its arguments (``PRIMITIVE``: attributes set when the op is made; ``PRIMITIVE_FUNCTION``: every argument
  an input of the node, e.g. ``MatMul(x, w, transpose_a, transpose_b)``);
* ``output``: the name of the node whose value the graph returns.

MindSpore's graph also carries its side-effect bookkeeping: ``Load`` (read a parameter), ``UpdateState`` and
``Depend`` (order the reads before the result), ``MakeTuple``. Run eagerly, in file order, these change no value,
and mslab evaluates them as what they return. Each other op runs as mslab's primitive of the same name
(``mslab.ops.operations``); an op mslab lacks, or an attribute it cannot map, is an error naming the op, the node
and the file, raised when the file is loaded.
"""
from __future__ import annotations

import inspect
import os
from typing import Any, Callable

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.graph_cell import GraphCell
from mslab.ops import operations as P
from mslab.runtime.compiled import trace
from mslab.train.mindir import schema
from mslab.train.mindir.writing import function_settings, type_ids

__all__ = ["FuncGraph", "MindIRError", "load", "read_mindir"]

_NP_OF_TYPE = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64,
               9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64, 17: np.float64}
_T = schema.AttributeType
_FORMATS = {0: "NCHW", 1: "NHWC"}  # MindSpore's Format enum, as a PRIMITIVE_FUNCTION's data_format input
# MindSpore's enums, as a PRIMITIVE_FUNCTION's inputs: Format, PadMode (AvgPool's pad_mode: SAME 1, VALID 2)
_ENUMS = {"data_format": _FORMATS, "format": _FORMATS, "pad_mode": {0: "pad", 1: "same", 2: "valid"}}
_ALIASES = {"data_format": ("format", "data_format")}  # mslab's argument name -> MindIR attribute names
MONAD = object()  # a UMonad/IOMonad: side-effect order, no value


class MindIRError(RuntimeError):
    """A MindIR file mslab cannot read or run: MindSpore's "Load MindIR failed." (a RuntimeError, as MindSpore 2.10
    raises for a file its reader cannot parse), then the file and what is wrong."""


class _Node:
    __slots__ = ("name", "op", "args", "fn")

    def __init__(self, name: str, op: str, args: list[str], fn: Callable) -> None:
        self.name, self.op, self.args, self.fn = name, op, args, fn


class FuncGraph:
    """A graph loaded from a MindIR file (MindSpore's ``load`` returns its ``FuncGraph``): run it with
    ``nn.GraphCell(graph)``. ``inputs``: ``(name, shape, dtype)`` each; ``parameters``: name -> array;
    ``nodes``: the ops in the order they run (``text()`` lists them)."""

    def __init__(self, name: str, inputs: list[tuple[str, tuple, np.dtype]], parameters: dict[str, np.ndarray],
                 nodes: list[_Node], output: str, constants: dict[str, Any], file_name: str) -> None:
        self.name, self.inputs, self.parameters, self.nodes = name, inputs, parameters, nodes
        self.output, self.constants, self.file_name = output, constants, file_name

    def run(self, inputs: tuple, weights: dict[str, Any]) -> Any:
        """The graph's output for ``inputs`` (Tensors, in the graph's input order) and ``weights`` (name -> the
        Parameter to read): every node evaluated in file order with mslab's primitives."""
        if len(inputs) != len(self.inputs):
            raise TypeError(f"The graph of {self.file_name!r} takes {len(self.inputs)} inputs, got {len(inputs)}.")
        values: dict[str, Any] = dict(self.constants)
        values.update(weights)
        values.update(zip((name for name, _, _ in self.inputs), inputs))
        for node in self.nodes:
            values[node.name] = node.fn(*[values[a] for a in node.args])
        return values[self.output]

    def weights(self) -> dict[str, Any]:
        """The weights as new Parameters named as in the network that was exported (``fc1.weight``), by the
        graph's full names (``<graph>:fc1.weight``)."""
        return {name: Parameter(Tensor(array.copy()), name=_short(name)) for name, array in self.parameters.items()}

    def to_ir(self) -> Any:
        """The graph as mslab's IR (what ``GraphView(graph)`` draws): ``nn.GraphCell(self)`` traced on zeros of the
        file's input shapes and dtypes."""
        zeros = [Tensor(np.zeros(shape, dtype or np.float32)) for _, shape, dtype in self.inputs]
        return trace(GraphCell(self), *zeros)

    def text(self) -> str:
        """The graph as lines ``name = Op(args)``, short names (the graph's own prefix dropped)."""
        short = _short
        lines = [f"{self.name}({', '.join(short(n) for n, _, _ in self.inputs)})"]
        lines += [f"  {short(n.name)} = {n.op}({', '.join(short(a) for a in n.args)})" for n in self.nodes]
        lines.append(f"  return {short(self.output)}")
        return "\n".join(lines)


def _short(name: str) -> str:
    """``70_1___main___LeNet5_construct_15:fc1.weight`` -> ``fc1.weight``; ``...:CNode_10:1`` -> ``CNode_10:1``."""
    return name.split(":", 1)[1] if ":" in name and not name.startswith("ValueNode") else name


def read_mindir(file_name: str) -> FuncGraph:
    """Parse ``file_name`` and build its main graph; MindIRError naming the file for anything mslab cannot run."""
    from google.protobuf.message import DecodeError

    with open(file_name, "rb") as f:
        data = f.read()
    model = schema.ModelProto()
    try:
        model.ParseFromString(data)
    except DecodeError as e:
        raise MindIRError(f"Load MindIR failed. {file_name}: protobuf could not parse it ({e})") from None
    if not model.HasField("graph") or not model.graph.node:
        raise MindIRError(f"Load MindIR failed. {file_name}: the file holds no graph")
    if model.functions:
        raise MindIRError(f"Load MindIR failed. {file_name}: the graph calls {len(model.functions)} sub-graphs "
                          "(control flow or nested functions); mslab reads MindIR graphs without sub-graphs only")
    return _Builder(model, file_name).build()


class _Builder:
    def __init__(self, model: Any, file_name: str) -> None:
        self.model, self.file_name = model, file_name
        self.primitives = {p.name: p for p in model.primitives}

    def fail(self, what: str) -> MindIRError:
        return MindIRError(f"Load MindIR failed. {self.file_name}: {what}")

    def build(self) -> FuncGraph:
        graph = self.model.graph
        inputs = []
        for info in graph.input:
            t = info.tensor[0] if info.tensor else None
            shape = tuple(t.dims) if t is not None else ()
            inputs.append((info.name, shape, np.dtype(self.np_type(t.data_type, info.name)) if t is not None else None))
        parameters = {p.name: self.array(p) for p in graph.parameter}
        constants: dict[str, Any] = {}
        nodes = []
        for node in graph.node:
            if node.op_type == "Constant":
                constants[node.output[0]] = self.value(node.attribute[0], node.output[0])
                continue
            nodes.append(_Node(node.output[0], *self.operation(node)))
        if len(graph.output) != 1:
            raise self.fail(f"the graph returns {len(graph.output)} values; mslab reads graphs with one output")
        return FuncGraph(graph.name, inputs, parameters, nodes, graph.output[0].name, constants, self.file_name)

    # ---- values ----------------------------------------------------------------------------------------------
    def np_type(self, data_type: int, where: str) -> type:
        np_type = _NP_OF_TYPE.get(data_type)
        if np_type is None:
            raise self.fail(f"{where} has element type {data_type} of mind_ir.TensorProto.DataType, which mslab "
                            "cannot hold")
        return np_type

    def array(self, t: Any) -> np.ndarray:
        """A TensorProto's numbers: its raw little-endian bytes, checked against its dims before use."""
        dtype = np.dtype(self.np_type(t.data_type, t.name)).newbyteorder("<")
        shape = tuple(int(d) for d in t.dims)
        if any(d < 0 for d in shape):
            raise self.fail(f"{t.name} has negative dims {list(shape)}")
        expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if t.HasField("external_data"):
            raise self.fail(f"{t.name} keeps its data in another file ({t.external_data.location}); mslab reads "
                            "MindIR files that hold their weights")
        if len(t.raw_data) != expected:
            raise self.fail(f"{t.name} declares dims {list(shape)} ({expected} bytes) but holds {len(t.raw_data)} "
                            "bytes")
        return np.frombuffer(t.raw_data, dtype).astype(dtype.newbyteorder("="), copy=True).reshape(shape)

    def value(self, a: Any, where: str) -> Any:
        """A Constant's (or a primitive attribute's) value as Python: bool, int, float, str, tuple, list, Tensor."""
        kind = a.type
        if kind in (_T["UMONAD"], _T["IOMONAD"]):
            return MONAD
        if kind == _T["NONE"]:
            return None
        if kind == _T["BOOL"]:
            return bool(a.ints[0] if a.ints else a.i)
        if kind in (_T["INT8"], _T["INT16"], _T["INT32"], _T["INT64"], _T["UINT8"], _T["UINT16"], _T["UINT32"],
                    _T["UINT64"]):
            return int(a.ints[0] if a.ints else a.i)
        if kind in (_T["FLOAT"], _T["FLOAT16"]):
            return float(a.floats[0] if a.floats else a.f)
        if kind == _T["DOUBLE"]:
            return float(a.doubles[0] if a.doubles else a.d)
        if kind == _T["STRING"]:
            return (a.strings[0] if a.strings else a.s).decode("utf-8")
        if kind in (_T["TUPLE"], _T["LIST"]):
            items = [self.value(v, where) for v in a.values]
            return tuple(items) if kind == _T["TUPLE"] else items
        if kind == _T["TENSOR"]:
            return Tensor(self.array(a.t))
        if kind == _T["TENSORS"] and len(a.tensors) == 1:  # MindSpore 2.10's constant tensor (the 2.0 of y + 2.0)
            return Tensor(self.array(a.tensors[0]))
        names = {v: k for k, v in _T.items()}
        raise self.fail(f"{where} holds a value of kind {names.get(kind, kind)}, which mslab cannot read")

    # ---- operations --------------------------------------------------------------------------------------------
    def operation(self, node: Any) -> tuple[str, list[str], Callable]:
        """``(op name, argument names, function)`` of one computing node."""
        ref = node.op_type
        if not ref.startswith("REF::"):
            raise self.fail(f"node {node.output[0]} applies {ref!r}: mslab reads nodes that apply a primitive "
                            "(REF::<op>) or hold a Constant")
        prim = self.primitives.get(ref[5:])
        if prim is None:
            raise self.fail(f"node {node.output[0]} applies {ref[5:]!r}, which the file's primitive table lacks")
        op, args = prim.op_type, list(node.input)
        bookkeeping = _BOOKKEEPING.get(op)
        if bookkeeping is not None:
            return op, args, bookkeeping
        if op == "Cast":  # its dtype input is MindSpore's TypeId number
            cast = P.Cast()
            return op, args, lambda x, type_id: cast(x, _dtype_of_type_id(type_id, self))
        cls = getattr(P, op, None)
        if cls is None or not isinstance(cls, type):
            raise self.fail(f"node {node.output[0]} applies the operator {op}, which mslab does not have")
        params = [p for p in inspect.signature(cls.__init__).parameters.values()
                  if p.name != "self" and p.kind is p.POSITIONAL_OR_KEYWORD]
        if prim.prim_type == 2:  # PRIMITIVE_FUNCTION: the op's settings are its last inputs, in order
            known = function_settings(op)  # MindSpore's own list where the writer knows it (ReduceSum's skip_mode)
            if known is not None and len(args) > len(known):
                n_call = len(args) - len(known)
                return op, args, _function_call(cls, known, n_call, {p.name for p in params})
            n_settings = min(len(params), len(args) - 1)
            n_call = len(args) - n_settings
            settings = [p.name for p in params[:n_settings]]
            return op, args, _function_call(cls, settings, n_call, set(settings))
        attrs = {a.name: self.value(a, f"{op}'s attribute {a.name}") for a in prim.attribute}
        kwargs = {}
        for p in params:
            for name in _ALIASES.get(p.name, (p.name,)):
                if name in attrs:
                    kwargs[p.name] = attrs[name]
                    break
        try:
            primitive = cls(**kwargs)
        except Exception as e:
            raise self.fail(f"node {node.output[0]}: mslab's {op} refuses the attributes {kwargs}: {e}") from None
        n_args = len(args)
        return op, args, lambda *xs: primitive(*xs[:n_args])


def _dtype_of_type_id(type_id: Any, builder: _Builder) -> Any:
    """mslab's dtype for MindSpore's TypeId number (Cast's ``dst_type`` input: 43 is float32)."""
    name = type_ids().get(type_id) if isinstance(type_id, int) else None
    dtype = getattr(mstype, "bool_" if name == "Bool" else str(name).lower(), None)
    if name is None or dtype is None:
        raise builder.fail(f"Cast to MindSpore's TypeId {type_id!r}, which mslab does not map to a dtype")
    return dtype


def _function_call(cls: type, settings: list[str], n_call: int, accepted: set[str]) -> Callable:
    """A PRIMITIVE_FUNCTION node's function: the last inputs (named ``settings``) make the primitive (cached per
    distinct settings; those mslab's primitive does not take, ``accepted`` lacks, are left out), the first ``n_call``
    are its arguments."""
    made: dict[tuple, Any] = {}

    def call(*xs: Any) -> Any:
        values = tuple(_ENUMS[name].get(v, v) if name in _ENUMS and isinstance(v, int) else v
                       for name, v in zip(settings, xs[n_call:]))
        primitive = made.get(values)
        if primitive is None:
            primitive = made[values] = cls(**{k: v for k, v in zip(settings, values) if k in accepted})
        return primitive(*xs[:n_call])
    return call


_BOOKKEEPING: dict[str, Callable] = {
    "Load": lambda parameter, monad: parameter,  # read a parameter: in file order, its value now
    "UpdateState": lambda monad, *after: MONAD,  # orders side effects; no value
    "Depend": lambda value, *after: value,  # value, after the others ran (they already have)
    "MakeTuple": lambda *items: tuple(items),
    "TupleGetItem": lambda items, index: items[index],
}


def load(file_name: str) -> FuncGraph:
    """``mindspore.load(file_name)`` for a MindIR file, with MindSpore 2.10's argument errors (observed on CPU)."""
    if not isinstance(file_name, str):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with '.mindir', "
                         "please input the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) does not exist, "
                         "please check whether the 'file_name' is correct.")
    return read_mindir(file_name)
