"""The demo's training step in a fresh process per round, for engines given by their src folder.

    python3 benchmarks/fresh_steps.py --rounds 5 --original .original-venv/bin/python \
        "this engine=src" "another copy=/tmp/copy/src"

Each round starts one process per engine, in rotating order, and times Karpathy's demo step on W
(100 points, MLP(2, [16, 16, 1]), hinge + L2, SGD); the ratio to micrograd 0.1.0 is taken within
each round (paired), and its median and range over the rounds are printed. Default GC thresholds,
except for an engine whose name ends in "tuned()": it runs inside micrograd.tuned().
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

STEP = r"""
import json, random, statistics, sys, time
from micrograd.engine import Value
from micrograd.nn import MLP
if sys.argv[1] == "tuned":
    import micrograd
    micrograd.tuned().__enter__()
random.seed(1337)
rng = random.Random(0)
X = [[rng.uniform(-1.5, 2.5), rng.uniform(-1, 1.5)] for _ in range(100)]
y = [rng.choice([-1, 1]) for _ in range(100)]
model = MLP(2, [16, 16, 1])
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    inputs = [list(map(Value, xrow)) for xrow in X]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(y, scores)]
    total = sum(losses) * (1.0 / len(losses)) + 1e-4 * sum(p * p for p in model.parameters())
    model.zero_grad()
    total.backward()
    for p in model.parameters():
        p.data -= 0.05 * p.grad
    del total
    times.append(time.perf_counter() - start)
print(json.dumps(statistics.median(times)))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engines", nargs="+", help="NAME=SRC_FOLDER")
    ap.add_argument("--original", required=True, help="a Python with micrograd==0.1.0")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=6)
    args = ap.parse_args()
    runs = [("micrograd 0.1.0", args.original, "", 3)]
    runs += [
        (n, sys.executable, os.path.abspath(p), args.steps)
        for n, p in (e.split("=", 1) for e in args.engines)
    ]
    times: dict[str, list[float]] = {name: [] for name, *_ in runs}
    for r in range(args.rounds):
        for name, python, src, steps in runs[r % len(runs) :] + runs[: r % len(runs)]:
            mode = "tuned" if name.endswith("tuned()") else "default"
            env = {**os.environ, "PYTHONPATH": src}
            out = subprocess.run(
                [python, "-c", STEP, mode, str(steps)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            times[name].append(json.loads(out.stdout))
    base = times["micrograd 0.1.0"]
    for name, *_ in runs:
        ratios = [b / t for b, t in zip(base, times[name])]
        print(
            f"{name:45s} {statistics.median(times[name]) * 1000:8.1f} ms  {statistics.median(ratios):5.1f}x [{min(ratios):.1f}..{max(ratios):.1f}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
