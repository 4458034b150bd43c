import math


def f(a, b, c):
    return -(a**3) + math.sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    return [-3 * a**2 - 0.5 / math.sqrt(a), 3 * math.cos(3 * b) + 2.5 * b**1.5, 1 / (c * c)]


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    d1 = (f(a + h, b, c) - f(a, b, c)) / h
    d2 = (f(a, b + h, c) - f(a, b, c)) / h
    d3 = (f(a, b, c + h) - f(a, b, c)) / h
    return [d1, d2, d3]


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    d1 = (f(a + h, b, c) - f(a - h, b, c)) / 2 * h
    d2 = (f(a, b + h, c) - f(a, b - h, c)) / 2 * h
    d3 = (f(a, b, c + h) - f(a, b, c - h)) / 2 * h
    return [d1, d2, d3]
