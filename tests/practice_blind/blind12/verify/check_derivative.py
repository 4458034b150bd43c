"""derivative: gradf against torch autograd; numerical/symmetric grads against the formulas."""
import math, random
from common import *


def f(a, b, c):
    return -(a**3) + math.sin(3 * b) - 1.0 / c + b**2.5 - a**0.5


def torch_grad(a, b, c):
    t = [torch.tensor(float(x), dtype=torch.float64, requires_grad=True) for x in (a, b, c)]
    y = -(t[0] ** 3) + torch.sin(3 * t[1]) - 1.0 / t[2] + t[1] ** 2.5 - t[0] ** 0.5
    y.backward()
    return [x.grad.item() for x in t]


def fwd(a, b, c, h):
    return [(f(a + h, b, c) - f(a, b, c)) / h, (f(a, b + h, c) - f(a, b, c)) / h,
            (f(a, b, c + h) - f(a, b, c)) / h]


def sym(a, b, c, h):
    return [(f(a + h, b, c) - f(a - h, b, c)) / (2 * h), (f(a, b + h, c) - f(a, b - h, c)) / (2 * h),
            (f(a, b, c + h) - f(a, b, c - h)) / (2 * h)]


def problems(mod, n=500):
    R = random.Random(1)
    pts = [(1.0, 1.0, 1.0), (2.0, 3.0, 4.0), (0.25, 0.5, -1.0), (0.04, 2.0, -0.5)]
    pts += [(R.uniform(0.01, 5), R.uniform(0.01, 5), R.choice([-1, 1]) * R.uniform(0.1, 5)) for _ in range(n)]
    bad = []
    for a, b, c in pts:
        for h in (1e-6, 1e-4, 0.001, 1e-2):
            if a - h <= 0 or b - h <= 0 or abs(c) <= h:
                continue
            g = mod.gradf(a, b, c)
            if not all(close(x, y, rel=1e-10) for x, y in zip(g, torch_grad(a, b, c))):
                bad.append(("gradf", (a, b, c), g, torch_grad(a, b, c)))
            g = mod.numerical_grad(f, a, b, c, h)
            if not all(close(x, y, rel=1e-12) for x, y in zip(g, fwd(a, b, c, h))):
                bad.append(("numerical_grad", (a, b, c, h), g, fwd(a, b, c, h)))
            g = mod.symmetric_grad(f, a, b, c, h)
            if not all(close(x, y, rel=1e-12) for x, y in zip(g, sym(a, b, c, h))):
                bad.append(("symmetric_grad", (a, b, c, h), g, sym(a, b, c, h)))
    return bad


if __name__ == "__main__":
    from solutions import S
    for s in S:
        if s["exercise"] != "derivative":
            continue
        mod = load_key(s["key"])
        assert mod.f(1.3, 0.7, 2.0) == f(1.3, 0.7, 2.0)
        bad = problems(mod)
        print(("correct " if s["correct"] else "wrong ") + INDEX[s["key"]], len(bad), "mismatches;",
              "first:", bad[:1])
    m = load_key(1)
    print("key1 gradf(1,1,1) =", m.gradf(1, 1, 1), "torch", torch_grad(1, 1, 1))
    m = load_key(2)
    print("key2 numerical_grad(f,1,1,1,1e-6) =", m.numerical_grad(f, 1, 1, 1, 1e-6), "expected", fwd(1, 1, 1, 1e-6))
