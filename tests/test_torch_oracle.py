"""PyTorch float64 as the second oracle: values and gradients of the same expressions, losses,
optimizer steps and second derivatives. (Each has torch-free checks in its own test file.)"""

import math
import random

import pytest
from hypothesis import assume, given, settings

from micrograd import Value
from micrograd.data import CharTokenizer, names
from micrograd.export import gpt_matrices, gpt_to_torch
from micrograd.functional import hessian
from micrograd.gpt import GPT
from micrograd.losses import bce_with_logits, cross_entropy, hinge, l2, logsumexp, mse
from micrograd.optim import SGD, Adam, AdamW
from programs import examples, near_kink, programs, run, ulps

torch = pytest.importorskip("torch")
F = torch.nn.functional


def both(steps, xs):
    leaves = [Value(x) for x in xs]
    out = run(steps, leaves)
    out.backward()
    ts = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    tout = run(steps, ts)
    tout.backward()
    return (
        out.data,
        [v.grad for v in leaves],
        tout.item(),
        [0.0 if t.grad is None else t.grad.item() for t in ts],
    )


@settings(max_examples=examples(200))
@given(programs())
def test_random_programs_match_pytorch(program):
    xs, steps = program
    assume(not near_kink(steps, xs))
    value, grads, tvalue, tgrads = both(steps, xs)
    assert value == pytest.approx(tvalue, rel=1e-12, abs=1e-12)
    for g, tg in zip(grads, tgrads):
        assert g == pytest.approx(tg, rel=1e-10, abs=1e-10)


def test_readme_example_matches_pytorch():
    def f(a, b):
        c = a + b
        d = a * b + b**3
        c = c + c + 1
        c = c + 1 + c + (-a)
        d = d + d * 2 + (b + a).relu()
        d = d + 3 * d + (b - a).relu()
        e = c - d
        f = e**2
        g = f / 2.0
        return g + 10.0 / f

    a, b = Value(-4.0), Value(2.0)
    g = f(a, b)
    g.backward()
    ta = torch.tensor(-4.0, dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    tg = f(ta, tb)
    tg.backward()
    assert g.data == pytest.approx(tg.item(), rel=1e-14)
    assert a.grad == pytest.approx(ta.grad.item(), rel=1e-13)
    assert b.grad == pytest.approx(tb.grad.item(), rel=1e-13)


@pytest.mark.parametrize(
    "base,exp",
    [(-2.0, 3.0), (0.0, 2.0), (2.0, 0.5), (0.0, 0.0), (-math.inf, 2.5), (-math.inf, -2.5)],
)
def test_power_edge_cases_follow_pytorch(base, exp):
    """The infinite bases: (-inf) ** 2.5 is inf and (-inf) ** -2.5 is 0, not nan.

    Our `x ** y` is Python's, exactly. PyTorch's is within 1 ulp: IEEE 754 does not require pow to
    be correctly rounded, and a vectorised build computes `t ** 0.5` as a sqrt-like kernel that
    gives 1.414213562373095 for 2 ** 0.5 where Python gives 1.4142135623730951."""
    x, y = Value(base), Value(exp)
    out = x**y
    tout = torch.tensor(base, dtype=torch.float64) ** exp
    assert out.data == base**exp
    assert ulps(out.data, tout.item()) <= 1, (out.data, tout.item())
    assert (x ** Value(exp)).data == out.data
    out.backward()
    tx = torch.tensor(base, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(exp, dtype=torch.float64, requires_grad=True)
    (tx**ty).backward()
    for mine, theirs in [(x.grad, tx.grad.item()), (y.grad, ty.grad.item())]:
        assert (math.isnan(mine) and math.isnan(theirs)) or mine == pytest.approx(theirs)


DEAD_RELU_CASES = {
    # a dead relu under a square root: d sqrt / d relu is inf at 0, relu's slope there is 0
    "sqrt(relu(w*x + b))": (lambda w, b, x: (w * x + b).relu() ** 0.5, (0.5, -2.0, 1.0)),
    # x ** relu(y) is 1 for every y < 0; d/dx * log(x) would be nan for x < 0
    "x ** relu(y)": (lambda x, y: x ** y.relu(), (-2.0, -1.0)),
    "relu(x) ** 0.5 * 3": (lambda x: x.relu() ** 0.5 * 3, (-1.0,)),
}


@pytest.mark.parametrize("name", DEAD_RELU_CASES)
def test_a_dead_relu_stops_an_infinite_upstream_as_pytorch(name):
    """A dead relu (slope 0) sends nothing back from an inf or nan upstream (0, not nan), in
    the eager engine, in create_graph and on the fast path, as PyTorch's relu."""
    fn, xs = DEAD_RELU_CASES[name]
    ts = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    tout = fn(*ts)
    tout.backward()
    expected = [t.grad.item() for t in ts]
    assert all(math.isfinite(g) for g in expected)
    for create_graph in (False, True):
        leaves = [Value(x) for x in xs]
        fn(*leaves).backward(create_graph=create_graph)
        got = [v.grad.data if isinstance(v.grad, Value) else v.grad for v in leaves]
        assert got == pytest.approx(expected), create_graph
    from micrograd.replay import compile

    params = [Value(x) for x in xs[:-1]]
    for backend in ("numpy", "python"):
        if backend == "numpy":
            pytest.importorskip("numpy")
        program = compile(lambda x: fn(*params, x), params, 1, backend=backend)
        _, grad, dx = program.value_and_grad([[xs[-1]]], input_grads=True)
        assert [*grad, dx[0][0]] == pytest.approx(expected), backend


@pytest.mark.parametrize("x", [-1000.0, -30.0, -1.0, 0.0, 0.5, 30.0, 1000.0])
def test_saturating_ops_match_pytorch(x):
    for op in ("tanh", "sigmoid"):
        v = Value(x)
        out = getattr(v, op)()
        out.backward()
        t = torch.tensor(x, dtype=torch.float64, requires_grad=True)
        tout = getattr(t, op)()
        tout.backward()
        assert out.data == pytest.approx(tout.item(), rel=1e-15, abs=1e-300)
        assert v.grad == pytest.approx(t.grad.item(), rel=1e-12, abs=1e-300)


# ---------------------------------------------------------------------------- losses
def leaves(xs):
    return [Value(x) for x in xs], torch.tensor(xs, dtype=torch.float64, requires_grad=True)


def check_loss(mine_loss, mine_leaves, their_loss, their_leaves):
    mine_loss.backward()
    their_loss.backward()
    assert mine_loss.data == pytest.approx(their_loss.item(), rel=1e-12, abs=1e-14)
    for a, b in zip(mine_leaves, their_leaves.grad.tolist()):
        assert a.grad == pytest.approx(b, rel=1e-10, abs=1e-13)


@pytest.fixture
def xs():
    random.seed(5)
    return [random.uniform(-3, 3) for _ in range(7)]


def test_mse(xs):
    targets = [0.5 * x + 1 for x in reversed(xs)]
    m, t = leaves(xs)
    check_loss(mse(m, targets), m, F.mse_loss(t, torch.tensor(targets, dtype=torch.float64)), t)


def test_hinge(xs):
    labels = [1.0 if i % 2 else -1.0 for i in range(len(xs))]
    m, t = leaves(xs)
    y = torch.tensor(labels, dtype=torch.float64)
    check_loss(hinge(m, labels), m, torch.relu(1 - y * t).mean(), t)


@pytest.mark.parametrize("scale", [1.0, 300.0])
def test_bce_with_logits_is_stable(xs, scale):
    targets = [float(i % 2) for i in range(len(xs))]
    m, t = leaves([x * scale for x in xs])
    check_loss(
        bce_with_logits(m, targets),
        m,
        F.binary_cross_entropy_with_logits(t, torch.tensor(targets, dtype=torch.float64)),
        t,
    )


@pytest.mark.parametrize("scale", [1.0, 500.0])
def test_cross_entropy_is_stable(xs, scale):
    logits = [[x * scale, -x, 0.3 * x] for x in xs]
    targets = [i % 3 for i in range(len(xs))]
    flat = [v for row in logits for v in row]
    m, t = leaves(flat)
    rows = [m[3 * i : 3 * i + 3] for i in range(len(xs))]
    check_loss(
        cross_entropy(rows, targets), m, F.cross_entropy(t.view(-1, 3), torch.tensor(targets)), t
    )


def test_logsumexp_and_l2(xs):
    m, t = leaves(xs)
    check_loss(logsumexp(m), m, torch.logsumexp(t, 0), t)
    m, t = leaves(xs)
    check_loss(l2(m), m, (t * t).sum(), t)


# ---------------------------------------------------------------------------- optimizers
def quadratic(ps):
    # A loss with different curvature per parameter, so every rule's terms matter.
    return sum((i + 1) * (p - 0.3 * i) ** 2 + p**4 * 0.1 for i, p in enumerate(ps))


def run_both(make_mine, make_theirs, steps=25):
    random.seed(3)
    start = [random.uniform(-1, 1) for _ in range(4)]
    mine = [Value(x) for x in start]
    opt = make_mine(mine)
    theirs = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in start]
    topt = make_theirs(theirs)
    for _ in range(steps):
        opt.zero_grad()
        quadratic(mine).backward()
        opt.step()
        topt.zero_grad()
        quadratic(theirs).backward()
        topt.step()
    for a, b in zip(mine, theirs):
        assert a.data == pytest.approx(b.item(), rel=1e-12, abs=1e-13)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"lr": 0.01},
        {"lr": 0.01, "momentum": 0.9},
        {"lr": 0.01, "momentum": 0.9, "nesterov": True},
        {"lr": 0.01, "momentum": 0.5, "dampening": 0.3, "weight_decay": 0.1},
    ],
)
def test_sgd_matches_torch(kwargs):
    run_both(lambda ps: SGD(ps, **kwargs), lambda ps: torch.optim.SGD(ps, **kwargs))


@pytest.mark.parametrize(
    "kwargs", [{}, {"lr": 0.05}, {"lr": 0.02, "weight_decay": 0.1, "betas": (0.8, 0.99)}]
)
def test_adam_matches_torch(kwargs):
    run_both(lambda ps: Adam(ps, **kwargs), lambda ps: torch.optim.Adam(ps, **kwargs))


@pytest.mark.parametrize("kwargs", [{}, {"lr": 0.05, "weight_decay": 0.3}])
def test_adamw_matches_torch(kwargs):
    run_both(lambda ps: AdamW(ps, **kwargs), lambda ps: torch.optim.AdamW(ps, **kwargs))


# ---------------------------------------------------------------------------- second derivatives
@settings(max_examples=examples(40))
@given(programs(max_inputs=3, max_steps=8))
def test_hessians_of_random_programs_match_pytorch(program):
    xs, steps = program
    assume(not near_kink(steps, xs))
    mine = hessian(lambda *vs: run(steps, vs))(*xs)
    theirs = torch.autograd.functional.hessian(
        lambda *ts: run(steps, ts), tuple(torch.tensor(x, dtype=torch.float64) for x in xs)
    )
    for i in range(len(xs)):
        for j in range(len(xs)):
            assert mine[i][j] == pytest.approx(theirs[i][j].item(), rel=1e-9, abs=1e-9)


# ---------------------------------------------------------------------------- the GPT
GPT_REL = 1e-10  # float64 on both sides; exp, log and the sums' order differ in the last bits
TOKENIZER = CharTokenizer(names())


def close(a, b):
    """|a - b| <= GPT_REL * |b| (0 == 0 passes: unused positions and dead ReLUs pass no grad)."""
    return abs(a - b) <= GPT_REL * abs(b)


@pytest.mark.parametrize(
    "config, doc",
    [
        ({"vocab_size": 5, "block_size": 4, "n_layer": 2, "n_embd": 4, "n_head": 2}, None),
        ({}, "emma"),  # microgpt's defaults on a short name
    ],
)
def test_logits_and_every_gradient_match_a_pytorch_twin(config, doc):
    torch.set_num_threads(1)
    random.seed(0)
    if doc is None:  # a sequence longer than the block: trained on its first block_size + 1
        model, tokens = GPT(**config), [4, 0, 3, 1, 2, 2, 4]
    else:
        model, tokens = GPT(TOKENIZER.vocab_size, **config), TOKENIZER.encode(doc)
    n = min(model.block_size, len(tokens) - 1)
    logits = model.forward(tokens[:n])  # one token at a time, through the KV cache
    loss = model.loss(tokens)
    loss.backward()

    net = gpt_to_torch(model)
    W, mods = net.weights, gpt_matrices(model)
    twin = net(tokens[:n])  # all positions at once, with a mask
    twin_loss = torch.nn.functional.cross_entropy(twin, torch.tensor(tokens[1 : n + 1]))
    twin_loss.backward()
    assert close(loss.data, twin_loss.item())
    for row, twin_row in zip(logits, twin.tolist()):
        assert all(close(z.data, t) for z, t in zip(row, twin_row))
    checked = 0
    for name, m in mods.items():
        grads = W[name].grad.tolist()
        for i, row in enumerate(m.weight):
            for j, w in enumerate(row):
                assert close(w.grad, grads[i][j]), (name, i, j, w.grad, grads[i][j])
                checked += 1
    assert checked == len(model.parameters())  # every parameter, none left out


def test_the_pytorch_twin_reads_a_batch_of_sequences_as_each_one_alone():
    """net on a (B, T) batch gives each sequence's logits as net on that sequence alone (the
    batch shares no position), and the causal mask lets no position see past itself: logits of
    a sequence cut short are the first rows of the whole one's."""
    torch.set_num_threads(1)
    random.seed(1)
    model = GPT(TOKENIZER.vocab_size)
    net = gpt_to_torch(model)
    batch = [TOKENIZER.encode(d)[:6] for d in ("emma", "olivia", "ava")]
    batch = [(seq * 2)[:6] for seq in batch]  # one length
    together = net(torch.tensor(batch))
    assert together.shape == (3, 6, TOKENIZER.vocab_size)
    for seq, rows in zip(batch, together):
        assert torch.allclose(net(seq), rows, rtol=1e-13, atol=1e-13)
        assert torch.allclose(net(seq[:3]), rows[:3], rtol=1e-13, atol=1e-13)
