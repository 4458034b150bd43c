"""A traced function replayed in pure Python on lists of floats: fast training without numpy.

    prog = compile_flat(lambda x0, x1, t: (1 + -t * model([x0, x1])).relu(), model.parameters(), 3)
    losses, grads = prog.value_and_grad(rows, weights=1 / len(rows))   # rows: [[x0, x1, t], ...]

The eager engine builds a graph of Value objects for every sample on every step and walks it
backwards: most of a step goes to making, ordering and freeing those objects, not to arithmetic.
Here the function is traced once on Values (as micrograd.fast does), and its graph is written out
as Python source: one function with a loop over the rows whose body is the graph's arithmetic,
forward and then the chain rule in reverse, on plain local variables. It is compiled once; a call
then does only float arithmetic (about 30x faster than eager on the benchmark's workload, in CPython
and in Pyodide: benchmarks/RESULTS.md). Only the standard library: the browser site (Pyodide) and
installs without numpy can use it. `FlatProgram.source` shows the code.

The numbers are the eager engine's, bit for bit (but for the sign of zeros): each row runs the
eager engine's ops, with the same rules from engine.OPS, in the same order, and each row's grads
are added to the parameters' sums row after row, as running fn eagerly on each row and calling
`(weight * out).backward()` after each would add them. (One backward() over the whole batch's graph
adds the rows in another order: ~1e-16 relative.)

The rule of tracing is micrograd.fast's: the graph is recorded for the sample it was traced with, so
Python control flow that depends on data (`if x > 0`, `max(a, b)`) cannot be captured, and
comparisons of Values raise TraceError while tracing. Use ops (relu, tanh...) instead.
"""

from __future__ import annotations

import ast
import functools
import linecache
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, Union

from micrograd import modes
from micrograd.engine import OPS, Value, topo_order
from micrograd.maths import FloatMath
from micrograd.modes import TraceError
from micrograd.specialize import Inlined, inline_rule, release_trees

Weights = Union[float, Sequence[float], None]

FOLD_TERMS = 64  # the most names in one folded sum: Python's parser recurses on long expressions


def _times(local: Any, g: float) -> Any:
    """local * g for an op run through its rule, with backward()'s one exception: an int 0 local
    (a dead unit's slope) passes nothing back, even from an inf or nan upstream."""
    if local == 0 and type(local) is int:
        return 0.0
    return local * g


class FlatProgram:
    """A traced function as straight-line Python over floats, replayed on lists of rows."""

    def __init__(
        self,
        fn: Callable[..., Any],
        params: Sequence[Value],
        inputs: Sequence[Value],
        outputs: Sequence[Value],
        fold: bool = True,
    ) -> None:
        self.fn = fn
        self.params = list(params)
        self.n_inputs = len(inputs)
        self.n_outputs = len(outputs)
        self.source, self._constants, namespace = _generate(self.params, inputs, outputs, fold)
        # in linecache, a traceback through the program shows its lines
        filename = f"<micrograd.flat program {id(self):x}>"
        lines = self.source.splitlines(True)
        linecache.cache[filename] = (len(self.source), None, lines, filename)
        exec(compile(self.source, filename, "exec"), namespace)
        self._run: Callable[..., tuple[list[Any], list[float]]] = namespace["run"]

    def value_and_grad(
        self, rows: Sequence[Sequence[float]], weights: Weights = None, params: Any = None
    ) -> tuple[list[Any], list[float]]:
        """Each row's value, and the gradient of sum_b weights[b] * f(row b) w.r.t. the parameters.

        `weights`: one number for every row (1 / len(rows) for a mean) or one per row; 1 by
        default. `params` (a list of floats) replaces the numbers of the parameters' Values. A
        function traced with several outputs gives a tuple of them per row; the first is the one
        differentiated.
        """
        table = [tuple(map(float, r)) for r in rows]  # floats, as Value() makes them
        for i, r in enumerate(table):
            if len(r) != self.n_inputs:
                raise ValueError(f"row {i} has {len(r)} numbers, expected {self.n_inputs}")
        if weights is None or isinstance(weights, (int, float)):
            seeds = [1.0 if weights is None else float(weights)] * len(table)
        else:
            seeds = [float(w) for w in weights]
            if len(seeds) != len(table):
                raise ValueError(f"got {len(seeds)} weights for {len(table)} rows")
        numbers = [p.data for p in self.params] if params is None else [float(p) for p in params]
        if len(numbers) != len(self.params):
            raise ValueError(f"params has {len(numbers)} numbers, expected {len(self.params)}")
        try:
            return self._run(numbers, self._constants, table, seeds)
        except (ArithmeticError, ValueError):
            self._explain(table, numbers)  # raises the eager engine's error, if it gives one
            raise

    def _explain(self, rows: list[tuple[float, ...]], numbers: list[float]) -> None:
        """Run the function eagerly on each row in turn, with the same parameters, and raise the
        first error, which names the op and its numbers, with the row's index."""
        held = [p.data for p in self.params]
        try:
            for p, x in zip(self.params, numbers):
                p.data = x
            for i, row in enumerate(rows):
                try:
                    self.fn(*map(Value, row))
                except (ArithmeticError, ValueError) as e:
                    raise type(e)(f"row {i}: {e}") from None
        finally:
            for p, x in zip(self.params, held):
                p.data = x


def compile_flat(
    fn: Callable[..., Value | Sequence[Value]],
    params: Sequence[Value],
    n_inputs: int,
    example: Sequence[float] | None = None,
    fold: bool = True,
) -> FlatProgram:
    """Trace `fn(*inputs) -> Value` once and return it compiled, for lists of rows of n_inputs.

    `params` are the leaf Values fn reads that value_and_grad differentiates (model.parameters());
    any other Value fn reads is frozen as a constant. fn may return several Values (a loss and a
    logit): each row then gives all of them, and the first is differentiated. `example` gives the
    inputs' numbers for the trace. `fold=False` gives each node a statement of its own, where
    folding writes a sum of products (a neuron) as one expression: the same arithmetic.
    """
    if example is not None and len(example) != n_inputs:
        raise ValueError(f"example has {len(example)} numbers, expected n_inputs={n_inputs}")
    for i, p in enumerate(params):
        if not isinstance(p, Value) or p._a is not None:
            raise ValueError(f"params[{i}] is not a leaf Value: {p!r}")
    inputs = [Value(x) for x in (example or [0.5 + 0.25 * i for i in range(n_inputs)])]
    with modes.tracing():  # records the graph even inside no_grad(); comparisons raise
        out = fn(*inputs)
    results = list(out) if isinstance(out, (list, tuple)) else [out]
    outputs = [o for o in results if isinstance(o, Value)]
    if not results or len(outputs) != len(results):
        raise TraceError(f"the traced function must return a Value or a tuple of them, got {out!r}")
    program = FlatProgram(fn, params, inputs, outputs, fold)
    release_trees()  # the rules' sources, parsed for the templates
    return program


# ---------------------------------------------------------------------------- the code generator
class _Graph:
    """The traced graph as the generator reads it: the nodes in order, their names in the source,
    which need a grad, and who reads each."""

    def __init__(self, params: list[Value], inputs: Sequence[Value], outputs: Sequence[Value]):
        self.root = outputs[0]
        self.outputs = {id(o) for o in outputs}
        self.order: list[Value] = []  # every node an output needs, inputs first
        seen: set[int] = set()
        for o in outputs:
            for v in topo_order(o):
                if id(v) not in seen:
                    seen.add(id(v))
                    self.order.append(v)
        for v in self.order:
            if v._user_backward is not None:
                raise TraceError(
                    f"op {v._op!r} was made by hand, Value(data, inputs, op), and its _backward "
                    "closure cannot be written out as source; build it from micrograd's ops, or "
                    "add its rule to micrograd.engine.OPS, to compile it"
                )
            if v._a is not None and _rule_key(v) not in OPS:
                raise TraceError(f"op {v._op!r} has no rule in micrograd.engine.OPS")
        self.param_ix = {id(p): i for i, p in reversed(list(enumerate(params)))}  # first of repeats
        self.backward_ids = {id(v) for v in topo_order(self.root)}  # where grads flow
        # names: parameters p<i>, inputs x<i>, numbers the function read c<i>, op nodes v<j>
        input_ix = {id(x): i for i, x in enumerate(inputs)}
        self.names: dict[int, str] = {}
        self.constants: list[float] = []
        for j, v in enumerate(self.order):
            if id(v) in self.param_ix:
                self.names[id(v)] = f"p{self.param_ix[id(v)]}"
            elif id(v) in input_ix:
                self.names[id(v)] = f"x{input_ix[id(v)]}"
            elif v._a is None:  # a Constant, or a Value not in params: frozen
                self.names[id(v)] = self.constant(v.data)
            else:
                self.names[id(v)] = f"v{j}"
        # a node needs a grad where it depends on a parameter; uses: reads of it (x * x: two)
        self.needs: dict[int, bool] = {}
        self.uses: dict[int, int] = {}
        self.reader: dict[int, Value] = {}
        for v in self.order:
            self.needs[id(v)] = id(v) in self.param_ix or any(self.needs[id(x)] for x in v._prev)
            for x in v._prev:
                self.uses[id(x)] = self.uses.get(id(x), 0) + 1
                self.reader[id(x)] = v

    def constant(self, x: float) -> str:
        """The name of a new constant of the program (kept as a float, not written as text)."""
        self.constants.append(x)
        return f"c{len(self.constants) - 1}"

    def through_sum(self, v: Value) -> bool:
        """Whether v's one reader passes its grad on as it is (a "+": its local derivatives are
        the int 1): v's grad then IS that reader's grad (backward() adds it to a 0) and needs no
        variable of its own."""
        r = self.reader.get(id(v))
        return (
            v._a is not None
            and v is not self.root
            and self.uses[id(v)] == 1
            and r is not None
            and _passes_on(r)
        )


def _rule_key(v: Value) -> str:
    """The key of v's rule in OPS ("**k" for every `x ** k` with a number k)."""
    return "**k" if v._k is not None else v._op


def _inlined(v: Value, inputs: Sequence[str], prefix: str = "r_") -> Inlined | None:
    """v's rule from OPS written out on the expressions `inputs` (micrograd.specialize), or None
    where it can't be: the op is then called through its rule."""
    if v._a is None or _rule_key(v) not in OPS:  # a leaf: no op
        return None
    template = _template(OPS[_rule_key(v)], len(v._prev), v._k is not None)
    if template is None:
        return None
    given = {f"__in{i}__": x if x.isidentifier() else f"({x})" for i, x in enumerate(inputs)}
    given["__r__"] = prefix
    if v._k is not None:
        given["__k__"] = _literal(v._k)

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


def _passes_on(v: Value) -> bool:
    """Whether v's op gives each input its grad as it is: every local derivative is the int 1."""
    shape = _inlined(v, ["a", "b"][: len(v._prev)])
    return shape is not None and all(d == "1" for d in shape.locals)


def _one_expression(v: Value) -> bool:
    """Whether v's op is one expression with nothing to compute for backward (+ and *): it can be
    written inside its reader's expression."""
    shape = _inlined(v, ["a", "b"][: len(v._prev)])
    return (
        shape is not None
        and not shape.statements
        and all(d == "1" or d.isidentifier() for d in shape.locals)
    )


def _generate(
    params: list[Value], inputs: Sequence[Value], outputs: Sequence[Value], fold: bool
) -> tuple[str, tuple[float, ...], dict[str, Any]]:
    """The source of `run(P, C, rows, seeds)`, its constants C and the globals it reads."""
    graph = _Graph(params, inputs, outputs)
    folded = _folded(graph) if fold else set()

    written: dict[int, str] = {}

    def expr(v: Value) -> str:
        """v's number in the source: its name, or a folded node's expression (its rule's output
        on its inputs' expressions; the syntax tree keeps Python's order of additions)."""
        if id(v) not in folded:
            return graph.names[id(v)]
        if id(v) not in written:
            inlined = _inlined(v, [expr(x) for x in v._prev])
            assert inlined is not None  # folded: its rule is one expression
            written[id(v)] = inlined.out
        return written[id(v)]

    namespace: dict[str, Any] = {"M": FloatMath, "_times": _times}
    forward, locals_ = _forward(graph, folded, expr, namespace)
    backward = _backward(graph, locals_)
    result = expr(graph.root) if len(outputs) == 1 else f"({', '.join(map(expr, outputs))},)"
    xs = "".join(f"x{i}, " for i in range(len(inputs)))
    grads = ", ".join(f"G{i}" for i in range(len(params)))
    lines = ["def run(P, C, rows, seeds):"]
    if params:  # the parameters and the constants in locals, once per call
        lines.append(f"    ({''.join(f'p{i}, ' for i in range(len(params)))}) = P")
    if graph.constants:
        lines.append(f"    ({''.join(f'c{i}, ' for i in range(len(graph.constants)))}) = C")
    lines += [f"    G{i} = 0.0" for i in range(len(params))]  # each one's sum over the rows
    lines += ["    values = []", "    append = values.append"]
    lines += [
        f"    for ({xs}), w in zip(rows, seeds):" if inputs else "    for _, w in zip(rows, seeds):"
    ]
    lines += [f"        {s}" for s in forward]
    lines += [f"        append({result})"]
    lines += [f"        {s}" for s in backward]
    lines += [f"    return values, [{grads}]", ""]
    return "\n".join(lines), tuple(graph.constants), namespace


def _folded(graph: _Graph) -> set[int]:
    """The nodes written inside their reader's expression: a "+" or "*" read once by a "+", so
    that a neuron's b + w1*x1 + w2*x2 is one statement (fewer stores and loads, same arithmetic)."""
    folded: set[int] = set()
    names_in: dict[int, int] = {}  # how many names a node's expression holds
    for v in graph.order:
        names_in[id(v)] = sum(names_in[id(x)] if id(x) in folded else 1 for x in v._prev) or 1
        if (
            _one_expression(v)
            and id(v) not in graph.outputs
            and graph.through_sum(v)
            and names_in[id(v)] < FOLD_TERMS
        ):
            folded.add(id(v))
    return folded


def _forward(
    graph: _Graph,
    folded: set[int],
    expr: Callable[[Value], str],
    namespace: dict[str, Any],
) -> tuple[list[str], dict[tuple[int, int], tuple[str, str]]]:
    """The forward statements, and how backward gets each (node, input index)'s local derivative:
    ("one", ""), ("step", the condition of a slope of 1 or 0), ("times", a name or an expression)
    or ("rule", a local a rule gave)."""
    statements: list[str] = []
    locals_: dict[tuple[int, int], tuple[str, str]] = {}
    for j, v in enumerate(graph.order):
        if v._a is None:
            continue
        out = graph.names[id(v)]
        ins = v._prev
        wanted = [graph.needs[id(x)] and id(v) in graph.backward_ids for x in ins]
        inlined = _inlined(v, [expr(x) for x in ins], prefix=f"r{j}_")
        if inlined is not None:  # the rule of OPS written out: its statements, output, locals
            namespace.update(inlined.functions)
            if id(v) not in folded:  # (a folded node is part of its reader's statement)
                statements += inlined.statements
                statements.append(f"{out} = {inlined.out}")
            for k, local in enumerate(inlined.locals):
                if wanted[k]:
                    locals_[id(v), k] = _local(local, f"d{out[1:]}_{k}", statements)
        else:  # through the rule in OPS, as the eager engine runs it
            key = _rule_key(v)
            rule = "R_" + {"**k": "pow_k", "**": "pow"}.get(key, key)
            if not rule.isidentifier():  # an op named with other signs: its place in OPS
                rule = f"R_{list(OPS).index(key)}"
            namespace[rule] = OPS[key]
            call = [expr(x) for x in ins]
            if v._k is not None:
                call.append(graph.constant(v._k))
            targets = [f"d{out[1:]}_{k}" if wanted[k] else "_" for k in range(len(ins))]
            for k, target in enumerate(targets):
                if wanted[k]:
                    locals_[id(v), k] = ("rule", target)
            statements.append(f"{out}, ({', '.join(targets)},) = {rule}(M, {', '.join(call)})")
    return statements, locals_


def _local(text: str, name: str, statements: list[str]) -> tuple[str, str]:
    """How backward reads a local derivative written out as `text`: the int 1 passes the grad on
    as it is; `1 if c else 0` (relu's slope) is a condition, where a dead unit passes nothing
    even from an inf or nan upstream; a name is read where it is; any other expression is
    computed now into `name`."""
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


def _backward(graph: _Graph, locals_: dict[tuple[int, int], tuple[str, str]]) -> list[str]:
    """The chain rule as statements, outputs first, in backward()'s order: each input's grad +=
    its share of the node's grad. A parameter's share goes straight onto its sum over the rows,
    G<i>, as backward() adds each share onto what a leaf held."""
    statements: list[str] = []
    grad: dict[int, str] = {id(graph.root): "w"}  # the row's weight seeds the root
    started: set[int] = set()
    for v in reversed(graph.order):
        if v._a is None or not graph.needs[id(v)] or id(v) not in graph.backward_ids:
            continue
        g = grad[id(v)]
        for k, x in enumerate(v._prev):
            if not graph.needs[id(x)]:
                continue
            share = _share(locals_[id(v), k], g)
            if id(x) in graph.param_ix:
                statements.append(f"G{graph.param_ix[id(x)]} += {share}")
            elif graph.through_sum(x):
                grad[id(x)] = g  # its only reader is this "+": the same grad
            elif id(x) in started:
                statements.append(f"{grad[id(x)]} += {share}")
            else:  # the first share: backward() adds it to a 0, here it is assigned
                started.add(id(x))
                grad[id(x)] = f"g{graph.names[id(x)][1:]}"
                statements.append(f"{grad[id(x)]} = {share}")
    if id(graph.root) in graph.param_ix:  # the function returns a parameter as it is
        statements.append(f"G{graph.param_ix[id(graph.root)]} += w")
    return statements


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
