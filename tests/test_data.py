"""Toy data sets: seeded, shaped as promised, and a split that partitions."""

import pytest

from micrograd.data import DATASETS, moons, split


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_datasets_are_seeded_and_shaped(name):
    X, y = DATASETS[name](n=120, seed=3)
    assert len(X) == len(y) == 120
    assert all(len(p) == 2 and all(isinstance(v, float) for v in p) for p in X)
    assert DATASETS[name](n=120, seed=3) == (X, y)
    assert DATASETS[name](n=120, seed=4) != (X, y)
    classes = {"spiral": 3, "yinyang": 3}.get(name, 2)
    assert set(y) == set(range(classes))


def test_moons_geometry():
    X, y = moons(200, noise=0.0, seed=0)
    upper = [p for p, c in zip(X, y) if c == 0]
    assert all(abs(p[0] ** 2 + p[1] ** 2 - 1) < 1e-9 for p in upper)


def test_split_partitions():
    X, y = moons(100, seed=1)
    (a, ya), (b, yb), (c, yc) = split(X, y, val=0.1, test=0.2, seed=2)
    assert (len(a), len(b), len(c)) == (70, 10, 20)
    assert sorted(map(tuple, a + b + c)) == sorted(map(tuple, X))


def test_bad_arguments():
    with pytest.raises(ValueError):
        moons(1)
    with pytest.raises(ValueError):
        moons(10, noise=-1)
    with pytest.raises(ValueError):
        split([[0.0, 0.0]], [0, 1])
