"""Practice mode (issue 21, sections 1 and 2): the checker names each classic mistake and its first
wrong step, the reference solutions pass, and `micrograd practice` works end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types

import pytest

from micrograd import engine
from micrograd.practice import EXERCISES, MISTAKES, check, check_engine, solutions, traps
from micrograd.practice.result import CheckResult, Row

REFERENCE = solutions.reference()


def write(tmp_path, text: str, name: str = "mine.py") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def mutate(tmp_path, old: str, new: str, source: str = REFERENCE) -> str:
    """The reference engine with one mistake put in."""
    assert old in source, old
    return write(tmp_path, source.replace(old, new))


# ---------------------------------------------------------------------------- the references
@pytest.mark.parametrize("exercise", list(EXERCISES))
def test_the_reference_passes_every_exercise(tmp_path, exercise):
    from micrograd.practice.lecture import asked

    if EXERCISES[exercise].kind == "predict":  # answers, not code: the engine's own numbers
        result = check(exercise, [q.added for q in asked(exercise)])
    else:
        result = check(exercise, write(tmp_path, REFERENCE))
    assert result.passed, result
    assert result.mistake is None and result.first_wrong_step is None
    assert all(row.close == row.points for row in result.rows)


def test_exercise_ids_and_mistake_names_of_the_contract():
    for id in ("op-add", "op-mul", "op-pow", "op-sub", "op-div", "op-tanh", "op-exp", "op-relu"):
        assert id in EXERCISES
    for id in ("op-log", "op-pow-value", "backward", "zero-grad", "neuron-mlp"):
        assert id in EXERCISES
    assert set(MISTAKES) == {
        "assign-not-add",
        "closure-not-attached",
        "wrong-local",
        "wrong-operand",
        "not-reset",
        "recursion-limit",
        "visit-order",
        "wrong-forward",
        "other",
    }
    for ex in EXERCISES.values():
        assert ex.title["en"] and ex.title["zh"] and ex.task["zh"]
        assert 2 <= len(ex.hints["en"]) == len(ex.hints["zh"]) <= 3


def test_the_stack_exchange_numbers_come_from_this_engine():
    root, names, _ = traps.stack_exchange(engine.Value, 2.0, 3.0)
    root.backward()
    assert (names["a"].grad, names["b"].grad) == (25.0, 19.0)


# ---------------------------------------------------------------------------- op mistakes
SUB_AS_OP = """        out = Value(self.data - other.data, (self, other), "-")

        def _backward():
            self.grad += out.grad
            other.grad += {sign}out.grad

        out._backward = _backward
        return out
"""

OP_MISTAKES = [
    # (exercise, old, new, mistake, words in the first wrong step)
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
        ["`a.grad` got", "from `(a * b)._backward()`", "wrong operand"],
    ),
    (
        "op-tanh",
        "self.grad += (1 - t**2) * out.grad",
        "self.grad += (1 - self.data**2) * out.grad",
        "wrong-operand",
        ["1 - t**2", "where the output's belongs"],
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
        "wrong-local",
        ["multiply it by the upstream grad"],
    ),
    (
        "op-pow",
        "other * self.data ** (other - 1)",
        "other * self.data ** other - 1",
        "wrong-local",
        ["k * x**(k-1)"],
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
        "other",
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


def test_a_value_used_twice_shows_assign_not_add_with_no_grad_before(tmp_path):
    # both lines of + written with =: a + a gets 1 instead of 2, even with all grads at 0
    path = mutate(tmp_path, "self.grad += 1.0 * out.grad", "self.grad = 1.0 * out.grad")
    path = mutate(
        tmp_path, "other.grad += 1.0 * out.grad", "other.grad = 1.0 * out.grad", open(path).read()
    )
    result = check("backward", path)
    assert result.mistake == "assign-not-add"
    assert result.first_wrong_step.startswith("a + a: ")


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


# ---------------------------------------------------------------------------- backward() mistakes
GLOBAL_VISITED = """
    def backward(self):
        self.grad = 1.0
        self._walk()

    def _walk(self):
        self._backward()
        for child in self._prev:
            if child not in visited:
                visited.add(child)
                child._walk()
"""

RECURSIVE = """
    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
"""


def test_the_stack_exchange_global_visited_bug_is_visit_order(tmp_path):
    source = REFERENCE.replace("self._prev = set(_children)", "self._prev = tuple(_children)")
    source = "visited = set()\n\n" + source  # the question's global set
    path = mutate(tmp_path, solutions.PARTS["backward"], GLOBAL_VISITED, source)
    module = types.ModuleType("buggy")
    exec(open(path).read(), module.__dict__)
    root, names, _ = traps.stack_exchange(module.Value, 2.0, 3.0)
    root.backward()
    assert names["a"].grad == 4.0  # the question's wrong number (e before g)
    module.visited.clear()
    result = check("backward", path)
    assert result.mistake == "visit-order"
    step = result.first_wrong_step
    assert step.startswith(
        "the Stack Exchange graph at a = 2, b = 3: `c._backward()` ran while c.grad was 1; "
        "expected 7"
    )
    assert "`g` uses c too" in step


def test_a_recursive_backward_hits_the_recursion_limit(tmp_path):
    result = check("backward", mutate(tmp_path, solutions.PARTS["backward"], RECURSIVE))
    assert result.mistake == "recursion-limit"
    assert "100,000" in result.first_wrong_step and "RecursionError" in result.first_wrong_step


def test_walking_the_order_forwards_is_visit_order(tmp_path):
    path = mutate(tmp_path, "        for v in reversed(topo):", "        for v in topo:")
    result = check("backward", path)
    assert result.mistake == "visit-order"
    assert "`b._backward()` ran while b.grad was 0; expected 2" in result.first_wrong_step


def test_forgetting_the_output_grad_of_one(tmp_path):
    path = mutate(tmp_path, "        self.grad = 1.0\n        for v", "        for v")
    result = check("backward", path)
    assert result.mistake == "other"
    assert "self.grad = 1.0" in result.first_wrong_step


# ---------------------------------------------------------------------------- accumulation traps
@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            "        zero_grad(params)\n        loss.backward()",
            "        loss.backward()",
            ["in step 2, `w.grad` is", "it still holds", "from step 1"],
        ),
        (
            "        zero_grad(params)\n        loss.backward()",
            "        loss.backward()\n        zero_grad(params)",
            ["is 0 when the update runs"],
        ),
        (
            "            v.grad = 0.0\n            stack.extend(v._prev)",
            "            if not v._prev:\n                v.grad = 0.0\n            stack.extend(v._prev)",
            ["after zero_grad_all(root), `(a * a).grad` is still", "inner ones too"],
        ),
    ],
)
def test_grads_not_reset_are_named(tmp_path, old, new, words):
    result = check("zero-grad", mutate(tmp_path, old, new))
    assert result.mistake == "not-reset"
    for w in words:
        assert w in result.first_wrong_step


def test_neuron_mistakes(tmp_path):
    no_bias = check("neuron-mlp", mutate(tmp_path, "return self.w + [self.b]", "return self.w"))
    assert no_bias.mistake == "other" and "expected 4" in no_bias.first_wrong_step
    no_act = check(
        "neuron-mlp", mutate(tmp_path, "        return act.tanh()", "        return act")
    )
    assert no_act.mistake == "wrong-forward"


# ---------------------------------------------------------------------------- the result
def test_random_points_are_drawn_at_check_time_and_a_seed_replays_them(tmp_path):
    path = write(tmp_path, REFERENCE)
    seeds = {check("op-mul", path).seed for _ in range(3)}
    assert len(seeds) == 3
    bad = mutate(tmp_path, "self.grad += other.data * out.grad", "self.grad += 2 * out.grad")
    first = check("op-mul", bad, seed=12345)
    assert check("op-mul", bad, seed=12345).first_wrong_step == first.first_wrong_step
    assert "12345" in str(first)


def test_the_table_and_html(tmp_path):
    result = check("op-div", write(tmp_path, REFERENCE), seed=7)
    text = str(result)
    assert text.splitlines()[0] == "op-div: passed"
    assert "max diff (central differences)" in text
    assert [r.name for r in result.rows] == ["a", "b"]
    assert [r.points for r in result.rows] == [7, 6]  # 3 random, 3 edges, and a used twice
    bad = CheckResult("op-x", False, "other", "a <b> & 'c'", [Row("<i>", points=1)], seed=1)
    page = bad._repr_html_()
    assert "<b>" not in page.replace("<b>op-x", "") and "&lt;b&gt; &amp;" in page
    assert "&lt;i&gt;" in page


def test_a_class_a_module_and_a_function_can_be_checked(tmp_path):
    module = types.ModuleType("learner")
    exec(REFERENCE, module.__dict__)
    assert check("op-tanh", module.Value).passed
    assert check("zero-grad", module).passed
    exec("def tanh(self):\n    return Value(0.0, (self,), 'tanh')\n", module.__dict__)
    assert check("op-tanh", module.tanh).mistake == "wrong-forward"


def test_check_engine_gives_one_row_per_exercise(tmp_path):
    path = mutate(tmp_path, "self.grad += out.data * out.grad", "self.grad += self.data * out.grad")
    result = check_engine(path)
    parts = {p.exercise: p for p in result.parts}
    assert not result.passed and result.mistake == "wrong-operand"
    assert not parts["op-exp"].passed and parts["op-add"].passed and parts["backward"].passed
    assert "op-exp" in str(result)
    # the functions beside the class are checked too; softmax uses exp, so it fails with it
    assert parts["zero-grad"].passed and parts["derivative"].passed and parts["neuron-mlp"].passed
    assert not parts["softmax-nll"].passed and not any(p.startswith("predict") for p in parts)
    engine_only = write(tmp_path, solutions.stub("op-add"), "engine_only.py")
    assert "softmax-nll" not in {p.exercise for p in check_engine(engine_only).parts}


def test_importing_micrograd_does_not_load_practice():
    code = (
        "import sys, micrograd, micrograd.app.cli; print('micrograd.practice.checker' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


# ---------------------------------------------------------------------------- the command
def practice(cwd, *args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": lang}
    env.pop("LC_ALL", None)
    return subprocess.run(
        [sys.executable, "-m", "micrograd", "practice", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


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

    failed = run("check", "op-sub")
    assert failed.returncode == 1
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
    assert ("通过了 1 个" if zh else "1 of 18 exercises passed") in status.stdout
    revealed = run("reveal", "op-sub")
    assert revealed.returncode == 0 and "return self + (-other)" in revealed.stdout

    again = run("start", "op-sub")
    assert again.returncode == 1 and stub.read_text(encoding="utf-8") == fixed


def test_the_command_usage_errors_and_a_corrupt_progress_file(tmp_path):
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
        solutions.PARTS["exp"].split("\n", 2)[2].rstrip("\n"),
    ).splitlines(True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    result = check("op-exp", str(path))
    assert result.passed, result
