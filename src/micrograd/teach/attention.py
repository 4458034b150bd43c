"""The backward stepper through one attention head of micrograd.gpt's GPT.

attention_stepper() builds the stepper (micrograd.teach.stepper) of a tiny GPT's head, with each
part of the head drawn as one box (micrograd.teach.neurons.region) and every node named by its role
in the head: the query q, each position's key k and value v, the scores s = q·k / sqrt(d), the
weights a = softmax(s) and the output o.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from micrograd.data import CharTokenizer, names
from micrograd.engine import Value, topo_order
from micrograd.gpt import GPT, HeadReading
from micrograd.teach.neurons import region
from micrograd.teach.stepper import stepper
from micrograd.text import language
from micrograd.text import text as say


def attention_stepper(lang: str | None = None, name: str = "al") -> Any:
    """The backward stepper (micrograd.viz.stepper) through one attention head: a tiny GPT (block
    3, n_embd 4, one head, microgpt's initialisation from seed 0) reads BOS and the first
    letters of `name`, and y = the sum of the head's output at the last position is
    differentiated. Each part of the head is one box, expanded to its ops by a click: each
    position's key and value (and the last one's query), q·k / sqrt(d), the softmax, and the
    weighted sum of the values; explain() names the steps inside each."""
    lang = language(lang)
    tokenizer = CharTokenizer(names())
    random.seed(0)
    model = GPT(tokenizer.vocab_size, block_size=3, n_layer=1, n_embd=4, n_head=1)
    tokens = tokenizer.encode(name)[: model.block_size]
    cache = model.new_cache()
    readings: list[HeadReading] = []  # what the head computed, token by token
    for pos, token in enumerate(tokens):
        embedding = model.embed(token, pos)
        for j, e in enumerate(embedding):
            e.label = f"e{pos}.{j}"
        model.read(embedding, cache, readings)
    head = readings[-1]  # what the head computed for the last token
    _label_head(readings)
    y = sum(head.out, Value(0.0))
    y.label = "y"
    order = topo_order(y)
    _label_rmsnorms(order)
    params = model.parameters()
    last = len(tokens) - 1

    def box(key: str, inputs: Sequence[Value], outputs: Sequence[Value], **words: Any) -> Any:
        title = say(f"gpt.group_{key}", lang, **words)
        return region(title, say(f"gpt.group_{key}_ops", lang), inputs, outputs, order, params)

    parts = [
        box("qk", [*head.q, *(x for k in head.keys for x in k)], head.scores),
        box("softmax", head.scores, head.weights),
        box("sum", [*head.weights, *(x for v in head.values for x in v)], head.out),
    ]
    for pos in range(last + 1):  # each position's projections, from its embedding on
        outputs = [*head.keys[pos], *head.values[pos], *(head.q if pos == last else [])]
        parts.append(box("kv" if pos < last else "qkv", [], outputs, pos=pos))
    taken: set[Value] = set()
    groups = []
    for part in parts:  # each node in one box: the first that reaches it
        members = tuple(v for v in part.members if v not in taken)
        taken.update(members)
        groups.append(replace(part, members=members))
    sep = "、" if lang == "zh" else ", "
    read = sep.join("BOS" if t == tokenizer.bos else tokenizer.decode([t]) for t in tokens)
    intro = say("gpt.stepper_intro", lang, tokens=read, last=len(head.out) - 1)
    return stepper(y, model, lang, max_nodes=None, groups=groups, intro=intro)


def _label_head(readings: Sequence[HeadReading]) -> None:
    """Name what one head computed by its role, so that the stepper shows q.0, k1.2, s1, a1 and
    o.0 (and formulas of them, such as (q.0*k1.0)) instead of a node's number: the query q, each
    position's key k and value v, the scores s = q·k / sqrt(d), the weights a = softmax(s), the
    output o = sum_t a_t v_t; and inside each projection, as the stepper names a neuron's
    parts, the products `k1.2:w.0·x`, the partial sums `k1.2:w·x[:2]` and the input x1.0 they
    read (and the partial sums of q·k and of o: `s1:q·k[:2]`, `o.0:a·v[:2]`). `readings` are the
    head's, token by token (the last holds every position's k and v)."""
    head = readings[-1]
    for j, v in enumerate(head.q):
        _label_dot(v, f"q.{j}", len(readings) - 1)
    for pos, (key, value) in enumerate(zip(head.keys, head.values)):
        for j, (k, v) in enumerate(zip(key, value)):
            _label_dot(k, f"k{pos}.{j}", pos)
            _label_dot(v, f"v{pos}.{j}", pos)
    for pos, (s, a) in enumerate(zip(head.scores, head.weights)):
        s.label, a.label = f"s{pos}", f"a{pos}"
        dot = s._prev[0]  # s = q·k / sqrt(d)
        dot.label = f"s{pos}:q·k"
        _label_partial_sums(dot, dot.label)
    for j, o in enumerate(head.out):
        o.label = f"o.{j}"
        _label_partial_sums(o, f"o.{j}:a·v")


def _label_rmsnorms(order: Sequence[Value]) -> None:
    """Name rmsnorm's parts wherever it ran on named Values (e2.0 ... of an embedding):
    scale(e2) = (ms(e2) + ε) ** -0.5, ms(e2) = Σe2² / n the mean of the squares, e2.0² each square,
    and the outputs n2.0 = e2.0 · scale(e2) where they have no name yet (`order`: inputs first, so
    an rmsnorm of those outputs is named after them)."""
    for scale in order:
        if scale._op != "**-0.5" or scale.label:
            continue
        shifted = scale._prev[0]
        ms = shifted._prev[0] if shifted._op == "+" else None
        if ms is None or ms._op != "/":
            continue
        squares = _label_partial_sums(ms._prev[0], "")
        names = [sq._prev[0].label for sq in squares]
        if not squares or not all(names):
            continue
        base = names[0].split(".")[0]
        ms._prev[0].label = f"Σ{base}²"
        _label_partial_sums(ms._prev[0], f"Σ{base}²")
        for sq, name in zip(squares, names):
            sq.label = f"{name}²"
        ms.label, shifted.label, scale.label = f"ms({base})", f"ms({base})+ε", f"scale({base})"
        for out in order:
            if out._op == "*" and not out.label and out._prev[1] is scale:
                out.label = "n" + out._prev[0].label[1:]


def _label_dot(out: Value, name: str, pos: int) -> None:
    """Label a Linear's output `out` and the nodes of its sum: products, partial sums, and the
    inputs x it reads at position pos."""
    out.label = name
    for i, product in enumerate(_label_partial_sums(out, f"{name}:w·x")):
        product.label = f"{name}:w.{i}·x"
        x = product._prev[1]
        x.label = x.label or f"x{pos}.{i}"


def _label_partial_sums(total: Value, name: str) -> list[Value]:
    """Label the sums on the way to `total` = ((0 + t0) + t1) + ..., a sum of products from a zero
    Value, as `name[:2]` (t0 + t1) and so on; return the products t0, t1, ..."""
    chain, node = [], total
    while node._op == "+" and node._prev[1]._op == "*":
        chain.append(node)
        node = node._prev[0]
    chain.reverse()
    for n, part in enumerate(chain[:-1], 1):
        part.label = f"{name}[:{n}]"
    return [part._prev[1] for part in chain]
