"""The rules in OPS inlined into Python code, for speed: Value's op methods compiled from them.

engine.py's methods run an op the readable way: `a + b` calls `_apply2("+", a, b)`, which looks the
rule up, calls `add(FloatMath, a.data, b.data)` and unpacks the tuple it returns. In pure Python
those calls cost as much as the arithmetic. Here each method is rebuilt from the same rule with the
rule's body inlined: its statements run in the method, its `return out, (d_a, d_b)` becomes the
new Value's data and local derivatives, and the FloatMath functions that are one expression (relu,
step) are inlined too. The methods compiled are those written as one line that runs one op,
`return _apply2(op, self, other)` or `return _apply1(op, self)`, so a new op's method is compiled
without being listed anywhere. The rule stays the op's one definition; a rule this cannot read (no
source, or not of the shape `statements; return out, (locals...)`) keeps engine.py's method.
tests/test_specialize.py checks every compiled method against the method as written.
`inline_rule` does the inlining for any code: micrograd.replay.python writes a whole traced graph out with it.
"""

from __future__ import annotations

import ast
import copy
import functools
import linecache
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

_RUNS_ONE_OP = {"_apply2": 2, "_apply1": 1}  # what a method runs an op with: its inputs' number
_INPUTS = ("x0", "x1")  # the inputs' numbers in the compiled method
_LOCALS = ("d0", "d1")  # their local derivatives


def install(cls: type, ops: dict[str, Callable[..., Any]], math: type, env: dict[str, Any]) -> None:
    """Set each op method of `cls` to the one compiled from its rule in `ops`, or, where the rule
    can't be compiled, to the method as written (kept on the first call). `math` is the namespace
    the rules get (FloatMath), `env` the engine names the compiled methods call."""
    methods = op_methods(cls)
    if cls not in _WRITTEN:  # the methods as written, before the first call replaces them
        _WRITTEN[cls] = {name: vars(cls)[name] for name in methods}
    for name, (op, arity) in methods.items():
        method = compile_op(name, op, ops[op], arity, math, env) if op in ops else None
        if method is None:
            method = _WRITTEN[cls][name]
        else:
            method.__doc__ = _WRITTEN[cls][name].__doc__
            method.__qualname__ = f"{cls.__name__}.{name}"
        setattr(cls, name, method)
    release_trees()


def restore(cls: type) -> None:
    """Put back the op methods of `cls` as written, where install() replaced them."""
    for name, method in _WRITTEN.pop(cls, {}).items():
        setattr(cls, name, method)


def release_trees() -> None:
    """Drop the syntax trees of the source files read so far (each is parsed once per batch of
    compiling): kept, engine.py's and maths.py's are ~7,700 objects that every full garbage
    collection walks, and seven of ten steps of the demo's training loop run one."""
    _functions_in.cache_clear()


_WRITTEN: dict[type, dict[str, Any]] = {}  # each class's op methods as written, before compiling


def op_methods(cls: type) -> dict[str, tuple[str, int]]:
    """The methods of `cls` (as written) that run one op: name -> (op, number of inputs)."""
    found = {}
    for name, f in _WRITTEN.get(cls, vars(cls)).items():
        fn = _function(f)
        if fn is None:
            continue
        body = [s for s in fn.body if not _is_docstring(s)]
        if len(body) != 1 or not isinstance(body[0], ast.Return):
            continue
        call = body[0].value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            continue
        arity = _RUNS_ONE_OP.get(call.func.id)
        args = call.args
        if arity is None or len(args) != 1 + arity or call.keywords:
            continue
        op, *inputs = args
        names = [a.id for a in inputs if isinstance(a, ast.Name)]
        if isinstance(op, ast.Constant) and names == [a.arg for a in fn.args.args]:
            found[name] = (str(op.value), arity)
    return found


def compile_op(
    name: str, op: str, rule: Callable[..., Any], arity: int, math: type, env: dict[str, Any]
) -> Callable[..., Any] | None:
    """The method `name` for `op` with `rule`'s body inlined, or None where the rule can't be
    read. Its text goes into linecache, so a traceback through it shows its lines."""
    made = method_source(name, op, rule, arity, math)
    if made is None:
        return None
    source, functions = made
    filename = f"<Value.{name}, compiled from the rule of {op!r}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {**env, **functions}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]  # type: ignore[no-any-return,unused-ignore]


def method_source(
    name: str, op: str, rule: Callable[..., Any], arity: int, math: type
) -> tuple[str, dict[str, Any]] | None:
    """The compiled method's text, and the functions of `math` it calls by name."""
    inlined = inline_rule(rule, _INPUTS[:arity], arity, math)
    if inlined is None:
        return None
    results = [inlined.out, *inlined.locals]
    return _method_source(name, op, arity, inlined.statements, results), inlined.functions


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


def _method_source(
    name: str, op: str, arity: int, statements: list[str], results: list[str]
) -> str:
    """The method's text: read the inputs, run the rule's statements, make the Value."""
    data, *locals_ = results
    two = arity == 2
    lines = [  # a Value made as _apply2 makes it
        f"def {name}(self{', other' if two else ''}):",
        *(
            ["    if not isinstance(other, Value):", f"        other = _operand(other, {op!r})"]
            if two
            else []
        ),
        "    x0 = self.data",
        *(["    x1 = other.data"] if two else []),
        "    try:",
        *(f"        {s}" for s in statements),
        f"        data = {data}",
        *(f"        {_LOCALS[i]} = {d}" for i, d in enumerate(locals_)),
        "    except (ArithmeticError, ValueError) as e:",
        f"        raise _fail(e, {op!r}, self{', other' if two else ''}) from None",
        "    out = new(Value)",
        "    out.data = data",
        "    out.grad = 0",
        f"    out._op = {op!r}",
        "    out._a = self",
        "    out._da = d0",
        *(["    out._b = other", "    out._db = d1"] if two else ["    out._b = out._db = None"]),
        "    return _new_in_mode(out) if modes.threads_in_a_mode else out",
    ]
    return "\n".join(lines)


class _Unreadable(Exception):
    """The rule uses something compile_op does not inline."""


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
