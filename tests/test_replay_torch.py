"""micrograd.replay.torch: a Value graph as a function of tensors, whose autograd agrees."""

import pytest
from hypothesis import assume, given, settings

from micrograd import Value
from micrograd.replay.trace import trace
from programs import DOUBLED, examples, near_kink, programs, run, with_doubled_row

torch = pytest.importorskip("torch")
from micrograd.replay.torch import function, to_torch_fn  # noqa: E402


@settings(max_examples=examples(60))
@given(programs())
def test_to_torch_fn_matches_any_graph(program):
    xs, steps = program
    assume(not near_kink(steps, xs))
    leaves = [Value(x) for x in xs]
    out = run(steps, leaves)
    out.backward()
    fn = to_torch_fn(out, leaves)
    ts = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    tout = fn(*ts)
    tout.backward()
    assert tout.item() == pytest.approx(out.data, rel=1e-12, abs=1e-12)
    for v, t in zip(leaves, ts):
        g = 0.0 if t.grad is None else t.grad.item()
        assert g == pytest.approx(v.grad, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("name", sorted(DOUBLED))
def test_one_row_of_OPS_defines_the_op_in_the_export(monkeypatch, name):
    xs = [0.3, -1.7]
    f, out, _ = with_doubled_row(monkeypatch, name, xs)  # eager, with the replaced row
    a, b = Value(xs[0]), Value(xs[1])
    fn = to_torch_fn(f(a, b), [a, b])
    assert fn(*[torch.tensor(x, dtype=torch.float64) for x in xs]).item() == pytest.approx(out)


def test_a_tape_with_parameters_takes_them_as_inputs():
    w = Value(2.0)
    with pytest.raises(ValueError, match="pass the parameters as inputs"):
        function(trace(lambda x: w * x, [w], 1))
    fn = function(trace(lambda x: (w * x).tanh(), [], 1))  # w frozen: a constant
    x = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    fn(x).backward()
    assert x.grad.item() == pytest.approx(2 * (1 - torch.tanh(torch.tensor(1.0)).item() ** 2))
    with pytest.raises(TypeError, match="expected 1 tensors"):
        fn(x, x)
