"""Which scalar nodes of a tape become which array operation: the grouping the numpy back end runs
(replay.numpy) and the bridge view prints (micrograd.teach.bridge). Pure Python, no numpy, so that
the browser site plans too.

Chains of "+" fold into one n-ary sum (replay.trace.fold_sums); sums of the shape a neuron makes
(bias + w1*x1 + ..., every w a parameter) become, layer by layer, one matrix product; other sums
of products (c + a1*b1 + ..., attention's q.k and its weighted sum of values) are dot products,
one group of a depth whatever their lengths; every other node joins the nodes of its depth and
op in one group. A value that a loss marked as fused
(micrograd.losses.fuse) is one node over the fused op's inputs, and what it is made of is not
replayed; those of one depth are one group even where their inputs differ in number, if the op
can be padded (micrograd.losses.PADS: attention's softmax over each position's past).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd.losses import PADS
from micrograd.replay.trace import Tape, count_uses, fold_sums, needs_grad


def reader(tape: Tape) -> Callable[[int], Sequence[int]]:
    """What a node reads in this replay: its args, or for a node that a loss marked as a fused op,
    the inputs of the whole fused computation."""

    def reads(i: int) -> Sequence[int]:
        node = tape.nodes[i]
        return node.fused[1] if node.fused else node.args

    return reads


def replayed(tape: Tape) -> list[int]:
    """The nodes the outputs need, reading through fused ops, in the tape's order."""
    reads = reader(tape)
    needed = [False] * len(tape.nodes)
    for o in tape.outputs:
        needed[o] = True
    for i in reversed(range(len(tape.nodes))):
        if needed[i]:
            for a in reads(i):
                needed[a] = True
    return [i for i in range(len(tape.nodes)) if needed[i]]


def weighted(tape: Tape, m: int) -> tuple[int, int] | None:
    """(weight, input) of a product w * x or x * w whose w is a parameter, else None."""
    if not is_op(tape, m, "*"):
        return None
    a, b = tape.nodes[m].args
    if tape.nodes[a].kind == "param":
        return a, b
    return (b, a) if tape.nodes[b].kind == "param" else None


def fold(tape: Tape, nodes: list[int]) -> tuple[list[int], dict[int, list[int]]]:
    """Chains of "+" folded into sums (replay.trace.fold_sums), with a layer kept apart from
    what is added after it: (b + w1*x1 + ... + wk*xk) + r, as microgpt adds the residual stream
    to a layer's output, is the sum [layer, r], and the layer's own sum stays a node, which
    find_linear makes a matrix product. Returns the nodes that keep a place, in tape order, and
    each sum's terms."""
    nodes, terms = fold_sums(tape, nodes, reader(tape))
    layers: dict[int, list[int]] = {}
    for i, t in terms.items():
        last = max((j for j in range(1, len(t)) if weighted(tape, t[j])), default=0)
        if not 0 < last < len(t) - 1 or not all(weighted(tape, m) for m in t[1 : last + 1]):
            continue
        head = i  # down the left spine to the partial sum of t[0..last]
        for _ in range(len(t) - 1 - last):
            head = tape.nodes[head].args[0]
        layers[head] = t[: last + 1]
        terms[i] = [head, *t[last + 1 :]]
    terms.update(layers)
    kept = set(nodes) | set(layers)
    return sorted(kept), terms


@dataclass
class Linear:
    """Sums that are layers: bias + w_1*x_1 + ... + w_k*x_k, every w a parameter."""

    parts: dict[int, tuple[int, list[int], list[int]]]  # sum -> (bias, ws, xs)
    absorbed: set[int]  # the "*" nodes that the matrix product computes
    param_biases: set[int]  # biases that are parameters: read from the parameter vector


def find_linear(
    tape: Tape, nodes: list[int], terms: dict[int, list[int]], uses: Sequence[int]
) -> Linear:
    """Find the sums of the shape a neuron makes, so that a layer of them runs as one matrix
    product (out = bias + W @ x) instead of a gather, a multiply and a sum per product. `uses`:
    how many times each node is read once sums are folded (a product read once is the sum's)."""
    outputs = set(tape.outputs)
    found = Linear({}, set(), set())
    for i in nodes:
        if i not in terms:
            continue
        bias, *products = terms[i]
        pairs = [weighted(tape, m) for m in products]
        if products and all(
            pair and m not in outputs and uses[m] == 1 for m, pair in zip(products, pairs)
        ):
            found.parts[i] = (
                bias,
                [pair[0] for pair in pairs],  # type: ignore[index]
                [pair[1] for pair in pairs],  # type: ignore[index]
            )
            found.absorbed.update(products)
            if tape.nodes[bias].kind == "param":
                found.param_biases.add(bias)
    return found


@dataclass
class Dots:
    """Sums of products that are not layers: start + a_1*b_1 + ... + a_k*b_k (start None where
    the sum begins with a product)."""

    parts: dict[int, tuple[int | None, list[int], list[int]]]  # sum -> (start, as, bs)
    absorbed: set[int]  # the "*" nodes that the dot products compute


def find_dots(
    tape: Tape,
    nodes: list[int],
    terms: dict[int, list[int]],
    uses: Sequence[int],
    linear: Linear,
) -> Dots:
    """Find the sums of products that no other node reads (q.k over a head's dimensions, the
    softmax weights times the values), so that each runs as one dot product of two rows of
    numbers instead of a group of products and a group of sums. A sum of one product and a start
    term is one too: attention at the first position weighs one value, and as a dot product it
    stays at the depth of the later positions' (whose layers are then one matrix product).
    `uses` as find_linear's."""
    outputs = set(tape.outputs)

    def product(m: int) -> bool:
        return is_op(tape, m, "*") and m not in outputs and uses[m] == 1

    found = Dots({}, set())
    for i in nodes:
        if i not in terms or i in linear.parts:
            continue
        start: int | None = terms[i][0]
        products = terms[i][1:]
        if start is not None and product(start):
            start, products = None, terms[i]
        if products and all(product(m) for m in products):
            pairs = [tape.nodes[m].args for m in products]
            found.parts[i] = (start, [a for a, _ in pairs], [b for _, b in pairs])
            found.absorbed.update(products)
    return found


def is_op(tape: Tape, i: int, op: str) -> bool:
    node = tape.nodes[i]
    return node.kind == "op" and node.op == op and node.fused is None


def operands(
    tape: Tape, i: int, terms: dict[int, list[int]], linear: Linear, dots: Dots
) -> Sequence[int]:
    """What a node reads once sums are folded and layers and dot products found (a layer's
    weights are read from the parameters, not from rows)."""
    if i in linear.parts:
        bias, _, xs = linear.parts[i]
        return xs if bias in linear.param_biases else [bias, *xs]
    if i in dots.parts:
        start, a, b = dots.parts[i]
        return [*([] if start is None else [start]), *a, *b]
    return terms.get(i, reader(tape)(i))


def still_used(
    tape: Tape, nodes: list[int], terms: dict[int, list[int]], linear: Linear, dots: Dots
) -> list[int]:
    """The nodes that need a row: the outputs and whatever a remaining node reads."""
    kept = [i for i in nodes if i not in linear.absorbed and i not in dots.absorbed]
    read = set(tape.outputs) | {a for i in kept for a in operands(tape, i, terms, linear, dots)}
    return [i for i in kept if i in read]


def group_buckets(
    tape: Tape,
    nodes: list[int],
    terms: dict[int, list[int]],
    linear: Linear,
    dots: Dots,
    backward: Sequence[bool],
) -> list[tuple[str, Any, list[int]]]:
    """The nodes that compute, grouped by depth and op, in depth order: every group's inputs are
    computed by earlier groups. Neurons of one layer (the same inputs) form one "linear" group,
    and one layer over several inputs at one depth one "linears" group (merge_layers); the
    dot products of a depth one "dot" group whatever their lengths (those with a start term
    apart from those without).
    Nodes that backward reaches (`backward`) never share a group with nodes it does not: those
    only compute an output that is not differentiated."""
    depth: dict[int, int] = {}
    buckets: dict[tuple[int, str, Any, bool], list[int]] = {}
    for i in nodes:
        inputs = operands(tape, i, terms, linear, dots)
        node = tape.nodes[i]
        key: Any = ()
        if i in linear.parts:
            bias, _, xs = linear.parts[i]  # the same inputs, and biases of the same kind
            op, key = "linear", (bias in linear.param_biases, *xs)
        elif i in dots.parts:
            op, key = "dot", dots.parts[i][0] is not None
        elif node.fused is not None:  # a paddable op joins its depth's whatever their lengths
            op, key = "fused " + node.fused[0], None if node.fused[0] in PADS else len(inputs)
        else:  # x ** k: one group per exponent, whose rule gets it
            op, key = ("sum", None) if i in terms else (node.op, node.k)
        if not inputs:
            depth[i] = 0
            continue
        depth[i] = d = 1 + max(depth[a] for a in inputs)
        buckets.setdefault((d, op, key, backward[i]), []).append(i)
    for (_, op, _, _), members in buckets.items():
        if op == "linear":  # a layer's rows in the parameters' order (q, then k, then v)
            members.sort(key=lambda i: tape.nodes[linear.parts[i][1][0]].index)
    return [
        (op, key, members)
        for (_, op, key, _), members in sorted(
            merge_layers(buckets, linear).items(), key=lambda kv: kv[0][0]
        )
    ]


def shared_bias(biases: Sequence[int], n: int) -> bool:
    """Whether a layer of n rows over several inputs adds the same n biases to every input, a
    vector, rather than a row of its own to each (a (T, n) block: each position's embedding
    row). `biases` holds each member's, input after input."""
    return list(biases) == list(biases[:n]) * (len(biases) // n)


def merge_layers(
    buckets: dict[tuple[int, str, Any, bool], list[int]], linear: Linear
) -> dict[tuple[int, str, Any, bool], list[int]]:
    """One layer applied at the same depth to several inputs (each position of a sequence) is one
    "linears" group of T segments, a batched matrix product, where each input made a "linear"
    group of its own. A layer is its rows, each neuron's weights; its biases may differ from one
    segment to the next (a position's own embedding row, or a computed bias). Each segment's
    rows are put in the first segment's order."""

    def row(i: int) -> tuple[int, ...]:
        return tuple(linear.parts[i][1])

    layers: dict[tuple[Any, ...], list[tuple[int, str, Any, bool]]] = {}
    for key, members in buckets.items():
        d, op, inputs, differentiated = key
        if op == "linear":
            rows = frozenset(row(i) for i in members)
            if len(rows) == len(members):  # each row once
                layers.setdefault((d, inputs[0], differentiated, rows), []).append(key)
    merged = dict(buckets)
    for (d, param_bias, differentiated, _), keys in layers.items():
        if len(keys) < 2:
            continue
        order = {row(i): k for k, i in enumerate(buckets[keys[0]])}
        members = []
        for key in keys:
            members += sorted(buckets[key], key=lambda i: order[row(i)])
            del merged[key]
        # (the first segment's inputs keep two layers of one depth and size apart)
        merged[d, "linears", (param_bias, len(keys), keys[0][2]), differentiated] = members
    return merged


@dataclass
class ArrayPlan:
    """A tape grouped into array operations: the nodes that keep a place (in tape order), the
    terms of each folded sum, the layers found, and the buckets in an order where each reads only
    earlier ones. `backward[i]`: whether the chain rule reaches entry i (to a parameter or input).
    `folded`: the nodes that folding the sums kept (fold), before layers and dot products absorbed
    their products."""

    nodes: list[int]
    terms: dict[int, list[int]]
    linear: Linear
    dots: Dots
    buckets: list[tuple[str, Any, list[int]]]
    backward: list[bool]
    folded: list[int]


def plan(tape: Tape) -> ArrayPlan:
    """The array operations of `tape`: sums folded, layers and dot products found, the rest
    grouped by depth and op."""
    folded, terms = fold(tape, replayed(tape))
    reads = reader(tape)
    uses = count_uses(tape, folded, lambda i: terms.get(i, reads(i)))
    linear = find_linear(tape, folded, terms, uses)
    dots = find_dots(tape, folded, terms, uses, linear)
    nodes = still_used(tape, folded, terms, linear, dots)
    backward = needs_grad(tape, ("param", "input"))
    buckets = group_buckets(tape, nodes, terms, linear, dots, backward)
    return ArrayPlan(nodes, terms, linear, dots, buckets, backward, folded)
