"""MindSpore's MindIR message classes (``mind_ir.proto``, package ``mind_ir``), built on first use.

As for checkpoints (``mslab.train.serialization._schema``), no generated ``_pb2.py`` is kept: the messages a
MindIR file of MindSpore 2.10 uses are described here with protobuf's ``descriptor_pb2`` (the names, field
numbers, types and labels of MindSpore 2.10's ``mind_ir.proto``) and protobuf's ``message_factory`` makes the
classes. Fields mslab neither reads nor writes (quantisation, parallel layouts, data preprocessing, map
tensors, scalar graph holders) are left out of the description: protobuf keeps their bytes as unknown fields.
"""
import functools

__all__ = ["ModelProto", "AttributeType", "DataType"]  # noqa: F822 (module attributes made by __getattr__ below)

# AttributeProto.AttributeType: what an attribute (a Constant node's value, a primitive's argument) holds.
AttributeType = {
    "UNDEFINED": 0, "FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6, "INT64": 7, "STRING": 8,
    "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11, "UINT32": 12, "UINT64": 13, "COMPLEX64": 14, "COMPLEX128": 15,
    "BFLOAT16": 16, "TENSOR": 17, "GRAPH": 18, "TENSORS": 19, "TUPLE": 20, "LIST": 21, "DICT": 22, "UMONAD": 23,
    "IOMONAD": 24, "NONE": 25, "PRIMITIVECLOSURE": 26, "FUNCGRAPHCLOSURE": 27, "PARTIALCLOSURE": 28,
    "UNIONFUNCCLOSURE": 29, "CSR_TENSOR": 30, "COO_TENSOR": 31, "ROW_TENSOR": 32, "CLASS_TYPE": 33, "NAME_SPACE": 34,
    "SYMBOL": 35, "TYPE_NULL": 36, "MAP_TENSOR": 37, "FUNCTOR": 38, "SCALAR": 39, "SCALAR_GRAPH_HOLDER": 40,
}
# TensorProto.DataType: a tensor's element type.
DataType = {
    "UNDEFINED": 0, "FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6, "INT64": 7, "STRING": 8,
    "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11, "UINT32": 12, "UINT64": 13, "COMPLEX64": 14, "COMPLEX128": 15,
    "BFLOAT16": 16, "FLOAT64": 17, "QINT4X2": 18,
}


def _file_descriptor(descriptor_pb2):
    """The used part of ``mind_ir.proto`` as a FileDescriptorProto (what ``protoc`` would make of it)."""
    F = descriptor_pb2.FieldDescriptorProto
    OPT, REP = F.LABEL_OPTIONAL, F.LABEL_REPEATED
    STR, BYTES, BOOL = F.TYPE_STRING, F.TYPE_BYTES, F.TYPE_BOOL
    I32, I64, U64 = F.TYPE_INT32, F.TYPE_INT64, F.TYPE_UINT64
    FLT, DBL, MSG, ENUM = F.TYPE_FLOAT, F.TYPE_DOUBLE, F.TYPE_MESSAGE, F.TYPE_ENUM

    def message(name, fields, nested=(), enums=()):
        return descriptor_pb2.DescriptorProto(
            name=name, nested_type=list(nested), enum_type=list(enums),
            field=[F(name=n, number=k, label=label, type=kind, **({"type_name": t} if t else {}))
                   for n, k, label, kind, t in fields])

    def enum(name, values):
        return descriptor_pb2.EnumDescriptorProto(
            name=name, value=[descriptor_pb2.EnumValueDescriptorProto(name=k, number=v) for k, v in values.items()])

    attribute = message("AttributeProto", [
        ("name", 1, OPT, STR, None), ("f", 2, OPT, FLT, None), ("i", 3, OPT, I64, None), ("d", 4, OPT, DBL, None),
        ("s", 5, OPT, BYTES, None), ("t", 6, OPT, MSG, ".mind_ir.TensorProto"),
        ("g", 7, OPT, MSG, ".mind_ir.GraphProto"), ("floats", 8, REP, FLT, None), ("doubles", 9, REP, DBL, None),
        ("ints", 10, REP, I64, None), ("strings", 11, REP, BYTES, None),
        ("tensors", 12, REP, MSG, ".mind_ir.TensorProto"), ("graphs", 13, REP, MSG, ".mind_ir.GraphProto"),
        ("doc_string", 14, OPT, STR, None), ("ref_attr_name", 15, OPT, STR, None),
        ("type", 16, OPT, ENUM, ".mind_ir.AttributeProto.AttributeType"),
        ("values", 17, REP, MSG, ".mind_ir.AttributeProto"),
    ], enums=[enum("AttributeType", AttributeType)])
    value_info = message("ValueInfoProto", [
        ("name", 1, OPT, STR, None), ("tensor", 2, REP, MSG, ".mind_ir.TensorProto"),
        ("doc_string", 3, OPT, STR, None), ("denotation", 4, OPT, STR, None),
        ("attr_info", 5, OPT, MSG, ".mind_ir.AttributeProto"),
    ])
    node = message("NodeProto", [
        ("input", 1, REP, STR, None), ("output", 2, REP, STR, None), ("name", 3, OPT, STR, None),
        ("op_type", 4, OPT, STR, None), ("attribute", 5, REP, MSG, ".mind_ir.AttributeProto"),
        ("doc_string", 6, OPT, STR, None), ("domain", 7, OPT, STR, None),
        ("node_attr", 8, REP, MSG, ".mind_ir.AttributeProto"), ("primal_attr", 9, REP, MSG, ".mind_ir.AttributeProto"),
    ])
    user_info = message("UserInfoEntry", [("key", 1, OPT, STR, None), ("value", 2, OPT, STR, None)])
    user_info.options.map_entry = True
    model = message("ModelProto", [
        ("ir_version", 1, OPT, STR, None), ("producer_name", 2, OPT, STR, None),
        ("producer_version", 3, OPT, STR, None), ("domain", 4, OPT, STR, None), ("model_version", 5, OPT, STR, None),
        ("doc_string", 6, OPT, STR, None), ("graph", 7, OPT, MSG, ".mind_ir.GraphProto"),
        ("functions", 8, REP, MSG, ".mind_ir.GraphProto"), ("little_endian", 10, OPT, BOOL, None),
        ("primitives", 12, REP, MSG, ".mind_ir.PrimitiveProto"), ("mind_ir_version", 13, OPT, I64, None),
        ("user_info", 14, REP, MSG, ".mind_ir.ModelProto.UserInfoEntry"),
    ], nested=[user_info])
    graph = message("GraphProto", [
        ("node", 1, REP, MSG, ".mind_ir.NodeProto"), ("name", 2, OPT, STR, None),
        ("parameter", 3, REP, MSG, ".mind_ir.TensorProto"), ("doc_string", 4, OPT, STR, None),
        ("input", 5, REP, MSG, ".mind_ir.ValueInfoProto"), ("output", 6, REP, MSG, ".mind_ir.ValueInfoProto"),
        ("bprop_hash", 7, OPT, STR, None), ("attribute", 8, REP, MSG, ".mind_ir.AttributeProto"),
        ("bprop_filepath", 9, OPT, STR, None),
    ])
    external = message("ExternalDataProto", [
        ("location", 1, OPT, STR, None), ("offset", 2, OPT, I64, None), ("length", 3, OPT, I64, None)])
    tensor = message("TensorProto", [
        ("dims", 1, REP, I64, None), ("data_type", 2, OPT, I32, None), ("float_data", 3, REP, FLT, None),
        ("int32_data", 4, REP, I32, None), ("string_data", 5, REP, BYTES, None), ("int64_data", 6, REP, I64, None),
        ("name", 7, OPT, STR, None), ("doc_string", 8, OPT, STR, None), ("raw_data", 9, OPT, BYTES, None),
        ("double_data", 10, REP, DBL, None), ("uint64_data", 11, REP, U64, None),
        ("external_data", 12, OPT, MSG, ".mind_ir.TensorProto.ExternalDataProto"), ("ref_key", 13, OPT, STR, None),
        ("min_dims", 14, REP, I64, None), ("max_dims", 15, REP, I64, None),
    ], nested=[external], enums=[enum("DataType", DataType)])
    primitive = message("PrimitiveProto", [
        ("name", 1, OPT, STR, None), ("op_type", 2, OPT, STR, None),
        ("attribute", 3, REP, MSG, ".mind_ir.AttributeProto"), ("instance_name", 4, OPT, STR, None),
        ("prim_type", 5, OPT, ENUM, ".mind_ir.PrimitiveProto.PrimType"),
    ], enums=[enum("PrimType", {"PRIMITIVE": 1, "PRIMITIVE_FUNCTION": 2})])
    return descriptor_pb2.FileDescriptorProto(
        name="mind_ir.proto", package="mind_ir", syntax="proto2",
        message_type=[attribute, value_info, node, model, graph, tensor, primitive])


@functools.cache
def _built():
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()  # our own pool: MindSpore's copy of the schema may be loaded too
    pool.Add(_file_descriptor(descriptor_pb2))
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("mind_ir.ModelProto"))


def __getattr__(name):
    if name == "ModelProto":
        return _built()
    raise AttributeError(name)
