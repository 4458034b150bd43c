"""Set up and run this project's jobs with nothing but Python 3 (3.10+), pip and venv.

    python3 tasks.py demo     # make .venv, install micrograd with the demo's extras, run `micrograd demo`
    python3 tasks.py test     # make .venv with the test tools and micrograd 0.1.0 beside it (for the
                              # differential tests), run ruff, mypy and pytest
    python3 tasks.py core     # the engine/nn/optim/losses/data/io tests with no extras installed
    python3 tasks.py fuzz     # property tests with random seeds and 15x the examples, then atheris
    python3 tasks.py bench    # the benchmark against micrograd 0.1.0, PyTorch and others
    python3 tasks.py bench --scaling  # the fast path against PyTorch at real sizes
    python3 tasks.py screenshots  # redraw the README's screenshots (docs/img/*.png) in the browser
    python3 tasks.py stress-browser  # the browser tests 20 times beside two busy processes
    python3 tasks.py site     # build site/: the docs with every example runnable in the page
                              # (needs Node.js 18+ and npm for Pyodide; nothing else does; MkDocs
                              # in .venv-site); --out DIR builds it in DIR instead
    python3 tasks.py site --serve [--port 8000]  # serve site/ on 127.0.0.1 (built first if missing)
    python3 tasks.py release  # build the sdist and wheel, twine check them, then in a fresh venv
                              # the wheel alone runs `micrograd --version`, the demo and the core
                              # tests (--outdir DIR keeps the files: .github/workflows/release.yml)

Extra arguments go to the command that is run (`python3 tasks.py test -k engine`); `fuzz` takes
`--seed N` to replay a run and `--seconds S` for the atheris fuzzer.
"""

from __future__ import annotations

import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
CORE_VENV = os.path.join(ROOT, ".venv-core")  # only pytest and hypothesis: the core needs no extra
# micrograd 0.1.0, the original, for the differential tests and the benchmark (it also imports as
# `micrograd`, so it lives in an environment of its own)
ORIGINAL_VENV = os.path.join(ROOT, ".original-venv")
SITE_VENV = os.path.join(ROOT, ".venv-site")  # MkDocs and micrograd: what builds the site
CORE_TESTS = [
    f"tests/test_{m}.py"
    for m in (
        *("engine", "copies", "guards", "replay_python", "nn", "gpt", "optim", "losses", "data"),
        "io",
        "functional",
        *("properties", "seed_documents", "text", "modes"),
    )
]
PROPERTY_TESTS = [
    "tests/test_properties.py",
    "tests/test_expr.py",
    "tests/test_replay_numpy.py",
    "tests/test_functional.py",
    "tests/test_torch_oracle.py",
    "tests/test_export.py",
    "tests/test_differential.py",
    "tests/test_practice.py",  # the checks' random points, drawn anew
    *("tests/test_practice_checks_op.py", "tests/test_practice_checks_backward.py"),
]


def run(*cmd: str, env: dict[str, str] | None = None) -> None:
    """Run a command from the project root; stop with its exit status if it fails."""
    print("+", " ".join(cmd), flush=True)
    code = subprocess.call(cmd, cwd=ROOT, env={**os.environ, **(env or {})})
    if code:
        sys.exit(code)


def bin_of(env: str, name: str) -> str:
    """The path of an executable inside a virtual environment."""
    sub = "Scripts" if os.name == "nt" else "bin"
    return os.path.join(env, sub, name + (".exe" if os.name == "nt" else ""))


# Every install of these jobs: quiet, and --no-compile: byte-compiling every module at install took
# 15 s of the test tools' 38 (PyTorch's thousands of files, most never imported); Python compiles
# a module when it is first imported, and caches it (see the end of this file).
PIP_INSTALL = ("-m", "pip", "install", "-q", "--no-compile")


def pip_install(python: str, *args: str) -> None:
    """pip install into the environment of `python` (PIP_INSTALL); stop if it fails."""
    run(python, *PIP_INSTALL, *args)


def make_venv(path: str) -> str:
    """Create the environment if missing, with a pip new enough for dependency groups."""
    python = bin_of(path, "python")
    if not os.path.exists(python):
        venv.create(path, with_pip=True)
        pip_install(python, "--upgrade", "pip>=25.1")
    return python


def original() -> str | None:
    """.original-venv with micrograd 0.1.0 (the same marker file as tests/test_differential.py);
    None, with a message, where it cannot be installed (the differential tests then skip)."""
    python = bin_of(ORIGINAL_VENV, "python")
    ready = os.path.join(ORIGINAL_VENV, "installed")
    if not os.path.exists(ready):
        venv.create(ORIGINAL_VENV, with_pip=True, clear=True)
        code = subprocess.call([python, *PIP_INSTALL, "micrograd==0.1.0"])
        if code:
            print("micrograd 0.1.0 could not be installed: the differential tests will skip")
            return None
        open(ready, "w").close()
    return python


def demo(args: list[str]) -> None:
    python = make_venv(VENV)
    pip_install(python, "-e", ".[demo]")
    run(bin_of(VENV, "micrograd"), "demo", *args)


def install_test_tools() -> str:
    python = make_venv(VENV)
    groups = ["--group", "test", "--group", "lint"]
    # the PyTorch oracle (tests/test_torch_oracle.py) is a large download the first time
    print("installing the test tools, PyTorch among them (its CPU build: ~750 MB installed)")
    pip_install(python, "-e", ".[all,torch]", *groups)
    return python


def install_test_tools_and_original() -> str:
    """install_test_tools(), with .original-venv made beside it in a thread: its 3 s (a venv,
    then pip) overlap the test tools' install, which waits on downloads and the disk. An error
    in either stops the job, once both are done."""
    with concurrent.futures.ThreadPoolExecutor(1) as beside:
        made = beside.submit(original)
        python = install_test_tools()
        made.result()
    return python


# pytest on both cores; a worker that runs out of tests takes some of those the other was handed
# in advance (worksteal), where by default it could wait for the other to work through them
# (3-4 s less of the suite's 90 s)
WORKERS = ("-n", "2", "--dist", "worksteal")


def test(args: list[str]) -> None:
    python = install_test_tools_and_original()
    paths = ["src", "tests", "benchmarks", "examples", "fuzz", "tasks.py"]
    run(python, "-m", "ruff", "check", *paths)
    run(python, "-m", "ruff", "format", "--check", *paths)
    run(python, "-m", "mypy")
    run(python, "-m", "pytest", *WORKERS, *args)


def core(args: list[str]) -> None:
    python = make_venv(CORE_VENV)
    pip_install(python, "-e", ".", "pytest>=8", "hypothesis>=6.100")
    # MICROGRAD_NO_SKIPS: a skipped test fails the run (tests/conftest.py): here nothing may hide
    run(python, "-m", "pytest", *CORE_TESTS, *args, env={"MICROGRAD_NO_SKIPS": "1"})


def screenshots(args: list[str]) -> None:
    """The README's screenshots, taken by the browser tests (Debian: apt-get install chromium
    chromium-driver fonts-noto-cjk)."""
    python = install_test_tools()
    env = {
        "MICROGRAD_SCREENSHOTS": os.path.join(ROOT, "docs", "img"),
        "MICROGRAD_BROWSER": "required",
    }
    run(python, "-m", "pytest", "tests/test_browser.py", *args, env=env)


def stress_browser(args: list[str]) -> None:
    """The browser tests N times in a row (default 20) with two busy processes beside them: they
    must wait on conditions, never on timing. Not in CI (minutes)."""
    runs = int(args.pop(args.index("--runs") + 1)) if "--runs" in args else 20
    if "--runs" in args:
        args.remove("--runs")
    python = install_test_tools()
    busy = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)
    ]  # two cores kept busy, as on a loaded laptop or a shared CI machine
    try:
        env = {**os.environ, "MICROGRAD_BROWSER": "required"}
        for i in range(runs):
            cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_browser.py"]
            print(f"run {i + 1} of {runs}", flush=True)
            if subprocess.call(cmd + args, cwd=ROOT, env=env):
                sys.exit(f"the browser tests failed on run {i + 1} of {runs} under load")
    finally:
        for p in busy:
            p.kill()
    print(f"the browser tests passed {runs} times in a row beside two busy processes")


def fuzz(args: list[str]) -> None:
    seed, seconds = random.randrange(2**32), 600
    rest = []
    while args:
        arg = args.pop(0)
        if arg == "--seed":
            seed = int(args.pop(0))
        elif arg == "--seconds":
            seconds = int(args.pop(0))
        else:
            rest.append(arg)
    python = install_test_tools_and_original()
    replay = f"python3 tasks.py fuzz --seed {seed}"
    print(f"fuzzing with seed {seed}; replay a failure with: {replay}", flush=True)
    env = {"MICROGRAD_HYPOTHESIS_PROFILE": "fuzz"}
    cmd = [python, "-m", "pytest", *WORKERS, f"--hypothesis-seed={seed}", *PROPERTY_TESTS, *rest]
    print("+", " ".join(cmd), flush=True)
    if subprocess.call(cmd, cwd=ROOT, env={**os.environ, **env}):
        sys.exit(f"a property test failed; replay with: {replay} (its output shows the example)")
    atheris = [python, "fuzz/fuzz_expressions.py", f"-max_total_time={seconds}"]
    atheris.append(f"-seed={seed}")
    run(*atheris)
    print(f"fuzzing found nothing (seed {seed})")


def bench(args: list[str]) -> None:
    python = make_venv(VENV)
    pip_install(python, "-e", ".[fast,torch]", "--group", "bench")
    if "--scaling" in args:  # benchmarks/scaling.py: PyTorch and the fast path, in-process
        args.remove("--scaling")
        run(python, "benchmarks/scaling.py", *args)
        return
    original_python = original()
    if original_python is None:
        sys.exit("the benchmark needs micrograd 0.1.0 (pip install micrograd==0.1.0)")
    run(python, "benchmarks/bench.py", "--original-python", original_python, *args)


SITE = os.path.join(ROOT, "site")
NEEDS_NODE = (
    "python3 tasks.py site needs Node.js 18+ with npm ({found}) to install Pyodide: "
    "apt-get install nodejs npm, or https://nodejs.org; nothing else in this project needs Node"
)


def node_problem() -> str | None:
    """Why Node.js 18+ with npm cannot be used here, or None."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        return "no " + " and no ".join(n for n, p in (("node", node), ("npm", npm)) if not p)
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    except OSError as e:
        return f"node does not run: {e}"
    m = re.match(r"v(\d+)\.", version.strip())
    if not m or int(m.group(1)) < 18:
        return f"node {version.strip() or '?'} is older"
    return None


def site(args: list[str]) -> None:
    """Build site/ (site_src/build.py says how), or with --serve serve it on 127.0.0.1."""
    port = int(args.pop(args.index("--port") + 1)) if "--port" in args else 8000
    if "--port" in args:
        args.remove("--port")
    serve = "--serve" in args
    if serve:
        args.remove("--serve")
    if not serve or not os.path.exists(os.path.join(SITE, "index.html")):
        build_site(args)
    if serve:
        serve_site(port)


def build_site(args: list[str]) -> None:
    problem = node_problem()
    if problem:
        sys.exit(NEEDS_NODE.format(found=problem))
    python = make_venv(SITE_VENV)
    pip_install(python, "-e", ".", "--group", "site")
    run(shutil.which("npm") or "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
    wheels = os.path.join(ROOT, "build", "site-wheel")
    shutil.rmtree(wheels, ignore_errors=True)
    run(python, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", wheels)
    (wheel,) = [os.path.join(wheels, n) for n in os.listdir(wheels) if n.endswith(".whl")]
    run(python, os.path.join("site_src", "build.py"), "--wheel", wheel, *args)


def serve_site(port: int) -> None:
    """site/ over HTTP on 127.0.0.1 only (browsers load WebAssembly from http://, not file://)."""
    import functools
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".html": "text/html; charset=utf-8",
            ".wasm": "application/wasm",
            ".mjs": "text/javascript",
            ".js": "text/javascript",
        }

    handler = functools.partial(Handler, directory=SITE)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"serving site/ at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


# build and twine for `release`; twine 6.1 is the first to read the metadata 2.4 that hatchling
# writes (License-Expression), older ones reject the files
RELEASE_TOOLS = ["build>=1.2", "twine>=6.1"]
DEMO_FILES = ["decision_boundary.png", "loss.png", "model.json"]  # what `micrograd demo` writes


def release(args: list[str]) -> None:
    """What is published, checked as a user gets it: the sdist, and the wheel built from it (so a
    file the sdist lacks fails here), pass twine check; the wheel alone in a fresh venv runs
    `micrograd --version` and the core tests, from a copy of tests/ in a temporary folder, where
    nothing puts src/ on sys.path and no extra is installed (what `core` checks on the source
    tree); then with [demo] it runs `micrograd demo`. --outdir DIR (empty or new) keeps the sdist
    and the wheel, for .github/workflows/release.yml to publish."""
    os.environ.pop("PYTHONPATH", None)  # a src/ on it would be tested instead of the wheel
    outdir = os.path.abspath(args.pop(args.index("--outdir") + 1)) if "--outdir" in args else None
    if "--outdir" in args:
        args.remove("--outdir")
    if outdir and os.path.isdir(outdir) and os.listdir(outdir):
        sys.exit(f"--outdir {outdir} is not empty: the release takes the only wheel in it")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="micrograd-release-") as tmp:
        dist = outdir or os.path.join(tmp, "dist")
        venv.create(os.path.join(tmp, "tools"), with_pip=True)
        tools = bin_of(os.path.join(tmp, "tools"), "python")
        pip_install(tools, *RELEASE_TOOLS)
        run(tools, "-m", "build", "--outdir", dist, ROOT)
        built = sorted(os.path.join(dist, name) for name in os.listdir(dist))
        run(tools, "-m", "twine", "check", "--strict", *built)
        (wheel,) = [path for path in built if path.endswith(".whl")]
        version = os.path.basename(wheel).split("-")[1]

        # first the wheel alone, with no extra: the core tests run against it (as `core` runs them
        # from the source tree), then [demo] on top for the demo
        fresh = os.path.join(tmp, "venv")
        venv.create(fresh, with_pip=True)
        python = bin_of(fresh, "python")
        pip_install(python, wheel, "pytest>=8", "hypothesis>=6.100")
        print("+", bin_of(fresh, "micrograd"), "--version", flush=True)
        said = subprocess.run(
            [bin_of(fresh, "micrograd"), "--version"], capture_output=True, text=True
        ).stdout.strip()
        print(said)
        if said != f"micrograd-plus {version}":
            sys.exit(f"micrograd --version said {said!r}, not 'micrograd-plus {version}'")

        # the tests, and the site's playground code that a test of the python back end reads
        shutil.copytree(
            os.path.join(ROOT, "tests"),
            os.path.join(tmp, "tests"),
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        assets = os.path.join("site_src", "assets")
        shutil.copytree(os.path.join(ROOT, assets), os.path.join(tmp, assets))
        shutil.copy(os.path.join(ROOT, "pyproject.toml"), tmp)  # pytest's settings
        env = {**os.environ, "MICROGRAD_NO_SKIPS": "1"}  # as in `core`: a skipped test fails
        where = (
            "import micrograd, importlib.util as u; print(micrograd.__file__, u.find_spec('numpy'))"
        )
        found = subprocess.run(
            [python, "-c", where], cwd=tmp, env=env, capture_output=True, text=True
        ).stdout.strip()
        if not found.startswith(fresh) or not found.endswith(" None"):
            sys.exit(
                f"the tests would import micrograd (and numpy) as {found}, not the wheel alone"
            )
        cmd = [python, "-m", "pytest", "-p", "no:cacheprovider", *CORE_TESTS, *args]
        print("+", " ".join(cmd), f"(in {tmp})", flush=True)
        if subprocess.call(cmd, cwd=tmp, env=env):
            sys.exit("the core tests failed against the installed wheel")

        pip_install(python, f"{wheel}[demo]")
        out = os.path.join(tmp, "demo")
        run(bin_of(fresh, "micrograd"), "demo", "--out", out, "--quiet")
        missing = [name for name in DEMO_FILES if not os.path.exists(os.path.join(out, name))]
        if missing:
            sys.exit(f"micrograd demo did not write {', '.join(missing)}")
    kept = f"; the files are in {outdir}" if outdir else ""
    print(f"release check passed in {time.monotonic() - started:.0f} s{kept}")


JOBS = {
    "demo": demo,
    "test": test,
    "core": core,
    "fuzz": fuzz,
    "bench": bench,
    "screenshots": screenshots,
    "stress-browser": stress_browser,
    "site": site,
    "release": release,
}

if __name__ == "__main__":
    # The jobs write bytecode caches (into .venv and the __pycache__ folders, which git ignores)
    # even where PYTHONDONTWRITEBYTECODE is set: the suite starts hundreds of Python processes
    # (the command, the practice sandbox, torchrun), and without the caches each compiled every
    # module it imported again, PyTorch's among them (its import: 4.3 s instead of 1.6 s).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if len(sys.argv) < 2 or sys.argv[1] not in JOBS:
        sys.exit(f"usage: python3 tasks.py {{{','.join(JOBS)}}} [args...]")
    JOBS[sys.argv[1]](sys.argv[2:])
