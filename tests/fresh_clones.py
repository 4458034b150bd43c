"""Run the suite in fresh clones, again and again, to show that it cannot flake.

    python3 tests/fresh_clones.py 20              # 20 clones: `python3 tasks.py test` in each
    python3 tests/fresh_clones.py 20 --shared-venv .venv   # faster: pytest only, one venv

Each clone is new (no .hypothesis folder, no caches) and runs with the CI variable unset, as a
newcomer's first run. With --shared-venv, each clone's own src/ comes first on sys.path. Prints
one line per clone and the count of failures; exits 1 if any clone failed.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tasks import WORKERS  # noqa: E402  (pytest's workers as tasks.py test runs them)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("clones", type=int)
    ap.add_argument("--shared-venv", help="run pytest with this venv instead of tasks.py test")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONPATH")}
    failures = 0
    for i in range(args.clones):
        with tempfile.TemporaryDirectory() as tmp:
            clone = os.path.join(tmp, "clone")
            subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
            if args.shared_venv:
                python = os.path.join(os.path.abspath(args.shared_venv), "bin", "python")
                cmd = [python, "-m", "pytest", *WORKERS, "-q", "-p", "no:cacheprovider"]
                run_env = {**env, "PYTHONPATH": os.path.join(clone, "src")}
            else:
                cmd, run_env = [sys.executable, "tasks.py", "test"], env
            start = time.perf_counter()
            done = subprocess.run(cmd, cwd=clone, env=run_env, capture_output=True, text=True)
            last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
            ok = done.returncode == 0
            failures += not ok
            took = time.perf_counter() - start
            print(f"clone {i + 1}: {'ok' if ok else 'FAILED'} in {took:.0f} s: {last}", flush=True)
            if not ok:
                print(done.stdout[-3000:], done.stderr[-2000:], sep="\n")
    print(f"{args.clones} clones, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
