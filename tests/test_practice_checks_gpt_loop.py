"""The check of train_step, microgpt's training step (micrograd.practice.checks.gpt_loop): its
classic mistakes named where their numbers are the learner's after every step; state kept from one
run to the next found by running again; and the reference's training, the file run as a learner
runs it, is microgpt's (the engine's GPT trained the same way gives the same losses)."""

from __future__ import annotations

import random

import pytest

from micrograd.practice import check
from micrograd.practice.reference import gpt as reference
from micrograd.practice.reference import source
from test_practice import mutate

LOOP = source("gpt-loop")
LR = "lr=lr * (1 - step / num_steps)"


@pytest.mark.parametrize(
    "old, new, mistake, words",
    [
        (
            "loss = sum(losses) / n",
            "loss = sum(losses)",
            "wrong-forward",
            "the sum of the positions",
        ),
        ("tokens[pos + 1]].log()", "tokens[pos]].log()", "wrong-forward", "the token just read"),
        (LR, "lr=lr", "wrong-update", "a constant learning rate"),
        (LR, "lr=lr * (1 - (step + 1) / num_steps)", "wrong-update", "one step ahead"),
        (
            "    loss.backward()\n    adam_step(params, m, v, step, " + LR + ")",
            "    adam_step(params, m, v, step, " + LR + ")\n    loss.backward()",
            "wrong-update",
            "adam_step before loss.backward()",
        ),
        (
            "    return loss.data\n\n\nif",
            "    return loss\n\n\nif",
            "other",
            "return the loss's number",
        ),
    ],
)
def test_a_named_mistake_is_the_one_whose_numbers_are_the_learners(
    tmp_path, old, new, mistake, words
):
    result = check("gpt-loop", mutate(tmp_path, old, new, LOOP), seed=1)
    assert not result.passed and result.mistake == mistake, result
    assert words in result.first_wrong_step, result.first_wrong_step


def test_a_cache_kept_outside_the_step_is_state_kept(tmp_path):
    code = LOOP.replace(
        "    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]\n",
        "    keys, values = CACHE\n",
    ).replace("def train_step(", "CACHE = [[]], [[]]\n\n\ndef train_step(")
    result = check("gpt-loop", mutate(tmp_path, "", "", code), seed=1)
    assert not result.passed and result.mistake in ("state-kept", "wrong-forward"), result


def test_the_reference_step_trains_as_the_engines_gpt_does():
    """Five steps of the reference's train_step on the chapter's names and model give the losses
    of micrograd.gpt.GPT trained by train_gpt (the file's own training runs 100 of them)."""
    from micrograd.app.train import train_gpt
    from micrograd.data import CharTokenizer, names
    from micrograd.gpt import GPT

    state = random.getstate()
    docs = names()
    random.seed(1337)
    random.shuffle(docs)
    tokenizer = CharTokenizer(docs)
    random.seed(1337)
    want = train_gpt(GPT(tokenizer.vocab_size), tokenizer, docs, steps=5, backend="eager")
    random.seed(1337)
    sd = reference.init_model(tokenizer.vocab_size)
    params = [p for matrix in sd.values() for row in matrix for p in row]
    m, v = [0.0] * len(params), [0.0] * len(params)
    got = [
        reference.train_step(sd, params, tokenizer.encode(docs[s]), m, v, s, 5) for s in range(5)
    ]
    random.setstate(state)
    assert got == pytest.approx(want, rel=1e-12)


@pytest.mark.slow
@pytest.mark.measured  # 100 steps of microgpt in plain Python: 15 s, in CI's step of its own
def test_the_passing_file_run_as_a_learner_runs_it_trains_below_a_mean_loss_of_2_6(tmp_path):
    """What the exercise promises: its file with a right train_step, run with python, trains
    microgpt's model on 100 names to a mean loss of the last 50 below 2.6."""
    import subprocess
    import sys

    path = tmp_path / "gpt-loop.py"
    path.write_text(LOOP, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=300, check=True
    )
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("the mean loss of the last 50 names: ") and last.endswith("(below 2.6)")
    assert float(last.split(": ")[1].split()[0]) < 2.6


def test_one_cache_list_for_every_layer_fails_on_the_two_layers_the_check_steps(tmp_path):
    code = LOOP.replace(
        "    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]\n",
        "    keys, values = [[]] * n_layer, [[]] * n_layer\n",
    )
    assert code != LOOP
    result = check("gpt-loop", mutate(tmp_path, "", "", code), seed=1)
    assert not result.passed and "`loss` is" in result.first_wrong_step, result
