import math
import random


class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children  # the Values this one was made from
        self._local_grads = local_grads  # d(this)/d(child), one per child, fixed when made

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def __add__(self, other):
        o = other if isinstance(other, Value) else Value(other)
        return Value(self.data + o.data, (self, o), (1.0, 1.0))

    def __mul__(self, other):
        o = other if isinstance(other, Value) else Value(other)
        a, b = self.data, o.data
        return Value(a * b, (self, o), (b, a))

    def __pow__(self, k):
        x = self.data
        return Value(x**k, (self,), (k * x ** (k - 1),))

    def log(self):
        x = self.data
        return Value(math.log(x), (self,), (1.0 / x,))

    def exp(self):
        e = math.exp(self.data)
        return Value(e, (self,), (e,))

    def relu(self):
        on = self.data > 0
        return Value(self.data if on else 0.0, (self,), (1.0 if on else 0.0,))

    def backward(self):
        # Kahn's algorithm: a Value is ready once every edge into it from a user is spent
        pending = {}
        stack, seen = [self], {id(self)}
        while stack:
            v = stack.pop()
            for c in v._children:
                pending[id(c)] = pending.get(id(c), 0) + 1
                if id(c) not in seen:
                    seen.add(id(c))
                    stack.append(c)
        self.grad = 1
        ready = [self]
        while ready:
            v = ready.pop()
            for c, g in zip(v._children, v._local_grads):
                c.grad += g * v.grad
                pending[id(c)] -= 1
                if pending[id(c)] == 0:
                    ready.append(c)
