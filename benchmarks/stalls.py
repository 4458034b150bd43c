"""Step times of training on the digits, quiet and beside two busy processes: what numpy's BLAS
threads cost on a busy machine, and what micrograd.tuning.one_blas_thread() (which fit() and the
playground use for small models) saves.

    python benchmarks/stalls.py [--rounds 3] [--steps 300] [--busy 2]

Each measurement is a fresh process that trains MLP(64, [64, 10]) with Adam on batches of 128
through micrograd.app.train.Trainer, timing every step (the step and the accuracy fit() measures);
"one thread" trains inside Trainer.threads() as fit() does, "as configured" leaves numpy's BLAS as
it starts. The modes alternate within each round. Printed: the median and the 90th percentile of
the step times of each mode, quiet and busy, over all rounds. `--busy` sets how many busy
processes run beside it: with 2 on a 2-core machine, more processes want a core than there are
cores, so the scheduler takes the core away from every process in turn, whatever BLAS does.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CHILD = """
import json, random, sys, time, contextlib
from micrograd.app.tasks import Classifier
from micrograd.app.train import Trainer
from micrograd.data import digits
from micrograd.nn import MLP
from micrograd.optim import Adam
mode, steps = sys.argv[1], int(sys.argv[2])
X, y = digits()
random.seed(0)
model = MLP(64, [64, 10])
trainer = Trainer(Classifier(model, 10), X, y, Adam(model.parameters(), lr=0.03), batch_size=128)
block = trainer.threads() if mode == "one thread" else contextlib.nullcontext()
times = []
with block:
    for _ in range(steps):
        start = time.perf_counter()
        trainer.step()
        trainer.accuracy()
        times.append(time.perf_counter() - start)
print(json.dumps(times[20:]))
"""
MODES = ("one thread", "as configured")


def measure(mode: str, steps: int) -> list[float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(steps)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--busy", type=int, default=2, help="busy processes beside it")
    args = parser.parse_args()
    times: dict[tuple[str, str], list[float]] = {}
    for load in ("quiet", "busy"):
        busy = []
        if load == "busy":  # processes that each keep a core busy
            busy = [
                subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(args.busy)
            ]
            time.sleep(1)
        try:
            for r in range(args.rounds):
                for mode in MODES if r % 2 == 0 else MODES[::-1]:
                    times.setdefault((load, mode), []).extend(measure(mode, args.steps))
        finally:
            for p in busy:
                p.kill()
    print(f"{'':8} {'mode':14} {'median ms':>10} {'p90 ms':>8} {'p90 / quiet median':>20}")
    for load in ("quiet", "busy"):
        for mode in MODES:
            ts = sorted(times[(load, mode)])
            median, p90 = statistics.median(ts) * 1e3, ts[int(0.9 * len(ts))] * 1e3
            quiet = statistics.median(times[("quiet", mode)]) * 1e3
            print(f"{load:8} {mode:14} {median:10.2f} {p90:8.2f} {p90 / quiet:20.1f}")


if __name__ == "__main__":
    main()
