"""The fast path against PyTorch at real sizes: one training step, interleaved, one thread each.

    python3 tasks.py bench --scaling        # or: .venv/bin/python benchmarks/scaling.py [--quick]

Cases: two moons with MLP(2, [H, H, 1]), mean hinge loss + 1e-4 L2, at H in {16, 64, 256} and
batch B in {100, 1000, 10000} (W is H=16, B=100); the 8x8 digits with MLP(64, [64, 10]) and
softmax cross-entropy + 1e-4 L2 on all 1,797 images. A step is what `micrograd.app.train.fit` does:
the loss and its gradients, then an SGD update. PyTorch does the same (float64 and float32: a
forward, backward, and an in-place SGD update) on one thread, and so does numpy's BLAS. Each
(engine, case) pair alternates step by step after warm-up; reported: medians of per-round paired
time ratios (fast / PyTorch) with their ranges, and the first loss's relative error; first, the
machine (CPU, cores, numpy's and PyTorch's versions, the CPU capability PyTorch's kernels use).
Last, each float64 row against docs/performance.md's table: a row whose median is on the other side
of 1 than the page's (faster there, slower here, or the reverse) contradicts the page, and the
benchmark exits with status 1; one outside the page's range only differs.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"  # before numpy and torch are imported: one thread for both

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

from micrograd.app.tasks import Classifier  # noqa: E402
from micrograd.app.train import Trainer  # noqa: E402
from micrograd.data import digits, moons  # noqa: E402
from micrograd.nn import MLP  # noqa: E402
from micrograd.optim import SGD  # noqa: E402

torch.set_num_threads(1)
REG = 1e-4
LR = 0.05


def case(name: str, hidden: list[int], batch: int | None) -> dict:
    """The data, the model's sizes and the rows of one case."""
    if name == "digits":
        X, y = digits()
        X, y = X[:batch] if batch else X, y[:batch] if batch else y
        return {"X": X, "y": y, "sizes": [64, *hidden, 10], "classes": 10}
    X, y = moons(n=batch, noise=0.1, seed=0)
    return {"X": X, "y": y, "sizes": [2, *hidden, 1], "classes": 2}


class Fast:
    """This library's numpy back end, as fit() runs it: its Trainer's step."""

    def __init__(self, c: dict, dtype: str) -> None:
        random.seed(0)
        model = MLP(c["sizes"][0], c["sizes"][1:])
        start = time.perf_counter()
        clf = Classifier(model, c["classes"], reg=REG, dtype=dtype)
        self.trainer = Trainer(clf, c["X"], c["y"], SGD(model.parameters(), lr=LR), backend="numpy")
        self.trace_s = time.perf_counter() - start  # the Trainer traces
        self.params = self.trainer.theta.copy()  # the starting point, for PyTorch

    def step(self) -> float:
        return self.trainer.step()


class Torch:
    """The same model and loss in PyTorch."""

    def __init__(self, c: dict, dtype: torch.dtype, start: np.ndarray) -> None:
        sizes = c["sizes"]
        layers, k = [], 0
        flat = torch.tensor(start, dtype=dtype)
        for nin, nout in zip(sizes, sizes[1:]):  # micrograd's order: per neuron, w then b
            block = flat[k : k + nout * (nin + 1)].reshape(nout, nin + 1)
            layers.append(
                (block[:, :nin].clone().requires_grad_(), block[:, nin].clone().requires_grad_())
            )
            k += nout * (nin + 1)
        self.layers = layers
        self.x = torch.tensor(c["X"], dtype=dtype)
        self.binary = c["classes"] == 2
        y = torch.tensor(c["y"])
        self.y = (2.0 * y - 1.0).to(dtype) if self.binary else y

    def step(self) -> float:
        h = self.x
        for i, (w, b) in enumerate(self.layers):
            h = h @ w.T + b
            if i < len(self.layers) - 1:
                h = torch.relu(h)
        if self.binary:
            data = torch.relu(1 - self.y * h[:, 0]).mean()
        else:
            data = torch.nn.functional.cross_entropy(h, self.y)
        loss = data + REG * sum((w * w).sum() + (b * b).sum() for w, b in self.layers)
        loss.backward()
        with torch.no_grad():
            for w, b in self.layers:
                w -= LR * w.grad
                b -= LR * b.grad
                w.grad = None
                b.grad = None
        return float(loss.detach())


def timed(f) -> float:
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def measure(c: dict, rounds: int) -> dict:
    engines = {
        "fast": Fast(c, "float64"),
        "fast32": Fast(c, "float32"),
    }
    start = engines["fast"].params
    engines["torch"] = Torch(c, torch.float64, start)
    engines["torch32"] = Torch(c, torch.float32, start)
    first = {k: e.step() for k, e in engines.items()}
    for e in engines.values():
        e.step()  # warm-up
    times: dict[str, list[float]] = {k: [] for k in engines}
    for _ in range(rounds):
        for k, e in engines.items():
            times[k].append(timed(e.step))
    ratio = lambda a, b: [x / y for x, y in zip(times[a], times[b])]  # noqa: E731
    r64, r32 = ratio("fast", "torch"), ratio("fast32", "torch32")
    return {
        "params": len(start),
        "trace_s": engines["fast"].trace_s,
        "us": {k: statistics.median(v) * 1e6 for k, v in times.items()},
        "ratio64": (statistics.median(r64), min(r64), max(r64)),
        "ratio32": (statistics.median(r32), min(r32), max(r32)),
        "loss_err": abs(first["fast"] - first["torch"]) / abs(first["torch"]),
    }


PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs")
PAGE = os.path.join(PAGE, "performance.md")
ROW = re.compile(
    r"\| (moons|digits)[^|]*?H=(\d+), B=([\d,]+)[^|]*\|[^|]*\| ([\d.]+)x \[([\d.]+)\.\.([\d.]+)\]"
)
DIGITS_ROW = re.compile(
    r"\| digits, MLP\(64, \[(\d+), 10\]\)[^|]*B=([\d,]+) \|[^|]*\| ([\d.]+)x \[([\d.]+)\.\.([\d.]+)\]"
)


def machine() -> str:
    """The CPU, its cores, and what numpy and PyTorch run on it."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    kernel = torch.backends.cpu.get_cpu_capability()
    return (
        f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, numpy "
        f"{np.__version__}, PyTorch {torch.__version__} (kernels: {kernel}), one thread each"
    )


def page_rows() -> dict[str, tuple[float, float, float]]:
    """docs/performance.md's float64 figure of each case: label -> (median, low, high)."""
    with open(PAGE, encoding="utf-8") as f:
        text = f.read()
    rows = {}
    for name, h, b, *figures in ROW.findall(text):
        rows[f"{name} H={h} B={int(b.replace(',', ''))}"] = tuple(map(float, figures))
    for h, b, *figures in DIGITS_ROW.findall(text):
        rows[f"digits H={h} B={int(b.replace(',', ''))}"] = tuple(map(float, figures))
    return rows


def against_page(results: list[dict]) -> bool:
    """Print each row against the page's; True when none contradicts it."""
    page = page_rows()
    print(f"\nagainst {os.path.relpath(PAGE)} (float64):")
    fine = True
    for r in results:
        if r["case"] not in page:
            print(f"  {r['case']:>22}: not on the page")
            continue
        median, low, high = page[r["case"]]
        ours = r["ratio64"][0]
        if (ours < 1) != (median < 1):
            verdict, fine = "CONTRADICTS the page", False
        elif not low <= ours <= high:
            verdict = "outside the page's range"
        else:
            verdict = "as on the page"
        print(
            f"  {r['case']:>22}: {ours:.2f}x here, {median:.2f}x [{low}..{high}] there: {verdict}"
        )
    return fine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="the small cases only")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    grid = [(16, 100), (16, 1000), (16, 10000), (64, 100), (64, 1000), (64, 10000)]
    grid += [(256, 100), (256, 1000), (256, 10000)]
    cases = [("moons", [h, h], b) for h, b in grid] + [("digits", [64], None)]
    if args.quick:
        cases = [cases[0], cases[3], cases[-1]]
    print("machine:", machine())
    header = f"{'case':>22} {'params':>7} {'trace s':>8} {'fast us':>9} {'torch64 us':>10} {'fast/t64 (range)':>22} {'fast32 us':>9} {'torch32 us':>10} {'f32/t32 (range)':>22} {'loss err':>8}"
    print(header)
    results = []
    for name, hidden, batch in cases:
        r = measure(
            case(name, hidden, batch), args.rounds if batch != 10000 else max(5, args.rounds // 3)
        )
        label = f"{name} H={hidden[0]} B={batch or 1797}"
        r64, r32 = r["ratio64"], r["ratio32"]
        print(
            f"{label:>22} {r['params']:7d} {r['trace_s']:8.2f} {r['us']['fast']:9.0f} {r['us']['torch']:10.0f} "
            f"{r64[0]:6.2f}x [{r64[1]:.2f}..{r64[2]:.2f}] {r['us']['fast32']:9.0f} {r['us']['torch32']:10.0f} "
            f"{r32[0]:6.2f}x [{r32[1]:.2f}..{r32[2]:.2f}] {r['loss_err']:8.1e}",
            flush=True,
        )
        results.append({"case": label, **r})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine(), "cases": results}, f, indent=1)
    if not args.quick and not against_page(results):
        sys.exit(1)


if __name__ == "__main__":
    main()
