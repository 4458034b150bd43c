"""See the graph and step through backward: Graphviz DOT, Mermaid, and a step-by-step trace.

to_dot(root)            DOT text (no dependency); render with Graphviz's `dot`
draw_dot(root)          a graphviz.Digraph, shown inline by Jupyter (needs the `graphviz` extra)
to_mermaid(root)        a Mermaid flowchart of the graph
backward_sequence(root) a Mermaid sequence diagram of one backward pass
explain(root)           runs backward step by step and says what each step adds, and why
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from micrograd.engine import OPS, FloatMath, Value, _backprop, _begin_backward, topo_order

MAX_NODES = 500  # beyond this a drawing is unreadable and Graphviz slow: ask for it explicitly


def _number(x: Any) -> str:
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
            result[v] = _number(v.data)
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
        d.boxes.append((f"v{i}", f"{label}data {_number(v.data)} | grad {_number(v.grad)}", kind))
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
        lines.append(f'    {ident}["{text.replace(chr(34), "#quot;")}"]:::{kind}')
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
            lines.append(f"   {s.node} = {s.formula}, grad {_number(s.grad)}: {s.node}._backward()")
            for c in s.contributions:
                how = (
                    f"{_number(c.local)} * {_number(c.upstream)}"
                    if c.local is not None
                    else "(custom _backward)"
                )
                why = (
                    f"   (+=: {c.input} is used more than once; contributions add up)"
                    if c.repeated
                    else ""
                )
                lines.append(
                    f"      {c.input}.grad += {how} = {_number(c.added)}  -> {_number(c.total)}{why}"
                )
        return "\n".join(lines)


def explain(root: Value, max_nodes: int | None = MAX_NODES) -> Explanation:
    """Run `root.backward()` one node at a time and record each step (also sets the grads)."""
    order = _nodes(root, max_nodes)
    name = names(order)
    finish = _begin_backward(order, root, create_graph=False)
    steps: list[Step] = []
    received: set[Value] = set()
    for node in reversed(order):
        if not node._prev:
            continue
        before = [p.grad for p in node._prev]
        user = node._user_backward is not None
        locals_ = (
            [None] * len(node._prev)
            if user
            else OPS[node._op].local(FloatMath, node.data, *[p.data for p in node._prev])
        )
        _backprop((node,), FloatMath)  # the engine's own chain rule does the work
        contributions = []
        running: dict[Value, float] = {}  # an input used twice by this node gets two additions
        for k, (p, d) in enumerate(zip(node._prev, locals_)):
            added = p.grad - before[k] if d is None else d * node.grad
            total = running.get(p, before[k]) + added
            running[p] = total
            contributions.append(Contribution(name[p], d, node.grad, added, total, p in received))
            received.add(p)
        step_formula = formula(node, [name[p] for p in node._prev])
        steps.append(Step(name[node], step_formula, node.grad, contributions))
    finish()
    return Explanation([name[v] for v in order], name[root], steps)


def backward_sequence(root: Value, max_nodes: int | None = 60) -> str:
    """A Mermaid sequence diagram of one backward pass (runs it): the seed, each _backward call
    and each `+=` it makes, in the order backward() makes them."""
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
        lines.append(f"    {me}->>{me}: {s.node}._backward()  (grad {_number(s.grad)})")
        for c in s.contributions:
            how = f"{_number(c.local)} * {_number(c.upstream)} = " if c.local is not None else ""
            lines.append(f"    {me}->>{ids[c.input]}: {c.input}.grad += {how}{_number(c.added)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- expressions for the CLI
FUNCTIONS = ("relu", "tanh", "sigmoid", "exp", "log")
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}


class ExpressionError(ValueError):
    """An expression uses something outside the small allowed language."""


def parse_expression(text: str, values: dict[str, float]) -> Value:
    """Evaluate `text` on Values without eval(): names from `values`, numbers, + - * / **,
    parentheses and the functions relu, tanh, sigmoid, exp, log. Anything else is refused."""
    if len(text) > 2000:
        raise ExpressionError("expression longer than 2000 characters")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, RecursionError, MemoryError) as e:
        raise ExpressionError(f"not a valid expression: {getattr(e, 'msg', e)}") from None
    leaves = {n: Value(x, label=n) for n, x in values.items()}

    def ev(node: ast.AST) -> Value:
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = ev(node.left), ev(node.right)
            op = type(node.op)
            return (
                a + b
                if op is ast.Add
                else a - b
                if op is ast.Sub
                else a * b
                if op is ast.Mult
                else a / b
                if op is ast.Div
                else a**b
            )
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return Value(float(node.value))  # type: ignore[arg-type]
        if isinstance(node, ast.Name):
            if node.id not in leaves:
                raise ExpressionError(
                    f"unknown name {node.id!r}: give it a value with --set {node.id}=1.0"
                )
            return leaves[node.id]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FUNCTIONS
            and len(node.args) == 1
            and not node.keywords
        ):
            return getattr(ev(node.args[0]), node.func.id)()  # type: ignore[no-any-return,unused-ignore]
        if isinstance(node, ast.Call):
            raise ExpressionError(
                f"only these functions can be called, with one argument: {', '.join(FUNCTIONS)}"
            )
        raise ExpressionError(
            f"{type(node).__name__} is not allowed in an expression: {ast.unparse(node)!r}"
        )

    try:
        out = ev(tree.body)
    except RecursionError:
        raise ExpressionError("expression nested too deeply") from None
    except (ArithmeticError, TypeError, ValueError) as e:
        raise ExpressionError(f"cannot evaluate: {e}") from None
    if not out.label:
        out.label = "out"
    return out


def _assignments(items: list[str]) -> dict[str, float]:
    values = {}
    for item in items:
        name, eq, number = item.partition("=")
        name = name.strip()
        if not eq or not name.isidentifier():
            raise ExpressionError(f"--set expects NAME=NUMBER, got {item!r}")
        try:
            values[name] = float(number)
        except ValueError:
            raise ExpressionError(f"--set {name}: {number!r} is not a number") from None
    return values


def _graph_command(args: argparse.Namespace) -> int:
    from micrograd.cli import UsageError

    try:
        out = parse_expression(args.expr, _assignments(args.set))
    except ExpressionError as e:
        raise UsageError(str(e)) from None
    out.backward()
    fmt = args.format or (os.path.splitext(args.output)[1].lstrip(".") if args.output else "dot")
    if fmt not in ("svg", "png", "dot", "mermaid"):
        raise UsageError(f"unknown format {fmt!r}: use svg, png, dot or mermaid")
    text = (
        to_mermaid(out, max_nodes=args.max_nodes)
        if fmt == "mermaid"
        else to_dot(out, max_nodes=args.max_nodes)
    )
    data = text.encode()
    if fmt in ("svg", "png"):
        dot = shutil.which("dot")
        if dot is None:
            raise OSError(
                f"--format {fmt} needs Graphviz's 'dot' program, which is not installed: "
                "apt-get install graphviz (Debian/Ubuntu), brew install graphviz (macOS), "
                "or https://graphviz.org/download/; --format dot and --format mermaid need nothing"
            )
        data = subprocess.run([dot, f"-T{fmt}"], input=data, capture_output=True, check=True).stdout
        if fmt == "png" and not args.output:
            raise UsageError("--format png writes binary data: give a file with -o FILE")
    if args.output:
        from micrograd.io import atomic_write

        atomic_write(args.output, data)
    else:
        sys.stdout.write(data.decode())
    return 0


def _explain_command(args: argparse.Namespace) -> int:
    from micrograd.cli import UsageError

    try:
        out = parse_expression(args.expr, _assignments(args.set))
    except ExpressionError as e:
        raise UsageError(str(e)) from None
    print(f"{out.label} = {args.expr} = {_number(out.data)}")
    print(explain(out, max_nodes=args.max_nodes))
    return 0


def add_cli_commands(sub: Any) -> None:
    """Add `graph` and `explain` to the `micrograd` command."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "expr",
        help="e.g. 'relu(a*b + c)': names, numbers, + - * / **, ( ), " + ", ".join(FUNCTIONS),
    )
    common.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=NUMBER",
        help="a value for a name (repeat)",
    )
    common.add_argument(
        "--max-nodes",
        type=int,
        default=MAX_NODES,
        help="refuse graphs larger than this (default: %(default)s)",
    )
    g = sub.add_parser(
        "graph",
        parents=[common],
        help="draw the graph of an expression after backward",
        description="Draw the graph of an expression, with each Value's data and grad.",
    )
    g.add_argument(
        "--format",
        choices=["svg", "png", "dot", "mermaid"],
        help="default: from -o's extension, else dot",
    )
    g.add_argument("-o", "--output", help="write to this file (default: standard output)")
    g.set_defaults(run=_graph_command)
    e = sub.add_parser(
        "explain",
        parents=[common],
        help="print the steps of backward for an expression",
        description="Run backward on an expression and print every step of the chain rule.",
    )
    e.set_defaults(run=_explain_command)
