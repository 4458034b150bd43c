"""Training: the loop behind `micrograd demo`, `micrograd train`, both playgrounds (the local
server's and the site's) and the GPT's training.

A Trainer trains any Task (micrograd.app.tasks: the MLP's Classifier, the GPT's NextToken) with
an optimizer, in minibatches, on a back end of micrograd.replay that it holds as an object (a
Backend): "numpy" (whole batches at once), "python" (the standard library only: the browser site
trains with it) or "eager" (the engine itself, per sample); "auto" is numpy where it is installed,
else python. All give the eager engine's numbers (python bit for bit, numpy to rounding). fit()
runs a Trainer for a number of steps; train_gpt() is microgpt's training loop on one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from micrograd import replay
from micrograd.app.tasks import BackendLike, Classifier, NextToken
from micrograd.data import CharTokenizer
from micrograd.gpt import GPT
from micrograd.optim import Adam, LinearLR, Optimizer
from micrograd.replay import Backend, Program
from micrograd.tuning import tuned

# microgpt's recipe: Adam with these betas and eps, the learning rate decaying linearly to 0
LEARNING_RATE = 0.01
BETAS = (0.85, 0.99)
EPS = 1e-8


class Task(Protocol):
    """What a Trainer trains: a model, the rows its data become, and the loss of a minibatch of
    them with its gradient on a back end of micrograd.replay (the Trainer passes its Backend).
    micrograd.app.tasks has the MLP's Classifier (X points, y classes) and the GPT's NextToken
    (X documents, y None: the targets are each document's next tokens)."""

    monitors_batch: bool  # True: without a monitor, accuracy() measures the last minibatch

    def batch(self, X: Any, y: Any, backend: BackendLike = "auto") -> Any:
        """The training rows, in the form loss_and_grad() takes on `backend`."""
        ...

    def program(self, kind: str, backend: BackendLike = "auto") -> Program:
        """A compiled program of the task on `backend`: a Trainer reads and writes the
        parameters' numbers through it (pull, push) and the gradient is in its params' order."""
        ...

    def loss_and_grad(
        self, rows: Any, params: Any = None, backend: BackendLike = "auto"
    ) -> tuple[float, Any]:
        """The minibatch's loss and its gradient (in the order of program()'s params)."""
        ...

    def accuracy(self, X: Any, y: Any, params: Any = None, backend: BackendLike = "auto") -> float:
        """The fraction of what the model predicts on (X, y) that is right."""
        ...

    def monitored(self, X: Any, y: Any, backend: BackendLike = "auto") -> tuple[Any, Any]:
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
        backend: BackendLike = "auto",
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
        self.backend: Backend = replay.backend(backend)
        self.batch_size, self.in_order, self.taken = batch_size, in_order, 0
        self.rng = random.Random(seed)
        self.rows = task.batch(X, y, self.backend)
        self.picked: Any = self.rows
        # where accuracy() measures: the monitor, else the training set (or the last minibatch)
        if monitor is None and not task.monitors_batch:
            monitor = (X, y)
        self.monitor = None if monitor is None else task.monitored(*monitor, self.backend)
        self.program = task.program("loss", self.backend)  # traced now
        arrays = self.backend.arrays and type(optimizer).step is Optimizer.step
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
        """One optimizer step on a minibatch (or the whole set); the loss before it. A loss or a
        gradient that is not a number raises FloatingPointError before any parameter moves."""
        self.picked = self._minibatch()
        loss, grad = self.task.loss_and_grad(self.picked, self.theta, self.backend)
        _finite(loss)
        _finite_grad(grad)
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
        """The block to train in, as the back end runs a step of this size (numpy: BLAS on one
        thread where the step's largest matrix product is small, micrograd.tuning.SMALL_PRODUCT)."""
        batch = min(self.batch_size or len(self.rows), len(self.rows))
        return self.backend.threads(self.task.largest_product(batch))

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


def _finite_grad(grad: Any) -> None:
    """A FloatingPointError naming the first parameter whose gradient is not a number: an inf or
    nan on the way that an op made finite again leaves the loss a number and the step nan."""
    if isinstance(grad, list):
        bad = next((i for i, g in enumerate(grad) if not math.isfinite(g)), None)
    else:  # an array (numpy is loaded): its own test, fast at any size
        import numpy as np

        wrong = np.flatnonzero(~np.isfinite(grad))
        bad = int(wrong[0]) if wrong.size else None
    if bad is not None:
        raise FloatingPointError(f"the gradient of parameter {bad} is {float(grad[bad])}")


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
    backend: BackendLike = "auto",
    in_order: bool = False,
) -> list[tuple[float, float]]:
    """Train `task` (a Classifier on points X with classes y, or a NextToken on documents X,
    y=None) for `steps` steps, full batch or minibatches (random, or `in_order`), on `backend`
    (a micrograd.replay Backend or its name: "auto", "numpy", "python" or "eager"); returns (loss, accuracy) per step.
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


def train_gpt(
    model: GPT,
    tokenizer: CharTokenizer,
    docs: Sequence[str],
    steps: int,
    lr: float = LEARNING_RATE,
    on_step: Callable[[int, float], None] | None = None,
    backend: BackendLike = "eager",
) -> list[float]:
    """microgpt's training loop on `docs`, in order (docs[step % len(docs)]): the loss of one
    document a step, backward, an Adam step at lr * (1 - step / steps), by a Trainer of the
    NextToken task on `backend` ("eager" builds each step's graph of Values; "numpy", "python"
    or "auto" replay a CompiledStep: micrograd.app.tasks). Returns each step's loss; a loss that
    is not a number stops it with FloatingPointError."""
    optimizer = Adam(model.parameters(), lr=lr, betas=BETAS, eps=EPS)
    schedule = LinearLR(optimizer, start_factor=1.0, end_factor=0.0, total_iters=steps)
    task = NextToken(model, tokenizer)
    trainer = Trainer(
        task, docs, None, optimizer, 1, scheduler=schedule, backend=backend, in_order=True
    )
    losses = []
    try:
        with tuned(), trainer.threads():  # fewer full GCs; BLAS threads as the back end says
            for step in range(steps):
                losses.append(trainer.step())
                if on_step is not None:
                    on_step(step, losses[-1])
    finally:  # the trained numbers back into the model's Values
        trainer.sync()
    return losses
