"""Neural-network building blocks made of Values: Module, Neuron, Layer, MLP.

Compatible with the original micrograd: same constructors, same use of Python's `random` (so
`random.seed(1337)` reproduces a run), and `MLP(...)(x)` returns a bare Value when it has one output.
The GPT that learners read next is built from the same Values and Modules in micrograd.gpt.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Sequence
from typing import Any, Union

from micrograd.engine import Value

Input = Sequence[Union[Value, float]]

ACTIVATIONS = ("relu", "tanh", "sigmoid", "linear")


class Module:
    """Base class: anything with parameters that can be zeroed, listed, saved and loaded."""

    def named_parameters(self) -> list[tuple[str, Value]]:
        """(dotted name, Value) for every parameter, in a fixed order."""
        return []

    def parameters(self) -> list[Value]:
        """Every parameter Value, in the order of named_parameters()."""
        return [p for _, p in self.named_parameters()]

    def zero_grad(self) -> None:
        """Set every parameter's grad to 0 (gradients accumulate across backward calls)."""
        for p in self.parameters():
            p.grad = 0  # an int, as the original: a parameter then prints grad=0

    def state_dict(self) -> dict[str, float]:
        """Parameter values by name: plain floats, ready for JSON."""
        return {name: p.data for name, p in self.named_parameters()}

    def load_state_dict(self, state: dict[str, float]) -> None:
        """Copy values from `state` into the parameters; on any mismatch raise and change nothing."""
        values = _checked_state(self, state)  # raises before anything is changed
        for name, p in self.named_parameters():
            p.data = values[name]


def _check_param(name: str, x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError(f"parameter {name!r}: expected a number, got {x!r}")
    try:
        value = float(x)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        shown = repr(x) if len(repr(x)) < 40 else repr(x)[:40] + "..."
        raise ValueError(f"parameter {name!r}: expected a finite number, got {shown}")
    return value


def _checked_state(model: Module, state: Any) -> dict[str, float]:
    """`state` checked against the model's parameters: same names, finite numbers. Raises
    ValueError naming the first problem; nothing is changed."""
    if not isinstance(state, dict):
        raise ValueError(
            f"a state dict must be a dict of name -> number, got {type(state).__name__}"
        )
    names = [n for n, _ in model.named_parameters()]
    known = set(names)
    missing = [n for n in names if n not in state]
    extra = [n for n in state if n not in known]
    if missing or extra:
        raise ValueError(
            f"state does not fit {getattr(model, 'spec', type(model).__name__)}: missing {missing[:5]}{'...' if len(missing) > 5 else ''}, "
            f"unexpected {extra[:5]}{'...' if len(extra) > 5 else ''}"
        )
    return {n: _check_param(n, state[n]) for n in names}


def _activate(x: Value, activation: str) -> Value:
    if activation == "relu":
        return x.relu()
    if activation == "tanh":
        return x.tanh()
    if activation == "sigmoid":
        return x.sigmoid()
    return x


def _check_activation(activation: str) -> str:
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, got {activation!r}")
    return activation


class Neuron(Module):
    """w . x + b, then an activation (ReLU by default, as in the original)."""

    def __init__(self, nin: int, nonlin: bool = True, activation: str = "relu") -> None:
        if not isinstance(nin, int) or nin < 1:
            raise ValueError(f"Neuron: nin must be a positive integer, got {nin!r}")
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)
        self.activation = _check_activation(activation) if nonlin else "linear"

    @property
    def nonlin(self) -> bool:
        """True when the neuron applies an activation (the original's flag)."""
        return self.activation != "linear"

    def __call__(self, x: Input) -> Value:
        if len(x) != len(self.w):
            raise ValueError(f"Neuron expects {len(self.w)} inputs, got {len(x)}: {x!r}")
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)  # the original's line
        return _activate(act, self.activation)

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [(f"w.{i}", w) for i, w in enumerate(self.w)] + [("b", self.b)]

    def parameters(self) -> list[Value]:  # the same order, without making the names each step
        return [*self.w, self.b]

    def __repr__(self) -> str:
        if self.activation in ("relu", "linear"):  # the original's neurons print as it prints them
            return f"{'ReLU' if self.activation == 'relu' else 'Linear'}Neuron({len(self.w)})"
        return f"Neuron({len(self.w)}, activation={self.activation!r})"


class Layer(Module):
    """`nout` neurons that all read the same inputs."""

    def __init__(self, nin: int, nout: int, nonlin: bool = True, activation: str = "relu") -> None:
        if not isinstance(nout, int) or nout < 1:
            raise ValueError(f"Layer: nout must be a positive integer, got {nout!r}")
        self.neurons = [Neuron(nin, nonlin=nonlin, activation=activation) for _ in range(nout)]

    def forward(self, x: Input) -> list[Value]:
        """The outputs as a list, whatever their number."""
        return [n(x) for n in self.neurons]

    def __call__(self, x: Input) -> Value | list[Value]:
        out = self.forward(x)
        return out[0] if len(out) == 1 else out  # the original's convention

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [
            (f"neurons.{i}.{name}", p)
            for i, n in enumerate(self.neurons)
            for name, p in n.named_parameters()
        ]

    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        n = self.neurons[0]
        if n.activation in ("relu", "linear"):
            return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"  # the original's text
        return f"Layer({len(n.w)}, {len(self.neurons)}, activation={n.activation!r})"


class MLP(Module):
    """A multi-layer perceptron: activation on every hidden layer, a linear last layer."""

    def __init__(self, nin: int, nouts: Sequence[int], activation: str = "relu") -> None:
        if isinstance(nouts, (int, str)) or not isinstance(nouts, Sequence):
            raise TypeError(
                f"MLP: nouts must be a list of layer sizes like [16, 16, 1], got {nouts!r}"
            )
        if not nouts:
            raise ValueError("MLP needs at least one layer size in nouts")
        sizes = [nin, *nouts]
        self.activation = _check_activation(activation)
        self.layers = [
            Layer(sizes[i], sizes[i + 1], nonlin=i != len(nouts) - 1, activation=activation)
            for i in range(len(nouts))
        ]

    @property
    def sizes(self) -> list[int]:
        """[nin, *nouts]: the width of each layer's input and of the output."""
        return [len(self.layers[0].neurons[0].w)] + [len(layer.neurons) for layer in self.layers]

    def __call__(self, x: Input) -> Value | list[Value]:
        out = self.layers[0].forward(x)
        for layer in self.layers[1:]:
            out = layer.forward(out)  # always a list inside, so a width-1 hidden layer works
        return out[0] if len(out) == 1 else out

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [
            (f"layers.{i}.{name}", p)
            for i, layer in enumerate(self.layers)
            for name, p in layer.named_parameters()
        ]

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        if self.activation == "relu":  # built with the original's arguments: its text
            return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
        return self.spec

    @property
    def spec(self) -> str:
        """The call that builds this architecture, e.g. "MLP(2, [16, 16, 1], activation='relu')"."""
        s = self.sizes
        return f"MLP({s[0]}, {s[1:]}, activation={self.activation!r})"
