"""The check of each kind of exercise: one module per kind, each with `check(ex, learner, seed,
lang)`, where `learner` is the namespace of the learner's loaded code (a predict exercise's is the
learner's answers instead: nothing of theirs runs).

The checks call learner code through micrograd.practice.sandbox and find its first wrong step
with micrograd.practice.diagnose; none imports the dispatcher (micrograd.practice.checker).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from micrograd.practice.checks import (
    adam,
    backward,
    derivative,
    gpt_loop,
    gpt_part,
    local_grads,
    mlp,
    op,
    predict,
    softmax,
    zero_grad,
)
from micrograd.practice.exercises import Exercise
from micrograd.practice.result import CheckResult

Check = Callable[[Exercise, Any, int, str], CheckResult]

CHECKS: dict[str, Check] = {
    "derivative": derivative.check,
    "predict": predict.check,
    "op": op.check,
    "backward": backward.check,
    "zero-grad": zero_grad.check,
    "softmax": softmax.check,
    "mlp": mlp.check,
    "local-grads": local_grads.check,
    "gpt-part": gpt_part.check,
    "adam": adam.check,
    "gpt-loop": gpt_loop.check,
}
