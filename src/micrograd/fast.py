"""The fast path: trace a scalar function once, then replay it on whole batches with numpy.

    prog = trace(lambda x, y: (1 - y * model(x)).relu(), model.parameters(), n_inputs=3)
    losses, param_grads, input_grads = prog.value_and_grad(batch)       # batch: (B, 3) array

Tracing runs the function once on Values and keeps the graph. Replaying evaluates that same graph
for B samples at once, forward and backward, with the rules of `micrograd.engine.OPS` applied to
numpy arrays. Three compilation steps make it fast: chains of "+" become one n-ary sum; sums of the
shape a neuron makes (bias + w1*x1 + ... with parameters w) become, layer by layer, one matrix
product; and all remaining nodes of the same depth and op run as one numpy operation. The results
equal the eager engine's to rounding (~1e-16 relative: a matrix product adds in another order, and
numpy's exp/tanh may differ from Python's in the last bit).

The rule of tracing: the graph is recorded for the sample it was traced with, so Python control
flow that depends on data (`if x > 0`, `max(a, b)`, `if x:`) cannot be captured. Comparisons and
bool() of a Value raise TraceError while tracing (float() of a Value always raises TypeError);
reading `.data` cannot be detected, so do not branch on it. Use ops instead (`relu`, `tanh`...).
`Compiled.check(batch)` re-runs samples eagerly and raises TraceError where the replay disagrees.

Needs numpy (`pip install micrograd-plus[fast]`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd import modes
from micrograd.engine import Value, apply_rule
from micrograd.maths import NumpyMath
from micrograd.modes import TraceError

try:
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without the extra
    np = None  # type: ignore[assignment]

NUMPY = NumpyMath(np) if np is not None else None  # the rules' functions on arrays


def _logsumexp(z: list[Any]) -> tuple[Any, list[Any]]:
    """log(sum_j exp(z_j)), stable (the max m first: m + log sum exp(z - m)), and its local
    derivatives, the softmax exp(z_j - out): what micrograd.losses.logsumexp builds from ops."""
    m = np.maximum.reduce(z)
    e = [np.exp(zj - m) for zj in z]
    total = np.add.reduce(e)
    out = m + np.log(total)
    return out, [ej / total for ej in e]


Index = Any  # rows of the (rows, B) arrays: a slice where they are a range, else an index array


def _times(upstream: Any, local: Any) -> Any:
    """upstream * local, where relu's slope (a boolean array) is False gives 0 even for an inf or
    nan upstream: the eager engine's chain rule (engine._chain_rule_step)."""
    product = upstream * local
    if getattr(getattr(local, "dtype", None), "kind", "") == "b":
        return np.where(~local & ~np.isfinite(upstream), 0.0, product)
    return product


def _rows(rows: Sequence[int]) -> Index:
    """`rows` as a slice when they are consecutive and ascending (reads and writes are then views,
    not copies), else as an index array."""
    a = np.asarray(rows, dtype=np.intp)
    if len(a) and a[-1] - a[0] == len(a) - 1 and (len(a) == 1 or (np.diff(a) == 1).all()):
        return slice(int(a[0]), int(a[-1]) + 1)
    return a


@dataclass
class _Scatter:
    """How to add a (k, B) block of contributions into the rows `rows` of the grad array: in place
    for a range, by fancy index for distinct rows, summed first (sorted + reduceat) for repeated
    rows, which fancy-index `+=` would drop."""

    rows: Index
    order: Any = None
    unique_rows: Any = None
    starts: Any = None

    @classmethod
    def plan(cls, rows: Index) -> _Scatter:
        if isinstance(rows, slice) or len(np.unique(rows)) == len(rows):
            return cls(rows)
        order = np.argsort(rows, kind="stable")
        sorted_rows = rows[order]
        starts = np.flatnonzero(np.r_[True, sorted_rows[1:] != sorted_rows[:-1]])
        return cls(rows, order, sorted_rows[starts], starts)

    def add(self, grads: Any, contrib: Any, first: bool) -> None:
        """grads[rows] += contrib, or = where backward writes these rows `first` (the plan of
        Compiled._first_writes: the grads array is not zeroed beforehand)."""
        rows = self.rows if self.order is None else self.unique_rows
        if self.order is not None:
            contrib = np.add.reduceat(contrib[self.order], self.starts, axis=0)
        if first:
            grads[rows] = contrib
        else:
            grads[rows] += contrib


@dataclass
class _Block:
    """Where a layer's weights (or biases) sit in the parameter vector: W[j, i] is parameter
    `base + j * stride + i` (a strided view, no copy) when they are laid out that regularly, as an
    MLP's are (each neuron's weights, then its bias); else `index` says for each one."""

    index: Any  # parameter index of each entry, shape (nodes, inputs) or (nodes,)
    base: int = -1  # -1: not regular, gather with `index`
    stride: int = 0

    @classmethod
    def plan(cls, index: Any, n_params: int) -> _Block:
        index = np.asarray(index, dtype=np.intp)
        rows = index.reshape(len(index), -1)
        n, k = rows.shape
        base = int(rows[0, 0])
        stride = int(rows[1, 0] - base) if n > 1 else k
        regular = base + stride * np.arange(n)[:, None] + np.arange(k)
        if stride >= k and base + n * stride <= n_params and np.array_equal(rows, regular):
            return cls(index, base, stride)
        return cls(index)

    def view(self, vector: Any) -> Any:
        """The block of `vector` (the parameters or their grads): a view where regular."""
        if self.base < 0:
            return vector[self.index]
        n, stop = len(self.index), self.base + len(self.index) * self.stride
        if self.index.ndim == 1:
            return vector[self.base : stop : self.stride]
        return vector[self.base : stop].reshape(n, self.stride)[:, : self.index.shape[1]]

    def add(self, vector: Any, x: Any) -> None:
        """vector[block] += x."""
        if self.base < 0:
            vector += np.bincount(self.index.ravel(), x.ravel(), len(vector)).astype(vector.dtype)
        else:
            view = self.view(vector)
            view += x


@dataclass
class _Group:
    """Nodes at the same depth with the same op: one numpy operation computes all of them."""

    op: str  # the nodes' _op, "sum" for a folded chain of additions, or "linear" for a layer
    rep: Value | None  # one of the nodes: its rule (and exponent, for x**k) is the group's
    out: slice  # the nodes' rows: consecutive, as rows are numbered group by group
    args: list[Index]  # for each operand position, the row of that operand of each node
    scatters: list[_Scatter]
    starts: Any = None  # "sum" by reduceat: where each node's terms start in args[0] (else: the
    sizes: Any = None  # same few terms per node, args[j] the j-th term); how many terms each has
    weights: _Block | None = None  # "linear": W, the parameters the layer multiplies by
    bias: _Block | None = None  # "linear": the bias, when every one is a parameter (else args[0])
    reads_inputs: bool = False  # "linear": x is the function's inputs (their grads: on request)


class Compiled:
    """A traced scalar function of (parameters, per-sample inputs), replayed on batches. Traced
    from a function that returns several Values, calling it gives all of them (B, k); its
    value_and_grad is that of their sum."""

    def __init__(
        self,
        root: Value,
        params: Sequence[Value],
        inputs: Sequence[Value],
        dtype: Any = None,
        outputs: Sequence[Value] = (),
    ) -> None:
        order = _order(root)
        for v in order:
            if v._user_backward is not None:
                raise TraceError(
                    f"op {v._op!r} was made by hand, Value(data, inputs, op), and its _backward "
                    "closure cannot run on arrays; build it from micrograd's ops, or add its rule "
                    "to micrograd.engine.OPS, to compile it"
                )
        self.dtype = np.dtype(dtype or np.float64)
        if self.dtype not in (np.float64, np.float32):
            raise ValueError(f"dtype must be float64 or float32, got {self.dtype}")
        self.params = list(params)
        self.n_inputs = len(inputs)
        param_ids = {id(p): i for i, p in enumerate(self.params)}
        input_ids = {id(x): i for i, x in enumerate(inputs)}
        nodes, terms = _fold_sums(order, root)
        linear = _find_linear(nodes, terms, param_ids, root)
        nodes = _still_used(nodes, terms, linear, root)
        # Rows are numbered so that reads and writes are ranges: the inputs first, in order (the
        # first layer reads them as one block), then the other leaves, then group by group.
        leaves = [v for v in nodes if not _inputs(v, terms, linear)]
        leaves.sort(key=lambda v: (id(v) not in input_ids, input_ids.get(id(v), 0)))
        buckets = _buckets(nodes, terms, linear)
        ordered = leaves + [v for _, _, members in buckets for v in members]
        row = {id(v): i for i, v in enumerate(ordered)}
        self.n_rows = len(ordered)
        self.root = row[id(root)]
        self.outputs = [row[id(o)] for o in outputs] if outputs else None
        params_read = [(row[id(v)], param_ids[id(v)]) for v in leaves if id(v) in param_ids]
        self.param_rows = _rows([r for r, _ in params_read])
        self.param_index = _rows([i for _, i in params_read])
        read = [(row[id(v)], input_ids[id(v)]) for v in leaves if id(v) in input_ids]
        self.input_rows = _rows([r for r, _ in read])
        self.input_index = np.array([i for _, i in read], dtype=np.intp)
        self.inputs_in_order = self.input_index.tolist() == list(range(self.n_inputs))
        self.reads_params = bool(params_read)  # as rows (layers read theirs from the vector)
        consts = [(row[id(v)], v.data) for v in leaves if id(v) not in param_ids | input_ids]
        self.const_rows = _rows([r for r, _ in consts])
        self.const_values = np.array([c for _, c in consts], dtype=self.dtype)[:, None]
        n_input_rows = len(read)
        self.groups = [
            _group(op, members, terms, linear, row, param_ids, n_input_rows)
            for op, _, members in buckets
        ]
        self._local = threading.local()

    # ---- replay
    def _buffers(self, n: int) -> tuple[Any, Any]:
        """The (rows, n) arrays of values and grads, kept between calls: allocating them anew each
        time costs more than the arithmetic (fresh pages from the OS for every large array).
        Per thread, so that threads can replay the same Compiled at once."""
        cache = self._local.__dict__
        if cache.get("n") != n:
            shape = (self.n_rows, n)
            cache.update(n=n, values=np.empty(shape, self.dtype), grads=np.empty(shape, self.dtype))
            cache["values"][self.const_rows] = self.const_values  # nothing writes these rows again
        return cache["values"], cache["grads"]

    def parameters(self) -> Any:
        """The parameters' current numbers, read from their Values, as an array."""
        return np.fromiter((p.data for p in self.params), self.dtype, len(self.params))

    def _forward(self, batch: Any, params: Any) -> tuple[Any, list[Any]]:
        batch = np.asarray(batch, dtype=self.dtype)
        if batch.ndim != 2 or batch.shape[1] != self.n_inputs:
            raise ValueError(
                f"expected a batch of shape (B, {self.n_inputs}), got shape {batch.shape}"
            )
        if params is None:
            params = self.parameters()
        else:
            params = np.asarray(params, dtype=self.dtype)
            if params.shape != (len(self.params),):
                raise ValueError(
                    f"params must have shape ({len(self.params)},), got {params.shape}"
                )
        cache = self._local.__dict__
        if cache.get("params") is not params:  # FastTrainer passes one array, updated in place
            cache["params"] = params
            cache["blocks"] = [  # each layer's W and bias as views of it, made once
                (g.weights.view(params), g.bias.view(params)[:, None] if g.bias else None)
                if g.weights is not None
                else (None, None)
                for g in self.groups
            ]
        blocks = cache["blocks"]
        values, _ = self._buffers(batch.shape[0])
        if self.reads_params:
            values[self.param_rows] = params[self.param_index, None]
        values[self.input_rows] = batch.T if self.inputs_in_order else batch.T[self.input_index]
        locals_: list[Any] = []  # each group's local derivatives, for value_and_grad
        with np.errstate(all="ignore"):  # overflow and domain errors are reported on the output
            for g, (W, bias) in zip(self.groups, blocks):
                local: Any = None
                out = values[g.out]
                if g.op == "sum" and g.starts is None:  # terms in the order they were added
                    np.copyto(out, values[g.args[0]])
                    for a in g.args[1:]:
                        out += values[a]
                elif g.op == "sum":  # many terms, or a different number per node
                    np.add.reduceat(values[g.args[0]], g.starts, axis=0, out=out)
                elif g.op == "linear":  # bias + W @ x: a layer's sums of products at once
                    np.matmul(W, values[g.args[1]], out=out)
                    out += values[g.args[0]] if bias is None else bias
                elif g.op == "logsumexp":
                    out[...], local = _logsumexp([values[a] for a in g.args])
                else:
                    assert g.rep is not None
                    out[...], local = apply_rule(g.rep, NUMPY, [values[a] for a in g.args])
                locals_.append(local)
        out = values[self.root]
        if not np.isfinite(out).all():
            bad = np.flatnonzero(~np.isfinite(out))[:5].tolist()
            raise FloatingPointError(
                f"the compiled function gave {float(out[bad[0]])!r} for batch rows {bad}; run one "
                "of those rows eagerly inside micrograd.detect_anomaly() to find the op"
            )
        return values, locals_

    def __call__(self, batch: Any, params: Any = None) -> Any:
        """The function's value for each row of `batch` (shape (B, n_inputs)): shape (B,), or
        (B, k) for a function of k outputs. `params` (an array) replaces the parameters' numbers,
        read from their Values otherwise."""
        values = self._forward(batch, params)[0]
        if self.outputs is not None:
            return values[self.outputs].T.copy()
        return values[self.root].copy()

    def value_and_grad(
        self, batch: Any, weights: Any = None, params: Any = None, input_grads: bool = True
    ) -> tuple[Any, Any, Any]:
        """Values (B,), gradient of sum_b weights[b] * f(row b) w.r.t. the parameters (P,) and
        w.r.t. each input (B, n_inputs), or None unless `input_grads`. Weights default to 1 (use
        1/B for a mean); `params` (an array) replaces the numbers of the parameters' Values."""
        values, locals_ = self._forward(batch, params)
        n = values.shape[1]
        _, grads = self._buffers(n)
        first, zero = self._first_writes(input_grads)
        if weights is not None and np.shape(weights) not in ((), (n,)):
            raise ValueError(
                f"weights must be a number or have shape ({n},), got {np.shape(weights)}"
            )
        for times in (np.multiply, _times):
            grads[zero] = 0.0  # only rows added to before being written, or read unwritten
            grads[self.root] = 1.0 if weights is None else weights
            param_grads = self._backward(values, locals_, grads, first, input_grads, times)
            if self.reads_params:
                param_grads[self.param_index] += grads[self.param_rows].sum(axis=1)
            dx = None
            if input_grads:
                dx = np.zeros((n, self.n_inputs), self.dtype)
                dx[:, self.input_index] = grads[self.input_rows].T
            if not (np.isnan(param_grads).any() or (dx is not None and np.isnan(dx).any())):
                break
            # A nan: maybe a dead relu times an inf upstream. Once more, with dead relus passing
            # nothing on, as the eager engine does (rare: the usual pass pays one check)
        return values[self.root].copy(), param_grads, dx

    def _backward(
        self, values: Any, locals_: Any, grads: Any, first: Any, input_grads: bool, times: Any
    ) -> Any:
        """The chain rule over the groups, outputs first, into `grads`; returns the parameters'
        part. `times(upstream, local)` multiplies (np.multiply, or _times for dead relus)."""
        param_grads = np.zeros(len(self.params), self.dtype)
        with np.errstate(all="ignore"):
            for g, local, (W, _) in zip(
                reversed(self.groups), reversed(locals_), reversed(self._local.blocks)
            ):
                upstream = grads[g.out]
                if g.op == "sum":  # d(sum)/d(term) = 1: each term gets the upstream grad
                    if g.starts is None:
                        for scatter in g.scatters:
                            scatter.add(grads, upstream, first[id(scatter)])
                    else:
                        sc = g.scatters[0]
                        sc.add(grads, np.repeat(upstream, g.sizes, axis=0), first[id(sc)])
                    continue
                if g.op == "linear":  # out = bias + W @ x: d/dbias = 1, d/dx = W^T, d/dW = x^T
                    assert g.weights is not None
                    if g.bias is None:
                        g.scatters[0].add(grads, upstream, first[id(g.scatters[0])])
                    else:
                        g.bias.add(param_grads, upstream.sum(axis=1))
                    if input_grads or not g.reads_inputs:
                        sc = g.scatters[1]
                        sc.add(grads, W.T @ upstream, first[id(sc)])
                    g.weights.add(param_grads, upstream @ values[g.args[1]].T)
                    continue
                for scatter, d in zip(g.scatters, local):
                    scatter.add(grads, times(upstream, d), first[id(scatter)])
        return param_grads

    def _first_writes(self, input_grads: bool) -> tuple[dict[int, bool], Any]:
        """Which scatters of backward write rows no earlier one wrote (they assign instead of
        adding), and the rows to zero first: those added to after a partial write, and leaves
        read at the end that no scatter reaches. Zeroing the whole (rows, B) array each call
        costs as much as a layer's matrix product at large batches. Planned once per mode."""
        cache = self.__dict__.setdefault("_plans", {})
        if input_grads in cache:
            return cache[input_grads]
        everything = np.arange(self.n_rows)
        touched = np.zeros(self.n_rows, dtype=bool)
        touched[self.root] = True
        first: dict[int, bool] = {}
        zero: list[Any] = []
        for g in reversed(self.groups):
            if g.op == "sum":
                used = g.scatters if g.starts is None else g.scatters[:1]
            elif g.op == "linear":
                used = [g.scatters[0]] if g.bias is None else []
                used += [g.scatters[1]] if input_grads or not g.reads_inputs else []
            else:
                used = g.scatters
            for sc in used:
                rows = everything[sc.rows]
                seen = touched[rows]
                first[id(sc)] = not seen.any()
                if seen.any():
                    zero.append(rows[~seen])
                touched[rows] = True
        for rows in (self.param_rows, self.input_rows):
            rows = everything[rows]
            zero.append(rows[~touched[rows]])
        cache[input_grads] = first, np.unique(np.concatenate(zero)).astype(np.intp)
        return cache[input_grads]

    def check(
        self, batch: Any, fn: Callable[..., Value], rows: int = 3, rtol: float = 1e-9
    ) -> None:
        """Re-run `fn` eagerly on the first `rows` rows; TraceError if the replay disagrees there
        (the sign of data-dependent control flow that tracing froze)."""
        batch = np.asarray(batch, dtype=float)[:rows]
        replayed = self(batch)
        for i, row in enumerate(batch):
            eager = fn(*[Value(float(x)) for x in row]).data
            if not abs(eager - replayed[i]) <= rtol * max(1.0, abs(eager)):
                raise TraceError(
                    f"row {i}: eager evaluation gives {eager!r}, the traced replay {replayed[i]!r};"
                    " the function probably branches on data, which tracing cannot capture"
                )


def trace(
    fn: Callable[..., Value | Sequence[Value]],
    params: Sequence[Value],
    n_inputs: int,
    example: Sequence[float] | None = None,
    dtype: Any = None,
) -> Compiled:
    """Trace `fn(*inputs) -> Value` (or a list of Values) once and return it compiled for batches.

    `inputs` are n_inputs scalars (the sample), `params` the Values that fn reads and that
    value_and_grad differentiates (such as model.parameters()); any other Value it reads is frozen
    as a constant. `example` gives the inputs' numbers for the trace (any will do without branches).
    `dtype` is float64 (the default: the eager engine's numbers to ~1e-16) or float32 (about twice
    as fast at large sizes; results then agree with float64 to ~1e-5 relative).
    """
    if np is None:
        raise ImportError("micrograd.fast needs numpy: pip install 'micrograd-plus[fast]'")
    if example is not None and len(example) != n_inputs:
        raise ValueError(f"example has {len(example)} numbers, expected n_inputs={n_inputs}")
    inputs = [Value(x) for x in (example or [0.5 + 0.25 * i for i in range(n_inputs)])]
    with modes.tracing():  # records the graph even inside no_grad()
        out = fn(*inputs)
    if isinstance(out, (list, tuple)) and out and all(isinstance(o, Value) for o in out):
        with modes.tracing():  # several outputs: traced as one graph, under their sum
            root = sum(out, Value(0.0))
        return Compiled(root, params, inputs, dtype, outputs=out)
    if not isinstance(out, Value):
        raise TraceError(f"the traced function must return a Value or a list of them, got {out!r}")
    return Compiled(out, params, inputs, dtype)


# ---------------------------------------------------------------------------- compilation passes
def _parents(v: Value) -> Sequence[Value]:
    """What a node reads in the replay: its inputs, or for a node that a loss marked as a fused
    op (micrograd.losses.logsumexp sets `_fused`), the inputs of the whole fused computation."""
    fused = v.__dict__.get("_fused")
    return fused[1] if fused else v._prev


def _is_sum(v: Value) -> bool:
    return v._op == "+" and "_fused" not in v.__dict__


def _order(root: Value) -> list[Value]:
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


def _fold_sums(order: list[Value], root: Value) -> tuple[list[Value], dict[int, list[Value]]]:
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


def _find_linear(
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


def _inputs(v: Value, terms: dict[int, list[Value]], linear: _Linear) -> Sequence[Value]:
    """What a node reads once sums are folded and layers found (a layer's weights are read from
    the parameters, not from rows)."""
    if id(v) in linear.parts:
        bias, _, xs = linear.parts[id(v)]
        return xs if id(bias) in linear.param_biases else [bias, *xs]
    return terms.get(id(v), _parents(v))


def _still_used(
    nodes: list[Value], terms: dict[int, list[Value]], linear: _Linear, root: Value
) -> list[Value]:
    """The nodes that need a row: the root and whatever a remaining node reads."""
    kept = [v for v in nodes if id(v) not in linear.absorbed]
    read = {id(root)} | {id(i) for v in kept for i in _inputs(v, terms, linear)}
    return [v for v in kept if id(v) in read]


def _buckets(
    nodes: list[Value], terms: dict[int, list[Value]], linear: _Linear
) -> list[tuple[str, Any, list[Value]]]:
    """The nodes that compute, grouped by depth and op, in depth order: every group's inputs are
    computed by earlier groups. Neurons of one layer (the same inputs) form one "linear" group."""
    depth: dict[int, int] = {}
    buckets: dict[tuple[int, str, Any], list[Value]] = {}
    for v in nodes:
        inputs = _inputs(v, terms, linear)
        key: Any = ()
        if id(v) in linear.parts:
            bias, _, xs = linear.parts[id(v)]  # the same inputs, and biases of the same kind
            op, key = "linear", (id(bias) in linear.param_biases, *(id(x) for x in xs))
        elif "_fused" in v.__dict__:
            op, key = v.__dict__["_fused"][0], len(inputs)
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


def _group(
    op: str,
    members: list[Value],
    terms: dict[int, list[Value]],
    linear: _Linear,
    row: dict[int, int],
    param_ids: dict[int, int],
    n_input_rows: int,
) -> _Group:
    """The replay plan of one bucket: its rows, its operands' rows, and how to scatter grads."""
    out = _rows([row[id(v)] for v in members])
    assert isinstance(out, slice)  # rows are numbered bucket by bucket
    if op == "sum":
        k = len(terms[id(members[0])])
        if k <= 8 and all(len(terms[id(v)]) == k for v in members):  # add term by term, in place
            args = [_rows([row[id(terms[id(v)][j])] for v in members]) for j in range(k)]
            return _Group(op, None, out, args, [_Scatter.plan(a) for a in args])
        rows = np.array([row[id(t)] for v in members for t in terms[id(v)]], dtype=np.intp)
        sizes = np.array([len(terms[id(v)]) for v in members], dtype=np.intp)
        starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.intp)
        return _Group(op, None, out, [rows], [_Scatter.plan(rows)], starts, sizes)
    if op == "linear":
        biases = [linear.parts[id(v)][0] for v in members]
        xs = _rows([row[id(x)] for x in linear.parts[id(members[0])][2]])
        n = len(param_ids)
        weights = _Block.plan(
            [[param_ids[id(w)] for w in linear.parts[id(v)][1]] for v in members], n
        )
        bias = None
        if all(id(b) in param_ids for b in biases):  # read from the parameters, not from rows
            bias = _Block.plan([param_ids[id(b)] for b in biases], n)
            bias_rows: Index = np.zeros(0, dtype=np.intp)
        else:
            bias_rows = _rows([row[id(b)] for b in biases])
        reads_inputs = isinstance(xs, slice) and xs.stop <= n_input_rows
        scatters = [_Scatter.plan(bias_rows), _Scatter.plan(xs)]
        return _Group(
            op,
            None,
            out,
            [bias_rows, xs],
            scatters,
            weights=weights,
            bias=bias,
            reads_inputs=reads_inputs,
        )
    ins = [_parents(v) for v in members]
    args = [_rows([row[id(i[k])] for i in ins]) for k in range(len(ins[0]))]
    return _Group(op, members[0], out, args, [_Scatter.plan(a) for a in args])
