"""The compilation passes of the fast path: from a traced graph to the groups the replay runs.

Chains of "+" fold into one n-ary sum; sums of the shape a neuron makes (bias + w1*x1 + ...,
every w a parameter) become, layer by layer, one matrix product; every other node joins the
nodes of its depth and op in one group. A value a loss marked as fused (micrograd.losses.fuse)
is one node over the fused op's inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from micrograd.engine import Value
from micrograd.fast.groups import (
    Block,
    FusedGroup,
    Group,
    Index,
    LinearGroup,
    RuleGroup,
    Scatter,
    SumGroup,
    rows_index,
)
from micrograd.losses import FUSED, fused


def _parents(v: Value) -> Sequence[Value]:
    """What a node reads in the replay: its inputs, or for a node that a loss marked as a fused
    op (micrograd.losses.fuse), the inputs of the whole fused computation."""
    mark = fused(v)
    return mark[1] if mark else v._prev


def _is_sum(v: Value) -> bool:
    return v._op == "+" and fused(v) is None


def replay_order(root: Value) -> list[Value]:
    """topo_order through _parents: the inside of a fused op is not part of the replay."""
    order: list[Value] = []
    seen = {id(root)}
    stack = [(root, iter(_parents(root)))]
    while stack:
        node, pending = stack[-1]
        for p in pending:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append((p, iter(_parents(p))))
                break
        else:
            stack.pop()
            order.append(node)
    return order


def _count_uses(
    nodes: list[Value], inputs_of: Callable[[Value], Sequence[Value]]
) -> dict[int, int]:
    """How many times each node is read by `nodes` (an input read twice counts twice)."""
    uses: dict[int, int] = {}
    for v in nodes:
        for i in inputs_of(v):
            uses[id(i)] = uses.get(id(i), 0) + 1
    return uses


def fold_sums(order: list[Value], root: Value) -> tuple[list[Value], dict[int, list[Value]]]:
    """Fold chains of "+" (like b + w0*x0 + w1*x1 + ...) into one n-ary sum per chain.

    A "+" node used by only one other "+" node is absorbed into it. Returns the nodes that keep a
    row, and for each folded sum its terms in the original order of addition.
    """
    uses = _count_uses(order, _parents)
    absorbed = {
        id(i)
        for v in order
        if _is_sum(v)
        for i in v._prev[:1]
        if _is_sum(i) and uses[id(i)] == 1 and i is not root
    }
    terms: dict[int, list[Value]] = {}
    for v in order:
        if _is_sum(v) and id(v) not in absorbed:
            flat: list[Value] = []
            stack = [v]
            while stack:  # walk down the left spine of absorbed "+" nodes, last term first
                node = stack.pop()
                if node is v or id(node) in absorbed:
                    left, right = node._prev
                    flat.append(right)
                    stack.append(left)
                else:
                    flat.append(node)
            terms[id(v)] = flat[::-1]
    return [v for v in order if id(v) not in absorbed], terms


@dataclass
class _Linear:
    """Sums that are layers: bias + w_1*x_1 + ... + w_k*x_k, every w a parameter."""

    parts: dict[int, tuple[Value, list[Value], list[Value]]]  # sum -> (bias, ws, xs)
    absorbed: set[int]  # the "*" nodes that the matrix product computes
    param_biases: set[int]  # biases that are parameters: read from the parameter vector


def find_linear(
    nodes: list[Value], terms: dict[int, list[Value]], param_ids: dict[int, int], root: Value
) -> _Linear:
    """Find the sums of the shape a neuron makes, so that a layer of them runs as one matrix
    product (out = bias + W @ x) instead of a gather, a multiply and a sum per product."""
    uses = _count_uses(nodes, lambda v: terms.get(id(v), _parents(v)))
    found = _Linear({}, set(), set())
    for v in nodes:
        if id(v) not in terms:
            continue
        bias, *products = terms[id(v)]
        if products and all(
            m._op == "*" and m is not root and uses[id(m)] == 1 and id(m._prev[0]) in param_ids
            for m in products
        ):
            found.parts[id(v)] = (
                bias,
                [m._prev[0] for m in products],
                [m._prev[1] for m in products],
            )
            found.absorbed.update(id(m) for m in products)
            if id(bias) in param_ids:
                found.param_biases.add(id(bias))
    return found


def reads(v: Value, terms: dict[int, list[Value]], linear: _Linear) -> Sequence[Value]:
    """What a node reads once sums are folded and layers found (a layer's weights are read from
    the parameters, not from rows)."""
    if id(v) in linear.parts:
        bias, _, xs = linear.parts[id(v)]
        return xs if id(bias) in linear.param_biases else [bias, *xs]
    return terms.get(id(v), _parents(v))


def still_used(
    nodes: list[Value], terms: dict[int, list[Value]], linear: _Linear, root: Value
) -> list[Value]:
    """The nodes that need a row: the root and whatever a remaining node reads."""
    kept = [v for v in nodes if id(v) not in linear.absorbed]
    read = {id(root)} | {id(i) for v in kept for i in reads(v, terms, linear)}
    return [v for v in kept if id(v) in read]


def group_buckets(
    nodes: list[Value], terms: dict[int, list[Value]], linear: _Linear
) -> list[tuple[str, Any, list[Value]]]:
    """The nodes that compute, grouped by depth and op, in depth order: every group's inputs are
    computed by earlier groups. Neurons of one layer (the same inputs) form one "linear" group."""
    depth: dict[int, int] = {}
    buckets: dict[tuple[int, str, Any], list[Value]] = {}
    for v in nodes:
        inputs = reads(v, terms, linear)
        key: Any = ()
        if id(v) in linear.parts:
            bias, _, xs = linear.parts[id(v)]  # the same inputs, and biases of the same kind
            op, key = "linear", (id(bias) in linear.param_biases, *(id(x) for x in xs))
        elif fused(v) is not None:
            op, key = "fused " + fused(v)[0], len(inputs)  # type: ignore[index]
        else:
            op = "sum" if id(v) in terms else v._op
        if not inputs:
            depth[id(v)] = 0
            continue
        depth[id(v)] = d = 1 + max(depth[id(i)] for i in inputs)
        buckets.setdefault((d, op, key), []).append(v)
    return [
        (op, key, members)
        for (_, op, key), members in sorted(buckets.items(), key=lambda kv: kv[0][0])
    ]


def make_group(
    op: str,
    members: list[Value],
    terms: dict[int, list[Value]],
    linear: _Linear,
    row: dict[int, int],
    param_ids: dict[int, int],
    n_input_rows: int,
) -> Group:
    """The replay plan of one bucket: its rows, its operands' rows, and how to scatter grads."""
    out = rows_index([row[id(v)] for v in members])
    assert isinstance(out, slice)  # rows are numbered bucket by bucket
    if op == "sum":
        k = len(terms[id(members[0])])
        if k <= 8 and all(len(terms[id(v)]) == k for v in members):  # add term by term, in place
            args = [rows_index([row[id(terms[id(v)][j])] for v in members]) for j in range(k)]
            return SumGroup(out, args, [Scatter.plan(a) for a in args])
        rows = np.array([row[id(t)] for v in members for t in terms[id(v)]], dtype=np.intp)
        sizes = np.array([len(terms[id(v)]) for v in members], dtype=np.intp)
        starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.intp)
        return SumGroup(out, [rows], [Scatter.plan(rows)], starts, sizes)
    if op == "linear":
        biases = [linear.parts[id(v)][0] for v in members]
        xs = rows_index([row[id(x)] for x in linear.parts[id(members[0])][2]])
        n = len(param_ids)
        weights = Block.plan(
            [[param_ids[id(w)] for w in linear.parts[id(v)][1]] for v in members], n
        )
        bias = None
        if all(id(b) in param_ids for b in biases):  # read from the parameters, not from rows
            bias = Block.plan([param_ids[id(b)] for b in biases], n)
            bias_rows: Index = np.zeros(0, dtype=np.intp)
        else:
            bias_rows = rows_index([row[id(b)] for b in biases])
        reads_inputs = isinstance(xs, slice) and xs.stop <= n_input_rows
        scatters = [Scatter.plan(bias_rows), Scatter.plan(xs)]
        return LinearGroup(out, [bias_rows, xs], scatters, weights, bias, reads_inputs)
    ins = [_parents(v) for v in members]
    if op.startswith("fused "):  # one block of inputs: runs of consecutive rows are views
        rows = np.array([[row[id(i[k])] for i in ins] for k in range(len(ins[0]))], np.intp)
        cut = [0, *(k for k in range(1, len(rows)) if (rows[k] != rows[k - 1] + 1).any())]
        runs = list(zip(cut, [*cut[1:], len(rows)]))
        args = [rows_index(rows[a:b].ravel()) for a, b in runs]
        rule = FUSED[op.removeprefix("fused ")]
        read = rows_index(rows.ravel())
        return FusedGroup(out, args, [Scatter.plan(a) for a in args], rule, read, rows.shape, runs)
    args = [rows_index([row[id(i[k])] for i in ins]) for k in range(len(ins[0]))]
    return RuleGroup(out, args, [Scatter.plan(a) for a in args], members[0])
