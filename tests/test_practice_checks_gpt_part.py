"""The check of the GPT track's parts on Values (micrograd.practice.checks.gpt_part): the classic
mistakes of linear, softmax, rmsnorm and one attention head, each named only where its numbers
are the learner's on every case, shown on the smallest case; other mistakes get the honest
general verdict, and right code in another style passes."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from micrograd.practice.reference import source
from test_practice import mutate, write

HEAD = "scores = [sum(qj * kj for qj, kj in zip(q, k)) / math.sqrt(d) for k in keys]"
APPEND = "        keys.append(linear(x, wk))\n        values.append(linear(x, wv))\n"


@pytest.mark.parametrize(
    "exercise, old, new, mistake, words",
    [
        (  # w's columns, not its rows
            "linear",
            "return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]",
            "return [sum(wi * xi for wi, xi in zip(col, x)) for col in zip(*w)]",
            "wrong-axis",
            "w's columns",
        ),
        (  # a dot product from .data: the right numbers, no graph to w
            "linear",
            "sum(wi * xi for",
            "sum(wi.data * xi for",
            "graph-cut",
            "does not reach `w[0][0]`",
        ),
        (  # exp(z - max) over a sum of unshifted exps
            "softmax",
            "total = sum(exps)",
            "total = sum(z.exp() for z in logits)",
            "wrong-forward",
            "over a sum of exp(z)",
        ),
        (  # the sum taken out of the graph: each probability reaches its own logit only
            "softmax",
            "total = sum(exps)",
            "total = sum(e.data for e in exps)",
            "graph-cut",
            "softmax([1, 2])[0]` has the right number",
        ),
        ("rmsnorm", "(ms + 1e-5) ** -0.5", "ms ** -0.5", "no-epsilon", "without the 1e-5"),
        (
            "rmsnorm",
            "sum(xi * xi for xi in x)",
            "sum(xi for xi in x)",
            "mean-not-square",
            "not of x ** 2",
        ),
        ("rmsnorm", "(ms + 1e-5) ** -0.5", "(ms + 1e-4) ** -0.5", "wrong-forward", "of 0.0001"),
        ("attention-head", "/ math.sqrt(d)", "", "no-scale", "without the division by sqrt(d)"),
        (  # every key and value first: each token sees the ones after it
            "attention-head",
            "    for x in xs:\n        q = linear(x, wq)\n" + APPEND,
            "    for x in xs:\n        keys.append(linear(x, wk))\n"
            "        values.append(linear(x, wv))\n    for x in xs:\n        q = linear(x, wq)\n",
            "sees-future",
            "later ones too",
        ),
        (  # the cache grows after attending: the first token has nothing to attend to
            "attention-head",
            APPEND + "        d = len(q)\n        " + HEAD + "\n",
            "        d = len(q)\n        " + HEAD + "\n" + APPEND,
            "cache-after",
            "raised ValueError",
        ),
        (  # the outputs weigh the keys
            "attention-head",
            "zip(weights, values)",
            "zip(weights, keys)",
            "wrong-forward",
            "the output sums the values",
        ),
    ],
)
def test_a_named_mistake_is_the_one_whose_numbers_are_the_learners(
    tmp_path, exercise, old, new, mistake, words
):
    result = check(exercise, mutate(tmp_path, old, new, source(exercise)), seed=3)
    assert not result.passed and result.mistake == mistake, result
    assert words in result.first_wrong_step, result.first_wrong_step


def test_the_softmax_over_the_wrong_axis_of_a_head_is_named(tmp_path):
    """The weights of each key normalised over the queries that see it, written as a learner
    with the whole sequence at hand would: each token's weights no longer sum to 1."""
    code = source("attention-head").replace(
        source("attention-head")[source("attention-head").index("def attention_head") :],
        """def attention_head(xs, wq, wk, wv):
    qs = [linear(x, wq) for x in xs]
    ks = [linear(x, wk) for x in xs]
    vs = [linear(x, wv) for x in xs]
    d = len(qs[0])
    n = len(xs)
    scores = [[sum(a * b for a, b in zip(qs[t], ks[s])) / d**0.5 for s in range(t + 1)]
              for t in range(n)]
    columns = {s: softmax([scores[t][s] for t in range(s, n)]) for s in range(n)}
    return [[sum(columns[s][t - s] * vs[s][j] for s in range(t + 1)) for j in range(d)]
            for t in range(n)]
""",
    )
    result = check("attention-head", write(tmp_path, code), seed=3)
    assert result.mistake == "wrong-axis" and "other axis" in result.first_wrong_step


def test_a_mistake_no_model_explains_gets_the_smallest_case_and_no_cause(tmp_path):
    """A dot product that drops its last term: no named mistake computes that, so the verdict
    says what was computed where, on the smallest case, and names nothing."""
    path = mutate(tmp_path, "zip(row, x)", "zip(row[:-1], x)", source("linear"))
    result = check("linear", path, seed=3)
    assert result.mistake == "wrong-forward"
    assert result.first_wrong_step == "`linear([1], [[1]])[0]` is 0; expected 1."


def test_an_output_list_filled_again_for_each_token_is_named(tmp_path):
    code = (
        source("attention-head")
        .replace("keys, values, outs = [], [], []", "keys, values, outs, out = [], [], [], []")
        .replace(
            "        outs.append([sum(a * v[j] for a, v in zip(weights, values)) for j in range(d)])",
            "        out[:] = [sum(a * v[j] for a, v in zip(weights, values)) for j in range(d)]\n"
            "        outs.append(out)",
        )
    )
    result = check("attention-head", write(tmp_path, code), seed=3)
    assert result.mistake == "wrong-forward" and "one and the same list" in result.first_wrong_step


@pytest.mark.parametrize(
    "exercise, old, new",
    [
        (
            "softmax",
            "exps = [(z - max_val).exp() for z in logits]",
            "exps = [z.exp() for z in logits]",
        ),
        (  # the max as a Value: its grad is 0 up to rounding, the shift cancels
            "softmax",
            "max_val = max(z.data for z in logits)",
            "max_val = max(logits, key=lambda z: z.data)",
        ),
        (
            "rmsnorm",
            "scale = (ms + 1e-5) ** -0.5",
            "scale = 1 / math.sqrt(ms.data + 1e-5) * 0 + (ms + 1e-5) ** -0.5",
        ),
        ("attention-head", "/ math.sqrt(d)", "* d**-0.5"),
    ],
)
def test_right_code_in_another_style_passes(tmp_path, exercise, old, new):
    result = check(exercise, mutate(tmp_path, old, new, source(exercise)), seed=3)
    assert result.passed, result


def test_each_language_says_the_same_verdict(tmp_path):
    path = mutate(tmp_path, "/ math.sqrt(d)", "", source("attention-head"))
    en, zh = check("attention-head", path, seed=3), check("attention-head", path, seed=3, lang="zh")
    assert en.mistake == zh.mistake == "no-scale"
    assert "sqrt(d)" in zh.first_wrong_step and "没有除以" in zh.first_wrong_step


@pytest.mark.parametrize(
    "returned",
    [
        "None",
        "3",
        "'probs'",
        "{}",
        "[None]",
        "(z for z in logits)",
        "[[z] for z in logits]",
        "[float('nan') for z in logits]",
        "[complex(1, 1) for z in logits]",
        "[type('Fake', (), {'data': 1.0})() for z in logits]",
        "[logits[0]] * len(logits)",
        "logits",
    ],
)
def test_whatever_the_learners_part_returns_the_verdict_is_a_verdict(tmp_path, returned):
    """The checker's own code never raises, whatever comes back from the learner's code."""
    code = source("softmax").replace(
        "    return [e / total for e in exps]", f"    return {returned}"
    )
    result = check("softmax", write(tmp_path, code), seed=3)
    assert not result.passed and result.first_wrong_step and "Traceback" not in str(result)
