"""Opt-in process tuning for training loops: garbage-collector thresholds and glibc's heap padding.

Importing micrograd changes nothing in the process. These are explicit calls:

    with micrograd.tuned():      # for the block: fewer full collections, freed heap kept
        for step in range(100):
            ...                  # a training loop of the eager engine or the fast path

`micrograd demo`, `micrograd train`, `train.fit()` and the benchmarks use `tuned()`.
What each setting buys, measured, is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import ctypes
import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# CPython runs a full collection, which walks every object in the process, whenever the objects
# that survived the young generations have grown by 25%. A training step builds and drops a graph
# of tens of thousands of Values, so it paid for about one full collection per step. Ten times
# fewer full collections; the young ones are unchanged, so cyclic garbage is still found.
TUNED_GC_THRESHOLD2 = 100

# glibc returns freed heap memory to the OS at once and faults fresh pages in on the next call;
# the fast path's numpy temporaries of a few hundred KB each paid for that on every replay.
M_TOP_PAD = -2  # the mallopt() parameter, from <malloc.h>
TUNED_TOP_PAD = 16 << 20
DEFAULT_TOP_PAD = 128 << 10  # glibc's default (DEFAULT_TOP_PAD in malloc.c)


def _mallopt(param: int, value: int) -> bool:
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc: nothing to tune
        return False
    return bool(mallopt(param, value))


# The settings are the process's, but blocks may overlap (fit() in two threads, two playground
# runs): the first block in tunes, the last one out puts back what was there before the first.
_lock = threading.Lock()
_inside = 0
_before: tuple[tuple[int, int, int], bool] = ((700, 10, 10), False)


@contextmanager
def tuned() -> Iterator[None]:
    """Inside the block: full garbage collections 10x rarer and glibc's heap padding at 16 MB;
    both are put back as they were (padding: glibc's default) when the last block open ends."""
    global _inside, _before
    with _lock:
        if _inside == 0:
            threshold = gc.get_threshold()
            gc.set_threshold(threshold[0], threshold[1], max(threshold[2], TUNED_GC_THRESHOLD2))
            _before = threshold, _mallopt(M_TOP_PAD, TUNED_TOP_PAD)
        _inside += 1
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0:
                threshold, padded = _before
                gc.set_threshold(*threshold)
                if padded:
                    _mallopt(M_TOP_PAD, DEFAULT_TOP_PAD)
