"""The reference solutions, written the lecture's way, and the stubs built from them.

Each part is source text: `reveal` shows it as it stands, `start` writes the whole engine with the
exercise's parts replaced by a stub, and the tests check that the reference passes every exercise.
"""

from __future__ import annotations

HEADER = """\
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
"""

# the parts of the reference engine, in the lecture's order; each is indented as a class body
PARTS: dict[str, str] = {
    "add": """
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
""",
    "mul": """
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
""",
    "pow": """
    def __pow__(self, other):
        if isinstance(other, Value):
            return self._pow_value(other)
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out
""",
    "tanh": """
    def tanh(self):
        t = math.tanh(self.data)  # the lecture's (e**2x - 1) / (e**2x + 1), without overflow
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out
""",
    "exp": """
    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out
""",
    "relu": """
    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out
""",
    "sub": """
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)
""",
    "div": """
    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1
""",
    "log": """
    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad

        out._backward = _backward
        return out
""",
    "pow-value": """
    def _pow_value(self, other):
        out = Value(self.data**other.data, (self, other), "**")

        def _backward():
            self.grad += other.data * self.data ** (other.data - 1) * out.grad
            other.grad += out.data * math.log(self.data) * out.grad

        out._backward = _backward
        return out
""",
    "backward": """
    def backward(self):
        topo = []
        visited = set()
        stack = [(self, False)]
        while stack:  # a loop, not recursion: a chain of any length works
            v, expanded = stack.pop()
            if expanded:
                topo.append(v)
            elif v not in visited:
                visited.add(v)
                stack.append((v, True))
                stack.extend((child, False) for child in v._prev)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
""",
}

FUNCTIONS: dict[str, str] = {
    "derivative": '''

def f(a, b, c):
    return -a**3 + math.sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def gradf(a, b, c):
    """[df/da, df/db, df/dc], term by term."""
    return [-3 * a**2 - 0.5 * a**-0.5, 3 * math.cos(3 * b) + 2.5 * b**1.5, 1.0 / c**2]


def numerical_grad(f, a, b, c, h):
    """Forward differences: nudge one input by h, keep the others."""
    f0 = f(a, b, c)
    return [(f(a + h, b, c) - f0) / h, (f(a, b + h, c) - f0) / h, (f(a, b, c + h) - f0) / h]


def symmetric_grad(f, a, b, c, h):
    """Central differences: nudge up and down, divide by 2h."""
    return [
        (f(a + h, b, c) - f(a - h, b, c)) / (2 * h),
        (f(a, b + h, c) - f(a, b - h, c)) / (2 * h),
        (f(a, b, c + h) - f(a, b, c - h)) / (2 * h),
    ]
''',
    "softmax-nll": """

def softmax(logits):
    counts = [logit.exp() for logit in logits]
    denominator = sum(counts)
    return [c / denominator for c in counts]


def nll(probs, target):
    return -probs[target].log()
""",
    "zero-grad": '''

def zero_grad(params):
    """Set each parameter's grad to 0 (the graph is rebuilt every step, so that is enough)."""
    for p in params:
        p.grad = 0.0


def zero_grad_all(root):
    """Set the grad of every Value in root's graph to 0, to run backward() on it again."""
    seen = set()
    stack = [root]
    while stack:
        v = stack.pop()
        if v not in seen:
            seen.add(v)
            v.grad = 0.0
            stack.extend(v._prev)


def train(params, loss_fn, steps, lr):
    """The lecture's loop: forward, zero the grads, backward, update."""
    for _ in range(steps):
        loss = loss_fn()
        zero_grad(params)
        loss.backward()
        for p in params:
            p.data += -lr * p.grad
''',
    "neuron-mlp": """

class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
""",
}

# what each exercise asks the learner to write: parts of the class, or functions after it
ASKS: dict[str, tuple[str, ...]] = {
    "op-add": ("add",),
    "op-mul": ("mul",),
    "op-pow": ("pow",),
    "op-tanh": ("tanh",),
    "op-exp": ("exp",),
    "op-relu": ("relu",),
    "op-sub": ("sub",),
    "op-div": ("div",),
    "op-log": ("log",),
    "op-pow-value": ("pow-value",),
    "backward": ("backward",),
    "zero-grad": ("zero-grad",),
    "neuron-mlp": ("neuron-mlp",),
    "derivative": ("derivative",),
    "softmax-nll": ("softmax-nll",),
}

STUBS: dict[str, str] = {
    "add": """
    def __add__(self, other):
        # TODO: out = Value(..., (self, other), "+"), a _backward closure, out._backward = ...
        raise NotImplementedError("__add__")

    def __radd__(self, other):
        return self + other
""",
    "mul": """
    def __mul__(self, other):
        # TODO: like __add__, with the local derivatives of *
        raise NotImplementedError("__mul__")

    def __rmul__(self, other):
        return self * other
""",
    "pow": """
    def __pow__(self, other):
        if isinstance(other, Value):
            return self._pow_value(other)
        # TODO: other is a number k: out = Value(self.data**other, (self,), f"**{other}") ...
        raise NotImplementedError("__pow__")
""",
    "tanh": """
    def tanh(self):
        # TODO: t = tanh(self.data); out = Value(t, (self,), "tanh"); its _backward closure
        raise NotImplementedError("tanh")
""",
    "exp": """
    def exp(self):
        # TODO: out = Value(math.exp(self.data), (self,), "exp"); its _backward closure
        raise NotImplementedError("exp")
""",
    "relu": """
    def relu(self):
        # TODO: out = Value(max(0, self.data), (self,), "ReLU"); its _backward closure
        raise NotImplementedError("relu")
""",
    "sub": """
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        # TODO: self - other, built from the ops you have, or as an op with its own closure
        raise NotImplementedError("__sub__")

    def __rsub__(self, other):
        return other + (-self)
""",
    "div": """
    def __truediv__(self, other):
        # TODO: self / other, built from the ops you have, or as an op with its own closure
        raise NotImplementedError("__truediv__")

    def __rtruediv__(self, other):
        return other * self**-1
""",
    "log": """
    def log(self):
        # TODO: out = Value(math.log(self.data), (self,), "log"); its _backward closure
        raise NotImplementedError("log")
""",
    "pow-value": """
    def _pow_value(self, other):
        # TODO: self ** other for a Value other: out = Value(..., (self, other), "**") and a
        # closure that gives both self and other their share
        raise NotImplementedError("_pow_value")
""",
    "backward": """
    def backward(self):
        # TODO: 1. a topological order of the graph; 2. self.grad = 1.0;
        # 3. each Value's _backward(), outputs before inputs
        raise NotImplementedError("backward")
""",
    "zero-grad": '''

def zero_grad(params):
    """Set each parameter's grad to 0."""
    raise NotImplementedError("zero_grad")


def zero_grad_all(root):
    """Set the grad of every Value in root's graph to 0."""
    raise NotImplementedError("zero_grad_all")


def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    raise NotImplementedError("train")
''',
    "derivative": '''

def f(a, b, c):
    return -a**3 + math.sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    raise NotImplementedError("gradf")  # TODO


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    raise NotImplementedError("numerical_grad")  # TODO


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    raise NotImplementedError("symmetric_grad")  # TODO
''',
    "softmax-nll": '''

def softmax(logits):
    """[exp(z) / sum of exp(z) over the logits, for each logit z], with Value ops."""
    raise NotImplementedError("softmax")  # TODO


def nll(probs, target):
    """-log(probs[target])."""
    raise NotImplementedError("nll")  # TODO
''',
    "neuron-mlp": """

class Neuron:
    def __init__(self, nin):
        raise NotImplementedError("Neuron")  # TODO: self.w (nin weights) and self.b


class Layer:
    def __init__(self, nin, nout):
        raise NotImplementedError("Layer")  # TODO: nout Neurons


class MLP:
    def __init__(self, nin, nouts):
        raise NotImplementedError("MLP")  # TODO: one Layer per size in nouts
""",
}


# exercises on plain numbers: their files need no Value class
NO_ENGINE = ("derivative",)


def reference(exercise_id: str | None = None) -> str:
    """The whole reference engine (with the functions and classes of `exercise_id`, or of all)."""
    if exercise_id in NO_ENGINE:
        return "import math\n" + FUNCTIONS[exercise_id]
    body = HEADER + "".join(PARTS.values())
    wanted = FUNCTIONS if exercise_id is None else {}
    if exercise_id in FUNCTIONS:
        wanted = {exercise_id: FUNCTIONS[exercise_id]}
    return body + "".join(wanted.values())


def stub(exercise_id: str) -> str:
    """The reference engine with the parts the exercise asks for left to write."""
    asks = ASKS[exercise_id]
    if exercise_id in NO_ENGINE:
        return "import math\n" + STUBS[exercise_id]
    parts = "".join(STUBS[name] if name in asks else text for name, text in PARTS.items())
    extra = "".join(STUBS[name] for name in asks if name in FUNCTIONS)
    return HEADER + parts + extra


def solution(exercise_id: str) -> str:
    """The reference text of what the exercise asks for, as `reveal` shows it."""
    texts = [PARTS.get(name) or FUNCTIONS[name] for name in ASKS[exercise_id]]
    return "\n".join(t.strip("\n") for t in texts) + "\n"
