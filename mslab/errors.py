"""The errors a learner meets (defined in ``mslab.core.errors``)."""
from mslab.core.errors import (
    CellNestingError,
    CheckpointError,
    ExecutionError,
    GraphModeError,
    OpError,
    OpTypeError,
)

__all__ = ["GraphModeError", "OpError", "OpTypeError", "ExecutionError", "CheckpointError", "CellNestingError"]
