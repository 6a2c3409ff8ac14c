"""``mindspore.data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None)``.

Returns a function that, each time it is called, takes the dataset's next ``sink_size`` batches and
runs ``fn(*columns)`` on each, returning the last result; the dataset starts a new epoch when it runs
out. On Ascend and GPU the batches wait in a queue on the device; ``jit_config`` compiles ``fn``.

On CPU MindSpore 2.10 refuses: ``ValueError: Data sinking supports ascend or gpu device target, but
device target is CPU.`` (observed), and so does mslab. With ``set_context(device_target="Ascend")``
mslab runs it on its simulated device (the host, here), so device code runs unchanged.
"""
import functools

from mslab.core.context import device_can_sink, get_context
from mslab.runtime.compiled import jit

__all__ = ["data_sink"]


def _batches_forever(dataset):
    """The dataset's batches as tuples of Tensors, epoch after epoch."""
    while True:
        empty = True
        for row in dataset.create_tuple_iterator(num_epochs=1):
            empty = False
            yield row
        if empty:
            raise ValueError(f"data_sink: the dataset {type(dataset).__name__} has no rows to sink")


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """A function running ``fn`` on the next ``sink_size`` batches of ``dataset`` per call (last result)."""
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                        f"'{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    if not device_can_sink():
        raise ValueError("Data sinking supports ascend or gpu device target, but device target is "
                         f"{get_context('device_target')}. (mslab: set_context(device_target=\"Ascend\") runs "
                         "sink mode on a simulated device)")
    step = fn if jit_config is None else jit(fn)
    batches = _batches_forever(dataset)

    @functools.wraps(fn)
    def sink_process(*args, **kwargs):
        out = None
        for _ in range(sink_size):
            out = step(*next(batches))
        return out

    return sink_process
