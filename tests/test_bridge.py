"""The bridge from scalars to tensors (micrograd.teach.bridge and `micrograd bridge`): every
scalar node of a traced graph is in exactly one tensor or array operation, the operations are
the numpy replay's own, and the listing reads the same in both languages."""

import html
import random
import re
import subprocess
import sys
from collections import Counter

import pytest

from micrograd.app.cli import main
from micrograd.gpt import GPT
from micrograd.io import save, save_gpt
from micrograd.nn import MLP
from micrograd.replay import arrays
from micrograd.teach import arrayops, bridge

SMALL_GPT = {"vocab_size": 5, "n_embd": 4, "n_head": 2, "n_layer": 1, "block_size": 4}


def models():
    random.seed(0)
    return {
        "demo": bridge.of_classifier(MLP(2, [4, 3, 1])),
        "digits": bridge.of_classifier(MLP(64, [8, 10])),
        "tanh": bridge.of_classifier(MLP(3, [5, 5, 3], activation="tanh")),
        "gpt": bridge.of_gpt(GPT(**SMALL_GPT), 3),
    }


@pytest.mark.parametrize("name", ["demo", "digits", "tanh", "gpt"])
def test_every_scalar_node_is_in_exactly_one_place(name):
    shown = models()[name]
    where = shown.place()  # asserts that no node is in two places
    assert sorted(where) == list(range(len(shown.tape.nodes)))
    held = [len(t.entries) for t in shown.tensors] + [len(ln.entries) for ln in shown.lines]
    assert sum(held) + len(shown.unused) == len(shown.tape.nodes)
    for line in shown.lines:  # each line counts the ops of the nodes it holds
        ops = Counter(arrayops.op_of(shown.tape.nodes[i]) for i in line.entries)
        assert line.ops == ops
    assert shown.text().splitlines()[0].startswith(f"{len(shown.tape.nodes)} scalar nodes")


def test_the_demo_model_is_three_matrix_products_with_the_layers_shapes():
    shown = models()["demo"]
    assert len(shown.tape.nodes) == 93 and len(shown.lines) == 9
    weights = {t.name: t.shape for t in shown.tensors if t.name.startswith("W")}
    assert weights == {"W1": (4, 2), "W2": (3, 4), "W3": (1, 3)}
    codes = [f"{ln.name} = {ln.code}" for ln in shown.lines]
    assert "z1 = x @ W1.T + b1" in codes and "h1 = relu(z1)" in codes
    assert "z2 = h1 @ W2.T + b2" in codes and "z3 = h2 @ W3.T + b3" in codes
    z1 = next(ln for ln in shown.lines if ln.name == "z1")
    assert z1.ops == {"+": 8, "*": 8} and z1.units == "layers.0.neurons.0-3"
    assert z1.matmul and z1.width == 4


def test_the_lines_are_the_numpy_replays_groups():
    np = pytest.importorskip("numpy")
    from micrograd.app.tasks import Classifier

    random.seed(0)
    task = Classifier(MLP(2, [4, 3, 1]), 2)
    program = task.program("loss", "numpy")
    shown = models()["demo"]
    assert len(program.groups) == len(shown.lines)
    sizes = [g.out.stop - g.out.start for g in program.groups]
    assert sizes == [ln.width for ln in shown.lines]
    assert np is not None


def test_the_gpt_attention_is_named_by_head_and_its_loss_is_cross_entropy():
    shown = models()["gpt"]
    units = " ".join(ln.units for ln in shown.lines)
    assert "layers.0.attn.head.0-1.q" in units
    assert any(ln.code.startswith("cross_entropy(") for ln in shown.lines)
    # the embedding: each position's one-hot row times the table, plus that position's row of
    # wpe, is one product over the 3 positions with a bias row each
    first = shown.lines[0]
    assert first.matmul and first.code.startswith("stack([onehot0, onehot1, ...], 1) @ W1.T + b1")
    tensors = {t.name: t for t in shown.tensors}
    assert tensors["W1"].shape == (4, 5) and tensors["W1"].about.startswith("wte.weight")
    assert tensors["b1"].shape == (3, 4) and tensors["b1"].about == "wpe.weight.0-2.0-3"
    # the scores q.k (2 columns of q times 2 of k: a head's) are one line of dot products, the
    # weighted sums of the values (over 1 to 3 positions, 2 columns a head) another
    dots = {ln.name: ln for ln in shown.lines if ln.form[0] == "dot"}
    assert dots["s5"].form[1][3] == [2] * 12 and "attn.head" in dots["s5"].units
    assert dots["s5"].code.endswith(".reshape(B, 12, 2).sum(2)")
    assert dots["s7"].form[1][3] == [1] * 4 + [2] * 4 + [3] * 4
    assert dots["s7"].code.startswith("segment_sum(t8[:, ")


def test_the_planner_needs_no_numpy():
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import random; random.seed(0)\n"
        "from micrograd.nn import MLP\n"
        "from micrograd.teach.bridge import of_classifier\n"
        "print(of_classifier(MLP(2, [4, 3, 1])).text('en').splitlines()[0])\n"
        "print('numpy' in sys.modules and sys.modules['numpy'] is not None)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "93 scalar nodes of the traced graph become 9 array operations (3 of them matrix "
        "products), batch first: B rows at once.",
        "False",
    ]


def test_names_reach_the_page_and_the_drawing_escaped():
    from micrograd.engine import Value

    p = Value(2.0)
    name = '<img src=x onerror="alert(1)">\\.0'  # a parameter's name, read into the page
    shown = bridge.bridge(lambda x: (p * x).relu(), [p], [("x", 1)], [name])
    page = shown._repr_html_()
    assert "<img" not in page and "&lt;img" in page
    for line in shown.lines:  # the notebook's table is the listing
        assert html.escape(f"{line.name} = {line.code}") in page
    node = re.compile(r'  n\d+ \[label="(?:[^"\\]|\\.)*", fillcolor="(?:#[0-9a-f]{6}|white)"\];')
    dot = shown.to_dot().splitlines()
    nodes = [line for line in dot if re.match(r"  n\d+ \[", line)]
    assert len(nodes) == len(shown.tape.nodes)
    assert all(node.fullmatch(line) for line in nodes), nodes
    assert any('onerror=\\"alert(1)\\"' in line for line in nodes)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_command_prints_the_demo_the_digits_and_the_gpt(capsys, lang):
    assert main(["bridge", "--hidden", "4,3", "--lang", lang]) == 0
    out = capsys.readouterr().out
    head = "93 scalar nodes" if lang == "en" else "93 个标量节点"
    assert head in out and "z1 = x @ W1.T + b1" in out and "(B, 4)" in out
    assert main(["bridge", "--digits", "--hidden", "8", "--lang", lang]) == 0
    assert "cross_entropy(cat(z2, y))" in capsys.readouterr().out
    assert main(["bridge", "--gpt", "--length", "2", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert "wte.weight" in out and "cross_entropy(" in out
    assert ("head" in out) and ("@ W1.T" in out)


def test_the_command_reads_a_saved_mlp_and_a_saved_gpt(tmp_path, capsys):
    from micrograd.data import CharTokenizer

    random.seed(0)
    save(MLP(3, [4, 2]), tmp_path / "model.json")  # two outputs: softmax over two
    assert main(["bridge", "--model", str(tmp_path / "model.json"), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "W1       (4, 3)" in out and "cross_entropy(cat(z2, y))" in out
    tokenizer = CharTokenizer(["abcd"])
    save_gpt(GPT(**SMALL_GPT), tokenizer, tmp_path / "gpt.json")
    assert main(["bridge", "--model", str(tmp_path / "gpt.json"), "--lang", "en"]) == 0
    assert "wte.weight" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{}")
    assert main(["bridge", "--model", str(tmp_path / "bad.json"), "--lang", "en"]) == 1
    assert "not a micrograd model file" in capsys.readouterr().err


def test_the_plan_is_one_for_the_replay_and_the_bridge():
    # replay.arrays is the numpy back end's grouping; it imports no numpy itself
    assert "numpy" not in arrays.__dict__ and "np" not in arrays.__dict__


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_command_refuses_options_that_would_be_ignored(capsys, lang):
    from micrograd.text import text

    assert main(["bridge", "--gpt", "--hidden", "4,3", "--lang", lang]) == 2
    assert text("bridge.err_hidden", lang) in capsys.readouterr().err
    assert main(["bridge", "--torch", "--lang", lang]) == 2
    assert text("bridge.err_torch", lang) in capsys.readouterr().err
