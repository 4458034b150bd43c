"""The exercises, in the lecture's order: each one's task and graded hints (English and Chinese),
and for an op, how it is applied and at which points it is checked."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from micrograd.practice.lecture_texts import LECTURE_TEXTS
from micrograd.practice.texts import TEXTS


@dataclass(frozen=True)
class Point:
    """Where an op is checked: the inputs' data, k for `x ** k`, whether one Value is used twice."""

    args: tuple[float, ...]
    k: float = 0.0
    twice: bool = False
    k_used: bool = False


def _num(k: float) -> float:
    """k as the learner would type it: 2, not 2.0 (so the node is named '**2' as in the lecture)."""
    return int(k) if float(k).is_integer() else k


def _never(x: float) -> bool:
    return False


@dataclass(frozen=True)
class OpSpec:
    """How an op exercise is applied and where it is checked."""

    rule: str  # the key of micrograd.practice.rules.RULES for the op's own node
    arity: int
    method: str  # the method a function is attached as
    needs: tuple[str, ...]  # the methods a Value class must have for the exercise to apply
    show: str  # the op in words: "{0} - {1}"
    apply: Callable[..., Any]  # (operands..., k) -> the output Value
    sample: Callable[[random.Random], Point]
    edges: tuple[Point, ...]
    kink: Callable[[float], bool] = _never  # where central differences do not apply

    def points(self, rng: random.Random) -> list[Point]:
        """Three random points drawn from `rng`, then the edge cases (0, negative, large, twice)."""
        return [self.sample(rng) for _ in range(3)] + list(self.edges)


@dataclass(frozen=True)
class Exercise:
    """One exercise: its id, kind, texts in each language, and the op it checks (if one)."""

    id: str
    kind: str  # "op", "backward", "zero-grad", "mlp", "derivative", "predict" or "softmax"
    title: dict[str, str]
    task: dict[str, str]
    hints: dict[str, tuple[str, ...]]
    op: OpSpec | None = None


def _pair(low: float, high: float) -> Callable[[random.Random], Point]:
    return lambda rng: Point((rng.uniform(low, high), rng.uniform(low, high)))


def _one(low: float, high: float) -> Callable[[random.Random], Point]:
    return lambda rng: Point((rng.uniform(low, high),))


def _nonzero_divisor(rng: random.Random) -> Point:
    return Point((rng.uniform(-3, 3), rng.choice((-1, 1)) * rng.uniform(0.5, 3)))


def _power(rng: random.Random) -> Point:
    return Point((rng.uniform(0.5, 3),), k=rng.choice((2, 3, -1, 0.5, -2, 1.5)), k_used=True)


def _base_and_exponent(rng: random.Random) -> Point:
    return Point((rng.uniform(0.5, 3), rng.uniform(-2, 2)))


BINARY_EDGES = (
    Point((0.0, 1.5)),
    Point((-2.5, -0.75)),
    Point((1e6, -3e5)),
    Point((1.25,), twice=True),
)


def _op(
    rule: str,
    method: str,
    show: str,
    apply: Callable[..., Any],
    sample: Callable[[random.Random], Point],
    edges: tuple[Point, ...],
    needs: tuple[str, ...] = (),
    kink: Callable[[float], bool] = _never,
) -> OpSpec:
    arity = 2 if "{1}" in show else 1
    return OpSpec(rule, arity, method, needs or (method,), show, apply, sample, edges, kink)


OPS: dict[str, OpSpec] = {
    "op-add": _op("add", "__add__", "{0} + {1}", lambda a, b, k: a + b, _pair(-3, 3), BINARY_EDGES),
    "op-mul": _op("mul", "__mul__", "{0} * {1}", lambda a, b, k: a * b, _pair(-3, 3), BINARY_EDGES),
    "op-pow": _op(
        "pow_k",
        "__pow__",
        "{0} ** k",
        lambda a, k: a ** _num(k),
        _power,
        (
            Point((0.0,), k=2, k_used=True),
            Point((-1.5,), k=3, k_used=True),
            Point((1000.0,), k=2, k_used=True),
            Point((1.3,), k=3, twice=True, k_used=True),
        ),
    ),
    "op-tanh": _op(
        "tanh",
        "tanh",
        "{0}.tanh()",
        lambda a, k: a.tanh(),
        _one(-2, 2),
        (Point((0.0,)), Point((-0.8,)), Point((30.0,)), Point((0.6,), twice=True)),
    ),
    "op-exp": _op(
        "exp",
        "exp",
        "{0}.exp()",
        lambda a, k: a.exp(),
        _one(-2, 2),
        (Point((0.0,)), Point((-3.0,)), Point((20.0,)), Point((0.4,), twice=True)),
    ),
    "op-relu": _op(
        "relu",
        "relu",
        "{0}.relu()",
        lambda a, k: a.relu(),
        _one(-2, 2),
        (Point((0.0,)), Point((-1.5,)), Point((1e6,)), Point((0.9,), twice=True)),
        kink=lambda x: x == 0,
    ),
    "op-sub": _op("sub", "__sub__", "{0} - {1}", lambda a, b, k: a - b, _pair(-3, 3), BINARY_EDGES),
    "op-div": _op(
        "div",
        "__truediv__",
        "{0} / {1}",
        lambda a, b, k: a / b,
        _nonzero_divisor,
        (
            Point((0.0, 2.0)),
            Point((-3.0, -0.5)),
            Point((1e6, 7.0)),
            Point((1.75,), twice=True),
        ),
    ),
    "op-log": _op(
        "log",
        "log",
        "{0}.log()",
        lambda a, k: a.log(),
        _one(0.2, 5),
        (Point((1.0,)), Point((1e-3,)), Point((1e6,)), Point((2.5,), twice=True)),
    ),
    "op-pow-value": _op(
        "pow",
        "__pow__",
        "{0} ** {1}",
        lambda a, b, k: a**b,
        _base_and_exponent,
        (
            Point((2.0, 0.0)),
            Point((1.0, 2.5)),
            Point((0.5, -1.5)),
            Point((2.0, 10.0)),
            Point((1.7,), twice=True),
        ),
    ),
}

# the lecture's order: slopes, the graph filled in by hand, the ops' closures, backward(), the
# traps of +=, the exercise set's softmax, and the network
ORDER = (
    *("derivative", "predict-lecture", "op-add", "op-mul", "predict-neuron", "op-pow", "op-tanh"),
    *("op-exp", "op-relu", "op-sub", "op-div", "op-log", "op-pow-value", "backward"),
    *("predict-shared", "zero-grad", "softmax-nll", "neuron-mlp"),
)
_BY_ID = {t[0]: t for t in TEXTS + LECTURE_TEXTS}
EXERCISES: dict[str, Exercise] = {
    id: Exercise(id, kind, title, task, hints, OPS.get(id))
    for id, kind, title, task, hints in (_BY_ID[id] for id in ORDER)
}
