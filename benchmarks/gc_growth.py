"""How the eager engine's cost per node grows with the graph, by garbage-collector setting: where
CPython's collector spends its time when a step builds hundreds of thousands of Values.

    python benchmarks/gc_growth.py [--repeats 3] [--hidden 16 32 64]

Each measurement is a fresh process that builds the original demo's step (100 two-moons points,
MLP(2, [H, H, 1]), hinge loss + 1e-4 L2) on Values and runs backward(), once to warm up and then
`--repeats` times, under one setting:
  default   CPython's collector as it starts (thresholds 700, 10, 10)
  off       gc.disable() around the steps
  tuned     inside micrograd.tuned() (full collections 10x rarer)
  freeze    gc.freeze() once before the steps: the objects alive then (the interpreter's, the
            model's Values) move to a generation no collection walks
Printed: the median step's microseconds per node, and the time the collector spent in each
generation during the measured steps (gc.callbacks), per node.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import gc, json, random, statistics, sys, time
from micrograd.data import moons
from micrograd.nn import MLP
from micrograd.engine import Value, topo_order
import micrograd

setting, hidden, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(0)
X, y = moons(100, seed=0)
model = MLP(2, [hidden, hidden, 1])
params = model.parameters()

def step():
    scores = [model(x) for x in X]
    losses = [(1 + -(2 * c - 1) * s).relu() for c, s in zip(y, scores)]
    loss = sum(losses, Value(0.0)) * (1 / len(losses)) + 1e-4 * sum((p * p for p in params), Value(0.0))
    model.zero_grad()
    loss.backward()
    return loss

spent = {0: 0.0, 1: 0.0, 2: 0.0}
started = {}
def watch(phase, info):
    if phase == "start":
        started["t"] = time.perf_counter()
    else:
        spent[info["generation"]] += time.perf_counter() - started["t"]

nodes = len(topo_order(step()))
if setting == "freeze":
    gc.collect()
    gc.freeze()
context = micrograd.tuned() if setting == "tuned" else None
if context:
    context.__enter__()
if setting == "off":
    gc.disable()
step()  # warm-up
gc.callbacks.append(watch)
times = []
for _ in range(repeats):
    t = time.perf_counter()
    step()
    times.append(time.perf_counter() - t)
gc.callbacks.remove(watch)
print(json.dumps({"nodes": nodes, "step": statistics.median(times),
                  "gc": {g: s / repeats for g, s in spent.items()}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--hidden", type=int, nargs="+", default=[16, 32, 64])
    args = parser.parse_args()
    settings = ["default", "off", "tuned", "freeze"]
    print("| nodes | " + " | ".join(settings) + " | default: collector, by generation 0/1/2 |")
    print("|---" * (len(settings) + 2) + "|")
    for hidden in args.hidden:
        found = {}
        for setting in settings:
            cmd = [sys.executable, "-c", CHILD, setting, str(hidden), str(args.repeats)]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            found[setting] = json.loads(done.stdout)
        nodes = found["default"]["nodes"]
        cells = [f"{found[s]['step'] / nodes * 1e6:.2f} µs" for s in settings]
        by_gen = found["default"]["gc"]
        spent = "/".join(f"{by_gen[g] / nodes * 1e6:.2f}" for g in ("0", "1", "2"))
        print(f"| {nodes:,} | " + " | ".join(cells) + f" | {spent} µs |", flush=True)


if __name__ == "__main__":
    main()
