"""Property-based tests: random expressions with shared subexpressions, against finite differences."""

from hypothesis import assume, given, settings

from micrograd import Value
from micrograd.gradcheck import numeric_grad
from programs import near_kink, programs, run


@settings(max_examples=150, deadline=None)
@given(programs())
def test_random_programs_match_central_differences(program):
    xs, steps = program
    assume(not near_kink(steps, xs))
    leaves = [Value(x) for x in xs]
    out = run(steps, leaves)
    out.backward()
    for i, leaf in enumerate(leaves):
        numeric = numeric_grad(lambda *vs: run(steps, vs), xs, i, eps=1e-6)
        assert abs(leaf.grad - numeric) <= 1e-4 * (1 + abs(numeric)), (i, leaf.grad, numeric)


@settings(max_examples=100, deadline=None)
@given(programs())
def test_backward_twice_doubles_leaf_grads(program):
    xs, steps = program
    leaves = [Value(x) for x in xs]
    out = run(steps, leaves)
    out.backward()
    first = [v.grad for v in leaves]
    out.backward()
    assert [v.grad for v in leaves] == [2 * g for g in first]


@settings(max_examples=100, deadline=None)
@given(programs())
def test_same_program_same_bits(program):
    xs, steps = program
    grads = []
    for _ in range(2):
        leaves = [Value(x) for x in xs]
        run(steps, leaves).backward()
        grads.append([float(v.grad).hex() for v in leaves])
    assert grads[0] == grads[1]
