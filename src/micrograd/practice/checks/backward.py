"""The check of backward() itself, on graphs where its classic mistakes show.

backward() runs as the learner wrote it, with every node's `_backward` wrapped to record when it
ran, with which grad, and what it added: a node that runs before all the Values made from it have
passed their share (the Stack Exchange question's global `visited` set, or the topological order
walked inputs first) is named, and so is a closure that adds the wrong amount. Two backward()
calls on graphs that share their leaves must add up on the leaves. A chain deeper than Python's
recursion limit is a challenge, not a failure: the lecture's recursive sort passes with a note.
Expected numbers come from micrograd's engine.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from micrograd import engine
from micrograd.practice.diagnose import Walk, default_code
from micrograd.practice.exercises import Exercise
from micrograd.practice.graphs import (
    CHAIN,
    FAMILY,
    RANDOM_GRAPHS,
    Graph,
    accumulates,
    chain,
    dismantle,
    kept_default,
    program,
    random_program,
    stack_exchange,
    titled,
    twice,
    twice_twice,
)
from micrograd.practice.result import CheckResult, Problem, Row, close, fmt
from micrograd.practice.rules import Known, inputs_of, topo
from micrograd.practice.sandbox import LearnerError, guarded, value_class
from micrograd.text import text


@dataclass
class Call:
    """One run of a node's `_backward()` during the learner's backward()."""

    node: Any
    upstream: Any
    known: Known | None
    operands: tuple[Any, ...]
    ins: list[Any]
    before: list[Any]
    not_attached: bool
    after: list[Any] | None = field(default=None)


def record(walk: Walk, root: Any) -> tuple[list[Any], list[Call]]:
    """Wrap every node's `_backward` to record its runs; (the nodes, the list runs go into)."""
    order = topo([root])
    default = default_code(order)
    calls: list[Call] = []
    running: list[Call] = []

    def wrap(node: Any) -> None:
        inner = node._backward
        not_attached = default is not None and getattr(inner, "__code__", None) is default

        def wrapped() -> None:
            for c in running:  # a closure that calls other closures: what it added comes first
                if c.after is None:
                    c.after = [p.grad for p in c.ins]
            known, operands, ins = walk.operands(node)
            call = Call(node, node.grad, known, operands, ins, [p.grad for p in ins], not_attached)
            calls.append(call)
            running.append(call)
            try:
                inner()
            finally:
                running.pop()
                if call.after is None:
                    call.after = [p.grad for p in ins]

        wrapped.__wrapped__ = inner  # type: ignore[attr-defined]  # where the closure is written
        node._backward = wrapped

    for node in order:
        if inputs_of(node):
            wrap(node)
    return order, calls


def true_grads(walk: Walk, order: Sequence[Any], root: Any) -> dict[int, float] | None:
    """d root / d each node, by the chain rule on the learner's graph with the engine's rules
    (None if some node's op cannot be told)."""
    grads = {id(n): 0.0 for n in order}
    grads[id(root)] = 1.0
    for node in reversed(order):
        if not inputs_of(node):
            continue
        known, _ = walk.identify(node)
        if known is None:
            return None
        _, local = known.run()
        for o, d in zip(known.operands, local):
            grads[id(o)] += d * grads[id(node)]
    return grads


def analyse(
    walk: Walk, order: list[Any], calls: list[Call], root: Any, reverses: bool = False
) -> Problem | None:
    """The first wrong run in the learner's order: too early, twice, wrong amount, or missing.
    `reverses`: whether the learner's backward() reverses the list it walks."""
    lang = walk.lang
    expected = true_grads(walk, order, root)
    consumers: dict[int, list[Any]] = {}
    for node in order:
        for p in inputs_of(node):
            consumers.setdefault(id(p), []).append(node)
    counted: dict[int, int] = {}
    for call in calls:  # a node run twice is the cause of whatever else looks wrong
        counted[id(call.node)] = counted.get(id(call.node), 0) + 1
        if counted[id(call.node)] > 1:
            words = text("practice.ran_twice", lang, node=walk.label(call.node))
            return Problem("visit-order", words)
    ran: set[int] = set()
    for call in calls:
        node = call.node
        ran.add(id(node))
        if expected is not None and not close(call.upstream, expected[id(node)], rel=1e-9):
            if node is root:
                return Problem(
                    "no-output-grad", text("practice.root_not_one", lang, found=fmt(call.upstream))
                )
            late = [c for c in consumers.get(id(node), []) if id(c) not in ran]
            never = [c for c in late if id(c) not in counted]
            if never:  # not too early: the Value made from it never runs at all
                return Problem(
                    "visit-order", text("practice.never_ran", lang, node=walk.label(never[0]))
                )
            if late and _inputs_first(calls):
                # the walk reverses its list already: the list itself is built outputs first
                # (each node appended before its children), so reversed it runs inputs first
                if reverses:  # reversed() is there: the list it reverses is the mistake
                    return Problem(
                        "reversed-not-topological",
                        text("practice.preorder", lang, node=walk.label(node)),
                    )
                step = text("practice.inputs_first", lang, node=walk.label(node))
                return Problem("not-reversed", step)
            if late:
                step = text(
                    "practice.too_early",
                    lang,
                    node=walk.label(node),
                    found=fmt(call.upstream),
                    expected=fmt(expected[id(node)]),
                    later=walk.label(late[0]),
                )
                return Problem("visit-order", step)
        problem = walk.compare(
            node,
            call.known,
            call.operands,
            call.before,
            call.after or call.before,
            call.upstream,
            call.not_attached,
        )
        if problem is not None:
            return problem
    missing = [n for n in order if inputs_of(n) and id(n) not in ran]
    if missing:
        node = missing[-1]
        # the evidence of a `visited` kept by number, or Values equal by their data: another
        # node with the same data did run
        twin = next((c.node for c in calls if c.node.data == node.data), None)
        if twin is not None:
            fields = {"node": walk.label(node), "twin": walk.label(twin), "data": fmt(node.data)}
            return Problem("visit-order", text("practice.never_ran_equal", lang, **fields))
        return Problem("visit-order", text("practice.never_ran", lang, node=walk.label(node)))
    return None


def _inputs_first(calls: Sequence[Call]) -> bool:
    """Whether the closures ran in the topological order itself, each after its inputs' (the
    order walked without `reversed`)."""
    ran = {id(c.node): i for i, c in enumerate(calls)}
    return all(
        ran[id(p)] < i for i, c in enumerate(calls) for p in inputs_of(c.node) if id(p) in ran
    )


# ---------------------------------------------------------------------------- backward
def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """The learner's backward() on a + a, b = a + a; c = b + b, the small graphs of FAMILY, the
    Stack Exchange graph (at its numbers and at random ones), two backward() calls on graphs
    sharing their leaves, a second call on a graph and on one that reuses its inner nodes, and a
    chain of CHAIN Values (a challenge: a recursive sort passes with a note), against the
    engine."""
    V = value_class(ns, lang)
    rng = random.Random(seed)
    x, y = rng.uniform(-2, 2), rng.uniform(-2, 2)
    graphs: list[tuple[str, Callable[[Any], Graph], bool]] = [
        ("a + a", lambda cls: twice(cls, x), True),
        ("b = a + a; c = b + b", lambda cls: twice_twice(cls, x), True),
        *((titled(code, leaves), program(code, leaves), True) for code, leaves in FAMILY),
        *(
            (titled(code, leaves), program(code, leaves), True)
            for code, leaves in sorted(
                (random_program(rng) for _ in range(RANDOM_GRAPHS)), key=lambda p: len(p[0])
            )
        ),
        (
            text("practice.se_graph", lang, a=2, b=3),
            lambda cls: stack_exchange(cls, 2.0, 3.0),
            True,
        ),
        (
            text("practice.se_graph", lang, a=fmt(x), b=fmt(y)),
            lambda cls: stack_exchange(cls, x, y),
            True,
        ),
        (text("practice.chain", lang, n=f"{CHAIN:,}"), lambda cls: chain(cls, x), False),
    ]
    result = CheckResult(ex.id, True, seed=seed, lang=lang)
    for title, build, small in graphs:
        if not small:  # the deep chain comes after the accumulation, which every graph needs
            problem = accumulates(V, x, y, lang) or _again(V, lang)
            if problem is not None:
                return result.fail(problem)
        start = len(result.rows)
        problem = _graph(V, title, build, small, result, lang)
        kept = kept_default(V)
        if kept is not None:  # the root of whatever went wrong, now or on the graphs to come
            method, arg, kind, n = kept
            fields = {"method": method, "arg": arg, "kind": kind, "n": n, "where": title}
            return result.fail(
                Problem("visit-order", text("practice.kept_default", lang, **fields))
            )
        for order in range(1, ORDERS if small else 1):  # again, the sets in other orders
            if problem is not None:
                break
            other = CheckResult(ex.id, True, seed=seed, lang=lang)
            again = text("practice.other_order", lang, title=title)
            problem = _graph(V, again, build, small, other, lang, order)
            if problem is not None:
                result.rows[start:] = other.rows  # the run that went wrong
        if problem is not None and problem.mistake == "recursion-limit" and not small:
            result.notes.append(text("practice.deep_challenge", lang, n=f"{CHAIN:,}"))
        elif problem is not None:  # the first wrong graph is the lesson; the rest would wait
            return result.fail(replace(problem, step=f"{title}: {problem.step}"))
    return result


ORDERS = 4  # the orders each small graph's sets are iterated in: sorted, reversed, two mixed


class _Ordered(set):
    """A node's `_prev` that iterates in a chosen order. A set's order is not the program's to
    choose (it follows the Values' addresses), so a sort that is right for one order only is
    right by luck: the check chooses each set's order itself, and tries several."""

    def __init__(self, items: Sequence[Any]) -> None:
        super().__init__(items)
        self.order = list(items)

    def __iter__(self) -> Any:
        return iter(self.order)


def _order_sets(root: Any, names: dict[int, str], order: int) -> None:
    """Every `_prev` of the graph that is a set made to iterate in an order that depends on the
    graph, not on addresses: its inputs sorted by what they compute (order 0), reversed (1), or
    each set one way or the other as a generator seeded with `order` says (2, 3, ...)."""
    nodes = topo([root])  # inputs first
    keys: dict[int, str] = {}
    for node in nodes:  # an input not yet keyed is one of a cycle: it sorts first
        inputs = sorted(keys.get(id(p), "") for p in inputs_of(node))
        shown = names.get(id(node)) or f"{getattr(node, '_op', '')}({','.join(inputs)})"
        keys[id(node)] = f"{shown}={_shown(getattr(node, 'data', ''))}"
    flips = random.Random(order)
    for node in sorted(nodes, key=lambda n: keys[id(n)]):
        prev = getattr(node, "_prev", None)
        if type(prev) is set and len(prev) > 1:
            items = sorted(prev, key=lambda p: keys.get(id(p), ""))
            if order == 1 or (order > 1 and flips.random() < 0.5):
                items.reverse()
            node._prev = _Ordered(items)


def _shown(data: Any) -> str:
    """repr(data), or "?" where the learner's object cannot say it."""
    try:
        return repr(data)
    except Exception:  # noqa: BLE001 - a learner's __repr__ may raise anything
        return "?"


def _graph(
    V: Any,
    title: str,
    build: Callable[[Any], Graph],
    small: bool,
    result: CheckResult,
    lang: str,
    sets: int = 0,
) -> Problem | None:
    """The learner's backward() on one graph, step by step, its leaves' grads in the table (on a
    small graph, each set of inputs iterated in the order `sets` chooses)."""
    order: list[Any] = []
    try:
        root, names, leaves = guarded(title, lang, partial(build, V))
        named = {id(v): k for k, v in names.items()}
        if small:
            _order_sets(root, named, sets)
        walk = Walk(named, lang)
        order, calls = record(walk, root)
        guarded("backward()", lang, root.backward)
        problem = analyse(walk, order, calls, root, _reverses(V))
    except LearnerError as e:
        problem, leaves, names = e.problem, [], {}
    eroot, enames, _ = build(engine.Value)
    eroot.backward()
    for leaf in leaves:
        row = Row(f"{leaf} ({title})")
        numeric = _numeric(build, leaf) if small else None
        row.add(names[leaf].grad, float(enames[leaf].grad), numeric)
        result.rows.append(row)
        if problem is None and not close(names[leaf].grad, enames[leaf].grad, rel=1e-6):
            found, want = fmt(names[leaf].grad), fmt(enames[leaf].grad)
            fields = {"input": leaf, "found": found, "expected": want, "where": title}
            problem = Problem("other", text("practice.grad_differs", lang, **fields))
    dismantle(order)
    return problem


def _reverses(V: Any) -> bool:
    """Whether the source of V.backward reverses a list (reversed(), [::-1], .reverse())."""
    try:
        source = inspect.getsource(V.backward)
    except (OSError, TypeError):
        return False
    return any(way in source for way in ("reversed(", "[::-1]", ".reverse()"))


def _again(V: Any, lang: str) -> Problem | None:
    """backward() a second time, on the same graph and on a graph that reuses its inner nodes
    (every grad set to 0 by hand between): the leaves get each pass's share. A `visited` or
    `topo` kept from one call to the next (a global, a mutable default argument) leaves the
    second pass with nothing to walk."""
    for code, leaves, second in (
        ("c = a * b", {"a": 2.0, "b": -3.0}, None),
        ("c = a * b; d = c + a", {"a": 2.0, "b": -3.0}, "e = c * c"),
    ):
        title = titled(code, leaves)
        root, names, _ = guarded(title, lang, partial(program(code, leaves), V))
        eroot, enames, _ = program(code, leaves)(engine.Value)
        guarded("backward()", lang, root.backward)
        eroot.backward()
        if second is None:  # the same graph again: each leaf gets its share twice
            title += "; c.backward(); c.backward()"
            guarded("backward()", lang, root.backward)
            eroot.backward()
        else:
            title += f"; d.backward(); (every grad = 0); {second}; e.backward()"
            for scope in (names, enames):
                for v in scope.values():
                    v.grad = 0
                scope["e"] = scope["c"] * scope["c"]
            guarded("backward()", lang, names["e"].backward)
            enames["e"].backward()
        for leaf in leaves:
            if not close(names[leaf].grad, enames[leaf].grad, rel=1e-9):
                found, want = fmt(names[leaf].grad), fmt(enames[leaf].grad)
                fields = {"input": leaf, "found": found, "expected": want, "where": title}
                return Problem("visit-order", text("practice.second_call", lang, **fields))
    return None


def _numeric(build: Callable[[Any], Graph], leaf: str) -> float:
    """d root / d leaf of the engine's graph by central differences."""
    root, names, _ = build(engine.Value)
    x = names[leaf].data
    h = 1e-6 * max(1.0, abs(x))
    return (_rebuild(build, leaf, x + h) - _rebuild(build, leaf, x - h)) / (2 * h)


def _rebuild(build: Callable[[Any], Graph], leaf: str, value: float) -> float:
    """The root's data with one leaf's starting data replaced (the graph built again)."""
    wanted = {"n": 0}
    index = {"a": 0, "b": 1, "c": 1}[leaf]

    def make(data: float, *args: Any) -> engine.Value:
        i = wanted["n"]
        wanted["n"] += 1
        return engine.Value(value if i == index and not args else data, *args)

    root, _, _ = build(make)
    return float(root.data)
