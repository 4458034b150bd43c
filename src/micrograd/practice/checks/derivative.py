"""The check of the first exercise: a derivative by hand and by nudging. Every expected number is
computed here, at check time: by complex-step differentiation (exact to rounding for an analytic
function), or by the same finite differences the learner is asked for."""

from __future__ import annotations

import cmath
import math
import random
from collections.abc import Sequence
from functools import partial
from typing import Any

from micrograd.practice.exercises import Exercise
from micrograd.practice.result import CheckResult, Problem, Row, close, fmt
from micrograd.practice.sandbox import LearnerError, function_of, guarded
from micrograd.text import text

H = 1e-6  # the nudge, as in the lecture (h = 0.000001)


def f(a: Any, b: Any, c: Any) -> Any:
    """The lecture exercise's function; on complex numbers too (for the complex step)."""
    sin = cmath.sin if isinstance(b, complex) else math.sin
    return -(a**3) + sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def exact_grad(a: float, b: float, c: float) -> list[float]:
    """[df/da, df/db, df/dc] by the complex step: Im f(x + ih) / h has no subtraction, so no
    rounding is lost, whatever the tiny h."""
    h = 1e-30
    return [
        f(complex(a, h), b, c).imag / h,
        f(a, complex(b, h), c).imag / h,
        f(a, b, complex(c, h)).imag / h,
    ]


def forward_grad(a: float, b: float, c: float, h: float) -> list[float]:
    """Forward differences, as the exercise asks for them."""
    f0 = f(a, b, c)
    return [(f(a + h, b, c) - f0) / h, (f(a, b + h, c) - f0) / h, (f(a, b, c + h) - f0) / h]


def central_grad(a: float, b: float, c: float, h: float) -> list[float]:
    """Central differences, as the exercise asks for them."""
    return [
        (f(a + h, b, c) - f(a - h, b, c)) / (2 * h),
        (f(a, b + h, c) - f(a, b - h, c)) / (2 * h),
        (f(a, b, c + h) - f(a, b, c - h)) / (2 * h),
    ]


def _three(found: Any, what: str, lang: str) -> list[float]:
    """What the learner's function returned, as three floats (a LearnerError if it is not)."""
    try:
        values = [float(x) for x in found]
    except (TypeError, ValueError):
        values = []
    if len(values) != 3:
        raise LearnerError(
            Problem("other", text("practice.three_numbers", lang, what=what, found=repr(found)))
        )
    return values


def _quotient(
    found: float, want: float, other_kind: float, wanted: Sequence[float], input: str
) -> tuple[str, str]:
    """Which difference quotient a wrong nudge computed: the other kind (forward for central),
    central's without its 2 (over h), `/ 2 * h` for `/ (2 * h)`, another input nudged; the key
    of its words and the mistake's name."""
    if close(found, other_kind, rel=1e-7, abs_=1e-7):
        return "nudged_other_way", "difference-quotient"
    if close(found, 2 * want, rel=1e-7, abs_=1e-9):
        return "over_h", "difference-quotient"
    if close(found, want * H * H, rel=1e-6, abs_=1e-15):  # (f(x+h) - f(x-h)) / 2 * h
        return "times_h", "difference-quotient"
    if any(close(found, v, rel=1e-7) for y, v in zip("abc", wanted) if y != input):
        return "nudged_another", "difference-quotient"
    return "nudge_wrong", "other"


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """gradf against the exact derivatives; numerical_grad and symmetric_grad against the same
    differences computed here, at the lecture's point and at random ones."""
    gradf = function_of(ns, "gradf", lang)
    numerical = function_of(ns, "numerical_grad", lang)
    symmetric = function_of(ns, "symmetric_grad", lang)
    rng = random.Random(seed)
    points = [(2.0, 3.0, 4.0)]
    points += [(rng.uniform(0.5, 4), rng.uniform(0.5, 4), rng.uniform(0.5, 4)) for _ in range(3)]
    points.append((0.25, 0.1, 0.5))  # near 0 the a**0.5 and 1/c terms are steep
    rows = [Row(f"df/d{x}") for x in "abc"]
    first: Problem | None = None
    for a, b, c in points:
        where = f"a = {fmt(a)}, b = {fmt(b)}, c = {fmt(c)}"
        want = exact_grad(a, b, c)
        got = _three(guarded("gradf(a, b, c)", lang, partial(gradf, a, b, c)), "gradf", lang)
        for row, g, w, d in zip(rows, got, want, central_grad(a, b, c, H)):
            row.add(g, w, d)
        for x, g, w in zip("abc", got, want):
            if first is None and not close(g, w, rel=1e-9, abs_=1e-9):
                fields = {"input": x, "found": fmt(g), "expected": fmt(w), "where": where}
                step = text("practice.gradf_wrong", lang, **fields)
                first = Problem("wrong-local", step, hint=0 if x == "a" else 1)  # a's, b's and c's
        forward, central = forward_grad(a, b, c, H), central_grad(a, b, c, H)
        for name, fn, want_h, other in (
            ("numerical_grad", numerical, forward, central),
            ("symmetric_grad", symmetric, central, forward),
        ):
            call = f"{name}(f, a, b, c, h)"
            got = _three(guarded(call, lang, partial(fn, f, a, b, c, H)), name, lang)
            for x, g, w, o in zip("abc", got, want_h, other):
                if first is None and not close(g, w, rel=1e-7, abs_=1e-7):
                    fields = {"fn": name, "input": x, "found": fmt(g), "expected": fmt(w)}
                    key, mistake = _quotient(g, w, o, want_h, x)
                    fields["other"] = next((y for y, v in zip("abc", want_h) if close(g, v)), x)
                    step = text(f"practice.{key}", lang, where=f"{where}, h = {H}", **fields)
                    first = Problem(mistake, step, hint=2)  # the hint about nudging
    result = CheckResult(ex.id, True, seed=seed, lang=lang, rows=rows)
    return result.fail(first) if first else result
