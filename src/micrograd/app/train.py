"""Training a classifier on 2-D toy data: the loop behind `micrograd demo`, `micrograd train` and
both playgrounds (the local server's and the site's).

Binary tasks train one output with the original demo's hinge loss (labels -1/+1); tasks with more
classes train one output per class with softmax cross-entropy. Both add 1e-4 * L2 regularisation.
One sample's loss is traced once and replayed on the batch by a back end of micrograd.replay:
"numpy" (whole batches at once), "python" (the standard library only: the browser site trains
with it) or "eager" (the engine itself, per sample); "auto" is numpy where it is installed, else
python. All give the eager engine's numbers (python bit for bit, numpy to rounding).

The Trainer and fit() train any Task: the Classifier here, and the GPT's next-token task
(micrograd.app.gpt.NextToken), on the same back ends.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from micrograd import replay
from micrograd.data import Images
from micrograd.engine import Value
from micrograd.losses import cross_entropy_one
from micrograd.nn import MLP
from micrograd.optim import Optimizer
from micrograd.replay import Program
from micrograd.tuning import SMALL_PRODUCT, one_blas_thread, tuned

SCORED = 10_000  # points scored at once on the numpy back end


@dataclass
class Classifier:
    """An MLP, the loss that trains it, and how it predicts a class. Its methods take the back
    end to compute with (micrograd.replay; "auto" by default) and, optionally, the parameters'
    numbers (a Trainer's vector: a numpy array), which are read from the model's Values
    otherwise."""

    model: MLP
    classes: int
    reg: float = 1e-4
    dtype: str = "float64"  # of the numpy back end's arrays (float32: faster, to ~1e-5)
    _programs: dict[tuple[str, str], Program] = field(default_factory=dict, repr=False)
    _traced: MLP | None = field(default=None, repr=False)  # the model the programs are of
    monitors_batch = False  # a Trainer's accuracy() measures the training set by default

    @property
    def binary(self) -> bool:
        """True when one output separates two classes by its sign."""
        return self.classes == 2

    def sample_loss(self, *row: Value) -> Value:
        """The loss of one sample; `row` is its features, then its target(s)."""
        nin = self.model.sizes[0]
        x, target = list(row[:nin]), list(row[nin:])
        out = self.model(x)
        if self.binary:
            assert isinstance(out, Value)
            return (1 + -target[0] * out).relu()  # hinge: the target is -1 or +1
        assert isinstance(out, list)
        return cross_entropy_one(out, target)  # the target is one-hot

    def outputs(self, *x: Value) -> list[Value]:
        """The model's outputs for one point, as a list."""
        out = self.model(list(x))
        return out if isinstance(out, list) else [out]

    def largest_product(self, rows: int) -> int:
        """The step's largest matrix product: the widest layer's weights times the rows."""
        sizes = self.model.sizes
        return max(a * b for a, b in zip(sizes, sizes[1:])) * rows

    def monitored(
        self, X: Sequence[Sequence[float]], y: Sequence[int], backend: str = "auto"
    ) -> tuple[Any, Sequence[int]]:
        """(X, y) as accuracy() reads it fastest: on numpy the points by column, as the replay
        reads them."""
        if replay.which(backend) != "numpy":
            return X, y
        import numpy as np

        return np.asfortranarray(X, dtype=self.dtype), y

    def rows(self, X: Sequence[Sequence[float]], y: Sequence[int]) -> list[list[float]]:
        """Features followed by the target encoding, one row per sample."""
        if self.binary:
            return [[*x, 2.0 * c - 1.0] for x, c in zip(X, y)]
        return [[*x, *(1.0 if k == c else 0.0 for k in range(self.classes))] for x, c in zip(X, y)]

    def program(self, kind: str, backend: str = "auto") -> Program:
        """The traced `sample_loss` (kind "loss") or `outputs` ("outputs"), compiled by `backend`;
        traced once, and again when the model is another."""
        if self._traced is not self.model:
            self._programs.clear()
            self._traced = self.model
        backend = replay.which(backend)
        key = (kind, backend)
        if key not in self._programs:
            nin = self.model.sizes[0]
            fn, width = (
                (self.sample_loss, nin + (1 if self.binary else self.classes))
                if kind == "loss"
                else (self.outputs, nin)
            )
            dtype = self.dtype if backend == "numpy" else None
            params = self.model.parameters()
            self._programs[key] = replay.compile(fn, params, width, backend=backend, dtype=dtype)
        return self._programs[key]

    def batch(self, X: Sequence[Sequence[float]], y: Sequence[int], backend: str = "auto") -> Any:
        """The rows (Classifier.rows) in the form `backend` replays: lists, or for numpy one array
        (for Images, compact rows that make the float array of a batch when it is picked)."""
        if replay.which(backend) != "numpy":
            return self.rows(X, y)
        import numpy as np

        if isinstance(X, Images):
            targets = np.asarray(self.rows([[]] * len(y), y), dtype=self.dtype)
            return ImageRows(X, targets, self.dtype)
        return np.asarray(self.rows(X, y), dtype=self.dtype)

    def loss_and_grad(
        self, rows: Any, params: Any = None, backend: str = "auto"
    ) -> tuple[float, Any]:
        """Mean loss over `rows` (Classifier.rows, or batch()'s) plus L2, and its gradient with
        respect to the parameters (a list, or an array on the numpy back end)."""
        program = self.program("loss", backend)
        theta = program.pull() if params is None else params
        losses, grads, _ = program.value_and_grad(rows, 1.0 / len(rows), theta)
        mean = sum(losses) / len(rows) if isinstance(losses, list) else float(losses.mean())
        # L2 in closed form: reg * |theta|^2, gradient 2 * reg * theta
        reg = self.reg
        if isinstance(grads, list):
            l2 = reg * sum(x * x for x in theta)
            return mean + l2, [g + 2 * reg * x for g, x in zip(grads, theta)]
        grads += (2 * reg) * theta
        return mean + reg * float(theta @ theta), grads

    def _scores(self, X: Sequence[Sequence[float]], params: Any, backend: str) -> Any:
        """The outputs for each point: an (N, outputs) array on the numpy back end (in pieces of
        SCORED points, so that Images are never a float array all at once), else lists."""
        program = self.program("outputs", backend)
        if program.backend != "numpy":
            values = program(X, params)
            return [list(v) if program.n_outputs > 1 else [v] for v in values]
        import numpy as np

        parts = [
            program(np.asarray(X[start : start + SCORED], dtype=self.dtype), params).reshape(
                min(SCORED, len(X) - start), -1
            )
            for start in range(0, len(X), SCORED)
        ]
        return np.concatenate(parts) if len(parts) != 1 else parts[0]

    def scores(
        self, X: Sequence[Sequence[float]], params: Any = None, backend: str = "auto"
    ) -> list[list[float]]:
        """The model's outputs for each point."""
        if len(X) == 0:
            return []
        scores = self._scores(X, params, backend)
        return scores if isinstance(scores, list) else scores.tolist()

    def predict(
        self, X: Sequence[Sequence[float]], params: Any = None, backend: str = "auto"
    ) -> list[int]:
        """The predicted class of each point."""
        if len(X) == 0:
            return []
        scores = self._scores(X, params, backend)
        if not isinstance(scores, list):  # numpy's array: at once
            picked = (scores[:, 0] > 0) if self.binary else scores.argmax(axis=1)
            return picked.astype(int).tolist()
        if self.binary:
            return [int(s[0] > 0) for s in scores]
        return [max(range(self.classes), key=s.__getitem__) for s in scores]

    def accuracy(
        self,
        X: Sequence[Sequence[float]],
        y: Sequence[int],
        params: Any = None,
        backend: str = "auto",
    ) -> float:
        """The fraction of points classified correctly."""
        if len(y) == 0:
            return float("nan")
        return sum(p == t for p, t in zip(self.predict(X, params, backend), y)) / len(y)


class ImageRows:
    """Training rows of a data set of Images: the pixels stay bytes, and `rows[idx]` makes the
    float rows (pixels, then targets) of the picked samples only."""

    def __init__(self, images: Images, targets: Any, dtype: Any) -> None:
        self.images, self.targets, self.dtype = images, targets, dtype

    def __len__(self) -> int:
        return len(self.targets)

    def __getitem__(self, idx: Any) -> Any:
        import numpy as np

        picked = self.images.take(idx).astype(self.dtype, copy=False)
        return np.concatenate([picked, self.targets[idx]], axis=1)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        import numpy as np

        rows = self[np.arange(len(self))]
        return rows if dtype is None else rows.astype(dtype, copy=False)


class Task(Protocol):
    """What a Trainer trains: a model, the rows its data become, and the loss of a minibatch of
    them with its gradient on a back end of micrograd.replay. Classifier is the MLP's task (X
    points, y classes); micrograd.app.gpt.NextToken is the GPT's (X documents, y None: the
    targets are each document's next tokens)."""

    monitors_batch: bool  # True: without a monitor, accuracy() measures the last minibatch

    def batch(self, X: Any, y: Any, backend: str = "auto") -> Any:
        """The training rows, in the form loss_and_grad() takes on `backend`."""
        ...

    def program(self, kind: str, backend: str = "auto") -> Program:
        """A compiled program of the task on `backend`: a Trainer reads and writes the
        parameters' numbers through it (pull, push) and the gradient is in its params' order."""
        ...

    def loss_and_grad(
        self, rows: Any, params: Any = None, backend: str = "auto"
    ) -> tuple[float, Any]:
        """The minibatch's loss and its gradient (in the order of program()'s params)."""
        ...

    def accuracy(self, X: Any, y: Any, params: Any = None, backend: str = "auto") -> float:
        """The fraction of what the model predicts on (X, y) that is right."""
        ...

    def monitored(self, X: Any, y: Any, backend: str = "auto") -> tuple[Any, Any]:
        """(X, y) in the form accuracy() reads fastest on `backend`: made once, read each step."""
        ...

    def largest_product(self, rows: int) -> int:
        """The size of the step's largest matrix product for `rows` rows (see Trainer.threads)."""
        ...


class Trainer:
    """One training run: the task (a Classifier, or a NextToken for the GPT), the optimizer and
    its state, the minibatches, and the step, on one back end of micrograd.replay. fit(), the
    command line, both playgrounds, the GPT's training and the benchmarks all train through it.

    Minibatches of `batch_size` rows are drawn at random (seeded), or with `in_order` taken in
    turn from the start, as microgpt takes its documents; with None or 0 a step takes them all.

    Where the back end keeps the parameters in one array (numpy) and the optimizer's update is
    its rule (any of micrograd.optim's), the numbers live in that array while training, and the
    optimizer updates it in place (Optimizer.step_arrays): nothing is copied between the array
    and the Values per step, and `sync()` writes them into the model's Values (and the
    optimizer's state back to lists) when something outside reads the model. Otherwise each
    step writes the gradient into the Values' grads and calls optimizer.step()."""

    def __init__(
        self,
        task: Task,
        X: Sequence[Any],
        y: Sequence[int] | None,
        optimizer: Optimizer,
        batch_size: int | None = None,
        seed: int = 0,
        scheduler: Any = None,
        monitor: tuple[Sequence[Any], Sequence[int] | None] | None = None,
        backend: str = "auto",
        in_order: bool = False,
    ) -> None:
        if batch_size is not None and (
            isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 0
        ):
            raise ValueError(
                f"Trainer: batch_size must be an integer >= 0 (0 or None: all rows), got "
                f"{batch_size!r}"
            )
        self.task, self.optimizer, self.scheduler = task, optimizer, scheduler
        self.backend = replay.which(backend)
        self.batch_size, self.in_order, self.taken = batch_size, in_order, 0
        self.rng = random.Random(seed)
        self.rows = task.batch(X, y, self.backend)
        self.picked: Any = self.rows
        # where accuracy() measures: the monitor, else the training set (or the last minibatch)
        if monitor is None and not task.monitors_batch:
            monitor = (X, y)
        self.monitor = None if monitor is None else task.monitored(*monitor, self.backend)
        self.program = task.program("loss", self.backend)  # traced now
        arrays = self.program.backend == "numpy" and type(optimizer).step is Optimizer.step
        self.theta = self.program.pull() if arrays else None  # the numbers, while they live here
        self.grad: Any = None
        self.synced = True

    def _minibatch(self) -> Any:
        """The rows of the next step."""
        size, n = self.batch_size, len(self.rows)
        if not size or size >= n:
            return self.rows
        if self.in_order:
            idx = [(self.taken + i) % n for i in range(size)]
            self.taken = (self.taken + size) % n
        else:
            idx = self.rng.sample(range(n), size)
        return [self.rows[i] for i in idx] if isinstance(self.rows, list) else self.rows[idx]

    def step(self) -> float:
        """One optimizer step on a minibatch (or the whole set); the loss before it. A loss that
        is not a number raises FloatingPointError before any parameter moves."""
        self.picked = self._minibatch()
        loss, grad = self.task.loss_and_grad(self.picked, self.theta, self.backend)
        _finite(loss)
        if self.theta is not None:
            self.optimizer.step_arrays(self.theta, grad)
            self.grad, self.synced = grad, False
        else:
            for p, g in zip(self.program.params, grad if isinstance(grad, list) else grad.tolist()):
                p.grad = g
            self.optimizer.step()
        if self.scheduler is not None:
            self.scheduler.step()
        return loss

    def scores(self, X: Sequence[Sequence[float]]) -> list[list[float]]:
        """A Classifier's outputs for each point, as trained so far."""
        assert isinstance(self.task, Classifier), "scores are a Classifier's"
        return self.task.scores(X, self.theta, self.backend)

    def accuracy(self) -> float:
        """The fraction right on the monitored rows (or the last minibatch), as trained so far."""
        X, y = self.monitor if self.monitor is not None else (self.picked, None)
        return self.task.accuracy(X, y, self.theta, self.backend)

    def threads(self) -> Any:
        """The block to train in: numpy's BLAS on one thread where the step's largest matrix
        product is small (micrograd.tuning.SMALL_PRODUCT), else as configured."""
        if self.backend != "numpy":
            return contextlib.nullcontext()
        batch = min(self.batch_size or len(self.rows), len(self.rows))
        small = self.task.largest_product(batch) < SMALL_PRODUCT
        return one_blas_thread() if small else contextlib.nullcontext()

    def sync(self) -> None:
        """Write the trained numbers into the model's Values and the optimizer's state to lists,
        if they changed since the last sync (where they live in an array; otherwise the steps
        train the Values themselves)."""
        if not self.synced:
            self.program.push(self.grad)
            self.optimizer.state_to_lists()
            self.synced = True


def _finite(loss: float) -> None:
    if not math.isfinite(loss):
        raise FloatingPointError(f"the loss is {loss}")


def fit(
    task: Task,
    X: Sequence[Any],
    y: Sequence[int] | None,
    optimizer: Optimizer,
    steps: int,
    batch_size: int | None = None,
    seed: int = 0,
    scheduler: Any = None,
    on_step: Callable[[int, float, float], None] | None = None,
    monitor: tuple[Sequence[Any], Sequence[int] | None] | None = None,
    backend: str = "auto",
    in_order: bool = False,
) -> list[tuple[float, float]]:
    """Train `task` (a Classifier on points X with classes y, or a NextToken on documents X,
    y=None) for `steps` steps, full batch or minibatches (random, or `in_order`), on `backend`
    (micrograd.replay: "auto", "numpy", "python" or "eager"); returns (loss, accuracy) per step.
    `on_step(step, loss, accuracy)` is called after each step, with the model as trained so far
    (it may save it or ask the task anything). The accuracy of each step is measured after it on
    `monitor` (X, y); without one, a Classifier's on the training set, a NextToken's on the
    step's own documents (the fraction of their next tokens ranked first). A loss that is not a
    number stops training with FloatingPointError; the model then holds the last step's
    numbers."""
    trainer = Trainer(
        task, X, y, optimizer, batch_size, seed, scheduler, monitor, backend, in_order
    )
    history = []
    try:
        with tuned(), trainer.threads():  # fewer full GCs; BLAS on one thread for small models
            for step in range(steps):
                loss = trainer.step()
                acc = trainer.accuracy()
                history.append((loss, acc))
                if on_step is not None:
                    trainer.sync()  # the callback sees the model as trained so far
                    on_step(step, loss, acc)
    finally:  # also when a step fails: the Values hold the numbers of the last full step
        trainer.sync()
    return history
