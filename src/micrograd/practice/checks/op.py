"""The check of an op exercise: one op of the learner's Value, at random points drawn now (the
seed is shown, so the run can be replayed) and at edge cases, against micrograd's engine and
central differences, with the first wrong step of its backward pass in words."""

from __future__ import annotations

import random
import types
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from micrograd import engine
from micrograd.modes import no_grad
from micrograd.practice.diagnose import Walk
from micrograd.practice.exercises import Exercise, OpSpec, Point
from micrograd.practice.result import CheckResult, Problem, Row, close, fmt
from micrograd.practice.rules import RULES, Known, inputs_of, topo
from micrograd.practice.sandbox import LearnerError, guarded, value_class
from micrograd.text import aside, text


def attach(fn: types.FunctionType, ex: Exercise) -> Any:
    """A namespace whose Value is the `Value` of the function's module with `fn` as the
    exercise's method (as the method the exercise needs, where that Value has no such method)."""
    if ex.op is None:
        raise TypeError(f"a function can be checked only for an op exercise, not {ex.id!r}")
    base = fn.__globals__.get("Value")
    if not isinstance(base, type):
        raise TypeError("the function's module has no class Value to attach it to")
    name = ex.op.method if hasattr(base, ex.op.method) else ex.op.needs[0]
    return types.SimpleNamespace(Value=type(base.__name__, (base,), {name: fn}))


def _reference(spec: OpSpec, point: Point) -> tuple[float, list[float], list[float | None]]:
    """Output, engine grads and central differences of the op at `point` (per leaf)."""
    xs = [point.args[1 - point.number]] if point.number is not None else list(point.args)
    xs = xs[: point.leaves()]

    def f(values: Sequence[float]) -> float:
        with no_grad():
            vs = [engine.Value(v) for v in values]
            outs = spec.outputs(spec.operands(vs, point), point)
            return float(sum(o.data for o in outs))

    vs = [engine.Value(x) for x in xs]
    outs = spec.outputs(spec.operands(vs, point), point)
    root = outs[0] if len(outs) == 1 else outs[0] + outs[1]
    root.backward()
    grads = [float(v.grad) for v in vs]
    numeric: list[float | None] = []
    for i, x in enumerate(xs):
        if spec.kink(x):
            numeric.append(None)
            continue
        h = 1e-6 * max(1.0, abs(x))
        up, down = list(xs), list(xs)
        up[i] += h
        down[i] -= h
        numeric.append((f(up) - f(down)) / (2 * h))
    return float(outs[0].data), grads, numeric


def _where(point: Point, names: Sequence[str]) -> str:
    """The point in words: a = 1.5, b = -2 (and k where the op has one)."""
    args = [point.args[1 - point.number]] if point.number is not None else point.args
    where = ", ".join(f"{name} = {fmt(x)}" for name, x in zip(names[: point.leaves()], args))
    return f"{where}, k = {fmt(point.k)}" if point.k_used else where


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """Check one op of the learner's Value at random points and edge cases, step by step."""
    spec = ex.op
    assert spec is not None
    V = value_class(ns, lang)
    rng = random.Random(seed)
    names = ["a", "b"][: spec.arity]
    rows = [Row(n) for n in names]
    first: Problem | None = None
    for point in spec.points(rng):
        _, grads, numeric = _reference(spec, point)
        for seeded in (False, True):
            found, problem = _run_op(spec, V, point, names, rng if seeded else None, lang)
            first = _plainer(first, problem)
            if not seeded and found is not None:
                for row, g, e, d in zip(rows, found, grads, numeric):
                    row.add(g, e, d)
                if first is None:
                    first = _differs(found, grads, names, point, lang)
    result = CheckResult(ex.id, True, seed=seed, lang=lang, rows=rows)
    return result.fail(first) if first else result


# what the reference's reflected methods return: `2 - a` is asked of a as a.__rsub__(2)
REFLECTED = {
    "__radd__": "self + other",
    "__rmul__": "self * other",
    "__rsub__": "other + (-self)",
    "__rtruediv__": "other * self**-1",
}


def _with_number(e: LearnerError, spec: OpSpec, point: Point, what: str, lang: str) -> Exception:
    """The op raised beside a plain number: name what is missing (the number wrapped in a Value,
    or the reflected method a number on the left needs)."""
    cause = e.__cause__
    if point.number is None or not isinstance(cause, (AttributeError, TypeError, RecursionError)):
        return e
    if isinstance(cause, AttributeError) and not isinstance(cause.obj, (int, float)):
        return e  # an attribute missing from a Value (a typo), not from the number: no claim
    error = f"{type(cause).__name__}: {cause}".splitlines()[0]
    method = "__r" + spec.method.removeprefix("__")
    if isinstance(cause, RecursionError):  # `other * self` in __rmul__ asks __rmul__ again
        symbol = spec.show.format("", "").strip()  # "{0} * {1}" -> "*"
        fields = {"what": what, "method": method, "body": REFLECTED[method], "op": symbol}
        step = text("practice.number_recursion", lang, **fields)
    elif point.number == 1 or isinstance(cause, AttributeError):
        step = text("practice.number_unwrapped", lang, what=what, error=error)
    else:
        fields = {"what": what, "error": error, "method": method, "body": REFLECTED[method]}
        step = text("practice.number_left", lang, **fields)
    return LearnerError(Problem("number-operand", step))


def _depending(leaves: Sequence[Any], outs: Sequence[Any]) -> set[int]:
    """The nodes that depend on the leaves (ids): those whose grads the check compares."""
    found = {id(leaf) for leaf in leaves}
    for node in topo(outs):
        if any(id(p) in found for p in inputs_of(node)):
            found.add(id(node))
    return found


def _plainer(first: Problem | None, other: Problem | None) -> Problem | None:
    """Of the first failing point and another, the one where the same mistake shows far more
    (1 - x**2 for 1 - t**2 differs in the sixth digit near 0, visibly at 1.5), or where a cause
    was found when the first told none (it raised at a negative base, its rule shows at 2)."""
    if first is None or other is None:
        return first or other
    if first.mistake == "other" and other.mistake != "other":  # a cause found on evidence
        return other
    plainer = other.mistake == first.mistake and other.gap > 100 * first.gap
    return other if plainer else first


def _differs(
    found: list[float], grads: list[float], names: list[str], point: Point, lang: str
) -> Problem | None:
    """The first input whose grad differs from the engine's, in words (None: none does)."""
    for name, g, e in zip(names, found, grads):
        if not close(g, e, rel=1e-6, abs_=1e-9):
            where = _where(point, names)
            fields = {"input": name, "found": fmt(g), "expected": fmt(e), "where": where}
            return Problem("other", text("practice.grad_differs", lang, **fields))
    return None


def _run_op(
    spec: OpSpec, V: Any, point: Point, names: list[str], rng: random.Random | None, lang: str
) -> tuple[list[float] | None, Problem | None]:
    """One run of the learner's op at `point`: plain (grads 0, output grad 1), or seeded (grads
    already there, a random output grad: `=` for `+=` and a missing `* out.grad` show)."""
    what = spec.shown(names, point)
    xs = [point.args[1 - point.number]] if point.number is not None else point.args
    try:
        leaves = guarded(what, lang, lambda: [V(x) for x in xs[: point.leaves()]])
        operands = spec.operands(leaves, point)
        try:
            outs = guarded(what, lang, lambda: spec.outputs(operands, point))
        except LearnerError as e:
            raise _with_number(e, spec, point, what, lang) from e
        for out in outs:
            if not all(hasattr(out, a) for a in ("data", "grad", "_prev", "_backward")):
                kind = type(out).__name__
                return None, Problem(
                    "other", text("practice.not_value", lang, what=what, kind=kind)
                )
        reached = {id(n) for n in topo(outs)}
        for leaf, name in zip(leaves, names):
            if id(leaf) not in reached:  # its grad can never be set: the graph is cut before it
                cut = text("practice.not_in_graph", lang, input=name, what=what)
                return None, Problem("graph-cut", aside(cut, _where(point, names), lang))
        walk = Walk({id(v): name for v, name in zip(leaves, names)}, lang)
        walk.only = _depending(leaves, outs)  # a number's own grad is no part of the lesson
        for out in outs:
            if {id(p) for p in inputs_of(out)} == {id(o) for o in operands}:
                walk.known[id(out)] = Known(RULES[spec.rule], operands, point.k)
            elif point.number is not None and [id(p) for p in inputs_of(out)] == [id(leaves[0])]:
                # the number kept out of the graph: the op of the leaf and a stand-in for it
                number = engine.Value(float(operands[point.number]))
                held = (leaves[0], number) if point.number == 1 else (number, leaves[0])
                walk.known[id(out)] = Known(RULES[spec.rule], held, point.k)
        expected_out = _reference(spec, point)[0]
        if not close(outs[0].data, expected_out, rel=1e-9):
            where = _where(point, names)
            fields = {"found": fmt(outs[0].data), "expected": fmt(expected_out), "where": where}
            differs = Problem(
                "wrong-forward", text("practice.out_differs", lang, what=what, **fields)
            )
            return None, walk.forward(topo(outs)) or differs
        seeds = [1.0] * len(outs)
        shifts = [0.0] * len(leaves)
        if rng is not None:  # grads already there, and an upstream grad that is not 1
            shifts = [rng.choice((-1, 1)) * rng.uniform(0.5, 2.0) for _ in leaves]
            seeds = [rng.choice((-1, 1)) * rng.uniform(1.5, 2.5)] * len(outs)
            for leaf, s in zip(leaves, shifts):
                leaf.grad = s
        node = f"({what})" if " " in what else what  # as the walk names it: (a * b), tanh(a)
        try:
            problem = guarded(node + "._backward()", lang, lambda: walk.run(outs, seeds))
        except LearnerError as e:  # the closure treats the number as a Value
            raise _with_number(e, spec, point, node + "._backward()", lang) from e
        if problem is not None:
            step = aside(problem.step, _where(point, names), lang)
            return None, replace(problem, step=step)
        return [(leaf.grad - s) / seeds[0] for leaf, s in zip(leaves, shifts)], None
    except LearnerError as e:
        return None, e.problem
