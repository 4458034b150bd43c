# micrograd practice: zero-grad: zero_grad: the accumulation traps
#
# Task: Write three functions after the class: zero_grad(params) sets each parameter's grad to
# 0; zero_grad_all(root) sets the grad of every Value in root's graph to 0, so that
# root.backward() can run again on the same graph; train(params, loss_fn, steps, lr) runs the
# lecture's loop steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr *
# p.grad.
#
# check it:   micrograd practice check zero-grad
# a hint:     micrograd practice hint zero-grad

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


def zero_grad(params):
    """Set each parameter's grad to 0."""
    raise NotImplementedError("zero_grad")  # TODO


def zero_grad_all(root):
    """Set the grad of every Value in root's graph to 0."""
    raise NotImplementedError("zero_grad_all")  # TODO


def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    raise NotImplementedError("train")  # TODO
