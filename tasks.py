"""Set up and run this project's jobs with nothing but Python 3 (3.10+), pip and venv.

    python3 tasks.py demo     # make .venv, install micrograd with the demo's extras, run `micrograd demo`
    python3 tasks.py test     # make .venv, install the test tools, run ruff, mypy and pytest
    python3 tasks.py bench    # also install micrograd 0.1.0 in .bench-venv, then run the benchmark

Extra arguments go to the command that is run (`python3 tasks.py test -k engine`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
BENCH_VENV = os.path.join(ROOT, ".bench-venv")  # the original micrograd also imports as `micrograd`


def run(*cmd: str) -> None:
    """Run a command from the project root; stop with its exit status if it fails."""
    print("+", " ".join(cmd), flush=True)
    code = subprocess.call(cmd, cwd=ROOT)
    if code:
        sys.exit(code)


def bin_of(env: str, name: str) -> str:
    """The path of an executable inside a virtual environment."""
    sub = "Scripts" if os.name == "nt" else "bin"
    return os.path.join(env, sub, name + (".exe" if os.name == "nt" else ""))


def make_venv(path: str) -> str:
    """Create the environment if missing, with a pip new enough for dependency groups."""
    python = bin_of(path, "python")
    if not os.path.exists(python):
        venv.create(path, with_pip=True)
    run(python, "-m", "pip", "install", "-q", "--upgrade", "pip>=25.1")
    return python


def demo(args: list[str]) -> None:
    python = make_venv(VENV)
    run(python, "-m", "pip", "install", "-q", "-e", ".[demo]")
    run(bin_of(VENV, "micrograd"), "demo", *args)


def test(args: list[str]) -> None:
    python = make_venv(VENV)
    run(
        python,
        "-m",
        "pip",
        "install",
        "-q",
        "-e",
        ".[all,torch]",
        "--group",
        "test",
        "--group",
        "lint",
    )
    run(python, "-m", "ruff", "check", "src", "tests", "benchmarks", "examples", "fuzz", "tasks.py")
    run(python, "-m", "mypy")
    run(python, "-m", "pytest", "-n", "2", *args)


def bench(args: list[str]) -> None:
    python = make_venv(VENV)
    run(python, "-m", "pip", "install", "-q", "-e", ".[fast,torch]", "--group", "bench")
    original = make_venv(BENCH_VENV)
    run(original, "-m", "pip", "install", "-q", "micrograd==0.1.0")
    run(python, "benchmarks/bench.py", "--original-python", original, *args)


JOBS = {"demo": demo, "test": test, "bench": bench}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in JOBS:
        sys.exit(f"usage: python3 tasks.py {{{','.join(JOBS)}}} [args...]")
    JOBS[sys.argv[1]](sys.argv[2:])
