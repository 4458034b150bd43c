"""Loss functions over lists of Values, each a mean over the samples.

All are built from Value ops only (no branches on data), so they also trace for the fast path.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any, Union

from micrograd.engine import Value

Scalar = Union[Value, float]


def _pairs(preds: Sequence[object], targets: Sequence[object], name: str) -> int:
    if len(preds) != len(targets) or not preds:
        raise ValueError(
            f"{name}: need as many targets as predictions, and at least one; got {len(preds)} and {len(targets)}"
        )
    return len(preds)


def _mean(terms: Sequence[Value]) -> Value:
    return sum(terms, Value(0.0)) * (1.0 / len(terms))


def hinge(scores: Sequence[Value], labels: Sequence[float]) -> Value:
    """The original demo's SVM max-margin loss: mean of relu(1 - y * score), labels -1 or +1."""
    _pairs(scores, labels, "hinge")
    return _mean([(1 + -y * s).relu() for s, y in zip(scores, labels)])


def mse(preds: Sequence[Scalar], targets: Sequence[Scalar]) -> Value:
    """Mean squared error: mean of (pred - target)**2."""
    _pairs(preds, targets, "mse")
    return _mean([(p - t) ** 2 for p, t in zip(preds, targets)])  # type: ignore[misc]


def abs_value(z: Value) -> Value:
    """|z| built from ops (relu(z) + relu(-z)), so it has no branch on data."""
    return z.relu() + (-z).relu()


def bce_with_logits(logits: Sequence[Value], targets: Sequence[float]) -> Value:
    """Binary cross-entropy of sigmoid(logit) against 0/1 targets, computed from the logit
    without overflow: max(z, 0) - z*y + log(1 + exp(-|z|)) (as torch's BCEWithLogitsLoss).

    max(z, 0) is written (z + |z|) / 2, not relu(z): at z = 0 exactly, relu and |z| both take
    the derivative 0 there, and the two kinks would not cancel (grad -y instead of 1/2 - y)."""
    _pairs(logits, targets, "bce_with_logits")
    terms = []
    for z, y in zip(logits, targets):
        size = abs_value(z)
        terms.append((z + size) * 0.5 - z * y + (1 + (-size).exp()).log())
    return _mean(terms)


def logsumexp(logits: Sequence[Value]) -> Value:
    """log(sum(exp(z_i))), stable: the max m is subtracted first, log-sum-exp = m + log sum exp(z - m).

    The max is built from ops (max(a, b) = a + relu(b - a)), pairwise; its gradient cancels. The
    fast path replays the whole as one fused op on all samples, with logsumexp_arrays (FUSED).
    """
    if not logits:
        raise ValueError("logsumexp: got no logits")
    level = list(logits)
    while len(level) > 1:
        pairs = [a + (b - a).relu() for a, b in zip(level[::2], level[1::2])]
        level = pairs + level[len(pairs) * 2 :]
    m = level[0]
    out = m + sum(((z - m).exp() for z in logits), Value(0.0)).log()
    return fuse(out, "logsumexp", logits)


def logsumexp_arrays(np: Any, z: Any) -> tuple[Any, Any]:
    """logsumexp's fused rule on a numpy array `z` (`np` is numpy), one row per logit: the output,
    stable (the max first), and its local derivatives, the softmax exp(z - out)."""
    m = z.max(axis=0)
    e = np.exp(z - m)
    total = e.sum(axis=0)
    return m + np.log(total), e / total


def cross_entropy_arrays(np: Any, x: Any) -> tuple[Any, Any]:
    """cross_entropy_one's fused rule for target weights: `x` holds the K logits z, then the K
    weights t, one row each. The output logsumexp(z) - sum(t * z), and its local derivatives:
    softmax(z) - t for the logits, -z for the weights."""
    z, t = np.split(x, 2)
    lse, softmax = logsumexp_arrays(np, z)
    return lse - (t * z).sum(axis=0), np.concatenate([softmax - t, -z])


# Fused ops: a Value that a loss marks with fuse(out, name, inputs) is replayed by micrograd.replay's numpy back end as
# one op over `inputs`, with FUSED[name] on the array of their numbers (one row per input),
# instead of the ops that built it one by one.
FUSED: dict[str, Callable[[Any, Any], tuple[Any, Any]]] = {
    "logsumexp": logsumexp_arrays,
    "cross_entropy": cross_entropy_arrays,
}


# The number each input of a fused op can be padded with without changing its output or the real
# inputs' derivatives: logsumexp's exp(-inf - max) is 0, so it adds nothing to the sum and its
# derivative (the softmax) is 0. Such an op over inputs of different lengths (attention's scores
# over each position's past) is replayed as one op over a padded block.
PADS: dict[str, float] = {"logsumexp": -math.inf}


def fuse(out: Value, name: str, inputs: Sequence[Value]) -> Value:
    """Mark `out` as the result of the fused op FUSED[name] over `inputs`."""
    out.__dict__["_fused"] = (name, tuple(inputs))
    return out


def fused(v: Value) -> tuple[str, tuple[Value, ...]] | None:
    """(name, inputs) of the fused op whose result `v` is, or None."""
    mark: tuple[str, tuple[Value, ...]] | None = v.__dict__.get("_fused")
    return mark


def cross_entropy_one(logits: Sequence[Value], target: Any) -> Value:
    """Softmax cross-entropy of one sample: logsumexp(z) - z[target]. `target` is a class index
    or a one-hot (or soft) list of weights."""
    if isinstance(target, numbers.Integral):
        target = int(target)
        if not 0 <= target < len(logits):
            raise ValueError(f"cross_entropy: class {target} out of range for {len(logits)} logits")
        picked: Scalar = logits[target]
    else:
        if len(target) != len(logits):
            raise ValueError(
                f"cross_entropy: {len(target)} target weights for {len(logits)} logits"
            )
        picked = sum((w * z for w, z in zip(target, logits)), Value(0.0))
        weights = [w if isinstance(w, Value) else Value(w) for w in target]
        return fuse(logsumexp(logits) - picked, "cross_entropy", [*logits, *weights])
    return logsumexp(logits) - picked


def cross_entropy(batch_logits: Sequence[Sequence[Value]], targets: Sequence[int]) -> Value:
    """Mean softmax cross-entropy over samples: logits per sample, one class index each."""
    _pairs(batch_logits, targets, "cross_entropy")
    return _mean([cross_entropy_one(z, t) for z, t in zip(batch_logits, targets)])


def l2(params: Sequence[Value]) -> Value:
    """Sum of squared parameters (multiply by the strength, e.g. 1e-4 * l2(model.parameters()))."""
    return sum((p * p for p in params), Value(0.0))
