"""The check of an op exercise (micrograd.practice.checks.op): each classic mistake is named with
its first wrong step, in English and Chinese."""

from __future__ import annotations

import random
import re

import pytest

from micrograd.practice import check
from test_practice import REFERENCE, mutate, write

SUB_AS_OP = """        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data, (self, other), "-")

        def _backward():
            self.grad += out.grad
            other.grad += {sign}out.grad

        out._backward = _backward
        return out
"""

OP_MISTAKES = [
    # (exercise, old, new, mistake, words in the first wrong step)
    (  # out.grad where it divides: right only for an upstream grad of 1
        "op-log",
        "self.grad += (1 / self.data) * out.grad",
        "self.grad += 1 / (self.data * out.grad)",
        "wrong-upstream",
        ["divides by out.grad where the chain rule multiplies"],
    ),
    (  # 1 - t**2 * out.grad: the local derivative is 1 at t = 0, which is no proof of a cause
        "op-tanh",
        "self.grad += (1 - t**2) * out.grad",
        "self.grad += 1 - t**2 * out.grad",
        "wrong-upstream",
        ["1 of it does not grow with the upstream grad", "brackets missing?"],
    ),
    (  # a raise is told at the simplest point where it raises
        "op-mul",
        "self.grad += other.data * out.grad",
        "self.grad += out.data / self.data * out.grad",
        "other",
        ["raised ZeroDivisionError", "(a = 0, b = 0)"],
    ),
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
        ["`a.grad` got", "from `(a * b)._backward()`", "is a's own value times the upstream"],
    ),
    (  # the input's grad read as upstream: self.grad where out.grad belongs
        "op-mul",
        "other.grad += self.data * out.grad",
        "other.grad += self.data * self.grad",
        "wrong-upstream",
        ["`b.grad` got", "an input's grad", "not self.grad"],
    ),
    (  # the closure called, not attached: out._backward is None
        "op-exp",
        "        out._backward = _backward\n        return out\n\n    def relu",
        "        out._backward = _backward()\n        return out\n\n    def relu",
        "called-closure",
        ["`exp(a)._backward` is NoneType, not a function", "without the brackets"],
    ),
    (
        "op-tanh",
        "self.grad += (1 - t**2) * out.grad",
        "self.grad += (1 - self.data**2) * out.grad",
        "input-output-swapped",
        ["1 - t**2", "that is 1 - x**2, from the input x, where the output t belongs"],
    ),
    (  # relu's output value where its slope belongs: named as that, not as a swap
        "op-relu",
        "self.grad += (out.data > 0) * out.grad",
        "self.grad += out.data * out.grad",
        "value-as-slope",
        ["that is the output's value itself, where the slope (0 or 1) belongs"],
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
        "no-upstream",
        ["multiply it by the upstream grad"],
    ),
    (
        "op-pow",
        "other * self.data ** (other - 1)",
        "other * self.data ** other - 1",
        "wrong-upstream",  # k * x**k - out.grad: a part that the upstream grad does not scale
        ["k * x**(k-1)", "2 of it does not grow with the upstream grad", "brackets missing?"],
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
        "not-written",
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


def test_a_number_on_the_right_must_be_wrapped(tmp_path):
    """`a + 2` is part of the task: an __add__ that reads other.data of an int fails by name."""
    unwrapped = '        out = Value(self.data + other.data, (self, other), "+")'
    path = mutate(
        tmp_path,
        "        other = other if isinstance(other, Value) else Value(other)\n" + unwrapped,
        unwrapped,
    )
    result = check("op-add", path, lang="zh")
    assert result.mistake == "number-operand"
    assert result.first_wrong_step == (
        "`a + 2` 抛出了 AttributeError: 'int' object has no attribute 'data'：读 .data 之前要先把"
        "数字包成 Value：`other = other if isinstance(other, Value) else Value(other)`"
    )
    assert str(result).startswith("op-add：还没通过（数字操作数）")


def test_a_number_on_the_left_needs_the_reflected_method(tmp_path):
    path = mutate(tmp_path, "    def __rmul__(self, other):\n        return self * other\n", "")
    result = check("op-mul", path)
    assert result.mistake == "number-operand"
    assert result.first_wrong_step.startswith(
        "`3 * a` raised TypeError: unsupported operand type(s) for *: 'int' and 'Value': with a "
        "number on the left, Python asks the Value on the right for `__rmul__`"
    )


def test_numbers_on_either_side_are_checked_for_division_too(tmp_path):
    wrong = "    def __rtruediv__(self, other):\n        return other * self**-1\n"
    result = check(
        "op-div", mutate(tmp_path, wrong, wrong.replace("other * self**-1", "self * other**-1"))
    )
    assert not result.passed  # 3 / a computed as a / 3
    assert "3 / a" in result.first_wrong_step


def test_a_number_kept_out_of_the_graph_passes(tmp_path):
    """A design that keeps a plain number out of `_prev` (no Value made for it) is right: only
    the Value operand's grad is the lesson."""
    own = """    def __add__(self, other):
        if not isinstance(other, Value):
            out = Value(self.data + other, (self,), "+")

            def _backward():
                self.grad += out.grad

            out._backward = _backward
            return out
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out
"""
    start = REFERENCE.index("    def __add__(self, other):")
    end = REFERENCE.index("    def __radd__")
    result = check("op-add", write(tmp_path, REFERENCE[:start] + own + "\n" + REFERENCE[end:]))
    assert result.passed, result


def test_the_point_told_is_one_where_the_mistake_shows(tmp_path):
    """1 - x**2 for tanh's 1 - t**2 differs in the sixth digit near 0: a point where it shows
    is told instead."""
    seed = next(s for s in range(10_000) if 0.04 < abs(random.Random(s).uniform(-2, 2)) < 0.06)
    path = mutate(
        tmp_path, "self.grad += (1 - t**2) * out.grad", "self.grad += (1 - self.data**2) * out.grad"
    )
    result = check("op-tanh", path, seed=seed)
    assert result.mistake == "input-output-swapped"
    found, expected = re.findall(
        r"got ([-+][\d.e-]+) .* expected ([-+][\d.e-]+)", result.first_wrong_step
    )[0]
    assert abs(float(found) - float(expected)) > 0.01, result.first_wrong_step


def test_a_wrong_closure_is_named_by_its_line_in_the_learners_file(tmp_path):
    path = mutate(tmp_path, "self.grad += other.data * out.grad", "self.grad += 2 * out.grad")
    line = next(
        i
        for i, text in enumerate(open(path).read().splitlines(), 1)
        if "def _backward" in text and "2 * out.grad" in open(path).read().splitlines()[i]
    )
    result = check("op-mul", path, lang="zh")
    assert f"{path} 第 {line} 行的闭包" in result.first_wrong_step


@pytest.mark.parametrize(
    ("exercise", "old", "new", "words"),
    [
        (  # (pred - y) ** 2 with a negative residual: the sign of the base lost
            "op-pow",
            "other * self.data ** (other - 1) * out.grad",
            "other * abs(self.data) ** (other - 1) * out.grad",
            ["got +2 from `(a**2)._backward()`", "expected -2", "(a = -1, k = 2)"],
        ),
        (
            "op-mul",
            "self.grad += other.data * out.grad",
            "self.grad += self.data * out.grad",
            ["got +1 from `(a * b)._backward()`", "expected -1", "(a = 1, b = -1)"],
        ),
        (  # the grad held before and the upstream grad are made simple too
            "op-add",
            "self.grad += 1.0 * out.grad",
            "self.grad = 1.0 * out.grad",
            ["`a.grad` became 1", "expected 1 + 1 = 2", "(a = 0, b = 0)"],
        ),
        (
            "op-exp",
            "self.grad += out.data * out.grad",
            "self.grad += out.data",
            ["(upstream grad -1; `a.grad` held 1 before)", "expected -1", "(a = 0)"],
        ),
    ],
)
def test_a_failure_is_told_at_the_simplest_numbers_whatever_the_seed(
    tmp_path, exercise, old, new, words
):
    """The random point where a mistake is found is made simpler (0, 1, -1, 2, ...) while it
    still fails the same way: every seed tells the same smallest case."""
    path = mutate(tmp_path, old, new)
    steps = {check(exercise, path, seed=seed).first_wrong_step for seed in range(1, 5)}
    assert len(steps) == 1, steps
    for w in words:
        assert w in next(iter(steps))
