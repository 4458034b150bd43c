"""Benchmark, without numpy: a traced program replayed in pure Python
(micrograd.replay's python back end: flat lists of floats, no Value objects) against the eager
engine.

    .venv/bin/python benchmarks/pure_replay.py                 # CPython, ~10 s
    node benchmarks/pyodide.mjs pure_replay                    # the same in Pyodide (Node), ~20 s
    .venv/bin/python benchmarks/pure_replay.py --rounds 3 --workloads W   # a quick look

Workloads, each one training step on the whole set:
  W           benchmarks/bench.py's: two moons (100 points, noise 0.1, labels -1/+1),
              MLP(2, [16, 16, 1]), mean hinge loss + 1e-4 * L2, SGD (lr 0.05); the eager side is
              a copy of benchmarks/worker.py's Eager class (the original demo's user code)
  playground  the site's playground's model and data (site_src/assets/mg_site.py):
              moons(n=100, seed=0), MLP(2, [8, 8, 1]) relu, Adam (lr 0.03), with the loss and the
              logit (for the accuracy) of one program: bce_with_logits, then the logit
Engines: the eager engine; the replay (replay.compile(..., backend="python"), sums folded into
one expression per neuron);
the replay with one statement per node (fold=False), for comparison. Every round runs each engine
from the same starting weights, the engines' order alternating between rounds; the ratio
eager/replay is taken within each round (paired), and its median and min..max over the rounds are
printed. Before timing, the gradients at the starting weights are compared with the eager
engine's: over the batch (the batch is summed in another order: ~1e-16 relative) and per sample
(the same ops in the same order: identical bits expected). Tracing and compiling happen once,
outside the timed steps, and are reported apart.
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import random
import statistics
import sys
import time

from worker import ALPHA, LR, Eager  # benchmarks/worker.py: W's user code, as bench.py runs it

from micrograd.replay import compile


def python(fn, params, n_inputs, fold=True):
    """fn compiled by micrograd.replay's python back end."""
    return compile(fn, params, n_inputs, backend="python", fold=fold)


def add_up(xs):
    """x0 + x1 + ..., left to right, as a chain of Values adds (Python 3.12's sum() of floats
    compensates its rounding, which the eager engine's sum of Values does not)."""
    total = 0.0
    for x in xs:
        total += x
    return total


# ---------------------------------------------------------------------------- workload W
class EagerW(Eager):
    """benchmarks/worker.py's Eager, the original demo's user code unchanged, which can start
    again from its first weights and give one sample's gradients."""

    name = "eager"

    def __init__(self, X, y, weights, hidden):
        super().__init__(X, y, weights, hidden)
        self.weights = weights

    def reset(self):
        for p, w in zip(self.model.parameters(), self.weights, strict=True):
            p.data = w

    def grads(self):
        total = self.loss()
        self.model.zero_grad()
        total.backward()
        return total.data, [p.grad for p in self.model.parameters()]

    def sample_grads(self, i):
        """One sample's hinge loss, weighted 1/N as in the mean, and its parameter grads."""
        model = self.model
        x = list(map(self.Value, self.X[i]))
        out = (1 + -self.y[i] * model(x)).relu() * (1.0 / len(self.X))
        model.zero_grad()
        out.backward()
        return [p.grad for p in model.parameters()]


class ReplayW(EagerW):
    """The same step on the python replay: one sample's hinge loss traced once, and the L2 term."""

    def __init__(self, X, y, weights, hidden, fold=True):
        super().__init__(X, y, weights, hidden)
        self.name = "replay" if fold else "replay, unfolded"
        model = self.model
        params = self.params = model.parameters()
        start = time.perf_counter()
        self.prog = python(
            lambda x0, x1, t: (1 + -t * model([x0, x1])).relu(), params, 3, fold=fold
        )
        self.reg = python(lambda: ALPHA * sum(p * p for p in params), params, 0, fold=fold)
        self.compile_seconds = time.perf_counter() - start
        self.lines = self.prog.source.count("\n") + self.reg.source.count("\n")
        self.rows = [[*x, t] for x, t in zip(X, y)]

    def grads(self):
        numbers = [p.data for p in self.params]
        losses, g_data, _ = self.prog.value_and_grad(self.rows, 1.0 / len(self.rows), numbers)
        (reg,), g_reg, _ = self.reg.value_and_grad([()], None, numbers)
        return add_up(losses) * (1.0 / len(losses)) + reg, [a + b for a, b in zip(g_data, g_reg)]

    def sample_grads(self, i):
        return self.prog.value_and_grad([self.rows[i]], 1.0 / len(self.rows))[1]

    def step(self):
        numbers = [p.data for p in self.params]
        _, g_data, _ = self.prog.value_and_grad(self.rows, 1.0 / len(self.rows), numbers)
        _, g_reg, _ = self.reg.value_and_grad([()], None, numbers)
        for p, a, b in zip(self.params, g_data, g_reg):
            p.grad = g = a + b
            p.data -= LR * g


def workload_w():
    from micrograd.data import moons
    from micrograd.nn import MLP

    X, labels = moons(100, noise=0.1, seed=0)
    random.seed(1337)
    weights = [p.data for p in MLP(2, [16, 16, 1]).parameters()]
    return X, [2.0 * c - 1.0 for c in labels], weights, [16, 16]


# ---------------------------------------------------------------------------- the playground
class EagerPlayground:
    """A playground step with Values: bce_with_logits on the whole set, Adam, the accuracy."""

    name = "eager"

    def __init__(self, X, y, weights, hidden):
        from micrograd.nn import MLP

        self.X, self.y, self.weights = X, y, weights
        self.model = MLP(2, [*hidden, 1], activation="relu")
        self.params = self.model.parameters()
        self.reset()

    def reset(self):
        from micrograd.optim import Adam

        for p, w in zip(self.params, self.weights, strict=True):
            p.data = w
        self.optimizer = Adam(self.params, lr=0.03)
        self.accuracies = []

    def grads(self):
        from micrograd.losses import bce_with_logits

        loss = bce_with_logits([self.model(x) for x in self.X], self.y)
        self.model.zero_grad()
        loss.backward()
        return loss.data, [p.grad for p in self.params]

    def sample_grads(self, i):
        from micrograd.engine import Value
        from micrograd.losses import bce_with_logits

        z = self.model([Value(x) for x in self.X[i]])
        loss = bce_with_logits([z], [self.y[i]]) * (1.0 / len(self.X))
        self.model.zero_grad()
        loss.backward()
        return [p.grad for p in self.params]

    def step(self):
        from micrograd.losses import bce_with_logits

        logits = [self.model(x) for x in self.X]
        loss = bce_with_logits(logits, self.y)
        if not math.isfinite(loss.data):
            raise FloatingPointError("diverged")
        self.model.zero_grad()
        loss.backward()
        self.optimizer.step()
        right = sum((s.data > 0) == (t == 1) for s, t in zip(logits, self.y))
        self.accuracies.append(right / len(self.y))


class ReplayPlayground(EagerPlayground):
    """The same step on the python replay: one sample's loss and logit traced once."""

    def __init__(self, X, y, weights, hidden, fold=True):
        super().__init__(X, y, weights, hidden)
        from micrograd.losses import bce_with_logits

        self.name = "replay" if fold else "replay, unfolded"
        model = self.model

        def one(x0, x1, t):
            z = model([x0, x1])
            return bce_with_logits([z], [t]), z  # the loss, and the logit for the accuracy

        start = time.perf_counter()
        self.prog = python(one, self.params, 3, fold=fold)
        self.compile_seconds = time.perf_counter() - start
        self.lines = self.prog.source.count("\n")
        self.rows = [[*x, t] for x, t in zip(X, y)]

    def grads(self):
        out, grads, _ = self.prog.value_and_grad(self.rows, 1.0 / len(self.rows))
        return add_up([loss for loss, _ in out]) * (1.0 / len(out)), grads

    def sample_grads(self, i):
        return self.prog.value_and_grad([self.rows[i]], 1.0 / len(self.rows))[1]

    def step(self):
        out, grads, _ = self.prog.value_and_grad(self.rows, 1.0 / len(self.rows))
        loss = add_up([loss for loss, _ in out]) * (1.0 / len(out))
        if not math.isfinite(loss):
            raise FloatingPointError("diverged")
        for p, g in zip(self.params, grads):
            p.grad = g
        self.optimizer.step()
        right = sum((z > 0) == (t == 1) for (_, z), t in zip(out, self.y))
        self.accuracies.append(right / len(self.y))


def workload_playground():
    from micrograd.data import moons
    from micrograd.nn import MLP

    X, y = moons(n=100, seed=0)
    random.seed(0)  # as the playground: the weights come from Python's random
    weights = [p.data for p in MLP(2, [8, 8, 1], activation="relu").parameters()]
    return X, y, weights, [8, 8]


WORKLOADS = {
    "W": ("W: moons 100, MLP(2, [16, 16, 1]) relu, hinge + L2, SGD", workload_w, EagerW, ReplayW),
    "playground": (
        "playground defaults: moons 100, MLP(2, [8, 8, 1]) relu, BCE with logits, Adam",
        workload_playground,
        EagerPlayground,
        ReplayPlayground,
    ),
}


# ---------------------------------------------------------------------------- measuring
def rel_diff(a, b):
    """max over i of |a_i - b_i| / max(|a_i|, |b_i|) (0 where both are 0)."""
    worst = 0.0
    for x, y in zip(a, b, strict=True):
        scale = max(abs(x), abs(y))
        if scale:
            worst = max(worst, abs(x - y) / scale)
    return worst


def agreement(eager, replays, n_samples):
    """Loss and gradients of each replay against the eager engine's, at the starting weights."""
    eager.reset()
    loss, grads = eager.grads()
    per_sample = [eager.sample_grads(i) for i in range(n_samples)]
    lines = []
    for r in replays:
        r.reset()
        r_loss, r_grads = r.grads()
        same = sum(r.sample_grads(i) == g for i, g in enumerate(per_sample))
        lines.append(
            f"  {r.name}: loss rel diff {rel_diff([loss], [r_loss]):.1e}, gradient max rel diff "
            f"{rel_diff(grads, r_grads):.1e} (batch), per-sample gradients bit-identical in "
            f"{same}/{n_samples} samples"
        )
    return lines


def timed_steps(engine, steps):
    engine.reset()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        engine.step()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_workload(key, rounds, eager_steps, replay_steps):
    title, make, Eager, Replay = WORKLOADS[key]
    X, y, weights, hidden = make()
    eager = Eager(X, y, weights, hidden)
    replays = [Replay(X, y, weights, hidden, fold=True), Replay(X, y, weights, hidden, fold=False)]
    print(f"\n{title}")
    for r in replays:
        print(
            f"  {r.name}: traced and compiled in {r.compile_seconds * 1000:.0f} ms "
            f"({r.lines} lines of source)"
        )
    print("\n".join(agreement(eager, replays, n_samples=5)))
    engines = [eager, *replays]
    medians = {e.name: [] for e in engines}
    for rnd in range(rounds):
        order = engines if rnd % 2 == 0 else engines[::-1]
        for e in order:
            steps = eager_steps if e is eager else replay_steps
            medians[e.name].append(timed_steps(e, steps))
    print(f"  {rounds} rounds, {eager_steps} eager / {replay_steps} replay steps a round")
    print(f"  {'engine':18} {'median s/step':>14} {'min':>10} {'max':>10}   eager/engine (paired)")
    for e in engines:
        m = medians[e.name]
        ratios = [a / b for a, b in zip(medians["eager"], m)]
        print(
            f"  {e.name:18} {statistics.median(m):14.6f} {min(m):10.6f} {max(m):10.6f}   "
            f"{statistics.median(ratios):6.1f}x [{min(ratios):.1f}..{max(ratios):.1f}]"
        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--eager-steps", type=int, default=3, help="eager steps a round")
    ap.add_argument("--replay-steps", type=int, default=20, help="replay steps a round")
    ap.add_argument("--workloads", default="W,playground", help="comma-separated: W, playground")
    args = ap.parse_args(argv)
    print(
        f"Python {sys.version.split()[0]} on {platform.system() or sys.platform} ({sys.platform})"
    )
    print(f"gc thresholds {gc.get_threshold()}; numpy imported: {'numpy' in sys.modules}")
    for key in args.workloads.split(","):
        run_workload(key.strip(), args.rounds, args.eager_steps, args.replay_steps)


if __name__ == "__main__":
    main()
