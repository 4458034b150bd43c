"""A traced tape laid out as tensors and array operations: each scalar node placed in exactly one
tensor (of parameters, inputs or constants) or one array operation of the numpy replay's plan
(micrograd.replay.arrays), and each operation written in tensor notation, batch first. The bridge
view (micrograd.teach.bridge) prints what this lays out. Pure Python, no numpy.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from micrograd.replay import arrays
from micrograd.replay.trace import Node, Tape, is_sum

SHOWN = 4  # columns of a gather shown before "..."
# the op's name in tensor notation: an infix operator, or a function of torch (and numpy)
INFIX = {"+": "+", "*": "*", "/": "/", "**": "**", "**k": "**"}
FUNCTION = {"ReLU": "relu"}


# What a line computes, operands given as lists of tape entries, one per member:
#   ("linear", (xs, W, rows, b, bias)): x @ W.T + b for each x of xs (one input, or the T inputs
#       of a layer over a sequence, side by side); W a tensor's name, or None where the layer's
#       parameters `rows` (n lists of k) are gathered from the tensors that hold them; b a bias
#       tensor's name, or None where `bias`, an operand, is added
#   ("sum", (operands,)), ("segments", (terms, sizes)): each member the sum of its `sizes` terms
#   ("dot", (starts, a, b, sizes)): each member start + the dot product of its `sizes` next
#       entries of a and of b (starts None where the members begin with a product)
#   ("fused", (name, inputs, sizes)): a loss's fused op over each member's `sizes` inputs, member
#       by member (sizes differ only where the op can be padded: losses.PADS)
#   ("rule", (op, operands, k)): an op of engine.OPS (k: the exponent of x ** k)
Form = tuple[str, tuple[Any, ...]]


@dataclass
class Tensor:
    """A leaf tensor: parameters, inputs or constants, and the scalar nodes it holds."""

    name: str
    kind: str  # "param", "input" or "const"
    shape: tuple[int, ...]  # per row of the batch for inputs, whole for parameters
    entries: list[int]
    about: str = ""  # the parameters' names, or the inputs' positions


@dataclass
class Line:
    """One array operation: the tensor it makes, in tensor notation, and its scalar nodes."""

    name: str
    code: str
    width: int  # it makes a (B, width) tensor
    entries: list[int]  # every scalar node it stands for
    ops: Counter[str] = field(default_factory=Counter)
    units: str = ""  # the neurons or heads its nodes come from
    matmul: bool = False
    form: Form = ("", ())  # what it computes, its operands as lists of nodes (one per member)


def flat_place(at: Sequence[int], shape: Sequence[int]) -> int:
    """Where the entry at index `at` of a tensor of `shape` sits when its numbers are counted row
    by row (numpy's ravel order)."""
    flat = 0
    for k, n in zip(at, shape):
        flat = flat * n + k
    return flat


def _listed(numbers: list[int]) -> str:
    """Indices as a list, the first few of a long one: [0, 4, 8, 12, ...]."""
    return "[" + ", ".join(map(str, numbers[:SHOWN])) + (", ...]" if len(numbers) > SHOWN else "]")


def _segments(op: str, key: Any) -> int:
    """How many inputs a layer's group applies it to: T for "linears", else 1."""
    return int(key[1]) if op == "linears" else 1


def op_of(node: Node) -> str:
    """A node's op as the listing counts it: a fused op by its name, a constant as "const"."""
    return node.fused[0] if node.fused else node.op or node.kind


# ---------------------------------------------------------------------------- names of parameters
def _collapse(names: Sequence[str]) -> str:
    """Dotted names as one, each part that varies as a range: layers.0.neurons.0-3.w.0-1. Names
    whose words differ are grouped by their words first (wq, wk, wv), in the order they come."""
    groups: dict[tuple[str, ...], list[list[str]]] = {}
    for name in names:
        parts = name.split(".")
        words = tuple("#" if p.isdigit() else p for p in parts)
        groups.setdefault(words, []).append(parts)
    said = []
    for words, members in groups.items():
        parts = []
        for k, word in enumerate(words):
            if word != "#":
                parts.append(word)
                continue
            numbers = sorted({int(m[k]) for m in members})
            a, b = numbers[0], numbers[-1]
            if a == b:
                parts.append(str(a))
            elif numbers == list(range(a, b + 1)):
                parts.append(f"{a}-{b}")
            else:
                parts.append("{" + ",".join(map(str, numbers)) + "}")
        said.append(".".join(parts))
    return ", ".join(said)


def _summed_by_runs(values: str, sizes: list[int], product: bool = False) -> str:
    """The code that sums `values` (B rows of sum(sizes) columns) in runs of `sizes` columns, one
    column a run: a reshape where every run is as long, else segment_sum. `product`: `values` is
    a product, parenthesized before a method is called on it."""
    low, high = min(sizes), max(sizes)
    if low == high:  # each sum is of the next `low` columns
        held = f"({values})" if product else values
        return f"{held}.reshape(B, {len(sizes)}, {low}).sum(2)"
    return f"segment_sum({values}, {low}-{high} columns each)"


def _unit(names: Sequence[str]) -> str:
    """The neuron or row that parameters with these names belong to: their common dotted prefix,
    up to its last number (layers.0.neurons.2 for layers.0.neurons.2.w.0 and .w.1)."""
    split = [n.split(".") for n in names]
    common = []
    for parts in zip(*split):
        if any(p != parts[0] for p in parts):
            break
        common.append(parts[0])
    while common and not common[-1].isdigit():
        common.pop()
    return ".".join(common)


class Layout:
    """Each node of a tape placed in a tensor or a line, and each line's code: `inputs` names the
    inputs in order with their counts, `names` the parameters, `unit(name)` says which neuron or
    head a parameter's row is."""

    def __init__(
        self,
        tape: Tape,
        inputs: Sequence[tuple[str, int]],
        names: Sequence[str] | None,
        unit: Callable[[str], str] | None,
    ) -> None:
        self.tape = tape
        self.names = list(names) if names is not None else [f"p{i}" for i in range(tape.n_params)]
        self.unit_of_row = unit or (lambda name: name)
        self.plan = arrays.plan(tape)
        self.replayed = set(arrays.replayed(tape))  # the nodes some output needs
        self.kept = set(self.plan.folded)  # not folded into a sum
        self.inputs = inputs
        self.where: dict[int, tuple[str, tuple[int, ...]]] = {}  # node -> (tensor, its index)
        self.tensors: list[Tensor] = []
        self.lines: list[Line] = []
        self.units: dict[int, str] = {}  # node -> the neuron or head it comes from
        self.weights: dict[tuple[int, ...], str] = {}  # a layer's parameters -> their tensor
        self.placed: set[int] = set()

    def build(self) -> tuple[list[Tensor], list[Line], list[int]]:
        """The tensors, the lines in order, and the nodes no output needs; then `where` holds each
        leaf's and member's tensor or line and its index there."""
        self._inputs()
        for op, key, members in self.plan.buckets:  # the layers' matrices first, in order
            if op in ("linear", "linears"):
                self._layer_tensors(members, len(members) // _segments(op, key))
        self._leftover_params()
        self._constants()
        for op, key, members in self.plan.buckets:
            self._line(op, members, _segments(op, key))
        unused = [i for i in range(len(self.tape.nodes)) if i not in self.placed]
        return self.tensors, self.lines, unused

    # ---- leaves
    def _add_tensor(self, t: Tensor) -> None:
        self.tensors.append(t)
        self.placed.update(t.entries)

    def _inputs(self) -> None:
        by_index = {n.index: i for i, n in enumerate(self.tape.nodes) if n.kind == "input"}
        start = 0
        for name, count in self.inputs:
            entries = [by_index[k] for k in range(start, start + count) if k in by_index]
            for i in entries:  # its column: its place among the row's inputs (some may be unread)
                self.where[i] = (name, (self.tape.nodes[i].index - start,))
            about = f"{start}-{start + count - 1}" if count > 1 else str(start)
            self._add_tensor(Tensor(name, "input", (count,), entries, about))
            start += count

    def _param_tensor(self, entries: list[list[int]], prefix: str, matrix: bool) -> str | None:
        """The tensor of a layer's parameters (rows of entries; a matrix, else a vector of one
        entry a row): made for it where none of them is in a tensor yet and none repeats, found
        again where a layer read it in the same order; None where the layer reads its
        parameters from other tensors (gathered)."""
        flat = [i for row in entries for i in row]
        shape = (len(entries), len(entries[0])) if matrix else (len(entries),)
        name = self.weights.get(tuple(flat))
        if name is not None:
            return name if next(t.shape for t in self.tensors if t.name == name) == shape else None
        if len(set(flat)) < len(flat) or any(i in self.placed for i in flat):
            return None
        name = f"{prefix}{sum(t.name.startswith(prefix) for t in self.tensors) + 1}"
        for r, row in enumerate(entries):
            for c, i in enumerate(row):
                self.where[i] = (name, (r, c) if matrix else (r,))
        about = _collapse([self.names[self.tape.nodes[i].index] for i in flat])
        self._add_tensor(Tensor(name, "param", shape, flat, about))
        self.weights[tuple(flat)] = name
        return name

    def _layer_tensors(self, members: list[int], n: int) -> tuple[str | None, str | None]:
        """A layer's weight matrix and bias, each a tensor's name, or None where the layer
        gathers them from other tensors (or computes its biases). `members` are the layer's n
        rows applied to each of its inputs; the bias is a vector, or a (T, n) matrix where each
        input has its own."""
        parts = [self.plan.linear.parts[i] for i in members]
        W = self._param_tensor([ws for _, ws, _ in parts[:n]], "W", matrix=True)
        biases = [bias for bias, _, _ in parts]
        if all(self.tape.nodes[bias].kind == "param" for bias in biases):
            if arrays.shared_bias(biases, n):
                return W, self._param_tensor([[bias] for bias in biases[:n]], "b", matrix=False)
            rows = [biases[t : t + n] for t in range(0, len(biases), n)]  # (T, n): one each
            return W, self._param_tensor(rows, "b", matrix=True)
        return W, None

    def _leftover_params(self) -> None:
        """Parameters that no layer reads as a matrix (an embedding table read element by
        element): one tensor per name, less its last numbers, which are its indices."""
        groups: dict[str, list[tuple[int, list[int]]]] = {}
        for i, n in enumerate(self.tape.nodes):
            if n.kind == "param" and i not in self.placed:
                parts = self.names[n.index].split(".")
                k = len(parts)
                while k and parts[k - 1].isdigit():
                    k -= 1
                stem = ".".join(parts[:k]) or "p"
                groups.setdefault(stem, []).append((i, [int(p) for p in parts[k:]]))
        for stem, found in groups.items():
            dims = {len(at) for _, at in found}
            if len(dims) != 1 or not dims.pop():  # no indices, or not the same number of them
                found = [(i, [k]) for k, (i, _) in enumerate(found)]
            shape = tuple(max(at[d] for _, at in found) + 1 for d in range(len(found[0][1])))
            for i, at in found:
                self.where[i] = (stem, tuple(at))
                if len(at) == 2:  # a matrix read element by element: its row is the unit
                    self.units[i] = self.unit_of_row(f"{stem}.{at[0]}")
            entries = [i for i, _ in found]
            about = _collapse([self.names[self.tape.nodes[i].index] for i in entries])
            self._add_tensor(Tensor(stem, "param", shape, entries, about))

    def _constants(self) -> None:
        entries = [
            i for i, n in enumerate(self.tape.nodes) if n.kind == "const" and i not in self.placed
        ]
        used = [i for i in entries if i in self.replayed]
        if used:
            numbers = sorted({self.tape.nodes[i].value for i in used})
            about = ", ".join(f"{v:g}" for v in numbers[:SHOWN]) + (
                ", ..." if len(numbers) > SHOWN else ""
            )
            self._add_tensor(Tensor("const", "const", (len(used),), used, about))

    # ---- lines
    def _line(self, op: str, members: list[int], segments: int) -> None:
        tape, plan = self.tape, self.plan
        entries = list(members)
        matmul = False
        if op in ("linear", "linears"):
            n = len(members) // segments  # the layer's rows, applied to `segments` inputs
            W, b = self._layer_tensors(members, n)
            w_rows = [plan.linear.parts[i][1] for i in members]
            for i in members:
                entries += self._spine(i) + plan.terms[i][1:]
            bias = [plan.linear.parts[i][0] for i in members]
            xs = [plan.linear.parts[i][2] for i in members[::n]]
            form: Form = ("linear", (xs, W, w_rows[:n], b, bias))
            shown = W or self._gathered([w for ws in w_rows[:n] for w in ws])
            x = self._operand(xs[0])
            if segments > 1:  # the inputs side by side: (B, segments, k)
                x = f"stack([{x}, {self._operand(xs[1])}{', ...' if segments > 2 else ''}], 1)"
            code = f"{x} @ {shown}.T + {b or self._operand(bias)}"
            matmul = True
            name = "z"
            units = [
                self.unit_of_row(_unit([self.names[tape.nodes[w].index] for w in ws]))
                for ws in w_rows
            ]
        else:
            if op == "sum":
                for i in members:
                    entries += self._spine(i)
                k = len(plan.terms[members[0]])
                if all(len(plan.terms[i]) == k for i in members) and k <= 8:
                    args = [[plan.terms[i][j] for i in members] for j in range(k)]
                    form = ("sum", (args,))
                    code = " + ".join(self._operand(a) for a in args)
                else:
                    flat = [t for i in members for t in plan.terms[i]]
                    sizes = [len(plan.terms[i]) for i in members]
                    form = ("segments", (flat, sizes))
                    code = _summed_by_runs(self._operand(flat), sizes)
                name = "s"
            elif op == "dot":
                parts = [plan.dots.parts[i] for i in members]
                for i, (start, _, _) in zip(members, parts):  # the sum, and its products
                    entries += self._spine(i) + plan.terms[i][0 if start is None else 1 :]
                starts = [start for start, _, _ in parts if start is not None] or None
                left = [x for _, xs, _ in parts for x in xs]
                right = [x for _, _, xs in parts for x in xs]
                sizes = [len(xs) for _, xs, _ in parts]
                form = ("dot", (starts, left, right, sizes))
                products = f"{self._operand(left)} * {self._operand(right)}"
                one_each = max(sizes) == 1
                code = products if one_each else _summed_by_runs(products, sizes, product=True)
                begin = self._operand(starts) if starts else "0"
                code = code if begin == "0" else f"{begin} + {code}"
                name = "s"
            elif op.startswith("fused "):
                fused = op.removeprefix("fused ")
                for i in members:
                    entries += self._inside_fused(i)
                ins = [tape.nodes[i].fused[1] for i in members]  # type: ignore[index]
                flat = [a for row in ins for a in row]
                sizes = [len(row) for row in ins]
                form = ("fused", (fused, flat, sizes))
                code = f"{fused}({self._operand(flat)})"
                if min(sizes) < max(sizes):  # padded where a member has fewer
                    code = f"{fused}({self._operand(flat)}, {min(sizes)}-{max(sizes)} columns each)"
                name = "loss" if fused == "cross_entropy" else "f"
            else:
                node = tape.nodes[members[0]]
                args = [[tape.nodes[i].args[k] for i in members] for k in range(len(node.args))]
                form = ("rule", (op, args, node.k))
                said = [self._operand(a) for a in args]
                if op in INFIX:
                    power = f" ** {node.k:g}" if op == "**k" and node.k is not None else ""
                    code = f" {INFIX[op]} ".join(said) + power
                else:
                    code = f"{FUNCTION.get(op, op)}({', '.join(said)})"
                name = {"ReLU": "h", "tanh": "h", "sigmoid": "h"}.get(op, "t")
            units = [self._unit_read(i) for i in members]
        name = self._fresh(name)
        for col, i in enumerate(members):
            self.where[i] = (name, (col,))
            if units[col]:
                self.units[i] = units[col]
        ops = Counter(op_of(tape.nodes[i]) for i in entries)
        of = _collapse([u for u in units if u])
        self.lines.append(Line(name, code, len(members), entries, ops, of, matmul, form))
        self.placed.update(entries)

    def _fresh(self, prefix: str) -> str:
        """The next free name of `prefix`: z1, z2, ... (loss, then loss2)."""
        taken = {t.name for t in self.tensors} | {ln.name for ln in self.lines}
        k = 1
        while (name := prefix if prefix == "loss" and k == 1 else f"{prefix}{k}") in taken:
            k += 1
        return name

    def _unit_read(self, i: int) -> str:
        """The neuron or head that all a node reads comes from (a relu of neuron 2 is neuron 2's;
        q . k of head 1 is head 1's), or "" where what it reads has none in common."""
        node, plan = self.tape.nodes[i], self.plan
        reads: Sequence[int] = node.fused[1] if node.fused else plan.terms.get(i, node.args)
        if i in plan.dots.parts:  # what its products multiply
            reads = arrays.operands(self.tape, i, plan.terms, plan.linear, plan.dots)
        units = {self.units[a] for a in reads if a in self.units}
        return _unit(sorted(units)) if units else ""

    def _spine(self, i: int) -> list[int]:
        """The "+" nodes folded into the sum that heads at i (not i itself)."""
        spine, head = [], self.tape.nodes[i].args[0]
        while is_sum(self.tape.nodes[head]) and head not in self.kept:
            spine.append(head)
            head = self.tape.nodes[head].args[0]
        return spine

    def _inside_fused(self, i: int) -> list[int]:
        """What a fused op is made of (between its inputs and itself), which is not replayed."""
        inputs = set(self.tape.nodes[i].fused[1])  # type: ignore[index]
        seen, stack = set(), list(self.tape.nodes[i].args)
        while stack:
            j = stack.pop()
            if j in seen or j in inputs or j in self.replayed:
                continue
            seen.add(j)
            stack.extend(self.tape.nodes[j].args)
        return sorted(j for j in seen if j not in self.placed)

    # ---- operands
    def _gathered(self, flat: list[int]) -> str:
        """A matrix of parameters read from the tensors that hold them: W1[...], cat(W1, p)[...]."""
        names = list(dict.fromkeys(self.where[i][0] for i in flat))
        return f"{names[0]}[...]" if len(names) == 1 else f"cat({', '.join(names)})[...]"

    def _operand(self, entries: Sequence[int]) -> str:
        """How a line reads one operand, a node per member: a tensor, some of its columns, a
        number, or several tensors side by side."""
        nodes = self.tape.nodes
        if all(nodes[i].kind == "const" for i in entries):
            values = {nodes[i].value for i in entries}
            if len(values) == 1:
                return f"{values.pop():g}"
            return f"const[{len(entries)}]"
        parts: list[tuple[str, list[tuple[int, ...]]]] = []
        for i in entries:
            at: tuple[int, ...] = ()
            if nodes[i].kind == "const":
                name = f"{nodes[i].value:g}"
            else:
                name, at = self.where[i]
            if parts and parts[-1][0] == name:
                parts[-1][1].append(at)
            else:
                parts.append((name, [at]))
        said = [self._columns(name, at) for name, at in parts]
        if len(said) == 1:
            return said[0]
        return "cat(" + ", ".join(said[:SHOWN]) + (", ...)" if len(said) > SHOWN else ")")

    def _columns(self, name: str, at: list[tuple[int, ...]]) -> str:
        if not at or not at[0]:
            return name
        shape = next((t.shape for t in self.tensors if t.name == name and t.kind == "param"), None)
        if shape is not None:  # parameters: their places in the tensor, row by row
            flat = [flat_place(a, shape) for a in at]
            if flat == list(range(math.prod(shape))):
                return name
            if flat == list(range(flat[0], flat[0] + len(flat))):
                return f"{name}.flat[{flat[0]}:{flat[0] + len(flat)}]"
            return f"{name}.flat[{_listed(flat)}]"
        width = self._width(name)
        cols = [a[0] for a in at]
        if cols == list(range(width)):
            return name
        if len(set(cols)) == 1:
            return f"{name}[:, {cols[0]}:{cols[0] + 1}]" if width > 1 else name
        if cols == list(range(cols[0], cols[-1] + 1)):
            return f"{name}[:, {cols[0]}:{cols[-1] + 1}]"
        return f"{name}[:, {_listed(cols)}]"

    def _width(self, name: str) -> int:
        for t in self.tensors:
            if t.name == name:
                return t.shape[-1] if t.kind != "param" else len(t.entries)
        for line in self.lines:
            if line.name == name:
                return line.width
        return 0
