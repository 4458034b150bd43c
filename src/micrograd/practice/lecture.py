"""The checks of the exercises around the engine: a derivative by hand and by nudging, predicting
each `+=` of a small graph, and softmax with the negative log likelihood. Every expected number is
computed here, at check time: by micrograd's engine, by complex-step differentiation (exact to
rounding for an analytic function), or by the same finite differences the learner is asked for."""

from __future__ import annotations

import cmath
import math
import os
import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from micrograd import engine
from micrograd.engine import Value
from micrograd.practice.checker import LearnerError, function_of, guarded, value_class
from micrograd.practice.exercises import Exercise
from micrograd.practice.messages import aside, joined, say
from micrograd.practice.result import CheckResult, Row
from micrograd.practice.rules import close, fmt
from micrograd.practice.steps import Problem, Walk
from micrograd.teach.explain import explain
from micrograd.teach.quiz import Question, answer_is_right, questions, read_answer

# ---------------------------------------------------------------------------- derivative
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
    try:
        values = [float(x) for x in found]
    except (TypeError, ValueError):
        values = []
    if len(values) != 3:
        raise LearnerError(
            Problem("other", say("three_numbers", lang, what=what, found=repr(found)))
        )
    return values


def check_derivative(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
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
                first = Problem("wrong-local", say("gradf_wrong", lang, **fields))
        forward, central = forward_grad(a, b, c, H), central_grad(a, b, c, H)
        for name, fn, want_h, other in (
            ("numerical_grad", numerical, forward, central),
            ("symmetric_grad", symmetric, central, forward),
        ):
            call = f"{name}(f, a, b, c, h)"
            got = _three(guarded(call, lang, partial(fn, f, a, b, c, H)), name, lang)
            for x, g, w, o in zip("abc", got, want_h, other):
                if first is None and not close(g, w, rel=1e-7, abs_=1e-7):
                    key = "nudged_other_way" if close(g, o, rel=1e-7, abs_=1e-7) else "nudge_wrong"
                    fields = {"fn": name, "input": x, "found": fmt(g), "expected": fmt(w)}
                    first = Problem("other", say(key, lang, where=f"{where}, h = {H}", **fields))
    result = CheckResult(ex.id, first is None, seed=seed, lang=lang, rows=rows)
    if first is not None:
        result.mistake, result.first_wrong_step = first.mistake, first.step
    return result


# ---------------------------------------------------------------------------- predict the grads
def _lecture_graph() -> Value:
    a, b, c, f = (Value(x, label=n) for x, n in ((2.0, "a"), (-3.0, "b"), (10.0, "c"), (-2.0, "f")))
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    L = d * f
    L.label = "L"
    return L


def _neuron_graph() -> Value:
    x1, x2 = Value(2.0, label="x1"), Value(0.0, label="x2")
    w1, w2 = Value(-3.0, label="w1"), Value(1.0, label="w2")
    b = Value(6.8813735870195432, label="b")
    x1w1, x2w2 = x1 * w1, x2 * w2
    x1w1.label, x2w2.label = "x1*w1", "x2*w2"
    s = x1w1 + x2w2
    s.label = "x1*w1 + x2*w2"
    n = s + b
    n.label = "n"
    o = n.tanh()
    o.label = "o"
    return o


def _shared_graph() -> Value:
    a, b = Value(2.0, label="a"), Value(3.0, label="b")
    c, d = a + b, a * b
    e, g = c + d, c * d
    f = e + g
    for v, n in zip((c, d, e, g, f), "cdegf"):
        v.label = n
    return f


GRAPHS: dict[str, Callable[[], Value]] = {
    "predict-lecture": _lecture_graph,
    "predict-neuron": _neuron_graph,
    "predict-shared": _shared_graph,
}


def graph(exercise_id: str) -> Value:
    """The graph whose backward pass a predict exercise asks about (its output)."""
    return GRAPHS[exercise_id]()


def asked(exercise_id: str, lang: str = "en") -> list[Question]:
    """The questions of a predict exercise, in backward()'s order."""
    return [q for _, _, q in questions(explain(graph(exercise_id), lang=lang))]


def _answers(code: Any, lang: str) -> list[Any]:
    """The learner's answers: a sequence, or a text file with one answer per line."""
    if isinstance(code, (str, os.PathLike)):
        path = os.fspath(code)
        if not os.path.isfile(path):
            raise FileNotFoundError(say("no_file", lang, path=path))
        with open(path, encoding="utf-8") as file:
            lines = [ln.split("#")[0].strip() for ln in file]
        return [ln for ln in lines if ln]
    if isinstance(code, Sequence):
        return list(code)
    raise TypeError(f"answers must be a sequence of numbers or a file, got {code!r}")


def missed_step(q: Question, found: str, lang: str) -> str:
    """The first wrong answer in words: the step, what was said, and the two factors."""
    fields = {"node": q.node, "input": q.input, "found": found, "expected": fmt(q.added)}
    return say("predict_wrong", lang, local=fmt(q.local), upstream=fmt(q.upstream), **fields)


def check_predict(ex: Exercise, code: Any, seed: int, lang: str) -> CheckResult:
    """The learner's number for each `+=`, in backward()'s order, against the engine's."""
    qs = asked(ex.id, lang)
    answers = _answers(code, lang)
    result = CheckResult(ex.id, True, seed=None, lang=lang)
    if len(answers) != len(qs):
        result.passed, result.mistake = False, "other"
        text = say("predict_count", lang, expected=len(qs), found=len(answers))
        result.first_wrong_step = text
        return result
    for q, typed in zip(qs, answers):
        x = read_answer(str(typed))
        if x is None or not answer_is_right(x, q.added):
            result.passed, result.mistake = False, "wrong-local"
            result.first_wrong_step = missed_step(q, str(typed), lang)
            return result
    return result


# ---------------------------------------------------------------------------- softmax and NLL
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


def check_softmax(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
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
    cases.append(([0.5, -1.0], 2, True))  # logits [a, b, a]: a Value used twice
    rows = [Row(f"logits[{i}]") for i in range(4)]
    first: Problem | None = None
    for values, target, twice in cases:
        probs_want, loss_want, grads_want, numeric = _reference_softmax(values, target, twice)
        leaves = guarded("Value(x)", lang, partial(list, map(V, values)))
        zs = [leaves[0], leaves[1], leaves[0]] if twice else leaves
        names = {id(v): f"logits[{i}]" for i, v in enumerate(leaves)}
        probs = guarded("softmax(logits)", lang, partial(softmax, zs))
        for i, (p, w) in enumerate(zip(probs, probs_want)):
            if first is None and not close(p.data, w, rel=1e-9, abs_=1e-12):
                text = say("softmax_forward", lang, i=i, found=fmt(p.data), expected=fmt(w))
                first = Problem("wrong-forward", text)
        if first is not None:  # the loss of wrong probabilities may not even exist
            break
        loss = guarded("nll(probs, target)", lang, partial(nll, probs, target))
        if first is None and not close(loss.data, loss_want, rel=1e-9, abs_=1e-12):
            fields = {"target": target, "found": fmt(loss.data), "expected": fmt(loss_want)}
            first = Problem("wrong-forward", say("nll_forward", lang, **fields))
        if first is not None:
            break
        problem = guarded("loss._backward()", lang, partial(Walk(names, lang).run, [loss], [1.0]))
        if problem is not None:
            where = ", ".join(fmt(x) for x in values)
            note = joined([f"logits {where}", f"target {target}"], lang)
            first = Problem(problem.mistake, aside(problem.step, note, lang))
        for i, (leaf, w, d) in enumerate(zip(leaves, grads_want, numeric)):
            rows[i].add(leaf.grad, w, d)
            if first is None and not close(leaf.grad, w, rel=1e-6, abs_=1e-9):
                fields = {"input": f"logits[{i}]", "found": fmt(leaf.grad), "expected": fmt(w)}
                where = f"logits {', '.join(fmt(x) for x in values)}; target {target}"
                first = Problem("other", say("grad_differs", lang, where=where, **fields))
    result = CheckResult(ex.id, first is None, seed=seed, lang=lang, rows=rows)
    if first is not None:
        result.mistake, result.first_wrong_step = first.mistake, first.step
    return result
