"""What every back end's compiled function is: a Program, with one meaning of its results.

A back end (replay.numpy, replay.python, replay.eager) subclasses Program and replays the tape in
its own way. What a call gives, several outputs included, is written once, in micrograd.replay's
docstring; replay.eager is that meaning in code (fn on Values for each row, then
(weights[b] * first output).backward()), and the other back ends compute the same numbers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from micrograd.engine import Value
from micrograd.modes import TraceError
from micrograd.replay.trace import Tape, outputs_of

Rows = Any  # a list of rows of numbers, or a (B, n_inputs) numpy array
Weights = Any  # None (1 for every row), a number, or one per row


class Program:
    """A traced function of (parameters, one row of inputs), replayed on many rows.

    `prog(rows)` gives each row's values; `prog.value_and_grad(rows, weights)` also the gradient
    (the module's docstring says exactly of what). The parameters' numbers are read from their
    Values on every call, unless `params` passes them: `theta = prog.pull()` is this program's
    own vector of them, to train in place (optimizer.step_arrays(theta, grads) on the numpy back
    end), and `prog.push()` writes it back into the Values."""

    backend = ""  # each back end's name: "numpy", "python" or "eager"

    def __init__(self, tape: Tape, fn: Callable[..., Any], params: Sequence[Value]) -> None:
        self.tape, self.fn, self.params = tape, fn, list(params)
        self.n_inputs = tape.n_inputs
        self.n_outputs = len(tape.outputs)
        self.theta: Any = [p.data for p in self.params]  # each back end keeps its own kind

    def __call__(self, rows: Rows, params: Any = None) -> Any:
        """Each row's value (for several outputs, a tuple or row of them); `params` replaces the
        numbers of the parameters' Values."""
        raise NotImplementedError

    def value_and_grad(
        self, rows: Rows, weights: Weights = None, params: Any = None, input_grads: bool = False
    ) -> tuple[Any, Any, Any]:
        """(values, gradient of sum_b weights[b] * f(row b) w.r.t. the parameters, w.r.t. each
        row's inputs or None), f the first output. Weights default to 1 (1 / len(rows) for a
        mean); input grads come only with `input_grads=True`."""
        raise NotImplementedError

    def pull(self) -> Any:
        """Read the parameters' Values into this program's vector `theta` (in place: it stays the
        same object) and return it."""
        self.theta[:] = [p.data for p in self.params]
        return self.theta

    def push(self, grads: Any = None) -> None:
        """Write `theta` into the parameters' Values (.data), and `grads` into their .grad."""
        for p, x in zip(self.params, _floats(self.theta)):
            p.data = x
        if grads is not None:
            for p, g in zip(self.params, _floats(grads)):
                p.grad = g

    def check(self, rows: Rows, count: int = 3, rtol: float = 1e-9) -> None:
        """Run fn eagerly on the first `count` rows; TraceError where the replay disagrees there
        (the sign of control flow on data, which tracing froze)."""
        picked = [[float(x) for x in row] for row in list(rows)[:count]]
        replayed = self(picked)
        for i, row in enumerate(picked):
            eager = [o.data for o in outputs_of(self.fn(*map(Value, row)))]
            got = _floats(replayed[i]) if self.n_outputs > 1 else [float(replayed[i])]
            if not all(abs(e - g) <= rtol * max(1.0, abs(e)) for e, g in zip(eager, got)):
                raise TraceError(
                    f"row {i}: eager evaluation gives {eager}, the traced replay {got}; the "
                    "function probably branches on data, which tracing cannot capture"
                )


def _floats(x: Any) -> list[float]:
    """A vector (a list, a tuple, or a numpy array) as a list of floats."""
    return [float(v) for v in (x.tolist() if hasattr(x, "tolist") else x)]


# ---------------------------------------------------------------------------- for back ends on lists
def rows_of(rows: Rows, n_inputs: int) -> list[tuple[float, ...]]:
    """The rows as tuples of floats (as Value() makes them), each of n_inputs numbers."""
    table = [tuple(map(float, r)) for r in rows]
    for i, r in enumerate(table):
        if len(r) != n_inputs:
            raise ValueError(f"row {i} has {len(r)} numbers, expected {n_inputs}")
    return table


def seeds_of(weights: Weights, n_rows: int) -> list[float]:
    """Each row's weight: 1, one number for every row, or one per row."""
    if weights is None or isinstance(weights, (int, float)):
        return [1.0 if weights is None else float(weights)] * n_rows
    seeds = [float(w) for w in weights]
    if len(seeds) != n_rows:
        raise ValueError(f"weights must be a number or one per row ({n_rows}), got {len(seeds)}")
    return seeds


def numbers_of(params: Any, values: Sequence[Value]) -> list[float]:
    """The parameters' numbers: `params` (one per Value), or the Values' own."""
    numbers = [p.data for p in values] if params is None else _floats(params)
    if len(numbers) != len(values):
        raise ValueError(f"params has {len(numbers)} numbers, expected {len(values)}")
    return numbers


@contextlib.contextmanager
def holding(params: Sequence[Value], numbers: Any) -> Iterator[None]:
    """Inside the block, the parameters' Values hold `numbers` (None: their own), and their
    grads start at 0; both are put back after."""
    held = [(p.data, p.grad) for p in params]
    try:
        for p, x in zip(params, [d for d, _ in held] if numbers is None else _floats(numbers)):
            p.data, p.grad = x, 0
        yield
    finally:
        for p, (data, grad) in zip(params, held):
            p.data, p.grad = data, grad
