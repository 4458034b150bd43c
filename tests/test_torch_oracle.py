"""PyTorch float64 as the second oracle: values and gradients of the same expressions."""

import math

import pytest
from hypothesis import assume, given, settings

from micrograd import Value
from programs import near_kink, programs, run

torch = pytest.importorskip("torch")


def both(steps, xs):
    leaves = [Value(x) for x in xs]
    out = run(steps, leaves)
    out.backward()
    ts = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    tout = run(steps, ts)
    tout.backward()
    return (
        out.data,
        [v.grad for v in leaves],
        tout.item(),
        [0.0 if t.grad is None else t.grad.item() for t in ts],
    )


@settings(max_examples=200, deadline=None)
@given(programs())
def test_random_programs_match_pytorch(program):
    xs, steps = program
    assume(not near_kink(steps, xs))
    value, grads, tvalue, tgrads = both(steps, xs)
    assert value == pytest.approx(tvalue, rel=1e-12, abs=1e-12)
    for g, tg in zip(grads, tgrads):
        assert g == pytest.approx(tg, rel=1e-10, abs=1e-10)


def test_readme_example_matches_pytorch():
    def f(a, b):
        c = a + b
        d = a * b + b**3
        c = c + c + 1
        c = c + 1 + c + (-a)
        d = d + d * 2 + (b + a).relu()
        d = d + 3 * d + (b - a).relu()
        e = c - d
        f = e**2
        g = f / 2.0
        return g + 10.0 / f

    a, b = Value(-4.0), Value(2.0)
    g = f(a, b)
    g.backward()
    ta = torch.tensor(-4.0, dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    tg = f(ta, tb)
    tg.backward()
    assert g.data == pytest.approx(tg.item(), rel=1e-14)
    assert a.grad == pytest.approx(ta.grad.item(), rel=1e-13)
    assert b.grad == pytest.approx(tb.grad.item(), rel=1e-13)


@pytest.mark.parametrize("base,exp", [(-2.0, 3.0), (0.0, 2.0), (2.0, 0.5), (0.0, 0.0)])
def test_power_edge_cases_follow_pytorch(base, exp):
    x, y = Value(base), Value(exp)
    out = x**y
    out.backward()
    tx = torch.tensor(base, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(exp, dtype=torch.float64, requires_grad=True)
    (tx**ty).backward()
    for mine, theirs in [(x.grad, tx.grad.item()), (y.grad, ty.grad.item())]:
        assert (math.isnan(mine) and math.isnan(theirs)) or mine == pytest.approx(theirs)


@pytest.mark.parametrize("x", [-1000.0, -30.0, -1.0, 0.0, 0.5, 30.0, 1000.0])
def test_saturating_ops_match_pytorch(x):
    for op in ("tanh", "sigmoid"):
        v = Value(x)
        out = getattr(v, op)()
        out.backward()
        t = torch.tensor(x, dtype=torch.float64, requires_grad=True)
        tout = getattr(t, op)()
        tout.backward()
        assert out.data == pytest.approx(tout.item(), rel=1e-15, abs=1e-300)
        assert v.grad == pytest.approx(t.grad.item(), rel=1e-12, abs=1e-300)
