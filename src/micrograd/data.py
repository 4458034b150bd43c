"""Toy 2-D data sets in pure Python, seeded: moons, circles, spiral, xor, yin-yang; and a split.

Each generator returns (X, y): X a list of [x0, x1] points, y a list of class indices 0..K-1.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

Points = list[list[float]]
Labels = list[int]


def _check(n: int, noise: float) -> None:
    if not isinstance(n, int) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not (isinstance(noise, (int, float)) and 0 <= noise < math.inf):
        raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")


def _shuffled(X: Points, y: Labels, rng: random.Random) -> tuple[Points, Labels]:
    idx = list(range(len(X)))
    rng.shuffle(idx)
    return [X[i] for i in idx], [y[i] for i in idx]


def moons(n: int = 100, noise: float = 0.1, seed: int = 0) -> tuple[Points, Labels]:
    """Two interleaving half circles (as scikit-learn's make_moons), classes 0 and 1."""
    _check(n, noise)
    rng = random.Random(seed)
    n_out = n // 2
    n_in = n - n_out
    X, y = [], []
    for i in range(n_out):
        t = math.pi * i / max(n_out - 1, 1)
        X.append([math.cos(t), math.sin(t)])
        y.append(0)
    for i in range(n_in):
        t = math.pi * i / max(n_in - 1, 1)
        X.append([1 - math.cos(t), 0.5 - math.sin(t)])
        y.append(1)
    X = [[a + rng.gauss(0, noise), b + rng.gauss(0, noise)] for a, b in X]
    return _shuffled(X, y, rng)


def circles(
    n: int = 100, noise: float = 0.05, seed: int = 0, factor: float = 0.5
) -> tuple[Points, Labels]:
    """A circle inside another (as make_circles): class 0 outside, 1 inside."""
    _check(n, noise)
    if not 0 < factor < 1:
        raise ValueError(f"factor must be between 0 and 1, got {factor!r}")
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n):
        inner = i >= n // 2
        t = 2 * math.pi * rng.random()
        r = factor if inner else 1.0
        X.append([r * math.cos(t) + rng.gauss(0, noise), r * math.sin(t) + rng.gauss(0, noise)])
        y.append(int(inner))
    return _shuffled(X, y, rng)


def spiral(
    n: int = 150, noise: float = 0.2, seed: int = 0, classes: int = 3
) -> tuple[Points, Labels]:
    """Interleaved spiral arms, one class per arm (the CS231n data set)."""
    _check(n, noise)
    if not isinstance(classes, int) or classes < 2:
        raise ValueError(f"classes must be an integer >= 2, got {classes!r}")
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n):
        k = i % classes
        r = (i // classes + 1) / (n // classes + 1)
        t = k * 2 * math.pi / classes + 4 * r + rng.gauss(0, noise)
        X.append([r * math.sin(t), r * math.cos(t)])
        y.append(k)
    return _shuffled(X, y, rng)


def xor(n: int = 100, noise: float = 0.1, seed: int = 0) -> tuple[Points, Labels]:
    """Four blobs at the corners of a square; class 1 where the signs of x0 and x1 differ."""
    _check(n, noise)
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n):
        a, b = (1.0 if i % 2 else -1.0), (1.0 if (i // 2) % 2 else -1.0)
        X.append([a * 0.5 + rng.gauss(0, noise), b * 0.5 + rng.gauss(0, noise)])
        y.append(int(a != b))
    return _shuffled(X, y, rng)


def yinyang(n: int = 200, noise: float = 0.0, seed: int = 0) -> tuple[Points, Labels]:
    """Points in the yin-yang symbol: 0 yin, 1 yang, 2 the two small dots."""
    _check(n, noise)
    rng = random.Random(seed)
    r_big, r_dot = 1.0, 0.18
    X: Points = []
    y: Labels = []
    while len(X) < n:
        a, b = rng.uniform(-1, 1), rng.uniform(-1, 1)
        if math.hypot(a, b) > r_big:
            continue
        up, down = math.hypot(a, b - 0.5), math.hypot(a, b + 0.5)
        if up < r_dot or down < r_dot:
            label = 2
        elif up < 0.5:
            label = 0  # the top half-disc belongs to yin
        elif down < 0.5:
            label = 1
        else:
            label = 0 if a > 0 else 1
        X.append([a + rng.gauss(0, noise), b + rng.gauss(0, noise)] if noise else [a, b])
        y.append(label)
    return X, y


DATASETS: dict[str, Callable[..., tuple[Points, Labels]]] = {
    "moons": moons,
    "circles": circles,
    "spiral": spiral,
    "xor": xor,
    "yinyang": yinyang,
}


def split(
    X: Sequence[Sequence[float]],
    y: Sequence[int],
    val: float = 0.0,
    test: float = 0.2,
    seed: int = 0,
) -> tuple[tuple[Points, Labels], tuple[Points, Labels], tuple[Points, Labels]]:
    """Shuffle and cut into (train, val, test) parts of the given fractions."""
    if len(X) != len(y):
        raise ValueError(f"split: {len(X)} points but {len(y)} labels")
    if not (0 <= val < 1 and 0 <= test < 1 and val + test < 1):
        raise ValueError(f"split: val={val} and test={test} must be fractions summing below 1")
    Xs, ys = _shuffled([list(p) for p in X], list(y), random.Random(seed))
    n_test, n_val = round(len(Xs) * test), round(len(Xs) * val)
    cut = len(Xs) - n_test - n_val
    return (
        (Xs[:cut], ys[:cut]),
        (Xs[cut : cut + n_val], ys[cut : cut + n_val]),
        (Xs[cut + n_val :], ys[cut + n_val :]),
    )
