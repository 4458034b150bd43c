"""Drawings and the step-by-step trace: DOT rendered by the real `dot`, Mermaid's structure, the
seed chapter's numbers, and hostile expressions on the command line."""

import html
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import micrograd
from micrograd import Value
from micrograd.app.cli import main
from micrograd.teach.expr import parse_expression
from micrograd.viz import backward_sequence, draw_dot, explain, to_dot, to_mermaid

DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(
    DOT is None and not os.environ.get("CI"),
    reason="Graphviz's dot is not installed (CI installs it)",
)


def seed_example():
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    L = a * b + c
    L.label = "L"
    return a, b, c, L


def test_dot_is_deterministic_and_ordered():
    a, b, c, L = seed_example()
    L.backward()
    text = to_dot(L, params=[c])
    assert text == to_dot(L, params=[c])
    lines = [line.strip() for line in text.splitlines()]
    assert lines[0] == "digraph micrograd {"
    assert (
        'v0 [shape="record", label="{ a | data 2.0000 | grad -3.0000 }", style="filled", fillcolor="#dbeafe"];'
        in lines
    )
    # inner nodes carry the names explain() gives them; a legend says what the colours mean
    assert any(line.startswith("v2 ") and "(a*b) | data -6.0000" in line for line in lines)
    assert any("legend_param" in line and "parameter" in line for line in lines)
    assert any(line.startswith("v3 ") and "#fde68a" in line for line in lines)  # c: a parameter
    assert any(line.startswith("v4 ") and "bold" in line for line in lines)  # the output
    edges = [line.strip() for line in lines if "->" in line]
    assert edges.index("v0 -> v2op;") < edges.index("v1 -> v2op;")  # operand order
    p = Value(2.0) ** Value(3.0)
    assert "v0 -> v2op [label=0];" in to_dot(p) and "v1 -> v2op [label=1];" in to_dot(p)


def test_dot_escapes_labels():
    x = Value(1.0, label='a{b}|"c"<d>')
    assert r"a\{b\}|\"c\"\<d\>" in to_dot(x * 2)


@needs_dot
def test_dot_op_names_with_backslashes_and_quotes_render():
    """An op named by hand with a trailing backslash (or a quote) stays one DOT string."""
    a = Value(1.0, label="a\\")
    for op in ("f\\", 'g"', "\\n"):
        out = Value(2.0, (a,), op)
        out._backward = lambda: None
        svg = subprocess.run(
            [DOT, "-Tsvg"], input=to_dot(out).encode(), capture_output=True, check=True
        ).stdout
        assert html.escape(op, quote=False).encode() in svg


@needs_dot
def test_dot_renders_with_graphviz():
    a, b, c, L = seed_example()
    L.backward()
    x = (a * b).tanh() + (a**2).relu() - b.exp() / c
    for text in (to_dot(L), to_dot(x, rankdir="TB")):
        svg = subprocess.run(
            [DOT, "-Tsvg"], input=text.encode(), capture_output=True, check=True
        ).stdout
        assert svg.lstrip().startswith(b"<?xml") and b"<svg" in svg


def test_draw_dot_is_a_graphviz_digraph():
    graphviz = pytest.importorskip("graphviz")
    a, b, c, L = seed_example()
    L.backward()
    g = draw_dot(L, format="svg", rankdir="TB", params=[c])
    assert isinstance(g, graphviz.Digraph) and g.format == "svg"
    assert "rankdir=TB" in g.source and 'label="{ a | data 2.0000 | grad -3.0000 }"' in g.source
    assert g.source.count("->") == to_dot(L).count("->") == 6
    if DOT or os.environ.get("CI"):
        assert b"<svg" in g.pipe()


def test_mermaid_flowchart_structure():
    a, b, c, L = seed_example()
    L.backward()
    lines = to_mermaid(L).splitlines()
    assert lines[0] == "flowchart LR"
    assert sum(line.startswith("    v") and '["' in line for line in lines) == 5  # a box each
    assert sum('(("' in line for line in lines) == 2  # one node per op
    assert sum("-->" in line for line in lines) == 6
    assert '    v4["L | data 4.0000 | grad 1.0000"]:::output' in lines
    assert '        legend_output["output"]:::output' in lines


def test_backward_sequence_matches_the_seed_diagram():
    a, b, c, L = seed_example()
    text = backward_sequence(L)
    assert text.startswith("sequenceDiagram\n")
    assert "topological order → [a, b, (a*b), c, L]" in text
    assert "L.grad = 1" in text
    for line in [
        "(a*b).grad += 1 * 1 = 1",
        "c.grad += 1 * 1 = 1",
        "a.grad += -3 * 1 = -3",
        "b.grad += 2 * 1 = 2",
    ]:
        assert line in text
    assert text.index("a.grad +=") > text.index("(a*b)._backward()") > text.index("L._backward()")


def test_explain_seed_example_numbers():
    a, b, c, L = seed_example()
    ex = explain(L)
    assert ex.order == ["a", "b", "(a*b)", "c", "L"]
    assert [s.node for s in ex.steps] == ["L", "(a*b)"]
    assert [(k.input, k.local, k.added) for k in ex.steps[1].contributions] == [
        ("a", -3.0, -3.0),
        ("b", 2.0, 2.0),
    ]
    assert (a.grad, b.grad, c.grad) == (0, 0, 0)  # explain changes no grad
    L.backward()
    assert (a.grad, b.grad, c.grad) == (-3.0, 2.0, 1.0)
    assert explain(L).steps[1].contributions[0].total == a.grad  # it describes that pass
    assert (a.grad, b.grad, c.grad) == (-3.0, 2.0, 1.0)


def test_explain_shared_nodes_accumulate_to_25():
    a, b = Value(2.0, label="a"), Value(3.0, label="b")
    c = a + b
    d = a * b
    c.label, d.label = "c", "d"
    e, g = c + d, c * d
    e.label, g.label = "e", "g"
    f = e + g
    f.label = "f"
    ex = explain(f)
    text = str(ex)
    assert a.grad == 0
    f.backward()
    assert a.grad == 25.0
    adds = [k for s in ex.steps for k in s.contributions if k.input == "a"]
    # d = a*b is visited before c = a+b (reverse topological order): 6 * 3 first, then 1 + 6
    assert [k.added for k in adds] == [18.0, 7.0] and adds[-1].total == 25.0 and adds[-1].repeated
    assert "+=: a is used more than once" in text and "-> 25" in text


def test_large_graphs_are_refused_with_a_clear_message():
    x = Value(1.0)
    y = x
    for _ in range(1000):
        y = y + x
    with pytest.raises(ValueError, match="1001 Values, more than max_nodes=500"):
        to_dot(y)
    assert to_dot(y, max_nodes=None).count("->") == 3000


def test_expression_language():
    out = parse_expression("relu(a*b) + tanh(x) - 2**a / -c", {"a": 2, "b": 3, "x": 0.0, "c": 4})
    assert out.data == pytest.approx(6 + 0 + 4 / 4)


@pytest.mark.parametrize(
    "expr",
    [
        "__import__('os').system('echo hacked')",
        "a.__class__",
        "open('/etc/passwd')",
        "[a, b]",
        "lambda: 1",
        "a if b else c",
        "(1).__class__.__bases__",
        "'text'",
        "a[0]",
        "exec('1')",
        "relu(a, b)",
        "relu(x=a)",
        "a @ b",
        "a // b",
        "not a",
        "a < b",
        "True",
        "undefined_name + 1",
        "(" * 300 + "a" + ")" * 300,
        "a +",
        "x" * 3000,
        "2 ** 10000.0",
        "1 / 0",
        "log(-a)",
    ],
)
def test_hostile_expressions_are_refused(capsys, expr):
    for command in ("graph", "explain"):
        assert main([command, expr, "--set", "a=2", "--set", "b=3", "--set", "c=1"]) == 2
        err = capsys.readouterr().err
        assert (
            err.startswith("micrograd: error: ") and "Traceback" not in err and "hacked" not in err
        )


def test_bad_set_syntax(capsys):
    assert main(["explain", "a", "--set", "a"]) == 2
    assert main(["explain", "a", "--set", "a=x"]) == 2


def test_graph_command_formats(tmp_path, capsys, monkeypatch):
    args = ["a*b + c", "--set", "a=2", "--set", "b=-3", "--set", "c=10"]
    assert main(["graph", *args, "--format", "dot"]) == 0
    assert capsys.readouterr().out.startswith("digraph micrograd {")
    assert main(["graph", *args, "--format", "mermaid", "-o", str(tmp_path / "g.mmd")]) == 0
    assert (tmp_path / "g.mmd").read_text().startswith("flowchart LR")
    if DOT or os.environ.get("CI"):
        assert main(["graph", *args, "-o", str(tmp_path / "g.svg")]) == 0
        assert b"<svg" in (tmp_path / "g.svg").read_bytes()
        assert main(["graph", *args, "--format", "png", "-o", str(tmp_path / "g.png")]) == 0
        assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main(["graph", *args, "--format", "svg"]) == 1
    err = capsys.readouterr().err
    assert "apt-get install graphviz" in err and "--format dot" in err
    assert main(["graph", *args, "--format", "mermaid"]) == 0


def test_explain_command(capsys):
    assert main(["explain", "a*b + c", "--set", "a=2", "--set", "b=-3", "--set", "c=10"]) == 0
    text = capsys.readouterr().out
    assert "[a, b, (a*b), c, out]" in text and "a.grad += -3 * 1 = -3" in text


# ---------------------------------------------------------------------------- what learners ran into
def test_learn_D1_explain_and_sequence_change_no_grad_and_describe_the_pass():
    a, b, c, L = seed_example()
    L.backward()
    before = (a.grad, b.grad, c.grad, L.grad)
    ex = explain(L)
    backward_sequence(L)
    assert (a.grad, b.grad, c.grad, L.grad) == before == (-3.0, 2.0, 1.0, 1)
    totals = {k.input: k.total for s in ex.steps for k in s.contributions}
    assert totals == {"(a*b)": 1, "c": 1, "a": -3.0, "b": 2.0}


def test_learn_D2_two_values_never_share_a_name():
    a, b = Value(2.0), Value(2.0)
    L = a * b + a
    ex = explain(L)
    assert ex.order == ["2", "2#2", "(2*2#2)", "((2*2#2)+2)"]
    seq = backward_sequence(L)
    assert len({line.split(" as ")[0] for line in seq.splitlines() if "participant" in line}) == 5
    contributions = [k for s in ex.steps for k in s.contributions]
    assert [k.input for k in contributions] == ["(2*2#2)", "2", "2", "2#2"]
    assert [k.value for k in contributions][1:] == [a, a, b]  # the Values themselves
    from micrograd.nn import MLP

    model = MLP(2, [1])
    out = model([Value(0.5, label="x0"), Value(-1.0, label="x1")])
    assert "layers.0.neurons.0.w.0" in explain(out, params=model).order


def test_learn_D4_a_closure_that_overwrites_is_reported_as_an_overwrite():
    def add_wrong(x, y):  # the lecture's bug: = instead of +=
        out = Value(x.data + y.data, (x, y), "+")

        def _backward():
            x.grad = out.grad
            y.grad = out.grad

        out._backward = _backward
        return out

    a = Value(3.0, label="a")
    b = add_wrong(a, a)
    b.label = "b"
    ex = explain(b)
    (c,) = ex.steps[0].contributions
    assert c.overwrote and c.total == 1 and "instead of adding" in str(ex)
    b.backward()
    assert a.grad == c.total == 1  # what the closure really leaves

    def add_right(x, y):
        out = Value(x.data + y.data, (x, y), "+")

        def _backward():
            x.grad += out.grad
            y.grad += out.grad

        out._backward = _backward
        return out

    (c,) = explain(add_right(a, a)).steps[0].contributions
    assert not c.overwrote and c.total == 2


@pytest.mark.parametrize("lang, words", [("en", "no _backward set"), ("zh", "没有设置 _backward")])
def test_explain_names_a_value_made_by_hand_whose_closure_was_forgotten(lang, words):
    """The step of a hand-made Value with no _backward says it passes nothing back, and its
    totals are what backward() really leaves (0 from that node)."""
    x = Value(0.5, label="x")
    t = Value(math.tanh(0.5), (x,), "tanh", label="t")  # `t._backward = ...` forgotten
    ex = explain(t * 2, lang=lang)
    (c,) = ex.steps[-1].contributions
    assert c.forgotten and c.added == 0 and c.total == 0
    assert "x.grad += 0  -> 0   " in str(ex) and words in str(ex)
    with pytest.warns(UserWarning, match="'tanh'"):
        (t * 2).backward()
    assert x.grad == 0


def test_learn_D5_the_cli_explains_the_seed_question_with_shared_nodes(capsys):
    code = main(
        [
            "explain",
            "c = a + b; d = a * b; e = c + d; g = c * d; f = e + g",
            "--set",
            "a=2",
            "--set",
            "b=3",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("f = 41")
    assert "topological order (inputs first): [a, b, c, d, e, g, f]" in out
    assert "a.grad += 3 * 6 = 18  -> 18" in out and "a.grad += 1 * 7 = 7  -> 25" in out
    assert "b.grad += 1 * 7 = 7  -> 19" in out  # b: 12 through d, then 7 through c
    assert "c.grad += 6 * 1 = 6  -> 6" in out  # c is shared: 6 through g, then 1 through e
    assert "c.grad += 1 * 1 = 1  -> 7   (+=: c is used more than once" in out


def test_learn_D3_D6_D13_numbers_are_constants_and_formulas_read_as_written(capsys):
    main(["explain", "x**2 - y/z", "--set", "x=-3", "--set", "y=0", "--set", "z=2"])
    out = capsys.readouterr().out
    assert "(x**2)" in out and "out = (x**2)-(y/z)" in out and not re.search(r"-0(?![.\d])", out)
    assert "x.grad += -6 * 1 = -6" in out and "z.grad += 0 * -1 = 0" in out
    assert "2.grad" not in out and "-1.grad" not in out  # constants get no grad line


def test_learn_D15_D16_full_width_symbols_and_repeated_names(capsys):
    assert main(["explain", "（a＋b）＊2", "--set", "a＝1", "--set", "b=２"]) == 0
    assert "out = 6" in capsys.readouterr().out
    assert main(["explain", "a", "--set", "a=1", "--set", "a=2"]) == 2
    assert "twice" in capsys.readouterr().err


def test_explain_sequence_and_pictures_speak_chinese(monkeypatch, capsys):
    a, b, c, L = seed_example()
    zh = str(explain(L, lang="zh"))
    assert zh.startswith("1. 拓扑排序（父节点在前）：[a, b, (a*b), c, L]")
    assert "2. 起点：把输出节点的梯度设为 1：L.grad = 1" in zh and "a.grad += -3 * 1 = -3" in zh
    assert "participant U as 用户代码" in backward_sequence(L, lang="zh")
    assert 'label="颜色"' in to_dot(L, lang="zh") and "参数" in to_dot(L, params=[c], lang="zh")
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert str(explain(L)).startswith("1. 拓扑排序")  # the locale decides when no lang is given
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert str(explain(L)).startswith("1. topological order")
    assert main(["explain", "a*a", "--set", "a=3", "--lang", "zh"]) == 0
    assert "（+=：a 被多次使用，梯度累加）" in capsys.readouterr().out
    with pytest.raises(ValueError, match="lang"):
        explain(L, lang="fr")


def _page_data(page):
    """The JSON the stepper page carries."""
    from micrograd.teach.stepper import page_data

    return page_data(page)


def test_the_stepper_page_is_offline_changes_no_grad_and_lays_out_without_graphviz(monkeypatch):
    from micrograd.viz import stepper

    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    L = a * b + 10
    L.label = "L"
    page = stepper(L).page
    assert a.grad == b.grad == L.grad == 0  # like explain(): it runs on its own copy
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # nothing fetched
    assert "<link" not in page and "@import" not in page
    with_dot = _page_data(page)
    monkeypatch.setenv("PATH", "")  # no Graphviz: columns by depth
    without = _page_data(stepper(L).page)
    for data in (with_dot, without):
        boxes = {n["name"]: n for n in data["nodes"] if n["kind"] not in ("op", "const")}
        assert set(boxes) == {"a", "b", "(a*b)", "L"}
        assert all(n["x"] > 0 and n["y"] > 0 for n in data["nodes"])
        assert boxes["a"]["x"] < boxes["(a*b)"]["x"] < boxes["L"]["x"]  # inputs left of outputs
        assert [f.get("set") for f in data["frames"]] == [
            None,
            [[4, "1.0"]],  # L: index 4 (the constant 10, index 3, is a number, not an input)
            [[2, "1.0"]],
            [[0, "-3.0"]],
            [[1, "2.0"]],
        ]
    assert len(without["edges"]) == len(with_dot["edges"]) == 6


def test_the_stepper_saves_one_file_and_shows_inline(tmp_path):
    from micrograd.viz import stepper

    x = Value(0.5, label="x")
    s = stepper(x.tanh() * x, lang="zh")
    s.save(str(tmp_path / "s.html"))
    text = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert text == s.page and "下一步" in text and 'data-action="next"' in text
    assert s.frames == 1 + 1 + 2  # start, then tanh's one input, then * 's two


HOSTILE = "</script><script>document.title='pwned'</script><!--<script>\u2028&amp;"


def _srcdoc(inline: str) -> str:
    """The page inside a notebook's iframe, as the browser decodes the attribute."""
    m = re.fullmatch(
        r'<iframe sandbox="allow-scripts" srcdoc="([^"]*)" style="[^"]*"></iframe>', inline
    )
    assert m, inline[:200]
    return html.unescape(m.group(1))


def test_hostile_names_stay_text_in_the_stepper_page():
    """A label, a parameter name or an op name holding markup cannot end the page's
    script; the notebook's iframe is sandboxed (scripts, but not the notebook's origin)."""
    from micrograd.viz import stepper

    x = Value(2.0, label=HOSTILE)
    w = Value(-1.0)
    out = Value(x.data * w.data, (x, w), HOSTILE)
    out._backward = lambda: None
    s = stepper(x * w + out, params=[(HOSTILE, w)])
    template = (Path(micrograd.__file__).parent / "teach" / "pages" / "stepper.html").read_text(
        "utf-8"
    )
    for page in (s.page, _srcdoc(s._repr_html_())):
        # the data block and the script: a label's "</script" is no markup
        assert page.lower().count("</script") == template.lower().count("</script") == 2
        assert "<!--<script>" not in page and "\u2028" not in page
        data = _page_data(page)
        boxes = [n["name"] for n in data["nodes"] if n["kind"] != "op"]
        ops = [n["name"] for n in data["nodes"] if n["kind"] == "op"]
        assert HOSTILE in boxes and any(HOSTILE in b and b != HOSTILE for b in boxes)
        assert HOSTILE in ops


# ---------------------------------------------------------------------------- hostile and edge input
def run_cli(capsys, *argv):
    return main(list(argv)), *capsys.readouterr()


def test_a_failing_dot_is_reported_with_what_it_said(tmp_path, capsys, monkeypatch):
    """When Graphviz's dot fails, the error says what dot said, without a traceback."""
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\necho 'Format: \"png\" not recognized' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    code, _, err = run_cli(
        capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", str(tmp_path / "g.png")
    )
    assert code == 1 and "not recognized" in err and "Traceback" not in err


def test_mermaid_labels_with_newlines_stay_on_one_line():
    """To_mermaid keeps a label with a newline on its node's line."""
    a = Value(1.0, label="two\nlines")
    text = to_mermaid(a * 2)
    assert all(line.startswith(("    ", "flowchart")) for line in text.splitlines())


def test_labels_with_operators_are_bracketed_in_the_steps():
    """The lecture's labels such as `x1*w1 + x2*w2` are shown as [x1*w1 + x2*w2] in the
    steps, so that `[x1*w1 + x2*w2].grad` cannot be read as x2 * w2.grad."""
    x1, w1 = Value(2.0, label="x1"), Value(-3.0, label="w1")
    x2, w2 = Value(0.0, label="x2"), Value(1.0, label="w2")
    a, b = x1 * w1, x2 * w2
    a.label, b.label = "x1*w1", "x2*w2"
    s = a + b
    s.label = "x1*w1 + x2*w2"
    text = str(explain(s * 2))
    assert "   [x1*w1 + x2*w2] = [x1*w1]+[x2*w2], grad 2: [x1*w1 + x2*w2]._backward()" in text
    assert "      [x2*w2].grad += 1 * 2 = 2  -> 2" in text
    assert "      x2.grad += 1 * 2 = 2  -> 2" in text  # plain names stay as they are


def test_a_nan_output_gets_a_line_and_backward_a_warning():
    """A nan made in the forward pass is said once, outside detect_anomaly() too."""
    a = Value(-2.0, label="a")
    y = a**0.5
    assert "detect_anomaly()" in str(explain(y)).splitlines()[-1]
    assert "detect_anomaly()" in str(explain(y, lang="zh")).splitlines()[-1]
    with pytest.warns(RuntimeWarning, match="backward\\(\\) of a nan"):
        y.backward()
    assert "detect_anomaly" not in str(explain(a * 2))


def test_the_legend_says_what_0_and_1_on_an_edge_mean():
    """A drawing whose edges carry operand numbers (/ and **) explains them in its legend."""
    a, b = Value(2.0, label="a"), Value(3.0, label="b")
    assert "0, 1 on an edge: the op's first and second operand" in to_dot(a / b)
    assert "边上的 0、1" in to_dot(a**b, lang="zh")
    assert "legend_operands" not in to_dot(a * b)  # * and + take their operands in any order


# ---------------------------------------------------------------- the neuron view of the stepper
def mlp_loss(sizes, samples, seed=0):
    """An MLP of micrograd.nn and the hinge loss of `samples` ((x1, x2, y) each) summed."""
    import random

    from micrograd.nn import MLP

    random.seed(seed)
    model = MLP(2, sizes)
    losses = [(1 + -y * model([Value(a), Value(b)])).relu() for a, b, y in samples]
    loss = sum(losses[1:], losses[0])
    loss.label = "loss"
    return model, loss


def neurons_of(model, loss):
    from micrograd.engine import topo_order
    from micrograd.teach.neurons import find_neurons

    return find_neurons(topo_order(loss), model.named_parameters())


@pytest.mark.parametrize("sizes", [[3, 1], [8, 8, 1]])
def test_each_neuron_of_an_mlp_is_found_with_its_ops(sizes):
    """A neuron with n inputs computes n products w_i*x_i and n sums (from the bias on), then its
    relu if it has one: those are its members; its parameters are listed apart."""
    model, loss = mlp_loss(sizes, [(0.5, -1.0, 1.0)])
    found = neurons_of(model, loss)
    want = [
        (f"layers.{i}.neurons.{j}", nin, i < len(sizes) - 1)
        for i, (nin, nout) in enumerate(zip([2, *sizes], sizes))
        for j in range(nout)
    ]
    assert [n.name for n in found] == [name for name, _, _ in want]
    for n, (_, nin, nonlin) in zip(found, want):
        ops = [v._op for v in n.members]
        assert (ops.count("*"), ops.count("+"), ops.count("ReLU")) == (nin, nin, int(nonlin))
        assert len(n.members) == 2 * nin + nonlin and n.sample is None
        assert n.params == tuple(
            p for name, p in model.named_parameters() if name.startswith(n.name + ".")
        )
        assert n.activation == ("relu" if nonlin else None)
        assert n.out is (n.members[-1] if nonlin else n.pre) and n.pre._op == "+"
        assert n.dead == (nonlin and n.out.data == 0)
        assert not set(n.params) & set(n.members)
    assert loss not in {v for n in found for v in n.members}  # the loss is no neuron's


def test_a_batch_holds_each_neuron_once_per_sample():
    model, loss = mlp_loss([3, 1], [(0.5, -1.0, 1.0), (-2.0, 0.25, -1.0)])
    found = neurons_of(model, loss)
    assert [(n.name, n.sample) for n in found if n.name == "layers.0.neurons.1"] == [
        ("layers.0.neurons.1", 1),
        ("layers.0.neurons.1", 2),
    ]
    assert len(found) == 8 and {n.sample for n in found} == {1, 2}
    members = [v for n in found for v in n.members]
    assert len(members) == len(set(members)) == 2 * (3 * 5 + 6)  # no node in two neurons
    first, second = (n for n in found if n.name == "layers.1.neurons.0")
    assert first.params == second.params  # the samples share the weights


def test_graphs_without_neurons_have_no_neuron_view():
    """No names of neurons, names that are not a neuron's, and the sum of the squared parameters
    of an MLP (it depends on all of them, but is no w·x+b): nothing is found."""
    from micrograd.engine import topo_order
    from micrograd.teach.neurons import find_neurons

    a, b, c, L = seed_example()
    order = topo_order(L)
    assert find_neurons(order, []) == []
    assert find_neurons(order, [("w", a), ("b", c)]) == []  # "w" is not "w.0"
    assert find_neurons(order, [("w.0", a)]) == []  # a weight without a bias
    model, _ = mlp_loss([3, 1], [(0.5, -1.0, 1.0)])
    penalty = sum((p * p for p in model.parameters()), Value(0.0))
    assert find_neurons(topo_order(penalty), model.named_parameters()) == []


def test_a_lone_neuron_and_a_dead_relu():
    from micrograd.engine import topo_order
    from micrograd.nn import Neuron
    from micrograd.teach.neurons import find_neurons

    n = Neuron(2)
    n.w[0].data, n.w[1].data, n.b.data = 1.0, 1.0, -5.0  # relu(1 + 2 - 5) = relu(-2) = 0
    out = n([Value(1.0), Value(2.0)])
    (found,) = find_neurons(topo_order(out * 3), n.named_parameters())
    assert (found.name, found.activation, found.dead, found.out) == ("", "relu", True, out)


def _overlapping(nodes):
    """The pairs of nodes whose boxes overlap."""
    return [
        (a["id"], b["id"])
        for i, a in enumerate(nodes)
        for b in nodes[i + 1 :]
        if abs(a["x"] - b["x"]) < (a["w"] + b["w"]) / 2
        and abs(a["y"] - b["y"]) < (a["h"] + b["h"]) / 2
    ]


@pytest.mark.parametrize("graphviz", [True, False])
def test_the_stepper_page_carries_the_neurons_of_an_mlp_only(monkeypatch, graphviz):
    from micrograd.viz import stepper

    if not graphviz:
        monkeypatch.setenv("PATH", "")  # no Graphviz: columns by depth
    elif DOT is None:
        pytest.skip("Graphviz's dot is not installed")
    model, loss = mlp_loss([3, 1], [(0.5, -1.0, 1.0)])
    data = _page_data(stepper(loss, params=model).page)
    names = [n["name"] for n in data["neurons"]]
    assert names == [f"layers.0.neurons.{j}" for j in range(3)] + ["layers.1.neurons.0"]
    boxes = {n["id"]: n for n in data["nodes"]}
    for n in data["neurons"]:
        assert {boxes[f"v{j}"]["kind"] for j in n["members"]} == {"inner"}
        assert {boxes[f"v{j}"]["kind"] for j in n["params"]} == {"param"}
        assert n["out"] in n["members"] and n["data"] == boxes[f"v{n['out']}"]["data"]
    collapsed = data["collapsed"]
    kinds = [n["kind"] for n in collapsed["nodes"]]
    assert kinds.count("neuron") == 4 and "param" not in kinds  # the weights are inside
    assert collapsed["size"][0] > 0 and all(n["x"] > 0 and n["y"] > 0 for n in collapsed["nodes"])
    assert _overlapping(collapsed["nodes"]) == []
    x = {n["name"] if n["kind"] != "neuron" else n["id"]: n["x"] for n in collapsed["nodes"]}
    assert x["0.5"] < x["n0"] < x["n3"] < x["loss"]  # an input, a hidden neuron, the output one
    # one edge per neuron-to-neuron dependence: each of the 3 hidden neurons feeds the output one
    hidden = {f"n{j}" for j in range(3)}
    assert sorted((e["from"], e["to"]) for e in collapsed["edges"] if e["to"] == "n3") == sorted(
        (h, "n3") for h in hidden
    )
    a, b, c, L = seed_example()
    plain = _page_data(stepper(L, params=[("a", a)]).page)
    assert plain["neurons"] == [] and plain["collapsed"] is None


def test_the_ops_of_a_neuron_are_named_by_their_place_in_it():
    """Inside a neuron the names say what each op is (no `n301`), in explain and the
    stepper alike: its products, its partial sums, its w·x+b and its output."""
    import random

    from micrograd.engine import topo_order
    from micrograd.nn import MLP
    from micrograd.teach.drawings import names
    from micrograd.teach.neurons import find_neurons

    random.seed(5)
    model = MLP(2, [2, 1])
    samples = [[Value(0.5), Value(-1.0)], [Value(2.0), Value(0.25)]]
    loss = sum(model(x) for x in samples)
    name = names(topo_order(loss), model)
    shown = set(name.values())
    for sample in ("[1]", "[2]"):  # a batch of two: each neuron twice
        neuron = "layers.0.neurons.1" + sample
        assert {f"{neuron}:w.0·x", f"{neuron}:w.1·x", f"{neuron}:b+w·x[:1]"} <= shown
        assert {f"{neuron}:w·x+b", neuron, "layers.1.neurons.0" + sample} <= shown
    inside = [
        v for n in find_neurons(topo_order(loss), model.named_parameters()) for v in n.members
    ]
    assert len(inside) == 2 * (2 * 5 + 4) and not any(name[v].startswith("n") for v in inside)
    one = model(samples[0])  # one sample: no [k]
    assert "layers.0.neurons.0:w·x+b" in names(topo_order(one), model).values()
