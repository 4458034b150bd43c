# mypy: allow-untyped-defs
"""The reference solutions of practice mode, written the lecture's way: its Value class, then the
functions and classes built on it. Learners read this code: it is `micrograd practice reveal`'s.

Each exercise's part starts at a `# part: ID` comment and runs to the next one. A `# TODO` comment
marks where the learner's own code starts: the stub keeps what comes before it and the comment,
and raises NotImplementedError in place of the rest (micrograd.practice.reference cuts solutions
and stubs from this file; what follows this docstring, less those comments, is the file
`micrograd practice start` writes).
"""

import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    # part: op-add
    def __add__(self, other):
        # TODO: out = Value(..., (self, other), "+"), a _backward closure, out._backward = ...
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    # part: op-mul
    def __mul__(self, other):
        # TODO: like __add__, with the local derivatives of *
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    # part: op-pow
    def __pow__(self, other):
        if isinstance(other, Value):
            return self._pow_value(other)
        # TODO: other is a number k: out = Value(self.data**other, (self,), f"**{other}") ...
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    # part: op-tanh
    def tanh(self):
        # TODO: t = tanh(self.data); out = Value(t, (self,), "tanh"); its _backward closure
        t = math.tanh(self.data)  # the lecture's (e**2x - 1) / (e**2x + 1), without overflow
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    # part: op-exp
    def exp(self):
        # TODO: out = Value(math.exp(self.data), (self,), "exp"); its _backward closure
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    # part: op-relu
    def relu(self):
        # TODO: out = Value(max(0, self.data), (self,), "ReLU"); its _backward closure
        out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    # part: op-sub
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        # TODO: self - other, built from the ops you have, or as an op with its own closure
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    # part: op-div
    def __truediv__(self, other):
        # TODO: self / other, built from the ops you have, or as an op with its own closure
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    # part: op-log
    def log(self):
        # TODO: out = Value(math.log(self.data), (self,), "log"); its _backward closure
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad

        out._backward = _backward
        return out

    # part: op-pow-value
    def _pow_value(self, other):
        # TODO: self ** other for a Value other: out = Value(..., (self, other), "**") and a
        # closure that gives both self and other their share
        out = Value(self.data**other.data, (self, other), "**")

        def _backward():
            self.grad += other.data * self.data ** (other.data - 1) * out.grad
            other.grad += out.data * math.log(self.data) * out.grad

        out._backward = _backward
        return out

    # part: backward
    def backward(self):
        # TODO: 1. a topological order of the graph; 2. self.grad = 1.0;
        # 3. each Value's _backward(), outputs before inputs
        topo = []
        visited = set()

        def build_topo(v):  # the lecture's recursion: one Python call per Value on the path
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


# part: zero-grad
def zero_grad(params):
    """Set each parameter's grad to 0."""
    for p in params:  # TODO
        p.grad = 0.0  # train() builds the graph anew each step: its parameters are all it keeps


def zero_grad_all(root):
    """Set the grad of every Value in root's graph to 0."""
    seen = set()  # TODO
    stack = [root]
    while stack:
        v = stack.pop()
        if v not in seen:
            seen.add(v)
            v.grad = 0.0
            stack.extend(v._prev)


def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    for _ in range(steps):  # TODO
        loss = loss_fn()
        zero_grad(params)
        loss.backward()
        for p in params:
            p.data += -lr * p.grad


# part: softmax-nll
def softmax(logits):
    """[exp(z) / sum of exp(z) over the logits, for each logit z], with Value ops."""
    counts = [logit.exp() for logit in logits]  # TODO
    denominator = sum(counts)
    return [c / denominator for c in counts]


def nll(probs, target):
    """-log(probs[target])."""
    return -probs[target].log()  # TODO


# part: neuron-mlp
class Neuron:
    def __init__(self, nin):
        # TODO: self.w (nin weights) and self.b
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin, nout):
        # TODO: nout Neurons
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    def __init__(self, nin, nouts):
        # TODO: one Layer per size in nouts
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
