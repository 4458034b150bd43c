"""The check of a predict exercise: the learner's number for each `+=` of a backward pass of one
of the lecture's graphs (micrograd.practice.lecture), against the engine's. The answers are
numbers, not code: nothing of the learner's runs."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from micrograd.practice.exercises import Exercise
from micrograd.practice.lecture import graph
from micrograd.practice.result import CheckResult, Problem, fmt
from micrograd.teach.explain import explain, shown
from micrograd.teach.quiz import Question, answer_is_right, questions, read_answer
from micrograd.text import joined, text


def asked(exercise_id: str, lang: str = "en") -> list[Question]:
    """The questions of a predict exercise, in backward()'s order."""
    return [q for _, _, q in questions(explain(graph(exercise_id), lang=lang))]


def _read(answers: Any, lang: str) -> list[Any]:
    """The learner's answers: a sequence, or a text file with one answer per line."""
    if isinstance(answers, (str, os.PathLike)):
        path = os.fspath(answers)
        if not os.path.isfile(path):
            raise FileNotFoundError(text("practice.no_file", lang, path=path))
        with open(path, encoding="utf-8") as file:
            lines = [ln.split("#")[0].strip() for ln in file]
        return [ln for ln in lines if ln]
    if isinstance(answers, Sequence):
        return list(answers)
    raise TypeError(f"answers must be a sequence of numbers or a file, got {answers!r}")


def named_miss(q: Question, found: str, lang: str) -> Problem:
    """The first wrong answer in words: the step, what was said, the two factors, and the known
    mistake the number shows (the input's own value, 1 - x**2 for tanh, the running total)."""
    shown_node, shown_input = shown(q.node), shown(q.input)
    fields = {"node": shown_node, "input": shown_input, "found": found, "expected": fmt(q.added)}
    words = text(
        "practice.predict_wrong", lang, local=fmt(q.local), upstream=fmt(q.upstream), **fields
    )
    x = read_answer(found)
    if x is None or answer_is_right(x, q.added):
        return Problem("wrong-local", words)
    data = q.input_data
    if (
        data is not None
        and q.formula.startswith("tanh(")
        and (
            answer_is_right(x, 1 - data * data)
            or answer_is_right(x, (1 - data * data) * q.upstream)
        )
    ):
        key, mistake = "practice.predict_input_not_output", "input-not-output"
    elif data is not None and answer_is_right(x, data):
        key, mistake = "practice.predict_own_value", "own-value"
    elif q.repeated and answer_is_right(x, q.total):
        key, mistake = "practice.predict_running_total", "running-total"
    else:
        return Problem("wrong-local", words)
    because = text(key, lang, **fields, local=fmt(q.local), upstream=fmt(q.upstream))
    return Problem(mistake, joined([words, because], lang))


def check(ex: Exercise, answers: Any, seed: int, lang: str) -> CheckResult:
    """The learner's number for each `+=`, in backward()'s order, against the engine's: `answers`
    is a sequence, or a text file with one answer per line. The result has no seed (nothing is
    drawn at random)."""
    qs = asked(ex.id, lang)
    said = _read(answers, lang)
    result = CheckResult(ex.id, True, seed=None, lang=lang)
    if len(said) != len(qs):
        step = text("practice.predict_count", lang, expected=len(qs), found=len(said))
        return result.fail(Problem("other", step))
    for q, typed in zip(qs, said):
        x = read_answer(str(typed))
        if x is None or not answer_is_right(x, q.added):
            return result.fail(named_miss(q, str(typed), lang))
    return result
