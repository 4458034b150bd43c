"""The check of Neuron, Layer and MLP (micrograd.practice.checks.mlp): a missing bias and a
missing activation are named."""

from __future__ import annotations

from micrograd.practice import check
from test_practice import mutate


def test_neuron_mistakes(tmp_path):
    no_bias = check("neuron-mlp", mutate(tmp_path, "return self.w + [self.b]", "return self.w"))
    assert no_bias.mistake == "other" and "expected 4" in no_bias.first_wrong_step
    no_act = check(
        "neuron-mlp", mutate(tmp_path, "        return act.tanh()", "        return act")
    )
    assert no_act.mistake == "wrong-forward"
