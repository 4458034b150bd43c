"""The torch back end: a tape as a function of tensors, each op its rule from engine.OPS run on
torch tensors (micrograd.maths.TorchMath), so that torch.autograd differentiates the very graph
micrograd built: to check a hand-built graph's gradients against PyTorch's.

    f = to_torch_fn(loss, [x, y])   # f(tx, ty) computes loss from two tensors

Needs torch (`pip install micrograd-plus[torch]`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

try:
    import torch
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "micrograd.replay.torch needs PyTorch: pip install 'micrograd-plus[torch]'"
    ) from e

from micrograd.engine import Value
from micrograd.maths import TorchMath
from micrograd.replay.trace import Tape, apply, record


def function(tape: Tape) -> Callable[..., Any]:
    """A function of one tensor per input of a tape (traced without parameters: they are inputs
    here) that computes its first output with torch ops; constants are float64 tensors of their
    traced numbers."""
    if tape.n_params:
        raise ValueError("a tape run on tensors has inputs only: pass the parameters as inputs")
    m = TorchMath(torch)

    def fn(*tensors: Any) -> Any:
        if len(tensors) != tape.n_inputs:
            raise TypeError(f"expected {tape.n_inputs} tensors, got {len(tensors)}")
        val: list[Any] = []
        for node in tape.nodes:
            if node.kind == "op":
                val.append(apply(node, m, [val[a] for a in node.args])[0])
            elif node.kind == "input":
                val.append(tensors[node.index])
            else:  # a constant
                val.append(torch.tensor(node.value, dtype=torch.float64))
        return val[tape.outputs[0]]

    return fn


def to_torch_fn(root: Value, inputs: Sequence[Value]) -> Callable[..., Any]:
    """A function of tensors, one per Value in `inputs`, that computes `root` with torch ops (the
    rules of micrograd.engine.OPS); every other leaf is a constant. torch.autograd then gives the
    gradients to check a hand-built graph against."""
    return function(record([root], [], inputs))
