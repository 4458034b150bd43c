"""See the graph and step through backward: Graphviz DOT, Mermaid, and a step-by-step trace.

to_dot(root)            DOT text (no dependency); render with Graphviz's `dot`
draw_dot(root)          a graphviz.Digraph, shown inline by Jupyter (needs the `graphviz` extra)
to_mermaid(root)        a Mermaid flowchart of the graph
backward_sequence(root) a Mermaid sequence diagram of one backward pass
explain(root)           runs backward step by step and says what each step adds, and why
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from micrograd.engine import Constant, NoBackward, Value, topo_order
from micrograd.io import atomic_write
from micrograd.messages import MESSAGES, language
from micrograd.messages import text as say

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


def _kind(v: Value, root: Value, params: set[Value]) -> str:
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
    order = _nodes(root, max_nodes)
    index = {v: i for i, v in enumerate(order)}
    param_name, param_set = _parameters(params)  # once: params may be a one-pass iterator
    name = names(order, [(n, p) for p, n in param_name.items()])
    d = _Drawing(lang=language(lang))
    for i, v in enumerate(order):
        kind = _kind(v, root, param_set)
        kind = "leaf" if kind == "const" else kind  # the pictures draw numbers as inputs
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
    for ident, op in d.ops:  # an op name is plain text: its backslashes are not DOT escapes
        label = op.replace("\\", "\\\\")
        lines.append(f"  {ident} [{attrs(shape='circle', label=label, **_OP_STYLE)}];")
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
    forgotten: bool = False  # a Value made by hand whose _backward was never set: adds nothing


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

    def step_line(self, s: Step) -> str:
        """The line that starts step `s`: the node, its formula and its grad."""
        return say("step", self.lang, node=s.node, formula=s.formula, grad=fmt_number(s.grad))

    def line(self, c: Contribution) -> str:
        """The line of one contribution: `input.grad += local * upstream = added  -> total`."""
        lang = self.lang
        if c.overwrote:
            return say("overwrote", lang, input=c.input, total=fmt_number(c.total))
        if c.forgotten:
            return say("forgotten", lang, input=c.input, total=fmt_number(c.total))
        how = (
            f"{fmt_number(c.local)} * {fmt_number(c.upstream)}"
            if c.local is not None
            else say("custom", lang)
        )
        why = say("repeated", lang, input=c.input) if c.repeated else ""
        return say(
            "add",
            lang,
            input=c.input,
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


# ---------------------------------------------------------------------------- the backward stepper
_BOX_W, _BOX_H, _OP_R = 150, 58, 16  # sizes in the page, in pixels


class Stepper:
    """A page that steps through one backward pass; shown inline by Jupyter, VS Code and Colab,
    `.save(path)` writes it as one file that works offline."""

    def __init__(self, page: str, frames: int) -> None:
        self.page = page
        self.frames = frames  # steps after the first: the slider goes from 0 to frames

    def _repr_html_(self) -> str:
        # In an iframe, so that several steppers in one notebook keep their own page and keys.
        # sandbox="allow-scripts" without allow-same-origin: a srcdoc frame would otherwise share
        # the notebook's origin, and any script in it could reach the notebook and its kernel.
        return (
            f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(self.page, quote=True)}" '
            'style="width:100%;height:560px;border:1px solid #ddd"></iframe>'
        )

    def save(self, path: str) -> None:
        """Write the page to `path` (atomically)."""
        atomic_write(path, self.page.encode())


def stepper(
    root: Value,
    params: Any = (),
    lang: str | None = None,
    max_nodes: int | None = MAX_NODES,
    quiz: bool = False,
) -> Stepper:
    """The backward stepper of `root`: the graph with each Value's name, data and grad, stepping
    through backward() as explain() does (the order, the output's grad of 1, then each
    `input.grad += local * upstream`), with buttons, the arrow keys, a slider and play.

    With quiz=True each `+=` stays hidden until the learner types the number it adds: a right
    answer turns green; a wrong one shows the local derivative and the upstream grad whose product
    it is, and the learner tries again (or shows it). Stepping stops at the first open question.

    Every Value's box carries data-name and data-grad (the grad at the current step); the buttons
    carry data-action="prev", "next", "play" (and "check", "show" beside the answer field
    data-action="answer" of a quiz, whose score has data-right and data-asked); the page has
    window.micrograd.step(k)."""
    named, every = _parameters(params)
    params = [(n, p) for p, n in named.items()] + [p for p in every if p not in named]
    ex = explain(root, max_nodes, params, lang)
    order = topo_order(root)
    name = names(order, params)
    index = {v: i for i, v in enumerate(order)}
    by_name = {name[v]: v for v in order}
    from micrograd.quiz import TOLERANCE, questions  # it builds on explain()

    asked = {id(c): q for _, c, q in questions(ex)} if quiz else {}
    frames: list[dict[str, Any]] = [{"text": say("order", ex.lang, order=", ".join(ex.order))}]
    start = say("start", ex.lang, root=ex.root)
    frames.append({"set": [[index[root], _grad_text(1.0)]], "text": start, "node": index[root]})
    for s in ex.steps:
        node = index[by_name[s.node]]
        shown: list[Contribution | None] = [*s.contributions] or [None]  # a step adds nothing
        for c in shown:
            frame: dict[str, Any] = {"node": node, "text": ex.step_line(s).strip()}
            if c is not None and c.value is not None:
                frame["set"] = [[index[c.value], _grad_text(c.total)]]
                frame["input"] = index[c.value]
                if id(c) in asked:
                    q = asked[id(c)]
                    frame["quiz"] = {
                        "ask": q.ask(ex.lang),
                        "added": q.added,
                        "wrong": q.wrong(ex.lang),
                    }
                frame["text"] += "\n" + ex.line(c).strip()
            frames.append(frame)
    data = {
        "title": f"{ex.root}.backward()",
        "frames": frames,
        **_layout(order, root, name, every),
        "words": {k: MESSAGES[ex.lang][k] for k in _PAGE_WORDS},
        "lang": ex.lang,
        "quiz": quiz,
        "tolerance": TOLERANCE,
    }
    return Stepper(page_with_data("stepper.html", data), len(frames) - 1)


_PAGE_WORDS = (
    *("prev", "next", "play", "pause", "step_of"),
    *("quiz_intro", "quiz_check", "quiz_show", "quiz_right", "quiz_not_number", "quiz_score"),
)


def _grad_text(x: Any) -> str:
    """A grad as data-grad holds it: Python's repr of the float ("25.0", "nan", "-inf")."""
    return repr(float(x))


# In a <script>, the HTML parser ends the script at "</script" and starts a comment at "<!--" before
# JavaScript sees a string, and U+2028/U+2029 end lines in old JavaScript: written as \u escapes,
# these are the same JSON to JavaScript and no markup to HTML, whatever a label or a name contains.
_SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def script_json(data: Any) -> str:
    """`data` as JSON that is safe inside an HTML <script> element."""
    return json.dumps(data, ensure_ascii=False).translate(_SCRIPT_ESCAPES)


def page_with_data(name: str, data: Any) -> str:
    """The page `name` of micrograd/pages with `data` in place of its /*DATA*/null."""
    template = resources.files("micrograd").joinpath(f"pages/{name}").read_text(encoding="utf-8")
    return template.replace("/*DATA*/null", script_json(data))


def _layout(order: list[Value], root: Value, name: dict[Value, str], params: set[Value]) -> Any:
    """Boxes, op circles and edges with their places in the page: Graphviz's layout when `dot` is
    installed, else columns by depth (leaves left, the output right)."""
    index = {v: i for i, v in enumerate(order)}
    nodes: dict[str, dict[str, Any]] = {}
    edges: list[tuple[str, str]] = []
    depth: dict[str, int] = {}
    for i, v in enumerate(order):
        kind = _kind(v, root, params)
        nodes[f"v{i}"] = {"kind": kind, "name": name[v], "data": _fmt4(v.data), "value": i}
        depth[f"v{i}"] = 0
        if v._prev:
            nodes[f"v{i}op"] = {"kind": "op", "name": v._op}
            depth[f"v{i}op"] = 1 + max(depth[f"v{index[p]}"] for p in v._prev)
            depth[f"v{i}"] = depth[f"v{i}op"] + 1
            edges += [(f"v{index[p]}", f"v{i}op") for p in v._prev]
            edges.append((f"v{i}op", f"v{i}"))
    for node in nodes.values():  # sizes in pixels
        node["w"], node["h"] = (
            (2 * _OP_R, 2 * _OP_R)
            if node["kind"] == "op"
            else (56, 28)
            if node["kind"] == "const"
            else (_BOX_W, _BOX_H)
        )
    dot = shutil.which("dot") and len(nodes) <= DOT_LAYOUT_NODES
    paths = _dot_places(nodes, edges) if dot else None
    if paths is None:
        paths = _column_places(nodes, edges, depth)
    width = max(n["x"] + n["w"] / 2 for n in nodes.values()) + 20
    height = max(n["y"] + n["h"] / 2 for n in nodes.values()) + 20
    return {
        "nodes": [{"id": k, **n} for k, n in nodes.items()],
        "edges": paths,
        "size": [width, height],
    }


def _column_places(
    nodes: dict[str, dict[str, Any]], edges: list[tuple[str, str]], depth: dict[str, int]
) -> list[dict[str, Any]]:
    """Without Graphviz: a column per depth, nodes stacked in the order of topo_order."""
    rows: dict[int, int] = {}
    for key, node in nodes.items():
        column = depth[key]
        row = rows[column] = rows.get(column, -1) + 1
        node["x"] = 20 + _BOX_W / 2 + column * (_BOX_W / 2 + 50)
        node["y"] = 20 + _BOX_H / 2 + row * (_BOX_H + 24)
    return [{"from": a, "to": b, "d": _line(nodes[a], nodes[b])} for a, b in edges]


def _line(a: dict[str, Any], b: dict[str, Any]) -> str:
    """An SVG path from the right side of `a` to the left side of `b`, gently curved."""
    x1, y1, x2, y2 = a["x"] + a["w"] / 2, a["y"], b["x"] - b["w"] / 2, b["y"]
    mid = (x1 + x2) / 2
    return f"M{x1:.1f},{y1:.1f} C{mid:.1f},{y1:.1f} {mid:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"


def _dot_places(
    nodes: dict[str, dict[str, Any]], edges: list[tuple[str, str]]
) -> list[dict[str, Any]] | None:
    """Graphviz's places for the nodes and splines for the edges (`dot -Tplain`), in pixels;
    None when dot fails, so the page still comes out."""
    lines = ["digraph { rankdir=LR; nodesep=0.25; ranksep=0.5;"]
    for key, n in nodes.items():
        lines.append(
            f"{key} [shape=box, fixedsize=true, width={n['w'] / 72:.3f}, height={n['h'] / 72:.3f}];"
        )
    lines += [f"{a} -> {b};" for a, b in edges]
    lines.append("}")
    try:
        done = subprocess.run(
            ["dot", "-Tplain"],
            input="\n".join(lines),
            capture_output=True,
            text=True,
            timeout=5 + len(nodes) / 50,  # a second per 50 boxes, far more than dot needs
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    height = 0.0
    paths = []
    for line in done.stdout.splitlines():
        f = line.split()
        if f[0] == "graph":
            height = float(f[3]) * 72
        elif f[0] == "node":
            nodes[f[1]]["x"], nodes[f[1]]["y"] = (
                float(f[2]) * 72 + 20,
                height - float(f[3]) * 72 + 20,
            )
        elif f[0] == "edge":
            pts = [
                (float(f[4 + 2 * i]) * 72 + 20, height - float(f[5 + 2 * i]) * 72 + 20)
                for i in range(int(f[3]))
            ]
            d = f"M{pts[0][0]:.1f},{pts[0][1]:.1f} C" + " ".join(
                f"{x:.1f},{y:.1f}" for x, y in pts[1:]
            )
            paths.append({"from": f[1], "to": f[2], "d": d})
    return paths
