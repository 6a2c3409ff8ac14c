"""C++'s ``std::nth_element`` as GCC's standard library runs it, step by step: the order MindSpore's TopK leaves.

MindSpore 2.10's CPU TopK kernel picks the k largest of a row with ``std::nth_element(idx, idx + k, end, comp)``
over the row's indices. Afterwards the first k indices are the k largest, in no promised order; with
``sorted=False`` MindSpore returns them in exactly that order. To give the same indices, this module does
what GCC's introselect does, swap for swap:

    while the range holds more than 3 elements:
        move the median of (first + 1, middle, last - 1) to first; partition the rest around it
        keep the side that holds position k            (after 2 log2(n) rounds: a heap select instead)
    insertion-sort the 3 or fewer left

``comp(a, b)`` is C++'s "a goes before b" (``x[a] > x[b]`` for the largest first).
"""

__all__ = ["nth_element"]


def nth_element(a, nth, comp):
    """Reorder the list ``a`` in place as ``std::nth_element(a.begin(), a.begin() + nth, a.end(), comp)``."""
    first, last = 0, len(a)
    if first == last or nth == last:
        return
    depth = 2 * ((last - first).bit_length() - 1)  # 2 * floor(log2(n)), GCC's introselect limit
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, comp)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, comp)


def _partition_pivot(a, first, last, comp):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, comp)
    return _unguarded_partition(a, first + 1, last, first, comp)


def _move_median_to_first(a, result, x, y, z, comp):
    if comp(a[x], a[y]):
        median = y if comp(a[y], a[z]) else z if comp(a[x], a[z]) else x
    else:
        median = x if comp(a[x], a[z]) else z if comp(a[y], a[z]) else y
    a[result], a[median] = a[median], a[result]


def _unguarded_partition(a, first, last, pivot, comp):
    while True:
        while comp(a[first], a[pivot]):
            first += 1
        last -= 1
        while comp(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _insertion_sort(a, first, last, comp):
    for i in range(first + 1, last):
        value = a[i]
        if comp(value, a[first]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = value
        else:
            j = i
            while comp(value, a[j - 1]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = value


def _adjust_heap(a, first, hole, n, value, comp):
    top, child = hole, hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if comp(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and comp(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole, parent = parent, (parent - 1) // 2
    a[first + hole] = value


def _heap_select(a, first, middle, last, comp):
    n = middle - first
    for parent in range((n - 2) // 2, -1, -1):  # make_heap
        _adjust_heap(a, first, parent, n, a[first + parent], comp)
    for i in range(middle, last):
        if comp(a[i], a[first]):
            value, a[i] = a[i], a[first]
            _adjust_heap(a, first, 0, n, value, comp)
