"""The exercises, one row each, in the lecture's order: slopes, the graph filled in by hand, the
ops' closures, backward(), the traps of +=, the exercise set's softmax, and the network.

A row is the exercise's id, its kind (which check runs it: micrograd.practice.checks) and, for an
op, how the op is applied and at which points it is checked. Its words are the catalog's
(micrograd/text/en.py and zh.py: exercise.ID.title, .task, .hint.0, .hint.1, ...) and its code is
its part of the reference solutions (micrograd/practice/reference/, `# part: ID`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd.practice.result import fmt
from micrograd.text import catalog, text

RANDOM = 3  # how many random points an op is checked at, before its edge cases


@dataclass(frozen=True)
class Point:
    """Where an op is checked: the inputs' data, k for `x ** k`, whether one Value is used twice."""

    args: tuple[float, ...]
    k: float = 0.0
    twice: bool = False
    k_used: bool = False
    number: int | None = None  # the operand given as a plain number (0: `2 + a`, 1: `a + 2`)

    def leaves(self) -> int:
        """How many Values the point makes: one where a Value is used twice or beside a number."""
        return 1 if self.twice or self.number is not None else len(self.args)


def as_typed(k: float) -> float:
    """k as the learner would type it: 2, not 2.0 (so the node is named '**2' as in the lecture)."""
    return int(k) if float(k).is_integer() else k


def _never(x: float) -> bool:
    """No kink: central differences apply everywhere."""
    return False


@dataclass(frozen=True)
class OpSpec:
    """How an op exercise is applied and where it is checked."""

    rule: str  # the key of micrograd.practice.rules.RULES (engine.OPS's) for the op's node
    arity: int
    method: str  # the method the learner writes: a function given to check() is attached as it
    needs: tuple[str, ...]  # the methods a Value class must have for the exercise to apply
    show: str  # the op in words: "{0} - {1}"
    apply: Callable[..., Any]  # (operands..., k) -> the output Value
    sample: Callable[[random.Random], Point]
    edges: tuple[Point, ...]
    kink: Callable[[float], bool] = _never  # where central differences do not apply

    def points(self, rng: random.Random) -> list[Point]:
        """RANDOM random points drawn from `rng`, then the edge cases (0, negative, large, twice)."""
        return [self.sample(rng) for _ in range(RANDOM)] + list(self.edges)

    def operands(self, leaves: list[Any], point: Point) -> tuple[Any, ...]:
        """The op's operands: the leaves, one leaf twice, or a leaf beside a plain number, as the
        point says."""
        if self.arity == 1:
            return (leaves[0],)
        if point.number is not None:
            number = as_typed(point.args[point.number])
            return (leaves[0], number) if point.number == 1 else (number, leaves[0])
        return (leaves[0], leaves[0]) if point.twice else (leaves[0], leaves[1])

    def shown(self, names: Sequence[str], point: Point) -> str:
        """The op at the point in words: a * b, a * a, a * 2 or 3 * a."""
        if point.twice:
            return self.show.format("a", "a")
        if point.number is not None:
            number = fmt(point.args[point.number])
            return self.show.format(*(("a", number) if point.number == 1 else (number, "a")))
        return self.show.format(*names)

    def outputs(self, operands: tuple[Any, ...], point: Point) -> list[Any]:
        """The op applied as the exercise says; a unary op on a Value used twice, twice."""
        outs = [self.apply(*operands, point.k)]
        if self.arity == 1 and point.twice:
            outs.append(self.apply(*operands, point.k))
        return outs


@dataclass(frozen=True)
class Exercise:
    """One exercise: its id, its kind, and the op it checks (if one); its words by language."""

    id: str
    kind: str  # which check runs it: a key of micrograd.practice.checks.CHECKS
    op: OpSpec | None = None
    track: str = "lecture"  # "lecture": the backward() lecture's engine; "gpt": microgpt's

    def title(self, lang: str) -> str:
        """The exercise's title in `lang`."""
        return text(f"exercise.{self.id}.title", lang)

    def task(self, lang: str) -> str:
        """What the exercise asks for, in `lang`."""
        return text(f"exercise.{self.id}.task", lang)

    def hint_for(self, mistake: str, lang: str, index: int | None = None) -> tuple[int, str] | None:
        """The hint that fits a failure with `mistake` (or the hint `index` a check chose): its
        index and words; None where no hint is about that mistake."""
        index = HINTS_FOR.get(self.id, {}).get(mistake) if index is None else index
        hints = self.hints(lang)
        return None if index is None or index >= len(hints) else (index, hints[index])

    def hints(self, lang: str) -> tuple[str, ...]:
        """The graded hints in `lang`, the gentlest first."""
        keys = (f"exercise.{self.id}.hint.{n}" for n in itertools.count())
        return tuple(
            text(key, lang) for key in itertools.takewhile(catalog(lang).__contains__, keys)
        )


def _pair(low: float, high: float) -> Callable[[random.Random], Point]:
    return lambda rng: Point((rng.uniform(low, high), rng.uniform(low, high)))


def _one(low: float, high: float) -> Callable[[random.Random], Point]:
    return lambda rng: Point((rng.uniform(low, high),))


def _nonzero_divisor(rng: random.Random) -> Point:
    return Point((rng.uniform(-3, 3), rng.choice((-1, 1)) * rng.uniform(0.5, 3)))


def _power(rng: random.Random) -> Point:
    """A base of either sign where k is an integer (a negative base of a fractional power is no
    real number), positive otherwise."""
    k = rng.choice((2, 3, -1, 0.5, -2, 1.5, 4))
    sign = rng.choice((-1, 1)) if float(k).is_integer() else 1
    return Point((sign * rng.uniform(0.5, 3),), k=k, k_used=True)


def _base_and_exponent(rng: random.Random) -> Point:
    return Point((rng.uniform(0.5, 3), rng.uniform(-2, 2)))


NUMBERS = (  # a + 2 and 3 + a, and a fraction on either side: a + 2.5, 0.5 + a
    Point((1.5, 2.0), number=1),
    Point((3.0, -1.25), number=0),
    Point((-0.75, 2.5), number=1),
    Point((0.5, 1.75), number=0),
)
BINARY_EDGES = (
    Point((0.0, 1.5)),
    Point((-2.5, -0.75)),
    Point((1e6, -3e5)),
    Point((1.25,), twice=True),
    *NUMBERS,
)


def _op(
    id: str,
    rule: str,
    method: str,
    show: str,
    apply: Callable[..., Any],
    sample: Callable[[random.Random], Point],
    edges: tuple[Point, ...],
    needs: tuple[str, ...] = (),
    kink: Callable[[float], bool] = _never,
) -> Exercise:
    """An op exercise; its arity is what `show` says ("{0} + {1}" takes two operands)."""
    arity = 2 if "{1}" in show else 1
    spec = OpSpec(rule, arity, method, needs or (method,), show, apply, sample, edges, kink)
    return Exercise(id, "op", spec)


_ROWS = (
    Exercise("derivative", "derivative"),
    Exercise("predict-lecture", "predict"),
    _op("op-add", "+", "__add__", "{0} + {1}", lambda a, b, k: a + b, _pair(-3, 3), BINARY_EDGES),
    _op("op-mul", "*", "__mul__", "{0} * {1}", lambda a, b, k: a * b, _pair(-3, 3), BINARY_EDGES),
    Exercise("predict-neuron", "predict"),
    _op(
        "op-pow",
        "**k",
        "__pow__",
        "{0} ** k",
        lambda a, k: a ** as_typed(k),
        _power,
        (
            Point((0.0,), k=2, k_used=True),
            Point((-1.5,), k=3, k_used=True),
            Point((-1.5,), k=2, k_used=True),  # (pred - y) ** 2 with a negative residual
            Point((1000.0,), k=2, k_used=True),
            Point((1.7,), k=0.5, k_used=True),  # a fraction: int(k) or range(k) are no power
            Point((2.2,), k=-1.5, k_used=True),
            Point((1.3,), k=3, twice=True, k_used=True),
        ),
    ),
    _op(
        "op-tanh",
        "tanh",
        "tanh",
        "{0}.tanh()",
        lambda a, k: a.tanh(),
        _one(-2, 2),
        (
            Point((0.0,)),
            Point((-0.8,)),
            Point((30.0,)),
            Point((-400.0,)),  # cosh(400)**2 overflows: 1 - t**2 does not
            Point((0.6,), twice=True),
        ),
    ),
    _op(
        "op-exp",
        "exp",
        "exp",
        "{0}.exp()",
        lambda a, k: a.exp(),
        _one(-2, 2),
        (Point((0.0,)), Point((-3.0,)), Point((20.0,)), Point((0.4,), twice=True)),
    ),
    _op(
        "op-relu",
        "ReLU",
        "relu",
        "{0}.relu()",
        lambda a, k: a.relu(),
        _one(-2, 2),
        (Point((0.0,)), Point((-1.5,)), Point((1e6,)), Point((0.9,), twice=True)),
        kink=lambda x: x == 0,
    ),
    _op("op-sub", "-", "__sub__", "{0} - {1}", lambda a, b, k: a - b, _pair(-3, 3), BINARY_EDGES),
    _op(
        "op-div",
        "/",
        "__truediv__",
        "{0} / {1}",
        lambda a, b, k: a / b,
        _nonzero_divisor,
        (
            Point((0.0, 2.0)),
            Point((-3.0, -0.5)),
            Point((1e6, 7.0)),
            Point((1.75,), twice=True),
            *NUMBERS,
        ),
    ),
    _op(
        "op-log",
        "log",
        "log",
        "{0}.log()",
        lambda a, k: a.log(),
        _one(0.2, 5),
        (Point((1.0,)), Point((1e-3,)), Point((1e6,)), Point((2.5,), twice=True)),
    ),
    _op(  # the stub's __pow__ hands a Value exponent to _pow_value: a function is attached there
        "op-pow-value",
        "**",
        "_pow_value",
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
        needs=("__pow__",),
    ),
    Exercise("backward", "backward"),
    Exercise("predict-shared", "predict"),
    Exercise("zero-grad", "zero-grad"),
    Exercise("softmax-nll", "softmax"),
    Exercise("neuron-mlp", "mlp"),
    # the GPT track, in the order microgpt is built: its Value, then the parts on it
    Exercise("local-grads", "local-grads", track="gpt"),
    Exercise("linear", "gpt-part", track="gpt"),
    Exercise("softmax", "gpt-part", track="gpt"),
    Exercise("rmsnorm", "gpt-part", track="gpt"),
    Exercise("attention-head", "gpt-part", track="gpt"),
    Exercise("adam-step", "adam", track="gpt"),
    Exercise("gpt-loop", "gpt-loop", track="gpt"),
)
EXERCISES: dict[str, Exercise] = {ex.id: ex for ex in _ROWS}

# which hint (exercise.ID.hint.N) is about which mistake: a failure shows that one first
HINTS_FOR: dict[str, dict[str, int]] = {
    "predict-lecture": {"own-value": 1, "wrong-local": 0},
    "predict-neuron": {"input-not-output": 0},
    "predict-shared": {"running-total": 0},
    "op-add": {"wrong-local": 0, "assign-not-add": 1, "closure-not-attached": 2},
    "op-mul": {"wrong-operand": 0, "wrong-local": 1, "wrong-upstream": 1, "no-upstream": 1},
    "op-pow": {"wrong-local": 0},
    "op-tanh": {"wrong-local": 0, "input-output-swapped": 1, "no-upstream": 2, "wrong-upstream": 2},
    "op-exp": {"wrong-local": 0, "input-output-swapped": 1, "no-upstream": 2},
    "op-relu": {"wrong-local": 0, "value-as-slope": 1, "no-upstream": 2},
    "op-sub": {"wrong-local": 0},
    "op-div": {"wrong-local": 0, "wrong-operand": 0},
    "op-log": {"wrong-local": 0, "input-output-swapped": 1, "no-upstream": 2, "wrong-upstream": 2},
    "op-pow-value": {"wrong-local": 0, "wrong-operand": 1},
    "backward": {
        "not-reversed": 0,
        "reversed-not-topological": 0,
        "visit-order": 1,
        "recursion-limit": 2,
    },
    "zero-grad": {"not-reset": 0, "zeroed-late": 2},
    "softmax-nll": {"graph-cut": 0, "wrong-forward": 0},
    "neuron-mlp": {"wrong-forward": 1, "param-count": 2, "param-order": 2},
    "local-grads": {
        "wrong-local": 0,
        "wrong-operand": 0,
        "not-reversed": 1,
        "reversed-not-topological": 1,
        "visit-order": 1,
        "no-upstream": 1,
        "value-as-slope": 1,
        "assign-not-add": 2,
        "number-operand": 0,
    },
    "linear": {"wrong-axis": 1, "wrong-forward": 0, "graph-cut": 1},
    "softmax": {"wrong-forward": 0, "graph-cut": 0},
    "rmsnorm": {"mean-not-square": 0, "no-epsilon": 1, "wrong-forward": 1},
    "attention-head": {"cache-after": 1, "sees-future": 1, "no-scale": 2, "wrong-axis": 2},
    "adam-step": {
        "moments-swapped": 0,
        "moments-not-kept": 0,
        "no-bias-correction": 1,
        "update-sign": 2,
        "not-reset": 2,
    },
    "gpt-loop": {"wrong-forward": 0, "wrong-update": 1, "state-kept": 2},
}
