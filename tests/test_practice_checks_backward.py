"""The check of backward() (micrograd.practice.checks.backward): the Stack Exchange graph's
global `visited` set, the order walked inputs first, grads zeroed inside backward() and a forgotten
output grad are each named; the lecture's recursive sort passes, the deep chain its challenge."""

from __future__ import annotations

import types

from micrograd import engine
from micrograd.practice import check
from micrograd.practice.checks import backward
from micrograd.practice.reference import solution
from test_practice import REFERENCE, mutate


def test_the_stack_exchange_numbers_come_from_this_engine():
    root, names, _ = backward.stack_exchange(engine.Value, 2.0, 3.0)
    root.backward()
    assert (names["a"].grad, names["b"].grad) == (25.0, 19.0)


def test_a_value_used_twice_shows_assign_not_add_with_no_grad_before(tmp_path):
    # both lines of + written with =: a + a gets 1 instead of 2, even with all grads at 0
    path = mutate(tmp_path, "self.grad += 1.0 * out.grad", "self.grad = 1.0 * out.grad")
    path = mutate(
        tmp_path, "other.grad += 1.0 * out.grad", "other.grad = 1.0 * out.grad", open(path).read()
    )
    result = check("backward", path)
    assert result.mistake == "assign-not-add"
    assert result.first_wrong_step.startswith("a + a: ")


GLOBAL_VISITED = """
    def backward(self):
        self.grad = 1.0
        self._walk()

    def _walk(self):
        self._backward()
        for child in self._prev:
            if child not in visited:
                visited.add(child)
                child._walk()
"""

RECURSIVE = """
    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
"""


def test_the_stack_exchange_global_visited_bug_is_visit_order(tmp_path):
    source = REFERENCE.replace("self._prev = set(_children)", "self._prev = tuple(_children)")
    source = "visited = set()\n\n" + source  # the question's global set
    path = mutate(tmp_path, solution("backward"), GLOBAL_VISITED, source)
    module = types.ModuleType("buggy")
    exec(open(path).read(), module.__dict__)
    root, names, _ = backward.stack_exchange(module.Value, 2.0, 3.0)
    root.backward()
    assert names["a"].grad == 4.0  # the question's wrong number (e before g)
    module.visited.clear()
    result = check("backward", path)
    assert result.mistake == "visit-order"
    step = result.first_wrong_step
    # the smallest graph where it shows, before the question's own: y is reached by paths of
    # lengths 1 and 3
    assert step.startswith(
        "a = 0.5; y = a * 3; w = y * y; u = w * 2; z = y + u: `y._backward()` ran while y.grad "
        "was 1; expected 7"
    )
    assert "`w` uses y too" in step


def test_the_lectures_recursive_backward_passes_with_the_deep_chain_as_a_challenge(tmp_path):
    result = check("backward", mutate(tmp_path, solution("backward"), RECURSIVE), lang="zh")
    assert result.passed, result
    assert result.notes == [
        "另有一个挑战：在 20,000 个 Value 的长链上，你的 backward() 停在了 Python 的递归上限（递归的 "
        "build_topo 每个 Value 调用一层）。用循环和自己的栈来排序，多深都行。"
    ]
    assert str(result).splitlines()[:2] == ["backward：通过", result.notes[0]]


def test_the_chain_is_dismantled_so_it_frees_one_node_at_a_time(tmp_path):
    """Freed whole, the learner's chain frees recursively (a crash in the browser): the check
    leaves its nodes empty."""
    kept = []
    source = REFERENCE.replace(
        "        self._op = _op\n", "        self._op = _op\n        KEPT.append(self)\n", 1
    )
    path = mutate(tmp_path, "import math\n", "import math\nKEPT = []\n", source)
    module = types.ModuleType("learner")
    exec(open(path).read(), module.__dict__)
    kept = module.KEPT
    assert check("backward", module).passed
    assert len(kept) > backward.CHAIN and all(vars(v) == {} for v in kept[-100:])


def test_walking_the_order_forwards_is_named(tmp_path):
    path = mutate(tmp_path, "        for v in reversed(topo):", "        for v in topo:")
    result = check("backward", path)
    assert result.mistake == "not-reversed"
    assert result.first_wrong_step == (
        "b = a + a; c = b + b: `b._backward()` ran before the nodes made from b: the closures ran "
        "inputs first. The order to walk is a topological order (each node appended after its "
        "children) reversed: `for v in reversed(topo): v._backward()`"
    )


ZEROES_FIRST = """
        self.grad = 1.0
        for v in topo:
            v.grad = 0.0
        self.grad = 1.0
        for v in reversed(topo):"""


def test_zeroing_the_grads_inside_backward_fails(tmp_path):
    path = mutate(
        tmp_path, "\n        self.grad = 1.0\n        for v in reversed(topo):", ZEROES_FIRST
    )
    result = check("backward", path, seed=3)
    assert result.mistake == "zeroes-leaves"
    assert result.first_wrong_step.startswith(
        "after (a * b).backward() and then (a + b).backward(), `a.grad` is 1; expected "
    )
    assert "zeroing them is zero_grad()'s job" in result.first_wrong_step


def test_forgetting_the_output_grad_of_one(tmp_path):
    path = mutate(tmp_path, "        self.grad = 1.0\n        for v", "        for v")
    result = check("backward", path)
    assert result.mistake == "no-output-grad"
    assert "self.grad = 1.0" in result.first_wrong_step


def test_a_pre_order_walked_in_reverse_is_told_as_such_not_as_a_missing_reversed(tmp_path):
    """The list built with each node appended before its inputs, then walked reversed: the code
    has `reversed`, so the verdict names the pre-order, in both languages."""
    preorder = RECURSIVE.replace(
        "                for child in v._prev:\n                    build_topo(child)\n"
        "                topo.append(v)\n",
        "                topo.append(v)\n"
        "                for child in v._prev:\n                    build_topo(child)\n",
    )
    assert preorder != RECURSIVE
    path = mutate(tmp_path, solution("backward"), preorder)
    result = check("backward", path)
    assert (
        result.mistake == "reversed-not-topological"
    )  # its tag names the list, not a missing reversed()
    assert "although the walk reverses its list" in result.first_wrong_step
    assert "a pre-order" in result.first_wrong_step
    zh = check("backward", path, lang="zh").first_wrong_step
    assert "虽然遍历已经把列表逆序了" in zh and "前序" in zh
    # without `reversed`, the verdict says to reverse
    plain = check(
        "backward",
        mutate(tmp_path, solution("backward"), RECURSIVE.replace("reversed(topo)", "topo")),
    )
    assert "reversed(topo)" in plain.first_wrong_step


MARKED_ON_PUSH = """
    def backward(self):
        topo, visited, stack = [], {self}, [self]
        while stack:  # a node leaves the stack once its children are done
            v = stack[-1]
            fresh = [c for c in v._prev if c not in visited]
            if fresh:
                for c in fresh:
                    visited.add(c)  # marked when pushed, not when finished
                    stack.append(c)
            else:
                topo.append(stack.pop())
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
"""


def test_a_sort_right_for_one_order_of_a_set_only_fails_whatever_the_addresses(tmp_path):
    """Marking a node when it is pushed, not when it is finished, gives a topological order for
    some orders of the sets of inputs and not for others; a set's order follows the Values'
    addresses, so such a sort once passed or failed by luck. Each small graph is checked with
    every set's order and again with it reversed: it fails, in every process."""
    path = mutate(tmp_path, solution("backward"), MARKED_ON_PUSH)
    for seed in range(4):  # other random graphs, other addresses
        result = check("backward", path, seed=seed)
        assert not result.passed, seed
        assert result.mistake == "visit-order", (seed, result.first_wrong_step)


def test_the_sets_iterate_in_the_checks_orders_whatever_the_addresses_and_stay_sets():
    class V:
        def __init__(self, data, *children):
            self.data = data
            self._prev = set(children)

    def orders(sets):
        x, y, z = V(1.0), V(2.0), V(3.0)
        inner = V(5.0, z, y)
        root = V(6.0, x, inner)
        backward._order_sets(root, {id(x): "x", id(y): "y", id(z): "z"}, sets)
        assert isinstance(root._prev, set) and root._prev == {x, inner} and x in root._prev
        named = {id(x): "x", id(y): "y", id(z): "z", id(inner): "inner"}
        return [[named[id(p)] for p in node._prev] for node in (root, inner)]

    # sorted by what each input computes, then reversed; the same in every process
    assert orders(0) == [["inner", "x"], ["y", "z"]]
    assert orders(1) == [["x", "inner"], ["z", "y"]]
    mixed = [orders(n) for n in range(2, backward.ORDERS)]
    assert mixed == [orders(n) for n in range(2, backward.ORDERS)]


MUTABLE_DEFAULTS = """
    def backward(self):
        self.grad = 1.0
        for v in reversed(self._build_topo()):
            v._backward()

    def _build_topo(self, topo=[], visited=set()):
        if self not in visited:
            visited.add(self)
            for child in self._prev:
                child._build_topo(topo, visited)
            topo.append(self)
        return topo
"""


def test_a_default_argument_that_keeps_the_graph_between_calls_is_named(tmp_path):
    """A list or set made once with the def and shared by every call: the first graph is right,
    and what follows goes wrong in ways that say nothing of why. Named after the first call."""
    result = check("backward", mutate(tmp_path, solution("backward"), MUTABLE_DEFAULTS))
    assert result.mistake == "visit-order"
    assert result.first_wrong_step.startswith(
        "a + a: after backward(), the default argument `topo` of `_build_topo` holds 2 Values"
    )
    assert "`topo=None`" in result.first_wrong_step


IN_DEGREE_PER_PATH = """
    def backward(self):
        users = {}
        stack = [self]
        while stack:  # counts each path to a node, not each node that uses it
            v = stack.pop()
            for c in v._prev:
                users[c] = users.get(c, 0) + 1
                stack.append(c)
        self.grad = 1.0
        ready = [self]
        while ready:
            v = ready.pop()
            v._backward()
            for c in v._prev:
                users[c] -= 1
                if users[c] == 0:
                    ready.append(c)
"""


def test_in_degrees_that_count_paths_not_users_are_caught(tmp_path):
    """Kahn's algorithm with each node's users counted once per path to it: right on a tree and on
    a Value used by one node twice, wrong where a shared Value's users are themselves reached by
    several paths (their counts never reach zero)."""
    result = check("backward", mutate(tmp_path, solution("backward"), IN_DEGREE_PER_PATH))
    assert not result.passed
    assert "q = p + 1; r = p * 2; s = q * r" in result.first_wrong_step
