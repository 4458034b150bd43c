"""The check of adam_step (micrograd.practice.checks.adam): the classic mistakes of an Adam step,
each named only where its numbers are the learner's after every call; state kept from an earlier
run is found by running again from a fresh start."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from micrograd.practice.reference import source
from test_practice import mutate

ADAM = source("adam-step")
BIAS = "m_hat = m[i] / (1 - beta1 ** (step + 1))\n        v_hat = v[i] / (1 - beta2 ** (step + 1))"


@pytest.mark.parametrize(
    "old, new, mistake, words",
    [
        (BIAS, "m_hat = m[i]\n        v_hat = v[i]", "no-bias-correction", "without the bias"),
        (
            "* p.grad\n        v[i] = beta2 * v[i] + (1 - beta2) * p.grad**2",
            "* p.grad**2\n        v[i] = beta2 * v[i] + (1 - beta2) * p.grad",
            "moments-swapped",
            "m following the grad squared",
        ),
        ("        p.grad = 0\n", "\n", "not-reset", "set p.grad = 0"),
        ("p.data -= lr", "p.data += lr", "update-sign", "up the gradient"),
        ("(v_hat**0.5 + eps)", "(v_hat + eps) ** 0.5", "wrong-update", "sqrt(v_hat + eps)"),
        ("beta1 ** (step + 1)", "beta1 ** step", "wrong-update", "raised ZeroDivisionError"),
        (  # the moments computed but never written back
            "m[i] = beta1 * m[i] + (1 - beta1) * p.grad\n        v[i] = beta2 * v[i] + (1 - beta2) "
            "* p.grad**2\n        m_hat = m[i]",
            "mi = beta1 * m[i] + (1 - beta1) * p.grad\n        vi = beta2 * v[i] + (1 - beta2) "
            "* p.grad**2\n        m_hat = mi",
            "moments-not-kept",
            "start from 0 at every call",
        ),
    ],
)
def test_a_named_mistake_is_the_one_whose_numbers_are_the_learners(
    tmp_path, old, new, mistake, words
):
    code = ADAM.replace("v_hat = v[i] /", "v_hat = vi /") if "mi =" in new else ADAM
    result = check("adam-step", mutate(tmp_path, old, new, code), seed=1)
    assert not result.passed and result.mistake == mistake, result
    assert words in result.first_wrong_step, result.first_wrong_step


def test_a_step_counted_by_the_function_itself_is_state_kept_between_runs(tmp_path):
    path = mutate(
        tmp_path,
        "def adam_step(params, m, v, step, lr=0.01, beta1=0.85, beta2=0.99, eps=1e-8):",
        "def adam_step(params, m, v, step, lr=0.01, beta1=0.85, beta2=0.99, eps=1e-8, t=[0]):\n"
        "    step = t[0]\n    t[0] += 1",
        ADAM,
    )
    result = check("adam-step", path, seed=1)
    assert result.mistake == "state-kept" and "Run 2" in result.first_wrong_step


def test_the_reference_passes_and_says_what_was_compared():
    from micrograd.practice.reference import gpt

    result = check("adam-step", gpt)
    assert result.passed and "2 runs" not in str(result) and "data, m, v" in str(result)
