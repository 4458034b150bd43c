"""The autograd engine: a scalar `Value`, the table of primitive ops, and `backward()`.

Read this file first. Every primitive op is one row of `OPS`: its forward and its local derivative
side by side. `backward()` orders the graph and applies the chain rule, in one place, once per node.
"""

from __future__ import annotations

import gc
import math
import numbers
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, Union

Operand = Union["Value", int, float]


# ---------------------------------------------------------------------------- elementary math
class FloatMath:
    """The elementary functions on Python floats.

    Rules call them through a namespace `m`, so the same rule also runs on Values (for gradients
    of gradients) and on numpy arrays (the fast path in `micrograd.fast`).
    """

    exp = staticmethod(math.exp)
    tanh = staticmethod(math.tanh)  # saturates to +-1.0 instead of overflowing

    @staticmethod
    def log(x: float) -> float:
        if x <= 0:
            raise ValueError(f"log is defined for positive numbers only, got {x!r}")
        return math.log(x)

    @staticmethod
    def sigmoid(x: float) -> float:
        # Split at 0 so exp() only ever sees a non-positive number: sigmoid(-1000) is 0.0, no overflow.
        if x >= 0:
            return 1.0 / (1.0 + math.exp(-x))
        e = math.exp(x)
        return e / (1.0 + e)

    @staticmethod
    def relu(x: float) -> float:
        return 0.0 if x < 0 else x  # the original's rule; a NaN input stays NaN

    @staticmethod
    def step(x: float) -> float:
        return 1.0 if x > 0 else 0.0

    @staticmethod
    def pow(a: float, b: float) -> float:
        if a == 0 and b < 0:
            raise ZeroDivisionError(f"0.0 cannot be raised to the negative power {b!r}")
        if a < 0 and math.isfinite(b) and not float(b).is_integer():
            return math.nan  # as PyTorch: a real power of a negative number is not a real number
        return float(a**b)

    @staticmethod
    def pow_grad_base(a: float, b: float) -> float:
        # d(a**b)/da = b * a**(b-1). As PyTorch: 0 where b == 0, and inf (not an error) at a == 0.
        if b == 0:
            return 0.0
        if a == 0 and b < 1:
            return math.inf * b  # b * 0**(b-1), where 0**(negative) is inf
        try:
            return b * FloatMath.pow(a, b - 1)
        except OverflowError:  # a backward pass gives inf, as PyTorch, rather than stopping
            odd = float(b - 1).is_integer() and int(b - 1) % 2 == 1
            return b * math.copysign(math.inf, a if odd else 1.0)

    @staticmethod
    def pow_grad_exponent(out: float, a: float, b: float) -> float:
        # d(a**b)/db = a**b * log(a). As PyTorch: 0 where a == 0 and b >= 0, nan where a < 0.
        if a == 0:
            return 0.0 if b >= 0 else math.nan
        return out * math.log(a) if a > 0 else math.nan


class Rule(NamedTuple):
    """A primitive op: `forward(m, *inputs)` and `local(m, out, *inputs)` -> d out / d each input."""

    forward: Callable[..., Any]
    local: Callable[..., tuple[Any, ...]]


class _OpTable(dict[str, Rule]):
    """`OPS`: op name -> Rule. `x ** k` for a number k is the unary op named "**k" (the original's
    name for it), whose rule is made on first use."""

    def __missing__(self, name: str) -> Rule:
        if not name.startswith("**") or len(name) == 2:
            raise ValueError(
                f"op {name!r} has no rule in micrograd.engine.OPS; a Value made by hand with inputs "
                "needs its ._backward set, the way the original micrograd teaches"
            )
        k = float(name[2:])
        # d(a**k)/da = k * a**(k-1)
        rule = self[name] = Rule(
            lambda m, a: m.pow(a, k), lambda m, out, a: (m.pow_grad_base(a, k),)
        )
        return rule


OPS = _OpTable(
    {
        # name:     forward(m, inputs...)        local derivatives(m, out, inputs...)
        "+": Rule(lambda m, a, b: a + b, lambda m, out, a, b: (1.0, 1.0)),
        "*": Rule(lambda m, a, b: a * b, lambda m, out, a, b: (b, a)),
        # d(a/b)/da = 1/b, d(a/b)/db = -a/b**2, written -out/b: no b**2 to overflow or underflow
        "/": Rule(lambda m, a, b: a / b, lambda m, out, a, b: (1.0 / b, -out / b)),
        # a ** b with b a Value: d/da = b * a**(b-1), d/db = a**b * log(a). For a < 0 the
        # d/db is nan, as in PyTorch, since log(a) is not real there.
        "**": Rule(
            lambda m, a, b: m.pow(a, b),
            lambda m, out, a, b: (m.pow_grad_base(a, b), m.pow_grad_exponent(out, a, b)),
        ),
        "ReLU": Rule(lambda m, a: m.relu(a), lambda m, out, a: (m.step(a),)),  # 1 if a > 0 else 0
        "tanh": Rule(lambda m, a: m.tanh(a), lambda m, out, a: (1.0 - out * out,)),  # 1 - tanh^2
        # sigmoid' = s (1 - s), with s the output
        "sigmoid": Rule(lambda m, a: m.sigmoid(a), lambda m, out, a: (out * (1.0 - out),)),
        "exp": Rule(lambda m, a: m.exp(a), lambda m, out, a: (out,)),  # e^a is its own derivative
        "log": Rule(lambda m, a: m.log(a), lambda m, out, a: (1.0 / a,)),  # 1/a
    }
)


# ---------------------------------------------------------------------------- per-thread modes
class _Mode(threading.local):
    """Switches that `no_grad()` and `detect_anomaly()` flip, one set per thread (as in PyTorch)."""

    grad = True
    anomaly: dict[int, tuple[Value, str]] | None = None  # id -> (Value, where it was made)
    tracing = False  # set by micrograd.fast while it records a function


_mode = _Mode()
# Every op would read the thread-local switches (~0.1 us, 10% of an op). Instead ops read this plain
# global, True while no thread at all is inside no_grad(), detect_anomaly() or a trace, and only
# otherwise look at their own thread's switches.
_plain = True
_switched_threads = 0
_switch_lock = threading.Lock()


@contextmanager
def _switched(**switches: Any) -> Iterator[None]:
    """Set this thread's mode switches for the block (see _Mode), and restore them after."""
    global _plain, _switched_threads
    before = {name: getattr(_mode, name) for name in switches}
    with _switch_lock:
        _switched_threads += 1
        _plain = False
    for name, value in switches.items():
        setattr(_mode, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(_mode, name, value)
        with _switch_lock:
            _switched_threads -= 1
            _plain = _switched_threads == 0


def _thread_plain() -> bool:
    return _mode.grad and _mode.anomaly is None and not _mode.tracing


def no_grad() -> Any:
    """A context manager: inside it, ops record no graph (their results are leaves), as
    torch.no_grad()."""
    return _switched(grad=False)


# Garbage collection. A Value holds no reference cycle (no closure points back at it), so reference
# counting frees a graph as soon as it is dropped and the cyclic collector never finds garbage in
# one. But CPython 3.11 still runs a full collection, which walks every object in the process,
# whenever the survivors of the young generations have grown by 25%: a training step that builds a
# 65,000-Value graph paid for about one per step, measured at 60-70% of the step's time. Full
# collections are made 10x rarer here; young ones are unchanged, so cyclic garbage is still found.
# MICROGRAD_GC=default opts out, and a program that set its own thresholds is left alone.
if os.environ.get("MICROGRAD_GC") != "default" and gc.get_threshold() == (700, 10, 10):
    gc.set_threshold(700, 10, 100)


def _as_float(x: object, op: str) -> float:
    if type(x) is float or type(x) is int or isinstance(x, numbers.Real):  # the ABC check is slow
        return float(x)
    wanted = "a real number" if op == "Value()" else "a real number or a Value"
    raise TypeError(f"{op}: expected {wanted}, got {x!r} of type {type(x).__name__}")


# ---------------------------------------------------------------------------- the Value
class Value:
    """A scalar in the compute graph: its data, its grad, and the op and inputs that made it."""

    # Slots, not a __dict__: a Value costs ~160 bytes (the original's ~680) and reads faster.
    __slots__ = ("data", "grad", "_prev", "_op", "_user_backward", "label")

    def __init__(
        self, data: float, _children: Iterable[Value] = (), _op: str = "", label: str = ""
    ) -> None:
        self.data: float = data if type(data) is float else _as_float(data, "Value()")
        self.grad: Any = 0.0  # a float, or a Value after backward(create_graph=True)
        # A tuple in operand order (the original's set made the order, and the grads, vary by run).
        self._prev = _children if type(_children) is tuple else tuple(_children)
        self._op = _op
        self._user_backward: Callable[[], None] | None = None
        self.label = label

    # The original micrograd and its lectures set `out._backward = closure` and may call
    # `node._backward()` by hand. Both keep working: reading gives this node's chain-rule step.
    @property
    def _backward(self) -> Callable[[], None]:
        return self._user_backward or (lambda: _backprop((self,), FloatMath))

    @_backward.setter
    def _backward(self, fn: Callable[[], None]) -> None:
        self._user_backward = fn

    # ---- the primitive ops: each computes its forward with the rule of the same name in OPS
    def __add__(self, other: Operand) -> Value:
        if not isinstance(other, Value):
            other = _const(other, "+")
        # + and * are most of any graph, so they skip the generic _apply() and compute their
        # rule's forward inline (the same math as OPS["+"].forward): it halves the time per op.
        if _plain:
            return Value(self.data + other.data, (self, other), "+")
        return _apply("+", self, other)

    def __mul__(self, other: Operand) -> Value:
        if not isinstance(other, Value):
            other = _const(other, "*")
        if _plain:
            return Value(self.data * other.data, (self, other), "*")
        return _apply("*", self, other)

    def __truediv__(self, other: Operand) -> Value:
        return _apply("/", self, other if isinstance(other, Value) else _const(other, "/"))

    def __rtruediv__(self, other: Operand) -> Value:
        return _apply("/", _const(other, "/"), self)

    def __pow__(self, other: Operand) -> Value:
        """self ** other. For a negative base and a Value exponent, the exponent's grad is nan."""
        if isinstance(other, Value):
            return _apply("**", self, other)
        k = _as_float(other, "**")
        name = f"**{other}" if type(other) is int else f"**{k!r}"  # "**2", the original's name
        return _apply(name, self)

    def relu(self) -> Value:
        """max(0, self)."""
        return _apply("ReLU", self)

    def tanh(self) -> Value:
        """The hyperbolic tangent."""
        return _apply("tanh", self)

    def sigmoid(self) -> Value:
        """1 / (1 + exp(-self)), computed without overflow."""
        return _apply("sigmoid", self)

    def exp(self) -> Value:
        """e ** self."""
        return _apply("exp", self)

    def log(self) -> Value:
        """The natural logarithm; ValueError for self <= 0."""
        return _apply("log", self)

    # ---- composite ops: built from the primitives, so they need no rule of their own
    def __neg__(self) -> Value:
        return self * -1.0

    def __radd__(self, other: Operand) -> Value:
        return self + other

    def __sub__(self, other: Operand) -> Value:
        return self + (-other)

    def __rsub__(self, other: Operand) -> Value:
        return other + (-self)

    def __rmul__(self, other: Operand) -> Value:
        return self * other

    def __rpow__(self, other: Operand) -> Value:
        return _const(other, "**") ** self

    # ---- comparisons read .data (they have no gradient); equality stays identity, so Values hash
    def __lt__(self, other: Operand) -> bool:
        return _read(self) < _read(other)

    def __le__(self, other: Operand) -> bool:
        return _read(self) <= _read(other)

    def __gt__(self, other: Operand) -> bool:
        return _read(self) > _read(other)

    def __ge__(self, other: Operand) -> bool:
        return _read(self) >= _read(other)

    def __float__(self) -> float:
        return _read(self)

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"

    # ---- backpropagation
    def backward(self, create_graph: bool = False) -> None:
        """Set each Value's .grad to d self / d Value. Leaves accumulate over calls, as in PyTorch.

        With create_graph=True the grads are Values with a graph of their own, so they can be
        differentiated again (second and higher derivatives).
        """
        order = topo_order(self)
        finish = _begin_backward(order, self, create_graph)
        order.reverse()
        _backprop(order, ValueMath if create_graph else FloatMath)
        finish()


def _begin_backward(order: list[Value], root: Value, create_graph: bool) -> Callable[[], None]:
    """Zero the grads of `order` and seed the root; return the step that restores the leaves'
    earlier grads on top of this pass's.

    Leaves accumulate across calls, as in PyTorch: this pass's gradient is summed on its own, then
    added to what the leaf held, so calling backward() twice gives exactly twice the grad. Inner
    nodes start from 0 on every call, so stale grads never compound.
    """
    held = []
    for v in order:
        if not v._prev and v.grad != 0:
            held.append((v, v.grad))
        v.grad = 0.0
    root.grad = Value(1.0) if create_graph else 1.0

    def finish() -> None:
        for v, g in held:
            v.grad = g + v.grad

    return finish


def linear(ws: Sequence[Value], xs: Sequence[Operand], bias: Value) -> Value:
    """bias + ws[0]*xs[0] + ws[1]*xs[1] + ...: the same chain of "*" and "+" nodes, with the same
    numbers, as `sum((w * x for w, x in zip(ws, xs)), bias)`.

    Why it exists: a neuron's sum is most of a network's graph, and Python's dispatch of `*` and
    `+` to Value's methods costs as much as the rest of each op. Building the nodes directly
    makes a training step ~15% faster.
    """
    if not _plain:  # no_grad, anomaly detection or tracing: the ops know what to do
        return sum((w * x for w, x in zip(ws, xs)), bias)
    act = bias
    for w, x in zip(ws, xs):
        if not isinstance(x, Value):
            x = _const(x, "*")
        prod = Value(w.data * x.data, (w, x), "*")
        act = Value(act.data + prod.data, (act, prod), "+")
    return act


def _const(x: object, op: str) -> Value:
    return Value(_as_float(x, op))


def _read(x: Operand) -> float:
    if _mode.tracing:
        from micrograd.fast import TraceError

        raise TraceError(
            "a traced function read a Value's number (a comparison or float()): control flow that "
            "depends on data cannot be captured; write the branch with ops (relu, tanh...) or run eagerly"
        )
    return x.data if isinstance(x, Value) else _as_float(x, "comparison")


def _apply(name: str, *inputs: Value) -> Value:
    """Run op `name` forward on the inputs' data and return its output Value, linked to them."""
    forward = OPS[name].forward
    try:
        if len(inputs) == 1:
            data = forward(FloatMath, inputs[0].data)
        else:
            data = forward(FloatMath, *[v.data for v in inputs])
    except (ArithmeticError, ValueError) as e:
        args = ", ".join(repr(v.data) for v in inputs)
        raise type(e)(f"op {name!r} on ({args}): {e}") from None
    if _plain or _thread_plain():
        return Value(data, inputs, name)
    return _apply_in_mode(name, data, inputs)


def _backprop(nodes: Iterable[Value], m: Any) -> None:
    """The chain rule, written once: for each node, outputs before inputs, and each of its inputs,
    input.grad += (d node / d input) * node.grad.

    With m = FloatMath the local derivatives are numbers; with m = ValueMath (create_graph) they
    are Values computed from the node's input Values, so the grads get a graph of their own.
    """
    numbers_only = m is FloatMath
    check: Callable[[Value], None] | None = None
    if _mode.anomaly is not None:
        from micrograd.anomaly import check_backward

        check = check_backward
    for node in nodes:
        inputs = node._prev
        if not inputs:
            continue
        if node._user_backward is not None:  # a closure written the original micrograd's way
            node._user_backward()
        else:
            g = node.grad
            op = node._op
            if numbers_only and op == "+":  # d(a+b)/da = d(a+b)/db = 1: OPS["+"], inlined for speed
                a, b = inputs
                a.grad += g
                b.grad += g
            elif numbers_only and op == "*":  # d(ab)/da = b, d(ab)/db = a: OPS["*"], inlined
                a, b = inputs
                a.grad += b.data * g
                b.grad += a.data * g
            else:
                args = [v.data for v in inputs] if numbers_only else inputs
                local = OPS[op].local(m, node.data if numbers_only else node, *args)
                for v, d in zip(inputs, local):
                    v.grad += d * g
        if check is not None:
            check(node)


def topo_order(root: Value) -> list[Value]:
    """Every Value that `root` depends on, inputs before the Values made from them.

    Depth-first with an explicit stack (no recursion limit), visiting inputs in operand order, so the
    order is the same on every run.
    """
    order: list[Value] = []
    seen = {root}
    stack = [(root, iter(root._prev))]  # (node, its inputs not visited yet)
    visit, push, finish = seen.add, stack.append, order.append  # bound once: this loop is hot
    try:
        while stack:
            node, inputs = stack[-1]
            for v in inputs:
                if v not in seen:
                    visit(v)
                    push((v, iter(v._prev)))
                    break
            else:  # every input is in order already: the node goes after them
                stack.pop()
                finish(node)
    except MemoryError:
        # Free the traversal now: the traceback would otherwise keep it alive, and with it the
        # memory the caller needs to recover.
        n = len(seen)
        order.clear()
        seen.clear()
        stack.clear()
        raise MemoryError(f"out of memory while ordering a graph of more than {n} Values") from None
    return order


# ---------------------------------------------------------------------------- gradients of gradients
class ValueMath:
    """The elementary functions on Values, so that rules build graphs (backward(create_graph=True))."""

    exp = staticmethod(Value.exp)
    log = staticmethod(Value.log)
    tanh = staticmethod(Value.tanh)
    sigmoid = staticmethod(Value.sigmoid)
    relu = staticmethod(Value.relu)

    @staticmethod
    def step(x: Value) -> float:
        return FloatMath.step(x.data)  # piecewise constant: its own derivative is 0

    @staticmethod
    def pow(a: Value, b: Operand) -> Value:
        return a**b

    @staticmethod
    def pow_grad_base(a: Value, b: Operand) -> Operand:
        bd = b.data if isinstance(b, Value) else b
        if bd == 0 or (a.data == 0 and bd < 1):  # constant there (0 or inf): no graph to build
            return FloatMath.pow_grad_base(a.data, bd)
        return b * a ** (b - 1)

    @staticmethod
    def pow_grad_exponent(out: Value, a: Value, b: Value) -> Operand:
        if a.data > 0:
            return out * a.log()
        return FloatMath.pow_grad_exponent(out.data, a.data, b.data)


def _apply_in_mode(name: str, data: float, inputs: tuple[Value, ...]) -> Value:
    """_apply's path when this thread is in no_grad(), detect_anomaly() or a trace."""
    out = Value(data, inputs if _mode.grad else (), name if _mode.grad else "")
    if _mode.anomaly is not None:
        from micrograd.anomaly import check_forward

        check_forward(name, data, inputs, out)
    return out
