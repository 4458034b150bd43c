"""neuron-mlp: MLP(2, [8, 8, 1]) against a torch float64 MLP built from parameters() in the spec's
order (layer by layer, neuron by neuron, w then b), tanh on every neuron (the lecture's MLP); grads
per parameter and a few SGD steps on a small two-moons set, each step's loss compared."""
import math, random
from common import *

SIZES = [2, 8, 8, 1]


def torch_forward(flat, x, sizes=SIZES, act="tanh_all"):
    i = 0
    h = [torch.tensor(v, dtype=torch.float64) for v in x]
    for li in range(len(sizes) - 1):
        nin, nout = sizes[li], sizes[li + 1]
        nxt = []
        for _ in range(nout):
            w = flat[i:i + nin]; b = flat[i + nin]; i += nin + 1
            s = b
            for wi, xi in zip(w, h):
                s = s + wi * xi
            last = li == len(sizes) - 2
            if act == "tanh_all":
                s = torch.tanh(s)
            elif not last:
                s = torch.relu(s) if act == "relu_linear" else torch.tanh(s)
            nxt.append(s)
        h = nxt
    return h[0]


def moons(n, rng):
    pts = []
    for k in range(n):
        t = rng.uniform(0, math.pi)
        if k % 2:
            pts.append(([math.cos(t) + rng.gauss(0, .1), math.sin(t) + rng.gauss(0, .1)], 1.0))
        else:
            pts.append(([1 - math.cos(t) + rng.gauss(0, .1), 0.5 - math.sin(t) + rng.gauss(0, .1)], -1.0))
    return pts


def problems(mod, act="tanh_all", seed=0):
    random.seed(seed)
    rng = random.Random(seed)
    bad = []
    model = mod.MLP(2, [8, 8, 1])
    ps = model.parameters()
    n_expected = sum((SIZES[i] + 1) * SIZES[i + 1] for i in range(len(SIZES) - 1))
    if len(ps) != n_expected:
        bad.append(f"parameters(): {len(ps)} entries, want {n_expected}")
    if len({id(p) for p in ps}) != len(ps):
        bad.append(f"parameters(): only {len({id(p) for p in ps})} distinct Values among {len(ps)}")
    one = mod.Layer(3, 1)([1.0, 2.0, 3.0])
    if isinstance(one, list):
        bad.append("Layer(3, 1)(x) returned a list")
    nps = mod.Neuron(3).parameters()
    n = mod.Neuron(3)
    if not (len(n.parameters()) == 4 and n.parameters()[:3] == n.w if False else True):
        pass
    if [id(p) for p in n.parameters()] != [id(p) for p in n.w] + [id(n.b)]:
        bad.append("Neuron.parameters() is not w then b")
    if bad:
        return bad
    data = moons(16, rng)
    # grads of one sample and of a batch loss
    for x, y in data[:4]:
        for p in ps:
            p.grad = 0.0
        out = model([mod.Value(v) for v in x])
        loss = (out - y) ** 2
        loss.backward()
        flat = [torch.tensor(p.data, dtype=torch.float64, requires_grad=True) for p in ps]
        tout = torch_forward(flat, x, act=act)
        tl = (tout - y) ** 2
        tl.backward()
        if not close(out.data, tout.item(), rel=1e-9):
            bad.append(f"output {out.data} vs torch {tout.item()} at x={x}")
            return bad
        g = [p.grad for p in ps]; tg = [f.grad.item() for f in flat]
        nbad = sum(not close(a, b, rel=1e-8, abs_=1e-12) for a, b in zip(g, tg))
        if nbad:
            bad.append(f"{nbad} parameter grads differ at x={x}")
            return bad
    # a few SGD steps, MSE over the set
    flat = [torch.tensor(p.data, dtype=torch.float64, requires_grad=True) for p in ps]
    for step in range(5):
        loss = sum(((model([mod.Value(v) for v in x]) - y) ** 2 for x, y in data), mod.Value(0.0)) * (1.0 / len(data))
        for p in ps:
            p.grad = 0.0
        loss.backward()
        for p in ps:
            p.data += -0.05 * p.grad
        tl = sum((torch_forward(flat, x, act=act) - y) ** 2 for x, y in data) * (1.0 / len(data))
        for f in flat:
            f.grad = None
        tl.backward()
        with torch.no_grad():
            for f in flat:
                f += -0.05 * f.grad
        if not close(loss.data, tl.item(), rel=1e-9):
            bad.append(f"step {step}: loss {loss.data} vs torch {tl.item()}")
            return bad
    return bad


if __name__ == "__main__":
    from solutions import S
    for s in S:
        if s["exercise"] == "neuron-mlp":
            mod = load_key(s["key"])
            res = [problems(mod, seed=k) for k in range(5)]
            print(("correct " if s["correct"] else "wrong ") + INDEX[s["key"]], "problems per seed:",
                  [len(r) for r in res], res[0][:2])
    # minimal concrete failing inputs
    m = load_key(46); L = m.Layer(2, 2); print("46: Layer(2,2) neurons are the same object:", L.neurons[0] is L.neurons[1])
    m = load_key(47); a, b = m.Neuron(2), m.Neuron(2); print("47: Neuron(2).w is Neuron(2).w:", a.w is b.w, "; MLP(2,[8,8,1]) param count", len(m.MLP(2, [8, 8, 1]).parameters()))
    m = load_key(48); print("48: MLP(2,[8,8,1]) param count", len(m.MLP(2, [8, 8, 1]).parameters()), "; MLP(1,[1,1]):", len(m.MLP(1, [1, 1]).parameters()), "want 4")
    m = load_key(49); n = m.Neuron(2); print("49: Neuron(2).parameters()[0] is b:", n.parameters()[0] is n.b)


def forced_compare(mod, sizes, x, seed=0):
    """Skip the structure checks: output and per-position grads vs torch from parameters()."""
    random.seed(seed)
    model = mod.MLP(sizes[0], sizes[1:])
    ps = model.parameters()
    out = model([mod.Value(v) for v in x])
    out.backward()
    flat = [torch.tensor(p.data, dtype=torch.float64, requires_grad=True) for p in ps]
    t = torch_forward(flat, x, sizes=sizes)
    t.backward()
    return out.data, t.item(), [round(p.grad, 6) for p in ps], [round(f.grad.item(), 6) for f in flat]


if __name__ == "__main__":
    print("46 MLP(2,[2,1]) at x=[1,-1]:", forced_compare(load_key(46), [2, 2, 1], [1.0, -1.0]))
    print("49 MLP(2,[1]) at x=[1,-1]:", forced_compare(load_key(49), [2, 1], [1.0, -1.0]))
    print("50 MLP(2,[2,1]) at x=[1,-1]:", forced_compare(load_key(50), [2, 2, 1], [1.0, -1.0]))
