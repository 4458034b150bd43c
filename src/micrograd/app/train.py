"""Training a classifier on 2-D toy data: the loop behind `micrograd demo` and `micrograd train`.

Binary tasks train one output with the original demo's hinge loss (labels -1/+1); tasks with more
classes train one output per class with softmax cross-entropy. Both add 1e-4 * L2 regularisation.
The loss and its gradients come from the fast path (micrograd.fast) when numpy is installed, else
from the eager engine; both give the same numbers to rounding.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from micrograd.data import Images
from micrograd.engine import Value
from micrograd.losses import cross_entropy_one, l2
from micrograd.nn import MLP
from micrograd.optim import Optimizer
from micrograd.tuning import SMALL_PRODUCT, one_blas_thread, tuned

try:
    import numpy as np

    from micrograd.fast import Compiled, trace
except ImportError:  # pragma: no cover - the eager engine does the work without numpy
    np = None  # type: ignore[assignment]


@dataclass
class Classifier:
    """An MLP, the loss that trains it, and how it predicts a class."""

    model: MLP
    classes: int
    reg: float = 1e-4
    fast: bool = True
    dtype: str = "float64"  # of the fast path's arrays (float32: faster, to ~1e-5)
    _trainer: FastTrainer | None = field(default=None, repr=False)

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

    def rows(self, X: Sequence[Sequence[float]], y: Sequence[int]) -> list[list[float]]:
        """Features followed by the target encoding, one row per sample."""
        if self.binary:
            return [[*x, 2.0 * c - 1.0] for x, c in zip(X, y)]
        return [[*x, *(1.0 if k == c else 0.0 for k in range(self.classes))] for x, c in zip(X, y)]

    def uses_fast_path(self) -> bool:
        """Whether loss_and_grad and scores run on the fast path (numpy installed, fast=True)."""
        return self.fast and np is not None

    def trainer(self) -> FastTrainer:
        """The array trainer behind the fast path, its parameter array refreshed from the model's
        Values; made again when the model changed since."""
        if self._trainer is None or self._trainer.model is not self.model:
            self._trainer = FastTrainer(self, self.dtype)
        trainer = self._trainer
        trainer.theta[...] = [p.data for p in trainer.params]
        return trainer

    def loss_and_grad(self, rows: Sequence[Sequence[float]]) -> float:
        """Mean loss over `rows` plus regularisation; leaves d loss / d p in each parameter's grad."""
        if self.uses_fast_path():
            trainer = self.trainer()
            total, grad = trainer.loss_and_grad(trainer.as_rows(rows))
            for p, g in zip(trainer.params, grad.tolist()):
                p.grad = g
            return total
        params = self.model.parameters()
        losses = [self.sample_loss(*map(Value, r)) for r in rows]
        loss = sum(losses, Value(0.0)) * (1.0 / len(losses)) + self.reg * l2(params)
        self.model.zero_grad()
        loss.backward()
        return loss.data

    def scores(self, X: Sequence[Sequence[float]]) -> list[list[float]]:
        """The model's outputs for each point."""
        if self.uses_fast_path() and len(X) > 0:
            return self.trainer().scores(X).tolist()  # type: ignore[no-any-return,unused-ignore]
        result = []
        for x in X:
            out = self.model(list(x))
            result.append([out.data] if isinstance(out, Value) else [o.data for o in out])
        return result

    def predict(self, X: Sequence[Sequence[float]]) -> list[int]:
        """The predicted class of each point."""
        if self.binary:
            return [int(s[0] > 0) for s in self.scores(X)]
        return [max(range(self.classes), key=s.__getitem__) for s in self.scores(X)]

    def accuracy(self, X: Sequence[Sequence[float]], y: Sequence[int]) -> float:
        """The fraction of points classified correctly."""
        if not y:
            return float("nan")
        return sum(p == t for p, t in zip(self.predict(X), y)) / len(y)


def _listed(out: Value | list[Value]) -> list[Value]:
    return out if isinstance(out, list) else [out]


SCORED = 10_000  # points scored at once by FastTrainer.scores


class ImageRows:
    """Training rows of a data set of Images: the pixels stay bytes, and `rows[idx]` makes the
    float rows (pixels, then targets) of the picked samples only."""

    def __init__(self, images: Images, targets: Any, dtype: Any) -> None:
        self.images, self.targets, self.dtype = images, targets, dtype

    def __len__(self) -> int:
        return len(self.targets)

    def __getitem__(self, idx: Any) -> Any:
        picked = self.images.take(idx).astype(self.dtype, copy=False)
        return np.concatenate([picked, self.targets[idx]], axis=1)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        rows = self[np.arange(len(self))]
        return rows if dtype is None else rows.astype(dtype, copy=False)


class FastTrainer:
    """A Classifier trained on the fast path with its parameters in one numpy array, `theta`: the
    loss and gradients come from the traced program replayed with `theta`, L2 in closed form
    (reg * theta @ theta, gradient 2 * reg * theta), and the optimizer updates the array
    (Optimizer.step_arrays). `sync()` writes the numbers back into the model's Values; fit() calls
    it when it returns, so model.parameters() then shows the trained numbers.

    `dtype` float64 (the default) gives the eager engine's numbers to ~1e-12; float32 runs about
    twice as fast on large batches and agrees with float64 to ~1e-5."""

    def __init__(self, clf: Classifier, dtype: str = "float64") -> None:
        if np is None:
            raise ImportError("FastTrainer needs numpy: pip install 'micrograd-plus[fast]'")
        self.clf, self.model = clf, clf.model  # the model whose parameters theta holds
        self.params = clf.model.parameters()
        self.dtype = np.dtype(dtype)
        self.theta = np.fromiter((p.data for p in self.params), self.dtype, len(self.params))
        self.grad = np.zeros_like(self.theta)
        self._programs: dict[str, Compiled] = {}

    def _program(self, key: str, fn: Callable[..., Any], width: int) -> Compiled:
        if key not in self._programs:
            self._programs[key] = trace(fn, self.params, width, dtype=self.dtype)
        return self._programs[key]

    def rows(self, X: Sequence[Sequence[float]], y: Sequence[int]) -> Any:
        """The samples as one array: features, then the target encoding (Classifier.rows). For
        Images (MNIST), compact rows that make the float array of a batch when it is picked."""
        if isinstance(X, Images):
            return ImageRows(X, self.as_rows(self.clf.rows([[]] * len(y), y)), self.dtype)
        return self.as_rows(self.clf.rows(X, y))

    def as_rows(self, rows: Any) -> Any:
        """Rows (features, then targets) as an array of this trainer's dtype."""
        return np.asarray(rows, dtype=self.dtype)

    def loss_and_grad(self, rows: Any) -> tuple[float, Any]:
        """Mean loss over `rows` (an array from rows()) plus L2, and its gradient (an array)."""
        rows = self.as_rows(rows)
        program = self._program(f"loss{rows.shape[1]}", self.clf.sample_loss, rows.shape[1])
        losses, grad, _ = program.value_and_grad(rows, 1.0 / len(rows), self.theta, False)
        reg = self.clf.reg
        grad += (2 * reg) * self.theta  # a new array each call: added to in place
        self.grad = grad
        return float(losses.mean()) + reg * float(self.theta @ self.theta), grad

    def scores(self, X: Any) -> Any:
        """The model's outputs for each point, shape (N, outputs); in pieces of SCORED points,
        so that a large data set kept compact (Images) is never a float array all at once."""
        model = self.model
        parts = []
        for start in range(0, len(X), SCORED):
            batch = np.asarray(X[start : start + SCORED], dtype=self.dtype)
            program = self._program("outputs", lambda *x: _listed(model(list(x))), batch.shape[1])
            parts.append(program(batch, self.theta))
        return np.concatenate(parts) if len(parts) != 1 else parts[0]

    def accuracy(self, X: Any, y: Sequence[int]) -> float:
        """The fraction of points classified correctly."""
        if len(y) == 0:
            return float("nan")
        s = self.scores(X)
        predicted = (s[:, 0] > 0).astype(int) if self.clf.binary else s.argmax(axis=1)
        return float((predicted == np.asarray(y)).mean())

    def sync(self) -> None:
        """Write theta and the last gradient into the model's Values (.data and .grad)."""
        for p, x, g in zip(self.params, self.theta.tolist(), self.grad.tolist()):
            p.data, p.grad = x, g


class Trainer:
    """One training run: the parameters (in an array on the fast path, in the model's Values
    otherwise), the optimizer and its state, the minibatches, and the step. fit(), the command
    line, the playground and the benchmarks all train through it.

    On the fast path the numbers live in the FastTrainer's array while training, and nothing is
    copied between the array and the Values per step; `sync()` writes them into the model's Values
    (and the optimizer's state back to lists) when something outside reads the model."""

    def __init__(
        self,
        clf: Classifier,
        X: Sequence[Sequence[float]],
        y: Sequence[int],
        optimizer: Optimizer,
        batch_size: int | None = None,
        seed: int = 0,
        scheduler: Any = None,
        monitor: tuple[Sequence[Sequence[float]], Sequence[int]] | None = None,
    ) -> None:
        self.clf, self.optimizer, self.scheduler = clf, optimizer, scheduler
        self.batch_size = batch_size
        self.rng = random.Random(seed)
        # the array trainer needs an optimizer whose update is its rule (any of micrograd.optim's);
        # one with a step() of its own updates the Values, on the Classifier's path
        arrays = clf.uses_fast_path() and type(optimizer).step is Optimizer.step
        self.fast = clf.trainer() if arrays else None
        self.rows: Any = self.fast.rows(X, y) if self.fast else clf.rows(X, y)
        X_acc, y_acc = monitor or (X, y)  # where accuracy() measures, by default the training set
        self.monitor: tuple[Any, Any] = (X_acc, y_acc)  # (points, labels)
        if self.fast:  # arrays made once; the points by column, as the replay reads them (a copy
            # of rows, not a transpose, on every accuracy())
            self.monitor = (np.asfortranarray(X_acc, dtype=float), np.asarray(y_acc))
        self.synced = True

    def step(self) -> float:
        """One optimizer step on a minibatch (or the whole set); the loss before it. A loss that
        is not a number raises FloatingPointError before any parameter moves."""
        picked = self.rows
        size = self.batch_size
        if size and size < len(self.rows):
            idx = self.rng.sample(range(len(self.rows)), size)
            picked = self.rows[idx] if self.fast else [self.rows[i] for i in idx]
        if self.fast:
            loss, grad = self.fast.loss_and_grad(picked)
            _finite(loss)
            self.optimizer.step_arrays(self.fast.theta, grad)
            self.synced = False
        else:
            loss = self.clf.loss_and_grad(picked)
            _finite(loss)
            self.optimizer.step()
        if self.scheduler is not None:
            self.scheduler.step()
        return loss

    def scores(self, X: Sequence[Sequence[float]]) -> list[list[float]]:
        """The model's outputs for each point, as trained so far."""
        if self.fast:
            scores: list[list[float]] = self.fast.scores(np.asarray(X, dtype=float)).tolist()
            return scores
        return self.clf.scores(X)

    def accuracy(self) -> float:
        """The fraction of the monitored points classified correctly, as trained so far."""
        X, y = self.monitor
        if self.fast:
            return self.fast.accuracy(X, y)
        return self.clf.accuracy(X, y)

    def threads(self) -> Any:
        """The block to train in: numpy's BLAS on one thread where the step's largest matrix
        product is small (micrograd.tuning.SMALL_PRODUCT), else as configured."""
        if not self.fast:
            return contextlib.nullcontext()
        sizes = self.clf.model.sizes
        batch = min(self.batch_size or len(self.rows), len(self.rows))
        largest = max(a * b for a, b in zip(sizes, sizes[1:])) * batch
        return one_blas_thread() if largest < SMALL_PRODUCT else contextlib.nullcontext()

    def sync(self) -> None:
        """Write the trained numbers into the model's Values and the optimizer's state to lists,
        if they changed since the last sync (on the fast path; the other path trains the Values)."""
        if self.fast and not self.synced:
            self.fast.sync()
            self.optimizer.state_to_lists()
            self.synced = True


def _finite(loss: float) -> None:
    if not math.isfinite(loss):
        raise FloatingPointError(f"the loss is {loss}")


def fit(
    clf: Classifier,
    X: Sequence[Sequence[float]],
    y: Sequence[int],
    optimizer: Optimizer,
    steps: int,
    batch_size: int | None = None,
    seed: int = 0,
    scheduler: Any = None,
    on_step: Callable[[int, float, float], None] | None = None,
    monitor: tuple[Sequence[Sequence[float]], Sequence[int]] | None = None,
) -> list[tuple[float, float]]:
    """Train for `steps` steps on (X, y), full batch or random minibatches; returns (loss, train
    accuracy) per step. `on_step(step, loss, accuracy)` is called after each step, with the model
    as trained so far (it may save it or ask the Classifier anything). The accuracy of each step
    is measured on `monitor` (X, y), by default the training set. A loss that is not a number
    stops training with FloatingPointError; the model then holds the last step's numbers."""
    trainer = Trainer(clf, X, y, optimizer, batch_size, seed, scheduler, monitor)
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
