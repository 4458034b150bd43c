"""micrograd.tuning: the opt-in process tuning of training loops."""

import gc
import threading

from micrograd import tuned


def test_overlapping_blocks_in_threads_put_the_settings_back():
    """Two tuned() blocks that overlap in two threads: the settings stay tuned until the last
    block ends, then are what they were before the first (not the tuned value)."""
    before = gc.get_threshold()
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first() -> None:
        with tuned():
            a_in.set()
            b_in.wait(10)
        a_out.set()

    def second() -> None:
        a_in.wait(10)
        with tuned():
            b_in.set()
            a_out.wait(10)
            seen["after the first left"] = gc.get_threshold()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen["after the first left"][2] == max(before[2], 100)
    assert gc.get_threshold() == before


def test_nested_blocks_restore_once():
    before = gc.get_threshold()
    with tuned():
        with tuned():
            assert gc.get_threshold()[2] == max(before[2], 100)
        assert gc.get_threshold()[2] == max(before[2], 100)
    assert gc.get_threshold() == before


def test_one_blas_thread_inside_the_block_and_the_counts_back_after():
    """BLAS threads: one inside the block (overlapping blocks share it), the original count after
    the last one ends; no import-time effect (a controller is made only when a block is entered)."""
    import pytest

    pytest.importorskip("numpy")
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from micrograd import tuning

    def blas_threads():
        return [
            i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"
        ]

    before = blas_threads()
    with tuning.one_blas_thread():
        assert set(blas_threads()) == {1}
        with tuning.one_blas_thread():
            assert set(blas_threads()) == {1}
        assert set(blas_threads()) == {1}  # the outer block is still open
    assert blas_threads() == before


def test_training_small_models_on_one_blas_thread_and_large_ones_as_configured(monkeypatch):
    """fit() and the playground train a model whose largest product is small on one BLAS thread
    (they stall on a busy machine otherwise: benchmarks/RESULTS.md), and one whose largest product
    reaches SMALL_PRODUCT as configured: the threshold is moved to the small model's own product
    instead of tracing a model of a million parameters."""
    import contextlib
    import random

    import pytest

    pytest.importorskip("numpy")
    from micrograd.app import train
    from micrograd.app.tasks import Classifier
    from micrograd.data import moons
    from micrograd.nn import MLP
    from micrograd.optim import Adam
    from micrograd.replay import backends

    X, y = moons(200, seed=0)
    random.seed(0)
    small = MLP(2, [8, 8, 1])
    trainer = train.Trainer(Classifier(small, 2), X, y, Adam(small.parameters()))
    assert trainer.task.largest_product(200) == 8 * 8 * 200  # the middle layer's product
    assert not isinstance(trainer.threads(), contextlib.nullcontext)
    monkeypatch.setattr(backends, "SMALL_PRODUCT", trainer.task.largest_product(200))
    assert isinstance(trainer.threads(), contextlib.nullcontext)


def _class_attributes():
    """Every attribute of every class of the engine: what a rewrite of the lesson would change."""
    from micrograd import engine

    classes = [v for v in vars(engine).values() if isinstance(v, type)]
    return {(c.__name__, k): v for c in classes for k, v in vars(c).items()}


def test_tuned_changes_settings_not_code():
    """Inside tuned(), Value's methods are the ones written in engine.py: nothing is replaced."""
    import inspect

    from micrograd import engine
    from micrograd.engine import Value

    before = _class_attributes()
    with tuned():
        assert _class_attributes() == before
        assert inspect.getsourcefile(Value.__mul__) == engine.__file__
    assert _class_attributes() == before


def test_a_breakpoint_on_value_mul_fires_in_every_step_of_eager_training():
    """fit(backend="eager") runs engine.py's Value.__mul__ as written: a debugger's breakpoint on
    its line stops there during the steps (not only while the step is traced)."""
    import bdb
    import inspect
    import random

    from micrograd import engine
    from micrograd.app.tasks import Classifier
    from micrograd.app.train import fit
    from micrograd.data import moons
    from micrograd.engine import Value
    from micrograd.nn import MLP
    from micrograd.optim import SGD

    lines, first = inspect.getsourcelines(Value.__mul__)
    line = first + len(lines) - 1  # the body: `return _apply2("*", self, other)`
    hits_at_step = []

    class Counter(bdb.Bdb):
        hits = 0

        def user_line(self, frame):
            if self.break_here(frame):
                Counter.hits += 1
                assert inspect.getsourcefile(Value.__mul__) == engine.__file__

    debugger = Counter()
    debugger.set_break(engine.__file__, line)
    X, y = moons(20, seed=0)
    random.seed(0)
    model = MLP(2, [4, 1])
    on_step = lambda step, loss, acc: hits_at_step.append(Counter.hits)  # noqa: E731
    debugger.runcall(
        fit,
        Classifier(model, 2),
        X,
        y,
        SGD(model.parameters(), 0.1),
        3,
        on_step=on_step,
        backend="eager",
    )
    assert hits_at_step[0] > 0
    assert hits_at_step[2] - hits_at_step[1] >= 20 * 4  # each point's products, in the step
