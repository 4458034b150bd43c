import math
from collections import deque


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
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, children=(self, other), local_grads=(1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, children=(self, other), local_grads=(other.data, self.data))

    def __pow__(self, other):
        return Value(self.data**other, children=(self,), local_grads=(other * self.data ** (other - 1),))

    def log(self):
        return Value(math.log(self.data), children=(self,), local_grads=(1 / self.data,))

    def exp(self):
        return Value(math.exp(self.data), children=(self,), local_grads=(math.exp(self.data),))

    def relu(self):
        return Value(max(self.data, 0), children=(self,), local_grads=(int(self.data > 0),))

    def backward(self):
        # how many edges point into each node from the part of the graph above it
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
        ready = deque([self])
        while ready:
            v = ready.popleft()
            for c, lg in zip(v._children, v._local_grads):
                c.grad += lg * v.grad
                pending[id(c)] -= 1
                if pending[id(c)] == 0:
                    ready.append(c)
