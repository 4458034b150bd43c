"""The check of microgpt's Value, which stores each op's local gradients instead of a closure.

First each op (+, *, ** k, log, exp, relu) at the points of the lecture's op exercises (both signs,
zero, large numbers, a negative base of an even power, a Value used twice, a number on either
side): its number, and the local grads it stored, which the check reads directly, so a wrong one
is named with the number stored and the number expected. Then backward() on the graphs of the
backward() exercise (shared Values reached by paths of different lengths, equal data on distinct
Values, random graphs drawn now, a deep chain as a challenge), every named Value's grad against
micrograd's engine. A wrong order or bookkeeping is named only where the learner's grads are,
on every graph, those of backward() written with that mistake over the learner's own graph.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

from micrograd import engine
from micrograd.practice.exercises import EXERCISES, Exercise, Point, as_typed
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
    titled,
)
from micrograd.practice.result import CheckResult, Problem, apart, close, explanation, fmt
from micrograd.practice.rules import inputs_of, topo
from micrograd.practice.sandbox import LearnerError, guarded, value_class
from micrograd.text import text, then

OPS = ("op-add", "op-mul", "op-pow", "op-log", "op-exp", "op-relu")  # the ops microgpt's Value has


def _stored(node: Any) -> list[Any]:
    """What a node stored as its local grads, as a list (nothing where it stored no sequence)."""
    try:
        return list(getattr(node, "_local_grads", ()) or ())
    except TypeError:
        return []


def _locals(node: Any) -> list[float]:
    """The local grads a node stored, as numbers (a Value stored as one counts by its data)."""
    try:
        return [float(getattr(g, "data", g)) for g in _stored(node)]
    except (TypeError, ValueError, OverflowError):
        return []


def _float(x: Any) -> float:
    """A grad as a number (a Value by its data; nan where it is no number at all)."""
    try:
        return float(getattr(x, "data", x))
    except (TypeError, ValueError, OverflowError):
        return math.nan


def _chain_rule(out: Any, leaves: list[Any]) -> list[float]:
    """d out / d leaf for each leaf, by the stored local grads (the right order, whatever the
    learner's backward() does): what the learner's Value says of each op."""
    grads = {id(out): 1.0}
    for node in reversed(topo([out])):
        for child, local in zip(inputs_of(node), _locals(node)):
            grads[id(child)] = grads.get(id(child), 0.0) + local * grads.get(id(node), 0.0)
    return [grads.get(id(leaf), 0.0) for leaf in leaves]


def _op(ex: Exercise, V: Any, point: Point, lang: str) -> Problem | None:
    """The op at one point: its number, then each leaf's grad by the learner's local grads."""
    spec = ex.op
    assert spec is not None
    xs = [point.args[1 - point.number]] if point.number is not None else list(point.args)
    xs = xs[: point.leaves()]
    names = ["a", "b"][: len(xs)]
    what = spec.shown(names, point)
    if point.k_used:
        what = what.replace("k", fmt(as_typed(point.k)))
    at = ", ".join(f"{n} = {fmt(x)}" for n, x in zip(names, xs))

    def run(cls: Any) -> tuple[list[Any], list[Any]]:
        leaves = [cls(x) for x in xs]
        return leaves, spec.outputs(spec.operands(leaves, point), point)

    try:
        leaves, outs = guarded(f"{at}; {what}", lang, partial(run, V))
    except LearnerError as e:
        if point.number is not None and _on_values(spec, V, point):  # the number, not the op
            said = then(e.problem.step, text("practice.gpt.op_number", lang), lang)
            raise LearnerError(Problem("number-operand", said)) from e
        raise
    engine_leaves, theirs = run(engine.Value)
    for name, leaf, x in zip(names, leaves, xs):
        if getattr(leaf, "data", x) != x:  # an op reads its inputs; it never writes them
            fields = {"what": what, "at": at, "name": name, "found": fmt(leaf.data)}
            return Problem("wrong-forward", text("practice.gpt.op_changed_input", lang, **fields))
    for out in outs:
        if not hasattr(out, "data"):
            fields = {"what": f"{at}; {what}", "kind": type(out).__name__}
            return Problem("wrong-forward", text("practice.not_value", lang, **fields))
        stored = _stored(out)
        if any(not isinstance(g, (int, float)) for g in stored):
            kinds = ", ".join(type(g).__name__ for g in stored)
            fields = {"what": what, "at": at, "kinds": kinds}
            return Problem("wrong-local", text("practice.gpt.op_value_grads", lang, **fields))
    for out, want in zip(outs, theirs):
        if not close(getattr(out, "data", None), want.data, rel=1e-9, abs_=1e-12):
            fields = {
                "what": what,
                "at": at,
                "found": apart(getattr(out, "data", out), want.data)[0],
                "expected": apart(getattr(out, "data", out), want.data)[1],
            }
            return Problem("wrong-forward", text("practice.gpt.op_forward", lang, **fields))
    for out, want in zip(outs, theirs):
        for leaf in engine_leaves:  # each output's own derivative (a unary op twice: two)
            leaf.grad = 0.0
        want.backward()
        expected = [float(leaf.grad) for leaf in engine_leaves]
        found = _chain_rule(out, leaves)
        if all(close(f, e, rel=1e-9, abs_=1e-12) for f, e in zip(found, expected)):
            continue
        children = inputs_of(out)
        stored = _locals(out)
        fields = {
            "what": what,
            "at": at,
            "stored": ", ".join(fmt(g) for g in stored) or "-",
            "children": str(len(children)),
        }
        if len(stored) != len(children):
            return Problem("wrong-local", text("practice.gpt.op_counts", lang, **fields))
        if not any(any(c is leaf for c in topo([out])) for leaf in leaves):
            return Problem("graph-cut", text("practice.gpt.op_no_children", lang, **fields))
        fields["found"] = ", ".join(fmt(f) for f in found)
        fields["expected"] = ", ".join(fmt(e) for e in expected)
        fields["leaves"] = ", ".join(names)
        mistake = "wrong-operand" if _swapped(spec, children, stored, point) else "wrong-local"
        step = text("practice.gpt.op_local", lang, **fields)
        if mistake == "wrong-operand":
            step = then(step, text("practice.gpt.op_swapped", lang), lang)
        return Problem(mistake, step)
    return None


def _on_values(spec: Any, V: Any, point: Point) -> bool:
    """Whether the op at a point with a plain number runs when the number is a Value too."""
    x, number = point.args[1 - (point.number or 0)], point.args[point.number or 0]
    try:
        a, b = V(x), V(number)
        spec.apply(*((a, b) if point.number == 1 else (b, a)), point.k)
    except Exception:  # noqa: BLE001 - any failure of the learner's code: it does not run
        return False
    return True


def _swapped(spec: Any, children: list[Any], stored: list[float], point: Point) -> bool:
    """Whether a binary op stored each child's local grad for the other child: the right local
    grads of its two children (their numbers on the engine), in the other order."""
    if spec.arity != 2 or len(children) != 2:
        return False
    a, b = (engine.Value(float(getattr(c, "data", c))) for c in children)
    spec.apply(a, b, point.k).backward()
    right = [float(a.grad), float(b.grad)]
    same = all(close(x, y, rel=1e-9, abs_=1e-12) for x, y in zip(stored, right))
    return not same and all(close(x, y, rel=1e-9, abs_=1e-12) for x, y in zip(stored, right[::-1]))


# ------------------------------------------------------------------ backward(), and its mistakes
def _orders(root: Any) -> dict[str, list[Any]]:
    """Orders a backward() may walk the graph in: the right one (a topological order, outputs
    first) and wrong ones."""
    post = topo([root])
    bfs, seen, queue = [], {id(root)}, deque([root])
    while queue:
        node = queue.popleft()
        bfs.append(node)
        for child in inputs_of(node):
            if id(child) not in seen:
                seen.add(id(child))
                queue.append(child)
    pre, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            pre.append(node)
            stack.extend(reversed(inputs_of(node)))
    repeats: list[Any] = []  # no `visited`: a Value reached by two paths is listed twice
    stack2: list[tuple[Any, bool]] = [(root, False)]
    while stack2 and len(repeats) < 10_000:
        node, expanded = stack2.pop()
        if expanded:
            repeats.append(node)
        else:
            stack2.append((node, True))
            stack2.extend((c, False) for c in reversed(inputs_of(node)))
    by_data, kept = [], set()
    for node in post:  # `visited` keyed by the number: equal data counted once
        if node.data not in kept:
            kept.add(node.data)
            by_data.append(node)
    return {
        "right": post[::-1],
        "post": post,
        "bfs": bfs,
        "pre": pre,
        "by-data": by_data[::-1],
        "repeats": repeats[::-1],
    }


def _model(
    root: Any, order: str = "right", add: bool = True, seed: float = 1.0, upstream: str = "grad"
) -> dict[int, float]:
    """Each Value's grad after a backward() walking `order`, adding (or assigning) each child's
    share local * v.grad (or local alone, or local * v.data), from a root grad `seed`."""
    grads: dict[int, float] = {id(root): seed}
    for v in _orders(root)[order]:
        g = {"grad": grads.get(id(v), 0.0), "none": 1.0, "data": v.data}[upstream]
        for child, local in zip(inputs_of(v), _locals(v)):
            share = local * g
            grads[id(child)] = grads.get(id(child), 0.0) + share if add else share
    return grads


MODELS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("not-reversed", "practice.gpt.bw_not_reversed", {"order": "post"}),
    ("reversed-not-topological", "practice.gpt.bw_bfs", {"order": "bfs"}),
    ("reversed-not-topological", "practice.gpt.bw_preorder", {"order": "pre"}),
    ("visit-order", "practice.gpt.bw_by_data", {"order": "by-data"}),
    ("visit-order", "practice.gpt.bw_repeats", {"order": "repeats"}),
    ("assign-not-add", "practice.gpt.bw_assign", {"add": False}),
    ("no-output-grad", "practice.gpt.bw_no_seed", {"seed": 0.0}),
    ("no-upstream", "practice.gpt.bw_no_upstream", {"upstream": "none"}),
    ("value-as-slope", "practice.gpt.bw_data", {"upstream": "data"}),
)


# what several mistakes of one kind say together, where the graphs cannot tell them apart
SHARED = {
    "reversed-not-topological": "practice.gpt.bw_not_topological",
    "visit-order": "practice.gpt.bw_visits",
}


def _graphs(rng: random.Random, lang: str) -> list[tuple[str, Callable[[Any], Graph]]]:
    """The backward() exercise's small graphs, then random ones drawn now, smallest first."""
    drawn = sorted((random_program(rng) for _ in range(RANDOM_GRAPHS)), key=lambda p: len(p[0]))
    return [(titled(code, leaves), program(code, leaves)) for code, leaves in (*FAMILY, *drawn)]


def _backward(
    V: Any,
    title: str,
    build: Callable[[Any], Graph],
    lang: str,
    seen: list[tuple[dict[str, float], dict[str, dict[str, float]]]] | None,
) -> Problem | None:
    """backward() on one graph: every named Value's grad against the engine. What the learner's
    grads were, and each model's, is kept in `seen` for the evidence (None: not kept)."""
    root, named, _ = guarded(title, lang, partial(build, V))
    try:
        return _compare(V, title, build, lang, seen, root, named)
    finally:  # freed whole, a chain of 20,000 frees recursively and overflows the browser's stack
        dismantle(topo([root]))


def _compare(
    V: Any,
    title: str,
    build: Callable[[Any], Graph],
    lang: str,
    seen: list[tuple[dict[str, float], dict[str, dict[str, float]]]] | None,
    root: Any,
    named: dict[str, Any],
) -> Problem | None:
    """The learner's backward() on the graph built, against the engine's on the same graph."""
    models = {words: _model(root, **how) for _, words, how in MODELS} if seen is not None else {}
    guarded(f"{title}: backward()", lang, root.backward)
    want_root, want_named, _ = build(engine.Value)
    want_root.backward()
    found = {n: _float(getattr(v, "grad", math.nan)) for n, v in named.items()}
    if seen is not None:
        seen.append(
            (
                found,
                {w: {n: g.get(id(v), 0.0) for n, v in named.items()} for w, g in models.items()},
            )
        )
    for name in reversed(list(named)):  # the root first: the first wrong step of the pass
        want = float(want_named[name].grad)
        if not close(found[name], want, rel=1e-9, abs_=1e-12):
            shown = apart(found[name], want)
            fields = {"name": name, "found": shown[0], "expected": shown[1]}
            return Problem("other", f"{title}: {text('practice.gpt.bw_grad', lang, **fields)}")
    return None


def _why(seen: list[tuple[dict[str, float], dict[str, dict[str, float]]]]) -> tuple[str, str]:
    """The mistake whose backward() gives the learner's grads on every graph so far: its name
    and words; where several do and say different things, only what they share (the name, or
    nothing); ('', '') where none does."""
    fits = [
        (mistake, words)
        for mistake, words, _ in MODELS
        if all(
            all(close(found[n], model[words][n], rel=1e-9, abs_=1e-12) for n in found)
            for found, model in seen
        )
    ]
    named = explanation(fits)
    if named is not None:
        return named
    names = {mistake for mistake, _ in fits}
    if len(names) != 1:
        return "", ""
    mistake = names.pop()  # the kind all of them are, in the words for the kind
    return mistake, SHARED.get(mistake, "")


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """Each op's number and stored local grads, then backward() on small and random graphs."""
    V = value_class(ns, lang)
    rng = random.Random(seed)
    result = CheckResult(ex.id, True, seed=seed, lang=lang)
    for op_id in OPS:
        op_ex = EXERCISES[op_id]
        assert op_ex.op is not None
        # the edge cases first (simple numbers), fewest Values first; random points after
        drawn = op_ex.op.points(rng)[:3]
        for point in sorted([*op_ex.op.edges, *drawn], key=lambda p: (p.leaves(), p.twice)):
            problem = _op(op_ex, V, point, lang)
            if problem is not None:
                return result.fail(problem)
    seen: list[tuple[dict[str, float], dict[str, dict[str, float]]]] = []
    for title, build in _graphs(rng, lang):
        problem = _backward(V, title, build, lang, seen)
        kept = kept_default(V)
        if kept is not None:  # what the next backward() would find: the root of what goes wrong
            method, arg, kind, n = kept
            fields = {"method": method, "arg": arg, "kind": kind, "n": n, "where": title}
            return result.fail(
                Problem("visit-order", text("practice.kept_default", lang, **fields))
            )
        if problem is not None:
            mistake, words = _why(seen)
            if mistake:
                said = then(problem.step, text(words, lang), lang) if words else problem.step
                problem = Problem(mistake, said)
            return result.fail(problem)
    problem = accumulates(V, 1.5, -2.0, lang)  # two backward() calls add up on shared leaves
    if problem is not None:
        return result.fail(problem)
    title = text("practice.chain", lang, n=f"{CHAIN:,}")
    try:  # a challenge: microgpt's own recursive sort does not reach the end of it
        problem = _backward(V, title, lambda cls: chain(cls, 0.5), lang, None)
    except LearnerError as e:
        if e.problem.mistake != "recursion-limit":
            raise
        result.notes.append(text("practice.deep_challenge", lang, n=f"{CHAIN:,}"))
        problem = None
    return result.fail(problem) if problem is not None else result
