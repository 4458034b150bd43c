"""The elementary functions the rules of `micrograd.engine.OPS` call, on each kind of number.

A rule is written once, against the `Math` contract below, and runs on whatever namespace it is
given: `FloatMath` on Python floats (the eager engine), `ValueMath` on Values (grads of grads;
engine.ValueMath is the one made for Value), `NumpyMath` on arrays (micrograd.replay.numpy) and `TorchMath` on tensors
(micrograd.export). A new op's rule may call a function here only once every namespace has it:
tests/test_maths.py runs every rule through every namespace and says what is missing.

numpy and torch are never imported here: their namespaces are made from the module passed in,
`NumpyMath(numpy)`, `TorchMath(torch)`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from operator import methodcaller
from typing import Any, Protocol

from micrograd.text import error


class Math(Protocol):
    """Every elementary function a rule may call, with PyTorch's conventions at the edges."""

    def exp(self, x: Any) -> Any:
        """e ** x."""

    def log(self, x: Any) -> Any:
        """The natural logarithm."""

    def tanh(self, x: Any) -> Any:
        """The hyperbolic tangent."""

    def sigmoid(self, x: Any) -> Any:
        """1 / (1 + e ** -x), without overflow."""

    def sin(self, x: Any) -> Any:
        """The sine (radians)."""

    def cos(self, x: Any) -> Any:
        """The cosine (radians)."""

    def relu(self, x: Any) -> Any:
        """max(0, x); nan stays nan."""

    def step(self, x: Any) -> Any:
        """relu's slope: 1 where x > 0, else 0 (an int or a boolean, which marks a dead unit)."""

    def pow(self, a: Any, b: Any) -> Any:
        """a ** b."""

    def pow_grad_base(self, a: Any, b: Any) -> Any:
        """d(a ** b) / da = b * a ** (b - 1)."""

    def pow_grad_exponent(self, out: Any, a: Any, b: Any) -> Any:
        """d(a ** b) / db = a ** b * log(a), given out = a ** b."""


FUNCTIONS = tuple(name for name in vars(Math) if not name.startswith("_"))


class FloatMath:
    """The elementary functions on Python floats, with PyTorch's conventions at the edges."""

    exp = staticmethod(math.exp)
    tanh = staticmethod(math.tanh)  # saturates to +-1.0 instead of overflowing
    sin = staticmethod(math.sin)
    cos = staticmethod(math.cos)

    @staticmethod
    def log(x: float) -> float:
        if x <= 0:
            raise error(ValueError, "reason_log", x=x)
        return math.log(x)

    @staticmethod
    def sigmoid(x: float) -> float:
        # Split at 0 so exp() only ever sees a non-positive number: sigmoid(-1000) is 0.0, no overflow.
        if x >= 0:
            return 1.0 / (1.0 + math.exp(-x))
        e = math.exp(x)
        return e / (1.0 + e)

    @staticmethod
    def relu(x: float) -> float:
        return 0.0 if x < 0 else x  # the original's rule; a NaN input stays NaN

    @staticmethod
    def step(x: float) -> int:
        return 1 if x > 0 else 0  # an int, as the original's (out.data > 0)

    @staticmethod
    def pow(a: float, b: float) -> float:
        if a == 0 and b < 0:
            raise error(ZeroDivisionError, "reason_zero_negative_power", k=b)
        if -math.inf < a < 0 and math.isfinite(b) and not float(b).is_integer():
            return math.nan  # as PyTorch: a real power of a negative number is not a real number
        # (-inf) ** 2.5 is inf and (-inf) ** -2.5 is 0.0, as IEEE 754, Python and PyTorch say
        return float(a**b)

    @staticmethod
    def pow_grad_base(a: float, b: float) -> float:
        # d(a**b)/da = b * a**(b-1). As PyTorch: 0 where b == 0, and inf (not an error) at a == 0
        # or where a**(b-1) overflows: a backward pass gives inf rather than stopping.
        return 0.0 if b == 0 else b * IEEEMath.pow(a, b - 1)

    @staticmethod
    def pow_grad_exponent(out: float, a: float, b: float) -> float:
        # d(a**b)/db = a**b * log(a). As PyTorch: 0 where a == 0 and b >= 0, nan where a < 0.
        if a == 0:
            return 0.0 if b >= 0 else math.nan
        return out * math.log(a) if a > 0 else math.nan


class IEEEMath(FloatMath):
    """FloatMath whose power gives inf where Python raises (0 ** -1, overflow), as IEEE 754 and
    PyTorch do: for derivatives, which never raise (an op written by the user does)."""

    @staticmethod
    def pow(a: float, b: float) -> float:
        try:
            return FloatMath.pow(a, b)
        except ZeroDivisionError:  # 0 ** negative
            return math.inf
        except OverflowError:
            odd = float(b).is_integer() and int(b) % 2 == 1
            return math.copysign(math.inf, a if odd else 1.0)


class ValueMath:
    """The elementary functions on Values, each the Value's own op, so that a rule run on Values
    builds a graph: grads of grads. ValueMath(power): power(a, k) is the Value a ** k for a number
    k that gives inf where Python raises (IEEEMath.pow), for the derivatives of a power."""

    exp, log, tanh = methodcaller("exp"), methodcaller("log"), methodcaller("tanh")
    sigmoid, relu = methodcaller("sigmoid"), methodcaller("relu")
    sin, cos = methodcaller("sin"), methodcaller("cos")

    def __init__(self, power: Callable[[Any, float], Any]) -> None:
        self.power = power

    @staticmethod
    def step(x: Any) -> int:
        return FloatMath.step(x.data)  # piecewise constant: its own derivative is 0

    @staticmethod
    def pow(a: Any, b: Any) -> Any:
        return a**b

    def pow_grad_base(self, a: Any, b: Any) -> Any:
        if not isinstance(b, (int, float)):  # a Value
            if b.data == 0 or (a.data == 0 and b.data < 1):  # 0 or inf there: a constant
                return FloatMath.pow_grad_base(a.data, b.data)
            return b * a ** (b - 1)
        if b == 0:
            return 0.0
        # b * a**(b-1) as a node whose own derivative is right at a = 0 too (x**0.5 has a second
        # derivative of -inf there, as PyTorch): its power gives inf instead of raising
        return b * self.power(a, b - 1)

    @staticmethod
    def pow_grad_exponent(out: Any, a: Any, b: Any) -> Any:
        if a.data > 0:
            return out * a.log()
        return FloatMath.pow_grad_exponent(out.data, a.data, b.data)


class NumpyMath:
    """The elementary functions on numpy arrays, with FloatMath's conventions: NumpyMath(numpy)."""

    def __init__(self, np: Any) -> None:
        self.np = np
        self.exp, self.log, self.tanh = np.exp, np.log, np.tanh
        self.sin, self.cos, self.pow = np.sin, np.cos, np.power

    def sigmoid(self, x: Any) -> Any:
        np = self.np
        e = np.exp(-np.abs(x))  # as FloatMath.sigmoid: exp only of non-positive numbers
        return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))

    def relu(self, x: Any) -> Any:
        return self.np.maximum(x, 0.0)  # NaN stays NaN, as FloatMath.relu

    def step(self, x: Any) -> Any:
        return x > 0  # booleans, as FloatMath.step gives ints: the slope of a dead unit is marked

    def pow_grad_base(self, a: Any, b: Any) -> Any:
        np = self.np
        return np.where(b == 0, 0.0, b * np.power(a, b - 1.0))

    def pow_grad_exponent(self, out: Any, a: Any, b: Any) -> Any:
        np = self.np
        edge = np.where((a == 0) & (b >= 0), 0.0, np.nan)
        return np.where(a > 0, out * np.log(np.where(a > 0, a, 1.0)), edge)


class TorchMath:
    """The elementary functions on torch tensors: TorchMath(torch). The rules' local derivatives
    are computed too, though torch.autograd does not need them (it has its own)."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.exp, self.log, self.tanh = torch.exp, torch.log, torch.tanh
        self.sin, self.cos = torch.sin, torch.cos
        self.sigmoid, self.relu, self.pow = torch.sigmoid, torch.relu, torch.pow

    def step(self, x: Any) -> Any:
        return (x > 0).to(x.dtype)

    def pow_grad_base(self, a: Any, b: Any) -> Any:
        return b * self.torch.pow(a, b - 1)

    def pow_grad_exponent(self, out: Any, a: Any, b: Any) -> Any:
        return out * self.torch.log(a)
