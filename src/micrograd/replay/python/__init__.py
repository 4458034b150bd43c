"""The pure-Python back end: a tape written out as Python source and run on lists of floats.

The eager engine builds a graph of Value objects for every sample on every step and walks it
backwards: most of a step goes to making, ordering and freeing those objects, not to arithmetic.
Here the traced graph is written out once as Python: one function with a loop over the rows whose
body is the graph's arithmetic, forward and then the chain rule in reverse, on plain local
variables (generate.py). Each op is its rule from engine.OPS with the rule's body written in
(inline.py), so a call does only float arithmetic, and each grad's shares are added in one sum
(30-50x faster than eager on the benchmark's workloads, in CPython and in Pyodide:
benchmarks/RESULTS.md). Only the standard library: the browser site (Pyodide) and installs without numpy use it.
`PythonProgram.source` shows the code.

The numbers are the eager engine's, bit for bit (but for the sign of zeros): each row runs the
eager engine's ops, with the same rules, in the same order, and each row's grads are added to the
parameters' sums row after row, as running fn eagerly on each row and calling
`(weight * out).backward()` after each would add them (replay.eager). One backward() over the
whole batch's graph adds the rows in another order: ~1e-16 relative. Where the eager engine
raises (a log of a negative number), so does a call, naming the op and the row.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Sequence
from typing import Any

from micrograd.engine import Value
from micrograd.replay.program import (
    Program,
    Rows,
    Weights,
    holding,
    numbers_of,
    rows_of,
    seeds_of,
)
from micrograd.replay.python.generate import generate
from micrograd.replay.python.inline import release_trees
from micrograd.replay.trace import Tape


class PythonProgram(Program):
    """A tape as straight-line Python over floats, replayed on lists of rows. `fold=False` gives
    each node a statement of its own, where folding writes a sum of products (a neuron) as one
    expression: the same arithmetic."""

    backend = "python"

    def __init__(
        self, tape: Tape, fn: Callable[..., Any], params: Sequence[Value], fold: bool = True
    ) -> None:
        super().__init__(tape, fn, params)
        self.fold = fold
        self.sources: dict[str, str] = {}
        self._runs: dict[str, tuple[Callable[..., Any], tuple[float, ...]]] = {}
        self._compiled("params")  # what value_and_grad runs: compiled now, errors show now

    @property
    def source(self) -> str:
        """The Python that value_and_grad runs (parameters' grads only)."""
        return self.sources["params"]

    def _compiled(self, mode: str) -> tuple[Callable[..., Any], tuple[float, ...]]:
        """The generated function of `mode` (a key of generate.WRT) and its constants, made once."""
        if mode not in self._runs:
            source, constants, namespace = generate(self.tape, mode, self.fold)
            # in linecache, a traceback through the program shows its lines
            filename = f"<micrograd.replay.python {mode} {id(self):x}>"
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            exec(compile(source, filename, "exec"), namespace)
            self.sources[mode] = source
            self._runs[mode] = namespace["run"], constants
            release_trees()  # the rules' parsed sources: ~7,700 objects for every full GC
        return self._runs[mode]

    def __call__(self, rows: Rows, params: Any = None) -> list[Any]:
        """Each row's value (a tuple of them for a function of several outputs). `params` (a list
        of floats) replaces the numbers of the parameters' Values."""
        table, numbers = rows_of(rows, self.n_inputs), numbers_of(params, self.params)
        run, constants = self._compiled("values")
        try:
            values: list[Any] = run(numbers, constants, table)
        except (ArithmeticError, ValueError):
            self._explain(table, numbers)  # raises the eager engine's error, if it gives one
            raise
        return values

    def value_and_grad(
        self, rows: Rows, weights: Weights = None, params: Any = None, input_grads: bool = False
    ) -> tuple[list[Any], list[float], list[list[float]] | None]:
        """Each row's value, the gradient of sum_b weights[b] * f(row b) w.r.t. the parameters
        (f the first output), and w.r.t. each row's inputs when `input_grads` (else None).
        `weights`: one number for every row (1 / len(rows) for a mean) or one per row; 1 by
        default. `params` (a list of floats) replaces the numbers of the parameters' Values."""
        table, numbers = rows_of(rows, self.n_inputs), numbers_of(params, self.params)
        seeds = seeds_of(weights, len(table))
        run, constants = self._compiled("inputs" if input_grads else "params")
        try:
            values, grads, *dx = run(numbers, constants, table, seeds)
        except (ArithmeticError, ValueError):
            self._explain(table, numbers)
            raise
        return values, grads, dx[0] if input_grads else None

    def _explain(self, rows: list[tuple[float, ...]], numbers: list[float]) -> None:
        """Run the function eagerly on each row in turn, with the same parameters, and raise the
        first error, which names the op and its numbers, with the row's index."""
        with holding(self.params, numbers):
            for i, row in enumerate(rows):
                try:
                    self.fn(*map(Value, row))
                except (ArithmeticError, ValueError) as e:
                    raise type(e)(f"row {i}: {e}") from None
