"""A rule of engine.OPS written into Python code: its body with the inputs' expressions put in.

engine.py runs an op the readable way: `a + b` calls `_apply2("+", a, b)`, which looks the rule up,
calls `add(FloatMath, a.data, b.data)` and unpacks the tuple it returns. In pure Python those calls
cost as much as the arithmetic. The python back end (micrograd.replay.python) writes a traced graph
out as one function, and each op in it is its rule's body, inlined here: the rule's statements run
in place, its `return out, (d_a, d_b)` becomes the expressions of the output and the local
derivatives, and the FloatMath functions that are one expression (relu, step) are inlined too. The
rule stays the op's one definition; a rule this cannot read (no source, or not of the shape
`statements; return out, (locals...)`) is called instead.
"""

from __future__ import annotations

import ast
import copy
import functools
import linecache
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


def release_trees() -> None:
    """Drop the syntax trees of the source files read so far (each is parsed once per program
    generated): kept, engine.py's and maths.py's are ~7,700 objects that every full garbage
    collection walks."""
    _functions_in.cache_clear()


@dataclass
class Inlined:
    """A rule's body as Python text on given inputs: its statements, the expression of the output
    and of each input's local derivative, and the functions of the namespace they call by name."""

    statements: list[str]
    out: str
    locals: list[str]
    functions: dict[str, Any]


def inline_rule(
    rule: Callable[..., Any], inputs: Sequence[str], n_locals: int, math: type, prefix: str = "r_"
) -> Inlined | None:
    """`rule`'s body with the Python expressions `inputs` put in for its arguments after the
    namespace (the inputs' numbers, then any constant such as x**k's k), its own locals named
    with `prefix`, and the one-expression functions of `math` inlined; None where the rule is not
    `statements; return out, (n_locals local derivatives)` or calls what can't be inlined."""
    fn = copy.deepcopy(_function(rule))  # a copy: inlining rewrites the tree in place
    if fn is None or len(fn.args.args) != 1 + len(inputs):
        return None
    *statements, last = [s for s in fn.body if not _is_docstring(s)]
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Tuple)):
        return None
    if len(last.value.elts) != 2:  # return out, (locals...)
        return None
    out, local = last.value.elts
    if not isinstance(local, ast.Tuple) or len(local.elts) != n_locals:
        return None
    m, *params = (a.arg for a in fn.args.args)
    assigned = {
        n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    given = {p: ast.parse(text, mode="eval").body for p, text in zip(params, inputs)}
    inline = _Inline(m, given, assigned, math, prefix)
    try:
        body = [ast.unparse(inline.visit(s)) for s in statements]
        results = [ast.unparse(inline.visit(e)) for e in (out, *local.elts)]
    except _Unreadable:
        return None
    return Inlined(body, results[0], results[1:], inline.functions)


class _Unreadable(Exception):
    """The rule uses something inline_rule does not inline."""


class _Inline(ast.NodeTransformer):
    """Rewrite a rule's expressions for the compiled code: its arguments become the given
    expressions, its own locals get a prefix (so they can't clash with the code around them),
    `m.f(x)` becomes f's one expression with x put in, or a call of f bound in the namespace."""

    def __init__(
        self, m: str, params: dict[str, ast.expr], assigned: set[str], math: type, prefix: str
    ) -> None:
        self.m = m
        self.params = params  # what to put in for each argument
        self.assigned = assigned  # the rule's own locals
        self.math = math
        self.prefix = prefix
        self.functions: dict[str, Any] = {}

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.m:
            raise _Unreadable("the namespace used other than as m.f(...)")
        if node.id in self.params:
            return copy.deepcopy(self.params[node.id])
        if node.id not in self.assigned:
            raise _Unreadable(f"{node.id}: a name from outside the rule")
        return ast.copy_location(ast.Name(f"{self.prefix}{node.id}", node.ctx), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        f = node.func
        if not (
            isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == self.m
        ):
            raise _Unreadable("a call of something other than m.f")
        args = [self.visit(a) for a in node.args]
        if node.keywords:
            raise _Unreadable("keyword arguments")
        if not hasattr(self.math, f.attr):
            raise _Unreadable(f"{f.attr}: not a function of the namespace")
        body = _one_expression(getattr(self.math, f.attr))
        if body is not None and all(isinstance(a, ast.Name | ast.Constant) for a in args):
            params, expr = body
            if len(params) == len(args):
                try:
                    return _Substitute(dict(zip(params, args))).visit(copy.deepcopy(expr))
                except _Unreadable:  # it reads a name of its module: called, not inlined
                    pass
        self.functions[f"m_{f.attr}"] = getattr(self.math, f.attr)
        return ast.copy_location(ast.Call(ast.Name(f"m_{f.attr}", ast.Load()), args, []), node)


class _Substitute(ast.NodeTransformer):
    """Put the arguments in for a function's parameters (Names and constants only, safe to copy)."""

    def __init__(self, args: dict[str, ast.expr]) -> None:
        self.args = args

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in self.args:
            raise _Unreadable(f"{node.id}: not a parameter")
        return self.args[node.id]


def _one_expression(f: Any) -> tuple[list[str], ast.expr] | None:
    """A function whose body is `return expression`: its parameters and the expression."""
    fn = _function(f)
    if fn is None:
        return None
    body = [s for s in fn.body if not _is_docstring(s)]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    return [a.arg for a in fn.args.args], body[0].value


def _function(f: Any) -> ast.FunctionDef | None:
    """The syntax tree of a Python function (None for a builtin, a lambda, or without source)."""
    code = getattr(f, "__code__", None)
    if code is None:
        return None
    return _functions_in(code.co_filename).get(code.co_firstlineno)


@functools.cache
def _functions_in(filename: str) -> dict[int, ast.FunctionDef]:
    """The functions and methods of a source file by their first line (the first decorator's, if any), as a
    code object's co_firstlineno gives it. The file is parsed once."""
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return {}
    found = {}
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    for node in [*tree.body, *(s for c in classes for s in c.body)]:  # functions and methods
        if isinstance(node, ast.FunctionDef):
            found[min([node.lineno, *(d.lineno for d in node.decorator_list)])] = node
    return found


def _is_docstring(s: ast.stmt) -> bool:
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
