"""The python back end's code generator: a tape written out as one Python function over floats.

Forward, each node is its op's rule with the rule's body written in (inline.py), and a sum of
products (a neuron) is one expression where it is read once; backward, each grad's shares are added
in one sum, in backward()'s order, so the numbers are the eager engine's bit for bit.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from micrograd.engine import OPS
from micrograd.maths import FloatMath
from micrograd.replay.python.inline import Inlined, inline_rule
from micrograd.replay.trace import Node, Tape, count_uses, fold_sums, is_sum, needs_grad

FOLD_TERMS = 64  # the most names in one expression: Python's parser recurses on long ones
# what a generated function computes: the values only, the parameters' grads, or the inputs' too
WRT = {"values": (), "params": ("param",), "inputs": ("param", "input")}


def _times(local: Any, g: float) -> Any:
    """local * g for an op run through its rule, with backward()'s one exception: an int 0 local
    (a dead unit's slope) passes nothing back, even from an inf or nan upstream."""
    if local == 0 and type(local) is int:
        return 0.0
    return local * g


class _Graph:
    """The tape as the generator reads it: each node's name in the source, which nodes need a
    grad, how often each is read and by whom."""

    def __init__(self, tape: Tape, wrt: Sequence[str]) -> None:
        self.tape = tape
        self.root = tape.outputs[0]
        self.outputs = set(tape.outputs)
        # names: parameters p<i>, inputs x<i>, numbers the function read c<i>, op nodes v<j>
        self.names: list[str] = []
        self.constants: list[float] = []
        for j, node in enumerate(tape.nodes):
            if node.kind == "param":
                self.names.append(f"p{node.index}")
            elif node.kind == "input":
                self.names.append(f"x{node.index}")
            elif node.kind == "const":  # a Constant, or a Value not in params: frozen
                self.names.append(self.constant(node.value))
            else:
                self.names.append(f"v{j}")
        n = len(tape.nodes)
        self.needs = needs_grad(tape, wrt) if wrt else [False] * n
        self.uses = count_uses(tape, range(n), self.args)
        self.reader: list[int | None] = [
            None
        ] * n  # a node's last reader (its only one, if used once)
        for j, node in enumerate(tape.nodes):
            for a in node.args:
                self.reader[a] = j

    def args(self, j: int) -> tuple[int, ...]:
        return self.tape.nodes[j].args

    def constant(self, x: float) -> str:
        """The name of a new constant of the program (kept as a float, not written as text)."""
        self.constants.append(x)
        return f"c{len(self.constants) - 1}"

    def through_sum(self, j: int) -> bool:
        """Whether node j's one reader passes its grad on as it is (a "+": its local derivatives
        are the int 1): j's grad then IS that reader's grad (backward() adds it to a 0) and needs
        no variable of its own."""
        r = self.reader[j]
        return (
            self.tape.nodes[j].kind == "op"
            and j != self.root
            and self.uses[j] == 1
            and r is not None
            and _passes_on(self.tape.nodes[r])
        )


def _inlined(node: Node, inputs: Sequence[str], prefix: str = "r_") -> Inlined | None:
    """An op node's rule from OPS written out on the expressions `inputs` (inline_rule), or None
    where it can't be: the op is then called through its rule."""
    template = _template(OPS[node.op], len(node.args), node.k is not None)
    if template is None:
        return None
    given = {f"__in{i}__": x if x.isidentifier() else f"({x})" for i, x in enumerate(inputs)}
    given["__r__"] = prefix
    if node.k is not None:
        given["__k__"] = _literal(node.k)

    def fill(text: str) -> str:
        return _PLACEHOLDER.sub(lambda m: given[m[0]], text)

    return Inlined(
        [fill(t) for t in template.statements],
        fill(template.out),
        [fill(t) for t in template.locals],
        template.functions,
    )


_PLACEHOLDER = re.compile(r"__in\d__|__k__|__r__")


def _literal(k: float) -> str:
    """The exponent k as source that evaluates to k: in parentheses (`-2.0 ** 2` would be -4.0),
    and inf and nan, which have no literal, as float('inf')."""
    return f"({k!r})" if math.isfinite(k) else f"float('{k!r}')"


@functools.cache
def _template(rule: Callable[..., Any], n_inputs: int, constant: bool) -> Inlined | None:
    """A rule written out once per rule on placeholders for its inputs (__in0__...), its
    constant (__k__) and the prefix of its locals (__r__): a graph's nodes of one op then only
    fill them in (a parenthesised input keeps the expression's own order of operations)."""
    names = [f"__in{i}__" for i in range(n_inputs)] + (["__k__"] if constant else [])
    return inline_rule(rule, names, n_inputs, FloatMath, prefix="__r__")


def _passes_on(node: Node) -> bool:
    """Whether an op gives each input its grad as it is: every local derivative is the int 1."""
    shape = _shape(node.op, len(node.args), node.k) if node.kind == "op" else None
    return shape is not None and all(d == "1" for d in shape.locals)


def _one_expression(node: Node) -> bool:
    """Whether an op is one expression with nothing to compute for backward (+ and *): it can be
    written inside its reader's expression."""
    shape = _shape(node.op, len(node.args), node.k)
    return (
        shape is not None
        and not shape.statements
        and all(d == "1" or d.isidentifier() for d in shape.locals)
    )


@functools.cache
def _shape(op: str, n_args: int, k: float | None) -> Inlined | None:
    """An op's rule written out on the inputs a and b: what the passes above ask of every node
    of that op (asked once per op, not once per node of a graph of thousands)."""
    return _inlined(Node("op", op, tuple(range(n_args)), k), ["a", "b"][:n_args])


def generate(tape: Tape, mode: str, fold: bool) -> tuple[str, tuple[float, ...], dict[str, Any]]:
    """The source of `run(P, C, rows[, seeds])` for `mode`, its constants C and its globals."""
    graph = _Graph(tape, WRT[mode])
    namespace: dict[str, Any] = {"M": FloatMath, "_times": _times}
    forward, locals_, expr = _forward(graph, fold, namespace)
    outputs = tape.outputs
    result = expr(outputs[0]) if len(outputs) == 1 else f"({', '.join(map(expr, outputs))},)"
    n_params, n_inputs = tape.n_params, tape.n_inputs
    xs = "".join(f"x{i}, " for i in range(n_inputs))
    lines = [f"def run(P, C, rows{'' if mode == 'values' else ', seeds'}):"]
    if n_params:  # the parameters and the constants in locals, once per call
        lines.append(f"    ({''.join(f'p{i}, ' for i in range(n_params))}) = P")
    if graph.constants:
        lines.append(f"    ({''.join(f'c{i}, ' for i in range(len(graph.constants)))}) = C")
    lines += ["    values = []", "    append = values.append"]
    if mode == "values":
        lines.append(f"    for ({xs}) in rows:" if n_inputs else "    for _ in rows:")
        lines += [f"        {s}" for s in forward]
        lines += [f"        append({result})", "    return values", ""]
        return "\n".join(lines), tuple(graph.constants), namespace
    lines += [f"    G{i} = 0.0" for i in range(n_params)]  # each one's sum over the rows
    if mode == "inputs":
        lines += ["    dx = []", "    append_dx = dx.append"]
    row = f"({xs}), w" if n_inputs else "_, w"
    lines.append(f"    for {row} in zip(rows, seeds):")
    lines += [f"        {s}" for s in forward]
    lines.append(f"        append({result})")
    backward, reached = _backward(graph, locals_, fold)
    lines += [f"        {s}" for s in backward]
    grads = f"[{', '.join(f'G{i}' for i in range(n_params))}]"
    if mode == "inputs":  # an input that no share reached has the grad 0
        shares = ", ".join(reached.get(i, "0.0") for i in range(n_inputs))
        lines.append(f"        append_dx([{shares}])")
        grads += ", dx"
    lines += [f"    return values, {grads}", ""]
    return "\n".join(lines), tuple(graph.constants), namespace


def _folding(graph: _Graph) -> tuple[set[int], dict[int, list[int]], set[int]]:
    """What folding writes inside other expressions: the "+" nodes absorbed into a chain of "+"
    (replay.trace.fold_sums: a chain is written as one expression of its terms, in their order
    of addition), each chain's terms, and the terms written inside their chain: a "*" or a chain
    of "+" read only there, so that a neuron's b + w1*x1 + w2*x2 is one statement (fewer stores
    and loads, the same arithmetic). Nothing, where the rule of "+" cannot be written out."""
    tape = graph.tape
    sums = [node for node in tape.nodes if is_sum(node)]
    if not all(_passes_on(node) and _one_expression(node) for node in sums):
        return set(), {}, set()
    kept, terms = fold_sums(tape, range(len(tape.nodes)), graph.args)
    absorbed = set(range(len(tape.nodes))) - set(kept)
    inline: set[int] = set()
    names_in: dict[int, int] = {}  # how many names a term written in its chain holds
    for j in kept:
        node, r = tape.nodes[j], graph.reader[j]
        if (
            node.kind != "op"
            or j in graph.outputs
            or graph.uses[j] != 1
            or r is None
            or not is_sum(tape.nodes[r])
        ):
            continue
        if j in terms:
            names_in[j] = sum(names_in[t] if t in inline else 1 for t in terms[j])
        elif _one_expression(node):
            names_in[j] = len(node.args)
        else:
            continue
        if names_in[j] < FOLD_TERMS:
            inline.add(j)
    return absorbed, terms, inline


def _forward(
    graph: _Graph, fold: bool, namespace: dict[str, Any]
) -> tuple[list[str], dict[tuple[int, int], tuple[str, str]], Callable[[int], str]]:
    """The forward statements; how backward gets each (node, input index)'s local derivative:
    ("one", ""), ("step", the condition of a slope of 1 or 0), ("times", a name or an expression)
    or ("rule", a local a rule gave); and each node's number in the source (its name, or for a
    node written inside its reader, its expression)."""
    tape = graph.tape
    absorbed, terms, inline = _folding(graph) if fold else (set(), {}, set())
    exprs: dict[int, str] = {}

    def expr(j: int) -> str:
        return exprs.get(j, graph.names[j])

    statements: list[str] = []
    locals_: dict[tuple[int, int], tuple[str, str]] = {}
    for j, node in enumerate(tape.nodes):
        if node.kind != "op":
            continue
        out = graph.names[j]
        wanted = [graph.needs[j] and graph.needs[a] for a in node.args]
        inlined = _inlined(node, [expr(a) for a in node.args], prefix=f"r{j}_")
        if inlined is not None:  # the rule of OPS written out: its statements, output, locals
            namespace.update(inlined.functions)
            if j in terms:  # a chain of "+": its terms added in order, cut every FOLD_TERMS names
                chain, names = expr(terms[j][0]), _names(expr(terms[j][0]))
                for t in terms[j][1:]:
                    if names + _names(expr(t)) > FOLD_TERMS and j not in inline:
                        statements.append(f"{out} = {chain}")
                        chain, names = out, 1
                    chain, names = _added(node, chain, expr(t)), names + _names(expr(t))
                if j in inline:
                    exprs[j] = chain
                else:
                    statements.append(f"{out} = {chain}")
            elif j in inline:
                exprs[j] = inlined.out
            elif j not in absorbed:
                statements += inlined.statements
                statements.append(f"{out} = {inlined.out}")
            for k, local in enumerate(inlined.locals):
                if wanted[k]:
                    locals_[j, k] = _local(local, f"d{j}_{k}", statements)
        else:  # through the rule in OPS, as the eager engine runs it
            rule = "R_" + {"**k": "pow_k", "**": "pow"}.get(node.op, node.op)
            if not rule.isidentifier():  # an op named with other signs: its place in OPS
                rule = f"R_{list(OPS).index(node.op)}"
            namespace[rule] = OPS[node.op]
            call = [expr(a) for a in node.args]
            if node.k is not None:
                call.append(graph.constant(node.k))
            targets = [f"d{j}_{k}" if wanted[k] else "_" for k in range(len(node.args))]
            for k, target in enumerate(targets):
                if wanted[k]:
                    locals_[j, k] = ("rule", target)
            statements.append(f"{out}, ({', '.join(targets)},) = {rule}(M, {', '.join(call)})")
    return statements, locals_, expr


def _names(text: str) -> int:
    """How many names an expression holds."""
    return len(re.findall(r"[A-Za-z_]\w*", text))


def _added(plus: Node, a: str, b: str) -> str:
    """a + b, written by the rule of "+" (a chain is folded only where it is one expression)."""
    inlined = _inlined(plus, [a, b])
    assert inlined is not None
    return inlined.out


def _local(text: str, name: str, statements: list[str]) -> tuple[str, str]:
    """How backward reads a local derivative written out as `text`: the int 1 passes the grad on
    as it is; `1 if c else 0` (relu's slope) is a condition, where a dead unit passes nothing
    even from an inf or nan upstream; a name is read where it is; any other expression is
    computed now into `name`."""
    if text == "1":  # the two usual cases, known without parsing: "+" and "*"
        return ("one", "")
    if text.isidentifier():
        return ("times", text)
    tree = ast.parse(text, mode="eval").body
    if isinstance(tree, ast.Constant) and tree.value == 1 and type(tree.value) is int:
        return ("one", "")
    if isinstance(tree, ast.IfExp):
        ends = [e.value if isinstance(e, ast.Constant) else None for e in (tree.body, tree.orelse)]
        if ends == [1, 0] and all(type(x) is int for x in ends):
            return ("step", ast.unparse(tree.test))
    if isinstance(tree, ast.Name):
        return ("times", text)
    statements.append(f"{name} = {text}")
    return ("times", name)


def _backward(
    graph: _Graph, locals_: dict[tuple[int, int], tuple[str, str]], fold: bool
) -> tuple[list[str], dict[int, str]]:
    """The chain rule as statements, outputs first, in backward()'s order: each input's grad +=
    its share of the node's grad. A parameter's share goes straight onto its sum over the rows,
    G<i>, as backward() adds each share onto what a leaf held. Also the name of each input's
    grad (by the input's index), for those the chain rule reached.

    Folded, a grad's shares are written as one sum where the last of them is known, in the
    order backward() adds them (G = G + s1 + s2 is ((G + s1) + s2), as its `+=` one after
    another): the same arithmetic with fewer stores and loads. Each share reads only grads and
    locals that are final when it is made, so it may be computed later."""
    tape = graph.tape
    adds: list[tuple[str, str, bool]] = []  # (grad, share, whether it is the grad's first)
    grad: dict[int, str] = {graph.root: "w"}  # the row's weight seeds the root
    started: list[int] = []
    for j in reversed(range(len(tape.nodes))):
        node = tape.nodes[j]
        if node.kind != "op" or not graph.needs[j]:
            continue
        g = grad[j]
        for k, a in enumerate(node.args):
            if not graph.needs[a]:
                continue
            share = _share(locals_[j, k], g)
            if tape.nodes[a].kind == "param":
                adds.append((f"G{tape.nodes[a].index}", share, False))
            elif graph.through_sum(a):
                grad[a] = g  # its only reader is this "+": the same grad
            elif a in grad:
                adds.append((grad[a], share, False))
            else:  # the first share: backward() adds it to a 0, here it is assigned
                started.append(a)
                grad[a] = f"g{graph.names[a]}"
                adds.append((grad[a], share, True))
    root = tape.nodes[graph.root]
    if root.kind == "param":  # the function returns a parameter as it is
        adds.append((f"G{root.index}", "w", False))
    reached = {tape.nodes[a].index: grad[a] for a in started if tape.nodes[a].kind == "input"}
    if root.kind == "input":
        reached[root.index] = "w"
    if not fold:
        return [f"{t} {'=' if first else '+='} {share}" for t, share, first in adds], reached
    last = {target: i for i, (target, _, _) in enumerate(adds)}
    pending: dict[str, tuple[list[str], int]] = {}  # each grad's shares not written yet, names
    statements = []
    for i, (target, share, first) in enumerate(adds):
        terms, names = pending.get(target) or (([] if first else [target]), 0 if first else 1)
        terms.append(share)
        names += _names(share)
        if last[target] == i or names >= FOLD_TERMS:  # Python's parser recurses on long sums
            statements.append(f"{target} = {' + '.join(terms)}")
            terms, names = [target], 1
        pending[target] = terms, names
    return statements, reached


def _share(local: tuple[str, str], g: str) -> str:
    """What an input gets from its reader's grad g: local * g, as backward() computes it."""
    kind, text = local
    if kind == "one":  # "+": backward() adds g itself
        return g
    if kind == "step":  # relu's slope, an int 1 or 0: a dead unit passes nothing, inf or nan too
        return f"({g} if {text} else 0.0)"
    if kind == "rule":  # a local a rule gave: an int 0 may be a dead unit's slope, as relu's
        return f"_times({text}, {g})"
    return f"{text} * {g}"
