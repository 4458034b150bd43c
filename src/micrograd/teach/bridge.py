"""From scalars to tensors: which of a model's scalar operations became which array operation.

The numpy back end replays a traced graph as a few array operations (micrograd.replay.arrays): a
layer's neurons become one matrix product, the same op at the same depth one elementwise
operation. The bridge prints that plan, one line per array operation, in the notation of PyTorch
(a batch of B rows, features last): what it computes, its shape, and which scalar nodes of the
traced graph it stands for (how many, of which ops, from which neurons or heads).

    from micrograd.teach.bridge import of_classifier
    print(of_classifier(MLP(2, [4, 3, 1])))   # 93 scalar nodes -> 9 array operations

Every node of the traced graph is in exactly one place: a tensor of parameters, inputs or
constants, a line, or the nodes no output needs (`Bridge.place`). Pure Python, no numpy: the
site's page plans in the browser.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd.replay.trace import Tape, trace
from micrograd.teach.arrayops import Layout, Line, Tensor, op_of
from micrograd.text import language, text

CODE = 40  # the width of the listing's code column; longer code gets a line of its own
DRAWN = 400  # the most scalar nodes the notebook view draws
PALETTE = [  # a line's colour: twelve that a reader tells apart
    *("#fde68a", "#93c5fd", "#86efac", "#fca5a5", "#c4b5fd", "#fdba74"),
    *("#67e8f9", "#f0abfc", "#bef264", "#fda4af", "#a5b4fc", "#fcd34d"),
]


@dataclass
class Bridge:
    """A traced graph and its array operations: the leaf tensors, the lines, and the nodes that no
    output needs (traced but not computed)."""

    tape: Tape
    tensors: list[Tensor]
    lines: list[Line]
    unused: list[int]
    where: dict[int, tuple[str, tuple[int, ...]]]  # a leaf's or member's tensor or line, index
    theta: list[float]  # the parameters' numbers when traced, in the tape's parameter order

    def place(self) -> dict[int, str]:
        """Where each scalar node of the tape is: the name of its tensor or line, or "unused"."""
        where: dict[int, str] = {}
        holders: list[Tensor | Line] = [*self.tensors, *self.lines]
        for holder in holders:
            for i in holder.entries:
                assert i not in where, f"node %{i} in {where[i]} and in {holder.name}"
                where[i] = holder.name
        for i in self.unused:
            assert i not in where, f"node %{i} in {where[i]} and unused"
            where[i] = "unused"
        return where

    def text(self, lang: str | None = None) -> str:
        """The listing, in English or Chinese."""
        lang = language(lang)
        out = [self._head(lang), "", text("bridge.leaves", lang)]
        for t in self.tensors:
            shape = _shape(t.shape, batch=t.kind == "input")
            out.append(f"  {t.name:<8} {shape:<10} " + _said_leaf(t, lang))
        out += ["", text("bridge.ops", lang)]
        width = min(max([len(f"{line.name} = {line.code}") for line in self.lines] + [0]), CODE)
        for line in self.lines:
            code = f"{line.name} = {line.code}"
            if len(code) > width:  # a long gather: the code on a line of its own
                out.append(f"  {code}")
                code = ""
            said = f"{_shape((line.width,)):<10} {_said_line(line, lang)}"
            out.append(f"  {code:<{width}}  {said}")
        if self.unused:
            out += ["", text("bridge.unused", lang, count=len(self.unused))]
        return "\n".join(out)

    def _head(self, lang: str) -> str:
        matmuls = sum(line.matmul for line in self.lines)
        nodes, ops = len(self.tape.nodes), len(self.lines)
        return text("bridge.head", lang, nodes=nodes, ops=ops, matmuls=matmuls)

    def __str__(self) -> str:
        return self.text()

    def to_dot(self) -> str:
        """The traced graph in Graphviz DOT, each scalar node filled with the colour of the array
        operation it joined (a legend names them); a leaf is grey and names its tensor."""
        where = self.place()
        holders = [ln.name for ln in self.lines]  # the leaves stay grey, named on their node
        colour = {name: PALETTE[k % len(PALETTE)] for k, name in enumerate(holders)}
        colour.update({t.name: "#e5e7eb" for t in self.tensors}, unused="white")
        lines = ["digraph bridge {", "  rankdir=LR;", "  node [style=filled, fontsize=10];"]
        for i, node in enumerate(self.tape.nodes):
            label = op_of(node) if node.kind == "op" else f"{node.kind} {node.index}"
            if node.kind == "const":
                label = f"{node.value:g}"
            label = _dot_text(label) + "\\n" + _dot_text(where[i])  # DOT's line break
            lines.append(f'  n{i} [label="{label}", fillcolor="{colour[where[i]]}"];')
            lines += [f"  n{a} -> n{i};" for a in node.args]
        lines.append('  subgraph cluster_legend { label=""; node [shape=box];')
        for name in holders:
            if name in where.values():
                lines.append(
                    f'    "k_{_dot_text(name)}" [label="{_dot_text(name)}", '
                    f'fillcolor="{colour[name]}"];'
                )
        lines += ["  }", "}"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The listing as tables for notebooks (escaped), and the scalar graph coloured by the
        array operation each node joined, where Graphviz is installed and the graph is small."""
        lang = language()
        rows = "".join(
            f"<tr><td><code>{html.escape(f'{ln.name} = {ln.code}')}</code></td>"
            f"<td>{html.escape(_shape((ln.width,)))}</td>"
            f"<td>{html.escape(_said_line(ln, lang))}</td></tr>"
            for ln in self.lines
        )
        leaves = "".join(
            f"<tr><td><code>{html.escape(t.name)}</code></td>"
            f"<td>{html.escape(_shape(t.shape, batch=t.kind == 'input'))}</td>"
            f"<td>{html.escape(_said_leaf(t, lang))}</td></tr>"
            for t in self.tensors
        )
        head = html.escape(self._head(lang))
        drawing = ""
        if len(self.tape.nodes) <= DRAWN:
            from micrograd.teach.drawings import render_dot

            try:
                svg = render_dot(self.to_dot(), "svg", lang).decode()
                drawing = svg[svg.index("<svg") :]
            except OSError:  # no Graphviz: the tables alone
                pass
        return f"<p>{head}</p><table>{leaves}</table><table>{rows}</table>{drawing}"


def _dot_text(s: str) -> str:
    """Text inside a DOT string: its backslashes and quotes escaped."""
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _shape(shape: tuple[int, ...], batch: bool = True) -> str:
    """A shape as PyTorch prints one: (B, 4) for a batch, (4, 2), and (4,) for a vector."""
    parts = ["B", *map(str, shape)] if batch else list(map(str, shape))
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _said_leaf(t: Tensor, lang: str) -> str:
    key = {"param": "bridge.params", "input": "bridge.inputs", "const": "bridge.consts"}[t.kind]
    return text(key, lang, count=len(t.entries), about=t.about)


def _said_line(line: Line, lang: str) -> str:
    ops = ", ".join(f"{n} {op}" for op, n in line.ops.items())
    key = "bridge.line_units" if line.units else "bridge.line"
    return text(key, lang, count=len(line.entries), ops=ops, units=line.units)


# ---------------------------------------------------------------------------- the bridge
def bridge(
    fn: Callable[..., Any],
    params: Sequence[Any],
    inputs: Sequence[tuple[str, int]],
    names: Sequence[str] | None = None,
    example: Sequence[float] | None = None,
    unit: Callable[[str], str] | None = None,
) -> Bridge:
    """Trace `fn` (a function of Values, as micrograd.replay.compile takes it) and group its graph
    as the numpy replay does. `inputs` names the inputs in order with their counts, e.g.
    [("x", 2), ("t", 1)]; `names` are the parameters' names (a model's named_parameters());
    `unit(name)` says which neuron or head a parameter's row is (default: its name's prefix)."""
    n_inputs = sum(k for _, k in inputs)
    tape = trace(fn, params, n_inputs, example)
    return of_tape(tape, inputs, names, unit, [p.data for p in params])


def of_tape(
    tape: Tape,
    inputs: Sequence[tuple[str, int]],
    names: Sequence[str] | None = None,
    unit: Callable[[str], str] | None = None,
    theta: Sequence[float] = (),
) -> Bridge:
    """The bridge of a traced tape (see bridge); `theta`: its parameters' numbers."""
    layout = Layout(tape, inputs, names, unit)
    tensors, lines, unused = layout.build()
    return Bridge(tape, tensors, lines, unused, layout.where, list(theta))


# ---------------------------------------------------------------------------- the models
def loss_of(model: Any) -> Callable[..., Any]:
    """An MLP's training loss for one row (its inputs, then its targets), as
    micrograd.app.tasks.Classifier traces it: the hinge for one output, softmax cross-entropy
    over more (the target one-hot)."""
    from micrograd.app.tasks import Classifier
    from micrograd.losses import cross_entropy_one

    outputs = model.sizes[-1]
    if outputs == 2:  # a Classifier of two classes trains one output: this one has two

        def loss(*row: Any) -> Any:
            return cross_entropy_one(model(list(row[:-2])), list(row[-2:]))

        return loss
    return Classifier(model, 2 if outputs == 1 else outputs).sample_loss


def of_classifier(model: Any) -> Bridge:
    """The bridge of an MLP's training loss for one row (loss_of)."""
    names = [n for n, _ in model.named_parameters()]
    inputs = [("x", model.sizes[0]), ("y", model.sizes[-1])]
    return bridge(loss_of(model), model.parameters(), inputs, names)


def of_gpt(model: Any, length: int = 4) -> Bridge:
    """The bridge of the GPT's compiled training step over `length` positions
    (micrograd.app.tasks.CompiledStep): tokens as one-hot rows, each position's loss weighted."""
    from micrograd.app.tasks import CompiledStep

    step = CompiledStep(model, "python", lengths=(length,))
    length = step.length_of(length)
    vocab = model.vocab_size
    names = [n for n, _ in model.named_parameters()]
    head = model.n_embd // model.n_head

    def unit(name: str) -> str:
        found = re.fullmatch(r"layers\.(\d+)\.attn\.w([qkv])\.weight\.(\d+)", name)
        if found:
            return f"layers.{found[1]}.attn.head.{int(found[3]) // head}.{found[2]}"
        return name

    inputs = [(f"onehot{t}", vocab) for t in range(length + 1)] + [("weight", length)]
    example = step.row([vocab - 1] * 2, length)
    fn = step.function(length, "loss")
    return bridge(fn, step.params, inputs, names, example, unit)


# ---------------------------------------------------------------------------- rows to run
def classifier_rows(model: Any, count: int = 8) -> list[list[float]]:
    """A few rows for an MLP's loss, as Classifier.rows makes them: the two moons for 2 inputs
    and one output, the digits for 64 inputs and 10 outputs, else points drawn with seed 0."""
    from micrograd.app.tasks import Classifier
    from micrograd.data import digits, moons

    nin, outputs = model.sizes[0], model.sizes[-1]
    if (nin, outputs) == (2, 1):
        X, y = moons(count, seed=0)
    elif (nin, outputs) == (64, 10):
        X, y = digits()
        X, y = X[:count], y[:count]
    else:
        rng = random.Random(0)
        X = [[rng.uniform(-1, 1) for _ in range(nin)] for _ in range(count)]
        y = [k % max(outputs, 2) for k in range(count)]
    if outputs == 2:  # softmax over two: one-hot targets (a Classifier of two trains one output)
        return [[*x, float(c == 0), float(c == 1)] for x, c in zip(X, y)]
    return Classifier(model, 2 if outputs == 1 else outputs).rows(X, y)


def gpt_rows(
    model: Any, tokenizer: Any, length: int, documents: Sequence[str], count: int = 4
) -> list[list[float]]:
    """A few rows of the GPT's step over `length` positions: the first documents the tokenizer
    can write (the names), each cut to length + 1 tokens, as CompiledStep.row makes them."""
    from micrograd.app.tasks import CompiledStep

    step = CompiledStep(model, "python", lengths=(length,))
    rows = []
    for doc in documents:
        try:
            tokens = tokenizer.encode(doc)
        except ValueError:  # a character the tokenizer does not know
            continue
        rows.append(step.row(tokens[: length + 1], length))
        if len(rows) == count:
            break
    return rows
