"""Optimizers: PyTorch's update rules, checked against torch.optim in float64."""

import random

import pytest

from micrograd import Value
from micrograd.optim import SGD, Adam, AdamW, LinearLR

torch = pytest.importorskip("torch")


def quadratic(ps):
    # A loss with different curvature per parameter, so every rule's terms matter.
    return sum((i + 1) * (p - 0.3 * i) ** 2 + p**4 * 0.1 for i, p in enumerate(ps))


def run_both(make_mine, make_theirs, steps=25):
    random.seed(3)
    start = [random.uniform(-1, 1) for _ in range(4)]
    mine = [Value(x) for x in start]
    opt = make_mine(mine)
    theirs = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in start]
    topt = make_theirs(theirs)
    for _ in range(steps):
        opt.zero_grad()
        quadratic(mine).backward()
        opt.step()
        topt.zero_grad()
        quadratic(theirs).backward()
        topt.step()
    for a, b in zip(mine, theirs):
        assert a.data == pytest.approx(b.item(), rel=1e-12, abs=1e-13)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"lr": 0.01},
        {"lr": 0.01, "momentum": 0.9},
        {"lr": 0.01, "momentum": 0.9, "nesterov": True},
        {"lr": 0.01, "momentum": 0.5, "dampening": 0.3, "weight_decay": 0.1},
    ],
)
def test_sgd_matches_torch(kwargs):
    run_both(lambda ps: SGD(ps, **kwargs), lambda ps: torch.optim.SGD(ps, **kwargs))


@pytest.mark.parametrize(
    "kwargs", [{}, {"lr": 0.05}, {"lr": 0.02, "weight_decay": 0.1, "betas": (0.8, 0.99)}]
)
def test_adam_matches_torch(kwargs):
    run_both(lambda ps: Adam(ps, **kwargs), lambda ps: torch.optim.Adam(ps, **kwargs))


@pytest.mark.parametrize("kwargs", [{}, {"lr": 0.05, "weight_decay": 0.3}])
def test_adamw_matches_torch(kwargs):
    run_both(lambda ps: AdamW(ps, **kwargs), lambda ps: torch.optim.AdamW(ps, **kwargs))


def test_defaults_match_torch():
    p = [Value(1.0)]
    assert (Adam(p).lr, Adam(p).betas, Adam(p).eps, Adam(p).weight_decay) == (
        1e-3,
        (0.9, 0.999),
        1e-8,
        0.0,
    )
    assert AdamW(p).weight_decay == 1e-2


def test_linear_schedule_like_the_original_demo():
    opt = SGD([Value(0.0)], lr=1.0)
    sched = LinearLR(opt, 1.0, 0.1, total_iters=100)
    lrs = [opt.lr]
    for _ in range(100):
        sched.step()
        lrs.append(opt.lr)
    for k, lr in enumerate(lrs):
        assert lr == pytest.approx(1.0 - 0.9 * k / 100, abs=1e-12)
    sched.step()
    assert opt.lr == pytest.approx(0.1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="lr"):
        SGD([Value(1.0)], lr=-1)
    with pytest.raises(ValueError, match="empty"):
        Adam([])
    with pytest.raises(TypeError, match="Values"):
        SGD([1.0], lr=0.1)
