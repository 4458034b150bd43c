"""docs/tutorial.md is executed: every python block, in order, in one namespace; the text block that
follows each one is the output it must print. The README's example is checked the same way."""

import contextlib
import io
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(path):
    """(code, expected output) for each python block of a markdown file."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        found = [(m.group(1), m.group(2)) for m in FENCE.finditer(f.read())]
    pairs = []
    for i, (lang, body) in enumerate(found):
        if lang == "python":
            following = found[i + 1] if i + 1 < len(found) else ("", "")
            pairs.append((body, following[1] if following[0] == "text" else ""))
    return pairs


def run_document(path):
    scope: dict = {"__name__": "__tutorial__"}
    cwd = os.getcwd()
    os.chdir(ROOT)  # the examples are referred to by their path in the repository
    try:
        for code, expected in blocks(path):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, path, "exec"), scope)
            assert out.getvalue().rstrip() == expected.rstrip(), f"in {path}:\n{code}"
    finally:
        os.chdir(cwd)


def test_tutorial_blocks_print_what_the_tutorial_says():
    assert len(blocks("docs/tutorial.md")) >= 12
    run_document("docs/tutorial.md")


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_readme_blocks_print_what_the_readme_says(readme):
    run_document(readme)


def test_the_readmes_link_each_other():
    for path, other in [("README.md", "README.zh-CN.md"), ("README.zh-CN.md", "README.md")]:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            assert f"({other})" in f.read().split("\n## ")[0]


@pytest.mark.parametrize("picture", ["docs/img/seed_graph.svg", "docs/img/decision_boundary.png"])
def test_pictures_exist(picture):
    assert os.path.getsize(os.path.join(ROOT, picture)) > 1000


def test_the_tutorials_picture_is_what_its_code_draws():
    """docs/img/seed_graph.svg is `dot -Tsvg` of the tutorial's to_dot(L), after L.backward()."""
    with open(os.path.join(ROOT, "docs/img/seed_graph.svg"), encoding="utf-8") as f:
        svg = f.read()
    for text in [
        "(a*b)",
        "data &#45;6.0000",
        "grad &#45;3.0000",
        "data 10.0000",
        "input or constant",
    ]:
        assert text in svg, text
