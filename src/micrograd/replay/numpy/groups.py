"""The numpy back end's operations: a group of same-depth nodes computed by one numpy operation,
each kind with its own forward rule, backward rule and the grad rows it writes (replay.numpy.run
runs them; replay.numpy.plan makes them). Also how a block of contributions is added into rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from micrograd.maths import NumpyMath
from micrograd.replay.trace import Node, apply

NUMPY = NumpyMath(np)  # the rules' elementary functions on arrays
Index = Any  # rows of the (rows, B) arrays: a slice where they are a range, else an index array


def rows_index(rows: Any) -> Index:
    """`rows` (ints) as a slice when they are consecutive and ascending (reads and writes are
    then views, not copies), else as an index array."""
    a = np.asarray(rows, dtype=np.intp)
    if len(a) and a[-1] - a[0] == len(a) - 1 and (len(a) == 1 or (np.diff(a) == 1).all()):
        return slice(int(a[0]), int(a[-1]) + 1)
    return a


def times_dead_relu(upstream: Any, local: Any) -> Any:
    """upstream * local, where relu's slope (a boolean array) is False gives 0 even for an inf or
    nan upstream: the eager engine's rule for a dead unit (Value.backward)."""
    product = upstream * local
    if getattr(getattr(local, "dtype", None), "kind", "") == "b":
        return np.where(~local & ~np.isfinite(upstream), 0.0, product)
    return product


@dataclass
class Scatter:
    """How to add a (k, B) block of contributions into the rows `rows` of the grad array: in place
    for a range, by fancy index for distinct rows, summed first (sorted + reduceat) for repeated
    rows, which fancy-index `+=` would drop."""

    rows: Index
    order: Any = None
    unique_rows: Any = None
    starts: Any = None

    @classmethod
    def plan(cls, rows: Index) -> Scatter:
        """The scatter into `rows`."""
        if isinstance(rows, slice) or len(np.unique(rows)) == len(rows):
            return cls(rows)
        order = np.argsort(rows, kind="stable")
        sorted_rows = rows[order]
        starts = np.flatnonzero(np.r_[True, sorted_rows[1:] != sorted_rows[:-1]])
        return cls(rows, order, sorted_rows[starts], starts)

    def writes_range(self, first: bool) -> bool:
        """Whether this scatter, writing `first`, assigns a range of rows: a product can then be
        computed straight into them."""
        return first and self.order is None and isinstance(self.rows, slice)

    def add(self, grads: Any, contrib: Any, first: bool) -> None:
        """grads[rows] += contrib, or = where backward writes these rows `first` (the plan of
        NumpyProgram._plan: the grads array is not zeroed beforehand)."""
        rows = self.rows if self.order is None else self.unique_rows
        if self.order is not None:
            contrib = np.add.reduceat(contrib[self.order], self.starts, axis=0)
        if first:
            grads[rows] = contrib
        else:
            grads[rows] += contrib


@dataclass
class Block:
    """Where a layer's weights (or biases) sit in the parameter vector: W[j, i] is parameter
    `base + j * stride + i` (a strided view, no copy) when they are laid out that regularly, as an
    MLP's are (each neuron's weights, then its bias), or `base + i * stride + j` when they are
    so laid out by columns (`transposed`: an embedding table read as a layer, wte's column j
    giving output j); else `index` says for each one."""

    index: Any  # parameter index of each entry, shape (nodes, inputs) or (nodes,)
    base: int = -1  # -1: not regular, gather with `index`
    stride: int = 0
    transposed: bool = False

    @classmethod
    def plan(cls, index: Any, n_params: int) -> Block:
        """The block of the parameters at `index`."""
        index = np.asarray(index, dtype=np.intp)
        rows = index.reshape(len(index), -1)
        for transposed, layout in ((False, rows), (True, rows.T)):
            n, k = layout.shape
            base = int(layout[0, 0])
            stride = int(layout[1, 0] - base) if n > 1 else k
            regular = base + stride * np.arange(n)[:, None] + np.arange(k)
            if stride >= k and base + n * stride <= n_params and np.array_equal(layout, regular):
                return cls(index, base, stride, transposed)
            if index.ndim == 1:  # a vector has no columns
                break
        return cls(index)

    def view(self, vector: Any) -> Any:
        """The block of `vector` (the parameters or their grads): a view where regular."""
        if self.base < 0:
            return vector[self.index]
        shape = self.index.T.shape if self.transposed else self.index.shape
        n, stop = shape[0], self.base + shape[0] * self.stride
        if self.index.ndim == 1:
            return vector[self.base : stop : self.stride]
        block = vector[self.base : stop].reshape(n, self.stride)[:, : shape[1]]
        return block.T if self.transposed else block

    def add(self, vector: Any, x: Any) -> None:
        """vector[block] += x."""
        if self.base < 0:
            vector += np.bincount(self.index.ravel(), x.ravel(), len(vector)).astype(vector.dtype)
        else:
            view = self.view(vector)
            view += x


@dataclass
class Group:
    """Nodes at the same depth with the same op: one numpy operation computes all of them. `out`
    is their rows (consecutive: rows are numbered group by group), `args` the rows of each operand
    position, `scatters` how each operand's grads are added."""

    out: slice
    args: list[Index]
    scatters: list[Scatter]

    def blocks(self, params: Any, grads: Any) -> tuple[Any, ...]:
        """What the group reads from the parameter vector (a layer's W and bias) and where it adds
        their gradients in `grads`, as views, made once per vector."""
        return None, None, None, None

    def gathers(self) -> bool:
        """Whether a block of the parameters is read by gathering (an irregular layout): a copy,
        which must be read again when the parameters change in place."""
        return False

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        """Compute the nodes' values into `out`; return what backward needs (local derivatives)."""
        raise NotImplementedError

    def backward(self, run: Backward, upstream: Any, local: Any, blocks: tuple[Any, ...]) -> None:
        """Add each operand's share of `upstream` (the nodes' grads) into the grads."""
        for scatter, d in zip(self.scatters, local):
            first = run.first.get(id(scatter))
            if first is None:  # these rows lead to no parameter (nor to an input asked for)
                continue
            if run.times is np.multiply and scatter.writes_range(first):
                np.multiply(upstream, d, out=run.grads[scatter.rows])  # no temporary to copy
            else:
                run.add(scatter, run.times(upstream, d))

    def writes(self, input_grads: bool) -> list[Scatter]:
        """The scatters backward uses."""
        return self.scatters


@dataclass
class Backward:
    """One backward pass over the groups: the grads array, the parameters' grads, which scatters
    and parameter blocks write first (True), add (False) or are not needed (absent: their rows
    lead to no parameter), whether input grads are wanted, how upstream meets a local derivative,
    the values, and a vector of B ones (a bias's gradient is upstream @ ones)."""

    grads: Any
    param_grads: Any
    first: dict[int, bool]
    input_grads: bool
    times: Callable[[Any, Any], Any]
    values: Any
    ones: Any

    def add(self, scatter: Scatter, contrib: Any) -> None:
        """Add `contrib` into the scatter's rows (or write it, where it writes first)."""
        scatter.add(self.grads, contrib, self.first[id(scatter)])

    def add_product(self, block: Block, view: Any, a: Any, b: Any) -> None:
        """Add a @ b into the parameters' gradient at `block`: straight into `view` where the
        block writes first, gathered where its layout has no view (view None)."""
        if view is None:
            block.add(self.param_grads, a @ b)
        elif self.first[id(block)]:
            np.matmul(a, b, out=view)
        else:
            view += a @ b

    def add_block(self, block: Block, view: Any, x: Any) -> None:
        """Add x into the parameters' gradient at `block` (written where it writes first)."""
        if view is None:
            block.add(self.param_grads, x)
        elif self.first[id(block)]:
            view[...] = x
        else:
            view += x


@dataclass
class RuleGroup(Group):
    """Nodes of one op of micrograd.engine.OPS: its rule, run on arrays."""

    rep: Node | None = None  # one of the nodes: its rule (and exponent, for x**k) is the group's

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        assert self.rep is not None
        out[...], local = apply(self.rep, NUMPY, [values[a] for a in self.args])
        return local


@dataclass
class SumGroup(Group):
    """Folded chains of "+": each node a sum of its terms. With few terms, the same number per
    node, args[j] is the j-th term of each; else args[0] holds all terms and `starts`/`sizes` say
    where each node's begin and how many it has."""

    starts: Any = None
    sizes: Any = None

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        if self.starts is None:  # terms in the order they were added
            np.copyto(out, values[self.args[0]])
            for a in self.args[1:]:
                out += values[a]
        else:  # many terms, or a different number per node
            np.add.reduceat(values[self.args[0]], self.starts, axis=0, out=out)
        return None

    def backward(self, run: Backward, upstream: Any, local: Any, blocks: tuple[Any, ...]) -> None:
        # d(sum)/d(term) = 1: each term gets the upstream grad
        if self.starts is None:
            for scatter in self.scatters:
                if id(scatter) in run.first:
                    run.add(scatter, upstream)
        elif id(self.scatters[0]) in run.first:
            run.add(self.scatters[0], np.repeat(upstream, self.sizes, axis=0))

    def writes(self, input_grads: bool) -> list[Scatter]:
        return self.scatters if self.starts is None else self.scatters[:1]


@dataclass
class LinearGroup(Group):
    """A layer's sums of products, bias + W @ x, as one matrix product. args = [bias rows, x rows];
    the weights (and the bias, when every one is a parameter) are read from the parameters."""

    weights: Block | None = None
    bias: Block | None = None  # None: the bias is args[0]
    reads_inputs: bool = False  # x is the function's inputs (their grads: on request)

    def blocks(self, params: Any, grads: Any) -> tuple[Any, ...]:
        assert self.weights is not None
        bias = self.bias.view(params)[..., None] if self.bias else None  # (n, 1) or (T, n, 1)
        # views of the grads to add into (None where the layout is irregular: Block.add gathers)
        dW = self.weights.view(grads) if self.weights.base >= 0 else None
        dbias = self.bias.view(grads) if self.bias and self.bias.base >= 0 else None
        return self.weights.view(params), bias, dW, dbias

    def gathers(self) -> bool:
        assert self.weights is not None
        return self.weights.base < 0 or (self.bias is not None and self.bias.base < 0)

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        W, bias, _, _ = blocks
        np.matmul(W, values[self.args[1]], out=out)
        out += values[self.args[0]] if bias is None else bias
        return None

    def backward(self, run: Backward, upstream: Any, local: Any, blocks: tuple[Any, ...]) -> None:
        # out = bias + W @ x: d/dbias = 1 (summed over the batch: upstream @ ones), d/dx = W^T,
        # d/dW = x^T. Where a block or rows are written first, the product goes straight there.
        assert self.weights is not None
        W, _, dW, dbias = blocks
        if self.bias is None:
            if id(self.scatters[0]) in run.first:
                run.add(self.scatters[0], upstream)
        else:
            run.add_product(self.bias, dbias, upstream, run.ones)
        dx = self.scatters[1]
        first = run.first.get(id(dx))
        if first is not None and dx.writes_range(first):
            np.matmul(W.T, upstream, out=run.grads[dx.rows])
        elif first is not None:
            run.add(dx, W.T @ upstream)
        run.add_product(self.weights, dW, upstream, run.values[self.args[1]].T)

    def writes(self, input_grads: bool) -> list[Scatter]:
        used = [self.scatters[0]] if self.bias is None else []
        return used + ([self.scatters[1]] if input_grads or not self.reads_inputs else [])


@dataclass
class FusedGroup(Group):
    """Nodes that a loss computed as one fused op (micrograd.losses.FUSED): its rule on the block of
    their inputs, shape (inputs, nodes, B), gives the outputs (nodes, B) and the block of local
    derivatives. `read` is the block's rows, input by input; args and scatters are its runs of
    consecutive rows, `runs` where each begins and ends among the inputs."""

    rule: Callable[[Any, Any], tuple[Any, Any]] | None = None
    read: Index = None
    shape: tuple[int, int] = (0, 0)  # (inputs, nodes)
    runs: list[tuple[int, int]] = field(default_factory=list)

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        assert self.rule is not None
        out[...], local = self.rule(np, values[self.read].reshape(*self.shape, -1))
        return local

    def backward(self, run: Backward, upstream: Any, local: Any, blocks: tuple[Any, ...]) -> None:
        for scatter, (a, b) in zip(self.scatters, self.runs):
            first = run.first.get(id(scatter))
            if first is None:  # these inputs lead to no parameter (nor to an input asked for)
                continue
            d = local[a:b]
            if run.times is np.multiply and scatter.writes_range(first):
                np.multiply(upstream, d, out=run.grads[scatter.rows].reshape(d.shape))
            else:
                run.add(scatter, run.times(upstream, d).reshape(-1, upstream.shape[-1]))


@dataclass
class PaddedFusedGroup(Group):
    """Fused nodes whose inputs differ in number (each position's softmax over its past): one
    block (inputs, nodes, B) padded with `pad` where a node has fewer inputs, a number that
    changes neither the output nor the real inputs' derivatives (micrograd.losses.PADS). `read`
    is the block's rows (a pad reads any row, then is overwritten), `real` the flat places of the
    real entries, in the order of args[0]'s rows, `owners` the node each belongs to, and `pads`
    the other places."""

    rule: Callable[[Any, Any], tuple[Any, Any]] | None = None
    read: Any = None
    shape: tuple[int, int] = (0, 0)  # (most inputs, nodes)
    pad: float = 0.0
    pads: Any = None
    real: Any = None
    owners: Any = None

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        assert self.rule is not None
        block = values[self.read]
        block[self.pads] = self.pad
        out[...], local = self.rule(np, block.reshape(*self.shape, -1))
        return local

    def backward(self, run: Backward, upstream: Any, local: Any, blocks: tuple[Any, ...]) -> None:
        # each real input gets upstream times its local derivative; a pad's is 0 and goes nowhere
        if id(self.scatters[0]) in run.first:
            d = local.reshape(-1, upstream.shape[-1])[self.real]
            run.add(self.scatters[0], run.times(upstream[self.owners], d))


@dataclass
class DotGroup(Group):
    """Dot products, start + a_1*b_1 + ... + a_k*b_k: the products of every node side by side,
    each node's summed in the order of its terms (by a reshape where all have k products, else
    by runs: attention's weights times the values over each position's past), then its start
    added. args = [the starts' rows (where there are), the a's rows, the b's rows], node by
    node; `sizes` each node's k, `at` where its run begins."""

    sizes: Any = None
    at: Any = None

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        a, b = values[self.args[-2]], values[self.args[-1]]  # (products, B)
        products = a * b
        if self.at is None:  # k each
            products.reshape(len(out), -1, out.shape[1]).sum(axis=1, out=out)
        else:
            np.add.reduceat(products, self.at, axis=0, out=out)
        if len(self.args) == 3:
            out += values[self.args[0]]
        return a, b

    def backward(self, run: Backward, upstream: Any, local: Any, blocks: tuple[Any, ...]) -> None:
        # d/da_j = b_j and d/db_j = a_j, times the node's upstream; the start gets the upstream
        if len(self.args) == 3 and id(self.scatters[0]) in run.first:
            run.add(self.scatters[0], upstream)
        n, B = upstream.shape
        if self.at is None:  # each node's upstream beside its k products
            g = upstream[:, None, :]
        else:  # each product's node's upstream
            g = np.repeat(upstream, self.sizes, axis=0)
        for scatter, other in zip(self.scatters[-2:], local[::-1]):
            if id(scatter) in run.first:
                shaped = other if self.at is not None else other.reshape(n, -1, B)
                run.add(scatter, (g * shaped).reshape(-1, B))


@dataclass
class BatchedLinearGroup(LinearGroup):
    """One layer over T inputs (the positions of a sequence): bias_t + W @ x_t for each t, one
    batched matrix product. args = [bias rows, the T inputs' rows, one input after another];
    the out rows are T segments of the layer's rows, in the order of W's rows. A bias read from
    the parameters is one vector for all t, or a (T, n) block: one row for each t."""

    segments: int = 1

    def forward(self, values: Any, out: Any, blocks: tuple[Any, ...]) -> Any:
        W, bias, _, _ = blocks
        T, B = self.segments, values.shape[1]
        x = values[self.args[1]].reshape(T, -1, B)  # (T, k, B): a copy, kept for backward
        result = out.reshape(T, -1, B)  # (T, n, B): a view of the out rows
        np.matmul(W, x, out=result)
        result += values[self.args[0]].reshape(T, -1, B) if bias is None else bias
        return x

    def backward(self, run: Backward, upstream: Any, local: Any, blocks: tuple[Any, ...]) -> None:
        # out_t = bias_t + W @ x_t: d/dx_t = W^T, d/dW = sum over t of upstream_t @ x_t^T,
        # d/dbias = upstream summed over the batch (and over t where the bias is shared)
        assert self.weights is not None
        W, _, dW, dbias = blocks
        T, B = self.segments, upstream.shape[1]
        g = upstream.reshape(T, -1, B)  # (T, n, B)
        n, k = g.shape[1], local.shape[1]
        if self.bias is None:
            if id(self.scatters[0]) in run.first:
                run.add(self.scatters[0], upstream)
        else:
            run.add_block(self.bias, dbias, g.sum(axis=(0, 2) if self.bias.index.ndim == 1 else 2))
        if id(self.scatters[1]) in run.first:
            run.add(self.scatters[1], np.matmul(W.T, g).reshape(-1, B))
        rows = g.transpose(1, 0, 2).reshape(n, T * B)  # each weight row's upstream, all t
        run.add_product(self.weights, dW, rows, local.transpose(1, 0, 2).reshape(k, T * B).T)
