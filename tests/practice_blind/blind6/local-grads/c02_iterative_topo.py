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
        # TODO: Value(a + b, (self, other), (d/da, d/db))
        if not isinstance(other, Value):
            other = Value(other)
        out = Value(self.data + other.data, (self, other), (1.0, 1.0))
        return out

    def __mul__(self, other):
        # TODO: the product, and each factor's local grad: the other factor
        if not isinstance(other, Value):
            other = Value(other)
        a, b = self.data, other.data
        return Value(a * b, (self, other), (b, a))

    def __pow__(self, other):
        # TODO: other is a number: x ** k, and k * x ** (k - 1)
        k = other
        return Value(self.data ** k, (self,), (k * self.data ** (k - 1),))

    def log(self):
        # TODO: log x, and 1 / x
        return Value(math.log(self.data), (self,), (self.data ** -1,))

    def exp(self):
        # TODO: exp x, and exp x again
        e = math.exp(self.data)
        return Value(e, (self,), (e,))

    def relu(self):
        # TODO: max(0, x), and 1 where x > 0, else 0
        if self.data > 0:
            return Value(self.data, (self,), (1.0,))
        return Value(0.0, (self,), (0.0,))

    def backward(self):
        # TODO: a topological order; self.grad = 1; then, outputs before inputs, for each
        # child of v: child.grad += local_grad * v.grad
        # iterative depth-first search, each node added after all of its children
        topo = []
        visited = set()
        stack = [(self, False)]
        while stack:
            node, children_done = stack.pop()
            if children_done:
                topo.append(node)
                continue
            if node in visited:
                continue
            visited.add(node)
            stack.append((node, True))
            for child in node._children:
                if child not in visited:
                    stack.append((child, False))
        self.grad = 1
        for node in reversed(topo):
            for child, lg in zip(node._children, node._local_grads):
                child.grad += lg * node.grad
