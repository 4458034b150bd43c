"""Practice mode as a whole (micrograd.practice, micrograd.practice.checker): every reference
solution passes its own check and every stub fails it, check() takes code in each form, a seed
replays a run, check_engine() gives one row per exercise, and the package has no import circle.
The helpers here are shared by the other tests/test_practice_*.py files."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import types

import pytest

from micrograd.practice import EXERCISES, check, check_engine
from micrograd.practice import reference as references
from micrograd.practice.checks.predict import asked
from micrograd.practice.reference import derivative as reference_derivative
from micrograd.practice.reference import engine as reference_engine
from micrograd.practice.reference import gpt as reference_gpt

REFERENCE = references.source()
PRACTICE = os.path.join(os.path.dirname(__file__), "..", "src", "micrograd", "practice")


def write(tmp_path, text: str, name: str = "mine.py") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def mutate(tmp_path, old: str, new: str, source: str = REFERENCE) -> str:
    """The reference engine (or `source`) with one mistake put in."""
    assert old in source, old
    return write(tmp_path, source.replace(old, new))


def practice(
    cwd, *args: str, lang: str = "C.UTF-8", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`micrograd practice ARGS` run in `cwd` under the locale `lang` (and `env`)."""
    env = {**os.environ, "LANG": lang, **(env or {})}
    env.pop("LC_ALL", None)
    return subprocess.run(
        [sys.executable, "-m", "micrograd", "practice", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


# ---------------------------------------------------------------------------- the references
@pytest.mark.parametrize("exercise", list(EXERCISES))
def test_the_reference_passes_every_exercise(tmp_path, exercise):
    if EXERCISES[exercise].kind == "predict":  # answers, not code: the engine's own numbers
        result = check(exercise, [q.added for q in asked(exercise)])
    elif EXERCISES[exercise].track == "lecture":
        result = check(exercise, write(tmp_path, REFERENCE))
    else:  # the GPT track's file: microgpt's Value and the parts so far
        result = check(exercise, write(tmp_path, references.source(exercise)))
    assert result.passed, result
    assert result.mistake is None and result.first_wrong_step is None
    assert all(row.close == row.points for row in result.rows)


@pytest.mark.parametrize("exercise", [id for id, ex in EXERCISES.items() if ex.kind != "predict"])
def test_the_imported_reference_module_passes_its_exercise(exercise):
    """The reference files themselves, imported as modules (markers and TODO comments in them),
    pass as the text cut from them does."""
    module = reference_derivative if exercise == "derivative" else reference_engine
    result = check(exercise, reference_gpt if EXERCISES[exercise].track == "gpt" else module)
    assert result.passed, result


@pytest.mark.parametrize("exercise", list(EXERCISES))
def test_every_stub_fails_its_own_check(tmp_path, exercise):
    if EXERCISES[exercise].kind == "predict":  # its stub is a quiz page: no answers yet
        result = check(exercise, [])
        assert not result.passed and result.mistake == "other"
        return
    result = check(exercise, write(tmp_path, references.stub(exercise)))
    assert not result.passed and result.mistake == "not-written"
    assert "is not written yet (it raises NotImplementedError)" in result.first_wrong_step


# ---------------------------------------------------------------------------- check()
def test_random_points_are_drawn_at_check_time_and_a_seed_replays_them(tmp_path):
    path = write(tmp_path, REFERENCE)
    seeds = {check("op-mul", path).seed for _ in range(3)}
    assert len(seeds) == 3
    bad = mutate(tmp_path, "self.grad += other.data * out.grad", "self.grad += 2 * out.grad")
    first = check("op-mul", bad, seed=12345)
    assert check("op-mul", bad, seed=12345).first_wrong_step == first.first_wrong_step
    assert "12345" in str(first)


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
    assert not result.passed and result.mistake == "input-output-swapped"
    assert not parts["op-exp"].passed and parts["op-add"].passed and parts["backward"].passed
    assert "op-exp" in str(result)
    # the functions beside the class are checked too; softmax uses exp, so it fails with it
    assert parts["zero-grad"].passed and parts["derivative"].passed and parts["neuron-mlp"].passed
    assert not parts["softmax-nll"].passed and not any(p.startswith("predict") for p in parts)
    engine_only = write(tmp_path, references.stub("op-add"), "engine_only.py")
    assert "softmax-nll" not in {p.exercise for p in check_engine(engine_only).parts}


def test_importing_micrograd_does_not_load_practice():
    code = "import sys, micrograd, micrograd.app.cli; print('micrograd.practice.checker' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


# ---------------------------------------------------------------------------- the imports
def _modules() -> dict[str, str]:
    """{module name: path} of every module of micrograd.practice."""
    found = {}
    for folder, _, files in os.walk(PRACTICE):
        for name in files:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), os.path.dirname(PRACTICE))
                dotted = "micrograd." + rel[: -len(".py")].replace(os.sep, ".")
                found[dotted.removesuffix(".__init__")] = os.path.join(folder, name)
    return found


def _imports(path: str, modules: dict[str, str]) -> set[str]:
    """The micrograd.practice modules a file imports, at module level or inside a function; the
    packages around an imported module count too, since importing it runs their __init__."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names |= {
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                for a in node.names
            }
    reached = set()
    for name in names:
        parts = name.split(".")
        reached |= {".".join(parts[:i]) for i in range(2, len(parts) + 1)}
    return reached & set(modules)


def test_the_practice_package_has_no_import_circle():
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    # the walk sees what it must: the dispatcher reaches the checks, the checks the sandbox
    assert "micrograd.practice.checks" in graph["micrograd.practice.checker"]
    assert "micrograd.practice.sandbox" in graph["micrograd.practice.checks.op"]
    assert "micrograd.practice.checks.op" in graph["micrograd.practice.checks"]
    circles = []

    def visit(name: str, path: list[str]) -> None:
        for target in sorted(graph[name]):
            if target in path:
                circles.append(path[path.index(target) :] + [target])
            elif target not in done:
                visit(target, [*path, target])
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    assert circles == [], circles
