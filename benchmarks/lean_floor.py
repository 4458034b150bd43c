"""This eager engine against the lean floor (benchmarks/lean) on the workload W, in fresh processes.

    .venv/bin/python benchmarks/lean_floor.py [--rounds 9] [--tuned]

Each round starts one process per engine (the same user code, benchmarks/worker.py, on this
engine and on the lean floor: ~150 lines with micrograd 0.1.0's API, slots, float grads), checks
that the first gradients are bit-identical, times 3 x 3 steps of each, alternating, and reports
the floor's median step time / this engine's: this engine's speed as a share of the floor's.
Fresh processes each round, so that no round inherits another's heap. --tuned runs this engine
inside micrograd.tuned() (the GC thresholds raised) and
the floor with the same GC thresholds (worker.py's BENCH_GC=tuned).
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
    ap.add_argument("--tuned", action="store_true", help="both inside micrograd.tuned()'s settings")
    args = ap.parse_args()
    setup = workload([16, 16])
    gc = {"BENCH_GC": "tuned"} if args.tuned else {"BENCH_GC": ""}
    lean = {"PYTHONPATH": os.path.join(HERE, "lean"), **gc}
    shares = []
    for r in range(args.rounds):
        ours = Worker("this eager engine", sys.executable, "eager", setup, gc)
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
        f"[{min(shares):.2f}..{max(shares):.2f}] over {args.rounds} fresh-process rounds"
        f"{' inside tuned()' if args.tuned else ''}; gradients bit-identical"
    )


if __name__ == "__main__":
    main()
