"""Losses: hand-computed values, finite differences, and PyTorch's losses as a second oracle."""

import math
import random

import pytest

from micrograd import Value
from micrograd.gradcheck import gradcheck
from micrograd.losses import bce_with_logits, cross_entropy, hinge, l2, logsumexp, mse


# ---------------------------------------------------------------------------- without torch
def value_and_grads(loss, xs):
    vs = [Value(x) for x in xs]
    out = loss(vs)
    out.backward()
    return out.data, [v.grad for v in vs]


def test_hand_computed_values_and_grads():
    # mean((p - t)^2): d/dp = 2 (p - t) / n
    assert value_and_grads(lambda v: mse(v, [0.0, 4.0]), [1.0, 2.0]) == (2.5, [1.0, -2.0])
    # mean(relu(1 - y s)): d/ds = -y / n where the margin is violated
    assert value_and_grads(lambda v: hinge(v, [1, 1]), [0.5, -2.0]) == (1.75, [-0.5, -0.5])
    # at z = 0, y = 1: log 2, and d/dz = sigmoid(z) - y = -0.5
    loss, (g,) = value_and_grads(lambda v: bce_with_logits(v, [1.0]), [0.0])
    assert loss == pytest.approx(math.log(2), rel=1e-15) and g == pytest.approx(-0.5, rel=1e-15)
    # equal logits: log 3, and d/dz = softmax - one-hot
    loss, grads = value_and_grads(lambda v: cross_entropy([v], [1]), [0.0, 0.0, 0.0])
    assert loss == pytest.approx(math.log(3), rel=1e-15)
    assert grads == pytest.approx([1 / 3, -2 / 3, 1 / 3], rel=1e-15)
    loss, grads = value_and_grads(logsumexp, [0.0, math.log(2)])
    assert loss == pytest.approx(math.log(3), rel=1e-15) and grads == pytest.approx([1 / 3, 2 / 3])
    assert value_and_grads(l2, [3.0, 4.0]) == (25.0, [6.0, 8.0])


def test_losses_are_stable_at_large_logits():
    loss, grads = value_and_grads(lambda v: cross_entropy([v], [0]), [1000.0, 0.0])
    assert loss == 0.0 and grads == [0.0, 0.0]  # log(1 + e^-1000): no overflow, no nan
    loss, grads = value_and_grads(lambda v: bce_with_logits(v, [0.0]), [800.0])
    assert loss == 800.0 and grads == [1.0]


@pytest.mark.parametrize(
    "loss",
    [
        lambda v: mse(v[:3], [0.3, -1.0, 2.0]),
        lambda v: hinge(v[:4], [1, -1, 1, -1]),
        lambda v: bce_with_logits(v, [0.0, 1.0, 1.0, 0.0, 1.0]),
        lambda v: cross_entropy([v[:3], v[2:]], [0, 2]),
        logsumexp,
        l2,
    ],
)
def test_losses_match_central_differences(loss):
    random.seed(11)
    xs = [random.uniform(-2, 2) for _ in range(5)]  # away from hinge's kinks at this seed
    assert gradcheck(lambda *vs: loss(list(vs)), xs, rtol=1e-6, atol=1e-8)


def test_bad_input():
    with pytest.raises(ValueError, match="as many"):
        mse([Value(1.0)], [1.0, 2.0])
    with pytest.raises(ValueError, match="out of range"):
        cross_entropy([[Value(1.0), Value(2.0)]], [2])
