"""The check of softmax and nll (micrograd.practice.checks.softmax): its mistakes, and its own
oracle, micrograd's grads p - onehot."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from micrograd.practice.reference import source
from test_practice import mutate, write

SOFTMAX = source("softmax-nll")


@pytest.mark.parametrize(
    "old, new, mistake, words",
    [
        (  # the lecture's exp with its closure never attached
            'out = Value(math.exp(self.data), (self,), "exp")',
            'out = Value(math.exp(self.data), (self,), "exp")\n        return out',
            "closure-not-attached",
            "exp(logits[",
        ),
        (  # the denominator is the sum of the logits, not of their exps
            "denominator = sum(counts)",
            "denominator = sum(logits)",
            "wrong-forward",
            "softmax(logits)[0] is",
        ),
        (  # nll without the minus sign
            "return -probs[target].log()",
            "return probs[target].log()",
            "wrong-forward",
            "nll(probs,",
        ),
        (  # a float denominator: right numbers, a graph cut at the sum
            "denominator = sum(counts)",
            "denominator = sum(c.data for c in counts)",
            "graph-cut",
            "its graph does not reach logits[",
        ),
        (  # exp's closure overwrites: the denominator uses each count, so += matters
            "self.grad += out.data * out.grad",
            "self.grad = out.data * out.grad",
            "assign-not-add",
            "logits[0]",
        ),
    ],
)
def test_softmax_mistakes_are_named(tmp_path, old, new, mistake, words):
    result = check("softmax-nll", mutate(tmp_path, old, new, SOFTMAX))
    assert not result.passed and result.mistake == mistake, result
    assert words in result.first_wrong_step, result.first_wrong_step


def test_softmax_grads_are_probs_minus_one_hot(tmp_path):
    """micrograd's grads, which the check compares with, are p - onehot: the check's own oracle
    is right."""
    from micrograd.engine import Value

    logits = [Value(x) for x in (0.0, 3.0, -2.0, 1.0)]
    counts = [z.exp() for z in logits]
    total = sum(counts)
    probs = [c / total for c in counts]
    (-probs[3].log()).backward()
    for i, (z, p) in enumerate(zip(logits, probs)):
        assert z.grad == pytest.approx(p.data - (i == 3), abs=1e-15)
    result = check("softmax-nll", write(tmp_path, SOFTMAX))
    assert result.passed and [r.points for r in result.rows] == [8, 8, 7, 7]


@pytest.mark.parametrize(
    "old, new, words",
    [
        (  # softmax on numbers: the graph is cut
            "counts = [logit.exp() for logit in logits]",
            "counts = [math.exp(logit.data) for logit in logits]",
            "`softmax(logits)` returned a float, not a Value",
        ),
        (  # nll on a number
            "return -probs[target].log()",
            "return -math.log(probs[target].data)",
            "`nll(probs, target)` returned a float, not a Value",
        ),
    ],
)
def test_softmax_or_nll_returning_floats_is_named(tmp_path, old, new, words):
    """A float where a Value belongs is a cut graph, and its tag says so."""
    result = check("softmax-nll", mutate(tmp_path, old, new, SOFTMAX))
    assert not result.passed and result.mistake == "graph-cut"
    assert result.first_wrong_step.startswith(words + ": a number taken out of the graph")
    zh = check("softmax-nll", mutate(tmp_path, old, new, SOFTMAX), lang="zh")
    assert "返回的是 float，不是 Value" in zh.first_wrong_step
