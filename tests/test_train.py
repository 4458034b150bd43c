"""micrograd.app.train: the Classifier and fit(), on the fast path and on the eager engine."""

import math
import random

import pytest

from micrograd import io
from micrograd.app.train import Classifier, fit
from micrograd.data import moons
from micrograd.nn import MLP
from micrograd.optim import SGD


def _classifier(fast: bool) -> Classifier:
    random.seed(0)
    return Classifier(MLP(2, [8, 8, 1]), 2, fast=fast)


@pytest.mark.parametrize("fast", [True, False])
def test_on_step_sees_the_model_as_trained_so_far_and_changes_nothing(fast, tmp_path):
    """An on_step that asks the Classifier anything, or saves the model, sees the weights of
    that step and leaves training as it would be without it."""
    if fast:
        pytest.importorskip("numpy")
    X, y = moons(60, seed=0)
    plain = _classifier(fast)
    plain_history = fit(plain, X, y, SGD(plain.model.parameters(), lr=0.1), 30)
    clf = _classifier(fast)
    seen = []

    def on_step(step, loss, acc):
        seen.append((clf.accuracy(X, y), clf.predict(X[:3]), clf.scores(X[:1])))
        if step == 28:
            io.save(clf.model, tmp_path / "checkpoint.json")

    model = clf.model
    history = fit(clf, X, y, SGD(model.parameters(), lr=0.1), 30, on_step=on_step)
    assert history == plain_history
    assert [acc for acc, _, _ in seen] == [acc for _, acc in history]
    assert history[-1][1] > 0.8
    assert [p.data for p in model.parameters()] == [p.data for p in plain.model.parameters()]
    checkpoint = io.load(tmp_path / "checkpoint.json")
    before_last = Classifier(checkpoint, 2, fast=fast)
    assert before_last.accuracy(X, y) == seen[28][0]


def test_images_train_as_their_lists_of_floats_would():
    """A data set of Images (kept as bytes) gives the fast path the very rows, losses and
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
    trainer = clf.trainer()
    compact, plain = trainer.rows(images, y), trainer.rows(lists, y)
    assert np.array_equal(np.asarray(compact), plain)
    assert np.array_equal(compact[[3, 1, 4]], plain[[3, 1, 4]])
    assert trainer.loss_and_grad(compact[[0, 2]])[0] == trainer.loss_and_grad(plain[[0, 2]])[0]
    assert np.array_equal(trainer.scores(images), trainer.scores(lists))


@pytest.mark.parametrize("fast", [True, False])
def test_a_loss_that_is_not_a_number_stops_fit_before_the_parameters_move(fast):
    """The Trainer checks each step's loss before the optimizer moves anything: fit() raises, and
    the model keeps the numbers of the last step taken, on both paths."""
    if fast:
        pytest.importorskip("numpy")
    X, y = moons(60, seed=0)
    clf = _classifier(fast)
    params = clf.model.parameters()
    seen = []

    def on_step(step, loss, acc):
        seen.append([p.data for p in params])

    with pytest.raises(FloatingPointError, match="loss|inf|nan"):
        fit(clf, X, y, SGD(params, lr=1e200), 10, on_step=on_step)  # weights ~1e200 at once
    assert len(seen) < 10
    # the Values hold the numbers of the last step taken (its measurement may be what failed)
    assert all(math.isfinite(p.data) for p in params)
    if seen:
        assert [p.data for p in params] == seen[-1]


# ---------------------------------------------------------------------------- hostile and edge input
def test_classifier_retraces_when_reg_or_model_changes():
    """The Classifier traces again when its regularisation or its model changes, instead of
    caching its program for good."""
    pytest.importorskip("numpy")

    rows = [[0.5, -1.0, 1.0], [-0.3, 0.8, -1.0], [1.2, 0.1, 1.0]]
    model, other = MLP(2, [4, 1]), MLP(2, [4, 1])
    fast, eager = Classifier(model, 2), Classifier(model, 2, fast=False)
    fast.loss_and_grad(rows)
    fast.reg = eager.reg = 10.0
    assert fast.loss_and_grad(rows) == pytest.approx(eager.loss_and_grad(rows), rel=1e-12)
    fast.model = eager.model = other
    assert fast.loss_and_grad(rows) == pytest.approx(eager.loss_and_grad(rows), rel=1e-12)
