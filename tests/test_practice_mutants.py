"""The practice checks measured by mutation: every mutant of each exercise's reference solution
(tests/mutants.py: `+=` made `=`, a factor dropped, operands swapped, a number changed, a
statement deleted, ...) that computes another number on some input fails its check with a named
verdict, never a traceback; the mutants that pass are listed below, each with why it is
equivalent. Run as a script, this prints the score per exercise."""

from __future__ import annotations

import sys

import pytest

from micrograd.practice import check, sandbox
from micrograd.practice.exercises import EXERCISES
from micrograd.practice.result import MISTAKES
from mutants import Mutant, changed_line, mutants

CODE = [ex for ex, e in EXERCISES.items() if e.kind != "predict"]

# (exercise, the mutant's changed line) -> why it computes the same numbers as the reference
EQUIVALENT = {
    (
        "derivative",
        "return [-3 * a ** 2 - 0.5 * a ** (-0.5), 3 * math.cos(-3 * b) + 2.5 * b ** 1.5, 1.0 / c ** 2]",
    ): "cos is even",
    ("op-add", "self.grad += out.grad"): "1.0 * g is g",
    ("op-add", "other.grad += out.grad"): "1.0 * g is g",
    (
        "op-pow",
        "return other._pow_value(other)",
    ): "a Value exponent: op-pow-value's branch, never taken here",
    (
        "op-pow",
        "return out._pow_value(other)",
    ): "a Value exponent: op-pow-value's branch, never taken here",
    (
        "op-pow",
        "out = Value(self.data ** other, (self,), f'**{other}')",
    ): "the Value-exponent branch deleted: never taken here",
    ("op-pow", "pass"): "the Value-exponent branch's return deleted: never taken here",
    (
        "op-relu",
        "out = Value(0 if self.data <= 0 else self.data, (self,), 'ReLU')",
    ): "relu(0) is 0 either way",
    (
        "op-relu",
        "self.grad += (self.data > 0) * out.grad",
    ): "out.data > 0 exactly where self.data > 0",
    (
        "zero-grad",
        "pass",
    ): "zero_grad_all without `seen` visits a shared node once per path: the same zeros, more slowly",
}
# neuron-mlp: any range for the weights' and bias's random start is a network; the exercise does
# not fix one, and the check reads the weights the learner's network has
RANDOM_START = ("self.w = [Value(random.uniform(", "self.b = Value(random.uniform(")


def equivalent(m: Mutant) -> str | None:
    """Why the mutant is equivalent to the reference, or None."""
    line = changed_line(m)
    if m.exercise == "neuron-mlp" and line.startswith(RANDOM_START):
        return "another random start"
    return EQUIVALENT.get((m.exercise, line))


def run(m: Mutant, folder: str) -> tuple[bool, str | None, str]:
    """(passed, mistake, first wrong step) of the mutant's check at a fixed seed."""
    path = f"{folder}/{m.exercise}.py"
    with open(path, "w", encoding="utf-8") as f:
        f.write(m.source)
    result = check(m.exercise, path, seed=7)
    return result.passed, result.mistake, result.first_wrong_step or ""


@pytest.mark.slow
@pytest.mark.measured  # a minute of checks: CI runs it in a step of its own
@pytest.mark.parametrize("exercise", CODE)
def test_every_mutant_that_computes_another_number_fails_with_a_named_verdict(
    exercise, tmp_path, monkeypatch
):
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 2.0)  # a mutant that loops for ever, soon
    made = mutants(exercise)
    assert len(made) >= 2, exercise
    survivors = []
    for m in made:
        passed, mistake, step = run(m, str(tmp_path))
        if passed:
            survivors.append((changed_line(m), equivalent(m)))
            continue
        assert mistake in MISTAKES and step, (m.operator, m.line, mistake)
        assert "Traceback" not in step, step
    assert [line for line, why in survivors if why is None] == [], exercise


def main() -> None:
    """The score per exercise: mutants killed of those not equivalent, and the equivalent ones."""
    import tempfile

    sandbox.TIME_LIMIT = 2.0
    with tempfile.TemporaryDirectory() as folder:
        for exercise in CODE:
            made = mutants(exercise)
            passed = [m for m in made if run(m, folder)[0]]
            same = [m for m in passed if equivalent(m)]
            counted = len(made) - len(same)
            killed = counted - (len(passed) - len(same))
            print(f"{exercise:14} {killed}/{counted} killed, {len(same)} equivalent", flush=True)


if __name__ == "__main__":
    sys.exit(main())
