"""The fast path: trace a scalar function once, then replay it on whole batches with numpy.

    prog = trace(lambda x0, x1, y: (1 - y * model([x0, x1])).relu(), model.parameters(), 3)
    losses, param_grads, _ = prog.value_and_grad(batch, 1 / len(batch))  # batch: (B, 3) array

The parameters are read from their Values on every call; to train a large model, keep them in the
program's array instead: `theta = prog.pull()`, then `value_and_grad(batch, w, params=theta)` and
`optimizer.step_arrays(theta, grads)` each step, and `prog.push()` at the end writes them back.
The inputs' gradients (B, n_inputs) come only with `input_grads=True`.

Tracing runs the function once on Values and keeps the graph. Replaying evaluates that same graph
for B samples at once, forward and backward, with the rules of `micrograd.engine.OPS` applied to
numpy arrays. Three compilation steps make it fast: chains of "+" become one n-ary sum; sums of the
shape a neuron makes (bias + w1*x1 + ... with parameters w) become, layer by layer, one matrix
product; and all remaining nodes of the same depth and op run as one numpy operation. The results
equal the eager engine's to rounding (~1e-16 relative: a matrix product adds in another order, and
numpy's exp/tanh may differ from Python's in the last bit).

The rule of tracing: the graph is recorded for the sample it was traced with, so Python control
flow that depends on data (`if x > 0`, `max(a, b)`, `if x:`) cannot be captured. Comparisons and
bool() of a Value raise TraceError while tracing (float() of a Value always raises TypeError);
reading `.data` cannot be detected, so do not branch on it. Use ops instead (`relu`, `tanh`...).
`Compiled.check(batch)` re-runs samples eagerly and raises TraceError where the replay disagrees.

Needs numpy (`pip install micrograd-plus[fast]`).
"""

try:
    import numpy  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("micrograd.fast needs numpy: pip install 'micrograd-plus[fast]'") from e

from micrograd.fast.replay import Compiled, trace
from micrograd.modes import TraceError

__all__ = ["Compiled", "TraceError", "trace"]
