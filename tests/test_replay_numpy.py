"""micrograd.replay.numpy: a tape replayed on batches with numpy gives the eager engine's numbers."""

import math
import random

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from micrograd import Value
from micrograd.losses import cross_entropy, cross_entropy_one, l2
from micrograd.nn import MLP
from programs import (
    DOUBLED,
    dots,
    examples,
    near_kink,
    programs,
    run,
    run_dots,
    run_softmaxes,
    softmaxes,
    ulps,
    value_and_grads,
    with_doubled_row,
)

np = pytest.importorskip("numpy")
from micrograd.modes import TraceError  # noqa: E402
from micrograd.replay import compile  # noqa: E402
from test_replay import close, per_row_eager  # noqa: E402


def trace(fn, params, n_inputs, example=None, dtype=None):
    """fn compiled by the numpy back end."""
    return compile(fn, params, n_inputs, example, backend="numpy", dtype=dtype)


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
    values, grads, input_grads = prog.value_and_grad(np.array(rows), input_grads=True)
    model.zero_grad()
    total = sum(cross_entropy_one(model(r[:2]), r[2:]) for r in rows)
    total.backward()
    assert rel_err(values.sum(), total.data) <= 1e-12
    assert rel_err(grads, [p.grad for p in params]) <= 1e-12


@settings(max_examples=examples(60))
@given(programs(max_inputs=3, max_steps=10), st.integers(1, 6), st.randoms(use_true_random=False))
def test_random_programs_replay_like_eager(program, batch_size, rnd):
    """One output on an array of rows; and, for the same program, tests/test_replay.py's property
    of the other back ends (which leaves numpy to this test): two outputs, the first
    differentiated, on weighted rows given as lists, within 1e-10 of the eager engine."""
    xs, steps = program
    assume(not near_kink(steps, xs))
    weight = Value(0.7)  # a parameter shared by all samples
    batch = [xs] + [[x + rnd.uniform(-1e-3, 1e-3) for x in xs] for _ in range(batch_size - 1)]
    rows = [r for r in batch if not near_kink(steps, r)]
    assume(rows)
    two = lambda *vs: (run(steps, list(vs)) * weight, run(steps, list(vs)))  # noqa: E731
    weights = [rnd.uniform(0.5, 2.0) for _ in rows]
    expected = per_row_eager(two, [weight], rows, weights)
    got = trace(two, [weight], len(xs), example=xs).value_and_grad(rows, weights, input_grads=True)
    assert close(got, expected, 1e-10)
    fn = lambda *vs: run(steps, list(vs)) * weight  # noqa: E731
    prog = trace(fn, [weight], len(xs), example=xs)
    values, pgrad, igrads = prog.value_and_grad(np.array(rows), input_grads=True)
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


def test_errors():
    prog = trace(lambda x: x.log(), [], 1, example=[1.0])
    with pytest.raises(FloatingPointError, match="gave nan for batch rows \\[1\\]"):
        prog(np.array([[1.0], [-1.0]]))
    # several outputs: a call computes each of them (and nothing more: a "*", a "*" and an exp),
    # and names the first one that is not finite
    two = trace(lambda x, y: [x * 2.0, (x * y).exp()], [], 2)
    assert [n.op for n in two.tape.nodes if n.kind == "op"] == ["*", "*", "exp"]
    ((doubled, e),) = two(np.array([[1.0, 2.0]])).tolist()
    # numpy's exp is within 1 ulp of libm's (its SIMD kernels differ by CPU), not always equal
    assert doubled == 2.0 and ulps(e, math.exp(2.0)) <= 1
    with pytest.raises(FloatingPointError, match="gave inf for batch rows \\[0, 2\\]"):
        two(np.array([[1.0, 800.0], [1.0, 1.0], [2.0, 400.0]]))
    with pytest.raises(ValueError, match="shape"):
        prog(np.array([1.0, 2.0]))
    with pytest.raises(TraceError, match="must return a Value"):
        trace(lambda x: 3.0, [], 1)


@st.composite
def layered(draw):
    """Random functions made of neuron-like sums (bias + w1*x1 + ...): weights may repeat, an x
    may be an input, an earlier node or a parameter, the bias may be any of those or a number;
    a product may be written x * w, and a term may be added after the products (as microgpt adds
    the residual stream to a layer's output)."""
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
            swap = draw(st.booleans())
            after = draw(st.none() | st.integers(-n_params, available - 1))
            neurons.append((ws, xs, bias, act, swap, after))
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
        for ws, xs, bias, act, swap, after in neurons:
            b = 0.25 if bias == -n_params - 1 else pick(bias)
            products = [
                pick(x) * params[w] if swap else params[w] * pick(x) for w, x in zip(ws, xs)
            ]
            total = sum(products, b)
            if after is not None:
                total = total + pick(after)
            outs.append(total if act == "none" else getattr(total, act)())
        nodes += outs
    return sum(nodes[n_inputs:], Value(0.0))


@settings(max_examples=examples(80))
@given(layered(), st.randoms(use_true_random=False))
# two layers of the same size at one depth, each over two inputs: two batched products, not one
@example(
    spec=(
        1,
        3,
        [
            [
                ([0, 0, 0], [1, 2, 2], 0, "tanh", False, None),
                ([0, 0], [0, 0], 1, "sigmoid", False, None),
            ],
            [
                ([0], [2], 0, "sigmoid", False, None),
                ([0], [3], -2, "none", False, None),
                ([0, 0], [0, 1], 0, "tanh", False, None),
            ],
            [([0], [1], 2, "tanh", False, None)],
        ],
    ),
    rnd=random.Random(0),
)
# one layer of two rows over two inputs, each input with its own parameter biases (as each
# position adds its own row of wpe), the products written x * w, a term added after them
@example(
    spec=(
        4,
        2,
        [
            [
                ([0], [0], -3, "none", True, 1),
                ([1], [0], -4, "none", True, None),
                ([0], [1], -4, "none", True, 0),
                ([1], [1], -3, "none", True, -1),
            ]
        ],
    ),
    rnd=random.Random(1),
)
def test_layers_compiled_as_matrix_products_match_eager(spec, rnd):
    n_params, n_inputs, _ = spec
    params = [Value(rnd.uniform(-1, 1)) for _ in range(n_params)]
    prog = trace(lambda *xs: run_layered(spec, params, xs), params, n_inputs)
    rows = [[rnd.uniform(-1, 1) for _ in range(n_inputs)] for _ in range(4)]
    values, pgrads, igrads = prog.value_and_grad(np.array(rows), input_grads=True)
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
def test_one_row_of_OPS_defines_the_op_on_the_numpy_back_end(monkeypatch, name):
    xs = [0.3, -1.7]
    f, out, grads = with_doubled_row(monkeypatch, name, xs)  # eager, with the replaced row
    values, _, input_grads = trace(f, [], 2).value_and_grad(np.array([xs]), input_grads=True)
    assert values[0] == pytest.approx(out, rel=1e-12)
    assert input_grads[0].tolist() == pytest.approx(grads, rel=1e-12)


def test_parameters_need_not_be_laid_out_as_an_mlp():
    """A layer whose weights are not in the MLP's order is gathered, not viewed: same numbers."""
    random.seed(5)
    model = MLP(3, [4, 1])
    params = model.parameters()
    shuffled = params[::-1]
    f = lambda a, b, c: model([a, b, c]).tanh()  # noqa: E731
    batch = np.array([[0.1, -0.5, 2.0], [1.0, 0.3, -0.2]])
    v1, g1, x1 = trace(f, params, 3).value_and_grad(batch, input_grads=True)
    v2, g2, x2 = trace(f, shuffled, 3).value_and_grad(batch, input_grads=True)
    assert rel_err(v1, v2) == 0 and rel_err(g1, g2[::-1]) <= 1e-15 and rel_err(x1, x2) <= 1e-15
    _, g3, none = trace(f, params, 3).value_and_grad(batch, input_grads=False)
    assert none is None and rel_err(g3, g1) == 0
    theta = np.array([p.data for p in params]) * 2
    v4 = trace(f, params, 3)(batch, theta)
    for p, t in zip(params, theta):
        p.data = t
    assert rel_err(v4, [f(*map(Value, row)).data for row in batch.tolist()]) <= 1e-14


@pytest.mark.parametrize("name", ["cross_entropy", "logsumexp", "two cross_entropy"])
def test_a_softmax_loss_is_one_fused_op_and_stays_stable(name):
    """The numpy back end runs cross_entropy_one (with target weights) and losses.logsumexp as one op
    each (not their max chain): the same values and gradients as the eager graph, also where exp
    would overflow, and for weights that are numbers, inputs or made from inputs."""
    from micrograd.losses import FUSED, logsumexp
    from micrograd.replay.numpy.groups import FusedGroup, RuleGroup

    if name == "cross_entropy":
        f = lambda a, b, c, t: cross_entropy_one([a, b, c], [t, 1 - t, 0.0])  # noqa: E731
    elif name == "logsumexp":
        f = lambda a, b, c, t: logsumexp([a, b * t, c]) * 2.0  # noqa: E731
    else:  # two of them in one group, on inputs that are not consecutive rows

        def f(a, b, c, t):
            one = cross_entropy_one([a, b, c], [t, 1 - t, 0.0])
            return one + cross_entropy_one([c, a, b * 2], [0.5, 0.5, 1 - t])

    prog = trace(f, [], 4)
    fused = [g for g in prog.groups if isinstance(g, FusedGroup)]
    assert [g.rule for g in fused] == [FUSED[name.removeprefix("two ")]]
    assert fused[0].shape[1] == (2 if name.startswith("two") else 1)
    relus = [g for g in prog.groups if isinstance(g, RuleGroup) and g.rep.op == "ReLU"]
    assert not relus  # the max's relu chain is not replayed
    rows = [[1000.0, 0.0, -3.0, 1.0], [0.5, 0.25, 2.0, 0.0], [-800.0, -801.0, -799.5, 1.0]]
    values, _, input_grads = prog.value_and_grad(np.array(rows), input_grads=True)
    for row, v, dx in zip(rows, values, input_grads):
        out, grads = value_and_grads(f, row)
        assert rel_err(v, out) <= 1e-12 and rel_err(dx, grads) <= 1e-12


def agrees_with_eager(prog, fn, scale, rows):
    """The program's values, and its gradients for the inputs and for `scale` (its one
    parameter), are the eager engine's on every row, to 1e-12."""
    values, pgrad, igrads = prog.value_and_grad(np.array(rows), input_grads=True)
    total = 0.0
    for row, v, dx in zip(rows, values, igrads):
        leaves = [Value(x) for x in row]
        scale.grad = 0.0
        out = fn(*leaves)
        out.backward()
        total += scale.grad
        assert v == pytest.approx(out.data, rel=1e-12, abs=1e-12)
        assert list(dx) == pytest.approx([leaf.grad for leaf in leaves], rel=1e-12, abs=1e-12)
    assert pgrad[0] == pytest.approx(total, rel=1e-12, abs=1e-12)


@settings(max_examples=examples(40))
@given(softmaxes(), st.randoms(use_true_random=False))
def test_softmaxes_over_different_numbers_of_scores_are_one_padded_op(program, rnd):
    """logsumexps of one depth over 1 to 6 scores each (repeated scores too) are one fused op over
    a block padded with -inf: the eager engine's values, and gradients for the inputs and the
    parameter, to 1e-12."""
    from micrograd.replay.numpy.groups import FusedGroup, PaddedFusedGroup

    xs, heads = program
    scale = Value(0.9)
    fn = lambda *vs: run_softmaxes(heads, vs, scale)  # noqa: E731
    prog = trace(fn, [scale], len(xs), example=xs)
    fused = [g for g in prog.groups if isinstance(g, (FusedGroup, PaddedFusedGroup))]
    ragged = len({len(idx) for idx, _ in heads}) > 1
    assert [type(g) for g in fused] == [PaddedFusedGroup if ragged else FusedGroup]
    rows = [xs] + [[rnd.uniform(-3, 3) for _ in xs] for _ in range(3)]
    agrees_with_eager(prog, fn, scale, rows)


@settings(max_examples=examples(40))
@given(dots(), st.randoms(use_true_random=False))
def test_sums_of_products_of_computed_values_are_dot_products(program, rnd):
    """Sums of 1 to 6 products of computed values (x * x and repeated operands too), starting at
    a number, an input or their first product, are dot products: no group of their products is
    left, and the values and the gradients for the inputs and the parameter are the eager
    engine's, to 1e-12."""
    from micrograd.replay.numpy.groups import DotGroup, RuleGroup

    xs, sums = program
    scale = Value(0.9)
    fn = lambda *vs: run_dots(sums, vs, scale)  # noqa: E731
    prog = trace(fn, [scale], len(xs), example=xs)
    assert any(isinstance(g, DotGroup) for g in prog.groups)
    products = [g for g in prog.groups if isinstance(g, RuleGroup) and g.rep.op == "*"]
    assert sum(g.out.stop - g.out.start for g in products) <= len(xs)  # only x * scale
    rows = [xs] + [[rnd.uniform(-3, 3) for _ in xs] for _ in range(3)]
    agrees_with_eager(prog, fn, scale, rows)


def test_wrong_kinds_of_input_get_clear_errors():
    """Wrong kinds of input get clear errors, not internal ones: numpy integer labels work in
    cross_entropy, MLP(2, 3) asks for a list of sizes, weights of the wrong length are named."""
    assert cross_entropy([[Value(1.0), Value(2.0)]], [np.int64(1)]).data > 0
    with pytest.raises(TypeError, match="list of layer sizes"):
        MLP(2, 3)
    prog = trace(lambda x: x * 2, [], 1)
    with pytest.raises(ValueError, match="weights"):
        prog.value_and_grad(np.ones((3, 1)), weights=np.ones(2))


def test_the_array_path_trains_as_the_values_do():
    """pull() gives the program's parameter array, value_and_grad(params=theta) follows its
    in-place updates, push() writes it back; input gradients only when asked."""
    from micrograd.optim import SGD

    def train(array):
        random.seed(2)
        model = MLP(2, [4, 1])
        params = model.parameters()
        prog = trace(lambda a, b, t: (1 + -t * model([a, b])).relu(), params, 3)
        rows = np.array([[0.5, -1.0, 1.0], [-0.3, 0.8, -1.0], [1.2, 0.1, 1.0]])
        optimizer = SGD(params, lr=0.1)
        theta = prog.pull()
        assert prog.pull() is theta  # one array per program: the layers' views of it stay valid
        for _ in range(5):
            if array:
                losses, grads, dx = prog.value_and_grad(rows, 1 / 3, params=theta)
                optimizer.step_arrays(theta, grads)
            else:
                losses, grads, dx = prog.value_and_grad(rows, 1 / 3)
                for p, g in zip(params, grads.tolist()):
                    p.grad = g
                optimizer.step()
            assert dx is None  # input_grads=False unless asked
        if array:
            prog.push(grads)
            assert [p.grad for p in params] == grads.tolist()
        return [p.data for p in params]

    assert train(array=True) == pytest.approx(train(array=False), rel=1e-12)


def test_shared_weights_and_branches_without_parameters():
    """Backward writes a layer's gradient straight into its block only where no other use of the
    same parameters came first, and skips what leads to no parameter; the numbers stay eager's."""
    random.seed(7)
    w = [[Value(random.uniform(-1, 1)) for _ in range(3)] for _ in range(2)]  # 2 neurons, w + b
    params = [p for neuron in w for p in neuron]

    def f(x0, x1, t):
        def layer(xs):
            return [(n[2] + n[0] * xs[0] + n[1] * xs[1]).relu() for n in w]

        h = layer(layer([x0, x1]))  # the same weights, twice
        side = (-t * 3.0).tanh()  # reads no parameter: its backward is not run
        return (h[0] + h[1]) * side + 0.01 * sum(p * p for p in params)

    rows = [[0.3, -0.8, 1.0], [1.2, 0.4, -1.0], [-0.5, 0.9, 0.5]]
    prog = trace(f, params, 3)
    values, grads, dx = prog.value_and_grad(np.array(rows), input_grads=True)
    eager = np.zeros(len(params))
    for i, row in enumerate(rows):
        for p in params:
            p.grad = 0
        xs = [Value(x) for x in row]
        out = f(*xs)
        out.backward()
        eager += [p.grad for p in params]
        assert values[i] == pytest.approx(out.data, rel=1e-12)
        assert dx[i].tolist() == pytest.approx([x.grad for x in xs], rel=1e-12)
    assert rel_err(grads, eager) <= 1e-12
    _, again, _ = prog.value_and_grad(np.array(rows))
    assert rel_err(again, eager) <= 1e-12
    # (t + 2).tanh reads no parameter: backward skips both its groups, unless input grads are asked
    g = trace(lambda x, t: (w[0][0] * x).relu() * (t + 2.0).tanh(), params, 2)
    assert len(g._plan(False).groups) == len(g.groups) - 2 and len(g._plan(True).groups) == 5
    assert g.value_and_grad(np.array([[0.5, 1.0]]))[1][0] == pytest.approx(
        (w[0][0].data * 0.5 > 0) * 0.5 * math.tanh(3.0), rel=1e-15
    )


def test_parameters_changed_in_place_are_read_again_where_a_layer_gathers_them():
    """Two layers on the same x run as one matrix product; where their weights lie in the
    parameter vector in no regular layout (here shuffled), that product reads them by
    gathering: a copy, not a view. Trained in place (step_arrays on the caller's vector), each
    call reads the new numbers, as eager does."""
    from micrograd import replay

    rnd = random.Random(5)
    A, B = ([[Value(rnd.uniform(-1, 1)) for _ in range(3)] for _ in range(2)] for _ in "AB")
    params = [w for row in B + A for w in row]
    rnd.shuffle(params)

    def f(*x):
        ys = [sum((w * xi for w, xi in zip(row, x)), Value(0.0)) for row in A + B]
        return sum((y * y for y in ys), Value(0.0))

    prog = replay.compile(f, params, 3, backend="numpy")
    assert any(g.gathers() for g in prog.groups)
    theta = np.array([p.data for p in params])
    row = [0.5, -1.0, 2.0]
    for _ in range(3):
        _, grads, _ = prog.value_and_grad([row], params=theta)
        for p, x in zip(params, theta.tolist()):  # eager, at the same numbers
            p.data, p.grad = x, 0.0
        f(*map(Value, row)).backward()
        assert np.allclose(grads, [p.grad for p in params], rtol=1e-14, atol=0)
        theta -= 0.1 * grads  # in place, as an optimizer's step_arrays


def test_a_table_read_by_columns_is_a_view_of_the_parameters():
    """A layer whose weights are a table read by columns (output j = sum over v of x[v] *
    table[v][j], as a one-hot embedding reads wte) reads them as a transposed view, and a layer
    whose rows were written in another order than the parameters' (q, k and v interleaved by
    the trace) in the parameters' order: no copy, and the parameters changed in place are read
    again, as eager reads them."""
    from micrograd import replay

    rnd = random.Random(3)
    table = [[Value(rnd.uniform(-1, 1)) for _ in range(4)] for _ in range(3)]  # (vocab, dim)
    Q, K = ([[Value(rnd.uniform(-1, 1)) for _ in range(4)] for _ in range(2)] for _ in "QK")
    params = [w for row in table + Q + K for w in row]

    def f(*x):
        e = [sum((x[v] * table[v][j] for v in range(3)), Value(0.0)) for j in range(4)]
        qk = [
            sum((w * ei for w, ei in zip(row, e)), Value(0.0)) for pair in zip(Q, K) for row in pair
        ]
        return sum((y * y for y in qk), Value(0.0))

    prog = replay.compile(f, params, 3, backend="numpy")
    assert not prog.gathered
    theta = np.array([p.data for p in params])
    row = [0.0, 1.0, 0.5]
    for _ in range(3):
        _, grads, _ = prog.value_and_grad([row], params=theta)
        for p, x in zip(params, theta.tolist()):
            p.data, p.grad = x, 0.0
        f(*map(Value, row)).backward()
        assert np.allclose(grads, [p.grad for p in params], rtol=1e-14, atol=0)
        theta -= 0.1 * grads


def test_the_gpts_compiled_step_trains_as_eager_does_on_numpy():
    from test_gpt import trains_as_eager

    trains_as_eager("numpy")


@pytest.mark.parametrize(
    ("fn", "x", "eager_error"),
    [
        (lambda p, x: 1 / (p / x) + p, 0.0, ZeroDivisionError),
        (lambda p, x: (p * x).exp().sigmoid(), 1000.0, OverflowError),
    ],
)
def test_an_inf_in_between_that_a_later_op_makes_finite_is_what_the_docs_say(fn, x, eager_error):
    """As replay's docstring and docs/performance.md say: the numpy replay reports only outputs
    that are not finite, so these rows give numbers where eager and the python replay raise; the
    gradient comes back nan (which the Trainer refuses), and check() raises eager's error."""
    p = Value(1.0)
    numpy_prog = compile(lambda x: fn(p, x), [p], 1, example=[1.0], backend="numpy")
    values, grads, _ = numpy_prog.value_and_grad([[x]])
    assert math.isfinite(values[0]) and math.isnan(grads[0])
    python_prog = compile(lambda x: fn(p, x), [p], 1, example=[1.0], backend="python")
    with pytest.raises(eager_error):
        python_prog.value_and_grad([[x]])
    with pytest.raises(eager_error):
        numpy_prog.check([[x]])


@pytest.mark.parametrize("bias", ["parameter", "computed"])
def test_one_layer_over_several_inputs_is_one_batched_matrix_product(bias):
    """A layer applied to T inputs at one depth (a sequence's positions) runs as one batched
    product: the numbers are eager's, whether its biases are parameters or computed."""
    from micrograd.nn import Layer
    from micrograd.replay.numpy.groups import BatchedLinearGroup

    random.seed(3)
    layer, shift = Layer(3, 4, nonlin=False), Value(0.5)
    params = [*layer.parameters(), shift]

    def fn(*x):
        inputs = [list(x[t * 3 : t * 3 + 3]) for t in range(3)]  # three positions of 3 numbers
        if bias == "computed":  # a sum that starts at a computed number, not a parameter
            outs = [
                [sum((w * xi for w, xi in zip(n.w, xs)), shift * xs[0]) for n in layer.neurons]
                for xs in inputs
            ]
        else:
            outs = [layer.forward(xs) for xs in inputs]
        return sum((o.tanh() * (t + 1) for t, row in enumerate(outs) for o in row), Value(0.0))

    prog = trace(fn, params, 9)
    batched = [g for g in prog.groups if isinstance(g, BatchedLinearGroup)]
    assert len(batched) == 1 and batched[0].segments == 3
    rows = [[random.uniform(-1, 1) for _ in range(9)] for _ in range(5)]
    weights = [0.5, 1.0, -2.0, 0.25, 1.5]
    values, grads, dx = prog.value_and_grad(np.array(rows), np.array(weights), input_grads=True)
    want_values, want_grads, want_dx = per_row_eager(fn, params, rows, weights)
    assert values.tolist() == pytest.approx(want_values, rel=1e-12)
    assert grads.tolist() == pytest.approx(want_grads, rel=1e-12, abs=1e-14)
    assert dx.ravel().tolist() == pytest.approx(np.ravel(want_dx).tolist(), rel=1e-12, abs=1e-14)
