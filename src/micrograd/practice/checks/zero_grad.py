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
STALE = (0.7, -0.3, 3.0)  # the grads w, b and u hold when train() begins


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
    # and again: what zero_grad_all keeps from one call to the next (a mutable default `seen`)
    # must not make it skip the nodes it met before
    guarded("zero_grad_all(root)", lang, lambda: zero_grad_all(root))
    for node, name in ((a, "a"), (m, "(a * a)"), (root, "root")):
        if not close(node.grad, 0):
            step = text("practice.second_zero", lang, node=name, value=fmt(node.grad))
            raise LearnerError(Problem("not-reset", step))

    # a graph not backwarded yet (every inner grad 0) whose leaves hold grads from another:
    # zero_grad_all must walk past a node whose grad is already 0
    b, c = V(1.5), V(-0.5)
    other = guarded("b * c + b", lang, lambda: b * c + b)
    b.grad, c.grad = 2.0, -3.0
    guarded("zero_grad_all(b * c + b)", lang, lambda: zero_grad_all(other))
    for node, name in ((b, "b"), (c, "c")):
        if not close(node.grad, 0):
            step = text("practice.leaf_behind_zero", lang, node=name, value=fmt(node.grad))
            raise LearnerError(Problem("not-reset", step))

    _check_train(train, V, rng, lang, result)
    return result


def _check_train(
    train: Callable[..., Any], V: Any, rng: random.Random, lang: str, result: CheckResult
) -> None:
    """Run the learner's train() on a line fit of w and b, which start with stale grads (a
    backward() before train(), as a learner looking at the grads leaves them), and a third
    parameter u that the loss does not use. The grad each step used is read from what the update
    did to the data (p.data += -lr * p.grad), so zeroing before loss_fn() or before backward()
    are both right; zeroing after the update leaves the first step the stale grads."""
    data = [(x, 2.0 * x - 1.0 + rng.uniform(-0.1, 0.1)) for x in (-1.0, -0.3, 0.4, 1.2)]
    # u: a parameter this loss does not use, with a stale grad (a model's part that another loss
    # trained): zeroing the parameters, not the graph, leaves it where it is
    params = [V(rng.uniform(-1, 1)), V(rng.uniform(-1, 1)), V(0.5)]
    for p, stale in zip(params, STALE):
        p.grad = stale
    seen: list[list[float]] = []  # the parameters' numbers at each loss_fn()

    def loss_fn() -> Any:
        seen.append([float(p.data) for p in params])
        return _loss(params[:2], data)

    held = list(params)
    guarded("train(params, loss_fn, steps, lr)", lang, lambda: train(params, loss_fn, STEPS, LR))
    if any(p is not q for p, q in zip(params, held)):  # the loss_fn's graph holds the old ones
        raise LearnerError(Problem("other", text("practice.params_replaced", lang)))
    if len(seen) != STEPS:
        raise LearnerError(_wrong_count(seen, [float(p.data) for p in params], data, lang))
    seen.append([float(p.data) for p in params])  # after the last step
    rows = [Row("w (train)"), Row("b (train)")]
    steps = [_step(values, after, data) for values, after in zip(seen, seen[1:])]
    used_before: list[float] = list(STALE[:2])  # what step 1 would add to if nothing zeroed
    for step, (used, want) in enumerate(steps, start=1):
        values, after = seen[step - 1], seen[step]
        # no step after the first is right either: nothing is ever zeroed, which the second
        # step tells (it holds the first's grad too), where the first would blame the start
        told_later = step == 1 and not _zeroes_ever(steps)
        for i, name in enumerate(("w", "b")):
            rows[i].add(used[i], want[i], None)
            if close(used[i], want[i], rel=1e-6) or told_later:
                continue
            fields = {"step": step, "name": name, "found": fmt(used[i]), "expected": fmt(want[i])}
            problem = _wrong_update(used[i], want[i], used_before[i], step, fields, lang)
            if problem is not None and problem.mistake == "zeroed-late" and params[i].grad:
                # not zeroed: the grad is there after train(); the update never reached the data
                problem = Problem("other", text("practice.not_updated", lang, **fields))
            # else in words of the numbers: where the update took it, where it should have
            fields.update(found=fmt(after[i]), expected=fmt(values[i] - LR * want[i]))
            raise LearnerError(
                problem or Problem("other", text("practice.bad_update", lang, **fields))
            )
        used_before = used
    if not close(seen[-1][2], 0.5, rel=1e-12):  # w and b stepped right: they were zeroed
        moved = text("practice.unused_moved", lang, found=fmt(seen[-1][2]))
        raise LearnerError(Problem("not-reset", moved))
    result.rows += rows


def _step(
    values: list[float], after: list[float], data: Sequence[tuple[float, float]]
) -> tuple[list[float], list[float]]:
    """(the grads an update from `values` to `after` stepped by, the gradient at `values`)."""
    return [(v - a) / LR for v, a in zip(values, after)], _gradient(values, data)


def _gradient(values: list[float], data: Sequence[tuple[float, float]]) -> list[float]:
    """The loss's gradient for w and b at these numbers, on micrograd's engine."""
    ev = [engine.Value(v) for v in values[:2]]
    _loss(ev, data).backward()
    return [float(v.grad) for v in ev]


def _zeroes_ever(steps: list[tuple[list[float], list[float]]]) -> bool:
    """Whether some step after the first used its own gradient alone (so grads are zeroed, if
    late): else a first step on stale grads is one of many, and the second step tells why."""
    return any(all(close(u, w, rel=1e-6) for u, w in zip(*s)) for s in steps[1:])


def _wrong_count(
    seen: list[list[float]], final: list[float], data: Sequence[tuple[float, float]], lang: str
) -> Problem:
    """Why train() called loss_fn another number of times than STEPS, on evidence: once, and the
    parameters one right step from where they started (the loop ended after its first step: a
    `return` in it?); once, and moved further (one graph, built before the loop, stepped on
    again and again); or the loop's count."""
    fields = {"found": len(seen), "steps": STEPS}
    if len(seen) != 1:
        return Problem("other", text("practice.calls_count", lang, **fields))
    one_step = [x - LR * g for x, g in zip(seen[0], _gradient(seen[0], data))]
    if all(close(f, o, rel=1e-9) for f, o in zip(final, one_step)):
        return Problem("other", text("practice.calls_one_step", lang, **fields))
    return Problem("graph-reused", text("practice.calls", lang, **fields))


def _wrong_update(
    used: float, want: float, before: float, step: int, fields: dict[str, Any], lang: str
) -> Problem | None:
    """The known mistake behind a step that moved a parameter by the wrong grad `used`: the grad
    it held before train() or the last step's still in it, a grad zeroed before the update, the
    update uphill; or None."""
    if step == 1 and close(used, want + before, rel=1e-6):
        return Problem(
            "not-reset", text("practice.stale_at_start", lang, **fields, stale=fmt(before))
        )
    if step > 1 and close(used, want + before, rel=1e-6):
        previous = {"previous": fmt(before), "previous_step": step - 1}
        return Problem("not-reset", text("practice.accumulated", lang, **fields, **previous))
    if close(used, 0):
        return Problem("zeroed-late", text("practice.zeroed_late", lang, **fields))
    if close(used, -want, rel=1e-6):
        return Problem("update-sign", text("practice.uphill", lang, **fields))
    return None
