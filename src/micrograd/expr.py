"""The small expression language of `micrograd graph` and `micrograd explain`, parsed safely.

Expressions are read with Python's `ast` and evaluated against a whitelist (names, numbers,
+ - * / **, parentheses, relu tanh sigmoid exp log), never with eval().
"""

from __future__ import annotations

import ast

from micrograd.engine import Value

FUNCTIONS = ("relu", "tanh", "sigmoid", "exp", "log")
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}


class ExpressionError(ValueError):
    """An expression uses something outside the small allowed language."""


def parse_expression(text: str, values: dict[str, float]) -> Value:
    """Evaluate `text` on Values without eval(): names from `values`, numbers, + - * / **,
    parentheses and the functions relu, tanh, sigmoid, exp, log. Anything else is refused."""
    if len(text) > 2000:
        raise ExpressionError("expression longer than 2000 characters")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, RecursionError, MemoryError) as e:
        raise ExpressionError(f"not a valid expression: {getattr(e, 'msg', e)}") from None
    leaves = {n: Value(x, label=n) for n, x in values.items()}

    def ev(node: ast.AST) -> Value:
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = ev(node.left), ev(node.right)
            op = type(node.op)
            return (
                a + b
                if op is ast.Add
                else a - b
                if op is ast.Sub
                else a * b
                if op is ast.Mult
                else a / b
                if op is ast.Div
                else a**b
            )
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return Value(float(node.value))  # type: ignore[arg-type]
        if isinstance(node, ast.Name):
            if node.id not in leaves:
                raise ExpressionError(
                    f"unknown name {node.id!r}: give it a value with --set {node.id}=1.0"
                )
            return leaves[node.id]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FUNCTIONS
            and len(node.args) == 1
            and not node.keywords
        ):
            return getattr(ev(node.args[0]), node.func.id)()  # type: ignore[no-any-return,unused-ignore]
        if isinstance(node, ast.Call):
            raise ExpressionError(
                f"only these functions can be called, with one argument: {', '.join(FUNCTIONS)}"
            )
        raise ExpressionError(
            f"{type(node).__name__} is not allowed in an expression: {ast.unparse(node)!r}"
        )

    try:
        out = ev(tree.body)
    except RecursionError:
        raise ExpressionError("expression nested too deeply") from None
    except (ArithmeticError, TypeError, ValueError) as e:
        raise ExpressionError(f"cannot evaluate: {e}") from None
    if not out.label:
        out.label = "out"
    return out


def assignments(items: list[str]) -> dict[str, float]:
    """The NAME=NUMBER items of `--set`, as a dict."""
    values = {}
    for item in items:
        name, eq, number = item.partition("=")
        name = name.strip()
        if not eq or not name.isidentifier():
            raise ExpressionError(f"--set expects NAME=NUMBER, got {item!r}")
        try:
            values[name] = float(number)
        except ValueError:
            raise ExpressionError(f"--set {name}: {number!r} is not a number") from None
    return values
