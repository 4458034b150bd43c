"""Random expression programs with shared subexpressions, run by micrograd and by PyTorch alike.

A program is a list of steps (op, i, j): each step's inputs are earlier results, so results are
reused (shared subexpressions) and the graph is a DAG, not a tree. Every op is defined on all reals.
"""

import math
import os
import sys

from hypothesis import strategies as st


def examples(n: int) -> int:
    """A test's number of examples: n, or 15x as many under `python3 tasks.py fuzz`."""
    return n * 15 if os.environ.get("MICROGRAD_HYPOTHESIS_PROFILE") == "fuzz" else n


def ulps(a: float, b: float) -> float:
    """How many units in the last place a and b are apart (0 for equal numbers, nan and nan, or
    infinities of one sign; inf where only one of them is nan or infinite)."""
    if a == b or (a != a and b != b):
        return 0.0
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf
    return abs(a - b) / math.ulp(max(abs(a), abs(b)))


# a program's step kinds: name -> (arity, function of two operands, on Values and on torch tensors);
# every row of micrograd.engine.OPS itself is run everywhere by tests/test_maths.py
STEPS = {
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
        op = draw(st.sampled_from(sorted(STEPS)))
        i = draw(st.integers(0, n + k - 1))
        j = draw(st.integers(0, n + k - 1))
        steps.append((op, i, j))
    return xs, steps


@st.composite
def softmaxes(draw, max_inputs=4):
    """Softmaxes of one depth over different numbers of scores, as attention takes one over each
    position's past: (inputs, [(the scores' indices, a weight), ...]); run_softmaxes builds it."""
    n = draw(st.integers(1, max_inputs))
    xs = draw(st.lists(st.floats(-3.0, 3.0, allow_nan=False), min_size=n, max_size=n))
    scores = st.lists(st.integers(0, n - 1), min_size=1, max_size=6)  # repeats allowed
    heads = draw(st.lists(st.tuples(scores, st.floats(-2.0, 2.0)), min_size=1, max_size=6))
    return xs, heads


def run_softmaxes(heads, inputs, scale):
    """sum of weight * logsumexp(the scores), every score an input times `scale` (one depth)."""
    from micrograd.engine import Value
    from micrograd.losses import logsumexp

    scores = [x * scale for x in inputs]
    return sum((logsumexp([scores[i] for i in idx]) * w for idx, w in heads), Value(0.0))


@st.composite
def dots(draw, max_inputs=4):
    """Sums of products of computed values of one depth, as attention's q.k and its weighted
    values: (inputs, [(start, [(i, j), ...]), ...]), start None (the sum begins with a product),
    a number or an input's index; run_dots builds it."""
    n = draw(st.integers(1, max_inputs))
    xs = draw(st.lists(st.floats(-3.0, 3.0, allow_nan=False), min_size=n, max_size=n))
    index = st.integers(0, n - 1)
    pair = st.tuples(index, index)  # x * x and repeats too
    start = st.one_of(st.none(), st.floats(-2.0, 2.0), index.map(str))
    sums = []
    for begin in draw(st.lists(start, min_size=1, max_size=6)):  # one product alone is no sum
        sums.append((begin, draw(st.lists(pair, min_size=1 + (begin is None), max_size=6))))
    return xs, sums


def run_dots(sums, inputs, scale):
    """The sum of each dot product's square: every product of two inputs times `scale`, each
    sum starting at its start (a number, an input's name as a digit, or its first product)."""
    from micrograd.engine import Value

    vals = [x * scale for x in inputs]
    out = []
    for start, pairs in sums:
        products = [vals[i] * vals[j] for i, j in pairs]
        if start is None:
            out.append(sum(products[1:], products[0]))
        else:
            first = inputs[int(start)] if isinstance(start, str) else Value(start)
            out.append(sum(products, first))
    return sum((d * d for d in out), Value(0.0))


def run(program_steps, inputs):
    """Run the steps on `inputs` (Values or tensors); the output is the sum of every result, so
    every step matters."""
    vals = list(inputs)
    for op, i, j in program_steps:
        vals.append(STEPS[op][1](vals[i], vals[j]))
    out = vals[len(inputs)]
    for v in vals[len(inputs) + 1 :]:
        out = out + v
    return out


# The input of each op where the op is singular at 0: a divisor, log's and a power's argument,
# relu's kink.
SINGULAR_AT_ZERO = {"/": 1, "log": 0, "**": 0, "ReLU": 0}


def central_difference(graph, xs, i, eps, rtol=1e-4, atol=1e-4):
    """d f / d xs[i] by central differences, as (numeric, None); or (None, why) where finite
    differences cannot judge a derivative to within atol + rtol * |numeric|. `graph(ys)` builds
    f's graph on the numbers ys and returns its output Value; f is its .data.
    - "domain": f fails or is not finite within the step (a domain edge, a pole, overflow), or
      its slope is not (a / 2.23e-313: the derivative is beyond a float's range);
    - "singular": an op's input is at, or crosses within the step, the point where the op is
      singular (0 for a divisor, log, a power's base, relu's kink), however narrow the feature:
      (a*a)/(a+b) at a = 0, b = 1e-51 looks like the line y = a at the scale of the step, and
      (a - a) ** 0.5 is 0 for every a, but its base sits where sqrt has no derivative;
    - "rounding": |f| is so large that its rounding error, divided by the step, exceeds that
      tolerance (x**27 near 1.3e8 with a step of 1e-6);
    - "not smooth": the slopes on the two sides of x differ by more than the tolerance, relative to
      themselves: a kink, a jump or a pole within the step (tanh(b/a) across a = 0,
      relu(b)/b, 0**0, 1/b for b within the step of 0);
    - "no derivative": the central difference changes with the step (eps against 10 eps): the
      derivative does not exist at x, e.g. (a*a)**a at a = 0, whose slope is 2 log|a| + 2;
    - "scale": x is not 0 but smaller than the step, which then sees f at points of another
      scale: (b*b)**a at b = 2.7e-145, a = 2.2e-16 has the slope 1.7e129 there, but is flat at
      the scale of the step (0 at x = 0 itself is judged).
    Where none of these holds, f is smooth at the scale of the step, and the central difference
    must agree with the derivative, whatever computed it."""
    from micrograd.engine import topo_order

    def at(delta):
        ys = list(xs)
        ys[i] += delta
        return graph(ys)

    try:
        roots = [at(d) for d in (-10 * eps, -eps, 0.0, eps, 10 * eps)]
    except (ArithmeticError, ValueError) as e:  # ExpressionError is a ValueError
        return None, f"domain: f fails within the step ({type(e).__name__})"
    far_lo, lo, mid, hi, far_hi = [r.data for r in roots]
    if not all(math.isfinite(y) for y in (far_lo, lo, mid, hi, far_hi)):
        return None, f"domain: f is {lo!r}, {mid!r}, {hi!r} at x - eps, x, x + eps"
    for nodes in zip(*(topo_order(r) for r in roots[1:4])):  # the same graph, three points
        k = SINGULAR_AT_ZERO.get(
            nodes[0]._op[:2] if nodes[0]._op.startswith("**") else nodes[0]._op
        )
        if k is not None and len(nodes[0]._prev) > k:
            signs = {math.copysign(1, n._prev[k].data) if n._prev[k].data else 0 for n in nodes}
            if len(signs) > 1 or 0 in signs:
                return None, f"singular: the input of {nodes[0]._op!r} is or crosses 0 in the step"
    numeric = (hi - lo) / (2 * eps)
    if not math.isfinite(numeric):
        return None, f"domain: the slope {numeric!r} is beyond a float's range"
    allowed = atol + rtol * abs(numeric)
    rounding = 4 * max(abs(lo), abs(mid), abs(hi)) * sys.float_info.epsilon / eps
    if rounding > allowed / 2:
        return None, f"rounding: |f| = {abs(mid):.3g} rounds by {rounding:.3g} per step"
    left, right = (mid - lo) / eps, (hi - mid) / eps
    if abs(right - left) > allowed + rtol * max(abs(left), abs(right)) + rounding:
        return None, f"not smooth: the slopes are {left!r} left and {right!r} right of x"
    wider = (far_hi - far_lo) / (20 * eps)
    if abs(wider - numeric) > allowed + rounding:
        return None, f"no derivative: the slope is {numeric!r} over eps, {wider!r} over 10 eps"
    if 0 < abs(xs[i]) < 10 * eps:
        return None, f"scale: |x| = {abs(xs[i]):.3g} is within the step {10 * eps:.3g}"
    return numeric, None


def near_kink(program_steps, xs):
    """True if some relu input is within 1e-6 of 0, where the derivative is ill-defined."""
    from micrograd import Value

    vals = [Value(x) for x in xs]
    for op, i, j in program_steps:
        if op == "relu" and abs(vals[i].data) < 1e-6:
            return True
        vals.append(STEPS[op][1](vals[i], vals[j]))
    return not all(math.isfinite(v.data) for v in vals)


# ---------------------------------------------------------------------------- replaced rules
def _doubled_mul(m, a, b):
    """A different `*` (2ab). Its locals are written with +, since on Values (create_graph) a `*`
    in them would be this rule again."""
    return a * b + a * b, (b + b, a + a)


def _doubled_tanh(m, a):
    """A different `tanh` (2 tanh a), written with exp so that it does not call itself."""
    t = 1 - 2 / (m.exp(2 * a) + 1)
    return 2 * t, (2 * (1 - t * t),)


# op name -> (a rule to put in its row of OPS, a function of two Values that uses the op)
DOUBLED = {
    "*": (_doubled_mul, lambda a, b: a * b),
    "tanh": (_doubled_tanh, lambda a, b: a.tanh() * b),
}


def with_doubled_row(monkeypatch, name, xs=(0.3, -1.7)):
    """Replace the row `name` of OPS by its DOUBLED rule (until the test ends): the function that
    uses the op, and its value and gradient at `xs` by the eager engine under the new row (the
    engine reads OPS on every op)."""
    from micrograd.engine import OPS

    rule, f = DOUBLED[name]
    monkeypatch.setitem(OPS, name, rule)
    return (f, *value_and_grads(f, list(xs)))


def value_and_grads(f, xs):
    """f(*xs) and its gradient, by the eager engine."""
    from micrograd import Value

    vs = [Value(x) for x in xs]
    out = f(*vs)
    out.backward()
    return out.data, [v.grad for v in vs]
