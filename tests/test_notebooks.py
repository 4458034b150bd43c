"""docs/notebooks/backprop.ipynb and its Chinese twin, executed top to bottom in a Jupyter kernel
(nbclient), with their key outputs asserted: the lecture's numbers, the drawing, the stepper."""

import os

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("numpy")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def outputs(cell):
    """The text and the kinds of rich output of a code cell."""
    text, kinds = "", set()
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            text += out["text"]
        elif out["output_type"] in ("execute_result", "display_data"):
            kinds |= set(out["data"])
            text += "".join(out["data"].get("text/html", ""))
    return text, kinds


@pytest.mark.parametrize("name", ["backprop.ipynb", "backprop.zh-CN.ipynb"])
def test_the_notebook_runs_and_shows_the_lectures_numbers(name):
    path = os.path.join(ROOT, "docs", "notebooks", name)
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": ROOT}}
    ).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    got = [outputs(c) for c in code]
    assert got[0][0].strip() == "Value(data=-8.0, grad=0)"
    assert "image/svg+xml" in got[1][1]  # the graph, drawn by Graphviz
    assert got[2][0].strip() == "0.7071"
    assert got[3][0].strip() == "-1.5 1.0 0.5 0.0"  # the _backward() calls by hand
    assert got[4][0].strip() == "-1.5 1.0 0.5 0.0"  # backward() gives the same
    html, kinds = got[5]
    assert "text/html" in kinds and '<iframe sandbox="allow-scripts" srcdoc=' in html
    assert "data-action" in html
    assert ("下一步" in html) == ("zh-CN" in name)
    assert got[6][0].startswith("step 100: loss ")
    assert float(got[6][0].rsplit(" ", 1)[1]) > 0.9
