"""Each op's local rule as the checker needs it: forward, local derivatives, and how to tell a
learner's node apart.

The numbers come from micrograd.engine's own rules (`OPS` on floats), so the checker and the
engine cannot disagree; only `-` and unary minus, which the engine builds from `+` and `*`, are
written here. A learner's node is recognised by its `_op` name where it has a usual one, else by
which rule reproduces its data from its inputs' data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd.engine import OPS, FloatMath, IEEEMath

Locals = tuple[float, ...]


def _engine(name: str, *xs: float) -> tuple[float, Locals]:
    """The engine's rule `name` on floats: (output, local derivatives)."""
    math_ = IEEEMath if name in ("**k", "**") else FloatMath
    out, local = OPS[name](math_, *xs)
    return float(out), tuple(float(d) for d in local)


@dataclass(frozen=True)
class Rule:
    """One op: its name (a key of the words table), symbol, arity and numbers."""

    name: str
    symbol: str
    arity: int
    run: Callable[..., tuple[float, Locals]]  # (inputs' data..., k) -> (output, locals)
    # the locals a learner gets by reading the wrong data (the other operand's, or the input's
    # where the output's belongs): the "wrong-operand" mistake
    swapped: Callable[..., Locals] | None = None
    symmetric: bool = False


def _pow_k(a: float, k: float) -> tuple[float, Locals]:
    return _engine("**k", a, k)


def _tanh_swapped(a: float, k: float = 0.0) -> Locals:
    return (1 - a * a,)  # 1 - x**2 instead of 1 - t**2


RULES: dict[str, Rule] = {
    "add": Rule("add", "+", 2, lambda a, b, k=0.0: _engine("+", a, b), symmetric=True),
    "sub": Rule("sub", "-", 2, lambda a, b, k=0.0: (a - b, (1.0, -1.0))),
    "mul": Rule(
        "mul",
        "*",
        2,
        lambda a, b, k=0.0: _engine("*", a, b),
        swapped=lambda a, b, k=0.0: (a, b),
        symmetric=True,
    ),
    "div": Rule(
        "div",
        "/",
        2,
        lambda a, b, k=0.0: _engine("/", a, b),
        swapped=lambda a, b, k=0.0: _engine("/", b, a)[1] if a else (math.inf, math.inf),
    ),
    "pow": Rule(
        "pow",
        "**",
        2,
        lambda a, b, k=0.0: _engine("**", a, b),
        swapped=lambda a, b, k=0.0: _engine("**", b, a)[1] if b > 0 else (math.nan, math.nan),
    ),
    "pow_k": Rule("pow_k", "**", 1, lambda a, k: _pow_k(a, k)),
    "neg": Rule("neg", "-", 1, lambda a, k=0.0: (-a, (-1.0,))),
    "tanh": Rule("tanh", "tanh", 1, lambda a, k=0.0: _engine("tanh", a), swapped=_tanh_swapped),
    "exp": Rule("exp", "exp", 1, lambda a, k=0.0: _engine("exp", a), swapped=lambda a, k=0.0: (a,)),
    "relu": Rule("relu", "relu", 1, lambda a, k=0.0: _engine("ReLU", a)),
    "log": Rule(
        "log",
        "log",
        1,
        lambda a, k=0.0: _engine("log", a),
        swapped=lambda a, k=0.0: (1 / math.log(a),) if a > 0 and a != 1 else (math.nan,),
    ),
    "sigmoid": Rule("sigmoid", "sigmoid", 1, lambda a, k=0.0: _engine("sigmoid", a)),
}

# the _op names learners give their nodes (the lecture's first, then common variants)
NAMES = {
    "+": "add",
    "add": "add",
    "-": "sub",
    "sub": "sub",
    "*": "mul",
    "mul": "mul",
    "/": "div",
    "div": "div",
    "truediv": "div",
    "tanh": "tanh",
    "exp": "exp",
    "relu": "relu",
    "log": "log",
    "ln": "log",
    "sigmoid": "sigmoid",
    "neg": "neg",
}


def close(x: Any, y: Any, rel: float = 1e-7, abs_: float = 1e-12) -> bool:
    """x and y agree to `rel` (relative) or `abs_`; two NaNs agree, as do equal infinities."""
    if x == y and type(x) in (float, int) and type(y) in (float, int):
        return True
    try:
        x, y = float(x), float(y)
    except (TypeError, ValueError, OverflowError):
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= max(abs_, rel * max(abs(x), abs(y)))


class Known:
    """What a node is: its rule, its operands in order (a Value used twice appears twice), k."""

    __slots__ = ("rule", "operands", "k", "_result")

    def __init__(self, rule: Rule, operands: tuple[Any, ...], k: float = 0.0) -> None:
        self.rule, self.operands, self.k = rule, operands, k
        self._result: tuple[float, Locals] | None = None

    def run(self) -> tuple[float, Locals]:
        """(output, locals) of the rule on the operands' data (computed once: a check never
        changes data)."""
        if self._result is None:
            xs = [float(o.data) for o in self.operands]
            self._result = (
                self.rule.run(*xs, self.k) if self.rule.arity == 1 else self.rule.run(*xs)
            )
        return self._result


def _power_const(op: str) -> float | None:
    """k of a node named like the original's '**2', '**-1', '**0.5' (or '^2', 'pow2')."""
    for prefix in ("**", "^", "pow"):
        if op.startswith(prefix):
            try:
                return float(op[len(prefix) :].strip("() "))
            except ValueError:
                return None
    return None


def _tries(known: Known) -> bool:
    try:
        known.run()
    except (ArithmeticError, ValueError):
        return False
    return True


def identify(node: Any, inputs: Sequence[Any]) -> tuple[Known | None, bool]:
    """(what `node` is, whether its data agrees with that), from its `_op` name if usual, else
    from which rule reproduces its data. (None, True) when it cannot be told."""
    op = str(getattr(node, "_op", "") or "").strip()
    data = getattr(node, "data", math.nan)
    candidates: list[Known] = []
    name = NAMES.get(op.lower())
    if name is not None:
        rule = RULES[name]
        if name == "sub" and len(inputs) == 1:
            rule = RULES["neg"]
        candidates += _orders(rule, inputs)
    elif op.startswith(("**", "^", "pow")):
        k = _power_const(op)
        if len(inputs) == 1 and k is not None:
            candidates.append(Known(RULES["pow_k"], tuple(inputs), k))
        elif len(inputs) == 2 or (len(inputs) == 1 and k is None):
            candidates += _orders(RULES["pow"], inputs)
    for known in candidates:  # an order of a set-valued _prev whose forward fits
        if _tries(known) and close(known.run()[0], data, rel=1e-9):
            return known, True
    if candidates:
        return (candidates[0], False) if _tries(candidates[0]) else (None, True)
    for rule in RULES.values():  # no usual name: the rule that reproduces the data, if one does
        if rule.name == "pow_k":
            continue
        for known in _orders(rule, inputs):
            if _tries(known) and close(known.run()[0], data, rel=1e-12):
                return known, True
    return None, True


def _orders(rule: Rule, inputs: Sequence[Any]) -> list[Known]:
    """The ways `inputs` can be the rule's operands: a 1-element _prev of a binary op is a Value
    used twice; a set's two elements may be in either order."""
    ins = tuple(inputs)
    if rule.arity == 1:
        return [Known(rule, ins)] if len(ins) == 1 else []
    if len(ins) == 1:
        return [Known(rule, (ins[0], ins[0]))]
    if len(ins) != 2:
        return []
    return [Known(rule, ins)] if rule.symmetric else [Known(rule, ins), Known(rule, ins[::-1])]


def inputs_of(node: Any) -> list[Any]:
    """The node's inputs (its `_prev`, a tuple, list or set), in their order."""
    prev = getattr(node, "_prev", ())
    try:
        return list(prev)
    except TypeError:
        return []


def topo(roots: Iterable[Any]) -> list[Any]:
    """Every node the roots depend on, inputs first, without recursion (any depth)."""
    order: list[Any] = []
    seen: set[int] = set()
    for root in roots:
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((p, False) for p in reversed(inputs_of(node)))
    return order


def fmt(x: Any) -> str:
    """A number as a learner reads it: 1, -0.5, 3.14159 (6 significant digits)."""
    try:
        x = float(x)
    except (TypeError, ValueError, OverflowError):
        return repr(x)
    if math.isfinite(x) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.6g}"


def signed(x: Any) -> str:
    """A contribution with its sign: +1, -0.5."""
    text = fmt(x)
    return text if text.startswith(("-", "n", "i")) else f"+{text}"


def label(node: Any, names: dict[int, str], depth: int = 0) -> str:
    """A node as an expression of the named Values: (a - b), tanh(a), (a**2)."""
    if id(node) in names:
        return names[id(node)]
    ins = inputs_of(node)
    if not ins or depth > 3:
        return fmt(getattr(node, "data", "?")) if not ins else "(…)"
    op = str(getattr(node, "_op", "") or "?")
    parts = [label(p, names, depth + 1) for p in ins]
    if op.startswith("**") and len(parts) == 1:
        return f"({parts[0]}{op})"
    if len(parts) == 1:
        return f"{op}({parts[0]})"
    if len(parts) == 2:
        return f"({parts[0]} {op} {parts[1]})"
    return f"{op}({', '.join(parts)})"
