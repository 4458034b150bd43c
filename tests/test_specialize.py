"""micrograd.specialize: inside micrograd.tuned(), Value's op methods compiled from the rules in
OPS agree with the methods as written (which run the rule through _apply2/_apply1), bit for bit,
errors included; outside it, the methods as written run."""

import itertools
import math
import traceback

import pytest

from micrograd import specialize, tuned
from micrograd.engine import OPS, Value

WRITTEN = {name: vars(Value)[name] for name in specialize.op_methods(Value)}
METHODS = specialize.op_methods(Value)
NUMBERS = [0.0, -0.0, 1.0, -1.0, 0.3, -2.5, 1e-300, 1e300, 710.0, -710.0, math.inf, -math.inf]
NUMBERS += [math.nan, 3, 0]  # ints as the other operand: made Constants first


@pytest.fixture
def compiled():
    """The op methods as tuned() compiles them, for the test."""
    with tuned():
        yield


def made(f, *args):
    """What calling f gives: the new Value's fields, or the error's type and message."""
    try:
        out = f(*args)
    except Exception as e:  # noqa: BLE001 - the error itself is what is compared
        return type(e), str(e)
    fields = [out.data, out.grad, out._op, out._da, out._db]
    # repr tells 0 from -0.0, 1 from 1.0 and shows nan; identity of the inputs is checked apart
    return (
        [repr(x) for x in fields],
        out._a is args[0],
        out._b is (args[1] if len(args) > 1 else None),
    )


def test_the_op_methods_are_every_one_line_method_that_runs_one_op():
    """Found by their shape, not listed: each runs one row of OPS, and every row but the two kinds
    of power (`x ** k`, `x ** y`: __pow__ picks one) has one."""
    assert {op for op, _ in METHODS.values()} == set(OPS) - {"**k", "**"}
    assert METHODS["__add__"] == ("+", 2) and METHODS["relu"] == ("ReLU", 1)


def test_outside_tuned_the_methods_as_written_run():
    for name in METHODS:
        assert vars(Value)[name] is WRITTEN[name]
    with tuned():
        assert Value.__mul__ is not WRITTEN["__mul__"]
        with tuned():  # blocks nest: the last one out puts the methods back
            pass
        assert Value.__mul__ is not WRITTEN["__mul__"]
    assert Value.__mul__ is WRITTEN["__mul__"]


@pytest.mark.parametrize("name", list(METHODS))
def test_every_op_method_is_compiled_from_its_rule(name, compiled):
    method = getattr(Value, name)
    assert method is not WRITTEN[name]
    assert (
        method.__code__.co_filename
        == f"<Value.{name}, compiled from the rule of {METHODS[name][0]!r}>"
    )
    assert method.__doc__ == WRITTEN[name].__doc__


@pytest.mark.parametrize("name", list(METHODS))
def test_a_compiled_method_makes_what_the_written_one_makes(name, compiled):
    arity = METHODS[name][1]
    firsts = [x for x in NUMBERS if isinstance(x, float)]
    for x in firsts:
        if arity == 1:
            assert made(getattr(Value, name), Value(x)) == made(WRITTEN[name], Value(x)), (name, x)
            continue
        for y in NUMBERS:
            a = Value(x)
            b = y if isinstance(y, int) else Value(y)
            assert made(getattr(Value, name), a, b) == made(WRITTEN[name], a, b), (name, x, y)


def test_an_error_in_a_compiled_method_shows_its_lines(compiled):
    with pytest.raises(ValueError, match=r"op 'log' on \(0\.0\)") as info:
        Value(0.0).log()
    text = "".join(traceback.format_exception(info.value))
    assert "<Value.log, compiled from the rule of 'log'>" in text
    assert "raise _fail(e, 'log', self) from None" in text  # the compiled line, from linecache


def test_a_rule_that_cannot_be_read_keeps_the_written_method(monkeypatch):
    monkeypatch.setitem(OPS, "+", lambda m, a, b: (a - b, (1, -1)))  # no def: its source is a line
    with tuned():
        assert Value.__add__ is WRITTEN["__add__"]
        x, y = Value(5.0), Value(2.0)
        out = x + y
        out.backward()
    assert (out.data, x.grad, y.grad) == (3.0, 1, -1)  # the new rule, through _apply2


def test_compiled_ops_in_a_mode_behave_as_written(compiled):
    from micrograd import no_grad

    with no_grad():
        out = Value(2.0) * Value(3.0)
    assert out._a is None and out.data == 6.0


def test_the_compiled_source_inlines_the_rule_and_simple_math():
    from micrograd.maths import FloatMath

    source, functions = specialize.method_source("relu", "ReLU", OPS["ReLU"], 1, FloatMath)
    assert source.startswith("def relu(self):")
    assert "data = 0.0 if x0 < 0 else x0" in source and "d0 = 1 if x0 > 0 else 0" in source
    assert functions == {}  # FloatMath.relu and step are one expression each: inlined
    source, functions = specialize.method_source("tanh", "tanh", OPS["tanh"], 1, FloatMath)
    assert "r_t = m_tanh(x0)" in source and functions == {"m_tanh": math.tanh}


def test_grads_through_compiled_ops_equal_the_written_ones():
    """A small network's grads, with the compiled methods and with the written ones."""

    def grads():
        xs = [Value(v) for v in (0.5, -1.5, 2.0)]
        h = [(xs[0] * xs[1] + xs[2]).relu(), (xs[1] / xs[2]).tanh(), xs[0].exp().log()]
        out = sum(a * b for a, b in itertools.combinations(h, 2)) + h[0].sigmoid() * h[1].sin()
        out = out + xs[2].cos()
        out.backward()
        return [repr(v.grad) for v in xs], repr(out.data)

    with tuned():
        compiled = grads()
    assert grads() == compiled


def test_compiling_again_gives_the_same_method():
    from micrograd.maths import FloatMath

    first = specialize.method_source("tanh", "tanh", OPS["tanh"], 1, FloatMath)
    with tuned():  # the rules' syntax trees are read, never rewritten
        assert Value.tanh.__code__.co_filename.startswith("<Value.tanh, compiled")
    assert specialize.method_source("tanh", "tanh", OPS["tanh"], 1, FloatMath) == first


def test_no_syntax_tree_outlives_compiling():
    """The parsed sources are dropped once compiled: kept, they would be ~7,700 objects that
    every full garbage collection of a training step walks."""
    import ast
    import gc

    from micrograd.replay import compile

    with tuned():
        pass
    a = Value(0.5)
    compile(lambda x: (a * x).relu() + x.tanh(), [a], 1, backend="python")
    gc.collect()
    assert specialize._functions_in.cache_info().currsize == 0
    # type(), not isinstance(): that would ask every object in the process for its __class__
    assert not [o for o in gc.get_objects() if type(o) in (ast.FunctionDef, ast.Name)]
