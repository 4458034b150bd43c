"""The check of softmax and the negative log likelihood (the end of the lecture's exercise set), on
the learner's Value, against micrograd's engine and central differences."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from micrograd import engine
from micrograd.practice.diagnose import Walk
from micrograd.practice.exercises import Exercise
from micrograd.practice.result import CheckResult, Problem, Row, close, fmt
from micrograd.practice.rules import inputs_of, topo
from micrograd.practice.sandbox import LearnerError, function_of, guarded, value_class
from micrograd.text import aside, joined, text


def _reference_softmax(values: Sequence[float], target: int, twice: bool) -> tuple[Any, ...]:
    """Probabilities, loss and each leaf's grad on micrograd's engine, and central differences."""

    def run(xs: Sequence[Any]) -> tuple[list[Any], Any]:
        zs = [xs[0], xs[1], xs[0]] if twice else list(xs)
        counts = [z.exp() for z in zs]
        total = sum(counts)
        probs = [c / total for c in counts]
        return probs, -probs[target].log()

    leaves = [engine.Value(x) for x in values]
    probs, loss = run(leaves)
    loss.backward()
    numeric = []
    for i, x in enumerate(values):
        h = 1e-6 * max(1.0, abs(x))
        up, down = list(values), list(values)
        up[i] += h
        down[i] -= h
        plus = run([engine.Value(v) for v in up])[1].data
        minus = run([engine.Value(v) for v in down])[1].data
        numeric.append((plus - minus) / (2 * h))
    return [p.data for p in probs], loss.data, [float(v.grad) for v in leaves], numeric


def _values(what: str, found: Any, lang: str) -> None:
    """A LearnerError when `what` returned something that is not a list of Values: a number
    (math.log(p.data), a sum of .data) is a graph cut where it was taken out."""
    for x in found if isinstance(found, list) else [found]:
        if not all(hasattr(x, a) for a in ("data", "grad", "_prev", "_backward")):
            kind = type(x).__name__
            if isinstance(x, (int, float)):
                step = text("practice.number_cut", lang, what=what, kind=kind)
                raise LearnerError(Problem("graph-cut", step))
            raise LearnerError(
                Problem("other", text("practice.not_value", lang, what=what, kind=kind))
            )


def _cut(probs: list[Any], leaves: list[Any], names: dict[int, str], lang: str) -> Problem | None:
    """The first probability whose graph does not reach every logit: a number taken out of the
    graph with .data (a float denominator) cuts the logits' gradients there."""
    for i, p in enumerate(probs):
        reached = {id(node) for node in topo([p])}
        missing = [names[id(v)] for v in leaves if id(v) not in reached]
        if missing:
            fields = {"i": i, "logit": missing[0], "value": fmt(p.data)}
            # a probability that is a leaf was made anew from a number; else a number with no
            # graph entered it on the way
            key = "practice.graph_cut_leaf" if not inputs_of(p) else "practice.graph_cut"
            return Problem("graph-cut", text(key, lang, **fields))
    return None


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """softmax and nll on the learner's Value at random logits and edge cases: the forward, each
    backward step (the first wrong one named), and each logit's grad against micrograd's."""
    V = value_class(ns, lang)
    softmax = function_of(ns, "softmax", lang)
    nll = function_of(ns, "nll", lang)
    rng = random.Random(seed)
    cases: list[tuple[list[float], int, bool]] = [
        ([rng.uniform(-3, 3) for _ in range(4)], rng.randrange(4), False) for _ in range(3)
    ]
    cases += [([1.0, 1.0, 1.0, 1.0], 2, False), ([8.0, -8.0, 0.0, 2.0], 1, False)]
    cases.append(([0.0, 30.0, -30.0, 5.0], 2, False))  # the target's probability ~1e-26
    cases.append(([0.0, -800.0, 1.0, 2.0], 3, False))  # another's is 0: only the target is logged
    cases.append(([0.5, -1.0], 2, True))  # logits [a, b, a]: a Value used twice
    rows = [Row(f"logits[{i}]") for i in range(4)]
    first: Problem | None = None
    for values, target, twice in cases:
        probs_want, loss_want, grads_want, numeric = _reference_softmax(values, target, twice)
        leaves = guarded("Value(x)", lang, partial(list, map(V, values)))
        zs = [leaves[0], leaves[1], leaves[0]] if twice else leaves
        names = {id(v): f"logits[{i}]" for i, v in enumerate(leaves)}
        probs = guarded("softmax(logits)", lang, partial(softmax, zs))
        _values("softmax(logits)", probs, lang)
        for i, (p, w) in enumerate(zip(probs, probs_want)):
            if first is None and not close(p.data, w, rel=1e-9, abs_=1e-12):
                step = text(
                    "practice.softmax_forward", lang, i=i, found=fmt(p.data), expected=fmt(w)
                )
                first = Problem("wrong-forward", step)
        first = first or _cut(probs, leaves, names, lang)
        if first is not None:  # the loss of wrong probabilities may not even exist
            break
        loss = guarded("nll(probs, target)", lang, partial(nll, probs, target))
        _values("nll(probs, target)", [loss], lang)
        if first is None and not close(loss.data, loss_want, rel=1e-9, abs_=1e-12):
            fields = {"target": target, "found": fmt(loss.data), "expected": fmt(loss_want)}
            first = Problem("wrong-forward", text("practice.nll_forward", lang, **fields))
        if first is not None:
            break
        problem = guarded("loss._backward()", lang, partial(Walk(names, lang).run, [loss], [1.0]))
        if problem is not None:
            where = ", ".join(fmt(x) for x in values)
            note = joined([f"logits {where}", f"target {target}"], lang)
            first = replace(problem, step=aside(problem.step, note, lang))
        for i, (leaf, w, d) in enumerate(zip(leaves, grads_want, numeric)):
            rows[i].add(leaf.grad, w, d)
            if first is None and not close(leaf.grad, w, rel=1e-6, abs_=1e-9):
                fields = {"input": f"logits[{i}]", "found": fmt(leaf.grad), "expected": fmt(w)}
                where = f"logits {', '.join(fmt(x) for x in values)}; target {target}"
                first = Problem("other", text("practice.grad_differs", lang, where=where, **fields))
    result = CheckResult(ex.id, True, seed=seed, lang=lang, rows=rows)
    return result.fail(first) if first else result
