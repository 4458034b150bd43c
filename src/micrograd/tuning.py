"""Opt-in tuning for training loops: the process's settings, never its code. Garbage-collector
thresholds and glibc's heap padding (tuned()), and numpy's BLAS threads (one_blas_thread()).

Importing micrograd changes nothing in the process, and nothing here changes a class or a function:
the engine a learner reads in engine.py is what runs, inside these blocks too. Explicit calls:

    with micrograd.tuned():      # for the block: fewer full collections, heap kept
        for step in range(100):
            ...                  # a training loop of the eager engine or the fast path

    with micrograd.tuning.one_blas_thread():  # numpy's matrix products on one thread
        ...

`micrograd demo`, `micrograd train`, `train.fit()` and the benchmarks use `tuned()`; fit() and the
playground use `one_blas_thread()` for models whose matrix products are small (SMALL_PRODUCT).
What each setting buys, measured, is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import ctypes
import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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
    """Inside the block: full garbage collections 10x rarer and glibc's heap padding at 16 MB.
    Both are put back as they were (padding: glibc's default) when the last block open ends."""
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


# numpy's BLAS (OpenBLAS) runs a matrix product on one thread per core. For the products of small
# models the threads cost more than they save, and on a busy machine a thread that waits for a core
# stalls the whole step: fit() on the digits (MLP(64, [64, 10]), batch 128) took 1.6-2.0 ms a step
# with one thread and 2.1-2.3 ms with two, and beside two busy processes 1.4-2.0 ms median (p90 6 ms)
# with one thread against 6.0-6.6 ms (p90 12-40 ms) with two. Threads win from about
# 30 million multiply-adds a product (width 256 on all 1797 digits: 7.8-8.3 ms against 9.8-10.2).
SMALL_PRODUCT = 16_000_000  # multiply-adds of a step's largest product, below which: one thread

_blas_lock = threading.Lock()
_blas_inside = 0
_blas_limiter: Any = None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Inside the block, numpy's BLAS runs on one thread (through threadpoolctl, which comes with
    the fast extra; without it the block runs as it is). Overlapping blocks share the setting: the
    last one out puts back the thread counts there were."""
    global _blas_inside, _blas_limiter
    with _blas_lock:
        if _blas_inside == 0:
            _blas_limiter = _limit_blas()
        _blas_inside += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_inside -= 1
            if _blas_inside == 0 and _blas_limiter is not None:
                _blas_limiter.restore_original_limits()
                _blas_limiter = None


_controller: Any = None


def _limit_blas() -> Any:
    """The limiter that put BLAS on one thread, or None without threadpoolctl. The controller,
    which scans the loaded libraries, is made once per program."""
    global _controller
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    if _controller is None:
        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")
