"""Oracle for the blind set: checks each solution file against independent references.

Run with .venv/bin/python tests/practice_blind/blind6/verify.py [files...]. References: micrograd.engine.Value
(local-grads), torch float64 (linear, softmax, rmsnorm, attention-head) and a plain-float Adam
cross-checked once against torch.optim.Adam. Each check runs small hand-picked inputs first,
then many random ones; the first mismatch (forward value, gradient of a weighted sum of the
outputs w.r.t. every input Value, or Adam state after a call) is reported.
"""

import glob
import importlib.util
import json
import math
import os
import random
import sys
import traceback

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src")
)
import torch  # noqa: E402
from micrograd.engine import Value as MV  # noqa: E402

torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(os.path.abspath(__file__))
REL = 1e-9


class Fail(Exception):
    pass


def load(path):
    name = "blind_" + os.path.relpath(path, HERE).replace("/", "_").replace("-", "_")[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fmt(x):
    if isinstance(x, float):
        return f"{x:.10g}"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(fmt(y) for y in x) + "]"
    return repr(x)


def close(got, exp, scale):
    try:
        got = float(got)
    except (TypeError, ValueError):
        return False
    if math.isnan(got) != math.isnan(exp):
        return False
    return abs(got - exp) <= REL * abs(exp) + 1e-12 * (1 + scale)


def compare(what, got, exp, case):
    """got, exp: flat lists of numbers."""
    if len(got) != len(exp):
        raise Fail(f"{case}: {what}: got {len(got)} numbers, expected {len(exp)}")
    scale = max([abs(e) for e in exp] + [0.0])
    for i, (g, e) in enumerate(zip(got, exp)):
        if not close(g, e, scale):
            raise Fail(f"{case}: {what}[{i}] = {fmt(g)}, expected {fmt(e)}")


def data_of(v):
    return v.data if hasattr(v, "data") else v


def weighted_loss(V, outs, cs):
    """sum_i cs[i] * outs[i], built with the file's Value (outs may hold plain numbers)."""
    L = V(0.0)
    for o, c in zip(outs, cs):
        if not isinstance(o, V):
            o = V(float(o))
        L = L + o * c
    return L


def run_guard(case, fn):
    try:
        return fn()
    except Fail:
        raise
    except Exception as e:  # the learner's code crashed on this input
        raise Fail(f"{case}: raised {type(e).__name__}: {e}")


# ------------------------------------------------------------------ local-grads
HAND = [
    ("a+b", [2.0, 3.0], lambda a, b: a + b),
    ("a*b", [2.0, -3.0], lambda a, b: a * b),
    ("a**3", [2.0], lambda a: a**3),
    ("a**-1", [4.0], lambda a: a**-1),
    ("a**0.5", [4.0], lambda a: a**0.5),
    ("a.log()", [2.0], lambda a: a.log()),
    ("a.exp()", [1.0], lambda a: a.exp()),
    ("a.relu()", [2.0], lambda a: a.relu()),
    ("a.relu()", [-2.0], lambda a: a.relu()),
    ("a+3", [2.0], lambda a: a + 3),
    ("3+a", [2.0], lambda a: 3 + a),
    ("a*2", [5.0], lambda a: a * 2),
    ("2*a", [5.0], lambda a: 2 * a),
    ("a-b", [2.0, 3.0], lambda a, b: a - b),
    ("a/b", [2.0, 4.0], lambda a, b: a / b),
    ("a*a", [3.0], lambda a: a * a),
    ("a*b+c", [2.0, 3.0, 4.0], lambda a, b, c: a * b + c),
    ("(a*b)*c", [2.0, 3.0, 4.0], lambda a, b, c: (a * b) * c),
    ("(a*b).relu()", [2.0, 3.0], lambda a, b: (a * b).relu()),
    ("x=a*b; x+x", [2.0, 3.0], lambda a, b: (lambda x: x + x)(a * b)),
    ("x=a+b; (x*x).log()", [1.0, 2.0], lambda a, b: (lambda x: (x * x).log())(a + b)),
    (
        "(a*b+1).log()+(a-b).relu()*c.exp()",
        [1.5, -0.5, 0.3],
        lambda a, b, c: (a * b + 1).log() + (a - b).relu() * c.exp(),
    ),
    ("(a-b).relu()*c", [1.0, 2.0, 3.0], lambda a, b, c: (a - b).relu() * c),
    ("((a*b).exp()+a)**2", [0.5, -1.0], lambda a, b: ((a * b).exp() + a) ** 2),
]


def random_program(rng):
    """A random DAG, chosen on micrograd's Values; returns (leaf data, ops, output node list)."""
    nleaves = rng.randint(1, 4)
    leaves = [rng.choice([rng.uniform(-3, 3), rng.uniform(0.2, 3)]) for _ in range(nleaves)]
    nodes = [MV(d) for d in leaves]
    ops = []
    for _ in range(rng.randint(1, 10)):
        for _try in range(50):
            i = min(len(nodes) - 1, int(abs(rng.gauss(0, 3))))
            i = len(nodes) - 1 - i if rng.random() < 0.7 else rng.randrange(len(nodes))
            j = rng.randrange(len(nodes))
            a, b = nodes[i].data, nodes[j].data
            kind = rng.choice(
                [
                    "add",
                    "mul",
                    "addc",
                    "raddc",
                    "mulc",
                    "rmulc",
                    "pow",
                    "log",
                    "exp",
                    "relu",
                    "neg",
                    "sub",
                    "div",
                    "rsubc",
                ]
            )
            c = rng.choice([2, -1, 0.5, 3.0, rng.uniform(-2, 2)])
            k = rng.choice([2, 3, -1, 0.5, -0.5, 1.5])
            if kind == "pow":
                if k != int(k) and a <= 0.05:
                    continue
                if k < 0 and abs(a) < 0.2:
                    continue
            if kind == "log" and a <= 0.05:
                continue
            if kind == "exp" and a > 4:
                continue
            if kind == "div" and abs(b) < 0.2:
                continue
            if kind == "relu" and abs(a) < 1e-6:
                continue
            op = (kind, i, j, c, k)
            out = apply_op(MV, nodes, op)
            if not math.isfinite(out.data) or abs(out.data) > 1e4:
                continue
            nodes.append(out)
            ops.append(op)
            break
    extra = [rng.randrange(len(nodes)) for _ in range(rng.randint(0, 3))]
    return leaves, ops, extra


def apply_op(V, nodes, op):
    kind, i, j, c, k = op
    a, b = nodes[i], nodes[j]
    return {
        "add": lambda: a + b,
        "mul": lambda: a * b,
        "addc": lambda: a + c,
        "raddc": lambda: c + a,
        "mulc": lambda: a * c,
        "rmulc": lambda: c * a,
        "pow": lambda: a**k,
        "log": lambda: a.log(),
        "exp": lambda: a.exp(),
        "relu": lambda: a.relu(),
        "neg": lambda: -a,
        "sub": lambda: a - b,
        "div": lambda: a / b,
        "rsubc": lambda: c - a,
    }[kind]()


def run_program(V, leaves, ops, extra):
    ls = [V(d) for d in leaves]
    nodes = list(ls)
    for op in ops:
        nodes.append(apply_op(V, nodes, op))
    out = nodes[-1]
    for e in extra:
        out = out + nodes[e]
    return ls, out


def check_local_grads(mod, ntrials=400, seed=1):
    V = mod.Value
    for name, data, f in HAND:
        case = f"{name} with {', '.join(f'{n}={fmt(d)}' for n, d in zip('abc', data))}"
        ref = [MV(d) for d in data]
        rout = f(*ref)
        rout.backward()

        def go():
            ls = [V(d) for d in data]
            out = f(*ls)
            compare("out.data", [out.data], [rout.data], case)
            out.backward()
            compare(
                "grad of (" + ", ".join("abc"[: len(data)]) + ")",
                [x.grad for x in ls],
                [x.grad for x in ref],
                case,
            )

        run_guard(case, go)
    rng = random.Random(seed)
    for t in range(ntrials):
        leaves, ops, extra = random_program(rng)
        rl, rout = run_program(MV, leaves, ops, extra)
        rout.backward()
        case = f"random program #{t} ops={[o[0] for o in ops]} leaves={fmt(leaves)}"

        def go():
            ls, out = run_program(V, leaves, ops, extra)
            compare("out.data", [out.data], [rout.data], case)
            out.backward()
            compare("leaf grads", [x.grad for x in ls], [x.grad for x in rl], case)

        run_guard(case, go)


# ------------------------------------------------------------------ linear
def check_linear(mod, ntrials=200, seed=2):
    V = mod.Value
    cases = [
        ([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]]),
        ([2.0], [[3.0]]),
        ([1.0, 2.0, 3.0], [[1.0, 0.0, -1.0]]),
        ([1.0, -2.0], [[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]]),
        ([0.5, -1.0, 2.0], [[1.0, 2.0, 3.0], [-1.0, 1.0, 0.5]]),
    ]
    rng = random.Random(seed)
    for _ in range(ntrials):
        m, n = rng.randint(1, 5), rng.randint(1, 5)
        cases.append(
            (
                [rng.uniform(-2, 2) for _ in range(n)],
                [[rng.uniform(-2, 2) for _ in range(n)] for _ in range(m)],
            )
        )
    for t, (x, w) in enumerate(cases):
        m = len(w)
        cs = [1.0 + i for i in range(m)] if t < 5 else [rng.uniform(-2, 2) for _ in range(m)]
        case = f"x={fmt(x)}, w={fmt(w)}"
        X = torch.tensor(x, requires_grad=True)
        W = torch.tensor(w, requires_grad=True)
        out = W @ X
        (out @ torch.tensor(cs)).backward()

        def go():
            xs = [V(a) for a in x]
            ws = [[V(a) for a in row] for row in w]
            res = mod.linear(xs, ws)
            compare("linear(x, w)", [data_of(o) for o in res], out.tolist(), case)
            weighted_loss(V, res, cs).backward()
            compare(
                f"grad x of sum_i {fmt(cs)}[i]*out[i]", [a.grad for a in xs], X.grad.tolist(), case
            )
            compare(
                f"grad w of sum_i {fmt(cs)}[i]*out[i]",
                [a.grad for row in ws for a in row],
                W.grad.flatten().tolist(),
                case,
            )

        run_guard(case, go)


# ------------------------------------------------------------------ softmax
def check_softmax(mod, ntrials=300, seed=3):
    V = mod.Value
    cases = [
        [1.0, 2.0, 3.0],
        [0.0, -1.0],
        [2.0],
        [1.0, 2.0],
        [-1.0, 0.5, 0.0],
        [30.0, -30.0, 0.0],
        [0.0, 0.0],
    ]
    rng = random.Random(seed)
    for _ in range(ntrials):
        n = rng.randint(1, 6)
        r = rng.choice([1.0, 3.0, 10.0, 30.0])
        cases.append([rng.uniform(-r, r) for _ in range(n)])
    for t, z in enumerate(cases):
        cs = [1.0 + i for i in range(len(z))] if t < 7 else [rng.uniform(-2, 2) for _ in z]
        case = f"logits={fmt(z)}"
        Z = torch.tensor(z, requires_grad=True)
        p = torch.softmax(Z, 0)
        (p @ torch.tensor(cs)).backward()

        def go():
            zs = [V(a) for a in z]
            res = mod.softmax(zs)
            compare("softmax", [data_of(o) for o in res], p.tolist(), case)
            weighted_loss(V, res, cs).backward()
            compare(f"grad of sum_i {fmt(cs)}[i]*p[i]", [a.grad for a in zs], Z.grad.tolist(), case)

        run_guard(case, go)


# ------------------------------------------------------------------ rmsnorm
def check_rmsnorm(mod, ntrials=300, seed=4):
    V = mod.Value
    cases = [
        [1.0, 2.0, 3.0],
        [2.0],
        [1.0, 1.0],
        [-1.0, 1.0],
        [3.0, -4.0],
        [0.01, -0.02],
        [0.001, 0.002, 0.003],
    ]
    rng = random.Random(seed)
    for _ in range(ntrials):
        n = rng.randint(1, 6)
        r = rng.choice([0.001, 0.01, 1.0, 10.0])
        cases.append([rng.uniform(-r, r) for _ in range(n)])
    for t, x in enumerate(cases):
        cs = [1.0 + i for i in range(len(x))] if t < 7 else [rng.uniform(-2, 2) for _ in x]
        case = f"x={fmt(x)}"
        X = torch.tensor(x, requires_grad=True)
        y = X * ((X * X).mean() + 1e-5) ** -0.5
        (y @ torch.tensor(cs)).backward()

        def go():
            xs = [V(a) for a in x]
            res = mod.rmsnorm(xs)
            compare("rmsnorm", [data_of(o) for o in res], y.tolist(), case)
            weighted_loss(V, res, cs).backward()
            compare(f"grad of sum_i {fmt(cs)}[i]*y[i]", [a.grad for a in xs], X.grad.tolist(), case)

        run_guard(case, go)


# ------------------------------------------------------------------ attention-head
def torch_attention(XS, WQ, WK, WV):
    d = WQ.shape[0]
    outs = []
    for t in range(XS.shape[0]):
        q = WQ @ XS[t]
        K = XS[: t + 1] @ WK.T
        Vv = XS[: t + 1] @ WV.T
        w = torch.softmax(K @ q / math.sqrt(d), 0)
        outs.append(w @ Vv)
    return torch.stack(outs)


def check_attention(mod, ntrials=150, seed=5):
    V = mod.Value
    rng = random.Random(seed)
    cases = [
        ([[1.0]], [[1.0]], [[1.0]], [[2.0]]),
        ([[1.0], [2.0]], [[1.0]], [[1.0]], [[1.0]]),
        (
            [[1.0, 0.0], [0.0, 1.0]],
            [[1.0, 0.0], [0.0, 1.0]],
            [[1.0, 0.0], [0.0, 1.0]],
            [[1.0, 2.0], [3.0, 4.0]],
        ),
        (
            [[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]],
            [[1.0, 0.5], [-1.0, 1.0]],
            [[0.5, 1.0], [1.0, -0.5]],
            [[1.0, 0.0], [0.0, 1.0]],
        ),
        (
            [[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]],
            [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
            [[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]],
            [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
        ),
    ]
    for _ in range(ntrials):
        T, n, d = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
        mk = lambda r, c: [[rng.uniform(-1.5, 1.5) for _ in range(c)] for _ in range(r)]
        cases.append((mk(T, n), mk(d, n), mk(d, n), mk(d, n)))
    for t, (xs, wq, wk, wv) in enumerate(cases):
        T, d = len(xs), len(wq)
        cs = (
            [[1.0 + i + d * s for i in range(d)] for s in range(T)]
            if t < 5
            else [[rng.uniform(-2, 2) for _ in range(d)] for _ in range(T)]
        )
        case = f"xs={fmt(xs)}, wq={fmt(wq)}, wk={fmt(wk)}, wv={fmt(wv)}"
        ts = [torch.tensor(a, requires_grad=True) for a in (xs, wq, wk, wv)]
        out = torch_attention(*ts)
        (out * torch.tensor(cs)).sum().backward()

        def go():
            vs = [[[V(a) for a in row] for row in mat] for mat in (xs, wq, wk, wv)]
            res = mod.attention_head(*vs)
            if len(res) != T:
                raise Fail(f"{case}: got {len(res)} outputs, expected {T}")
            flat = [o for tok in res for o in tok]
            compare(
                "outputs (token-major)", [data_of(o) for o in flat], out.flatten().tolist(), case
            )
            weighted_loss(V, flat, [c for row in cs for c in row]).backward()
            for nm, mat, tt in zip(("xs", "wq", "wk", "wv"), vs, ts):
                compare(
                    f"grad {nm} of sum c*out (c={fmt(cs)})",
                    [a.grad for row in mat for a in row],
                    tt.grad.flatten().tolist(),
                    case,
                )

        run_guard(case, go)


# ------------------------------------------------------------------ adam-step
def ref_adam(data, grads, m, v, step, lr=0.01, beta1=0.85, beta2=0.99, eps=1e-8):
    data, m, v = list(data), list(m), list(v)
    for i, g in enumerate(grads):
        m[i] = beta1 * m[i] + (1 - beta1) * g
        v[i] = beta2 * v[i] + (1 - beta2) * g * g
        mh = m[i] / (1 - beta1 ** (step + 1))
        vh = v[i] / (1 - beta2 ** (step + 1))
        data[i] = data[i] - lr * mh / (math.sqrt(vh) + eps)
    return data, m, v


def torch_adam_crosscheck():
    """ref_adam against torch.optim.Adam on a few steps (same formula, other code)."""
    rng = random.Random(9)
    p0 = [rng.uniform(-1, 1) for _ in range(4)]
    P = torch.tensor(p0, requires_grad=True)
    opt = torch.optim.Adam([P], lr=0.01, betas=(0.85, 0.99), eps=1e-8)
    d, m, v = p0, [0.0] * 4, [0.0] * 4
    for step in range(6):
        g = [rng.uniform(-1, 1) * 10 ** rng.randint(-6, 1) for _ in range(4)]
        P.grad = torch.tensor(g)
        opt.step()
        d, m, v = ref_adam(d, g, m, v, step)
        assert all(abs(a - b) <= 1e-12 * (1 + abs(b)) for a, b in zip(d, P.tolist())), (d, P)


def adam_run(mod, case, data0, grad_seq, start_step=0, m0=None, v0=None, kw=None):
    V = mod.Value
    kw = kw or {}
    ps = [V(x) for x in data0]
    m = list(m0) if m0 else [0.0] * len(ps)
    v = list(v0) if v0 else [0.0] * len(ps)
    rd, rm, rv = list(data0), list(m), list(v)
    for k, grads in enumerate(grad_seq):
        step = start_step + k
        c = f"{case}, call {k + 1} (step={step}, grads={fmt(grads)})"

        def go():
            for p, g in zip(ps, grads):
                p.grad = g
            mod.adam_step(ps, m, v, step, **kw)

        run_guard(c, go)
        rd, rm, rv = ref_adam(rd, grads, rm, rv, step, **kw)
        compare("p.data", [p.data for p in ps], rd, c)
        compare("p.grad after the call", [p.grad for p in ps], [0.0] * len(ps), c)
        compare("m", m, rm, c)
        compare("v", v, rv, c)


def check_adam(mod, ntrials=60, seed=6):
    adam_run(
        mod,
        "params=[0.5, -1.0], fresh m=v=[0,0]",
        [0.5, -1.0],
        [[1.0, -2.0], [0.5, 1.0], [-1.0, 0.25], [2.0, 2.0]],
    )
    adam_run(mod, "params=[1.0], fresh m=v=[0]", [1.0], [[1e-6], [1e-6], [2e-6]])
    adam_run(
        mod, "second run, params=[2.0, 3.0], fresh m=v=[0,0]", [2.0, 3.0], [[0.3, -0.7], [0.1, 0.2]]
    )
    adam_run(
        mod,
        "resumed at step=5, params=[1.0], m=[0.1], v=[0.02]",
        [1.0],
        [[0.5], [-0.5]],
        start_step=5,
        m0=[0.1],
        v0=[0.02],
    )
    adam_run(
        mod,
        "params=[1.0, -1.0], lr=0.1, beta1=0.9, beta2=0.999, eps=1e-6",
        [1.0, -1.0],
        [[0.5, -0.25], [0.1, 0.3]],
        kw=dict(lr=0.1, beta1=0.9, beta2=0.999, eps=1e-6),
    )
    rng = random.Random(seed)
    for t in range(ntrials):
        n = rng.randint(1, 5)
        steps = rng.randint(1, 6)
        data0 = [rng.uniform(-2, 2) for _ in range(n)]
        seq = [
            [rng.uniform(-1, 1) * 10 ** rng.randint(-7, 1) for _ in range(n)] for _ in range(steps)
        ]
        adam_run(mod, f"random run #{t}, params={fmt(data0)}", data0, seq)


CHECKS = {
    "local-grads": check_local_grads,
    "linear": check_linear,
    "softmax": check_softmax,
    "rmsnorm": check_rmsnorm,
    "attention-head": check_attention,
    "adam-step": check_adam,
}


def check_file(path):
    ex = os.path.basename(os.path.dirname(path))
    try:
        mod = load(path)
    except Exception as e:
        return False, f"import failed: {type(e).__name__}: {e}"
    try:
        CHECKS[ex](mod)
    except Fail as e:
        return False, str(e)
    except Exception:
        return False, "oracle error: " + traceback.format_exc()
    return True, ""


def main(argv):
    torch_adam_crosscheck()
    files = argv or sorted(glob.glob(os.path.join(HERE, "*", "*.py")))
    files = [f for f in files if "/stubs/" not in f]
    labels = {}
    lp = os.path.join(HERE, "labels.json")
    if os.path.exists(lp):
        labels = {d["file"]: d["correct"] for d in json.load(open(lp))}
    bad = 0
    for f in files:
        rel = os.path.relpath(os.path.abspath(f), HERE)
        ok, msg = check_file(f)
        agree = "" if rel not in labels else ("" if labels[rel] == ok else "  <-- LABEL DISAGREES")
        bad += bool(agree)
        print(f"{'PASS' if ok else 'FAIL'} {rel}{agree}")
        if msg:
            print("     " + msg[:600])
    if labels:
        print(f"{bad} disagreement(s) with labels.json")


if __name__ == "__main__":
    main(sys.argv[1:])
