"""site_src/build.py's last step: the site is built in a folder of its own and replaces the old one
only when the whole build succeeded (the build itself runs in tests/test_site.py and in CI)."""

import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def build_py(tmp_path, monkeypatch):
    """site_src/build.py as a module, its Pyodide found in tmp_path, its `build` replaced by one
    that writes a page saying `said` (or fails where `said` is None)."""
    spec = importlib.util.spec_from_file_location(
        "site_build_steps", os.path.join(ROOT, "site_src", "build.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "pyodide.asm.wasm").write_bytes(b"")
    monkeypatch.setattr(module, "PYODIDE", str(tmp_path / "pyodide"))

    def run(out, said):
        def build(wheel, site):
            with open(os.path.join(site, "index.html"), "w", encoding="utf-8") as f:
                f.write("half a site" if said is None else said)
            if said is None:
                sys.exit(1)  # as a strict MkDocs warning stops the build

        monkeypatch.setattr(module, "build", build)
        monkeypatch.setattr(sys, "argv", ["build.py", "--wheel", "w.whl", "--out", str(out)])
        module.main()

    return run


def test_a_build_replaces_the_site_only_when_it_succeeded(build_py, tmp_path):
    out = tmp_path / "www" / "site"
    build_py(out, "first")
    assert (out / "index.html").read_text() == "first"
    build_py(out, "second")
    assert (out / "index.html").read_text() == "second"
    with pytest.raises(SystemExit):
        build_py(out, None)
    assert (out / "index.html").read_text() == "second"
    assert os.listdir(out.parent) == ["site"]  # no folder of a build left beside it
