"""Tracing: a function of Values run once and written down as a tape, the program every back end
replays.

    tape = trace(lambda x0, x1, t: (1 + -t * model([x0, x1])).relu(), model.parameters(), 3)
    print(tape)  # %0 = input 0, %1 = param 0, %2 = * %1 %0, ... return %41

The function runs once on Values made from example numbers. The graph it builds is then written
down as a list of nodes in an order where every node comes after the nodes it reads, so that one
pass from the front computes them all and one pass from the back is the chain rule. A node is a
leaf (a parameter, an input, or a constant: any other Value the function read, frozen at its
number) or an op of micrograd.engine.OPS applied to earlier nodes. The back ends (replay.numpy,
replay.python, replay.torch) read only the tape, never the Values; the passes they share are
here too: how often each node is read, chains of "+" folded into one sum, and which nodes the
chain rule has to reach.

The rule of tracing: the graph is recorded for the sample it was traced with, so Python control
flow that depends on data (`if x > 0`, `max(a, b)`, `if x:`) cannot be captured. While tracing,
comparisons and bool() of a Value raise TraceError (float() of a Value always raises TypeError);
reading `.data` cannot be detected, so do not branch on it. Use ops instead (relu, tanh...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from micrograd import modes
from micrograd.engine import OPS, Value, topo_order
from micrograd.modes import TraceError

LEAVES = ("param", "input", "const")


@dataclass(frozen=True)
class Node:
    """One entry of a tape: a leaf, or an op applied to earlier entries."""

    kind: str  # "param", "input", "const" (the leaves) or "op"
    op: str = ""  # an op's key in engine.OPS ("**k" for every x ** k with a number k)
    args: tuple[int, ...] = ()  # the entries an op reads, in operand order
    k: float | None = None  # the exponent of "**k", which its rule takes after x
    index: int = 0  # a parameter's or an input's position
    value: float = 0.0  # a constant's number, as traced
    fused: tuple[str, tuple[int, ...]] | None = None  # micrograd.losses.fuse: (name, its inputs)


@dataclass
class Tape:
    """A traced function: its nodes in order (each reads only earlier ones) and its outputs."""

    nodes: list[Node]
    outputs: list[int]  # the entries the function returned; the first is the one differentiated
    n_params: int
    n_inputs: int

    def __str__(self) -> str:
        lines = []
        for i, n in enumerate(self.nodes):
            if n.kind == "op":
                k = "" if n.k is None else f" k={n.k!r}"
                said = f"{n.op} {' '.join(f'%{a}' for a in n.args)}{k}"
            else:
                said = f"{n.kind} {n.value!r}" if n.kind == "const" else f"{n.kind} {n.index}"
            lines.append(f"%{i} = {said}")
        return "\n".join([*lines, f"return {', '.join(f'%{o}' for o in self.outputs)}"])


def apply(node: Node, m: Any, inputs: Sequence[Any]) -> tuple[Any, tuple[Any, ...]]:
    """Run the rule of an op node on `inputs` in the namespace `m` (micrograd.maths): the output
    and the local derivatives, as engine._chain_rule_step runs a Value's under create_graph."""
    rule = OPS[node.op]
    return rule(m, *inputs) if node.k is None else rule(m, *inputs, node.k)


def trace(
    fn: Callable[..., Value | Sequence[Value]],
    params: Sequence[Value],
    n_inputs: int,
    example: Sequence[float] | None = None,
) -> Tape:
    """Run `fn(*inputs)` once on n_inputs Values and write down the graph it built.

    `params` are the leaf Values fn reads whose gradients the back ends compute (such as
    model.parameters()); any other Value fn reads is frozen as a constant. fn returns a Value or
    a list or tuple of Values. `example` gives the inputs' numbers for the trace (any will do for
    a function without branches)."""
    if example is not None and len(example) != n_inputs:
        raise ValueError(f"example has {len(example)} numbers, expected n_inputs={n_inputs}")
    inputs = [Value(x) for x in (example or [0.5 + 0.25 * i for i in range(n_inputs)])]
    with modes.tracing():  # records the graph even inside no_grad(); comparisons raise
        out = fn(*inputs)
    outputs = outputs_of(out)
    if not outputs or not all(isinstance(o, Value) for o in outputs):
        raise TraceError(f"the traced function must return a Value or a list of them, got {out!r}")
    return record(outputs, params, inputs)


def outputs_of(out: Any) -> list[Any]:
    """What a traced function returned, as a list (one Value, or a list or tuple of them)."""
    return list(out) if isinstance(out, (list, tuple)) else [out]


def record(outputs: Sequence[Value], params: Sequence[Value], inputs: Sequence[Value]) -> Tape:
    """The tape of the graph that computed `outputs` from `params` and `inputs` (Values); every
    other leaf it reads is a constant."""
    for i, p in enumerate(params):
        if not isinstance(p, Value) or p._a is not None:
            raise ValueError(f"params[{i}] is not a leaf Value: {p!r}")
    # every Value an output needs, in the order of backward()'s walk from each output in turn:
    # one walk from a Value made by hand on the outputs (itself left out), not one per output,
    # which would walk the shared graph again for each (a GPT's logits: 216 walks of 80,000)
    if len(outputs) == 1:
        order = topo_order(outputs[0])
    else:
        order = topo_order(Value(0.0, tuple(outputs)))[:-1]
    param_of = {id(p): i for i, p in reversed(list(enumerate(params)))}  # the first of repeats
    input_of = {id(x): i for i, x in enumerate(inputs)}
    slot: dict[int, int] = {}
    nodes: list[Node] = []

    def add(v: Value) -> None:
        slot[id(v)] = len(nodes)
        if id(v) in param_of:
            nodes.append(Node("param", index=param_of[id(v)]))
        elif id(v) in input_of:
            nodes.append(Node("input", index=input_of[id(v)]))
        elif v._a is None:
            nodes.append(Node("const", value=v.data))
        else:
            nodes.append(_op_node(v, slot))

    for v in order:
        for x in _fused_inputs(v):  # a fused op's weights may be numbers, not in the graph
            if id(x) not in slot and x._a is None:
                add(x)
        add(v)
    return Tape(nodes, [slot[id(o)] for o in outputs], len(params), len(inputs))


def _fused_inputs(v: Value) -> tuple[Value, ...]:
    """The inputs of the fused op whose result v is (micrograd.losses.fuse), or ()."""
    mark = v.__dict__.get("_fused")
    return () if mark is None else tuple(mark[1])


def _op_node(v: Value, slot: dict[int, int]) -> Node:
    """The node of an op's output, or TraceError where its op has no rule to replay."""
    if v._user_backward is not None:
        raise TraceError(
            f"op {v._op!r} was made by hand, Value(data, inputs, op), and its _backward closure "
            "cannot be replayed; build it from micrograd's ops, or add its rule to "
            "micrograd.engine.OPS, to compile it"
        )
    op = "**k" if v._k is not None else v._op
    if op not in OPS:
        raise TraceError(f"op {v._op!r} has no rule in micrograd.engine.OPS")
    mark = v.__dict__.get("_fused")  # micrograd.losses.fuse
    fused = None if mark is None else (mark[0], tuple(slot[id(x)] for x in _fused_inputs(v)))
    return Node("op", op, tuple(slot[id(x)] for x in v._prev), v._k, fused=fused)


# ---------------------------------------------------------------------------- the shared passes
def count_uses(
    tape: Tape, nodes: Sequence[int], reads: Callable[[int], Sequence[int]]
) -> list[int]:
    """How many times each entry is read by `nodes` (x * x reads x twice), reading through
    `reads(i)`: a node's args, or what a back end reads instead."""
    uses = [0] * len(tape.nodes)
    for i in nodes:
        for a in reads(i):
            uses[a] += 1
    return uses


def is_sum(node: Node) -> bool:
    """Whether a node is a "+" (not one that a loss marked as a fused op)."""
    return node.kind == "op" and node.op == "+" and node.fused is None


def fold_sums(
    tape: Tape, nodes: Sequence[int], reads: Callable[[int], Sequence[int]]
) -> tuple[list[int], dict[int, list[int]]]:
    """Fold chains of "+" (like b + w0*x0 + w1*x1 + ...) among `nodes` into one sum per chain.

    A "+" read only by another "+", as its left operand, is absorbed into it (unless it is an
    output). Returns the nodes that keep a place of their own, and for each sum that heads a chain
    its terms, in the order they were added: ((t0 + t1) + t2) + ... is the sum of [t0, t1, t2...]."""
    uses = count_uses(tape, nodes, reads)
    outputs = set(tape.outputs)
    absorbed = {
        left
        for i in nodes
        if is_sum(tape.nodes[i])
        for left in tape.nodes[i].args[:1]
        if is_sum(tape.nodes[left]) and uses[left] == 1 and left not in outputs
    }
    terms: dict[int, list[int]] = {}
    for i in nodes:
        if is_sum(tape.nodes[i]) and i not in absorbed:
            flat: list[int] = []
            head = i
            while head == i or head in absorbed:  # down the left spine, the last term first
                left, right = tape.nodes[head].args
                flat.append(right)
                head = left
            flat.append(head)
            terms[i] = flat[::-1]
    return [i for i in nodes if i not in absorbed], terms


def needs_grad(tape: Tape, wrt: Sequence[str] = ("param",)) -> list[bool]:
    """For each entry, whether the chain rule has to reach it: it depends on a leaf of a kind in
    `wrt` ("param", "input"), and the first output, the one differentiated, depends on it."""
    depends = [False] * len(tape.nodes)
    for i, n in enumerate(tape.nodes):
        depends[i] = n.kind in wrt or any(depends[a] for a in n.args)
    under = [False] * len(tape.nodes)  # what the first output depends on
    under[tape.outputs[0]] = True
    for i in reversed(range(len(tape.nodes))):
        if under[i]:
            for a in tape.nodes[i].args:
                under[a] = True
    return [d and u for d, u in zip(depends, under)]
