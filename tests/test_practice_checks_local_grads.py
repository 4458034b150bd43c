"""The check of microgpt's Value (micrograd.practice.checks.local_grads): a wrong local grad is
read off the op that stored it; a wrong backward() is named only where its grads are, on every
graph, those of backward() written with that mistake."""

from __future__ import annotations

import pytest

from micrograd.practice import check
from micrograd.practice.reference import source
from test_practice import mutate

VALUE = source("local-grads")
ADD = "child.grad += local_grad * v.grad"


@pytest.mark.parametrize(
    "old, new, mistake, words",
    [
        (  # (pred - y) ** 2 with a negative residual: the sign of the base matters
            "(other * self.data ** (other - 1),)",
            "(other * abs(self.data) ** (other - 1),)",
            "wrong-local",
            "`a ** 2` at a = -1.5 stores local grads (3)",
        ),
        (
            "(other.data, self.data))",
            "(self.data, other.data))",
            "wrong-operand",
            "`a * 2` at a = 1.5 stores local grads (1.5, 2)",
        ),
        ("(math.exp(self.data),)", "(self.data,)", "wrong-local", "`a.exp()` at a = 0"),
        (
            "(float(self.data > 0),)",
            "(float(self.data >= 0),)",
            "wrong-local",
            "a.relu()` at a = 0",
        ),
        ("for v in reversed(topo):", "for v in topo:", "not-reversed", "walked inputs first"),
        (
            ADD,
            "child.grad = local_grad * v.grad",
            "assign-not-add",
            "`a.grad` is -1.5; expected -3",
        ),
        (ADD, "child.grad += local_grad", "no-upstream", "without * v.grad"),
        (ADD, "child.grad += local_grad * v.data", "value-as-slope", "local_grad * v.data"),
        ("self.grad = 1\n", "self.grad = 0\n", "no-output-grad", "never sets"),
        ("visited.add(v)", "visited.add(v.data)", "visit-order", "by their numbers"),
        ("def backward(self):", "def backward(self, visited=set()):", "visit-order", "`visited`"),
    ],
)
def test_a_named_mistake_has_its_evidence(tmp_path, old, new, mistake, words):
    code = VALUE.replace("        visited = set()\n", "") if "visited=set()" in new else VALUE
    if "v.data" in new and "visited" in new:
        code = code.replace("if v not in visited:", "if v.data not in visited:")
    result = check("local-grads", mutate(tmp_path, old, new, code), seed=2)
    assert not result.passed and result.mistake == mistake, result
    assert words in result.first_wrong_step, result.first_wrong_step


def test_a_breadth_first_order_shows_on_two_paths_of_different_lengths(tmp_path):
    bfs = """    def backward(self):
        order, seen, queue = [], {id(self)}, [self]
        while queue:
            v = queue.pop(0)
            order.append(v)
            for child in v._children:
                if id(child) not in seen:
                    seen.add(id(child))
                    queue.append(child)
        self.grad = 1
        for v in order:
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad
"""
    start = VALUE.index("    def backward(self):")
    result = check("local-grads", mutate(tmp_path, VALUE[start:], bfs, VALUE), seed=2)
    assert result.mistake == "reversed-not-topological", result
    # a pre-order walk gives the same grads on every graph: the kind is named, not which one
    assert "not topological" in result.first_wrong_step
