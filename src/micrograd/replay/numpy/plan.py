"""The numpy back end's groups made from a tape's array operations (replay.arrays): for each, its
rows, its operands' rows and how grads are scattered back into them."""

from __future__ import annotations

from typing import Any

import numpy as np

from micrograd.losses import FUSED, PADS
from micrograd.replay.arrays import Dots, Linear, reader, shared_bias
from micrograd.replay.numpy.groups import (
    BatchedLinearGroup,
    Block,
    DotGroup,
    FusedGroup,
    Group,
    Index,
    LinearGroup,
    PaddedFusedGroup,
    RuleGroup,
    Scatter,
    SumGroup,
    rows_index,
)
from micrograd.replay.trace import Tape


def run_starts(sizes: Any) -> Any:
    """Where each of the runs of `sizes` rows begins, the runs side by side (for reduceat)."""
    return np.r_[0, np.cumsum(sizes)[:-1]].astype(np.intp)


def make_group(
    tape: Tape,
    op: str,
    key: Any,
    members: list[int],
    terms: dict[int, list[int]],
    linear: Linear,
    dots: Dots,
    row: dict[int, int],
    n_input_rows: int,
) -> Group:
    """The replay plan of one bucket: its rows, its operands' rows, and how to scatter grads."""
    out = rows_index([row[i] for i in members])
    assert isinstance(out, slice)  # rows are numbered bucket by bucket
    if op == "dot":
        parts = [dots.parts[i] for i in members]
        args = [
            rows_index([row[x] for _, xs, _ in parts for x in xs]),  # the a's
            rows_index([row[x] for _, _, xs in parts for x in xs]),  # the b's
        ]
        if key:  # each begins with a start term
            args.insert(0, rows_index([row[start] for start, _, _ in parts]))  # type: ignore[index]
        sizes = np.array([len(a) for _, a, _ in parts], dtype=np.intp)
        at = None if (sizes == sizes[0]).all() else run_starts(sizes)
        return DotGroup(out, args, [Scatter.plan(a) for a in args], sizes, at)
    if op == "sum":
        k = len(terms[members[0]])
        if k <= 8 and all(len(terms[i]) == k for i in members):  # add term by term, in place
            args = [rows_index([row[terms[i][j]] for i in members]) for j in range(k)]
            return SumGroup(out, args, [Scatter.plan(a) for a in args])
        rows = np.array([row[t] for i in members for t in terms[i]], dtype=np.intp)
        sizes = np.array([len(terms[i]) for i in members], dtype=np.intp)
        return SumGroup(out, [rows], [Scatter.plan(rows)], run_starts(sizes), sizes)
    if op in ("linear", "linears"):  # "linears": the layer over T inputs, segment by segment
        segments = key[1] if op == "linears" else 1
        n = len(members) // segments
        biases = [linear.parts[i][0] for i in members]
        xs = rows_index([row[x] for i in members[::n] for x in linear.parts[i][2]])
        param = [[tape.nodes[w].index for w in linear.parts[i][1]] for i in members[:n]]
        weights = Block.plan(param, tape.n_params)
        bias = None
        if all(tape.nodes[b].kind == "param" for b in biases):  # read from the parameters
            index = [tape.nodes[b].index for b in biases]
            bias = Block.plan(
                index[:n]
                if shared_bias(biases, n)
                else [index[t : t + n] for t in range(0, len(index), n)],
                tape.n_params,
            )
            bias_rows: Index = np.zeros(0, dtype=np.intp)
        else:
            bias_rows = rows_index([row[b] for b in biases])
        reads_inputs = isinstance(xs, slice) and xs.stop <= n_input_rows
        scatters = [Scatter.plan(bias_rows), Scatter.plan(xs)]
        if op == "linears":
            return BatchedLinearGroup(
                out, [bias_rows, xs], scatters, weights, bias, reads_inputs, segments
            )
        return LinearGroup(out, [bias_rows, xs], scatters, weights, bias, reads_inputs)
    reads = reader(tape)
    ins = [reads(i) for i in members]
    if op.startswith("fused ") and len({len(i) for i in ins}) > 1:  # a padded block
        name = op.removeprefix("fused ")
        K = max(len(i) for i in ins)
        # entry (k, node) of the block reads the node's k-th input; past its end, a pad
        where = [(k, n) for n, i in enumerate(ins) for k in range(len(i))]
        flat = [k * len(ins) + n for k, n in where]
        read = np.zeros(K * len(ins), dtype=np.intp)  # a pad reads row 0, then is overwritten
        read[flat] = [row[ins[n][k]] for k, n in where]
        pads = np.setdiff1d(np.arange(K * len(ins)), flat)
        rows = rows_index([row[ins[n][k]] for k, n in where])
        real = np.array(flat, dtype=np.intp)
        return PaddedFusedGroup(
            out,
            [rows],
            [Scatter.plan(rows)],
            FUSED[name],
            read,
            (K, len(ins)),
            PADS[name],
            pads,
            real,
            real % len(ins),
        )
    if op.startswith("fused "):  # one block of inputs: runs of consecutive rows are views
        rows = np.array([[row[i[k]] for i in ins] for k in range(len(ins[0]))], np.intp)
        cut = [0, *(k for k in range(1, len(rows)) if (rows[k] != rows[k - 1] + 1).any())]
        runs = list(zip(cut, [*cut[1:], len(rows)]))
        args = [rows_index(rows[a:b].ravel()) for a, b in runs]
        rule = FUSED[op.removeprefix("fused ")]
        read = rows_index(rows.ravel())
        return FusedGroup(out, args, [Scatter.plan(a) for a in args], rule, read, rows.shape, runs)
    args = [rows_index([row[i[k]] for i in ins]) for k in range(len(ins[0]))]
    return RuleGroup(out, args, [Scatter.plan(a) for a in args], tape.nodes[members[0]])
