"""Which rule a learner's node runs, and the first wrong step (micrograd.practice.diagnose): the
rules are micrograd.engine's, keyed as its OPS are."""

from __future__ import annotations

import math

from micrograd.engine import OPS, FloatMath, IEEEMath
from micrograd.practice.reference.engine import Value
from micrograd.practice.rules import NAMES, RULES, identify


def test_the_rules_are_the_engines_keyed_by_its_op_names():
    assert set(RULES) - set(OPS) == {"-", "neg"}  # the two the engine builds from + and *
    for op, rule in RULES.items():
        if op not in OPS:
            continue
        math_ = IEEEMath if op.startswith("**") else FloatMath
        data = (1.5, 0.5)[: rule.arity]
        k = 3.0 if op == "**k" else 0.0
        expected = OPS[op](math_, *data, k) if op == "**k" else OPS[op](math_, *data)
        assert rule.run(*data, k) == (float(expected[0]), tuple(float(d) for d in expected[1]))
    assert NAMES["+"] == NAMES["add"] == "+" and NAMES["relu"] == "ReLU" and NAMES["ln"] == "log"


def test_a_node_is_known_by_its_usual_name_or_else_by_its_numbers():
    a, b = Value(2.0), Value(-3.0)
    by_name = Value(-1.0, (a, b), "add")
    known, ok = identify(by_name, [a, b])
    assert known is not None and known.rule.op == "+" and ok
    unnamed = Value(-6.0, (a, b), "")
    known, ok = identify(unnamed, [a, b])
    assert known is not None and known.rule.op == "*" and ok
    minus = Value(-2.0, (a,), "-")
    assert identify(minus, [a])[0].rule.op == "neg"
    power = Value(8.0, (a,), "**3")
    known, _ = identify(power, [a])
    assert known.rule.op == "**k" and known.k == 3.0
    assert identify(Value(math.pi, (a,), "mystery"), [a]) == (None, True)
