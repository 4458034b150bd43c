"""One contract per op (micrograd.maths): every row of OPS runs in every namespace and every consumer
(tests/catalog.py), and a half-added op fails, naming what it lacks."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest

from catalog import missing
from micrograd import Value
from micrograd.engine import OPS
from micrograd.maths import FUNCTIONS, FloatMath, Math

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_contract_lists_every_function_a_rule_calls():
    assert set(FUNCTIONS) == {
        *("exp", "log", "tanh", "sigmoid", "sin", "cos", "relu", "step"),
        *("pow", "pow_grad_base", "pow_grad_exponent"),
    }
    assert all(callable(getattr(FloatMath, f)) for f in FUNCTIONS)
    assert isinstance(Math, type)


@pytest.mark.parametrize("op", list(OPS))
def test_every_op_runs_in_every_namespace_and_every_consumer(op):
    pytest.importorskip("numpy")
    pytest.importorskip("torch")
    assert missing(op) == []


def test_sin_and_cos_are_the_lectures_derivatives():
    x = Value(0.3)
    y = x.sin() * x.cos()  # sin(2x) / 2: its derivative is cos(2x)
    y.backward()
    assert y.data == pytest.approx(math.sin(0.6) / 2, rel=1e-15)
    assert x.grad == pytest.approx(math.cos(0.6), rel=1e-15)
    assert (y._a._op, y._b._op) == ("sin", "cos")


HALF_ADDED = """
import sys
sys.path.insert(0, "tests")
import math
from micrograd import engine, maths

# sinh added to the engine only: its rule, its row and its Value method, and FloatMath's functions
def sinh(m, a):
    return m.sinh(a), (m.cosh(a),)

engine.OPS["sinh"] = sinh
engine.Value.sinh = lambda self: engine._apply1("sinh", self)
maths.FloatMath.sinh = staticmethod(math.sinh)
maths.FloatMath.cosh = staticmethod(math.cosh)
from catalog import missing
print("\\n".join(missing("sinh")))
"""


def test_a_half_added_op_fails_naming_what_it_lacks():
    pytest.importorskip("numpy")
    pytest.importorskip("torch")
    done = subprocess.run(
        [sys.executable, "-c", HALF_ADDED], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout
    for place in (
        "the rule calls cosh, sinh: not in micrograd.maths.Math",
        "ValueMath cannot run the rule",
        "NumpyMath cannot run the rule",
        "TorchMath cannot run the rule",
        "backward(create_graph=True) fails",
        "micrograd.fast.trace fails",
        "to_torch_fn fails",
    ):
        assert place in said, said
    assert "sinh" in said and "eager grad" not in said  # the engine part itself is right
