"""One contract per op (micrograd.maths): every row of OPS runs in every namespace and every consumer
(tests/catalog.py), and a half-added op fails, naming what it lacks."""

from __future__ import annotations

import inspect
import math
import os
import shutil
import subprocess
import sys

import pytest

from catalog import _number, called_by, missing, namespaces
from micrograd import Value
from micrograd.engine import OPS
from micrograd.maths import FUNCTIONS, FloatMath, Math

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_contract_has_every_function_a_rule_calls():
    """Derived, not listed: each function some rule of OPS calls is in Math and in FloatMath."""
    called = {f for op in OPS for f in called_by(op)}
    assert called <= set(FUNCTIONS), sorted(called - set(FUNCTIONS))
    assert all(callable(getattr(FloatMath, f)) for f in FUNCTIONS)


def test_every_namespace_implements_every_function_of_the_contract():
    """Each function of Math, called with Math's arguments, in every namespace (floats, IEEE
    floats, Values, and numpy's and torch's where installed) gives FloatMath's number, at points
    inside every domain and on both sides of relu's and step's kink."""
    assert "exp" in FUNCTIONS and "pow_grad_exponent" in FUNCTIONS  # read from Math, not empty
    spaces = namespaces()
    assert {"FloatMath", "IEEEMath", "ValueMath"} <= set(spaces)
    for f in FUNCTIONS:
        arity = len(inspect.signature(getattr(Math, f)).parameters) - 1  # less self
        negative = arity == 1 and f != "log"  # log and a power (nan) need a positive base
        for first in (0.7, -0.4) if negative else (0.7, 2.5):
            args = (first, 1.3, 2.1)[:arity]
            want = float(getattr(FloatMath, f)(*args))
            for name, (m, make) in spaces.items():
                got = _number(getattr(m, f)(*map(make, args)))
                assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (name, f, args)


@pytest.mark.parametrize("op", list(OPS))
def test_every_op_runs_in_every_namespace_and_every_consumer(op):
    """Without numpy or torch installed, their places are left out of `missing`, not the test."""
    assert missing(op) == []


def test_sin_and_cos_are_the_lectures_derivatives():
    x = Value(0.3)
    y = x.sin() * x.cos()  # sin(2x) / 2: its derivative is cos(2x)
    y.backward()
    assert y.data == pytest.approx(math.sin(0.6) / 2, rel=1e-15)
    assert x.grad == pytest.approx(math.cos(0.6), rel=1e-15)
    assert (y._a._op, y._b._op) == ("sin", "cos")


# tan added to a copy of the package, in engine.py only: its rule, its row of OPS, its method
TAN_RULE = """

def tan(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    \"\"\"tan(a): d/da = 1 + tan(a)**2.\"\"\"
    t = m.tan(a)
    return t, (1 + t * t,)
"""
TAN_METHOD = """
    def tan(self) -> Value:
        \"\"\"The tangent of self (radians).\"\"\"
        return _apply1("tan", self)
"""
# ... then its function in every namespace of micrograd/maths.py (ValueMath's too)
TAN_MATHS = [
    (
        "    def cos(self, x: Any) -> Any:\n",
        '    def tan(self, x: Any) -> Any:\n        """The tangent."""\n\n',
    ),
    ("    cos = staticmethod(math.cos)\n", "    tan = staticmethod(math.tan)\n"),
    (
        "        self.sin, self.cos, self.pow = np.sin, np.cos, np.power\n",
        "        self.tan = np.tan\n",
    ),
    ("        self.sin, self.cos = torch.sin, torch.cos\n", "        self.tan = torch.tan\n"),
    (
        '    sin, cos = methodcaller("sin"), methodcaller("cos")\n',
        '    tan = methodcaller("tan")\n',
    ),
]


def package_with_tan(folder, maths):
    """A copy of src/micrograd under `folder` with tan in engine.py (and, if `maths`, in maths.py)."""
    shutil.copytree(os.path.join(ROOT, "src", "micrograd"), folder / "micrograd")
    engine = folder / "micrograd" / "engine.py"
    source = engine.read_text(encoding="utf-8")
    source = source.replace('\n    "cos": cos,\n', '\n    "cos": cos,\n    "tan": tan,\n')
    source = source.replace("\n\n\nRule = Callable", TAN_RULE + "\n\n\nRule = Callable", 1)
    source = source.replace(
        "    # ---- composite ops", TAN_METHOD.lstrip("\n") + "\n    # ---- composite ops", 1
    )
    if maths:
        path = folder / "micrograd" / "maths.py"
        text = path.read_text(encoding="utf-8")
        for anchor, added in TAN_MATHS:
            assert anchor in text, anchor
            text = text.replace(
                anchor, added + anchor if anchor.startswith("    def") else anchor + added, 1
            )
        path.write_text(text, encoding="utf-8")
    engine.write_text(source, encoding="utf-8")
    assert source.count("tan") >= 4


def missing_in(folder):
    """missing("tan") on the copy, as the lines it prints, and the run's stderr."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), os.path.join(ROOT, "tests")])}
    code = "from catalog import missing\nprint('\\n'.join(missing('tan')))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line]


def test_an_op_added_to_engine_py_only_is_told_each_missing_piece_in_a_line(tmp_path):
    lines = missing_in_copy(tmp_path, maths=False)
    assert "the rule calls tan: not in micrograd.maths.Math" in lines
    assert "FloatMath has no tan" in lines and "ValueMath has no tan" in lines
    assert any(line.startswith("FloatMath cannot run the rule: AttributeError") for line in lines)
    assert not any("Traceback" in line for line in lines)


def test_an_op_complete_in_engine_py_and_maths_py_is_missing_nothing(tmp_path):
    assert missing_in_copy(tmp_path, maths=True) == []


def missing_in_copy(tmp_path, maths):
    package_with_tan(tmp_path, maths)
    return missing_in(tmp_path)
