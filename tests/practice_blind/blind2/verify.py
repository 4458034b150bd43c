"""Verify the labels of the blind set in this folder.

Run:  .venv/bin/python tests/practice_blind/blind2/verify.py [-v] [FILTER]

Each solution file is imported on its own (it is a whole module with its own Value class), then
exercised on graphs built with that class and compared with micrograd.engine.Value (float64) on the
same graphs; the engine reference is itself cross-checked with central finite differences. A
solution counts as failing when some case in the op's domain gives a number that differs from the
reference beyond 1e-9 relative (1e-12 absolute floor), or raises where the reference does not.
Nothing here imports micrograd.practice.
"""

import importlib.util
import json
import math
import os
import random
import sys
import traceback
import warnings

from micrograd.engine import Value as EV

HERE = os.path.dirname(os.path.abspath(__file__))
REL, ABS = 1e-9, 1e-12


class Fail(Exception):
    pass


def load(relpath):
    path = os.path.join(HERE, relpath)
    name = "blind2_" + relpath.replace("/", "_").replace("-", "_").replace(".py", "")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def close(x, ref):
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    if math.isnan(x) or math.isinf(x):
        return False
    return abs(x - ref) <= REL * abs(ref) + ABS


def finite(*xs):
    return all(isinstance(x, (int, float)) and math.isfinite(x) for x in xs)


def fmt(x):
    return f"{x:.10g}" if isinstance(x, (int, float)) else repr(x)


# --------------------------------------------------------------------------------------------
# op exercises: programs over leaves, run with the learner's Value and with the engine's Value
# --------------------------------------------------------------------------------------------

def run_prog(V, prog, xs):
    leaves = [V(float(x)) for x in xs]
    root = prog(*leaves)
    root.backward()
    return root.data, [leaf.grad for leaf in leaves]


def fd_grads(prog, xs, h=1e-6):
    out = []
    for i in range(len(xs)):
        up = list(xs)
        dn = list(xs)
        up[i] += h
        dn[i] -= h
        fu = prog(*[EV(float(x)) for x in up]).data
        fdn = prog(*[EV(float(x)) for x in dn]).data
        out.append((fu - fdn) / (2 * h))
    return out


FD_WARN = []


def check_case(V, desc, prog, xs, fd=True):
    """None if the learner agrees (or the case is out of the domain), else a failure message."""
    try:
        rdata, rgrads = run_prog(EV, prog, xs)
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        return None  # outside the op's domain
    if not finite(rdata, *rgrads):
        return None
    if fd:
        try:
            fg = fd_grads(prog, xs)
            for r, f in zip(rgrads, fg):
                if finite(f) and abs(r - f) > 1e-4 * max(1.0, abs(r)):
                    FD_WARN.append(f"{desc} at {xs}: engine {r} vs finite difference {f}")
        except (ValueError, ZeroDivisionError, OverflowError):
            pass
    try:
        ldata, lgrads = run_prog(V, prog, xs)
    except RecursionError:
        raise
    except Exception as e:  # noqa: BLE001
        return f"{desc} at {xs}: raises {type(e).__name__}: {e} (reference grads {[fmt(g) for g in rgrads]})"
    if not close(ldata, rdata):
        return f"{desc} at {xs}: value {fmt(ldata)}, expected {fmt(rdata)}"
    names = "abcdefgh"
    for i, (lg, rg) in enumerate(zip(lgrads, rgrads)):
        if not close(lg, rg):
            return (f"{desc} at {xs}: {names[i]}.grad = {fmt(lg)}, expected {fmt(rg)} "
                    f"(all grads {[fmt(g) for g in lgrads]} vs {[fmt(g) for g in rgrads]})")
    return None


GRID = [-2.3, -1.0, -0.4, 0.0, 0.7, 1.0, 1.9, 3.2]
POS = [0.3, 0.7, 1.0, 1.9, 3.2]


def binary_cases(op, name, numbers=True):
    progs = [
        (f"a {name} b", lambda a, b: op(a, b)),
        (f"(a {name} b)**2", lambda a, b: op(a, b) ** 2),
        (f"a {name} a", lambda a, b: op(a, a)),
        (f"(a {name} b).tanh()", lambda a, b: op(a, b).tanh()),
        (f"y = a {name} b; y*y + y", lambda a, b: (lambda y: y * y + y)(op(a, b))),
        (f"(a {name} b) {name} a", lambda a, b: op(op(a, b), a)),
        (f"(a*b) {name} (a+b)", lambda a, b: op(a * b, a + b)),
        (f"(a {name} b) * (b {name} a)", lambda a, b: op(a, b) * op(b, a)),
        (f"((a {name} b) {name} b) {name} b", lambda a, b: op(op(op(a, b), b), b)),
    ]
    if numbers:
        progs += [
            (f"a {name} 2", lambda a, b: op(a, 2)),
            (f"a {name} 2.5", lambda a, b: op(a, 2.5)),
            (f"2.5 {name} a", lambda a, b: op(2.5, a)),
            (f"-1 {name} a", lambda a, b: op(-1, a)),
            (f"(a {name} 0.5) * b", lambda a, b: op(a, 0.5) * b),
        ]
    return progs


def unary_cases(f, name):
    return [
        (f"{name}(x)", lambda x, y: f(x)),
        (f"{name}(x) * 2.5", lambda x, y: f(x) * 2.5),
        (f"{name}(x) * y", lambda x, y: f(x) * y),
        (f"{name}(x) + x", lambda x, y: f(x) + x),
        (f"{name}(x) * {name}(x)", lambda x, y: f(x) * f(x)),
        (f"t = {name}(x); t*t + t", lambda x, y: (lambda t: t * t + t)(f(x))),
        (f"{name}(x*y) + y", lambda x, y: f(x * y) + y),
        (f"{name}(x + y) * y", lambda x, y: f(x + y) * y),
        (f"{name}({name}(x))", lambda x, y: f(f(x))),
        (f"{name}(x)**2 + {name}(y)", lambda x, y: f(x) ** 2 + f(y)),
    ]


def run_cases(V, progs, inputs, fd=True):
    n = 0
    for desc, prog in progs:
        for xs in inputs:
            msg = check_case(V, desc, prog, list(xs), fd=fd)
            n += 1
            if msg:
                return msg, n
    return None, n


def pairs(xs, ys):
    return [(a, b) for a in xs for b in ys]


def check_op(ex, mod):
    V = mod.Value
    ys = [0.6, -1.7, 2.0]
    if ex == "op-add":
        return run_cases(V, binary_cases(lambda a, b: a + b, "+"), pairs(GRID, GRID))
    if ex == "op-mul":
        return run_cases(V, binary_cases(lambda a, b: a * b, "*"), pairs(GRID, GRID))
    if ex == "op-sub":
        return run_cases(V, binary_cases(lambda a, b: a - b, "-"), pairs(GRID, GRID))
    if ex == "op-div":
        return run_cases(V, binary_cases(lambda a, b: a / b, "/"), pairs(GRID, GRID))
    if ex == "op-pow-value":
        def pw(a, b):
            if isinstance(a, EV) and a.data <= 0:
                raise ValueError("x ** y with a Value y is checked for x > 0 only (ln x)")
            return a ** b
        progs = binary_cases(pw, "**", numbers=False)
        return run_cases(V, progs, pairs(POS, GRID))
    if ex == "op-tanh":
        xs = [-400.0, -3.0, -1.3, -0.5, 0.0, 0.3, 1.0, 2.2, 4.0, 400.0]
        return run_cases(V, unary_cases(lambda v: v.tanh(), "tanh"), pairs(xs, ys))
    if ex == "op-exp":
        xs = [-3.0, -1.3, -0.5, 0.0, 0.3, 1.0, 2.2, 4.0]
        return run_cases(V, unary_cases(lambda v: v.exp(), "exp"), pairs(xs, ys))
    if ex == "op-log":
        xs = [1e-3, 0.2, 0.5, 1.0, 1.7, 3.0, 40.0]
        return run_cases(V, unary_cases(lambda v: v.log(), "log"), pairs(xs, [0.6, 2.0, 1.3]))
    if ex == "op-relu":
        # relu has no derivative at 0; keep every relu input away from 0
        xs = [-3.0, -1.3, -0.5, 0.3, 1.0, 2.2]
        progs = [c for c in unary_cases(lambda v: v.relu(), "relu") if "relu(relu" not in c[0]]
        return run_cases(V, progs, pairs(xs, ys))
    if ex == "op-pow":
        total = 0
        for k in [2, 3, 1, 0, -1, -2, 0.5, 1.5, 2.0, -0.5, 4]:
            xs = [-2.0, -0.7, 0.0, 0.4, 1.0, 1.6, 3.0]
            if k < 1:  # no derivative at 0 (or a constant 0**0 that even the lecture's rule divides)
                xs = [x for x in xs if x != 0.0]
            progs = [
                (f"x**{k}", lambda x, y, k=k: x ** k),
                (f"x**{k} * 2.5", lambda x, y, k=k: (x ** k) * 2.5),
                (f"x**{k} + x", lambda x, y, k=k: x ** k + x),
                (f"(x*y)**{k} * y", lambda x, y, k=k: ((x * y) ** k) * y),
                (f"t = x**{k}; t*t + t", lambda x, y, k=k: (lambda t: t * t + t)(x ** k)),
                (f"(x**{k})**{k}", lambda x, y, k=k: (x ** k) ** k),
            ]
            msg, n = run_cases(V, progs, pairs(xs, [0.6, -1.7]))
            total += n
            if msg:
                return msg, total
        return None, total
    raise KeyError(ex)


# --------------------------------------------------------------------------------------------
# backward
# --------------------------------------------------------------------------------------------

def random_program(rng):
    """A random DAG as a list of instructions that replays with any Value class."""
    nleaves = rng.randint(2, 4)
    leaves = [round(rng.uniform(-1.5, 1.5), 3) for _ in range(nleaves)]
    instr = []
    nnodes = nleaves
    for _ in range(rng.randint(5, 14)):
        op = rng.choice(["+", "*", "*", "tanh", "sq", "+c", "*c"])
        i = rng.randrange(nnodes)
        j = rng.randrange(nnodes)
        c = round(rng.uniform(-2, 2), 2)
        instr.append((op, i, j, c))
        nnodes += 1
    k = rng.randint(1, min(3, nnodes))
    outs = rng.sample(range(nnodes), k)
    return leaves, instr, outs


def replay(V, leaves, instr, outs):
    nodes = [V(x) for x in leaves]
    for op, i, j, c in instr:
        a, b = nodes[i], nodes[j]
        if op == "+":
            n = a + b
        elif op == "*":
            n = a * b
        elif op == "tanh":
            n = a.tanh()
        elif op == "sq":
            n = a ** 2
        elif op == "+c":
            n = a + c
        else:
            n = a * c
        nodes.append(n)
    root = nodes[outs[0]]
    for o in outs[1:]:
        root = root + nodes[o]
    return nodes[: len(leaves)], root


def fixed_backward_graphs():
    g = []
    g.append(("a + a", [3.0], lambda a: a + a))
    g.append(("b = a + a; c = b + b", [3.0], lambda a: (lambda b: b + b)(a + a)))
    g.append(("(a*b)*(c*d)", [2.0, -3.0, 0.5, 4.0], lambda a, b, c, d: (a * b) * (c * d)))
    g.append(("(a*b)*1.0", [2.0, 3.0], lambda a, b: (a * b) * 1.0))
    g.append(("n = 3x; (n + 1)*0 + n", [2.0], lambda x: (lambda n: (n + 1) * 0 + n)(x * 3)))
    g.append(("n = x*x; n + n*2", [1.5], lambda x: (lambda n: n + n * 2)(x * x)))
    g.append(("a*b + b*c + c*a", [1.0, 2.0, -1.5], lambda a, b, c: a * b + b * c + c * a))
    g.append(("e = a*b; d = e + c; f = d*e; L = f.tanh()", [2.0, -3.0, 10.0],
              lambda a, b, c: (lambda e: ((e + c) * e).tanh())(a * b)))
    g.append(("x*y + (x*y).tanh() + ((x*y)**2)", [0.3, -0.8],
              lambda x, y: (lambda m: m + m.tanh() + m ** 2)(x * y)))
    g.append(("relu(x*y)*z + x", [1.0, -2.0, 3.0], lambda x, y, z: (x * y).relu() * z + x))
    return g


def chain(x, n):
    y = x
    for _ in range(n):
        y = y * 1.0
    return y


def check_backward(mod):
    V = mod.Value
    n = 0
    for desc, xs, prog in fixed_backward_graphs():
        n += 1
        msg = check_case(V, desc, prog, xs)
        if msg:
            return msg, n
    # two backward() calls on different graphs that share their leaves: the grads add up
    for xs in [(2.0, -3.0), (0.5, 1.5)]:
        n += 1
        res = []
        for cls in (EV, V):
            a, b = cls(xs[0]), cls(xs[1])
            (a * b + a).backward()
            ((a + b).tanh() * b + a * a).backward()
            res.append((a.grad, b.grad))
        if not (close(res[1][0], res[0][0]) and close(res[1][1], res[0][1])):
            return (f"two graphs sharing leaves a={xs[0]}, b={xs[1]}: L1 = a*b + a, then "
                    f"L2 = (a+b).tanh()*b + a*a, each .backward(): grads {res[1]}, expected {res[0]}"), n
    # a leaf that already holds a grad keeps it and adds
    n += 1
    res = []
    for cls in (EV, V):
        a, b = cls(1.5), cls(-2.0)
        a.grad = 0.25
        (a * b).backward()
        res.append((a.grad, b.grad))
    if not (close(res[1][0], res[0][0]) and close(res[1][1], res[0][1])):
        return f"a.grad = 0.25 before (a*b).backward() at a=1.5, b=-2: {res[1]}, expected {res[0]}", n
    # a chain deeper than 500 (still inside the lecture's recursion)
    n += 1
    x = V(1.7)
    try:
        chain(x, 600).backward()
        if not close(x.grad, 1.0):
            return f"chain of 600 (y = y * 1.0): x.grad = {x.grad}, expected 1.0", n
    except RecursionError:
        pass  # recursion depth is the optional challenge, not a wrong number
    # random DAGs (the order a set yields depends on memory addresses, so try many)
    rng = random.Random(1234)
    bad = 0
    first = None
    trials = 400
    junk = []
    for t in range(trials):
        leaves, instr, outs = random_program(rng)
        # churn the allocator so that addresses are not in creation order
        junk.append([V(0.0) for _ in range(rng.randint(0, 30))])
        if rng.random() < 0.5:
            junk.pop(rng.randrange(len(junk)))
        ls_e, root_e = replay(EV, leaves, instr, outs)
        root_e.backward()
        ls_l, root_l = replay(V, leaves, instr, outs)
        try:
            root_l.backward()
        except Exception as e:  # noqa: BLE001
            bad += 1
            first = first or f"random DAG {t}: raises {type(e).__name__}: {e}"
            continue
        for le, ll in zip(ls_e, ls_l):
            if not close(ll.grad, le.grad):
                bad += 1
                first = first or (f"random DAG {t} (leaves {leaves}, ops {instr}, outputs {outs}): "
                                  f"a leaf grad {fmt(ll.grad)}, expected {fmt(le.grad)}")
                break
    n += trials
    if bad:
        return f"{bad}/{trials} random DAGs wrong; first: {first}", n
    return None, n


# --------------------------------------------------------------------------------------------
# zero-grad
# --------------------------------------------------------------------------------------------

def all_nodes(root):
    seen, stack, out = set(), [root], []
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        out.append(v)
        stack.extend(v._prev)
    return out


def ref_train(init, grads0, loss_fn_e, steps, lr):
    ps = [EV(x) for x in init]
    for p, g in zip(ps, grads0):
        p.grad = g
    for _ in range(steps):
        loss = loss_fn_e(ps)
        for p in ps:
            p.grad = 0.0
        loss.backward()
        for p in ps:
            p.data += -lr * p.grad
    return [p.data for p in ps]


def check_zero_grad(mod):
    V = mod.Value
    n = 1
    ps = [V(1.5), V(-2.0)]
    keep = list(ps)
    keep[0].grad, keep[1].grad = 3.0, -4.0
    mod.zero_grad(ps)
    if [p.grad for p in keep] != [0.0, 0.0]:
        return f"zero_grad([a, b]) with grads 3, -4: the Values' grads are {[p.grad for p in keep]}, expected [0, 0]", n

    # zero_grad_all after a backward, then backward again on the same graph
    def g1(a, b):
        s = a * a
        return s * s + (a * b).tanh()

    for xs in [(3.0, 0.5), (-1.2, 2.0)]:
        n += 1
        a, b = V(xs[0]), V(xs[1])
        r = g1(a, b)
        r.backward()
        first = (a.grad, b.grad)
        mod.zero_grad_all(r)
        nz = [(v._op, v.data, v.grad) for v in all_nodes(r) if v.grad != 0]
        if nz:
            return (f"r = (a*a)*(a*a) + (a*b).tanh() at a={xs[0]}, b={xs[1]}, after r.backward(), "
                    f"zero_grad_all(r) leaves nonzero grads (op, data, grad): {nz[:3]}"), n
        r.backward()
        if not (close(a.grad, first[0]) and close(b.grad, first[1])):
            return (f"r = (a*a)*(a*a) + (a*b).tanh() at a={xs[0]}, b={xs[1]}: backward, zero_grad_all, "
                    f"backward gives {(a.grad, b.grad)}, expected {first}"), n
    # deeper graph
    n += 1
    a, b, c, d = V(2.0), V(-1.0), V(0.5), V(3.0)
    r = ((a * b) + c) * d
    r.backward()
    mod.zero_grad_all(r)
    nz = [(v._op, v.data, v.grad) for v in all_nodes(r) if v.grad != 0]
    if nz:
        return f"r = ((a*b)+c)*d at 2, -1, 0.5, 3 after backward: zero_grad_all(r) leaves (op, data, grad) {nz[:3]}", n
    # a root not yet backwarded whose leaves hold grads from another graph
    n += 1
    a, b = V(2.0), V(-1.0)
    a.grad, b.grad = 5.0, -1.0
    r = a * b + a
    mod.zero_grad_all(r)
    nz = [(v._op, v.data, v.grad) for v in all_nodes(r) if v.grad != 0]
    if nz:
        return (f"leaves a=2, b=-1 holding grads 5, -1 from another graph, r = a*b + a not yet "
                f"backwarded: zero_grad_all(r) leaves (op, data, grad) {nz[:3]}"), n

    # train
    def lf(a, b):
        return (a * b - 1) ** 2 + (a + b).tanh() ** 2

    cases = [
        ("train([a, b], (a*b - 1)**2 + (a+b).tanh()**2, steps=5, lr=0.1) from a=0.5, b=-1.2",
         [0.5, -1.2], [0.0, 0.0], 5, 0.1, 2),
        ("same, steps=1, with a.grad=0.3, b.grad=-0.8 before train", [0.5, -1.2], [0.3, -0.8], 1, 0.1, 2),
        ("same, steps=3, a.grad=0.3, b.grad=-0.8 before", [0.5, -1.2], [0.3, -0.8], 3, 0.1, 2),
        ("params [a, b, c] with c unused by the loss and c.grad=0.7, steps=3",
         [0.5, -1.2, 2.0], [0.0, 0.0, 0.7], 3, 0.1, 2),
        ("steps=1 from a=0.5, b=-1.2", [0.5, -1.2], [0.0, 0.0], 1, 0.1, 2),
    ]
    for desc, init, g0, steps, lr, used in cases:
        n += 1
        ps = [V(x) for x in init]
        for p, g in zip(ps, g0):
            p.grad = g
        keep = list(ps)
        try:
            mod.train(ps, lambda: lf(keep[0], keep[1]), steps, lr)
        except Exception as e:  # noqa: BLE001
            return f"{desc}: raises {type(e).__name__}: {e}", n
        got = [p.data for p in keep]
        want = ref_train(init, g0, lambda q: lf(q[0], q[1]), steps, lr)
        if not all(close(x, y) for x, y in zip(got, want)):
            return f"{desc}: params end at {[fmt(x) for x in got]}, expected {[fmt(x) for x in want]}", n
    return None, n


# --------------------------------------------------------------------------------------------
# softmax-nll
# --------------------------------------------------------------------------------------------

def true_softmax(zs):
    m = max(zs)
    e = [math.exp(z - m) for z in zs]
    s = sum(e)
    return [x / s for x in e]


def check_softmax(mod):
    V = mod.Value
    cases = [
        ([1.0, -2.0, 0.5], 0), ([1.0, -2.0, 0.5], 1), ([1.0, -2.0, 0.5], 2),
        ([0.0], 0), ([3.0, 3.0], 1), ([-1.0, 4.0, 2.5, 0.0], 2), ([0.0, -1.0], 0),
        ([2.0, 1.0, 0.1], 0), ([-0.5, -0.2, -3.0], 1), ([0.0, 30.0], 1), ([0.0, 30.0], 0),
        ([5.0, -5.0, 0.3, 0.3, 1.1], 3),
    ]
    n = 0
    for zs, t in cases:
        n += 1
        logits = [V(z) for z in zs]
        try:
            probs = mod.softmax(logits)
            loss = mod.nll(probs, t)
            loss.backward()
            pdata = [p.data for p in probs]
        except Exception as e:  # noqa: BLE001
            return f"softmax({zs}), nll(., {t}): raises {type(e).__name__}: {e}", n
        p = true_softmax(zs)
        if len(pdata) != len(p) or not all(close(x, y) for x, y in zip(pdata, p)):
            return f"softmax({zs}) = {[fmt(x) for x in pdata]}, expected {[fmt(x) for x in p]}", n
        if not close(loss.data, -math.log(p[t])):
            return f"nll(softmax({zs}), {t}) = {fmt(loss.data)}, expected {fmt(-math.log(p[t]))}", n
        want = [p[i] - (1.0 if i == t else 0.0) for i in range(len(zs))]
        got = [z.grad for z in logits]
        if not all(close(x, y) for x, y in zip(got, want)):
            return (f"softmax({zs}), nll(., {t}): logit grads {[fmt(x) for x in got]}, "
                    f"expected {[fmt(x) for x in want]}"), n
        # cross-check the analytic reference with the engine
        le = [EV(z) for z in zs]
        ex = [z.exp() for z in le]
        s = sum(ex)
        (-(ex[t] / s).log()).backward()
        assert all(abs(a.grad - w) < 1e-9 for a, w in zip(le, want))
    # the same Value twice among the logits
    n += 1
    a, b = V(0.4), V(-1.1)
    try:
        loss = mod.nll(mod.softmax([a, a, b]), 1)
        loss.backward()
    except Exception as e:  # noqa: BLE001
        return f"softmax([a, a, b]) with a=0.4, b=-1.1, target 1: raises {type(e).__name__}: {e}", n
    p = true_softmax([0.4, 0.4, -1.1])
    want = (p[0] + p[1] - 1.0, p[2])
    if not (close(a.grad, want[0]) and close(b.grad, want[1])):
        return f"softmax([a, a, b]), target 1: grads {(a.grad, b.grad)}, expected {want}", n
    # logits that are not leaves
    n += 1
    x = V(0.7)
    try:
        loss = mod.nll(mod.softmax([x * 2.0, x.tanh(), x * x]), 2)
        loss.backward()
    except Exception as e:  # noqa: BLE001
        return f"logits [2x, tanh x, x*x] at x=0.7: raises {type(e).__name__}: {e}", n
    xe = EV(0.7)
    zs = [xe * 2.0, xe.tanh(), xe * xe]
    ex = [z.exp() for z in zs]
    (-(ex[2] / sum(ex)).log()).backward()
    if not close(x.grad, xe.grad):
        return f"logits [2x, tanh x, x*x] at x=0.7, target 2: x.grad {x.grad}, expected {xe.grad}", n
    return None, n


# --------------------------------------------------------------------------------------------
# neuron-mlp
# --------------------------------------------------------------------------------------------

SIZES = [2, 8, 8, 1]
NPARAMS = sum((SIZES[i] + 1) * SIZES[i + 1] for i in range(len(SIZES) - 1))  # 105


def ref_forward(ps, x):
    """The lecture's MLP(2, [8, 8, 1]) with tanh on every neuron, parameters in lecture order."""
    k = 0
    h = x
    for i in range(len(SIZES) - 1):
        nin, nout = SIZES[i], SIZES[i + 1]
        outs = []
        for _ in range(nout):
            w = ps[k:k + nin]
            b = ps[k + nin]
            k += nin + 1
            act = b
            for wi, xi in zip(w, h):
                act = act + wi * xi
            outs.append(act.tanh())
        h = outs
    return h[0]


def moons(n, seed):
    rng = random.Random(seed)
    X, Y = [], []
    for i in range(n):
        t = rng.uniform(0, math.pi)
        if i % 2 == 0:
            X.append([math.cos(t) + rng.gauss(0, 0.1), math.sin(t) + rng.gauss(0, 0.1)])
            Y.append(1.0)
        else:
            X.append([1 - math.cos(t) + rng.gauss(0, 0.1), 0.5 - math.sin(t) + rng.gauss(0, 0.1)])
            Y.append(-1.0)
    return X, Y


def mse(preds, Y):
    total = (preds[0] - Y[0]) ** 2
    for p, y in zip(preds[1:], Y[1:]):
        total = total + (p - y) ** 2
    return total * (1.0 / len(Y))


def check_mlp(mod):
    n = 0
    X, Y = moons(12, 7)
    for seed in (0, 1):
        n += 1
        random.seed(seed)
        try:
            model = mod.MLP(2, [8, 8, 1])
            params = model.parameters()
            init = [p.data for p in params]
        except Exception as e:  # noqa: BLE001
            return f"MLP(2, [8, 8, 1]).parameters(): raises {type(e).__name__}: {e}", n
        if len(init) != NPARAMS:
            return f"MLP(2, [8, 8, 1]).parameters() has {len(init)} entries, expected {NPARAMS}", n
        ref = [EV(x) for x in init]
        lr = 0.1
        for step in range(4):
            try:
                ps = model.parameters()
                if len(ps) != NPARAMS:
                    return f"step {step}: parameters() now has {len(ps)} entries, expected {NPARAMS}", n
                if step == 0:
                    out0 = model(X[0])
                    r0 = ref_forward(ref, X[0])
                    if not close(out0.data, r0.data):
                        return f"model({X[0]}) = {fmt(out0.data)}, expected {fmt(r0.data)}", n
                for p in ps:
                    p.grad = 0.0
                loss = mse([model(x) for x in X], Y)
                loss.backward()
            except Exception as e:  # noqa: BLE001
                return f"step {step}: raises {type(e).__name__}: {e}", n
            for p in ref:
                p.grad = 0.0
            rloss = mse([ref_forward(ref, x) for x in X], Y)
            rloss.backward()
            if not close(loss.data, rloss.data):
                return (f"seed {seed}, step {step}: mean squared loss on 12 two-moons points "
                        f"{fmt(loss.data)}, expected {fmt(rloss.data)}"), n
            for i, (p, r) in enumerate(zip(ps, ref)):
                if not close(p.grad, r.grad):
                    return f"seed {seed}, step {step}: parameters()[{i}].grad = {fmt(p.grad)}, expected {fmt(r.grad)}", n
            for p in model.parameters():
                p.data += -lr * p.grad
            for p in ref:
                p.data += -lr * p.grad
    return None, n


# --------------------------------------------------------------------------------------------

def check(ex, mod):
    if ex.startswith("op-"):
        return check_op(ex, mod)
    if ex == "backward":
        return check_backward(mod)
    if ex == "zero-grad":
        return check_zero_grad(mod)
    if ex == "softmax-nll":
        return check_softmax(mod)
    if ex == "neuron-mlp":
        return check_mlp(mod)
    raise KeyError(ex)


def main():
    warnings.simplefilter("ignore", RuntimeWarning)  # the engine warns on nan; those cases are skipped
    verbose = "-v" in sys.argv
    flt = [a for a in sys.argv[1:] if a != "-v"]
    labels = json.load(open(os.path.join(HERE, "labels.json")))
    agree = 0
    rows = 0
    for item in labels:
        if flt and not any(f in item["file"] for f in flt):
            continue
        rows += 1
        try:
            mod = load(item["file"])
            msg, ncases = check(item["exercise"], mod)
        except Exception as e:  # noqa: BLE001
            msg, ncases = f"harness error {type(e).__name__}: {e}\n{traceback.format_exc()}", 0
        found_correct = msg is None
        ok = found_correct == item["correct"]
        agree += ok
        label = "correct" if item["correct"] else "WRONG"
        verdict = "agrees" if ok else "DISAGREES"
        print(f"{item['file']:48s} label {label:7s} verification {verdict} ({ncases} cases)")
        if msg and (verbose or not ok):
            print(f"    first failure: {msg}")
    print(f"\n{agree}/{rows} labels confirmed")
    if FD_WARN:
        print(f"{len(FD_WARN)} reference/finite-difference disagreements, e.g. {FD_WARN[:3]}")
    return 0 if agree == rows else 1


if __name__ == "__main__":
    sys.exit(main())
