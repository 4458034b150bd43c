"""The check of zero_grad, zero_grad_all and train (micrograd.practice.checks.zero_grad): grads
that are not reset, or reset too late, are named."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from test_practice import mutate

ZERO_ALL = """    seen = set()
    stack = [root]
    while stack:
        v = stack.pop()
        if v not in seen:
            seen.add(v)
            v.grad = 0.0
            stack.extend(v._prev)
"""


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            "        zero_grad(params)\n        loss.backward()",
            "        loss.backward()",
            ["in step 2, `w.grad` is", "it still holds", "from step 1"],
        ),
        (
            "            v.grad = 0.0\n            stack.extend(v._prev)",
            "            if not v._prev:\n                v.grad = 0.0\n            stack.extend(v._prev)",
            ["after zero_grad_all(root), `(a * a).grad` is still", "inner ones too"],
        ),
        (  # root and its direct inputs only: the leaf is the one left, and is named so
            ZERO_ALL,
            "    root.grad = 0.0\n    for v in root._prev:\n        v.grad = 0.0\n",
            ["`a.grad` is still", "a is a leaf, 2 levels below root", "down to the leaves"],
        ),
    ],
)
def test_grads_not_reset_are_named(tmp_path, old, new, words):
    result = check("zero-grad", mutate(tmp_path, old, new))
    assert result.mistake == "not-reset"
    for w in words:
        assert w in result.first_wrong_step


def test_grads_zeroed_between_backward_and_the_update_are_named(tmp_path):
    path = mutate(
        tmp_path,
        "        zero_grad(params)\n        loss.backward()",
        "        loss.backward()\n        zero_grad(params)",
    )
    result = check("zero-grad", path)
    assert result.mistake == "zeroed-late"
    assert "moved `w` by a grad of 0" in result.first_wrong_step


TRAIN = """    for _ in range(steps):
        loss = loss_fn()
        zero_grad(params)
        loss.backward()
        for p in params:
            p.data += -lr * p.grad
"""  # the reference's loop, which the tests below change
ZERO_AT_THE_END = (
    "    for _ in range(steps):\n        loss = loss_fn()\n        loss.backward()\n"
    "        for p in params:\n            p.data += -lr * p.grad\n        zero_grad(params)\n"
)


@pytest.mark.parametrize(
    "train",
    [
        # zeroed first, before loss_fn(): PyTorch's order
        "    for _ in range(steps):\n        zero_grad(params)\n        loss = loss_fn()\n"
        "        loss.backward()\n        for p in params:\n            p.data += -lr * p.grad\n",
    ],
)
def test_a_train_that_zeroes_at_another_right_moment_passes(tmp_path, train):
    result = check("zero-grad", mutate(tmp_path, TRAIN, train))
    assert result.passed, result


def test_a_train_that_zeroes_after_the_update_is_told_its_first_step_used_stale_grads(tmp_path):
    """Parameters that hold grads when train() begins (a backward() before it): zeroing after
    each update leaves them in the first step."""
    result = check("zero-grad", mutate(tmp_path, TRAIN, ZERO_AT_THE_END))
    assert result.mistake == "not-reset"
    assert result.first_wrong_step.startswith("in step 1, `w.grad` is ")
    assert "the grad it had before train() began" in result.first_wrong_step
