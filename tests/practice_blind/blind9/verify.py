"""Runs each gpt-loop/*.py train_step against an oracle train_step (written here from the task,
on the file's own gpt/softmax/adam_step) from the same seeded weights, and reports, per scenario,
the first step where the returned loss, a parameter's data, m or v differ by more than 1e-9
relative."""
import importlib.util
import pathlib
import random
import sys
import traceback

HERE = pathlib.Path(__file__).resolve().parent
REL = 1e-9


def load(path, tag):
    spec = importlib.util.spec_from_file_location(f"cand_{tag}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def oracle_step(mod, sd, params, tokens, m, v, step, num_steps, lr=0.01):
    n_layer = len([k for k in sd if k.endswith(".attn_wq")])
    keys = [[] for _ in range(n_layer)]
    values = [[] for _ in range(n_layer)]
    n = min(len(sd["wpe"]), len(tokens) - 1)
    losses = []
    for pos in range(n):
        logits = mod.gpt(sd, tokens[pos], pos, keys, values)
        probs = mod.softmax(logits)
        losses.append(-probs[tokens[pos + 1]].log())
    loss = (1 / n) * sum(losses)
    loss.backward()
    mod.adam_step(params, m, v, step, lr=lr * (1 - step / num_steps))
    return loss.data


def close(a, b):
    return abs(a - b) <= REL * max(abs(a), abs(b)) + 1e-300


def worst(xs, ys):
    w, at = 0.0, None
    for i, (a, b) in enumerate(zip(xs, ys)):
        if not close(a, b):
            r = abs(a - b) / max(abs(a), abs(b))
            if r > w:
                w, at = r, i
    return w, at


def run(mod, docs, n_layer, num_steps, step_fn, runs=2):
    """Yields (run, step, loss, params data, m, v) for each step."""
    for r in range(runs):
        random.seed(7)
        sd = mod.init_model(5, n_embd=8, n_layer=n_layer, block_size=8)
        params = [p for mat in sd.values() for row in mat for p in row]
        m, v = [0.0] * len(params), [0.0] * len(params)
        for step, doc in enumerate(docs):
            loss = step_fn(sd, params, list(doc), m, v, step, num_steps)
            yield r, step, loss, [p.data for p in params], list(m), list(v)


SCENARIOS = {
    "A_L1_mixed": ([[4, 0, 1, 2, 4], [4, 3, 4], [4, 1, 0, 3, 2, 1, 4], [4, 2, 2, 0, 4]], 1, 6),
    "B_L2_mixed": ([[4, 0, 1, 2, 4], [4, 3, 4], [4, 1, 0, 3, 2, 1, 4], [4, 2, 2, 0, 4]], 2, 6),
    "C_L1_empty_docs": ([[4, 4], [4, 4], [4, 4]], 1, 3),
    "D_L1_long_doc": ([[4, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 4], [4, 1, 4]], 1, 4),
}


def check(path, scen):
    docs, n_layer, num_steps = SCENARIOS[scen]
    ref_mod = load(path, "ref_" + scen)  # the oracle on the file's own functions
    cand_mod = load(path, "cand_" + scen)
    ref = list(run(ref_mod, docs, n_layer, num_steps,
                   lambda *a: oracle_step(ref_mod, *a)))
    try:
        got = list(run(cand_mod, docs, n_layer, num_steps, cand_mod.train_step))
    except Exception as e:
        return f"ERROR {type(e).__name__}: {e}"
    for (r, s, l0, p0, m0, v0), (_, _, l1, p1, m1, v1) in zip(ref, got):
        bad = []
        if not isinstance(l1, float) or not close(l0, l1):
            bad.append(f"loss {l1!r} vs {l0!r}")
        for what, a, b in (("params", p1, p0), ("m", m1, m0), ("v", v1, v0)):
            w, at = worst(a, b)
            if at is not None:
                bad.append(f"{what}[{at}] {a[at]:.6g} vs {b[at]:.6g} (rel {w:.2g})")
        if bad:
            return f"run {r} step {s}: " + "; ".join(bad)
    return "ok"


if __name__ == "__main__":
    files = sorted((HERE / "gpt-loop").glob("*.py"))
    if len(sys.argv) > 1:
        files = [f for f in files if any(a in f.name for a in sys.argv[1:])]
    for f in files:
        print(f.name)
        for scen in SCENARIOS:
            print(f"   {scen:18s} {check(f, scen)}")
