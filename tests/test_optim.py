"""Optimizers: PyTorch's update rules, checked by hand for two steps and against torch.optim."""

import math

import pytest

from micrograd import Value
from micrograd.optim import SGD, Adam, AdamW, LinearLR


# ---------------------------------------------------------------------------- without torch
def two_steps(opt_class, grads, start=1.0, **kwargs):
    """The parameter after one and after two steps with the given grads."""
    p = Value(start)
    opt = opt_class([p], **kwargs)
    seen = []
    for g in grads:
        p.grad = g
        opt.step()
        seen.append(p.data)
    return seen


def test_sgd_steps_by_hand():
    assert two_steps(SGD, [2.0, -1.0], lr=0.1) == [0.8, 0.9]
    # momentum: the buffer starts at the first grad, then buf = m * buf + (1 - dampening) * g
    m, d, lr = 0.9, 0.25, 0.1
    buf2 = m * 2.0 + (1 - d) * -1.0
    got = two_steps(SGD, [2.0, -1.0], lr=lr, momentum=m, dampening=d)
    assert got == pytest.approx([1.0 - lr * 2.0, 1.0 - lr * 2.0 - lr * buf2], rel=1e-15)
    # nesterov: the step is g + m * buf
    got = two_steps(SGD, [2.0, -1.0], lr=lr, momentum=m, nesterov=True)
    p1 = 1.0 - lr * (2.0 + m * 2.0)
    assert got == pytest.approx([p1, p1 - lr * (-1.0 + m * (m * 2.0 - 1.0))], rel=1e-15)
    # weight decay adds wd * p to the grad
    assert two_steps(SGD, [0.0], lr=0.5, weight_decay=0.2) == pytest.approx([0.9], rel=1e-15)


def test_adam_and_adamw_first_steps_by_hand():
    # Adam's first step: m_hat = g and v_hat = g^2, so p moves by lr * g / (|g| + eps)
    lr, eps = 0.01, 1e-8
    assert two_steps(Adam, [4.0], lr=lr)[0] == pytest.approx(
        1.0 - lr * 4.0 / (4.0 + eps), rel=1e-15
    )
    # second step, by the bias-corrected averages
    b1, b2 = 0.9, 0.999
    m2 = (1 - b1) * (b1 * 4.0 + -2.0)
    v2 = (1 - b2) * (b2 * 16.0 + 4.0)
    step2 = lr * (m2 / (1 - b1**2)) / (math.sqrt(v2 / (1 - b2**2)) + eps)
    got = two_steps(Adam, [4.0, -2.0], lr=lr)
    assert got[1] == pytest.approx(got[0] - step2, rel=1e-14)
    # AdamW first shrinks the weight by lr * wd, apart from the gradient
    got = two_steps(AdamW, [4.0], lr=lr, weight_decay=0.5)[0]
    assert got == pytest.approx(1.0 * (1 - lr * 0.5) - lr * 4.0 / (4.0 + eps), rel=1e-15)


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


# ---------------------------------------------------------------------------- hostile and edge input
def test_small_crashes_are_clear_errors_or_nan():
    """Small crashes in the library API are clear errors or nan: Adam with eps=0 and a zero grad
    (nan, as in PyTorch), spiral's bad arguments, grad's argnums out of range."""
    from micrograd.data import spiral
    from micrograd.functional import grad

    p = Value(1.0)
    Adam([p], eps=0.0).step()  # zero grad: 0/0, nan as in PyTorch
    assert math.isnan(p.data)
    for kwargs in [{"classes": 0}, {"classes": -1}, {"noise": math.inf}]:
        with pytest.raises(ValueError):
            spiral(n=10, **kwargs)
    with pytest.raises(ValueError, match="argnums=3"):
        grad(lambda x: x * 2, argnums=3)(1.0)


def test_optimizer_settings_must_be_finite_and_lr_factors_in_range():
    """SGD's settings must be finite, and LinearLR's factors in range."""
    for kwargs in [{"momentum": math.nan}, {"dampening": math.inf}, {"weight_decay": -1}]:
        with pytest.raises(ValueError):
            SGD([Value(1.0)], lr=0.1, **kwargs)
    with pytest.raises(ValueError, match="end_factor"):
        LinearLR(SGD([Value(1.0)], lr=0.1), 1.0, -1.0, 10)
