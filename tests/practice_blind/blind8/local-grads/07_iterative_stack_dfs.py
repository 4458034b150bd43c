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
        return Value(self.data + other.data, (self, other), (1.0, 1.0))

    def __mul__(self, other):
        if not isinstance(other, Value):
            other = Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, other):
        grad = other * self.data ** (other - 1)
        return Value(self.data**other, (self,), (grad,))

    def log(self):
        return Value(math.log(self.data), (self,), (self.data**-1,))

    def exp(self):
        y = math.e**self.data
        return Value(y, (self,), (y,))

    def relu(self):
        on = self.data > 0
        return Value(self.data if on else 0.0, (self,), (1.0 if on else 0.0,))

    def backward(self):
        # post-order DFS without recursion (deep graphs would hit the recursion limit)
        order = []
        done = set()
        stack = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
                continue
            if node in done:
                continue
            done.add(node)
            stack.append((node, True))
            for child in node._children:
                if child not in done:
                    stack.append((child, False))
        self.grad = 1
        for node in reversed(order):
            for child, lg in zip(node._children, node._local_grads):
                child.grad += lg * node.grad
