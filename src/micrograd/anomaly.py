"""Anomaly detection: stop at the first op that makes a NaN or an inf, and say where.

    with detect_anomaly():
        loss = model(x)        # FloatingPointError here if an op's output is not finite,
        loss.backward()        # or here if a gradient is not, naming the op and where it was made

Slower than plain mode (each op records the line that made it), so use it to debug.
"""

from __future__ import annotations

import math
import os
import traceback
from typing import Any

from micrograd.engine import Value, _mode, _switched

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def detect_anomaly() -> Any:
    """A context manager: inside it, raise FloatingPointError at the first op that makes a NaN or
    an inf, forward or backward, naming the op, its inputs and where the Value was made."""
    return _switched(anomaly=_mode.anomaly if _mode.anomaly is not None else {})


def _where() -> str:
    """The innermost line of the caller's code outside micrograd, for error messages."""
    for frame in reversed(traceback.extract_stack()):
        if os.path.dirname(os.path.abspath(frame.filename)) != _PACKAGE_DIR:
            return f"{frame.filename}:{frame.lineno}: {(frame.line or '').strip()}"
    return "<unknown>"


def check_forward(name: str, data: float, inputs: tuple[Value, ...], out: Value) -> None:
    """Raise if the op's output is not finite; else remember where `out` was made."""
    assert _mode.anomaly is not None
    where = _where()
    if not math.isfinite(data):
        args = ", ".join(repr(v.data) for v in inputs)
        raise FloatingPointError(f"op {name!r} on ({args}) gave {data!r}, at {where}")
    _mode.anomaly[id(out)] = (out, where)  # holding the Value keeps its id from being reused


def check_backward(node: Value) -> None:
    """Raise if the node's backward step gave an input a grad that is not finite."""
    assert _mode.anomaly is not None
    for v in node._prev:
        g = v.grad.data if isinstance(v.grad, Value) else v.grad
        if not math.isfinite(g):
            args = ", ".join(repr(i.data) for i in node._prev)
            made = _mode.anomaly.get(id(node), (None, "outside detect_anomaly()"))[1]
            raise FloatingPointError(
                f"backward of op {node._op!r} on ({args}) gave the grad {g!r} to an input; "
                f"the op's output was made at {made}"
            )
