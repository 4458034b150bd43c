"""micrograd.guards: numbers checked where they come in, op errors that name the op and the value,
one backward pass at a time, and a failed pass undone."""

import sys
import threading

import pytest

from micrograd import Value, detect_anomaly
from micrograd.guards import as_float, op_error, read
from micrograd.modes import TraceError, tracing


def test_a_number_comes_in_as_a_float_or_is_refused_naming_the_op_and_the_value():
    assert as_float(3, "*") == 3.0 and type(as_float(True, "*")) is float
    with pytest.raises(
        TypeError, match=r"\*: expected a real number or a Value, got 'abc' of type str"
    ):
        as_float("abc", "*")
    with pytest.raises(TypeError, match=r"Value\(\): expected a real number, got"):
        as_float([1.0], "Value()")
    with pytest.raises(OverflowError, match=r"\+: 1000000000000.* is too large for a float"):
        as_float(10**400, "+")
    with pytest.raises(TypeError, match="of type micrograd.engine.Value"):
        as_float(Value(1.0), "/")  # a Value is not a number here: it would lose its graph


def test_an_ops_error_keeps_the_op_its_inputs_and_the_key_of_its_reason():
    failed = op_error(ZeroDivisionError("float division by zero"), "/", Value(1.0), Value(0.0))
    assert isinstance(failed, ZeroDivisionError)
    assert (failed.op, failed.inputs, failed.reason) == ("/", "1.0, 0.0", "reason_division_by_zero")
    assert "'/'" in str(failed) and "(1.0, 0.0)" in str(failed)


def test_a_comparison_reads_the_number_but_not_while_tracing():
    assert read(Value(2.5)) == 2.5 and read(3) == 3.0
    with tracing(), pytest.raises(TraceError, match="control flow that depends on data"):
        read(Value(1.0))


def test_inner_grads_restart_from_zero_and_a_failed_pass_leaves_every_grad():
    a = Value(2.0)
    h = a * a
    y = h.tanh()
    y.backward()
    first = (a.grad, h.grad)
    y.backward()
    assert h.grad == first[1] and a.grad == 2 * first[0]  # the inner grad is not compounded

    def fail():
        raise RuntimeError("stop")

    z = Value(1.0, (h,), "f")
    z._backward = fail
    with pytest.raises(RuntimeError):
        (z * a).backward()
    assert (a.grad, h.grad, z.grad) == (2 * first[0], first[1], 0)


def test_a_failing_backward_leaves_every_grad_as_it_was():
    """An exception inside backward() leaves the grads already accumulated as they were."""
    w = Value(2.0)
    (w * 3).backward()
    assert w.grad == 3.0
    bad = Value(10.0, (w * 5,), "myop")  # made by hand, with a closure that fails half-way

    def fails():
        w.grad += 100.0
        raise ValueError("myop failed")

    bad._backward = fails
    with pytest.raises(ValueError, match="myop"):
        (bad + w).backward()
    assert w.grad == 3.0

    x = Value(0.0)
    x.grad = 1.0
    with detect_anomaly():
        y = x**0.5
        with pytest.raises(FloatingPointError):
            y.backward()
    assert x.grad == 1.0

    a, b = Value(1.0), Value(2.0)
    a.grad, b.grad = 7.0, 8.0
    c = a * b

    def half_done():  # changes one grad, then fails
        a.grad += 100.0
        raise RuntimeError("user closure failed")

    c._backward = half_done
    with pytest.raises(RuntimeError):
        (c + a).backward()
    assert (a.grad, b.grad, c.grad) == (7.0, 8.0, 0)


def test_threads_on_graphs_that_share_a_subgraph_get_exact_grads():
    """Threads that backpropagate graphs sharing a subgraph get exact grads."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(5):
            x = Value(1.5)
            h = x
            for _ in range(5000):
                h = h * 1.0 + 0.0
            a, b = h * 2, h * 3
            threads = [threading.Thread(target=v.backward) for v in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert x.grad == 5.0
    finally:
        sys.setswitchinterval(old)
