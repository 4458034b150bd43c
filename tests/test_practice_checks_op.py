"""The check of an op exercise (micrograd.practice.checks.op): each classic mistake is named with
its first wrong step, in English and Chinese."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from test_practice import mutate

SUB_AS_OP = """        out = Value(self.data - other.data, (self, other), "-")

        def _backward():
            self.grad += out.grad
            other.grad += {sign}out.grad

        out._backward = _backward
        return out
"""

OP_MISTAKES = [
    # (exercise, old, new, mistake, words in the first wrong step)
    (
        "op-add",
        "self.grad += 1.0 * out.grad",
        "self.grad = 1.0 * out.grad",
        "assign-not-add",
        ["`a.grad` became", "with = instead of adding with +="],
    ),
    (
        "op-tanh",
        "        out._backward = _backward\n        return out\n\n    def exp",
        "        return out\n\n    def exp",
        "closure-not-attached",
        ["`tanh(a)._backward()` is still the do-nothing default", "out._backward = _backward"],
    ),
    (
        "op-mul",
        "self.grad += other.data * out.grad",
        "self.grad += self.data * out.grad",
        "wrong-operand",
        ["`a.grad` got", "from `(a * b)._backward()`", "wrong operand"],
    ),
    (
        "op-tanh",
        "self.grad += (1 - t**2) * out.grad",
        "self.grad += (1 - self.data**2) * out.grad",
        "wrong-operand",
        ["1 - t**2", "where the output's belongs"],
    ),
    (
        "op-sub",
        "        return self + (-other)\n",
        SUB_AS_OP.format(sign=""),
        "wrong-local",
        ["`b.grad` got +1 from `(a - b)._backward()`", "expected -1", "right operand is -1"],
    ),
    (
        "op-tanh",
        "self.grad += (1 - t**2) * out.grad",
        "self.grad += 1 - t**2",
        "wrong-local",
        ["multiply it by the upstream grad"],
    ),
    (
        "op-pow",
        "other * self.data ** (other - 1)",
        "other * self.data ** other - 1",
        "wrong-local",
        ["k * x**(k-1)"],
    ),
    (
        "op-mul",
        'Value(self.data * other.data, (self, other), "*")',
        'Value(self.data + other.data, (self, other), "*")',
        "wrong-forward",
        ["`(a * b)` has data"],
    ),
    (
        "op-exp",
        'out = Value(math.exp(self.data), (self,), "exp")',
        'out = Value(math.exp(self.data), (self,), "exp")\n        raise NotImplementedError',
        "other",
        ["is not written yet"],
    ),
]


@pytest.mark.parametrize(("exercise", "old", "new", "mistake", "words"), OP_MISTAKES)
def test_each_op_mistake_is_named_with_its_first_wrong_step(
    tmp_path, exercise, old, new, mistake, words
):
    result = check(exercise, mutate(tmp_path, old, new))
    assert not result.passed
    assert result.mistake == mistake, result.first_wrong_step
    for w in words:
        assert w in result.first_wrong_step


def test_the_right_sub_as_its_own_op_passes(tmp_path):
    result = check(
        "op-sub",
        mutate(tmp_path, "        return self + (-other)\n", SUB_AS_OP.format(sign="-1 * ")),
    )
    assert result.passed, result


def test_the_first_wrong_step_in_chinese(tmp_path):
    path = mutate(tmp_path, "        return self + (-other)\n", SUB_AS_OP.format(sign=""))
    result = check("op-sub", path, lang="zh")
    assert result.mistake == "wrong-local"
    assert (
        "`(a - b)._backward()`（上游梯度 1）给 `b.grad` 加了 +1；应当加 -1"
        in result.first_wrong_step
    )
    assert "右操作数的局部偏导是 -1" in result.first_wrong_step
    assert "第一个出错的步骤" in str(result) and "随机数种子" in str(result)
