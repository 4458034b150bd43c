"""Gradient checking: compare what backward() computes with central finite differences.

Use it on your own ops: `gradcheck(lambda x, y: my_op(x, y), [0.3, -1.2])` returns True or raises
GradcheckError naming the input and both numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from micrograd.engine import Value
from micrograd.modes import no_grad


class GradcheckError(AssertionError):
    """backward() and finite differences disagree for one input."""


def _evaluate(f: Callable[..., Value], xs: Sequence[float]) -> float:
    with no_grad():
        out = f(*[Value(x) for x in xs])
    if not isinstance(out, Value):
        raise TypeError(f"gradcheck: f must return a Value, got {out!r}")
    return out.data


def numeric_grad(f: Callable[..., Value], xs: Sequence[float], i: int, eps: float = 1e-6) -> float:
    """d f / d xs[i] by the central difference (f(x + eps) - f(x - eps)) / (2 eps)."""
    up = list(xs)
    down = list(xs)
    up[i] += eps
    down[i] -= eps
    return (_evaluate(f, up) - _evaluate(f, down)) / (2 * eps)


def gradcheck(
    f: Callable[..., Value],
    inputs: Sequence[float],
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-4,
) -> bool:
    """Check backward() against central differences at `inputs`: True, or GradcheckError."""
    xs = [float(x) for x in inputs]
    leaves = [Value(x) for x in xs]
    out = f(*leaves)
    if not isinstance(out, Value):
        raise TypeError(f"gradcheck: f must return a Value, got {out!r}")
    out.backward()
    for i, leaf in enumerate(leaves):
        numeric = numeric_grad(f, xs, i, eps)
        analytic = leaf.grad
        if not abs(analytic - numeric) <= atol + rtol * abs(numeric):
            raise GradcheckError(
                f"gradient of input {i} (value {xs[i]!r}) differs: backward gives {analytic!r}, "
                f"central differences give {numeric!r} (atol={atol}, rtol={rtol})"
            )
    return True
