"""`check(exercise, code)`: load a learner's code and run the check of the exercise's kind on it;
`check_engine(code)`: every exercise that applies to a whole lecture-style engine, in one table.

Every check has three layers: a gradient check at random points drawn now (the seed is shown so
the run can be replayed) and at edge cases, against micrograd's engine and central differences;
the first wrong step of the backward pass, in words, with the mistake's name; a summary per input.
"""

from __future__ import annotations

import random
import types
from typing import Any

from micrograd.practice import reference, sandbox
from micrograd.practice.checks import CHECKS, op
from micrograd.practice.exercises import EXERCISES, Exercise
from micrograd.practice.result import CheckResult, Problem
from micrograd.practice.sandbox import (
    LearnerError,
    Tampering,
    TookTooLong,
    load,
    session,
    value_class,
)
from micrograd.text import language, text


def new_seed() -> int:
    """A random seed drawn now, from the operating system: every check sees new points."""
    return random.SystemRandom().randrange(1, 10**9)


def check(
    exercise_id: str, code: Any, *, seed: int | None = None, lang: str | None = None
) -> CheckResult:
    """Check the exercise `exercise_id` on the learner's `code` (a .py or .ipynb path, a module,
    a Value class, or a function for an op exercise; a predict exercise's answers, as numbers or
    a text file). Pass `seed` to replay a run."""
    lang = language(lang)
    if exercise_id not in EXERCISES:
        known = ", ".join(EXERCISES)
        raise ValueError(text("practice.unknown_exercise", lang, exercise=exercise_id, known=known))
    ex = EXERCISES[exercise_id]
    seed = new_seed() if seed is None else seed
    if ex.kind == "predict":  # the learner's answers, not code
        result = CHECKS[ex.kind](ex, code, seed, lang)
    else:
        watch = Tampering()
        with session() as output:
            try:
                is_fn = isinstance(code, types.FunctionType)
                ns = op.attach(code, ex) if is_fn else load(code, lang)
            except LearnerError as e:
                result = CheckResult(ex.id, False, seed=seed, lang=lang).fail(e.problem)
            else:
                result = _run(ex, ns, seed, lang)
        result = _unless_tampered(result, watch)
        result.output = output.lines()
    return with_hint(ex, result)


def _unless_tampered(result: CheckResult, watch: Tampering) -> CheckResult:
    """The result, or a failure naming what the learner's code replaced in the checker."""
    changed = watch.changed()
    if not changed:
        return result
    shown = ", ".join(changed[:3]) + (", ..." if len(changed) > 3 else "")
    said = text("practice.tampered", result.lang, names=shown)
    fresh = CheckResult(result.exercise, False, seed=result.seed, lang=result.lang)
    return fresh.fail(Problem("tampered", said))


def with_hint(ex: Exercise, result: CheckResult) -> CheckResult:
    """The result, with the exercise's hint about its first wrong step where one fits."""
    if not result.passed:
        fits = ex.hint_for(result.mistake or "", result.lang, result.hint_index)
        if fits is not None:
            result.hint_index, result.hint = fits
    return result


def _run(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """The check of the exercise's kind on the learner's namespace."""
    try:
        return CHECKS[ex.kind](ex, ns, seed, lang)
    except LearnerError as e:
        return CheckResult(ex.id, False, seed=seed, lang=lang).fail(e.problem)
    except TookTooLong:  # the time ran out while the checker itself was working
        seconds = f"{sandbox.TIME_LIMIT:g}"
        problem = Problem("too-long", text("practice.check_too_long", lang, seconds=seconds))
        return CheckResult(ex.id, False, seed=seed, lang=lang).fail(problem)


def check_engine(code: Any, *, seed: int | None = None, lang: str | None = None) -> CheckResult:
    """Every exercise of the lecture that applies to a whole lecture-style engine, in one table:
    each op (a missing method is a failure), backward(), and the exercises whose functions the
    file has."""
    lang = language(lang)
    seed = new_seed() if seed is None else seed
    result = CheckResult("check-engine", True, seed=seed, lang=lang)
    watch = Tampering()
    with session() as output:
        try:
            ns = load(code, lang)
            V = value_class(ns, lang)
        except LearnerError as e:
            result.fail(e.problem)
        else:
            _parts(result, ns, V, seed, lang)
    result = _unless_tampered(result, watch)
    result.output = output.lines()
    return result


def _parts(result: CheckResult, ns: Any, V: Any, seed: int, lang: str) -> None:
    """Each exercise that applies to the engine `ns`, as one part of `result`."""
    for ex in EXERCISES.values():
        if ex.kind == "predict" or ex.track != "lecture":  # microgpt's Value is another engine
            continue
        if not all(hasattr(ns, n) for n in reference.beside(ex.id)):
            continue
        if ex.op is not None and not all(hasattr(V, m) for m in ex.op.needs):
            part = CheckResult(ex.id, False, mistake="other", lang=lang)
            part.notes.append(text("practice.missing_method", lang, method=", ".join(ex.op.needs)))
        else:
            part = _run(ex, ns, seed, lang)
        result.parts.append(part)
    result.passed = all(p.passed for p in result.parts)
    if not result.passed:
        result.mistake = next(p.mistake for p in result.parts if not p.passed)
