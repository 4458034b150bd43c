"""Robustness: anomaly detection, fuzzed expressions and CLI input, resource limits."""

import math
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from micrograd import Value, detect_anomaly, no_grad
from micrograd.engine import topo_order
from micrograd.teach.expr import ExpressionError, parse_expression
from programs import central_difference, examples


# ---------------------------------------------------------------------------- detect_anomaly
def test_forward_nan_is_caught_with_op_inputs_and_place():
    with detect_anomaly():
        x = Value(-1.0)
        with pytest.raises(FloatingPointError) as e:
            x**0.5
    msg = str(e.value)
    assert "'**0.5'" in msg and "-1.0" in msg and "nan" in msg
    assert "test_hardening.py" in msg and "x**0.5" in msg


def test_backward_inf_is_caught_and_says_where_the_value_was_made():
    with detect_anomaly():
        x = Value(0.0)
        y = x**0.5  # d/dx sqrt(x) is infinite at 0
        with pytest.raises(FloatingPointError) as e:
            y.backward()
    msg = str(e.value)
    assert "backward of op '**0.5'" in msg and "inf" in msg and "y = x**0.5" in msg


def test_anomaly_mode_is_off_outside_and_per_thread():
    x = Value(-1.0)
    assert math.isnan((x**0.5).data)  # no error outside the block
    with detect_anomaly():
        y = x * 2
    assert y._prev == (x, y._prev[1])


def test_no_grad_inside_anomaly_mode():

    with detect_anomaly(), no_grad():
        z = Value(2.0) * 3
    assert z._prev == () and z.data == 6.0


# ---------------------------------------------------------------------------- fuzzing
NAMES = ["a", "b", "c"]
atoms = st.one_of(
    st.sampled_from(NAMES), st.floats(-5, 5, allow_nan=False).map(lambda f: f"{f:.3g}")
)


def expressions():
    return st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            st.tuples(st.sampled_from(["relu", "tanh", "sigmoid", "exp", "log", "-"]), inner).map(
                lambda t: f"{t[0]}({t[1]})"
            ),
        ),
        max_leaves=12,
    )


@settings(max_examples=examples(300))
@given(expressions(), st.lists(st.floats(-3, 3, allow_nan=False), min_size=3, max_size=3))
def test_fuzzed_expressions_evaluate_or_fail_cleanly(text, values):
    env = dict(zip(NAMES, values))
    try:
        out = parse_expression(text, env)
    except ExpressionError:
        return  # a documented error: domain, overflow, zero to a negative power
    out.backward()
    for name, grad, numeric, why in _judge(text, env, out):
        if why:  # finite differences cannot judge this input here (see central_difference)
            event(why.split(":")[0])
            continue
        if not math.isfinite(grad) and _a_local_derivative_overflows(out):
            # ((9.32e-217 ** b) ** a): d(outer)/d(inner) is beyond float64 though the product
            # along the path is not; reverse mode multiplies the locals, PyTorch gives inf too
            event("overflow: a local derivative is beyond float64")
            continue
        if math.isnan(grad) and _negative_base_with_a_value_exponent(out):
            # d(x**y)/dy is nan for x < 0, as in PyTorch (log x is not real there), even where y
            # cannot move: (tanh(-1) ** (a - a)) is 1 for every a, but the chain rule meets the nan
            event("convention: nan for a negative base's exponent")
            continue
        assert abs(grad - numeric) <= 1e-4 * (1 + abs(numeric)), (text, name, grad, numeric)


def _a_local_derivative_overflows(out):
    return any(not math.isfinite(d) for v in topo_order(out) for d in v._local)


def _negative_base_with_a_value_exponent(out):
    return any(v._op == "**" and v._prev[0].data < 0 for v in topo_order(out))


def _judge(text, env, out, black_box=False):
    """(name, engine's grad, central difference, why it cannot judge) for each input of `out`.
    With black_box, the oracle sees f's values only, not its graph (for testing its rules)."""
    leaves = {v.label: v for v in topo_order(out) if not v._prev and v.label in env}
    names = list(env)
    for i, name in enumerate(names):
        if name in leaves:
            grad = leaves[name].grad

            def graph(ys):
                root = parse_expression(text, dict(zip(names, ys)))
                return Value(root.data) if black_box else root

            numeric, why = central_difference(graph, list(env.values()), i, 1e-7)
            yield name, grad, numeric, why


# redteam T1: where the old oracle failed; the engine was right each time
T1 = [
    ("(c ** a)", {"a": 5.85e-270, "c": 8.0e-101}, "domain"),
    ("(c ** a)", {"a": 4.4e-253, "c": 1.3e-64}, "domain"),
    ("(c ** a)", {"a": 2.0e-262, "c": 8.4e-15}, "domain"),
    ("(b ** a)", {"a": 5.47e-158, "b": 8.1e-92}, "domain"),
    ("(b ** a)", {"a": 4.3e-212, "b": 5.96e-08}, "domain"),
    ("(b ** a)", {"a": 1.4e-238, "b": 7.8e-213}, "domain"),
    ("(a ** c)", {"a": 5.94e-175, "c": 6.5e-261}, "domain"),
    ("(b ** 9.88e-180)", {"b": 6.56e-163}, "domain"),
    ("(b ** 1.86e-205)", {"b": 1.93e-97}, "domain"),
    ("(c ** 1.08e-273)", {"c": 1.95e-205}, "domain"),
    ("(a ** 7.79e-237)", {"a": 6.19e-126}, "domain"),
    ("tanh((b / a))", {"a": 2.2e-115, "b": 1.0}, "not smooth"),
    ("tanh((c / a))", {"a": 5.96e-08, "c": 1.0}, "not smooth"),
    ("tanh((a / b))", {"a": 1.0, "b": 5.6e-96}, "not smooth"),
    ("relu(tanh((b / a)))", {"a": 5.96e-08, "b": 1.0}, "not smooth"),
    ("tanh((a / (2.23e-309 / 0.25)))", {"a": 1.97e-261}, "not smooth"),
    ("(relu(b) / b)", {"b": 9.76e-279}, "not smooth"),
    ("(a ** relu(b))", {"a": 0.0, "b": 0.0}, "not smooth"),
    ("(b ** relu(a))", {"a": 0.0, "b": 0.0}, "not smooth"),
    # found by `python3 tasks.py fuzz`: a pole within the step; 0**0 where the slope is 2 log|a| + 2;
    # a derivative beyond a float's range
    ("(a / b)", {"a": 1.0, "b": 4.371022968720212e-33}, "rounding"),
    ("((a * a) ** a)", {"a": 0.0}, "no derivative"),
    ("(a / 2.23e-313)", {"a": 0.0}, "domain"),
    ("((a * a) / (a + b))", {"a": 0.0, "b": 1.330151464578259e-51}, "singular"),
    ("((a - a) ** b)", {"a": 0.0, "b": 0.5}, "singular"),
    # N21 (`tasks.py fuzz` with seed 11): a huge slope at a point far smaller than the step
    ("((b * b) ** a)", {"a": 2.220446049250313e-16, "b": 2.66e-145}, "scale"),
]


def test_an_overflowing_local_derivative_is_recognised():
    out = parse_expression("((9.32e-217 ** b) ** a)", {"a": -2.0, "b": 0.5})  # found by fuzz
    out.backward()
    assert math.isfinite(out.data) and _a_local_derivative_overflows(out)
    assert not _a_local_derivative_overflows(parse_expression("(a ** 2)", {"a": 3.0}))


def test_the_nan_convention_of_a_negative_base_is_recognised():
    out = parse_expression("(tanh(-1) ** (a - a))", {"a": 0.0})  # found by `tasks.py fuzz`
    out.backward()
    assert math.isnan(out._prev[1]._prev[0].grad) and _negative_base_with_a_value_exponent(out)
    assert not _negative_base_with_a_value_exponent(parse_expression("(a ** 2)", {"a": -1.0}))


@pytest.mark.parametrize("text, env, rule", T1)
def test_the_skip_rules_on_redteam_T1(text, env, rule):
    out = parse_expression(text, env)
    out.backward()
    verdicts = list(_judge(text, env, out))  # the oracle with f's graph
    assert any(why for _, _, _, why in verdicts), verdicts
    for name, grad, numeric, why in verdicts:  # what is judged agrees
        assert why or abs(grad - numeric) <= 1e-4 * (1 + abs(numeric)), (name, grad, numeric)
    # each value-based rule on its own: the oracle with f's values alone
    blind = list(_judge(text, env, out, black_box=True))
    if rule == "singular":  # values alone are fooled here: why the graph is looked at
        assert any(not why and not abs(g - n) <= 1e-4 * (1 + abs(n)) for _, g, n, why in blind)
    else:
        assert any(why and why.startswith(rule) for _, _, _, why in blind), blind


@settings(max_examples=examples(300))
@given(st.text(max_size=60))
def test_fuzzed_text_never_crashes_the_parser(text):
    try:
        parse_expression(text, {"a": 1.0, "b": 2.0})
    except ExpressionError:
        pass


@settings(max_examples=examples(40))
@given(st.text(alphabet="ab()+-*/. 0123456789relutanhxp_,[]'\"=", max_size=40))
def test_fuzzed_cli_input_exits_0_or_2(text):
    from micrograd.app.cli import main

    code = main(["explain", "--set", "a=1.5", "--set", "b=-0.5", "--", text])
    assert code in (0, 2)


# ---------------------------------------------------------------------------- resources
def test_ten_million_nodes_fail_cleanly_with_memory_error_under_a_limit():
    resource = pytest.importorskip("resource")
    script = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (700 * 2**20, 700 * 2**20))
        from micrograd import Value
        x = Value(1.0)
        y = x
        try:
            for _ in range(10_000_000):
                y = y + x
            y.backward()
            outcome = f"worked {x.grad}"
        except MemoryError:
            outcome = "MemoryError"
        del y  # after the except block the traceback is gone, so this frees the graph
        big = [0.0] * 10_000_000  # and the memory is usable again
        print(outcome, len(big))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.strip() in ("MemoryError 10000000", "worked 10000001.0 10000000")
    assert resource is not None


@pytest.mark.skipif(
    not os.environ.get("MICROGRAD_BIG_TESTS"),
    reason="set MICROGRAD_BIG_TESTS=1 (needs ~4 GB, ~1 min)",
)
def test_ten_million_nodes_work():
    x = Value(1.0)
    y = x
    for _ in range(10_000_000):
        y = y + x
    y.backward()
    assert x.grad == 10_000_001.0


def test_atheris_fuzzer_finds_nothing():
    pytest.importorskip("atheris")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = subprocess.run(
        [
            sys.executable,
            "fuzz/fuzz_expressions.py",
            "-runs=20000",
            "-seed=7",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Done 20000 runs" in result.stderr


def test_constants_fold_with_the_engines_numerics():
    # found by `python3 tasks.py fuzz`: (0 - 1) ** 0.5 folded by Python's ** is a complex number
    assert math.isnan(parse_expression("((0 - 1) ** 0.5)", {}).data)
    with pytest.raises(ExpressionError, match="negative power"):
        parse_expression("0 ** -1", {})


def test_huge_integer_constants_fold_quickly():
    # found by the atheris fuzzer: an integer power of integer literals folded in Python integers
    # (2**99999999) takes minutes
    import time

    start = time.perf_counter()
    texts = ["2**99999999", "a * 9**999999999", "9**9**9", "(9**9)**(9**9) + a", "1" + "0" * 5000]
    for text in texts:
        with pytest.raises(ExpressionError):
            parse_expression(text, {"a": 1.0})
    assert time.perf_counter() - start < 5
    assert parse_expression("a**2", {"a": 3.0})._op == "**2"  # an int exponent stays the op's name
