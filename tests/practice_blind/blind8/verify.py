"""Independent oracle for the six GPT-track exercises (blind set c).

Run:  .venv/bin/python tests/practice_blind/blind8/verify.py [FILE ...]      (default: every ID/NN_*.py here)

For each learner file it imports the file fresh (one import per file, all tests run in that one
import, in order, as a checker would) and compares against:
  * torch float64 autograd (forward values and the gradient of a weighted sum of all outputs with
    respect to every input leaf) for linear / softmax / rmsnorm / attention-head and for the
    single-backward local-grads programs;
  * micrograd.engine.Value (an independent scalar engine) as a second opinion on local-grads;
  * REF_Value below (the Value class the non-local-grads stubs ship, i.e. microgpt's semantics) for
    local-grads programs with two backward() calls (accumulation on shared leaves/nodes);
  * a plain-float Adam for adam-step (p.data, p.grad, m, v after every call; two fresh runs;
    defaults, keyword hyper-parameters, tiny/zero/negative grads).
Prints PASS/FAIL per file with the first few mismatches; `verify_labels()` checks labels.json.
"""

import importlib.util
import itertools
import json
import math
import random
import sys
import traceback
from pathlib import Path

import torch

torch.set_default_dtype(torch.float64)
HERE = Path(__file__).resolve().parent
RTOL, ATOL = 1e-9, 1e-12

_counter = itertools.count()


def load(path):
    name = f"learner_c_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, str(path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def close(a, b, rtol=RTOL, atol=ATOL):
    try:
        a = float(a)
        b = float(b)
    except Exception:
        return False
    if math.isnan(b):
        return math.isnan(a)
    return abs(a - b) <= rtol * max(abs(a), abs(b)) + atol


# ---------------------------------------------------------------------------------------------
# the stubs' reference Value (microgpt's), used for the two-backward semantics
class REF_Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

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
        other = other if isinstance(other, REF_Value) else REF_Value(other)
        return REF_Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, REF_Value) else REF_Value(other)
        return REF_Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, other):
        return REF_Value(self.data**other, (self,), (other * self.data ** (other - 1),))

    def log(self):
        return REF_Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return REF_Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return REF_Value(max(0, self.data), (self,), (float(self.data > 0),))

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for c in v._children:
                    build(c)
                topo.append(v)

        build(self)
        self.grad = 1
        for v in reversed(topo):
            for c, lg in zip(v._children, v._local_grads):
                c.grad += lg * v.grad


# ---------------------------------------------------------------------------------------------
# torch references on lists of 0-d tensors (the same shapes the learner functions use)
def t_linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def t_softmax(z):
    m = max(float(zi.detach()) for zi in z)
    e = [torch.exp(zi - m) for zi in z]
    s = sum(e)
    return [ei / s for ei in e]


def t_rmsnorm(x):
    ms = sum(xi * xi for xi in x) / len(x)
    scale = (ms + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def t_attention(xs, wq, wk, wv):
    keys, values, outs = [], [], []
    for x in xs:
        q = t_linear(x, wq)
        keys.append(t_linear(x, wk))
        values.append(t_linear(x, wv))
        d = len(q)
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d) for k in keys]
        wts = t_softmax(scores)
        outs.append([sum(a * v[j] for a, v in zip(wts, values)) for j in range(d)])
    return outs


# ---------------------------------------------------------------------------------------------
# generic harness: inputs are nested lists of leaf indices into a table of floats
def _build(struct, leaves):
    if isinstance(struct, list):
        return [_build(s, leaves) for s in struct]
    return leaves[struct]


def _flatten(out):
    if isinstance(out, (list, tuple)):
        r = []
        for o in out:
            r.extend(_flatten(o))
        return r
    return [out]


def _shape(out):
    if isinstance(out, (list, tuple)):
        return [_shape(o) for o in out]
    return None


def run_case(mod, fn_name, tfn, table, structs, rng, label):
    """Return a list of mismatch strings (empty = pass)."""
    errs = []
    V = mod.Value
    vleaves = [V(x) for x in table]
    tleaves = [torch.tensor(float(x), requires_grad=True) for x in table]
    vargs = [_build(s, vleaves) for s in structs]
    targs = [_build(s, tleaves) for s in structs]
    datas_before = [v.data for v in vleaves]
    try:
        vout = getattr(mod, fn_name)(*vargs)
    except Exception as e:
        return [f"{label}: raised {type(e).__name__}: {e}"]
    tout = tfn(*targs)
    if _shape(vout) != _shape(tout) if isinstance(vout, (list, tuple)) else True:
        return [f"{label}: output shape {_shape(vout) if isinstance(vout,(list,tuple)) else type(vout).__name__}"
                f" vs {_shape(tout)}"]
    vf, tf = _flatten(vout), _flatten(tout)
    for k, (a, b) in enumerate(zip(vf, tf)):
        ad = a.data if isinstance(a, V) else a
        if not close(ad, b.item()):
            errs.append(f"{label}: out[{k}] = {ad!r} vs {b.item()!r}")
            break
    if [v.data for v in vleaves] != datas_before:
        errs.append(f"{label}: input .data changed")
    cs = [rng.choice([-1.0, 1.0]) * rng.uniform(0.3, 1.7) for _ in vf]
    vloss = sum((c * a for c, a in zip(cs, vf)), V(0.0))
    if not isinstance(vloss, V):
        return errs + [f"{label}: output is not a Value graph"]
    try:
        vloss.backward()
    except Exception as e:
        return errs + [f"{label}: backward raised {type(e).__name__}: {e}"]
    tloss = sum(c * b for c, b in zip(cs, tf))
    tloss.backward()
    for i, (vl, tl) in enumerate(zip(vleaves, tleaves)):
        tg = 0.0 if tl.grad is None else tl.grad.item()
        if not close(vl.grad, tg):
            errs.append(f"{label}: grad of leaf {i} = {vl.grad!r} vs {tg!r}")
            break
    return errs


def rvals(rng, n, lo=-2.0, hi=2.0):
    return [rng.uniform(lo, hi) for _ in range(n)]


def check_linear(mod, rng):
    errs = []
    shapes = [(1, 1), (1, 4), (4, 1), (2, 3), (3, 2), (3, 3), (4, 4), (5, 3), (2, 6)]
    for m, n in shapes:
        for rep in range(3):
            table = rvals(rng, n + m * n)
            if rep == 1:
                table[0] = 0.0  # x[0] = 0
            x = list(range(n))
            w = [[n + i * n + j for j in range(n)] for i in range(m)]
            errs += run_case(mod, "linear", t_linear, table, [x, w], rng, f"linear m={m} n={n} rep={rep}")
    # shared leaves: the same Value in x twice and inside w
    table = rvals(rng, 4)
    errs += run_case(mod, "linear", t_linear, table, [[0, 0, 1], [[2, 3, 0], [1, 2, 2]]], rng, "linear shared")
    # integer data
    errs += run_case(mod, "linear", t_linear, [1, 2, 3, -1, 0, 2, 1], [[0, 1], [[2, 3], [4, 5], [6, 0]]],
                     rng, "linear ints")
    return errs


def check_softmax(mod, rng):
    errs = []
    cases = [
        [0.0], [3.0], [1.0, 2.0], [0.0, -1.0, -2.0], [1.0, 0.5, -0.5], [2.0, 2.0, 1.0],
        [0.3, 0.3, 0.3], [-30.0, 30.0], [29.0, -29.5, 0.0, 12.0], [5.0, 5.0], [-3.0, -1.0, -2.0],
        [1.0, -1.0, 0.25, 0.0, 2.5, -2.5],
    ]
    for _ in range(8):
        n = rng.randint(1, 7)
        cases.append(rvals(rng, n, -30, 30))
    for k, table in enumerate(cases):
        errs += run_case(mod, "softmax", t_softmax, table, [list(range(len(table)))], rng, f"softmax {table}")
    errs += run_case(mod, "softmax", t_softmax, [0.5, -1.0], [[0, 1, 0]], rng, "softmax shared leaf")
    return errs


def check_rmsnorm(mod, rng):
    errs = []
    cases = [
        [1.0], [2.0], [-0.5], [1.0, -1.0], [3.0, 4.0], [0.5, 0.0, -0.5], [0.0, 0.0],
        [1.0, 2.0, 3.0, 4.0], [0.25, 0.25, 0.25, 0.25], [1e-3, -2e-3, 5e-4], [10.0, -7.0, 3.0],
    ]
    for _ in range(8):
        n = rng.randint(1, 8)
        cases.append(rvals(rng, n, -3, 3))
    for table in cases:
        errs += run_case(mod, "rmsnorm", t_rmsnorm, table, [list(range(len(table)))], rng, f"rmsnorm {table}")
    errs += run_case(mod, "rmsnorm", t_rmsnorm, [0.7, -1.2], [[0, 1, 0]], rng, "rmsnorm shared leaf")
    return errs


def check_attention(mod, rng):
    errs = []
    configs = [(1, 1, 1), (1, 2, 2), (2, 2, 2), (3, 2, 2), (3, 3, 2), (2, 2, 3), (4, 3, 3), (3, 4, 2),
               (4, 2, 4), (5, 3, 3)]
    for T, n, d in configs:
        for rep in range(2):
            nx = T * n
            table = rvals(rng, nx + 3 * d * n, -1.5, 1.5)
            xs = [[t * n + j for j in range(n)] for t in range(T)]
            base = nx
            wq = [[base + i * n + j for j in range(n)] for i in range(d)]
            base += d * n
            wk = [[base + i * n + j for j in range(n)] for i in range(d)]
            base += d * n
            wv = [[base + i * n + j for j in range(n)] for i in range(d)]
            errs += run_case(mod, "attention_head", t_attention, table, [xs, wq, wk, wv], rng,
                             f"attention T={T} n={n} d={d} rep={rep}")
    # the same token twice (shared Values), and wk == wv (same Values)
    table = rvals(rng, 2 + 3 * 4, -1, 1)
    xs = [[0, 1], [0, 1], [1, 0]]
    wq = [[2, 3], [4, 5]]
    wk = [[6, 7], [8, 9]]
    errs += run_case(mod, "attention_head", t_attention, table, [xs, wq, wk, wk], rng, "attention shared")
    return errs


# ---------------------------------------------------------------------------------------------
# local-grads: programs written once, run on the learner's Value, REF_Value and torch
def P(name, leaves, fn, torch_ok=True):
    return (name, leaves, fn, torch_ok)


def _progs():
    r = []
    r.append(P("a*b+c", [2.0, -3.0, 0.5], lambda a, b, c: [a * b + c]))
    r.append(P("(a*b)*c", [2.0, -3.0, 0.5], lambda a, b, c: [(a * b) * c]))
    r.append(P("a*a", [-1.5], lambda a: [a * a]))
    r.append(P("numbers both sides", [1.25],
               lambda a: [(a + 2) * (3 - a) + 3 * a - a * 4 + (a - 2) / 3 + 5 / a]))
    r.append(P("float numbers", [1.7], lambda a: [a * 0.5 + 0.25 + a / 2 + 1.5 * a]))
    r.append(P("int numbers", [3.0], lambda a: [a * 2 + 1 - 3 * a]))
    r.append(P("log/pow", [1.5, -0.7], lambda a, b: [(a**2 + b**4).log() + (a * b).exp()]))
    r.append(P("exp*relu", [0.3, 1.2], lambda a, b: [a.exp() * b.relu()]))
    r.append(P("relu neg", [-0.8, 2.0], lambda a, b: [(a * b).relu() + a.relu() * 3]))
    r.append(P("relu at 0", [0.0, 2.0], lambda a, b: [a.relu() * b + (a * b).relu()]))
    r.append(P("pow at 0 (k=2)", [0.0, 1.5], lambda a, b: [a**2 + a * b]))
    r.append(P("pow at 0 (k=3)", [0.0], lambda a: [a**3 + a]))
    r.append(P("neg base ints", [-1.5], lambda a: [a**3 + a**-2 + a**2 + a**1]))
    r.append(P("neg base k=0", [-2.0], lambda a: [a**0 * 3 + a]))
    r.append(P("log chain", [0.4, 2.5], lambda a, b: [(a * b).log() * a]))
    r.append(P("sqrt", [2.25], lambda a: [a**0.5 + a**-0.5]))
    r.append(P("diamond", [0.6, -1.1], lambda a, b: [(lambda s: s * s + s.exp() - s.relu())(a * b)]))
    r.append(P("deep chain", [0.9, 0.7], lambda a, b: [_deep(a, b)]))
    r.append(P("sum() builtin", [1.0, -2.0, 0.5], lambda a, b, c: [sum([a, b, c]) * c]))
    r.append(P("mul by zero", [1.3, 0.0], lambda a, b: [0 * a + a * b + b * a * a]))
    r.append(P("exp neg", [-3.0, 0.2], lambda a, b: [(a * b).exp() + (-a).exp()]))
    r.append(P("division", [1.5, -0.4], lambda a, b: [a / b + b / a]))
    r.append(P("two outputs (2nd)", [1.1, 0.9], lambda a, b: [a * b, (a + b) * 2]))
    r.append(P("sub neg", [2.0, 5.0], lambda a, b: [-(a - b) * (b - a)]))
    r.append(P("a*b*c*d", [1.5, -2.0, 0.5, 3.0], lambda a, b, c, d: [a * b * c * d]))
    r.append(P("tanh-like", [0.35], lambda a: [((2 * a).exp() - 1) / ((2 * a).exp() + 1)]))
    return r


def _deep(a, b):
    x = a
    for _ in range(12):
        x = x * b + a
    return x


def _torch_grads(leaves, fn, out_index=0):
    ts = [torch.tensor(float(x), requires_grad=True) for x in leaves]
    outs = fn(*ts)
    o = outs[out_index]
    o.backward()
    return o.item(), [0.0 if t.grad is None else t.grad.item() for t in ts]


def _mg_grads(leaves, fn, out_index=0):
    from micrograd.engine import Value as MG

    vs = [MG(float(x)) for x in leaves]
    o = fn(*vs)[out_index]
    o.backward()
    return o.data, [v.grad for v in vs]


def _ref_unit_ops(V):
    """(name, thunk returning (value, expected data, expected children-ish, expected local grads))"""
    errs = []
    a, b = V(3.0), V(-2.0)
    cases = [
        ("a+b", lambda: a + b, 1.0, (a, b), (1, 1)),
        ("a+2", lambda: a + 2, 5.0, (a, None), (1, 1)),
        ("a+0.5", lambda: a + 0.5, 3.5, (a, None), (1, 1)),
        ("a*b", lambda: a * b, -6.0, (a, b), (-2.0, 3.0)),
        ("a*4", lambda: a * 4, 12.0, (a, None), (4, 3.0)),
        ("a*0.5", lambda: a * 0.5, 1.5, (a, None), (0.5, 3.0)),
        ("a**2", lambda: a**2, 9.0, (a,), (6.0,)),
        ("b**3", lambda: b**3, -8.0, (b,), (12.0,)),
        ("a**-1", lambda: a**-1, 1 / 3, (a,), (-1 / 9,)),
        ("log a", lambda: a.log(), math.log(3.0), (a,), (1 / 3,)),
        ("exp b", lambda: b.exp(), math.exp(-2.0), (b,), (math.exp(-2.0),)),
        ("relu a", lambda: a.relu(), 3.0, (a,), (1,)),
        ("relu b", lambda: b.relu(), 0.0, (b,), (0,)),
        ("relu 0", lambda: V(0.0).relu(), 0.0, (None,), (0,)),
    ]
    for name, th, data, ch, lgs in cases:
        try:
            out = th()
        except Exception as e:
            errs.append(f"op {name}: raised {type(e).__name__}: {e}")
            continue
        if not close(out.data, data):
            errs.append(f"op {name}: data {out.data!r} vs {data!r}")
        kids = tuple(out._children)
        lg = tuple(out._local_grads)
        if len(kids) != len(ch) or any(e is not None and k is not e for k, e in zip(kids, ch)):
            errs.append(f"op {name}: children {kids!r} (structure)")
        elif len(lg) != len(lgs) or any(not close(x, y) for x, y in zip(lg, lgs)):
            errs.append(f"op {name}: local_grads {lg!r} vs {lgs!r} (structure)")
    return errs


def check_local_grads(mod, rng):
    errs = []
    V = mod.Value
    errs += _ref_unit_ops(V)
    for name, leaves, fn, _ in _progs():
        nouts = len(fn(*[torch.tensor(float(x)) for x in leaves]))
        for oi in range(nouts):
            label = f"prog {name} out{oi} leaves={leaves}"
            try:
                vs = [V(x) for x in leaves]
                o = fn(*vs)[oi]
                o.backward()
            except Exception as e:
                errs.append(f"{label}: raised {type(e).__name__}: {e}")
                continue
            tdata, tg = _torch_grads(leaves, fn, oi)
            if not close(o.data, tdata):
                errs.append(f"{label}: data {o.data!r} vs {tdata!r}")
            for i, (v, g) in enumerate(zip(vs, tg)):
                if not close(v.grad, g):
                    errs.append(f"{label}: grad[{i}] = {v.grad!r} vs {g!r}")
                    break
    errs += check_local_grads_fuzz(mod)
    errs += _two_backward_checks(V)
    return errs


def _random_program(rng, nleaves=3, nops=14):
    """A random DAG as a list of instructions, chosen so every op stays in its domain."""
    vals = [rng.uniform(-1.5, 1.5) for _ in range(nleaves)]
    instrs = []
    for _ in range(nops):
        kind = rng.choice(["add", "mul", "sub", "div", "radd", "rmul", "rsub", "pow", "log", "exp", "relu", "neg"])
        i, j = rng.randrange(len(vals)), rng.randrange(len(vals))
        a, b = vals[i], vals[j]
        c = rng.choice([2, -1, 0.5, 3, 1.5, -2.5])
        if kind == "add":
            v = a + b
        elif kind == "mul":
            v = a * b
        elif kind == "sub":
            v = a - b
        elif kind == "div":
            if abs(b) < 0.2:
                continue
            v = a / b
        elif kind == "radd":
            v = c + a
        elif kind == "rmul":
            v = c * a
        elif kind == "rsub":
            v = c - a
        elif kind == "pow":
            k = rng.choice([2, 3, -1, 0.5, -2])
            if (k in (-1, -2) and abs(a) < 0.2) or (k == 0.5 and a <= 0.05):
                continue
            c = k
            v = a**k
        elif kind == "log":
            if a <= 0.05:
                continue
            v = math.log(a)
        elif kind == "exp":
            if a > 5:
                continue
            v = math.exp(a)
        elif kind == "relu":
            v = max(0.0, a)
        else:
            v = -a
        if abs(v) > 1e6:
            continue
        instrs.append((kind, i, j, c))
        vals.append(v)
    return vals[:nleaves], instrs


def _exec_program(leaves, instrs, mk=None):
    nodes = list(leaves)
    for kind, i, j, c in instrs:
        a, b = nodes[i], nodes[j]
        nodes.append({
            "add": lambda: a + b, "mul": lambda: a * b, "sub": lambda: a - b, "div": lambda: a / b,
            "radd": lambda: c + a, "rmul": lambda: c * a, "rsub": lambda: c - a, "pow": lambda: a**c,
            "log": lambda: a.log(), "exp": lambda: a.exp(), "relu": lambda: a.relu(), "neg": lambda: -a,
        }[kind]())
    # the output: a weighted sum of the last few nodes, so most of the DAG matters
    out = nodes[-1]
    for k, n in enumerate(nodes[-4:-1]):
        out = out + n * (0.5 + k)
    return out


def check_local_grads_fuzz(mod, n=40, seed=7):
    errs = []
    rng = random.Random(seed)
    V = mod.Value
    for t in range(n):
        leaves, instrs = _random_program(rng)
        label = f"fuzz #{t}"
        try:
            vs = [V(x) for x in leaves]
            o = _exec_program(vs, instrs)
            o.backward()
        except Exception as e:
            errs.append(f"{label}: raised {type(e).__name__}: {e}")
            continue
        ts = [torch.tensor(float(x), requires_grad=True) for x in leaves]
        to = _exec_program(ts, instrs)
        to.backward()
        if not close(o.data, to.item()):
            errs.append(f"{label}: data {o.data!r} vs {to.item()!r}")
        for i, (v, tt) in enumerate(zip(vs, ts)):
            g = 0.0 if tt.grad is None else tt.grad.item()
            if not close(v.grad, g):
                errs.append(f"{label}: grad[{i}] = {v.grad!r} vs {g!r}")
                break
    return errs


def _two_backward_programs():
    """Each returns a function(V) -> list of (label, value) to compare, run with REF_Value too."""
    progs = []

    def p1(V):  # shared leaf, two different outputs
        a, b, c = V(2.0), V(3.0), V(-0.5)
        y1 = a * b
        y2 = a * c
        y1.backward()
        y2.backward()
        return [("a", a.grad), ("b", b.grad), ("c", c.grad)]

    def p2(V):  # the same output twice
        a, b = V(2.0), V(3.0)
        y = a * b
        y.backward()
        y.backward()
        return [("a", a.grad), ("b", b.grad)]

    def p3(V):  # shared leaves in two deeper graphs
        a, b = V(0.4), V(-1.3)
        y1 = (a * b).exp() + a**2
        y1.backward()
        y2 = ((a + b) ** 2).log() * b
        y2.backward()
        return [("a", a.grad), ("b", b.grad)]

    def p4(V):  # a small training loop: zero the param grad, new graph each step, same leaves
        w, x, t = V(0.5), V(1.5), V(2.0)
        rec = []
        for it in range(3):
            w.grad = 0
            loss = (w * x - t) ** 2
            loss.backward()
            rec.append((f"w.grad it{it}", w.grad))
            rec.append((f"x.grad it{it}", x.grad))
            w.data -= 0.1 * w.grad
        return rec

    def p5(V):  # second backward on a graph that reuses a node of the first one
        a, b = V(1.2), V(0.7)
        s = a * b
        y1 = s + a
        y1.backward()
        y2 = s * 3 + b
        y2.backward()
        return [("a", a.grad), ("b", b.grad), ("s", s.grad)]

    return [("shared leaf two outputs", p1), ("same output twice", p2), ("deeper shared leaves", p3),
            ("training loop", p4), ("shared intermediate", p5)]


def _two_backward_checks(V):
    errs = []
    for name, p in _two_backward_programs():
        try:
            got = p(V)
        except Exception as e:
            errs.append(f"two-backward {name}: raised {type(e).__name__}: {e}")
            continue
        want = p(REF_Value)
        for (lab, g), (_, w) in zip(got, want):
            if not close(g, w):
                errs.append(f"two-backward {name}: {lab} = {g!r} vs {w!r}")
                break
    return errs


# ---------------------------------------------------------------------------------------------
# adam-step
def ref_adam(data, grads, m, v, step, lr=0.01, beta1=0.85, beta2=0.99, eps=1e-8):
    data = list(data)
    for i, g in enumerate(grads):
        m[i] = beta1 * m[i] + (1 - beta1) * g
        v[i] = beta2 * v[i] + (1 - beta2) * g**2
        mh = m[i] / (1 - beta1 ** (step + 1))
        vh = v[i] / (1 - beta2 ** (step + 1))
        data[i] -= lr * mh / (vh**0.5 + eps)
    return data


def _adam_run(mod, init, grad_seq, kwargs, label, positional=False):
    errs = []
    V = mod.Value
    params = [V(x) for x in init]
    m, v = [0.0] * len(init), [0.0] * len(init)
    rd, rm, rv = list(init), [0.0] * len(init), [0.0] * len(init)
    for step, grads in enumerate(grad_seq):
        for p, g in zip(params, grads):
            p.grad = g
        try:
            if positional:
                mod.adam_step(params, m, v, step, *kwargs)
            else:
                mod.adam_step(params, m, v, step, **kwargs)
        except Exception as e:
            return [f"{label} step {step}: raised {type(e).__name__}: {e}"]
        if positional:
            rd = ref_adam(rd, grads, rm, rv, step, *kwargs)
        else:
            rd = ref_adam(rd, grads, rm, rv, step, **kwargs)
        for i, p in enumerate(params):
            if not close(p.data, rd[i]):
                errs.append(f"{label} step {step}: p[{i}].data = {p.data!r} vs {rd[i]!r}")
                return errs
            if p.grad != 0:
                errs.append(f"{label} step {step}: p[{i}].grad = {p.grad!r} vs 0")
                return errs
            if not close(m[i], rm[i]):
                errs.append(f"{label} step {step}: m[{i}] = {m[i]!r} vs {rm[i]!r}")
                return errs
            if not close(v[i], rv[i]):
                errs.append(f"{label} step {step}: v[{i}] = {v[i]!r} vs {rv[i]!r}")
                return errs
    return errs


def check_adam(mod, rng):
    errs = []
    init = [0.5, -1.2, 2.0]
    seq = [[0.3, -0.8, 1.5], [0.1, 0.4, -2.0], [-0.6, 0.0, 0.9], [0.2, -0.3, 0.05], [1.0, 1.0, -1.0]]
    errs += _adam_run(mod, init, seq, {}, "run1 defaults")
    errs += _adam_run(mod, init, seq, {}, "run2 fresh defaults")
    errs += _adam_run(mod, init, seq, dict(lr=0.1, beta1=0.9, beta2=0.999, eps=1e-6), "kwargs")
    errs += _adam_run(mod, init, seq, (0.05, 0.8, 0.95, 1e-7), "positional", positional=True)
    small = [[1e-4, -1e-6, 0.0], [2e-4, 1e-6, 0.0], [-1e-4, 3e-6, 1e-5]]
    errs += _adam_run(mod, init, small, {}, "small grads")
    long = [[rng.uniform(-2, 2) for _ in range(4)] for _ in range(25)]
    errs += _adam_run(mod, [0.1, 0.2, -0.3, 0.0], long, {}, "25 steps")
    return errs


CHECKS = {
    "local-grads": check_local_grads,
    "linear": check_linear,
    "softmax": check_softmax,
    "rmsnorm": check_rmsnorm,
    "attention-head": check_attention,
    "adam-step": check_adam,
}


def check_file(path):
    path = Path(path)
    ex = path.parent.name
    rng = random.Random(1234)
    try:
        mod = load(path)
    except Exception as e:
        return [f"import raised {type(e).__name__}: {e}"]
    try:
        return CHECKS[ex](mod, rng)
    except Exception:
        return ["oracle crashed: " + traceback.format_exc()]


def self_test():
    """The oracle against the stubs' own reference implementations and micrograd.engine."""
    problems = []
    # the reference implementations shipped inside the stubs (linear..softmax..) must pass
    for ex, fname in [("linear", "softmax.py"), ("softmax", "rmsnorm.py"), ("rmsnorm", "attention-head.py"),
                      ("attention-head", "adam-step.py")]:
        mod = load(HERE / "stubs" / fname)
        e = CHECKS[ex](mod, random.Random(1))
        if e:
            problems.append((ex, e[:3]))
    # local-grads: REF_Value as a module
    class M:
        Value = REF_Value
    e = check_local_grads(M, random.Random(1))
    if e:
        problems.append(("local-grads REF", e[:3]))
    # torch vs micrograd.engine on every program
    for name, leaves, fn, _ in _progs():
        nouts = len(fn(*[torch.tensor(float(x)) for x in leaves]))
        for oi in range(nouts):
            td, tg = _torch_grads(leaves, fn, oi)
            md, mgr = _mg_grads(leaves, fn, oi)
            if not close(td, md) or any(not close(a, b) for a, b in zip(tg, mgr)):
                problems.append(("torch vs micrograd", name, tg, mgr))
    return problems


def verify_labels():
    labels = json.loads((HERE / "labels.json").read_text())
    bad = []
    for lab in labels:
        errs = check_file(HERE / lab["file"])
        ok = not errs
        if ok != lab["correct"]:
            bad.append((lab["file"], lab["correct"], errs[:2]))
    return labels, bad


def main(argv):
    files = argv or sorted(str(p) for p in HERE.glob("*/[0-9][0-9]_*.py"))
    for f in files:
        errs = check_file(f)
        status = "PASS" if not errs else f"FAIL ({len(errs)})"
        print(f"{status:10s} {Path(f).relative_to(HERE) if Path(f).is_absolute() else f}")
        for e in errs[:3]:
            print("           ", e)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--self-test"]:
        print(self_test() or "self-test OK")
    elif sys.argv[1:2] == ["--labels"]:
        labels, bad = verify_labels()
        print(f"{len(labels)} labels, {len(bad)} disagree with the oracle")
        for b in bad:
            print(b)
    else:
        main(sys.argv[1:])


def adam_vs_torch():
    """ref_adam against torch.optim.Adam (same formula, different rounding order)."""
    init = [0.5, -1.2, 2.0]
    seq = [[0.3, -0.8, 1.5], [0.1, 0.4, -2.0], [-0.6, 0.0, 0.9], [0.2, -0.3, 0.05], [1.0, 1.0, -1.0]]
    p = torch.tensor(init, requires_grad=True)
    opt = torch.optim.Adam([p], lr=0.01, betas=(0.85, 0.99), eps=1e-8)
    rd, m, v = list(init), [0.0] * 3, [0.0] * 3
    worst = 0.0
    for step, g in enumerate(seq):
        p.grad = torch.tensor(g)
        opt.step()
        rd = ref_adam(rd, g, m, v, step)
        worst = max(worst, max(abs(a - b) for a, b in zip(p.tolist(), rd)))
    return worst
