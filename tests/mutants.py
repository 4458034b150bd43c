"""Mutants of the practice exercises' reference solutions: each a small change a learner makes,
put into the code the exercise asks for (its part of micrograd/practice/reference/), the rest of
the file as it is.

The operators: `+=` made `=`; an operand dropped from a product; the operands of `-`, `/` and `**`
swapped; a number changed; a statement deleted; a comparison loosened or tightened; a minus
dropped; `reversed(...)` unwrapped; a range shortened; `self`, `other` and `out` read for one
another; a set, list or dict made at the start of a function made a mutable default argument.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from micrograd.practice import reference


@dataclass(frozen=True)
class Mutant:
    """One mutant: the operator, where it applies (line of the reference file), and its source."""

    exercise: str
    operator: str
    line: int
    source: str


def _part_functions(tree: ast.Module, exercise_id: str) -> list[ast.FunctionDef]:
    """The functions of the reference file that the learner writes: those the stub leaves as
    `raise NotImplementedError` (a given function, such as the derivative exercise's f, is no
    part of the learner's work), by their qualified names (Neuron.__init__, not Value's)."""
    names = _written(exercise_id)
    return [fn for name, fn in _functions(tree) if name in names]


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef]]:
    """(qualified name, def) of the module's functions and its classes' methods."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            found += [
                (f"{node.name}.{n.name}", n) for n in node.body if isinstance(n, ast.FunctionDef)
            ]
    return found


def _written(exercise_id: str) -> set[str]:
    """The qualified names of the functions the exercise's stub leaves to write."""
    return {
        name
        for name, fn in _functions(ast.parse(reference.stub(exercise_id)))
        if any(
            isinstance(n, ast.Raise)
            and isinstance(n.exc, ast.Call)
            and getattr(n.exc.func, "id", "") == "NotImplementedError"
            for n in ast.walk(fn)
        )
    }


def changed_line(mutant: Mutant) -> str:
    """The first line of the mutant that differs from the reference, stripped: how a mutant is
    named in a list of the equivalent ones."""
    base = ast.unparse(ast.parse(reference.source(mutant.exercise))).splitlines()
    for old, new in zip(base, mutant.source.splitlines()):
        if old != new:
            return new.strip()
    return ""


Operator = Callable[[ast.AST], Iterator[ast.AST]]


def _aug_to_assign(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
        yield ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)


def _drop_factor(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        yield node.left
        yield node.right


def _swap(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Sub, ast.Div, ast.Pow)):
        yield ast.BinOp(left=node.right, op=node.op, right=node.left)


def _number(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        for changed in {node.value + 1, 0 if node.value else 1, -node.value} - {node.value}:
            yield ast.Constant(value=type(node.value)(changed))


def _comparison(node: ast.AST) -> Iterator[ast.AST]:
    flips = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in flips:
        yield ast.Compare(
            left=node.left, ops=[flips[type(node.ops[0])]()], comparators=node.comparators
        )


def _minus(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield node.operand


def _reversed(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "reversed":
        yield node.args[0]


def _range(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "range" and node.args:
        last = node.args[-1]
        shorter = ast.BinOp(left=last, op=ast.Sub(), right=ast.Constant(value=1))
        yield ast.Call(func=node.func, args=[*node.args[:-1], shorter], keywords=[])


def _operand(node: ast.AST) -> Iterator[ast.AST]:
    names = ("self", "other", "out")
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in names
        and isinstance(node.ctx, ast.Load)
    ):
        for other in names:
            if other != node.value.id:
                yield ast.Attribute(
                    value=ast.Name(id=other, ctx=ast.Load()), attr=node.attr, ctx=ast.Load()
                )


EXPRESSIONS: dict[str, Operator] = {
    "+= to =": _aug_to_assign,
    "factor dropped": _drop_factor,
    "operands swapped": _swap,
    "number changed": _number,
    "comparison": _comparison,
    "minus dropped": _minus,
    "reversed dropped": _reversed,
    "range shortened": _range,
    "operand read for another": _operand,
}


class _Replace(ast.NodeTransformer):
    """Replace the one node `target` (by identity) with `new`."""

    def __init__(self, target: ast.AST, new: ast.AST) -> None:
        self.target, self.new = target, new

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return self.new
        return super().generic_visit(node)


def _unparsed(tree: ast.Module) -> str | None:
    try:
        source = ast.unparse(ast.fix_missing_locations(tree))
        compile(source, "<mutant>", "exec")
    except (SyntaxError, ValueError, TypeError, RecursionError):
        return None
    return source


def mutants(exercise_id: str) -> list[Mutant]:
    """Every mutant of the exercise's part, in the order the operators meet its nodes."""
    text = reference.source(exercise_id)
    base = ast.parse(text)
    unchanged = ast.unparse(base)
    made: list[Mutant] = []
    seen: set[str] = {unchanged}

    def add(operator: str, line: int, tree: ast.Module) -> None:
        source = _unparsed(tree)
        if source is not None and source not in seen:
            seen.add(source)
            made.append(Mutant(exercise_id, operator, line, source))

    functions = _part_functions(base, exercise_id)
    for fn in functions:
        for node in ast.walk(fn):
            for name, operator in EXPRESSIONS.items():
                for new in operator(node):
                    tree = copy.deepcopy(base)
                    target = _same_node(tree, base, node)
                    add(
                        name,
                        getattr(node, "lineno", fn.lineno),
                        _Replace(target, copy.deepcopy(new)).visit(tree),
                    )
        for body_owner in [
            n for n in ast.walk(fn) if hasattr(n, "body") and isinstance(n.body, list)
        ]:
            for j, statement in enumerate(body_owner.body):
                docstring = isinstance(statement, ast.Expr) and isinstance(
                    statement.value, ast.Constant
                )
                if docstring or (isinstance(statement, ast.FunctionDef) and body_owner is fn):
                    continue
                tree = copy.deepcopy(base)
                owner = _same_node(tree, base, body_owner)
                owner.body[j] = ast.Pass()
                add("statement deleted", statement.lineno, tree)
        for line, tree in _mutable_defaults(base, fn):
            add("default made mutable", line, tree)
    return made


def _mutable_defaults(base: ast.Module, fn: ast.FunctionDef) -> list[tuple[int, ast.Module]]:
    """`name = set()` (or [] or {}) as the first use in a function, made the default argument
    `name=set()`: it then lives on from one call to the next."""
    found: list[tuple[int, ast.Module]] = []
    for j, statement in enumerate(fn.body):
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and (
                isinstance(statement.value, (ast.List, ast.Dict, ast.Set))
                or (
                    isinstance(statement.value, ast.Call)
                    and getattr(statement.value.func, "id", "") in ("set", "list", "dict")
                )
            )
        ):
            continue
        tree = copy.deepcopy(base)
        f = _same_node(tree, base, fn)
        name = statement.targets[0].id
        del f.body[j]
        f.args.args.append(ast.arg(arg=name))
        f.args.defaults.append(copy.deepcopy(statement.value))
        found.append((statement.lineno, tree))
    return found


def _same_node(tree: ast.AST, base: ast.AST, node: ast.AST) -> ast.AST:
    """The node of `tree` (a deep copy of `base`) at the place of `node` in `base`."""
    for a, b in zip(ast.walk(tree), ast.walk(base)):
        if b is node:
            return a
    raise LookupError(node)
