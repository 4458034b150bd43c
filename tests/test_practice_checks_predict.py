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
    answers[4] = 3  # neither the step's number nor a known mistake
    result = check("predict-shared", answers)
    assert not result.passed and result.mistake == "wrong-local"
    assert result.first_wrong_step == (
        "e's step, `c.grad += ?`: you said 3; expected 1: the local derivative ∂e/∂c is 1 and "
        "e.grad (the upstream grad) is 1"
    )
    path = write(tmp_path, "# predict-lecture\n-2\n4\n-2\n-2\n6  # a\n-4\n", "answers.txt")
    assert check("predict-lecture", path).passed
    short = check("predict-lecture", [-2, 4], lang="zh")
    assert short.mistake == "other" and "应该有 6 个，实际有 2 个" in short.first_wrong_step


@pytest.mark.parametrize(
    "exercise, index, said, mistake, words",
    [
        # d's own value (4) at L = d * f, where the local derivative is f
        ("predict-lecture", 0, 4, "own-value", "4 is d's own value"),
        # tanh's local derivative from its input, 1 - n**2, where the output's belongs
        ("predict-neuron", 0, 1 - 0.8813735870195432**2, "input-not-output", "from the input"),
        # c's grad after the += (the running total, 7), not what this += adds
        ("predict-shared", 4, 7, "running-total", "7 is c.grad after this +=, the running total"),
    ],
)
def test_well_known_wrong_predictions_are_named(exercise, index, said, mistake, words):
    answers = [q.added for q in asked(exercise)]
    answers[index] = said
    result = check(exercise, answers)
    assert result.mistake == mistake, result
    assert words in result.first_wrong_step


def test_a_bracketed_node_name_is_shown_bracketed_in_the_step():
    answers = [q.added for q in asked("predict-neuron")]
    answers[3] = 5
    step = check("predict-neuron", answers).first_wrong_step
    assert "`[x1*w1].grad += ?`" in step and "∂[x1*w1 + x2*w2]/∂[x1*w1] is 1" in step
