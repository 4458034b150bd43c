"""The check of a part of microgpt written on Values (linear, softmax, rmsnorm, one attention head):
the learner's function on generated cases, smallest first, against the reference solution run on
micrograd's engine: the outputs' shape and numbers, then each input's grad under upstream grads
other than 1 (the outputs weighted 1, -2, 0.5, 3, -1.5, ... and summed).

A failure shows the smallest case where it fails, its numbers made simpler while it still fails
the same way. A mistake is named only on evidence: each exercise lists mistakes as the function
a learner with that mistake would have written, and one is named where the learner's numbers are
that function's on every case (and differ from the right ones on some); else the verdict says
what was computed and what was expected, and names no cause.
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from micrograd import engine
from micrograd.practice.exercises import Exercise
from micrograd.practice.gpt_parts import PARTS, REFERENCE, Args, Part
from micrograd.practice.result import (
    CheckResult,
    Problem,
    Row,
    agree,
    apart,
    explanation,
    fmt,
    simpler,
)
from micrograd.practice.rules import topo
from micrograd.practice.sandbox import (
    ENDS_THE_CHECK,
    LearnerError,
    function_of,
    guarded,
    raised_type,
    value_class,
)
from micrograd.text import text, then

UPSTREAM = (1.0, -2.0, 0.5, 3.0, -1.5)  # the grad each output gets, in turn: none is only 1


# ------------------------------------------------------------------------------- running a case
def _leaves(arg: Any, name: str, make: Callable[[float], Any], out: list[tuple[str, Any]]) -> Any:
    """`arg` with each number made a Value by `make`, each leaf listed with its name (w[1][0])."""
    if isinstance(arg, list):
        return [_leaves(a, f"{name}[{i}]", make, out) for i, a in enumerate(arg)]
    leaf = make(arg)
    out.append((name, leaf))
    return leaf


def _flat(found: Any, path: str = "") -> list[tuple[str, Any]]:
    """The outputs, each with where it is ([1][0]): a list or tuple is walked into."""
    if isinstance(found, (list, tuple)):
        return [item for i, x in enumerate(found) for item in _flat(x, f"{path}[{i}]")]
    return [(path, found)]


@dataclass
class Outcome:
    """What a function did on a case: the error it raised, or its outputs' numbers (with where
    each is), each leaf's grad after the weighted sum's backward(), and which leaves each output's
    graph reaches."""

    leaves: list[tuple[str, Any]]
    error: str | None = None  # the exception's type, where it raised
    said: str = ""  # and the words saying so
    outputs: list[tuple[str, Any]] | None = None
    grads: list[float] | None = None
    reach: list[set[int]] | None = None  # per output, the indices of the leaves it depends on
    number: tuple[str, str] | None = None  # an output that is a plain number: where, its type
    alias: tuple[int, int] | None = None  # two outputs that are one list
    changed: tuple[str, str] | None = None  # an input it wrote: ("data" or "list", where)


def _reach(outs: list[tuple[str, Any]], leaves: list[tuple[str, Any]]) -> list[set[int]]:
    """For each output, the indices of the leaves its graph reaches."""
    index = {id(leaf): i for i, (_, leaf) in enumerate(leaves)}
    return [{index[id(n)] for n in topo([v]) if id(n) in index} for _, v in outs]


def _engine_run(fn: Callable[..., Any], names: Sequence[str], args: Args) -> Outcome:
    """fn on the case with micrograd's engine: the right answer."""
    leaves: list[tuple[str, Any]] = []
    made = [_leaves(a, n, engine.Value, leaves) for a, n in zip(args, names)]
    try:
        with warnings.catch_warnings():  # a nan is an outcome here, not news
            warnings.simplefilter("ignore")
            outs = _flat(fn(*made))
            weighted = (v * UPSTREAM[i % len(UPSTREAM)] for i, (_, v) in enumerate(outs))
            sum(weighted, engine.Value(0.0)).backward()
    except (ArithmeticError, ValueError, TypeError, IndexError) as e:
        return Outcome(leaves, error=type(e).__name__)
    return Outcome(
        leaves,
        outputs=[(p, v.data) for p, v in outs],
        grads=[float(v.grad) for _, v in leaves],
        reach=_reach(outs, leaves),
    )


def _central(fn: Callable[..., Any], names: Sequence[str], args: Args) -> list[float | None]:
    """Each number's slope of the weighted sum of fn's outputs by central differences (None
    where fn raises a step away), the third opinion beside the learner's and the engine's."""
    flat = [x for a in args for x in _numbers(a)]

    def total(numbers: list[float]) -> float:
        outs = _engine_run(fn, names, _refilled(args, numbers)).outputs or []
        return sum(UPSTREAM[i % len(UPSTREAM)] * x for i, (_, x) in enumerate(outs))

    slopes: list[float | None] = []
    for i, x in enumerate(flat):
        h = 1e-6 * max(1.0, abs(x))
        try:
            up = total(flat[:i] + [x + h] + flat[i + 1 :])
            down = total(flat[:i] + [x - h] + flat[i + 1 :])
            slopes.append((up - down) / (2 * h))
        except (ArithmeticError, ValueError, TypeError):
            slopes.append(None)
    return slopes


def _run(fn: Callable[..., Any], V: Any, part: Part, args: Args, lang: str) -> Outcome:
    """fn on the case with the learner's Value (the learner's function, or a mistake's run the
    same way, so both do the same arithmetic): a raise is an outcome too."""
    leaves: list[tuple[str, Any]] = []
    call = part.call(args)

    made: list[Any] = []

    def forward() -> Any:
        made.extend(_leaves(a, n, V, leaves) for a, n in zip(args, part.names))
        return fn(*made)

    def backward(outs: list[tuple[str, Any]]) -> None:
        terms = [
            v * UPSTREAM[i % len(UPSTREAM)] for i, (_, v) in enumerate(outs) if hasattr(v, "data")
        ]
        if terms:
            sum(terms[1:], terms[0]).backward()

    try:
        result = guarded(call, lang, forward)
        outs = _flat(result)
        plain = next(((p, type(v).__name__) for p, v in outs if not hasattr(v, "data")), None)
        numbers = [(p, getattr(v, "data", v)) for p, v in outs]
        reach = _reach(outs, leaves)
        guarded(f"{call}: backward()", lang, partial(backward, [o for o in outs if o != plain]))
    except LearnerError as e:
        if e.problem.mistake in ENDS_THE_CHECK:
            raise
        error = raised_type(e)
        return Outcome(leaves, error=error, said=e.problem.step)
    grads = [_number(getattr(leaf, "grad", math.nan)) for _, leaf in leaves]
    outcome = Outcome(
        leaves, outputs=numbers, grads=grads, reach=reach, number=plain, alias=_alias(result)
    )
    outcome.changed = _changed(args, part.names, made, leaves)
    return outcome


def _changed(
    args: Args, names: Sequence[str], made: list[Any], leaves: list[tuple[str, Any]]
) -> tuple[str, str] | None:
    """An input the call changed: a leaf's number ("data", w[0][1]), or a list given to it that
    now holds something else ("list", x[1])."""
    numbers = [x for a in args for x in _numbers(a)]
    for (name, leaf), x in zip(leaves, numbers):
        if getattr(leaf, "data", x) != x:
            return "data", name
    given = iter(leaf for _, leaf in leaves)
    for arg, name in zip(made, names):
        for path, item in _flat(arg, name):
            if item is not next(given, None):
                return "list", path
    return None


def _numbers(arg: Any) -> list[float]:
    """The numbers of a nested list, in order."""
    return [x for a in arg for x in _numbers(a)] if isinstance(arg, list) else [arg]


def _alias(result: Any) -> tuple[int, int] | None:
    """Two places of the result that are one list (made once, filled again for each token)."""
    if not isinstance(result, list):
        return None
    first: dict[int, int] = {}
    for i, item in enumerate(result):
        if isinstance(item, list):
            if id(item) in first:
                return first[id(item)], i
            first[id(item)] = i
    return None


def _number(x: Any) -> Any:
    x = getattr(x, "data", x)
    return x if isinstance(x, (int, float, complex)) else math.nan


def _forward_agrees(found: Outcome, want: Outcome) -> bool:
    assert found.outputs is not None and want.outputs is not None
    return [p for p, _ in found.outputs] == [p for p, _ in want.outputs] and all(
        agree(a, b) for (_, a), (_, b) in zip(found.outputs, want.outputs)
    )


def _same(found: Outcome, want: Outcome) -> bool:
    """Whether two outcomes agree: the same error, or the same outputs and grads (to rounding)."""
    if found.error or want.error:
        return found.error == want.error
    if found.number != want.number:
        return False
    return _forward_agrees(found, want) and all(
        agree(a, b, rel=1e-6, abs_=1e-9) for a, b in zip(found.grads or [], want.grads or [])
    )


# ------------------------------------------------------------------------------------ the verdict
def _how(found: Outcome, want: Outcome) -> str:
    """How a failing outcome fails: 'error', 'shape', 'forward', 'number' (the right numbers, one
    of them a plain number, not a Value) or 'grad'."""
    if found.error:
        return "error"
    assert found.outputs is not None and want.outputs is not None
    if [p for p, _ in found.outputs] != [p for p, _ in want.outputs]:
        return "shape"
    if not _forward_agrees(found, want):
        return "forward"
    return "number" if found.number else "grad"


def _plain(outcome: Outcome) -> bool:
    """Whether every output is a finite real number."""
    return all(isinstance(x, (int, float)) and math.isfinite(x) for _, x in outcome.outputs or [])


def _cut(found: Outcome, want: Outcome) -> tuple[str, str] | None:
    """The first output (where it is) whose graph misses a leaf (its name) that the right
    graph reaches: a number taken out with .data cut it there."""
    for (path, _), mine, right in zip(want.outputs or [], found.reach or [], want.reach or []):
        missing = sorted(right - mine)
        if missing:
            return path, want.leaves[missing[0]][0]
    return None


def _step(part: Part, args: Args, found: Outcome, want: Outcome, lang: str) -> str:
    """What the learner's function did on the case and what it should have, in words."""
    call = part.call(args)
    how = _how(found, want)
    if how == "error":
        return found.said
    if how == "number":
        where, kind = found.number or ("", "")
        return text("practice.gpt.cut_number", lang, call=call, where=where, kind=kind)
    assert found.outputs is not None and want.outputs is not None
    if how == "shape":
        fields = {"call": call, "found": len(found.outputs), "expected": len(want.outputs)}
        return text("practice.gpt.shape", lang, **fields)
    if how == "forward":
        for (path, a), (_, b) in zip(found.outputs, want.outputs):
            if not agree(a, b):
                shown = apart(a, b)
                fields = {"call": call, "where": path, "found": shown[0], "expected": shown[1]}
                return text("practice.gpt.forward", lang, **fields)
    upstream = ", ".join(fmt(UPSTREAM[i % len(UPSTREAM)]) for i in range(len(want.outputs)))
    for (name, _), a, b in zip(want.leaves, found.grads or [], want.grads or []):
        if not agree(a, b, rel=1e-6, abs_=1e-9):
            shown = apart(a, b)
            fields = {"call": call, "leaf": name, "found": shown[0], "expected": shown[1]}
            return text("practice.gpt.grad", lang, upstream=upstream, **fields)
    raise AssertionError("a failing case with nothing that differs")


def _refilled(args: Args, numbers: list[float]) -> Args:
    """The case `args` with its numbers, in order, replaced by `numbers`."""
    it = iter(numbers)

    def fill(a: Any) -> Any:
        return [fill(x) for x in a] if isinstance(a, list) else next(it)

    return tuple(fill(a) for a in args)


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """The learner's part on every case against the reference on the engine; on a failure, the
    smallest case and, where the evidence holds, the mistake."""
    part = PARTS[ex.id]
    V = value_class(ns, lang)
    fn = function_of(ns, part.function, lang)
    right = REFERENCE[ex.id]
    cases = part.cases(random.Random(seed))
    runs = [
        (args, _run(fn, V, part, args, lang), _engine_run(right, part.names, args))
        for args in cases
    ]
    result = CheckResult(ex.id, True, seed=seed, lang=lang)
    changed = next(((a, f) for a, f, _ in runs if f.changed and f.changed[0] == "data"), None)
    if changed is not None:  # a part that writes its inputs' numbers changes the model's weights
        args, found = changed
        where = found.changed[1] if found.changed else ""
        step = text("practice.gpt.changed_data", lang, call=part.call(args), leaf=where)
        return result.fail(Problem("wrong-forward", step))
    again = _run(fn, V, part, runs[0][0], lang)
    if not _same(again, runs[0][1]):  # the same call, another answer: state kept between calls
        step = text("practice.gpt.state_kept", lang, call=part.call(runs[0][0]))
        return result.fail(Problem("state-kept", step))
    failing = [(a, f, w) for a, f, w in runs if not _same(f, w)]
    if not failing:
        rows: dict[str, Row] = {}
        for args, found, want in runs:
            slopes = _central(right, part.names, args)
            for (name, _), a, b, d in zip(want.leaves, found.grads or [], want.grads or [], slopes):
                arg = name.split("[")[0]
                rows.setdefault(arg, Row(arg)).add(a, b, d)
        result.rows = list(rows.values())
        return result
    cut = next(((a, f, w) for a, f, w in failing if _how(f, w) == "grad" and _cut(f, w)), None)
    if cut is not None:  # the smallest case whose graph is cut: the evidence of the grads' fault
        args, found, want = cut
        path, leaf = _cut(found, want) or ("", "")
        step = text("practice.gpt.cut_leaf", lang, call=part.call(args) + path, leaf=leaf)
        return result.fail(Problem("graph-cut", step))
    replaced = next(((a, f) for a, f, w in failing if f.changed), None)
    if replaced is not None:  # the learner's list of inputs written over while it was read
        args, found = replaced
        where = found.changed[1] if found.changed else ""
        step = text("practice.gpt.changed_list", lang, call=part.call(args), where=where)
        return result.fail(Problem("wrong-forward", step))
    alias = next(((a, f) for a, f, w in failing if f.alias), None)
    if alias is not None:  # one list shown at two places: the evidence of the outputs' fault
        args, found = alias
        i, j = found.alias or (0, 0)
        step = text("practice.gpt.alias", lang, call=part.call(args), i=i, j=j)
        return result.fail(Problem("wrong-forward", step))
    args, found, want = failing[0]
    how = _how(found, want)

    def fails(trial: Args) -> bool:  # the same way, and with no stranger numbers (complex, inf)
        right_now = _engine_run(right, part.names, trial)
        mine = _run(fn, V, part, trial, lang)
        return (
            right_now.error is None
            and not _same(mine, right_now)
            and _how(mine, right_now) == how
            and (_plain(mine) or not _plain(found))
        )

    flat = [x for a in args for x in _numbers(a)]
    small = _refilled(args, simpler(flat, lambda trial: fails(_refilled(args, trial))))
    found, want = _run(fn, V, part, small, lang), _engine_run(right, part.names, small)
    step = _step(part, small, found, want, lang)
    fitted = part.fit(runs) if part.fit else []
    fits = []  # the mistakes whose numbers are the learner's, on every case
    for mistake, words, wrong, *fields in [*part.mistakes, *fitted]:
        models = [_run(wrong, V, part, a, lang) for a, _, _ in runs]
        if all(_same(f, m) for (_, f, _), m in zip(runs, models)) and _same(
            found, _run(wrong, V, part, small, lang)
        ):
            fits.append((mistake, text(words, lang, **(fields[0] if fields else {}))))
    general = {"number": "graph-cut", "shape": "wrong-forward", "forward": "wrong-forward"}
    named = explanation(fits)
    if named is not None:
        return result.fail(Problem(named[0], then(step, named[1], lang)))
    return result.fail(Problem(general.get(how, "other"), step))
