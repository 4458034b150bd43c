"""micrograd.replay.trace: a function written down as a tape, and the passes the back ends share."""

import warnings

import pytest

from micrograd import Value
from micrograd.losses import cross_entropy_one
from micrograd.modes import TraceError
from micrograd.replay import BACKENDS, compile
from micrograd.replay.trace import count_uses, fold_sums, needs_grad, record, trace


def test_a_tape_lists_leaves_and_ops_in_order():
    w, b, frozen = Value(2.0), Value(0.5), Value(3.0)
    tape = trace(lambda x: (w * x + b) * frozen + x**2, [w, b], 1)
    assert str(tape) == "\n".join(
        [
            "%0 = param 0",
            "%1 = input 0",
            "%2 = * %0 %1",
            "%3 = param 1",
            "%4 = + %2 %3",
            "%5 = const 3.0",
            "%6 = * %4 %5",
            "%7 = **k %1 k=2.0",
            "%8 = + %6 %7",
            "return %8",
        ]
    )
    assert (tape.n_params, tape.n_inputs) == (2, 1)
    for i, node in enumerate(tape.nodes):
        assert all(a < i for a in node.args)  # each node reads only earlier ones


def test_parameters_repeated_or_unused_and_outputs_that_are_leaves():
    p, q = Value(1.0), Value(2.0)
    tape = trace(lambda x: (x, p * q), [p, q, p], 1)  # p twice: the first index; x as it is
    assert [n.index for n in tape.nodes if n.kind == "param"] == [0, 1]
    assert tape.nodes[tape.outputs[0]].kind == "input"
    with pytest.raises(ValueError, match="not a leaf"):
        trace(lambda x: x, [p * 2], 1)
    with pytest.raises(ValueError, match="example has 1 numbers"):
        trace(lambda x, y: x, [p], 2, example=[1.0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_hand_made_ops_are_refused_with_one_message_on_every_back_end(backend):
    pytest.importorskip("numpy") if backend == "numpy" else None

    def cube(x):
        out = Value(x.data**3, (x,), "cube")
        out._backward = lambda: None
        return out

    with pytest.raises(TraceError, match="op 'cube' was made by hand.*cannot be replayed"):
        compile(cube, [], 1, backend=backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TraceError, match="'forgot'"):  # no closure set at all
            compile(lambda x: Value(1.0, (x, x), "forgot"), [], 1, backend=backend)


def test_an_op_without_a_rule_is_refused(monkeypatch):
    from micrograd import engine
    from micrograd.engine import OPS

    monkeypatch.setitem(OPS, "x^3", lambda m, a: (a * a * a, (3 * a * a,)))
    made = engine._apply1("x^3", Value(1.5))
    monkeypatch.delitem(OPS, "x^3")
    with pytest.raises(TraceError, match="'x\\^3' has no rule"):
        record([made], [], [])


def test_the_truth_of_a_value_while_tracing_is_an_error():
    """`if value:` while tracing is an error; in eager code any Value is true, as in the
    original."""
    with pytest.raises(TraceError):
        trace(lambda x: x * 2 if x else x, [], 1)
    with pytest.raises(TypeError, match="cut the graph"):  # float() of a Value: never allowed
        trace(lambda x: x * float(x), [], 1)
    assert bool(Value(0.0)) is True


def test_chains_of_plus_fold_into_one_sum_each():
    ws = [Value(0.1 * i) for i in range(4)]

    def neuron(x0, x1, x2):  # b + w0*x0 + w1*x1 + w2*x2, then a sum read twice
        s = ws[3] + ws[0] * x0 + ws[1] * x1 + ws[2] * x2
        return (s + s) + x0

    tape = trace(neuron, ws, 3)
    args = lambda i: tape.nodes[i].args  # noqa: E731
    kept, terms = fold_sums(tape, range(len(tape.nodes)), args)
    ops = [tape.nodes[t].op or tape.nodes[t].kind for t in next(iter(terms.values()))]
    assert ops == ["param", "*", "*", "*"]  # the neuron's chain: its bias, then the products
    # (s + s) + x0 is a chain too: s + s is absorbed into it, as are the neuron's first two sums
    assert len(terms) == 2 and len(kept) == len(tape.nodes) - 3
    assert terms[max(terms)][:2] == [terms[max(terms)][0]] * 2  # s, s, then x0
    assert count_uses(tape, range(len(tape.nodes)), args)[max(terms)] == 0  # the output


def test_needs_grad_is_what_the_first_output_reaches_from_a_parameter():
    w = Value(2.0)
    tape = trace(lambda x, t: ((w * x).tanh() * (t + 1.0), w * t), [w], 2)
    needs = needs_grad(tape)
    by_op = {(n.op, n.args): needs[i] for i, n in enumerate(tape.nodes) if n.kind == "op"}
    assert sum(by_op.values()) == 3  # w * x, tanh, and the product; not t + 1, not the 2nd output
    assert needs_grad(tape, ("param", "input")).count(True) > needs.count(True)


def test_a_fused_ops_inputs_are_on_the_tape_even_when_they_are_numbers():
    tape = trace(lambda a, b: cross_entropy_one([a, b], [0.25, 0.75]), [], 2)
    fused = [n.fused for n in tape.nodes if n.fused is not None]
    assert [name for name, _ in fused] == ["logsumexp", "cross_entropy"]  # the logits', then all
    weights = [tape.nodes[i] for i in fused[1][1][2:]]
    assert [(n.kind, n.value) for n in weights] == [("const", 0.25), ("const", 0.75)]
