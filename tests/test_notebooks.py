"""docs/notebooks/backprop.ipynb and its Chinese twin, executed top to bottom in a Jupyter kernel
(nbclient), with their key outputs asserted: the lecture's numbers from the derivative by nudging
to the training loop, the drawings, the stepper. Code cells are found by their cell id, which both
notebooks share."""

import functools
import html
import importlib.util
import os
import re
import shutil

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOKS = ["backprop.ipynb", "backprop.zh-CN.ipynb"]
# draw() in the notebooks draws with Graphviz when it can, and prints Mermaid text otherwise
GRAPHVIZ = bool(shutil.which("dot") and importlib.util.find_spec("graphviz"))


def read(name):
    return nbformat.read(os.path.join(ROOT, "docs", "notebooks", name), as_version=4)


def outputs(cell):
    """The printed text of a code cell, the text of its pictures and pages, and their kinds."""
    text, rich, kinds = "", "", set()
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            text += out["text"]
        elif out["output_type"] in ("execute_result", "display_data"):
            kinds |= set(out["data"])
            rich += "".join(out["data"].get("text/html", ""))
            rich += "".join(out["data"].get("image/svg+xml", ""))
    return text, rich, kinds


@functools.cache
def run(name):
    """Execute the notebook once (per test process): {cell id: (printed, rich, kinds)}."""
    nb = read(name)
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": ROOT}}
    ).execute()
    return {c.id: outputs(c) for c in nb.cells if c.cell_type == "code"}


def printed(name, ident):
    """The lines a cell printed."""
    return run(name)[ident][0].strip().splitlines()


def numbers(line):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", line)]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_derivative_by_nudging_and_the_lecture_graph_by_hand(name):
    assert printed(name, "slope") == ["20.0", "14.000300000063248"]  # 14 + 3h
    assert printed(name, "slope-abc") == ["a -3.0", "b 2.0", "c 1.0"]
    assert printed(name, "values") == ["Value(data=-8.0, grad=0)"]
    assert printed(name, "hand-fd") == ["4.0 -2.0"]  # f.grad, d.grad
    assert printed(name, "hand-ce") == ["-2.0 -2.0"]  # c.grad, e.grad
    assert printed(name, "hand-ab") == ["6.0 -4.0"]  # a.grad, b.grad
    for line in printed(name, "check"):  # each grad next to its slope by nudging
        label, slope, grad = line.split()
        assert float(slope) == float(grad), line
    assert [line.split()[0] for line in printed(name, "check")] == list("abcdef")
    assert printed(name, "step") == ["-7.286496"]  # one step of the leaves along their grads


def boxes(cell):
    """The text of a drawing's boxes, " | " between fields: from Graphviz's SVG (one <text> per
    field), or from the Mermaid text that draw() prints without Graphviz."""
    text, svg, kinds = cell
    if not GRAPHVIZ:
        assert text.startswith("flowchart LR")
        return text
    assert "image/svg+xml" in kinds
    return " | ".join(html.unescape(t) for t in re.findall(r">([^<>]*)</text>", svg))


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_graph_is_drawn_before_and_after_the_grads_by_hand(name):
    before, after = boxes(run(name)["draw-before"]), boxes(run(name)["draw-after"])
    assert "a | data 2.0000 | grad 0.0000" in before and "grad 6.0000" not in before
    assert "a | data 2.0000 | grad 6.0000" in after
    assert "b | data -3.0000 | grad -4.0000" in after
    assert "L | data -8.0000 | grad 1.0000" in after
    assert ("颜色" in before) == ("zh-CN" in name)  # the legend in the notebook's language


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_neuron_by_hand_by_backward_by_exp_and_by_each_backward_call(name):
    # [:1], [:2]: without Graphviz, draw() prints the graph after these lines
    assert printed(name, "neuron")[:1] == ["0.8814 0.7071"]
    assert printed(name, "neuron-hand") == ["0.5 -1.5 1.0 0.5 0.0"]  # n, x1, w1, x2, w2
    grads = "-1.5 1.0 0.5 0.0"  # x1, w1, x2, w2
    assert printed(name, "neuron-backward") == [grads]
    assert printed(name, "exp")[:2] == ["0.7071", grads]  # tanh written with exp
    assert printed(name, "gradcheck") == ["True"]
    assert printed(name, "manual-o") == ["0.5"]
    assert printed(name, "manual-n") == ["0.5 0.5 0.5"]
    assert printed(name, "manual-leaves") == [grads]  # the _backward() calls by hand
    topo = printed(name, "topo")
    assert topo[0] == "['x1', 'w1', 'x1w1', 'x2', 'w2', 'x2w2', 'x1w1x2w2', 'b', 'n', 'o']"
    assert topo[1] == grads
    text = run(name)["explain"][0]
    assert "x1.grad += -3 * 0.5 = -1.5" in text and "w1.grad += 2 * 0.5 = 1" in text
    assert ("拓扑排序" in text) == ("zh-CN" in name)
    torch = printed(name, "torch")
    if "pip install torch" not in torch[0]:  # the cell says it is skipped without torch
        assert torch == ["0.7071", grads]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_a_plus_a_bug_gives_1_with_eq_and_2_with_plus_eq(name):
    engine = printed(name, "a-plus-a")
    assert float(engine[0]) == 2.0  # this package's Value
    assert "a.grad += 1 * 1 = 1  -> 2" in engine[-1]
    buggy = printed(name, "buggy")
    assert float(buggy[0]) == 1.0  # the lecture's first __add__, with =
    assert buggy[-1].strip().startswith("a.grad = 1 ")  # explain() points at the overwrite
    assert printed(name, "fixed") == ["2.0"]  # and with +=


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_mlp_trains_and_forgetting_zero_grad_ends_worse(name):
    mlp = printed(name, "mlp")
    assert mlp[0] == "41"  # MLP(3, [4, 4, 1]): 4*4 + 4*5 + 5 parameters
    start = float(mlp[-1])
    losses = [float(line.split()[1]) for line in printed(name, "train")[:20]]
    assert losses[0] == start and all(b < a for a, b in zip(losses, losses[1:]))
    with_zero = float(printed(name, "train")[-1])
    without_zero = float(printed(name, "train-no-zero")[-1])
    assert with_zero < 0.05 < 1.0 < without_zero
    assert [numbers(line)[-1] for line in printed(name, "compare")] == [with_zero, without_zero]
    stale, true = numbers(printed(name, "stale")[0])
    assert stale > 1.0 and true < 0.01  # the loop steps by a sum of old grads


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_stepper_is_inline_in_the_notebooks_language(name):
    _, html, kinds = run(name)["stepper"]
    assert "text/html" in kinds and '<iframe sandbox="allow-scripts" srcdoc=' in html
    assert "data-action" in html
    assert ("下一步" in html) == ("zh-CN" in name)


def test_the_notebooks_have_the_same_code_cells_and_are_stored_without_outputs():
    en, zh = read(NOTEBOOKS[0]), read(NOTEBOOKS[1])
    assert [c.id for c in en.cells] == [c.id for c in zh.cells]
    assert [c.cell_type for c in en.cells] == [c.cell_type for c in zh.cells]
    for nb in (en, zh):
        for c in nb.cells:
            if c.cell_type == "code":
                assert c.outputs == [] and c.execution_count is None, c.id


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebooks_use_only_the_public_api(name):
    code = "\n".join(c.source for c in read(name).cells if c.cell_type == "code")
    assert not re.search(r"from micrograd[\w.]* import [^\n]*\b_\w", code)
    assert not re.search(r"micrograd(\.\w+)*\._", code)
    assert "micrograd.app.playground" not in code and "micrograd.app.train" not in code
