"""DatasetHelper and connect_network_with_dataset: how data reaches the network, with and without sinking.

Without sinking, the host (the Python process) reads one batch, sends it to the device, runs one step
and fetches the result: two host-device exchanges per step.

With ``dataset_sink_mode=True`` in GRAPH mode, MindSpore on an Ascend/GPU device moves the data through
a channel into a queue on the device and runs ``sink_size`` steps there in one go (the loop itself is
part of the device program); only the last step's result comes back. MindSpore's training guide (train.md):

    dataset_helper = DatasetHelper(ds_train, dataset_sink_mode=True, sink_size=100, epoch_num=10)
    net = connect_network_with_dataset(net, dataset_helper)
    for epoch in range(10):
        for inputs in dataset_helper:     # one item per sink; inputs == () (data is on the device)
            output = net(*inputs)         # runs 100 steps, returns the 100th loss

mslab has no device, so it simulates one and counts the exchanges in ``transfer_counts``:

* sink: each sink moves ``sink_size`` batches (the whole dataset when -1) into the device queue in
  ONE transfer; the connected network then runs those steps back to back, calling the compiled step
  graph once per batch with no Python callback work between them, and returns ONE result. With
  ``sink_size > 0`` the data is read as an endless stream: each sink continues where the last stopped.
* no sink: one transfer per batch (and Model counts one result per step).

In PYNATIVE mode there is no compiled program to sink; the helper yields real batches (``sink_size`` of
them per pass, or the dataset size) and ``connect_network_with_dataset`` returns the network unchanged.

All of this needs a device: with ``device_target="CPU"`` (the default) MindSpore cannot sink, and
``DatasetHelper(dataset, dataset_sink_mode=True)`` raises RuntimeError with MindSpore's message; set
``set_context(device_target="Ascend")`` to use the simulated device, as that guide does.
"""
from collections import deque
from dataclasses import dataclass

from mslab.core.context import device_can_sink, is_graph_mode
from mslab.core.tensor import Tensor
from mslab.nn.cell import Cell


@dataclass
class TransferCounts:
    """How often host and (simulated) device exchanged data.

    ``host_to_device``: transfers of input data (one per batch without sink, one per sink chunk with it);
    ``device_to_host``: results fetched back (one per step without sink, one per sink with it);
    ``batches``: batches moved in total (the same in both modes for the same number of steps).
    """

    host_to_device: int = 0
    device_to_host: int = 0
    batches: int = 0

    def reset(self):
        self.host_to_device = self.device_to_host = self.batches = 0

    def as_dict(self):
        return {"host_to_device": self.host_to_device, "device_to_host": self.device_to_host, "batches": self.batches}


class _NumbersOnly:
    """A tuple iterator whose rows must be Tensors: a text column (numpy strings) is refused by name."""

    def __init__(self, dataset, iterator):
        self.dataset, self.iterator = dataset, iterator

    def __iter__(self):
        self._rows = iter(self.iterator)
        return self

    def __next__(self):
        row = next(self._rows)
        for i, item in enumerate(row):
            if not isinstance(item, Tensor):
                names = self.dataset.get_col_names()
                name = names[i] if i < len(names) else f"column {i}"
                raise TypeError(f"DatasetHelper: column {name!r} of the dataset holds {item.dtype} text (shape "
                                f"{item.shape}), which a network cannot take: map it to numbers first (e.g. a "
                                f"vocabulary lookup with dataset.map) or drop it with dataset.project")
        return row


class _HostFeed:
    """Batches read from a dataset on the host: per epoch, or as an endless stream across epochs.

    One ``create_tuple_iterator(num_epochs=-1)`` serves every epoch (the dataset reshuffles per epoch);
    ``StopIteration`` marks an epoch's end and the next read starts the next epoch.
    """

    def __init__(self, dataset):
        self.dataset = dataset
        self._it = None
        self._cur = None

    def _iterator(self):
        if self._it is None:
            self._it = _NumbersOnly(self.dataset, self.dataset.create_tuple_iterator(num_epochs=-1, output_numpy=False))
        return self._it

    def epoch(self):
        """The batches of one pass over the dataset, each a tuple of Tensors."""
        got = False
        for row in iter(self._iterator()):
            got = True
            yield tuple(row)
        if not got:  # an iterator that does not restart: make a new one for this epoch
            self._it = None
            for row in iter(self._iterator()):
                yield tuple(row)

    def next(self):
        """The next batch of the endless stream (a new epoch begins when one ends)."""
        for attempt in range(3):
            if self._cur is None:
                self._cur = iter(self._iterator())
            try:
                return tuple(next(self._cur))
            except StopIteration:
                self._cur = None
                if attempt == 1:  # two empty reads in a row: the iterator is spent, start a fresh one
                    self._it = None
        raise ValueError("DatasetHelper: the dataset yields no batches (is it empty, or did drop_remainder drop "
                         "every row?)")


# MindSpore 2.10's messages on a CPU (observed), with what to do in mslab
_HINT = " (mslab: set_context(device_target=\"Ascend\") runs sink mode on a simulated device)"
_CPU_SINK_GRAPH = ("Currently dataset sink mode is not supported when the device target is CPU, please set "
                   "dataset_sink_mode to False in Model.train()" + _HINT)
_CPU_SINK_PYNATIVE = ("Unsupported op [InitDataSetQueue] on CPU, Please confirm whether the device target setting "
                      "is correct, or refer to 'mindspore.ops' to query the operator support list." + _HINT)


def _check_sink_size(sink_size):
    if isinstance(sink_size, bool) or not isinstance(sink_size, int) or (sink_size <= 0 and sink_size != -1):
        raise ValueError(f"sink_size must be -1 (the whole dataset) or a positive int, got {sink_size!r}")
    return sink_size


class DatasetHelper:
    """Feeds a dataset to a training loop (``mindspore.train.DatasetHelper``); see the module docstring.

    ``DatasetHelper(dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1)``. Iterating it gives one
    pass: without sink, every batch as a tuple of Tensors; with sink in GRAPH mode, one item per sink, the
    empty tuple ``()``: the batches went to the device queue, where the network made by
    ``connect_network_with_dataset`` takes them.
    """

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        if not hasattr(dataset, "create_tuple_iterator"):
            raise TypeError(f"DatasetHelper: dataset must be an mslab.dataset dataset, got {type(dataset).__name__}")
        if dataset_sink_mode and not device_can_sink():
            raise RuntimeError(_CPU_SINK_GRAPH if is_graph_mode() else _CPU_SINK_PYNATIVE)
        self.dataset = dataset
        self.dataset_sink_mode = bool(dataset_sink_mode)
        self._sink_size = _check_sink_size(sink_size)
        if isinstance(epoch_num, bool) or not isinstance(epoch_num, int) or (epoch_num <= 0 and epoch_num != -1):
            raise ValueError(f"DatasetHelper: epoch_num must be a positive int (or -1), got {epoch_num!r}")
        self.epoch_num = epoch_num
        # sinking needs a compiled program to run on the device: GRAPH mode only
        self.device_sink = self.dataset_sink_mode and is_graph_mode()
        self.transfer_counts = TransferCounts()
        self._feed = _HostFeed(dataset)
        self._device_queue = deque()  # sink chunks waiting on the (simulated) device
        self._network = None

    def sink_size(self):
        """Steps per sink: ``sink_size``, or the dataset size when -1 (1 without sink)."""
        if not self.dataset_sink_mode:
            return 1
        return self._sink_size if self._sink_size > 0 else self.dataset.get_dataset_size()

    def get_sink_count(self):
        """Items one pass over the helper yields: 1 sink per pass in GRAPH mode."""
        if self.device_sink:
            return 1
        return self.sink_size() if self.dataset_sink_mode else self.dataset.get_dataset_size()

    def __len__(self):
        return self.get_sink_count()

    def __iter__(self):
        if self.device_sink:
            yield from self._sink_pass()
        elif self.dataset_sink_mode:  # PYNATIVE: real batches from the endless stream
            for _ in range(self.sink_size()):
                yield self._send_one(self._feed.next())
        else:
            for batch in self._feed.epoch():
                yield self._send_one(batch)

    def _send_one(self, batch):
        self.transfer_counts.host_to_device += 1
        self.transfer_counts.batches += 1
        return batch

    def _sink_pass(self):
        n = self.sink_size()
        if self._sink_size == -1:
            chunk = list(self._feed.epoch())  # one whole pass over the data
        else:
            chunk = [self._feed.next() for _ in range(n)]  # continue where the last sink stopped
        if not chunk:
            raise ValueError("DatasetHelper: the dataset yields no batches")
        self._device_queue.append(chunk)  # one transfer carries the whole chunk
        self.transfer_counts.host_to_device += 1
        self.transfer_counts.batches += len(chunk)
        yield ()

    def _take_chunk(self):
        if not self._device_queue:
            raise RuntimeError("The device data queue is empty: iterate the DatasetHelper (for inputs in "
                               "dataset_helper: net(*inputs)) so it sends a sink of data before each call")
        return self._device_queue.popleft()

    def types_shapes(self):
        """dtypes and shapes of one batch's columns (as MindSpore's ``types_shapes``)."""
        it = self.dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)
        row = next(iter(it))
        return [a.dtype for a in row], [a.shape for a in row]

    def get_data_info(self):
        return self.types_shapes()

    def continue_send(self):
        """Accepted for compatibility (MindSpore's sending thread)."""

    def stop_send(self):
        """Accepted for compatibility."""

    def release(self):
        """Drop data still waiting in the device queue."""
        self._device_queue.clear()

    def __repr__(self):
        mode = "sink" if self.device_sink else ("sink (PYNATIVE: per batch)" if self.dataset_sink_mode else "no sink")
        return f"DatasetHelper({mode}, sink_size={self.sink_size()}, transfers={self.transfer_counts.as_dict()})"


class DataSinkNetwork(Cell):
    """A network joined to a DatasetHelper's device queue (what ``connect_network_with_dataset`` returns).

    Calling it with no inputs takes one sink of batches from the queue and runs the network on each,
    back to back (on a device this loop is inside the compiled program; mslab runs the compiled step
    graph once per batch), then returns the last step's output: one result per sink.
    """

    def __init__(self, network, dataset_helper):
        super().__init__(auto_prefix=False)
        self.network = network
        self._dataset_helper = dataset_helper
        self.__dict__["last_sink_steps"] = 0  # written each call: not an attribute change a graph must see

    @property
    def dataset_helper(self):
        return self._dataset_helper

    def __call__(self, *inputs):
        if inputs:
            raise TypeError("This network takes its data from the device queue: call it with no inputs, with "
                            "what the DatasetHelper yields (for inputs in dataset_helper: net(*inputs))")
        helper = self._dataset_helper
        chunk = helper._take_chunk()
        network = self.network
        output = None
        for batch in chunk:  # the device loop: steps back to back, nothing else in between
            output = network(*batch)
        self.__dict__["last_sink_steps"] = len(chunk)  # (see __init__)
        helper.transfer_counts.device_to_host += 1
        return output

    def construct(self, *inputs):
        raise TypeError("DataSinkNetwork runs through __call__ (it has no graph of its own)")


def connect_network_with_dataset(network, dataset_helper):
    """Join ``network`` to ``dataset_helper``'s device queue (``mindspore.train.connect_network_with_dataset``).

    In sink mode under GRAPH mode, returns a network that runs a whole sink per call (see DataSinkNetwork).
    In PYNATIVE mode the helper yields real batches and ``network`` comes back unchanged. Without sink mode
    it is an error, as in MindSpore.
    """
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"connect_network_with_dataset: dataset_helper must be a DatasetHelper, got "
                        f"{type(dataset_helper).__name__}")
    if not dataset_helper.dataset_sink_mode:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset sink mode "
                           "(DatasetHelper(..., dataset_sink_mode=True)).")
    if not dataset_helper.device_sink:
        return network
    connected = dataset_helper._network
    if connected is not None:
        if connected.network is network:
            return connected
        raise ValueError("The dataset has been connected to another network: make a new DatasetHelper "
                         "for this one.")
    dataset_helper._network = DataSinkNetwork(network, dataset_helper)
    return dataset_helper._network
