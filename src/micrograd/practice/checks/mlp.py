"""The check of a learner's Neuron, Layer and MLP: a neuron's forward, MLP(2, [8, 8, 1])'s grads
against the same network on micrograd's engine, then a few steps of training on two moons,
step by step against the engine's network trained the same way from the same weights."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from micrograd import engine
from micrograd.data import moons
from micrograd.practice.exercises import Exercise
from micrograd.practice.result import CheckResult, Problem, Row, close, fmt
from micrograd.practice.sandbox import LearnerError, function_of, guarded, value_class
from micrograd.text import aside, text

MLP_SIZES = [2, 8, 8, 1]
STEPS = 6  # of full-batch training: each loss must be the engine's, and the last one lower


def _act(name: str, x: float) -> float:
    """The activation `name` ("tanh", "relu", else linear) of x."""
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


def check(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
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
    """A neuron, then the network's forward and grads, then training it: the first that fails
    raises a LearnerError."""
    act = _neuron(Neuron, rng, lang)
    model, params, row, replicas = _network(MLP, act, rng, lang)
    losses = guarded("training MLP(2, [8, 8, 1])", lang, partial(_train, model, params, seed))
    # of the last layers that fit the forward, the one whose training the learner's follows
    trained = [_train(replica, replica.params, seed) for replica in replicas]
    wanted = next((w for w in trained if all(map(close, losses, w))), trained[0])
    for step, (found, want) in enumerate(zip(losses, wanted)):
        if not close(found, want, rel=1e-9):
            fields = {"step": step, "found": fmt(found), "expected": fmt(want)}
            raise LearnerError(Problem("other", text("practice.train_loss", lang, **fields)))
    result = CheckResult(ex.id, True, seed=seed, lang=lang, rows=[row])
    first, last = fmt(losses[0]), fmt(losses[-1])
    result.notes.append(text("practice.trained", lang, steps=STEPS, first=first, last=last))
    return result


def _neuron(Neuron: Any, rng: random.Random, lang: str) -> str:
    """Neuron(3)'s parameters and forward; the activation it computes ("tanh" or "relu")."""
    neuron = guarded("Neuron(3)", lang, lambda: Neuron(3))
    params = guarded("Neuron(3).parameters()", lang, lambda: list(neuron.parameters()))
    if len(params) != 4:
        step = text("practice.params_count", lang, what="Neuron(3)", found=len(params), expected=4)
        raise LearnerError(Problem("param-count", step))
    _all_values(params, "Neuron(3).parameters()", lang)
    x0 = [rng.uniform(-1, 1) for _ in range(3)]
    found, pres = [], []
    for scale in (1, 10, -10):  # w·x dominates b at +-10x: one of them is negative
        x = [scale * xi for xi in x0]
        out = guarded("Neuron(3)(x)", lang, partial(neuron, x))
        if not hasattr(out, "data"):
            kind = type(out).__name__
            raise LearnerError(
                Problem("other", text("practice.not_value", lang, what="Neuron(3)(x)", kind=kind))
            )
        found.append(out.data)
        pres.append([float(p.data) for p in params] + x)

    def computes(act: str, bias_first: bool = False) -> bool:
        return all(
            close(y, _act(act, _pre(values, bias_first)), rel=1e-9)
            for y, values in zip(found, pres)
        )

    act = next((a for a in ("tanh", "relu") if computes(a)), None)
    if act is None and any(computes(a, bias_first=True) for a in ("tanh", "relu")):
        raise LearnerError(Problem("param-order", text("practice.param_order", lang)))
    if act is None:
        key = "practice.neuron_linear" if computes("linear") else "practice.neuron_forward"
        y, pre = found[0], _pre(pres[0])
        fields = {"found": fmt(y), "expected": fmt(math.tanh(pre)), "relu": fmt(max(0, pre))}
        raise LearnerError(Problem("wrong-forward", text(key, lang, **fields)))
    return act


def _pre(values: list[float], bias_first: bool = False) -> float:
    """w·x + b of Neuron(3) from its 4 parameters' numbers (w then b, or b then w) and x."""
    params, x = values[:4], values[4:]
    b, w = (params[0], params[1:]) if bias_first else (params[3], params[:3])
    return sum(wi * xi for wi, xi in zip(w, x)) + b


def _all_values(params: list[Any], what: str, lang: str) -> None:
    """A LearnerError naming the first parameter that is not a Value (a weight left a float)."""
    for i, p in enumerate(params):
        if isinstance(p, (list, tuple)):  # the neurons' lists, not joined into one
            fields = {"what": f"{what}[{i}]", "kind": type(p).__name__}
            raise LearnerError(Problem("nested-params", text("practice.nested", lang, **fields)))
        if not all(hasattr(p, a) for a in ("data", "grad")):
            fields = {"what": f"{what}[{i}]", "kind": type(p).__name__}
            raise LearnerError(Problem("other", text("practice.param_not_value", lang, **fields)))


def _network(MLP: Any, act: str, rng: random.Random, lang: str) -> tuple[Any, list[Any], Row, Any]:
    """MLP(2, [8, 8, 1])'s parameters, forward and grads against the same network on the engine
    (its last layer `act` or linear); (the model, its parameters, the row of its grads, fresh
    engine replicas with the same weights: one for each last layer that fits the forward, as a
    relu output that is positive at the points tried is linear there)."""
    model = guarded("MLP(2, [8, 8, 1])", lang, lambda: MLP(2, MLP_SIZES[1:]))
    params = guarded("MLP.parameters()", lang, lambda: list(model.parameters()))
    _all_values(params, "MLP.parameters()", lang)
    again = guarded("MLP.parameters()", lang, lambda: list(model.parameters()))
    if [id(p) for p in again] != [id(p) for p in params]:  # a list kept and added to
        counts = {"first": len(params), "second": len(again)}
        raise LearnerError(Problem("param-count", text("practice.params_again", lang, **counts)))
    count = sum((nin + 1) * nout for nin, nout in zip(MLP_SIZES, MLP_SIZES[1:]))
    if len(params) != count:
        # the first layer's parameters alone: the loop that builds the layers ended after one
        first = (MLP_SIZES[0] + 1) * MLP_SIZES[1]
        key = (
            "practice.mlp_first_layer_only" if len(params) == first else "practice.mlp_params_count"
        )
        step = text(key, lang, found=len(params), expected=count)
        layer = _layer_off(model)
        if layer is not None and len(params) != first:
            step = aside(step, text("practice.mlp_layer_count", lang, **layer), lang)
        raise LearnerError(Problem("param-count", step))
    most = max(Counter(id(p) for p in params).values())
    if most > 1:  # [Neuron(nin)] * nout, or [Value(...)] * nin: one object, listed n times
        step = text("practice.shared_neuron", lang, n=most)
        raise LearnerError(Problem("shared-neuron", step))
    sample = [[rng.uniform(-1, 2), rng.uniform(-1, 1)] for _ in range(3)]
    outs = [guarded("MLP(2, [8, 8, 1])(x)", lang, partial(model, s)) for s in sample]
    kinds = [type(o).__name__ for o in outs]
    if hasattr(outs[0], "data") and len(set(kinds)) > 1:  # a Value first, then something else
        step = text("practice.mlp_output_changes", lang, kinds=", ".join(kinds))
        raise LearnerError(Problem("other", step))
    if not all(hasattr(o, "data") for o in outs):
        kind = type(next(o for o in outs if not hasattr(o, "data"))).__name__
        raise LearnerError(Problem("list-output", text("practice.mlp_output", lang, kind=kind)))
    values = [float(p.data) for p in params]

    lasts = [
        last for last in dict.fromkeys((act, "linear")) if _fits(values, act, last, outs, sample)
    ]
    last = lasts[0] if lasts else None
    if last is None and _bias_first(values, act, outs, sample):
        raise LearnerError(Problem("param-order", text("practice.param_order", lang)))
    if last is None and _fits_by_structure(model, act, outs, sample):
        # the network computes right with its neurons' own w and b: parameters() lists them in
        # another order (all weights first, a set, ...)
        raise LearnerError(Problem("param-order", text("practice.param_order_listed", lang)))
    replica = None if last is None else _replica(values, act, last)
    if replica is None:
        fields = {
            "found": fmt(outs[0].data),
            "expected": fmt(_replica(values, act, act)(sample[0]).data),
        }
        raise LearnerError(
            Problem(
                "wrong-forward",
                text(
                    "practice.out_differs", lang, what="MLP(2, [8, 8, 1])(x)", where="x", **fields
                ),
            )
        )
    # one backward on a small loss, beside the engine's
    loss = outs[0] * outs[0] + outs[1] * outs[2]
    guarded("loss.backward()", lang, loss.backward)
    e = [replica(s) for s in sample]
    (e[0] * e[0] + e[1] * e[2]).backward()
    row = Row(text("practice.row_mlp", lang))
    for i, (p, q) in enumerate(zip(params, replica.params)):  # type: ignore[attr-defined]
        row.add(p.grad, float(q.grad), None)
        if not close(p.grad, q.grad, rel=1e-6, abs_=1e-9):
            found, want = fmt(p.grad), fmt(q.grad)
            step = text("practice.mlp_grad", lang, index=i, found=found, expected=want)
            raise LearnerError(Problem("other", step))
    return model, params, row, [_replica(values, act, last) for last in lasts]


def _layer_off(model: Any) -> dict[str, int] | None:
    """The first layer of model.layers (the lecture's structure) whose parameters are not
    (nin + 1) * nout: its index, sizes and count; None if all are, or there is no such list."""
    try:
        counts = [len(list(layer.parameters())) for layer in model.layers]
    except (AttributeError, TypeError):
        return None
    for i, (found, (nin, nout)) in enumerate(zip(counts, zip(MLP_SIZES, MLP_SIZES[1:]))):
        if found != (nin + 1) * nout:
            return {"i": i, "nin": nin, "nout": nout, "found": found, "expected": (nin + 1) * nout}
    return None


def _fits_by_structure(model: Any, act: str, outs: list[Any], sample: list[Any]) -> bool:
    """Whether the network's forward is right with the weights read from its structure as the
    lecture builds it (model.layers, each layer's neurons, each neuron's w and b), whatever
    order parameters() gives them in."""
    try:
        values = [
            float(x.data)
            for layer in model.layers
            for neuron in layer.neurons
            for x in [*neuron.w, neuron.b]
        ]
    except (AttributeError, TypeError):  # not the lecture's structure: nothing to tell by
        return False
    return any(_fits(values, act, last, outs, sample) for last in (act, "linear"))


def _fits(values: list[float], act: str, last: str, outs: list[Any], sample: list[Any]) -> bool:
    """Whether the network on the engine with these weights (lecture order) and last layer gives
    the learner's outputs at the sample points."""
    replica = _replica(values, act, last)
    return all(close(o.data, replica(s).data, rel=1e-9) for o, s in zip(outs, sample))


def _bias_first(values: list[float], act: str, outs: list[Any], sample: list[Any]) -> bool:
    """Whether the network's forward is right with each neuron's bias listed before its weights
    (parameters() as [b] + w): the replica reads them in the lecture's order, w then b."""
    reordered, i = [], 0
    for nin, nout in zip(MLP_SIZES, MLP_SIZES[1:]):
        for _ in range(nout):
            b, *w = values[i : i + nin + 1]
            reordered += [*w, b]
            i += nin + 1
    return any(_fits(reordered, act, last, outs, sample) for last in (act, "linear"))


def _train(model: Any, params: list[Any], seed: int) -> list[float]:
    """STEPS steps of full-batch gradient descent with momentum on the mean squared error to
    labels -1/+1, from the model's weights as they are; the loss before each step."""
    X, y = moons(n=30, noise=0.1, seed=seed % 100_000)
    targets = [1.0 if t else -1.0 for t in y]
    velocity = [0.0] * len(params)
    losses = []
    for _ in range(STEPS):
        loss = None
        for x, t in zip(X, targets):
            d = model(x) + (-t)
            loss = d * d if loss is None else loss + d * d
        assert loss is not None
        loss = loss * (1.0 / len(X))
        losses.append(float(loss.data))
        for p in params:
            p.grad = 0.0
        loss.backward()
        for i, p in enumerate(params):
            velocity[i] = 0.8 * velocity[i] - 0.3 * p.grad
            p.data += velocity[i]
    return losses
