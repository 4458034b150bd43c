"""Shared helpers: load a learner file, run a graph on its Value and on torch float64."""
import importlib.util, json, math, os, sys, itertools

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
INDEX = {int(k): v for k, v in json.load(open(os.path.join(HERE, "index.json"))).items()}
_n = itertools.count()


def load(path):
    path = path if os.path.isabs(path) else os.path.join(ROOT, path)
    name = f"learner_{next(_n)}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_key(key):
    return load(INDEX[key])


def run_value(V, build, xs):
    """(out.data, [leaf grads]) or ('error', repr)."""
    try:
        leaves = [V(float(x)) for x in xs]
        out = build(*leaves)
        out.backward()
        return out.data, [l.grad for l in leaves]
    except Exception as e:  # noqa
        return "error", f"{type(e).__name__}: {e}"


def run_torch(build, xs):
    leaves = [torch.tensor(float(x), dtype=torch.float64, requires_grad=True) for x in xs]
    out = build(*leaves)
    out.backward()
    return out.item(), [0.0 if l.grad is None else l.grad.item() for l in leaves]


def close(x, y, rel=1e-9, abs_=1e-12):
    if isinstance(x, complex) or isinstance(y, complex):
        return False
    if x is None or y is None:
        return False
    x, y = float(x), float(y)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= abs_ + rel * max(abs(x), abs(y))


def same(got, want, **kw):
    if got[0] == "error":
        return False
    return close(got[0], want[0], **kw) and all(close(a, b, **kw) for a, b in zip(got[1], want[1]))


def fmt(r):
    if r[0] == "error":
        return r[1]
    return f"data={r[0]:.6g}, grads=[{', '.join(f'{g:.6g}' for g in r[1])}]"
