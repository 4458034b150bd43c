"""The check of the first exercise (micrograd.practice.checks.derivative): its own exact
derivative, and the mistakes of a derivative by hand and by nudging."""

from __future__ import annotations

import math

import pytest

from micrograd.practice import check
from micrograd.practice.checks.derivative import central_grad, exact_grad, f, forward_grad
from micrograd.practice.reference import source
from test_practice import mutate, write

DERIVATIVE = source("derivative")


def test_the_exact_derivative_is_the_lecture_exercise_one():
    """The complex step agrees with the derivative written out, and the differences approach it
    (central ones much closer), at the lecture's point a = 2, b = 3, c = 4."""
    a, b, c = 2.0, 3.0, 4.0
    by_hand = [-3 * a**2 - 0.5 * a**-0.5, 3 * math.cos(3 * b) + 2.5 * b**1.5, 1 / c**2]
    exact = exact_grad(a, b, c)
    assert exact == pytest.approx(by_hand, rel=1e-14)
    forward, central = forward_grad(a, b, c, 1e-6), central_grad(a, b, c, 1e-6)
    for e, fw, ce in zip(exact, forward, central):
        assert abs(ce - e) < abs(fw - e) < 1e-4
    assert f(2.0, 3.0, 4.0) == pytest.approx(-8 + math.sin(9) - 0.25 + 3**2.5 - 2**0.5)


@pytest.mark.parametrize(
    "old, new, mistake, words",
    [
        (  # the chain rule's factor 3 forgotten
            "3 * math.cos(3 * b)",
            "math.cos(3 * b)",
            "wrong-local",
            "gradf gives df/db",
        ),
        (  # numerical_grad written as central differences
            "return [(f(a + h, b, c) - f0) / h, (f(a, b + h, c) - f0) / h, (f(a, b, c + h) - f0) / h]",
            "return symmetric_grad(f, a, b, c, h)",
            "difference-quotient",
            "the other kind of difference: numerical_grad nudges forward only",
        ),
        (  # symmetric_grad divides by h instead of 2h
            "(f(a + h, b, c) - f(a - h, b, c)) / (2 * h)",
            "(f(a + h, b, c) - f(a - h, b, c)) / h",
            "difference-quotient",
            "twice the right",
        ),
        (  # `/ 2 * h` for `/ (2 * h)`
            "(f(a + h, b, c) - f(a - h, b, c)) / (2 * h)",
            "(f(a + h, b, c) - f(a - h, b, c)) / 2 * h",
            "difference-quotient",
            "write `/ (2 * h)`",
        ),
        (  # df/db's forward difference nudges a
            "(f(a, b + h, c) - f0) / h",
            "(f(a + h, b, c) - f0) / h",
            "difference-quotient",
            "which is df/da: nudge b",
        ),
    ],
)
def test_derivative_mistakes_are_named(tmp_path, old, new, mistake, words):
    result = check("derivative", mutate(tmp_path, old, new, DERIVATIVE))
    assert not result.passed and result.mistake == mistake
    assert words in result.first_wrong_step, result.first_wrong_step


def test_derivative_in_chinese_and_a_missing_function(tmp_path):
    path = mutate(tmp_path, "3 * math.cos(3 * b)", "math.cos(3 * b)", DERIVATIVE)
    assert "gradf 给出 df/db" in check("derivative", path, lang="zh").first_wrong_step
    result = check("derivative", write(tmp_path, "def gradf(a, b, c):\n    return [0, 0]\n"))
    assert result.mistake == "other" and "no function `numerical_grad`" in result.first_wrong_step


def test_the_hint_shown_is_the_one_about_the_failing_step(tmp_path):
    """df/db wrong: the hint about b and c, not the first hint (about a)."""
    derivative = source("derivative")
    path = mutate(tmp_path, "3 * math.cos(3 * b)", "math.cos(3 * b)", derivative)
    result = check("derivative", path, lang="zh")
    assert "df/db" in result.first_wrong_step and result.hint_index == 1
    assert str(result).splitlines()[2] == (
        "这一步的提示：d sin(3*b)/db = 3*cos(3*b)（链式法则）；d(-1/c)/dc = 1/c**2。"
    )
    nudged = mutate(
        tmp_path, "(f(a + h, b, c) - f0) / h", "(f(a + h, b, c) - f0) / (2 * h)", derivative
    )
    assert check("derivative", nudged).hint_index == 2
