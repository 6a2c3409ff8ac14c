"""MindSpore's checkpoint message classes, built at import time from the schema in ``checkpoint.proto``.

No generated ``_pb2.py`` is kept: protobuf's own ``descriptor_pb2`` describes the three messages
(the same names, field numbers, types and labels as ``checkpoint.proto``) and ``message_factory``
turns that description into classes, so the file works with any protobuf 4 or later and nothing
needs ``protoc``. Parsing and serializing are protobuf's; mslab writes no wire-format code.
"""
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["Checkpoint", "FILE_DESCRIPTOR"]

_F = descriptor_pb2.FieldDescriptorProto


def _field(name, number, label, kind, type_name=None, oneof_index=None):
    field = _F(name=name, number=number, label=label, type=kind)
    if type_name is not None:
        field.type_name = type_name
    if oneof_index is not None:
        field.oneof_index = oneof_index
    return field


def _file_descriptor():
    """``checkpoint.proto`` as a FileDescriptorProto (what ``protoc`` would make of it)."""
    value = descriptor_pb2.DescriptorProto(name="Value", oneof_decl=[descriptor_pb2.OneofDescriptorProto(name="value")],
                                           field=[
        _field("tag", 1, _F.LABEL_REQUIRED, _F.TYPE_STRING),
        _field("tensor", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".TensorProto", oneof_index=0),
        _field("maptensor", 3, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".MapTensorProto", oneof_index=0),
    ])
    checkpoint = descriptor_pb2.DescriptorProto(name="Checkpoint", nested_type=[value], field=[
        _field("value", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".Checkpoint.Value"),
    ])
    tensor = descriptor_pb2.DescriptorProto(name="TensorProto", field=[
        _field("dims", 1, _F.LABEL_REPEATED, _F.TYPE_INT64),
        _field("tensor_type", 2, _F.LABEL_REQUIRED, _F.TYPE_STRING),
        _field("tensor_content", 3, _F.LABEL_REQUIRED, _F.TYPE_BYTES),
    ])
    map_tensor = descriptor_pb2.DescriptorProto(name="MapTensorProto", field=[
        _field("tensor", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".TensorProto"),
    ])
    return descriptor_pb2.FileDescriptorProto(name="checkpoint.proto",
                                              message_type=[checkpoint, tensor, map_tensor])


FILE_DESCRIPTOR = _file_descriptor()
# A pool of our own, so that the names never clash with another copy of the schema (MindSpore's) in the
# default pool of the same process.
_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(FILE_DESCRIPTOR)
Checkpoint = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("Checkpoint"))
