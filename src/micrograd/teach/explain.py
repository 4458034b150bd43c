"""Backward, one step at a time, in words: explain(root) and backward_sequence(root).

explain(root)           runs backward step by step and says what each step adds, and why
backward_sequence(root) a Mermaid sequence diagram of one backward pass
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from micrograd.engine import Constant, Value
from micrograd.guards import NoBackward
from micrograd.teach.drawings import MAX_NODES, fmt_number, formula, graph_nodes, names
from micrograd.text import aside, language
from micrograd.text import text as say


def shown(name: str) -> str:
    """A name as the text of a step shows it: a label that holds operators, such as the lecture's
    `x1*w1 + x2*w2`, in brackets, so that `[x1*w1 + x2*w2].grad` cannot be read as x2 * w2.grad;
    plain names, numbers and names already in parentheses as they are."""
    if _PLAIN.fullmatch(name) or (name.startswith("(") and name.endswith(")")):
        return name
    return f"[{name}]"


_PLAIN = re.compile(r"[\w.\-]+")  # a, x1, layers.0.neurons.3.w.1, 2.5, -1, 权重


@dataclass
class Contribution:
    """One `input.grad += local * upstream` that a node's backward step makes."""

    input: str  # the input's name
    local: float | None  # None for a hand-written _backward closure, whose rule is unknown
    upstream: float
    added: float
    total: float  # the input's grad after this step
    repeated: bool  # the input received contributions before: that is why it is +=
    value: Value | None = None  # the input itself
    overwrote: bool = False  # a hand-written closure set the grad (=) instead of adding (+=)
    forgotten: bool = False  # a Value made by hand whose _backward was never set: adds nothing


@dataclass
class Step:
    """One node's chain-rule step."""

    node: str
    formula: str  # how the node was computed from its inputs
    grad: float
    contributions: list[Contribution]
    group: str | None = None  # the part of the graph it is in (a region drawn as one box)


@dataclass
class Explanation:
    """The topological order, the output's grad of 1, and every step of a backward pass."""

    order: list[str]
    root: str
    steps: list[Step]

    lang: str = "en"  # the language of str(): "en" or "zh" (micrograd.text)
    nan: bool = False  # the output is nan: str() ends with where to look for it
    values: dict[str, float] = field(default_factory=dict)  # each Value's data, by its name

    def step_line(self, s: Step) -> str:
        """The line that starts step `s`: the node, its formula and its grad."""
        node = shown(s.node)
        line = say("step", self.lang, node=node, formula=s.formula, grad=fmt_number(s.grad))
        return aside(line, s.group, self.lang) if s.group else line

    def line(self, c: Contribution) -> str:
        """The line of one contribution: `input.grad += local * upstream = added  -> total`."""
        lang = self.lang
        if c.overwrote:
            return say("overwrote", lang, input=shown(c.input), total=fmt_number(c.total))
        if c.forgotten:
            return say("forgotten", lang, input=shown(c.input), total=fmt_number(c.total))
        how = (
            f"{fmt_number(c.local)} * {fmt_number(c.upstream)}"
            if c.local is not None
            else say("custom", lang)
        )
        why = say("repeated", lang, input=shown(c.input)) if c.repeated else ""
        return say(
            "add",
            lang,
            input=shown(c.input),
            how=how,
            added=fmt_number(c.added),
            total=fmt_number(c.total),
            why=why,
        )

    def __str__(self) -> str:
        lang = self.lang
        lines = [
            say("order", lang, order=", ".join(self.order)),
            say("start", lang, root=self.root),
            say("walk", lang),
        ]
        for s in self.steps:
            lines.append(self.step_line(s))
            lines += [self.line(c) for c in s.contributions]
        if self.nan:
            lines.append(say("nan_output", lang))
        return "\n".join(lines)


def explain(
    root: Value,
    max_nodes: int | None = MAX_NODES,
    params: Any = (),
    lang: str | None = None,
    groups: Sequence[Any] = (),
) -> Explanation:
    """Step through `root.backward()` one node at a time and record what each step adds.

    It works on its own copy of the grads, so no Value's .grad changes; its totals are what one
    `root.backward()` from zero grads gives. `params` (a Module, or (name, Value) pairs) names
    parameters that have no label. `lang` ("en" or "zh"; default: from LANG) is the language of
    its text. `groups` (teach.neurons.region) name the steps of the nodes inside them."""
    group_of = {v: g.name for g in groups for v in g.members}
    order = graph_nodes(root, max_nodes)
    name = names(order, params)
    grad: dict[Value, Any] = {v: 0 for v in order}
    grad[root] = 1  # the output's grad is set to 1
    steps: list[Step] = []
    received: set[Value] = set()
    for node in reversed(order):
        if not node._prev:
            continue
        upstream = grad[node]
        contributions = []
        if isinstance(node._user_backward, NoBackward):  # made by hand, no closure set
            for p in dict.fromkeys(node._prev):
                c = Contribution(name[p], None, upstream, 0, grad[p], p in received, p)
                c.forgotten = True
                contributions.append(c)
        elif node._user_backward is not None:  # run the hand-written closure on the copy
            after, added_to = _run_closure(node, order, grad)
            for p in dict.fromkeys(node._prev):  # each input once: a closure is not per operand
                added = after[p] - grad[p]
                c = Contribution(name[p], None, upstream, added, after[p], p in received, p)
                c.overwrote = not added_to[p]
                contributions.append(c)
                grad[p] = after[p]
                received.add(p)
        else:
            for p, d in zip(node._prev, node._local):
                added = d * upstream  # the engine's chain rule, step for step
                grad[p] = grad[p] + added
                if isinstance(p, Constant):  # a number in the formula, not an input: no line
                    continue
                contributions.append(
                    Contribution(name[p], d, upstream, added, grad[p], p in received, p)
                )
                received.add(p)
        step_formula = formula(node, [shown(name[p]) for p in node._prev])
        steps.append(Step(name[node], step_formula, upstream, contributions, group_of.get(node)))
    nan = math.isnan(root.data)
    values = {name[v]: v.data for v in order}
    return Explanation([name[v] for v in order], name[root], steps, language(lang), nan, values)


def _run_closure(
    node: Value, order: list[Value], grad: dict[Value, Any]
) -> tuple[dict[Value, Any], dict[Value, bool]]:
    """The inputs' grads after `node`'s hand-written _backward runs on the grads in `grad`, and
    for each input whether the closure added to its grad (+=) or set it (=): it runs a second time
    from grads 1 higher, which an addition carries through and an assignment forgets. Every .grad
    is put back as it was afterwards."""
    saved = [v.grad for v in order]
    try:
        results = []
        for shift in (0, 1):
            for v in order:
                v.grad = grad[v]
            for p in node._prev:
                p.grad = grad[p] + shift
            node._backward()
            results.append({p: p.grad for p in node._prev})
        first, shifted = results
        return first, {p: shifted[p] - first[p] == 1 for p in first}
    finally:
        for v, g in zip(order, saved):
            v.grad = g


def backward_sequence(
    root: Value, max_nodes: int | None = 60, params: Any = (), lang: str | None = None
) -> str:
    """A Mermaid sequence diagram of one backward pass (as explain(), changing no grad): the
    output's grad of 1, each _backward call and each `+=` it makes, in backward()'s order."""
    ex = explain(root, max_nodes, params, lang)
    ids = {n: f"P{i}" for i, n in enumerate(reversed(ex.order))}
    lines = ["sequenceDiagram", f"    participant U as {say('user', ex.lang)}"]
    lines += [f"    participant {ids[n]} as {n}" for n in reversed(ex.order)]
    r = ids[ex.root]
    lines += [
        f"    U->>{r}: {ex.root}.backward()",
        f"    {r}->>{r}: {say('sequence_order', ex.lang)} → [{', '.join(ex.order)}]",
        f"    {r}->>{r}: {ex.root}.grad = 1",
    ]
    for s in ex.steps:
        me = ids[s.node]
        step = say("sequence_step", ex.lang, node=s.node, grad=fmt_number(s.grad))
        lines.append(f"    {me}->>{me}: {step}")
        for c in s.contributions:
            how = (
                f"{fmt_number(c.local)} * {fmt_number(c.upstream)} = "
                if c.local is not None
                else ""
            )
            sign = "=" if c.overwrote else "+="
            value = fmt_number(c.total if c.overwrote else c.added)
            lines.append(f"    {me}->>{ids[c.input]}: {shown(c.input)}.grad {sign} {how}{value}")
    return "\n".join(lines) + "\n"
