"""The lecture's graphs that the predict exercises ask about: `graph(id)` is the output whose
backward pass the learner predicts, one `+=` at a time (the stepper's quiz draws it, and
micrograd.practice.checks.predict checks the answers)."""

from __future__ import annotations

from collections.abc import Callable

from micrograd.engine import Value


def _lecture_graph() -> Value:
    a, b, c, f = (Value(x, label=n) for x, n in ((2.0, "a"), (-3.0, "b"), (10.0, "c"), (-2.0, "f")))
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    L = d * f
    L.label = "L"
    return L


def _neuron_graph() -> Value:
    x1, x2 = Value(2.0, label="x1"), Value(0.0, label="x2")
    w1, w2 = Value(-3.0, label="w1"), Value(1.0, label="w2")
    b = Value(6.8813735870195432, label="b")
    x1w1, x2w2 = x1 * w1, x2 * w2
    x1w1.label, x2w2.label = "x1*w1", "x2*w2"
    s = x1w1 + x2w2
    s.label = "x1*w1 + x2*w2"
    n = s + b
    n.label = "n"
    o = n.tanh()
    o.label = "o"
    return o


def _shared_graph() -> Value:
    a, b = Value(2.0, label="a"), Value(3.0, label="b")
    c, d = a + b, a * b
    e, g = c + d, c * d
    f = e + g
    for v, n in zip((c, d, e, g, f), "cdegf"):
        v.label = n
    return f


GRAPHS: dict[str, Callable[[], Value]] = {
    "predict-lecture": _lecture_graph,
    "predict-neuron": _neuron_graph,
    "predict-shared": _shared_graph,
}


def graph(exercise_id: str) -> Value:
    """The graph whose backward pass a predict exercise asks about (its output)."""
    return GRAPHS[exercise_id]()
