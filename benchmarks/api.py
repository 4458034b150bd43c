"""The documented replay API against PyTorch: the code a user writes from micrograd.replay's docs,
on its numpy back end.

    .venv/bin/python benchmarks/api.py [--rounds 7] [--calls 20]

Cases: W (two moons, 100 points, MLP(2, [16, 16, 1]), hinge loss), the 8x8 digits (the first 1,000
images, MLP(64, [64, 10]), softmax cross-entropy) and width 256 (MLP(2, [256, 256, 1]), 100 points).
Each call is the loss and the parameters' gradient of the mean loss over the batch:

- ours, Values: `prog.value_and_grad(rows, 1 / B)`, the parameters read from the model's Values
  (a training loop then sets the Values' grads and steps an optimizer on them);
- ours, array: `prog.value_and_grad(rows, 1 / B, params=theta)` with `theta = prog.pull()`, the
  documented way to train large models (`optimizer.step_arrays(theta, grads)`, `prog.push()`);
- PyTorch float64: `torch.nn.Sequential` of Linear and ReLU layers, the loss, `backward()`, and
  `.item()`, as its tutorials write it.

One thread for both (numpy's BLAS and torch). The calls alternate engine by engine within each
round; reported: the median over rounds of the paired ratio (PyTorch's time / ours: above 1, ours
is faster) with its range, and the losses' agreement.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"  # before numpy and torch are imported: one thread for both

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

from micrograd.data import digits, moons  # noqa: E402
from micrograd.losses import cross_entropy_one  # noqa: E402
from micrograd.nn import MLP  # noqa: E402
from micrograd.replay import compile  # noqa: E402

torch.set_num_threads(1)
TARGETS = {"W": 2.5, "digits": 1.1, "width 256": 0.7}  # PyTorch's time / ours, issue 24 §3


def case(name: str) -> dict:
    """The rows (features, then the target) and the model of one case."""
    random.seed(0)
    if name == "digits":
        X, y = digits()
        X, y = X[:1000], y[:1000]
        model = MLP(64, [64, 10])
        onehot = [[1.0 if k == c else 0.0 for k in range(10)] for c in y]
        rows = np.array([[*x, *t] for x, t in zip(X, onehot)])

        def loss(*row):
            return cross_entropy_one(model(list(row[:64])), list(row[64:]))

        return {"rows": rows, "model": model, "loss": loss, "sizes": [64, 64, 10], "y": y}
    hidden = 256 if name == "width 256" else 16
    X, labels = moons(n=100, noise=0.1, seed=0)
    model = MLP(2, [hidden, hidden, 1])
    rows = np.array([[*x, 2.0 * c - 1.0] for x, c in zip(X, labels)])

    def loss(x0, x1, t):
        return (1 + -t * model([x0, x1])).relu()

    return {
        "rows": rows,
        "model": model,
        "loss": loss,
        "sizes": [2, hidden, hidden, 1],
        "y": labels,
    }


class Ours:
    """The documented API: trace once, then value_and_grad each call."""

    def __init__(self, c: dict, array: bool) -> None:
        self.rows = c["rows"]
        params = c["model"].parameters()
        self.prog = compile(c["loss"], params, self.rows.shape[1], backend="numpy")
        self.theta = self.prog.pull() if array else None

    def call(self) -> float:
        losses, _, _ = self.prog.value_and_grad(self.rows, 1.0 / len(self.rows), params=self.theta)
        return float(losses.mean())


class Torch:
    """nn.Sequential with the same weights, float64."""

    def __init__(self, c: dict) -> None:
        sizes = c["sizes"]
        layers: list[torch.nn.Module] = []
        for i, (nin, nout) in enumerate(zip(sizes, sizes[1:])):
            layers.append(torch.nn.Linear(nin, nout, dtype=torch.float64))
            if i < len(sizes) - 2:
                layers.append(torch.nn.ReLU())
        self.net = torch.nn.Sequential(*layers)
        neurons = [n for layer in c["model"].layers for n in layer.neurons]
        linears = [m for m in self.net if isinstance(m, torch.nn.Linear)]
        k = 0
        with torch.no_grad():
            for lin in linears:
                for j in range(lin.out_features):
                    lin.weight[j] = torch.tensor(
                        [w.data for w in neurons[k].w], dtype=torch.float64
                    )
                    lin.bias[j] = neurons[k].b.data
                    k += 1
        n_in = sizes[0]
        self.x = torch.tensor(c["rows"][:, :n_in])
        self.binary = sizes[-1] == 1
        self.t = torch.tensor(c["rows"][:, n_in]) if self.binary else torch.tensor(c["y"])

    def call(self) -> float:
        self.net.zero_grad()
        out = self.net(self.x)
        if self.binary:
            loss = torch.relu(1 - self.t * out[:, 0]).mean()
        else:
            loss = torch.nn.functional.cross_entropy(out, self.t)
        loss.backward()
        return loss.item()


def timed(f, calls: int) -> float:
    """Median seconds of `calls` calls."""
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=20)
    args = ap.parse_args()
    print(
        f"{'case':10} {'torch us':>9} {'Values us':>10} {'array us':>9}  torch/ours: Values, array  (target)"
    )
    for name in ("W", "digits", "width 256"):
        c = case(name)
        engines = {"torch": Torch(c), "values": Ours(c, False), "array": Ours(c, True)}
        losses = {k: e.call() for k, e in engines.items()}  # warm-up, and the losses to compare
        agree = max(abs(losses[k] - losses["torch"]) / abs(losses["torch"]) for k in losses)
        rounds = {k: [] for k in engines}
        for _ in range(args.rounds):
            for k, e in engines.items():
                rounds[k].append(timed(e.call, args.calls))
        ratios = {
            k: [t / o for t, o in zip(rounds["torch"], rounds[k])] for k in ("values", "array")
        }
        shown = [
            f"{statistics.median(r):.2f} [{min(r):.2f}..{max(r):.2f}]" for r in ratios.values()
        ]
        med = {k: statistics.median(v) * 1e6 for k, v in rounds.items()}
        print(
            f"{name:10} {med['torch']:9.0f} {med['values']:10.0f} {med['array']:9.0f}  "
            f"{shown[0]}, {shown[1]}  ({TARGETS[name]})  losses agree to {agree:.1e}"
        )


if __name__ == "__main__":
    main()
