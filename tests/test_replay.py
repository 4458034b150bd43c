"""micrograd.replay: one Program API on every back end, with one meaning of its results (the eager
engine's), several outputs included."""

import importlib.util
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from micrograd import Value, no_grad, replay
from micrograd.losses import bce_with_logits
from micrograd.modes import TraceError
from micrograd.nn import MLP
from micrograd.replay import BACKENDS, Backend, Program, compile
from programs import examples, near_kink, programs, run

HAS_NUMPY = importlib.util.find_spec("numpy") is not None
NO_NUMPY = pytest.mark.skip(reason="numpy is not installed")
ALL = [pytest.param(b, marks=NO_NUMPY if b == "numpy" and not HAS_NUMPY else ()) for b in BACKENDS]


def listed(x):
    """A back end's result as lists (the numpy back end gives arrays)."""
    return x.tolist() if hasattr(x, "tolist") else x


def flat(x):
    """Nested lists and tuples of numbers as one list."""
    x = listed(x)
    return [y for v in x for y in flat(v)] if isinstance(x, (list, tuple)) else [x]


def close(got, expected, rel):
    """Equal to `rel` relative (and as absolute, near zero), element by element."""
    a, b = flat(got), flat(expected)
    return len(a) == len(b) and all(x == pytest.approx(y, rel=rel, abs=rel) for x, y in zip(a, b))


def per_row_eager(fn, params, rows, weights):
    """The meaning of value_and_grad, by hand: fn on Values for each row, (w * first).backward()
    after each, the parameters' grads adding up; each row's outputs and its inputs' grads."""
    for p in params:
        p.grad = 0
    values, dx = [], []
    for row, w in zip(rows, weights):
        xs = [Value(x) for x in row]
        out = fn(*xs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        values.append(tuple(o.data for o in outs) if len(outs) > 1 else outs[0].data)
        (outs[0] * w).backward()
        dx.append([float(x.grad) for x in xs])
    return values, [float(p.grad) for p in params], dx


@pytest.mark.parametrize("backend", ALL)
def test_several_outputs_the_first_is_differentiated_the_others_are_values(backend):
    w = Value(3.0)
    prog = compile(lambda x: (w * x, w + x), [w], 1, backend=backend)
    values, grads, dx = prog.value_and_grad([[2.0]], input_grads=True)
    assert listed(values) in ([(6.0, 5.0)], [[6.0, 5.0]])
    assert listed(grads) == [2.0] and listed(dx) == [[3.0]]  # d(w * x): x and w, not of w + x
    assert listed(prog([[2.0]])) == listed(values)


@pytest.mark.parametrize("backend", ALL)
def test_a_loss_and_its_logit_on_every_back_end_as_eager(backend):
    """The "loss and logits" use: one program gives the loss to train and the logit to score."""
    random.seed(2)
    model = MLP(2, [4, 4, 1])
    params = model.parameters()

    def one(x0, x1, t):
        z = model([x0, x1])
        return bce_with_logits([z], [t]), z

    rows = [[0.5, -1.0, 1.0], [1.5, 0.2, 0.0], [-0.3, 0.9, 1.0], [0.1, 0.1, 0.0]]
    weights = [0.25, 0.5, 1.0, 2.0]
    values, grads, dx = compile(one, params, 3, backend=backend).value_and_grad(
        rows, weights, input_grads=True
    )
    expected = per_row_eager(one, params, rows, weights)
    if backend == "numpy":
        assert close((values, grads, dx), expected, 1e-12)
    else:  # the same bits
        assert (values, grads, dx) == expected


@settings(max_examples=examples(40))
@given(programs(max_inputs=3, max_steps=10), st.integers(1, 4), st.randoms(use_true_random=False))
def test_random_programs_on_every_back_end_as_eager(program, batch, rnd):
    xs, steps = program
    assume(not near_kink(steps, xs))
    weight = Value(0.7)  # a parameter shared by all rows
    fn = lambda *vs: (run(steps, list(vs)) * weight, run(steps, list(vs)))  # noqa: E731
    rows = [xs] + [[x + rnd.uniform(-1e-3, 1e-3) for x in xs] for _ in range(batch - 1)]
    rows = [r for r in rows if not near_kink(steps, r)]
    assume(rows)
    weights = [rnd.uniform(0.5, 2.0) for _ in rows]
    expected = per_row_eager(fn, [weight], rows, weights)
    # numpy: tests/test_replay_numpy.py runs this property (within 1e-10) with its own 60 examples
    for backend in [b for b in BACKENDS if b != "numpy"]:
        prog = compile(fn, [weight], len(xs), example=xs, backend=backend)
        got = prog.value_and_grad(rows, weights, input_grads=True)
        assert got == expected, backend  # the same bits


@pytest.mark.parametrize("backend", ALL)
def test_parameters_from_the_values_or_from_theta(backend):
    p, q = Value(2.0), Value(3.0)
    prog = compile(lambda x: p * x + q, [p, q], 1, backend=backend)
    assert listed(prog([[1.0], [2.0]])) == [5.0, 7.0]
    p.data = 10.0
    assert listed(prog([[1.0]])) == [13.0]  # read on every call
    theta = prog.pull()
    assert prog.pull() is theta and listed(theta) == [10.0, 3.0]  # the program's own, in place
    theta[0] = 1.0
    values, grads, _ = prog.value_and_grad([[1.0], [2.0]], 0.5, params=theta)
    assert listed(values) == [4.0, 5.0] and listed(grads) == [1.5, 1.0]
    assert p.data == 10.0  # the Values are left alone until push()
    prog.push(grads)
    assert (p.data, p.grad, q.grad) == (1.0, 1.5, 1.0)


@pytest.mark.parametrize("backend", ALL)
def test_control_flow_on_data_is_refused_or_found_by_check(backend):
    with pytest.raises(TraceError, match="control flow"):
        compile(lambda x: x * 2 if x > 0 else x * -1, [], 1, backend=backend)

    def sneaky(x):  # reads .data: cannot be seen while tracing, caught by check()
        return x * 2 if x.data > 0 else x * -1

    prog = compile(sneaky, [], 1, example=[1.0], backend=backend)
    if backend == "eager":  # it runs fn itself: it follows the branch
        prog.check([[1.0], [-1.0]])
        return
    with pytest.raises(TraceError, match="row 1"):
        prog.check([[1.0], [-1.0]])
    prog.check([[1.0], [2.0]])


@pytest.mark.parametrize("backend", ALL)
def test_tracing_inside_no_grad_traces_the_real_function(backend):
    """Compiled inside no_grad(), the program is the real function, not a constant one."""
    with no_grad():
        prog = compile(lambda x: x * 2, [], 1, backend=backend)
        assert listed(prog([[3.0], [10.0]])) == [6.0, 20.0]
        assert listed(prog.value_and_grad([[3.0]], input_grads=True)[2]) == [[2.0]]


@pytest.mark.parametrize("backend", ALL)
def test_bad_calls_are_refused_on_every_back_end(backend):
    p = Value(1.0)
    prog = compile(lambda x, y: p * x + y, [p], 2, backend=backend)
    with pytest.raises(ValueError, match="weights must be a number or one per row"):
        prog.value_and_grad([[1.0, 2.0]], [1.0, 2.0])
    with pytest.raises(ValueError, match="params"):
        prog.value_and_grad([[1.0, 2.0]], params=[1.0, 2.0])
    with pytest.raises(ValueError):
        prog.value_and_grad([[1.0, 2.0, 3.0]])
    with pytest.raises(TraceError, match="must return a Value"):
        compile(lambda x: 1.0, [p], 1, backend=backend)


@pytest.mark.parametrize("backend", ALL)
def test_a_sparse_table_is_the_rows_it_describes_in_the_back_ends_form(backend):
    chosen = replay.backend(backend)
    rows = [([0, 3], [1.0, 0.25]), ([], []), ([4, 1, 2], [2.0, -1.0, 0.5])]
    table = chosen.sparse_table(5, rows)
    expected = [[1.0, 0, 0, 0.25, 0], [0.0] * 5, [0, -1.0, 0.5, 0, 2.0]]
    assert [list(map(float, row)) for row in table] == expected
    assert type(table) is type(chosen.table(expected))
    assert len(chosen.sparse_table(5, [])) == 0


def test_the_back_ends_are_objects_found_by_name():
    assert replay.backend("auto").name == ("numpy" if HAS_NUMPY else "python")
    assert [replay.backend(b).name for b in BACKENDS] == list(BACKENDS)
    assert replay.backend(BACKENDS["eager"]) is BACKENDS["eager"]  # an object is taken as it is
    with pytest.raises(ValueError, match="backend must be"):
        replay.backend("gpu")
    with pytest.raises(ValueError, match="dtype is an option of the numpy back end, not of python"):
        compile(lambda x: x, [], 1, backend="python", dtype="float32")
    with pytest.raises(ValueError, match="fold is an option of the python back end, not of eager"):
        compile(lambda x: x, [], 1, backend="eager", fold=False)
    assert compile(lambda x: x, [], 1).backend == replay.backend("auto").name
    # what the training code asks a back end, instead of comparing its name
    assert [(b.arrays, b.replays) for b in BACKENDS.values()] == [
        (True, True),
        (False, True),
        (False, False),
    ]


class TorchProgram(Program):
    """A back end made outside replay/ in a few lines: the tape run on torch float64 tensors, one
    tensor of all the rows per node, and torch.autograd for the gradient (lists out)."""

    backend = "torch"

    def value_and_grad(self, rows, weights=None, params=None, input_grads=False):
        import torch

        from micrograd.maths import TorchMath
        from micrograd.replay.program import numbers_of, rows_of, seeds_of
        from micrograd.replay.trace import apply

        table = torch.tensor(rows_of(rows, self.n_inputs), dtype=torch.float64)
        theta = torch.tensor(numbers_of(params, self.params), dtype=torch.float64)
        theta.requires_grad_(True)
        m, values = TorchMath(torch), []
        for node in self.tape.nodes:
            if node.kind == "param":
                values.append(theta[node.index].expand(len(table)))
            elif node.kind == "input":
                values.append(table[:, node.index])
            elif node.kind == "const":
                values.append(torch.full((len(table),), node.value, dtype=torch.float64))
            else:
                values.append(apply(node, m, [values[a] for a in node.args])[0])
        out = values[self.tape.outputs[0]]
        seeds = torch.tensor(seeds_of(weights, len(table)), dtype=torch.float64)
        (grads,) = torch.autograd.grad((seeds * out).sum(), theta)
        return out.tolist(), grads.tolist(), None

    def __call__(self, rows, params=None):
        return self.value_and_grad(rows, params=params)[0]


class Torch(Backend):
    name = "torch"

    def program(self, tape, fn, params, options):
        return TorchProgram(tape, fn, params)


def test_a_back_end_made_outside_replay_trains_through_the_trainer():
    """A new back end is an object: the Trainer and fit() take it as they take a name, and train
    the demo's model with it to the python back end's numbers (torch's own float64 arithmetic)."""
    pytest.importorskip("torch")
    from micrograd.app.tasks import Classifier
    from micrograd.app.train import fit
    from micrograd.data import moons
    from micrograd.optim import Adam

    X, y = moons(60, seed=0)
    histories = []
    for chosen in (Torch(), "python"):
        random.seed(0)
        model = MLP(2, [8, 8, 1])
        history = fit(Classifier(model, 2), X, y, Adam(model.parameters()), 5, backend=chosen)
        histories.append((history, [p.data for p in model.parameters()]))
    (torch_run, torch_params), (python_run, python_params) = histories
    assert [acc for _, acc in torch_run] == [acc for _, acc in python_run]
    assert [loss for loss, _ in torch_run] == pytest.approx([loss for loss, _ in python_run], 1e-12)
    assert torch_params == pytest.approx(python_params, rel=1e-10, abs=1e-12)


def test_importing_replay_imports_no_numpy():
    import subprocess
    import sys

    code = "import sys, micrograd.replay; from micrograd import replay; replay.compile(lambda x: x * 2, [], 1, backend='python'); print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
