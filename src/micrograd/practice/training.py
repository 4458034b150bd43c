"""The checks of zero_grad / train (the accumulation traps) and of a learner's Neuron, Layer and
MLP, each against the same computation on micrograd's engine."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from micrograd import engine
from micrograd.data import moons
from micrograd.practice.checker import LearnerError, function_of, guarded, value_class
from micrograd.practice.exercises import Exercise
from micrograd.practice.messages import say
from micrograd.practice.result import CheckResult, Row
from micrograd.practice.rules import close, fmt, topo
from micrograd.practice.steps import Problem

STEPS = 5
LR = 0.05
MLP_SIZES = [2, 8, 8, 1]
MAX_STEPS = 200  # training stops as soon as the accuracy is over 0.9


def _fail(problem: Problem) -> LearnerError:
    return LearnerError(problem)


def _loss(params: Sequence[Any], data: Sequence[tuple[float, float]]) -> Any:
    """sum((w * x + b - y)**2), written with + and * only (the ops every engine has first)."""
    w, b = params
    loss = None
    for x, y in data:
        d = w * x + b + (-y)
        loss = d * d if loss is None else loss + d * d
    return loss


# ---------------------------------------------------------------------------- zero-grad
def check_zero_grad(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """zero_grad(params), zero_grad_all(root) and train(params, loss_fn, steps, lr)."""
    V = value_class(ns, lang)
    zero_grad = function_of(ns, "zero_grad", lang)
    zero_grad_all = function_of(ns, "zero_grad_all", lang)
    train = function_of(ns, "train", lang)
    rng = random.Random(seed)
    result = CheckResult(ex.id, True, seed=seed, lang=lang)

    params = [V(1.0), V(2.0)]
    for p in params:
        p.grad = rng.uniform(1, 5)
    guarded("zero_grad(params)", lang, lambda: zero_grad(params))
    for i, p in enumerate(params):
        if not close(p.grad, 0):
            raise _fail(Problem("not-reset", say("params_not_zeroed", lang, index=i, value=p.grad)))

    # a graph used twice: zero_grad_all must reach every node, not only the leaves
    x = rng.uniform(0.5, 2)
    a = V(x)
    m = a * a
    root = m * m
    guarded("root.backward()", lang, root.backward)
    first = a.grad
    guarded("zero_grad_all(root)", lang, lambda: zero_grad_all(root))
    names = {id(a): "a", id(m): "(a * a)", id(root): "root"}
    for node in topo([root]):
        if not close(node.grad, 0):
            text = say("still_set", lang, node=names.get(id(node), "?"), value=fmt(node.grad))
            raise _fail(Problem("not-reset", text))
    guarded("root.backward()", lang, root.backward)
    e = engine.Value(x)
    em = e * e
    (em * em).backward()
    row = Row("a ((a*a)*(a*a))")
    row.add(a.grad, float(e.grad), 4 * x**3)
    result.rows.append(row)
    if not close(a.grad, first, rel=1e-9):
        text = say("twice_after_reset", lang, found=fmt(a.grad), expected=fmt(first))
        raise _fail(Problem("not-reset", text))

    _check_train(train, V, rng, lang, result)
    return result


def _check_train(
    train: Callable[..., Any], V: Any, rng: random.Random, lang: str, result: CheckResult
) -> None:
    """Run the learner's train() on a line fit; read each step's grads back from the parameters."""
    data = [(x, 2.0 * x - 1.0 + rng.uniform(-0.1, 0.1)) for x in (-1.0, -0.3, 0.4, 1.2)]
    params = [V(rng.uniform(-1, 1)), V(rng.uniform(-1, 1))]
    seen: list[tuple[list[float], list[Any]]] = []  # at each loss_fn(): (data, grads)

    def loss_fn() -> Any:
        seen.append(([float(p.data) for p in params], [p.grad for p in params]))
        return _loss(params, data)

    guarded("train(params, loss_fn, steps, lr)", lang, lambda: train(params, loss_fn, STEPS, LR))
    if len(seen) != STEPS:
        raise _fail(Problem("other", say("calls", lang, found=len(seen), steps=STEPS)))
    final = ([float(p.data) for p in params], [p.grad for p in params])
    used = [grads for _, grads in seen[1:]] + [final[1]]  # the grads each step updated with
    rows = [Row("w (train)"), Row("b (train)")]
    for step, ((values, _), grads) in enumerate(zip(seen, used), start=1):
        ev = [engine.Value(v) for v in values]
        _loss(ev, data).backward()
        want = [float(v.grad) for v in ev]
        for i, name in enumerate(("w", "b")):
            rows[i].add(grads[i], want[i], None)
            if close(grads[i], want[i], rel=1e-6):
                continue
            fields = {"step": step, "name": name, "found": fmt(grads[i]), "expected": fmt(want[i])}
            if step > 1 and close(grads[i], want[i] + float(used[step - 2][i]), rel=1e-6):
                previous = {"previous": fmt(used[step - 2][i]), "previous_step": step - 1}
                raise _fail(Problem("not-reset", say("accumulated", lang, **fields, **previous)))
            if close(grads[i], 0):
                raise _fail(Problem("not-reset", say("zeroed_late", lang, **fields)))
            raise _fail(Problem("other", say("bad_grad", lang, **fields)))
        after = seen[step][0] if step < STEPS else final[0]
        for i, name in enumerate(("w", "b")):
            expected = values[i] - LR * float(grads[i])
            if not close(after[i], expected, rel=1e-9):
                fields = {"step": step, "name": name, "found": fmt(after[i])}
                raise _fail(
                    Problem("other", say("bad_update", lang, **fields, expected=fmt(expected)))
                )
    result.rows += rows


# ---------------------------------------------------------------------------- the MLP
def _act(name: str, x: float) -> float:
    return math.tanh(x) if name == "tanh" else max(0.0, x) if name == "relu" else x


def _replica(values: list[float], act: str, last: str) -> Callable[[Sequence[float]], Any]:
    """The MLP on micrograd's engine with the learner's parameter values (lecture order: layer
    by layer, neuron by neuron, w then b)."""
    params = [engine.Value(v) for v in values]

    def forward(x: Sequence[float]) -> Any:
        it = iter(params)
        xs: list[Any] = [engine.Value(v) for v in x]
        for i, (nin, nout) in enumerate(zip(MLP_SIZES, MLP_SIZES[1:])):
            name = last if i == len(MLP_SIZES) - 2 else act
            outs = []
            for _ in range(nout):
                w = [next(it) for _ in range(nin)]
                s = sum((wi * xi for wi, xi in zip(w, xs)), next(it))
                outs.append(s.tanh() if name == "tanh" else s.relu() if name == "relu" else s)
            xs = outs
        return xs[0]

    forward.params = params  # type: ignore[attr-defined]
    return forward


def check_mlp(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """The learner's Neuron forward, MLP(2, [8, 8, 1])'s grads against the engine, then
    training on two moons to over 0.9 accuracy."""
    value_class(ns, lang)
    Neuron, MLP = (function_of(ns, n, lang) for n in ("Neuron", "MLP"))
    function_of(ns, "Layer", lang)
    rng = random.Random(seed)
    state = random.getstate()
    random.seed(seed)  # the learner's random.uniform weights, reproducible from the seed
    try:
        return _check_mlp(ex, Neuron, MLP, rng, seed, lang)
    finally:
        random.setstate(state)


def _check_mlp(
    ex: Exercise, Neuron: Any, MLP: Any, rng: random.Random, seed: int, lang: str
) -> CheckResult:
    neuron = guarded("Neuron(3)", lang, lambda: Neuron(3))
    params = guarded("Neuron(3).parameters()", lang, lambda: list(neuron.parameters()))
    if len(params) != 4:
        text = say("params_count", lang, what="Neuron(3)", found=len(params), expected=4)
        raise _fail(Problem("other", text))
    x = [rng.uniform(-1, 1) for _ in range(3)]
    out = guarded("Neuron(3)(x)", lang, lambda: neuron(x))
    pre = sum(float(w.data) * xi for w, xi in zip(params, x)) + float(params[3].data)
    act = next((a for a in ("tanh", "relu") if close(out.data, _act(a, pre), rel=1e-9)), None)
    if act is None:
        fields = {"found": fmt(out.data), "expected": fmt(math.tanh(pre)), "relu": fmt(max(0, pre))}
        raise _fail(Problem("wrong-forward", say("neuron_forward", lang, **fields)))

    model = guarded("MLP(2, [8, 8, 1])", lang, lambda: MLP(2, MLP_SIZES[1:]))
    params = guarded("MLP.parameters()", lang, lambda: list(model.parameters()))
    count = sum((nin + 1) * nout for nin, nout in zip(MLP_SIZES, MLP_SIZES[1:]))
    if len(params) != count:
        text = say(
            "params_count", lang, what="MLP(2, [8, 8, 1])", found=len(params), expected=count
        )
        raise _fail(Problem("other", text))
    sample = [[rng.uniform(-1, 2), rng.uniform(-1, 1)] for _ in range(3)]
    outs = [guarded("MLP(2, [8, 8, 1])(x)", lang, partial(model, s)) for s in sample]
    if not all(hasattr(o, "data") for o in outs):
        kind = type(next(o for o in outs if not hasattr(o, "data"))).__name__
        raise _fail(Problem("other", say("mlp_output", lang, kind=kind)))
    values = [float(p.data) for p in params]
    replica = next(
        (
            _replica(values, act, last)
            for last in (act, "linear")
            if all(
                close(o.data, _replica(values, act, last)(s).data, rel=1e-9)
                for o, s in zip(outs, sample)
            )
        ),
        None,
    )
    if replica is None:
        fields = {
            "found": fmt(outs[0].data),
            "expected": fmt(_replica(values, act, act)(sample[0]).data),
        }
        raise _fail(
            Problem(
                "wrong-forward",
                say("out_differs", lang, what="MLP(2, [8, 8, 1])(x)", where="x", **fields),
            )
        )
    # one backward on a small loss, beside the engine's
    loss = outs[0] * outs[0] + outs[1] * outs[2]
    guarded("loss.backward()", lang, loss.backward)
    e = [replica(s) for s in sample]
    (e[0] * e[0] + e[1] * e[2]).backward()
    result = CheckResult(ex.id, True, seed=seed, lang=lang)
    row = Row("MLP parameters")
    for i, (p, q) in enumerate(zip(params, replica.params)):  # type: ignore[attr-defined]
        row.add(p.grad, float(q.grad), None)
        if not close(p.grad, q.grad, rel=1e-6, abs_=1e-9):
            found, want = fmt(p.grad), fmt(q.grad)
            text = say("mlp_grad", lang, index=i, found=found, expected=want)
            raise _fail(Problem("other", text))
    result.rows.append(row)
    steps, accuracy = _train(model, params, seed)
    if accuracy <= 0.9:
        text = say("accuracy", lang, steps=steps, accuracy=f"{accuracy:.2f}")
        raise _fail(Problem("other", text))
    result.notes.append(f"moons: {accuracy:.2f} after {steps} steps")
    return result


def _train(model: Any, params: list[Any], seed: int) -> tuple[int, float]:
    """Full-batch gradient descent with momentum on the mean squared error to labels -1/+1;
    stops as soon as the training accuracy is over 0.9. Returns (steps, accuracy)."""
    X, y = moons(n=60, noise=0.1, seed=seed % 100_000)
    targets = [1.0 if t else -1.0 for t in y]
    velocity = [0.0] * len(params)
    accuracy = 0.0
    for step in range(MAX_STEPS):
        loss = None
        right = 0
        for x, t in zip(X, targets):
            out = model(x)
            right += (float(out.data) > 0) == (t > 0)
            d = out + (-t)
            loss = d * d if loss is None else loss + d * d
        accuracy = right / len(X)
        if accuracy > 0.9:
            return step, accuracy
        assert loss is not None
        loss = loss * (1.0 / len(X))
        for p in params:
            p.grad = 0.0
        loss.backward()
        for i, p in enumerate(params):  # momentum 0.8: about half the steps of plain SGD here
            velocity[i] = 0.8 * velocity[i] - 0.3 * p.grad
            p.data += velocity[i]
    return MAX_STEPS, accuracy
