"""The fast path's replay: a traced function, compiled into groups (micrograd.fast.plan), run
forward and backward on whole batches with numpy."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from micrograd import modes
from micrograd.engine import Value
from micrograd.fast.groups import Backward, LinearGroup, rows_index, times_dead_relu
from micrograd.fast.plan import (
    find_linear,
    fold_sums,
    group_buckets,
    make_group,
    reads,
    replay_order,
    still_used,
)
from micrograd.modes import TraceError


def _all_finite(a: Any) -> bool:
    """Whether every number in `a` is finite: one sum, unless it overflows or meets a nan or inf."""
    return math.isfinite(a.sum()) or bool(np.isfinite(a).all())


def _has_nan(a: Any) -> bool:
    """Whether `a` holds a nan: one sum, unless it is nan (a nan, or inf - inf in the sum)."""
    return math.isnan(a.sum()) and bool(np.isnan(a).any())


@dataclass
class _Plan:
    """What a backward pass runs (Compiled._plan): the groups, in backward order; for each scatter
    and parameter block, whether it writes first (absent: not needed); the rows to zero first;
    the parameters to zero first (None: all of them)."""

    groups: list[int]
    first: dict[int, bool]
    zero_rows: Any
    zero_params: Any


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
        order = replay_order(root)
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
        # The parameters' numbers as one array, kept by this program: value_and_grad reads the
        # Values into it (in place, so the views of it that the layers keep stay valid), and an
        # array training loop updates it and writes it back with push().
        self.theta = self.parameters()
        self.n_inputs = len(inputs)
        param_ids = {id(p): i for i, p in enumerate(self.params)}
        input_ids = {id(x): i for i, x in enumerate(inputs)}
        nodes, terms = fold_sums(order, root)
        linear = find_linear(nodes, terms, param_ids, root)
        nodes = still_used(nodes, terms, linear, root)
        # Rows are numbered so that reads and writes are ranges: the inputs first, in order (the
        # first layer reads them as one block), then the other leaves, then group by group.
        leaves = [v for v in nodes if not reads(v, terms, linear)]
        leaves.sort(key=lambda v: (id(v) not in input_ids, input_ids.get(id(v), 0)))
        buckets = group_buckets(nodes, terms, linear)
        ordered = leaves + [v for _, _, members in buckets for v in members]
        row = {id(v): i for i, v in enumerate(ordered)}
        self.n_rows = len(ordered)
        self.root = row[id(root)]
        self.outputs = [row[id(o)] for o in outputs] if outputs else None
        params_read = [(row[id(v)], param_ids[id(v)]) for v in leaves if id(v) in param_ids]
        self.param_rows = rows_index([r for r, _ in params_read])
        self.param_index = rows_index([i for _, i in params_read])
        read = [(row[id(v)], input_ids[id(v)]) for v in leaves if id(v) in input_ids]
        self.input_rows = rows_index([r for r, _ in read])
        self.input_index = np.array([i for _, i in read], dtype=np.intp)
        self.inputs_in_order = self.input_index.tolist() == list(range(self.n_inputs))
        self.reads_params = bool(params_read)  # as rows (layers read theirs from the vector)
        consts = [(row[id(v)], v.data) for v in leaves if id(v) not in param_ids | input_ids]
        self.const_rows = rows_index([r for r, _ in consts])
        self.const_values = np.array([c for _, c in consts], dtype=self.dtype)[:, None]
        n_input_rows = len(read)
        self.groups = [
            make_group(op, members, terms, linear, row, param_ids, n_input_rows)
            for op, _, members in buckets
        ]
        self._local = threading.local()
        # what a call computes: for several outputs, the groups they need (not their traced sum)
        self.shown = self.outputs if self.outputs is not None else self.root
        self.all_groups = list(range(len(self.groups)))
        self.shown_groups = self._needed_for(self.outputs or [self.root])

    def _needed_for(self, rows: list[int]) -> list[int]:
        """The groups (indices, in order) that compute `rows` and what they read."""
        needed = np.zeros(self.n_rows, dtype=bool)
        needed[rows] = True
        found = []
        for i in reversed(range(len(self.groups))):
            g = self.groups[i]
            if needed[g.out].any():
                found.append(i)
                for a in g.args:
                    needed[a] = True
        return found[::-1]

    # ---- replay
    def _buffers(self, n: int) -> Any:
        """The (rows, n) arrays of values and grads (and n ones), kept between calls: allocating
        them anew each time costs more than the arithmetic (fresh pages from the OS for every
        large array). Per thread, so that threads can replay the same Compiled at once."""
        cache = self._local.__dict__
        if cache.get("n") != n:
            shape = (self.n_rows, n)
            values, grads = np.empty(shape, self.dtype), np.empty(shape, self.dtype)
            cache.update(n=n, values=values, grads=grads, ones=np.ones(n, self.dtype))
            values[self.const_rows] = self.const_values  # nothing writes these rows again
        return cache["values"]

    def parameters(self) -> Any:
        """The parameters' current numbers, read from their Values, as a new array."""
        return np.fromiter((p.data for p in self.params), self.dtype, len(self.params))

    def pull(self) -> Any:
        """Read the parameters' Values into this program's array `theta` and return it: the
        array to train with (value_and_grad(..., params=theta), optimizer.step_arrays(theta,
        grads)), without reading tens of thousands of Values on every step."""
        self.theta[...] = self.parameters()
        return self.theta

    def push(self, grads: Any = None) -> None:
        """Write `theta` into the parameters' Values (.data), and `grads` into their .grad."""
        for p, x in zip(self.params, self.theta.tolist()):
            p.data = x
        if grads is not None:
            for p, g in zip(self.params, np.asarray(grads).tolist()):
                p.grad = g

    def _forward(
        self, batch: Any, params: Any, groups: list[int], shown: Any
    ) -> tuple[Any, dict[int, Any]]:
        """Run `groups` on the batch; the values and each group's local derivatives. The rows
        `shown` (the output) must be finite."""
        batch = np.asarray(batch, dtype=self.dtype)
        if batch.ndim != 2 or batch.shape[1] != self.n_inputs:
            raise ValueError(
                f"expected a batch of shape (B, {self.n_inputs}), got shape {batch.shape}"
            )
        if params is None:
            params = self.pull()
        else:
            params = np.asarray(params, dtype=self.dtype)
            if params.shape != (len(self.params),):
                raise ValueError(
                    f"params must have shape ({len(self.params)},), got {params.shape}"
                )
        cache = self._local.__dict__
        if cache.get("params") is not params:  # pull()'s array, or the caller's, updated in place
            cache["params"] = params
            # the parameters' gradient is added into one array per thread, through views of it
            grads = cache["param_grads"] = np.zeros(len(self.params), self.dtype)
            cache["blocks"] = [g.blocks(params, grads) for g in self.groups]  # made once
        blocks = cache["blocks"]
        values = self._buffers(batch.shape[0])
        if self.reads_params:
            values[self.param_rows] = params[self.param_index, None]
        values[self.input_rows] = batch.T if self.inputs_in_order else batch.T[self.input_index]
        locals_ = {}  # each group's local derivatives, for value_and_grad
        for i in groups:
            g = self.groups[i]
            locals_[i] = g.forward(values, values[g.out], blocks[i])
        out = values[shown].reshape(-1, batch.shape[0])  # (outputs, B)
        if not _all_finite(out):
            bad = np.flatnonzero(~np.isfinite(out).all(axis=0))
            first = out[:, bad[0]]
            raise FloatingPointError(
                f"the compiled function gave {float(first[~np.isfinite(first)][0])!r} for batch "
                f"rows {bad[:5].tolist()}; run one of those rows eagerly inside "
                "micrograd.detect_anomaly() to find the op"
            )
        return values, locals_

    def __call__(self, batch: Any, params: Any = None) -> Any:
        """The function's value for each row of `batch` (shape (B, n_inputs)): shape (B,), or
        (B, k) for a function of k outputs. `params` (an array) replaces the parameters' numbers,
        read from their Values otherwise."""
        with np.errstate(all="ignore"):  # overflow and domain errors are reported on the output
            values = self._forward(batch, params, self.shown_groups, self.shown)[0]
        if self.outputs is not None:
            return values[self.outputs].T.copy()
        return values[self.root].copy()

    def value_and_grad(
        self, batch: Any, weights: Any = None, params: Any = None, input_grads: bool = False
    ) -> tuple[Any, Any, Any]:
        """Values (B,), gradient of sum_b weights[b] * f(row b) w.r.t. the parameters (P,), and
        w.r.t. each input (B, n_inputs) when `input_grads` is True (else None: training needs
        only the parameters' and the inputs' cost a product more). Weights default to 1 (use 1/B
        for a mean); `params` (an array, such as pull()'s) replaces the numbers of the Values."""
        with np.errstate(all="ignore"):  # overflow and domain errors are reported on the output
            return self._value_and_grad(batch, weights, params, input_grads)

    def _value_and_grad(
        self, batch: Any, weights: Any, params: Any, input_grads: bool
    ) -> tuple[Any, Any, Any]:
        values, locals_ = self._forward(batch, params, self.all_groups, self.root)
        n = values.shape[1]
        grads = self._local.grads
        plan = self._plan(input_grads)
        if (
            weights is not None
            and not isinstance(weights, float)
            and np.shape(weights) not in ((), (n,))
        ):
            raise ValueError(
                f"weights must be a number or have shape ({n},), got {np.shape(weights)}"
            )
        for times in (np.multiply, times_dead_relu):
            if plan.zero_rows.size:
                grads[plan.zero_rows] = 0.0  # rows added to before being written, or read unwritten
            grads[self.root] = 1.0 if weights is None else weights
            param_grads = self._backward(values, locals_, grads, plan, input_grads, times)
            if self.reads_params:
                param_grads[self.param_index] += grads[self.param_rows].sum(axis=1)
            dx = None
            if input_grads:
                dx = np.zeros((n, self.n_inputs), self.dtype)
                dx[:, self.input_index] = grads[self.input_rows].T
            # one sum finds a nan (and, rarely, an inf - inf: the exact check tells them apart)
            if not (_has_nan(param_grads) or (dx is not None and _has_nan(dx))):
                break
            # A nan: maybe a dead relu times an inf upstream. Once more, with dead relus passing
            # nothing on, as the eager engine does (rare: the usual pass pays one check)
        return values[self.root].copy(), param_grads.copy(), dx  # the buffer is reused

    def _backward(
        self, values: Any, locals_: Any, grads: Any, plan: _Plan, input_grads: bool, times: Any
    ) -> Any:
        """The chain rule over the groups that lead to a parameter, outputs first, into `grads`;
        returns the parameters' part. `times(upstream, local)` multiplies (np.multiply, or
        times_dead_relu)."""
        cache = self._local
        param_grads = cache.param_grads
        if plan.zero_params is None:
            param_grads.fill(0.0)
        elif plan.zero_params.size:
            param_grads[plan.zero_params] = 0.0  # the entries no block writes first
        run = Backward(grads, param_grads, plan.first, input_grads, times, values, cache.ones)
        groups, blocks = self.groups, cache.blocks
        for i in plan.groups:
            g = groups[i]
            g.backward(run, grads[g.out], locals_[i], blocks[i])
        return param_grads

    def _plan(self, input_grads: bool) -> _Plan:
        """Planned once per mode: which groups backward runs (those that lead to a parameter, or
        to an input when input_grads), which scatters and parameter blocks write first (they
        assign instead of adding), and the rows and parameters to zero first: rows added to
        after a partial write and leaves read at the end that no scatter reaches; parameters no
        block writes first. Zeroing the whole (rows, B) array each call costs as much as a
        layer's matrix product at large batches."""
        cache = self.__dict__.setdefault("_plans", {})
        if input_grads in cache:
            return cache[input_grads]
        everything = np.arange(self.n_rows)
        wanted = np.zeros(self.n_rows, dtype=bool)  # rows whose grads lead somewhere wanted
        wanted[self.param_rows] = True
        if input_grads:
            wanted[self.input_rows] = True
        needed = []
        for i, g in enumerate(self.groups):
            if isinstance(g, LinearGroup) or any(wanted[a].any() for a in g.args):
                wanted[g.out] = True  # a layer's weights are parameters
                needed.append(i)
        touched = np.zeros(self.n_rows, dtype=bool)
        touched[self.root] = True
        written = np.zeros(len(self.params), dtype=bool)  # parameters a block wrote first
        covered = np.zeros(len(self.params), dtype=bool)
        first: dict[int, bool] = {}
        zero: list[Any] = []
        for i in reversed(needed):
            g = self.groups[i]
            for sc in g.writes(input_grads):
                rows = everything[sc.rows]
                if not wanted[rows].any():
                    continue
                seen = touched[rows]
                first[id(sc)] = not seen.any()
                if seen.any():
                    zero.append(rows[~seen])
                touched[rows] = True
            if isinstance(g, LinearGroup):
                for block in (g.bias, g.weights):
                    if block is not None:
                        index = block.index.ravel()
                        first[id(block)] = block.base >= 0 and not written[index].any()
                        covered[index] |= first[id(block)]
                        written[index] = True
        for rows in (self.param_rows, self.input_rows):
            rows = everything[rows]
            zero.append(rows[~touched[rows]])
        zero_params = np.flatnonzero(~covered)
        cache[input_grads] = _Plan(
            needed[::-1],
            first,
            np.unique(np.concatenate(zero)).astype(np.intp),
            None if len(zero_params) == len(self.params) else zero_params,
        )
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
