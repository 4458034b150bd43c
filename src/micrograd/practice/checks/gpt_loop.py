"""The check of train_step, microgpt's training step: the learner's step on a small model made by
the file's own init_model and gpt(), a few steps on a few documents and then the same steps
again from the same weights, against the reference's step on the same weights: each step's loss,
then every parameter, m and v after it.

A mistake is named only where the learner's numbers, after every step of both runs, are those of
the step written with that mistake; else the verdict says which number of which step differs.
The training itself (microgpt's model on the names, below a mean loss of 2.6) runs outside the
check, from the learner's file: it takes seconds a step in a browser and a minute in all.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from micrograd.practice.exercises import Exercise
from micrograd.practice.reference import gpt as ref
from micrograd.practice.result import CheckResult, Problem, agree, apart, explanation
from micrograd.practice.sandbox import (
    ENDS_THE_CHECK,
    LearnerError,
    function_of,
    guarded,
    raised_type,
)
from micrograd.text import text, then, titled

# a GPT small enough to step, of two layers: a cache per layer, not one shared by both
SIZES = {"vocab_size": 5, "n_embd": 4, "n_layer": 2, "block_size": 8}
# token ids, BOS (4) at both ends; the last longer than the block (8): it trains on 8 positions
DOCS = ([4, 0, 1, 4], [4, 2, 2, 3, 0, 4], [4, 1, 4], [4, 0, 1, 2, 3, 0, 1, 2, 3, 4])
SEED = 7  # the weights' random draws


@dataclass
class After:
    """What one step left: its loss, every parameter's number, m and v; or the error it raised."""

    loss: Any = None
    data: list[Any] = field(default_factory=list)
    m: list[Any] = field(default_factory=list)
    v: list[Any] = field(default_factory=list)
    error: str = ""
    said: str = ""


def _same(x: After, y: After) -> bool:
    if x.error or y.error:
        return x.error == y.error
    losses = [getattr(x.loss, "data", x.loss)], [getattr(y.loss, "data", y.loss)]
    numbers = zip([*losses[0], *x.data, *x.m, *x.v], [*losses[1], *y.data, *y.m, *y.v])
    return len(x.data) == len(y.data) and all(agree(a, b) for a, b in numbers)


def _runs(
    step_fn: Callable[..., Any],
    init: Callable[..., Any],
    lang: str | None,
    like: list[After] | None = None,
) -> list[After]:
    """Two runs of len(DOCS) steps, each from the same weights: what each step left (a run stops
    at an error, or, given `like`, where a step differs from it). `lang` None: the checker's own
    step, unguarded."""
    out: list[After] = []
    state = random.getstate()
    try:
        for _ in range(2):
            random.seed(SEED)
            sd = init(**SIZES)
            params = [p for matrix in sd.values() for row in matrix for p in row]
            m, v = [0.0] * len(params), [0.0] * len(params)
            for step, tokens in enumerate(DOCS):
                call = partial(step_fn, sd, params, list(tokens), m, v, step, len(DOCS))
                try:
                    loss = call() if lang is None else guarded(_call(step, tokens), lang, call)
                except (ArithmeticError, ValueError, TypeError, IndexError) as e:
                    out.append(After(error=type(e).__name__))
                    return out
                except LearnerError as e:
                    if e.problem.mistake in ENDS_THE_CHECK:
                        raise
                    error = raised_type(e)
                    out.append(After(error=error, said=e.problem.step))
                    return out
                data = [getattr(p, "data", p) for p in params]
                out.append(After(loss, data, list(m), list(v)))
                if like is not None and (
                    len(like) < len(out) or not _same(like[len(out) - 1], out[-1])
                ):
                    return out
    finally:
        random.setstate(state)
    return out


def _call(step: int, tokens: Any) -> str:
    return f"train_step(sd, params, {list(tokens)}, m, v, {step}, {len(DOCS)})"


def _loop(
    mean: bool = True,
    decay: str = "linear",
    target: int = 1,
    adam_first: bool = False,
    step_passed: bool = True,
    positions: int = 0,
    last_only: bool = False,
    sign: int = -1,
    capped: bool = True,
    over_tokens: bool = False,
) -> Callable[..., float]:
    """train_step with one of its pieces changed (the defaults: the right one)."""

    def step_fn(
        sd: Any, params: Any, tokens: Any, m: Any, v: Any, step: int, num_steps: int
    ) -> float:
        n = (min(len(sd["wpe"]), len(tokens) - 1) if capped else len(tokens) - 1) + positions
        keys: list[list[Any]] = [[] for _ in range(SIZES["n_layer"])]
        values: list[list[Any]] = [[] for _ in range(SIZES["n_layer"])]
        losses = []
        for pos in range(n):
            probs = ref.softmax(ref.gpt(sd, tokens[pos], pos, keys, values))
            losses.append(sign * probs[tokens[pos + target]].log())
        losses = losses[-1:] if last_only else losses
        loss = sum(losses) / len(losses) if mean else sum(losses)
        loss = sum(losses) / len(tokens) if over_tokens else loss
        if decay == "none":
            lr = 0.01
        else:  # "late": the step after this one's learning rate
            lr = 0.01 * (1 - (step + (decay == "late")) / num_steps)
        if adam_first:
            ref.adam_step(params, m, v, step if step_passed else 0, lr=lr)
        loss.backward()
        if not adam_first:
            ref.adam_step(params, m, v, step if step_passed else 0, lr=lr)
        return loss.data

    return step_fn


MISTAKES: tuple[tuple[str, str, Callable[..., float]], ...] = (
    ("wrong-forward", "practice.gpt.loop_sum", _loop(mean=False)),
    ("wrong-forward", "practice.gpt.loop_target", _loop(target=0)),
    ("wrong-update", "practice.gpt.loop_no_decay", _loop(decay="none")),
    ("wrong-update", "practice.gpt.loop_decay_late", _loop(decay="late")),
    ("wrong-update", "practice.gpt.loop_adam_first", _loop(adam_first=True)),
    ("wrong-update", "practice.gpt.loop_step_zero", _loop(step_passed=False)),
    ("wrong-forward", "practice.gpt.loop_short", _loop(positions=-1)),
    ("wrong-forward", "practice.gpt.loop_last_only", _loop(last_only=True)),
    ("wrong-forward", "practice.gpt.loop_sign", _loop(sign=1)),
    ("other", "practice.gpt.loop_uncapped", _loop(capped=False)),
    ("wrong-forward", "practice.gpt.loop_over_tokens", _loop(over_tokens=True)),
)


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """The learner's train_step, step by step and run again, against the reference's."""
    step_fn = function_of(ns, "train_step", lang)
    init = function_of(ns, "init_model", lang)
    want = _runs(ref.train_step, ref.init_model, None)
    found = _runs(step_fn, init, lang)
    first = next((i for i, (f, w) in enumerate(zip(found, want)) if not _same(f, w)), None)
    result = CheckResult(ex.id, True, seed=seed, lang=lang)
    kind = next((type(a.loss).__name__ for a in found if not isinstance(a.loss, (int, float))), "")
    if first is None and len(found) == len(want) and kind:  # the numbers right, but not a number
        return result.fail(Problem("other", text("practice.gpt.loop_number", lang, kind=kind)))
    if first is None and len(found) == len(want):
        result.notes.append(text("practice.gpt.loop_passed", lang, steps=len(DOCS)))
        return result
    first = len(found) - 1 if first is None else first
    step = _step(first, found[first], want[first], lang)
    fits = [
        (mistake, words)
        for mistake, words, wrong in MISTAKES
        if len(model := _runs(wrong, ref.init_model, None, like=found)) == len(found)
        and all(map(_same, found, model))
    ]
    named = explanation(fits)
    if named is not None:
        mistake, words = named
        return result.fail(Problem(mistake, then(step, text(words, lang), lang)))
    if first >= len(DOCS):  # the first run was right: what differs came from the first run
        return result.fail(
            Problem("state-kept", then(step, text("practice.gpt.loop_kept", lang), lang))
        )
    loss = getattr(found[first].loss, "data", found[first].loss)
    forward = not found[first].error and not agree(loss, want[first].loss)
    mistake = "other" if found[first].error else "wrong-forward" if forward else "wrong-update"
    return result.fail(Problem(mistake, step))


def _step(index: int, found: After, want: After, lang: str) -> str:
    """The first number that differs after step `index`, in words."""
    step = index % len(DOCS)
    run = "practice.gpt.adam_run2" if index >= len(DOCS) else "practice.gpt.adam_run1"
    where = text("practice.gpt.loop_at", lang, run=text(run, lang), call=_call(step, DOCS[step]))
    if found.error:  # the words of the error name the call already
        return titled(text(run, lang), found.said, lang)
    loss = getattr(found.loss, "data", found.loss)
    if not agree(loss, want.loss):
        found_, want_ = apart(loss, want.loss)
        fields = {"where": where, "what": "loss", "found": found_, "expected": want_}
        return text("practice.gpt.adam_differs", lang, **fields)
    for name, xs, ys in (
        ("params[{i}]", found.data, want.data),
        ("m[{i}]", found.m, want.m),
        ("v[{i}]", found.v, want.v),
    ):
        for i, (a, b) in enumerate(zip(xs, ys)):
            if not agree(a, b):
                fields = {
                    "where": where,
                    "what": name.format(i=i),
                    "found": apart(a, b)[0],
                    "expected": apart(a, b)[1],
                }
                return text("practice.gpt.adam_differs", lang, **fields)
    return where
