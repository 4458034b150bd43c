"""micrograd.copies: copy.copy, copy.deepcopy and pickle of a Value's graph, at any depth."""

import copy
import pickle
import sys

from micrograd import Value
from micrograd.copies import FLAT_PICKLE


def test_deep_graphs_copy_and_pickle_without_recursion():
    """Copy.deepcopy and pickle of a graph far deeper than the recursion limit, as of a small
    one: the same numbers, the same shape, and a Value shared inside the graph stays one Value."""
    x = Value(1.0, label="x")
    y = x
    for _ in range(20 * sys.getrecursionlimit()):
        y = y * 1.0000001 + 0.0
    y.backward()
    for z in (copy.deepcopy(y), pickle.loads(pickle.dumps(y))):
        assert z.data == y.data and z._prev[0].data == y._prev[0].data and z.label == y.label
        leaf = z
        while leaf._prev:
            leaf = leaf._prev[0]
        assert leaf.label == "x" and leaf.grad == x.grad
    a = Value(2.0)
    b = a * a
    c = b + a
    for copied in (copy.deepcopy([a, b, c]), pickle.loads(pickle.dumps([a, b, c]))):
        assert copied[2]._prev == (copied[1], copied[0]) and copied[1]._prev == (
            a2 := copied[0],
            a2,
        )
    assert copy.copy(c)._prev == c._prev  # a shallow copy shares the inputs


def test_a_large_graph_pickles_flat_with_its_local_derivatives_and_hand_made_inputs():
    """Past FLAT_PICKLE Values a graph is one list, inputs first: backward() on the copy gives
    the original's grads to the bit (the kept local derivatives came along), a node made by hand
    keeps its three inputs, and a Value shared inside the graph stays one Value."""
    a, b = Value(0.5, label="a"), Value(-1.5, label="b")
    y = a
    for _ in range(FLAT_PICKLE):
        y = (y * 0.999).tanh() + b
    out = y * a
    z = pickle.loads(pickle.dumps(out))
    assert z.data == out.data
    out.backward()
    z.backward()
    copied = {v.label: v for v in _walk(z) if v.label}
    assert (copied["a"].grad, copied["b"].grad) == (a.grad, b.grad)
    assert len([v for v in _walk(z) if v.label == "b"]) == 1  # b is one Value in the copy
    hand = Value(1.0, (out, a, b), "sum3")
    for _ in range(FLAT_PICKLE):
        hand = hand + 0.0
    h = pickle.loads(pickle.dumps(hand))
    made = next(v for v in _walk(h) if v._op == "sum3")
    assert [x.label for x in made._prev[1:]] == ["a", "b"] and made._prev[0].data == out.data


def _walk(root):
    """Every Value root depends on, each once."""
    from micrograd.engine import topo_order

    return topo_order(root)


def test_a_copy_keeps_the_subclass_and_its_attributes():
    from micrograd.engine import Constant

    k = Constant(3.0)
    k.note = "kept"
    for made in (copy.copy(k), copy.deepcopy(k), pickle.loads(pickle.dumps(k))):
        assert type(made) is Constant and made.data == 3.0 and made.note == "kept"
