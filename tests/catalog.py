"""Every op of micrograd.engine.OPS through every namespace and every consumer: what a new op still
needs. `missing(op)` lists, in words, each place an op is not yet wired into (empty: complete).

A rule is one function; the places that run it are the math namespaces (floats, IEEE floats, Values,
numpy arrays, torch tensors), the eager engine (a Value method), grads of grads
(backward(create_graph=True)), the replay's numpy and pure-Python back ends (micrograd.replay),
its torch back end (to_torch_fn), the
expression language of `micrograd explain` (micrograd.teach.expr.FUNCTIONS), and explain's formula (the fuzz
dictionary is made from micrograd.teach.expr.FUNCTIONS). tests/test_maths.py runs it for every row, and on a half-added op in a subprocess.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

from micrograd import engine
from micrograd.engine import OPS, Value
from micrograd.maths import FUNCTIONS, FloatMath, IEEEMath, NumpyMath, TorchMath

K = 3  # the exponent of "**k"
BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "*": operator.mul,
    "/": operator.truediv,
    "**": operator.pow,
}


def arity(op: str) -> int:
    """How many Values the op takes (a rule's parameters after m, less k for "**k")."""
    return 2 if op in BINARY else 1


def point(op: str) -> list[float]:
    """Inputs inside every op's domain, away from kinks: positive and not 1."""
    return [0.7, 1.3][: arity(op)]


def method(op: str) -> str:
    """The Value method of a one-input op ("ReLU" -> relu), as the expression language calls it."""
    return op.lower()


def apply(op: str) -> Callable[..., Any] | None:
    """The op applied to Values (or None if Value has no way to call it)."""
    if op in BINARY:
        return BINARY[op]
    if op == "**k":
        return lambda a: a**K
    if not hasattr(Value, method(op)):
        return None
    return lambda a: getattr(a, method(op))()


def run_rule(op: str, m: Any, xs: list[Any]) -> tuple[Any, tuple[Any, ...]]:
    """The rule of `op` on inputs xs in namespace m."""
    return OPS[op](m, *xs, K) if op == "**k" else OPS[op](m, *xs)


def namespaces() -> dict[str, tuple[Any, Callable[[float], Any]]]:
    """name -> (namespace, how to make one of its numbers from a float)."""
    found: dict[str, tuple[Any, Callable[[float], Any]]] = {
        "FloatMath": (FloatMath, float),
        "IEEEMath": (IEEEMath, float),
        "ValueMath": (engine.ValueMath, Value),
    }
    try:
        import numpy as np

        found["NumpyMath"] = (NumpyMath(np), lambda x: np.array([x]))
    except ImportError:
        pass
    try:
        import torch

        found["TorchMath"] = (
            TorchMath(torch),
            lambda x: torch.tensor([x], dtype=torch.float64),
        )
    except ImportError:
        pass
    return found


def called_by(op: str) -> list[str]:
    """The functions of the namespace that the rule of `op` calls, in order (by running it on
    floats through a recorder; a function FloatMath lacks is recorded, then fails the run)."""
    called: list[str] = []

    class Recorder:
        def __getattr__(self, name: str) -> Any:
            called.append(name)
            return getattr(FloatMath, name)

    try:
        run_rule(op, Recorder(), point(op))
    except AttributeError:
        pass
    return called


def _number(x: Any) -> float:
    if isinstance(x, Value):
        return x.data
    if hasattr(x, "tolist"):
        x = x.tolist()
        return float(x[0] if isinstance(x, list) else x)
    return float(x)


def _close(a: float, b: float, tol: float = 1e-9) -> bool:
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def missing(op: str) -> list[str]:
    """Each place `op` is not wired into yet, in words; [] when it is complete."""
    problems: list[str] = []
    xs = point(op)
    # 0. the rule calls only the contract's functions, every namespace has them, it runs on floats
    called = called_by(op)
    outside = sorted(set(called) - set(FUNCTIONS))
    if outside:
        problems.append(f"the rule calls {', '.join(outside)}: not in micrograd.maths.Math")
    spaces = namespaces()
    for name, (m, _) in spaces.items():
        lacks = [f for f in dict.fromkeys([*FUNCTIONS, *called]) if not hasattr(m, f)]
        if lacks:
            problems.append(f"{name} has no {', '.join(lacks)}")
    try:
        want_out, want_local = run_rule(op, FloatMath, xs)
    except Exception as e:  # the rule itself fails on floats: nothing else can be checked
        problems.append(f"FloatMath cannot run the rule: {type(e).__name__}: {e}")
        return problems
    # 1. every namespace gives every elementary function, and the rule runs in each
    for name, (m, make) in spaces.items():
        try:
            out, local = run_rule(op, m, [make(x) for x in xs])
        except Exception as e:
            problems.append(f"{name} cannot run the rule: {type(e).__name__}: {e}")
            continue
        numbers = [_number(out)] + [_number(d) for d in local]
        if not all(_close(a, b) for a, b in zip(numbers, [want_out, *want_local])):
            problems.append(f"{name} gives {numbers}, FloatMath {[want_out, *want_local]}")
    # 2. the eager engine: a way to call it, its output and grads, central differences
    fn = apply(op)
    if fn is None:
        problems.append(f"Value has no method {method(op)!r} for op {op!r}")
        return problems
    leaves = [Value(x) for x in xs]
    try:
        out = fn(*leaves)
        out.backward()
    except Exception as e:
        problems.append(f"Value.{method(op)} fails: {type(e).__name__}: {e}")
        return problems
    if out._op != op and not (op == "**k" and out._k == K):
        problems.append(f"Value.{method(op)} makes op {out._op!r}, not {op!r}")
    for i, leaf in enumerate(leaves):
        h = 1e-6
        up, down = list(xs), list(xs)
        up[i] += h
        down[i] -= h
        slope = (fn(*map(Value, up)).data - fn(*map(Value, down)).data) / (2 * h)
        if not _close(leaf.grad, slope, 1e-6) or not _close(leaf.grad, want_local[i]):
            problems.append(
                f"eager grad {leaf.grad} of input {i}: rule {want_local[i]}, slope {slope}"
            )
    # 3. grads of grads: the first derivative is differentiable again
    try:
        leaves = [Value(x) for x in xs]
        fn(*leaves).backward(create_graph=True)
        first = leaves[0].grad
        second = [0.0] * len(leaves)
        if isinstance(first, Value) and first._prev:
            for leaf in leaves:
                leaf.grad = 0
            first.backward()
            second = [float(leaf.grad) for leaf in leaves]
        for i in range(len(xs)):
            h = 1e-5
            up, down = list(xs), list(xs)
            up[i] += h
            down[i] -= h
            slope = (run_rule(op, FloatMath, up)[1][0] - run_rule(op, FloatMath, down)[1][0]) / (
                2 * h
            )
            if not _close(second[i], slope, 1e-5):
                problems.append(f"create_graph: second derivative {second[i]}, slope {slope}")
    except Exception as e:
        problems.append(f"backward(create_graph=True) fails: {type(e).__name__}: {e}")
    # 4. and 5. the replay's back ends: a traced row gives the eager numbers (numpy: an array,
    # python: its rule written out)
    from micrograd.replay import compile

    for backend in ("numpy", "python"):
        try:
            if backend == "numpy":
                import numpy  # noqa: F401
            prog = compile(fn, [], len(xs), example=xs, backend=backend)
            values, _, dx = prog.value_and_grad([xs], input_grads=True)
            got, local = float(values[0]), [float(d) for d in dx[0]]
            if not _close(got, want_out) or not all(
                _close(local[i], want_local[i]) for i in range(len(xs))
            ):
                problems.append(f"micrograd.replay ({backend}): {got}, {local} (eager {want_out})")
        except ImportError:
            pass
        except Exception as e:  # what a half-wired op raises there
            problems.append(f"micrograd.replay ({backend}) fails: {type(e).__name__}: {e}")
    # 6. export: torch runs the rule and its autograd agrees
    try:
        import torch

        from micrograd.replay.torch import to_torch_fn

        leaves = [Value(x) for x in xs]
        torch_fn = to_torch_fn(fn(*leaves), leaves)
        ts = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
        result = torch_fn(*ts)
        result.backward()
        grads = [float(t.grad) for t in ts]
        if not _close(result.item(), want_out) or not all(
            _close(g, d) for g, d in zip(grads, want_local)
        ):
            problems.append(f"to_torch_fn: {result.item()}, {grads} (eager {want_out})")
    except ImportError:
        pass
    except Exception as e:
        problems.append(f"to_torch_fn fails: {type(e).__name__}: {e}")
    # 7. the expression language, explain's formula and the fuzz dictionary (one-input ops)
    if op.isidentifier():
        from micrograd.teach.expr import FUNCTIONS as CALLABLE
        from micrograd.teach.expr import parse_expression
        from micrograd.viz import formula

        try:
            if method(op) not in CALLABLE:
                problems.append(f"micrograd.teach.expr.FUNCTIONS has no {method(op)!r}")
            else:
                parsed = parse_expression(f"{method(op)}(a)", {"a": xs[0]})
                if not _close(parsed.data, want_out):
                    problems.append(f"`micrograd explain '{method(op)}(a)'` gives {parsed.data}")
            shown = formula(fn(Value(xs[0])), ["a"])
            if method(op) not in shown.lower():
                problems.append(f"explain's formula shows {shown!r}")
        except Exception as e:
            problems.append(f"the expression language or explain fails: {type(e).__name__}: {e}")
    return problems
