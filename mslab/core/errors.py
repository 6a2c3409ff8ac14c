"""Errors a learner meets, each saying what went wrong in the learner's terms."""


class GraphModeError(RuntimeError):
    """A graph-mode rule was broken while tracing ``construct`` (e.g. branching on a tensor's value)."""


class OpError(ValueError):
    """An operator got inputs it cannot work with (shapes, dtypes, attributes); names op, Cell and shapes."""


class OpTypeError(TypeError):
    """An operator got inputs of the wrong dtype; names op, Cell and dtypes."""


class ExecutionError(RuntimeError):
    """A compiled graph failed while running one node; names the node, op, scope, source and shapes."""


class JitSyntaxValueError(GraphModeError, ValueError):
    """STRICT refuses Python that needs the host (numpy on a traced tensor); a ValueError, as in MindSpore."""


class JitSyntaxAttributeError(GraphModeError, AttributeError):
    """STRICT refuses reading a traced tensor's numbers (``asnumpy``); an AttributeError, as in MindSpore."""


class CheckpointError(ValueError):
    """A checkpoint file cannot be read (missing, empty, truncated, damaged, not a checkpoint); names the file.

    A ValueError, as MindSpore's ``load_checkpoint`` raises for the same files.
    """


class CellNestingError(RecursionError):
    """Cells nested deeper than Python's recursion limit allows; names the Cell and how to fix it."""

    def __init__(self, cell_name, doing, limit):
        super().__init__(
            f"{doing} {cell_name} went deeper than Python's recursion limit ({limit} frames): its Cells are nested "
            f"too deeply (each Cell inside another costs a few frames). Put repeated layers side by side in one "
            f"nn.SequentialCell or nn.CellList instead of wrapping each in the next, or raise the limit with "
            f"sys.setrecursionlimit(...)")
