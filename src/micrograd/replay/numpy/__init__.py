"""The numpy back end: a tape replayed on whole batches at once, forward and backward.

Three compilation passes make it fast (replay.arrays, which `micrograd bridge` prints): chains of
"+" become one n-ary sum; sums of the shape a neuron makes (bias + w1*x1 + ... with parameters w)
become, layer by layer, one matrix product; and all remaining nodes of the same depth and op run
as one numpy operation (made by replay.numpy.plan, defined in replay.numpy.groups), with the
rules of micrograd.engine.OPS applied to arrays. replay.numpy.run runs them. Needs numpy (`pip install micrograd-plus[fast]`).
"""

try:
    import numpy  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("the numpy back end needs numpy: pip install 'micrograd-plus[fast]'") from e

from micrograd.replay.numpy.run import NumpyProgram

__all__ = ["NumpyProgram"]
