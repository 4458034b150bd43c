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
    root_a = math.sqrt(a)
    return [
        -3.0 * a * a - 1.0 / (2.0 * root_a),  # d(-a^3)/da + d(-a^(1/2))/da
        3.0 * math.cos(3.0 * b) + 2.5 * b * math.sqrt(b),  # chain rule on sin(3b), b^2.5
        1.0 / (c * c),  # d(-1/c)/dc
    ]


def _nudged(args, i, dx):
    """args with the i-th one moved by dx."""
    moved = list(args)
    moved[i] = moved[i] + dx
    return moved


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    args = (a, b, c)
    here = f(*args)
    return [(f(*_nudged(args, i, h)) - here) / h for i in range(len(args))]


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    args = (a, b, c)
    return [
        (f(*_nudged(args, i, h)) - f(*_nudged(args, i, -h))) / (2 * h)
        for i in range(len(args))
    ]
