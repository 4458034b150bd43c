"""Drawings of the graph: Graphviz DOT, Mermaid, the names and formulas the teaching tools share.

to_dot(root)            DOT text (no dependency); render_dot() runs Graphviz's `dot` on it
draw_dot(root)          a graphviz.Digraph, shown inline by Jupyter (needs the `graphviz` extra)
to_mermaid(root)        a Mermaid flowchart of the graph
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any

from micrograd.engine import Constant, Value, topo_order
from micrograd.text import language
from micrograd.text import text as say

MAX_NODES = 500  # beyond this a drawing is unreadable and Graphviz slow: ask for it explicitly
# The stepper lays out larger graphs in columns: Graphviz's time grows much faster than the graph
# (a 13,000-box backward pass ran past a minute).
DOT_LAYOUT_NODES = 1000


def fmt_number(x: Any) -> str:
    """A number as explanations show it: 4 significant digits, and 0 for -0."""
    x = x.data if isinstance(x, Value) else x
    if isinstance(x, float):
        return f"{x + 0.0:.4g}"  # -0.0 + 0.0 is 0.0
    return str(x)


def fmt4(x: Any) -> str:
    """A number as pictures show it: 4 decimals, as the lecture's draw_dot."""
    x = float(x.data if isinstance(x, Value) else x)
    return f"{x + 0.0:.4f}"


def graph_nodes(root: Value, max_nodes: int | None) -> list[Value]:
    """The Values of `root`'s graph in topological order; ValueError beyond max_nodes."""
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


def named_params(params: Any) -> tuple[dict[Value, str], set[Value]]:
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
    or (name, Value) pairs), the parameter's name, or for the ops of a neuron of micrograd.nn
    its place in the neuron (see _neuron_names); else its formula when short ("(a*b)"), its
    number for a leaf; else a short id ("n7"). A name already taken gets "#2", "#3"... after it."""
    param_name = named_params(params)[0]
    in_neuron = _neuron_names(order, param_name)
    result: dict[Value, str] = {}
    taken: dict[str, int] = {}
    for i, v in enumerate(order):
        if v.label:
            name = v.label
        elif v in param_name:
            name = param_name[v]
        elif v in in_neuron:
            name = in_neuron[v]
        elif not v._prev:
            name = fmt_number(v.data)
        else:
            text = f"({formula(v, [result[p] for p in v._prev])})"
            name = text if len(text) <= 24 else f"n{i}"
        taken[name] = taken.get(name, 0) + 1
        result[v] = name if taken[name] == 1 else f"{name}#{taken[name]}"
    return result


def _neuron_names(order: list[Value], param_name: dict[Value, str]) -> dict[Value, str]:
    """The ops of each neuron the graph computes (micrograd.teach.neurons), named by the neuron:
    `layers.0.neurons.3` its output, `...:w·x+b` the complete sum, `...:w.1·x` a product and
    `...:b+w·x[:2]` the bias plus the first two products; `[2]` after the neuron's name is the
    second sample of a batch."""
    if not param_name:
        return {}
    from micrograd.teach.neurons import find_neurons

    found: dict[Value, str] = {}
    for n in find_neurons(order, [(name, p) for p, name in param_name.items()]):
        neuron = n.name or "neuron"
        if n.sample is not None:
            neuron += f"[{n.sample}]"
        terms: dict[Value, int] = {}  # how many products w_i*x_i a member adds up
        for v in n.members:
            if v._op == "*":
                w = next(p for p in v._prev if p in n.params)
                terms[v] = 1
                found[v] = f"{neuron}:{'.'.join(param_name[w].rsplit('.', 2)[-2:])}·x"
            else:
                terms[v] = sum(terms.get(p, 0) for p in v._prev)
                found[v] = f"{neuron}:w·x+b" if v is n.pre else f"{neuron}:b+w·x[:{terms[v]}]"
        found[n.out] = neuron  # the activation's output, or w·x+b itself for a linear neuron
    return found


@dataclass
class _Drawing:
    """What both DOT and Mermaid draw: one box per Value, one small node per op, edges in order."""

    boxes: list[tuple[str, str, str]] = field(default_factory=list)  # (id, text, kind)
    ops: list[tuple[str, str]] = field(default_factory=list)  # (id, op)
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # (from, to, operand label)
    lang: str = "en"  # of the legend


def kind_of(v: Value, root: Value, params: set[Value]) -> str:
    """How a Value is drawn: the output, a parameter, a number of the formula, an input, or a
    computed Value."""
    if v is root:
        return "output"
    if v in params:
        return "param"
    if isinstance(v, Constant):
        return "const"
    return "inner" if v._prev else "leaf"


def _drawing(root: Value, params: Any, max_nodes: int | None, lang: str | None) -> _Drawing:
    order = graph_nodes(root, max_nodes)
    index = {v: i for i, v in enumerate(order)}
    param_name, param_set = named_params(params)  # once: params may be a one-pass iterator
    name = names(order, [(n, p) for p, n in param_name.items()])
    d = _Drawing(lang=language(lang))
    for i, v in enumerate(order):
        kind = kind_of(v, root, param_set)
        kind = "leaf" if kind == "const" else kind  # the pictures draw numbers as inputs
        d.boxes.append((f"v{i}", f"{name[v]} | data {fmt4(v.data)} | grad {fmt4(v.grad)}", kind))
        if v._prev:
            d.ops.append((f"v{i}op", v._op))
            d.edges.append((f"v{i}op", f"v{i}", ""))
            ordered = len(v._prev) > 1 and v._op not in ("+", "*")  # say which operand is which
            for k, p in enumerate(v._prev):
                d.edges.append((f"v{index[p]}", f"v{i}op", str(k) if ordered else ""))
    return d


# Node attributes by kind: leaves blue, parameters yellow, the output green and bold.
LEGEND = ("leaf", "param", "output", "inner")  # the kinds of box; their words: micrograd.text
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
    for ident, op in d.ops:  # an op name is plain text: its backslashes are not DOT escapes
        label = op.replace("\\", "\\\\")
        lines.append(f"  {ident} [{attrs(shape='circle', label=label, **_OP_STYLE)}];")
    for a, b, label in d.edges:
        lines.append(f"  {a} -> {b}{f' [label={label}]' if label else ''};")
    lines.append(f'  subgraph cluster_legend {{ label="{say("legend", d.lang)}"; fontsize=10;')
    for kind in _kinds(d):
        style = attrs(shape="box", label=say(kind, d.lang), fontsize="10", **_DOT_STYLE[kind])
        lines.append(f"    legend_{kind} [{style}];")
    if any(label for _, _, label in d.edges):  # the operands' order matters for / and **
        style = attrs(shape="plaintext", label=say("operands", d.lang), fontsize="10")
        lines.append(f"    legend_operands [{style}];")
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
            "draw_dot needs the graphviz package: pip install graphviz (in a clone: "
            "pip install -e '.[viz]'); to_dot and to_mermaid need nothing"
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
        if any(label for _, _, label in d.edges):
            c.node(
                "legend_operands", label=say("operands", d.lang), shape="plaintext", fontsize="10"
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


def render_dot(text: str, fmt: str, lang: str | None = None) -> bytes:
    """DOT text rendered by Graphviz's `dot` program as svg or png; OSError saying how to
    install it, or what it said when it failed."""
    dot = shutil.which("dot")
    if dot is None:
        raise OSError(say("no_dot", language(lang), fmt=fmt))
    try:
        done = subprocess.run(
            [dot, f"-T{fmt}"], input=text.encode(), capture_output=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        raise OSError("Graphviz's dot took more than 60 s; draw a smaller graph") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise OSError(
            f"Graphviz's dot failed: {said[0] if said else f'exit status {done.returncode}'}"
        )
    return done.stdout
