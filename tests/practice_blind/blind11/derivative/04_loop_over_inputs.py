import math


def f(a, b, c):
    return -(a**3) + math.sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    # d/da (-a^3 - a^(1/2)) ; d/db (sin 3b + b^(5/2)) ; d/dc (-c^-1)
    return [
        -(3 * a * a + 1 / (2 * math.sqrt(a))),
        3 * math.cos(3 * b) + (5 / 2) * b * math.sqrt(b),
        c**-2,
    ]


def _nudged(args, i, delta):
    moved = list(args)
    moved[i] = moved[i] + delta
    return moved


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    args = (a, b, c)
    here = f(*args)
    return [(f(*_nudged(args, i, h)) - here) / h for i in range(3)]


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    args = (a, b, c)
    return [(f(*_nudged(args, i, h)) - f(*_nudged(args, i, -h))) / (2 * h) for i in range(3)]
