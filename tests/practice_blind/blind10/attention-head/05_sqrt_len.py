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
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, other):
        return Value(self.data**other, (self,), (other * self.data ** (other - 1),))

    def log(self):
        return Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return Value(max(0, self.data), (self,), (float(self.data > 0),))

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._children:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad


def linear(x, w):
    """w x, no bias: one output per row of w, the dot product of that row with x."""
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def softmax(logits):
    """exp(z) / the sum of exp over all the logits, for each logit z; the largest logit (a plain
    number) subtracted first, so no exp overflows."""
    max_val = max(z.data for z in logits)
    exps = [(z - max_val).exp() for z in logits]
    total = sum(exps)
    return [e / total for e in exps]


def rmsnorm(x):
    """x / sqrt(mean(x ** 2) + 1e-5): each element scaled by one number, from all of them."""
    ms = sum(xi * xi for xi in x) / len(x)
    scale = (ms + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def attention_head(xs, wq, wk, wv):
    """One causal attention head over the vectors xs, read one token at a time as microgpt
    reads them: token t's query, key and value (linear with wq, wk, wv); its key and value
    appended to the cache; then q · k / sqrt(d) with every key in the cache, their softmax, and
    the weighted sum of the cached values. Returns the output of each token."""
    keys, values, outs = [], [], []
    for x in xs:
        q = linear(x, wq)
        keys.append(linear(x, wk))
        values.append(linear(x, wv))
        n = len(keys)
        scores = [sum(qj * kj for qj, kj in zip(q, k)) / math.sqrt(n) for k in keys]
        weights = softmax(scores)
        outs.append([sum(a * v[j] for a, v in zip(weights, values)) for j in range(len(q))])
    return outs
