"""The check of zero_grad(params), zero_grad_all(root) and train(params, loss_fn, steps, lr): the
traps of accumulating grads with +=, each against the same computation on micrograd's engine."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from micrograd import engine
from micrograd.practice.exercises import Exercise
from micrograd.practice.result import CheckResult, Problem, Row, close, fmt
from micrograd.practice.sandbox import LearnerError, function_of, guarded, value_class
from micrograd.text import text

STEPS = 5
LR = 0.05


def _loss(params: Sequence[Any], data: Sequence[tuple[float, float]]) -> Any:
    """sum((w * x + b - y)**2), written with + and * only (the ops every engine has first)."""
    w, b = params
    loss = None
    for x, y in data:
        d = w * x + b + (-y)
        loss = d * d if loss is None else loss + d * d
    return loss


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """zero_grad(params), zero_grad_all(root) and train(params, loss_fn, steps, lr)."""
    V = value_class(ns, lang)
    zero_grad = function_of(ns, "zero_grad", lang)
    zero_grad_all = function_of(ns, "zero_grad_all", lang)
    train = function_of(ns, "train", lang)
    rng = random.Random(seed)
    result = CheckResult(ex.id, True, seed=seed, lang=lang)

    params = [V(1.0), V(2.0)]
    for p in params:
        p.grad = rng.uniform(1, 5)
    guarded("zero_grad(params)", lang, lambda: zero_grad(params))
    for i, p in enumerate(params):
        if not close(p.grad, 0):
            raise LearnerError(
                Problem(
                    "not-reset", text("practice.params_not_zeroed", lang, index=i, value=p.grad)
                )
            )

    # a graph used twice: zero_grad_all must reach every node, not only the leaves
    x = rng.uniform(0.5, 2)
    a = V(x)
    m = a * a
    root = m * m
    guarded("root.backward()", lang, root.backward)
    first = a.grad
    guarded("zero_grad_all(root)", lang, lambda: zero_grad_all(root))
    # the first one left, leaves first: each is named by what it is and how far below root
    for node, name, depth in ((a, "a", 2), (m, "(a * a)", 1), (root, "root", 0)):
        if not close(node.grad, 0):
            key = "practice.leaf_still_set" if node is a else "practice.still_set"
            step = text(key, lang, node=name, value=fmt(node.grad), depth=depth)
            raise LearnerError(Problem("not-reset", step))
    guarded("root.backward()", lang, root.backward)
    e = engine.Value(x)
    em = e * e
    (em * em).backward()
    row = Row("a ((a*a)*(a*a))")
    row.add(a.grad, float(e.grad), 4 * x**3)
    result.rows.append(row)
    if not close(a.grad, first, rel=1e-9):
        step = text("practice.twice_after_reset", lang, found=fmt(a.grad), expected=fmt(first))
        raise LearnerError(Problem("not-reset", step))

    _check_train(train, V, rng, lang, result)
    return result


def _check_train(
    train: Callable[..., Any], V: Any, rng: random.Random, lang: str, result: CheckResult
) -> None:
    """Run the learner's train() on a line fit; read each step's grads back from the parameters."""
    data = [(x, 2.0 * x - 1.0 + rng.uniform(-0.1, 0.1)) for x in (-1.0, -0.3, 0.4, 1.2)]
    params = [V(rng.uniform(-1, 1)), V(rng.uniform(-1, 1))]
    seen: list[tuple[list[float], list[Any]]] = []  # at each loss_fn(): (data, grads)

    def loss_fn() -> Any:
        seen.append(([float(p.data) for p in params], [p.grad for p in params]))
        return _loss(params, data)

    guarded("train(params, loss_fn, steps, lr)", lang, lambda: train(params, loss_fn, STEPS, LR))
    if len(seen) != STEPS:
        raise LearnerError(
            Problem("graph-reused", text("practice.calls", lang, found=len(seen), steps=STEPS))
        )
    final = ([float(p.data) for p in params], [p.grad for p in params])
    used = [grads for _, grads in seen[1:]] + [final[1]]  # the grads each step updated with
    rows = [Row("w (train)"), Row("b (train)")]
    for step, ((values, _), grads) in enumerate(zip(seen, used), start=1):
        ev = [engine.Value(v) for v in values]
        _loss(ev, data).backward()
        want = [float(v.grad) for v in ev]
        for i, name in enumerate(("w", "b")):
            rows[i].add(grads[i], want[i], None)
            if close(grads[i], want[i], rel=1e-6):
                continue
            fields = {"step": step, "name": name, "found": fmt(grads[i]), "expected": fmt(want[i])}
            if step > 1 and close(grads[i], want[i] + float(used[step - 2][i]), rel=1e-6):
                previous = {"previous": fmt(used[step - 2][i]), "previous_step": step - 1}
                raise LearnerError(
                    Problem("not-reset", text("practice.accumulated", lang, **fields, **previous))
                )
            if close(grads[i], 0):
                raise LearnerError(
                    Problem("not-reset", text("practice.zeroed_late", lang, **fields))
                )
            raise LearnerError(Problem("other", text("practice.bad_grad", lang, **fields)))
        after = seen[step][0] if step < STEPS else final[0]
        for i, name in enumerate(("w", "b")):
            expected = values[i] - LR * float(grads[i])
            if not close(after[i], expected, rel=1e-9):
                fields = {"step": step, "name": name, "found": fmt(after[i])}
                uphill = close(after[i], values[i] + LR * float(grads[i]), rel=1e-9)
                key, mistake = ("uphill", "update-sign") if uphill else ("bad_update", "other")
                step_ = text(f"practice.{key}", lang, **fields, expected=fmt(expected))
                raise LearnerError(Problem(mistake, step_))
    result.rows += rows
