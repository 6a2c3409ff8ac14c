"""The op table ``op_table``: every public op of ``mslab.ops`` by name, for code that cannot import them.

MindSpore's Tensor does not import its operators: ``mindspore.common.tensor`` looks ``x + y`` up in
``tensor_operator_registry``, which ``mindspore.ops`` fills as it loads. mslab does the same, and its
bprop rules use the same table: the gradient of ReduceSum is a BroadcastTo and the gradient of
BroadcastTo is a ReduceSum, so op families that differentiate into each other reach one another here
at run time instead of importing each other (imports point down the layers, never in a circle).

    from mslab.core.op_registry import op_table
    op_table.broadcast_to(dout, shape)   # in a bprop rule, or in Tensor's methods

(``F``, as everywhere in mslab, means ``mslab.ops.functional``: the public functions a user calls.)
"""


class OpTable:
    """Ops by name as attributes (``op_table.add``); each family of ``mslab.ops`` registers its ``__all__``."""

    def register(self, namespace, names):
        """Make ``namespace[name]`` reachable as ``op_table.name`` for every name in ``names``."""
        for name in names:
            setattr(self, name, namespace[name])

    def __getattr__(self, name):  # only called for names nobody registered
        raise AttributeError(f"mslab has no op named {name!r} (ops register themselves when mslab.ops is imported)")


op_table = OpTable()
