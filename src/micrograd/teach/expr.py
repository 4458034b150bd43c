"""The small language of `micrograd graph` and `micrograd explain`, read safely.

    c = a + b; d = a * b; e = c + d; g = c * d; f = e + g      (statements: the last is the output)
    relu(a*b + b**3)                                           (or one expression)

Text is read with Python's `ast` and evaluated against a whitelist (names, numbers, + - * / **,
parentheses, the one-input ops of micrograd.engine.OPS (relu tanh sigmoid exp log sin cos),
`name = expression` statements), never with eval().
Numbers are constants, as in Python: `x**2` is the one-input op with the rule 2*x. Full-width
symbols typed with a Chinese input method (（ ）＝＋ and full-width digits) read as their ASCII
forms (Unicode NFKC).
"""

from __future__ import annotations

import ast
import keyword
import math
import operator
import re
import unicodedata
from collections.abc import Callable
from typing import Any, Union

from micrograd.engine import OPS, Value
from micrograd.text import op_error
from micrograd.text import text as say

# every one-input op with a method of its name on Value: relu(x) is x.relu()
FUNCTIONS = tuple(op.lower() for op in OPS if op.isidentifier() and hasattr(Value, op.lower()))
MAX_LENGTH = 2000
_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
Number = Union[Value, int, float]
_SYMBOLS = {ast.Mod: "%", ast.FloorDiv: "//", ast.MatMult: "@", ast.BitXor: "^", ast.BitAnd: "&"}
_SYMBOLS |= {ast.BitOr: "|", ast.LShift: "<<", ast.RShift: ">>"}


class ExpressionError(ValueError):
    """The text uses something outside the small allowed language, or cannot be evaluated.

    The message is a key of micrograd.text and its fields: str() is the English,
    `.text(lang)` the message in a language of that table."""

    def __init__(self, key: str, **fields: object) -> None:
        self.key, self.fields = key, fields
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """The message in `lang` (an op's or the parser's error among the fields in `lang` too)."""
        fields = {k: _reason(v, lang) for k, v in self.fields.items()}
        return say(self.key, lang, **fields)


def _reason(field: object, lang: str) -> object:
    """A field of an ExpressionError as its message says it in `lang`."""
    if isinstance(field, SyntaxError):
        return parser_error(field, lang)
    if isinstance(field, Exception):
        return op_error(field, lang)
    return field


# Python's parser says why in English only: its common sentences, by their words, have a key in
# the catalogs; any other is shown as Python says it.
_PARSER = [
    (r"'(?P<bracket>.)' was never closed", "expr_parser_unclosed"),
    (r"unmatched '(?P<bracket>.)'", "expr_parser_unmatched"),
    (
        r"closing parenthesis '(?P<closing>.)' does not match opening parenthesis "
        r"'(?P<opening>.)'.*",
        "expr_parser_mismatch",
    ),
    (r"invalid syntax.*", "expr_parser_invalid"),  # "... Perhaps you forgot a comma?" too
    (r"unexpected EOF while parsing|incomplete input", "expr_parser_eof"),
]


def parser_error(e: SyntaxError, lang: str) -> str:
    """The parser's reason (`e.msg`) in `lang`."""
    for pattern, key in _PARSER:
        found = re.fullmatch(pattern, e.msg or "", re.S)
        if found:
            return say(key, lang, **found.groupdict())
    return str(e.msg)


# What learners type from maths or from other languages, and what to write here instead
_INSTEAD = {"^": "**", "×": "*", "÷": "/", "·": "*", "²": "**2", "³": "**3", "√": "**0.5"}
_ELEMENTWISE = re.compile(r"\.(" + "|".join(FUNCTIONS) + r")\(\)")  # a.relu(): the Python API's way


def _hint(text: str) -> None:
    """An ExpressionError that says what to type, for the common slips of a learner."""
    for typed, instead in _INSTEAD.items():
        if typed in text:
            raise ExpressionError("expr_instead", typed=typed, instead=instead)
    method = _ELEMENTWISE.search(text)
    if method:
        raise ExpressionError("expr_method", name=method.group(1))
    glued = re.search(r"(?<![\w.])(\d+(?:\.\d+)?)([A-Za-z_]\w*)", text)
    if glued and not glued.group(2).lower().startswith("e"):  # 2a (1e3 is a number)
        raise ExpressionError("expr_times", number=glued.group(1), name=glued.group(2))


def _read(text: str) -> ast.Module:
    _hint(text)  # before NFKC, which would read ² as 2
    text = unicodedata.normalize("NFKC", text)  # full-width （＋） -> ASCII (+)
    if len(text) > MAX_LENGTH:
        raise ExpressionError("expr_too_long", limit=MAX_LENGTH)
    try:
        return ast.parse(text.replace("\n", ";"), mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:  # ValueError: 5000 digits
        wide = any(ord(ch) > 127 for ch in text)
        key = "expr_syntax_wide" if wide else "expr_syntax"
        raise ExpressionError(key, why=e) from None


def parse_expression(text: str, values: dict[str, float]) -> Value:
    """Evaluate `text` on Values: one expression, or statements `name = expression` separated by
    `;` whose last one is the output. Names come from `values` (leaves, labelled by their names)
    and from earlier statements (labelled by theirs). Anything outside the language is refused."""
    statements = _read(text).body
    if not statements:
        raise ExpressionError("expr_empty")
    names: dict[str, Number] = {n: Value(x, label=n) for n, x in values.items()}

    def ev(node: ast.AST) -> Number:
        if isinstance(node, ast.BinOp) and type(node.op) not in _BINOPS:
            symbol = _SYMBOLS.get(type(node.op), type(node.op).__name__)
            raise ExpressionError("expr_operator", op=symbol)
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if not isinstance(a, Value) and not isinstance(b, Value):
                # two numbers: fold them as the engine computes floats, with its errors (2**99999999
                # in integers takes minutes; (-1) ** 0.5 in Python is a complex number, here nan)
                return _BINOPS[type(node.op)](Value(float(a)), Value(float(b))).data
            return _BINOPS[type(node.op)](a, b)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            if isinstance(node.value, bool):
                raise ExpressionError("expr_bool", value=node.value)
            return (
                node.value
            )  # a constant, not a Value: it gets no grad (an int stays an int: x**2)
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise ExpressionError("expr_unknown_name", name=node.id)
            return names[node.id]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FUNCTIONS
            and len(node.args) == 1
            and not node.keywords
        ):
            return getattr(_as_value(ev(node.args[0])), node.func.id)()  # type: ignore[no-any-return,unused-ignore]
        if isinstance(node, ast.Call):
            raise ExpressionError("expr_call", functions=", ".join(FUNCTIONS))
        raise ExpressionError(
            "expr_not_allowed", kind=type(node).__name__, text=repr(ast.unparse(node))
        )

    out: Number = 0.0
    try:
        for i, stmt in enumerate(statements):
            last = i == len(statements) - 1
            if isinstance(stmt, ast.Expr) and last:
                out = ev(stmt.value)
            elif (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                name = stmt.targets[0].id
                if name in names:
                    raise ExpressionError("expr_twice", name=name)
                out = names[name] = ev(stmt.value)
                if isinstance(out, Value) and out._prev and not out.label:
                    out.label = name  # inner Values keep their statement's name
            else:
                raise ExpressionError("expr_statement", text=repr(ast.unparse(stmt)))
        out = _as_value(out)
    except RecursionError:
        raise ExpressionError("expr_deep") from None
    except (ArithmeticError, TypeError, ValueError) as e:
        if isinstance(e, ExpressionError):
            raise
        raise ExpressionError("expr_cannot", why=e) from None
    assert isinstance(out, Value)
    if not out.label:
        out.label = "out"
    return out


def _as_value(x: Number) -> Value:
    return x if isinstance(x, Value) else Value(x)


def assignments(items: list[str]) -> dict[str, float]:
    """The NAME=NUMBER items of `--set`, as a dict; a name given twice is an error."""
    values: dict[str, float] = {}
    for item in items:
        name, eq, number = unicodedata.normalize("NFKC", item).partition("=")
        name = name.strip()
        if not eq or not name.isidentifier():
            raise ExpressionError("set_form", item=repr(item))
        if keyword.iskeyword(name):
            raise ExpressionError("set_keyword", name=name)
        if name in values:
            raise ExpressionError("set_twice", name=name)
        try:
            values[name] = float(number)
        except ValueError:
            raise ExpressionError("set_nan", name=name, number=repr(number)) from None
        if not math.isfinite(values[name]):
            raise ExpressionError("set_inf", name=name, number=repr(number))
    return values
