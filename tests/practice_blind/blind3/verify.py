"""Verify the labels of the blind set against micrograd.engine (and finite differences).

Run:  .venv/bin/python tests/practice_blind/blind3/verify.py [-v] [FILE ...]

Each solution is loaded from its file (never through micrograd.practice) and run on small graphs
beside micrograd.engine.Value: data and every leaf's grad are compared (|x - y| <= 1e-12 + 1e-9 *
max(|x|, |y|)); an exception where the engine gives a finite answer counts as a difference.
Inputs where the engine raises or gives a non-finite or complex number are outside the domain and
skipped. The engine's own grads are checked against central differences at every smooth point.
A solution is WRONG when any check differs; the computed verdict must equal labels.json's.
"""

import importlib.util
import json
import math
import os
import random
import sys
import warnings

sys.dont_write_bytecode = True
warnings.simplefilter("ignore", RuntimeWarning)  # the engine warns on backward() of a nan (out of domain, skipped)

from micrograd.engine import Value as EV  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VERBOSE = "-v" in sys.argv
FD_FAILS = []


def load(rel):
    path = os.path.join(HERE, rel)
    name = "blind3_" + rel.replace("/", "_").replace("-", "_").replace(".py", "")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def close(x, y):
    if isinstance(x, complex) or isinstance(y, complex):
        return False
    try:
        x, y = float(x), float(y)
    except (TypeError, ValueError):
        return False
    if math.isnan(x) and math.isnan(y):
        return True
    return abs(x - y) <= 1e-12 + 1e-9 * max(abs(x), abs(y))


def finite(v):
    return isinstance(v, (int, float)) and math.isfinite(v)


class Diff(Exception):
    pass


def compare(what, got, want, names):
    for n, g, w in zip(names, got, want):
        if not close(g, w):
            raise Diff(f"{what}: {n} is {g!r}, should be {w!r}")
    if len(got) != len(want):
        raise Diff(f"{what}: {len(got)} numbers, should be {len(want)}")


# ----------------------------------------------------------------------------- op exercises
# Each graph is (text, f(a, b)); each run builds it, calls backward(), then builds it again on
# the same leaves with upstream grad 1 (second backward, grads add up), so repeated calls and
# shared leaves are covered. Upstream grads other than 1 come from graphs like f(a)*3.

def run_graph(V, f, xs):
    leaves = [V(float(x)) for x in xs]
    out = f(*leaves)
    out.backward()
    res = [out.data] + [leaf.grad for leaf in leaves]
    out2 = f(*leaves)
    out2.backward()
    res += [out2.data] + [leaf.grad for leaf in leaves]
    return res


NAMES = ["out.data", "a.grad", "b.grad", "2nd out.data", "2nd a.grad", "2nd b.grad"]


def fd_check(f, xs, grads, label):
    """central differences of the engine's forward, at points where it is smooth"""
    h = 1e-6
    for i in range(len(xs)):
        up = list(xs)
        dn = list(xs)
        up[i] += h
        dn[i] -= h
        try:
            fu = f(*[EV(x) for x in up]).data
            fd = f(*[EV(x) for x in dn]).data
        except Exception:
            continue
        num = (fu - fd) / (2 * h)
        if not (finite(num) and finite(grads[i])):
            continue
        if abs(num - grads[i]) > 1e-4 * max(1.0, abs(num)):
            FD_FAILS.append(f"{label} at {xs}: d/dx{i} engine {grads[i]} vs fd {num}")


def check_op(mod, graphs, inputs, kinks=()):
    V = mod.Value
    for text, f in graphs:
        for xs in inputs:
            try:
                want = run_graph(EV, f, xs)
            except Exception:
                continue  # outside the domain
            if not all(finite(w) for w in want):
                continue
            if not any(k(xs) for k in kinks):
                fd_check(f, xs, want[1:3], text)
            what = f"{text} at a={xs[0]}, b={xs[1]}"
            try:
                got = run_graph(V, f, xs)
            except Exception as e:
                raise Diff(f"{what}: raises {type(e).__name__}: {e}; should give {want[:3]}")
            compare(what, got, want, NAMES)


def G(text):
    return (text, eval("lambda a, b: " + text))


OPS = {
    "op-add": (
        ["a + b", "a + a", "a + 2", "2 + a", "(a + b) * 3", "(a + b) * a", "((a + b) + a) + b",
         "(a + 2.5) * b", "a + b + 1.5"],
        [(2, 3), (-1.5, 0.5), (0, -4), (-3, -3)], ()),
    "op-mul": (
        ["a * b", "a * a", "a * 3", "3 * a", "-a", "(a * b) * (a + b)", "(a * b) * a",
         "2 * (a * b) + a", "a * 0.5 * b"],
        [(2, 3), (-1.5, 0.5), (0, -4), (0, 0), (-3, -3)], ()),
    "op-pow": (
        ["a ** 2", "a ** 3", "a ** 0.5", "a ** -1", "a ** 0", "a ** 1", "a ** -2.5", "a ** 1.5",
         "(a ** 2) * b", "(a ** 3) * 2 + a", "(a * b) ** 2"],
        [(2, 3), (-1.5, 0.5), (0.7, -2), (-3, 1), (0, 2), (1, 1)], ()),
    "op-tanh": (
        ["a.tanh()", "a.tanh() * 2", "a.tanh() * a", "(a * b).tanh()", "a.tanh().tanh()",
         "(a.tanh() + b.tanh()) * b"],
        [(0.5, -1), (-2, 0.3), (0, 2), (3, -0.7), (20, 1)], ()),
    "op-exp": (
        ["a.exp()", "a.exp() * 3", "(a * b).exp()", "a.exp() * a", "(a.exp() + b).exp()"],
        [(-2, 0.5), (0, 1), (1.3, -0.4), (5, 0)], ()),
    "op-relu": (
        ["a.relu()", "a.relu() * 3", "(a * b).relu()", "a.relu() * -2", "(a + a).relu() * a",
         "(a.relu() + b.relu()) * b"],
        [(2, 3), (-1, 2), (0.5, 1), (2, -3), (0, 0.5), (-2.5, -1)],
        (lambda xs: xs[0] == 0 or xs[1] == 0,)),
    "op-sub": (
        ["a - b", "a - a", "a - 2", "2 - a", "(a - b) * a", "(a - b) * 3", "b - a * a",
         "(a - b) - (b - a)"],
        [(2, 3), (-1.5, 0.5), (0, -4), (1, 1)], ()),
    "op-div": (
        ["a / b", "a / a", "a / 2", "2 / a", "(a / b) * a", "(a / b) * 3", "a / (a * b)",
         "(a / b) / b"],
        [(3, 2), (-1.5, 0.5), (0, -4), (7, -2), (1, 1)], ()),
    "op-log": (
        ["a.log()", "a.log() * 3", "(a * b).log()", "a.log() * a", "(a.log() + b).exp()"],
        [(2, 3), (0.3, 0.5), (1, 2), (7.5, 0.1), (-1, 2)], ()),
    "op-pow-value": (
        ["a ** b", "a ** a", "(a ** b) * 3", "(a ** b) * a + b", "(a + b) ** b"],
        [(2, 3), (0.5, -1.2), (1.7, 0), (3, 0.5), (1, 2), (0.3, 2.5)], ()),
}


def op_domain_filter(ex, text, xs):
    # x ** k at x == 0 with k < 1: the power rule k * x**(k-1) is not defined there as written
    if ex == "op-pow" and xs[0] == 0:
        k = text.split("**")[1].strip().strip(")")
        try:
            return float(k) >= 1
        except ValueError:
            return True
    return True


def verify_op(mod, ex):
    texts, inputs, kinks = OPS[ex]
    for text in texts:
        ins = [xs for xs in inputs if op_domain_filter(ex, text, xs)]
        check_op(mod, [G(text)], ins, kinks)


# ----------------------------------------------------------------------------- backward
def g_shared(a):
    n = a * a
    return n * 2 + n * 3


BACKWARD_GRAPHS = [
    ("a + a", lambda a, b: a + a, [(3, 0)]),
    ("b = a + a; c = b + b", lambda a, b: _bb(a), [(3, 0), (-2, 0), (0, 0)]),
    ("a * b", lambda a, b: a * b, [(2, 3)]),
    ("((a * b) * a) * b", lambda a, b: ((a * b) * a) * b, [(2, 3), (-1, 0.5)]),
    ("a.tanh().tanh().tanh()", lambda a, b: a.tanh().tanh().tanh(), [(0.5, 0)]),
    ("n = a * a; n * 2 + n * 3", lambda a, b: g_shared(a), [(3, 0), (-1, 0)]),
    ("d = a * b; e = a + b; (d * e).tanh() + d", lambda a, b: _de(a, b), [(-2, 3), (0.5, 0.25)]),
    ("(a * b) + (a + 4)", lambda a, b: (a * b) + (a + 4), [(2, 3), (1, 1)]),
    ("(a * b).relu() * (a - b).exp() / b", lambda a, b: (a * b).relu() * (a - b).exp() / b,
     [(1.5, 0.5), (-1, 2)]),
]


def _bb(a):
    b = a + a
    return b + b


def _de(a, b):
    d = a * b
    e = a + b
    return (d * e).tanh() + d


def verify_backward(mod):
    V = mod.Value
    for text, f, inputs in BACKWARD_GRAPHS:
        for xs in inputs:
            want = run_graph(EV, f, xs)
            fd_check(f, xs, want[1:3], text)
            what = f"{text} at a={xs[0]}, b={xs[1]}"
            try:
                got = run_graph(V, f, xs)
            except Exception as e:
                raise Diff(f"{what}: raises {type(e).__name__}: {e}")
            compare(what, got, want, NAMES)
    # two backward() calls on different graphs that share leaves: grads add up
    def two(VV):
        a, b = VV(2.0), VV(-3.0)
        (a * b + a).backward()
        r1 = [a.grad, b.grad]
        ((a * a).tanh() * b).backward()
        return r1 + [a.grad, b.grad]

    want = two(EV)
    try:
        got = two(V)
    except Exception as e:
        raise Diff(f"(a*b+a).backward() then ((a*a).tanh()*b).backward(): raises {e!r}")
    compare("(a*b+a).backward() then ((a*a).tanh()*b).backward() at a=2, b=-3", got, want,
            ["a.grad after 1st", "b.grad after 1st", "a.grad after 2nd", "b.grad after 2nd"])


# ----------------------------------------------------------------------------- zero-grad
def all_nodes(root):
    seen, stack = [], [root]
    ids = set()
    while stack:
        v = stack.pop()
        if id(v) in ids:
            continue
        ids.add(id(v))
        seen.append(v)
        stack.extend(v._prev)
    return seen


def ref_train(vals, fn, steps, lr, entry_grads):
    ps = [EV(x) for x in vals]
    for p, g in zip(ps, entry_grads):
        p.grad = g
    for _ in range(steps):
        loss = fn(*ps)
        for p in ps:
            p.grad = 0.0
        loss.backward()
        for p in ps:
            p.data += -lr * p.grad
    return [p.data for p in ps] + [p.grad for p in ps]


def loss_a(p, q, r=None):
    return (p * q - 1) ** 2 + (p - 0.5) ** 2


def loss_b(p, q, r=None):
    return (p.tanh() * q).exp() + q * q


TRAIN_CASES = [
    # (text, values, loss, steps, lr, entry grads)
    ("train([p, q], (p*q-1)**2 + (p-0.5)**2, steps=1, lr=0.1), p=2, q=-1", [2.0, -1.0], loss_a, 1, 0.1, [0.0, 0.0]),
    ("train([p, q], (p*q-1)**2 + (p-0.5)**2, steps=3, lr=0.1), p=2, q=-1", [2.0, -1.0], loss_a, 3, 0.1, [0.0, 0.0]),
    ("train([p, q], exp(tanh(p)*q) + q*q, steps=2, lr=0.5), p=0.3, q=0.8", [0.3, 0.8], loss_b, 2, 0.5, [0.0, 0.0]),
    ("train([p, q], (p*q-1)**2 + (p-0.5)**2, steps=2, lr=0.1), p=2, q=-1, p.grad=5, q.grad=-2 on entry",
     [2.0, -1.0], loss_a, 2, 0.1, [5.0, -2.0]),
    ("train([p, q, r], (p*q-1)**2 + (p-0.5)**2, steps=1, lr=0.1), r unused with r.grad=1 on entry",
     [2.0, -1.0, 4.0], loss_a, 1, 0.1, [0.0, 0.0, 1.0]),
    ("train([p, q], ..., steps=0, lr=0.1)", [2.0, -1.0], loss_a, 0, 0.1, [0.5, 0.5]),
]


def verify_zero_grad(mod):
    V = mod.Value
    # zero_grad
    ps = [V(1.0), V(2.0), V(-1.0), V(0.5)]
    for p, g in zip(ps, [2.0, -3.0, 0.0, 1e-300]):
        p.grad = g
    try:
        mod.zero_grad(ps)
    except Exception as e:
        raise Diff(f"zero_grad raises {e!r}")
    compare("zero_grad([p1..p4]) with grads 2, -3, 0, 1e-300", [p.grad for p in ps], [0.0] * 4,
            ["p1.grad", "p2.grad", "p3.grad", "p4.grad"])
    # zero_grad_all, then backward again on the same graph
    for text, f, xs in [
        ("L = (a * b) * c", lambda a, b, c: (a * b) * c, (2.0, 3.0, -1.0)),
        ("L = ((a*b).tanh() + a) * c - b", lambda a, b, c: ((a * b).tanh() + a) * c - b, (0.5, -1.5, 2.0)),
    ]:
        ref = [EV(x) for x in xs]
        f(*ref).backward()
        want = [r.grad for r in ref]
        leaves = [V(x) for x in xs]
        L = f(*leaves)
        L.backward()
        try:
            mod.zero_grad_all(L)
        except Exception as e:
            raise Diff(f"zero_grad_all raises {e!r}")
        nodes = all_nodes(L)
        bad = [v for v in nodes if v.grad != 0]
        if bad:
            raise Diff(f"{text}: after backward(), zero_grad_all(L) leaves {len(bad)} of {len(nodes)} "
                       f"Values nonzero (e.g. {bad[0]!r}); should be 0")
        L.backward()
        compare(f"{text} at {xs}: backward, zero_grad_all(L), backward again",
                [v.grad for v in leaves], want, ["a.grad", "b.grad", "c.grad"])
    # train
    for text, vals, fn, steps, lr, eg in TRAIN_CASES:
        want = ref_train(vals, fn, steps, lr, eg)
        ps = [V(x) for x in vals]
        for p, g in zip(ps, eg):
            p.grad = g
        try:
            mod.train(ps, lambda: fn(*ps), steps, lr)
        except Exception as e:
            raise Diff(f"{text}: raises {e!r}")
        n = len(ps)
        compare(text, [p.data for p in ps] + [p.grad for p in ps], want,
                [f"final p{i}.data" for i in range(n)] + [f"final p{i}.grad" for i in range(n)])


# ----------------------------------------------------------------------------- softmax-nll
def ref_softmax_nll(xs, target, up, twice):
    zs = [EV(x) for x in xs]
    if twice:
        zs = [zs[0], zs[0]] + zs[1:]
    exps = [z.exp() for z in zs]
    total = sum(exps)
    probs = [e / total for e in exps]
    loss = -probs[target].log()
    (loss * up if up != 1 else loss).backward()
    return [p.data for p in probs] + [loss.data] + [z.grad for z in zs]


SOFTMAX_CASES = [
    # (logits, target, upstream, first logit Value used twice)
    ([0.0, 0.0], 0, 1, False),
    ([1.0, 2.0, 0.5], 1, 1, False),
    ([2.0], 0, 1, False),
    ([3.0, -1.0], 0, 2.5, False),
    ([-1.0, 3.0, -2.0, 0.5], 3, 1, False),
    ([0.7, -0.2], 2, 1, True),
    ([0.0, -800.0], 0, 1, False),
]


def verify_softmax(mod):
    V = mod.Value
    for xs, t, up, twice in SOFTMAX_CASES:
        want = ref_softmax_nll(xs, t, up, twice)
        zs = [V(x) for x in xs]
        if twice:
            zs = [zs[0], zs[0]] + zs[1:]
        n = len(zs)
        what = (f"logits {xs}{' (first Value used twice)' if twice else ''}, target {t}"
                f"{', upstream ' + str(up) if up != 1 else ''}")
        try:
            probs = mod.softmax(zs)
            loss = mod.nll(probs, t)
            (loss * up if up != 1 else loss).backward()
            got = [p.data for p in probs] + [loss.data] + [z.grad for z in zs]
        except Exception as e:
            raise Diff(f"{what}: raises {type(e).__name__}: {e}")
        compare(what, got, want, [f"probs[{i}]" for i in range(n)] + ["loss"] +
                [f"logits[{i}].grad" for i in range(n)])


# ----------------------------------------------------------------------------- neuron-mlp
def ref_mlp(data, nin, nouts, act):
    it = iter(data)
    layers = []
    sz = [nin] + list(nouts)
    for i in range(len(nouts)):
        neurons = []
        for _ in range(sz[i + 1]):
            w = [EV(next(it)) for _ in range(sz[i])]
            b = EV(next(it))
            neurons.append((w, b))
        layers.append(neurons)
    params = [p for layer in layers for (w, b) in layer for p in w + [b]]

    def forward(x):
        for layer in layers:
            outs = []
            for w, b in layer:
                s = sum((wi * xi for wi, xi in zip(w, x)), b)
                outs.append(s.tanh() if act == "tanh" else s.relu())
            x = outs[0] if len(outs) == 1 else outs
        return x

    return forward, params


XS = [[0.5, -1.2, 0.3], [1.0, 0.3, -0.4], [-0.7, 0.8, 0.9], [0.2, 0.2, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


def mlp_run(mod, nin, nouts, seed, act):
    V = mod.Value
    random.seed(seed)
    model = mod.MLP(nin, nouts)
    p1 = model.parameters()
    p2 = model.parameters()
    want_n = sum((a + 1) * b for a, b in zip([nin] + nouts, nouts))
    what = f"MLP({nin}, {nouts})"
    if len(p1) != want_n:
        raise Diff(f"{what}.parameters() has {len(p1)} Values, should be {want_n}")
    if len(p2) != len(p1) or any(x is not y for x, y in zip(p1, p2)):
        raise Diff(f"{what}.parameters() called twice gives {len(p1)}, then {len(p2)} Values")
    forward, rp = ref_mlp([p.data for p in p1], nin, nouts, act)
    x = XS[0][:nin]
    out = model(x)
    rout = forward(x)
    if nouts[-1] == 1 and not isinstance(out, V):
        raise Diff(f"{what}(x) returns {type(out).__name__} {out!r}, should be one Value")
    outs = [out] if nouts[-1] == 1 else list(out)
    routs = [rout] if nouts[-1] == 1 else rout
    compare(f"{what}({x}) [{act}]", [o.data for o in outs], [o.data for o in routs],
            [f"out[{i}].data" for i in range(len(outs))])
    s = sum(outs)
    rs = sum(routs)
    s.backward()
    rs.backward()
    compare(f"{what}: grads of sum(outputs) at x={x} [{act}]", [p.grad for p in p1],
            [p.grad for p in rp], [f"parameters()[{i}].grad" for i in range(len(p1))])
    # a few SGD steps, each step's loss compared
    for step in range(3):
        ps = model.parameters()
        preds = [model(xx[:nin]) for xx in XS]
        rpreds = [forward(xx[:nin]) for xx in XS]
        if nouts[-1] != 1:
            preds = [sum(p) for p in preds]
            rpreds = [sum(p) for p in rpreds]
        loss = sum((yp - yt) ** 2 for yp, yt in zip(preds, YS))
        rloss = sum((yp - yt) ** 2 for yp, yt in zip(rpreds, YS))
        compare(f"{what}: loss at training step {step} [{act}]", [loss.data], [rloss.data], ["loss"])
        for p in ps:
            p.grad = 0.0
        for p in rp:
            p.grad = 0.0
        loss.backward()
        rloss.backward()
        for p in ps:
            p.data += -0.05 * p.grad
        for p in rp:
            p.data += -0.05 * p.grad


def verify_mlp(mod):
    for nin, nouts, seed in [(1, [1], 3), (2, [1], 4), (2, [2, 1], 5), (2, [3, 2], 2), (3, [4, 1], 1), (2, [8, 8, 1], 0)]:
        errs = []
        for act in ("tanh", "relu"):
            try:
                mlp_run(mod, nin, nouts, seed, act)
                break
            except Diff as e:
                errs.append(str(e))
            except Exception as e:
                errs.append(f"MLP({nin}, {nouts}): raises {type(e).__name__}: {e}")
        else:
            raise Diff(errs[0])


# ----------------------------------------------------------------------------- main
def verdict(rel, ex):
    try:
        mod = load(rel)
        if ex in OPS:
            verify_op(mod, ex)
        elif ex == "backward":
            verify_backward(mod)
        elif ex == "zero-grad":
            verify_zero_grad(mod)
        elif ex == "softmax-nll":
            verify_softmax(mod)
        elif ex == "neuron-mlp":
            verify_mlp(mod)
        else:
            raise SystemExit(f"unknown exercise {ex}")
    except Diff as e:
        return False, str(e)
    except RecursionError as e:
        return False, f"RecursionError: {e}"
    return True, ""


def main():
    labels = json.load(open(os.path.join(HERE, "labels.json")))
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    bad = 0
    for lab in labels:
        if only and lab["file"] not in only:
            continue
        ok, why = verdict(lab["file"], lab["exercise"])
        agree = ok == lab["correct"]
        bad += not agree
        mark = "ok " if agree else "MISMATCH"
        print(f"{mark} {lab['file']}: computed {'CORRECT' if ok else 'WRONG'}, label "
              f"{'CORRECT' if lab['correct'] else 'WRONG'}" + (f"\n      {why}" if why and (VERBOSE or not agree) else ""))
    if FD_FAILS:
        print("engine vs finite differences disagreed at:", *sorted(set(FD_FAILS)), sep="\n  ")
    print(f"{bad} label(s) contradicted; engine/fd disagreements: {len(set(FD_FAILS))}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
