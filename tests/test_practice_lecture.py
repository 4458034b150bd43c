"""The exercises around the engine (micrograd.practice.lecture): a derivative by hand and by
nudging, predicting each +=, softmax with the negative log likelihood; and the time limit on
learner code (micrograd.practice.checker)."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from micrograd.practice import EXERCISES, check, solutions
from micrograd.practice import checker as checker_module
from micrograd.practice.exercises import ORDER
from micrograd.practice.lecture import asked, central_grad, exact_grad, f, forward_grad
from micrograd.practice.lecture_texts import LECTURE_TEXTS
from micrograd.practice.texts import TEXTS
from test_practice import practice, write

DERIVATIVE = solutions.reference("derivative")
SOFTMAX = solutions.reference("softmax-nll")


def mutate(tmp_path, source: str, old: str, new: str) -> str:
    assert old in source, old
    return write(tmp_path, source.replace(old, new))


def test_every_exercise_is_in_the_lecture_order_once():
    assert sorted(ORDER) == sorted(t[0] for t in TEXTS + LECTURE_TEXTS) == sorted(EXERCISES)
    assert list(EXERCISES)[:2] == ["derivative", "predict-lecture"]
    assert list(EXERCISES)[-2:] == ["softmax-nll", "neuron-mlp"]


# ---------------------------------------------------------------------------- derivative
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
            "other",
            "the other kind of difference: numerical_grad nudges forward only",
        ),
        (  # symmetric_grad divides by h instead of 2h
            "(f(a + h, b, c) - f(a - h, b, c)) / (2 * h)",
            "(f(a + h, b, c) - f(a - h, b, c)) / h",
            "other",
            "symmetric_grad gives df/da",
        ),
    ],
)
def test_derivative_mistakes_are_named(tmp_path, old, new, mistake, words):
    result = check("derivative", mutate(tmp_path, DERIVATIVE, old, new))
    assert not result.passed and result.mistake == mistake
    assert words in result.first_wrong_step, result.first_wrong_step


def test_derivative_in_chinese_and_a_missing_function(tmp_path):
    path = mutate(tmp_path, DERIVATIVE, "3 * math.cos(3 * b)", "math.cos(3 * b)")
    assert "gradf 给出 df/db" in check("derivative", path, lang="zh").first_wrong_step
    result = check("derivative", write(tmp_path, "def gradf(a, b, c):\n    return [0, 0]\n"))
    assert result.mistake == "other" and "no function `numerical_grad`" in result.first_wrong_step


# ---------------------------------------------------------------------------- predict the grads
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


def test_predict_through_the_command(tmp_path):
    started = practice(tmp_path, "start", "predict-shared", "--lang", "zh")
    assert started.returncode == 0 and "predict-shared.html" in started.stdout
    page = (tmp_path / "practice" / "predict-shared.html").read_text(encoding="utf-8")
    assert '"quiz": true' in page and "预测每一次 +=" in page
    answers = "".join(f"{q.added:g}\n" for q in asked("predict-shared"))
    command = [sys.executable, "-m", "micrograd", "practice", "check", "predict-shared"]
    wrong = "99\n99\n" + answers.split("\n", 1)[1]
    failed = subprocess.run(command, cwd=tmp_path, input=wrong, capture_output=True, text=True)
    assert failed.returncode == 1 and "you said 99; expected 1" in failed.stdout
    passed = subprocess.run(command, cwd=tmp_path, input=answers, capture_output=True, text=True)
    assert passed.returncode == 0 and "predict-shared: passed" in passed.stdout
    revealed = practice(tmp_path, "reveal", "predict-shared")
    assert "a.grad += 3 * 6 = 18" in revealed.stdout
    notebook = practice(tmp_path, "start", "predict-neuron", "--notebook")
    assert notebook.returncode == 0 and (tmp_path / "practice" / "predict-neuron.ipynb").exists()


# ---------------------------------------------------------------------------- softmax and NLL
@pytest.mark.parametrize(
    "old, new, mistake, words",
    [
        (  # the lecture's exp with its closure never attached
            'out = Value(math.exp(self.data), (self,), "exp")',
            'out = Value(math.exp(self.data), (self,), "exp")\n        return out',
            "closure-not-attached",
            "exp(logits[",
        ),
        (  # the denominator is the sum of the logits, not of their exps
            "denominator = sum(counts)",
            "denominator = sum(logits)",
            "wrong-forward",
            "softmax(logits)[0] is",
        ),
        (  # nll without the minus sign
            "return -probs[target].log()",
            "return probs[target].log()",
            "wrong-forward",
            "nll(probs,",
        ),
        (  # exp's closure overwrites: the denominator uses each count, so += matters
            "self.grad += out.data * out.grad",
            "self.grad = out.data * out.grad",
            "assign-not-add",
            "logits[0]",
        ),
    ],
)
def test_softmax_mistakes_are_named(tmp_path, old, new, mistake, words):
    result = check("softmax-nll", mutate(tmp_path, SOFTMAX, old, new))
    assert not result.passed and result.mistake == mistake, result
    assert words in result.first_wrong_step, result.first_wrong_step


def test_softmax_grads_are_probs_minus_one_hot(tmp_path):
    """micrograd's grads, which the check compares with, are p - onehot: the check's own oracle
    is right."""
    from micrograd.engine import Value

    logits = [Value(x) for x in (0.0, 3.0, -2.0, 1.0)]
    counts = [z.exp() for z in logits]
    total = sum(counts)
    probs = [c / total for c in counts]
    (-probs[3].log()).backward()
    for i, (z, p) in enumerate(zip(logits, probs)):
        assert z.grad == pytest.approx(p.data - (i == 3), abs=1e-15)
    result = check("softmax-nll", write(tmp_path, SOFTMAX))
    assert result.passed and [r.points for r in result.rows] == [6, 6, 5, 5]


# ---------------------------------------------------------------------------- time limit
ENDLESS = """
class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            while True:  # never ends, and hides the interruption as well as it can
                try:
                    pass
                except Exception:
                    pass

        out._backward = _backward
        return out
"""


def test_learner_code_that_never_ends_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(checker_module, "TIME_LIMIT", 0.5)
    result = check("op-add", write(tmp_path, ENDLESS))
    assert not result.passed and result.mistake == "other"
    assert "ran for more than 0.5 s and was stopped" in result.first_wrong_step
    looping_file = write(tmp_path, "while True:\n    pass\n", "loop.py")
    result = check("op-add", looping_file, lang="zh")
    assert "运行超过 0.5 秒" in result.first_wrong_step
    assert check("op-add", write(tmp_path, solutions.reference())).passed  # the timer is off
