"""The fast path replays the traced graph on batches with the eager engine's numbers."""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from micrograd import Value
from micrograd.engine import OPS
from micrograd.losses import cross_entropy_one, l2
from micrograd.nn import MLP
from programs import DOUBLED, examples, near_kink, programs, run, value_and_grads

np = pytest.importorskip("numpy")
from micrograd.fast import TraceError, trace  # noqa: E402


def rel_err(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b)) / max(1e-300, np.max(np.abs(b))))


def workload(hidden=(16, 16), n=100, seed=1337):
    """The benchmark's workload W: two moons-like points, hinge loss, L2 regularisation."""
    random.seed(seed)
    X = [[random.uniform(-1, 2), random.uniform(-1, 1)] for _ in range(n)]
    y = [1.0 if random.random() < 0.5 else -1.0 for _ in range(n)]
    model = MLP(2, [*hidden, 1])
    return X, y, model


def test_workload_matches_eager_to_1e_12():
    X, y, model = workload()
    params = model.parameters()
    losses = [(1 + -yi * model(list(map(Value, xi)))).relu() for xi, yi in zip(X, y)]
    loss = sum(losses) * (1.0 / len(losses)) + 1e-4 * l2(params)
    model.zero_grad()
    loss.backward()
    eager = [p.grad for p in params]

    per_sample = trace(lambda x0, x1, t: (1 + -t * model([x0, x1])).relu(), params, 3)
    reg = trace(lambda: 1e-4 * l2(params), params, 0)
    batch = np.array([[*xi, yi] for xi, yi in zip(X, y)])
    values, grads, _ = per_sample.value_and_grad(batch, 1.0 / len(X))
    r, rgrads, _ = reg.value_and_grad(np.zeros((1, 0)))
    assert rel_err(values.mean() + r[0], loss.data) <= 1e-12
    assert rel_err(grads + rgrads, eager) <= 1e-12
    assert len(per_sample.groups) < 20  # chains of + are folded, nodes grouped by depth


def test_replay_reads_current_parameters():
    X, y, model = workload(hidden=(4,), n=5)
    prog = trace(lambda a, b: model([a, b]), model.parameters(), 2)
    for p in model.parameters():
        p.data *= 1.5
    got = prog(np.array(X))
    assert rel_err(got, [model(x).data for x in X]) <= 1e-14


def test_multiclass_cross_entropy_program():
    random.seed(2)
    model = MLP(2, [8, 3], activation="tanh")
    params = model.parameters()
    prog = trace(lambda a, b, *t: cross_entropy_one(model([a, b]), list(t)), params, 5)
    rows = [
        [random.uniform(-1, 1), random.uniform(-1, 1)] + [float(k == i % 3) for k in range(3)]
        for i in range(20)
    ]
    values, grads, input_grads = prog.value_and_grad(np.array(rows))
    model.zero_grad()
    total = sum(cross_entropy_one(model(r[:2]), r[2:]) for r in rows)
    total.backward()
    assert rel_err(values.sum(), total.data) <= 1e-12
    assert rel_err(grads, [p.grad for p in params]) <= 1e-12


@settings(max_examples=examples(60))
@given(programs(max_inputs=3, max_steps=10), st.integers(1, 6), st.randoms(use_true_random=False))
def test_random_programs_replay_like_eager(program, batch_size, rnd):
    xs, steps = program
    assume(not near_kink(steps, xs))
    weight = Value(0.7)  # a parameter shared by all samples
    fn = lambda *vs: run(steps, list(vs)) * weight  # noqa: E731
    prog = trace(fn, [weight], len(xs), example=xs)
    batch = [xs] + [[x + rnd.uniform(-1e-3, 1e-3) for x in xs] for _ in range(batch_size - 1)]
    rows = [r for r in batch if not near_kink(steps, r)]
    assume(rows)
    values, pgrad, igrads = prog.value_and_grad(np.array(rows))
    total_wgrad = 0.0
    for i, row in enumerate(rows):
        leaves = [Value(x) for x in row]
        weight.grad = 0.0
        out = fn(*leaves)
        out.backward()
        total_wgrad += weight.grad
        assert values[i] == pytest.approx(out.data, rel=1e-12, abs=1e-12)
        for j, leaf in enumerate(leaves):
            assert igrads[i, j] == pytest.approx(leaf.grad, rel=1e-10, abs=1e-10)
    assert pgrad[0] == pytest.approx(total_wgrad, rel=1e-10, abs=1e-10)


def test_data_dependent_control_flow_is_detected():
    def branchy(x):
        return x * 2 if x > 0 else x * -1

    with pytest.raises(TraceError, match="control flow"):
        trace(branchy, [], 1)
    with pytest.raises(TypeError, match="cut the graph"):  # float() of a Value: never allowed
        trace(lambda x: x * float(x), [], 1)

    def sneaky(x):  # reads .data: cannot be seen while tracing, caught by check()
        return x * 2 if x.data > 0 else x * -1

    prog = trace(sneaky, [], 1, example=[1.0])
    with pytest.raises(TraceError, match="row 1"):
        prog.check(np.array([[1.0], [-1.0]]), sneaky)
    prog.check(np.array([[1.0], [2.0]]), sneaky)


def test_closure_ops_are_refused():
    def cube(x):
        out = Value(x.data**3, (x,), "cube")
        out._backward = lambda: None
        return out

    with pytest.raises(TraceError, match="cube"):
        trace(cube, [], 1)


def test_errors():
    prog = trace(lambda x: x.log(), [], 1, example=[1.0])
    with pytest.raises(FloatingPointError, match="rows \\[1\\]"):
        prog(np.array([[1.0], [-1.0]]))
    with pytest.raises(ValueError, match="shape"):
        prog(np.array([1.0, 2.0]))
    with pytest.raises(TraceError, match="must return a Value"):
        trace(lambda x: 3.0, [], 1)


@st.composite
def layered(draw):
    """Random functions made of neuron-like sums (bias + w1*x1 + ...): weights may repeat, an x
    may be an input, an earlier node or a parameter, the bias may be any of those or a number."""
    n_params = draw(st.integers(1, 6))
    n_inputs = draw(st.integers(1, 3))
    layers = []
    available = n_inputs  # nodes 0..n_inputs-1 are the inputs
    for _ in range(draw(st.integers(1, 3))):
        width = draw(st.integers(1, 3))
        neurons = []
        for _ in range(width):
            k = draw(st.integers(1, 4))
            ws = draw(st.lists(st.integers(0, n_params - 1), min_size=k, max_size=k))
            xs = draw(st.lists(st.integers(-n_params, available - 1), min_size=k, max_size=k))
            bias = draw(st.integers(-n_params - 1, available - 1))
            act = draw(st.sampled_from(["tanh", "sigmoid", "none"]))
            neurons.append((ws, xs, bias, act))
        layers.append(neurons)
        available += width
    return n_params, n_inputs, layers


def run_layered(spec, params, inputs):
    n_params, n_inputs, layers = spec
    nodes = list(inputs)

    def pick(i):
        return params[-i - 1] if i < 0 else nodes[i]

    for neurons in layers:
        outs = []
        for ws, xs, bias, act in neurons:
            b = 0.25 if bias == -n_params - 1 else pick(bias)
            total = sum((params[w] * pick(x) for w, x in zip(ws, xs)), b)
            outs.append(total if act == "none" else getattr(total, act)())
        nodes += outs
    return sum(nodes[n_inputs:], Value(0.0))


@settings(max_examples=examples(80))
@given(layered(), st.randoms(use_true_random=False))
def test_layers_compiled_as_matrix_products_match_eager(spec, rnd):
    n_params, n_inputs, _ = spec
    params = [Value(rnd.uniform(-1, 1)) for _ in range(n_params)]
    prog = trace(lambda *xs: run_layered(spec, params, xs), params, n_inputs)
    rows = [[rnd.uniform(-1, 1) for _ in range(n_inputs)] for _ in range(4)]
    values, pgrads, igrads = prog.value_and_grad(np.array(rows))
    eager_pgrads = np.zeros(n_params)
    for i, row in enumerate(rows):
        leaves = [Value(x) for x in row]
        for p in params:
            p.grad = 0.0
        out = run_layered(spec, params, leaves)
        out.backward()
        eager_pgrads += [p.grad for p in params]
        assert values[i] == pytest.approx(out.data, rel=1e-12, abs=1e-12)
        assert igrads[i].tolist() == pytest.approx([v.grad for v in leaves], rel=1e-10, abs=1e-12)
    assert pgrads.tolist() == pytest.approx(eager_pgrads.tolist(), rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("name", sorted(DOUBLED))
def test_one_row_of_OPS_defines_the_op_on_the_fast_path(monkeypatch, name):
    rule, f = DOUBLED[name]
    monkeypatch.setitem(OPS, name, rule)
    xs = [0.3, -1.7]
    out, grads = value_and_grads(f, xs)  # eager, with the replaced row
    values, _, input_grads = trace(f, [], 2).value_and_grad(np.array([xs]))
    assert values[0] == pytest.approx(out, rel=1e-12)
    assert input_grads[0].tolist() == pytest.approx(grads, rel=1e-12)
