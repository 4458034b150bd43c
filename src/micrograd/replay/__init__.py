"""Trace a function of Values once, then replay it fast on many rows: one tracer, several back ends.

    from micrograd import replay
    prog = replay.compile(lambda x0, x1, t: (1 + -t * model([x0, x1])).relu(), model.parameters(), 3)
    losses, param_grads, _ = prog.value_and_grad(rows, 1 / len(rows))  # rows: [[x0, x1, t], ...]

`compile` runs the function once on Values and writes down the graph it built as a tape
(replay.trace), then hands the tape to a back end:

- "numpy" (replay.numpy): whole batches at once, a layer one matrix product; the eager engine's
  numbers to ~1e-16. Needs numpy; rows may be a (B, n_inputs) array, results are arrays.
- "python" (replay.python): the tape written out as Python source over floats; the eager
  engine's numbers bit for bit, about 30x faster than it. Only the standard library (the
  browser site runs it in Pyodide); results are lists.
- "eager" (replay.eager): the function itself run on Values for each row, and backward(): what
  the other two compute, and how slowly the engine alone computes it.
- "auto": numpy where it is installed, else python.

Each is an object, a Backend (replay.backends), which the training code holds and asks what it
needs to know (whether rows are arrays, on how many threads to run); a name or a Backend is
accepted wherever a back end is chosen.

What a call means, on every back end (replay.program.Program):

    values, param_grads, input_grads = prog.value_and_grad(rows, weights=None, params=None,
                                                           input_grads=False)

- `values`: each row's output; for a function that returns several Values, all of them, per row
  (a (B, k) array, or a list of k-tuples).
- `param_grads`: the gradient of sum_b weights[b] * f(row b) with respect to `params`, where f is
  the FIRST output. So a function may return its loss and then anything else it wants to see
  (the logits, for the accuracy): only the loss is differentiated. Weights default to 1; use
  1 / len(rows) for a mean.
- `input_grads` (only with `input_grads=True`, else None): for each row, the gradient of
  weights[b] * f(row b) with respect to its inputs.
- `params` replaces the numbers of the parameters' Values: `theta = prog.pull()` is the
  program's own vector of them, to train in place with `value_and_grad(rows, w, params=theta)`
  and `optimizer.step_arrays(theta, grads)` (numpy), and `prog.push()` writes it back.

The rule of tracing: the graph is recorded for the sample it was traced with, so Python control
flow that depends on data (`if x > 0`, `max(a, b)`) cannot be captured; comparisons and bool() of
a Value raise TraceError while tracing. Use ops instead (relu, tanh...). `prog.check(rows)` runs
the first rows eagerly and raises TraceError where the replay disagrees.

Numbers that are not finite: eager and the python replay raise where an op is undefined (a
division by zero, exp overflowing, log of a number <= 0). The numpy replay computes with IEEE 754
infs and nans and raises FloatingPointError only for an output that is not finite, so an inf or nan
in between that a later op makes finite passes (1 / (p / 0) is 0.0, and the row's gradient may be
nan): the Trainer stops a step whose loss or gradient is not finite, and check() finds the op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from micrograd.engine import Value
from micrograd.modes import TraceError
from micrograd.replay import backends
from micrograd.replay.backends import BACKENDS, Backend, backend
from micrograd.replay.program import Program
from micrograd.replay.trace import Tape, trace

__all__ = ["BACKENDS", "Backend", "Program", "Tape", "TraceError", "backend", "compile", "trace"]


def compile(
    fn: Callable[..., Value | Sequence[Value]],
    params: Sequence[Value],
    n_inputs: int,
    example: Sequence[float] | None = None,
    backend: str | Backend = "auto",
    dtype: Any = None,
    fold: bool | None = None,
) -> Program:
    """Trace `fn(*inputs)` (n_inputs Values; it returns a Value or a list of them) once and return
    it compiled by `backend` (a name, or a Backend), for rows of n_inputs numbers.

    `params` are the leaf Values fn reads whose gradients value_and_grad gives (such as
    model.parameters()); any other Value fn reads is frozen as a constant. `example` gives the
    inputs' numbers for the trace (any will do without branches). Options of one back end:
    `dtype` (numpy) float64, the default, or float32 (about twice as fast at large sizes, to
    ~1e-5); `fold` (python) False gives each node a statement of its own."""
    chosen = backends.backend(backend)
    return chosen.compile(fn, params, n_inputs, example, dtype=dtype, fold=fold)
