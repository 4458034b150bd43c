"""The one place learner code runs (micrograd.practice.sandbox): code that fails to load, and the
time limit on code that never ends."""

from __future__ import annotations

from micrograd.practice import check, sandbox
from test_practice import REFERENCE, write

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


def test_code_that_cannot_be_loaded_is_named(tmp_path):
    result = check("op-add", write(tmp_path, "x = 1 / 0\n"))
    assert result.mistake == "other"
    assert (
        result.first_wrong_step == "your code could not be run: ZeroDivisionError: division by zero"
    )
    missing = check("op-add", write(tmp_path, "class Other:\n    pass\n"), lang="zh")
    assert missing.first_wrong_step == "你的代码里没有类 `Value`"


def test_learner_code_that_never_ends_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 0.5)
    result = check("op-add", write(tmp_path, ENDLESS))
    assert not result.passed and result.mistake == "other"
    assert "ran for more than 0.5 s and was stopped" in result.first_wrong_step
    looping_file = write(tmp_path, "while True:\n    pass\n", "loop.py")
    result = check("op-add", looping_file, lang="zh")
    assert "运行超过 0.5 秒" in result.first_wrong_step
    assert check("op-add", write(tmp_path, REFERENCE)).passed  # the timer is off
