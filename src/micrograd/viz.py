"""See the graph and step through backward: Graphviz DOT, Mermaid, and a step-by-step trace.

to_dot(root)            DOT text (no dependency); render with Graphviz's `dot`
draw_dot(root)          a graphviz.Digraph, shown inline by Jupyter (needs the `graphviz` extra)
to_mermaid(root)        a Mermaid flowchart of the graph
backward_sequence(root) a Mermaid sequence diagram of one backward pass
explain(root)           runs backward step by step and says what each step adds, and why
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from micrograd.engine import Constant, Value, topo_order
from micrograd.messages import language
from micrograd.messages import text as say

MAX_NODES = 500  # beyond this a drawing is unreadable and Graphviz slow: ask for it explicitly


def fmt_number(x: Any) -> str:
    """A number as explanations show it: 4 significant digits, and 0 for -0."""
    x = x.data if isinstance(x, Value) else x
    if isinstance(x, float):
        return f"{x + 0.0:.4g}"  # -0.0 + 0.0 is 0.0
    return str(x)


def _fmt4(x: Any) -> str:
    """A number as pictures show it: 4 decimals, as the lecture's draw_dot."""
    x = float(x.data if isinstance(x, Value) else x)
    return f"{x + 0.0:.4f}"


def _nodes(root: Value, max_nodes: int | None) -> list[Value]:
    order = topo_order(root)
    if max_nodes is not None and len(order) > max_nodes:
        raise ValueError(
            f"the graph has {len(order)} Values, more than max_nodes={max_nodes}: drawing it would be "
            "slow and unreadable; draw a smaller expression or pass a larger max_nodes"
        )
    return order


def _is_constant(v: Value, number: float) -> bool:
    return not v._prev and not v.label and v.data == number


def formula(v: Value, parts: list[str]) -> str:
    """How `v` was computed, written with its inputs' names: "a*b", "a/b", "a-b", "-x", "tanh(x)",
    "x**2"."""
    op = v._op
    if op == "*" and len(parts) == 2 and _is_constant(v._prev[1], -1.0):
        return f"-{parts[0]}"  # -x is x * -1
    if op == "+" and len(parts) == 2:
        right = parts[1]
        if right.startswith("(-") and right.endswith(")"):
            return f"{parts[0]}-{right[2:-1]}"  # a - b is a + (b * -1)
        if right.startswith("-") and not v._prev[1]._prev:
            return f"{parts[0]}-{right[1:]}"  # x - 1 is x + -1
    if op in ("+", "*", "/", "**") and len(parts) == 2:
        return f"{parts[0]}{op}{parts[1]}"
    if op.startswith("**") and len(parts) == 1:
        return f"{parts[0]}{op}"
    return f"{op.lower()}({', '.join(parts)})"


def _parameters(params: Any) -> tuple[dict[Value, str], set[Value]]:
    """Parameters given as a Module, (name, Value) pairs or bare Values: the names of those that
    have one, and the set of all of them."""
    items = params.named_parameters() if hasattr(params, "named_parameters") else params
    named: dict[Value, str] = {}
    every: set[Value] = set()
    for x in items:
        if isinstance(x, tuple):
            named[x[1]] = x[0]
            x = x[1]
        every.add(x)
    return named, every


def names(order: list[Value], params: Any = ()) -> dict[Value, str]:
    """A name per Value, never the same for two Values: its label; else, given `params` (a Module,
    or (name, Value) pairs), the parameter's name; else its formula when short ("(a*b)"), its
    number for a leaf; else a short id ("n7"). A name already taken gets "#2", "#3"... after it."""
    param_name = _parameters(params)[0]
    result: dict[Value, str] = {}
    taken: dict[str, int] = {}
    for i, v in enumerate(order):
        if v.label:
            name = v.label
        elif v in param_name:
            name = param_name[v]
        elif not v._prev:
            name = fmt_number(v.data)
        else:
            text = f"({formula(v, [result[p] for p in v._prev])})"
            name = text if len(text) <= 24 else f"n{i}"
        taken[name] = taken.get(name, 0) + 1
        result[v] = name if taken[name] == 1 else f"{name}#{taken[name]}"
    return result


@dataclass
class _Drawing:
    """What both DOT and Mermaid draw: one box per Value, one small node per op, edges in order."""

    boxes: list[tuple[str, str, str]] = field(default_factory=list)  # (id, text, kind)
    ops: list[tuple[str, str]] = field(default_factory=list)  # (id, op)
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # (from, to, operand label)
    lang: str = "en"  # of the legend


def _drawing(root: Value, params: Any, max_nodes: int | None, lang: str | None) -> _Drawing:
    order = _nodes(root, max_nodes)
    index = {v: i for i, v in enumerate(order)}
    param_name, param_set = _parameters(params)  # once: params may be a one-pass iterator
    name = names(order, [(n, p) for p, n in param_name.items()])
    d = _Drawing(lang=language(lang))
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
        d.boxes.append((f"v{i}", f"{name[v]} | data {_fmt4(v.data)} | grad {_fmt4(v.grad)}", kind))
        if v._prev:
            d.ops.append((f"v{i}op", v._op))
            d.edges.append((f"v{i}op", f"v{i}", ""))
            ordered = len(v._prev) > 1 and v._op not in ("+", "*")  # say which operand is which
            for k, p in enumerate(v._prev):
                d.edges.append((f"v{index[p]}", f"v{i}op", str(k) if ordered else ""))
    return d


# Node attributes by kind: leaves blue, parameters yellow, the output green and bold.
LEGEND = ("leaf", "param", "output", "inner")  # the kinds of box; their words: micrograd.messages
# Graphviz asks fontconfig for the first of these it has: Latin text in Helvetica (the lecture's),
# Chinese labels from a CJK font (Debian: apt-get install fonts-noto-cjk).
FONTS = "Helvetica,Noto Sans CJK SC,Noto Sans SC,WenQuanYi Micro Hei,Source Han Sans SC,sans-serif"
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
    params: Any = (),
    rankdir: str = "LR",
    max_nodes: int | None = MAX_NODES,
    lang: str | None = None,
) -> str:
    """Graphviz DOT text of the graph: each Value's name (as explain() names it), data and grad;
    leaves blue, `params` (Values, a Module or named pairs) yellow, the output green; a legend."""
    if rankdir not in ("LR", "TB", "RL", "BT"):
        raise ValueError(f"rankdir must be LR, TB, RL or BT, got {rankdir!r}")
    d = _drawing(root, params, max_nodes, lang)

    def attrs(**kw: str) -> str:
        return ", ".join(f'{k}="{v.replace(chr(34), chr(92) + chr(34))}"' for k, v in kw.items())

    lines = ["digraph micrograd {", f"  rankdir={rankdir};", f'  graph [fontname="{FONTS}"];']
    lines.append(f'  node [fontname="{FONTS}"];')
    lines.append(f'  edge [fontname="{FONTS}"];')
    for ident, text, kind in d.boxes:
        lines.append(
            f"  {ident} [{attrs(shape='record', label=_record(text), **_DOT_STYLE[kind])}];"
        )
    for ident, op in d.ops:
        lines.append(f"  {ident} [{attrs(shape='circle', label=op, **_OP_STYLE)}];")
    for a, b, label in d.edges:
        lines.append(f"  {a} -> {b}{f' [label={label}]' if label else ''};")
    lines.append(f'  subgraph cluster_legend {{ label="{say("legend", d.lang)}"; fontsize=10;')
    for kind in _kinds(d):
        style = attrs(shape="box", label=say(kind, d.lang), fontsize="10", **_DOT_STYLE[kind])
        lines.append(f"    legend_{kind} [{style}];")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# op nodes all the same size, whatever their text ("*" or "tanh")
_OP_STYLE = {"width": "0.5", "height": "0.5", "fixedsize": "true", "fontsize": "11"}


def _kinds(d: _Drawing) -> list[str]:
    """The kinds of box in the drawing, in the legend's order."""
    present = {kind for _, _, kind in d.boxes}
    return [k for k in LEGEND if k in present]


def draw_dot(
    root: Value,
    format: str = "svg",
    rankdir: str = "LR",
    params: Any = (),
    max_nodes: int | None = MAX_NODES,
    lang: str | None = None,
) -> Any:
    """A graphviz.Digraph of the graph, which Jupyter shows inline; needs `pip install graphviz`
    (and Graphviz's `dot` program to render)."""
    try:
        import graphviz
    except ImportError:
        raise ImportError(
            "draw_dot needs the graphviz package: pip install 'micrograd-plus[viz]'"
        ) from None
    d = _drawing(root, params, max_nodes, lang)
    g = graphviz.Digraph(
        format=format,
        graph_attr={"rankdir": rankdir, "fontname": FONTS},
        node_attr={"fontname": FONTS},
        edge_attr={"fontname": FONTS},
    )
    for ident, text, kind in d.boxes:
        g.node(ident, label=_record(text), shape="record", **_DOT_STYLE[kind])
    for ident, op in d.ops:
        g.node(ident, label=op, shape="circle", **_OP_STYLE)
    for a, b, label in d.edges:
        g.edge(a, b, label=label or None)
    legend = {"label": say("legend", d.lang), "fontsize": "10"}
    with g.subgraph(name="cluster_legend", graph_attr=legend) as c:
        for kind in _kinds(d):
            c.node(
                f"legend_{kind}",
                label=say(kind, d.lang),
                shape="box",
                fontsize="10",
                **_DOT_STYLE[kind],
            )
    return g


def to_mermaid(
    root: Value, params: Any = (), max_nodes: int | None = MAX_NODES, lang: str | None = None
) -> str:
    """A Mermaid flowchart of the graph, in the style of the tutorial's diagrams."""
    d = _drawing(root, params, max_nodes, lang)
    lines = ["flowchart LR"]
    for ident, text, kind in d.boxes:
        text = text.replace(chr(34), "#quot;").replace("\n", " ")  # a newline would end the line
        lines.append(f'    {ident}["{text}"]:::{kind}')
    for ident, op in d.ops:
        lines.append(f'    {ident}(("{op}"))')
    for a, b, label in d.edges:
        lines.append(f"    {a} -->|{label}| {b}" if label else f"    {a} --> {b}")
    lines.append(f"    subgraph legend [{say('legend', d.lang)}]")
    lines += [f'        legend_{kind}["{say(kind, d.lang)}"]:::{kind}' for kind in _kinds(d)]
    lines.append("    end")
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

    input: str  # the input's name
    local: float | None  # None for a hand-written _backward closure, whose rule is unknown
    upstream: float
    added: float
    total: float  # the input's grad after this step
    repeated: bool  # the input received contributions before: that is why it is +=
    value: Value | None = None  # the input itself
    overwrote: bool = False  # a hand-written closure set the grad (=) instead of adding (+=)


@dataclass
class Step:
    """One node's chain-rule step."""

    node: str
    formula: str  # how the node was computed from its inputs
    grad: float
    contributions: list[Contribution]


@dataclass
class Explanation:
    """The topological order, the output's grad of 1, and every step of a backward pass."""

    order: list[str]
    root: str
    steps: list[Step]

    lang: str = "en"  # the language of str(): "en" or "zh" (micrograd.messages)

    def __str__(self) -> str:
        lang = self.lang
        lines = [
            say("order", lang, order=", ".join(self.order)),
            say("start", lang, root=self.root),
            say("walk", lang),
        ]
        for s in self.steps:
            lines.append(say("step", lang, node=s.node, formula=s.formula, grad=fmt_number(s.grad)))
            for c in s.contributions:
                if c.overwrote:
                    lines.append(say("overwrote", lang, input=c.input, total=fmt_number(c.total)))
                    continue
                how = (
                    f"{fmt_number(c.local)} * {fmt_number(c.upstream)}"
                    if c.local is not None
                    else say("custom", lang)
                )
                why = say("repeated", lang, input=c.input) if c.repeated else ""
                lines.append(
                    say(
                        "add",
                        lang,
                        input=c.input,
                        how=how,
                        added=fmt_number(c.added),
                        total=fmt_number(c.total),
                        why=why,
                    )
                )
        return "\n".join(lines)


def explain(
    root: Value, max_nodes: int | None = MAX_NODES, params: Any = (), lang: str | None = None
) -> Explanation:
    """Step through `root.backward()` one node at a time and record what each step adds.

    It works on its own copy of the grads, so no Value's .grad changes; its totals are what one
    `root.backward()` from zero grads gives. `params` (a Module, or (name, Value) pairs) names
    parameters that have no label. `lang` ("en" or "zh"; default: from LANG) is the language of
    its text."""
    order = _nodes(root, max_nodes)
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
        if node._user_backward is not None:  # run the hand-written closure on the copy
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
        step_formula = formula(node, [name[p] for p in node._prev])
        steps.append(Step(name[node], step_formula, upstream, contributions))
    return Explanation([name[v] for v in order], name[root], steps, language(lang))


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
            lines.append(f"    {me}->>{ids[c.input]}: {c.input}.grad {sign} {how}{value}")
    return "\n".join(lines) + "\n"
