"""Losses against PyTorch's, values and gradients."""

import random

import pytest

from micrograd import Value
from micrograd.losses import bce_with_logits, cross_entropy, hinge, l2, logsumexp, mse

torch = pytest.importorskip("torch")
F = torch.nn.functional


def leaves(xs):
    return [Value(x) for x in xs], torch.tensor(xs, dtype=torch.float64, requires_grad=True)


def check(mine_loss, mine_leaves, their_loss, their_leaves):
    mine_loss.backward()
    their_loss.backward()
    assert mine_loss.data == pytest.approx(their_loss.item(), rel=1e-12, abs=1e-14)
    for a, b in zip(mine_leaves, their_leaves.grad.tolist()):
        assert a.grad == pytest.approx(b, rel=1e-10, abs=1e-13)


@pytest.fixture
def xs():
    random.seed(5)
    return [random.uniform(-3, 3) for _ in range(7)]


def test_mse(xs):
    targets = [0.5 * x + 1 for x in reversed(xs)]
    m, t = leaves(xs)
    check(mse(m, targets), m, F.mse_loss(t, torch.tensor(targets, dtype=torch.float64)), t)


def test_hinge(xs):
    labels = [1.0 if i % 2 else -1.0 for i in range(len(xs))]
    m, t = leaves(xs)
    y = torch.tensor(labels, dtype=torch.float64)
    check(hinge(m, labels), m, torch.relu(1 - y * t).mean(), t)


@pytest.mark.parametrize("scale", [1.0, 300.0])
def test_bce_with_logits_is_stable(xs, scale):
    targets = [float(i % 2) for i in range(len(xs))]
    m, t = leaves([x * scale for x in xs])
    check(
        bce_with_logits(m, targets),
        m,
        F.binary_cross_entropy_with_logits(t, torch.tensor(targets, dtype=torch.float64)),
        t,
    )


@pytest.mark.parametrize("scale", [1.0, 500.0])
def test_cross_entropy_is_stable(xs, scale):
    logits = [[x * scale, -x, 0.3 * x] for x in xs]
    targets = [i % 3 for i in range(len(xs))]
    flat = [v for row in logits for v in row]
    m, t = leaves(flat)
    rows = [m[3 * i : 3 * i + 3] for i in range(len(xs))]
    check(cross_entropy(rows, targets), m, F.cross_entropy(t.view(-1, 3), torch.tensor(targets)), t)


def test_logsumexp_and_l2(xs):
    m, t = leaves(xs)
    check(logsumexp(m), m, torch.logsumexp(t, 0), t)
    m, t = leaves(xs)
    check(l2(m), m, (t * t).sum(), t)


def test_bad_input():
    with pytest.raises(ValueError, match="as many"):
        mse([Value(1.0)], [1.0, 2.0])
    with pytest.raises(ValueError, match="out of range"):
        cross_entropy([[Value(1.0), Value(2.0)]], [2])
