"""Optimizers with PyTorch's update rules and defaults: SGD (momentum, weight decay), Adam, AdamW,
and a linear learning-rate schedule (the original demo decays lr from 1.0 to 0.1).

Each optimizer writes its update once, as `rule(xp, data, grad, *state)`: `step()` applies it to each
parameter's floats, and `step_arrays()` to all of them at once as numpy arrays (the fast path's
training loop keeps the parameters in one array: micrograd.app.train.Trainer on the numpy back end).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import repeat
from typing import Any

from micrograd.engine import Value


def _numpy() -> Any:
    """numpy, imported when step_arrays() first runs: step() and `import micrograd` need none."""
    import numpy

    return numpy


class _Floats:
    """The math of a rule on one parameter's floats."""

    sqrt = staticmethod(math.sqrt)

    @staticmethod
    def div(a: float, b: float) -> float:
        return a / b if b else math.nan  # 0/0: nan, as in PyTorch, not ZeroDivisionError


class _Arrays:
    """The math of a rule on arrays of all the parameters."""

    @staticmethod
    def sqrt(x: Any) -> Any:
        return _numpy().sqrt(x)

    @staticmethod
    def div(a: Any, b: Any) -> Any:
        np = _numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(b != 0, a / np.where(b != 0, b, 1.0), np.nan)


class Optimizer:
    """Holds the parameters; `step()` updates their .data from their .grad."""

    state: tuple[str, ...] = ()  # names of the per-parameter state lists (Adam: "m", "v")

    def __init__(self, params: Iterable[Value], lr: float) -> None:
        self.params = list(params)
        if not self.params:
            raise ValueError(f"{type(self).__name__}: got an empty list of parameters")
        for p in self.params:
            if not isinstance(p, Value):
                raise TypeError(f"{type(self).__name__}: parameters must be Values, got {p!r}")
        if not (isinstance(lr, (int, float)) and lr >= 0 and math.isfinite(lr)):
            raise ValueError(f"{type(self).__name__}: lr must be a finite number >= 0, got {lr!r}")
        self.lr = float(lr)

    def zero_grad(self) -> None:
        """Set every parameter's grad to 0."""
        for p in self.params:
            p.grad = 0  # as Module.zero_grad() and the original

    def rule(self, xp: Any, data: Any, grad: Any, *state: Any) -> tuple[Any, ...]:
        """The update of parameters (floats or arrays): (new data, *new state)."""
        raise NotImplementedError

    def begin_step(self) -> None:
        """What changes once per step, before the parameters are updated (Adam's step count)."""

    def step(self) -> None:
        """Update every parameter once, from its .grad."""
        self.begin_step()
        self.state_to_lists()  # after step_arrays, the state is arrays
        params = self.params
        data, grads = [p.data for p in params], [p.grad for p in params]
        lists = [getattr(self, name) for name in self.state]
        # the rule on each parameter's floats in turn, through map: each state list is passed
        # whole, not gathered per parameter (for Adam on 4,192 parameters, half the time)
        updated = list(map(self.rule, repeat(_Floats), data, grads, *lists))
        for p, new in zip(params, updated):
            p.data = new[0]
        for k, name in enumerate(self.state, 1):
            setattr(self, name, [new[k] for new in updated])

    def step_arrays(self, data: Any, grad: Any) -> None:
        """The same update on all parameters at once: `data` and `grad` are arrays in the order of
        the parameters; `data` is updated in place. The state is kept as arrays until step() or
        state_to_lists() turns it back into lists."""
        self.begin_step()
        state = [self._as_array(name, data.dtype) for name in self.state]
        data[...], *new = self.rule(_Arrays, data, grad, *state)
        for name, x in zip(self.state, new):
            setattr(self, name, x)

    def _as_array(self, name: str, dtype: Any) -> Any:
        np = _numpy()
        value = getattr(self, name)
        if value is None or isinstance(value, np.ndarray):
            return value
        if all(x is None for x in value):  # SGD's momentum buffers before the first step
            return None
        return np.array(value, dtype=dtype)

    def state_to_lists(self) -> None:
        """Per-parameter state as lists of floats again (after step_arrays), as step() keeps it."""
        for name in self.state:
            value = getattr(self, name)
            if value is None:
                setattr(self, name, [None] * len(self.params))
            elif not isinstance(value, list):  # an array of step_arrays()
                setattr(self, name, value.tolist())


class SGD(Optimizer):
    """p -= lr * g, with optional momentum (PyTorch's form: the buffer starts at the first grad),
    dampening, Nesterov momentum, and weight decay (g += weight_decay * p)."""

    def __init__(
        self,
        params: Iterable[Value],
        lr: float = 1e-3,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
    ) -> None:
        super().__init__(params, lr)
        for name, x in [
            ("momentum", momentum),
            ("dampening", dampening),
            ("weight_decay", weight_decay),
        ]:
            if not (isinstance(x, (int, float)) and math.isfinite(x) and x >= 0):
                raise ValueError(f"SGD: {name} must be a finite number >= 0, got {x!r}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("SGD: nesterov needs momentum > 0 and dampening == 0")
        self.momentum, self.dampening = momentum, dampening
        self.weight_decay, self.nesterov = weight_decay, nesterov
        self.buffers: Any = [None] * len(self.params)

    state = ("buffers",)

    def rule(self, xp: Any, data: Any, g: Any, buf: Any) -> tuple[Any, ...]:
        if self.weight_decay:
            g = g + self.weight_decay * data
        if self.momentum:
            buf = g if buf is None else self.momentum * buf + (1 - self.dampening) * g
            g = g + self.momentum * buf if self.nesterov else buf
        return data - self.lr * g, buf


class Adam(Optimizer):
    """Adam with bias correction, as torch.optim.Adam: weight_decay adds weight_decay * p to g."""

    decoupled = False

    def __init__(
        self,
        params: Iterable[Value],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
    ) -> None:
        super().__init__(params, lr)
        if (
            not all(0 <= b < 1 for b in betas)
            or not (math.isfinite(eps) and eps >= 0)
            or not (math.isfinite(weight_decay) and weight_decay >= 0)
        ):
            raise ValueError(
                f"{type(self).__name__}: bad betas={betas}, eps={eps} or weight_decay={weight_decay}"
            )
        self.betas, self.eps, self.weight_decay = betas, eps, weight_decay
        self.t = 0
        self.m: Any = [0.0] * len(self.params)  # running mean of the gradient
        self.v: Any = [0.0] * len(self.params)  # running mean of its square

    state = ("m", "v")

    def begin_step(self) -> None:
        b1, b2 = self.betas
        self.t += 1
        # Bias correction: m and v start at 0, so early averages are scaled up by 1/(1 - beta^t).
        self._step_size = self.lr / (1 - b1**self.t)
        self._bias2_sqrt = math.sqrt(1 - b2**self.t)

    def rule(self, xp: Any, data: Any, g: Any, m: Any, v: Any) -> tuple[Any, ...]:
        b1, b2 = self.betas
        if self.weight_decay:
            if self.decoupled:  # AdamW: shrink the weight itself, apart from the gradient
                data = data * (1 - self.lr * self.weight_decay)
            else:
                g = g + self.weight_decay * data
        m = m + (1 - b1) * (g - m)
        v = b2 * v + (1 - b2) * g * g
        denom = xp.sqrt(v) / self._bias2_sqrt + self.eps
        # with eps = 0 and a zero grad this is 0/0: nan, as in PyTorch, not ZeroDivisionError
        return data - xp.div(self._step_size * m, denom), m, v


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.01), as torch.optim.AdamW."""

    decoupled = True

    def __init__(
        self,
        params: Iterable[Value],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
    ) -> None:
        super().__init__(params, lr, betas, eps, weight_decay)


class LinearLR:
    """Scale the optimizer's lr linearly from start_factor to end_factor over total_iters steps
    (torch.optim.lr_scheduler.LinearLR); call step() once per optimizer step."""

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0,
        end_factor: float = 0.1,
        total_iters: int = 100,
    ) -> None:
        if not isinstance(total_iters, int) or total_iters < 1:
            raise ValueError(f"LinearLR: total_iters must be an integer >= 1, got {total_iters!r}")
        # as torch: a factor below 0 would make the lr negative, turning descent into ascent
        if not (0 < start_factor <= 1 and 0 <= end_factor <= 1):
            raise ValueError(
                f"LinearLR: need 0 < start_factor <= 1 and 0 <= end_factor <= 1, "
                f"got {start_factor!r} and {end_factor!r}"
            )
        self.optimizer, self.base_lr = optimizer, optimizer.lr
        self.start, self.end, self.total = start_factor, end_factor, total_iters
        self.t = 0
        optimizer.lr = self.base_lr * start_factor

    def step(self) -> None:
        """Advance one step and set the optimizer's lr."""
        self.t += 1
        frac = min(self.t, self.total) / self.total
        self.optimizer.lr = self.base_lr * (self.start + (self.end - self.start) * frac)
