"""Benchmark: the workload W on every engine, interleaved in one run, with a correctness check.

    python3 tasks.py bench                      # sets up both environments, then runs this
    python benchmarks/bench.py --original-python .bench-venv/bin/python --json results.json

W: two moons (100 points, noise 0.1, labels -1/+1), MLP(2, [16, 16, 1]), mean hinge loss
+ 1e-4 * L2, one SGD step = forward on all 100 points + backward + update. Each engine runs in its
own process (the original micrograd also imports as `micrograd`); rounds alternate between engines
so that the machine's noise falls on all of them alike. Reported: median and min-max seconds per
step, ratios, bytes per Value, a 1,000,000-node chain, and how the cost grows with the width. The
lean floor (benchmarks/lean, the same user code on a ~100-line engine with 0.1.0's API and
bit-identical gradients) runs in every round: this eager engine's speed as a share of it is printed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "worker.py")


class Worker:
    """One engine in its own process, driven line by line."""

    def __init__(self, name, python, engine, setup, env=None):
        self.name = name
        self.proc = subprocess.Popen(
            [os.path.abspath(python), WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, **(env or {})},
            cwd=HERE,
        )
        self.first = self.ask({**setup, "engine": engine})
        self.times: list[float] = []
        self.rounds: list[float] = []  # the median step of each round, for paired ratios

    def ask(self, msg):
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(
                f"engine {self.name!r} died; run benchmarks/worker.py by hand to see why"
            )
        return json.loads(line)

    def run(self, steps):
        times = self.ask({"steps": steps})["times"]
        self.times += times
        self.rounds.append(statistics.median(times))

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def workload(hidden):
    from micrograd.data import moons
    from micrograd.nn import MLP

    X, labels = moons(100, noise=0.1, seed=0)
    random.seed(1337)
    weights = [p.data for p in MLP(2, [*hidden, 1]).parameters()]
    return {
        "X": X,
        "y": [2.0 * c - 1.0 for c in labels],
        "weights": weights,
        "hidden": list(hidden),
    }


def rel_error(a, b):
    scale = max(abs(x) for x in b)
    return max(abs(x - y) for x, y in zip(a, b)) / scale


def paired(base, other):
    """Median and range of base/other over the rounds: each round's engines ran side by side, so
    the machine's load falls on both (medians of separate runs moved 9x-17x with the load)."""
    ratios = [b / o for b, o in zip(base.rounds, other.rounds)]
    return statistics.median(ratios), min(ratios), max(ratios)


def summary(times):
    return {
        "median": statistics.median(times),
        "min": min(times),
        "max": max(times),
        "n": len(times),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--original-python", help="a Python with micrograd==0.1.0 installed (the original)"
    )
    ap.add_argument(
        "--rounds", type=int, default=5, help="interleaved rounds (default: %(default)s)"
    )
    ap.add_argument("--widths", default="8,16,32,64", help="hidden widths for the scaling table")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args(argv)

    setup = workload([16, 16])
    tuned = {"BENCH_GC": "tuned"}
    lean = {"PYTHONPATH": os.path.join(HERE, "lean")}  # benchmarks/lean: the pure-Python floor
    engines = [
        ("this eager engine", sys.executable, "eager", None),
        ("the lean floor (benchmarks/lean)", sys.executable, "eager", lean),
        ("this eager engine, tuned()", sys.executable, "eager", tuned),
        ("this fast path, tuned()", sys.executable, "fast", tuned),
    ]
    if args.original_python:
        engines += [
            ("micrograd 0.1.0", args.original_python, "original", None),
            ("micrograd 0.1.0, tuned GC", args.original_python, "original", tuned),
        ]
    for name, module, engine in [
        ("PyTorch float64 batched", "torch", "torch"),
        ("HIPS autograd", "autograd", "autograd"),
        ("tinygrad TinyJit float64", "tinygrad", "tinygrad"),
    ]:
        if importlib.util.find_spec(module):
            engines.append((name, sys.executable, engine, None))
    print(f"starting {len(engines)} engines ...", file=sys.stderr)
    workers, started = [], []
    for name, py, engine, env in engines:
        try:
            workers.append(Worker(name, py, engine, setup, env))
            started.append((name, py, engine, env))
        except (
            RuntimeError
        ) as e:  # an optional engine that cannot run here (tinygrad without clang)
            if engine in ("eager", "fast", "original"):
                raise
            print(f"skipping {name}: {e}", file=sys.stderr)
    engines = started
    ref = workers[0].first
    print(
        f"W: {ref['values_per_step']} Values per step, eager loss {ref['loss']:.12f}",
        file=sys.stderr,
    )

    slow = {"eager", "original"}
    for r in range(args.rounds):
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
        for w, (_, _, engine, _) in zip(workers, engines):
            w.run(2 if engine in slow else 40)

    results = {
        "workload": {
            "values_per_step": ref["values_per_step"],
            "points": 100,
            "model": "MLP(2, [16, 16, 1])",
        },
        "engines": {},
    }
    base = next((w for w in workers if w.name == "micrograd 0.1.0"), None)
    torch_w = next((w for w in workers if w.name.startswith("PyTorch")), None)
    print(
        f"\n{'engine':30} {'s/step median':>14} {'min':>10} {'max':>10} {'vs 0.1.0 (paired, range)':>26} {'vs torch':>9} {'loss err':>9} {'grad err':>9}"
    )
    for w in workers:
        s = summary(w.times)
        row = {
            **s,
            "loss_rel_error": abs(w.first["loss"] - ref["loss"]) / abs(ref["loss"]),
            "grad_rel_error": rel_error(w.first["grads"], ref["grads"]),
        }
        if base:
            row["speedup_vs_original"], lo, hi = paired(base, w)
            row["speedup_range"] = [lo, hi]
        if torch_w:
            row["time_vs_torch"] = paired(w, torch_w)[0]
        if "bytes_per_value" in w.first:
            row["bytes_per_value"] = w.first["bytes_per_value"]
        results["engines"][w.name] = row
        lo, hi = row.get("speedup_range", [float("nan")] * 2)
        speedup = f"{row.get('speedup_vs_original', float('nan')):.1f}x [{lo:.1f}..{hi:.1f}]"
        print(
            f"{w.name:30} {s['median']:14.6f} {s['min']:10.6f} {s['max']:10.6f} {speedup:>26} "
            f"{row.get('time_vs_torch', float('nan')):8.2f}x "
            f"{row['loss_rel_error']:9.1e} {row['grad_rel_error']:9.1e}"
        )
    lean_w = next(w for w in workers if w.name.startswith("the lean floor"))
    share, lo, hi = paired(lean_w, workers[0])  # the floor's step time / ours, round by round
    results["eager_speed_vs_lean_floor"] = {"median": share, "range": [lo, hi]}
    print(
        f"this eager engine's speed / the lean floor's: {share:.2f} [{lo:.2f}..{hi:.2f}] (target 0.9)"
    )
    for w in workers:
        if "bytes_per_value" in w.first:
            print(
                f"memory, {w.name}: {w.first['bytes_per_value']:.0f} bytes per Value (tracemalloc, forward of W)"
            )
    loop = workers[0].ask({"loop": 100})["seconds"]
    results["demo_loop_100_steps_seconds"] = loop
    line = f"the original demo's 100-step loop, this eager engine (default GC): {loop:.1f} s"
    if base:
        estimate = 100 * statistics.mean(base.times)
        results["demo_loop_100_steps_original_estimate"] = estimate
        line += (
            f"; micrograd 0.1.0: ~{estimate:.0f} s (100 x its mean step), {estimate / loop:.1f}x"
        )
    print(line)
    chain = workers[0].ask({"chain": 1_000_000})
    results["chain_1M_seconds"] = chain["seconds"]
    print(
        f"1,000,000-node chain, forward + backward, this eager engine: {chain['seconds']:.2f} s (grad {chain['grad']:.0f})"
    )
    for w in workers:
        w.close()

    widths = [int(x) for x in args.widths.split(",") if x]
    results["scaling"] = {}
    print(
        f"\n{'width':>6} {'Values/step':>12} {'eager s/step':>13} {'fast s/step':>12} {'eager/fast':>11}"
    )
    for width in widths:
        setup_w = workload([width, width])
        pair = [
            Worker("eager", sys.executable, "eager", setup_w),
            Worker("fast", sys.executable, "fast", setup_w),
        ]
        for _ in range(max(2, args.rounds // 2)):
            pair[0].run(1)
            pair[1].run(20)
        e, f = statistics.median(pair[0].times), statistics.median(pair[1].times)
        results["scaling"][width] = {
            "values_per_step": pair[0].first["values_per_step"],
            "eager": e,
            "fast": f,
        }
        print(
            f"{width:6d} {pair[0].first['values_per_step']:12d} {e:13.4f} {f:12.6f} {e / f:10.0f}x"
        )
        for w in pair:
            w.close()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
