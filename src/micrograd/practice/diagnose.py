"""The first wrong step of a learner's backward pass, in words (micrograd.practice.rules tells
which rule each node runs).

Each node's `_backward()` runs in a correct topological order, and what it adds to each input's
grad is compared with `local * upstream`: the local derivative from the rule times the node's grad
at that moment. The first difference is put in words, and a mistake is named only where probes
run for it agree (the closure run again with another upstream grad, or from another start): `=`
for `+=`, a closure never attached, the other operand's data, a wrong local rule.
"""

from __future__ import annotations

import inspect
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from micrograd.engine import OPS
from micrograd.practice.result import Problem, close, fmt, signed
from micrograd.practice.rules import Known, identify, inputs_of, label, topo
from micrograd.text import aside, catalog, joined, text, titled


# ---------------------------------------------------------------------------- the first wrong step
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
    rule = known.rule
    rule_doc = inspect.getdoc(OPS[rule.op]) if rule.op in OPS else None
    parts = []
    for i in positions:
        key = f"practice.why.{rule.op}.{min(i, rule.arity - 1)}"
        if key not in catalog(lang):  # an op with no sentence of its own: its rule's docstring
            key = "practice.why.rule"
        fields = {"value": fmt(local[i]), "k": fmt(known.k), "rule": rule_doc or rule.op}
        parts.append(text(key, lang, **fields))
    if len(positions) > 1:
        return titled(text("practice.both_operands", lang, input=name), joined(parts, lang), lang)
    return parts[0]


class Walk:
    """One check of a learner's graph: names for its Values, what some nodes are known to be."""

    def __init__(self, names: dict[int, str], lang: str, known: dict[int, Known] | None = None):
        self.names = names
        self.lang = lang
        self.known = known or {}
        self.only: set[int] | None = None  # compare only these Values' grads (None: all)
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
        if known.rule.op == "**k":
            return f"({parts[0]}**{fmt(known.k)})"
        if known.rule.op == "neg":
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
                if known.rule.op == "**k":
                    args += f"; k = {fmt(known.k)}"
                return Problem(
                    "wrong-forward",
                    text(
                        "practice.wrong_forward",
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
        default = default_code(order)
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
        if not callable(backward):
            return self.called_closure(node, backward)
        before = [p.grad for p in ins]
        not_attached = default is not None and getattr(backward, "__code__", None) is default
        backward()
        return self.compare(
            node, known, operands, before, [p.grad for p in ins], upstream, not_attached
        )

    def told(self, mistake: str, words: str, key: str, gap: float, **fields: Any) -> Problem:
        """The step in words, then the cause that explains it (the catalog's `key`, which the
        Problem keeps: a shrunk case must still be told by it)."""
        because = text(key, self.lang, **fields)
        return Problem(mistake, joined([words, because], self.lang), gap=gap, cause=key)

    def called_closure(self, node: Any, found: Any) -> Problem:
        """`out._backward = _backward()`: the closure was called (it returned None), not attached."""
        fields = {"node": self.label(node), "kind": type(found).__name__}
        return Problem("called-closure", text("practice.called_closure", self.lang, **fields))

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
            if self.only is not None and id(p) not in self.only:
                continue
            positions = [i for i, o in enumerate(operands) if o is p]
            expected = sum(local[i] * upstream for i in positions)
            if (
                not_attached
                and any(local[i] != 0 for i in positions)
                or not _adds_up(b, a, expected)
            ):
                # what a closure may read in place of out.grad: any input's grad, but this
                # input's grad after the step (which holds what it added)
                grads = [*before, *(g for q, g in zip(distinct(operands), after) if q is not p)]
                # the probe of a cause: the closure run again, with another upstream grad or
                # from another start
                again = partial(_run_again, node, distinct(operands), before, p)
                problem = self.diagnose(
                    node, known, p, positions, b, a, upstream, not_attached, grads, again
                )
                place = None if not_attached else closure_at(node, self.lang)
                if place is None:
                    return problem
                return replace(problem, step=aside(problem.step, place, self.lang))
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
        grads: Sequence[Any] = (),
        again: Callable[..., Any] | None = None,
    ) -> Problem:
        """Name the mistake behind a wrong step, and put the step in words (`grads`: the inputs'
        grads before and after the step, any of which a closure may have read as upstream;
        `again(g, shift)`: what p holds after the closure runs again with the upstream grad g, p
        `shift` above its start: the probe of a cause)."""
        _, local = known.run()
        shares = [local[i] * upstream for i in positions]
        expected = sum(shares)
        name, node_name = self.label(p), self.label(node)
        # how far off the step is: of two failing points, the one where it shows is told
        gap = abs(_difference(after, before) - expected) / max(1.0, abs(expected))
        because = why(known, positions, self.lang, name)
        fields = {"input": name, "node": node_name, "expected": signed(expected)}
        if not_attached:
            return Problem(
                "closure-not-attached", text("practice.not_attached", self.lang, **fields), gap=gap
            )
        found = _difference(after, before)
        upstream_shown = fmt(upstream)
        if not close(before, 0, abs_=0):  # what it got is after - before: say what was before
            held = text("practice.held_before", self.lang, input=name, before=fmt(before))
            upstream_shown = joined([upstream_shown, held], self.lang)
        words = text(
            "practice.step_wrong",
            self.lang,
            found=signed(found),
            upstream=upstream_shown,
            why=because,
            **fields,
        )
        overwritten = (not close(before, 0, abs_=0) or len(positions) > 1) and any(
            close(after, s) for s in [*shares, expected]
        )
        if overwritten and again is not None:  # `=` predicts the same result from any start
            shifted = again(upstream, 7.0)
            overwritten = shifted is not None and close(_float(shifted), after)
        # a line meant for another operand adds to this one: its share and the other's
        others = [i for i, o in enumerate(known.operands) if o is not p]
        if others and any(close(found, expected + local[j] * upstream) for j in others):
            j = next(j for j in others if close(found, expected + local[j] * upstream))
            other = self.label(known.operands[j])
            return self.told("other", words, "practice.other_share", gap, input=name, other=other)
        if not overwritten and len(positions) > 1 and any(close(found, s) for s in shares):
            return self.told(
                "other", words, "practice.one_share", gap, input=name, n=len(positions)
            )
        if overwritten:
            total = fmt(_sum(before, expected))
            share = fmt(expected) if expected >= 0 else f"({fmt(expected)})"
            fields["expected"] = share
            step = text(
                "practice.assign",
                self.lang,
                after=fmt(after),
                before=fmt(before),
                total=total,
                **fields,
            )
            return Problem("assign-not-add", step, gap=gap)
        swapped = known.rule.swapped
        if swapped is not None:
            xs = [float(o.data) for o in known.operands]
            wrong = swapped(*xs, known.k)
            guess = sum(wrong[i] * upstream for i in positions)
            # a guess of 0 tells nothing: it is also what a closure adds that adds nothing
            if close(found, guess) and not close(guess, expected) and not close(guess, 0):
                key, mistake = f"practice.swapped.{known.rule.op}", "input-output-swapped"
                if known.rule.op == "ReLU":  # its output's value where its slope (0 or 1) belongs
                    mistake = "value-as-slope"
                if known.rule.arity == 2:
                    own = known.rule.op == "*" and len(positions) == 1
                    key = "practice.operand_own" if own else "practice.operand_binary"
                    mistake = "wrong-operand"
                return self.told(mistake, words, key, gap, input=name, found=signed(found))
        alone = sum(local[i] for i in positions)
        if not close(upstream, 1) and close(found, alone):
            return self.told("no-upstream", words, "practice.no_upstream", gap)
        read = [
            g
            for g in grads
            if not close(g, upstream) and not close(g, 0) and close(found, alone * _float(g))
        ]
        if read and not close(alone, 0):
            return self.told(
                "wrong-upstream",
                words,
                "practice.wrong_upstream",
                gap,
                node=node_name,
                grad=fmt(read[0]),
            )
        return self._probed(words, found, upstream, alone, node, before, again, gap)

    def _probed(
        self,
        words: str,
        found: float,
        upstream: Any,
        alone: float,
        node: Any,
        before: Any,
        again: Callable[..., Any] | None,
        gap: float,
    ) -> Problem:
        """A wrong amount, told by what the closure adds with another upstream grad: the same
        factor times it (a wrong local derivative), the same amount whatever it is (the upstream
        grad not read: out.data, a number kept from before), its size without its sign; else
        the step as it is, with no cause named."""
        other = -2.5 * _float(upstream) if not close(upstream, 0) else -2.5
        held = again(other) if again is not None else None
        if held is None:
            return Problem("other", words, gap=gap, unexplained=True)
        added = _difference(held, before)  # what it added with the other upstream grad
        g = _float(upstream)
        fields = {"node": self.label(node), "found": signed(found), "other": fmt(other)}
        if close(found, 0) and close(added, 0):  # nothing, whatever the upstream: no cause told
            return self.told("other", words, "practice.adds_nothing", gap, **fields)
        if not close(g, 0) and close(added / other, found / g, rel=1e-6):
            if close(found, -alone * g):  # the right size: its sign alone is wrong (abs()?)
                return self.told("wrong-local", words, "practice.local_sign", gap)
            return Problem("wrong-local", words, gap=gap)  # in proportion: the factor is wrong
        if close(added, found, rel=1e-9, abs_=1e-12) and not close(found, alone * g):
            key = "practice.reads_out_data" if close(found, alone * _float(node.data)) else ""
            return self.told(
                "wrong-upstream", words, key or "practice.upstream_unread", gap, **fields
            )
        if close(found, alone * abs(g)) and close(added, alone * abs(other)):
            return self.told("wrong-upstream", words, "practice.upstream_sign", gap, **fields)
        if not close(alone, 0) and close(found * g, alone) and close(added * other, alone):
            # 1 / (x * out.grad): what it adds is the local derivative over the upstream grad
            return self.told("wrong-upstream", words, "practice.upstream_divides", gap, **fields)
        part = _part(found, added, g, other, before, again) if again is not None else None
        if part is not None:  # 1 - t**2 * out.grad: out.grad multiplies a part of it only
            sign = "-" if part[1] < 0 else "+"
            fields.update(part=fmt(part[0]), sign=sign, slope=fmt(abs(part[1])), local=fmt(alone))
            return self.told("wrong-upstream", words, "practice.upstream_part", gap, **fields)
        return Problem("other", words, gap=gap, unexplained=True)


def _part(
    found: float,
    added: float,
    g: float,
    other: float,
    before: Any,
    again: Callable[..., Any],
) -> tuple[float, float] | None:
    """(c, s) where the closure adds c + s * upstream, c not 0 and s not 0, whatever the input's
    grad held before: a part c that the upstream grad does not scale (None: it is not so). Two
    upstream grads give c and s; a third, and another start, test them."""
    if close(other, g):
        return None
    slope = (added - found) / (other - g)
    part = found - slope * g
    if close(part, 0, abs_=1e-9) or close(slope, 0, abs_=1e-9) or not math.isfinite(part):
        return None
    third = 4.0 * g + 1.0
    at_third = again(third)
    shifted = again(g, 7.0)  # from 7 higher: the same amount, if the part is the closure's own
    if at_third is None or shifted is None:
        return None
    fits = close(_difference(at_third, before), part + slope * third)
    same = close(_float(shifted) - _sum(before, 7.0), found, rel=1e-6, abs_=1e-9)
    return (part, slope) if fits and same else None


def _run_again(
    node: Any, ins: Sequence[Any], before: Sequence[Any], p: Any, upstream: Any, shift: float = 0
) -> Any:
    """Run node's closure again from the inputs' grads as they were before the step (p's `shift`
    above its own), with the upstream grad `upstream`: p's grad after it (None if it raises)."""
    held = node.grad
    try:
        for q, b in zip(ins, before):
            q.grad = b + shift if q is p and shift else b
        node.grad = upstream
        node._backward()
        return p.grad
    except Exception:  # noqa: BLE001 - the probe of a cause: a closure that fails tells none
        return None
    finally:
        node.grad = held


def closure_at(node: Any, lang: str) -> str | None:
    """Where the node's `_backward` closure is written in the learner's file: `practice/op-mul.py
    line 44` (None where it is not the learner's, or cannot be told)."""
    fn = getattr(node, "_backward", None)
    fn = getattr(fn, "__wrapped__", fn)  # the backward check wraps each closure to watch it
    code = getattr(fn, "__code__", None)
    if code is None or not code.co_filename.endswith(".py") or not os.path.isfile(code.co_filename):
        return None  # a notebook's cells are run joined: their line numbers are not the file's
    path = os.path.abspath(code.co_filename)
    if path.startswith(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))):
        return None  # micrograd's own code: the reference, or the engine
    relative = os.path.relpath(path)
    shown = path if relative.startswith("..") else relative
    return text("practice.closure_at", lang, path=shown, line=code.co_firstlineno)


def default_code(order: Sequence[Any]) -> Any:
    """The code of the do-nothing `_backward` a leaf gets in `__init__` (the lecture's lambda):
    an op node still carrying it never had its closure attached."""
    for node in order:
        if not inputs_of(node):
            return getattr(getattr(node, "_backward", None), "__code__", None)
    return None


def _difference(after: Any, before: Any) -> float:
    """after - before, as floats (nan where either is not a number)."""
    try:
        return float(after) - float(before)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def _float(x: Any) -> float:
    """x as a float (nan where it is not a number)."""
    try:
        return float(x)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def _sum(before: Any, expected: float) -> float:
    """before + expected, as floats (nan where before is not a number)."""
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
