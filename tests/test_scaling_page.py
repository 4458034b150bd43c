"""benchmarks/scaling.py reads docs/performance.md's table and flags a row the run contradicts:
every case of the benchmark is on the page, and a ratio on the other side of 1 fails the run."""

import importlib.util
import os

import pytest

pytest.importorskip("numpy")
pytest.importorskip("torch")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scaling():
    """The benchmark as a module; what it sets for its own run (one thread for numpy's and
    PyTorch's kernels) is put back, so that the tests after this one run as before."""
    import torch

    path = os.path.join(ROOT, "benchmarks", "scaling.py")
    spec = importlib.util.spec_from_file_location("scaling", path)
    module = importlib.util.module_from_spec(spec)
    environ, threads = dict(os.environ), torch.get_num_threads()
    try:
        spec.loader.exec_module(module)
    finally:
        os.environ.clear()
        os.environ.update(environ)
        torch.set_num_threads(threads)
    return module


def test_every_case_is_on_the_page_and_a_contradiction_is_flagged(capsys):
    bench = scaling()
    page = bench.page_rows()
    cases = [f"moons H={h} B={b}" for h in (16, 64, 256) for b in (100, 1000, 10000)]
    assert sorted(page) == sorted([*cases, "digits H=64 B=1797"])
    as_page = [{"case": c, "ratio64": page[c]} for c in page]
    assert bench.against_page(as_page) is True
    flipped = [{"case": c, "ratio64": (2.0 - m, 0, 0)} for c, (m, _, _) in page.items()]
    assert bench.against_page(flipped) is False
    assert "CONTRADICTS the page" in capsys.readouterr().out
    assert "cores" in bench.machine() and "PyTorch" in bench.machine()
