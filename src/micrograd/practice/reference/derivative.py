# mypy: allow-untyped-defs
"""The reference solution of the first exercise, on plain numbers before any Value: a derivative
by hand, and the same by nudging each input (forward and central differences).

Marked like engine.py: the part starts at `# part: derivative`, and a `# TODO` comment marks where
the learner's own code starts.
"""

import math


# part: derivative
def f(a, b, c):
    return -(a**3) + math.sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    return [-3 * a**2 - 0.5 * a**-0.5, 3 * math.cos(3 * b) + 2.5 * b**1.5, 1.0 / c**2]  # TODO


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    f0 = f(a, b, c)  # TODO
    return [(f(a + h, b, c) - f0) / h, (f(a, b + h, c) - f0) / h, (f(a, b, c + h) - f0) / h]


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    return [  # TODO
        (f(a + h, b, c) - f(a - h, b, c)) / (2 * h),
        (f(a, b + h, c) - f(a, b - h, c)) / (2 * h),
        (f(a, b, c + h) - f(a, b, c - h)) / (2 * h),
    ]
