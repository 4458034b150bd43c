"""What keeps engine.py's Value safe, beside the lesson: numbers checked where they come in (and
where comparisons read them), an op's error that names the op and its inputs, one backward pass at
a time with a failed one undone, backward's loop in the modes (anomaly checks, grads of grads),
and the default closure of a Value made by hand.
"""

from __future__ import annotations

import numbers
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from micrograd import modes
from micrograd.text import text


def as_float(x: object, op: str) -> float:
    """x as a float, or a TypeError naming the op and the value."""
    if type(x) is float:  # the common case, before the slower ABC check
        return x
    shown = repr(x) if len(repr(x)) <= 40 else repr(x)[:40] + "..."
    # numbers.Real (a Value is not one), and numpy's 0-d booleans (numpy.bool_ is not a Real, as
    # Python's bool is)
    boolean = (
        getattr(x, "ndim", None) == 0 and getattr(getattr(x, "dtype", None), "kind", "") == "b"
    )
    if isinstance(x, numbers.Real) or boolean:
        try:
            return float(x)  # type: ignore[arg-type]
        except OverflowError:
            raise OverflowError(f"{op}: {shown} is too large for a float") from None
    wanted = "a real number" if op == "Value()" else "a real number or a Value"
    kind = (
        type(x).__qualname__
        if type(x).__module__ == "builtins"
        else f"{type(x).__module__}.{type(x).__qualname__}"
    )
    raise TypeError(f"{op}: expected {wanted}, got {shown} of type {kind}")


def op_error(e: Exception, op: str, *inputs: Any) -> Exception:
    """The error of an op's forward, with the op and its inputs in the message; it keeps them and
    its reason's key, so the command and the pages can say it in Chinese too."""
    fields: dict[str, object] = getattr(e, "fields", {})
    if hasattr(e, "reason"):  # micrograd.maths said why
        reason = e.reason
    elif isinstance(e, OverflowError):
        reason = "reason_too_large"
    else:  # Python's own: a division by zero, a math domain error
        kind = "reason_division_by_zero" if isinstance(e, ZeroDivisionError) else "reason_domain"
        reason, fields = kind, {"message": str(e)}
    args = ", ".join(repr(v.data) for v in inputs)
    failed = type(e)(
        text("op_error", "en", op=op, inputs=args, reason=text(reason, "en", **fields))
    )
    failed.op, failed.inputs, failed.reason, failed.fields = op, args, reason, fields  # type: ignore[attr-defined]
    return failed


def read(x: Any) -> float:
    """The number of a Value (a node of a graph) or of a number, for comparisons: refused while
    tracing, where it would freeze a branch on data into the trace."""
    if modes.threads_in_a_mode and modes.is_tracing():
        raise modes.TraceError(
            "a traced function read a Value's number (a comparison): control flow that depends "
            "on data cannot be captured; write the branch with ops (relu, tanh...) or run eagerly"
        )
    return x.data if hasattr(x, "_da") else as_float(x, "comparison")


# One backward pass at a time: passes over graphs that share Values would otherwise zero and add
# into the same inner grads at once. Under the GIL this costs nothing (a pass is pure Python).
_backward_lock = threading.RLock()
_ZERO = 0  # the grad of a fresh Value: nothing to keep (an identity test, cheaper than ==)


@contextmanager
def backward_pass(topo: list[Any], root: Any, seed: Any) -> Iterator[None]:
    """Zero the inner grads of `topo`, add `seed` to the root's grad, run the block; if it raised,
    put every grad back as it was.

    Leaves accumulate across calls, as in the original and in PyTorch: each contribution is added
    onto what the leaf held as it comes (`leaf.grad += local * grad`, in the pass's order), so a
    loop that calls backward() on one graph after another without zeroing gets the original's sums
    to the last bit. Inner nodes start from 0 on every call, so stale grads never compound."""
    with _backward_lock:
        held = [(v, v.grad) for v in topo if v.grad is not _ZERO]
        for v, _ in held:
            if v._a is not None:
                v.grad = 0
        root.grad = seed if root._a is not None else root.grad + seed  # a leaf root accumulates
        try:
            yield
        except BaseException:  # a closure, an anomaly check or an overflow stopped the pass
            for v in topo:
                v.grad = 0
            for v, g in held:
                v.grad = g
            raise


def backward_in_mode(topo: list[Any], create_graph: bool, step: Callable[[Any], None]) -> None:
    """backward()'s loop for create_graph and for threads in a mode: the same chain rule, `step`
    of one node at a time, with a check after each step under detect_anomaly()."""
    check = modes.anomaly_enabled()
    for v in reversed(topo):
        try:
            step(v)
        except FloatingPointError as e:
            if not (check and create_graph):
                raise
            # the ops that failed were the local derivatives' own, built by this backward pass
            args = ", ".join(repr(x.data) for x in v._prev)
            raise FloatingPointError(
                f"backward of op {v._op!r} on ({args}), made at {v._where}: computing its local "
                f"derivatives as Values (create_graph=True), {e}"
            ) from None
        if check and v._a is not None:
            modes.check_backward(v)


class NoBackward:
    """The _backward of a Value made by hand before its maker sets one: it adds nothing to the
    inputs' grads (the original's `lambda: None`) and says so in a warning, once per op name."""

    __slots__ = ("op",)

    def __init__(self, op: str) -> None:
        self.op = op

    def __call__(self) -> None:
        # at the backward() call, in the learner's language (Chinese where LANG says zh_*)
        warnings.warn(text("no_backward", None, op=self.op), stacklevel=3)
