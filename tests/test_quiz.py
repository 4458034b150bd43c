"""Predict, then reveal (micrograd.teach.quiz): reading answers, the terminal quiz, `explain --quiz`, and
the questions the stepper page asks."""

import math
import subprocess
import sys

import pytest

from micrograd import Value
from micrograd.practice.lecture import graph
from micrograd.teach.quiz import answer_is_right, questions, quiz, read_answer
from micrograd.teach.stepper import page_data
from micrograd.viz import explain, stepper


@pytest.mark.parametrize(
    "typed, number",
    [
        ("-1.5", -1.5),
        (" 3 ", 3.0),
        ("1/2", 0.5),
        ("-3/4", -0.75),
        ("1e-3", 0.001),
        (".5", 0.5),
        ("－１.５", -1.5),  # typed with a Chinese input method (full width)
        ("\u22122", -2.0),  # a typographic minus
        ("abc", None),
        ("", None),
        ("1/0", None),
        ("nan", None),
        ("inf", None),
        ("1/2/3", None),
        ("2*3", None),
    ],
)
def test_an_answer_is_read_as_the_page_reads_it(typed, number):
    assert read_answer(typed) == number


def test_an_answer_within_what_the_pictures_show_is_right():
    assert answer_is_right(0.42, 0.41997434161402614)  # 4 decimals of it
    assert answer_is_right(-7.29, -7.286496)
    assert not answer_is_right(-7.3, -7.286496)
    assert answer_is_right(0.0, 0.00005) and not answer_is_right(0.001, 0.0)
    assert not answer_is_right(6.0, 1.0)


def seed_question():
    """The Stack Exchange question's graph (practice's predict-shared): a.grad 25 and b.grad 19."""
    return graph("predict-shared")


def scripted(answers):
    """ask() that types `answers` in turn, then ends the input; and the lines told."""
    typed = iter(answers)
    told = []

    def ask(prompt):
        told.append(prompt)
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return ask, told.append, told


def test_the_terminal_quiz_asks_every_plus_equals_in_backwards_order():
    f = seed_question()
    expected = [q.added for _, _, q in questions(explain(f))]
    assert expected == [1, 1, 6, 5, 1, 1, 18, 12, 7, 7]  # e g c d c d a b a b: 25 and 19
    answers = ["6", "1", "1", "x", "6", "5", "1", "1", "18", "12", "7", "7"]
    ask, tell, told = scripted(["99", "99"] + answers[1:])  # the first one missed twice
    score = quiz(f, ask=ask, tell=tell, lang="en")
    assert (score.asked, score.right, len(score.missed)) == (10, 8, 1)  # c right at the 2nd try
    assert not score.passed and score.missed[0].input == "e"
    text = "\n".join(told)
    assert "not quite: the local derivative ∂f/∂e is 1, and f.grad (the upstream grad) is 1" in text
    assert "type a number" in text  # "x" is said, and is not a try
    assert "right: c.grad += 1 * 1 = 1  -> 7   (+=: c is used more than once" in text
    assert text.endswith("8 of 10 right at the first try")
    ask, tell, told = scripted([str(x) for x in expected])
    score = quiz(f, ask=ask, tell=tell, lang="zh")
    assert score.passed and score.right == 10 and told[-1] == "首次答对 10 / 10"


def test_the_end_of_input_stops_the_quiz_with_its_score():
    ask, tell, told = scripted(["1", "1"])
    score = quiz(seed_question(), ask=ask, tell=tell, lang="en")
    assert (score.asked, score.right) == (2, 2) and told[-1] == "2 of 2 right at the first try"
    assert told[-2] == "stopped: 2 of 10 questions answered" and not score.passed


@pytest.mark.parametrize("typed", ["q", "Q", " quit ", "退出"])
def test_q_stops_the_quiz_and_the_intro_says_so(typed):
    ask, tell, told = scripted(["1", "1", typed, "1"])
    score = quiz(seed_question(), ask=ask, tell=tell, lang="zh")
    assert told[0].endswith("（输入 q 或「退出」结束）")
    assert told[1].startswith("各个值：a = 2, b = 3, c = 5")
    assert (score.asked, score.total) == (2, 10) and not score.passed
    assert told[-2:] == ["已结束：10 题中答了 2 题", "首次答对 2 / 2"]


def test_explain_quiz_runs_in_the_terminal_in_both_languages():
    expr = "c = a + b; d = a * b; e = c + d; g = c * d; f = e + g"
    command = [sys.executable, "-m", "micrograd", "explain", expr, "--set", "a=2", "--set", "b=3"]
    answers = "1\n1\n6\n5\n1\n1\n18\n12\n7\n7\n"
    done = subprocess.run(
        command + ["--quiz"], input=answers, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("f = 41\nPredict each +=")
    assert done.stdout.count("right: ") == 10 and "10 of 10 right" in done.stdout
    done = subprocess.run(
        command + ["--quiz", "--lang", "zh"],
        input="7\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "不对：局部偏导 ∂f/∂e 是 1" in done.stdout and "首次答对 0 / 1" in done.stdout
    assert done.returncode == 1  # left before the end
    help_zh = subprocess.run(
        [sys.executable, "-m", "micrograd", "explain", "--lang", "zh", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "--quiz" in help_zh and "预测每一次 +=" in help_zh


def test_the_stepper_page_asks_the_same_questions():
    f = seed_question()
    page = stepper(f, quiz=True).page
    data = page_data(page)
    asked = [fr["quiz"] for fr in data["frames"] if "quiz" in fr]
    want = [q for _, _, q in questions(explain(f))]
    assert [a["added"] for a in asked] == [q.added for q in want]
    assert asked[2]["ask"].endswith("c.grad += ?") and "∂g/∂c is 6" in asked[2]["wrong"]
    assert data["quiz"] is True and data["tolerance"] == [1e-4, 1e-3]
    plain = page_data(stepper(f).page)
    assert not any("quiz" in fr for fr in plain["frames"]) and plain["quiz"] is False


def test_a_step_that_cannot_be_asked_is_only_shown():
    """A hand-written closure's step has no known local derivative; a nan is no answer."""
    x = Value(0.5, label="x")
    t = Value(math.tanh(0.5), (x,), "mytanh", label="t")

    def _backward():
        x.grad += (1 - t.data**2) * t.grad

    t._backward = _backward
    assert [q.input for _, _, q in questions(explain(t * 3))] == ["t"]
    y, z = Value(1.0, label="y"), Value(float("inf"), label="z")
    assert [q.input for _, _, q in questions(explain(y * z))] == ["z"]  # y's would be inf
