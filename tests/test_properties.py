"""Property-based tests: random expressions with shared subexpressions, against finite differences."""

import math

from hypothesis import event, given, settings

from micrograd import Value
from programs import central_difference, examples, programs, run


def graph(steps):
    return lambda xs: run(steps, [Value(x) for x in xs])


@settings(max_examples=examples(150))
@given(programs())
def test_random_programs_match_central_differences(program):
    xs, steps = program
    leaves = [Value(x) for x in xs]
    out = run(steps, leaves)
    out.backward()
    for i, leaf in enumerate(leaves):
        numeric, why = central_difference(graph(steps), xs, i, 1e-6)
        if why:  # finite differences cannot judge this input here (see central_difference)
            event(why.split(":")[0])
            continue
        assert abs(leaf.grad - numeric) <= 1e-4 * (1 + abs(numeric)), (i, leaf.grad, numeric)


def test_the_skip_rules_on_a_steep_power():
    # x0 = 2: x0**27 is 1.3e8, where a step of 1e-6 is lost in rounding (numeric 1.013 vs exact 1)
    xs, steps = (
        [2.0, 1.0, 1.0],
        [("add", 0, 0), ("add", 0, 1), ("cube", 0, 0), ("cube", 5, 0), ("cube", 6, 0)],
    )
    leaves = [Value(x) for x in xs]
    run(steps, leaves).backward()
    assert leaves[1].grad == 1.0
    numeric, why = central_difference(graph(steps), xs, 1, 1e-6)
    assert numeric is None and why.startswith("rounding")
    # and a smooth program at a moderate size is judged, not skipped
    assert central_difference(graph(steps[:3]), xs, 1, 1e-6)[1] is None


@settings(max_examples=examples(100))
@given(programs())
def test_backward_twice_adds_one_pass_onto_what_the_leaves_held(program):
    """The second call's contributions land on the first call's grads one by one (the original's
    +=), so its leaves are those of a fresh graph whose leaves held the first grads, bit for bit:
    no stale inner grad joins in. That is twice the grad up to the rounding of the sums."""
    xs, steps = program
    leaves = [Value(x) for x in xs]
    out = run(steps, leaves)
    out.backward()
    first = [v.grad for v in leaves]
    out.backward()
    twice = [v.grad for v in leaves]
    fresh = [Value(x) for x in xs]
    for v, g in zip(fresh, first):
        v.grad = g
    run(steps, fresh).backward()
    assert [v.grad for v in fresh] == twice or all(map(math.isnan, twice))
    for g2, g in zip(twice, first):
        assert g2 == 2 * g or math.isclose(g2, 2 * g, rel_tol=1e-12, abs_tol=1e-300) or g != g


@settings(max_examples=examples(100))
@given(programs())
def test_same_program_same_bits(program):
    xs, steps = program
    grads = []
    for _ in range(2):
        leaves = [Value(x) for x in xs]
        run(steps, leaves).backward()
        grads.append([float(v.grad).hex() for v in leaves])
    assert grads[0] == grads[1]
