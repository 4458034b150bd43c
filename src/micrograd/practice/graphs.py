"""The graphs backward() is checked on, by both engines of practice mode (the lecture's Value and
microgpt's): small ones built with a Value class given, each the smallest where a kind of wrong
order or bookkeeping shows, random ones drawn from a seed, and a chain deeper than recursion goes;
and what backward() must keep, or not, from one call to the next.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from micrograd import engine
from micrograd.practice.result import Problem, close, fmt
from micrograd.practice.sandbox import guarded
from micrograd.text import text

CHAIN = 20_000  # deeper than learner code may recurse (Python's limit, 1,000 unless raised; 10,000 at most)
Graph = tuple[Any, dict[str, Any], list[str]]  # (root, named Values, the leaves' names)


# ---------------------------------------------------------------------------- the graphs
def twice(V: Any, x: float) -> Graph:
    """a + a."""
    a = V(x)
    return a + a, {"a": a}, ["a"]


def twice_twice(V: Any, x: float) -> Graph:
    """b = a + a; c = b + b."""
    a = V(x)
    b = a + a
    c = b + b
    return c, {"a": a, "b": b, "c": c}, ["a"]


def stack_exchange(V: Any, x: float, y: float) -> Graph:
    """The Stack Exchange question's graph: at (2, 3), a.grad is 25 and b.grad 19."""
    a, b = V(x), V(y)
    c = a + b
    d = a * b
    e = c + d
    g = c * d
    f = e + g
    return f, {"a": a, "b": b, "c": c, "d": d, "e": e, "g": g, "f": f}, ["a", "b"]


def chain(V: Any, x: float, n: int = CHAIN) -> Graph:
    """a + c + c + ... + c, n additions deep."""
    a, c = V(x), V(0.5)
    v = a
    for _ in range(n):
        v = v + c
    return v, {"a": a, "c": c}, ["a", "c"]


def two_losses(V: Any, x: float, y: float) -> tuple[Any, Any, Any, Any]:
    """a * b and a + b: two graphs with the same leaves and no node in common."""
    a, b = V(x), V(y)
    return a * b, a + b, a, b


# Small graphs, smallest first, each the smallest where a kind of wrong order or bookkeeping
# shows: a Value used twice in one op, reached by paths of different lengths (a breadth-first
# order runs y before w here: y = a * 3; w = y * y; u = w * 2; z = y + u), distinct Values with
# equal data (a `visited` kept by number, or Values equal and hashed by their data), and a node
# reused deeper down. Each is (its program, its leaves' numbers); the first that fails is shown.
FAMILY = (
    ("b = a * a", {"a": -1.5}),
    ("c = a * b; d = c + a", {"a": 2.0, "b": -3.0}),
    ("c = a * b; d = c * a", {"a": 2.0, "b": 2.0}),
    ("c = a + b; d = b + a; e = c * d", {"a": 2.0, "b": 1.0}),
    ("y = a * 3; w = y * y; u = w * 2; z = y + u", {"a": 0.5}),
    ("c = a * b; d = c * c; e = d * c + a", {"a": 0.5, "b": -2.0}),
    # a node whose grad is 0 (a factor of 0) before others that pass a share: either order
    ("x = a + a; m = x * b; w = a * a; z = m + w", {"a": 1.5, "b": 0.0}),
    ("w = a * a; x = a + a; m = x * b; z = w + m", {"a": 1.5, "b": 0.0}),
    # a shared Value whose users are reached by several paths themselves: counts of users made
    # per path (an in-degree that counts paths, not users) never reach zero
    (
        "p = a * b; q = p + 1; r = p * 2; s = q * r; t = s + 1; u = s * 3; z = t * u",
        {"a": 2.0, "b": 0.5},
    ),
)
RANDOM_GRAPHS = 12  # drawn now, of 3 to 6 ops, after FAMILY: orders a fixed graph may miss


def random_program(rng: random.Random) -> tuple[str, dict[str, float]]:
    """A small random graph on a and b: each new Value the sum or product of two before it
    (one used twice, at times), the numbers small integers, 0 and equal data among them."""
    leaves = {"a": float(rng.choice((-2, -1, 0, 1, 2, 3))), "b": float(rng.choice((-1, 0, 1, 2)))}
    names = list(leaves)
    statements = []
    for name in "cdefgh"[: rng.randint(3, 6)]:
        x, y = rng.choice(names), rng.choice(names)
        statements.append(f"{name} = {x} {rng.choice('+*')} {y}")
        names.append(name)
    return "; ".join(statements), leaves


def program(statements: str, leaves: dict[str, float]) -> Callable[[Any], Graph]:
    """The graph `statements` build from the leaves, with the Value class given: its last Value
    is the root."""

    def build(V: Any) -> Graph:
        scope = {name: V(x) for name, x in leaves.items()}
        for statement in statements.split("; "):
            name, expression = statement.split(" = ")
            scope[name] = eval(expression, {}, scope)  # noqa: S307 - the checker's own text
        return scope[name], scope, list(leaves)

    return build


def titled(statements: str, leaves: dict[str, float]) -> str:
    """The program as the learner reads it: `a = 2, b = -3; c = a * b; d = c + a`."""
    return ", ".join(f"{k} = {fmt(x)}" for k, x in leaves.items()) + "; " + statements


def kept_default(V: Any) -> tuple[str, str, str, int] | None:
    """(method, argument, its type, its size) of a default argument of one of V's methods that a
    call has filled: a list, set or dict made once, when the def ran, and shared by every call,
    so the next backward() finds the Values of the last one in it."""
    for name, member in vars(V).items():
        fn = getattr(member, "__func__", member)
        code, defaults = getattr(fn, "__code__", None), getattr(fn, "__defaults__", None)
        if code is None or not defaults:
            continue
        args = code.co_varnames[: code.co_argcount][-len(defaults) :]
        for arg, value in zip(args, defaults):
            if isinstance(value, (list, set, dict)) and value:
                return name, arg, type(value).__name__, len(value)
    return None


def accumulates(V: Any, x: float, y: float, lang: str) -> Problem | None:
    """(a * b).backward() then (a + b).backward(): the leaves add what both give them, as the
    engine's do. A backward() that zeroes every grad first leaves only the second's share."""
    product, total, a, b = guarded("a * b, a + b", lang, lambda: two_losses(V, x, y))
    guarded("(a * b).backward()", lang, product.backward)
    guarded("(a + b).backward()", lang, total.backward)
    ep, et, ea, eb = two_losses(engine.Value, x, y)
    ep.backward()
    et.backward()
    for name, leaf, want in (("a", a, ea.grad), ("b", b, eb.grad)):
        if not close(leaf.grad, want, rel=1e-9):
            key = "practice.zeroes_leaves" if close(leaf.grad, 1.0) else "practice.grad_differs"
            where = text("practice.two_losses", lang)
            fields = {"input": name, "found": fmt(leaf.grad), "expected": fmt(want), "where": where}
            return Problem(
                "zeroes-leaves" if key.endswith("leaves") else "other", text(key, lang, **fields)
            )
    return None


def dismantle(nodes: Sequence[Any]) -> None:
    """Empty each node's attributes: the graph then frees one node at a time. Freed whole, a
    chain of Values frees recursively, one C call per Value, and overflows the browser's stack."""
    for node in nodes:
        with contextlib.suppress(TypeError):
            vars(node).clear()
