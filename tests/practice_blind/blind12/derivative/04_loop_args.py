# micrograd practice: derivative: a derivative by hand and by nudging
#
# Task: The stub defines f(a, b, c) = -a**3 + sin(3*b) - 1.0/c + b**2.5 - a**0.5. Write gradf(a,
# b, c), the list [df/da, df/db, df/dc] worked out by hand; numerical_grad(f, a, b, c, h), the
# same by nudging each input by h (forward differences, (f(a+h, b, c) - f(a, b, c)) / h); and
# symmetric_grad(f, a, b, c, h), with central differences (f(a+h) - f(a-h)) / (2h), which are
# closer.
#
# check it:   micrograd practice check derivative
# a hint:     micrograd practice hint derivative

import math


def f(a, b, c):
    return -(a**3) + math.sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    return [
        -3 * a**2 - 0.5 * a**-0.5,
        3 * math.cos(3 * b) + 2.5 * b**1.5,
        1 / c**2,
    ]


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    x = [a, b, c]
    f0 = f(*x)
    grads = []
    for i in range(3):
        x[i] += h
        grads.append((f(*x) - f0) / h)
    return grads


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    da = (f(a + h, b, c) - f(a - h, b, c)) / (2 * h)
    db = (f(a, b + h, c) - f(a, b - h, c)) / (2 * h)
    dc = (f(a, b, c + h) - f(a, b, c - h)) / (2 * h)
    return [da, db, dc]
