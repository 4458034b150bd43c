"""See the graph and step through backward: Graphviz DOT, Mermaid, and a step-by-step trace.

to_dot(root)            DOT text (no dependency); render with Graphviz's `dot`
draw_dot(root)          a graphviz.Digraph, shown inline by Jupyter (needs the `graphviz` extra)
to_mermaid(root)        a Mermaid flowchart of the graph
backward_sequence(root) a Mermaid sequence diagram of one backward pass
explain(root)           runs backward step by step and says what each step adds, and why
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from micrograd.engine import Value, topo_order

MAX_NODES = 500  # beyond this a drawing is unreadable and Graphviz slow: ask for it explicitly


def fmt_number(x: Any) -> str:
    """A number as drawings and explanations show it."""
    x = x.data if isinstance(x, Value) else x
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _nodes(root: Value, max_nodes: int | None) -> list[Value]:
    order = topo_order(root)
    if max_nodes is not None and len(order) > max_nodes:
        raise ValueError(
            f"the graph has {len(order)} Values, more than max_nodes={max_nodes}: drawing it would be "
            "slow and unreadable; draw a smaller expression or pass a larger max_nodes"
        )
    return order


def formula(v: Value, parts: list[str]) -> str:
    """How `v` was computed, written with its inputs' names: "a*b", "tanh(x)", "x**2"."""
    if v._op in ("+", "*", "**") and len(parts) == 2:
        return f"{parts[0]}{v._op}{parts[1]}"
    if v._op.startswith("**") and len(parts) == 1:
        return f"{parts[0]}{v._op}"
    return f"{v._op.lower()}({', '.join(parts)})"


def names(order: list[Value]) -> dict[Value, str]:
    """A readable name per Value: its label, else its formula when short, else n<index>."""
    result: dict[Value, str] = {}
    for i, v in enumerate(order):
        if v.label:
            result[v] = v.label
        elif not v._prev:
            result[v] = fmt_number(v.data)
        else:
            text = f"({formula(v, [result[p] for p in v._prev])})"
            result[v] = text if len(text) <= 24 else f"n{i}"
    return result


@dataclass
class _Drawing:
    """What both DOT and Mermaid draw: one box per Value, one small node per op, edges in order."""

    boxes: list[tuple[str, str, str]] = field(default_factory=list)  # (id, text, kind)
    ops: list[tuple[str, str]] = field(default_factory=list)  # (id, op)
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # (from, to, operand label)


def _drawing(root: Value, params: Iterable[Value], max_nodes: int | None) -> _Drawing:
    order = _nodes(root, max_nodes)
    index = {v: i for i, v in enumerate(order)}
    param_set = set(params)
    d = _Drawing()
    for i, v in enumerate(order):
        kind = (
            "output"
            if v is root
            else "param"
            if v in param_set
            else "leaf"
            if not v._prev
            else "inner"
        )
        label = f"{v.label} | " if v.label else ""
        d.boxes.append(
            (f"v{i}", f"{label}data {fmt_number(v.data)} | grad {fmt_number(v.grad)}", kind)
        )
        if v._prev:
            d.ops.append((f"v{i}op", v._op))
            d.edges.append((f"v{i}op", f"v{i}", ""))
            ordered = len(v._prev) > 1 and v._op not in ("+", "*")  # say which operand is which
            for k, p in enumerate(v._prev):
                d.edges.append((f"v{index[p]}", f"v{i}op", str(k) if ordered else ""))
    return d


# Node attributes by kind: leaves blue, parameters yellow, the output green and bold.
_DOT_STYLE: dict[str, dict[str, str]] = {
    "leaf": {"style": "filled", "fillcolor": "#dbeafe"},
    "param": {"style": "filled", "fillcolor": "#fde68a"},
    "output": {"style": "filled,bold", "fillcolor": "#bbf7d0"},
    "inner": {},
}


def _record(text: str) -> str:
    """A Graphviz record label: braces and angle brackets are syntax there, so escape them."""
    for ch in "\\{}<>":
        text = text.replace(ch, "\\" + ch)
    return "{ " + text + " }"


def to_dot(
    root: Value,
    params: Iterable[Value] = (),
    rankdir: str = "LR",
    max_nodes: int | None = MAX_NODES,
) -> str:
    """Graphviz DOT text of the graph: leaves blue, `params` yellow, the output green."""
    if rankdir not in ("LR", "TB", "RL", "BT"):
        raise ValueError(f"rankdir must be LR, TB, RL or BT, got {rankdir!r}")
    d = _drawing(root, params, max_nodes)

    def attrs(**kw: str) -> str:
        return ", ".join(f'{k}="{v.replace(chr(34), chr(92) + chr(34))}"' for k, v in kw.items())

    lines = ["digraph micrograd {", f"  rankdir={rankdir};", '  node [fontname="Helvetica"];']
    for ident, text, kind in d.boxes:
        lines.append(
            f"  {ident} [{attrs(shape='record', label=_record(text), **_DOT_STYLE[kind])}];"
        )
    for ident, op in d.ops:
        lines.append(f"  {ident} [{attrs(shape='circle', label=op, width='0.3')}];")
    for a, b, label in d.edges:
        lines.append(f"  {a} -> {b}{f' [label={label}]' if label else ''};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def draw_dot(
    root: Value,
    format: str = "svg",
    rankdir: str = "LR",
    params: Iterable[Value] = (),
    max_nodes: int | None = MAX_NODES,
) -> Any:
    """A graphviz.Digraph of the graph, which Jupyter shows inline; needs `pip install graphviz`
    (and Graphviz's `dot` program to render)."""
    try:
        import graphviz
    except ImportError:
        raise ImportError(
            "draw_dot needs the graphviz package: pip install 'micrograd-plus[viz]'"
        ) from None
    d = _drawing(root, params, max_nodes)
    g = graphviz.Digraph(
        format=format, graph_attr={"rankdir": rankdir}, node_attr={"fontname": "Helvetica"}
    )
    for ident, text, kind in d.boxes:
        g.node(ident, label=_record(text), shape="record", **_DOT_STYLE[kind])
    for ident, op in d.ops:
        g.node(ident, label=op, shape="circle", width="0.3")
    for a, b, label in d.edges:
        g.edge(a, b, label=label or None)
    return g


def to_mermaid(root: Value, params: Iterable[Value] = (), max_nodes: int | None = MAX_NODES) -> str:
    """A Mermaid flowchart of the graph, in the style of the tutorial's diagrams."""
    d = _drawing(root, params, max_nodes)
    lines = ["flowchart LR"]
    for ident, text, kind in d.boxes:
        text = text.replace(chr(34), "#quot;").replace("\n", " ")  # a newline would end the line
        lines.append(f'    {ident}["{text}"]:::{kind}')
    for ident, op in d.ops:
        lines.append(f'    {ident}(("{op}"))')
    for a, b, label in d.edges:
        lines.append(f"    {a} -->|{label}| {b}" if label else f"    {a} --> {b}")
    lines += [
        "    classDef leaf fill:#dbeafe",
        "    classDef param fill:#fde68a",
        "    classDef output fill:#bbf7d0,stroke-width:2px",
        "    classDef inner fill:#ffffff",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- explain backward
@dataclass
class Contribution:
    """One `input.grad += local * upstream` that a node's backward step makes."""

    input: str
    local: float | None  # None for a hand-written _backward closure, whose rule is unknown
    upstream: float
    added: float
    total: float  # the input's grad after this addition
    repeated: bool  # the input received contributions before: that is why it is +=


@dataclass
class Step:
    """One node's chain-rule step."""

    node: str
    formula: str  # how the node was computed from its inputs
    grad: float
    contributions: list[Contribution]


@dataclass
class Explanation:
    """The topological order, the seed, and every step of a backward pass, in order."""

    order: list[str]
    root: str
    steps: list[Step]

    def __str__(self) -> str:
        lines = [
            f"1. topological order (inputs first): [{', '.join(self.order)}]",
            f"2. seed: {self.root}.grad = 1 (d {self.root} / d {self.root})",
            "3. walk the order backwards; each node adds local derivative * its grad to its inputs:",
        ]
        for s in self.steps:
            lines.append(
                f"   {s.node} = {s.formula}, grad {fmt_number(s.grad)}: {s.node}._backward()"
            )
            for c in s.contributions:
                how = (
                    f"{fmt_number(c.local)} * {fmt_number(c.upstream)}"
                    if c.local is not None
                    else "(custom _backward)"
                )
                why = (
                    f"   (+=: {c.input} is used more than once; contributions add up)"
                    if c.repeated
                    else ""
                )
                lines.append(
                    f"      {c.input}.grad += {how} = {fmt_number(c.added)}  -> {fmt_number(c.total)}{why}"
                )
        return "\n".join(lines)


def explain(root: Value, max_nodes: int | None = MAX_NODES) -> Explanation:
    """Step through `root.backward()` one node at a time and record what each step adds.

    It works on its own copy of the grads, so no Value's .grad changes; its totals are what one
    `root.backward()` from zero grads gives."""
    order = _nodes(root, max_nodes)
    name = names(order)
    grad: dict[Value, Any] = {v: 0 for v in order}
    grad[root] = 1  # the output's grad is set to 1
    steps: list[Step] = []
    received: set[Value] = set()
    for node in reversed(order):
        if not node._prev:
            continue
        upstream = grad[node]
        if node._user_backward is not None:  # run the hand-written closure on the copy
            after = _run_closure(node, order, grad)
            locals_: Sequence[Any] = [None] * len(node._prev)
        else:
            locals_ = node._local
        contributions = []
        for p, d in zip(node._prev, locals_):
            if d is None:
                added, grad[p] = after[p] - grad[p], after[p]
            else:  # the engine's chain rule, step for step: input.grad += local * grad
                added = d * upstream
                grad[p] = grad[p] + added
            contributions.append(Contribution(name[p], d, upstream, added, grad[p], p in received))
            received.add(p)
        step_formula = formula(node, [name[p] for p in node._prev])
        steps.append(Step(name[node], step_formula, upstream, contributions))
    return Explanation([name[v] for v in order], name[root], steps)


def _run_closure(node: Value, order: list[Value], grad: dict[Value, Any]) -> dict[Value, Any]:
    """The inputs' grads after `node`'s hand-written _backward runs on the grads in `grad`; every
    .grad is put back as it was afterwards."""
    saved = [v.grad for v in order]
    try:
        for v in order:
            v.grad = grad[v]
        node._backward()
        return {p: p.grad for p in node._prev}
    finally:
        for v, g in zip(order, saved):
            v.grad = g


def backward_sequence(root: Value, max_nodes: int | None = 60) -> str:
    """A Mermaid sequence diagram of one backward pass (as explain(), changing no grad): the
    output's grad of 1, each _backward call and each `+=` it makes, in backward()'s order."""
    ex = explain(root, max_nodes)
    ids = {n: f"P{i}" for i, n in enumerate(reversed(ex.order))}
    lines = ["sequenceDiagram", "    participant U as user code"]
    lines += [f"    participant {ids[n]} as {n}" for n in reversed(ex.order)]
    r = ids[ex.root]
    lines += [
        f"    U->>{r}: {ex.root}.backward()",
        f"    {r}->>{r}: topological order → [{', '.join(ex.order)}]",
        f"    {r}->>{r}: {ex.root}.grad = 1",
    ]
    for s in ex.steps:
        me = ids[s.node]
        lines.append(f"    {me}->>{me}: {s.node}._backward()  (grad {fmt_number(s.grad)})")
        for c in s.contributions:
            how = (
                f"{fmt_number(c.local)} * {fmt_number(c.upstream)} = "
                if c.local is not None
                else ""
            )
            lines.append(f"    {me}->>{ids[c.input]}: {c.input}.grad += {how}{fmt_number(c.added)}")
    return "\n".join(lines) + "\n"
