"""The check of a predict exercise (micrograd.practice.checks.predict): the lecture's graphs, and
a wrong prediction named with its step."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from micrograd.practice.checks.predict import asked
from test_practice import write


def test_the_predict_graphs_are_the_lectures():
    shared = asked("predict-shared")
    assert [q.added for q in shared] == [1, 1, 6, 5, 1, 1, 18, 12, 7, 7]  # a 25, b 19
    neuron = {q.input: q.added for q in asked("predict-neuron")}
    assert neuron["x1"] == pytest.approx(-1.5) and neuron["w1"] == pytest.approx(1.0)
    assert neuron["w2"] == 0.0
    lecture = {q.input: q.added for q in asked("predict-lecture")}
    assert lecture == {"d": -2.0, "f": 4.0, "e": -2.0, "c": -2.0, "a": 6.0, "b": -4.0}


def test_a_wrong_prediction_names_its_step(tmp_path):
    answers = [q.added for q in asked("predict-shared")]
    assert check("predict-shared", answers).passed
    answers[4] = 7  # the grad after the += (c's total), not what the step adds
    result = check("predict-shared", answers)
    assert not result.passed and result.mistake == "wrong-local"
    assert result.first_wrong_step.startswith("e's step, `c.grad += ?`: you said 7; expected 1")
    assert "∂e/∂c is 1 and e.grad (the upstream grad) is 1" in result.first_wrong_step
    path = write(tmp_path, "# predict-lecture\n-2\n4\n-2\n-2\n6  # a\n-4\n", "answers.txt")
    assert check("predict-lecture", path).passed
    short = check("predict-lecture", [-2, 4], lang="zh")
    assert short.mistake == "other" and "应该有 6 个，实际有 2 个" in short.first_wrong_step
