"""Repeated blocks: runs of sibling Cell calls that do the same thing fold into one box with a count.

A 300-layer MLP is ``SequentialCell([Dense, ReLU] * 300)``: 600 sibling Cell calls whose ops repeat with
period 2. Drawn one box per call it is a 9 x 13 m picture that Graphviz cannot lay out in a minute; drawn
as one box ``0 … 599 ×300`` (and its gradient ``∇ 0 … 599``) it is read at a glance, and a click opens it.

Two calls are "the same block" when they run the same ops in the same order (the scope path names the
attribute, ``0``, ``fc1``, not the class, so the ops are what the picture can compare). A run is kept when
a block of 1-4 consecutive sibling calls repeats at least ``MIN_REPEATS`` times.
"""
from mslab.lab.viz.reading import Level

MIN_REPEATS = 3  # LeNet's conv/relu/pool twice and fc/relu twice stay as they are
MAX_PERIOD = 4  # a block of up to four sibling calls (Dense, BatchNorm, ReLU, Dropout)
MANY_UPDATES = 12  # more optimizer updates than this fold into one optimizer box


def repeat_groups(levels):
    """``{call frame key: group Level}`` for the sibling calls that fold into a repeat box.

    ``levels``: node -> its Cell-call Levels (``reading.scope_levels``), in run order.
    """
    children, ops = {}, {}  # parent key -> sibling call keys in run order; call key -> its ops
    label = {}
    for lv in levels.values():
        for i, level in enumerate(lv):
            parent = lv[i - 1].key if i else None
            sib = children.setdefault(parent, [])
            if not sib or sib[-1] != level.key:
                sib.append(level.key)
            label[level.key] = level.label
    for n, lv in levels.items():
        for level in lv:
            ops.setdefault(level.key, []).append(n.op)
    groups = {}
    for parent, sib in children.items():
        for start, period, reps in _runs([tuple(ops[k]) for k in sib]):
            calls = sib[start:start + period * reps]
            first, last = label[calls[0]], label[calls[-1]]
            base = (parent + "/") if parent else ""
            key = f"{base}{first}\u2026{last}"
            block = ", ".join(_summary(ops[k]) for k in calls[:period])
            g = Level(key, f"{first} \u2026 {last}  \u00d7{reps}",
                      f"{reps} repeats of the same block of {period} Cell call{'s' * (period > 1)} "
                      f"({block}): {len(calls)} calls folded into one box")
            for k in calls:
                groups[k] = g
    return groups


def _summary(ops):
    return "\u2192".join(dict.fromkeys(ops))


def _runs(sigs):
    """``(start, period, repeats)`` of each maximal repeating run in a list of signatures, greedily."""
    out, i = [], 0
    while i < len(sigs):
        best = None
        for p in range(1, MAX_PERIOD + 1):
            reps = 1
            while sigs[i + reps * p:i + (reps + 1) * p] == sigs[i:i + p]:
                reps += 1
            if reps >= MIN_REPEATS and (best is None or reps * p > best[1] * best[2]):
                best = (i, p, reps)
        if best is None:
            i += 1
        else:
            out.append(best)
            i += best[1] * best[2]
    return out


def substitute(levels, groups, expand):
    """``levels`` with each folded run's calls replaced by its group Level (deeper levels dropped), unless the
    learner expanded the group; returns (levels, the group keys in force)."""
    out, forced = {}, set()
    for n, lv in levels.items():
        for i, level in enumerate(lv):
            g = groups.get(level.key)
            if g is not None and g.key not in expand:
                lv = lv[:i] + [g]
                forced.add(g.key)
                break
        out[n] = lv
    return out, forced
