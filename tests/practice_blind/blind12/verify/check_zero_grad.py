"""zero-grad: zero_grad / zero_grad_all / train against direct checks and a torch SGD loop."""
import math, random
from common import *


def all_nodes(root):
    seen, st = {id(root): root}, [root]
    while st:
        v = st.pop()
        for c in v._prev:
            if id(c) not in seen:
                seen[id(c)] = c
                st.append(c)
    return list(seen.values())


LOSSES = [
    ("w*w", 1, lambda ps: ps[0] * ps[0]),
    ("(w0*w1 - 1)**2 + w0.tanh()", 2, lambda ps: (ps[0] * ps[1] - 1) ** 2 + ps[0].tanh()),
    ("sum((w_i*x - y)^2)", 3, lambda ps: sum(((ps[0] * x + ps[1] * x * x + ps[2]) - y) ** 2
                                             for x, y in [(0.5, 1.0), (-1.0, 0.2), (2.0, -0.3)])),
    ("shared: (w0+w0*w1).tanh()*w0", 2, lambda ps: (ps[0] + ps[0] * ps[1]).tanh() * ps[0]),
]


def torch_train(n, loss, init, steps, lr):
    ps = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in init]
    for _ in range(steps):
        for p in ps:
            p.grad = None
        L = loss(ps)
        L.backward()
        with torch.no_grad():
            for p in ps:
                p += -lr * p.grad
    return [p.item() for p in ps], [p.grad.item() for p in ps]


def problems(mod):
    V = mod.Value
    bad = []
    rng = random.Random(3)
    # zero_grad, several calls on the same params
    ps = [V(rng.uniform(-1, 1)) for _ in range(4)]
    for rep in range(3):
        for p in ps:
            p.grad = rng.uniform(1, 5)
        mod.zero_grad(ps)
        if any(p.grad != 0 for p in ps):
            bad.append(("zero_grad call %d" % (rep + 1), [p.grad for p in ps]))
    # zero_grad_all then backward again
    for name, n, loss in LOSSES:
        ps = [V(rng.uniform(-1, 1)) for _ in range(n)]
        L = loss(ps)
        L.backward()
        first = [p.grad for p in ps]
        mod.zero_grad_all(L)
        left = [v.grad for v in all_nodes(L) if v.grad != 0]
        if left:
            bad.append(("zero_grad_all leaves nonzero grads", name, left[:3]))
        L.backward()
        second = [p.grad for p in ps]
        if not all(close(a, b) for a, b in zip(first, second)):
            bad.append(("backward after zero_grad_all", name, second, first))
    # train, with and without stale grads on entry
    for name, n, loss in LOSSES:
        for stale in (False, True):
            for steps in (1, 2, 5):
                init = [rng.uniform(-1, 1) for _ in range(n)]
                ps = [V(x) for x in init]
                if stale:
                    for p in ps:
                        p.grad = 7.0
                mod.train(ps, lambda: loss(ps), steps, 0.1)
                want, wgrad = torch_train(n, loss, init, steps, 0.1)
                got = [p.data for p in ps]
                if not all(close(a, b, rel=1e-9) for a, b in zip(got, want)):
                    bad.append(("train data", name, f"stale={stale}", steps, got, want))
                if not all(close(p.grad, g, rel=1e-9) for p, g in zip(ps, wgrad)):
                    bad.append(("train: grads after", name, f"stale={stale}", steps, [p.grad for p in ps], wgrad))
    return bad


def demos():
    m = load_key(38)
    a = m.Value(1.0); a.grad = 5.0; m.zero_grad([a]); a.grad = 3.0; m.zero_grad([a])
    print("38: second zero_grad([a]) leaves a.grad =", a.grad, "(want 0)")
    w = m.Value(1.0); m.train([w], lambda: w * w, 2, 0.1)
    print("38: train(w=1, loss w*w, steps 2, lr .1) -> w =", w.data, "want", torch_train(1, lambda p: p[0] * p[0], [1.0], 2, 0.1)[0])
    m = load_key(39)
    w = m.Value(1.0); w.grad = 10.0; m.train([w], lambda: w * w, 1, 0.1)
    print("39: stale grad 10, train 1 step -> w =", w.data, "want", torch_train(1, lambda p: p[0] * p[0], [1.0], 1, 0.1)[0])
    m = load_key(40)
    a = m.Value(2.0); u = a * a; L = u * 3; L.backward(); m.zero_grad_all(L); print("40: after zero_grad_all u.grad =", u.grad); L.backward()
    print("40: a=2, L=(a*a)*3, backward, zero_grad_all, backward -> a.grad =", a.grad, "want 12")
    m = load_key(41)
    w = m.Value(1.0); m.train([w], lambda: (w * w) * 3, 2, 0.1)
    print("41: train(w=1, loss (w*w)*3, steps 2, lr .1) -> w =", w.data, "want", torch_train(1, lambda p: (p[0] * p[0]) * 3, [1.0], 2, 0.1)[0])


if __name__ == "__main__":
    from solutions import S
    for s in S:
        if s["exercise"] == "zero-grad":
            bad = problems(load_key(s["key"]))
            print(("correct " if s["correct"] else "wrong ") + INDEX[s["key"]], len(bad), "problems", bad[:2])
    demos()
