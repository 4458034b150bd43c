"""micrograd.app.train: the Classifier, the Trainer and fit(), on every back end of
micrograd.replay, with the eager engine's numbers; and the site's playground, which trains with
the same Trainer."""

import importlib.util
import math
import os
import random

import pytest

from micrograd import Value, io, no_grad, replay
from micrograd.app.tasks import Classifier
from micrograd.app.train import Trainer, fit
from micrograd.data import moons
from micrograd.losses import l2
from micrograd.nn import MLP
from micrograd.optim import SGD, Adam, Optimizer
from micrograd.replay import BACKENDS

HAS_NUMPY = importlib.util.find_spec("numpy") is not None
NO_NUMPY = pytest.mark.skip(reason="numpy is not installed")
ALL = [pytest.param(b, marks=NO_NUMPY if b == "numpy" and not HAS_NUMPY else ()) for b in BACKENDS]


def rel_err(a, b):
    a = a.tolist() if hasattr(a, "tolist") else a
    a, b = (a, b) if isinstance(a, list) else ([a], [b])
    flat = lambda x: [y for v in x for y in flat(v)] if isinstance(x, list) else [x]  # noqa: E731
    a, b = flat(a), flat(b)
    return max(abs(x - y) for x, y in zip(a, b)) / max(1e-300, max(abs(y) for y in b))


def _classifier(classes=2, hidden=(8, 8), nin=2, seed=0):
    random.seed(seed)
    return Classifier(MLP(nin, [*hidden, 1 if classes == 2 else classes]), classes)


def _eager_loss_and_grads(clf, X, y):
    """The objective written with Values: the mean loss plus reg * L2, and one backward()."""
    rows = clf.rows(X, y)
    params = clf.model.parameters()
    losses = [clf.sample_loss(*map(Value, r)) for r in rows]
    loss = sum(losses, Value(0.0)) * (1.0 / len(losses)) + clf.reg * l2(params)
    clf.model.zero_grad()
    loss.backward()
    return loss.data, [p.grad for p in params]


@pytest.mark.parametrize("backend", ALL)
@pytest.mark.parametrize("classes", [2, 4])
def test_the_loss_and_its_gradient_are_the_eager_engines_on_every_back_end(classes, backend):
    clf = _classifier(classes, hidden=(6, 5), nin=3, seed=3)
    rng = random.Random(0)
    X = [[rng.uniform(-2, 2) for _ in range(3)] for _ in range(40)]
    y = [rng.randrange(classes) for _ in X]
    loss, grads = _eager_loss_and_grads(clf, X, y)
    got, garr = clf.loss_and_grad(clf.batch(X, y, backend), backend=backend)
    assert rel_err(got, loss) <= 1e-12 and rel_err(garr, grads) <= 1e-12
    eager = clf.scores(X, backend="eager")
    assert rel_err(clf.scores(X, backend=backend), eager) <= 1e-12
    if backend == "numpy":
        clf32 = Classifier(clf.model, classes, dtype="float32")
        got32, g32 = clf32.loss_and_grad(clf32.batch(X, y, backend), backend=backend)
        assert str(g32.dtype) == "float32"
        assert rel_err(got32, loss) <= 1e-5 and rel_err(g32, grads) <= 1e-4


@pytest.mark.parametrize("backend", ALL)
def test_on_step_sees_the_model_as_trained_so_far_and_changes_nothing(backend, tmp_path):
    """An on_step that asks the Classifier anything, or saves the model, sees the weights of
    that step and leaves training as it would be without it."""
    X, y = moons(60, seed=0)
    plain = _classifier()
    plain_history = fit(plain, X, y, SGD(plain.model.parameters(), lr=0.1), 30, backend=backend)
    clf = _classifier()
    seen = []

    def on_step(step, loss, acc):
        seen.append(
            (
                clf.accuracy(X, y, backend=backend),
                clf.predict(X[:3], backend=backend),
                clf.scores(X[:1], backend=backend),
            )
        )
        if step == 28:
            io.save(clf.model, tmp_path / "checkpoint.json")

    model = clf.model
    history = fit(clf, X, y, SGD(model.parameters(), lr=0.1), 30, on_step=on_step, backend=backend)
    assert history == plain_history
    assert [acc for acc, _, _ in seen] == [acc for _, acc in history]
    assert history[-1][1] > 0.8
    assert [p.data for p in model.parameters()] == [p.data for p in plain.model.parameters()]
    checkpoint = io.load(tmp_path / "checkpoint.json")
    before_last = Classifier(checkpoint, 2)
    assert before_last.accuracy(X, y, backend=backend) == seen[28][0]


def test_fit_trains_alike_on_every_back_end_and_fills_the_values():
    X, y = moons(n=60, seed=2)
    runs = {}
    for backend in BACKENDS:
        if backend == "numpy" and not HAS_NUMPY:
            continue
        clf = _classifier(hidden=(6,), seed=3)
        opt = Adam(clf.model.parameters(), lr=0.05)
        history = fit(clf, X, y, opt, 15, batch_size=16, seed=4, backend=backend)
        params = clf.model.parameters()
        runs[backend] = (history, [p.data for p in params], [p.grad for p in params])
    h2, d2, g2 = runs["eager"]
    for backend, (h1, d1, g1) in runs.items():
        assert rel_err([h[0] for h in h1], [h[0] for h in h2]) <= 1e-9, backend
        assert [h[1] for h in h1] == [h[1] for h in h2], backend
        assert rel_err(d1, d2) <= 1e-9 and rel_err(g1, g2) <= 1e-9  # the Values hold the result


def test_the_python_back_end_trains_as_the_eager_engine_bit_for_bit():
    """The python replay adds each row's gradient as backward() after each row would: the same
    numbers as the eager back end, step after step."""
    X, y = moons(n=40, seed=5)
    runs = []
    for backend in ("python", "eager"):
        clf = _classifier(hidden=(5, 5), seed=1)
        history = fit(clf, X, y, SGD(clf.model.parameters(), lr=0.2), 8, backend=backend)
        runs.append((history, [p.data for p in clf.model.parameters()]))
    assert runs[0] == runs[1]


def test_fit_takes_an_optimizer_with_its_own_step():
    """An Optimizer subclass that writes step() itself (no rule) still trains, through the
    Values, on the numpy back end too."""

    class Halving(Optimizer):
        def step(self):
            for p in self.params:
                p.data -= self.lr * p.grad

    X, y = moons(n=40, seed=1)
    for backend in ("auto", "python"):
        clf = _classifier(hidden=(4,), seed=3)
        before = [p.data for p in clf.model.parameters()]
        trainer = Trainer(clf, X, y, Halving(clf.model.parameters(), lr=0.1), backend=backend)
        assert trainer.theta is None  # the numbers stay in the Values
        history = fit(clf, X, y, Halving(clf.model.parameters(), lr=0.1), 5, backend=backend)
        assert len(history) == 5 and history[-1][0] < history[0][0]
        assert [p.data for p in clf.model.parameters()] != before


def test_the_classifier_scores_inside_no_grad_as_eager():
    """Inside no_grad(), the Classifier's programs are the real function (tracing records even
    there) and its scores are the eager engine's."""
    random.seed(3)  # weights that give the three points three scores, whatever ran before
    clf = Classifier(MLP(2, [4, 1]), 2)
    X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]
    with no_grad():
        inside = [s for (s,) in clf.scores(X)]
    eager = [s for (s,) in clf.scores(X, backend="eager")]
    assert inside == pytest.approx(eager, rel=1e-12) and len(set(inside)) == 3


def test_images_train_as_their_lists_of_floats_would():
    """A data set of Images (kept as bytes) gives the numpy back end the very rows, losses and
    scores that the same images as lists of floats give."""
    np = pytest.importorskip("numpy")
    from micrograd.data import Images

    rng = random.Random(1)
    pixels = rng.randbytes(40 * 16)
    images = Images(pixels, 16, 255.0)
    lists = [[v / 255.0 for v in pixels[i * 16 : (i + 1) * 16]] for i in range(40)]
    y = [rng.randrange(3) for _ in range(40)]
    assert [images[i] for i in range(40)] == lists and len(images[5:9]) == 4
    assert np.array_equal(np.asarray(images), np.asarray(lists))
    random.seed(0)
    clf = Classifier(MLP(16, [5, 3]), 3)
    compact, plain = clf.batch(images, y, "numpy"), clf.batch(lists, y, "numpy")
    assert np.array_equal(np.asarray(compact), plain)
    assert np.array_equal(compact[[3, 1, 4]], plain[[3, 1, 4]])
    loss = clf.loss_and_grad(compact[[0, 2]], backend="numpy")[0]
    assert loss == clf.loss_and_grad(plain[[0, 2]], backend="numpy")[0]
    assert clf.scores(images, backend="numpy") == clf.scores(lists, backend="numpy")


@pytest.mark.parametrize("backend", ALL)
def test_a_loss_that_is_not_a_number_stops_fit_before_the_parameters_move(backend):
    """The Trainer checks each step's loss before the optimizer moves anything: fit() raises, and
    the model keeps the numbers of the last step taken, on every back end."""
    X, y = moons(60, seed=0)
    clf = _classifier()
    params = clf.model.parameters()
    seen = []

    def on_step(step, loss, acc):
        seen.append([p.data for p in params])

    with pytest.raises(ArithmeticError, match="loss|inf|nan|large"):  # weights ~1e200 at once
        fit(clf, X, y, SGD(params, lr=1e200), 10, on_step=on_step, backend=backend)
    assert len(seen) < 10
    # the Values hold the numbers of the last step taken (its measurement may be what failed)
    assert all(math.isfinite(p.data) for p in params)
    if seen:
        assert [p.data for p in params] == seen[-1]


@pytest.mark.parametrize("backend", ALL)
def test_the_classifier_traces_again_when_its_model_changes(backend):
    """The Classifier's programs are of its model: another model is traced again, and its
    regularisation is read on every call."""
    rows = [[0.5, -1.0, 1.0], [-0.3, 0.8, -1.0], [1.2, 0.1, 1.0]]
    model, other = MLP(2, [4, 1]), MLP(2, [4, 1])
    clf, eager = Classifier(model, 2), Classifier(model, 2)
    clf.loss_and_grad(rows, backend=backend)
    clf.reg = eager.reg = 10.0
    expected = eager.loss_and_grad(rows, backend="eager")[0]
    assert clf.loss_and_grad(rows, backend=backend)[0] == pytest.approx(expected, rel=1e-12)
    clf.model = eager.model = other
    expected = eager.loss_and_grad(rows, backend="eager")[0]
    assert clf.loss_and_grad(rows, backend=backend)[0] == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------------------- arrays (numpy)
@pytest.mark.parametrize(
    "name, options",
    [
        ("SGD", {"lr": 0.1}),
        ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01, "nesterov": True}),
        ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
        ("AdamW", {"lr": 0.01}),
    ],
)
def test_step_arrays_is_step(name, options):
    np = pytest.importorskip("numpy")
    from micrograd import optim

    rng = random.Random(1)
    a = [Value(rng.uniform(-1, 1)) for _ in range(7)]
    b = [Value(p.data) for p in a]
    opt_a, opt_b = getattr(optim, name)(a, **options), getattr(optim, name)(b, **options)
    theta = np.array([p.data for p in b])
    for _ in range(4):
        grads = [rng.uniform(-1, 1) for _ in a]
        for p, g in zip(a, grads):
            p.grad = g
        opt_a.step()
        opt_b.step_arrays(theta, np.array(grads))
    assert rel_err(theta, [p.data for p in a]) <= 1e-15
    opt_b.state_to_lists()
    for state in opt_b.state:
        mine, theirs = getattr(opt_b, state), getattr(opt_a, state)
        assert mine == theirs if None in theirs else rel_err(mine, theirs) <= 1e-15


def test_step_after_step_arrays_carries_the_state_on():
    np = pytest.importorskip("numpy")

    for opt_class in (SGD, Adam):
        a = [Value(0.5), Value(-1.0)]
        opt = opt_class(a, lr=0.1)
        theta = np.array([p.data for p in a])
        opt.step_arrays(theta, np.array([1.0, 2.0]))
        for p, t in zip(a, theta.tolist()):
            p.data, p.grad = t, 1.0
        opt.step()  # no crash on the arrays (or SGD's None) left by step_arrays
        assert all(isinstance(x, float) for x in (p.data for p in a))


def test_on_numpy_the_numbers_live_in_one_array_until_sync():
    """A step trains the program's array in place; only sync() writes the Values, once."""
    pytest.importorskip("numpy")
    X, y = moons(40, seed=0)
    clf = _classifier(hidden=(4,))
    trainer = Trainer(clf, X, y, Adam(clf.model.parameters(), lr=0.05), backend="numpy")
    w = clf.model.parameters()[0]
    before = w.data
    assert trainer.theta is trainer.program.theta
    for _ in range(3):
        trainer.step()
    assert w.data == before and float(trainer.theta[0]) != before
    trainer.sync()
    assert w.data == float(trainer.theta[0]) and isinstance(trainer.optimizer.m, list)


# ---------------------------------------------------------------------------- the site
def test_the_sites_playground_trains_through_the_trainer_as_the_eager_engine(monkeypatch):
    """site_src/assets/mg_site.py's Playground (the browser's, in Pyodide) trains through this
    Trainer on the python back end: the same losses and accuracies as fit() on the eager engine,
    with the site's defaults, run in CPython."""
    from micrograd import data

    assets = os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "site_src", "assets"
    )
    monkeypatch.syspath_prepend(assets)
    import mg_site

    playground = mg_site.Playground()  # moons, 100 points, MLP(2, [8, 8, 1]), Adam 0.03, seed 0
    state = playground.train(30)
    assert playground.run.trainer.backend.name == "python"
    X, y = data.moons(n=100, seed=0)
    random.seed(0)
    clf = Classifier(MLP(2, [8, 8, 1]), 2)
    history = fit(clf, X, y, Adam(clf.model.parameters(), lr=0.03), 30, backend="eager")
    assert rel_err(playground.run.losses, [h[0] for h in history]) <= 1e-12
    assert playground.run.accuracies == [h[1] for h in history]
    assert state["step"] == 30 and len(state["losses"]) == 30
    assert len(state["grid"]["scores"]) == state["grid"]["n"] ** 2


@pytest.mark.parametrize("backend", ALL)
def test_a_gradient_that_is_not_a_number_stops_the_step_before_the_parameters_move(backend):
    """1 / (p / x) + p at x = 0: the loss is a number on numpy (an inf in between made finite
    again) while the gradient is nan; eager and python raise in the op. No back end lets a nan
    reach the parameters."""
    from micrograd.app.train import Trainer
    from micrograd.engine import Value
    from micrograd.optim import SGD

    p = Value(2.0)

    class Task:
        monitors_batch = True

        def batch(self, X, y, backend):
            return replay.backend(backend).table([[x] for x in X])

        def program(self, kind, backend):
            return replay.compile(lambda x: 1 / (p / x) + p, [p], 1, [1.0], backend=backend)

        def loss_and_grad(self, rows, params, backend):
            values, grads, _ = self.program("loss", backend).value_and_grad(rows, 1.0, params)
            return float(sum(values)), grads

        def largest_product(self, rows):
            return rows

    trainer = Trainer(Task(), [0.0], None, SGD([p], lr=0.1), backend=backend)
    with pytest.raises(
        ArithmeticError
    ):  # ZeroDivisionError on eager and python, the check on numpy
        trainer.step()
    trainer.sync()
    assert p.data == 2.0
