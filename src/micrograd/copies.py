"""Copies and pickles of a Value's graph at any depth.

Python's own copy.deepcopy and pickle recurse once per input, so a graph 100,000 Values deep would
exceed the recursion limit. Value's __copy__, __deepcopy__ and __reduce_ex__ (micrograd.engine) call
these, which walk the graph in topological order instead: inputs first.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

# Up to this many Values a graph is pickled Python's own way (a Value shared by two pickled Values
# stays one object); a larger graph is written as one flat list, inputs first, which keeps the
# sharing within that graph only.
FLAT_PICKLE = 1000


def _slots(cls: type) -> list[str]:
    """The slots of a Value class and its bases, but __dict__."""
    return [s for c in cls.__mro__ for s in getattr(c, "__slots__", ()) if s != "__dict__"]


def shallow(v: Any) -> Any:
    """A new Value with v's fields: the same inputs, data, grad and attributes."""
    c = object.__new__(type(v))
    for slot in _slots(type(v)):
        setattr(c, slot, getattr(v, slot))
    c.__dict__.update(v.__dict__)
    return c


def deep(v: Any, memo: dict[int, Any], order: list[Any]) -> Any:
    """A copy of v's whole graph, `order` being its topological order (inputs before outputs), so
    each Value's inputs are copied before it."""
    for x in order:
        if id(x) not in memo:
            c = memo[id(x)] = shallow(x)
            c.grad = copy.deepcopy(x.grad, memo)
            c._a, c._b = memo.get(id(x._a)), memo.get(id(x._b))
            c.__dict__.update(copy.deepcopy(x.__dict__, memo))
    return memo[id(v)]


def reduce(v: Any, protocol: Any, topo_order: Callable[[Any], list[Any]]) -> Any:
    """What pickle writes for v: Python's own reduction for a graph of up to FLAT_PICKLE Values, a
    flat list of them (inputs first) for a larger one."""
    order = topo_order(v) if v._a is not None else [v]
    if len(order) <= FLAT_PICKLE:
        return object.__reduce_ex__(v, protocol)
    index = {x: i for i, x in enumerate(order)}
    nodes = []
    for x in order:
        extra = dict(x.__dict__)
        if "_rest" in extra:
            extra["_rest"] = tuple(index[r] for r in x._rest)
        ins = (index.get(x._a), index.get(x._b))
        nodes.append((type(x), x.data, x.grad, x._op, *ins, x._da, x._db, extra))
    return unpickle, (nodes,)


def unpickle(nodes: list[tuple[Any, ...]]) -> Any:
    """The graph that reduce() wrote as a list (inputs first), rebuilt; its output."""
    made: list[Any] = []
    for cls, data, grad, op, a, b, da, db, extra in nodes:
        v = object.__new__(cls)
        v.data, v.grad, v._op, v._da, v._db = data, grad, op, da, db
        v._a = None if a is None else made[a]
        v._b = None if b is None else made[b]
        if "_rest" in extra:
            extra = {**extra, "_rest": tuple(made[i] for i in extra["_rest"])}
        v.__dict__.update(extra)
        made.append(v)
    return made[-1]
