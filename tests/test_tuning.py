"""micrograd.tuning: the opt-in process tuning of training loops."""

import gc
import threading

from micrograd import tuned


def test_overlapping_blocks_in_threads_put_the_settings_back():
    """N12: two tuned() blocks that overlap in two threads: the settings stay tuned until the last
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
