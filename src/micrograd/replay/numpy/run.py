"""The numpy back end's replay: a tape compiled into groups (replay.numpy.plan), run forward and
backward on whole batches at once."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from micrograd.engine import Value
from micrograd.replay import arrays
from micrograd.replay.numpy.groups import Backward, LinearGroup, rows_index, times_dead_relu
from micrograd.replay.numpy.plan import make_group
from micrograd.replay.program import Program
from micrograd.replay.trace import Tape


def _input_index(tape: Tape, i: int) -> int:
    """An input's index (the other leaves keep their order: 0)."""
    return tape.nodes[i].index if tape.nodes[i].kind == "input" else 0


def _all_finite(a: Any) -> bool:
    """Whether every number in `a` is finite: one sum, unless it overflows or meets a nan or inf."""
    return math.isfinite(a.sum()) or bool(np.isfinite(a).all())


def _has_nan(a: Any) -> bool:
    """Whether `a` holds a nan: one sum, unless it is nan (a nan, or inf - inf in the sum)."""
    return math.isnan(a.sum()) and bool(np.isnan(a).any())


@dataclass
class _Plan:
    """What a backward pass runs (NumpyProgram._plan): the groups, in backward order; for each
    scatter and parameter block, whether it writes first (absent: not needed); the rows to zero
    first; the parameters to zero first (None: all of them)."""

    groups: list[int]
    first: dict[int, bool]
    zero_rows: Any
    zero_params: Any


class NumpyProgram(Program):
    """A tape replayed on batches with numpy: each group of same-depth, same-op nodes is one
    numpy operation on a (rows, B) array, a layer one matrix product. The eager engine's numbers
    to rounding (~1e-16 relative: a matrix product adds in another order, and numpy's exp or tanh
    may differ from Python's in the last bit). A value that is not finite in an output raises
    FloatingPointError, naming the rows. Rows: a (B, n_inputs) array (or what makes one)."""

    backend = "numpy"

    def __init__(
        self, tape: Tape, fn: Callable[..., Any], params: Sequence[Value], dtype: Any = None
    ) -> None:
        super().__init__(tape, fn, params)
        self.dtype = np.dtype(dtype or np.float64)
        if self.dtype not in (np.float64, np.float32):
            raise ValueError(f"dtype must be float64 or float32, got {self.dtype}")
        # The parameters' numbers as one array, kept by this program: value_and_grad reads the
        # Values into it (in place, so the views of it that the layers keep stay valid), and an
        # array training loop updates it and writes it back with push().
        self.theta = np.array(self.theta, dtype=self.dtype)
        plan = arrays.plan(tape)
        nodes, buckets = plan.nodes, plan.buckets
        # Rows are numbered so that reads and writes are ranges: the inputs first, in order (the
        # first layer reads them as one block), then the other leaves, then group by group.
        leaves = [i for i in nodes if tape.nodes[i].kind != "op"]
        leaves.sort(key=lambda i: (tape.nodes[i].kind != "input", _input_index(tape, i)))
        ordered = leaves + [i for _, _, members in buckets for i in members]
        row = {i: r for r, i in enumerate(ordered)}
        self.n_rows = len(ordered)
        self.root = row[tape.outputs[0]]
        self.outputs = [row[o] for o in tape.outputs]
        kinds = {
            kind: [i for i in leaves if tape.nodes[i].kind == kind]
            for kind in ("param", "input", "const")
        }
        self.param_rows = rows_index([row[i] for i in kinds["param"]])
        self.param_index = rows_index([tape.nodes[i].index for i in kinds["param"]])
        self.reads_params = bool(kinds["param"])  # as rows (layers read theirs from the vector)
        self.input_rows = rows_index([row[i] for i in kinds["input"]])
        self.input_index = np.array([tape.nodes[i].index for i in kinds["input"]], dtype=np.intp)
        self.inputs_in_order = self.input_index.tolist() == list(range(self.n_inputs))
        self.const_rows = rows_index([row[i] for i in kinds["const"]])
        values = [tape.nodes[i].value for i in kinds["const"]]
        self.const_values = np.array(values, dtype=self.dtype)[:, None]
        n_input_rows = len(kinds["input"])
        self.groups = [
            make_group(
                tape, op, key, members, plan.terms, plan.linear, plan.dots, row, n_input_rows
            )
            for op, key, members in buckets
        ]
        # the groups backward may run: those of nodes the differentiated output depends on
        self.in_backward = [plan.backward[members[0]] for _, _, members in buckets]
        self.gathered = any(g.gathers() for g in self.groups)  # blocks that are copies
        self._local = threading.local()
        self._plans: dict[bool, _Plan] = {}

    # ---- replay
    def _buffers(self, n: int) -> Any:
        """The (rows, n) arrays of values and grads (and n ones), kept between calls: allocating
        them anew each time costs more than the arithmetic (fresh pages from the OS for every
        large array). Per thread, so that threads can replay the same program at once."""
        cache = self._local.__dict__
        if cache.get("n") != n:
            shape = (self.n_rows, n)
            values, grads = np.empty(shape, self.dtype), np.empty(shape, self.dtype)
            cache.update(n=n, values=values, grads=grads, ones=np.ones(n, self.dtype))
            values[self.const_rows] = self.const_values  # nothing writes these rows again
        return cache["values"]

    def _forward(self, batch: Any, params: Any) -> tuple[Any, dict[int, Any]]:
        """Run every group on the batch; the values and each group's local derivatives. The
        outputs must be finite."""
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
        elif self.gathered:  # a block of an irregular layout is a copy: read it again
            grads = cache["param_grads"]
            cache["blocks"] = [g.blocks(params, grads) for g in self.groups]
        blocks = cache["blocks"]
        values = self._buffers(batch.shape[0])
        if self.reads_params:
            values[self.param_rows] = params[self.param_index, None]
        values[self.input_rows] = batch.T if self.inputs_in_order else batch.T[self.input_index]
        locals_ = {}  # each group's local derivatives, for value_and_grad
        for i, g in enumerate(self.groups):
            locals_[i] = g.forward(values, values[g.out], blocks[i])
        shown = self.outputs if self.n_outputs > 1 else self.root
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

    def _shown(self, values: Any) -> Any:
        """The outputs' values: shape (B,), or (B, k) for a function of k outputs (a copy: the
        buffer is reused)."""
        if self.n_outputs > 1:
            return values[self.outputs].T.copy()
        return values[self.root].copy()

    def __call__(self, rows: Any, params: Any = None) -> Any:
        """The function's value for each row of `rows` (shape (B, n_inputs)): shape (B,), or
        (B, k) for a function of k outputs. `params` (an array) replaces the parameters' numbers,
        read from their Values otherwise."""
        with np.errstate(all="ignore"):  # overflow and domain errors are reported on the output
            return self._shown(self._forward(rows, params)[0])

    def value_and_grad(
        self, rows: Any, weights: Any = None, params: Any = None, input_grads: bool = False
    ) -> tuple[Any, Any, Any]:
        """Values (B,) or (B, k), the gradient of sum_b weights[b] * f(row b) w.r.t. the
        parameters (P,), f the first output, and w.r.t. each input (B, n_inputs) when
        `input_grads` is True (else None: training needs only the parameters', and the inputs'
        cost a product more). Weights default to 1 (1/B for a mean); `params` (an array, such as
        pull()'s) replaces the numbers of the Values."""
        with np.errstate(all="ignore"):  # overflow and domain errors are reported on the output
            return self._value_and_grad(rows, weights, params, input_grads)

    def _value_and_grad(
        self, batch: Any, weights: Any, params: Any, input_grads: bool
    ) -> tuple[Any, Any, Any]:
        values, locals_ = self._forward(batch, params)
        n = values.shape[1]
        grads = self._local.grads
        plan = self._plan(input_grads)
        if (
            weights is not None
            and not isinstance(weights, float)
            and np.shape(weights) not in ((), (n,))
        ):
            raise ValueError(
                f"weights must be a number or one per row ({n}), got shape {np.shape(weights)}"
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
        return self._shown(values), param_grads.copy(), dx  # the buffer is reused

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
        """Planned once per mode: which groups backward runs (those the differentiated output
        depends on that lead to a parameter, or to an input when input_grads), which scatters and
        parameter blocks write first (they assign instead of adding), and the rows and parameters
        to zero first: rows added to after a partial write and leaves read at the end that no
        scatter reaches; parameters no block writes first. Zeroing the whole (rows, B) array
        each call costs as much as a layer's matrix product at large batches."""
        if input_grads in self._plans:
            return self._plans[input_grads]
        everything = np.arange(self.n_rows)
        wanted = np.zeros(self.n_rows, dtype=bool)  # rows whose grads lead somewhere wanted
        wanted[self.param_rows] = True
        if input_grads:
            wanted[self.input_rows] = True
        needed = []
        for i, g in enumerate(self.groups):
            if self.in_backward[i] and (
                isinstance(g, LinearGroup) or any(wanted[a].any() for a in g.args)
            ):
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
        self._plans[input_grads] = _Plan(
            needed[::-1],
            first,
            np.unique(np.concatenate(zero)).astype(np.intp),
            None if len(zero_params) == len(self.params) else zero_params,
        )
        return self._plans[input_grads]
