"""The neurons of a graph: which Values compute one neuron's w·x+b and its activation, so that the
backward stepper can draw each neuron as one box.

The rule. Parameters named as micrograd.nn names them (`layers.0.neurons.3.w.1`,
`layers.0.neurons.3.b`) are grouped by the prefix before `.w.i` / `.b`: each group P is one
neuron's weights and bias. In the graph, that neuron's pre-activation w·x+b is a node that depends
on ALL of P while none of its inputs does: the node where the sum is complete. Its members are the
nodes between P and it: those that depend on some of P and are that node or one it is computed
from (the products w_i*x_i and the partial sums; the parameters themselves are listed apart, since
the samples of a batch share them). If the pre-activation's only consumer is an activation applied to it, that
activation is the neuron's output and a member; nodes after the output (the loss) are not. A batch
graph holds a neuron once per sample: each pre-activation found is its own instance.

One check keeps other sums of the parameters from looking like a neuron (an L2 penalty Σ p*p also
depends on all of P): every member must be a sum of nodes that depend on P, or a product of one
weight of P with a node that depends on none of P, and each weight must meet its x exactly once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from micrograd.engine import Value

# The ops micrograd.nn.Neuron applies after w·x+b, by the name the graph gives them.
ACTIVATIONS = {"ReLU": "relu", "tanh": "tanh", "sigmoid": "sigmoid"}

_PARAM = re.compile(r"(?:(?P<prefix>.+)\.)?(?:w\.(?P<i>\d+)|b)")  # "layers.0.neurons.3.w.1"


@dataclass(frozen=True)
class GraphNeuron:
    """One neuron as found in a graph: its w·x+b and activation for one sample."""

    name: str  # the prefix of its parameters' names, e.g. "layers.0.neurons.3" ("" for a Neuron)
    sample: int | None  # 1, 2, ... where the graph holds this neuron more than once, else None
    params: tuple[Value, ...]  # its weights, then its bias
    members: tuple[Value, ...]  # the nodes it computes, in topological order
    pre: Value  # w·x+b
    out: Value  # the activation's output; w·x+b itself for a linear neuron
    activation: str | None  # "relu", "tanh", "sigmoid", or None for a linear neuron
    label: str | None = None  # a group's own second line (region()): what it computes

    @property
    def dead(self) -> bool:
        """A ReLU whose output is 0: its slope is 0 there, so no gradient passes back through it."""
        return self.activation == "relu" and self.out.data == 0


def neuron_params(named: Iterable[tuple[str, Value]]) -> dict[str, list[Value]]:
    """Each neuron's weights in order, then its bias, by the prefix of their names."""
    weights: dict[str, dict[int, Value]] = {}
    bias: dict[str, Value] = {}
    for name, p in named:
        m = _PARAM.fullmatch(name)
        if m is None:
            continue
        prefix = m["prefix"] or ""
        if m["i"] is None:
            bias[prefix] = p
        else:
            weights.setdefault(prefix, {})[int(m["i"])] = p
    return {  # a prefix without both a weight and a bias is no neuron
        prefix: [w[i] for i in sorted(w)] + [bias[prefix]]
        for prefix, w in weights.items()
        if prefix in bias
    }


def find_neurons(order: Sequence[Value], named: Iterable[tuple[str, Value]]) -> list[GraphNeuron]:
    """The neurons in the graph `order` (topological), by the rule at the top of this file."""
    groups = neuron_params(named)
    bit: dict[Value, int] = {}  # a bit per parameter: which parameters a node depends on
    for params in groups.values():
        for p in params:
            bit.setdefault(p, 1 << len(bit))
    masks = {prefix: sum(bit[p] for p in set(params)) for prefix, params in groups.items()}
    depends: dict[Value, int] = {}
    consumers: dict[Value, list[Value]] = {}
    for v in order:
        depends[v] = bit.get(v, 0)
        for p in v._prev:
            depends[v] |= depends[p]
            consumers.setdefault(p, []).append(v)
    found: list[tuple[str, Value]] = []  # (neuron, its w·x+b) in the order of the graph
    for v in order:
        if v._op != "+":  # w·x+b ends with a sum; the check below would refuse anything else
            continue
        for prefix, mask in masks.items():
            if depends[v] & mask == mask and all(depends[p] & mask != mask for p in v._prev):
                found.append((prefix, v))
    neurons: list[GraphNeuron] = []
    taken: set[Value] = set()
    for prefix, pre in found:
        params = groups[prefix]
        members = _members(pre, params, masks[prefix], depends)
        if members is None or taken & members:
            continue
        used = consumers.get(pre, [])
        act = ACTIVATIONS.get(used[0]._op) if len(used) == 1 else None
        out = used[0] if act is not None else pre
        members.add(out)
        taken |= members
        inside = tuple(v for v in order if v in members)
        neurons.append(GraphNeuron(prefix, None, tuple(params), inside, pre, out, act))
    times = Counter(n.name for n in neurons)
    seen: Counter[str] = Counter()
    for i, n in enumerate(neurons):  # a batch: the samples, numbered in the order they are computed
        if times[n.name] > 1:
            seen[n.name] += 1
            neurons[i] = replace(n, sample=seen[n.name])
    return neurons


def _members(
    pre: Value, params: list[Value], mask: int, depends: dict[Value, int]
) -> set[Value] | None:
    """The nodes from the parameters to `pre`, or None where they are not the ops of w·x+b."""
    own = set(params)
    members: set[Value] = set()
    weights: list[Value] = []  # as the products meet them
    summed: list[Value] = []  # the parameters added as they are: the bias
    stack = [pre]
    while stack:
        v = stack.pop()
        if v in members:
            continue
        members.add(v)
        inputs = v._prev
        if v._op == "*" and len(inputs) == 2:
            w, x = inputs if inputs[0] in own else inputs[::-1]
            if w not in own or depends[x] & mask:
                return None
            weights.append(w)
        elif v._op == "+" and all(depends[p] & mask for p in inputs):
            summed += [p for p in inputs if p in own]
            stack += [p for p in inputs if p not in own]
        else:
            return None
    same = Counter(map(id, weights)) == Counter(map(id, params[:-1]))
    return members if same and summed == params[-1:] else None


def region(
    name: str,
    label: str,
    inputs: Iterable[Value],
    outputs: Sequence[Value],
    order: Sequence[Value],
    params: Iterable[Value] = (),
) -> GraphNeuron:
    """A part of a graph drawn as one box, as a neuron is: the nodes that compute `outputs` from
    `inputs` (walking back from the outputs, stopping at the inputs and at the parameters; the
    numbers it reads on the way are inside), named `name`, its second line `label`. The
    attention of micrograd.gpt.GPT is shown this way: a head's q·k, its softmax, its weighted sum."""
    stop = set(inputs) | set(params)
    members: set[Value] = set()
    stack = list(outputs)
    while stack:
        v = stack.pop()
        if v in members or v in stop:
            continue
        members.add(v)
        stack += v._prev
    inside = tuple(v for v in order if v in members)
    return GraphNeuron(name, None, (), inside, outputs[-1], outputs[-1], None, label)
