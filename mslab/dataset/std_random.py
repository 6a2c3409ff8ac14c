"""The random orders of MindSpore's data pipeline: C++'s ``std::shuffle`` over a ``std::mt19937``, as libstdc++ does it.

MindSpore's ``RandomSampler`` (the sampler behind ``shuffle=True`` of ``GeneratorDataset``, ``NumpySlicesDataset``
and the file datasets) is C++: it seeds a ``std::mt19937`` with the dataset seed, fills ``0 .. n-1`` and calls
``std::shuffle``; each later epoch adds one to the seed, re-seeds, and shuffles the previous epoch's order again.
To print MindSpore's losses, mslab draws the same numbers in the same way:

* ``std::mt19937`` is the 32-bit Mersenne Twister; numpy's ``MT19937`` seeded the legacy way (one 32-bit integer,
  ``init_genrand``) is the same generator, output for output;
* libstdc++'s ``uniform_int_distribution(0, b)`` scales a draw down by division: with ``k = b + 1`` and
  ``scale = (2**32 - 1) // k``, draws at or above ``k * scale`` are rejected, the rest give ``draw // scale``;
* libstdc++'s ``std::shuffle`` (GCC 9 and later) swaps element i with a position drawn from ``0 .. i``, but where
  ``n * n`` fits the generator's range it draws two positions at once: one number ``x`` from
  ``0 .. (i + 1) * (i + 2) - 1`` gives ``x // (i + 2)`` for element i and ``x % (i + 2)`` for element i + 1
  (an even n first swaps element 1 with position 0 or 1 on its own).

``Dataset.shuffle(buffer_size)`` is another C++ operator: it fills a buffer of ``buffer_size`` rows, then sends
the row in slot ``draw % filled`` of a ``std::mt19937_64`` seeded once with the dataset seed, moves the buffer's
last row into that slot and refills the last slot from its input (``buffer_shuffle``); later epochs go on drawing
from the same generator.

Checked against MindSpore 2.10 on CPU (tests/dataset/test_std_random.py): the orders of 7, 10, 100, 60,000 and
70,000 rows over two epochs are identical, and so are the buffer shuffles tried. (Lemire's multiply-and-shift
scaling, which newer libstdc++ uses, gives other orders from 60,000 rows on: MindSpore 2.10's library does not.)
"""
from typing import Callable, Iterable, Iterator

import numpy as np

_RANGE = 0xFFFFFFFF  # std::mt19937::max() - min()
DEFAULT_SEED = 5489  # std::mt19937's default seed: MindSpore's dataset seed until one is set, taken as "none set"
_CHUNK = 4096  # raw draws taken from numpy at a time (one call per draw would cost ~1 us each)


class Mt19937:
    """``std::mt19937(seed)``: 32-bit draws, in the order C++ gives them."""

    def __init__(self, seed: int) -> None:
        self._bits = np.random.MT19937()
        self._bits._legacy_seeding(int(seed) & 0xFFFFFFFF)  # init_genrand(seed): std::mt19937's seeding
        self._buffer: list[int] = []
        self._next = 0

    def __call__(self) -> int:
        if self._next == len(self._buffer):
            self._buffer = self._bits.random_raw(_CHUNK).tolist()
            self._next = 0
        value = self._buffer[self._next]
        self._next += 1
        return value

    def uniform_int(self, low: int, high: int) -> int:
        """``std::uniform_int_distribution(low, high)(*this)`` of libstdc++: downscaling by division, with rejection."""
        span = high - low
        if span == _RANGE:
            return low + self()
        k = span + 1
        scale = _RANGE // k
        past = k * scale
        draw = self()
        while draw >= past:
            draw = self()
        return low + draw // scale


def shuffle(items: list, generator: Mt19937) -> None:
    """``std::shuffle(items.begin(), items.end(), generator)`` of libstdc++, in place."""
    n = len(items)
    if n < 2:
        return
    if _RANGE // n < n:  # n * n does not fit the generator's range: one draw per element
        for i in range(1, n):
            j = generator.uniform_int(0, i)
            items[i], items[j] = items[j], items[i]
        return
    i = 1
    if n % 2 == 0:  # an odd number of swaps: the first one alone
        j = generator.uniform_int(0, 1)
        items[i], items[j] = items[j], items[i]
        i += 1
    while i < n:  # two swaps per draw
        reach = i + 1
        x = generator.uniform_int(0, reach * (reach + 1) - 1)
        first, second = divmod(x, reach + 1)
        items[i], items[first] = items[first], items[i]
        items[i + 1], items[second] = items[second], items[i + 1]
        i += 2


def sampler_order(n: int, seed: int, epoch: int) -> list[int]:
    """The row order MindSpore's ``RandomSampler`` gives ``n`` rows in ``epoch`` (0, 1, ...) when its seed is
    ``seed``: ``0 .. n-1`` shuffled with ``seed``, then that order shuffled again with ``seed + 1``, and so on."""
    order = list(range(n))
    for e in range(epoch + 1):
        shuffle(order, Mt19937(seed + e))
    return order


_MASK64 = (1 << 64) - 1


class Mt19937_64:
    """``std::mt19937_64(seed)``: the 64-bit Mersenne Twister (numpy has only the 32-bit one), as the C++ standard
    defines it: 312 words of state, twisted 312 outputs at a time, each output tempered."""

    def __init__(self, seed: int) -> None:
        state = [int(seed) & _MASK64]
        for i in range(1, 312):
            previous = state[-1]
            state.append((6364136223846793005 * (previous ^ (previous >> 62)) + i) & _MASK64)
        self._state, self._next = state, 312

    def _twist(self) -> None:
        state = self._state
        for k in range(312):
            x = (state[k] & 0xFFFFFFFF80000000) | (state[(k + 1) % 312] & 0x7FFFFFFF)
            state[k] = state[(k + 156) % 312] ^ (x >> 1) ^ (0xB5026F5AA96619E9 if x & 1 else 0)
        self._next = 0

    def __call__(self) -> int:
        if self._next == 312:
            self._twist()
        y = self._state[self._next]
        self._next += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        return (y ^ (y >> 43)) & _MASK64


def buffer_shuffle(rows: Iterable, buffer_size: int, draw: Callable[[], int]) -> Iterator:
    """The rows of one epoch in the order MindSpore's ``ShuffleOp`` sends them: a buffer of ``buffer_size`` rows,
    the row in slot ``draw() % filled`` sent, the last row moved into its slot, the last slot refilled from
    ``rows`` (once they run out, the buffer drains). ``draw`` is the operator's ``Mt19937_64``, kept across epochs."""
    source = iter(rows)
    buffer = []
    for row in source:
        buffer.append(row)
        if len(buffer) == buffer_size:
            break
    filling = len(buffer) == buffer_size  # more rows may follow
    last = len(buffer) - 1
    while last >= 0:
        slot = draw() % (last + 1)
        yield buffer[slot]
        buffer[slot] = buffer[last]
        if filling:
            row = next(source, _NO_ROW)
            if row is _NO_ROW:
                filling = False
            else:
                buffer[last] = row
        if not filling:
            last -= 1


_NO_ROW = object()
