"""Run a learner's backward pass node by node and find the first wrong step.

Each node's `_backward()` runs in a correct topological order; what it adds to each input's grad
is compared with `local * upstream`, the local derivative from micrograd's own rule times the
node's grad at that moment. The first difference is named in words, with the classic mistake it
shows (`=` for `+=`, a closure never attached, the other operand's data, a wrong local rule).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd.practice.messages import joined, say, titled
from micrograd.practice.rules import Known, close, fmt, identify, inputs_of, label, signed, topo


@dataclass(frozen=True)
class Problem:
    """The first wrong thing found: a mistake's name and the step in words."""

    mistake: str
    step: str


def distinct(values: Sequence[Any]) -> list[Any]:
    """The values without repeats (by identity), in order."""
    seen: set[int] = set()
    out = []
    for v in values:
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out


def why(known: Known, positions: Sequence[int], lang: str, name: str) -> str:
    """Why the expected contribution is what it is: the local rule, in words, with numbers."""
    _, local = known.run()
    parts = [
        say(
            f"why_{known.rule.name}_{min(i, known.rule.arity - 1)}",
            lang,
            value=fmt(local[i]),
            k=fmt(known.k),
        )
        for i in positions
    ]
    if len(positions) > 1:
        return titled(say("both_operands", lang, input=name), joined(parts, lang), lang)
    return parts[0]


class Walk:
    """One check of a learner's graph: names for its Values, what some nodes are known to be."""

    def __init__(self, names: dict[int, str], lang: str, known: dict[int, Known] | None = None):
        self.names = names
        self.lang = lang
        self.known = known or {}
        self._cache: dict[int, tuple[Known | None, bool]] = {}

    def label(self, node: Any, depth: int = 0) -> str:
        """The node as an expression of the named Values, its operands in the op's order."""
        if id(node) in self.names or not inputs_of(node) or depth > 3:
            return label(node, self.names, depth)
        known, _ = self.identify(node)
        if known is None:
            return label(node, self.names, depth)
        parts = [self.label(o, depth + 1) for o in known.operands]
        symbol = known.rule.symbol
        if known.rule.name == "pow_k":
            return f"({parts[0]}**{fmt(known.k)})"
        if known.rule.name == "neg":
            return f"(-{parts[0]})"
        if known.rule.arity == 1:
            return f"{symbol}({parts[0]})"
        return f"({parts[0]} {symbol} {parts[1]})"

    def identify(self, node: Any) -> tuple[Known | None, bool]:
        """What the node is (given, or recognised) and whether its data agrees."""
        if id(node) not in self._cache:
            if id(node) in self.known:
                known = self.known[id(node)]
                try:
                    ok = close(known.run()[0], node.data, rel=1e-9)
                except (ArithmeticError, ValueError):
                    ok = True  # outside the rule's domain: the engine raises, not the learner's fault
                self._cache[id(node)] = (known, ok)
            else:
                self._cache[id(node)] = identify(node, inputs_of(node))
        return self._cache[id(node)]

    def forward(self, order: Sequence[Any]) -> Problem | None:
        """The first node, inputs first, whose data is not its op of its inputs' data."""
        for node in order:
            if not inputs_of(node):
                continue
            known, ok = self.identify(node)
            if known is not None and not ok:
                expected = known.run()[0]
                args = ", ".join(fmt(o.data) for o in known.operands)
                if known.rule.name == "pow_k":
                    args += f"; k = {fmt(known.k)}"
                return Problem(
                    "wrong-forward",
                    say(
                        "wrong_forward",
                        self.lang,
                        node=self.label(node),
                        found=fmt(node.data),
                        expected=fmt(expected),
                        symbol=known.rule.symbol,
                        args=args,
                    ),
                )
        return None

    def run(self, roots: Sequence[Any], seeds: Sequence[float]) -> Problem | None:
        """Set each root's grad to its seed, run every `_backward()` in a correct order, and
        return the first step that adds the wrong amount (None: every step is right)."""
        order = topo(roots)
        problem = self.forward(order)
        if problem is not None:
            return problem
        for root, seed in zip(roots, seeds):
            root.grad = seed
        default = _default_code(order)
        for node in reversed(order):
            if not inputs_of(node):
                continue
            problem = self.step(node, default)
            if problem is not None:
                return problem
        return None

    def step(self, node: Any, default: Any) -> Problem | None:
        """Run one node's `_backward()` and compare what each input gained with local * upstream."""
        known, operands, ins = self.operands(node)
        upstream = node.grad
        backward: Callable[[], Any] = node._backward
        before = [p.grad for p in ins]
        not_attached = default is not None and getattr(backward, "__code__", None) is default
        backward()
        return self.compare(
            node, known, operands, before, [p.grad for p in ins], upstream, not_attached
        )

    def operands(self, node: Any) -> tuple[Known | None, tuple[Any, ...], list[Any]]:
        """What the node is, its operands in order, and its distinct inputs."""
        known, _ = self.identify(node)
        operands = known.operands if known is not None else tuple(inputs_of(node))
        return known, operands, distinct(operands)

    def compare(
        self,
        node: Any,
        known: Known | None,
        operands: Sequence[Any],
        before: Sequence[Any],
        after: Sequence[Any],
        upstream: Any,
        not_attached: bool,
    ) -> Problem | None:
        """The first input whose grad did not gain local * upstream in this step, diagnosed."""
        if known is None:
            return None
        _, local = known.run()
        for p, b, a in zip(distinct(operands), before, after):
            positions = [i for i, o in enumerate(operands) if o is p]
            expected = sum(local[i] * upstream for i in positions)
            if (
                not_attached
                and any(local[i] != 0 for i in positions)
                or not _adds_up(b, a, expected)
            ):
                return self.diagnose(node, known, p, positions, b, a, upstream, not_attached)
        return None

    def diagnose(
        self,
        node: Any,
        known: Known,
        p: Any,
        positions: list[int],
        before: Any,
        after: Any,
        upstream: Any,
        not_attached: bool,
    ) -> Problem:
        """Name the mistake behind a wrong step, and put the step in words."""
        _, local = known.run()
        shares = [local[i] * upstream for i in positions]
        expected = sum(shares)
        name, node_name = self.label(p), self.label(node)
        because = why(known, positions, self.lang, name)
        fields = {"input": name, "node": node_name, "expected": signed(expected)}
        if not_attached:
            return Problem("closure-not-attached", say("not_attached", self.lang, **fields))
        found = _difference(after, before)
        words = say(
            "step_wrong",
            self.lang,
            found=signed(found),
            upstream=fmt(upstream),
            why=because,
            **fields,
        )
        overwritten = (not close(before, 0, abs_=0) or len(positions) > 1) and any(
            close(after, s) for s in [*shares, expected]
        )
        if overwritten:
            total = fmt(_sum(before, expected))
            share = fmt(expected) if expected >= 0 else f"({fmt(expected)})"
            fields["expected"] = share
            text = say(
                "assign", self.lang, after=fmt(after), before=fmt(before), total=total, **fields
            )
            return Problem("assign-not-add", text)
        swapped = known.rule.swapped
        if swapped is not None:
            xs = [float(o.data) for o in known.operands]
            wrong = swapped(*xs, known.k)
            guess = sum(wrong[i] * upstream for i in positions)
            if close(found, guess) and not close(guess, expected):
                key = "operand_binary" if known.rule.arity == 2 else "operand_unary"
                return Problem("wrong-operand", f"{words}; {say(key, self.lang)}")
        if not close(upstream, 1) and close(found, sum(local[i] for i in positions)):
            return Problem("wrong-local", f"{words}; {say('no_upstream', self.lang)}")
        return Problem("wrong-local", words)


def _default_code(order: Sequence[Any]) -> Any:
    """The code of the do-nothing `_backward` a leaf gets in `__init__` (the lecture's lambda):
    an op node still carrying it never had its closure attached."""
    for node in order:
        if not inputs_of(node):
            return getattr(getattr(node, "_backward", None), "__code__", None)
    return None


def _difference(after: Any, before: Any) -> float:
    try:
        return float(after) - float(before)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def _sum(before: Any, expected: float) -> float:
    try:
        return float(before) + expected
    except (TypeError, ValueError, OverflowError):
        return math.nan


def _adds_up(before: Any, after: Any, expected: float) -> bool:
    """after == before + expected, to rounding (the learner may sum in another order)."""
    if close(after, _sum(before, expected)):
        return True
    # a large grad held before swallows a small share: compare the difference as well
    return close(_difference(after, before), expected, rel=1e-6, abs_=1e-9)
