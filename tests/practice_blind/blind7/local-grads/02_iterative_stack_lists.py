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
        return Value(self.data + other.data, [self, other], [1.0, 1.0])

    def __mul__(self, other):
        if not isinstance(other, Value):
            other = Value(other)
        return Value(self.data * other.data, [self, other], [other.data, self.data])

    def __pow__(self, other):
        k = other
        x = self.data
        return Value(x**k, [self], [k * x ** (k - 1)])

    def log(self):
        x = self.data
        return Value(math.log(x), [self], [x**-1])

    def exp(self):
        y = math.exp(self.data)
        return Value(y, [self], [y])

    def relu(self):
        if self.data > 0:
            return Value(self.data, [self], [1.0])
        return Value(0.0, [self], [0.0])

    def backward(self):
        # post-order DFS without recursion: (node, children_done) pairs on an explicit stack
        topo = []
        seen = set()
        stack = [(self, False)]
        while stack:
            node, children_done = stack.pop()
            if children_done:
                topo.append(node)
                continue
            if node in seen:
                continue
            seen.add(node)
            stack.append((node, True))
            for child in node._children:
                if child not in seen:
                    stack.append((child, False))
        self.grad = 1.0
        for node in reversed(topo):
            for i in range(len(node._children)):
                node._children[i].grad += node._local_grads[i] * node.grad
