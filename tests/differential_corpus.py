"""The programs that tests/test_differential.py runs under micrograd 0.1.0 and under this package.

Each entry: a name, the source, the README row id of the known difference it shows (or None: it
must print exactly what the original prints), and whether its numbers are compared to 1e-12
relative instead of exactly (`sums=True`: where a Value receives several contributions, the
original adds them in the order of its set-based topological sort, which varies by run).
"""

from dataclasses import dataclass

from hypothesis import strategies as st

from test_seed_documents import CHAPTER_EXAMPLES, QUESTION_TEST_CODE, README_EXAMPLE


@dataclass(frozen=True)
class Program:
    name: str
    source: str
    differs: str | None = None  # an id of the README's "Where this differs" table
    sums: bool = False  # numbers to 1e-12 relative


V = "from micrograd.engine import Value\n"
NN = "import random\nfrom micrograd.nn import Neuron, Layer, MLP\n"

CURATED = [
    Program("original README example", README_EXAMPLE, sums=True),
    Program("seed question's test code", V + QUESTION_TEST_CODE + "print(b.grad)\n", sums=True),
    *[
        Program(f"seed chapter example {i + 1}", code)
        for i, (code, _) in enumerate(CHAPTER_EXAMPLES)
    ],
    Program("print a fresh Value", V + "print(Value(-4.0))\n"),
    Program(
        "grads of a + chain are the int 1",
        V + "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\nL = c + 10\nL.backward()\nprint(c, L)\n",
    ),
    Program("a Value made from an int", V + "print(Value(0))\nprint(Value(3) * 2)\n", "float-data"),
    Program(
        "relu of a negative number",
        V + "y = Value(-2.0).relu()\ny.backward()\nprint(y)\n",
        "float-data",
    ),
    Program(
        "model reprs with default arguments",
        NN + "random.seed(1337)\nprint(Neuron(2))\nprint(Neuron(3, nonlin=False))\n"
        "print(Layer(2, 3))\nprint(MLP(2, [16, 16, 1]))\nprint(MLP(3, [4, 4, 1]).parameters()[:3])\n",
    ),
    Program(
        "zero_grad, then a weight",
        V + NN + "random.seed(1)\nmodel = MLP(2, [3, 1])\n"
        "model([Value(1.0), Value(-2.0)]).backward()\nmodel.zero_grad()\nprint(model.parameters()[0])\n",
    ),
    Program(
        "zero_grad, then a bias",
        V + NN + "random.seed(1)\nmodel = MLP(2, [3, 1])\n"
        "model([Value(1.0), Value(-2.0)]).backward()\nmodel.zero_grad()\nprint(model.parameters()[-1])\n",
        "float-data",
    ),
    Program(
        "lecture: labels by hand, manual _backward() calls",
        V
        + """
a = Value(2.0); a.label = 'a'
b = Value(-3.0); b.label = 'b'
c = Value(10.0); c.label = 'c'
e = a * b; e.label = 'e'
d = e + c; d.label = 'd'
f = Value(-2.0); f.label = 'f'
L = d * f; L.label = 'L'
L.grad = 1.0
L._backward()
d._backward()
e._backward()
print(a.grad, b.grad, c.grad, d.grad, e.grad, f.grad)
print([v.label for v in (a, b, c, d, e, f, L)], L.data, L._op, e._op)
""",
    ),
    Program(
        "lecture: a tanh neuron with a closure",
        V
        + """
import math

def tanh(self):
    x = self.data
    t = (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1)
    out = Value(t, (self,), 'tanh')
    def _backward():
        self.grad += (1 - t**2) * out.grad
    out._backward = _backward
    return out

x1 = Value(2.0); x2 = Value(0.0); w1 = Value(-3.0); w2 = Value(1.0)
b = Value(6.8813735870195432)
n = x1 * w1 + x2 * w2 + b
o = tanh(n)
o.backward()
print(o, n._op, o._op)
print(x1.grad, w1.grad, x2.grad, w2.grad, b.grad)
""",
    ),
    Program(
        "lecture: draw_dot-style traversal of _prev",
        V
        + """
def trace(root):
    nodes, edges = set(), set()
    def build(v):
        if v not in nodes:
            nodes.add(v)
            for child in v._prev:
                edges.add((child, v))
                build(child)
    build(root)
    return nodes, edges

a = Value(2.0); b = Value(-3.0)
c = (a * b + a) ** 2
nodes, edges = trace(c)
print(len(nodes), len(edges))
print(sorted(n._op for n in nodes))
print(sorted((x.data, y._op) for x, y in edges))
""",
    ),
    Program(
        "the demo notebook's training loop, 3 steps",
        V
        + NN
        + """
random.seed(1337)
X = [[0.5, 1.0], [-1.0, 0.3], [1.5, -0.5], [0.2, 0.2], [-0.7, -1.2], [1.1, 0.9]]
y = [1, -1, 1, -1, -1, 1]
model = MLP(2, [8, 8, 1])
print(model)
print("number of parameters", len(model.parameters()))
for k in range(3):
    inputs = [list(map(Value, xrow)) for xrow in X]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum((p * p for p in model.parameters()))
    total_loss = data_loss + reg_loss
    accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(y, scores)]
    acc = sum(accuracy) / len(accuracy)
    model.zero_grad()
    total_loss.backward()
    for p in model.parameters():
        p.data -= 0.1 * p.grad
    print(f"step {k} loss {total_loss.data}, accuracy {acc*100}%")
""",
        sums=True,
    ),
    Program(
        "_prev is a tuple",
        V
        + "a, b = Value(1.0), Value(2.0)\nprint(type((a * b)._prev).__name__, len((a + a)._prev))\n",
        "prev-tuple",
    ),
    Program(
        "backward twice",
        V + "a = Value(3.0)\nc = (a * a) * (a * a)\nc.backward()\nprint(a.grad)\nc.backward()\n"
        "print(a.grad)\n",
        "backward-twice",
    ),
    # Leaves accumulate as the original's `+=`: each contribution lands on what the leaf held. The
    # graphs are chains, so the original's order of contributions is fixed too: exact comparisons.
    Program(
        "accumulating across graphs without zeroing",
        V
        + """
a, b = Value(-0.9), Value(-0.4)
for step in range(4):  # backward(), new inputs, a new graph, backward() again
    y = ((a * b) ** 2 * a) * b
    y.backward()
    print(step, repr(a.grad), repr(b.grad))
    a.data += 0.37
    b.data -= 0.21
""",
    ),
    Program(
        "a per-sample loop with a weight used twice",
        "import random\n"
        + V
        + """
random.seed(3)
data = [(random.uniform(-2, 2), random.uniform(-1, 1)) for _ in range(40)]
w, c = Value(0.5), Value(0.8)
for epoch in range(5):
    for x, y in data:  # backward() after each sample's loss, one step per pass over the data
        pred = (w * x + c).relu() * w  # w used twice: two contributions a sample
        loss = (pred - y) ** 2
        loss.backward()
    for p in (w, c):
        p.data -= 0.01 * p.grad
        p.grad = 0
    print(epoch, repr(w.data), repr(c.data))
""",
    ),
    Program(
        "a per-sample loop over an MLP, weights at full precision",
        V
        + NN
        + """
random.seed(7)
model = MLP(2, [4, 1])
data = [([random.uniform(-1, 1), random.uniform(-1, 1)], random.choice([-1.0, 1.0])) for _ in range(10)]
for epoch in range(3):
    for x, y in data:
        loss = (1 + -y * model(x)).relu()
        loss.backward()
    for p in model.parameters():
        p.data -= 0.1 * p.grad
    model.zero_grad()
    print(epoch, [repr(p.data) for p in model.parameters()], repr(loss.data))
""",
    ),
    Program(
        "data changed between forward and backward",
        V
        + "a, b = Value(2.0), Value(3.0)\nc = a * b\na.data = 10.0\nc.backward()\nprint(a.grad, b.grad)\n",
        "saved-locals",
    ),
    Program(
        "division is one op", V + "a, b = Value(3.0), Value(7.0)\nprint((a / b)._op)\n", "division"
    ),
    Program(
        "a / a for a tiny a",
        V + "a = Value(9.4e-293)\ny = a / a\ny.backward()\nprint(y.data, a.grad)\n",
        "division",
    ),
    Program("Value of a string", V + "print(Value('abc'))\n", "errors"),
    Program(
        "the message of a bad operand",
        V + "try:\n    Value(1.0) + 'a'\nexcept TypeError as e:\n    print(e)\n",
        "errors",
    ),
    Program(
        "a 5,000-deep chain",
        V
        + "x = Value(1.0)\ny = x\nfor _ in range(5000):\n    y = y + x\ny.backward()\nprint(x.grad)\n",
        "recursion",
    ),
    Program("x ** y with a Value y", V + "print((Value(2.0) ** Value(3.0)).data)\n", "more-ops"),
    Program("comparisons", V + "print(Value(1.0) < Value(2.0))\n", "more-ops"),
]

# ---------------------------------------------------------------------------- generated programs
INPUTS = st.sampled_from([-2.5, -1.5, -0.5, 0.5, 1.25, 2.0, 3.0])


@st.composite
def generated(draw: st.DrawFn) -> str:
    """A straight-line program of the ops both packages have (+ - * / ** relu, numbers on either
    side, reused subexpressions), printing the output and every Value's data and grad."""
    n_inputs = draw(st.integers(1, 3))
    lines = [f"x{i} = Value({draw(INPUTS)!r})" for i in range(n_inputs)]
    names = [f"x{i}" for i in range(n_inputs)]
    for k in range(draw(st.integers(1, 7))):
        a, b = draw(st.sampled_from(names)), draw(st.sampled_from(names))  # reuse is likely
        c = draw(INPUTS)
        expr = draw(
            st.sampled_from(
                [
                    f"{a} + {b}",
                    f"{a} - {b}",
                    f"{a} * {b}",
                    f"{a} / {b}",
                    f"{a} ** {draw(st.sampled_from([2, 3, -1]))}",
                    f"{a}.relu()",
                    f"{a} + {c!r}",
                    f"{c!r} - {a}",
                    f"{c!r} * {a}",
                    f"{a} / {c!r}",
                    f"-{a}",
                ]
            )
        )
        lines.append(f"v{k} = {expr}")
        names.append(f"v{k}")
    lines += [
        f"out = {names[-1]}",
        "out.backward()",
        "print(out)",
        f"for v in [{', '.join(names)}]:",
        "    print(v.data, v.grad)",
    ]
    return "from micrograd.engine import Value\n" + "\n".join(lines) + "\n"
