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
        other = other if isinstance(other, Value) else Value(float(other))
        out = Value(self.data + other.data, (self, other))
        out._local_grads = (1.0, 1.0)
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(float(other))
        out = Value(self.data * other.data, (self, other))
        out._local_grads = (other.data, self.data)
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only numeric powers"
        out = Value(self.data**other, (self,))
        out._local_grads = (other * self.data ** (other - 1),)
        return out

    def log(self):
        out = Value(math.log(self.data), (self,))
        out._local_grads = (1.0 / self.data,)
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,))
        out._local_grads = (out.data,)  # d/dx e^x = e^x = the output itself
        return out

    def relu(self):
        positive = self.data > 0
        out = Value(self.data * positive, (self,))
        out._local_grads = (float(positive),)
        return out

    def backward(self):
        # Kahn's algorithm: a node is ready once every node that uses it has been processed
        nodes = [self]
        seen = {self}
        i = 0
        while i < len(nodes):
            for child in nodes[i]._children:
                if child not in seen:
                    seen.add(child)
                    nodes.append(child)
            i += 1
        uses = {node: 0 for node in nodes}
        for node in nodes:
            for child in node._children:
                uses[child] += 1
        self.grad = 1
        ready = [self]
        while ready:
            node = ready.pop()
            for child, local_grad in zip(node._children, node._local_grads):
                child.grad += local_grad * node.grad
                uses[child] -= 1
                if uses[child] == 0:
                    ready.append(child)
