"""Values the summary ops (``ops.ScalarSummary`` ...) hand to the next ``SummaryRecord.record``.

MindSpore keeps one process-wide list of ``[op name, tag, tensor]`` that the ops append to when they run
and ``record`` empties; the checks run at ``record`` time (observed on MindSpore 2.10: a bad value raises
there, not at the op). mslab does the same with this list, which sits in core so the ops (below) and
``SummaryRecord`` (above) share it without importing each other.
"""
_cache: list[list] = []  # [op name, tag, tensor] per value


def put(op_name, tag, value):
    """Keep one summary value: ``op_name`` is "ScalarSummary", "ImageSummary", ..."""
    _cache.append((op_name, tag, value))


def take():
    """Everything kept since the last call, in the order the ops ran; the pool is then empty."""
    items = list(_cache)
    _cache.clear()
    return items
