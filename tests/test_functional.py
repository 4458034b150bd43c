"""Gradients of gradients, the functional API (grad, value_and_grad, hessian) and gradcheck."""

import math

import pytest

from micrograd import Value
from micrograd.functional import grad, hessian, value_and_grad
from micrograd.gradcheck import GradcheckError, gradcheck


def nth_derivative(f, x0, n):
    x = Value(x0)
    g = f(x)
    for k in range(n):
        x.grad = 0.0
        g.backward(create_graph=k < n - 1)
        g = x.grad
    return g if not isinstance(g, Value) else g.data


@pytest.mark.parametrize("x0", [-1.3, 0.0, 0.4, 2.0])
def test_tanh_derivatives_to_third_order_match_closed_forms(x0):
    t = math.tanh(x0)
    assert nth_derivative(lambda x: x.tanh(), x0, 1) == pytest.approx(1 - t * t, rel=1e-14)
    assert nth_derivative(lambda x: x.tanh(), x0, 2) == pytest.approx(
        -2 * t * (1 - t * t), rel=1e-12, abs=1e-15
    )
    assert nth_derivative(lambda x: x.tanh(), x0, 3) == pytest.approx(
        (1 - t * t) * (6 * t * t - 2), rel=1e-12
    )


@pytest.mark.parametrize(
    "f,derivs",
    [
        (lambda x: x**4, lambda x: [4 * x**3, 12 * x**2, 24 * x, 24.0]),
        (lambda x: x.exp(), lambda x: [math.exp(x)] * 4),
        (lambda x: x.log(), lambda x: [1 / x, -1 / x**2, 2 / x**3, -6 / x**4]),
        (lambda x: x.sigmoid(), None),
    ],
)
def test_higher_orders_of_other_ops(f, derivs):
    x0 = 0.7
    if derivs is None:  # sigmoid: compare with finite differences of the lower order
        for n in (2, 3):
            h = 1e-5
            fd = (nth_derivative(f, x0 + h, n - 1) - nth_derivative(f, x0 - h, n - 1)) / (2 * h)
            assert nth_derivative(f, x0, n) == pytest.approx(fd, rel=1e-6)
        return
    for n, expected in enumerate(derivs(x0), start=1):
        assert nth_derivative(f, x0, n) == pytest.approx(expected, rel=1e-12)


def test_grads_are_values_with_create_graph():
    x = Value(3.0)
    (x * x * x).backward(create_graph=True)
    assert isinstance(x.grad, Value) and x.grad.data == 27.0


def test_functional_api_returns_floats_and_leaves_caller_alone():
    a = Value(1.5)
    a.grad = 42.0

    def f(x, y):
        return x * x * y + y.exp()

    assert grad(f)(a, 2.0) == 6.0
    assert grad(f, argnums=(0, 1))(1.5, 2.0) == (6.0, 2.25 + math.exp(2.0))
    value, g = value_and_grad(f)(1.5, 2.0)
    assert value == 4.5 + math.exp(2.0) and g == 6.0
    assert hessian(f)(1.5, 2.0) == [[4.0, 3.0], [3.0, math.exp(2.0)]]
    assert a.grad == 42.0 and a.data == 1.5


def test_grad_of_constant_function():
    assert grad(lambda x, y: y * 2)(1.0, 3.0) == 0.0
    assert hessian(lambda x: 5.0)(1.0) == [[0.0]]


def test_gradcheck_catches_a_wrong_rule():
    def bad_square(x):
        out = Value(x.data**2, (x,), "bad")

        def _backward():
            x.grad += 3 * x.data * out.grad  # wrong: should be 2 * x

        out._backward = _backward
        return out

    with pytest.raises(GradcheckError, match=r"input 0 .*backward gives 3\.59.*give 2\.39"):
        gradcheck(bad_square, [1.2])
    assert gradcheck(lambda x: x * x, [1.2])


# ---------------------------------------------------------------------------- hostile and edge input
def test_second_derivative_of_sqrt_at_zero_is_minus_inf_as_pytorch():
    """The hessian of sqrt at 0 is -inf, as PyTorch gives, not 0."""
    assert hessian(lambda x: x**0.5)(0.0) == [[-math.inf]]
