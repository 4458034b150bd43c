"""Which rule a learner's node runs: the engine's rules as the checker knows them, and a node
recognised by them.

The numbers come from micrograd.engine's own rules (`OPS` on floats), so the checker and the
engine cannot disagree; only `-` and unary minus, which the engine builds from `+` and `*`, are
written here. A learner's node is recognised by its `_op` name where it has a usual one, else by
which rule reproduces its data from its inputs' data.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from micrograd.engine import OPS, FloatMath, IEEEMath
from micrograd.practice.result import close, fmt

Locals = tuple[float, ...]


# ---------------------------------------------------------------------------- the rules
def _engine(op: str, *data: float) -> tuple[float, Locals]:
    """The engine's rule `op` on floats: the operands' data, then k (which only `**k` takes)."""
    math_ = IEEEMath if op in ("**k", "**") else FloatMath
    *inputs, k = data
    out, local = OPS[op](math_, *inputs, k) if op == "**k" else OPS[op](math_, *inputs)
    return float(out), tuple(float(d) for d in local)


@dataclass(frozen=True)
class Rule:
    """One op as the checker knows it: its key, how a label shows it, its arity and numbers."""

    op: str  # a key of micrograd.engine.OPS, or "-" and "neg" (built from + and * there)
    symbol: str
    arity: int
    run: Callable[..., tuple[float, Locals]]  # (operands' data..., k) -> (output, locals)
    # the locals a learner gets by reading the wrong data (the other operand's, or the input's
    # where the output's belongs): the "wrong-operand" mistake
    swapped: Callable[..., Locals] | None = None
    symmetric: bool = False


def _from_engine(op: str, symbol: str = "", **extra: Any) -> Rule:
    """The engine's rule `op`: its arity is its number of operands (x ** k has one)."""
    arity = 1 if op == "**k" else len(inspect.signature(OPS[op]).parameters) - 1  # less m
    return Rule(op, symbol or op, arity, partial(_engine, op), **extra)


RULES: dict[str, Rule] = {
    rule.op: rule
    for rule in (
        _from_engine("+", symmetric=True),
        Rule("-", "-", 2, lambda a, b, k: (a - b, (1.0, -1.0))),
        _from_engine("*", swapped=lambda a, b, k: (a, b), symmetric=True),
        _from_engine(
            "/", swapped=lambda a, b, k: _engine("/", b, a, k)[1] if a else (math.inf, math.inf)
        ),
        _from_engine(
            "**",
            swapped=lambda a, b, k: _engine("**", b, a, k)[1] if b > 0 else (math.nan, math.nan),
        ),
        _from_engine("**k", "**"),
        Rule("neg", "-", 1, lambda a, k: (-a, (-1.0,))),
        _from_engine("tanh", swapped=lambda a, k: (1 - a * a,)),  # 1 - x**2, not 1 - t**2
        _from_engine("exp", swapped=lambda a, k: (a,)),
        _from_engine("ReLU", "relu", swapped=lambda a, k: (max(a, 0.0),)),  # out.data itself
        _from_engine(
            "log",
            swapped=lambda a, k: (1 / math.log(a),) if a > 0 and a != 1 else (math.nan,),
        ),
        _from_engine("sigmoid"),
    )
}
# an op of the engine with no mistakes of its own listed above (sin, cos, a new one): its rule
RULES.update({op: _from_engine(op) for op in OPS if op not in RULES})

# the _op names learners give their nodes: each rule's own (in any case), and common variants
NAMES = {op.lower(): op for op in RULES if not op.startswith("**")}
NAMES.update(add="+", sub="-", mul="*", div="/", truediv="/", ln="log")


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
            self._result = self.rule.run(*(float(o.data) for o in self.operands), self.k)
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
    """Whether the rule runs on the operands' data (it may be outside the rule's domain, or no
    real number: a complex power of a negative base)."""
    try:
        known.run()
    except (ArithmeticError, ValueError, TypeError):
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
        rule = RULES["neg" if name == "-" and len(inputs) == 1 else name]
        candidates += _orders(rule, inputs)
    elif op.startswith(("**", "^", "pow")):
        k = _power_const(op)
        if len(inputs) == 1 and k is not None:
            candidates.append(Known(RULES["**k"], tuple(inputs), k))
        elif len(inputs) == 2 or (len(inputs) == 1 and k is None):
            candidates += _orders(RULES["**"], inputs)
    for known in candidates:  # an order of a set-valued _prev whose forward fits
        if _tries(known) and close(known.run()[0], data, rel=1e-9):
            return known, True
    if candidates:
        return (candidates[0], False) if _tries(candidates[0]) else (None, True)
    for rule in RULES.values():  # no usual name: the rule that reproduces the data, if one does
        if rule.op == "**k":
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
    """The node's inputs (the lecture's `_prev` or microgpt's `_children`: a tuple, list or set),
    in their order."""
    prev: Any = getattr(node, "_prev", None)
    prev = getattr(node, "_children", ()) if prev is None else prev
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
