"""The pure-Python floor of an eager scalar engine with micrograd 0.1.0's API, the yardstick
benchmarks/bench.py measures micrograd-plus's eager engine against.

What makes it lean: one object per Value with slots and no __dict__; each op writes its output and
its local derivatives (floats) into a new object made without an __init__ frame; no rule table, no
modes, no error messages; backward is an iterative depth-first topological order and one
`input.grad += local * grad` per edge. The graph and the order of every float operation are the
same as micrograd-plus's, so the gradients are bit-identical (bench.py checks them).
"""

import math


class Value:
    __slots__ = ("data", "grad", "_a", "_b", "_da", "_db", "_op")

    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self._a = self._b = self._da = self._db = None
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    @property
    def _prev(self):
        return tuple(v for v in (self._a, self._b) if v is not None)

    def __add__(self, other):
        if not isinstance(other, Value):
            other = Value(other)
        out = object.__new__(Value)
        out.data, out.grad, out._op = self.data + other.data, 0.0, "+"
        out._a, out._b, out._da, out._db = self, other, 1.0, 1.0
        return out

    def __mul__(self, other):
        if not isinstance(other, Value):
            other = Value(other)
        out = object.__new__(Value)
        out.data, out.grad, out._op = self.data * other.data, 0.0, "*"
        out._a, out._b, out._da, out._db = self, other, other.data, self.data
        return out

    def __pow__(self, k):
        out = object.__new__(Value)
        out.data, out.grad, out._op = self.data**k, 0.0, f"**{k}"
        out._a, out._b, out._da, out._db = self, None, k * self.data ** (k - 1), None
        return out

    def relu(self):
        out = object.__new__(Value)
        x = self.data
        out.data, out.grad, out._op = (0.0 if x < 0 else x), 0.0, "ReLU"
        out._a, out._b, out._da, out._db = self, None, (1.0 if x > 0 else 0.0), None
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = object.__new__(Value)
        out.data, out.grad, out._op = t, 0.0, "tanh"
        out._a, out._b, out._da, out._db = self, None, 1 - t * t, None
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __truediv__(self, other):
        return self * other**-1

    def backward(self):
        order, seen, stack = [], {self}, [self]
        add, push, pop, emit = seen.add, stack.append, stack.pop, order.append
        while stack:
            node = stack[-1]
            a = node._a
            if a is not None and a not in seen:
                add(a)
                push(a)
                continue
            b = node._b
            if b is not None and b not in seen:
                add(b)
                push(b)
                continue
            pop()
            emit(node)
        for v in order:
            v.grad = 0.0
        self.grad = 1.0
        for v in reversed(order):
            a = v._a
            if a is None:
                continue
            g = v.grad
            a.grad += v._da * g
            b = v._b
            if b is not None:
                b.grad += v._db * g
