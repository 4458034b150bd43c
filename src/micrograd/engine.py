"""The autograd engine: a scalar `Value`, each op's local rule, and `backward()`.

Read the first part of this file as the story of backpropagation, in the order the tutorial tells it:
1. a `Value` holds a number; arithmetic on Values builds a graph, and each new Value keeps its
   inputs and the local derivatives d(itself)/d(input) that its op's rule gave at that moment;
2. the rules `OPS`: each op's forward and its local derivatives, side by side;
3. `backward()`: order the graph topologically, set the output's grad to 1, then walk the order
   backwards applying the chain rule, `input.grad += local * grad`, once per edge.
What guards it (checked numbers, errors, a failed pass undone) is in micrograd.guards.

The code you read is the code that runs, on every path (a breakpoint on `Value.__mul__` or on the
rule `mul` fires, inside fit() and tuned() too). To go faster a reader would write each rule's body
into its method (benchmarks/lean is that engine): 1.35x on a training step, for an op written
twice and rules that can no longer be changed at run time. For speed, micrograd.replay traces a
step once and replays it 30x faster, in plain Python or on numpy (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable
from typing import Any, Union

from micrograd import copies, maths, modes
from micrograd.guards import NoBackward, as_float, backward_in_mode, backward_pass, op_error, read
from micrograd.maths import FloatMath, IEEEMath
from micrograd.text import text

Operand = Union["Value", int, float]


class Value:
    """A scalar in the compute graph: its data, its grad, and the op and inputs that made it."""

    # Two input slots (_a, _b) and their local derivatives (_da, _db), not tuples: a Value is one
    # object to allocate, to free and for the garbage collector to scan (a training step measured
    # 2.2x faster than with tuples; benchmarks/RESULTS.md). `_prev` gives the inputs as a tuple.
    # __dict__ holds what few Values have: a label, a hand-written _backward, extra attributes.
    __slots__ = ("data", "grad", "_a", "_b", "_da", "_db", "_op", "__dict__")
    label = ""  # a name for drawings and explain(), as in the lecture: Value(2.0, label="a")
    _k: float | None = None  # the exponent of `x ** k` for a number k: data of the node
    _rest: tuple[Value, ...] = ()  # inputs beyond two, for nodes made by hand: Value(x, (a, b, c))
    _user_backward: Callable[[], None] | None = None  # a closure set the original's way
    _where = "outside detect_anomaly()"  # the line that made it, under detect_anomaly()

    def __init__(
        self, data: float, _children: Iterable[Value] = (), _op: str = "", label: str = ""
    ) -> None:
        self.data: float = data if type(data) is float else as_float(data, "Value()")
        # an int 0 as in the original; it stays an int where only + and relu pass grads to it
        self.grad: Any = 0
        self._op = _op
        self._a: Value | None = None  # the inputs (None for a leaf)
        self._b: Value | None = None
        self._da: Any = None  # d self / d _a and d self / d _b, as the op's rule gave them
        self._db: Any = None
        if label:
            self.label = label
        if _children:  # made by hand, the original's way: Value(data, (a, b), op)
            inputs = tuple(_children)
            for x in inputs:
                if not isinstance(x, Value):
                    raise TypeError(f"Value(): inputs must be Values, got {x!r}")
            self._a, self._b = inputs[0], inputs[1] if len(inputs) > 1 else None
            if len(inputs) > 2:
                self._rest = inputs[2:]
            # its step is the closure its maker sets next (`out._backward = _backward`, as the lecture
            # writes an op); until then nothing, as the original's: its inputs' grads stay 0
            self._backward = NoBackward(_op)
            if modes.threads_in_a_mode and modes.anomaly_enabled():  # made by hand in the block
                self._where = modes.check_forward(_op, self.data, self._prev)

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"

    # ---- ops: each runs the rule of its name in OPS, which gives the output and the local
    # derivatives, and keeps both on the new Value. The rule is looked up on every call: change a
    # row of OPS and the next op runs the new rule.
    def __add__(self, other: Operand) -> Value:
        return _apply2("+", self, other)

    def __mul__(self, other: Operand) -> Value:
        return _apply2("*", self, other)

    def __truediv__(self, other: Operand) -> Value:
        return _apply2("/", self, other)

    def __pow__(self, other: Operand) -> Value:
        """self ** other. For a number k, `x ** k` is the one-input op "**k" (the original's)."""
        if isinstance(other, Value):
            return _apply2("**", self, other)
        k = as_float(other, "**")  # its node's _op is the original's name: "**2"
        return _apply1(f"**{other}" if type(other) is int else f"**{k!r}", self, "**k", k)

    def relu(self) -> Value:
        """max(0, self)."""
        return _apply1("ReLU", self)

    def tanh(self) -> Value:
        """The hyperbolic tangent."""
        return _apply1("tanh", self)

    def sigmoid(self) -> Value:
        """1 / (1 + exp(-self)), computed without overflow."""
        return _apply1("sigmoid", self)

    def exp(self) -> Value:
        """e ** self."""
        return _apply1("exp", self)

    def log(self) -> Value:
        """The natural logarithm; ValueError for self <= 0."""
        return _apply1("log", self)

    def sin(self) -> Value:
        """The sine of self (radians)."""
        return _apply1("sin", self)

    def cos(self) -> Value:
        """The cosine of self (radians)."""
        return _apply1("cos", self)

    # ---- composite ops: built from the ops above, so they need no rule of their own
    def __neg__(self) -> Value:  # -self
        return self * -1

    def __radd__(self, other: Operand) -> Value:  # other + self
        return self + other

    def __sub__(self, other: Operand) -> Value:  # self - other
        return self + (-other if isinstance(other, Value) else -as_float(other, "-"))

    def __rsub__(self, other: Operand) -> Value:  # other - self
        return -self + as_float(other, "-")

    def __rmul__(self, other: Operand) -> Value:  # other * self
        return self * other

    def __rtruediv__(self, other: Operand) -> Value:  # other / self
        return _operand(other, "/") / self

    def __rpow__(self, other: Operand) -> Value:  # other ** self
        return _operand(other, "**") ** self

    # ---- backpropagation
    def backward(self, create_graph: bool = False) -> None:
        """Set each Value's .grad to d self / d Value, by the chain rule.

        Leaves accumulate over calls, as in the original (and PyTorch with retain_graph=True): each
        contribution is added onto what the leaf held. With create_graph=True the grads are Values
        with a graph of their own, to be differentiated again."""
        if self.data != self.data:  # nan: the grads will be too; say where to look (once)
            warnings.warn(text("nan_backward", None), RuntimeWarning, stacklevel=2)
        topo = topo_order(self)  # 1. every Value, inputs before the Values made from them
        seed = Value(1.0) if create_graph else 1  # the original seeds an int 1
        with backward_pass(topo, self, seed):  # 2. inner grads start at 0, self.grad = 1
            if create_graph or modes.threads_in_a_mode:
                m = ValueMath if create_graph else None
                backward_in_mode(topo, create_graph, lambda v: _chain_rule_step(v, m))
                return
            for v in reversed(topo):  # 3. outputs before inputs: v.grad is complete when v runs
                a = v._a
                if a is None:  # a leaf: nothing to pass on
                    continue
                if v._da is None:  # no local derivatives: a closure written the original's way
                    v._backward()
                    continue
                g = v.grad
                # the chain rule: input.grad += (d v / d input) * v.grad, for each input of v.
                # relu's slope is an int; where it is 0 the unit is dead and passes nothing back,
                # even from an inf or nan upstream (0 * inf would be nan), as PyTorch's relu.
                da = v._da
                a.grad += 0.0 if da == 0 and type(da) is int and not math.isfinite(g) else da * g
                b = v._b
                if b is not None:
                    b.grad += v._db * g

    # ---- the rest of the original's API (skip on a first read): its internals as properties
    # (lecture code walks _prev and calls _backward()), comparisons, and what refuses to cut the graph
    @property
    def _prev(self) -> tuple[Value, ...]:
        """The inputs, in operand order (the original kept a set, whose order varied by run)."""
        if self._a is None:
            return ()
        if self._b is None:
            return (self._a,)
        return (self._a, self._b, *self._rest)

    @property
    def _local(self) -> tuple[Any, ...]:
        """d self / d each input, in the order of _prev, as the op's rule gave them."""
        return () if self._a is None else (self._da,) if self._b is None else (self._da, self._db)

    @property
    def _backward(self) -> Callable[[], None]:
        """This node's chain-rule step, as the original's closure: `node._backward()` works, and
        so does `out._backward = closure` (the lecture's way of writing an op)."""
        return self._user_backward or (lambda: _chain_rule_step(self))

    @_backward.setter
    def _backward(self, fn: Callable[[], None]) -> None:
        self._user_backward = fn
        self._da = self._db = None  # backward() runs the closure instead of the kept locals

    # ---- comparisons read .data (they have no gradient); equality stays identity, so Values hash
    def __lt__(self, other: Operand) -> bool:
        return read(self) < read(other)

    def __le__(self, other: Operand) -> bool:
        return read(self) <= read(other)

    def __gt__(self, other: Operand) -> bool:
        return read(self) > read(other)

    def __ge__(self, other: Operand) -> bool:
        return read(self) >= read(other)

    def __bool__(self) -> bool:
        # `if v:` is True for any Value, as in the original; while tracing it is a branch on data
        if modes.threads_in_a_mode and modes.is_tracing():
            read(self)
        return True

    def __float__(self) -> float:  # math.exp(v) calls it: v.data would silently cut the graph
        raise TypeError(
            f"a Value is not a float: math functions and float() would cut the graph; use the "
            f"Value's ops (v.exp(), v.tanh(), v.log()...) or v.data for its number ({self!r})"
        )

    # ---- copies and pickles walk the graph in order (micrograd.copies): Python's own recurse once
    # per input, so a 100,000-deep graph would exceed the recursion limit
    def __copy__(self) -> Value:
        return copies.shallow(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Value:
        return copies.deep(self, memo, topo_order(self))

    def __reduce_ex__(self, protocol: Any) -> Any:
        return copies.reduce(self, protocol, topo_order)


# ---------------------------------------------------------------------------- the local rules
# Each rule takes a namespace `m` of elementary functions and the inputs' numbers, and returns the
# output and d output / d each input. The same rule runs on floats (m = FloatMath), on Values
# (m = ValueMath, for grads of grads), on numpy arrays (micrograd.replay.numpy) and on torch tensors
# (micrograd.export): the functions a rule may call are the contract micrograd.maths.Math. Locals
# of + and relu are ints, so grads stay ints where the original's do. A new op: docs/development.md.


def add(m: Any, a: Any, b: Any) -> tuple[Any, tuple[Any, ...]]:
    """a + b: d/da = 1, d/db = 1."""
    return a + b, (1, 1)


def mul(m: Any, a: Any, b: Any) -> tuple[Any, tuple[Any, ...]]:
    """a * b: d/da = b, d/db = a."""
    return a * b, (b, a)


def div(m: Any, a: Any, b: Any) -> tuple[Any, tuple[Any, ...]]:
    """a / b: d/da = 1/b, d/db = -a/b**2, written -out/b (no b**2 to overflow)."""
    out = a / b
    return out, (1 / b, -out / b)


def power_k(m: Any, a: Any, k: Any) -> tuple[Any, tuple[Any, ...]]:
    """a ** k for a number k: d/da = k * a**(k-1)."""
    return m.pow(a, k), (m.pow_grad_base(a, k),)


def power(m: Any, a: Any, b: Any) -> tuple[Any, tuple[Any, ...]]:
    """a ** b for a Value b: d/da = b * a**(b-1), d/db = a**b * log(a) (nan for a < 0)."""
    out = m.pow(a, b)
    return out, (m.pow_grad_base(a, b), m.pow_grad_exponent(out, a, b))


def relu(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    """max(0, a): d/da = 1 where a > 0, else 0."""
    return m.relu(a), (m.step(a),)


def tanh(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    """tanh(a): d/da = 1 - tanh(a)**2."""
    t = m.tanh(a)
    return t, (1 - t * t,)


def sigmoid(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    """s = 1 / (1 + e**-a): d/da = s * (1 - s)."""
    s = m.sigmoid(a)
    return s, (s * (1 - s),)


def exp(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    """e**a is its own derivative."""
    e = m.exp(a)
    return e, (e,)


def log(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    """log(a): d/da = 1/a."""
    return m.log(a), (1 / a,)


def sin(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    """sin(a): d/da = cos(a)."""
    return m.sin(a), (m.cos(a),)


def cos(m: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
    """cos(a): d/da = -sin(a)."""
    return m.cos(a), (-m.sin(a),)


Rule = Callable[..., tuple[Any, tuple[Any, ...]]]

# op name (the node's _op) -> rule. "**k" is the op of every `x ** k` with a number k; such a
# node's _op is the original's name ("**2") and it keeps k as data (Value._k).
OPS: dict[str, Rule] = {
    "+": add,
    "*": mul,
    "/": div,
    "**k": power_k,
    "**": power,
    "ReLU": relu,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "exp": exp,
    "log": log,
    "sin": sin,
    "cos": cos,
}


def topo_order(root: Value) -> list[Value]:
    """Every Value that `root` depends on, inputs before the Values made from them.

    The recursive build_topo of the original, with an explicit stack (no recursion limit): a node
    goes into the order once all its inputs are in, visited in operand order, so the order is the
    same on every run.
    """
    order: list[Value] = []
    seen = {root}
    stack = [root]
    visit, push, pop, done = seen.add, stack.append, stack.pop, order.append
    while stack:
        node = stack[-1]
        a = node._a  # go into the first input not visited yet; once there is none, node is done
        if a is not None and a not in seen:
            visit(a)
            push(a)
            continue
        b = node._b
        if b is not None:
            if b not in seen:
                visit(b)
                push(b)
                continue
            # more than two inputs: only a node made by hand, Value(x, (a, b, c)), which keeps
            # no local derivatives (checked first: it is the cheaper test)
            if node._da is None and node._rest:
                rest = [v for v in node._rest if v not in seen]
                if rest:
                    visit(rest[0])
                    push(rest[0])
                    continue
        pop()
        done(node)
    return order


# ---------------------------------------------------------------------------- below here: details
# (skip on a first read) how ops make their output Value, hand-made nodes, and grads of grads.


class Constant(Value):
    """A number that an op turned into a leaf, as the original does (`x * 2` makes one of 2): it
    gets a grad like any Value, but is no input of yours, so explain() shows no grad line for it."""

    __slots__ = ()


def _operand(x: Operand, op: str) -> Value:
    """x as a Value: a number becomes a Constant leaf."""
    return x if isinstance(x, Value) else Constant(x if type(x) is float else as_float(x, op))


def _apply2(op: str, a: Value, b: Operand) -> Value:
    """Run the two-input op `op` on a and b: the output Value, keeping the local derivatives."""
    if not isinstance(b, Value):
        b = _operand(b, op)
    try:
        data, (da, db) = OPS[op](FloatMath, a.data, b.data)
    except (ArithmeticError, ValueError) as e:
        raise op_error(e, op, a, b) from None
    # Value(data, (a, b), op) without the checks of a Value made by hand (this is the hot path)
    out = Value.__new__(Value)
    out.data = data
    out.grad = 0
    out._op = op
    out._a = a
    out._b = b
    out._da = da
    out._db = db
    return modes.made(out) if modes.threads_in_a_mode else out


def _apply1(op: str, a: Value, rule: str = "", *consts: float, m: Any = None) -> Value:
    """Run the one-input op `op` on a (x**k by the rule "**k" with k in `consts`; m: FloatMath)."""
    try:
        data, (da,) = OPS[rule or op](m or FloatMath, a.data, *consts)
    except (ArithmeticError, ValueError) as e:
        raise op_error(e, op, a) from None
    out = Value.__new__(Value)
    out.data = data
    out.grad = 0
    out._op = op
    out._a = a
    out._b = out._db = None
    out._da = da
    if consts:
        out._k = consts[0]
    return modes.made(out) if modes.threads_in_a_mode else out


def _chain_rule_step(v: Value, m: Any = None) -> None:
    """One node's step of the chain rule, as backward() takes it: each input's grad += local
    derivative * v.grad (nothing from a dead relu). With m = ValueMath the local derivatives are
    recomputed as Values from the node's inputs, so the grads get a graph of their own
    (backward(create_graph=True))."""
    if v._a is None:
        return
    if v._da is None:  # a hand-written closure
        v._backward()
        return
    local = v._local
    if m is not None:  # the node's rule again, on its input Values
        consts = () if v._k is None else (v._k,)
        local = OPS["**k" if consts else v._op](m, *v._prev, *consts)[1]
    g = v.grad
    for x, d in zip(v._prev, local):
        # A float 0 may be an underflow meeting an overflow upstream, whose true product is
        # finite: multiplied as usual, the nan says it is lost; an int 0 is a dead relu.
        dead = d == 0 and type(d) is int and not math.isfinite(getattr(g, "data", g))  # or a Value
        x.grad += 0.0 if dead else d * g


# the rules on Values, for grads of grads; its x**k gives inf where Python raises (x**0.5 at 0)
ValueMath = maths.ValueMath(lambda a, k: _apply1(f"**{k!r}", a, "**k", k, m=IEEEMath))
