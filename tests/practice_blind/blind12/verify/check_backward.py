"""backward: learner Value.backward() against torch float64 on fixed and random graphs."""
import math, random, sys
from common import *

sys.setrecursionlimit(3000)

OPS = ["add", "mul", "sub", "tanh", "sq", "cmul", "cadd", "exp_tanh", "relu", "div"]


def random_program(rng):
    n_leaves = rng.randint(1, 4)
    prog = []
    n = n_leaves
    for _ in range(rng.randint(1, 14)):
        op = rng.choice(OPS)
        pick = lambda: rng.randrange(n) if rng.random() < 0.5 else rng.randrange(max(0, n - 3), n)
        prog.append((op, pick(), pick(), rng.uniform(-2, 2)))
        n += 1
    outs = sorted({n - 1} | {rng.randrange(n) for _ in range(rng.randint(0, 2))})
    return n_leaves, prog, outs


def interpret(leaves, prog, outs, tanh, relu, exp):
    nodes = list(leaves)
    for op, i, j, c in prog:
        x, y = nodes[i], nodes[j]
        nodes.append({
            "add": lambda: x + y, "mul": lambda: x * y, "sub": lambda: x - y, "tanh": lambda: tanh(x),
            "sq": lambda: x ** 2, "cmul": lambda: x * c, "cadd": lambda: c + x,
            "exp_tanh": lambda: exp(tanh(x)), "relu": lambda: relu(x),
            "div": lambda: x / (y * y + 1),
        }[op]())
    out = nodes[outs[0]]
    for k in outs[1:]:
        out = out + nodes[k]
    return out


def prog_build(prog, outs, torchy):
    if torchy:
        return lambda *l: interpret(l, prog, outs, torch.tanh, torch.relu, torch.exp)
    return lambda *l: interpret(l, prog, outs, lambda v: v.tanh(), lambda v: v.relu(), lambda v: v.exp())


def random_graph_problems(V, n=600, seed=0):
    rng = random.Random(seed)
    bad = []
    for _ in range(n):
        k, prog, outs = random_program(rng)
        xs = [rng.uniform(-2, 2) for _ in range(k)]
        want = run_torch(prog_build(prog, outs, True), xs)
        got = run_value(V, prog_build(prog, outs, False), xs)
        if not same(got, want, rel=1e-8, abs_=1e-10):
            bad.append((prog, outs, xs, fmt(got), fmt(want)))
    return bad


def two_calls(V, xs, f1, f2):
    leaves = [V(x) for x in xs]
    f1(*leaves).backward()
    f2(*leaves).backward()
    tl = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    f1(*tl).backward()
    f2(*tl).backward()
    return [l.grad for l in leaves], [t.grad.item() for t in tl]


def chain(V, n):
    x = V(0.5)
    v = x
    for _ in range(n):
        v = v + 1
    try:
        v.backward()
    except RecursionError as e:
        return "RecursionError"
    return x.grad


FIXED = [
    ("a + a", lambda a: a + a, [3.0]),
    ("b = a + a; c = b + b", lambda a: (lambda b: b + b)(a + a), [3.0]),
    ("u = a*a; u + (u*2)*3", lambda a: (lambda u: u + (u * 2) * 3)(a * a), [1.0]),
    ("u = a*a; u*2 + u*2", lambda a: (lambda u: u * 2 + u * 2)(a * a), [1.0]),
    ("(a+b)*(b+a)", lambda a, b: (a + b) * (b + a), [1.0, 2.0]),
    ("micrograd README graph", None, [-4.0, 2.0]),
]


def readme(a, b):
    c = a + b
    d = a * b + b ** 3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e ** 2
    g = f / 2.0
    g = g + 10.0 / f
    return g


def report(V, label):
    bad = []
    for name, build, xs in FIXED:
        build = build or readme
        got, want = run_value(V, build, xs), run_torch(build, xs)
        if not same(got, want):
            bad.append((name, xs, fmt(got), fmt(want)))
    g, w = two_calls(V, [2.0], lambda a: a * 3, lambda a: a * 4)
    if not all(close(x, y) for x, y in zip(g, w)):
        bad.append(("two calls a*3 then a*4", [2.0], g, w))
    g, w = two_calls(V, [0.7, -1.2], lambda a, b: (a * b).tanh() + a, lambda a, b: (a + b) * (a - b))
    if not all(close(x, y) for x, y in zip(g, w)):
        bad.append(("two calls sharing leaves", [0.7, -1.2], g, w))
    rg = random_graph_problems(V)
    deep = chain(V, 20000)
    mid = chain(V, 300)
    print(f"{label}: fixed/two-call mismatches {len(bad)}; random graphs mismatches {len(rg)}/600; "
          f"chain 300 -> {mid}; chain 20000 (optional) -> {deep}")
    for b in bad:
        print("    ", b)
    return bad, rg, mid, deep


if __name__ == "__main__":
    ref = load(os.path.join(ROOT, "_stubs", "zero-grad.py")).Value
    report(ref, "reference (stub's recursive backward)")
    from solutions import S
    for s in S:
        if s["exercise"] == "backward":
            bad, rg, mid, deep = report(load_key(s["key"]).Value, ("correct " if s["correct"] else "wrong ") + INDEX[s["key"]])
    # minimal chain length for the depth-capped one
    V = load_key(36).Value
    n = next(n for n in range(1, 400) if chain(V, n) != 1.0)
    print("guarded_recursion: shortest chain x+1+1+... that goes wrong:", n, "additions, x.grad =", chain(V, n))
