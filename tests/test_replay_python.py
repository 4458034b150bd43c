"""micrograd.replay.python: a tape written out as Python gives the eager engine's numbers, bit for
bit."""

import math
import random
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from micrograd import Value
from micrograd.engine import OPS
from micrograd.losses import bce_with_logits
from micrograd.modes import TraceError
from micrograd.nn import MLP
from micrograd.replay import compile


def python(fn, params, n_inputs, example=None, fold=True):
    """fn compiled by the python back end."""
    return compile(fn, params, n_inputs, example, backend="python", fold=fold)


def per_row_eager(fn, params, rows, weights):
    """What value_and_grad promises, bit for bit: fn run eagerly on each row, and
    (weight * out).backward() after each, the parameters' grads adding up."""
    for p in params:
        p.grad = 0
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # backward() of a nan warns
        for row, w in zip(rows, weights):
            out = fn(*[Value(float(x)) for x in row])
            values.append(out.data)
            (out * w).backward()
    return values, [float(p.grad) for p in params], None


def rel_err(a, b):
    scale = max(1e-300, max(abs(y) for y in b))
    return max(abs(x - y) for x, y in zip(a, b)) / scale


def hinge_rows(n, seed=0):
    rng = random.Random(seed)
    return [[rng.uniform(-2, 2), rng.uniform(-2, 2), rng.choice((-1.0, 1.0))] for _ in range(n)]


@pytest.mark.parametrize("activation", ["relu", "tanh", "sigmoid"])
@pytest.mark.parametrize("fold", [True, False])
def test_mlp_gradients_are_the_eager_engines(activation, fold):
    random.seed(1)
    model = MLP(2, [6, 5, 1], activation=activation)
    params = model.parameters()

    def fn(x0, x1, t):
        return (1 + -t * model([x0, x1])).relu()

    rows = hinge_rows(30)
    weights = [random.uniform(0.1, 1.0) for _ in rows]
    prog = python(fn, params, 3, fold=fold)
    values, grads, _ = prog.value_and_grad(rows, weights)
    expected_values, expected_grads, _ = per_row_eager(fn, params, rows, weights)
    assert values == expected_values and grads == expected_grads  # the same bits
    assert any(g != 0 for g in grads)

    # one backward() over the whole batch adds the rows in another order: to rounding
    model.zero_grad()
    total = sum((fn(*map(Value, r)) * w for r, w in zip(rows, weights)), Value(0.0))
    total.backward()
    assert rel_err(grads, [p.grad for p in params]) <= 1e-12
    assert rel_err([sum(v * w for v, w in zip(values, weights))], [total.data]) <= 1e-12


def test_the_benchmark_step_with_a_mean_and_l2():
    random.seed(1337)
    model = MLP(2, [16, 16, 1])
    params = model.parameters()
    rows = hinge_rows(40, seed=3)
    prog = python(lambda x0, x1, t: (1 + -t * model([x0, x1])).relu(), params, 3)
    reg = python(lambda: 1e-4 * sum(p * p for p in params), params, 0)
    losses, g_data, _ = prog.value_and_grad(rows, 1 / len(rows))
    (r,), g_reg, _ = reg.value_and_grad([()])

    scores = [model([Value(x0), Value(x1)]) for x0, x1, _ in rows]
    hinge = [(1 + -t * s).relu() for (_, _, t), s in zip(rows, scores)]
    loss = sum(hinge) * (1.0 / len(hinge)) + 1e-4 * sum(p * p for p in params)
    model.zero_grad()
    loss.backward()
    assert rel_err([sum(losses) / len(losses) + r], [loss.data]) <= 1e-12
    assert rel_err([a + b for a, b in zip(g_data, g_reg)], [p.grad for p in params]) <= 1e-12


def test_every_op_and_operand_order():
    a, b, c = Value(0.7), Value(-1.3), Value(2.1)
    params = [a, b, c]

    def fn(x, y):
        q = (a * x + b) / (c + y * y)  # + * /
        r = (x * x + c * c + 1).log() - (a - y).exp()  # log exp -
        s = q**2 + b**3 + (x * x + 1) ** -0.5 + c**y + 2 ** (a * x)  # ** k, ** Value, rpow
        t = (a * y).tanh() + (b * x).sigmoid() + (c * x).sin() * (a * y).cos()
        u = 1 / (b - 3) + (-a) * (a * x).relu() + (c * y - 1).relu()  # rtruediv, neg, relu
        return q * r + s - t * u + a * a  # a parameter read twice in a row

    rows = [[0.3, -0.4], [1.2, 0.8], [-0.9, 1.7], [2.0, -2.0], [0.0, 0.0]]
    weights = [1.0, 0.5, -2.0, 0.25, 3.0]
    expected = per_row_eager(fn, params, rows, weights)
    for fold in (True, False):
        prog = python(fn, params, 2, fold=fold)
        assert prog.value_and_grad(rows, weights) == expected
    src = python(fn, params, 2).source
    # every op's rule from OPS written out (replay.python.inline.inline_rule): no rule called
    assert "R_" not in src and "m_sin(" in src and "m_pow(" in src and "_times(" not in src


@pytest.mark.parametrize("through_rule", [False, True])
@pytest.mark.parametrize("op", list(OPS))
def test_every_op_in_ops(op, through_rule, monkeypatch):
    """Each op, written out or (through_rule) called through its rule: the eager engine's bits."""
    from catalog import apply, point  # tests/catalog.py: each op applied to Values, in its domain

    f = apply(op)
    if f is None:
        pytest.skip(f"Value has no method for {op!r}")
    params = [Value(x) for x in point(op)]
    if through_rule:
        rule = OPS[op]
        monkeypatch.setitem(OPS, op, lambda m, *xs: rule(m, *xs))  # a lambda: not written out

    def fn(s):
        return f(*[p * s for p in params])

    rows = [[1.0], [0.9], [1.1]]
    expected = per_row_eager(fn, params, rows, [1.0, 0.5, 2.0])
    assert python(fn, params, 1).value_and_grad(rows, [1.0, 0.5, 2.0]) == expected


def test_a_dead_relu_passes_nothing_back_even_from_inf():
    p = Value(-1.0)

    def fn(x):  # sqrt(relu(p * x)): the sqrt's slope at 0 is inf, the relu is dead
        return (p * x).relu() ** 0.5

    values, grads, _ = python(fn, [p], 1).value_and_grad([[1.0]])
    assert values == [0.0] and grads == [0.0]
    assert per_row_eager(fn, [p], [[1.0]], [1.0])[1] == [0.0]


def test_a_dead_relu_through_its_rule_too(monkeypatch):
    """An op whose rule can't be written out (a lambda) is called through OPS, and its int 0
    slope still passes nothing back from an inf."""
    rule = OPS["ReLU"]
    monkeypatch.setitem(OPS, "ReLU", lambda m, a: rule(m, a))
    p = Value(-1.0)
    prog = python(lambda x: (p * x).relu() ** 0.5, [p], 1)
    assert "R_ReLU(" in prog.source
    assert prog.value_and_grad([[1.0], [-4.0]]) == ([0.0, 2.0], [0.0 + -4.0 * 0.25], None)


def test_a_live_unit_passes_inf_and_nan_on_as_eager():
    p = Value(0.0)

    def fn(x):
        return (p * x) ** 0.5  # slope inf at 0

    got = python(fn, [p], 1).value_and_grad([[1.0]])
    expected = per_row_eager(fn, [p], [[1.0]], [1.0])
    assert got[1] == expected[1] == [math.inf]


def test_several_outputs_the_first_differentiated():
    random.seed(2)
    model = MLP(2, [4, 1])
    params = model.parameters()

    def one(x0, x1, t):
        z = model([x0, x1])
        return bce_with_logits([z], [t]), z

    rows = [[0.5, -1.0, 1.0], [1.5, 0.2, 0.0], [-0.3, 0.9, 1.0]]
    out, grads, _ = python(one, params, 3).value_and_grad(rows, 1 / 3)
    losses, expected, _ = per_row_eager(lambda *r: one(*r)[0], params, rows, [1 / 3] * 3)
    assert [loss for loss, _ in out] == losses and grads == expected
    assert [z for _, z in out] == [model(r[:2]).data for r in rows]


def test_parameters_read_each_call_or_passed():
    p, q = Value(2.0), Value(3.0)
    prog = python(lambda x: p * x + q, [p, q], 1)
    assert prog.value_and_grad([[1.0], [2.0]]) == ([5.0, 7.0], [3.0, 2.0], None)
    p.data = 10.0
    assert prog.value_and_grad([[1.0]])[0] == [13.0]
    assert prog.value_and_grad([[1.0]], params=[1.0, 1.0])[0] == [2.0]
    assert p.data == 10.0


def test_other_values_are_frozen_and_unused_parameters_get_zero():
    p, unused, frozen = Value(2.0), Value(5.0), Value(3.0)
    prog = python(lambda x: p * x * frozen, [p, unused], 1)
    frozen.data = 100.0
    assert prog.value_and_grad([[1.0]], weights=2.0) == ([6.0], [6.0, 0.0], None)


def test_edge_shapes():
    p = Value(1.5)
    assert python(lambda: p, [p], 0).value_and_grad([(), ()]) == ([1.5, 1.5], [2.0], None)
    assert python(lambda x: x, [p], 1).value_and_grad([[4]]) == ([4.0], [0.0], None)
    assert python(lambda x: x * x, [p], 1).value_and_grad([]) == ([], [0.0], None)


def test_long_sums_compile():
    ps = [Value(random.uniform(-1, 1)) for _ in range(500)]

    def fn(x):
        return sum((p * x for p in ps), Value(0.0)).tanh()

    prog = python(fn, ps, 1)
    assert prog.value_and_grad([[0.01], [-0.02]]) == per_row_eager(
        fn, ps, [[0.01], [-0.02]], [1, 1]
    )


def test_hand_made_ops_are_refused_by_name():
    p = Value(1.0)

    def double(a):
        out = Value(2 * a.data, (a,), "double")

        def _backward():
            a.grad += 2 * out.grad

        out._backward = _backward
        return out

    with pytest.raises(TraceError, match="'double'"):
        python(lambda x: double(p * x), [p], 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TraceError, match="'forgot'"):  # no closure set at all
            python(lambda x: Value(1.0, (p, x), "forgot"), [p], 1)


def test_bad_calls_are_refused():
    p = Value(1.0)
    prog = python(lambda x, y: p * x + y, [p], 2)
    with pytest.raises(ValueError, match="row 1 has 3 numbers, expected 2"):
        prog.value_and_grad([[1, 2], [1, 2, 3]])
    with pytest.raises(ValueError, match=r"weights must be a number or one per row \(1\), got 2"):
        prog.value_and_grad([[1, 2]], [1.0, 2.0])
    with pytest.raises(ValueError, match="params has 2 numbers, expected 1"):
        prog.value_and_grad([[1, 2]], params=[1.0, 2.0])
    with pytest.raises(TraceError, match="must return a Value"):
        python(lambda x: 1.0, [p], 1)
    with pytest.raises(TraceError):  # a branch on data cannot be traced
        python(lambda x: x if x > 0 else -x, [p], 1)
    with pytest.raises(ValueError, match="not a leaf"):
        python(lambda x: x, [p * 2], 1)
    with pytest.raises(ValueError, match="example has 1 numbers"):
        python(lambda x, y: x, [p], 2, example=[1.0])


def test_a_failing_op_is_named_with_its_row():
    p = Value(1.0)
    prog = python(lambda x: (p * x).log(), [p], 1)
    with pytest.raises(ValueError, match=r"row 2: op 'log' on \(-3.0\)"):
        prog.value_and_grad([[1.0], [2.0], [-3.0]])
    div = python(lambda x: p / x, [p], 1)
    with pytest.raises(ZeroDivisionError, match="row 1: op '/'"):
        div.value_and_grad([[1.0], [0.0]], params=[4.0])
    assert p.data == 1.0  # the parameters the eager re-run used are put back


def test_an_op_added_to_ops_runs_through_its_rule(monkeypatch):
    """An op added to OPS whose rule can't be written out is called through its rule, whatever
    its name."""
    from micrograd import engine

    def cube(m, a):
        return a * a * a, (3 * a * a,)

    monkeypatch.setitem(OPS, "x^3", cube)
    p = Value(1.5)

    def fn(x):
        return engine._apply1("x^3", p * x)

    prog = python(fn, [p], 1)
    assert f"R_{list(OPS).index('x^3')}(" in prog.source
    assert prog.value_and_grad([[2.0]]) == per_row_eager(fn, [p], [[2.0]], [1])
    made = engine._apply1("x^3", p)
    monkeypatch.delitem(OPS, "x^3")  # a node whose op has no rule any more
    with pytest.raises(TraceError, match="'x\\^3' has no rule"):
        python(lambda x: made * x, [p], 1)


EDGE_NUMBERS = [math.nan, math.inf, -math.inf, -0.0, 0.0, 5e-324, -1e-310, 1e300, 2.0, -2.5, 0.5]


def same(a, b):
    """Equal as the module promises: nan equals nan, and 0.0 equals -0.0."""
    return all(x == y or (x != x and y != y) for x, y in zip(a, b)) and len(a) == len(b)


def eager_or_error(fn, params, rows):
    try:
        return per_row_eager(fn, params, rows, [1.0] * len(rows))
    except (ArithmeticError, ValueError) as e:
        return type(e)


@settings(max_examples=150, deadline=None)
@given(
    k=st.sampled_from(EDGE_NUMBERS) | st.floats(-4, 4),
    c=st.sampled_from(EDGE_NUMBERS),
    x=st.sampled_from(EDGE_NUMBERS) | st.floats(-3, 3),
    shape=st.integers(0, 3),
)
def test_edge_constants_give_the_eager_engines_numbers(k, c, x, shape):
    """Non-finite, signed-zero and subnormal constants, as exponents and as operands, written into
    the generated source or kept as constants: every call gives eager's numbers or its error."""
    p = Value(0.75)
    fn = [
        lambda v: (p * v) ** k,
        lambda v: (p + c) * v**k,
        lambda v: (c * p - v) ** k + c,
        lambda v: ((p * v).tanh() + c) ** k * p,
    ][shape]
    for fold in (True, False):
        expected = eager_or_error(fn, [p], [[x]])
        try:
            got = python(fn, [p], 1, fold=fold).value_and_grad([[x]])
        except (ArithmeticError, ValueError) as e:
            assert isinstance(expected, type) and isinstance(e, expected), (expected, e)
            continue
        assert not isinstance(expected, type), (got, expected)
        assert same(got[0], expected[0]) and same(got[1], expected[1]), (got, expected)


def test_an_infinite_or_nan_exponent_is_written_as_a_number():
    w = Value(0.5)
    for k in (math.inf, -math.inf, math.nan):
        prog = python(lambda x, k=k: (w * x) ** k, [w], 1)
        assert same(prog.value_and_grad([[2.0]])[0], [1.0**k])


def test_a_rule_inlined_is_its_body_with_the_inputs_put_in():
    """inline_rule writes relu's rule and FloatMath's one-expression functions out as code, and
    calls a function of the namespace that is not one expression (tanh) by name."""
    from micrograd.maths import FloatMath
    from micrograd.replay.python.inline import inline_rule

    relu = inline_rule(OPS["ReLU"], ["x0"], 1, FloatMath)
    assert relu is not None and relu.statements == [] and relu.functions == {}
    assert relu.out == "0.0 if x0 < 0 else x0" and relu.locals == ["1 if x0 > 0 else 0"]
    tanh = inline_rule(OPS["tanh"], ["x0"], 1, FloatMath)
    assert tanh is not None and tanh.statements == ["r_t = m_tanh(x0)"]
    assert tanh.functions == {"m_tanh": math.tanh}
    # a rule that is not a def of the readable shape is called, not inlined
    assert inline_rule(lambda m, a: (a, (1,)), ["x0"], 1, FloatMath) is None


def test_no_syntax_tree_outlives_generating_a_program():
    """The rules' parsed sources are dropped once a program is generated: kept, they would be
    ~7,700 objects that every full garbage collection of a training step walks."""
    import ast
    import gc

    from micrograd.replay.python import inline

    a = Value(0.5)
    compile(lambda x: (a * x).relu() + x.tanh(), [a], 1, backend="python")
    gc.collect()
    assert inline._functions_in.cache_info().currsize == 0
    # type(), not isinstance(): that would ask every object in the process for its __class__
    assert not [o for o in gc.get_objects() if type(o) in (ast.FunctionDef, ast.Name)]
