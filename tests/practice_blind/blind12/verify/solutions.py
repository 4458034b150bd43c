"""The 50 learner solutions: (key, exercise, name, correct, kind, code).

kind "todo": code replaces the single '# TODO ... raise NotImplementedError(...)' block of a
method (code written at column 0, indented to the block's indentation);
kind "tail": code replaces everything from the marker line (first def/class after the Value
class) to the end of the stub.
"""

S = []


def add(key, exercise, name, correct, kind, code):
    S.append(dict(key=key, exercise=exercise, name=name, correct=correct, kind=kind, code=code))


# ------------------------------------------------------------------ derivative
add(1, "derivative", "shorthand_powers", False, "tail", '''
def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    dfda = -3 * a**2 - 0.5 * a ** -1/2
    dfdb = 3 * math.cos(3 * b) + 2.5 * b**1.5
    dfdc = 1 / c**2
    return [dfda, dfdb, dfdc]


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    f0 = f(a, b, c)
    return [
        (f(a + h, b, c) - f0) / h,
        (f(a, b + h, c) - f0) / h,
        (f(a, b, c + h) - f0) / h,
    ]


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    return [
        (f(a + h, b, c) - f(a - h, b, c)) / (2 * h),
        (f(a, b + h, c) - f(a, b - h, c)) / (2 * h),
        (f(a, b, c + h) - f(a, b, c - h)) / (2 * h),
    ]
''')

add(2, "derivative", "loop_args", False, "tail", '''
def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    return [
        -3 * a**2 - 0.5 * a**-0.5,
        3 * math.cos(3 * b) + 2.5 * b**1.5,
        1 / c**2,
    ]


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    x = [a, b, c]
    f0 = f(*x)
    grads = []
    for i in range(3):
        x[i] += h
        grads.append((f(*x) - f0) / h)
    return grads


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    da = (f(a + h, b, c) - f(a - h, b, c)) / (2 * h)
    db = (f(a, b + h, c) - f(a, b - h, c)) / (2 * h)
    dc = (f(a, b, c + h) - f(a, b, c - h)) / (2 * h)
    return [da, db, dc]
''')

add(3, "derivative", "nudge_helper", True, "tail", '''
def gradf(a, b, c):
    """[df/da, df/db, df/dc], worked out by hand."""
    root_a = math.sqrt(a)
    return [
        -3.0 * a * a - 1.0 / (2.0 * root_a),  # d(-a^3)/da + d(-a^(1/2))/da
        3.0 * math.cos(3.0 * b) + 2.5 * b * math.sqrt(b),  # chain rule on sin(3b), b^2.5
        1.0 / (c * c),  # d(-1/c)/dc
    ]


def _nudged(args, i, dx):
    """args with the i-th one moved by dx."""
    moved = list(args)
    moved[i] = moved[i] + dx
    return moved


def numerical_grad(f, a, b, c, h):
    """[df/da, df/db, df/dc] by forward differences: (f(a + h, b, c) - f(a, b, c)) / h, ..."""
    args = (a, b, c)
    here = f(*args)
    return [(f(*_nudged(args, i, h)) - here) / h for i in range(len(args))]


def symmetric_grad(f, a, b, c, h):
    """The same by central differences: (f(a + h, b, c) - f(a - h, b, c)) / (2 * h), ..."""
    args = (a, b, c)
    return [
        (f(*_nudged(args, i, h)) - f(*_nudged(args, i, -h))) / (2 * h)
        for i in range(len(args))
    ]
''')

# ------------------------------------------------------------------ op-add
add(4, "op-add", "children_loop", False, "todo", '''
other = other if isinstance(other, Value) else Value(other)
out = Value(self.data + other.data, (self, other), "+")

def _backward():
    # + just routes the gradient to every input unchanged
    for child in out._prev:
        child.grad += out.grad

out._backward = _backward
return out
''')

add(5, "op-add", "default_args", True, "todo", '''
rhs = other if isinstance(other, Value) else Value(other)
total = Value(self.data + rhs.data, (self, rhs), "+")

def _backward(left=self, right=rhs, node=total):
    # d(l + r)/dl = d(l + r)/dr = 1: both get the whole upstream gradient
    left.grad += node.grad
    right.grad += node.grad

total._backward = _backward
return total
''')

# ------------------------------------------------------------------ op-mul
add(6, "op-mul", "from_output", False, "todo", '''
other = other if isinstance(other, Value) else Value(other)
out = Value(self.data * other.data, (self, other), "*")

def _backward():
    # d(xy)/dx = y = xy / x  and  d(xy)/dy = x = xy / y
    self.grad += out.data / self.data * out.grad
    other.grad += out.data / other.data * out.grad

out._backward = _backward
return out
''')

add(7, "op-mul", "tuple_update", False, "todo", '''
other = other if isinstance(other, Value) else Value(other)
out = Value(self.data * other.data, (self, other), "*")

def _backward():
    self.grad, other.grad = (
        self.grad + other.data * out.grad,
        other.grad + self.data * out.grad,
    )

out._backward = _backward
return out
''')

# ------------------------------------------------------------------ op-pow
add(8, "op-pow", "from_output", False, "todo", '''
out = Value(self.data**other, (self,), f"**{other}")

def _backward():
    # k * x**(k-1) is the same as k * x**k / x, and x**k is already in out.data
    self.grad += other * out.data / self.data * out.grad

out._backward = _backward
return out
''')

add(9, "op-pow", "repeated_product", False, "todo", '''
out = Value(self.data**other, (self,), f"**{other}")

def _backward():
    # power rule: k * x * x * ... * x  (k - 1 factors of x)
    local = other
    for _ in range(other - 1):
        local *= self.data
    self.grad += local * out.grad

out._backward = _backward
return out
''')

add(10, "op-pow", "real_base", False, "todo", '''
out = Value(self.data**other, (self,), f"**{other}")

def _backward():
    # abs() so that a fractional power of a negative number does not turn complex
    self.grad += other * abs(self.data) ** (other - 1) * out.grad

out._backward = _backward
return out
''')

add(11, "op-pow", "builtin_pow", True, "todo", '''
k = other
base = self
result = Value(pow(base.data, k), (base,), f"**{k}")

def _backward():
    slope = k * pow(base.data, k - 1)  # the power rule, evaluated when the grad is needed
    base.grad += slope * result.grad

result._backward = _backward
return result
''')

# ------------------------------------------------------------------ op-tanh
add(12, "op-tanh", "math_tanh", False, "todo", '''
t = math.tanh(self.data)
out = Value(t, (self,), "tanh")

def _backward():
    self.grad = (1 - t**2) * out.grad

out._backward = _backward
return out
''')

add(13, "op-tanh", "lecture_formula", False, "todo", '''
x = min(max(self.data, -5.0), 5.0)  # tanh is flat out there anyway; keeps exp() from overflowing
e2x = math.exp(2 * x)
t = (e2x - 1) / (e2x + 1)
out = Value(t, (self,), "tanh")

def _backward():
    self.grad += (1 - t**2) * out.grad

out._backward = _backward
return out
''')

add(14, "op-tanh", "one_liner", False, "todo", '''
t = math.tanh(self.data)
out = Value(t, (self,), "tanh")

def _backward():
    self.grad += 1 - t**2 * out.grad

out._backward = _backward
return out
''')

add(15, "op-tanh", "expm1", True, "todo", '''
x = self.data
em = math.expm1(-2.0 * abs(x))  # e**(-2|x|) - 1, never overflows
y = math.copysign(-em / (2.0 + em), x)  # (1 - e**-2|x|) / (1 + e**-2|x|), with x's sign
node = Value(y, (self,), "tanh")

def _backward():
    self.grad += (1.0 - y * y) * node.grad  # sech^2 = 1 - tanh^2

node._backward = _backward
return node
''')

# ------------------------------------------------------------------ op-exp
add(16, "op-exp", "power_rule", False, "todo", '''
out = Value(math.exp(self.data), (self,), "exp")

def _backward():
    self.grad += self.data * math.exp(self.data - 1) * out.grad

out._backward = _backward
return out
''')

add(17, "op-exp", "cached_exp", False, "todo", '''
e = math.exp(self.data)
out = Value(e, (), "exp")

def _backward():
    self.grad += e * out.grad

out._backward = _backward
return out
''')

# ------------------------------------------------------------------ op-relu
add(18, "op-relu", "conditional", False, "todo", '''
out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

def _backward():
    self.grad += out.grad if self.data else 0.0

out._backward = _backward
return out
''')

add(19, "op-relu", "mask", False, "todo", '''
out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

def _backward():
    self.grad += (out.grad > 0) * out.grad

out._backward = _backward
return out
''')

# ------------------------------------------------------------------ op-sub
add(20, "op-sub", "sign_table", False, "todo", '''
other = other if isinstance(other, Value) else Value(other)
out = Value(self.data - other.data, (self, other), "-")
signs = {self: 1.0, other: -1.0}

def _backward():
    for v, s in signs.items():
        v.grad += s * out.grad

out._backward = _backward
return out
''')

add(21, "op-sub", "negate_and_add", False, "todo", '''
return other + (-self)
''')

add(22, "op-sub", "own_closure", True, "todo", '''
rhs = other if isinstance(other, Value) else Value(other)
diff = Value(self.data - rhs.data, (self, rhs), "-")

def _backward():
    self.grad += diff.grad  # d(a - b)/da = +1
    rhs.grad -= diff.grad  # d(a - b)/db = -1

diff._backward = _backward
return diff
''')

# ------------------------------------------------------------------ op-div
add(23, "op-div", "own_closure", False, "todo", '''
other = other if isinstance(other, Value) else Value(other)
out = Value(self.data / other.data, (self, other), "/")

def _backward():
    self.grad += (1 / other.data) * out.grad
    other.grad = (-out.data / other.data) * out.grad

out._backward = _backward
return out
''')

add(24, "op-div", "ratio_squared", False, "todo", '''
other = other if isinstance(other, Value) else Value(other)
out = Value(self.data / other.data, (self, other), "/")

def _backward():
    self.grad += out.grad / other.data
    other.grad += -(self.data / other.data) ** 2 * out.grad

out._backward = _backward
return out
''')

add(25, "op-div", "reciprocal", False, "todo", '''
if isinstance(other, Value):
    inv = Value(1.0 / other.data)
else:
    inv = Value(1.0 / other)
return self * inv
''')

add(26, "op-div", "quotient_closure", True, "todo", '''
denom = other if isinstance(other, Value) else Value(other)
q = self.data / denom.data
out = Value(q, (self, denom), "/")

def _backward():
    g = out.grad
    self.grad += g / denom.data  # d(a/b)/da = 1/b
    denom.grad += -q / denom.data * g  # d(a/b)/db = -a/b**2 = -(a/b)/b

out._backward = _backward
return out
''')

# ------------------------------------------------------------------ op-log
add(27, "op-log", "reciprocal_rule", False, "todo", '''
out = Value(math.log(self.data), (self,), "log")

def _backward():
    self.grad += (1 / out.data) * out.grad

out._backward = _backward
return out
''')

add(28, "op-log", "grouped", False, "todo", '''
out = Value(math.log(self.data), (self,), "log")

def _backward():
    self.grad += 1 / (self.data * out.grad)

out._backward = _backward
return out
''')

# ------------------------------------------------------------------ op-pow-value
add(29, "op-pow-value", "copy_of_pow", False, "todo", '''
out = Value(self.data**other.data, (self,), "**")

def _backward():
    self.grad += other.data * self.data ** (other.data - 1) * out.grad
    other.grad += out.data * math.log(self.data) * out.grad

out._backward = _backward
return out
''')

add(30, "op-pow-value", "log_rule", False, "todo", '''
out = Value(self.data**other.data, (self, other), "**")

def _backward():
    # d/dx x**y = y * x**(y-1);  d/dy x**y = ln x
    self.grad += other.data * self.data ** (other.data - 1) * out.grad
    other.grad += math.log(self.data) * out.grad

out._backward = _backward
return out
''')

add(31, "op-pow-value", "both_shares", False, "todo", '''
out = Value(self.data**other.data, (self, other), "**")

def _backward():
    self.grad += other.data * self.data ** (other.data - 1) * out.grad
    other.grad += out.data * math.log(other.data) * out.grad

out._backward = _backward
return out
''')

# ------------------------------------------------------------------ backward
add(32, "backward", "queue", False, "todo", '''
from collections import deque

self.grad = 1.0
seen = {self}
queue = deque([self])
while queue:  # start at the output and work back towards the inputs
    v = queue.popleft()
    v._backward()
    for child in v._prev:
        if child not in seen:
            seen.add(child)
            queue.append(child)
''')

add(33, "backward", "visit_order", False, "todo", '''
order = []
seen = set()

def visit(v):
    if v in seen:
        return
    seen.add(v)
    order.append(v)  # the output comes first, then what it was made from
    for child in v._prev:
        visit(child)

visit(self)
self.grad = 1.0
for v in order:
    v._backward()
''')

add(34, "backward", "seen_values", False, "todo", '''
topo = []
visited = set()

def build_topo(v):
    if v.data not in visited:
        visited.add(v.data)
        for child in v._prev:
            build_topo(child)
        topo.append(v)

build_topo(self)
self.grad = 1.0
for v in reversed(topo):
    v._backward()
''')

add(35, "backward", "fresh_start", False, "todo", '''
topo = []
visited = set()

def build_topo(v):
    if v not in visited:
        visited.add(v)
        for child in v._prev:
            build_topo(child)
        topo.append(v)

build_topo(self)
for v in topo:
    v.grad = 0.0  # no leftovers from an earlier pass
self.grad = 1.0
for v in reversed(topo):
    v._backward()
''')

add(36, "backward", "guarded_recursion", False, "todo", '''
MAX_DEPTH = 256  # don't let a runaway graph blow Python's stack
topo = []
visited = set()

def build_topo(v, depth=0):
    if v in visited or depth > MAX_DEPTH:
        return
    visited.add(v)
    for child in v._prev:
        build_topo(child, depth + 1)
    topo.append(v)

build_topo(self)
self.grad = 1.0
for v in reversed(topo):
    v._backward()
''')

add(37, "backward", "indegree", True, "todo", '''
# how many Values use each Value: a Value may pass its grad on only once all its users have
users = {}
stack, found = [self], {self}
while stack:
    node = stack.pop()
    for child in node._prev:
        users[child] = users.get(child, 0) + 1
        if child not in found:
            found.add(child)
            stack.append(child)

self.grad = 1.0
ready = [self]
while ready:
    node = ready.pop()
    node._backward()
    for child in node._prev:
        users[child] -= 1
        if users[child] == 0:
            ready.append(child)
''')

# ------------------------------------------------------------------ zero-grad
_WALK = '''

def zero_grad_all(root):
    """Set the grad of every Value in root's graph to 0."""
    visited = set()
    stack = [root]
    while stack:
        v = stack.pop()
        if v in visited:
            continue
        visited.add(v)
        v.grad = 0.0
        stack.extend(v._prev)
'''

add(38, "zero-grad", "dedup", False, "tail", '''
def zero_grad(params, _zeroed=[]):
    """Set each parameter's grad to 0."""
    for p in params:
        if p in _zeroed:  # a shared parameter can be listed twice
            continue
        p.grad = 0.0
        _zeroed.append(p)
''' + _WALK + '''

def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    for _ in range(steps):
        loss = loss_fn()
        zero_grad(params)
        loss.backward()
        for p in params:
            p.data += -lr * p.grad
''')

add(39, "zero-grad", "cleanup", False, "tail", '''
def zero_grad(params):
    """Set each parameter's grad to 0."""
    for p in params:
        p.grad = 0.0
''' + _WALK + '''

def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    for _ in range(steps):
        loss = loss_fn()
        loss.backward()
        for p in params:
            p.data += -lr * p.grad
        zero_grad(params)  # clean slate for the next step
''')

add(40, "zero-grad", "leaf_walk", False, "tail", '''
def zero_grad(params):
    """Set each parameter's grad to 0."""
    for p in params:
        p.grad = 0.0


def zero_grad_all(root):
    """Set the grad of every Value in root's graph to 0."""
    # the grads that pile up are the leaves' (inputs and parameters)
    seen = set()
    stack = [root]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if not v._prev:
            v.grad = 0.0
        stack.extend(v._prev)


def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    for _ in range(steps):
        loss = loss_fn()
        zero_grad(params)
        loss.backward()
        for p in params:
            p.data += -lr * p.grad
''')

add(41, "zero-grad", "single_forward", False, "tail", '''
def zero_grad(params):
    """Set each parameter's grad to 0."""
    for p in params:
        p.grad = 0.0
''' + _WALK + '''

def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    loss = loss_fn()
    for _ in range(steps):
        zero_grad(params)
        loss.backward()
        for p in params:
            p.data += -lr * p.grad
''')

add(42, "zero-grad", "id_walk", True, "tail", '''
def zero_grad(params):
    """Set each parameter's grad to 0."""
    for param in params:
        param.grad = 0.0


def _every_value(root):
    """Every Value root depends on (root too), without recursion."""
    found = {id(root): root}
    todo = [root]
    while todo:
        node = todo.pop()
        for child in node._prev:
            if id(child) not in found:
                found[id(child)] = child
                todo.append(child)
    return list(found.values())


def zero_grad_all(root):
    """Set the grad of every Value in root's graph to 0."""
    for v in _every_value(root):
        v.grad = 0.0


def train(params, loss_fn, steps, lr):
    """steps times: loss = loss_fn(), zero the grads, loss.backward(), p.data += -lr * p.grad."""
    params = list(params)
    for _step in range(steps):
        loss = loss_fn()
        zero_grad(params)
        loss.backward()
        for param in params:
            param.data -= lr * param.grad
''')

# ------------------------------------------------------------------ softmax-nll
add(43, "softmax-nll", "normalise", False, "tail", '''
def softmax(logits):
    """[exp(z) / sum of exp(z) over the logits, for each logit z], with Value ops."""
    exps = [z.exp() for z in logits]
    total = sum(e.data for e in exps)
    return [e / total for e in exps]


def nll(probs, target):
    """-log(probs[target])."""
    return -probs[target].log()
''')

add(44, "softmax-nll", "shifted", False, "tail", '''
def softmax(logits):
    """[exp(z) / sum of exp(z) over the logits, for each logit z], with Value ops."""
    m = max(z.data for z in logits)  # subtract the max so exp() can't overflow
    exps = [(z - m).exp() for z in logits]
    total = sum(z.exp() for z in logits)
    return [e / total for e in exps]


def nll(probs, target):
    """-log(probs[target])."""
    return -probs[target].log()
''')

add(45, "softmax-nll", "max_shift", True, "tail", '''
def softmax(logits):
    """[exp(z) / sum of exp(z) over the logits, for each logit z], with Value ops."""
    zs = [z if isinstance(z, Value) else Value(z) for z in logits]
    top = max(zs, key=lambda z: z.data)  # softmax(z - c) == softmax(z): no overflow
    weights = [(z - top).exp() for z in zs]
    norm = sum(weights)
    return [w / norm for w in weights]


def nll(probs, target):
    """-log(probs[target])."""
    picked = probs[target]
    return picked.log() * -1
''')

# ------------------------------------------------------------------ neuron-mlp
_NEURON = '''
class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return self.w + [self.b]
'''
_LAYER = '''

class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]
'''
_MLP = '''

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
'''

add(46, "neuron-mlp", "replicated", False, "tail", _NEURON + '''

class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin)] * nout

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]
''' + _MLP)

add(47, "neuron-mlp", "weights_arg", False, "tail", '''
class Neuron:
    def __init__(self, nin, w=[]):
        self.w = w  # weights can be passed in; the missing ones are drawn at random
        while len(self.w) < nin:
            self.w.append(Value(random.uniform(-1, 1)))
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return self.w + [self.b]
''' + _LAYER + _MLP)

add(48, "neuron-mlp", "layer_params", False, "tail", _NEURON + _LAYER + '''

class MLP:
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        for layer in self.layers:
            params = layer.parameters()
        return params
''')

add(49, "neuron-mlp", "flat_params", False, "tail", '''
class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return [self.b] + self.w
''' + _LAYER + _MLP)

add(50, "neuron-mlp", "explicit_loops", True, "tail", '''
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
''')
