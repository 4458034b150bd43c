"""The check of Neuron, Layer and MLP (micrograd.practice.checks.mlp): a missing bias and a
missing activation are named."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from test_practice import REFERENCE, mutate, write


def test_neuron_mistakes(tmp_path):
    no_bias = check("neuron-mlp", mutate(tmp_path, "return self.w + [self.b]", "return self.w"))
    assert no_bias.mistake == "param-count" and "expected 4" in no_bias.first_wrong_step
    for seed in range(8):  # at any weights: a linear neuron is never taken for relu
        no_act = check(
            "neuron-mlp",
            mutate(tmp_path, "        return act.tanh()", "        return act"),
            seed=seed,
        )
        assert no_act.mistake == "wrong-forward"
        assert "w·x + b itself: the activation is missing" in no_act.first_wrong_step


@pytest.mark.parametrize(
    "old, new, mistake, words",
    [
        (
            "        return [p for n in self.neurons for p in n.parameters()]",
            "        return [n.parameters() for n in self.neurons]",
            "nested-params",
            "one flat list of Values",
        ),
        (
            "        return outs[0] if len(outs) == 1 else outs",
            "        return outs",
            "list-output",
            "returns that Value itself",
        ),
        (
            "        return self.w + [self.b]",
            "        return [self.b] + self.w",
            "param-order",
            "w then b",
        ),
        (  # one weight Value repeated in a neuron
            "self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]",
            "self.w = [Value(random.uniform(-1, 1))] * nin",
            "shared-neuron",
            "[Value(...)] * nin",
        ),
    ],
)
def test_network_mistakes_are_named(tmp_path, old, new, mistake, words):
    result = check("neuron-mlp", mutate(tmp_path, old, new))
    assert result.mistake == mistake, result
    assert words in result.first_wrong_step


def test_weights_left_as_floats_are_named(tmp_path):
    floats = mutate(
        tmp_path,
        "self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]",
        "self.w = [random.uniform(-1, 1) for _ in range(nin)]",
    )
    result = check("neuron-mlp", floats)
    assert result.first_wrong_step == (
        "`Neuron(3).parameters()[0]` is a float, not a Value: wrap the weights and the bias in "
        "Value()"
    )
    assert check("neuron-mlp", floats, lang="zh").first_wrong_step.startswith(
        "`Neuron(3).parameters()[0]` 是 float，不是 Value"
    )


FAILS_WHILE_TRAINING = """
CALLS = [0]


class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        CALLS[0] += 1
        print("neuron", CALLS[0])
        assert CALLS[0] < 500, "too many calls"
"""


def test_an_error_while_training_is_a_verdict(tmp_path):
    old = """
class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
"""
    result = check("neuron-mlp", mutate(tmp_path, old, FAILS_WHILE_TRAINING))
    assert result.first_wrong_step == (
        "`training MLP(2, [8, 8, 1])` raised AssertionError: too many calls"
    )


def test_one_neuron_repeated_in_a_layer_is_named(tmp_path):
    result = check(
        "neuron-mlp",
        mutate(
            tmp_path,
            "self.neurons = [Neuron(nin) for _ in range(nout)]",
            "self.neurons = [Neuron(nin)] * nout",
        ),
        lang="zh",
    )
    assert result.mistake == "shared-neuron"
    assert result.first_wrong_step.startswith("parameters() 里同样的 Value 重复出现了 8 次")


def test_training_is_checked_step_by_step_against_the_engine(tmp_path):
    result = check("neuron-mlp", write(tmp_path, REFERENCE), lang="zh")
    assert result.passed
    (note,) = result.notes
    assert note.startswith("moons：6 步里损失从 ") and note.endswith("和 micrograd 的引擎一样")
    first, last = (float(x) for x in note.split("从 ")[1].split("，")[0].split(" 降到 "))
    assert last < first
    # a step that updates the weights by a different rule than the check's loop is caught: the
    # learner's parameters() leaves one weight out of the list the loop updates
    missed = check(
        "neuron-mlp",
        mutate(tmp_path, "        return self.w + [self.b]", "        return [self.b] + self.w"),
    )
    assert not missed.passed
