import math


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
        if not isinstance(other, Value):
            other = Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        if not isinstance(other, Value):
            other = Value(other)
        a, b = self.data, other.data
        return Value(a * b, (self, other), (a, b))

    def __pow__(self, other):
        x = self.data
        return Value(x**other, (self,), (other * x ** (other - 1),))

    def log(self):
        x = self.data
        return Value(math.log(x), (self,), (1 / x,))

    def exp(self):
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        x = self.data
        if x > 0:
            return Value(x, (self,), (1,))
        return Value(0, (self,), (0,))

    def backward(self):
        order = []
        seen = set()

        def visit(node):
            if node in seen:
                return
            seen.add(node)
            for c in node._children:
                visit(c)
            order.append(node)

        visit(self)
        self.grad = 1
        for node in reversed(order):
            for c, g in zip(node._children, node._local_grads):
                c.grad += g * node.grad
