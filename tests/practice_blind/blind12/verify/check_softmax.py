"""softmax-nll: probs, loss and logit grads against torch float64 (softmax + cross entropy)."""
import math, random
from common import *


def learner(mod, xs, t):
    try:
        zs = [mod.Value(x) for x in xs]
        probs = mod.softmax(zs)
        L = mod.nll(probs, t)
        L.backward()
        return [p.data for p in probs], L.data, [z.grad for z in zs]
    except Exception as e:
        return f"{type(e).__name__}: {e}"


def oracle(xs, t):
    z = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
    p = torch.softmax(z, 0)
    L = -torch.log_softmax(z, 0)[t]
    L.backward()
    return p.tolist(), L.item(), z.grad.tolist()


def agree(g, w):
    if isinstance(g, str):
        return False
    return (all(close(a, b, rel=1e-9, abs_=1e-12) for a, b in zip(g[0], w[0])) and close(g[1], w[1], rel=1e-9)
            and all(close(a, b, rel=1e-8, abs_=1e-12) for a, b in zip(g[2], w[2])))


def problems(mod, n=400):
    rng = random.Random(5)
    cases = [([1.0, 2.0, 3.0], 0), ([0.0], 0), ([0.0, 0.0], 1), ([2.0, -1.0, 0.5, 0.0], 2)]
    cases += [([1000.0, 999.0, 0.0], 0), ([-1000.0, -1001.0], 1), ([50.0, -50.0, 0.0], 1), ([700.0, 710.0], 0)]
    for _ in range(n):
        k = rng.randint(1, 7)
        xs = [rng.uniform(-6, 6) for _ in range(k)]
        cases.append((xs, rng.randrange(k)))
    bad = []
    for xs, t in cases:
        g, w = learner(mod, xs, t), oracle(xs, t)
        if not agree(g, w):
            bad.append((xs, t, g, w))
    return bad


if __name__ == "__main__":
    from solutions import S
    for s in S:
        if s["exercise"] == "softmax-nll":
            bad = problems(load_key(s["key"]))
            print(("correct " if s["correct"] else "wrong ") + INDEX[s["key"]], len(bad), "problems")
            for b in bad[:3]:
                print("    ", b)
    print("oracle [1,2,3] target 0:", oracle([1.0, 2.0, 3.0], 0))
