"""Modes that change what ops do, per thread: no_grad(), detect_anomaly(), and tracing.

    with no_grad():          # ops record no graph: their results are leaves (torch.no_grad())
    with detect_anomaly():   # stop at the first op that makes a NaN or an inf, forward or backward

This module imports nothing of micrograd: the engine asks it which mode the thread is in, and it
reads Values only through their public attributes (data, grad, _prev, _op).
"""

from __future__ import annotations

import math
import os
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class TraceError(RuntimeError):
    """A function cannot be traced, or its replay disagrees with eager evaluation."""


class _Switches(threading.local):
    """One set of switches per thread, as in PyTorch."""

    grad = True  # False inside no_grad()
    anomaly = False  # True inside detect_anomaly()
    tracing = False  # True while micrograd.replay records a function


_switches = _Switches()

# Reading a thread-local costs ~0.1 us, as much as the rest of an op. So ops first read this plain
# count of the threads that are inside any mode, and look at their own thread's switches only
# when it is not 0 (the common case is 0: no thread is in no_grad(), detect_anomaly() or a trace).
threads_in_a_mode = 0
_lock = threading.Lock()


@contextmanager
def _switched(**switches: bool) -> Iterator[None]:
    """Set this thread's switches for the block, and restore them after."""
    global threads_in_a_mode
    before = {name: getattr(_switches, name) for name in switches}
    with _lock:
        threads_in_a_mode += 1
    for name, value in switches.items():
        setattr(_switches, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(_switches, name, value)
        with _lock:
            threads_in_a_mode -= 1


def no_grad() -> Any:
    """A context manager: inside it, ops record no graph (their results are leaves), as
    torch.no_grad()."""
    return _switched(grad=False)


def enable_grad() -> Any:
    """A context manager: ops record the graph inside it, even within no_grad()."""
    return _switched(grad=True)


def detect_anomaly() -> Any:
    """A context manager: inside it, raise FloatingPointError at the first op that makes a NaN or
    an inf, forward or backward, naming the op, its inputs and the line that made the Value.

    Slower than plain mode (each op records where it was made), so use it to debug."""
    return _switched(anomaly=True)


def tracing() -> Any:
    """A context manager for micrograd.replay: ops record the graph (even inside no_grad()) and
    reading a Value's number raises TraceError."""
    return _switched(tracing=True, grad=True)


def grad_enabled() -> bool:
    """Whether ops in this thread record the graph."""
    return _switches.grad


def anomaly_enabled() -> bool:
    """Whether this thread is inside detect_anomaly()."""
    return _switches.anomaly


def is_tracing() -> bool:
    """Whether this thread is recording a function for micrograd.replay."""
    return _switches.tracing


# ---------------------------------------------------------------------------- anomaly checks
def where() -> str:
    """The innermost line of the caller's code outside micrograd, for error messages."""
    for frame in reversed(traceback.extract_stack()):
        if os.path.dirname(os.path.abspath(frame.filename)) != _PACKAGE_DIR:
            return f"{frame.filename}:{frame.lineno}: {(frame.line or '').strip()}"
    return "<unknown>"


def _number(x: Any) -> float:
    return float(getattr(x, "data", x))  # a grad is a float, or a Value under create_graph


def check_forward(op: str, data: float, inputs: tuple[Any, ...]) -> str:
    """Raise FloatingPointError if an op's output is not finite; else return where it was made."""
    made = where()
    if not math.isfinite(data):
        args = ", ".join(repr(v.data) for v in inputs)
        raise FloatingPointError(f"op {op!r} on ({args}) gave {data!r}, at {made}")
    return made


def check_backward(node: Any) -> None:
    """Raise FloatingPointError if the node's backward step gave an input a grad that is not
    finite, naming the input, the op and where the node was made."""
    for k, v in enumerate(node._prev):
        g = _number(v.grad)
        if not math.isfinite(g):
            args = ", ".join(repr(i.data) for i in node._prev)
            made = node._where
            raise FloatingPointError(
                f"backward of op {node._op!r} on ({args}) gave the grad {g!r} to its input {k} "
                f"(data {v.data!r}); the op's output was made at {made}"
            )


def made(out: Any) -> Any:
    """An op's output Value when some thread is in a mode: a leaf in no_grad(), checked in
    anomaly mode (where it was made is kept for backward's messages)."""
    if not grad_enabled():
        return type(out)(out.data)  # no_grad(): a leaf
    if anomaly_enabled():
        out._where = check_forward(out._op, out.data, out._prev)
    return out
