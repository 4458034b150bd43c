"""The autograd engine: a scalar `Value`, each op's local rule, and `backward()`.

Read the first part of this file as the story of backpropagation, in the order the tutorial tells it:
1. a `Value` holds a number; arithmetic on Values builds a graph, and each new Value keeps its
   inputs and the local derivatives d(itself)/d(input) that its op's rule gave at that moment;
2. the rules `OPS`: each op's forward and its local derivatives, side by side;
3. `backward()`: order the graph topologically, set the output's grad to 1, then walk the order
   backwards applying the chain rule, `input.grad += local * grad`, once per edge.
What exists only for speed, modes (no_grad, anomaly detection) and higher order comes after that.

The code you read here is the code that runs: `a * b` calls Value.__mul__, which runs the rule
`mul` from OPS (a breakpoint on either fires, and a row of OPS changed at run time is used by the
next op). Calling the rule costs ~1,150 of the ~4,600 machine instructions of an `a * b` (callgrind),
so this engine runs the demo's training step at ~0.75 of a hand-inlined floor (benchmarks/lean);
methods rebuilt with each rule's body inlined reach ~0.87, and `micrograd.tuned()`, the explicit
opt-in for training loops, installs those for its block (micrograd.specialize). To be fast, replay:
micrograd.replay runs the same rules 30x faster, in plain Python or on numpy (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import math
import numbers
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Union

from micrograd import modes
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
        self.data: float = data if type(data) is float else _as_float(data, "Value()")
        # an int 0 as in the original; it stays an int where only + and relu pass grads to it
        self.grad: Any = 0
        self._op = _op
        self._a: Value | None = None  # the inputs (None for a leaf)
        self._b: Value | None = None
        self._da: Any = None  # d self / d _a and d self / d _b, as the op's rule gave them
        self._db: Any = None
        if label:
            self.label = label
        if _children:
            _link_by_hand(self, tuple(_children))
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
        return _pow_const(self, other)

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
        return self + (-other if isinstance(other, Value) else -_as_float(other, "-"))

    def __rsub__(self, other: Operand) -> Value:  # other - self
        return -self + _as_float(other, "-")

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
        contribution is added onto what the leaf held. With create_graph=True the grads are
        Values with a graph of their own, to be differentiated again.
        """
        if self.data != self.data:  # nan: the grads will be too; say where to look (once)
            warnings.warn(_said("nan_backward"), RuntimeWarning, stacklevel=2)
        topo = topo_order(self)  # 1. every Value, inputs before the Values made from them
        with _backward_pass(topo, self, create_graph):  # 2. inner grads start at 0, self.grad = 1
            if create_graph or modes.threads_in_a_mode:
                _backward_in_mode(topo, create_graph)
                return
            one, dead = 1, 0  # the int locals of + and relu (ints, as the original's)
            for v in reversed(topo):  # 3. outputs before inputs: v.grad is complete when v runs
                a = v._a
                if a is None:  # a leaf: nothing to pass on
                    continue
                da = v._da
                if da is None:  # no local derivatives: a closure written the original's way
                    v._backward()
                    continue
                g = v.grad
                # the chain rule: input.grad += (d v / d input) * v.grad, for each input of v
                if da is one:  # 1 * g is g: skipping the int-by-float product is faster
                    a.grad += g
                elif da is dead and g - g:  # a dead relu, inf or nan upstream: see there
                    _chain_rule_step(v)
                    continue
                else:
                    a.grad += da * g
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
        return _read(self) < _read(other)

    def __le__(self, other: Operand) -> bool:
        return _read(self) <= _read(other)

    def __gt__(self, other: Operand) -> bool:
        return _read(self) > _read(other)

    def __ge__(self, other: Operand) -> bool:
        return _read(self) >= _read(other)

    def __bool__(self) -> bool:
        # `if v:` is True for any Value, as in the original; while tracing it is a branch on data
        if modes.threads_in_a_mode and modes.is_tracing():
            _read(self)
        return True

    def __float__(self) -> float:
        # math.exp(v) calls this: returning v.data would silently cut the graph (the original
        # has no __float__ and fails here too).
        raise TypeError(
            f"a Value is not a float: math functions and float() would cut the graph; use the "
            f"Value's ops (v.exp(), v.tanh(), v.log()...) or v.data for its number ({self!r})"
        )

    # ---- copies and pickles: Python's own recurse once per input, so a 100,000-deep graph would
    # exceed the recursion limit; these walk the graph in topological order instead
    def __copy__(self) -> Value:
        c = object.__new__(type(self))
        for slot in _SLOTS:
            setattr(c, slot, getattr(self, slot))
        c.__dict__.update(self.__dict__)
        return c

    def __deepcopy__(self, memo: dict[int, Any]) -> Value:
        import copy

        for v in topo_order(self):  # inputs first: a Value's inputs are copied before it
            if id(v) not in memo:
                c = memo[id(v)] = v.__copy__()
                c.grad = copy.deepcopy(v.grad, memo)
                c._a, c._b = memo.get(id(v._a)), memo.get(id(v._b))
                c.__dict__.update(copy.deepcopy(v.__dict__, memo))
        return memo[id(self)]

    def __reduce_ex__(self, protocol: Any) -> Any:
        # Up to FLAT_PICKLE Values, Python's own way (a Value shared by two pickled Values stays
        # one object); a larger graph is written as one flat list, inputs first, which keeps the
        # sharing within that graph only.
        order = topo_order(self) if self._a is not None else [self]
        if len(order) <= FLAT_PICKLE:
            return object.__reduce_ex__(self, protocol)
        index = {v: i for i, v in enumerate(order)}
        nodes = []
        for v in order:
            extra = dict(v.__dict__)
            if "_rest" in extra:
                extra["_rest"] = tuple(index[x] for x in v._rest)
            ins = (index.get(v._a), index.get(v._b))  # type: ignore[arg-type]
            nodes.append((type(v), v.data, v.grad, v._op, *ins, v._da, v._db, extra))
        return _unpickle, (nodes,)


FLAT_PICKLE = 1000


def _said(key: str, **fields: object) -> str:
    """A warning's text in the learner's language (Chinese where LANG says zh_*)."""
    return text(key, None, **fields)


_SLOTS = tuple(slot for slot in Value.__slots__ if slot != "__dict__")


def _unpickle(nodes: list[tuple[Any, ...]]) -> Value:
    """The graph that Value.__reduce_ex__ wrote as a list (inputs first), rebuilt; its output."""
    made: list[Value] = []
    for cls, data, grad, op, a, b, da, db, extra in nodes:
        v = object.__new__(cls)
        v.data, v.grad, v._op, v._da, v._db = data, grad, op, da, db
        v._a = None if a is None else made[a]
        v._b = None if b is None else made[b]
        if "_rest" in extra:
            extra = {**extra, "_rest": tuple(made[i] for i in extra["_rest"])}
        v.__dict__.update(extra)
        made.append(v)
    return made[-1]


# ---------------------------------------------------------------------------- the local rules
# Each rule takes a namespace `m` of elementary functions and the inputs' numbers, and returns the
# output and d output / d each input. The same rule runs on floats (m = FloatMath), on Values
# (m = ValueMath, for grads of grads), on numpy arrays (micrograd.replay.numpy) and on torch tensors
# (micrograd.export): the functions a rule may call are the contract micrograd.maths.Math. Locals
# of + and relu are ints, so grads stay ints where the original's do. A new op is a rule here, its
# row in OPS and a Value method; tests/test_maths.py says what else it still needs.


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
# (skip on a first read) how ops make their output Value, errors, numerics at the edges, backward's
# bookkeeping, modes, and gradients of gradients.


def _as_float(x: object, op: str) -> float:
    """x as a float, or a TypeError naming the op and the value."""
    if type(x) is float:  # the common case, before the slower ABC check
        return x
    shown = repr(x) if len(repr(x)) <= 40 else repr(x)[:40] + "..."
    # numbers.Real, and numpy's 0-d booleans (numpy.bool_ is not a Real, as Python's bool is)
    boolean = (
        getattr(x, "ndim", None) == 0 and getattr(getattr(x, "dtype", None), "kind", "") == "b"
    )
    if (isinstance(x, numbers.Real) or boolean) and not isinstance(x, Value):
        try:
            return float(x)  # type: ignore[arg-type]
        except OverflowError:
            raise OverflowError(f"{op}: {shown} is too large for a float") from None
    wanted = "a real number" if op == "Value()" else "a real number or a Value"
    kind = (
        type(x).__qualname__
        if type(x).__module__ == "builtins"
        else f"{type(x).__module__}.{type(x).__qualname__}"
    )
    raise TypeError(f"{op}: expected {wanted}, got {shown} of type {kind}")


class Constant(Value):
    """A number that an op turned into a Value, as the original does (`x * 2` makes a leaf of 2):
    it gets a grad like any Value, but it is no input of yours, so explain() shows no grad line
    for it."""

    __slots__ = ()


def _operand(x: Operand, op: str) -> Value:
    """x as a Value: a number becomes a Constant leaf."""
    return x if isinstance(x, Value) else Constant(x if type(x) is float else _as_float(x, op))


def _new_in_mode(out: Value) -> Value:
    """An op's output when some thread is in a mode: a leaf in no_grad(), checked in anomaly mode."""
    if not modes.grad_enabled():
        return Value(out.data)  # no_grad(): a leaf
    if modes.anomaly_enabled():
        out._where = modes.check_forward(out._op, out.data, out._prev)
    return out


def _fail(e: Exception, op: str, *inputs: Value) -> Exception:
    """The error of an op's forward, with the op and its inputs in the message; it keeps them and
    its reason's key, so the command and the pages can say it in Chinese too."""
    fields: dict[str, object] = getattr(e, "fields", {})
    if hasattr(e, "reason"):  # micrograd.maths said why
        reason = e.reason
    elif isinstance(e, OverflowError):
        reason = "reason_too_large"
    else:  # Python's own: a division by zero, a math domain error
        kind = "reason_division_by_zero" if isinstance(e, ZeroDivisionError) else "reason_domain"
        reason, fields = kind, {"message": str(e)}
    args = ", ".join(repr(v.data) for v in inputs)
    failed = type(e)(
        text("op_error", "en", op=op, inputs=args, reason=text(reason, "en", **fields))
    )
    failed.op, failed.inputs, failed.reason, failed.fields = op, args, reason, fields  # type: ignore[attr-defined]
    return failed


def _apply2(op: str, a: Value, b: Operand) -> Value:
    """Run the two-input op `op` on a and b: the output Value, keeping the local derivatives."""
    if not isinstance(b, Value):
        b = _operand(b, op)
    try:
        data, (da, db) = OPS[op](FloatMath, a.data, b.data)
    except (ArithmeticError, ValueError) as e:
        raise _fail(e, op, a, b) from None
    # Value(data, (a, b), op) without the checks of a Value made by hand (this is the hot path)
    out = Value.__new__(Value)
    out.data = data
    out.grad = 0
    out._op = op
    out._a = a
    out._b = b
    out._da = da
    out._db = db
    return _new_in_mode(out) if modes.threads_in_a_mode else out


def _apply1(op: str, a: Value, rule: str = "", *consts: float, m: Any = None) -> Value:
    """Run the one-input op `op` on a (with the rule `rule` and its constants, for x**k; with the
    namespace m, FloatMath by default)."""
    try:
        data, (da,) = OPS[rule or op](m or FloatMath, a.data, *consts)
    except (ArithmeticError, ValueError) as e:
        raise _fail(e, op, a) from None
    out = Value.__new__(Value)
    out.data = data
    out.grad = 0
    out._op = op
    out._a = a
    out._b = out._db = None
    out._da = da
    if consts:
        out._k = consts[0]
    return _new_in_mode(out) if modes.threads_in_a_mode else out


def _pow_const(a: Value, k: Operand) -> Value:
    number = _as_float(k, "**")
    name = f"**{k}" if type(k) is int else f"**{number!r}"  # "**2", the original's name
    return _apply1(name, a, "**k", number)


def _link_by_hand(v: Value, inputs: tuple[Value, ...]) -> None:
    """Link a Value made with the original's constructor, Value(data, (a, b), op), to its inputs.

    Its chain-rule step is the closure its maker sets next, `out._backward = _backward`, as the
    lecture writes an op. Until then it passes nothing back, as the original's default closure:
    a forgotten closure shows as inputs whose grads stay 0, which is how learners find it."""
    for x in inputs:
        if not isinstance(x, Value):
            raise TypeError(f"Value(): inputs must be Values, got {x!r}")
    v._a = inputs[0]
    v._b = inputs[1] if len(inputs) > 1 else None
    if len(inputs) > 2:
        v._rest = inputs[2:]
    v._backward = NoBackward(v._op)


class NoBackward:
    """The _backward of a Value made by hand before its maker sets one: it adds nothing to the
    inputs' grads (the original's `lambda: None`) and says so in a warning, once per op name."""

    __slots__ = ("op",)

    def __init__(self, op: str) -> None:
        self.op = op

    def __call__(self) -> None:
        warnings.warn(_said("no_backward", op=self.op), stacklevel=3)  # at the backward() call


def _read(x: Operand) -> float:
    """The number of a Value or a number, for comparisons (refused while tracing)."""
    if modes.threads_in_a_mode and modes.is_tracing():
        raise modes.TraceError(
            "a traced function read a Value's number (a comparison): control flow that depends "
            "on data cannot be captured; write the branch with ops (relu, tanh...) or run eagerly"
        )
    return x.data if isinstance(x, Value) else _as_float(x, "comparison")


# One backward pass at a time: passes over graphs that share Values would otherwise zero and add
# into the same inner grads at once. Under the GIL this costs nothing (a pass is pure Python).
_backward_lock = threading.RLock()


@contextmanager
def _backward_pass(topo: list[Value], root: Value, create_graph: bool) -> Iterator[None]:
    """Zero the inner grads of `topo`, seed the root's grad with 1, run the block; if it raised,
    put every grad back as it was.

    Leaves accumulate across calls, as in the original and in PyTorch: each contribution is added
    onto what the leaf held as it comes (`leaf.grad += local * grad`, in the pass's order), so a
    loop that calls backward() on one graph after another without zeroing gets the original's sums
    to the last bit. Inner nodes start from 0 on every call, so stale grads never compound."""
    with _backward_lock:
        held = [(v, v.grad) for v in topo if v.grad is not _ZERO]
        for v, _ in held:
            if v._a is not None:
                v.grad = 0
        seed = Value(1.0) if create_graph else 1  # the original seeds an int 1
        root.grad = seed if root._a is not None else root.grad + seed  # a leaf root accumulates
        try:
            yield
        except BaseException:  # a closure, an anomaly check or an overflow stopped the pass
            for v in topo:
                v.grad = 0
            for v, g in held:
                v.grad = g
            raise


_ZERO = 0  # the grad of a fresh Value: nothing to keep (an identity test, cheaper than ==)


def _chain_rule_step(v: Value, m: Any = None) -> None:
    """One node's step of the chain rule: each input's grad += local derivative * v.grad.

    With m = ValueMath the local derivatives are recomputed as Values from the node's inputs, so
    the grads get a graph of their own (backward(create_graph=True))."""
    if v._a is None:
        return
    if v._da is None:  # a hand-written closure
        v._backward()
        return
    local = v._local if m is None else apply_rule(v, m, v._prev)[1]
    g = v.grad
    for x, d in zip(v._prev, local):
        # relu's slope is an int: where it is 0 the unit is dead and passes nothing back, even
        # from an inf or nan upstream (0 * inf would be nan), as PyTorch's relu: a dead relu under
        # a sqrt gives its weights 0, not nan. A float 0 may be an underflow meeting an overflow
        # upstream, whose true product is finite: multiplied as usual, the nan says it is lost.
        dead = d == 0 and type(d) is int
        x.grad += 0.0 if dead and not _finite(g) else d * g


def _finite(x: Any) -> bool:
    """Whether a grad (a number, or a Value under create_graph) is finite."""
    return math.isfinite(x.data if isinstance(x, Value) else x)


def apply_rule(v: Value, m: Any, inputs: Sequence[Any]) -> tuple[Any, tuple[Any, ...]]:
    """Run the rule of the op that made `v` on `inputs` in the namespace `m`: the output and the
    local derivatives. create_graph runs it on Values, the numpy replay on arrays, export on tensors."""
    if v._k is not None:
        return OPS["**k"](m, *inputs, v._k)
    return OPS[v._op](m, *inputs)


def _backward_in_mode(topo: list[Value], create_graph: bool) -> None:
    """backward()'s loop for create_graph and for threads in a mode: the same chain rule, one node
    at a time, with a check after each step under detect_anomaly()."""
    m = ValueMath if create_graph else None
    check = modes.anomaly_enabled()
    for v in reversed(topo):
        try:
            _chain_rule_step(v, m)
        except FloatingPointError as e:
            if not (check and create_graph):
                raise
            # the ops that failed were the local derivatives' own, built by this backward pass
            args = ", ".join(repr(x.data) for x in v._prev)
            raise FloatingPointError(
                f"backward of op {v._op!r} on ({args}), made at {v._where}: computing its local "
                f"derivatives as Values (create_graph=True), {e}"
            ) from None
        if check and v._a is not None:
            modes.check_backward(v)


# ---------------------------------------------------------------------------- the rules on Values
class ValueMath:
    """The elementary functions on Values, so that rules build graphs (backward(create_graph=True))."""

    exp = staticmethod(Value.exp)
    log = staticmethod(Value.log)
    tanh = staticmethod(Value.tanh)
    sigmoid = staticmethod(Value.sigmoid)
    relu = staticmethod(Value.relu)
    sin = staticmethod(Value.sin)
    cos = staticmethod(Value.cos)

    @staticmethod
    def step(x: Value) -> int:
        return FloatMath.step(x.data)  # piecewise constant: its own derivative is 0

    @staticmethod
    def pow(a: Value, b: Operand) -> Value:
        return a**b

    @staticmethod
    def pow_grad_base(a: Value, b: Operand) -> Operand:
        if isinstance(b, Value):
            if b.data == 0 or (a.data == 0 and b.data < 1):  # 0 or inf there: a constant
                return FloatMath.pow_grad_base(a.data, b.data)
            return b * a ** (b - 1)
        if b == 0:
            return 0.0
        # b * a**(b-1) as a node whose own derivative is right at a = 0 too (x**0.5 has a second
        # derivative of -inf there, as PyTorch): its power gives inf instead of raising
        return b * _apply1(f"**{b - 1!r}", a, "**k", b - 1, m=IEEEMath)

    @staticmethod
    def pow_grad_exponent(out: Value, a: Value, b: Value) -> Operand:
        if a.data > 0:
            return out * a.log()
        return FloatMath.pow_grad_exponent(out.data, a.data, b.data)
