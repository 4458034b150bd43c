"""The test suite's own settings (tests/conftest.py): the same Hypothesis examples on every run."""

import os
import re

from hypothesis import settings


def test_the_suite_pins_its_own_hypothesis_profile():
    """The suite pins its own Hypothesis profile (derandomized, no database, no deadline) unless
    another is asked for."""
    if os.environ.get("MICROGRAD_HYPOTHESIS_PROFILE", "micrograd") == "micrograd":
        assert settings.default.derandomize and settings.default.database is None
        assert settings.default.deadline is None


def test_no_test_sets_a_deadline():
    """No test sets a Hypothesis deadline, which would override the profile's deadline=None."""
    here = os.path.dirname(os.path.abspath(__file__))
    for name in os.listdir(here):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(here, name), encoding="utf-8") as f:
                assert not re.search(r"deadline\s*=\s*\d", f.read()), name
