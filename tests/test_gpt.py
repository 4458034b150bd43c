"""The GPT of micrograd.nn (microgpt's): its cache, its initialisation and sampling, microgpt's
training step, its errors, and saving and loading it with its tokenizer (its PyTorch twin is in
test_torch_oracle.py)."""

import json
import math
import random

import pytest

from micrograd.app.tasks import NextToken
from micrograd.app.train import BETAS, EPS, Trainer, fit, train_gpt
from micrograd.data import CharTokenizer, names
from micrograd.engine import Value
from micrograd.gpt import GPT, Embedding, Linear, rmsnorm, softmax
from micrograd.io import gpt_to_json, load, load_gpt, save, save_gpt
from micrograd.modes import no_grad
from micrograd.nn import MLP
from micrograd.optim import SGD, Adam

TOKENIZER = CharTokenizer(names())


def test_the_cache_reads_a_token_at_a_time_and_a_prefix_sees_no_later_token():
    random.seed(1)
    model = GPT(TOKENIZER.vocab_size)
    tokens = TOKENIZER.encode("isabella")
    whole = [[z.data for z in row] for row in model.forward(tokens)]
    cache = model.new_cache()
    for pos, t in enumerate(tokens[:4]):
        assert len(cache) == pos
        assert [z.data for z in model(t, cache)] == whole[pos]  # the same bits as the whole
    assert all(len(keys) == 4 for keys in cache.keys + cache.values)
    assert [[z.data for z in row] for row in model.forward(tokens[:3])] == whole[:3]


def test_random_seed_reproduces_microgpts_weights_in_its_order():
    random.seed(42)
    model = GPT(27)
    random.seed(42)
    drawn = [random.gauss(0, 0.08) for _ in range(len(model.parameters()))]
    assert [p.data for p in model.parameters()] == drawn
    assert len(drawn) == 4192  # microgpt's "num params: 4192"
    named = [n for n, _ in model.named_parameters()]
    assert named[0] == "wte.weight.0.0" and named[27 * 16] == "wpe.weight.0.0"
    assert named[27 * 16 + 16 * 16] == "lm_head.weight.0.0"
    assert named[-1] == "layers.0.mlp.fc2.weight.15.63" and len(set(named)) == len(named)
    assert [p for _, p in model.named_parameters()] == model.parameters()
    random.seed(42)
    assert GPT(27).state_dict() == model.state_dict()
    random.seed(43)
    assert GPT(27).state_dict() != model.state_dict()


def test_sampling_is_reproducible_and_stops_at_bos():
    random.seed(2)
    tok = CharTokenizer(["abcd"])
    model = GPT(tok.vocab_size, block_size=8, n_embd=4, n_head=2)
    first = [model.sample(tok, rng=random.Random(5)) for _ in range(3)]
    assert first == [model.sample(tok, rng=random.Random(5)) for _ in range(3)]
    rng = random.Random(5)
    drawn = [model.sample(tok.bos, temperature=2.0, rng=rng) for _ in range(20)]
    assert all(len(d) <= model.block_size and tok.bos not in d for d in drawn)
    assert any(len(d) < model.block_size for d in drawn)  # some stopped at BOS
    assert any(len(d) == model.block_size for d in drawn)  # and some ran to the block's end
    random.seed(9)
    a = model.sample(tok)  # Python's random by default, as microgpt
    random.seed(9)
    assert model.sample(tok) == a


def test_microgpts_training_step_by_hand():
    """train_gpt is microgpt's loop: Adam(0.85, 0.99, 1e-8) at lr * (1 - step / steps), as
    microgpt writes it out."""
    docs = ["ab", "ba", "abc"]
    tok = CharTokenizer(docs)
    random.seed(3)
    model = GPT(tok.vocab_size, block_size=4, n_embd=4, n_head=2)
    random.seed(3)
    twin = GPT(tok.vocab_size, block_size=4, n_embd=4, n_head=2)
    losses = train_gpt(model, tok, docs, steps=3, lr=0.01)
    params = twin.parameters()
    m, v = [0.0] * len(params), [0.0] * len(params)
    (beta1, beta2), lr, expected = BETAS, 0.01, []
    for step in range(3):
        loss = twin.loss(tok.encode(docs[step % len(docs)]))
        loss.backward()
        expected.append(loss.data)
        lr_t = lr * (1 - step / 3)
        for i, p in enumerate(params):
            m[i] = beta1 * m[i] + (1 - beta1) * p.grad
            v[i] = beta2 * v[i] + (1 - beta2) * p.grad**2
            m_hat = m[i] / (1 - beta1 ** (step + 1))
            v_hat = v[i] / (1 - beta2 ** (step + 1))
            p.data -= lr_t * m_hat / (v_hat**0.5 + EPS)
            p.grad = 0
    assert losses == pytest.approx(expected, rel=1e-12)
    for p, q in zip(model.parameters(), params):
        assert p.data == pytest.approx(q.data, rel=1e-9, abs=1e-15)


def test_the_building_blocks():
    random.seed(4)
    emb, lin = Embedding(3, 2), Linear(2, 3)
    assert len(emb(2)) == 2 and len(lin(emb(0))) == 3
    assert len(emb.parameters()) == 6 and len(lin.parameters()) == 6
    x = rmsnorm([lin.weight[0][0], lin.weight[0][1]])
    assert sum(v.data**2 for v in x) / 2 == pytest.approx(1, rel=1e-3)
    probs = softmax([emb.weight[0][0], emb.weight[0][1] + 800.0, emb.weight[1][0]])  # no overflow
    assert sum(p.data for p in probs) == pytest.approx(1) and probs[1].data == pytest.approx(1)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda m: m.loss([26, 27, 26]), "token 27 is out of range 0..26"),
        (lambda m: m.loss([26, -1]), "token -1 is out of range"),
        (lambda m: m.loss([26, True]), "a token must be an integer id, got True"),
        (lambda m: m.loss([26, "a"]), "got 'a'"),
        (lambda m: m.loss([]), "at least 2 tokens"),
        (lambda m: m.loss([26]), "at least 2 tokens (an input and its next), got [26]"),
        (lambda m: m.forward([]), "needs 1 to block_size=16 tokens, got 0"),
        (lambda m: m.forward([0] * 17), "needs 1 to block_size=16 tokens, got 17"),
        (lambda m: m.sample(27), "bos 27 is out of range"),
        (lambda m: m.sample(26, temperature=0), "temperature must be a number above 0, got 0"),
        (lambda m: m.sample(26, temperature=math.inf), "temperature must be a number above 0"),
        (lambda m: GPT(27, n_embd=10, n_head=4), "n_embd=10 must be a multiple of n_head=4"),
        (lambda m: GPT(0), "vocab_size must be a positive integer, got 0"),
        (lambda m: GPT(27, block_size=2.5), "block_size must be a positive integer, got 2.5"),
        (lambda m: m.wte(27), "index must be an integer in 0..26, got 27"),
        (lambda m: m.lm_head([1.0]), "Linear(16, 27) expects 16 inputs, got 1"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_value(call, words):
    random.seed(5)
    model = GPT(27)
    with pytest.raises(ValueError) as e:
        call(model)
    assert words in str(e.value)


def test_a_full_cache_refuses_the_next_position():
    random.seed(6)
    model = GPT(5, block_size=2, n_embd=4, n_head=2)
    cache = model.new_cache()
    model(4, cache)
    model(0, cache)
    with pytest.raises(ValueError, match="longer than block_size=2: no position 2"):
        model(1, cache)
    with pytest.raises(ValueError, match="a cache of 3 layers"):
        model(1, GPT(5, block_size=2, n_layer=3, n_embd=4, n_head=2).new_cache())


def test_save_and_load_round_trip(tmp_path):
    random.seed(7)
    model = GPT(TOKENIZER.vocab_size, block_size=8, n_layer=2, n_embd=8, n_head=2)
    path = tmp_path / "gpt.json"
    save_gpt(model, TOKENIZER, path)
    state = random.getstate()
    loaded, tok = load_gpt(path)
    assert random.getstate() == state  # loading draws no number the caller would miss
    assert loaded.config == model.config and loaded.state_dict() == model.state_dict()
    assert tok.chars == TOKENIZER.chars and tok.bos == TOKENIZER.bos
    assert loaded.sample(tok, rng=random.Random(1)) == model.sample(TOKENIZER, rng=random.Random(1))
    doc = json.loads(path.read_text())
    assert doc["architecture"] == {"type": "GPT", **model.config}
    assert doc["tokenizer"] == {"type": "characters", "chars": "abcdefghijklmnopqrstuvwxyz"}


def _edit(doc, **changes):
    out = json.loads(json.dumps(doc))
    for key, value in changes.items():
        part, _, field = key.partition("__")
        if field:
            out[part][field] = value
        else:
            out[part] = value
    return json.dumps(out)


@pytest.fixture(scope="module")
def gpt_doc():
    random.seed(8)
    tok = CharTokenizer(["abc"])
    return gpt_to_json(GPT(tok.vocab_size, block_size=3, n_embd=4, n_head=2), tok)


CORRUPT = {
    "truncated": (lambda d: json.dumps(d)[:500], "not valid JSON"),
    "NaN": (
        lambda d: json.dumps(d).replace(str(d["parameters"]["wte.weight.0.0"]), "NaN", 1),
        "NaN is not allowed",
    ),
    "a string": (
        lambda d: _edit(d, parameters={**d["parameters"], "wte.weight.0.0": "1"}),
        "parameter 'wte.weight.0.0' is '1', not a finite number",
    ),
    "one missing": (
        lambda d: _edit(d, parameters=dict(list(d["parameters"].items())[1:])),
        "n_embd=4, n_head=2) has 236 parameters, the file 235",
    ),
    "renamed": (
        lambda d: _edit(
            d,
            parameters={
                ("x" if k == "wte.weight.0.0" else k): v for k, v in d["parameters"].items()
            },
        ),
        "unexpected ['x']",
    ),
    "vocab": (lambda d: _edit(d, architecture__vocab_size=5), "but vocab_size is 5"),
    "heads": (lambda d: _edit(d, architecture__n_head=3), "n_embd=4 is not a multiple of n_head=3"),
    "zero layers": (lambda d: _edit(d, architecture__n_layer=0), "n_layer must be an integer >= 1"),
    "unsorted": (lambda d: _edit(d, tokenizer__chars="cba"), "distinct characters in sorted order"),
    "no tokenizer": (lambda d: _edit(d, tokenizer=None), "tokenizer must be"),
    "an MLP": (
        lambda d: _edit(d, architecture={"type": "MLP"}),
        'architecture must be {"type": "GPT"',
    ),
    "huge": (
        lambda d: _edit(d, architecture__n_embd=2**16, architecture__n_head=1),
        "more than this format's 10,000,000",
    ),
    "long block": (
        lambda d: _edit(d, architecture__block_size=10**9),
        "block_size 1,000,000,000 is more than this format's 256",
    ),
    "extra": (lambda d: _edit(d, architecture__dropout=0), "unknown entries"),
}


@pytest.mark.parametrize("name", sorted(CORRUPT))
def test_a_corrupt_file_is_one_clear_value_error(tmp_path, gpt_doc, name):
    make, words = CORRUPT[name]
    path = tmp_path / "bad.json"
    path.write_text(make(gpt_doc))
    with pytest.raises(ValueError) as e:
        load_gpt(path)
    assert str(e.value).startswith(str(path)) and words in str(e.value), str(e.value)


def test_mlp_and_gpt_files_are_told_apart(tmp_path):
    random.seed(9)
    save(MLP(2, [3, 1]), tmp_path / "mlp.json")
    with pytest.raises(ValueError, match='architecture must be {"type": "GPT"'):
        load_gpt(tmp_path / "mlp.json")
    assert load(tmp_path / "mlp.json").sizes == [2, 3, 1]  # MLP files load as before
    save_gpt(GPT(27), TOKENIZER, tmp_path / "gpt.json")
    with pytest.raises(ValueError, match='architecture must be {"type": "MLP"'):
        load(tmp_path / "gpt.json")
    with pytest.raises(ValueError, match="do not belong together"):
        save_gpt(GPT(5), TOKENIZER, tmp_path / "other.json")
    assert not (tmp_path / "other.json").exists()


def _fifty_steps(backend):
    docs = names()[:120]
    random.Random(0).shuffle(docs)
    tokenizer = CharTokenizer(docs)
    random.seed(3)
    model = GPT(tokenizer.vocab_size, block_size=8, n_embd=8, n_head=2)
    return train_gpt(model, tokenizer, docs, 50, backend=backend), model


def trains_as_eager(backend):
    """Fifty steps of microgpt's training replayed on `backend` (one-hot rows, lengths 4 and 8,
    a longer name cut to the block) give eager's losses to 1e-9, and the same trained weights."""
    eager, trained = _fifty_steps("eager")
    replayed, model = _fifty_steps(backend)
    assert max(abs(a - b) / abs(b) for a, b in zip(replayed, eager)) <= 1e-9
    assert all(
        abs(p.data - q.data) <= 1e-9 * max(1.0, abs(q.data))
        for p, q in zip(model.parameters(), trained.parameters())
    )


def test_the_compiled_step_trains_as_eager_does_on_the_python_back_end():
    trains_as_eager("python")


def _small_gpt(seed=12):
    random.seed(seed)
    return GPT(TOKENIZER.vocab_size, block_size=6, n_embd=4, n_head=2)


MIXED = ["al", "bo", "eva", "kristina", "lee", "ann"]  # lengths 4 and 6 (kristina cut to 6)


def minibatch_by_hand(model, docs):
    """The mean of GPT.loss over `docs` and its gradient, built and walked on Values."""
    losses = [model.loss(TOKENIZER.encode(d)) for d in docs]
    loss = sum(losses[1:], losses[0]) / len(losses)
    model.zero_grad()
    loss.backward()
    return loss.data, [p.grad for p in model.parameters()]


def accuracy_by_hand(model, docs):
    """The fraction of next tokens whose logit is the largest, from GPT.forward."""
    right = total = 0
    with no_grad():
        for tokens in map(TOKENIZER.encode, docs):
            n = min(model.block_size, len(tokens) - 1)
            for row, target in zip(model.forward(tokens[:n]), tokens[1 : n + 1]):
                logits = [z.data for z in row]
                right += logits.index(max(logits)) == target
                total += 1
    return right / total


def backends():
    try:
        import numpy  # noqa: F401
    except ImportError:
        return ["eager", "python"]
    return ["eager", "python", "numpy"]


@pytest.mark.parametrize("backend", backends())
def test_next_token_minibatches_of_mixed_lengths_match_the_loss_built_by_hand(backend):
    """NextToken's loss and gradient of a minibatch (documents of two compiled lengths, one cut
    to the block) equal the mean of GPT.loss built on Values, and its accuracy the argmax of
    GPT.forward's logits counted by hand; given numbers (params) are used instead of the Values'
    and leave them as they were."""
    model = _small_gpt()
    task = NextToken(model, TOKENIZER, lengths=(4,))
    rows = task.batch(MIXED, None, backend)
    loss, grads = task.loss_and_grad(rows, backend=backend)
    want_loss, want_grads = minibatch_by_hand(model, MIXED)
    assert loss == pytest.approx(want_loss, rel=1e-12)
    scale = max(map(abs, want_grads))
    assert all(abs(g - w) <= 1e-12 * scale for g, w in zip(list(grads), want_grads))
    assert task.accuracy(rows, None, backend=backend) == accuracy_by_hand(model, MIXED)

    other = [p.data * 1.5 for p in model.parameters()]
    before = [p.data for p in model.parameters()]
    if backend == "numpy":
        import numpy as np

        other = np.array(other)
    moved, _ = task.loss_and_grad(rows, other, backend)
    assert [p.data for p in model.parameters()] == before
    for p, x in zip(model.parameters(), list(other)):
        p.data = float(x)
    assert moved == pytest.approx(minibatch_by_hand(model, MIXED)[0], rel=1e-12)


def test_a_batchs_few_short_sequences_run_in_a_longer_program_the_batch_calls_anyway():
    """Where fewer sequences than the back end's call_rows need a shorter program, they run
    padded in the longer one (the numpy back end: a call costs about 16 rows); where as many or
    more do, or on the python back end (a call costs nothing beside its rows), each length runs
    on its own. The numbers are the same either way (the test above runs MIXED on both)."""
    from micrograd.app.tasks import CompiledStep
    from micrograd.replay.backends import Python

    model = _small_gpt()
    docs = [model.positions(TOKENIZER.encode(d)) for d in MIXED]  # five need 4, "kristina" 6

    class Costly(Python):
        def __init__(self, call_rows):
            self.call_rows = call_rows

    assert CompiledStep(model, "python", lengths=(4,))._lengths(docs) == [4, 4, 4, 6, 4, 4]
    assert CompiledStep(model, Costly(5), lengths=(4,))._lengths(docs) == [4, 4, 4, 6, 4, 4]
    assert CompiledStep(model, Costly(6), lengths=(4,))._lengths(docs) == [6] * 6
    if "numpy" in backends():
        assert CompiledStep(model, "numpy", lengths=(4,))._lengths(docs) == [6] * 6


def test_fit_trains_the_gpt_on_every_back_end_with_the_same_numbers():
    """fit() on a NextToken: minibatches of 3 documents taken in turn, Adam; every back end
    gives eager's losses and accuracies (the fraction of the step's next tokens ranked first,
    after the step), and the loss falls."""
    docs = names()[:40]
    runs = {}
    for backend in backends():
        model = _small_gpt(13)
        opt = Adam(model.parameters(), lr=0.05)
        task = NextToken(model, TOKENIZER, lengths=(4,))
        history = fit(task, docs, None, opt, 12, batch_size=3, in_order=True, backend=backend)
        runs[backend] = history, [p.data for p in model.parameters()]
    eager, eager_params = runs["eager"]
    for backend, (history, params) in runs.items():
        want = [loss for loss, _ in eager]
        assert [loss for loss, _ in history] == pytest.approx(want, 1e-9), backend
        assert [acc for _, acc in history] == [acc for _, acc in eager], backend
        assert params == pytest.approx(eager_params, rel=1e-9, abs=1e-12), backend
    losses = [loss for loss, _ in eager]
    assert sum(losses[-3:]) < sum(losses[:3])
    assert all(0 <= acc <= 1 for _, acc in eager)


def test_a_trainer_in_order_takes_the_documents_in_turn_and_wraps_around():
    """Minibatches of 2 of 3 documents in order: (0, 1), (2, 0), (1, 2); each step's loss is the
    mean loss of its documents before the step (SGD at lr 0, so nothing moves)."""
    docs = ["al", "eva", "bo"]
    model = _small_gpt()
    task = NextToken(model, TOKENIZER)
    trainer = Trainer(
        task, docs, None, SGD(model.parameters(), lr=0.0), 2, backend="eager", in_order=True
    )
    for picked in ([0, 1], [2, 0], [1, 2]):
        assert trainer.step() == pytest.approx(
            minibatch_by_hand(model, [docs[i] for i in picked])[0], rel=1e-15
        )
    monitored = Trainer(
        task, docs, None, SGD(model.parameters(), lr=0.0), monitor=(["al"], None), backend="eager"
    )
    monitored.step()
    assert monitored.accuracy() == accuracy_by_hand(model, ["al"])


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda t: t.batch(["al"], [1]), "a document's targets are its next tokens; give None"),
        (lambda t: t.batch([], None), "X has no documents"),
        (lambda t: t.batch("emma", None), "X is one str, 'emma'; give a list of documents"),
        (lambda t: t.batch(["al", b"bo"], None), "X[1], b'bo': a document is a string or"),
        (lambda t: NextToken(t.model).batch(["al"], None), "X[0], 'al': the documents are strings"),
        (lambda t: t.batch(["al", [26, 30]], None), "X[1], [26, 30]: GPT(vocab_size=27"),
        (lambda t: t.batch([[26, 0, 1, 2, 3, 4, 5, 99]], None), "token 99 is out of range 0..26"),
        (lambda t: t.batch([[26]], None), "X[0], [26]: GPT(vocab_size=27, block_size=6"),
        (lambda t: t.batch(["a1"], None), "X[0], 'a1': "),
        (lambda t: t.monitored(["al"], [0]), "give None, not the monitor's y"),
        (lambda t: t.monitored([], None), "the monitor has no documents"),
        (lambda t: t.program("outputs"), "a program of kind 'loss' only"),
        (lambda t: NextToken(t.model, lengths=(0,)), "lengths must be integers >= 1, got [0]"),
        (lambda t: NextToken(t.model, lengths=(2.5,)), "lengths must be integers >= 1"),
        (lambda t: NextToken(t.model, CharTokenizer(["abc"])), "does not fit GPT(vocab_size=27"),
        (lambda t: NextToken(t.model, "abc"), "its vocab_size is None"),
        (
            lambda t: Trainer(t, ["al"], None, SGD(t.model.parameters()), batch_size=-1),
            "batch_size must be an integer >= 0 (0 or None: all rows), got -1",
        ),
    ],
)
def test_next_token_refuses_bad_documents_before_training(call, words):
    with pytest.raises(ValueError) as e:
        call(NextToken(_small_gpt(), TOKENIZER))
    assert words in str(e.value)


def test_the_recorded_attention_is_each_heads_softmax_of_q_and_k_by_hand():
    """GPT.attention(tokens)[layer][head][i] is a probability vector over positions 0..i, the
    softmax of q_i . k_j / sqrt(head_dim) computed here with floats from the model's own wq and wk
    (a tiny config, two layers: the second reads the first's output), and recording them changes
    no logit."""
    tok = CharTokenizer(["abc"])
    random.seed(11)
    model = GPT(tok.vocab_size, block_size=6, n_layer=2, n_embd=4, n_head=2)
    tokens = [tok.bos, 0, 2, 1, 1]
    weights = model.attention(tokens)
    assert len(weights) == 2 and all(len(layer) == 2 for layer in weights)
    for layer in weights:
        for head in layer:
            assert [len(row) for row in head] == [1, 2, 3, 4, 5]
            for row in head:
                assert all(w > 0 for w in row) and sum(row) == pytest.approx(1, abs=1e-12)

    def floats(vector):
        return [v.data for v in vector]

    d = model.n_embd // model.n_head
    xs = [  # the input of layer 0 at each position, then of layer 1
        floats(rmsnorm([t + p for t, p in zip(model.wte(token), model.wpe(pos))]))
        for pos, token in enumerate(tokens)
    ]
    for li, layer in enumerate(model.layers):
        normed = [rmsnorm([Value(v) for v in x]) for x in xs]
        qs = [floats(layer.attn.wq(x)) for x in normed]
        ks = [floats(layer.attn.wk(x)) for x in normed]
        for h in range(model.n_head):
            s = slice(h * d, (h + 1) * d)
            for i in range(len(tokens)):
                scores = [
                    sum(a * b for a, b in zip(qs[i][s], ks[j][s])) / math.sqrt(d)
                    for j in range(i + 1)
                ]
                top = max(scores)
                exps = [math.exp(z - top) for z in scores]
                by_hand = [e / sum(exps) for e in exps]
                assert weights[li][h][i] == pytest.approx(by_hand, rel=1e-12, abs=1e-15)
        cache = model.new_cache()  # the next layer's inputs, as the model computes them
        xs = []
        for pos, token in enumerate(tokens):
            x = rmsnorm([t + p for t, p in zip(model.wte(token), model.wpe(pos))])
            for layer_before, keys, values in zip(model.layers[: li + 1], cache.keys, cache.values):
                x = layer_before(x, keys, values)
            xs.append(floats(x))

    cache, seen = model.new_cache(), []
    recorded = [floats(model(t, cache, seen)) for t in tokens]
    assert recorded == [floats(row) for row in model.forward(tokens)]
    assert len(seen) == len(tokens) * model.n_layer * model.n_head
    with pytest.raises(ValueError, match="needs 1 to block_size=6 tokens, got 7"):
        model.attention([tok.bos] * 7)
    with pytest.raises(ValueError, match="token 9 is out of range"):
        model.attention([tok.bos, 9])


def test_the_stepper_shows_backward_through_one_attention_head_in_boxes():
    """Block 3, n_embd 4, one head: the head's parts are boxes (q·k, softmax, the weighted sum,
    each position's projections), each node in one box at most; the page's help speaks of
    boxes, not neurons; the steps inside a box are named by it (explain())."""
    import re

    from micrograd.teach.attention import attention_stepper
    from micrograd.text import catalog

    for lang in ("en", "zh"):
        page = attention_stepper(lang).page
        data = json.loads(re.search(r'type="application/json"[^>]*>(.*?)</script>', page, re.S)[1])
        groups = data["neurons"]
        assert [g["name"] for g in groups[:3]] == [
            catalog(lang)[f"gpt.group_{k}"] for k in ("qk", "softmax", "sum")
        ]
        assert len(groups) == 6 and all(g["members"] for g in groups)
        members = [j for g in groups for j in g["members"]]
        assert len(members) == len(set(members))
        inside = [
            f for f in data["frames"] if f["text"].splitlines()[0].endswith(("(q·k)", "（q·k）"))
        ]
        assert inside and all(f["node"] in groups[0]["members"] for f in inside)
        assert data["words"]["neuron_help"] == catalog(lang)["group_help"]
        assert data["words"]["neuron_inside"] == catalog(lang)["group_inside"]
        assert ("reads BOS, a, l" if lang == "en" else "读 BOS、a、l") in data["intro"]
        # the head's parts are named by their role, not by a node's number
        named = {n["name"] for n in data["nodes"]}
        roles = {"q.0", "k0.0", "k2.3", "v1.2", "s0", "s2", "a1", "o.3", "x2.3", "e0.1"}
        assert roles <= named and "k1.2:w.0·x" in named and "k1.2:w·x[:2]" in named
        assert {"s1:q·k", "s1:q·k[:2]", "o.0:a·v[:2]"} <= named
        # rmsnorm's parts, of the embedding and of the block's input
        assert {"e1.0²", "Σe1²", "ms(e1)", "ms(e1)+ε", "scale(e1)", "n1.0", "Σn1²"} <= named
        assert {"scale(n2)", "n2.3²"} <= named
        inner = {n["name"] for n in data["nodes"] if re.fullmatch(r"n\d+", n["name"])}
        assert len(inner) < 10, sorted(inner)  # of 962: only the softmax's insides keep a number
