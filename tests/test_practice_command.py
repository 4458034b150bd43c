"""`micrograd practice` end to end (micrograd.practice.command): start, check, hint, reveal,
status and check-engine, in English and Chinese, with the progress file and notebooks."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from micrograd.practice import check
from micrograd.practice.checks.predict import asked
from micrograd.practice.exercises import EXERCISES
from micrograd.practice.reference import solution
from test_practice import REFERENCE, practice, write


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_command_end_to_end(tmp_path, lang):
    locale = "zh_CN.UTF-8" if lang == "zh" else "C.UTF-8"
    zh = lang == "zh"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return practice(tmp_path, *args, lang=locale)

    started = run("start", "op-sub")
    assert started.returncode == 0, started.stderr
    stub = tmp_path / "practice" / "op-sub.py"
    assert ("任务" if zh else "Task") in stub.read_text(encoding="utf-8")
    refused = run("reveal", "op-sub")
    assert refused.returncode == 1 and "check" in refused.stderr

    assert started.stdout.endswith(
        "`micrograd practice check op-sub --lang zh`\n"
        if zh
        else "`micrograd practice check op-sub`\n"
    )  # the language carried into the command to run next
    failed = run("check", "op-sub")
    assert failed.returncode == 1
    assert failed.stdout.startswith(
        "检查的文件：practice/op-sub.py\n" if zh else "checked: practice/op-sub.py\n"
    )
    assert ("还没有写" if zh else "is not written yet") in failed.stdout
    hint = run("hint", "op-sub")
    assert hint.returncode == 0 and "d(a - b)/db = -1" in hint.stdout

    text = stub.read_text(encoding="utf-8")
    fixed = text.replace('raise NotImplementedError("__sub__")', "return self + (-other)")
    stub.write_text(fixed, encoding="utf-8")
    passed = run("check", "op-sub")
    assert passed.returncode == 0, passed.stdout
    assert ("op-sub：通过" if zh else "op-sub: passed") in passed.stdout

    status = run("status")
    row = next(line for line in status.stdout.splitlines() if line.startswith("op-sub"))
    assert row.split()[-1] == ("是" if zh else "yes")
    total = len(EXERCISES)  # derived: one more exercise is one more in the count
    said = f"{total} 个练习中通过了 1 个" if zh else f"1 of {total} exercises passed"
    assert said in status.stdout
    revealed = run("reveal", "op-sub")
    assert revealed.returncode == 0 and "return self + (-other)" in revealed.stdout

    again = run("start", "op-sub")
    assert again.returncode == 1 and stub.read_text(encoding="utf-8") == fixed


def test_the_stub_comments_never_split_code_or_start_with_punctuation():
    from micrograd.practice.command import _comment

    for ex in EXERCISES.values():
        for lang in ("en", "zh"):
            lines = [ln.removeprefix("# ") for ln in _comment(ex.task(lang))]
            assert "".join(lines).replace(" ", "") == ex.task(lang).replace(" ", "")
            for run_ in re.findall(r"[\x21-\x7e]+", ex.task(lang)):  # identifiers, code
                assert any(run_ in line for line in lines), (ex.id, lang, run_)
            assert not any(line.startswith(tuple("，。、；：）")) for line in lines), ex.id


def test_the_command_usage_errors_and_a_corrupt_progress_file(tmp_path):
    zh_error = practice(tmp_path, "check", "op-add", "--lang", "zh")
    assert zh_error.returncode == 2 and zh_error.stderr.startswith(
        "micrograd：错误：没有 practice/"
    )
    assert practice(tmp_path, "check", "no-such").returncode == 2
    assert practice(tmp_path, "check", "op-add").returncode == 2  # no stub yet
    assert practice(tmp_path, "--lang", "zh", "check").returncode == 2
    (tmp_path / "practice").mkdir()
    (tmp_path / "practice" / "progress.json").write_text("{not json", encoding="utf-8")
    status = practice(tmp_path, "status")
    assert status.returncode == 0 and "starting over" in status.stderr
    reference = tmp_path / "ref.py"
    reference.write_text(REFERENCE, encoding="utf-8")
    done = practice(tmp_path, "check", "op-add", str(reference), "--lang", "zh")
    assert done.returncode == 0 and "op-add：通过" in done.stdout
    progress = json.loads((tmp_path / "practice" / "progress.json").read_text(encoding="utf-8"))
    assert progress["exercises"]["op-add"] == {"attempts": 1, "hints": 0, "passed": True}
    engine_check = practice(tmp_path, "check-engine", str(reference))
    assert engine_check.returncode == 0 and "backward" in engine_check.stdout


def test_start_notebook_writes_a_notebook_the_checker_reads(tmp_path):
    done = practice(tmp_path, "start", "op-exp", "--notebook")
    assert done.returncode == 0, done.stderr
    path = tmp_path / "practice" / "op-exp.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert [c["cell_type"] for c in nb["cells"]] == ["markdown", "code", "code"]
    code = "".join(nb["cells"][1]["source"])
    nb["cells"][1]["source"] = code.replace(
        '        raise NotImplementedError("exp")',
        solution("op-exp").split("\n", 1)[1].rstrip("\n"),
    ).splitlines(True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    result = check("op-exp", str(path))
    assert result.passed, result


def test_a_gpt_track_notebook_is_written_and_read_back_in_chinese(tmp_path):
    """The GPT track in the notebook form: `start --notebook` writes microgpt's file as cells, and
    the checker reads the learner's notebook back: the stub fails, the filled-in part passes."""
    done = practice(tmp_path, "start", "attention-head", "--notebook", "--lang", "zh")
    assert done.returncode == 0, done.stderr
    path = tmp_path / "practice" / "attention-head.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert check("attention-head", str(path), lang="zh").mistake == "not-written"
    cells = ["".join(c["source"]) for c in nb["cells"]]
    where = next(
        i for i, c in enumerate(cells) if 'raise NotImplementedError("attention_head")' in c
    )
    body = solution("attention-head").split("\n", 5)[5]  # the def, its docstring, then the body
    nb["cells"][where]["source"] = (
        cells[where]
        .replace('    raise NotImplementedError("attention_head")  # TODO', body.rstrip("\n"))
        .splitlines(True)
    )
    path.write_text(json.dumps(nb), encoding="utf-8")
    result = check("attention-head", str(path), lang="zh")
    assert result.passed, result


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


WRONG_MUL_CELL = """# second try (then check again with micrograd.practice)
def _mul(self, other):
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data * other.data, (self, other), "*")

    def _backward():
        self.grad += other.data * out.grad
        other.grad += other.data * out.grad  # the wrong operand

    out._backward = _backward
    return out


Value.__mul__ = _mul
"""


def test_a_notebook_is_checked_as_it_runs_less_its_check_cell(tmp_path):
    done = practice(tmp_path, "start", "op-mul", "--notebook")
    assert done.returncode == 0, done.stderr
    path = tmp_path / "practice" / "op-mul.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"][1]["source"] = REFERENCE.splitlines(True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert check("op-mul", str(path)).passed  # the check cell is left out
    fix = {"cell_type": "code", "metadata": {}, "source": WRONG_MUL_CELL, "outputs": []}
    nb["cells"].insert(2, fix)
    path.write_text(json.dumps(nb), encoding="utf-8")
    result = check("op-mul", str(path))
    assert not result.passed, result


@pytest.mark.parametrize(
    "content", ["[1, 2]\n", '{"cells": [\n', '{"cells": [{"cell_type": "code", "source": 3}]}']
)
def test_a_file_that_is_not_a_notebook_is_named(tmp_path, content):
    path = write(tmp_path, content, "nb.ipynb")
    assert check("op-mul", path).first_wrong_step == f"not a notebook: {path}"
    assert check("op-mul", path, lang="zh").first_wrong_step == f"不是 Jupyter 笔记本：{path}"


def test_a_deeply_nested_progress_file_starts_over(tmp_path):
    (tmp_path / "practice").mkdir()
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "practice" / "progress.json").write_text(deep, encoding="utf-8")
    status = practice(tmp_path, "status")
    assert status.returncode == 0 and "starting over" in status.stderr, status.stderr


def test_odd_counters_in_the_progress_file_are_repaired(tmp_path):
    (tmp_path / "practice").mkdir()
    path = tmp_path / "practice" / "progress.json"
    odd = {"attempts": True, "hints": -5, "passed": False}
    path.write_text(json.dumps({"version": 1, "exercises": {"op-add": odd}}), encoding="utf-8")
    hint = practice(tmp_path, "hint", "op-add")
    assert hint.returncode == 0 and hint.stdout.startswith("hint 1 of 3: "), hint.stdout
    entry = json.loads(path.read_text(encoding="utf-8"))["exercises"]["op-add"]
    assert entry == {"attempts": 0, "hints": 1, "passed": False}
    many = {"attempts": 2, "hints": 99, "passed": False}
    path.write_text(json.dumps({"version": 1, "exercises": {"op-add": many}}), encoding="utf-8")
    assert practice(tmp_path, "hint", "op-add").returncode == 0
    entry = json.loads(path.read_text(encoding="utf-8"))["exercises"]["op-add"]
    assert entry["hints"] == 3


def test_a_chinese_task_wraps_between_characters_never_inside_a_piece_of_code():
    from micrograd.practice.command import _comment

    code = "out = Value(self.data**other.data, (self, other), '**')"
    lines = _comment(
        "任务：让 ** 接受 Value 作指数。代码框架里的 __pow__ 会调用实现它，" + code + "，闭包。"
    )
    assert any(code in line for line in lines), lines
    long = " ".join(["word"] * 40)  # longer than a line: it breaks at its spaces
    assert len(_comment("中文" + long)) > 1
