"""This eager engine against the lean floor (benchmarks/lean) on the workload W, in fresh processes.

    .venv/bin/python benchmarks/lean_floor.py [--rounds 9]

Each round starts one process per engine (the same user code, benchmarks/worker.py, on this
engine and on the lean floor: ~150 lines with micrograd 0.1.0's API, slots, float grads), checks
that the first gradients are bit-identical, times 3 x 3 steps of each, alternating, and reports
the floor's median step time / this engine's: this engine's speed as a share of the floor's
(target >= 0.9, issue 24). Fresh processes each round, so that no round inherits another's heap.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from bench import HERE, Worker, workload


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    setup = workload([16, 16])
    lean = {"PYTHONPATH": os.path.join(HERE, "lean")}
    shares = []
    for r in range(args.rounds):
        ours = Worker("this eager engine", sys.executable, "eager", setup)
        floor = Worker("the lean floor", sys.executable, "eager", setup, lean)
        if ours.first["grads"] != floor.first["grads"]:
            raise SystemExit("the gradients differ from the lean floor's: not the same work")
        for _ in range(3):
            ours.run(3)
            floor.run(3)
        mine, theirs = statistics.median(ours.times), statistics.median(floor.times)
        shares.append(theirs / mine)
        ours.close()
        floor.close()
        print(
            f"round {r + 1}: this engine {mine * 1e3:.1f} ms, the floor {theirs * 1e3:.1f} ms "
            f"a step: share {shares[-1]:.2f}",
            flush=True,
        )
    print(
        f"this eager engine's speed / the lean floor's: {statistics.median(shares):.2f} "
        f"[{min(shares):.2f}..{max(shares):.2f}] over {args.rounds} fresh-process rounds "
        "(target 0.9); gradients bit-identical"
    )


if __name__ == "__main__":
    main()
