"""The check of adam_step: the learner's update of a few parameters over several calls in a row
(new grads each call: a zero, negatives, a large one), against the reference solution on plain
numbers: each parameter's data, m and v after each call, and its grad set to 0. Then the same
calls again from a fresh start: a call must not depend on what an earlier run left behind.

A mistake is named only on evidence: the learner's numbers after every call are those of the
update written with that mistake (and differ from the right ones); else the verdict says which
number of which call differs, and from what.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import SimpleNamespace
from typing import Any

from micrograd.practice.exercises import Exercise
from micrograd.practice.reference import gpt as ref
from micrograd.practice.result import CheckResult, Problem, agree, apart, explanation, fmt
from micrograd.practice.sandbox import (
    ENDS_THE_CHECK,
    LearnerError,
    function_of,
    guarded,
    raised_type,
    value_class,
)
from micrograd.text import text, then, titled

START = (0.5, -1.0, 2.0)  # the parameters' data before the first call
# each call's grads, in turn: a zero, negatives, a large one, and tiny ones (where v is so small
# that the eps of sqrt(v_hat) + eps counts)
GRADS = ((0.5, -1.0, 1e-4), (0.0, 2.0, -1e-4), (-3.0, 0.25, 1e-5), (1000.0, -0.1, 0.0))
AGAIN = 3  # the calls of the second run, from a fresh start


def _adam(
    bias: bool = True,
    swapped: str = "",
    kept: bool = True,
    power: int = 1,
    eps_inside: bool = False,
    sign: int = -1,
    zero: bool = True,
    step_used: bool = True,
    betas_swapped: bool = False,
    parens: bool = False,
    raw_grad: bool = False,
    v_beta1: bool = False,
) -> Callable[..., None]:
    """adam_step with one of its pieces changed (the defaults: the right one)."""

    def correction(beta: float, t: int) -> float:
        return (1 - beta) ** t if parens else 1 - beta**t

    def step_fn(
        params: Any,
        m: list[Any],
        v: list[Any],
        step: int,
        lr: float = 0.01,
        beta1: float = 0.85,
        beta2: float = 0.99,
        eps: float = 1e-8,
    ) -> None:
        t = (step if step_used else 0) + power
        if betas_swapped:
            beta1, beta2 = beta2, beta1
        for i, p in enumerate(params):
            g1, g2 = (p.grad**2, p.grad) if swapped == "moments" else (p.grad, p.grad**2)
            mi = beta1 * m[i] + (1 - beta1) * g1
            vi = beta2 * v[i] + (1 - beta2) * g2
            if kept:
                m[i], v[i] = mi, vi
            m_hat = mi / correction(beta1, t) if bias else mi
            v_hat = vi / correction(beta1 if v_beta1 else beta2, t) if bias else vi
            if swapped == "hats":
                m_hat, v_hat = v_hat, m_hat
            m_hat = p.grad if raw_grad else m_hat
            denom = (v_hat + eps) ** 0.5 if eps_inside else v_hat**0.5 + eps
            p.data += sign * lr * m_hat / denom
            if zero:
                p.grad = 0

    return step_fn


MISTAKES: tuple[tuple[str, str, Callable[..., None]], ...] = (
    ("no-bias-correction", "practice.gpt.adam_no_bias", _adam(bias=False)),
    ("moments-swapped", "practice.gpt.adam_moments_swapped", _adam(swapped="moments")),
    ("moments-swapped", "practice.gpt.adam_hats_swapped", _adam(swapped="hats")),
    ("moments-not-kept", "practice.gpt.adam_not_kept", _adam(kept=False)),
    ("wrong-update", "practice.gpt.adam_power", _adam(power=0)),
    ("wrong-update", "practice.gpt.adam_power_two", _adam(power=2)),
    ("wrong-update", "practice.gpt.adam_raw_grad", _adam(raw_grad=True)),
    ("no-bias-correction", "practice.gpt.adam_v_beta1", _adam(v_beta1=True)),
    ("no-bias-correction", "practice.gpt.adam_parens", _adam(parens=True)),
    ("wrong-update", "practice.gpt.adam_betas_swapped", _adam(betas_swapped=True)),
    ("wrong-update", "practice.gpt.adam_step_unused", _adam(step_used=False)),
    ("wrong-update", "practice.gpt.adam_eps_inside", _adam(eps_inside=True)),
    ("update-sign", "practice.gpt.adam_sign", _adam(sign=1)),
    ("not-reset", "practice.gpt.adam_not_zeroed", _adam(zero=False)),
)


@dataclass
class After:
    """What one call left: each parameter's data and grad, m and v; or the error it raised."""

    data: list[Any]
    grads: list[Any]
    m: list[Any]
    v: list[Any]
    error: str = ""
    said: str = ""


def _agree(a: Any, b: Any) -> bool:
    """a and b agree to 1e-9 (a Value by its data; complex numbers too: the root of a negative
    v is one)."""
    return agree(getattr(a, "data", a), getattr(b, "data", b))


def _same(x: After, y: After) -> bool:
    if x.error or y.error:
        return x.error == y.error
    pairs = zip(x.data + x.grads + x.m + x.v, y.data + y.grads + y.m + y.v)
    return all(_agree(a, b) for a, b in pairs)


def _calls(fn: Callable[..., Any], make: Callable[[float], Any], lang: str | None) -> list[After]:
    """Run 1: a call per row of GRADS; run 2: the first AGAIN calls again, from a fresh start.
    What each call left; the runs stop at an error (lang None: `fn` is the checker's own)."""
    out: list[After] = []
    for calls in (len(GRADS), AGAIN):
        params = [make(x) for x in START]
        m, v = [0.0] * len(START), [0.0] * len(START)
        for step, grads in enumerate(GRADS[:calls]):
            for p, g in zip(params, grads):
                p.grad = g
            try:
                if lang is None:
                    fn(params, m, v, step)
                else:
                    guarded(
                        f"adam_step(params, m, v, {step})", lang, partial(fn, params, m, v, step)
                    )
            except (ArithmeticError, ValueError, TypeError) as e:
                out.append(After([], [], [], [], error=type(e).__name__))
                return out
            except LearnerError as e:
                if e.problem.mistake in ENDS_THE_CHECK:
                    raise
                error = raised_type(e)
                out.append(After([], [], [], [], error=error, said=e.problem.step))
                return out
            out.append(After([p.data for p in params], [p.grad for p in params], list(m), list(v)))
    return out


def _plain(x: float) -> SimpleNamespace:
    return SimpleNamespace(data=x, grad=0.0)


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """adam_step on the learner's Values, call after call, against the reference on numbers."""
    V = value_class(ns, lang)
    fn = function_of(ns, "adam_step", lang)
    want = _calls(ref.adam_step, _plain, None)
    found = guarded("Value(x)", lang, partial(_calls, fn, V, lang))
    first = next((i for i, (f, w) in enumerate(zip(found, want)) if not _same(f, w)), None)
    if first is None and len(found) == len(want):
        result = CheckResult(ex.id, True, seed=seed, lang=lang)
        result.notes.append(text("practice.gpt.adam_passed", lang, calls=len(want)))
        return result
    first = len(found) - 1 if first is None else first
    step = _step(first, found[first], want[first], lang)
    fits = [
        (mistake, words)
        for mistake, words, wrong in MISTAKES
        if len(model := _calls(wrong, _plain, None)) == len(found) and all(map(_same, found, model))
    ]
    named = explanation(fits)
    if named is not None:
        mistake, words = named
        return CheckResult(ex.id, True, seed=seed, lang=lang).fail(
            Problem(mistake, then(step, text(words, lang), lang))
        )
    mistake = "not-reset" if _only_grads(found[first], want[first]) else "wrong-update"
    mistake = "other" if found[first].error else mistake
    if first >= len(GRADS) and not mistake == "not-reset":
        step = then(step, text("practice.gpt.adam_kept_state", lang), lang)
        mistake = "state-kept"
    return CheckResult(ex.id, True, seed=seed, lang=lang).fail(Problem(mistake, step))


def _only_grads(found: After, want: After) -> bool:
    """Everything right but a grad that is not 0 after the call."""
    same = all(
        _agree(a, b) for a, b in zip(found.data + found.m + found.v, want.data + want.m + want.v)
    )
    return not found.error and same and any(g != 0 for g in found.grads)


def _step(index: int, found: After, want: After, lang: str) -> str:
    """The first number that differs after call `index`, with the call's grads, in words."""
    run2 = index >= len(GRADS)
    step = index - len(GRADS) if run2 else index
    grads = ", ".join(fmt(g) for g in GRADS[step])
    where = text(
        "practice.gpt.adam_call",
        lang,
        step=step,
        grads=grads,
        run=text("practice.gpt.adam_run2" if run2 else "practice.gpt.adam_run1", lang),
    )
    if found.error:
        return titled(where, found.said, lang)
    for name, xs, ys in (
        ("params[{i}].data", found.data, want.data),
        ("m[{i}]", found.m, want.m),
        ("v[{i}]", found.v, want.v),
        ("params[{i}].grad", found.grads, want.grads),
    ):
        if len(xs) != len(ys):
            what = name.split("[")[0]
            fields = {"where": where, "what": what, "found": len(xs), "expected": len(ys)}
            return text("practice.gpt.adam_length", lang, **fields)
        for i, (a, b) in enumerate(zip(xs, ys)):
            if not _agree(a, b):
                return text(
                    "practice.gpt.adam_differs",
                    lang,
                    where=where,
                    what=name.format(i=i),
                    found=_shown(a, b),
                    expected=apart(b, a)[0],
                )
    return where


def _shown(x: Any, beside: Any) -> str:
    """x as the learner reads it, in as many digits as it takes to differ from `beside`."""
    x = getattr(x, "data", x)
    return repr(x) if isinstance(x, complex) else apart(x, beside)[0]
