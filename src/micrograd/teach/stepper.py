"""The backward stepper: a page that steps through one backward pass (and the helpers that put data
into the package's pages safely)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Sequence
from importlib import resources
from typing import Any

from micrograd.engine import Value, topo_order
from micrograd.io import atomic_write
from micrograd.teach.drawings import (
    DOT_LAYOUT_NODES,
    MAX_NODES,
    fmt4,
    fmt_number,
    kind_of,
    named_params,
    names,
)
from micrograd.teach.explain import Contribution, explain
from micrograd.teach.neurons import GraphNeuron, find_neurons
from micrograd.teach.quiz import TOLERANCE, questions
from micrograd.text import catalog
from micrograd.text import text as say

_BOX_W, _BOX_H, _OP_R = 150, 58, 16  # sizes in the page, in pixels
_NEURON_W, _NEURON_H = 200, 74  # a neuron's box: four lines of text


class Stepper:
    """A page that steps through one backward pass; shown inline by Jupyter, VS Code and Colab,
    `.save(path)` writes it as one file that works offline."""

    def __init__(self, page: str, frames: int) -> None:
        self.page = page
        self.frames = frames  # steps after the first: the slider goes from 0 to frames

    def _repr_html_(self) -> str:
        # In an iframe, so that several steppers in one notebook keep their own page and keys.
        # sandbox="allow-scripts" without allow-same-origin: a srcdoc frame would otherwise share
        # the notebook's origin, and any script in it could reach the notebook and its kernel.
        return (
            f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(self.page, quote=True)}" '
            'style="width:100%;height:560px;border:1px solid #ddd"></iframe>'
        )

    def save(self, path: str) -> None:
        """Write the page to `path` (atomically)."""
        atomic_write(path, self.page.encode())


def stepper(
    root: Value,
    params: Any = (),
    lang: str | None = None,
    max_nodes: int | None = MAX_NODES,
    quiz: bool = False,
    intro: str = "",
    groups: Sequence[GraphNeuron] = (),
) -> Stepper:
    """The backward stepper of `root`: the graph with each Value's name, data and grad, stepping
    through backward() as explain() does (the order, the output's grad of 1, then each
    `input.grad += local * upstream`), with buttons, the arrow keys, a slider and play.

    With quiz=True each `+=` stays hidden until the learner types the number it adds: a right
    answer turns green; a wrong one shows the local derivative and the upstream grad whose product
    it is, and the learner tries again (or shows it). Stepping stops at the first open question.
    `intro` is a line shown above the steps (the playground says there why a sample's loss is what
    it is). Clicking an input's box and "nudge" recomputes the forward pass in the page with the
    input moved by h, and shows (L(x+h) - L(x)) / h beside the grad backward() gives.

    Every Value's box carries data-name and data-grad (the grad at the current step); the buttons
    carry data-action="prev", "next", "play" (and "check", "show" beside the answer field
    data-action="answer" of a quiz, whose score has data-right and data-asked); the page has
    window.micrograd.step(k).

    When `params` names the parameters of micrograd.nn neurons (a Module such as an MLP) and the
    graph computes them (micrograd.teach.neurons), the page opens on the neuron view: each neuron
    one box `w·x+b → relu` (data-neuron, data-dead for a ReLU whose output is 0), expanded to its
    scalar ops by a click, zoomed and panned (data-action="zoom-in", "zoom-out", "fit", "follow",
    "expand-all", "collapse"), following the current step. `groups` (teach.neurons.region) are drawn as neurons are,
    each one box that a click expands to its ops; the steps inside them are named by it."""
    named, every = named_params(params)
    params = [(n, p) for p, n in named.items()] + [p for p in every if p not in named]
    ex = explain(root, max_nodes, params, lang, groups)
    order = topo_order(root)
    name = names(order, params)
    index = {v: i for i, v in enumerate(order)}
    by_name = {name[v]: v for v in order}
    asked = {id(c): q for _, c, q in questions(ex)} if quiz else {}
    frames: list[dict[str, Any]] = [{"text": say("order", ex.lang, order=", ".join(ex.order))}]
    start = say("start", ex.lang, root=ex.root)
    frames.append({"set": [[index[root], _grad_text(1.0)]], "text": start, "node": index[root]})
    neurons = find_neurons(order, [(n, p) for p, n in named.items()]) + list(groups)
    for s in ex.steps:
        node = index[by_name[s.node]]
        shown: list[Contribution | None] = [*s.contributions] or [None]  # a step adds nothing
        for c in shown:
            frame: dict[str, Any] = {"node": node, "text": ex.step_line(s).strip()}
            if c is not None and c.value is not None:
                frame["set"] = [[index[c.value], _grad_text(c.total)]]
                frame["input"] = index[c.value]
                if c.local is not None:  # drawn on the edge, as the lecture writes it there
                    frame["local"] = fmt_number(c.local)
                frame["zero"] = c.added == 0  # adds nothing: "skip += 0" passes over it
                if id(c) in asked:
                    q = asked[id(c)]
                    frame["quiz"] = {
                        "ask": q.ask(ex.lang),
                        "added": q.added,
                        "wrong": q.wrong(ex.lang),
                    }
                frame["text"] += "\n" + ex.line(c).strip()
            frames.append(frame)
    data = {
        "title": f"{ex.root}.backward()",
        "frames": frames,
        **_layout(order, root, name, every, neurons),
        "neurons": [_neuron_data(n, index) for n in neurons],
        "collapsed": _neuron_layout(order, root, name, every, neurons) if neurons else None,
        "words": _page_words(ex.lang, bool(groups)),
        "lang": ex.lang,
        "quiz": quiz,
        "tolerance": TOLERANCE,
        "intro": intro,
        "forward": _forward_program(order, index),
    }
    return Stepper(page_with_data("stepper.html", data), len(frames) - 1)


_PAGE_WORDS = (
    *("prev", "next", "play", "pause", "step_of", "nudge", "nudge_pick", "nudge_result"),
    "skip_zero",
    "nudge_cannot",
    *("quiz_intro", "quiz_check", "quiz_show", "quiz_right", "quiz_not_number", "quiz_score"),
    *("neuron", "neuron_help", "neuron_dead", "neuron_sample", "neuron_inside", "neuron_grad"),
    *("view_zoom_in", "view_zoom_out", "view_fit", "view_follow", "view_expand_all"),
    *("view_collapse_all", "view_collapse"),
)


def _page_words(lang: str, groups: bool) -> dict[str, str]:
    """The page's words; for boxes of any part of a computation (groups), not neurons, the help
    and the caption of a step inside a box speak of boxes."""
    words = catalog(lang)
    page = {k: words[k] for k in _PAGE_WORDS}
    if groups:
        page |= {"neuron_help": words["group_help"], "neuron_inside": words["group_inside"]}
    return page


def _neuron_data(n: GraphNeuron, index: dict[Value, int]) -> dict[str, Any]:
    """A neuron as the page draws it: its Values by index, its output's data, whether it is dead."""
    return {
        "name": n.name,
        "sample": n.sample,
        "members": [index[v] for v in n.members],
        "params": [index[p] for p in n.params],
        "out": index[n.out],
        "activation": n.activation,
        "label": n.label,
        "dead": n.dead,
        "data": fmt4(n.out.data),
    }


def _forward_program(order: list[Value], index: dict[Value, int]) -> list[Any]:
    """Each Value as the page recomputes it to nudge an input: [data, op, inputs, k], in
    topological order (leaves: no inputs). The page knows the ops of OPS; a node made by hand with
    another op cannot be nudged through."""
    return [
        [v.data if v.data == v.data else None, v._op, [index[p] for p in v._prev], v._k]
        for v in order
    ]


def _grad_text(x: Any) -> str:
    """A grad as data-grad holds it: Python's repr of the float ("25.0", "nan", "-inf")."""
    return repr(float(x))


# In a <script>, the HTML parser ends the script at "</script" and starts a comment at "<!--" before
# JavaScript sees a string, and U+2028/U+2029 end lines in old JavaScript: written as \u escapes,
# these are the same JSON to JavaScript and no markup to HTML, whatever a label or a name contains.
_SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def script_json(data: Any) -> str:
    """`data` as JSON that is safe inside an HTML <script> element."""
    return json.dumps(data, ensure_ascii=False).translate(_SCRIPT_ESCAPES)


def page_with_data(name: str, data: Any, package: str = "micrograd.teach") -> str:
    """The page `name` of the package's pages/ folder with `data` in place of its /*DATA*/null.

    The data goes into a JSON block of its own (`<script type="application/json">`, never run),
    and the page's script reads it: the script is then the same text on every page, so a
    Content-Security-Policy can allow it by one hash computed once (the site's pages do)."""
    return page_template(name, package).replace("/*DATA*/null", script_json(data))


def page_template(name: str, package: str = "micrograd.teach") -> str:
    """The page `name` of the package's pages/ folder, as page_with_data fills it in."""
    return resources.files(package).joinpath(f"pages/{name}").read_text(encoding="utf-8")


_DATA_BLOCK = re.compile(r'<script type="application/json" id="mg-data">(.*?)</script>', re.S)


def page_data(page: str) -> Any:
    """The data that page_with_data put into `page`."""
    found = _DATA_BLOCK.search(page)
    if found is None:
        raise ValueError("not a page made by page_with_data: no mg-data block")
    return json.loads(found.group(1))


def _layout(
    order: list[Value],
    root: Value,
    name: dict[Value, str],
    params: set[Value],
    neurons: Sequence[GraphNeuron] = (),
) -> dict[str, Any]:
    """Boxes, op circles and edges with their places in the page: Graphviz's layout when `dot` is
    installed (each neuron's nodes kept together), else columns by depth (leaves left, the output
    right)."""
    index = {v: i for i, v in enumerate(order)}
    nodes: dict[str, dict[str, Any]] = {}
    edges: list[tuple[str, str]] = []
    depth: dict[str, int] = {}
    for i, v in enumerate(order):
        kind = kind_of(v, root, params)
        nodes[f"v{i}"] = {"kind": kind, "name": name[v], "data": fmt4(v.data), "value": i}
        depth[f"v{i}"] = 0
        if v._prev:
            nodes[f"v{i}op"] = {"kind": "op", "name": v._op}
            depth[f"v{i}op"] = 1 + max(depth[f"v{index[p]}"] for p in v._prev)
            depth[f"v{i}"] = depth[f"v{i}op"] + 1
            edges += [(f"v{index[p]}", f"v{i}op") for p in v._prev]
            edges.append((f"v{i}op", f"v{i}"))
    # a parameter goes with its neuron, unless several samples of a batch share it
    shared = Counter(p for n in neurons for p in n.params)
    clusters = [
        [f"v{index[v]}{end}" for v in n.members for end in ("", "op")[: 2 if v._prev else 1]]
        + [f"v{index[p]}" for p in n.params if shared[p] == 1]
        for n in neurons
    ]
    return _placed(nodes, edges, depth, clusters)


def _neuron_layout(
    order: list[Value],
    root: Value,
    name: dict[Value, str],
    params: set[Value],
    neurons: list[GraphNeuron],
) -> dict[str, Any]:
    """The neuron view's places: each neuron one box holding its ops (and the parameters that only
    neurons use), every other Value and op as _layout draws it, one edge per dependence."""
    index = {v: i for i, v in enumerate(order)}
    box = {v: f"n{k}" for k, n in enumerate(neurons) for v in n.members}
    used_outside = {p for v in order if v not in box for p in v._prev}
    inside = {p for n in neurons for p in n.params if p not in used_outside and p is not root}
    nodes: dict[str, dict[str, Any]] = {
        f"n{k}": {"kind": "neuron", "name": n.name, "neuron": k} for k, n in enumerate(neurons)
    }
    edges: dict[tuple[str, str], None] = {}  # each edge once (a neuron's ops share it), in order
    depth: dict[str, int] = dict.fromkeys(nodes, 0)
    for i, v in enumerate(order):
        if v in inside:
            continue
        key = box.get(v, f"v{i}")
        into = key  # where v's inputs go in: its neuron, or its op circle
        if v not in box:
            nodes[key] = {
                "kind": kind_of(v, root, params),
                "name": name[v],
                "data": fmt4(v.data),
                "value": i,
            }
            if v._prev:
                into = f"v{i}op"
                nodes[into] = {"kind": "op", "name": v._op}
        for p in v._prev:
            if p in inside:
                continue
            source = box.get(p, f"v{index[p]}")
            if source != into:
                edges[source, into] = None
                depth[into] = max(depth.get(into, 0), depth[source] + 1)
        depth.setdefault(into, 0)
        if into != key:
            edges[into, key] = None
            depth[key] = depth[into] + 1
    # columns further apart: each neuron of a layer feeds each of the next, and those edges need room
    return _placed(nodes, list(edges), depth, [], ranksep=0.75)


def _placed(
    nodes: dict[str, dict[str, Any]],
    edges: list[tuple[str, str]],
    depth: dict[str, int],
    clusters: list[list[str]],
    ranksep: float = 0.5,
) -> dict[str, Any]:
    """The nodes with their sizes and places, the edges' paths and the picture's size; `ranksep`
    is dot's space between columns, in inches."""
    for node in nodes.values():  # sizes in pixels
        node["w"], node["h"] = (
            (2 * _OP_R, 2 * _OP_R)
            if node["kind"] == "op"
            else (56, 28)
            if node["kind"] == "const"
            else (_NEURON_W, _NEURON_H)
            if node["kind"] == "neuron"
            else (_BOX_W, _BOX_H)
        )
    dot = shutil.which("dot") and len(nodes) <= DOT_LAYOUT_NODES
    paths = _dot_places(nodes, edges, clusters, ranksep) if dot else None
    if paths is None:
        # side by side, a layer's neurons and the next layer's need more room than box, op, box
        wide = any(n["kind"] == "neuron" for n in nodes.values())
        apart = (_NEURON_W + 40, _NEURON_H + 28) if wide else (_BOX_W / 2 + 50, _BOX_H + 24)
        paths = _column_places(nodes, edges, depth, *apart)
    width = max(n["x"] + n["w"] / 2 for n in nodes.values()) + 20
    height = max(n["y"] + n["h"] / 2 for n in nodes.values()) + 20
    return {
        "nodes": [{"id": k, **n} for k, n in nodes.items()],
        "edges": paths,
        "size": [width, height],
    }


def _column_places(
    nodes: dict[str, dict[str, Any]],
    edges: list[tuple[str, str]],
    depth: dict[str, int],
    column_step: float,
    row_step: float,
) -> list[dict[str, Any]]:
    """Without Graphviz: a column per depth, nodes stacked in the order of topo_order, the
    columns and rows `column_step` and `row_step` pixels apart."""
    rows: dict[int, int] = {}
    for key, node in nodes.items():
        column = depth[key]
        row = rows[column] = rows.get(column, -1) + 1
        node["x"] = 20 + _BOX_W / 2 + column * column_step
        node["y"] = 20 + _BOX_H / 2 + row * row_step
    return [{"from": a, "to": b, "d": _line(nodes[a], nodes[b])} for a, b in edges]


def _line(a: dict[str, Any], b: dict[str, Any]) -> str:
    """An SVG path from the right side of `a` to the left side of `b`, gently curved."""
    x1, y1, x2, y2 = a["x"] + a["w"] / 2, a["y"], b["x"] - b["w"] / 2, b["y"]
    mid = (x1 + x2) / 2
    return f"M{x1:.1f},{y1:.1f} C{mid:.1f},{y1:.1f} {mid:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"


def _dot_places(
    nodes: dict[str, dict[str, Any]],
    edges: list[tuple[str, str]],
    clusters: list[list[str]],
    ranksep: float,
) -> list[dict[str, Any]] | None:
    """Graphviz's places for the nodes and splines for the edges (`dot -Tplain`), in pixels, each
    cluster's nodes kept together; None when dot fails, so the page still comes out."""
    lines = [f"digraph {{ rankdir=LR; nodesep=0.25; ranksep={ranksep};"]
    for key, n in nodes.items():
        lines.append(
            f"{key} [shape=box, fixedsize=true, width={n['w'] / 72:.3f}, height={n['h'] / 72:.3f}];"
        )
    for k, keys in enumerate(clusters):
        lines.append(f"subgraph cluster_{k} {{ {'; '.join(keys)}; }}")
    lines += [f"{a} -> {b};" for a, b in edges]
    lines.append("}")
    try:
        done = subprocess.run(
            ["dot", "-Tplain"],
            input="\n".join(lines),
            capture_output=True,
            text=True,
            timeout=5 + len(nodes) / 50,  # a second per 50 boxes, far more than dot needs
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    height = 0.0
    paths = []
    for line in done.stdout.splitlines():
        f = line.split()
        if f[0] == "graph":
            height = float(f[3]) * 72
        elif f[0] == "node":
            nodes[f[1]]["x"], nodes[f[1]]["y"] = (
                float(f[2]) * 72 + 20,
                height - float(f[3]) * 72 + 20,
            )
        elif f[0] == "edge":
            pts = [
                (float(f[4 + 2 * i]) * 72 + 20, height - float(f[5 + 2 * i]) * 72 + 20)
                for i in range(int(f[3]))
            ]
            d = f"M{pts[0][0]:.1f},{pts[0][1]:.1f} C" + " ".join(
                f"{x:.1f},{y:.1f}" for x, y in pts[1:]
            )
            paths.append({"from": f[1], "to": f[2], "d": d})
    return paths
