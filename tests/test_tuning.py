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


def test_training_small_models_on_one_blas_thread_and_large_ones_as_configured():
    """fit() and the playground train a model whose largest product is small on one BLAS thread
    (they stall on a busy machine otherwise: benchmarks/RESULTS.md); a large one as configured."""
    import contextlib
    import random

    import pytest

    pytest.importorskip("numpy")
    from micrograd.app.train import Classifier, Trainer
    from micrograd.data import moons
    from micrograd.nn import MLP
    from micrograd.optim import Adam
    from micrograd.tuning import SMALL_PRODUCT

    X, y = moons(200, seed=0)
    random.seed(0)
    small = MLP(2, [8, 8, 1])
    trainer = Trainer(Classifier(small, 2), X, y, Adam(small.parameters()))
    assert not isinstance(trainer.threads(), contextlib.nullcontext)
    wide = MLP(2, [1024, 1024, 1])  # 1024 * 1024 * 200 multiply-adds in its middle product
    assert 1024 * 1024 * 200 > SMALL_PRODUCT
    trainer = Trainer(Classifier(wide, 2), X, y, Adam(wide.parameters()))
    assert isinstance(trainer.threads(), contextlib.nullcontext)
