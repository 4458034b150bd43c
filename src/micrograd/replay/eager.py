"""The eager back end: the function itself run on Values for every row, and backward().

This is what every back end's numbers mean (replay.program): for each row, fn on fresh Values,
then (weights[b] * its first output).backward(), the parameters' grads adding up row after row.
It replays no tape: it runs fn again, so it follows branches on data that a tape froze
(Program.check compares a replay with it), and a Value fn reads that is not a parameter is read
as it is now, not as it was traced; as backward() does, it adds into the grads of those Values
too. The slowest back end, and the one that needs nothing but the engine.
"""

from __future__ import annotations

from typing import Any

from micrograd.engine import Value
from micrograd.modes import enable_grad, no_grad
from micrograd.replay.program import (
    Program,
    Rows,
    Weights,
    holding,
    numbers_of,
    rows_of,
    seeds_of,
)
from micrograd.replay.trace import outputs_of


class EagerProgram(Program):
    """A traced function run again, eagerly, on each row: the meaning of value_and_grad, in code."""

    backend = "eager"

    def _shown(self, out: list[Value]) -> Any:
        """A row's value, or the tuple of them for a function of several outputs."""
        return tuple(o.data for o in out) if self.n_outputs > 1 else out[0].data

    def __call__(self, rows: Rows, params: Any = None) -> list[Any]:
        """Each row's value (a tuple of them for a function of several outputs); `params`
        replaces the numbers of the parameters' Values while it runs."""
        table = rows_of(rows, self.n_inputs)
        with holding(self.params, numbers_of(params, self.params)), no_grad():
            return [self._shown(outputs_of(self.fn(*map(Value, row)))) for row in table]

    def value_and_grad(
        self, rows: Rows, weights: Weights = None, params: Any = None, input_grads: bool = False
    ) -> tuple[list[Any], list[float], list[list[float]] | None]:
        """Each row's value, the gradient of sum_b weights[b] * f(row b) w.r.t. the parameters
        (f the first output), and w.r.t. each row's inputs when `input_grads` (else None)."""
        table = rows_of(rows, self.n_inputs)
        seeds = seeds_of(weights, len(table))
        values, dx = [], []
        with holding(self.params, numbers_of(params, self.params)), enable_grad():
            for row, w in zip(table, seeds):
                xs = [Value(x) for x in row]
                out = outputs_of(self.fn(*xs))
                values.append(self._shown(out))
                (out[0] * w).backward()
                if input_grads:
                    dx.append([float(x.grad) for x in xs])
            grads = [float(p.grad) for p in self.params]
        return values, grads, dx if input_grads else None
