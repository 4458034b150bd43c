"""The parts of the GPT track that are functions of Values (linear, softmax, rmsnorm, one attention
head), as micrograd.practice.checks.gpt_part checks them: each part's cases, smallest first, and
the mistakes learners make in it, each written as the code a learner with that mistake would have
written (a mistake is named only where its numbers are the learner's on every case).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd.practice.reference import gpt as ref
from micrograd.practice.result import agree, fmt

Args = tuple[Any, ...]  # a case: each argument a nested list of numbers (each one a leaf Value)


def typed(arg: Any) -> str:
    """A nested list of numbers as typed: [[1, 2], [0.5, -1]]."""
    return f"[{', '.join(typed(a) for a in arg)}]" if isinstance(arg, list) else fmt(arg)


# ------------------------------------------------------------------------- the mistakes, as code
def _linear_transposed(x: list[Any], w: list[list[Any]]) -> list[Any]:
    """w's columns dotted with x: the other axis of w."""
    return [sum(c * xi for c, xi in zip(col, x)) for col in zip(*w)]


def _linear_indexed_transposed(x: list[Any], w: list[list[Any]]) -> list[Any]:
    """w[j][i] for w[i][j]: the other axis, by index (w not square: an IndexError)."""
    return [sum(w[j][i] * x[j] for j in range(len(x))) for i in range(len(w))]


def _linear_rows_of_x(x: list[Any], w: list[list[Any]]) -> list[Any]:
    """One output per element of x, not per row of w."""
    return [sum(wi * xi for wi, xi in zip(w[i], x)) for i in range(len(x))]


def _linear_relu(x: list[Any], w: list[list[Any]]) -> list[Any]:
    """Each output through a relu: an MLP's layer, not microgpt's linear."""
    return [sum(wi * xi for wi, xi in zip(row, x)).relu() for row in w]


def _softmax_negated(logits: list[Any]) -> list[Any]:
    """exp(max - z): the softmax of -z."""
    return ref.softmax([-z for z in logits])


def _softmax_of_sum(logits: list[Any]) -> list[Any]:
    """exp(z) over the sum of the logits themselves, not of their exps."""
    total = sum(logits)
    return [z.exp() / total for z in logits]


def _softmax_half_shifted(logits: list[Any]) -> list[Any]:
    """The max subtracted in the numerators only: exp(z - max) / sum(exp(z))."""
    top = max(z.data for z in logits)
    total = sum(z.exp() for z in logits)
    return [(z - top).exp() / total for z in logits]


def _linear_running(x: list[Any], w: list[list[Any]]) -> list[Any]:
    """One total for every row: output i is the sum of rows 0..i's dot products."""
    outs, total = [], 0
    for row in w:
        total = total + sum(wi * xi for wi, xi in zip(row, x))
        outs.append(total)
    return outs


def _linear_all_pairs(x: list[Any], w: list[list[Any]]) -> list[Any]:
    """`for wi in row for xi in x`: every weight times every input, sum(row) * sum(x)."""
    return [sum(wi * xi for wi in row for xi in x) for row in w]


def _linear_first_twice(x: list[Any], w: list[list[Any]]) -> list[Any]:
    """The total started at the first product, then every product added: the first twice."""
    return [row[0] * x[0] + sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def _softmax_first_twice(logits: list[Any]) -> list[Any]:
    """The sum started at the first exp, then every exp added: the first counted twice."""
    exps = [z.exp() for z in logits]
    total = exps[0] + sum(exps)
    return [e / total for e in exps]


def _softmax_by_max(logits: list[Any]) -> list[Any]:
    """Each exp divided by the largest exp, not by their sum."""
    exps = [z.exp() for z in logits]
    top = max(exps, key=lambda e: e.data)
    return [e / top for e in exps]


def _softmax_scaled(logits: list[Any]) -> list[Any]:
    """The logits divided by the max (not the max subtracted): the softmax of z / max."""
    top = max(z.data for z in logits)
    return ref.softmax([z / top for z in logits])


def _softmax_no_exp(logits: list[Any]) -> list[Any]:
    """z / sum(z): a normalisation with no exp."""
    total = sum(logits)
    return [z / total for z in logits]


def _rmsnorm(
    square: str = "each",
    mean: int | None = 0,
    eps: float = 1e-5,
    scale: str = "rsqrt",
) -> Callable[[list[Any]], list[Any]]:
    """rmsnorm with one of its pieces changed: what is squared ("each" x, "none", or the "mean"),
    what the sum is divided by (len(x) - `mean`; None: nothing), eps, and the scale made of the
    mean square: "rsqrt" (the right one), "sqrt", "inverse" (no root), "halved" (`** -1/2`, which
    Python reads as (** -1) / 2) or "eps-outside" (1 / (sqrt(ms) + eps))."""

    def norm(x: list[Any]) -> list[Any]:
        ms = sum((xi * xi if square == "each" else xi) for xi in x)
        ms = ms if mean is None else ms / (len(x) - mean)
        ms = ms * ms if square == "mean" else ms
        factor = {
            "rsqrt": lambda: (ms + eps) ** -0.5,
            "sqrt": lambda: (ms + eps) ** 0.5,
            "inverse": lambda: (ms + eps) ** -1,
            "halved": lambda: (ms + eps) ** -1 / 2,
            "eps-outside": lambda: 1 / (ms**0.5 + eps),
        }[scale]()
        return [xi * factor for xi in x]

    return norm


def _other_eps(runs: list[Any]) -> list[Any]:
    """rmsnorm with the epsilon the learner's numbers imply, where they imply one (from the case
    [2]: y = 2 / sqrt(4 + eps)), other than 1e-5 and 0."""
    for args, found, _ in runs:
        if args == ([2.0],) and found.outputs and isinstance(found.outputs[0][1], float):
            y = found.outputs[0][1]
            eps = float(f"{(2 / y) ** 2 - 4:.4g}") if y else math.nan
            if math.isfinite(eps) and eps > 1e-12 and not agree(eps, 1e-5, rel=1e-3):
                fields = {"eps": fmt(eps)}
                return [
                    ("wrong-forward", "practice.gpt.rmsnorm_other_eps", _rmsnorm(eps=eps), fields)
                ]
    return []


def _attention(
    scale: str = "sqrt",
    future: bool = False,
    cache_after: str = "",
    axis: str = "keys",
    values: str = "values",
    latest_key: bool = False,
) -> Callable[..., list[Any]]:
    """One head with one of its pieces changed: the scale of the scores (sqrt(d), none, d, the
    input's size, or "keys": the square root of how many keys there are), the keys it sees, when
    the cache grows (after attending: the first token raises, "own": it attends to itself, or
    "empty": it attends to nothing and sums no values), the axis of the softmax, what the weights
    sum, or every score taken with the latest key."""

    def head(xs: list[Any], wq: Any, wk: Any, wv: Any) -> list[Any]:
        qs = [ref.linear(x, wq) for x in xs]
        ks = [ref.linear(x, wk) for x in xs]
        vs = [ref.linear(x, wv) for x in xs]
        d = len(qs[0])
        scales = {"sqrt": math.sqrt(d), "none": 1.0, "d": float(d), "input": math.sqrt(len(xs[0]))}

        def past(t: int) -> range:
            if future:
                return range(len(xs))
            if cache_after:
                return range(t) if t or cache_after != "own" else range(1)
            return range(t + 1)

        seen = [past(t) for t in range(len(xs))]
        scores = [
            [
                sum(a * b for a, b in zip(qs[t], ks[max(seen[t]) if latest_key else s]))
                / (math.sqrt(len(seen[t])) if scale == "keys" else scales[scale])
                for s in seen[t]
            ]
            for t in range(len(xs))
        ]
        if axis == "keys":  # an empty cache: a softmax of nothing raises, or the learner skips it
            weights = [ref.softmax(row) if row or cache_after != "empty" else [] for row in scores]
        else:  # each key's scores normalised over the queries that see it
            column = {
                s: ref.softmax([scores[t][s] for t in range(len(xs)) if s in seen[t]])
                for s in range(len(xs))
            }
            weights = [
                [column[s][sum(1 for u in range(t) if s in seen[u])] for s in seen[t]]
                for t in range(len(xs))
            ]
        summed = vs if values == "values" else ks
        return [
            [sum(a * summed[s][j] for a, s in zip(weights[t], seen[t])) for j in range(d)]
            for t in range(len(xs))
        ]

    return head


# --------------------------------------------------------------------------- the cases, smallest first
def _vector(rng: random.Random, n: int, scale: float = 2.0) -> list[float]:
    return [round(rng.uniform(-scale, scale), 3) for _ in range(n)]


def _matrix(rng: random.Random, rows: int, cols: int) -> list[list[float]]:
    return [_vector(rng, cols) for _ in range(rows)]


def _linear_cases(rng: random.Random) -> list[Args]:
    cases: list[Args] = [
        ([2.0], [[3.0]]),
        ([1.0, -2.0], [[0.5, 1.5]]),
        ([1.0, 2.0], [[1.0, -1.0], [2.0, 0.5]]),
    ]
    cases += [([1.0, -1.0, 2.0], [[0.5, 1.0, -2.0], [1.5, 0.0, 1.0]])]  # 2 rows of 3: not square
    cases += [(_vector(rng, n), _matrix(rng, m, n)) for n, m in ((2, 3), (3, 2), (4, 4))]
    return cases


def _softmax_cases(rng: random.Random) -> list[Args]:
    cases: list[Args] = [([0.0],), ([1.0, 2.0],), ([1.0, 1.0, 1.0],), ([-1.0, 0.5, 2.0],)]
    cases += [(_vector(rng, n, 3.0),) for n in (3, 4, 5)]
    cases += [([0.0, 30.0, -30.0, 5.0],), ([-4.0, -6.0, -5.0],)]  # a far logit; all negative
    return cases


def _rmsnorm_cases(rng: random.Random) -> list[Args]:
    cases: list[Args] = [([2.0],), ([1.0, -3.0],), ([0.5, 1.0, -1.5],), ([-1.0, -2.0, -0.5],)]
    cases += [(_vector(rng, n),) for n in (3, 4, 6)]
    cases += [([0.001, -0.002, 0.0015],)]  # small enough that the 1e-5 counts
    return cases


def _attention_cases(rng: random.Random) -> list[Args]:
    def case(t: int, n: int, d: int) -> Args:
        return (_matrix(rng, t, n), _matrix(rng, d, n), _matrix(rng, d, n), _matrix(rng, d, n))

    cases: list[Args] = [([[1.0]], [[1.0]], [[1.0]], [[2.0]])]
    cases.append(([[1.0], [2.0]], [[1.0]], [[0.5]], [[1.0]]))  # two tokens: the past appears
    cases.append(
        (
            [[1.0, 0.0], [0.0, 1.0]],
            [[1.0, 1.0], [0.5, -1.0]],
            [[1.0, 0.0], [0.0, 1.0]],
            [[1.0, 2.0], [-1.0, 0.5]],
        )
    )  # d = 2: sqrt(d) is no longer 1
    cases += [case(3, 2, 2), case(4, 3, 2), case(3, 2, 4)]
    return cases


@dataclass(frozen=True)
class Part:
    """A part of the GPT as the check knows it: the function, its arguments' names, the cases,
    and the mistakes (name, the catalog's words for it, the function with that mistake)."""

    function: str
    names: tuple[str, ...]
    cases: Callable[[random.Random], list[Args]]
    mistakes: tuple[tuple[str, str, Callable[..., Any]], ...]
    # mistakes with a number in them, read off the learner's outcomes (rmsnorm's epsilon)
    fit: Callable[[list[Any]], list[Any]] | None = None

    def call(self, args: Sequence[Any]) -> str:
        """The call as a learner would type it: softmax([1, 2])."""
        return f"{self.function}({', '.join(typed(a) for a in args)})"


PARTS = {
    "linear": Part(
        "linear",
        ("x", "w"),
        _linear_cases,
        (
            ("wrong-axis", "practice.gpt.linear_transposed", _linear_transposed),
            ("wrong-axis", "practice.gpt.linear_transposed", _linear_indexed_transposed),
            ("wrong-axis", "practice.gpt.linear_rows_of_x", _linear_rows_of_x),
            ("wrong-forward", "practice.gpt.linear_relu", _linear_relu),
            ("wrong-forward", "practice.gpt.linear_running", _linear_running),
            ("wrong-forward", "practice.gpt.linear_all_pairs", _linear_all_pairs),
            ("wrong-forward", "practice.gpt.linear_first_twice", _linear_first_twice),
        ),
    ),
    "softmax": Part(
        "softmax",
        ("logits",),
        _softmax_cases,
        (
            ("wrong-forward", "practice.gpt.softmax_sum_of_logits", _softmax_of_sum),
            ("wrong-forward", "practice.gpt.softmax_half_shifted", _softmax_half_shifted),
            ("wrong-forward", "practice.gpt.softmax_no_exp", _softmax_no_exp),
            ("wrong-forward", "practice.gpt.softmax_negated", _softmax_negated),
            ("wrong-forward", "practice.gpt.softmax_first_twice", _softmax_first_twice),
            ("wrong-forward", "practice.gpt.softmax_by_max", _softmax_by_max),
            ("wrong-forward", "practice.gpt.softmax_scaled", _softmax_scaled),
        ),
    ),
    "rmsnorm": Part(
        "rmsnorm",
        ("x",),
        _rmsnorm_cases,
        (
            ("no-epsilon", "practice.gpt.rmsnorm_no_eps", _rmsnorm(eps=0.0)),
            ("mean-not-square", "practice.gpt.rmsnorm_not_squared", _rmsnorm(square="none")),
            ("mean-not-square", "practice.gpt.rmsnorm_square_of_mean", _rmsnorm(square="mean")),
            ("wrong-forward", "practice.gpt.rmsnorm_sum", _rmsnorm(mean=None)),
            ("wrong-forward", "practice.gpt.rmsnorm_n_minus_1", _rmsnorm(mean=1)),
            ("wrong-forward", "practice.gpt.rmsnorm_times_rms", _rmsnorm(scale="sqrt")),
            ("wrong-forward", "practice.gpt.rmsnorm_eps_outside", _rmsnorm(scale="eps-outside")),
            ("wrong-forward", "practice.gpt.rmsnorm_no_root", _rmsnorm(scale="inverse")),
            ("wrong-forward", "practice.gpt.rmsnorm_halved", _rmsnorm(scale="halved")),
        ),
        fit=_other_eps,
    ),
    "attention-head": Part(
        "attention_head",
        ("xs", "wq", "wk", "wv"),
        _attention_cases,
        (
            ("no-scale", "practice.gpt.attention_no_scale", _attention(scale="none")),
            ("no-scale", "practice.gpt.attention_scale_d", _attention(scale="d")),
            ("no-scale", "practice.gpt.attention_scale_input", _attention(scale="input")),
            ("no-scale", "practice.gpt.attention_scale_keys", _attention(scale="keys")),
            ("sees-future", "practice.gpt.attention_future", _attention(future=True)),
            ("cache-after", "practice.gpt.attention_cache_after", _attention(cache_after="raise")),
            ("cache-after", "practice.gpt.attention_cache_after", _attention(cache_after="own")),
            ("cache-after", "practice.gpt.attention_cache_after", _attention(cache_after="empty")),
            ("wrong-axis", "practice.gpt.attention_axis", _attention(axis="queries")),
            ("wrong-forward", "practice.gpt.attention_keys_summed", _attention(values="keys")),
            ("wrong-forward", "practice.gpt.attention_latest_key", _attention(latest_key=True)),
        ),
    ),
}
REFERENCE: dict[str, Callable[..., Any]] = {
    "linear": ref.linear,
    "softmax": ref.softmax,
    "rmsnorm": ref.rmsnorm,
    "attention-head": ref.attention_head,
}
