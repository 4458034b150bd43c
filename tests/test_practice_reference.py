"""The reference solutions (micrograd.practice.reference): real modules with one part per exercise,
cut into each exercise's file, stub and solution."""

from __future__ import annotations

import re

import pytest

from micrograd.practice import EXERCISES
from micrograd.practice.reference import FILES, beside, solution, source, stub
from micrograd.practice.reference import engine as reference_engine


def _parts(file: str) -> list[str]:
    with open(reference_engine.__file__.replace("engine.py", file), encoding="utf-8") as f:
        return re.findall(r"^ *# part: (\S+)$", f.read(), re.MULTILINE)


def test_each_exercise_written_in_code_has_one_part():
    parts = [id for file in FILES for id in _parts(file)]
    assert sorted(parts) == sorted(id for id, ex in EXERCISES.items() if ex.kind != "predict")


def test_a_stub_keeps_its_part_up_to_the_todo_and_raises_in_place_of_the_rest():
    pow_stub = stub("op-pow")
    assert (
        "    def __pow__(self, other):\n"
        "        if isinstance(other, Value):\n"
        "            return self._pow_value(other)\n"
        '        # TODO: other is a number k: out = Value(self.data**other, (self,), f"**{other}") ...\n'
        '        raise NotImplementedError("__pow__")\n'
    ) in pow_stub
    assert "other * self.data ** (other - 1)" not in pow_stub
    assert solution("op-add") in pow_stub  # every other part stands whole
    sub_stub = stub("op-sub")  # the methods beside the one to write stay
    assert "    def __neg__(self):\n        return self * -1\n" in sub_stub
    assert "    def __rsub__(self, other):\n        return other + (-self)\n" in sub_stub
    assert 'raise NotImplementedError("__sub__")' in sub_stub
    mlp = stub("neuron-mlp")  # a class keeps only what comes before its TODO
    assert 'raise NotImplementedError("Neuron")' in mlp and "def parameters" not in mlp
    assert stub("derivative").startswith("import math\n\n\ndef f(a, b, c):\n")
    assert 'raise NotImplementedError("gradf")  # TODO\n' in stub("derivative")


def test_solutions_and_sources_have_no_markers_and_run():
    for id, ex in EXERCISES.items():
        if ex.kind == "predict":
            continue
        for text in (solution(id), source(id)):
            assert "TODO" not in text and "# part:" not in text, id
        exec(compile(source(id), id, "exec"), {})
        assert solution(id) in source(id) or id == "derivative"
    assert solution("derivative") in source("derivative")
    whole = source()  # every lecture part in one engine; the GPT track's parts in its last file
    lecture = [id for id, ex in EXERCISES.items() if ex.kind != "predict" and ex.track == "lecture"]
    assert all(solution(id) in whole for id in lecture)
    assert all(
        solution(id) in source("gpt-loop") for id, ex in EXERCISES.items() if ex.track == "gpt"
    )


def test_the_stub_of_an_op_is_the_reference_engine_with_that_part_to_write():
    assert stub("op-tanh").split("    def tanh")[0] == source("op-tanh").split("    def tanh")[0]
    assert stub("op-tanh").count("NotImplementedError") == 1


def test_beside_names_what_is_written_after_the_class():
    assert beside("zero-grad") == ("zero_grad", "zero_grad_all", "train")
    assert beside("derivative") == ("gradf", "numerical_grad", "symmetric_grad")
    assert beside("neuron-mlp") == ("Neuron", "Layer", "MLP")
    assert beside("op-add") == () and beside("backward") == ()


@pytest.mark.parametrize("exercise", [id for id, ex in EXERCISES.items() if ex.kind != "predict"])
def test_a_chinese_stub_is_the_english_one_with_its_todo_lines_in_chinese(exercise):
    """One line of the catalog per TODO that says what to write, in order; the code the same."""
    en, zh = stub(exercise), stub(exercise, "zh")

    def code(text):
        return [line for line in text.splitlines() if not line.lstrip().startswith("#")]

    assert code(en) == code(zh)
    todos = [line for line in zh.splitlines() if "# TODO: " in line]
    assert len(todos) == len([line for line in en.splitlines() if "# TODO: " in line])
    assert all(re.search("[\u4e00-\u9fff]", line) for line in todos), todos
