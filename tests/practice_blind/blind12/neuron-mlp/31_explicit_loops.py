# micrograd practice: neuron-mlp: Neuron, Layer and MLP
#
# Task: Write Neuron(nin), Layer(nin, nout) and MLP(nin, nouts) as in the lecture: a Neuron has
# weights w (a list) and a bias b and computes act(sum(w*x) + b) with tanh or relu; parameters()
# lists w, then b; a Layer of one neuron returns that Value, not a list. The check compares
# MLP(2, [8, 8, 1])'s grads with micrograd's engine, then trains it a few steps on two moons,
# each step's loss against the engine's.
#
# check it:   micrograd practice check neuron-mlp
# a hint:     micrograd practice hint neuron-mlp

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

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    def __pow__(self, other):
        if isinstance(other, Value):
            return self._pow_value(other)
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)  # the lecture's (e**2x - 1) / (e**2x + 1), without overflow
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad

        out._backward = _backward
        return out

    def _pow_value(self, other):
        out = Value(self.data**other.data, (self, other), "**")

        def _backward():
            self.grad += other.data * self.data ** (other.data - 1) * out.grad
            other.grad += out.data * math.log(self.data) * out.grad

        out._backward = _backward
        return out

    def backward(self):
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


class Neuron:
    def __init__(self, nin):
        self.w = []
        for _ in range(nin):
            self.w.append(Value(random.uniform(-1, 1)))
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        total = self.b
        for weight, xi in zip(self.w, x):
            total = total + weight * xi
        return total.tanh()

    def parameters(self):
        return [*self.w, self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = []
        for _ in range(nout):
            self.neurons.append(Neuron(nin))

    def __call__(self, x):
        results = []
        for neuron in self.neurons:
            results.append(neuron(x))
        if len(results) == 1:
            return results[0]
        return results

    def parameters(self):
        out = []
        for neuron in self.neurons:
            out.extend(neuron.parameters())
        return out


class MLP:
    def __init__(self, nin, nouts):
        self.layers = []
        fan_in = nin
        for fan_out in nouts:
            self.layers.append(Layer(fan_in, fan_out))
            fan_in = fan_out

    def __call__(self, x):
        h = x
        for layer in self.layers:
            h = layer(h)
        return h

    def parameters(self):
        out = []
        for layer in self.layers:
            out.extend(layer.parameters())
        return out
