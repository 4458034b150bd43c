"""The one place learner code runs (micrograd.practice.sandbox): code that fails to load, the
one time limit of a whole check on code that never ends, and what the learner's code prints."""

from __future__ import annotations

import json
import time

from micrograd.practice import check, sandbox
from test_practice import REFERENCE, mutate, practice, write

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
    assert not result.passed and result.mistake == "too-long"
    assert "ran for more than 0.5 s and was stopped" in result.first_wrong_step
    looping_file = write(tmp_path, "while True:\n    pass\n", "loop.py")
    result = check("op-add", looping_file, lang="zh")
    assert "运行超过 0.5 秒" in result.first_wrong_step
    assert check("op-add", write(tmp_path, REFERENCE)).passed  # the timer is off


def test_one_time_limit_covers_the_whole_check(tmp_path, monkeypatch):
    """The op check calls the learner's code at about 14 points: an endless closure is reported
    once the check's one limit is spent, not after 14 limits in a row."""
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 0.5)
    start = time.monotonic()
    result = check("op-add", write(tmp_path, ENDLESS))
    took = time.monotonic() - start
    assert "ran for more than 0.5 s and was stopped" in result.first_wrong_step
    assert took < 0.5 * 4, took  # one limit and the checker's own work (14 limits: 7 s)


def test_a_loop_that_swallows_the_interruption_is_stopped_all_the_same(tmp_path, monkeypatch):
    """In this process, a loop whose interrupted part is outside its `try` meets the next alarm."""
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 0.5)
    swallowing = ENDLESS.replace("except Exception:", "except BaseException:")
    result = check("op-add", write(tmp_path, swallowing))
    assert not result.passed and "was stopped" in result.first_wrong_step


SWALLOWS_EVERYTHING = """
import time
while True:
    try:
        time.sleep(1)  # the slow part inside the try: every alarm lands here and is swallowed
    except:
        pass
"""


def test_the_command_stops_a_loop_that_swallows_every_interruption_at_the_limit(tmp_path):
    """`micrograd practice check` runs the check in a child process and ends it at the limit:
    a bare `except:` around a slow body cannot keep it running, and it is no pass."""
    loop = write(tmp_path, REFERENCE + SWALLOWS_EVERYTHING)
    start = time.monotonic()
    done = practice(tmp_path, "check", "op-add", loop, env={"MICROGRAD_CHECK_SECONDS": "1"})
    took = time.monotonic() - start
    assert done.returncode == 1 and "op-add: not yet (too-long)" in done.stdout, done.stdout
    assert "did not stop when asked" in done.stdout and took < 1 + 3, took  # Python's start-up


FAKES = {
    "the checks replaced by ones that pass": """
import micrograd.practice.checks as _checks
from micrograd.practice.result import CheckResult as _Result
for _kind in list(_checks.CHECKS):
    _checks.CHECKS[_kind] = lambda ex, ns, seed, lang: _Result(ex.id, True, seed=seed, lang=lang)
""",
    "the comparison made lenient": """
import micrograd.practice.result as _r
_r.close = lambda *a, **k: True
""",
    "the process ended with status 0": "import os\nos._exit(0)\n",
    "a pass written into the progress file": """
import json, os
os.makedirs("practice", exist_ok=True)
with open("practice/progress.json", "w") as f:
    json.dump({"version": 1, "exercises": {"op-mul": {"passed": True}}}, f)
""",
    "a memory bomb": "hoard = bytearray(1 << 40)\n",
    "a crash of the interpreter": "import ctypes\nctypes.string_at(0)\n",
}


def test_a_learners_file_cannot_fake_a_pass(tmp_path):
    """The unsolved op-mul stub with a tail that tries to make the check say "passed": each gets
    a named verdict, exit status 1, and no pass in practice/progress.json."""
    from micrograd.practice.reference import stub

    for how, tail in FAKES.items():
        (tmp_path / "practice").mkdir(exist_ok=True)
        (tmp_path / "practice" / "progress.json").unlink(missing_ok=True)
        done = practice(tmp_path, "check", "op-mul", write(tmp_path, stub("op-mul") + tail))
        assert done.returncode == 1, (how, done.stdout, done.stderr)
        assert "op-mul: not yet" in done.stdout, (how, done.stdout)
        progress = json.loads((tmp_path / "practice" / "progress.json").read_text())
        assert progress["exercises"]["op-mul"]["passed"] is False, how
        assert "passed" not in done.stdout.splitlines()[1], how


def test_an_alarm_that_lands_as_the_check_ends_stops_nothing_after_it(monkeypatch):
    """The timer re-fires every 0.25 s after the limit: one that lands while the block ends (here
    as the timer is being stopped) is ignored, and the timer and the handler are put back; else
    the timer went on firing and stopped every later check in the process at once."""
    import signal

    before = signal.getsignal(signal.SIGALRM)
    setitimer = signal.setitimer

    def landing(which, seconds, interval=0.0):
        if seconds == 0:  # the alarm arrives just as the block stops the timer
            signal.getsignal(signal.SIGALRM)(signal.SIGALRM, None)
        return setitimer(which, seconds, interval)

    monkeypatch.setattr(signal, "setitimer", landing)
    with sandbox._alarm(10):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


PRINTS = """
        def _backward():
            print("backward of", self.data, other.data)
            self.grad += other.data * out.grad
            other.grad += other.data * out.grad
"""


def test_what_the_learner_prints_is_shown_after_the_verdict_trimmed(tmp_path):
    old = """
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
"""
    path = mutate(tmp_path, old, PRINTS)
    result = check("op-mul", path, lang="zh")
    assert not result.passed
    assert result.output and all(line.startswith("backward of") for line in result.output)
    shown = str(result).splitlines()
    start = shown.index(f"你的代码打印了 {len(result.output)} 行：")
    assert shown[start + 1 : start + 21] == result.output[:20]
    if len(result.output) > 20:
        assert shown[start + 21] == f"……还有 {len(result.output) - 20} 行"
    assert "<pre>backward of" in result._repr_html_()
    at_load = check("op-mul", write(tmp_path, 'print("hello <b>")\n' + REFERENCE))
    assert at_load.passed and at_load.output == ["hello <b>"]
    assert "hello &lt;b&gt;" in at_load._repr_html_()
    assert check("op-mul", write(tmp_path, REFERENCE)).output == []


EXITS_IN_BACKWARD = """
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
            import sys; sys.exit()
"""

INTERRUPTS_IN_OP = """
        raise KeyboardInterrupt
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")
"""


def test_sys_exit_in_learner_code_is_a_named_failure(tmp_path):
    old = """
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
"""
    result = check("op-mul", mutate(tmp_path, old, EXITS_IN_BACKWARD))
    assert not result.passed
    assert result.first_wrong_step.startswith(
        "your code called sys.exit() inside `(a * b)._backward()`"
    )
    old = """
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")
"""
    result = check("op-mul", mutate(tmp_path, old, INTERRUPTS_IN_OP), lang="zh")
    assert not result.passed
    assert result.first_wrong_step.startswith("你的代码在 `a * b` 里调用了 KeyboardInterrupt")


def test_sys_exit_in_learner_code_fails_the_command(tmp_path):
    old = """
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
"""
    done = practice(tmp_path, "check", "op-mul", mutate(tmp_path, old, EXITS_IN_BACKWARD))
    assert done.returncode == 1
    assert "called sys.exit() inside" in done.stdout


def test_a_syntax_error_is_said_with_its_line_and_in_the_learners_language(tmp_path):
    bad = REFERENCE.replace("return self + other\n", "return (self + other))\n", 1)
    result = check("op-add", write(tmp_path, bad), lang="zh")
    line = next(i for i, t in enumerate(bad.splitlines(), 1) if "(self + other))" in t)
    assert result.first_wrong_step == (
        f"你的代码无法运行：第 {line} 行不是合法的 Python：多了一个 ')'，前面没有和它配对的括号"
        "（return (self + other))）"
    )


def test_a_misspelt_attribute_is_named_with_the_name_python_would_suggest(tmp_path):
    typo = REFERENCE.replace("self.grad += 1.0 * out.grad", "self.gard += 1.0 * out.grad", 1)
    result = check("op-add", write(tmp_path, typo))
    assert (
        "AttributeError: 'Value' object has no attribute 'gard' (grad?)" in result.first_wrong_step
    )
