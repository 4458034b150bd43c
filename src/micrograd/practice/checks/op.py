"""The check of an op exercise: one op of the learner's Value, at random points drawn now (the
seed is shown, so the run can be replayed) and at edge cases, against micrograd's engine and
central differences, with the first wrong step of its backward pass in words."""

from __future__ import annotations

import math
import random
import types
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from micrograd import engine
from micrograd.modes import no_grad
from micrograd.practice.diagnose import Walk
from micrograd.practice.exercises import RANDOM, Exercise, OpSpec, Point
from micrograd.practice.result import CheckResult, Problem, Row, close, fmt, simpler
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
    """Check one op of the learner's Value at random points and edge cases, step by step; a
    failure is told at the simplest numbers where it still fails the same way."""
    spec = ex.op
    assert spec is not None
    V = value_class(ns, lang)
    rng = random.Random(seed)
    names = ["a", "b"][: spec.arity]
    rows = [Row(n) for n in names]
    first: Run | None = None
    generic: Run | None = None  # the first wrong amount at a random point, and its cause
    for n, point in enumerate(spec.points(rng)):
        _, grads, numeric = _reference(spec, point)
        # run plainly (grads 0, output grad 1), then with grads already there and an upstream
        # grad that is not 1: `=` for `+=` and a missing `* out.grad` show
        start = tuple(rng.choice((-1, 1)) * rng.uniform(0.5, 2.0) for _ in range(point.leaves()))
        upstream = rng.choice((-1, 1)) * rng.uniform(1.5, 2.5)
        for run in (Run(None, point), Run(None, point, start, upstream)):
            found, problem = _run_op(spec, V, run, names, lang)
            if problem is not None:
                first = _plainer(first, replace(run, problem=problem))
                told = problem.unexplained or problem.mistake in FROM_NUMBERS
                if generic is None and n < RANDOM and told:
                    generic = replace(run, problem=problem)
            if run.start is None and found is not None:
                for row, g, e, d in zip(rows, found, grads, numeric):
                    row.add(g, e, d)
                differs = _differs(found, grads, names, point, lang)
                if first is None and differs is not None:
                    first = replace(run, problem=differs)
    result = CheckResult(ex.id, True, seed=seed, lang=lang, rows=rows)
    if first is None or first.problem is None:
        return result
    if generic is not None and first.problem.mistake in FROM_NUMBERS:
        # a cause told by the numbers predicts the wrong amounts at any point, not at one: where
        # a random point's step fits none, or another, the cause seen at an edge case was a
        # coincidence of its numbers (1 - t**2 * out.grad adds the local derivative alone at
        # t = 0): the random point's is told
        if generic.problem is not None and _said(generic.problem) != _said(first.problem):
            first = generic
    return result.fail(_simplest(spec, V, names, first, lang))


# the mistakes the check tells from a step's numbers alone (the others it sees in the learner's
# objects: a closure never attached, a cut graph, a raise)
FROM_NUMBERS = {
    "assign-not-add",
    "wrong-local",
    "wrong-operand",
    "wrong-upstream",
    "no-upstream",
    "input-output-swapped",
    "value-as-slope",
}


def _said(problem: Problem) -> tuple[str, str]:
    """What a verdict says went wrong: its mistake, and the cause it names (if it names one)."""
    return problem.mistake, problem.cause


@dataclass(frozen=True)
class Run:
    """A run of the op: at which point, from which start (the inputs' grads before it and the
    upstream grad; None: grads 0 and upstream 1), and, once run, what it found wrong."""

    problem: Problem | None
    point: Point
    start: tuple[float, ...] | None = None
    upstream: float = 1.0

    def again(self, spec: OpSpec, V: Any, names: list[str], lang: str) -> Problem | None:
        """The problem the same run finds now (None: it passes)."""
        found, problem = _run_op(spec, V, self, names, lang)
        if problem is None and found is not None:
            return _differs(found, _reference(spec, self.point)[1], names, self.point, lang)
        return problem


def _simplest(spec: OpSpec, V: Any, names: list[str], failure: Run, lang: str) -> Problem:
    """The failure told at the simplest numbers (0, 1, -1, 2, ...: the inputs, their grads
    before the step, the upstream grad; grads 0 and upstream 1 where those show it) and the
    plainest power (2, then 3) where the op still fails with the same mistake and cause (one
    seen only at simple numbers is a coincidence of them), still plain to see, and the
    engine's numbers are finite there. A plain number beside a Value is kept: `a + 2` is
    already plain."""
    was = failure.problem
    assert was is not None
    told: dict[Run, Problem] = {}

    def fails(trial: Run) -> bool:
        if trial.upstream == 0 or 0 in (trial.start or ()):  # they hide the step's mistake
            return False
        with warnings.catch_warnings():  # a negative base to a fractional power: nan, no case
            warnings.simplefilter("ignore")
            try:
                out, grads, _ = _reference(spec, trial.point)
            except (ArithmeticError, ValueError, TypeError):
                return False
        if not all(isinstance(x, float) and math.isfinite(x) for x in (out, *grads)):
            return False
        problem = trial.again(spec, V, names, lang)
        if (
            problem is not None
            and _said(problem) == _said(was)
            and problem.gap >= min(was.gap, 0.01)  # still plain to see, if not as far off
            and (was.gap > 0 or problem.gap == 0)  # a raise, or a wrong amount, as it was
            and (math.isfinite(problem.gap) or not math.isfinite(was.gap))
        ):
            told[trial] = problem  # as it was seen: a learner's set of children has no order
            return True
        return False

    plain = replace(failure, start=None, upstream=1.0)
    if failure.start is not None and fails(plain):  # grads 0 and upstream 1 show it as well
        failure = plain
    point = failure.point
    if point.k_used:
        for k in (2.0, 3.0):
            if k == point.k:
                break
            if fails(replace(failure, point=replace(point, k=k))):
                point = replace(point, k=k)
                break
    free = [i for i in range(len(point.args)) if i != point.number]
    start = list(failure.start or ())

    def moved(numbers: list[float]) -> Run:
        args = list(point.args)
        for i, x in zip(free, numbers):
            args[i] = x
        rest = numbers[len(free) :]
        if failure.start is None:
            return replace(failure, point=replace(point, args=tuple(args)))
        return replace(
            failure,
            point=replace(point, args=tuple(args)),
            start=tuple(rest[: len(start)]),
            upstream=rest[len(start)],
        )

    numbers = [point.args[i] for i in free]
    if failure.start is not None:
        numbers += [*start, failure.upstream]
    small = moved(simpler(numbers, lambda ns: fails(moved(ns))))
    return told.get(small, was)


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


def _plainer(first: Run | None, other: Run) -> Run:
    """Of the first failing point and another, the one where the same mistake shows far more
    (1 - x**2 for 1 - t**2 differs in the sixth digit near 0, visibly at 1.5), or where a cause
    was found when the first told none (it raised at a negative base, its rule shows at 2)."""
    if first is None:
        return other
    a, b = first.problem, other.problem
    assert a is not None and b is not None
    if a.mistake == "other" and b.mistake != "other":  # a cause found on evidence
        return other
    return other if b.mistake == a.mistake and b.gap > 100 * a.gap else first


def _differs(
    found: list[float], grads: list[float], names: list[str], point: Point, lang: str
) -> Problem | None:
    """The first input whose grad differs from the engine's, in words (None: none does)."""
    for name, g, e in zip(names, found, grads):
        if not close(g, e, rel=1e-6, abs_=1e-9):
            where = _where(point, names)
            fields = {"input": name, "found": fmt(g), "expected": fmt(e), "where": where}
            step = text("practice.grad_differs", lang, **fields)
            return Problem("other", step, unexplained=True)
    return None


def _run_op(
    spec: OpSpec, V: Any, run: Run, names: list[str], lang: str
) -> tuple[list[float] | None, Problem | None]:
    """One run of the learner's op at the run's point, from its start: the inputs' grads (the
    amounts each gained, per unit of upstream grad) or the first wrong step."""
    point = run.point
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
        seeds = [run.upstream] * len(outs)
        shifts = list(run.start or [0.0] * len(leaves))
        for leaf, s in zip(leaves, shifts):
            if run.start is not None:
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
        if e.problem.mistake != "other":  # named whatever the numbers (not written, too long)
            return None, e.problem
        return None, replace(e.problem, step=aside(e.problem.step, _where(point, names), lang))
