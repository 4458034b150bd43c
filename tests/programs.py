"""Random expression programs with shared subexpressions, run by micrograd and by PyTorch alike.

A program is a list of steps (op, i, j): each step's inputs are earlier results, so results are
reused (shared subexpressions) and the graph is a DAG, not a tree. Every op is defined on all reals.
"""

import math

from hypothesis import strategies as st

# name -> (arity, function of two operands that works on Values and on torch tensors)
OPS = {
    "add": (2, lambda a, b: a + b),
    "sub": (2, lambda a, b: a - b),
    "mul": (2, lambda a, b: a * b),
    "div": (2, lambda a, b: a / (1.5 + b * b)),  # never divides by zero
    "tanh": (1, lambda a, b: a.tanh()),
    "sigmoid": (1, lambda a, b: a.sigmoid()),
    "relu": (1, lambda a, b: a.relu()),
    "square": (1, lambda a, b: a**2),
    "cube": (1, lambda a, b: a**3),
    "exp": (1, lambda a, b: (a.tanh() * 2).exp()),  # bounded exponent
    "log": (1, lambda a, b: (a * a + 0.5).log()),  # positive argument
    "pow": (2, lambda a, b: (a * a + 0.5) ** b.tanh()),  # positive base, Value exponent
    "rsub": (1, lambda a, b: 1 - a),
    "scale": (1, lambda a, b: 0.5 * a),
}


@st.composite
def programs(draw, max_inputs=4, max_steps=14):
    n = draw(st.integers(1, max_inputs))
    xs = draw(
        st.lists(
            st.floats(-2.0, 2.0, allow_nan=False).filter(lambda x: abs(x) > 1e-3),
            min_size=n,
            max_size=n,
        )
    )
    steps = []
    for k in range(draw(st.integers(1, max_steps))):
        op = draw(st.sampled_from(sorted(OPS)))
        i = draw(st.integers(0, n + k - 1))
        j = draw(st.integers(0, n + k - 1))
        steps.append((op, i, j))
    return xs, steps


def run(program_steps, inputs):
    """Run the steps on `inputs` (Values or tensors); the output is the sum of every result, so
    every step matters."""
    vals = list(inputs)
    for op, i, j in program_steps:
        vals.append(OPS[op][1](vals[i], vals[j]))
    out = vals[len(inputs)]
    for v in vals[len(inputs) + 1 :]:
        out = out + v
    return out


def near_kink(program_steps, xs):
    """True if some relu input is within 1e-6 of 0, where the derivative is ill-defined."""
    from micrograd import Value

    vals = [Value(x) for x in xs]
    for op, i, j in program_steps:
        if op == "relu" and abs(vals[i].data) < 1e-6:
            return True
        vals.append(OPS[op][1](vals[i], vals[j]))
    return not all(math.isfinite(v.data) for v in vals)
