"""MindSpore's checkpoint message classes, built on first use from the schema in ``checkpoint.proto``.

No generated ``_pb2.py`` is kept: protobuf's own ``descriptor_pb2`` describes the three messages
(the same names, field numbers, types and labels as ``checkpoint.proto``) and ``message_factory``
turns that description into classes, so the file works with any protobuf 4 or later and nothing
needs ``protoc``. Parsing and serializing are protobuf's; mslab writes no wire-format code.
Protobuf is imported when a checkpoint is first read or written (``Checkpoint``, ``FILE_DESCRIPTOR``):
its descriptor modules cost about 14 ms of ``import mslab``, and many sessions never touch a .ckpt file.
"""
import functools

__all__ = ["Checkpoint", "FILE_DESCRIPTOR"]  # noqa: F822 (module attributes made by __getattr__ below)


def _field(descriptor_pb2, name, number, label, kind, type_name=None, oneof_index=None):
    field = descriptor_pb2.FieldDescriptorProto(name=name, number=number, label=label, type=kind)
    if type_name is not None:
        field.type_name = type_name
    if oneof_index is not None:
        field.oneof_index = oneof_index
    return field


def _file_descriptor(descriptor_pb2):
    """``checkpoint.proto`` as a FileDescriptorProto (what ``protoc`` would make of it)."""
    _F = descriptor_pb2.FieldDescriptorProto
    field = functools.partial(_field, descriptor_pb2)
    value = descriptor_pb2.DescriptorProto(name="Value", oneof_decl=[descriptor_pb2.OneofDescriptorProto(name="value")],
                                           field=[
        field("tag", 1, _F.LABEL_REQUIRED, _F.TYPE_STRING),
        field("tensor", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".TensorProto", oneof_index=0),
        field("maptensor", 3, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".MapTensorProto", oneof_index=0),
    ])
    checkpoint = descriptor_pb2.DescriptorProto(name="Checkpoint", nested_type=[value], field=[
        field("value", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".Checkpoint.Value"),
    ])
    tensor = descriptor_pb2.DescriptorProto(name="TensorProto", field=[
        field("dims", 1, _F.LABEL_REPEATED, _F.TYPE_INT64),
        field("tensor_type", 2, _F.LABEL_REQUIRED, _F.TYPE_STRING),
        field("tensor_content", 3, _F.LABEL_REQUIRED, _F.TYPE_BYTES),
    ])
    map_tensor = descriptor_pb2.DescriptorProto(name="MapTensorProto", field=[
        field("tensor", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".TensorProto"),
    ])
    return descriptor_pb2.FileDescriptorProto(name="checkpoint.proto",
                                              message_type=[checkpoint, tensor, map_tensor])


@functools.cache
def _built():
    """``(FILE_DESCRIPTOR, Checkpoint)``, made once."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    file_descriptor = _file_descriptor(descriptor_pb2)
    # A pool of our own, so that the names never clash with another copy of the schema (MindSpore's) in the
    # default pool of the same process.
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_descriptor)
    return file_descriptor, message_factory.GetMessageClass(pool.FindMessageTypeByName("Checkpoint"))


def __getattr__(name):
    """``FILE_DESCRIPTOR`` and ``Checkpoint`` as module attributes, built on first use (PEP 562)."""
    if name == "FILE_DESCRIPTOR":
        return _built()[0]
    if name == "Checkpoint":
        return _built()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
