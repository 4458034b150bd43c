"""The back ends as objects: what training code asks of one, answered by the back end itself.

A Trainer, a task or a command holds a Backend and asks it; nothing outside replay/ compares a
back end's name. A Backend compiles a traced function into its Program and says in which form its
programs read rows and give results (lists, or numpy arrays), whether they replay a tape or run
the function on Values, and on how many BLAS threads to run a step. `backend(name_or_object)`
finds one: "auto" is numpy where it is installed, else python.

A new back end is a subclass here (or anywhere: `fit(..., backend=MyBackend())` takes the object)
and, to be chosen by name on the command line, its entry in BACKENDS. tests/test_replay.py adds
one that replays on torch tensors and trains the demo's model through the Trainer.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Callable, Sequence
from typing import Any

from micrograd.engine import Value
from micrograd.replay.program import Program
from micrograd.replay.trace import Tape, trace
from micrograd.tuning import SMALL_PRODUCT, one_blas_thread


class Backend:
    """A back end of micrograd.replay (this base: programs on lists of rows, no options)."""

    name = ""
    arrays = False  # rows, values and gradients are numpy arrays (else lists of floats)
    replays = True  # a traced tape is replayed (False: the function runs on Values, row by row)
    # What a call of a program costs, in rows of a batch: where fewer rows than this need a
    # shorter program, they run padded in a longer one the batch calls anyway (CompiledStep).
    # 1 here: a call costs nothing beside its rows.
    call_rows = 1

    def program(
        self, tape: Tape, fn: Callable[..., Any], params: Sequence[Value], options: dict[str, Any]
    ) -> Program:
        """The tape compiled by this back end; `options` are compile()'s options of its own."""
        raise NotImplementedError

    def compile(
        self,
        fn: Callable[..., Value | Sequence[Value]],
        params: Sequence[Value],
        n_inputs: int,
        example: Sequence[float] | None = None,
        **options: Any,
    ) -> Program:
        """Trace `fn` once and compile it (micrograd.replay.compile, with this back end's options:
        an option this back end does not have is an error)."""
        for option, value in options.items():
            if value is not None and option not in self.options():
                owner = [b.name for b in BACKENDS.values() if option in b.options()] or ["no"]
                raise ValueError(
                    f"{option} is an option of the {owner[0]} back end, not of {self.name}"
                )
        return self.program(trace(fn, params, n_inputs, example), fn, params, options)

    def options(self) -> tuple[str, ...]:
        """The names of compile()'s options that this back end takes."""
        return ()

    def table(self, rows: Sequence[Sequence[float]], dtype: Any = None) -> Any:
        """Rows of numbers (one sample each) in the form this back end's programs read."""
        return rows

    def sparse_table(
        self, n_cols: int, rows: Sequence[tuple[list[int], list[float]]], dtype: Any = None
    ) -> Any:
        """Rows of `n_cols` numbers, each zero but in its given columns (columns, numbers), in
        the form this back end's programs read: one-hot rows, given by where they are not 0."""
        table = [[0.0] * n_cols for _ in rows]
        for row, (columns, numbers) in zip(table, rows):
            for c, x in zip(columns, numbers):
                row[c] = x
        return table

    def scored(self, X: Sequence[Sequence[float]], dtype: Any = None) -> Any:
        """Points kept to be scored again and again (a monitor), in the form read fastest."""
        return X

    def threads(self, product: int) -> Any:
        """The block to run steps in, for a step whose largest matrix product has `product`
        multiply-adds (this base: as configured)."""
        return contextlib.nullcontext()

    def __repr__(self) -> str:
        return f"<micrograd.replay back end {self.name!r}>"


class Numpy(Backend):
    """Whole batches at once on numpy arrays (replay.numpy); options: dtype (float64, float32)."""

    name = "numpy"
    arrays = True
    # microgpt's GPT, one thread: batches of 8, 30 and 100 names took 1.48, 4.61 and 7.40 ms a
    # step with 16, against 2.30, 5.54 and 8.88 with a call for every length, and 1.49, 4.45
    # and 14.9 with one call for the whole batch
    call_rows = 16

    def program(
        self, tape: Tape, fn: Callable[..., Any], params: Sequence[Value], options: dict[str, Any]
    ) -> Program:
        from micrograd.replay.numpy import NumpyProgram  # imports numpy: only when used

        return NumpyProgram(tape, fn, params, options.get("dtype"))

    def options(self) -> tuple[str, ...]:
        return ("dtype",)

    def table(self, rows: Sequence[Sequence[float]], dtype: Any = None) -> Any:
        import numpy as np

        return np.asarray(rows, dtype=dtype or "float64")

    def sparse_table(
        self, n_cols: int, rows: Sequence[tuple[list[int], list[float]]], dtype: Any = None
    ) -> Any:
        import numpy as np

        # every entry in one assignment: converting lists of mostly zeros took 0.17 ms for
        # microgpt's 21 rows of 363 numbers, this 0.07 ms for 30 rows
        table = np.zeros((len(rows), n_cols), dtype=dtype or "float64")
        at = [r for r, (columns, _) in enumerate(rows) for _ in columns]
        table[at, [c for columns, _ in rows for c in columns]] = [x for _, xs in rows for x in xs]
        return table

    def scored(self, X: Sequence[Sequence[float]], dtype: Any = None) -> Any:
        import numpy as np

        return np.asfortranarray(X, dtype=dtype or "float64")  # the replay reads by column

    def threads(self, product: int) -> Any:
        # one BLAS thread where the products are small: more cost more than they save, and stall
        # a step on a busy machine (micrograd.tuning.SMALL_PRODUCT)
        return one_blas_thread() if product < SMALL_PRODUCT else contextlib.nullcontext()


class Python(Backend):
    """The tape written out as Python over floats (replay.python); option: fold (True)."""

    name = "python"

    def program(
        self, tape: Tape, fn: Callable[..., Any], params: Sequence[Value], options: dict[str, Any]
    ) -> Program:
        from micrograd.replay.python import PythonProgram

        fold = options.get("fold")
        return PythonProgram(tape, fn, params, True if fold is None else fold)

    def options(self) -> tuple[str, ...]:
        return ("fold",)


class Eager(Backend):
    """The function itself on Values for each row, and backward() (replay.eager): the oracle."""

    name = "eager"
    replays = False

    def program(
        self, tape: Tape, fn: Callable[..., Any], params: Sequence[Value], options: dict[str, Any]
    ) -> Program:
        from micrograd.replay.eager import EagerProgram

        return EagerProgram(tape, fn, params)


BACKENDS: dict[str, Backend] = {b.name: b for b in (Numpy(), Python(), Eager())}


def backend(choice: str | Backend = "auto") -> Backend:
    """The back end `choice` names (or is): "auto" is numpy where it is installed, else python."""
    if isinstance(choice, Backend):
        return choice
    if choice == "auto":
        choice = "numpy" if importlib.util.find_spec("numpy") is not None else "python"
    if choice not in BACKENDS:
        raise ValueError(f"backend must be 'auto' or one of {list(BACKENDS)}, got {choice!r}")
    return BACKENDS[choice]
