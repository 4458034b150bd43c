"""A functional API in the style of JAX and HIPS autograd: grad, value_and_grad, hessian.

Each takes a function of float arguments built from Value ops and returns a function that gives
floats. They build their own Values, so they leave no state behind and never touch a caller's grads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Union

from micrograd.engine import Value

Argnums = Union[int, Sequence[int]]


def _leaves(args: Sequence[Any]) -> list[Value]:
    # Fresh leaves from the arguments' numbers: the caller's own Values are never touched.
    return [Value(a.data if isinstance(a, Value) else a) for a in args]


def _call(f: Callable[..., Any], xs: list[Value]) -> Value:
    out = f(*xs)
    if not isinstance(out, Value):
        out = Value(out)  # f does not depend on its arguments: every derivative is 0
    return out


def _float_of(g: Any) -> float:
    return g.data if isinstance(g, Value) else float(g)


def value_and_grad(
    f: Callable[..., Any], argnums: Argnums = 0
) -> Callable[..., tuple[float, float | tuple[float, ...]]]:
    """A function returning (f(*args), d f / d args[argnums]) as floats."""

    def wrapped(*args: Any) -> tuple[float, float | tuple[float, ...]]:
        wanted = [argnums] if isinstance(argnums, int) else list(argnums)
        if any(not -len(args) <= i < len(args) for i in wanted):
            raise ValueError(f"argnums={argnums!r}, but the function got {len(args)} arguments")
        xs = _leaves(args)
        out = _call(f, xs)
        out.backward()
        if isinstance(argnums, int):
            return out.data, _float_of(xs[argnums].grad)
        return out.data, tuple(_float_of(xs[i].grad) for i in argnums)

    return wrapped


def grad(f: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., float | tuple[float, ...]]:
    """A function returning d f / d args[argnums] (a tuple of floats when argnums is a tuple)."""
    vg = value_and_grad(f, argnums)
    return lambda *args: vg(*args)[1]


def hessian(f: Callable[..., Any]) -> Callable[..., list[list[float]]]:
    """A function returning the matrix of second derivatives d2 f / d args[i] d args[j]."""

    def wrapped(*args: Any) -> list[list[float]]:
        xs = _leaves(args)
        _call(f, xs).backward(create_graph=True)
        first = [x.grad for x in xs]  # Values with a graph of their own (or 0.0 if f ignores x)
        rows = []
        for g in first:
            for x in xs:
                x.grad = 0.0
            if isinstance(g, Value):
                g.backward()
            rows.append([_float_of(x.grad) for x in xs])
        return rows

    return wrapped
